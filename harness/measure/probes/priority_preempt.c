/* SPDX-License-Identifier: Apache-2.0 */
/* priority_preempt.c - a lower-priority real-time thread must never run
 * while every CPU has a runnable higher-priority one (the rule LTP's
 * sched_football plays: the defence keeps the offence off the field).
 *
 * On the N CPUs selected (param cpus) the probe makes N "high" and N "low"
 * SCHED_FIFO threads, the highs above the lows and both above the worker's
 * own thread. A run is one match of `duration`:
 *
 *   1. the worker opens the match and blocks; the highs wake and each
 *      checks in (`spinning` + 1) and spins;
 *   2. the high that checks in last (the captain) sets the match's end,
 *      `duration` from then, and opens the lows' gate: the lows are
 *      released only once every high is known to be on a CPU and spinning.
 *      Until the end the captain re-opens the gate every PP_KICK_NS, so a
 *      low that got to run and went back to wait is woken again;
 *   3. each time a low thread executes (it returns from its wait on the
 *      gate) it counts a run, and a violation when `spinning` is still N:
 *      no high had stopped, so every CPU had a runnable higher-priority
 *      thread and the scheduler ran the low one anyway;
 *   4. at the end each high leaves (`spinning` - 1) and blocks; the last
 *      one marks the match over and opens the gate a final time, so the
 *      lows run (legitimately now: a CPU is free), see the match over and
 *      block again. The last thread to finish wakes the worker, which adds
 *      the lows' violations to the run.
 *
 * A high decrements `spinning` before it can block, so a low that sees N
 * ran while all N highs were runnable: a violation is never counted for a
 * correct scheduler (one ending right at the match's end may be missed).
 *
 * invert=yes swaps the groups' priorities: the "lows" then preempt the
 * spinning highs at every opening of the gate, so that configuration must
 * count violations (the check shown able to fail).
 *
 * Every busy loop ends at the match's end, at the worker's stop flag, or
 * PP_START_GRACE_NS after the match opened when not every high checked in;
 * every thread blocks between matches, so the harness's RT-throttling
 * guard rests between runs as for any busy probe.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"

#define PP_MIN_DURATION_NS 1000000ull       /* 1 ms */
#define PP_MAX_DURATION_NS 200000000ull     /* 200 ms: far under the RT runtime */
#define PP_KICK_NS 100000ull                /* the captain re-opens the gate every 100 us */
#define PP_START_GRACE_NS 100000000ull      /* every high must check in within 100 ms, */
#define PP_REPLAYS 3                        /* else the match is void and replayed */
#define PP_STACK_BYTES (256u * 1024u)
#define PP_PREFAULT_BYTES (64u * 1024u)

static const char *const placements[] = { "free", "pinned", NULL };
static const char *const yesno[] = { "no", "yes", NULL };

enum { P_CPUS, P_DURATION, P_PLACEMENT, P_INVERT };

static const struct probe_param params[] = {
	[P_CPUS] = { "cpus", "CPUs to play on, one high and one low thread each: all (the CPUs "
		     "rtconform may use; the <sched cpu> one when given) or a list such as 0,2-3",
		     PARAM_CPULIST, NULL, "all" },
	[P_DURATION] = { "duration", "how long the high threads spin in each run (1ms .. 200ms)",
			 PARAM_DURATION, NULL, "50ms" },
	[P_PLACEMENT] = { "placement", "free: every thread may run on any selected CPU (the "
			  "scheduler places them); pinned: high and low thread i on CPU i",
			  PARAM_ENUM, placements, "free" },
	[P_INVERT] = { "invert", "yes: the low group gets the higher priority, so it runs and "
		       "every run counts violations (the configuration that must fail)",
		       PARAM_ENUM, yesno, "no" },
};

enum { M_VIOLATIONS };

static const struct probe_metric metrics[] = {
	[M_VIOLATIONS] = { "violations", "times a low-priority thread ran while every selected "
			   "CPU had a runnable high-priority thread", METRIC_COUNT },
};

/* What the threads share. Each word the others poll or wait on has a
 * cache line of its own. */
struct pp_shared {
	_Alignas(64) uint32_t match;    /* number of the match; the highs wait on it */
	_Alignas(64) uint32_t gate;     /* opened (+1) by the highs; the lows wait on it */
	_Alignas(64) uint32_t spinning; /* highs checked in and not yet left */
	uint32_t over;                  /* the match whose highs have all left */
	uint64_t deadline;              /* tb ticks: the match's end; 0 until all checked in */
	_Alignas(64) uint32_t finished; /* threads done with the match; the last wakes the worker */
	uint32_t quit, stalled;
	uint32_t n;                     /* highs, and lows */
	uint64_t duration, kick;        /* tb ticks */
	uint64_t start_limit;           /* tb ticks: when the highs stop waiting for each other */
};

