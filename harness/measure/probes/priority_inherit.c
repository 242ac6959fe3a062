/* SPDX-License-Identifier: Apache-2.0 */
/* priority_inherit.c - classic priority inversion on one CPU, and whether the
 * mutex protocol bounds it.
 *
 * Four tasks share one CPU, all under the worker's real-time policy: the
 * controller C (the worker's own thread, at the worker's priority P) and
 * three tasks below it, high H (P-1), medium M (P-2) and low L (P-3). One
 * cycle, driven by C through semaphores so that every step happens in the
 * same order on every cycle:
 *
 *   1. C releases L and blocks; L (the only task that can run) locks the
 *      mutex and tells C, which preempts it: L holds the mutex, runnable.
 *   2. C releases M, marks H as wanting the mutex, reads the clock (t0) and
 *      releases H, then blocks until all three are done. Neither M nor H
 *      can run before C blocks, so from then on the scheduler alone decides
 *      between H (asking for the mutex), M (busy) and L (holding it).
 *   3. H locks the mutex and, once its lock returns, reads the clock (t1)
 *      and unlocks. L, once it runs again, finishes `hold` of CPU time in
 *      its critical section and unlocks. M spins for 2 x hold of wall time,
 *      noting whether H still wanted the mutex whenever it looked, and stops
 *      early once H has it.
 *
 * With priority inheritance L runs at H's priority as soon as H blocks on
 * the mutex, and with the priority ceiling (= H's priority) it runs at that
 * priority from the moment it locks: either way M, below H, cannot run until
 * H has the mutex, and H waits about `hold`. Without either (protocol=none)
 * M preempts L and H waits for M's whole spin: the inversion.
 *
 * Metrics: `inversion` = t1 - t0 per cycle (the high task's wait for the
 * mutex); `violations` = cycles in which M ran while H wanted the mutex.
 *
 * Bounded in time whatever the kernel does: L's critical section is `hold`
 * of its own CPU time, M's spin at most 2 x hold of wall time, H does no
 * busy work, and after each cycle C sleeps as long as the cycle took, so the
 * tasks never keep the CPU busy more than half the time (the kernel's RT
 * throttling allows 95 %). C waits for each step with a deadline; a cycle
 * that does not complete is an error naming the step.
 *
 * Every hand-off through a semaphore is checked (handoff.h, issue 37):
 * each go, held and done counts its posts before posting, and a wait that
 * returns with none to claim is counted in `unanswered-waits` (a violation
 * metric) and waited again, so each step still waits for what it waits
 * for. The mutex is judged by its effect (violations, inversion), not by a
 * count: a lock that returned without the mutex is not this check's.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "harness/measure/probes/handoff.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/rtenv.h"

#define PI_MIN_HOLD_NS 10000ull     /* 10 us */
#define PI_MAX_HOLD_NS 50000000ull  /* 50 ms */
#define PI_SPIN_HOLDS 2u            /* M spins up to this many holds */
/* The longest a cycle and the rest after it can take, in holds (L's hold
 * plus M's spin, twice), and a fixed allowance for the switches. */
#define PI_CYCLE_HOLDS (2u * (1u + PI_SPIN_HOLDS))
#define PI_CYCLE_EXTRA_NS 200000ull /* 200 us */
/* How long C waits for one step before calling the cycle stuck. */
#define PI_STEP_GRACE_NS 5000000000ull /* 5 s, plus the cycle's own time: a
                                        * shared machine can stall a task
                                        * for most of a second */
#define PI_STACK_BYTES (128u * 1024u)
#define NS_PER_S 1000000000ull

static const char *const protocols[] = { "inherit", "protect", "none", NULL };
static const char *const peers[] = { "thread", "process", NULL };

enum { P_PROTOCOL, P_PEER, P_HOLD };

static const struct probe_param params[] = {
	[P_PROTOCOL] = { "protocol", "inherit: PTHREAD_PRIO_INHERIT; protect: PTHREAD_PRIO_PROTECT "
			 "with the high task's priority as ceiling; none: PTHREAD_PRIO_NONE (the "
			 "inversion is not bounded: must violate)", PARAM_ENUM, protocols, "inherit" },
	[P_PEER] = { "peer", "thread: all three tasks are threads of the worker; process: the low "
		     "task (the holder) is a forked process and the mutex is process-shared",
		     PARAM_ENUM, peers, "thread" },
	[P_HOLD] = { "hold", "CPU time the low task works while holding the mutex (10us .. 50ms)",
		     PARAM_DURATION, NULL, "1ms" },
};

