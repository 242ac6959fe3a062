/* SPDX-License-Identifier: Apache-2.0 */
/* rr_quantum.c - do SCHED_RR tasks of one priority take turns, a quantum
 * each?
 *
 * `tasks` busy threads of one priority (SCHED_RR, or SCHED_FIFO with
 * policy=fifo), one above the worker's, are pinned to ONE CPU. A run:
 *
 *   1. the worker bumps the run number and waits; each task wakes, checks
 *      in and blocks again, except the last to check in (the captain): it
 *      sets the run's deadline (`duration` from then) and wakes the others,
 *      which queue behind it (same priority: no preemption), and spins;
 *   2. every task spins reading the timebase. A word in shared memory
 *      (`owner`) holds the mark of the task that last looked at it; a task
 *      that finds another task's mark there was off the CPU while that
 *      peer ran: its slice is over. It then writes its own mark. A slice's
 *      length is the time the task held the CPU: the sum of the steps
 *      between its consecutive readings, leaving out steps longer than
 *      RR_GAP_NS (a long interrupt, a higher-priority task, the fair
 *      server: time the task did not run, which the kernel does not
 *      charge to its quantum either);
 *   3. past the deadline a task stops at its next turn (when it finds a
 *      peer ran), so the run ends on slice boundaries and every task's
 *      quantum is fresh for the next run; a task that never loses the CPU
 *      stops at the run's hard end, two quanta after the deadline (room
 *      for the running task to finish its quantum however much of it the
 *      machine steals). The last task to stop wakes the worker, which
 *      records the slices and counts the violations. A task's last, short
 *      turn (it only saw the run was over) is not a slice.
 *
 * A violation is a slice of more than two quanta while another task of the
 * run was runnable throughout (it had not stopped: the tasks never block
 * between the run's start and their stop). With SCHED_RR the kernel rotates
 * the tasks every quantum, so no slice comes near two; with policy=fifo
 * the captain keeps the CPU until the hard end: a violation every run.
 *
 * Bounded: a run lasts at most duration + two quanta, kept under
 * RR_MAX_RUN_NS (under half the kernel's RT runtime), every task checks the
 * worker's stop flag, and all tasks block between runs, so the harness's
 * RT-throttling guard rests between them.
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

#include "base/policy.h"
#include "base/units.h"
#include "harness/measure/probes/probes.h"

#define RR_MIN_TASKS 2u
#define RR_MAX_TASKS 16u
#define RR_MIN_DURATION_NS 1000000ull     /* 1 ms */
#define RR_MAX_DURATION_NS 400000000ull   /* 400 ms */
/* A step between two readings longer than this: the task was off the CPU. */
#define RR_GAP_NS 50000ull                /* 50 us */
/* Longest a run may last (duration + two quanta): under half the kernel's
 * RT runtime of 950 ms per second. */
#define RR_MAX_RUN_NS 450000000ull        /* 450 ms */
/* Longest the worker waits for the tasks beyond a run's own length. */
#define RR_WAIT_NS 2000000000ull          /* 2 s */
/* Slices a task keeps per run; more (a quantum under 0.1 ms) are dropped
 * from the histogram but still judged. */
#define RR_MAX_SLICES 4096u
#define RR_STACK_BYTES (128u * 1024u)
#define RR_PREFAULT_BYTES (32u * 1024u)
#define RR_TIMESLICE_PATH "/proc/sys/kernel/sched_rr_timeslice_ms"

static const char *const policies[] = { "rr", "fifo", NULL };

enum { P_TASKS, P_DURATION, P_POLICY };

static const struct probe_param params[] = {
	[P_TASKS] = { "tasks", "busy tasks of one priority on one CPU (2 .. 16)", PARAM_COUNT,
		      NULL, "2" },
	[P_DURATION] = { "duration", "how long the tasks take turns in each run, at least two "
			 "quanta (1ms .. 400ms; a run may last two quanta more)",
			 PARAM_DURATION, NULL, "200ms" },
	[P_POLICY] = { "policy", "rr: the tasks are SCHED_RR; fifo: SCHED_FIFO, which has no "
		       "quantum, so the first task keeps the CPU (must violate)", PARAM_ENUM,
		       policies, "rr" },
};

enum { M_SLICE, M_VIOLATIONS };

static const struct probe_metric metrics[] = {
	[M_SLICE] = { "slice", "how long a task held the CPU before another task of its "
		      "priority got it, one sample per slice", METRIC_DURATION },
	[M_VIOLATIONS] = { "violations", "slices longer than two quanta while another task "
			   "of the same priority was runnable", METRIC_COUNT },
};

