/* SPDX-License-Identifier: Apache-2.0 */
/* fake_ipc.c - an LD_PRELOAD library for tests: a C library layer whose
 * blocking waits return success without waiting, as a broken POSIX layer
 * or a sandbox's emulation can. With RTC_FAKE_IPC_EVERY=N (2 .. 1000000;
 * read once, when the library is loaded; unset or anything else: every
 * call is passed on), every N-th call of each of these returns 0 at once
 * and takes nothing (no semaphore count, no byte, no wake-up):
 *
 *   sem_wait, sem_timedwait, sem_clockwait     (unnamed and named POSIX)
 *   semop, semtimedop with a negative sem_op   (SysV: a wait, never a post)
 *   read of 1 or 8 bytes on a pipe or eventfd the process made itself
 *                                              (pipe, pipe2, eventfd: the
 *                                              buffer gets 'x' or 1)
 *   syscall(SYS_futex, FUTEX_WAIT[_PRIVATE])  (returns 0: a wake-up)
 *   pthread_cond_wait, pthread_cond_timedwait, pthread_cond_clockwait
 *   mq_receive, mq_timedreceive                (returns 1, the buffer 'w')
 *   pthread_join                               (returns 0, the thread not joined)
 *   waitpid of one pid                         (returns it, status "exited 0",
 *                                              the child not reaped)
 *
 * Each function keeps its own count, per process (a forked peer starts
 * from its parent's). The futex and condition variable returns are the
 * spurious wake-ups futex(2) and POSIX allow: a correct caller loops on its
 * word or predicate and must not be fooled; a semaphore's or a
 * descriptor's success is its word that the post came, which this breaks.
 *
 * Only in a measuring worker (program name rtconform-worker*, and its
 * forked peers): rtconform's supervisor and the helpers it starts wait on
 * eventfds and pipes of their own, which are left alone, as are
 * descriptors the worker inherited (the journal's). RTC_FAKE_IPC_LOG names
 * a file that gets a line "early CALL pid PID" for each faked return.
 *
 * Built for the tests (tests/CMakeLists.txt) and, with RTC_SELFTEST_GUARD,
 * as rtconform-fault-ipc.so for `rtconform selftest` (cmake/modules.cmake):
 * that one does nothing unless RTC_SELFTEST_FAULTS is set too.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern char *program_invocation_short_name;

enum { C_SEM_WAIT, C_SEM_TIMEDWAIT, C_SEM_CLOCKWAIT, C_SEMOP, C_SEMTIMEDOP, C_READ, C_FUTEX,
       C_COND_WAIT, C_COND_TIMEDWAIT, C_COND_CLOCKWAIT, C_MQ_RECEIVE, C_MQ_TIMEDRECEIVE,
       C_JOIN, C_WAITPID, C_N };
static const char *const call_names[C_N] = {
	"sem_wait", "sem_timedwait", "sem_clockwait", "semop", "semtimedop", "read",
	"FUTEX_WAIT", "pthread_cond_wait", "pthread_cond_timedwait", "pthread_cond_clockwait",
	"mq_receive", "mq_timedreceive", "pthread_join", "waitpid",
};

static uint64_t every;            /* 0: inert */
static uint64_t calls[C_N];
#define MAX_FDS 1024
static unsigned char own_fd[MAX_FDS]; /* made here by pipe, pipe2, eventfd */

__attribute__((constructor)) static void fake_ipc_init(void)
{
	const char *s = getenv("RTC_FAKE_IPC_EVERY");
	char *end = NULL;
	long long n = s ? strtoll(s, &end, 10) : 0;
	if (!s || end == s || *end || n < 2 || n > 1000000)
		return;
#ifdef RTC_SELFTEST_GUARD
	/* rtconform-fault-ipc.so: inert outside `rtconform selftest`. */
	if (!getenv("RTC_SELFTEST_FAULTS"))
		return;
#endif
	if (strncmp(program_invocation_short_name, "rtconform-worker", 16) != 0)
		return;
	every = (uint64_t)n;
}

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void say(int call)
{
	const char *path = getenv("RTC_FAKE_IPC_LOG");
	if (!path)
		return;
	char line[96];
	int n = snprintf(line, sizeof line, "early %s pid %d\n", call_names[call], (int)getpid());
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) < 0)
			n = 0;
		close(fd);
	}
}

/* Whether this call of `call` returns at once (every N-th one). */
static bool early(int call)
{
	if (!every || __atomic_add_fetch(&calls[call], 1, __ATOMIC_RELAXED) % every != 0)
		return false;
	say(call);
	return true;
}

/* ------------------------------------------------------------ semaphores */

int sem_wait(sem_t *s)
{
	static int (*fn)(sem_t *);
	if (!fn)
		fn = next("sem_wait");
	return early(C_SEM_WAIT) ? 0 : fn(s);
}

int sem_timedwait(sem_t *s, const struct timespec *t)
{
	static int (*fn)(sem_t *, const struct timespec *);
	if (!fn)
		fn = next("sem_timedwait");
	return early(C_SEM_TIMEDWAIT) ? 0 : fn(s, t);
}

