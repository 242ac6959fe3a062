/* SPDX-License-Identifier: Apache-2.0 */
/* priority_wake.c - are blocked waiters released highest priority first?
 *
 * POSIX asks it of every blocking object under SCHED_FIFO / SCHED_RR: a
 * semaphore post, a message arriving at an empty queue and the unblocking
 * of a condition variable's waiters go to the highest-priority waiter
 * first (the longest-waiting one among equals). This probe checks it for
 * one object at a time, in rounds:
 *
 *   1. arrival: `waiters` threads of distinct SCHED_FIFO priorities are let
 *      in one at a time, lowest priority first, and each blocks on the
 *      object; the next is let in only once the previous one is seen
 *      asleep in the kernel, in the object's system call (below);
 *   2. release: a waker below all of them releases the object once per
 *      waiter (mutex-cond: one pthread_cond_broadcast);
 *   3. each waiter, as it returns from its wait, takes the next slot of the
 *      round's return order.
 *
 * Every thread is pinned to one CPU, so a released waiter (above the waker)
 * runs before the waker's next release and the return order is the order
 * in which the object was handed out, not a race between CPUs. A round's
 * violations are the waiters that returned while a waiter of higher
 * priority released in the same round had not yet (count metric
 * `violations`, added per run).
 *
 * Priorities, below the worker's P (so <sched priority="max"/> works): the
 * waiters P-n .. P-1 in arrival order, the waker P-n-1; the worker's own
 * thread only starts and ends runs and is blocked while one goes on.
 *
 * How a waiter is known to be blocked: on one CPU the waker, below every
 * waiter, cannot run while a waiter it let in is still runnable, so the
 * scheduler already orders arrival. That is the rule under test, so the
 * waker does not take it on trust: it reads the waiter's
 * /proc/self/task/TID/stat (state S, an interruptible sleep) and
 * /proc/self/task/TID/syscall (the system call a sleeping task is in and
 * its arguments: futex with its first argument inside the object, or
 * mq_timedreceive on the queue's descriptor). Both files are opened before
 * the first run and re-read with pread at offset 0 (no allocation). A
 * waiter not seen so is looked at again every 20 us, at most for 50 ms,
 * then the probe fails; the note says how many second looks were needed.
 *
 * order=arrival is the configuration that must violate: each waiter blocks
 * on an object of its own (same mechanism) and the waker releases them one
 * by one in arrival order, lowest priority first, as a release that ignores
 * priority would. Each round then has exactly waiters - 1 violations.
 *
 * Every hand-off is checked (handoff.h, issue 37): the gates, the object,
 * the returns the waker counts and the main thread's go and done each
 * count their posts (the object its releases: one a waiter, a broadcast
 * as many as it frees) before posting, and a wait that returns with none
 * left to claim is counted in `unanswered-waits` (a violation metric) and
 * waited again; a waiter takes a slot of the return order only from an
 * answered wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness/measure/rtenv.h"
#include "harness/measure/probes/handoff.h"
#include "harness/measure/probes/probes.h"

#define PW_MAX_WAITERS 32
#define PW_MQ_MSGSIZE 8
#define PW_STACK_BYTES (128 * 1024)
#define PW_PREFAULT_BYTES (32 * 1024)
/* Second looks at a waiter not yet seen blocked: 2500 x 20 us = 50 ms. */
#define PW_LOOK_NS 20000L
#define PW_LOOKS 2500
/* How long the waker waits for a released waiter to return, and the main
 * thread for its threads to start: far beyond a wake-up on one CPU. */
#define PW_RETURN_S 1
#define PW_START_S 5
/* The name prefix of the message queues (and of the cleanup record). */
#define PW_MQ_PREFIX "/rtconform-pw-"

static const char *const mechanisms[] = { "posix-sem", "futex", "mutex-cond", "mqueue", NULL };
static const char *const orders[] = { "priority", "arrival", NULL };

enum { P_MECHANISM, P_ORDER, P_WAITERS };
enum mech { MECH_SEM, MECH_FUTEX, MECH_COND, MECH_MQ };