struct pp_thread {
	_Alignas(64) uint64_t ran; /* low: executions this match; high: gate re-openings */
	uint64_t violations;       /* low: executions while every high spun */
	struct pp_shared *sh;
	const struct probe_ctx *c;
	int cpu;                   /* pinned CPU, or -1: any selected */
	int priority;
	bool high, created;
	pthread_t tid;
};

/* Block until *w is no longer `seen`; returns the new value. */
static uint32_t wait_change(uint32_t *w, uint32_t seen)
{
	uint32_t now;
	while ((now = __atomic_load_n(w, __ATOMIC_ACQUIRE)) == seen)
		probe_futex(w, FUTEX_WAIT, seen, NULL); /* EAGAIN, EINTR: look again */
	return now;
}

static void open_gate(struct pp_shared *sh)
{
	__atomic_add_fetch(&sh->gate, 1, __ATOMIC_RELEASE);
	probe_futex(&sh->gate, FUTEX_WAKE, INT_MAX, NULL);
}

/* A thread is done with the match; the last of the 2N wakes the worker. */
static void finish(struct pp_shared *sh)
{
	if (__atomic_add_fetch(&sh->finished, 1, __ATOMIC_ACQ_REL) == 2 * sh->n)
		probe_futex(&sh->finished, FUTEX_WAKE, 1, NULL);
}

static void prefault_stack(void)
{
	/* Memory is locked (MCL_FUTURE); touching the stack takes its
	 * first-use faults out of the measured matches. */
	volatile char pad[PP_PREFAULT_BYTES];
	for (size_t i = 0; i < sizeof pad; i += 4096)
		pad[i] = 0;
}

/* One high thread's match: check in, spin to the end, leave. */
static void high_match(struct pp_thread *t, uint32_t match)
{
	struct pp_shared *sh = t->sh;
	volatile int *stop = t->c->stop;
	bool captain = __atomic_add_fetch(&sh->spinning, 1, __ATOMIC_SEQ_CST) == sh->n;
	uint64_t next_kick = 0;
	if (captain) {
		uint64_t now = tb_now();
		__atomic_store_n(&sh->deadline, now + sh->duration, __ATOMIC_RELEASE);
		open_gate(sh); /* every high is spinning: release the lows */
		next_kick = now + sh->kick;
	}
	for (;;) {
		uint64_t now = tb_now();
		uint64_t end = __atomic_load_n(&sh->deadline, __ATOMIC_ACQUIRE);
		if (end ? now >= end : now >= sh->start_limit) {
			if (!end)
				__atomic_store_n(&sh->stalled, 1, __ATOMIC_RELEASE);
			break;
		}
		if (*stop)
			break;
		if (captain && now >= next_kick) {
			open_gate(sh);
			t->ran++;
			next_kick = now + sh->kick;
		}
	}
	/* Left while still on a CPU, before blocking: a low that still sees
	 * N ran beside N runnable highs. */
	if (__atomic_sub_fetch(&sh->spinning, 1, __ATOMIC_SEQ_CST) == 0) {
		__atomic_store_n(&sh->over, match, __ATOMIC_RELEASE);
		open_gate(sh); /* let the lows see the match is over */
	}
}

static void *high_main(void *arg)
{
	struct pp_thread *t = arg;
	struct pp_shared *sh = t->sh;
	uint32_t seen = 0;
	prefault_stack();
	for (;;) {
		seen = wait_change(&sh->match, seen);
		if (__atomic_load_n(&sh->quit, __ATOMIC_ACQUIRE))
			return NULL;
		high_match(t, seen);
		finish(sh);
	}
}

static void *low_main(void *arg)
{
	struct pp_thread *t = arg;
	struct pp_shared *sh = t->sh;
	uint32_t seen = 0, done = 0;
	prefault_stack();
	for (;;) {
		seen = wait_change(&sh->gate, seen);
		if (__atomic_load_n(&sh->quit, __ATOMIC_ACQUIRE))
			return NULL;
		/* This thread is executing: was every high still runnable? */
		t->ran++;
		if (__atomic_load_n(&sh->spinning, __ATOMIC_SEQ_CST) == sh->n)
			t->violations++;
		/* Once per match (a void match may mark itself over twice). */
		uint32_t over = __atomic_load_n(&sh->over, __ATOMIC_ACQUIRE);
		if (over == __atomic_load_n(&sh->match, __ATOMIC_ACQUIRE) && over != done) {
			done = over;
			finish(sh);
		}
	}
}