enum { M_INVERSION, M_VIOLATIONS, M_UNANSWERED };

static const struct probe_metric metrics[] = {
	[M_INVERSION] = { "inversion", "the high task's wait for the mutex: from its release, "
			  "while the low task holds the mutex, until its lock returns",
			  METRIC_DURATION },
	[M_VIOLATIONS] = { "violations", "cycles in which the medium task ran while the high "
			   "task waited for the mutex", METRIC_COUNT },
	[M_UNANSWERED] = { "unanswered-waits", "semaphore waits of the four tasks that returned "
			   "without the post that answers them (must be 0)", METRIC_COUNT },
};

enum { R_LOW, R_MED, R_HIGH, R_COUNT };
static const char *const role_names[R_COUNT] = { "low", "medium", "high" };

/* Everything the tasks share, in one anonymous MAP_SHARED mapping made
 * before any task exists (a process peer inherits it). */
struct pi_shared {
	pthread_mutex_t mutex;     /* the mutex under test */
	struct ho_sem go[R_COUNT]; /* C -> a task: run one cycle (or quit) */
	struct ho_sem held;        /* L -> C: it holds the mutex */
	struct ho_sem done;        /* each task -> C: ready, then once a cycle */
	uint64_t unanswered;       /* waits of any task that claimed no post */
	/* The first: its task (R_COUNT: C), what it waited for, when: the
	 * run (PI_WARM_UP: the warm-up or the start) and cycle C was in. */
	int first_set, first_task;
	const char *first_what;
	volatile uint32_t run_now;
	volatile uint64_t cycle_now;
	uint32_t first_run;
	uint64_t first_cycle;
	volatile uint32_t quit;    /* read by a task after its go */
	volatile uint32_t h_wants; /* set by C when it releases H, cleared by H
	                            * once its lock returned */
	volatile uint32_t m_saw;   /* M ran while h_wants was set */
	volatile uint32_t failed;  /* a task could not go on (reason in res) */
	volatile uint64_t t_got;   /* H's clock once its lock returned */
	uint64_t hold_ns;          /* L's CPU time in the critical section */
	uint64_t spin_ticks;       /* M's longest spin, timebase ticks */
};

/* What one run of the probe is made of, worked out before anything starts. */
struct pi_plan {
	int protocol;          /* PTHREAD_PRIO_* */
	bool process;          /* L is a forked process */
	int cpu;               /* the one CPU of every task */
	int prio[R_COUNT];     /* L, M, H */
	uint64_t hold_ns;
	uint64_t cycle_ns;     /* the longest a cycle and its rest can take */
};

struct pi_task {
	struct probe_ctx *c;
	struct pi_shared *sh;
	const struct pi_plan *plan;
	int role;
	pthread_t tid;
};

static inline uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static inline uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

#define PI_WARM_UP UINT32_MAX /* run_now before the first run */

/* n unanswered waits of task (R_COUNT: C) for `what` into the count, the
 * first one noted. */
static void pi_unanswered(struct pi_shared *sh, uint64_t n, int task, const char *what)
{
	__atomic_add_fetch(&sh->unanswered, n, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&sh->first_set, 1, __ATOMIC_ACQ_REL))
		return;
	sh->first_task = task;
	sh->first_what = what; /* a literal: the same address in a forked peer */
	sh->first_run = sh->run_now;
	sh->first_cycle = sh->cycle_now;
}

/* Wait for a post of s (ho_wait), until `deadline` when not NULL. 0 or
 * -errno. */
static int sem_take(struct pi_shared *sh, struct ho_sem *s, const struct timespec *deadline,
		    int task, const char *what)
{
	uint64_t mine = 0;
	int rc = ho_wait(s, deadline, &mine);
	if (mine)
		pi_unanswered(sh, mine, task, what);
	return -rc;
}

/* A task that cannot go on: say why (the first reason wins), and post
 * what C may be waiting for, so it sees `failed` rather than a deadline. */
