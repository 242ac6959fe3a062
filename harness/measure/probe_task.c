/* SPDX-License-Identifier: Apache-2.0 */
/* probe_task.c - the tasks of a probe: starting threads and peers, each
 * checked at the kernel before anything is measured, waiting on each other
 * (futexes) and reaping what is left; see probe.h. */
#include "harness/measure/probe.h"

#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/measure/rtenv.h"

/* How long a new thread may take to run its check: a shared machine can
 * stall a task for most of a second, a task of higher priority on its CPU
 * for longer. */
#define PROBE_TASK_START_NS 10000000000ull /* 10 s */

int probe_verify_self(const struct probe_ctx *c, const char *task, int policy, int priority,
		      const cpu_set_t *cpus)
{
	struct rtenv_want w = { .policy = policy, .priority = priority };
	return probe_verify_attr(c, task, &w, cpus);
}

int probe_verify_attr(const struct probe_ctx *c, const char *task,
		      const struct rtenv_want *want, const cpu_set_t *cpus)
{
	char err[480];
	int rc = rtenv_verify(task, want, cpus, err, sizeof err);
	if (rc != 0)
		return probe_fail(c, rc, "%s", err);
	__atomic_add_fetch(&c->res->verified, 1, __ATOMIC_ACQ_REL);
	return 0;
}

/* ---------------------------------------------------------------- threads */

enum { TS_PENDING, TS_OK, TS_FAILED, TS_ABANDONED };

/* What a new thread needs to check itself, shared with its creator until
 * both are done with it (the last one frees it: a creator that gave up
 * waiting must not leave the thread a dead stack frame). */
struct task_start {
	const struct probe_ctx *c;
	char task[96];
	int policy, priority;
	cpu_set_t cpus;
	void *(*fn)(void *);
	void *arg;
	uint32_t state; /* TS_* */
	uint32_t refs;
};

static void task_start_put(struct task_start *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(s);
}

/* The thread's first code: check what it runs under, tell the creator,
 * and run the probe's function only if the check held. */
static void *task_trampoline(void *p)
{
	struct task_start *s = p;
	void *(*fn)(void *) = s->fn;
	void *arg = s->arg;
	bool ok = probe_verify_self(s->c, s->task, s->policy, s->priority, &s->cpus) == 0;
	uint32_t pending = TS_PENDING;
	bool taken = __atomic_compare_exchange_n(&s->state, &pending, ok ? TS_OK : TS_FAILED,
						 false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	probe_futex(&s->state, FUTEX_WAKE, 1, NULL);
	task_start_put(s);
	return taken && ok ? fn(arg) : NULL;
}

/* pthread_create with every scheduling attribute explicit. */
static int create_explicit(pthread_t *tid, const struct task_start *s, size_t stack_bytes)
{
	pthread_attr_t a;
	struct sched_param sp = { .sched_priority = s->priority };
	int rc = pthread_attr_init(&a);
	if (rc)
		return rc;
	if ((rc = pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED)) == 0 &&
	    (rc = pthread_attr_setschedpolicy(&a, s->policy)) == 0 &&
	    (rc = pthread_attr_setschedparam(&a, &sp)) == 0 &&
	    (rc = pthread_attr_setaffinity_np(&a, sizeof s->cpus, &s->cpus)) == 0 &&
	    (rc = pthread_attr_setstacksize(&a, stack_bytes)) == 0)
		rc = pthread_create(tid, &a, task_trampoline, (void *)s);
	pthread_attr_destroy(&a);
	return rc;
}

int probe_start_thread(const struct probe_ctx *c, const char *task, pthread_t *tid,
		       int policy, int priority, const cpu_set_t *cpus, size_t stack_bytes,
		       void *(*fn)(void *), void *arg)
{
	struct task_start *s = malloc(sizeof *s);
	if (!s)
		return ENOMEM;
	*s = (struct task_start){ .c = c, .policy = policy, .priority = priority, .fn = fn,
				  .arg = arg, .state = TS_PENDING, .refs = 2 };
	snprintf(s->task, sizeof s->task, "%s", task);
	int rc = cpus ? (s->cpus = *cpus, 0) : -rtenv_affinity(&s->cpus);
	if (rc == 0)
		rc = create_explicit(tid, s, stack_bytes);
	if (rc) {
		free(s);
		return rc;
	}
	uint32_t pending = TS_PENDING;
	if (probe_wait_while(&s->state, TS_PENDING, tb_clock_ns() + PROBE_TASK_START_NS) != 0 &&
	    __atomic_compare_exchange_n(&s->state, &pending, TS_ABANDONED, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		task_start_put(s);
		probe_fail(c, ETIMEDOUT, "%s did not start within %llu s: a task above its "
			   "priority holds its CPU", task, PROBE_TASK_START_NS / 1000000000ull);
		return ETIMEDOUT;
	}
	bool ok = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == TS_OK;
	task_start_put(s);
	if (ok)
		return 0;
	pthread_join(*tid, NULL);
	return EPERM;
}

/* -------------------------------------------------------------- processes */

/* Claim a slot of res->peers for the calling process, unless it is the
 * worker itself (whose counts getrusage gives). */
static void peer_register(const struct probe_ctx *c)
{
	pid_t self = getpid();
	if (self == c->worker)
		return;
	uint32_t i = __atomic_fetch_add(&c->res->peers.n, 1, __ATOMIC_ACQ_REL);
	if (i < PROBE_MAX_PEERS)
		__atomic_store_n(&c->res->peers.pid[i], (int32_t)self, __ATOMIC_RELEASE);
}

int probe_peer_setup(const struct probe_ctx *c, const char *task, int cpu, int priority)
{
	char err[400];
	int rc;
	/* The peer must not outlive the worker, and must run under exactly the
	 * same conditions (memory locks are not inherited across fork). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (c->worker > 0 && getppid() != c->worker)
		_exit(1); /* the worker died before the signal was armed */
	peer_register(c);
	if ((rc = rtenv_lock_memory(64 * 1024, err, sizeof err)) != 0)
		return probe_fail(c, rc, "%s: %s", task, err);
	if ((rc = rtenv_pin(cpu, err, sizeof err)) != 0)
		return probe_fail(c, rc, "%s: %s", task, err);
	if ((rc = rtenv_set_policy(c->policy, priority, err, sizeof err)) != 0)
		return probe_fail(c, rc, "%s: %s", task, err);
	cpu_set_t one;
	CPU_ZERO(&one);
	if (cpu >= 0)
		CPU_SET(cpu, &one);
	return probe_verify_self(c, task, c->policy, priority, cpu >= 0 ? &one : NULL);
}

long probe_futex(uint32_t *w, int op, uint32_t val, const struct timespec *timeout)
{
	return syscall(SYS_futex, w, op | FUTEX_PRIVATE_FLAG, val, timeout, NULL, 0);
}

int probe_wait_while(uint32_t *w, uint32_t val, uint64_t deadline)
{
	while (__atomic_load_n(w, __ATOMIC_ACQUIRE) == val) {
		uint64_t now = tb_clock_ns();
		if (now >= deadline)
			return ETIMEDOUT;
		uint64_t left = deadline - now;
		struct timespec ts = { .tv_sec = (time_t)(left / 1000000000u),
				       .tv_nsec = (long)(left % 1000000000u) };
		probe_futex(w, FUTEX_WAIT, val, &ts);
	}
	return 0;
}

void probe_reap_children(void)
{
	for (;;) {
		pid_t w = waitpid(-1, NULL, __WALL);
		if (w < 0 && errno != EINTR)
			return; /* ECHILD: none left */
	}
}