static const struct probe_param params[] = {
	[P_MECHANISM] = { "mechanism",
	  "posix-sem: sem_wait / sem_post on an unnamed semaphore; futex: FUTEX_WAIT / "
	  "FUTEX_WAKE of one waiter; mutex-cond: pthread_cond_wait / one "
	  "pthread_cond_broadcast; mqueue: mq_receive / mq_send of one message per waiter",
	  PARAM_ENUM, mechanisms, "posix-sem" },
	[P_ORDER] = { "order",
	  "priority: all waiters block on one object and the kernel picks who is released; "
	  "arrival: each waiter blocks on its own object and the waker releases them in "
	  "arrival order, lowest priority first (must violate: waiters - 1 per round)",
	  PARAM_ENUM, orders, "priority" },
	[P_WAITERS] = { "waiters", "waiters of distinct SCHED_FIFO priorities per round "
		        "(2 to 32), just below the worker's priority", PARAM_COUNT, NULL, "5" },
};

enum { M_VIOLATIONS, M_UNANSWERED };

static const struct probe_metric metrics[] = {
	[M_VIOLATIONS] = { "violations", "waiters that returned from the wait before a "
			   "higher-priority waiter released in the same round (per run)",
			   METRIC_COUNT },
	[M_UNANSWERED] = { "unanswered-waits", "waits of any of the probe's threads that "
			   "returned without a post or release to answer them (must be 0)",
			   METRIC_COUNT },
};

/* Which wait of the probe was unanswered first, for the words. */
enum pw_wait { PWW_GATE, PWW_OBJECT, PWW_BACK, PWW_GO, PWW_DONE };
#define PW_START_UP UINT32_MAX      /* run_now: threads starting */
#define PW_WARM_UP (UINT32_MAX - 1) /* run_now: the warm-up */

/* One object waiters block on: only the mechanism's fields are used. */
struct pw_obj {
	_Alignas(64) sem_t sem;
	uint32_t word;        /* futex: bumped by every release */
	uint32_t gen;         /* mutex-cond: bumped by a broadcast, under the mutex */
	pthread_cond_t cond;
	mqd_t rx, tx;         /* mqueue: receive end (blocking), send end (non-blocking) */
	struct ho_count given; /* releases handed out: one a waiter, a broadcast n */
};

struct pw_shared;

struct pw_waiter {
	struct pw_shared *sh;
	int idx;             /* arrival rank: 0 arrives first and has the lowest priority */
	int prio;
	volatile pid_t tid;  /* written by the thread before it says it is ready */
	int fd_stat, fd_syscall;
	struct ho_sem gate;  /* posted by the waker: arrive now */
	pthread_t thread;
	int err;             /* positive errno of a failure in the thread */
	const char *what;
};

struct pw_shared {
	struct probe_ctx *c;
	enum mech mech;
	bool by_arrival;
	int n, cpu;
	pthread_mutex_t mutex;            /* mutex-cond: the condition's mutex */
	struct pw_obj obj[PW_MAX_WAITERS];
	struct pw_waiter w[PW_MAX_WAITERS];
	struct pw_waiter waker;           /* its own failure and thread */
	struct ho_sem back;               /* a thread is ready, or a waiter has returned */
	struct ho_sem go, done;           /* main thread -> waker: rounds to do; and back */
	uint64_t unanswered, added;       /* unanswered waits; of them in the runs' counts */
	volatile uint32_t run_now;        /* the run measured, PW_WARM_UP, PW_START_UP */
	volatile uint64_t round_now;      /* the round the waker plays, from 1 */
	struct {
		int set;                  /* claimed once, atomically */
		enum pw_wait what;
		int idx;                  /* the waiter; -1: the waker or the main thread */
		uint32_t run;
		uint64_t round;
	} first;
	volatile int quit;
	uint64_t rounds;                  /* rounds the next go asks for */
	bool counting;                    /* add the violations (not in warm-up) */
	uint32_t returned;                /* slots of the round's order taken */
	int order[PW_MAX_WAITERS];        /* arrival ranks in the order they returned */
	uint64_t second_looks;            /* arrivals that needed more than one look */
	volatile int failed;
};

static enum mech mech_of(const char *name)
{
	for (int i = 0; mechanisms[i]; i++)
		if (strcmp(mechanisms[i], name) == 0)
			return (enum mech)i;
	return MECH_SEM; /* the catalogue admits no other value */
}

/* n unanswered waits of wait `what` (waiter idx, -1: none) into the
 * count, the first one noted. */
static void pw_unanswered(struct pw_shared *sh, uint64_t n, enum pw_wait what, int idx)
{
	__atomic_add_fetch(&sh->unanswered, n, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&sh->first.set, 1, __ATOMIC_ACQ_REL))
		return;
	sh->first.what = what;
	sh->first.idx = idx;
	sh->first.run = sh->run_now;
	sh->first.round = sh->round_now;
}