static void task_failed(struct pi_task *t, int err, const char *what)
{
	probe_fail(t->c, err, "%s task: %s: %s (%s)", role_names[t->role], what,
		   probe_errname(err), strerror(err < 0 ? -err : err));
	t->sh->failed = 1;
	if (t->role == R_LOW)
		ho_post(&t->sh->held);
	ho_post(&t->sh->done);
}

/* L's cycle: lock, tell C, work `hold` of CPU time, unlock. CPU time, not
 * wall time: the critical section needs that much of the CPU, so a task
 * that preempts L lengthens it, as it would a real critical section. */
static int low_cycle(struct pi_task *t)
{
	struct pi_shared *sh = t->sh;
	int rc = pthread_mutex_lock(&sh->mutex);
	if (rc) {
		task_failed(t, rc, "pthread_mutex_lock");
		return rc;
	}
	uint64_t start = thread_cpu_ns();
	ho_post(&sh->held);
	while (thread_cpu_ns() - start < sh->hold_ns)
		;
	if ((rc = pthread_mutex_unlock(&sh->mutex)) != 0) {
		task_failed(t, rc, "pthread_mutex_unlock");
		return rc;
	}
	ho_post(&sh->done);
	return 0;
}

/* M's cycle: busy for at most spin_ticks, looking at h_wants all along;
 * done early once H has the mutex (then M has nothing left to disturb). */
static int med_cycle(struct pi_task *t)
{
	struct pi_shared *sh = t->sh;
	uint64_t end = tb_now() + sh->spin_ticks;
	do {
		if (!sh->h_wants)
			break;
		sh->m_saw = 1;
	} while (tb_now() < end);
	ho_post(&sh->done);
	return 0;
}

/* H's cycle: lock (the wait measured), note the time, unlock. */
static int high_cycle(struct pi_task *t)
{
	struct pi_shared *sh = t->sh;
	int rc = pthread_mutex_lock(&sh->mutex);
	uint64_t now = tb_now();
	if (rc) {
		sh->h_wants = 0;
		task_failed(t, rc, "pthread_mutex_lock");
		return rc;
	}
	sh->t_got = now;
	sh->h_wants = 0;
	if ((rc = pthread_mutex_unlock(&sh->mutex)) != 0) {
		task_failed(t, rc, "pthread_mutex_unlock");
		return rc;
	}
	ho_post(&sh->done);
	return 0;
}

/* A task's life once it runs where and as it should: ready, then one cycle
 * per go until told to quit or a cycle fails. */
static int task_loop(struct pi_task *t)
{
	static int (*const cycle[R_COUNT])(struct pi_task *) = { low_cycle, med_cycle,
								 high_cycle };
	struct pi_shared *sh = t->sh;
	int rc;
	ho_post(&sh->done); /* ready */
	for (;;) {
		if ((rc = sem_take(sh, &sh->go[t->role], NULL, t->role, "its go")) != 0) {
			task_failed(t, rc, "sem_wait");
			return rc;
		}
		if (sh->quit)
			return 0;
		if ((rc = cycle[t->role](t)) != 0)
			return rc;
	}
}

static void *task_thread(void *arg)
{
	task_loop(arg);
	return NULL;
}

/* Create t's thread with its CPU, policy and priority in its attributes,
 * checked at the kernel before it runs. 0 or -errno after probe_fail. */
static int start_thread(struct pi_task *t)
{
	const struct probe_ctx *c = t->c;
	cpu_set_t one;
	char task[40];
	int prio = t->plan->prio[t->role];
	int rc;
	CPU_ZERO(&one);
	CPU_SET(t->plan->cpu, &one);
	snprintf(task, sizeof task, "the %s task", role_names[t->role]);
	rc = probe_start_thread(c, task, &t->tid, c->policy, prio, &one, PI_STACK_BYTES,
				task_thread, t);
	if (rc)
		return probe_fail(c, rc, "creating the %s task on CPU %d (policy %d, priority %d): "
				  "%s", role_names[t->role], t->plan->cpu, c->policy, prio,
				  strerror(rc));
	return 0;
}

/* L as a forked process: the worker's set-up (memory locks, CPU, death
 * with the worker), then its own lower priority. 0 or -errno. */