/* Create t's thread with its policy, priority and CPUs in its attributes.
 * 0 or -errno after probe_fail. */
static int pp_create(const struct probe_ctx *c, struct pp_thread *t, const cpu_set_t *any)
{
	cpu_set_t one;
	struct sched_param sp = { .sched_priority = t->priority };
	int rc;
	if (t->cpu >= 0) {
		CPU_ZERO(&one);
		CPU_SET(t->cpu, &one);
	}
	rc = probe_start_thread(c, t->high ? "a high thread" : "a low thread", &t->tid,
				SCHED_FIFO, sp.sched_priority, t->cpu >= 0 ? &one : any,
				PP_STACK_BYTES, t->high ? high_main : low_main, t);
	if (rc)
		return probe_fail(c, rc, "creating a %s thread (SCHED_FIFO %d, %s%d): %s",
				  t->high ? "high" : "low", t->priority,
				  t->cpu >= 0 ? "CPU " : "free, ", t->cpu >= 0 ? t->cpu : CPU_COUNT(any),
				  strerror(rc));
	t->created = true;
	return 0;
}

/* Let every thread made leave, and join them. */
static void pp_stop_threads(struct pp_shared *sh, struct pp_thread *th, int nth)
{
	__atomic_store_n(&sh->quit, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&sh->match, 1, __ATOMIC_RELEASE);
	probe_futex(&sh->match, FUTEX_WAKE, INT_MAX, NULL);
	open_gate(sh);
	for (int i = 0; i < nth; i++)
		if (th[i].created)
			pthread_join(th[i].tid, NULL);
}

/* Play match number m and wait until all 2N threads are done with it.
 * 0; 1 when the match was void (not every high checked in within
 * PP_START_GRACE_NS: a CPU was held by a task above the highs); or -errno
 * after probe_fail. */
static int pp_match(struct probe_ctx *c, struct pp_shared *sh, uint32_t m)
{
	const struct timespec tick = { 0, 10000000 }; /* look at the clock every 10 ms */
	__atomic_store_n(&sh->finished, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->deadline, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->stalled, 0, __ATOMIC_RELAXED);
	uint64_t now = tb_now();
	sh->start_limit = now + (uint64_t)((double)PP_START_GRACE_NS / c->tb->ns_per_tick);
	/* Every thread finished the last match; a generous bound for this one. */
	uint64_t give_up = sh->start_limit + sh->duration +
			   (uint64_t)(1e9 / c->tb->ns_per_tick);
	__atomic_store_n(&sh->match, m, __ATOMIC_RELEASE);
	probe_futex(&sh->match, FUTEX_WAKE, INT_MAX, NULL);
	uint32_t f;
	while ((f = __atomic_load_n(&sh->finished, __ATOMIC_ACQUIRE)) != 2 * sh->n) {
		if (tb_now() > give_up)
			return probe_fail(c, ETIMEDOUT, "the threads did not finish a %s match "
					  "within a second of its end (%u of %u done)",
					  probe_value(c, "duration"), f, 2 * sh->n);
		probe_futex(&sh->finished, FUTEX_WAIT, f, &tick);
	}
	return __atomic_load_n(&sh->stalled, __ATOMIC_ACQUIRE) ? 1 : 0;
}

/* What the lows and the captain did over the matches counted. */
struct pp_tally {
	uint64_t ran;        /* low-thread executions */
	uint64_t violations; /* those while every high was runnable */
	uint64_t kicks;      /* the captain's re-openings of the gate */
	uint64_t voided;     /* matches replayed: not every high checked in */
};

/* Add the last match's counters to *t, and clear them for the next. */
static void pp_collect(struct pp_thread *th, int nth, struct pp_tally *t)
{
	for (int i = 0; i < nth; i++) {
		if (th[i].high)
			t->kicks += th[i].ran;
		else
			t->ran += th[i].ran;
		t->violations += th[i].violations;
		th[i].ran = th[i].violations = 0;
	}
}

/* One complete match, replayed while void (at most PP_REPLAYS times). A
 * void match's violations still count: a low that ran while every high
 * was runnable broke the rule whether or not the match went the full
 * length. 0 or -errno after probe_fail. */