int sem_clockwait(sem_t *s, clockid_t clock, const struct timespec *t)
{
	static int (*fn)(sem_t *, clockid_t, const struct timespec *);
	if (!fn)
		fn = next("sem_clockwait");
	return early(C_SEM_CLOCKWAIT) ? 0 : fn(s, clock, t);
}

static bool waits(const struct sembuf *ops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i].sem_op < 0)
			return true;
	return false;
}

int semop(int id, struct sembuf *ops, size_t n)
{
	static int (*fn)(int, struct sembuf *, size_t);
	if (!fn)
		fn = next("semop");
	return waits(ops, n) && early(C_SEMOP) ? 0 : fn(id, ops, n);
}

int semtimedop(int id, struct sembuf *ops, size_t n, const struct timespec *t)
{
	static int (*fn)(int, struct sembuf *, size_t, const struct timespec *);
	if (!fn)
		fn = next("semtimedop");
	return waits(ops, n) && early(C_SEMTIMEDOP) ? 0 : fn(id, ops, n, t);
}

/* ----------------------------------------------------------- descriptors */

static void own(int fd)
{
	if (fd >= 0 && fd < MAX_FDS)
		own_fd[fd] = 1;
}

int pipe(int fds[2])
{
	static int (*fn)(int[2]);
	if (!fn)
		fn = next("pipe");
	int rc = fn(fds);
	if (rc == 0 && every) {
		own(fds[0]);
		own(fds[1]);
	}
	return rc;
}

int pipe2(int fds[2], int flags)
{
	static int (*fn)(int[2], int);
	if (!fn)
		fn = next("pipe2");
	int rc = fn(fds, flags);
	if (rc == 0 && every) {
		own(fds[0]);
		own(fds[1]);
	}
	return rc;
}

int eventfd(unsigned int initval, int flags)
{
	static int (*fn)(unsigned int, int);
	if (!fn)
		fn = next("eventfd");
	int fd = fn(initval, flags);
	if (every)
		own(fd);
	return fd;
}

int close(int fd)
{
	static int (*fn)(int);
	if (!fn)
		fn = next("close");
	if (fd >= 0 && fd < MAX_FDS)
		own_fd[fd] = 0;
	return fn(fd);
}

ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*fn)(int, void *, size_t);
	if (!fn)
		fn = next("read");
	if (fd < 0 || fd >= MAX_FDS || !own_fd[fd] || (n != 1 && n != 8) || !early(C_READ))
		return fn(fd, buf, n);
	if (n == 8) {
		uint64_t one = 1;
		memcpy(buf, &one, sizeof one);
	} else {
		*(char *)buf = 'x';
	}
	return (ssize_t)n;
}

/* ---------------------------------------------------------------- futex */

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_futex && (a[1] & FUTEX_CMD_MASK) == FUTEX_WAIT && early(C_FUTEX))
		return 0;
	static long (*fn)(long, ...);
	if (!fn)
		fn = next("syscall");
	return fn(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* -------------------------------------------------- condition variables */

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	static int (*fn)(pthread_cond_t *, pthread_mutex_t *);
	if (!fn)
		fn = next("pthread_cond_wait");
	return early(C_COND_WAIT) ? 0 : fn(c, m);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t)
{
	static int (*fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	if (!fn)
		fn = next("pthread_cond_timedwait");
	return early(C_COND_TIMEDWAIT) ? 0 : fn(c, m, t);
}

int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock,
			   const struct timespec *t)
{
	static int (*fn)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
	if (!fn)
		fn = next("pthread_cond_clockwait");
	return early(C_COND_CLOCKWAIT) ? 0 : fn(c, m, clock, t);
}

/* ------------------------------------------------------- message queues */

static ssize_t fake_message(char *buf, size_t len)
{
	if (len)
		buf[0] = 'w';
	return len ? 1 : 0;
}

ssize_t mq_receive(mqd_t q, char *buf, size_t len, unsigned int *prio)
{
	static ssize_t (*fn)(mqd_t, char *, size_t, unsigned int *);
	if (!fn)
		fn = next("mq_receive");
	return early(C_MQ_RECEIVE) ? fake_message(buf, len) : fn(q, buf, len, prio);
}

ssize_t mq_timedreceive(mqd_t q, char *buf, size_t len, unsigned int *prio,
			const struct timespec *t)
{
	static ssize_t (*fn)(mqd_t, char *, size_t, unsigned int *, const struct timespec *);
	if (!fn)
		fn = next("mq_timedreceive");
	return early(C_MQ_TIMEDRECEIVE) ? fake_message(buf, len) : fn(q, buf, len, prio, t);
}

/* ------------------------------------------------------- threads, children */

int pthread_join(pthread_t t, void **ret)
{
	static int (*fn)(pthread_t, void **);
	if (!fn)
		fn = next("pthread_join");
	if (!early(C_JOIN))
		return fn(t, ret);
	if (ret)
		*ret = NULL;
	return 0;
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	static pid_t (*fn)(pid_t, int *, int);
	if (!fn)
		fn = next("waitpid");
	if (pid <= 0 || !early(C_WAITPID))
		return fn(pid, status, options);
	if (status)
		*status = 0; /* exited with status 0 */
	return pid;
}