static int start_process(struct pi_task *t, pid_t *pid)
{
	*pid = fork();
	if (*pid < 0) {
		int e = errno;
		return probe_fail(t->c, e, "fork of the low task: %s (%s)", probe_errname(e),
				  strerror(e));
	}
	if (*pid == 0) {
		if (probe_peer_setup(t->c, "the low task (a process)", t->plan->cpu,
				     t->plan->prio[R_LOW]) != 0) {
			t->sh->failed = 1;
			ho_post(&t->sh->done);
			_exit(1);
		}
		_exit(task_loop(t) == 0 ? 0 : 1);
	}
	return 0;
}

/* Sleep for ns (relative; resumed after a signal). */
static void rest_ns(uint64_t ns)
{
	struct timespec left = { .tv_sec = (time_t)(ns / NS_PER_S), .tv_nsec = (long)(ns % NS_PER_S) };
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left) == EINTR)
		;
}

/* C waits for s until `deadline` (CLOCK_MONOTONIC ns; `since` is when the
 * step or cycle began). 0, -ETIMEDOUT after probe_fail saying what never
 * happened, or -EIO when a task failed (it said why). */
static int await(struct probe_ctx *c, struct pi_shared *sh, struct ho_sem *s, uint64_t since,
		 uint64_t deadline, const char *what)
{
	struct timespec ts = { .tv_sec = (time_t)(deadline / NS_PER_S),
			       .tv_nsec = (long)(deadline % NS_PER_S) };
	int e = -sem_take(sh, s, &ts, R_COUNT, what);
	if (e) {
		if (e == ETIMEDOUT)
			return probe_fail(c, e, "waited %.1f s for %s: the tasks are stuck (a "
					  "deadlock on the mutex, or starved on CPU %d)",
					  (double)(mono_ns() - since) / 1e9, what,
					  sched_getcpu());
		return probe_fail(c, e, "sem_clockwait: %s (%s)", probe_errname(e), strerror(e));
	}
	return sh->failed ? -(c->res->err ? c->res->err : EIO) : 0;
}

/* One inversion cycle (the file's comment says how), then a rest as long
 * as the cycle took. Returns 0 with the high task's wait in *wait (ticks)
 * and whether the medium task ran during it, or -errno after probe_fail. */
static int pi_cycle(struct probe_ctx *c, struct pi_shared *sh, const struct pi_plan *plan,
		    uint64_t *wait, bool *violated)
{
	uint64_t start = mono_ns();
	uint64_t deadline = start + plan->cycle_ns + PI_STEP_GRACE_NS;
	int rc;

	ho_post(&sh->go[R_LOW]);
	if ((rc = await(c, sh, &sh->held, start, deadline, "the low task to lock the mutex")) != 0)
		return rc;
	sh->m_saw = 0;
	ho_post(&sh->go[R_MED]);
	sh->h_wants = 1;
	uint64_t t0 = tb_now();
	ho_post(&sh->go[R_HIGH]);
	for (int i = 0; i < R_COUNT; i++)
		if ((rc = await(c, sh, &sh->done, start, deadline,
				"the three tasks to finish a cycle")) != 0)
			return rc;
	*wait = sh->t_got - t0;
	*violated = sh->m_saw != 0;
	rest_ns(mono_ns() - start);
	return 0;
}

/* The warm-up, then every run. 0 or -errno after probe_fail. */
static int pi_measure(struct probe_ctx *c, struct pi_shared *sh, const struct pi_plan *plan)
{
	uint64_t wait;
	bool violated;
	int rc;

	uint64_t added = 0;
	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup && !*c->stop; i++) {
		sh->cycle_now = i + 1;
		if ((rc = pi_cycle(c, sh, plan, &wait, &violated)) != 0)
			return rc;
	}
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		sh->run_now = r;
		probe_run_begin(c, r);
		for (uint64_t i = 0; i < c->iterations && !*c->stop; i++) {
			sh->cycle_now = i + 1;
			if ((rc = pi_cycle(c, sh, plan, &wait, &violated)) != 0)
				return rc;
			probe_record(c, M_INVERSION, wait);
			probe_add_count(c, M_VIOLATIONS, violated);
		}
		/* the start's and the warm-up's into the first run's */
		uint64_t u = __atomic_load_n(&sh->unanswered, __ATOMIC_ACQUIRE);
		probe_add_count(c, M_UNANSWERED, u - added);
		added = u;
		/* Zero, not the cycles run: a run's time / cycles would be
		 * mostly the rests between cycles, so no batch figure. */
		probe_run_end(c, 0);
	}
	return 0;
}

