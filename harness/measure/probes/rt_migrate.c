/* SPDX-License-Identifier: Apache-2.0 */
/* rt_migrate.c - do the highest-priority real-time tasks get the CPUs?
 *
 * More SCHED_FIFO tasks than CPUs (`tasks`, each its own priority below the
 * worker's, all allowed on the same `cpus`) wait for a release. The worker,
 * at a higher priority than all of them, releases them with one
 * FUTEX_WAKE of a word they all wait on; each reads the timebase first
 * thing when its wait returns (its start), spins for `busy`, reads the
 * timebase again (its end) and waits for the next release. With N CPUs and
 * more than N tasks the kernel must run the N highest-priority runnable
 * ones and migrate the others as CPUs free up: a lower task may only start
 * once a CPU is not owed to a higher one. rt_migrate_judge() counts the
 * starts that broke that, after every task of the release has ended.
 *
 * One iteration is one release; its start and end times are written into
 * fixed slots (one per task) and judged by the worker only after every task
 * is asleep again, so nothing is judged, allocated or printed while tasks
 * run. The worker makes sure every task is asleep in its wait before a
 * release (its state in /proc/self/task/TID/stat), so none starts early by
 * never having slept.
 *
 * release=ascending is the configuration that must violate: the worker
 * wakes the tasks one at a time, lowest priority first, each only once the
 * one before has started. The lowest tasks then start while the higher
 * ones have not even been woken, and are counted: it shows the count works
 * (tasks - CPUs violations per release), not a fault of the kernel.
 *
 * Every busy interval is bounded (at most 10 ms, cut short by ctx->stop),
 * the tasks block between releases, and a run's busy work is kept under
 * RM_MAX_RUN_NS, so the harness's throttling guard can rest between runs.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "harness/measure/probes/rt_migrate.h"

#define RM_MAX_TASKS 64u
#define RM_MIN_BUSY_NS 10000ull         /* 10 us */
#define RM_MAX_BUSY_NS 10000000ull      /* 10 ms */
/* Most busy work a run (or the warm-up) may hold: every CPU may be busy
 * with real-time tasks for all of it, so it stays far below the RT
 * runtime (950 ms of 1 s) and the guard's half of it. */
#define RM_MAX_RUN_NS 200000000ull      /* 200 ms */
/* Longest the worker waits for the tasks of a release (or for a task to
 * fall asleep) before it gives up: far beyond any busy interval. */
#define RM_WAIT_NS 1000000000ull        /* 1 s */
#define RM_STACK_BYTES (128u * 1024u)
#define RM_PREFAULT_BYTES (32u * 1024u)
#define RM_TASKS_DEFAULT "cpus+1"

static const char *const releases[] = { "together", "ascending", NULL };

enum { P_TASKS, P_CPUS, P_BUSY, P_RELEASE };

static const struct probe_param params[] = {
	[P_TASKS] = { "tasks", "SCHED_FIFO tasks, each its own priority below the worker's; "
			       "more than the CPUs (at most 64; default cpus+1: one more than "
			       "the CPUs selected)", PARAM_COUNT, NULL, RM_TASKS_DEFAULT },
	[P_CPUS] = { "cpus", "CPUs every task may run on: all (the CPUs rtconform may use) "
			     "or a list such as 0-1; at least 2", PARAM_CPULIST, NULL, "all" },
	[P_BUSY] = { "busy", "how long each task spins once started (10us .. 10ms)",
		     PARAM_DURATION, NULL, "100us" },
	[P_RELEASE] = { "release", "together: one wake-up releases every task; ascending: "
				   "lowest priority first, each once the previous started "
				   "(must violate)", PARAM_ENUM, releases, "together" },
};

enum { M_VIOLATIONS, M_START_DELAY };

static const struct probe_metric metrics[] = {
	[M_VIOLATIONS] = { "violations", "tasks that started while a higher-priority one "
					 "was still waiting and the CPUs were owed to higher ones",
			   METRIC_COUNT },
	[M_START_DELAY] = { "start-delay", "from the release to a task's first run, every "
					   "task of every release", METRIC_DURATION },
};

struct rm_shared;

struct rm_task {
	struct rm_shared *sh;
	unsigned rank;                 /* 0 = highest priority */
	int prio;
	_Alignas(64) uint32_t go;      /* its own release word (release=ascending) */
	uint32_t started;              /* generation it last started in */
	volatile pid_t tid;            /* 0 until the thread runs */
	pthread_t thread;
};