/* Wait for a post of s (ho_wait), at most `secs` seconds when secs > 0.
 * 0, or ETIMEDOUT / a positive errno. */
static int pw_wait(struct pw_shared *sh, struct ho_sem *s, int secs, enum pw_wait what, int idx)
{
	struct timespec t;
	uint64_t mine = 0;
	if (secs > 0) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec += secs;
	}
	int rc = ho_wait(s, secs > 0 ? &t : NULL, &mine);
	if (mine)
		pw_unanswered(sh, mine, what, idx);
	return rc;
}

/* Record a thread's failure (the first one gives the probe's reason). */
static void pw_thread_failed(struct pw_shared *sh, struct pw_waiter *w, const char *what, int err)
{
	w->err = err;
	w->what = what;
	if (!__atomic_exchange_n(&sh->failed, 1, __ATOMIC_ACQ_REL))
		probe_fail(sh->c, err, "%s: %s (%s)", what, probe_errname(err), strerror(err));
}

/* ---------------------------------------------------------- the object */

/* Block on o until released. 0 or a positive errno. */
static int pw_block(struct pw_shared *sh, struct pw_obj *o)
{
	switch (sh->mech) {
	case MECH_SEM:
		while (sem_wait(&o->sem) != 0)
			if (errno != EINTR)
				return errno;
		return 0;
	case MECH_FUTEX: {
		uint32_t seen = __atomic_load_n(&o->word, __ATOMIC_ACQUIRE);
		while (__atomic_load_n(&o->word, __ATOMIC_ACQUIRE) == seen)
			if (syscall(SYS_futex, &o->word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0) != 0 &&
			    errno != EAGAIN && errno != EINTR)
				return errno;
		return 0;
	}
	case MECH_COND: {
		int rc = pthread_mutex_lock(&sh->mutex);
		uint32_t seen = o->gen;
		while (rc == 0 && o->gen == seen)
			rc = pthread_cond_wait(&o->cond, &sh->mutex);
		pthread_mutex_unlock(&sh->mutex);
		return rc;
	}
	case MECH_MQ: {
		char buf[PW_MQ_MSGSIZE];
		while (mq_receive(o->rx, buf, sizeof buf, NULL) < 0)
			if (errno != EINTR)
				return errno;
		return 0;
	}
	}
	return EINVAL;
}

/* Release o once: one waiter (mutex-cond: every waiter of o, `waiters`
 * of them). 0 or a positive errno; ENOENT when a futex wake found nobody
 * to wake. */