static int protocol_of(const char *name)
{
	if (strcmp(name, "inherit") == 0)
		return PTHREAD_PRIO_INHERIT;
	if (strcmp(name, "protect") == 0)
		return PTHREAD_PRIO_PROTECT;
	return PTHREAD_PRIO_NONE;
}

/* The hold, and whether every cycle fits the timeout at its longest (L's
 * hold, M's whole spin and the rest after them): say so now rather than be
 * killed by the watchdog at the end. 0 or -errno after probe_fail. */
static int pi_timing(struct probe_ctx *c, struct pi_plan *p)
{
	char why[200];
	if (units_duration_parse_ns(probe_value(c, "hold"), false, &p->hold_ns, why, sizeof why) != 0)
		return probe_fail(c, EINVAL, "hold: %s", why);
	p->cycle_ns = PI_CYCLE_HOLDS * p->hold_ns + PI_CYCLE_EXTRA_NS;
	long double need = ((long double)c->warmup + (long double)c->runs * c->iterations) *
			   p->cycle_ns;
	if (c->timeout_ns && need >= (long double)c->timeout_ns) {
		char a[32], b[32];
		units_fmt_ns((double)need, a, sizeof a);
		units_fmt_ns((double)c->timeout_ns, b, sizeof b);
		return probe_fail(c, ETIME, "(warmup + runs x iterations) cycles of up to %u x hold "
				  "+ 200us each = %s, not less than the timeout of %s: raise <run "
				  "timeout> or lower the counts", PI_CYCLE_HOLDS, a, b);
	}
	return 0;
}

/* Everything decided before anything starts: protocol, peer, the one CPU,
 * the three priorities below the worker's, the hold. 0 or -errno after
 * probe_fail. */
static int pi_plan(struct probe_ctx *c, struct pi_plan *p)
{
	int other;
	memset(p, 0, sizeof *p);
	p->protocol = protocol_of(probe_value(c, "protocol"));
	p->process = strcmp(probe_value(c, "peer"), "process") == 0;
	if (c->policy != SCHED_FIFO && c->policy != SCHED_RR)
		return probe_fail(c, EINVAL, "priority-inherit needs a real-time policy "
				  "(<sched policy=\"fifo\"/> or \"rr\"): priorities are what it tests");
	int min = sched_get_priority_min(c->policy);
	if (c->priority - R_COUNT < min)
		return probe_fail(c, ERANGE, "priority %d is too low: the high, medium and low "
				  "tasks run 1, 2 and 3 below the worker's priority and %d is the "
				  "lowest, so give priority %d or more", c->priority, min,
				  min + R_COUNT);
	p->prio[R_HIGH] = c->priority - 1;
	p->prio[R_MED] = c->priority - 2;
	p->prio[R_LOW] = c->priority - 3;
	if (probe_pick_cpus(c, "same-cpu", &p->cpu, &other) != 0 || p->cpu < 0)
		return probe_fail(c, ENODEV, "no CPU to run the four tasks on");
	return pi_timing(c, p);
}

/* The mutex under test: process-shared for a process peer, with the
 * plan's protocol (protect: the high task's priority as ceiling). 0, or the
 * error number with the call that refused it in *what. */
static int init_mutex(pthread_mutex_t *m, const struct pi_plan *p, const char **what)
{
	pthread_mutexattr_t a;
	int rc;
	*what = "pthread_mutexattr_init";
	if ((rc = pthread_mutexattr_init(&a)) != 0)
		return rc;
	*what = "pthread_mutexattr_setpshared";
	rc = pthread_mutexattr_setpshared(&a, p->process ? PTHREAD_PROCESS_SHARED
							 : PTHREAD_PROCESS_PRIVATE);
	if (rc == 0) {
		*what = "pthread_mutexattr_setprotocol";
		rc = pthread_mutexattr_setprotocol(&a, p->protocol);
	}
	if (rc == 0 && p->protocol == PTHREAD_PRIO_PROTECT) {
		*what = "pthread_mutexattr_setprioceiling";
		rc = pthread_mutexattr_setprioceiling(&a, p->prio[R_HIGH]);
	}
	if (rc == 0) {
		*what = "pthread_mutex_init";
		rc = pthread_mutex_init(m, &a);
	}
	pthread_mutexattr_destroy(&a);
	return rc;
}

