/* SPDX-License-Identifier: Apache-2.0 */
/* handoff.h - a hand-off between tasks whose every wait is checked against
 * the posts made (internal to harness/measure/probes; issue 37).
 *
 * A primitive that says "posted" without a post (a sem_wait of a broken C
 * library or sandbox layer that returns 0 at once) hands control to a task
 * that should still be waiting. So each hand-off counts its posts in
 * memory both sides share, just before posting, and a wait claims one of
 * them once it returns: a return that finds no post left to claim is
 * unanswered, counted in *unanswered and waited again (the post it missed
 * is still to come, or already pending, and the next wait consumes it).
 * A correct return always finds its post counted, since the count comes
 * first. Between threads, or processes sharing the memory; atomics
 * only, no lock, no allocation, no call but the wait itself, so it may sit
 * in a measured loop. sem-pingpong numbers its posts in its own way (sem_pingpong.c),
 * over every mechanism; this is the form for probes whose hand-offs are
 * counting semaphores with any number of posters and waiters.
 */
#ifndef RTC_PROBES_HANDOFF_H
#define RTC_PROBES_HANDOFF_H

#include <errno.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct ho_count {
	uint64_t posted; /* posts made (or tokens handed out), counted first */
	uint64_t taken;  /* returns that claimed one */
};

/* Before handing out n tokens (a post, a broadcast to n waiters). */
static inline void ho_give(struct ho_count *h, uint64_t n)
{
	__atomic_add_fetch(&h->posted, n, __ATOMIC_RELEASE);
}

/* After a wait returned: claim a token. false: none left, the return was
 * unanswered. */
static inline bool ho_claim(struct ho_count *h)
{
	uint64_t t = __atomic_load_n(&h->taken, __ATOMIC_ACQUIRE);
	while (t < __atomic_load_n(&h->posted, __ATOMIC_ACQUIRE))
		if (__atomic_compare_exchange_n(&h->taken, &t, t + 1, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return true;
	return false;
}

/* A semaphore with its count of posts. */
struct ho_sem {
	sem_t sem;
	struct ho_count n;
};

/* pshared: the semaphore and its count lie in memory shared with a peer
 * process (the atomics work across processes on a shared mapping). */
static inline int ho_sem_init(struct ho_sem *s, int pshared)
{
	s->n = (struct ho_count){ 0, 0 };
	return sem_init(&s->sem, pshared, 0) == 0 ? 0 : errno;
}

/* Post s. 0 or a positive errno. */
static inline int ho_post(struct ho_sem *s)
{
	ho_give(&s->n, 1);
	return sem_post(&s->sem) == 0 ? 0 : errno;
}

/* Wait for a post of s, at most until `deadline` on CLOCK_MONOTONIC (NULL:
 * no limit); EINTR is retried, each unanswered return added to
 * *unanswered (atomically: waiters of several threads may share it) and
 * waited again. 0, ETIMEDOUT, or a positive errno. */
static inline int ho_wait(struct ho_sem *s, const struct timespec *deadline, uint64_t *unanswered)
{
	for (;;) {
		int rc = deadline ? sem_clockwait(&s->sem, CLOCK_MONOTONIC, deadline)
				  : sem_wait(&s->sem);
		if (rc != 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (ho_claim(&s->n))
			return 0;
		__atomic_add_fetch(unanswered, 1, __ATOMIC_RELAXED);
	}
}

/* Whether the kernel still holds child pid, running or a zombie not
 * reaped, after a waitpid() that returned it (which reaps it): asked of
 * the kernel itself (the waitid system call, WNOHANG | WNOWAIT: nothing is
 * reaped, and no C library layer answers), so a wait that returned without
 * its child's end shows. Gone (ECHILD): the wait was answered. */
static inline bool ho_child_left(pid_t pid)
{
	siginfo_t si;
	si.si_pid = 0;
	return syscall(SYS_waitid, P_PID, (long)pid, &si, WEXITED | WNOHANG | WNOWAIT | __WALL,
		       NULL) == 0;
}

/* The words of a creation probe's first unanswered waitpid, into out:
 * "warm-up clone 3 of 10: ..." or "run 2, create 5 of 200: ..." (what:
 * "clone", "create"; run UINT32_MAX: the warm-up). */
static inline void ho_waitpid_words(char *out, size_t len, const char *what, uint32_t run,
				    uint64_t op, uint64_t warmup, uint64_t iterations)
{
	char where[80];
	if (run == UINT32_MAX)
		snprintf(where, sizeof where, "warm-up %s %llu of %llu", what,
			 (unsigned long long)op, (unsigned long long)warmup);
	else
		snprintf(where, sizeof where, "run %u, %s %llu of %llu", run + 1, what,
			 (unsigned long long)op, (unsigned long long)iterations);
	snprintf(out, len, "%s: the parent's waitpid returned while the kernel still had the "
		 "child", where);
}

#endif