struct rm_shared {
	_Alignas(64) uint32_t go;      /* release word of release=together */
	_Alignas(64) uint32_t left;    /* tasks not done with the current release */
	volatile int quit;             /* read by tasks after a release */
	volatile int *stop;
	int ascending;
	uint64_t busy_ticks;
	unsigned n, ncpus;
	cpu_set_t cpus;
	struct rm_task *t;
	/* Written by task j only, read by the worker once the release is over. */
	uint64_t start[RM_MAX_TASKS], end[RM_MAX_TASKS];
	uint64_t violated[RM_MAX_TASKS]; /* per task, all runs */
	uint64_t behind;               /* starts read before the release's clock */
};

unsigned rt_migrate_judge(const uint64_t *start, const uint64_t *end, unsigned n,
			  unsigned ncpus, uint64_t *violated)
{
	unsigned count = 0;
	for (unsigned j = 1; j < n; j++) {
		bool waiting = false;
		unsigned unfinished = 0;
		for (unsigned i = 0; i < j; i++) {
			waiting |= start[i] > start[j];
			unfinished += end[i] > start[j];
		}
		if (waiting && unfinished >= ncpus) {
			count++;
			if (violated)
				violated[j]++;
		}
	}
	return count;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static void *rm_task_main(void *arg)
{
	struct rm_task *t = arg;
	struct rm_shared *sh = t->sh;
	uint32_t *word = sh->ascending ? &t->go : &sh->go;
	uint32_t gen = 0;

	volatile char pad[RM_PREFAULT_BYTES];
	for (size_t i = 0; i < sizeof pad; i += 4096)
		pad[i] = 0;
	t->tid = (pid_t)syscall(SYS_gettid);
	for (;;) {
		while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == gen)
			probe_futex(word, FUTEX_WAIT, gen, NULL);
		uint64_t now = tb_now();
		gen = __atomic_load_n(word, __ATOMIC_ACQUIRE);
		if (sh->quit)
			break;
		sh->start[t->rank] = now;
		if (sh->ascending) {
			__atomic_store_n(&t->started, gen, __ATOMIC_RELEASE);
			probe_futex(&t->started, FUTEX_WAKE, 1, NULL);
		}
		/* Bounded: busy is at most 10 ms, and a stop cuts it short. */
		uint64_t until = now + sh->busy_ticks;
		while (tb_now() < until && !*sh->stop)
			cpu_relax();
		sh->end[t->rank] = tb_now();
		if (__atomic_sub_fetch(&sh->left, 1, __ATOMIC_ACQ_REL) == 0)
			probe_futex(&sh->left, FUTEX_WAKE, 1, NULL);
	}
	return NULL;
}