static int pw_release(struct pw_shared *sh, struct pw_obj *o, int waiters)
{
	ho_give(&o->given, sh->mech == MECH_COND ? (uint64_t)waiters : 1);
	switch (sh->mech) {
	case MECH_SEM:
		return sem_post(&o->sem) == 0 ? 0 : errno;
	case MECH_FUTEX: {
		__atomic_add_fetch(&o->word, 1, __ATOMIC_RELEASE);
		long woke = syscall(SYS_futex, &o->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		return woke == 1 ? 0 : woke < 0 ? errno : ENOENT;
	}
	case MECH_COND: {
		/* Broadcast after unlocking, so the woken do not find it held. */
		int rc = pthread_mutex_lock(&sh->mutex);
		if (rc)
			return rc;
		o->gen++;
		pthread_mutex_unlock(&sh->mutex);
		return pthread_cond_broadcast(&o->cond);
	}
	case MECH_MQ:
		return mq_send(o->tx, "w", 1, 0) == 0 ? 0 : errno;
	}
	return EINVAL;
}

/* Read a /proc file kept open into buf (NUL-terminated). false on failure. */
static bool pw_pread(int fd, char *buf, size_t len)
{
	ssize_t got = pread(fd, buf, len - 1, 0);
	if (got <= 0)
		return false;
	buf[got] = 0;
	return true;
}

/* Is w asleep (state S) in the system call that waits on o? */
static bool pw_asleep_on(const struct pw_shared *sh, const struct pw_waiter *w,
			 const struct pw_obj *o)
{
	char buf[512];
	if (!pw_pread(w->fd_stat, buf, sizeof buf))
		return false;
	const char *paren = strrchr(buf, ')'); /* the name may hold spaces and ')' */
	if (!paren || paren[1] != ' ' || paren[2] != 'S')
		return false;
	if (!pw_pread(w->fd_syscall, buf, sizeof buf))
		return false;
	char *end;
	long nr = strtol(buf, &end, 10); /* "running" for a task on a CPU: nr 0, end == buf */
	if (end == buf || *end != ' ')
		return false;
	uintptr_t arg0 = (uintptr_t)strtoull(end + 1, NULL, 16);
	uintptr_t lo, hi;
	switch (sh->mech) {
	case MECH_MQ:
		return nr == SYS_mq_timedreceive && arg0 == (uintptr_t)o->rx;
	case MECH_SEM:
		lo = (uintptr_t)&o->sem, hi = lo + sizeof o->sem;
		break;
	case MECH_FUTEX:
		lo = (uintptr_t)&o->word, hi = lo + sizeof o->word;
		break;
	case MECH_COND:
		lo = (uintptr_t)&o->cond, hi = lo + sizeof o->cond;
		break;
	default:
		return false;
	}
	return nr == SYS_futex && arg0 >= lo && arg0 < hi;
}

/* The object waiter i blocks on. */
static struct pw_obj *pw_obj_of(struct pw_shared *sh, int i)
{
	return &sh->obj[sh->by_arrival ? i : 0];
}

/* -------------------------------------------------------------- threads */

static void pw_prefault(void)
{
	volatile char pad[PW_PREFAULT_BYTES];
	for (size_t i = 0; i < sizeof pad; i += 4096)
		pad[i] = 0;
}

static void *pw_waiter_main(void *arg)
{
	struct pw_waiter *w = arg;
	struct pw_shared *sh = w->sh;
	w->tid = gettid();
	pw_prefault();
	ho_post(&sh->back); /* ready: tid known */
	for (;;) {
		int rc = pw_wait(sh, &w->gate, 0, PWW_GATE, w->idx);
		if (rc || sh->quit) {
			if (rc)
				pw_thread_failed(sh, w, "waiter: sem_wait on its gate", rc);
			return NULL;
		}
		struct pw_obj *o = pw_obj_of(sh, w->idx);
		uint64_t early = 0;
		while ((rc = pw_block(sh, o)) == 0 && !ho_claim(&o->given))
			early++; /* returned with no release to answer it */
		if (early)
			pw_unanswered(sh, early, PWW_OBJECT, w->idx);
		if (rc) {
			pw_thread_failed(sh, w, "waiter: wait on the object", rc);
			ho_post(&sh->back);
			return NULL;
		}
		uint32_t slot = __atomic_fetch_add(&sh->returned, 1, __ATOMIC_ACQ_REL);
		if (slot < PW_MAX_WAITERS)
			sh->order[slot] = w->idx;
		ho_post(&sh->back);
	}
}

/* Let waiter i in and see it blocked on its object. 0 or a positive errno
 * after pw_thread_failed / probe_fail. */
static int pw_arrive(struct pw_shared *sh, int i)
{
	struct pw_waiter *w = &sh->w[i];
	const struct timespec look = { 0, PW_LOOK_NS };
	ho_post(&w->gate);
	for (int k = 0; !pw_asleep_on(sh, w, pw_obj_of(sh, i)); k++) {
		if (k == PW_LOOKS || sh->failed || *sh->c->stop) {
			if (!__atomic_exchange_n(&sh->failed, 1, __ATOMIC_ACQ_REL))
				probe_fail(sh->c, ETIME, "waiter %d (SCHED_FIFO %d, tid %d) not seen "
					   "asleep in its wait %d ms after it was let in", i, w->prio,
					   (int)w->tid, PW_LOOKS * (int)(PW_LOOK_NS / 1000) / 1000);
			return ETIME;
		}
		if (k == 0)
			sh->second_looks++;
		nanosleep(&look, NULL);
	}
	return 0;
}

/* A round's violations: returns before a higher-priority (higher-ranked)
 * waiter that returned later. */
static unsigned pw_violations(const int *order, int n)
{
	unsigned v = 0;
	int best = -1;
	for (int k = n - 1; k >= 0; k--) {
		if (order[k] < best)
			v++;
		else
			best = order[k];
	}
	return v;
}

/* One round: arrivals, releases, every waiter back. 0 or a positive errno
 * after the failure was recorded. */
static int pw_round(struct pw_shared *sh)
{
	int rc;
	sh->returned = 0;
	for (int i = 0; i < sh->n; i++)
		if ((rc = pw_arrive(sh, i)) != 0)
			return rc;
	for (int k = 0; k < sh->n; k++) {
		if (sh->mech == MECH_COND && !sh->by_arrival && k > 0)
			break; /* one broadcast released them all */
		if ((rc = pw_release(sh, pw_obj_of(sh, k), sh->by_arrival ? 1 : sh->n)) != 0) {
			pw_thread_failed(sh, &sh->waker, "waker: release", rc);
			return rc;
		}
	}
	for (int k = 0; k < sh->n; k++) {
		if ((rc = pw_wait(sh, &sh->back, PW_RETURN_S, PWW_BACK, -1)) != 0) {
			if (!__atomic_exchange_n(&sh->failed, 1, __ATOMIC_ACQ_REL))
				probe_fail(sh->c, rc, "%d of %d waiters returned within %d s of "
					   "their release", k, sh->n, PW_RETURN_S);
			return rc;
		}
	}
	return sh->failed ? EIO : 0;
}

static void *pw_waker_main(void *arg)
{
	struct pw_shared *sh = ((struct pw_waiter *)arg)->sh;
	struct probe_ctx *c = sh->c;
	pw_prefault();
	ho_post(&sh->back);
	for (;;) {
		if (pw_wait(sh, &sh->go, 0, PWW_GO, -1) != 0 || sh->quit)
			return NULL;
		for (uint64_t r = 0; r < sh->rounds && !*c->stop; r++) {
			sh->round_now = r + 1;
			if (pw_round(sh) != 0)
				break;
			if (sh->counting)
				probe_add_count(c, M_VIOLATIONS, pw_violations(sh->order, sh->n));
		}
		ho_post(&sh->done);
	}
}

/* Start a SCHED_FIFO thread at prio pinned to sh->cpu. 0 or -errno after
 * probe_fail. */
static int pw_start(struct pw_shared *sh, struct pw_waiter *t, void *(*fn)(void *),
		    const char *role)
{
	cpu_set_t one;
	struct sched_param sp = { .sched_priority = t->prio };
	int rc;
	CPU_ZERO(&one);
	CPU_SET(sh->cpu, &one);
	char task[48];
	snprintf(task, sizeof task, "the %s thread", role);
	rc = probe_start_thread(sh->c, task, &t->thread, SCHED_FIFO, sp.sched_priority,
				&one, PW_STACK_BYTES, fn, t);
	if (rc)
		return probe_fail(sh->c, rc, "creating the %s thread (SCHED_FIFO %d, CPU %d): %s",
				  role, t->prio, sh->cpu, strerror(rc));
	return 0;
}

/* -------------------------------------------------------- set-up, end */

/* Open the message queue of object k: a fresh name, both ends, then the
 * name is dropped at once. The prefix is in res->cleanup.names[0] first,
 * so the supervisor can remove what a killed worker left. */
static int pw_mq_open(struct pw_shared *sh, int k)
{
	struct pw_obj *o = &sh->obj[k];
	struct mq_attr at = { .mq_maxmsg = 1, .mq_msgsize = PW_MQ_MSGSIZE };
	char name[80];
	snprintf(name, sizeof name, "%s%d", sh->c->res->cleanup.names[0], k);
	o->rx = mq_open(name, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &at);
	if (o->rx == (mqd_t)-1 && errno == EEXIST) {
		/* Only a dead worker with our pid made it: a leftover. */
		mq_unlink(name);
		o->rx = mq_open(name, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &at);
	}
	if (o->rx == (mqd_t)-1) {
		int e = errno;
		return probe_fail(sh->c, e, "mq_open(%s): %s (%s)%s", name, probe_errname(e),
				  strerror(e), e == ENOSYS ? ": no POSIX message queues in this "
				  "kernel (CONFIG_POSIX_MQUEUE)" : "");
	}
	o->tx = mq_open(name, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	int e = errno;
	mq_unlink(name);
	if (o->tx == (mqd_t)-1)
		return probe_fail(sh->c, e, "mq_open(%s) to send: %s (%s)", name, probe_errname(e),
				  strerror(e));
	return 0;
}

/* Make the objects (one, or one per waiter for order=arrival). */
static int pw_objects(struct pw_shared *sh)
{
	int nobj = sh->by_arrival ? sh->n : 1, rc;
	for (int k = 0; k < PW_MAX_WAITERS; k++)
		sh->obj[k].rx = sh->obj[k].tx = (mqd_t)-1;
	if (sh->mech == MECH_MQ)
		snprintf(sh->c->res->cleanup.names[0], sizeof sh->c->res->cleanup.names[0],
			 PW_MQ_PREFIX "%ld-", (long)getpid());
	for (int k = 0; k < nobj; k++) {
		struct pw_obj *o = &sh->obj[k];
		if (sh->mech == MECH_SEM && sem_init(&o->sem, 0, 0) != 0)
			return probe_fail(sh->c, errno, "sem_init: %s", strerror(errno));
		if (sh->mech == MECH_COND && (rc = pthread_cond_init(&o->cond, NULL)) != 0)
			return probe_fail(sh->c, rc, "pthread_cond_init: %s", strerror(rc));
		if (sh->mech == MECH_MQ && (rc = pw_mq_open(sh, k)) != 0)
			return rc;
	}
	sh->c->res->cleanup.names[0][0] = 0; /* every name is gone */
	return 0;
}

/* Open each waiter's /proc stat and syscall files. 0 or -errno. */
static int pw_proc_open(struct pw_shared *sh)
{
	for (int i = 0; i < sh->n; i++) {
		struct pw_waiter *w = &sh->w[i];
		char path[64];
		snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)w->tid);
		w->fd_stat = open(path, O_RDONLY | O_CLOEXEC);
		if (w->fd_stat < 0)
			return probe_fail(sh->c, errno, "open %s: %s", path, strerror(errno));
		snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)w->tid);
		w->fd_syscall = open(path, O_RDONLY | O_CLOEXEC);
		if (w->fd_syscall < 0)
			return probe_fail(sh->c, errno, "open %s: %s (needed to see a waiter "
					  "blocked; a kernel without CONFIG_HAVE_ARCH_TRACEHOOK has "
					  "none)", path, strerror(errno));
	}
	return 0;
}

