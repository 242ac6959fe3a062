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
 *
 * Every hand-off is checked (issue 37): a joined thread bumps a counter as
 * its only work, and the creator checks after its clock read that the
 * thread it joined ran; a detached thread counts its post before posting
 * (handoff.h), and the creator claims it after its clock read. A join or
 * wait that returned without its thread's end or post is counted in
 * `unanswered-waits` (a violation metric), done again until answered, and
 * its sample is not recorded.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness/measure/probes/handoff.h"
#include "harness/measure/probes/probes.h"

static const char *const yes_no[] = { "no", "yes", NULL };

static const struct probe_param params[] = {
	{ "detached", "no: pthread_create + pthread_join; yes: a detached thread that "
		      "signals completion through a semaphore", PARAM_ENUM, yes_no, "no" },
};

enum { M_PER_OP, M_UNANSWERED };

static const struct probe_metric metrics[] = {
	[M_PER_OP] = { "per-op", "pthread_create of a thread that returns at once, until it "
		       "was joined (detached: until it posted the semaphore)", METRIC_DURATION },
	[M_UNANSWERED] = { "unanswered-waits", "joins (or waits) that returned before the "
			   "thread ran (or posted); must be 0", METRIC_COUNT },
};

/* What a created thread hands back: joined, it bumps `ran`; detached, it
 * counts its post in `posts` before posting `done`. */
struct tc_hand {
	sem_t done;
	struct ho_count posts;
	volatile uint64_t ran;
};

#define STACK_BYTES (128 * 1024)
#define PREFILL 8


/* One writer at a time (the creator waits for each thread): a plain store. */
static void *returns_at_once(void *arg)
{
	struct tc_hand *h = arg;
	h->ran = h->ran + 1;
	return NULL;
}

static void *posts_and_returns(void *arg)
{
	struct tc_hand *h = arg;
	ho_give(&h->posts, 1);
	sem_post(&h->done);
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

/* One create-delete; returns 0 or a positive errno, *what names the call;
 * *t the thread. */
static inline int once(const pthread_attr_t *attr, bool detached, struct tc_hand *h,
		       pthread_t *t, const char **what)
{
	int e;
	if (!detached) {
		if ((e = pthread_create(t, attr, returns_at_once, h)) != 0) {
			*what = "pthread_create";
			return e;
		}
		if ((e = pthread_join(*t, NULL)) != 0) {
			*what = "pthread_join";
			return e;
		}
		return 0;
	}
	if ((e = pthread_create(t, attr, posts_and_returns, h)) != 0) {
		*what = "pthread_create";
		return e;
	}
	if ((e = wait_sem(&h->done)) != 0)
		*what = "sem_wait";
	return e;
}

/* After once() and the clock read: whether its join (or wait) was answered
 * by thread t's end (or post), the n-th of the probe; if not, it is done
 * again until it is, each unanswered return added to *unanswered. 0, or a
 * positive errno of the join or wait. */
static int answered(bool detached, struct tc_hand *h, pthread_t t, uint64_t n, bool *ok,
		    uint64_t *unanswered)
{
	*ok = true;
	if (detached) {
		if (__builtin_expect(ho_claim(&h->posts), 1))
			return 0;
		*ok = false;
		++*unanswered;
		for (;;) {
			int e = wait_sem(&h->done);
			if (e)
				return e;
			if (ho_claim(&h->posts))
				return 0;
			++*unanswered;
		}
	}
	while (__builtin_expect(h->ran != n, 0)) {
		*ok = false;
		++*unanswered;
		int e = pthread_join(t, NULL); /* the join that did not take place */
		if (e)
			return e;
	}
	return 0;
}

/* The first unanswered join or wait: the run (UINT32_MAX: the warm-up)
 * and the create-delete in it, from 1. */
struct tc_first {
	bool set;
	uint32_t run;
	uint64_t op;
};

/* The first one in words (res->violation), and the samples left out. */
static void tc_words(struct probe_ctx *c, bool detached, const struct tc_first *f,
		     uint64_t unanswered)
{
	char where[80];
	if (f->run == UINT32_MAX)
		snprintf(where, sizeof where, "warm-up create %llu of %llu",
			 (unsigned long long)f->op, (unsigned long long)c->warmup);
	else
		snprintf(where, sizeof where, "run %u, create %llu of %llu", f->run + 1,
			 (unsigned long long)f->op, (unsigned long long)c->iterations);
	snprintf(c->res->violation, sizeof c->res->violation, "%s: the creator's %s returned "
		 "before the thread %s", where, detached ? "sem_wait" : "pthread_join",
		 detached ? "posted" : "ran");
	snprintf(c->res->note, sizeof c->res->note, "%llu unanswered %s: their samples were "
		 "not recorded.", (unsigned long long)unanswered,
		 detached ? "waits" : "joins");
}

static int tc_run(struct probe_ctx *c)
{
	bool detached = strcmp(probe_value(c, "detached"), "yes") == 0;
	pthread_attr_t attr, joinable;
	struct tc_hand h = { .ran = 0 };
	sem_t go;
	pthread_t t;
	const char *what = "";
	uint64_t n = 0, unanswered = 0, added = 0;
	struct tc_first first = { false, 0, 0 };
	bool ok;
	int rc = 0, e;

	if (sem_init(&h.done, 0, 0) != 0 || sem_init(&go, 0, 0) != 0)
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
	for (uint64_t i = 0; i < c->warmup; i++) {
		if ((e = once(&attr, detached, &h, &t, &what)) != 0)
			goto op_failed;
		what = detached ? "sem_wait" : "pthread_join";
		if ((e = answered(detached, &h, t, ++n, &ok, &unanswered)) != 0)
			goto op_failed;
		if (!ok && !first.set)
			first = (struct tc_first){ true, UINT32_MAX, i + 1 };
	}
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t t0 = tb_now();
			e = once(&attr, detached, &h, &t, &what);
			uint64_t t1 = tb_now();
			if (e)
				goto op_failed;
			what = detached ? "sem_wait" : "pthread_join";
			if ((e = answered(detached, &h, t, ++n, &ok, &unanswered)) != 0)
				goto op_failed;
			if (__builtin_expect(ok, 1))
				probe_record(c, M_PER_OP, t1 - t0);
			else if (!first.set)
				first = (struct tc_first){ true, r, i + 1 };
		}
		/* the warm-up's into the first run's */
		probe_add_count(c, M_UNANSWERED, unanswered - added);
		added = unanswered;
		probe_run_end(c, i);
	}
	if (detached)
		rc = wait_detached_gone(c);
	if (first.set)
		tc_words(c, detached, &first, unanswered);
	goto cleanup;

op_failed:
	rc = probe_fail(c, e, "%s: %s (%s)", what, probe_errname(e), strerror(e));
	if (detached)
		wait_detached_gone(c);
cleanup:
	pthread_attr_destroy(&attr);
	pthread_attr_destroy(&joinable);
	sem_destroy(&h.done);
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
	.decl.violation_metrics = 1u << M_UNANSWERED,
	.run = tc_run,
};