/* The state letter of thread tid of this process, or 0 if unreadable. */
static char task_state(pid_t tid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Wait until every task sleeps in its wait: one still on its way into it
 * would not need a wake-up and could start before its turn. 0 or -errno
 * after probe_fail. */
static int rm_wait_asleep(struct probe_ctx *c, struct rm_shared *sh)
{
	uint64_t deadline = tb_clock_ns() + RM_WAIT_NS;
	for (unsigned j = 0; j < sh->n; j++) {
		for (;;) {
			pid_t tid = sh->t[j].tid;
			char st = tid ? task_state(tid) : 0;
			if (st == 'S')
				break;
			if (tid && st == 0)
				return probe_fail(c, ESRCH, "task %u (thread %d) cannot be read in "
						  "/proc/self/task", j, (int)tid);
			if (tb_clock_ns() >= deadline)
				return probe_fail(c, ETIMEDOUT, "task %u not asleep in its wait "
						  "1 s after it ended (state %c)", j, st ? st : '?');
			struct timespec nap = { 0, 20000 };
			nanosleep(&nap, NULL);
		}
	}
	return 0;
}

/* Wake the tasks for release `gen`; returns the release's clock. */
static uint64_t rm_wake(struct rm_shared *sh, uint32_t gen)
{
	__atomic_store_n(&sh->left, sh->n, __ATOMIC_RELEASE);
	uint64_t t0 = tb_now();
	if (!sh->ascending) {
		/* Waiters of a futex are woken highest priority first. */
		__atomic_store_n(&sh->go, gen, __ATOMIC_RELEASE);
		probe_futex(&sh->go, FUTEX_WAKE, INT_MAX, NULL);
		return t0;
	}
	uint64_t deadline = tb_clock_ns() + RM_WAIT_NS;
	for (unsigned j = sh->n; j-- > 0;) {
		struct rm_task *t = &sh->t[j];
		__atomic_store_n(&t->go, gen, __ATOMIC_RELEASE);
		probe_futex(&t->go, FUTEX_WAKE, 1, NULL);
		/* The next only once this one has run (the wait frees the CPU). */
		probe_wait_while(&t->started, gen - 1, deadline);
	}
	return t0;
}

/* One release, from every task asleep to every task done; judged and
 * recorded when `record`. 0 or -errno after probe_fail. */
static int rm_release(struct probe_ctx *c, struct rm_shared *sh, uint32_t gen, bool record)
{
	int rc = rm_wait_asleep(c, sh);
	if (rc)
		return rc;
	uint64_t t0 = rm_wake(sh, gen);
	for (uint32_t l; (l = __atomic_load_n(&sh->left, __ATOMIC_ACQUIRE)) != 0;)
		if (probe_wait_while(&sh->left, l, tb_clock_ns() + RM_WAIT_NS) != 0)
			return probe_fail(c, ETIMEDOUT, "%u of %u tasks had not ended 1 s after "
					  "release %u", l, sh->n, gen);
	if (!record)
		return 0;
	probe_add_count(c, M_VIOLATIONS,
			rt_migrate_judge(sh->start, sh->end, sh->n, sh->ncpus, sh->violated));
	for (unsigned j = 0; j < sh->n; j++) {
		if (sh->start[j] >= t0) {
			probe_record(c, M_START_DELAY, sh->start[j] - t0);
		} else {
			sh->behind++; /* another CPU's clock behind: 0, never dropped */
			probe_record(c, M_START_DELAY, 0);
		}
	}
	return 0;
}

/* The CPUs of the tasks into sh->cpus / sh->ncpus. 0 or -errno after
 * probe_fail. */
static int rm_cpus(struct probe_ctx *c, struct rm_shared *sh)
{
	const char *list = probe_value(c, "cpus");
	/* The one CPU-list rule of the probes (probe_cpus), except that "all"
	 * is every CPU rtconform may use even with a <sched cpu>: that pins
	 * only the worker, the tasks migrate. */
	struct probe_ctx unpinned = *c;
	unpinned.cpu = -1;
	int ids[PROBE_MAX_CPUS];
	int n = probe_cpus(&unpinned, "cpus", ids, PROBE_MAX_CPUS);
	if (n < 0)
		return n;
	CPU_ZERO(&sh->cpus);
	for (int i = 0; i < n; i++)
		CPU_SET(ids[i], &sh->cpus);
	sh->ncpus = (unsigned)n;
	if (sh->ncpus < 2)
		return probe_fail(c, ENODEV, "rt-migrate needs at least 2 CPUs for its tasks to "
				  "migrate between; cpus '%s' gives %u%s", list, sh->ncpus,
				  strcmp(list, "all") ? "" : " (the CPUs rtconform may use)");
	return 0;
}

/* Tasks, priorities and busy interval, and whether the counts fit: each
 * release keeps the CPUs busy for about ceil(tasks / CPUs) x busy. 0 or
 * -errno after probe_fail. */
static int rm_shape(struct probe_ctx *c, struct rm_shared *sh)
{
	const char *tv = probe_value(c, "tasks");
	uint64_t n = sh->ncpus + 1u, busy;
	char why[160];
	if (strcmp(tv, RM_TASKS_DEFAULT) != 0 && units_count_parse(tv, RM_MAX_TASKS, &n, why, sizeof why))
		return probe_fail(c, EINVAL, "tasks: %s", why);
	if (n <= sh->ncpus || n > RM_MAX_TASKS)
		return probe_fail(c, EINVAL, "tasks %llu: must be more than the %u CPUs and at "
				  "most %u", (unsigned long long)n, sh->ncpus, RM_MAX_TASKS);
	if (c->policy != SCHED_FIFO && c->policy != SCHED_RR)
		return probe_fail(c, EINVAL, "rt-migrate releases its SCHED_FIFO tasks from a "
				  "real-time worker above them: give <sched policy=\"fifo\" "
				  "priority=\"max\"/>");
	int lowest = sched_get_priority_min(SCHED_FIFO);
	if (c->priority - (int)n < lowest)
		return probe_fail(c, EINVAL, "%llu tasks need SCHED_FIFO priorities %d down to %d "
				  "below the worker's %d: give <sched priority> at least %d",
				  (unsigned long long)n, c->priority - 1, c->priority - (int)n,
				  c->priority, lowest + (int)n);
	sh->n = (unsigned)n;
	if (units_duration_parse_ns(probe_value(c, "busy"), false, &busy, why, sizeof why) != 0)
		return probe_fail(c, EINVAL, "busy: %s", why);
	sh->busy_ticks = (uint64_t)((double)busy / c->tb->ns_per_tick);
	long double per = (long double)((n + sh->ncpus - 1) / sh->ncpus) * busy;
	long double most = (c->warmup > c->iterations ? c->warmup : c->iterations) * per;
	char a[32], b[32];
	if (most > RM_MAX_RUN_NS) {
		units_fmt_ns((double)most, a, sizeof a);
		units_fmt_ns((double)RM_MAX_RUN_NS, b, sizeof b);
		return probe_fail(c, E2BIG, "a run (or the warm-up) would keep the CPUs busy for "
				  "%s at real-time priority, over %s (RT throttling): lower the "
				  "iterations (or warm-up) or busy", a, b);
	}
	long double all = ((long double)c->warmup + (long double)c->runs * c->iterations) * per;
	if (c->timeout_ns && all >= (long double)c->timeout_ns) {
		units_fmt_ns((double)all, a, sizeof a);
		units_fmt_ns((double)c->timeout_ns, b, sizeof b);
		return probe_fail(c, ETIME, "(warmup + runs x iterations) releases take at least "
				  "%s, not less than the timeout of %s: raise <run timeout> or "
				  "lower the counts", a, b);
	}
	return 0;
}

/* Zeroed memory aligned for the futex words' cache lines (calloc does not
 * promise the 64 bytes they are declared with). */
static void *rm_zalloc(size_t size)
{
	size = (size + 63) / 64 * 64;
	void *p = aligned_alloc(64, size);
	if (p)
		memset(p, 0, size);
	return p;
}

/* Create task t: SCHED_FIFO at its priority and the tasks' CPUs in its
 * attributes, so it never runs under anything else. 0 or -errno after
 * probe_fail. */
static int rm_create(struct probe_ctx *c, struct rm_shared *sh, struct rm_task *t)
{
	struct sched_param sp = { .sched_priority = t->prio };
	int rc;
	char task[40];
	snprintf(task, sizeof task, "task %u", t->rank);
	rc = probe_start_thread(c, task, &t->thread, SCHED_FIFO, sp.sched_priority,
				&sh->cpus, RM_STACK_BYTES, rm_task_main, t);
	if (rc)
		return probe_fail(c, rc, "creating task %u (SCHED_FIFO priority %d): %s", t->rank,
				  t->prio, strerror(rc));
	return 0;
}

/* Tell every task to leave and join the *created ones. */
static void rm_quit(struct rm_shared *sh, unsigned created)
{
	sh->quit = 1;
	uint32_t gen = __atomic_load_n(&sh->go, __ATOMIC_RELAXED) + 1;
	__atomic_store_n(&sh->go, gen, __ATOMIC_RELEASE);
	probe_futex(&sh->go, FUTEX_WAKE, INT_MAX, NULL);
	for (unsigned j = 0; j < created; j++) {
		__atomic_store_n(&sh->t[j].go, sh->t[j].go + 1, __ATOMIC_RELEASE);
		probe_futex(&sh->t[j].go, FUTEX_WAKE, 1, NULL);
	}
	for (unsigned j = 0; j < created; j++)
		pthread_join(sh->t[j].thread, NULL);
}

/* The warm-up, then every run: `iterations` releases each. */
static int rm_measure(struct probe_ctx *c, struct rm_shared *sh)
{
	uint32_t gen = 0;
	int rc = 0;
	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup && !rc && !*c->stop; i++)
		rc = rm_release(c, sh, ++gen, false);
	for (uint32_t r = 0; r < c->runs && !rc && !*c->stop; r++) {
		probe_run_begin(c, r);
		for (uint64_t i = 0; i < c->iterations && !rc && !*c->stop; i++)
			rc = rm_release(c, sh, ++gen, true);
		/* 0: a run's time / releases is no figure of this probe. */
		probe_run_end(c, 0);
	}
	return rc;
}