/* The shared mapping with its semaphores and the mutex under test
 * (process-shared for a process peer; the ceiling of protect is the high
 * task's priority). 0 or -errno after probe_fail, nothing left behind. */
static int pi_open(struct probe_ctx *c, const struct pi_plan *p, struct pi_shared **shp)
{
	struct pi_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		int e = errno;
		return probe_fail(c, e, "mmap of the shared state: %s (%s)", probe_errname(e),
				  strerror(e));
	}
	memset(sh, 0, sizeof *sh);
	sh->hold_ns = p->hold_ns;
	sh->spin_ticks = (uint64_t)((double)(PI_SPIN_HOLDS * p->hold_ns) / c->tb->ns_per_tick);
	int pshared = p->process ? 1 : 0;
	for (int i = 0; i < R_COUNT; i++)
		ho_sem_init(&sh->go[i], pshared);
	ho_sem_init(&sh->held, pshared);
	ho_sem_init(&sh->done, pshared);
	sh->run_now = PI_WARM_UP;

	const char *what = NULL;
	int rc = init_mutex(&sh->mutex, p, &what);
	if (rc) {
		munmap(sh, sizeof *sh);
		return probe_fail(c, rc, "%s (protocol %s, peer %s): %s (%s)", what,
				  probe_value(c, "protocol"), probe_value(c, "peer"),
				  probe_errname(rc), strerror(rc));
	}
	*shp = sh;
	return 0;
}

static void pi_close(struct pi_shared *sh)
{
	pthread_mutex_destroy(&sh->mutex);
	for (int i = 0; i < R_COUNT; i++)
		sem_destroy(&sh->go[i].sem);
	sem_destroy(&sh->held.sem);
	sem_destroy(&sh->done.sem);
	munmap(sh, sizeof *sh);
}

/* The tasks of one measurement: H and M are threads, L a thread or a
 * process (pid > 0). */
struct pi_crew {
	struct pi_task t[R_COUNT];
	bool started[R_COUNT];
	pid_t pid;
};

/* Start the three tasks and wait until each is ready. 0 or -errno after
 * probe_fail; the ones started are then in crew for pi_end. */
static int pi_start(struct probe_ctx *c, struct pi_shared *sh, const struct pi_plan *p,
		    struct pi_crew *crew)
{
	int rc = 0;
	crew->pid = -1;
	for (int r = 0; r < R_COUNT && rc == 0; r++) {
		crew->t[r] = (struct pi_task){ .c = c, .sh = sh, .plan = p, .role = r };
		rc = r == R_LOW && p->process ? start_process(&crew->t[r], &crew->pid)
					      : start_thread(&crew->t[r]);
		crew->started[r] = rc == 0;
	}
	if (rc)
		return rc;
	uint64_t start = mono_ns();
	for (int r = 0; r < R_COUNT && rc == 0; r++)
		rc = await(c, sh, &sh->done, start, start + PI_STEP_GRACE_NS, "the tasks to start");
	return rc;
}

/* Tell the tasks to leave and wait for them. After a failure they may be
 * stuck (blocked on the mutex, or gone): the process peer is killed and
 * reaped, the threads are left to the worker's exit, which follows the
 * probe's return, and so is the shared memory they use. Returns rc, or a
 * failure of the peer process after a clean measurement. */