/* pw_proc_open, as the worker's own user. A worker with file capabilities
 * (docs/privileges.md) is not dumpable, so the kernel gives its
 * /proc/self/task files to root, and the syscall file (mode 0400) cannot be
 * opened by the worker's own user. It is made
 * dumpable just while the files are opened, and put back: reading an open
 * file of its own threads needs no more (the kernel's ptrace check lets a
 * thread group read itself), and a dumpable process with capabilities its
 * tracer lacks is still refused to that tracer. */
static int pw_proc_files(struct pw_shared *sh)
{
	int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	if (dumpable == 0)
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	int rc = pw_proc_open(sh);
	if (dumpable == 0)
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	return rc;
}

/* The priorities below the worker's: waiters P-n .. P-1, the waker P-n-1.
 * 0, or -errno after probe_fail when the policy or the range does not
 * allow them. */
static int pw_priorities(struct pw_shared *sh)
{
	struct probe_ctx *c = sh->c;
	int lowest = sched_get_priority_min(SCHED_FIFO);
	if (c->policy != SCHED_FIFO && c->policy != SCHED_RR)
		return probe_fail(c, EINVAL, "priority-wake needs a real-time worker: give "
				  "<sched policy=\"fifo\" priority=\"N\"/> with N at least %d (the "
				  "waiters and their waker run just below it)", lowest + sh->n + 1);
	if (c->priority - sh->n - 1 < lowest)
		return probe_fail(c, ERANGE, "waiters=%d need %d SCHED_FIFO priorities below the "
				  "worker's %d (the waiters, then their waker), the lowest being %d: "
				  "give <sched priority> of at least %d or fewer waiters", sh->n,
				  sh->n + 1, c->priority, lowest, lowest + sh->n + 1);
	for (int i = 0; i < sh->n; i++)
		sh->w[i].prio = c->priority - sh->n + i;
	sh->waker.prio = c->priority - sh->n - 1;
	return 0;
}