/* The result's note: the set-up, and which tasks violated the rule. */
static void rm_note(struct probe_ctx *c, const struct rm_shared *sh)
{
	char *note = c->res->note;
	size_t len = sizeof c->res->note;
	char busy[32];
	units_fmt_ns((double)sh->busy_ticks * c->tb->ns_per_tick, busy, sizeof busy);
	int used = snprintf(note, len, "%u tasks (SCHED_FIFO %d..%d) on %u CPUs, busy %s, "
			    "release %s; violations by task, highest first:", sh->n,
			    sh->t[0].prio, sh->t[sh->n - 1].prio, sh->ncpus, busy,
			    sh->ascending ? "ascending" : "together");
	for (unsigned j = 0; j < sh->n && used > 0 && (size_t)used < len; j++)
		used += snprintf(note + used, len - (size_t)used, " %llu",
				 (unsigned long long)sh->violated[j]);
	if (sh->behind && used > 0 && (size_t)used < len)
		used += snprintf(note + used, len - (size_t)used, "; %llu start-delays recorded "
				 "as 0 (clocks of two CPUs out of step)",
				 (unsigned long long)sh->behind);
	if (used > 0 && (size_t)used < len)
		snprintf(note + used, len - (size_t)used, ".");
}

static int rm_run(struct probe_ctx *c)
{
	struct rm_shared *sh = rm_zalloc(sizeof *sh);
	if (!sh)
		return probe_fail(c, ENOMEM, "rt-migrate: %s", strerror(ENOMEM));
	sh->stop = c->stop;
	sh->ascending = strcmp(probe_value(c, "release"), "ascending") == 0;
	int rc = rm_cpus(c, sh);
	if (!rc)
		rc = rm_shape(c, sh);
	if (!rc && !(sh->t = rm_zalloc(sh->n * sizeof *sh->t)))
		rc = probe_fail(c, ENOMEM, "rt-migrate: %u tasks: %s", sh->n, strerror(ENOMEM));
	if (rc) {
		free(sh);
		return rc;
	}
	probe_set_scale(c, M_START_DELAY, 1.0);
	unsigned created = 0;
	for (unsigned j = 0; j < sh->n && !rc; j++) {
		sh->t[j] = (struct rm_task){ .sh = sh, .rank = j, .prio = c->priority - 1 - (int)j };
		if ((rc = rm_create(c, sh, &sh->t[j])) == 0)
			created++;
	}
	if (!rc)
		rc = rm_measure(c, sh);
	rm_quit(sh, created);
	if (!rc)
		rm_note(c, sh);
	free(sh->t);
	free(sh);
	return rc;
}