static int pi_end(struct probe_ctx *c, struct pi_shared *sh, struct pi_crew *crew, int rc)
{
	if (rc) {
		if (crew->pid > 0) {
			kill(crew->pid, SIGKILL);
			while (waitpid(crew->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		return rc;
	}
	sh->quit = 1;
	for (int r = 0; r < R_COUNT; r++)
		ho_post(&sh->go[r]);
	for (int r = 0; r < R_COUNT; r++)
		if (crew->started[r] && !(r == R_LOW && crew->pid > 0))
			pthread_join(crew->t[r].tid, NULL);
	if (crew->pid > 0) {
		int st = 0;
		while (waitpid(crew->pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
			return probe_fail(c, ECHILD, "low task's process %s %d",
					  WIFSIGNALED(st) ? "killed by signal" : "exited with status",
					  WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
	pi_close(sh);
	return 0;
}

/* The result's note: who ran where, at which priority. */
static void describe(struct probe_ctx *c, const struct pi_shared *sh, const struct pi_plan *p)
{
	char spin[32];
	if (sh->first_set) {
		char where[80];
		if (sh->first_run == PI_WARM_UP)
			snprintf(where, sizeof where, "before the first run (warm-up cycle %llu)",
				 (unsigned long long)sh->first_cycle);
		else
			snprintf(where, sizeof where, "run %u, cycle %llu of %llu", sh->first_run + 1,
				 (unsigned long long)sh->first_cycle,
				 (unsigned long long)c->iterations);
		snprintf(c->res->violation, sizeof c->res->violation, "%s: the %s%s's sem_wait "
			 "for %s returned without its post", where,
			 sh->first_task == R_COUNT ? "controller" : role_names[sh->first_task],
			 sh->first_task == R_COUNT ? "" : " task", sh->first_what);
	}
	units_fmt_ns((double)(PI_SPIN_HOLDS * p->hold_ns), spin, sizeof spin);
	snprintf(c->res->note, sizeof c->res->note,
		 "on CPU %d: controller %d, high %d, medium %d, low %d (%s); medium spins up to "
		 "%s.", p->cpu, c->priority, p->prio[R_HIGH], p->prio[R_MED], p->prio[R_LOW],
		 p->process ? "a process" : "a thread", spin);
}

static int pi_run(struct probe_ctx *c)
{
	struct pi_plan plan;
	struct pi_shared *sh = NULL;
	struct pi_crew crew;
	char err[400];
	int rc;

	if ((rc = pi_plan(c, &plan)) != 0)
		return rc;
	if ((rc = rtenv_pin(plan.cpu, err, sizeof err)) != 0)
		return probe_fail(c, rc, "%s", err);
	if ((rc = pi_open(c, &plan, &sh)) != 0)
		return rc;
	memset(&crew, 0, sizeof crew);
	if ((rc = pi_start(c, sh, &plan, &crew)) == 0 && (rc = pi_measure(c, sh, &plan)) == 0)
		describe(c, sh, &plan);
	return pi_end(c, sh, &crew, rc);
}

static const char *pi_check(const char *const *values, char *buf, size_t len)
{
	uint64_t ns;
	char err[160];
	if (units_duration_parse_ns(values[P_HOLD], false, &ns, err, sizeof err) != 0) {
		snprintf(buf, len, "probe priority-inherit: hold: %s", err);
		return buf;
	}
	if (ns < PI_MIN_HOLD_NS || ns > PI_MAX_HOLD_NS) {
		snprintf(buf, len, "probe priority-inherit: hold %s is outside 10us .. 50ms",
			 values[P_HOLD]);
		return buf;
	}
	return NULL;
}

/* A cycle and the controller's rest after it, as long as the cycle: with
 * a protocol, H waits about one hold (L's); without, M's spin of
 * PI_SPIN_HOLDS holds as well. */
static void pi_pace(const char *const *values, struct probe_pace *out)
{
	double holds = strcmp(values[P_PROTOCOL], "none") == 0 ? 1 + PI_SPIN_HOLDS : 1;
	out->iteration_s = 2 * holds * probe_decl_value_s(values[P_HOLD]);
}

const struct probe probe_priority_inherit = {
	.decl.name = "priority-inherit",
	.decl.pace = pi_pace,
	.decl.verifies = "the high, medium and low tasks (threads, or the low one a process): "
		"policy, priority and CPU; the mutex protocol is judged by its effect "
		"(violations)",
	.decl.help = "priority inversion on one CPU: a low task holds a mutex, a high task waits "
		"for it, a medium task becomes runnable; with priority inheritance or a ceiling "
		"the medium task must not run while the high one waits",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.violation_metrics = 1u << M_UNANSWERED,
	.decl.check = pi_check,
	.run = pi_run,
	/* C sleeps after every cycle as long as the cycle took, so the tasks
	 * keep their CPU busy at most half the time (a busy stretch at most
	 * 3 x 50 ms): they cannot run into RT throttling, and a run's wall time
	 * says nothing about it. The harness's guard would count the rests as
	 * busy time. */
	.mostly_sleeps = true,
};