static int pp_play_one(struct probe_ctx *c, struct pp_shared *sh, struct pp_thread *th,
		       uint32_t *m, struct pp_tally *t)
{
	for (int tries = 0;; tries++) {
		int rc = pp_match(c, sh, ++*m);
		if (rc < 0)
			return rc;
		pp_collect(th, 2 * (int)sh->n, t);
		if (rc == 0)
			return 0;
		t->voided++;
		if (tries == PP_REPLAYS)
			return probe_fail(c, EBUSY, "not every high thread got to run within %llu "
					  "ms of a match's start, %d times in a row: another "
					  "real-time task above priority %d holds a selected CPU",
					  PP_START_GRACE_NS / 1000000ull, PP_REPLAYS + 1,
					  th[0].priority);
	}
}

/* The priorities: the worker's P below both groups, the lows at P+1 and
 * the highs at P+2 (swapped with invert=yes). 0 or -errno after
 * probe_fail when the worker is not real-time or P+2 is out of range. */
static int pp_priorities(const struct probe_ctx *c, int *high, int *low)
{
	if (c->policy != SCHED_FIFO && c->policy != SCHED_RR)
		return probe_fail(c, EINVAL, "priority-preempt runs SCHED_FIFO threads above the "
				  "worker: give the requirement a real-time policy "
				  "(<sched policy=\"fifo\" priority=\"N\"/>)");
	int max = sched_get_priority_max(SCHED_FIFO);
	if (c->priority + 2 > max)
		return probe_fail(c, EINVAL, "priority-preempt needs two SCHED_FIFO priorities "
				  "above the worker's %d, and %d is the highest: give a priority "
				  "of at most %d", c->priority, max, max - 2);
	bool invert = strcmp(probe_value(c, "invert"), "yes") == 0;
	*high = c->priority + (invert ? 1 : 2);
	*low = c->priority + (invert ? 2 : 1);
	return 0;
}

/* The duration, and whether the matches fit the timeout: they alone take
 * (runs + a warm-up match when warmup > 0) x duration, and the RT-throttling guard's
 * rests come on top, so they may use half of it. 0 or -errno after
 * probe_fail. */
static int pp_duration(const struct probe_ctx *c, uint64_t *ns)
{
	char why[160];
	if (units_duration_parse_ns(probe_value(c, "duration"), false, ns, why, sizeof why) != 0)
		return probe_fail(c, EINVAL, "duration: %s", why);
	uint64_t matches = c->runs + (c->warmup ? 1 : 0);
	long double need = (long double)matches * *ns;
	if (c->timeout_ns && 2 * need >= (long double)c->timeout_ns) {
		char a[32], b[32];
		units_fmt_ns((double)need, a, sizeof a);
		units_fmt_ns((double)c->timeout_ns, b, sizeof b);
		return probe_fail(c, ETIME, "%llu matches (runs, and a warm-up when warmup > 0) "
				  "x duration = %s, not less than half the timeout of %s (the rest "
				  "is for the rests against RT throttling): raise <run timeout> or "
				  "lower runs or duration", (unsigned long long)matches, a, b);
	}
	return 0;
}

/* Make N highs at priority `high` and N lows at `low`, highs first
 * (th[0..n-1]), pinned pairwise or free on the selected CPUs. 0 or -errno after probe_fail; the caller
 * stops what was made either way. */
static int pp_start(struct probe_ctx *c, struct pp_shared *sh, struct pp_thread *th,
		    const int *cpus, int n, int high, int low)
{
	int rc;
	bool pinned = strcmp(probe_value(c, "placement"), "pinned") == 0;
	cpu_set_t any;
	CPU_ZERO(&any);
	for (int i = 0; i < n; i++)
		CPU_SET(cpus[i], &any);
	for (int i = 0; i < 2 * n; i++) {
		th[i] = (struct pp_thread){ .sh = sh, .c = c, .high = i < n,
					    .priority = i < n ? high : low,
					    .cpu = pinned ? cpus[i % n] : -1 };
		if ((rc = pp_create(c, &th[i], &any)) != 0)
			return rc;
	}
	return 0;
}

/* A warm-up match when warmup > 0, then one match per run. 0 or -errno
 * after probe_fail. */