static const char *rm_check(const char *const *values, char *buf, size_t len)
{
	uint64_t ns, n;
	char err[160];
	if (units_duration_parse_ns(values[P_BUSY], false, &ns, err, sizeof err) != 0) {
		snprintf(buf, len, "probe rt-migrate: busy: %s", err);
		return buf;
	}
	if (ns < RM_MIN_BUSY_NS || ns > RM_MAX_BUSY_NS) {
		snprintf(buf, len, "probe rt-migrate: busy %s is outside 10us .. 10ms", values[P_BUSY]);
		return buf;
	}
	if (strcmp(values[P_TASKS], RM_TASKS_DEFAULT) == 0)
		return NULL;
	if (units_count_parse(values[P_TASKS], UINT64_MAX, &n, err, sizeof err) != 0 || n < 3 ||
	    n > RM_MAX_TASKS) {
		snprintf(buf, len, "probe rt-migrate: tasks %s is outside 3 .. %u (more tasks "
			 "than CPUs, at least 2 CPUs)", values[P_TASKS], RM_MAX_TASKS);
		return buf;
	}
	return NULL;
}

/* A release: its tasks spin `busy` each, more tasks than CPUs. */
static void rm_pace(const char *const *values, struct probe_pace *out)
{
	out->iteration_s = 2 * probe_decl_value_s(values[P_BUSY]);
}

const struct probe probe_rt_migrate = {
	.decl.name = "rt-migrate",
	.decl.pace = rm_pace,
	.decl.verifies = "every task: SCHED_FIFO, its priority and the CPUs it may use",
	.decl.help = "more SCHED_FIFO tasks than CPUs released at once: a lower-priority task "
		"must not start while a higher one waits (rt-migrate-test's check); "
		"iterations = releases per run",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.check = rm_check,
	.run = rm_run,
};
