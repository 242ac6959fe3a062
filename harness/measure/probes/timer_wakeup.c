/* SPDX-License-Identifier: Apache-2.0 */
/* timer_wakeup.c - how late a periodic thread wakes up (cyclictest's figure).
 *
 * One measuring thread per selected CPU, each pinned to its CPU and started
 * under the worker's policy and priority (set explicitly on the thread, never
 * inherited by accident). Each sleeps with clock_nanosleep(CLOCK_MONOTONIC,
 * TIMER_ABSTIME) until its next period and, on waking, reads CLOCK_MONOTONIC:
 * latency = actual wake - intended wake, in nanoseconds, recorded into that
 * CPU's series with its sign. POSIX never lets an absolute sleep return
 * before its target, so a wake-up below zero is a broken timer or clock:
 * it is recorded as the negative figure it is (the metric is signed, see
 * harness/measure/histogram.h), never folded into 0, and counted in the
 * count metric `early`. A wake-up later than one or more following periods skips
 * them (the thread would otherwise fire a burst of back-to-back "wake-ups"
 * that never slept) and counts them in the count metric `missed`, as
 * cyclictest skips them.
 *
 * Histograms are not locked, so no two threads ever record into the same
 * one: each thread records only its own series while measuring, and the
 * merged metric `wakeup` is made anew from the series between runs, while
 * every thread waits (result_merge_series), so it holds each finished run;
 * the supervisor makes it once more after the worker ended, so a run cut
 * short by an interrupt keeps its recorded part.
 *
 * /dev/cpu_dma_latency is held at 0 from before the warm-up until the threads
 * joined (param dma-latency): deep C-state exits would otherwise dominate an
 * idle CPU's wake-up. The kernel drops the request when the fd closes, so a
 * crashed worker releases it too.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"

#define TW_MIN_INTERVAL_NS 10000ull            /* 10 us */
#define TW_MAX_INTERVAL_NS 10000000000ull      /* 10 s */
#define TW_STACK_BYTES (256u * 1024u)
#define TW_PREFAULT_BYTES (64u * 1024u)
#define NS_PER_S 1000000000ull

static const char *const onoff[] = { "on", "off", NULL };

static const struct probe_param params[] = {
	{ "cpus", "CPUs to measure on, one thread each: all (the CPUs rtconform may use; "
		  "the <sched cpu> one when given) or a list such as 0,2-3",
	  PARAM_CPULIST, NULL, "all" },
	{ "interval", "period of the wake-ups (10us .. 10s)", PARAM_DURATION, NULL, "1ms" },
	{ "dma-latency", "on: hold /dev/cpu_dma_latency at 0 while measuring (as cyclictest "
			 "does); off: leave power management alone",
	  PARAM_ENUM, onoff, "on" },
};

enum { M_WAKEUP, M_EARLY, M_MISSED };

static const struct probe_metric metrics[] = {
	[M_WAKEUP] = { "wakeup", "actual - intended wake-up time of a periodic clock_nanosleep "
		       "(CLOCK_MONOTONIC, absolute), every selected CPU merged, signed: an early "
		       "wake-up is below zero; per-CPU series beside it", METRIC_DURATION },
	[M_EARLY] = { "early", "wake-ups before the intended time (a POSIX violation), every "
		      "selected CPU", METRIC_COUNT },
	[M_MISSED] = { "missed", "periods skipped because a wake-up came after the next one was "
		       "due, every selected CPU", METRIC_COUNT },
};

struct tw_shared {
	pthread_barrier_t done, go; /* between stages: see tw_stages() */
	sem_t start;                /* released once every thread exists */
	volatile int quit;          /* read by threads after `go` only */
	int failed;                 /* set (atomically) before `done` */
	uint64_t interval_ns;
};

struct tw_thread {
	struct probe_ctx *c;
	struct tw_shared *sh;
	unsigned series;
	int cpu;
	uint64_t missed;
	pthread_t tid;
};