/* What the tasks and the worker share. */
struct rr_shared {
	_Alignas(64) uint32_t run;      /* the run's number; the tasks wait on it */
	_Alignas(64) uint32_t go;       /* the run whose tasks all checked in */
	uint32_t checked;               /* tasks checked in this run */
	uint64_t deadline, hard;        /* tb ticks, set by the captain */
	_Alignas(64) volatile uint32_t owner; /* 1 + the task that last read the clock */
	uint32_t stopped;               /* tasks done spinning this run */
	_Alignas(64) uint32_t finished; /* tasks done with the run (or ready) */
	uint32_t quit, n;
	uint64_t duration, extra, gap, limit; /* tb ticks; limit = two quanta */
	volatile int *stop;
};

struct rr_task {
	_Alignas(64) uint64_t violations; /* this run */
	uint32_t nslices, dropped;        /* this run */
	uint64_t *slices;                 /* ticks held, one per slice */
	uint64_t interval_ns;             /* sched_rr_get_interval of the task */
	int err;                          /* set-up failure, errno */
	const char *what;                 /* the call that failed */
	int policy, priority;             /* as requested */
	uint32_t mark;                    /* 1 + index */
	struct rr_shared *sh;
	bool created;
	pthread_t tid;
};

static void prefault_stack(void)
{
	volatile char pad[RR_PREFAULT_BYTES];
	for (size_t i = 0; i < sizeof pad; i += 4096)
		pad[i] = 0;
}

/* A task is done with the run (or ready); the last of them wakes the worker. */
static void rr_finish(struct rr_shared *sh)
{
	if (__atomic_add_fetch(&sh->finished, 1, __ATOMIC_ACQ_REL) == sh->n)
		probe_futex(&sh->finished, FUTEX_WAKE, 1, NULL);
}

/* A slice is over: judge it and keep it. `contested`: another task was
 * runnable all along. */
static void end_slice(struct rr_task *t, uint64_t held, bool contested)
{
	if (contested && held > t->sh->limit)
		t->violations++;
	if (t->nslices < RR_MAX_SLICES)
		t->slices[t->nslices++] = held;
	else
		t->dropped++;
}

/* The measured loop (the file's comment, step 2 and 3). */
static void rr_spin(struct rr_task *t)
{
	struct rr_shared *sh = t->sh;
	const uint64_t deadline = sh->deadline, hard = sh->hard, gap = sh->gap;
	const uint32_t me = t->mark;
	uint64_t last = tb_now(), held = 0;
	if (last >= deadline) /* the run is over before this task got the CPU */
		return;
	sh->owner = me;
	for (;;) {
		/* The mark first, then the clock: a task preempted between the
		 * two reads sees the peer's mark only on its next pass, with a
		 * clock read after the peer ran. (The other order would judge the
		 * deadline by a reading from before the peer's whole turn.) */
		uint32_t owner = sh->owner;
		uint64_t now = tb_now();
		if (owner != me) {
			/* A peer ran since the last reading: the slice ended then. */
			end_slice(t, held, true);
			held = 0;
			sh->owner = me;
			if (now >= deadline)
				return;
		} else if (now - last <= gap) {
			held += now - last;
		}
		last = now;
		if (now >= hard) {
			/* Never lost the CPU to a peer since the deadline. */
			end_slice(t, held, __atomic_load_n(&sh->stopped, __ATOMIC_ACQUIRE) + 1 <
						   sh->n);
			return;
		}
		if (*sh->stop)
			return;
	}
}

/* Check in for run `run`; the last task to do so starts it. false when
 * told to quit instead. */
static bool rr_check_in(struct rr_shared *sh, uint32_t run)
{
	if (__atomic_add_fetch(&sh->checked, 1, __ATOMIC_ACQ_REL) == sh->n) {
		uint64_t now = tb_now();
		sh->deadline = now + sh->duration;
		sh->hard = sh->deadline + sh->extra;
		sh->owner = 0;
		__atomic_store_n(&sh->go, run, __ATOMIC_RELEASE);
		/* The others become runnable behind this task: same priority,
		 * so none preempts it. */
		probe_futex(&sh->go, FUTEX_WAKE, INT_MAX, NULL);
		return true;
	}
	uint32_t g;
	while ((g = __atomic_load_n(&sh->go, __ATOMIC_ACQUIRE)) != run) {
		if (__atomic_load_n(&sh->quit, __ATOMIC_ACQUIRE))
			return false;
		probe_futex(&sh->go, FUTEX_WAIT, g, NULL);
	}
	return true;
}