/* The shared state, zeroed, its semaphores and mutex made, no descriptor
 * open. 0 or -errno after probe_fail. */
static int pw_alloc(struct probe_ctx *c, struct pw_shared **shp)
{
	struct pw_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return probe_fail(c, errno, "mmap of the probe's state: %s", strerror(errno));
	memset(sh, 0, sizeof *sh); /* touched before any run */
	sh->c = c;
	sh->mech = mech_of(probe_value(c, "mechanism"));
	sh->by_arrival = strcmp(probe_value(c, "order"), "arrival") == 0;
	sh->n = atoi(probe_value(c, "waiters"));
	sh->waker.sh = sh;
	for (int i = 0; i < PW_MAX_WAITERS; i++) {
		sh->w[i] = (struct pw_waiter){ .sh = sh, .idx = i, .fd_stat = -1, .fd_syscall = -1 };
		ho_sem_init(&sh->w[i].gate, 0);
	}
	ho_sem_init(&sh->back, 0);
	ho_sem_init(&sh->go, 0);
	ho_sem_init(&sh->done, 0);
	sh->run_now = PW_START_UP;
	pthread_mutex_init(&sh->mutex, NULL);
	*shp = sh;
	return 0;
}

/* Start the waker and the waiters and wait until each is ready. *started
 * counts the waiters made. 0 or -errno after probe_fail. */