static inline uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Sleep until absolute CLOCK_MONOTONIC time t. Returns 0 or an errno; EINTR
 * only when the worker was asked to stop. */
static int sleep_until(uint64_t t, volatile int *stop)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NS_PER_S), .tv_nsec = (long)(t % NS_PER_S) };
	int rc;
	/* Absolute: resuming after a signal keeps the same target. */
	while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
		if (*stop)
			return EINTR;
	return rc;
}

/* The next target after a wake-up at `now` that was due at `due`: one
 * period on, and past `now` (periods already over are skipped and counted). */
static inline uint64_t next_target(uint64_t due, uint64_t now, uint64_t interval,
				   uint64_t *missed)
{
	uint64_t next = due + interval;
	if (__builtin_expect(now > next, 0)) {
		uint64_t skip = (now - next) / interval + 1;
		next += skip * interval;
		*missed += skip;
	}
	return next;
}

static void *tw_thread_main(void *arg)
{
	struct tw_thread *t = arg;
	struct probe_ctx *c = t->c;
	struct tw_shared *sh = t->sh;
	const uint64_t interval = sh->interval_ns;
	uint64_t ignored = 0;
	int rc = 0;

	/* Memory is locked (MCL_FUTURE) so the stack is resident; touching it
	 * also takes the first-use faults of the page tables out of the way. */
	volatile char pad[TW_PREFAULT_BYTES];
	for (size_t i = 0; i < sizeof pad; i += 4096)
		pad[i] = 0;

	while (sem_wait(&sh->start) != 0 && errno == EINTR)
		;
	if (sh->quit)
		return NULL;

	uint64_t next = mono_ns() + interval;
	for (uint64_t i = 0; i < c->warmup && !rc && !*c->stop; i++) {
		if ((rc = sleep_until(next, c->stop)) != 0)
			break;
		next = next_target(next, mono_ns(), interval, &ignored);
	}

	for (;;) {
		/* Said before `done`, so the main thread sees it when deciding;
		 * the first failing thread gives the reason. */
		if (rc && rc != EINTR && !__atomic_exchange_n(&sh->failed, 1, __ATOMIC_ACQ_REL))
			probe_fail(c, rc, "clock_nanosleep on CPU %d: %s", t->cpu, strerror(rc));
		pthread_barrier_wait(&sh->done);
		pthread_barrier_wait(&sh->go); /* the main thread decided */
		if (sh->quit)
			break;
		if (rc)
			continue; /* keep step with the others until told to quit */
		/* A fresh phase per run: the barriers took an unknown time. */
		next = mono_ns() + interval;
		for (uint64_t i = 0; i < c->iterations; i++) {
			if ((rc = sleep_until(next, c->stop)) != 0)
				break;
			FAULT_DELAY(i);
			uint64_t now = mono_ns();
			/* Signed: an early wake-up stays negative. The two's
			 * complement difference is exact within +-292 years. */
			int64_t late = (int64_t)(now - next);
			probe_record_series_signed(c, t->series, late);
			next = next_target(next, now, interval, &t->missed);
			if (*c->stop)
				break;
		}
	}
	return NULL;
}

/* Open /dev/cpu_dma_latency and ask for 0 us; the request lasts while the
 * fd stays open. Returns the fd, or -1 with why in note. */