/* The task's quantum, read once it runs (probe_start_thread checked its
 * policy, priority and CPU at the kernel before). */
static void rr_task_setup(struct rr_task *t)
{
	struct timespec ts;
	if (sched_rr_get_interval(0, &ts) != 0) {
		t->err = errno;
		t->what = "sched_rr_get_interval";
	} else {
		t->interval_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
}

static void *rr_main(void *arg)
{
	struct rr_task *t = arg;
	struct rr_shared *sh = t->sh;
	uint32_t seen = 0;
	prefault_stack();
	rr_task_setup(t);
	rr_finish(sh); /* ready */
	for (;;) {
		uint32_t now;
		while ((now = __atomic_load_n(&sh->run, __ATOMIC_ACQUIRE)) == seen)
			probe_futex(&sh->run, FUTEX_WAIT, seen, NULL);
		seen = now;
		if (__atomic_load_n(&sh->quit, __ATOMIC_ACQUIRE))
			return NULL;
		if (rr_check_in(sh, seen)) {
			rr_spin(t);
			__atomic_add_fetch(&sh->stopped, 1, __ATOMIC_ACQ_REL);
		}
		rr_finish(sh);
	}
}

/* Wait until every task finished (the run, or its set-up), at most until
 * `give_up` (tb ticks). 0 or -errno after probe_fail. */
static int rr_wait(struct probe_ctx *c, struct rr_shared *sh, uint64_t give_up,
		   const char *what)
{
	const struct timespec tick = { 0, 10000000 }; /* look at the clock every 10 ms */
	uint32_t f;
	while ((f = __atomic_load_n(&sh->finished, __ATOMIC_ACQUIRE)) != sh->n) {
		if (tb_now() > give_up)
			return probe_fail(c, ETIMEDOUT, "the tasks did not finish %s in time (%u of "
					  "%u done): a task above priority %d holds their CPU",
					  what, f, sh->n, c->priority + 1);
		probe_futex(&sh->finished, FUTEX_WAIT, f, &tick);
	}
	return 0;
}

/* Let every task made leave, and join them. */
static void rr_stop_tasks(struct rr_shared *sh, struct rr_task *t, unsigned n)
{
	__atomic_store_n(&sh->quit, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&sh->run, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&sh->go, UINT32_MAX, __ATOMIC_RELEASE);
	probe_futex(&sh->run, FUTEX_WAKE, INT_MAX, NULL);
	probe_futex(&sh->go, FUTEX_WAKE, INT_MAX, NULL);
	for (unsigned i = 0; i < n; i++)
		if (t[i].created)
			pthread_join(t[i].tid, NULL);
}

/* Create task t on `cpu` with its policy and priority in its attributes.
 * 0 or -errno after probe_fail. */
static int rr_create(const struct probe_ctx *c, struct rr_task *t, int cpu)
{
	cpu_set_t one;
	struct sched_param sp = { .sched_priority = t->priority };
	const char *name = policy_kernel_name(t->policy);
	int rc;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	char task[48];
	snprintf(task, sizeof task, "the %s task on CPU %d", name, cpu);
	rc = probe_start_thread(c, task, &t->tid, t->policy, sp.sched_priority,
				&one, RR_STACK_BYTES, rr_main, t);
	if (rc == EPERM)
		return probe_fail(c, rc, "%s priority %d is not allowed here (EPERM): run as root, "
				  "with CAP_SYS_NICE, or with an rtprio limit of at least %d",
				  name, t->priority, t->priority);
	if (rc)
		return probe_fail(c, rc, "creating a %s task (priority %d, CPU %d): %s (%s)", name,
				  t->priority, cpu, probe_errname(rc), strerror(rc));
	t->created = true;
	return 0;
}

/* What one measurement is made of, worked out before anything starts. */
struct rr_plan {
	unsigned n;
	int policy, priority, cpu;
	uint64_t duration_ns, quantum_ns;
	long timeslice_ms;  /* sched_rr_timeslice_ms, -1 when unreadable */
};

/* Make the tasks and wait until each runs where and as it should. 0 or
 * -errno after probe_fail; the caller stops what was made either way. */
static int rr_start(struct probe_ctx *c, struct rr_shared *sh, struct rr_task *t,
		    const struct rr_plan *p)
{
	int rc;
	for (unsigned i = 0; i < p->n; i++) {
		t[i].sh = sh;
		t[i].mark = i + 1;
		t[i].policy = p->policy;
		t[i].priority = p->priority;
		if ((rc = rr_create(c, &t[i], p->cpu)) != 0)
			return rc;
	}
	if ((rc = rr_wait(c, sh, tb_now() + (uint64_t)(RR_WAIT_NS / c->tb->ns_per_tick),
			  "starting")) != 0)
		return rc;
	for (unsigned i = 0; i < p->n; i++)
		if (t[i].err)
			return probe_fail(c, t[i].err, "task %u: %s: %s (%s)", i, t[i].what,
					  probe_errname(t[i].err), strerror(t[i].err));
	return 0;
}

static long read_timeslice_ms(void)
{
	long v = -1;
	FILE *f = fopen(RR_TIMESLICE_PATH, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* The quantum the rule is judged against: what sched_rr_get_interval()
 * gives the SCHED_RR tasks; SCHED_FIFO tasks have none (0), so for them
 * the one SCHED_RR tasks would get, sched_rr_timeslice_ms. Then whether a
 * run can show it and stays bounded. 0 or -errno after probe_fail. */
static int rr_quantum(struct probe_ctx *c, const struct rr_task *t, struct rr_plan *p)
{
	char q[32], d[32];
	p->timeslice_ms = read_timeslice_ms();
	p->quantum_ns = t[0].interval_ns;
	if (p->policy == SCHED_FIFO && p->timeslice_ms > 0)
		p->quantum_ns = (uint64_t)p->timeslice_ms * 1000000ull;
	if (p->quantum_ns == 0)
		return probe_fail(c, ENOENT, "no SCHED_RR quantum: sched_rr_get_interval gave 0 "
				  "and %s could not be read", RR_TIMESLICE_PATH);
	units_fmt_ns((double)p->quantum_ns, q, sizeof q);
	units_fmt_ns((double)p->duration_ns, d, sizeof d);
	if (p->duration_ns < 2 * p->quantum_ns)
		return probe_fail(c, EINVAL, "duration %s is shorter than two quanta (the kernel's "
				  "SCHED_RR quantum is %s): no slice could be seen to pass two "
				  "quanta; give a duration of at least twice the quantum", d, q);
	if (p->duration_ns + 2 * p->quantum_ns > RR_MAX_RUN_NS)
		return probe_fail(c, E2BIG, "duration %s + two quanta of %s is over %llu ms of busy "
				  "CPU in a run (RT throttling): lower duration, or the quantum (%s)",
				  d, q, RR_MAX_RUN_NS / 1000000ull, RR_TIMESLICE_PATH);
	uint64_t runs = c->runs + (c->warmup ? 1 : 0);
	long double need = (long double)runs * (p->duration_ns + 2 * p->quantum_ns);
	if (c->timeout_ns && 2 * need >= (long double)c->timeout_ns) {
		char a[32], b[32];
		units_fmt_ns((double)need, a, sizeof a);
		units_fmt_ns((double)c->timeout_ns, b, sizeof b);
		return probe_fail(c, ETIME, "%llu runs (and a warm-up when warmup > 0) of up to "
				  "duration + two quanta = %s, not less than half the timeout of "
				  "%s (the rest is for the rests against RT throttling): raise <run "
				  "timeout> or lower runs", (unsigned long long)runs, a, b);
	}
	return 0;
}

/* What the runs counted, for the note. */
struct rr_tally {
	uint64_t slices, violations, dropped, longest; /* longest in ticks */
};

/* One run: start it, wait for every task to stop, then record the slices
 * and count the violations (when `record`). 0 or -errno after probe_fail. */
static int rr_one(struct probe_ctx *c, struct rr_shared *sh, struct rr_task *t,
		  const struct rr_plan *p, bool record, struct rr_tally *tally)
{
	uint64_t run_ns = p->duration_ns + 2 * p->quantum_ns + RR_WAIT_NS;
	int rc;
	__atomic_store_n(&sh->checked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->stopped, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->finished, 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&sh->run, 1, __ATOMIC_RELEASE);
	probe_futex(&sh->run, FUTEX_WAKE, INT_MAX, NULL);
	if ((rc = rr_wait(c, sh, tb_now() + (uint64_t)((double)run_ns / c->tb->ns_per_tick),
			  "a run")) != 0)
		return rc;
	for (unsigned i = 0; i < p->n; i++) {
		if (record) {
			for (uint32_t s = 0; s < t[i].nslices; s++) {
				probe_record(c, M_SLICE, t[i].slices[s]);
				if (t[i].slices[s] > tally->longest)
					tally->longest = t[i].slices[s];
			}
			probe_add_count(c, M_VIOLATIONS, t[i].violations);
			tally->slices += t[i].nslices + t[i].dropped;
			tally->violations += t[i].violations;
			tally->dropped += t[i].dropped;
		}
		t[i].nslices = t[i].dropped = 0;
		t[i].violations = 0;
	}
	return 0;
}

/* A warm-up run when warmup > 0, then the runs. 0 or -errno. */
static int rr_play(struct probe_ctx *c, struct rr_shared *sh, struct rr_task *t,
		   const struct rr_plan *p, struct rr_tally *tally)
{
	int rc;
	c->res->state = WS_WARMUP;
	if (c->warmup && (rc = rr_one(c, sh, t, p, false, tally)) != 0)
		return rc;
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		probe_run_begin(c, r);
		if ((rc = rr_one(c, sh, t, p, true, tally)) != 0)
			return rc;
		/* No batch figure: a run's time is not a number of operations. */
		probe_run_end(c, 0);
	}
	return 0;
}

/* Tasks, duration, policy, priority (one above the worker's) and the CPU.
 * 0 or -errno after probe_fail. */
static int rr_plan(struct probe_ctx *c, struct rr_plan *p)
{
	char why[160];
	uint64_t n;
	int other;
	memset(p, 0, sizeof *p);
	if (units_count_parse(probe_value(c, "tasks"), RR_MAX_TASKS, &n, why, sizeof why) != 0)
		return probe_fail(c, EINVAL, "tasks: %s", why);
	p->n = (unsigned)n;
	if (units_duration_parse_ns(probe_value(c, "duration"), false, &p->duration_ns, why,
			      sizeof why) != 0)
		return probe_fail(c, EINVAL, "duration: %s", why);
	p->policy = strcmp(probe_value(c, "policy"), "fifo") == 0 ? SCHED_FIFO : SCHED_RR;
	if (c->policy != SCHED_FIFO && c->policy != SCHED_RR)
		return probe_fail(c, EINVAL, "rr-quantum runs its tasks one priority above the "
				  "worker: give the requirement a real-time policy "
				  "(<sched policy=\"fifo\" priority=\"N\"/>)");
	int max = sched_get_priority_max(p->policy);
	if (c->priority + 1 > max)
		return probe_fail(c, EINVAL, "rr-quantum runs its tasks one priority above the "
				  "worker's %d, and %d is the highest: give a priority of at most %d",
				  c->priority, max, max - 1);
	p->priority = c->priority + 1;
	if (probe_pick_cpus(c, "same-cpu", &p->cpu, &other) != 0 || p->cpu < 0)
		return probe_fail(c, ENODEV, "no CPU to run the tasks on");
	return 0;
}

static void rr_note(struct probe_ctx *c, const struct rr_plan *p, const struct rr_tally *t)
{
	char q[32], longest[32];
	units_fmt_ns((double)p->quantum_ns, q, sizeof q);
	units_fmt_ns((double)t->longest * c->tb->ns_per_tick, longest, sizeof longest);
	int w = snprintf(c->res->note, sizeof c->res->note,
			 "quantum %s (sched_rr_timeslice_ms %ld); %u %s tasks (priority %d) on "
			 "CPU %d; %llu slices, longest %s, %llu over two quanta.", q,
			 p->timeslice_ms, p->n, policy_kernel_name(p->policy),
			 p->priority, p->cpu, (unsigned long long)t->slices, longest,
			 (unsigned long long)t->violations);
	if (t->dropped && w > 0 && (size_t)w < sizeof c->res->note)
		snprintf(c->res->note + w, sizeof c->res->note - (size_t)w,
			 " %llu slices not in the histogram (over %u a task and run).",
			 (unsigned long long)t->dropped, RR_MAX_SLICES);
}

/* The shared state and the tasks' slice buffers, all touched now. NULL
 * after probe_fail. */
static struct rr_task *rr_alloc(struct probe_ctx *c, struct rr_shared **shp, unsigned n)
{
	struct rr_shared *sh = calloc(1, sizeof *sh);
	struct rr_task *t = calloc(n, sizeof *t);
	bool ok = sh && t;
	for (unsigned i = 0; ok && i < n; i++)
		ok = (t[i].slices = calloc(RR_MAX_SLICES, sizeof *t[i].slices)) != NULL;
	if (!ok) {
		for (unsigned i = 0; t && i < n; i++)
			free(t[i].slices);
		free(t);
		free(sh);
		probe_fail(c, ENOMEM, "allocating %u tasks: %s", n, strerror(ENOMEM));
		return NULL;
	}
	for (unsigned i = 0; i < n; i++)
		memset(t[i].slices, 0, RR_MAX_SLICES * sizeof *t[i].slices);
	sh->n = n;
	sh->stop = c->stop;
	*shp = sh;
	return t;
}

static int rr_run(struct probe_ctx *c)
{
	struct rr_plan plan;
	struct rr_tally tally = { 0 };
	struct rr_shared *sh = NULL;
	int rc;
	if ((rc = rr_plan(c, &plan)) != 0)
		return rc;
	struct rr_task *t = rr_alloc(c, &sh, plan.n);
	if (!t)
		return -ENOMEM;
	double tick = c->tb->ns_per_tick;
	if ((rc = rr_start(c, sh, t, &plan)) == 0 && (rc = rr_quantum(c, t, &plan)) == 0) {
		sh->duration = (uint64_t)((double)plan.duration_ns / tick);
		sh->extra = (uint64_t)((double)(2 * plan.quantum_ns) / tick);
		sh->gap = (uint64_t)((double)RR_GAP_NS / tick);
		sh->limit = (uint64_t)((double)(2 * plan.quantum_ns) / tick);
		if ((rc = rr_play(c, sh, t, &plan, &tally)) == 0)
			rr_note(c, &plan, &tally);
	}
	rr_stop_tasks(sh, t, plan.n);
	for (unsigned i = 0; i < plan.n; i++)
		free(t[i].slices);
	free(t);
	free(sh);
	return rc;
}

static const char *rr_check(const char *const *values, char *buf, size_t len)
{
	uint64_t v;
	char err[160];
	if (units_count_parse(values[P_TASKS], UINT64_C(1) << 40, &v, err, sizeof err) != 0) {
		snprintf(buf, len, "probe rr-quantum: tasks: %s", err);
		return buf;
	}
	if (v < RR_MIN_TASKS || v > RR_MAX_TASKS) {
		snprintf(buf, len, "probe rr-quantum: tasks %s is outside %u .. %u", values[P_TASKS],
			 RR_MIN_TASKS, RR_MAX_TASKS);
		return buf;
	}
	if (units_duration_parse_ns(values[P_DURATION], false, &v, err, sizeof err) != 0) {
		snprintf(buf, len, "probe rr-quantum: duration: %s", err);
		return buf;
	}
	if (v < RR_MIN_DURATION_NS || v > RR_MAX_DURATION_NS) {
		snprintf(buf, len, "probe rr-quantum: duration %s is outside 1ms .. 400ms",
			 values[P_DURATION]);
		return buf;
	}
	return NULL;
}

/* The tasks measured run under the policy parameter, one priority above
 * the worker's (rr_plan). */
static const char *rr_policy(const char *const *values, int priority, char *buf, size_t len)
{
	if (priority >= 0)
		snprintf(buf, len, "%s:%d", values[P_POLICY], priority + 1);
	else
		snprintf(buf, len, "%s", values[P_POLICY]);
	return buf;
}

/* A run takes turns for `duration` and ends on a slice boundary, about a
 * quantum later (Linux's default quantum, 100 ms); with policy=fifo the
 * captain keeps the CPU to the hard end, two quanta later. A warm-up run. */
static void rr_pace(const char *const *values, struct probe_pace *out)
{
	double quanta = strcmp(values[P_POLICY], "fifo") == 0 ? 2 : 1;
	out->run_s = probe_decl_value_s(values[P_DURATION]) + quanta * 0.1;
	out->warmup_run = true;
}

const struct probe probe_rr_quantum = {
	.decl.name = "rr-quantum",
	.decl.pace = rr_pace,
	.decl.verifies = "every task: SCHED_RR (or SCHED_FIFO), its priority and its one CPU; then "
		"its quantum (sched_rr_get_interval)",
	.decl.help = "SCHED_RR tasks of one priority on one CPU take turns: how long each holds "
		"the CPU (slice) beside the kernel's quantum, and slices over two quanta while "
		"another was runnable (violations); one run of `duration`, iterations not used",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.check = rr_check,
	.decl.policy = rr_policy,
	.run = rr_run,
};