static int pw_threads(struct pw_shared *sh, bool *waker, int *started)
{
	int rc;
	if ((rc = pw_start(sh, &sh->waker, pw_waker_main, "waker")) != 0)
		return rc;
	*waker = true;
	for (int i = 0; i < sh->n; i++) {
		if ((rc = pw_start(sh, &sh->w[i], pw_waiter_main, "waiter")) != 0)
			return rc;
		(*started)++;
	}
	for (int i = 0; i <= sh->n; i++)
		if ((rc = pw_wait(sh, &sh->back, PW_START_S, PWW_BACK, -1)) != 0)
			return probe_fail(sh->c, rc, "%d of %d threads started within %d s", i,
					  sh->n + 1, PW_START_S);
	return 0;
}

/* Hand the waker `rounds` rounds and wait until it did them. */
static void pw_rounds(struct pw_shared *sh, uint64_t rounds, bool counting)
{
	sh->rounds = rounds;
	sh->counting = counting;
	ho_post(&sh->go);
	pw_wait(sh, &sh->done, 0, PWW_DONE, -1);
}

/* The unanswered waits since the last run's end into run c->run's count
 * (the first run's holds the start's and the warm-up's). */
static void pw_count(struct probe_ctx *c, struct pw_shared *sh)
{
	uint64_t u = __atomic_load_n(&sh->unanswered, __ATOMIC_ACQUIRE);
	probe_add_count(c, M_UNANSWERED, u - sh->added);
	sh->added = u;
}

static int pw_measure(struct probe_ctx *c, struct pw_shared *sh)
{
	c->res->state = WS_WARMUP;
	sh->run_now = PW_WARM_UP;
	if (c->warmup)
		pw_rounds(sh, c->warmup, false);
	for (uint32_t r = 0; r < c->runs && !*c->stop && !sh->failed; r++) {
		sh->run_now = r;
		probe_run_begin(c, r);
		pw_rounds(sh, c->iterations, true);
		pw_count(c, sh);
		/* No batch figure: run time / rounds is not a figure of
		 * anything a limit names. */
		probe_run_end(c, 0);
	}
	return sh->failed ? -(c->res->err ? c->res->err : EIO) : 0;
}

/* Stop and join the threads, release everything. After a failure inside a
 * round a waiter may still be blocked on the object: then nothing is
 * joined or freed, and the worker's exit ends the threads. */
static void pw_end(struct pw_shared *sh, bool waker, int started)
{
	bool joinable = !sh->failed;
	sh->quit = 1;
	if (waker) {
		ho_post(&sh->go);
		pthread_join(sh->waker.thread, NULL);
	}
	if (!joinable)
		return;
	for (int i = 0; i < started; i++) {
		ho_post(&sh->w[i].gate);
		pthread_join(sh->w[i].thread, NULL);
	}
	for (int i = 0; i < PW_MAX_WAITERS; i++) {
		if (sh->w[i].fd_stat >= 0)
			close(sh->w[i].fd_stat);
		if (sh->w[i].fd_syscall >= 0)
			close(sh->w[i].fd_syscall);
		if (sh->obj[i].rx != (mqd_t)-1)
			mq_close(sh->obj[i].rx);
		if (sh->obj[i].tx != (mqd_t)-1)
			mq_close(sh->obj[i].tx);
	}
	munmap(sh, sizeof *sh);
}