static int pp_play(struct probe_ctx *c, struct pp_shared *sh, struct pp_thread *th,
		   struct pp_tally *t)
{
	struct pp_tally warmup = { 0 };
	uint32_t m = 0;
	int rc;
	c->res->state = WS_WARMUP;
	if (c->warmup && (rc = pp_play_one(c, sh, th, &m, &warmup)) != 0)
		return rc;
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		uint64_t before = t->violations;
		probe_run_begin(c, r);
		if ((rc = pp_play_one(c, sh, th, &m, t)) != 0)
			return rc;
		probe_add_count(c, M_VIOLATIONS, t->violations - before);
		/* No samples: a count-only probe has no batch figure. */
		probe_run_end(c, 0);
	}
	return 0;
}

static void pp_note(struct probe_ctx *c, const struct pp_thread *th, const int *cpus, int n,
		    const struct pp_tally *t)
{
	char list[128] = "";
	int used = 0;
	for (int i = 0; i < n && used >= 0 && (size_t)used < sizeof list; i++)
		used += snprintf(list + used, sizeof list - (size_t)used, "%s%d", i ? "," : "",
				 cpus[i]);
	/* Short, the counts first: the RT-throttling guard appends its own
	 * sentence, and a long CPU list is cut at the end. */
	char *note = c->res->note;
	size_t len = sizeof c->res->note;
	int w = snprintf(note, len,
		 "lows ran %llu times, %llu while all highs were runnable; %llu gate openings, "
		 "%llu void matches; %d high (fifo %d), %d low (fifo %d), %s a run, %s on CPUs %s.",
		 (unsigned long long)t->ran, (unsigned long long)t->violations,
		 (unsigned long long)t->kicks, (unsigned long long)t->voided, n, th[0].priority,
		 n, th[n].priority, probe_value(c, "duration"), probe_value(c, "placement"), list);
	if (w < 0 || (size_t)w >= len) /* a long CPU list: say it was cut */
		memcpy(note + len - 4, "...", 4);
}

static int pp_run(struct probe_ctx *c)
{
	int cpus[PROBE_MAX_CPUS];
	uint64_t duration;
	struct pp_tally tally = { 0 };
	int rc, high = 0, low = 0;
	if ((rc = pp_duration(c, &duration)) != 0 || (rc = pp_priorities(c, &high, &low)) != 0)
		return rc;
	int n = probe_cpus(c, "cpus", cpus, PROBE_MAX_CPUS);
	if (n < 0)
		return n;
	struct pp_shared *sh = calloc(1, sizeof *sh);
	struct pp_thread *th = calloc(2 * (size_t)n, sizeof *th);
	if (!sh || !th) {
		free(sh);
		free(th);
		return probe_fail(c, ENOMEM, "allocating %d threads: %s", 2 * n, strerror(ENOMEM));
	}
	sh->n = (uint32_t)n;
	sh->duration = (uint64_t)((double)duration / c->tb->ns_per_tick);
	sh->kick = (uint64_t)((double)PP_KICK_NS / c->tb->ns_per_tick);

	if ((rc = pp_start(c, sh, th, cpus, n, high, low)) == 0 &&
	    (rc = pp_play(c, sh, th, &tally)) == 0)
		pp_note(c, th, cpus, n, &tally);
	pp_stop_threads(sh, th, 2 * n);
	free(th);
	free(sh);
	return rc;
}

static const char *pp_check(const char *const *values, char *buf, size_t len)
{
	uint64_t ns;
	char err[160];
	if (units_duration_parse_ns(values[P_DURATION], false, &ns, err, sizeof err) != 0) {
		snprintf(buf, len, "probe priority-preempt: duration: %s", err);
		return buf;
	}
	if (ns < PP_MIN_DURATION_NS || ns > PP_MAX_DURATION_NS) {
		snprintf(buf, len, "probe priority-preempt: duration %s is outside 1ms .. 200ms "
			 "(the high threads spin that long without a break)", values[P_DURATION]);
		return buf;
	}
	return NULL;
}

/* A match of `duration` a run whatever the iterations, and a warm-up
 * match. */
static void pp_pace(const char *const *values, struct probe_pace *out)
{
	out->run_s = probe_decl_value_s(values[P_DURATION]);
	out->warmup_run = true;
}

const struct probe probe_priority_preempt = {
	.decl.name = "priority-preempt",
	.decl.pace = pp_pace,
	.decl.verifies = "every high and low thread: SCHED_FIFO, its priority and its CPUs",
	.decl.help = "a lower-priority SCHED_FIFO thread must never run while every CPU has a "
		"runnable higher-priority one (LTP sched_football's rule); one match of `duration` "
		"per run, iterations not used",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.check = pp_check,
	.run = pp_run,
};