static int hold_dma_latency(char *why, size_t len)
{
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "cannot open /dev/cpu_dma_latency: %s", strerror(errno));
		return -1;
	}
	int32_t zero = 0;
	ssize_t w = write(fd, &zero, sizeof zero);
	if (w != (ssize_t)sizeof zero) {
		snprintf(why, len, "cannot write /dev/cpu_dma_latency: %s",
			 w < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	return fd;
}

static void scale_ns(struct metric_data *m)
{
	/* Samples are CLOCK_MONOTONIC nanoseconds, not timebase ticks: the
	 * intended wake-up is a CLOCK_MONOTONIC time, so the wake must be
	 * read on the same clock. No cycle figures. */
	m->ns_per_unit = 1.0;
	m->cycles_per_unit = 0.0;
}

/* The interval, and whether the periods fit the timeout: they alone take
 * (warmup + runs x iterations) x interval, so say so now rather than be
 * killed by the watchdog at the end. 0 or -errno after probe_fail. */
static int tw_interval(struct probe_ctx *c, uint64_t *interval)
{
	char why[200];
	if (units_duration_parse_ns(probe_value(c, "interval"), false, interval, why, sizeof why) != 0)
		return probe_fail(c, EINVAL, "interval: %s", why);
	/* By time: the duration, and the run that starts just before it ends. */
	long double runs = c->duration_ns ? 1.0L : (long double)c->runs;
	long double need = ((long double)c->warmup + runs * c->iterations) * *interval +
			   (long double)c->duration_ns;
	if (c->timeout_ns && need >= (long double)c->timeout_ns) {
		char a[32], b[32];
		units_fmt_ns((double)need, a, sizeof a);
		units_fmt_ns((double)c->timeout_ns, b, sizeof b);
		return probe_fail(c, ETIME, "(warmup + runs x iterations) x interval = %s, not less "
				  "than the timeout of %s: raise <run timeout> or lower the counts", a, b);
	}
	return 0;
}

/* One series per measured CPU, in nanoseconds like the merged metric. */
static void tw_series(struct probe_ctx *c, const int *cpus, int n)
{
	struct result_shm *res = c->res;
	scale_ns(c->m[0]);
	for (int i = 0; i < n; i++) {
		scale_ns(result_series(res, (unsigned)i));
		res->series_cpu[i] = cpus[i];
	}
	res->nseries = (uint32_t)n;
}

/* The shared state (start semaphore, both barriers for n threads and this
 * one) and n thread slots. 0, or -errno after probe_fail with nothing left
 * to release; tw_free releases them after a success. */
static int tw_alloc(struct probe_ctx *c, int n, uint64_t interval, struct tw_shared **shp,
		    struct tw_thread **thp)
{
	struct tw_shared *sh = calloc(1, sizeof *sh);
	struct tw_thread *th = calloc((size_t)n, sizeof *th);
	int rc;
	if (!sh || !th) {
		rc = probe_fail(c, ENOMEM, "allocating %d measuring threads: %s", n, strerror(ENOMEM));
		goto free_mem;
	}
	sh->interval_ns = interval;
	if (sem_init(&sh->start, 0, 0) != 0) {
		rc = probe_fail(c, errno, "sem_init: %s", strerror(errno));
		goto free_mem;
	}
	if ((rc = pthread_barrier_init(&sh->done, NULL, (unsigned)n + 1)) != 0) {
		rc = probe_fail(c, rc, "pthread_barrier_init: %s", strerror(rc));
		goto destroy_sem;
	}
	if ((rc = pthread_barrier_init(&sh->go, NULL, (unsigned)n + 1)) != 0) {
		rc = probe_fail(c, rc, "pthread_barrier_init: %s", strerror(rc));
		pthread_barrier_destroy(&sh->done);
		goto destroy_sem;
	}
	*shp = sh;
	*thp = th;
	return 0;
destroy_sem:
	sem_destroy(&sh->start);
free_mem:
	free(th);
	free(sh);
	return rc;
}

static void tw_free(struct tw_shared *sh, struct tw_thread *th)
{
	pthread_barrier_destroy(&sh->done);
	pthread_barrier_destroy(&sh->go);
	sem_destroy(&sh->start);
	free(th);
	free(sh);
}

/* Hold /dev/cpu_dma_latency when asked; note says what became of it.
 * Returns the fd to close once the threads joined, or -1. */
static int tw_dma_latency(struct probe_ctx *c, char *note, size_t len)
{
	int fd = -1;
	if (strcmp(probe_value(c, "dma-latency"), "on") == 0) {
		char dwhy[160];
		fd = hold_dma_latency(dwhy, sizeof dwhy);
		if (fd < 0)
			snprintf(note, len, "; cpu_dma_latency NOT held (%s)", dwhy);
		else
			snprintf(note, len, "; cpu_dma_latency held at 0");
	} else {
		snprintf(note, len, "; cpu_dma_latency left alone (dma-latency=off)");
	}
	return fd;
}

/* Create t's thread with its CPU, policy and priority in its attributes,
 * so it is never seen running anywhere else or under another policy.
 * 0 or -errno after probe_fail. */
static int tw_create(struct probe_ctx *c, struct tw_thread *t)
{
	cpu_set_t one;
	struct sched_param sp = { .sched_priority = c->priority };
	int rc;
	CPU_ZERO(&one);
	CPU_SET(t->cpu, &one);
	char task[48];
	snprintf(task, sizeof task, "the measuring thread of CPU %d", t->cpu);
	rc = probe_start_thread(c, task, &t->tid, c->policy, sp.sched_priority,
				&one, TW_STACK_BYTES, tw_thread_main, t);
	if (rc)
		return probe_fail(c, rc, "creating the measuring thread on CPU %d (policy %d, "
				  "priority %d): %s", t->cpu, c->policy, c->priority, strerror(rc));
	return 0;
}

/* Create a thread per CPU, then release every one made (*created of them).
 * On a failure the ones made leave at once, before any barrier. 0 or
 * -errno after probe_fail. */
static int tw_start(struct probe_ctx *c, struct tw_shared *sh, struct tw_thread *th,
		    const int *cpus, int n, int *created)
{
	int rc = 0;
	c->res->state = WS_WARMUP;
	*created = 0;
	for (int i = 0; i < n && !rc; i++) {
		th[i] = (struct tw_thread){ .c = c, .sh = sh, .series = (unsigned)i, .cpu = cpus[i] };
		if ((rc = tw_create(c, &th[i])) == 0)
			(*created)++;
	}
	if (rc)
		sh->quit = 1;
	for (int i = 0; i < *created; i++)
		sem_post(&sh->start);
	return rc;
}

/* The main thread's part of the measurement: stages are warm-up, run 0,
 * run 1, ... Between two stages every thread meets this one at `done`;
 * here the previous run is closed and the next opened (or quit decided),
 * then `go` releases them. */
static void tw_stages(struct probe_ctx *c, struct tw_shared *sh, const struct tw_thread *th,
		      int n)
{
	uint64_t early_seen = 0, missed_seen = 0;
	for (uint32_t r = 0;; r++) {
		pthread_barrier_wait(&sh->done);
		if (r > 0) {
			/* The run's early wake-ups: what the series' histograms
			 * of samples below zero (warm-up is never recorded)
			 * gained since the last run, read while every thread
			 * waits at the barrier; its missed periods the same way
			 * from the threads' counts (the warm-up's are not
			 * counted). */
			uint64_t early = 0, missed = 0;
			for (int i = 0; i < n; i++) {
				early += metric_neg(result_series(c->res, (unsigned)i))->count;
				missed += th[i].missed;
			}
			probe_add_count(c, M_EARLY, early - early_seen);
			probe_add_count(c, M_MISSED, missed - missed_seen);
			early_seen = early;
			missed_seen = missed;
			result_merge_series(c->res);
			/* Zero, not the samples taken: the batch figure
			 * (run time / N) of a periodic probe is only the
			 * period, so it is left out of the reports. */
			probe_run_end(c, 0);
		}
		if (r == c->runs || *c->stop || sh->failed)
			sh->quit = 1;
		else
			probe_run_begin(c, r);
		pthread_barrier_wait(&sh->go);
		if (sh->quit)
			break;
	}
}

/* Once the threads joined, single-threaded: the merged metric from the
 * series (the recorded part of a run cut short too), and the note (missed
 * periods per CPU, interval, dma_note). */
static void tw_merge(struct probe_ctx *c, const struct tw_thread *th, const int *cpus, int n,
		     uint64_t interval, const char *dma_note)
{
	struct result_shm *res = c->res;
	uint64_t missed = 0;
	result_merge_series(res);
	for (int i = 0; i < n; i++)
		missed += th[i].missed;
	char interval_text[32];
	units_fmt_ns((double)interval, interval_text, sizeof interval_text);
	int used = snprintf(res->note, sizeof res->note, "missed periods: %llu (",
			    (unsigned long long)missed);
	for (int i = 0; i < n && used > 0 && (size_t)used < sizeof res->note; i++)
		used += snprintf(res->note + used, sizeof res->note - (size_t)used, "%scpu%d %llu",
				 i ? ", " : "", cpus[i], (unsigned long long)th[i].missed);
	if (used > 0 && (size_t)used < sizeof res->note)
		snprintf(res->note + used, sizeof res->note - (size_t)used, "); interval %s%s",
			 interval_text, dma_note);
}

static int tw_run(struct probe_ctx *c)
{
	struct result_shm *res = c->res;
	int cpus[PROBE_MAX_SERIES];
	struct tw_shared *sh = NULL;
	struct tw_thread *th = NULL;
	uint64_t interval;
	char dma_note[200];
	int rc, created;

	if ((rc = tw_interval(c, &interval)) != 0)
		return rc;
	int max = res->nseries_alloc < PROBE_MAX_SERIES ? (int)res->nseries_alloc : PROBE_MAX_SERIES;
	int n = probe_cpus(c, "cpus", cpus, max);
	if (n < 0)
		return n;
	tw_series(c, cpus, n);
	if ((rc = tw_alloc(c, n, interval, &sh, &th)) != 0)
		return rc;
	int dma_fd = tw_dma_latency(c, dma_note, sizeof dma_note);

	if ((rc = tw_start(c, sh, th, cpus, n, &created)) == 0)
		tw_stages(c, sh, th, created);

	for (int i = 0; i < created; i++)
		pthread_join(th[i].tid, NULL);
	if (dma_fd >= 0)
		close(dma_fd); /* released as soon as the measurement is over */
	tw_merge(c, th, cpus, n, interval, dma_note);
	tw_free(sh, th);
	return rc;
}

static const char *tw_check(const char *const *values, char *buf, size_t len)
{
	uint64_t ns;
	char err[160];
	if (units_duration_parse_ns(values[1], false, &ns, err, sizeof err) != 0) {
		snprintf(buf, len, "probe timer-wakeup: interval: %s", err);
		return buf;
	}
	if (ns < TW_MIN_INTERVAL_NS || ns > TW_MAX_INTERVAL_NS) {
		snprintf(buf, len, "probe timer-wakeup: interval %s is outside 10us .. 10s",
			 values[1]);
		return buf;
	}
	return NULL;
}

/* One wake-up an interval. */
static void tw_pace(const char *const *values, struct probe_pace *out)
{
	out->iteration_s = probe_decl_value_s(values[1]);
}

const struct probe probe_timer_wakeup = {
	.decl.name = "timer-wakeup",
	.decl.pace = tw_pace,
	.decl.verifies = "each CPU's measuring thread: the worker's policy and priority, and its "
		"one CPU",
	.decl.help = "periodic clock_nanosleep wake-up latency, one thread per CPU (cyclictest's "
		"measurement); iterations = wake-ups per thread per run",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	.decl.signed_metrics = 1u << M_WAKEUP,
	/* One wake-up an iteration on every measured CPU, merged. */
	.decl.per_iteration = (const unsigned[]){ [M_WAKEUP] = PROBE_PER_CPU, [M_EARLY] = 1,
						   [M_MISSED] = 1 },
	.decl.check = tw_check,
	.run = tw_run,
	.per_cpu_series = true,
	.mostly_sleeps = true,
};