/* The first unanswered wait in words, into res->violation. */
static void pw_first_words(struct probe_ctx *c, const struct pw_shared *sh)
{
	static const char *const what[] = {
		[PWW_GATE] = "sem_wait on its gate returned without the waker's let-in post",
		[PWW_OBJECT] = "wait on the object returned without a release",
		[PWW_BACK] = "sem_wait returned without a thread's ready or return post",
		[PWW_GO] = "sem_wait returned without the main thread's post of rounds",
		[PWW_DONE] = "sem_wait returned without the waker's post that the rounds ended",
	};
	char who[40], where[80];
	bool main_thread = sh->first.what == PWW_DONE ||
			   (sh->first.what == PWW_BACK && sh->first.run == PW_START_UP);
	if (sh->first.idx >= 0)
		snprintf(who, sizeof who, "waiter %d (SCHED_FIFO %d)", sh->first.idx,
			 sh->w[sh->first.idx].prio);
	else
		snprintf(who, sizeof who, "%s", main_thread ? "the main thread" : "the waker");
	if (sh->first.run == PW_START_UP)
		snprintf(where, sizeof where, "while the threads started");
	else if (sh->first.run == PW_WARM_UP)
		snprintf(where, sizeof where, "warm-up round %llu",
			 (unsigned long long)sh->first.round);
	else
		snprintf(where, sizeof where, "run %u, round %llu of %llu", sh->first.run + 1,
			 (unsigned long long)sh->first.round, (unsigned long long)c->iterations);
	snprintf(c->res->violation, sizeof c->res->violation, "%s: %s's %s%s%s%s", where, who,
		 what[sh->first.what], sh->first.what == PWW_OBJECT ? " (" : "",
		 sh->first.what == PWW_OBJECT ? mechanisms[sh->mech] : "",
		 sh->first.what == PWW_OBJECT ? ")" : "");
}

/* The result's note: who ran where, and how arrival was confirmed. */
static void pw_note(struct probe_ctx *c, const struct pw_shared *sh)
{
	if (sh->first.set)
		pw_first_words(c, sh);
	snprintf(c->res->note, sizeof c->res->note,
		 "%d waiters at SCHED_FIFO %d..%d (arrival order), waker %d, all on CPU %d; "
		 "%s; arrivals that needed a second look before the waiter was seen asleep: %llu",
		 sh->n, sh->w[0].prio, sh->w[sh->n - 1].prio, sh->waker.prio, sh->cpu,
		 sh->by_arrival ? "order=arrival: one object per waiter, released lowest "
		 "priority first (must violate)" : "one object shared by every waiter",
		 (unsigned long long)sh->second_looks);
}

static int pw_run(struct probe_ctx *c)
{
	struct pw_shared *sh = NULL;
	int rc, cpu, unused, started = 0;
	bool waker = false;
	char err[400];

	if ((rc = pw_alloc(c, &sh)) != 0)
		return rc;
	probe_pick_cpus(c, "same-cpu", &cpu, &unused);
	sh->cpu = cpu;
	if ((rc = pw_priorities(sh)) != 0 || (rc = pw_objects(sh)) != 0)
		goto out;
	if ((rc = rtenv_pin(cpu, err, sizeof err)) != 0) {
		rc = probe_fail(c, rc, "%s", err);
		goto out;
	}
	if ((rc = pw_threads(sh, &waker, &started)) != 0 || (rc = pw_proc_files(sh)) != 0)
		goto out;
	if ((rc = pw_measure(c, sh)) == 0)
		pw_note(c, sh);
out:
	pw_end(sh, waker, started);
	return rc;
}

static const char *pw_check(const char *const *values, char *buf, size_t len)
{
	char *end;
	unsigned long n = strtoul(values[P_WAITERS], &end, 10);
	if (*end || n < 2 || n > PW_MAX_WAITERS) {
		snprintf(buf, len, "probe priority-wake: waiters %s is outside 2 .. %d",
			 values[P_WAITERS], PW_MAX_WAITERS);
		return buf;
	}
	return NULL;
}

/* Supervisor side: remove the message queues a killed worker may have left
 * between creating one and dropping its name. */
static void pw_cleanup(const struct result_shm *res)
{
	const char *prefix = res->cleanup.names[0];
	if (strncmp(prefix, PW_MQ_PREFIX, strlen(PW_MQ_PREFIX)) != 0)
		return;
	for (int k = 0; k < PW_MAX_WAITERS; k++) {
		char name[80];
		snprintf(name, sizeof name, "%s%d", prefix, k);
		mq_unlink(name);
	}
}

/* Waiters blocked, released and their order read: some 25 us here. */
static void pw_pace(const char *const *values, struct probe_pace *out)
{
	(void)values;
	out->iteration_s = 25e-6;
}

const struct probe probe_priority_wake = {
	.decl.name = "priority-wake",
	.decl.pace = pw_pace,
	.decl.verifies = "the waker and every waiter: SCHED_FIFO, its priority and the one CPU",
	.decl.help = "waiters of distinct SCHED_FIFO priorities, blocked on one semaphore, futex, "
		"condition variable or message queue, must be released highest priority first; "
		"violations = waiters that returned before a higher-priority one (LTP prio-wake); "
		"iterations = rounds per run",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.violation_metrics = 1u << M_UNANSWERED,
	.decl.check = pw_check,
	.run = pw_run,
	.cleanup = pw_cleanup,
};
