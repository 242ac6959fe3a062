/* SPDX-License-Identifier: Apache-2.0 */
/* thread_create.c - cost of creating and deleting a thread (creation and
 * deletion on Unix, docs/background.md).
 *
 * detached=no: each sample is pthread_create() of a thread that returns at
 * once, then pthread_join(): creation, first run, exit and reaping.
 * detached=yes: the thread is created detached and posts a semaphore as its
 * only work; the sample ends when the creator's sem_wait() returns. Its exit
 * then runs concurrently with (or, on one CPU under SCHED_FIFO, before) the
 * next sample, because nothing can wait for a detached thread.
 *
 * Threads get PTHREAD_INHERIT_SCHED: they run under the worker's policy and
 * priority, as a real-time application's threads would by default.
 *
 * Stacks: glibc allocates thread stacks and keeps freed ones in a cache.
 * Before measuring, the probe creates PREFILL threads at once and joins them,
 * so the cache holds stacks of the probe's fixed size, already locked and
 * touched by mlockall(MCL_FUTURE); every measured pthread_create() then
 * reuses one instead of mapping (and faulting in) a new one. The fixed size
 * (STACK_BYTES) keeps the figures independent of `ulimit -s`.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness/measure/probes/probes.h"

static const char *const yes_no[] = { "no", "yes", NULL };

static const struct probe_param params[] = {
	{ "detached", "no: pthread_create + pthread_join; yes: a detached thread that "
		      "signals completion through a semaphore", PARAM_ENUM, yes_no, "no" },
};

static const struct probe_metric metrics[] = {
	{ "per-op", "pthread_create of a thread that returns at once, until it was joined "
		    "(detached: until it posted the semaphore)", METRIC_DURATION },
};

#define STACK_BYTES (128 * 1024)
#define PREFILL 8


static void *returns_at_once(void *arg)
{
	(void)arg;
	return NULL;
}

static void *posts_and_returns(void *arg)
{
	sem_post(arg);
	return NULL;
}

static void *waits_for_go(void *arg)
{
	while (sem_wait(arg) != 0 && errno == EINTR)
		;
	return NULL;
}

static int wait_sem(sem_t *s)
{
	while (sem_wait(s) != 0)
		if (errno != EINTR)
			return errno;
	return 0;
}

/* Threads of this process, from /proc/self/task; -errno if unreadable. */
static int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -errno;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Detached threads cannot be joined: wait (at most ~2 s) until the last of
 * them has left the kernel, so the probe returns with nothing of its own
 * still running. Not measured. */
static int wait_detached_gone(struct probe_ctx *c)
{
	int n = 0;
	for (int tries = 0; tries < 2000; tries++) {
		if ((n = count_threads()) <= 1)
			return n < 0 ? probe_fail(c, -n, "reading /proc/self/task: %s",
						  strerror(-n)) : 0;
		struct timespec ts = { 0, 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return probe_fail(c, EBUSY, "%d detached threads still alive 2 s after the last run",
			  n - 1);
}

/* Fill glibc's stack cache with PREFILL stacks of this attr's size (see the
 * top of the file). The threads block until all exist, so each gets its own
 * stack. */
static int prefill_stacks(struct probe_ctx *c, const pthread_attr_t *joinable, sem_t *go)
{
	pthread_t t[PREFILL];
	int made = 0, rc = 0;
	for (; made < PREFILL; made++) {
		int e = pthread_create(&t[made], joinable, waits_for_go, go);
		if (e) {
			rc = probe_fail(c, e, "pthread_create (filling the stack cache): %s (%s)",
					probe_errname(e), strerror(e));
			break;
		}
	}
	for (int i = 0; i < made; i++)
		sem_post(go);
	for (int i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	return rc;
}

/* One create-delete; returns 0 or a positive errno, *what names the call. */
static inline int once(const pthread_attr_t *attr, bool detached, sem_t *done,
		       const char **what)
{
	pthread_t t;
	int e;
	if (!detached) {
		if ((e = pthread_create(&t, attr, returns_at_once, NULL)) != 0) {
			*what = "pthread_create";
			return e;
		}
		if ((e = pthread_join(t, NULL)) != 0) {
			*what = "pthread_join";
			return e;
		}
		return 0;
	}
	if ((e = pthread_create(&t, attr, posts_and_returns, done)) != 0) {
		*what = "pthread_create";
		return e;
	}
	if ((e = wait_sem(done)) != 0)
		*what = "sem_wait";
	return e;
}

static int tc_run(struct probe_ctx *c)
{
	bool detached = strcmp(probe_value(c, "detached"), "yes") == 0;
	pthread_attr_t attr, joinable;
	sem_t done, go;
	const char *what = "";
	int rc = 0, e;

	if (sem_init(&done, 0, 0) != 0 || sem_init(&go, 0, 0) != 0)
		return probe_fail(c, errno, "sem_init: %s", strerror(errno));
	if ((e = pthread_attr_init(&attr)) != 0 || (e = pthread_attr_init(&joinable)) != 0)
		return probe_fail(c, e, "pthread_attr_init: %s", strerror(e));
	if ((e = pthread_attr_setstacksize(&attr, STACK_BYTES)) != 0 ||
	    (e = pthread_attr_setstacksize(&joinable, STACK_BYTES)) != 0 ||
	    (e = pthread_attr_setinheritsched(&attr, PTHREAD_INHERIT_SCHED)) != 0 ||
	    (e = pthread_attr_setdetachstate(&attr, detached ? PTHREAD_CREATE_DETACHED
							     : PTHREAD_CREATE_JOINABLE)) != 0) {
		rc = probe_fail(c, e, "pthread_attr_set*: %s", strerror(e));
		goto cleanup;
	}
	if ((rc = prefill_stacks(c, &joinable, &go)) != 0)
		goto cleanup;

	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup; i++)
		if ((e = once(&attr, detached, &done, &what)) != 0)
			goto op_failed;
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t t0 = tb_now();
			e = once(&attr, detached, &done, &what);
			uint64_t t1 = tb_now();
			if (e)
				goto op_failed;
			probe_record(c, 0, t1 - t0);
		}
		probe_run_end(c, i);
	}
	if (detached)
		rc = wait_detached_gone(c);
	goto cleanup;

op_failed:
	rc = probe_fail(c, e, "%s: %s (%s)", what, probe_errname(e), strerror(e));
	if (detached)
		wait_detached_gone(c);
cleanup:
	pthread_attr_destroy(&attr);
	pthread_attr_destroy(&joinable);
	sem_destroy(&done);
	sem_destroy(&go);
	return rc;
}

/* A create and join (or a detached create and its end). */
static void tc_pace(const char *const *values, struct probe_pace *out)
{
	(void)values;
	out->iteration_s = 50e-6;
}

const struct probe probe_thread_create = {
	.decl.name = "thread-create",
	.decl.pace = tc_pace,
	.decl.verifies = "the threads inherit the worker's checked policy, priority and CPUs "
		"(reset-on-fork is off); a thread is not checked itself, as that would be "
		"inside the measured creation",
	.decl.help = "pthread_create + pthread_join (or a detached thread and a semaphore) of a "
		"thread that returns at once (creation on Unix)",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	.run = tc_run,
};
