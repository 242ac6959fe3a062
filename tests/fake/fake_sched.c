/* SPDX-License-Identifier: Apache-2.0 */
/* fake_sched.c - an LD_PRELOAD library for tests: a C library layer that
 * accepts scheduling requests and silently ignores them, as a container
 * shim or a broken C library can. RTC_FAKE_SCHED says what it ignores
 * (a comma-separated list):
 *
 *   attr      a new thread's attributes: inheritsched, schedpolicy,
 *             schedparam and affinity (the thread runs as its creator does)
 *   policy    every policy and priority request: sched_setscheduler,
 *             sched_setparam, pthread_setschedparam, the policy attributes
 *             of a new thread, sched_setattr through syscall()
 *   affinity  every CPU affinity request: sched_setaffinity,
 *             pthread_setaffinity_np, pthread_attr_setaffinity_np
 *   protocol  pthread_mutexattr_setprotocol (a mutex without inheritance
 *             or ceiling, whatever was asked)
 *   memlock   mlockall (nothing is locked)
 *
 * An ignored request returns 0, and the library's own getters
 * (sched_getscheduler, sched_getparam, pthread_getschedparam,
 * sched_getaffinity, pthread_getaffinity_np, pthread_mutexattr_getprotocol)
 * answer what was asked: only the kernel tells the truth.
 *
 * RTC_FAKE_LOG names a file that gets a line "deviated CALL" whenever an
 * ignored request leaves a task running otherwise than it asked (what the
 * harness must then catch), and "ignored CALL" when it made no difference.
 *
 * Built twice: for the tests (tests/CMakeLists.txt), and with
 * RTC_SELFTEST_GUARD as rtconform-fault-sched.so, shipped in the helper
 * directory for `rtconform selftest` (cmake/modules.cmake): that one does
 * nothing unless RTC_SELFTEST_FAULTS is set too, which selftest alone sets,
 * so a stray LD_PRELOAD of it fakes nothing.
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SCHED_DEADLINE_ 6

enum { F_ATTR = 1, F_POLICY = 2, F_AFFINITY = 4, F_PROTOCOL = 8, F_MEMLOCK = 16 };

static unsigned modes(void)
{
	static int m = -1;
	if (m < 0) {
		const char *s = getenv("RTC_FAKE_SCHED");
#ifdef RTC_SELFTEST_GUARD
		/* rtconform-fault-sched.so: inert outside `rtconform selftest`. */
		if (!getenv("RTC_SELFTEST_FAULTS"))
			s = NULL;
#endif
		unsigned v = 0;
		if (s && strstr(s, "attr"))
			v |= F_ATTR;
		if (s && strstr(s, "policy"))
			v |= F_POLICY;
		if (s && strstr(s, "affinity"))
			v |= F_AFFINITY;
		if (s && strstr(s, "protocol"))
			v |= F_PROTOCOL;
		if (s && strstr(s, "memlock"))
			v |= F_MEMLOCK;
		m = (int)v;
	}
	return (unsigned)m;
}

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void say(bool deviated, const char *call)
{
	const char *path = getenv("RTC_FAKE_LOG");
	if (!path)
		return;
	char line[160];
	int n = snprintf(line, sizeof line, "%s %s pid %d tid %ld\n",
			 deviated ? "deviated" : "ignored", call, (int)getpid(), (long)gettid());
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) < 0)
			n = 0;
		close(fd);
	}
}

/* ------------------------------------------- what the kernel really has */

struct kattr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

static long real_syscall6(long n, long a, long b, long c, long d, long e, long f)
{
	long (*fn)(long, ...) = next("syscall");
	return fn(n, a, b, c, d, e, f);
}

static bool kernel_sched(int *policy, int *prio)
{
	struct kattr k;
	memset(&k, 0, sizeof k);
	if (real_syscall6(SYS_sched_getattr, 0, (long)&k, sizeof k, 0, 0, 0) != 0)
		return false;
	*policy = (int)k.policy;
	*prio = (int)k.priority;
	return true;
}

static bool differs_sched(int policy, int prio)
{
	int p, q;
	if (!kernel_sched(&p, &q))
		return true;
	return p != policy || ((policy == SCHED_FIFO || policy == SCHED_RR) && q != prio) ||
	       policy == SCHED_DEADLINE_;
}

static bool differs_cpus(const cpu_set_t *want)
{
	cpu_set_t got;
	CPU_ZERO(&got);
	if (real_syscall6(SYS_sched_getaffinity, 0, sizeof got, (long)&got, 0, 0, 0) < 0)
		return true;
	return !CPU_EQUAL(&got, want);
}

/* ------------------------------------------------ what the thread asked */

static __thread bool asked_sched, asked_cpus;
static __thread int asked_policy, asked_prio;
static __thread cpu_set_t asked_set;

static void remember_sched(int policy, int prio)
{
	asked_sched = true;
	asked_policy = policy;
	asked_prio = prio;
}

static void remember_cpus(size_t size, const cpu_set_t *set)
{
	asked_cpus = true;
	CPU_ZERO(&asked_set);
	memcpy(&asked_set, set, size < sizeof asked_set ? size : sizeof asked_set);
}

/* ------------------------------------------------ process-wide requests */

static bool self_pid(pid_t pid)
{
	return pid == 0 || pid == getpid() || pid == gettid();
}

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *sp)
{
	if (!(modes() & F_POLICY) || !self_pid(pid)) {
		int (*fn)(pid_t, int, const struct sched_param *) = next("sched_setscheduler");
		return fn(pid, policy, sp);
	}
	say(differs_sched(policy, sp->sched_priority), "sched_setscheduler");
	remember_sched(policy, sp->sched_priority);
	return 0;
}

int sched_setparam(pid_t pid, const struct sched_param *sp)
{
	if (!(modes() & F_POLICY) || !self_pid(pid)) {
		int (*fn)(pid_t, const struct sched_param *) = next("sched_setparam");
		return fn(pid, sp);
	}
	int p, q;
	say(!kernel_sched(&p, &q) || q != sp->sched_priority, "sched_setparam");
	remember_sched(p, sp->sched_priority);
	return 0;
}

int pthread_setschedparam(pthread_t t, int policy, const struct sched_param *sp)
{
	if (!(modes() & F_POLICY)) {
		int (*fn)(pthread_t, int, const struct sched_param *) = next("pthread_setschedparam");
		return fn(t, policy, sp);
	}
	/* Another thread's settings cannot be read here: call it deviated. */
	say(!pthread_equal(t, pthread_self()) || differs_sched(policy, sp->sched_priority),
	    "pthread_setschedparam");
	if (pthread_equal(t, pthread_self()))
		remember_sched(policy, sp->sched_priority);
	return 0;
}

int sched_getscheduler(pid_t pid)
{
	int (*fn)(pid_t) = next("sched_getscheduler");
	return asked_sched && self_pid(pid) ? asked_policy : fn(pid);
}

int sched_getparam(pid_t pid, struct sched_param *sp)
{
	int (*fn)(pid_t, struct sched_param *) = next("sched_getparam");
	if (!asked_sched || !self_pid(pid))
		return fn(pid, sp);
	sp->sched_priority = asked_prio;
	return 0;
}

int pthread_getschedparam(pthread_t t, int *policy, struct sched_param *sp)
{
	int (*fn)(pthread_t, int *, struct sched_param *) = next("pthread_getschedparam");
	if (!asked_sched || !pthread_equal(t, pthread_self()))
		return fn(t, policy, sp);
	*policy = asked_policy;
	sp->sched_priority = asked_prio;
	return 0;
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	if (!(modes() & F_AFFINITY) || !self_pid(pid)) {
		int (*fn)(pid_t, size_t, const cpu_set_t *) = next("sched_setaffinity");
		return fn(pid, size, set);
	}
	remember_cpus(size, set);
	say(differs_cpus(&asked_set), "sched_setaffinity");
	return 0;
}

int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
	if (!(modes() & F_AFFINITY)) {
		int (*fn)(pthread_t, size_t, const cpu_set_t *) = next("pthread_setaffinity_np");
		return fn(t, size, set);
	}
	bool self = pthread_equal(t, pthread_self());
	if (self)
		remember_cpus(size, set);
	say(!self || differs_cpus(&asked_set), "pthread_setaffinity_np");
	return 0;
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	int (*fn)(pid_t, size_t, cpu_set_t *) = next("sched_getaffinity");
	if (!asked_cpus || !self_pid(pid))
		return fn(pid, size, set);
	memcpy(set, &asked_set, size < sizeof asked_set ? size : sizeof asked_set);
	return 0;
}

int pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *set)
{
	int (*fn)(pthread_t, size_t, cpu_set_t *) = next("pthread_getaffinity_np");
	if (!asked_cpus || !pthread_equal(t, pthread_self()))
		return fn(t, size, set);
	memcpy(set, &asked_set, size < sizeof asked_set ? size : sizeof asked_set);
	return 0;
}

/* sched_setattr has no wrapper in glibc 2.36: programs reach it through
 * syscall(), which is therefore wrapped too (every other call passes). */
long syscall(long n, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == SYS_sched_setattr && (modes() & F_POLICY) && self_pid((pid_t)a[0])) {
		const struct kattr *k = (const struct kattr *)a[1];
		say(k->policy == SCHED_DEADLINE_ || differs_sched((int)k->policy, (int)k->priority),
		    "sched_setattr");
		return 0;
	}
	return real_syscall6(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ------------------------------------------------- new threads' attributes */

/* What was asked of each attribute object in use (the attributes
 * themselves never hear of it). */
struct shadow {
	const pthread_attr_t *attr;
	bool explicit_sched, has_policy, has_prio, has_cpus;
	int policy, prio;
	cpu_set_t cpus;
};
#define NSHADOW 64
static struct shadow shadows[NSHADOW];
static pthread_mutex_t shadow_lock = PTHREAD_MUTEX_INITIALIZER;

static struct shadow *shadow_of(const pthread_attr_t *a, bool make)
{
	struct shadow *free_slot = NULL;
	for (int i = 0; i < NSHADOW; i++) {
		if (shadows[i].attr == a)
			return &shadows[i];
		if (!shadows[i].attr && !free_slot)
			free_slot = &shadows[i];
	}
	if (make && free_slot) {
		memset(free_slot, 0, sizeof *free_slot);
		free_slot->attr = a;
	}
	return make ? free_slot : NULL;
}

static bool ignores_sched(void)
{
	return modes() & (F_ATTR | F_POLICY);
}

static bool ignores_cpus(void)
{
	return modes() & (F_ATTR | F_AFFINITY);
}

int pthread_attr_setinheritsched(pthread_attr_t *a, int inherit)
{
	if (!ignores_sched()) {
		int (*fn)(pthread_attr_t *, int) = next("pthread_attr_setinheritsched");
		return fn(a, inherit);
	}
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = shadow_of(a, true);
	if (s)
		s->explicit_sched = inherit == PTHREAD_EXPLICIT_SCHED;
	pthread_mutex_unlock(&shadow_lock);
	return 0;
}

int pthread_attr_setschedpolicy(pthread_attr_t *a, int policy)
{
	if (!ignores_sched()) {
		int (*fn)(pthread_attr_t *, int) = next("pthread_attr_setschedpolicy");
		return fn(a, policy);
	}
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = shadow_of(a, true);
	if (s) {
		s->has_policy = true;
		s->policy = policy;
	}
	pthread_mutex_unlock(&shadow_lock);
	return 0;
}

int pthread_attr_setschedparam(pthread_attr_t *a, const struct sched_param *sp)
{
	if (!ignores_sched()) {
		int (*fn)(pthread_attr_t *, const struct sched_param *) =
			next("pthread_attr_setschedparam");
		return fn(a, sp);
	}
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = shadow_of(a, true);
	if (s) {
		s->has_prio = true;
		s->prio = sp->sched_priority;
	}
	pthread_mutex_unlock(&shadow_lock);
	return 0;
}

int pthread_attr_setaffinity_np(pthread_attr_t *a, size_t size, const cpu_set_t *set)
{
	if (!ignores_cpus()) {
		int (*fn)(pthread_attr_t *, size_t, const cpu_set_t *) =
			next("pthread_attr_setaffinity_np");
		return fn(a, size, set);
	}
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = shadow_of(a, true);
	if (s) {
		s->has_cpus = true;
		CPU_ZERO(&s->cpus);
		memcpy(&s->cpus, set, size < sizeof s->cpus ? size : sizeof s->cpus);
	}
	pthread_mutex_unlock(&shadow_lock);
	return 0;
}

int pthread_attr_destroy(pthread_attr_t *a)
{
	int (*fn)(pthread_attr_t *) = next("pthread_attr_destroy");
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = shadow_of(a, false);
	if (s)
		s->attr = NULL;
	pthread_mutex_unlock(&shadow_lock);
	return fn(a);
}

/* A new thread starts with what it asked for as its library's answer. */
struct start {
	void *(*fn)(void *);
	void *arg;
	struct shadow asked;
};

static void *start_thread(void *p)
{
	struct start st = *(struct start *)p;
	free(p);
	if (st.asked.explicit_sched && st.asked.has_policy)
		remember_sched(st.asked.policy, st.asked.prio);
	if (st.asked.has_cpus)
		remember_cpus(sizeof st.asked.cpus, &st.asked.cpus);
	return st.fn(st.arg);
}

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
		next("pthread_create");
	struct shadow asked = { 0 };
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = a ? shadow_of(a, false) : NULL;
	if (s)
		asked = *s;
	pthread_mutex_unlock(&shadow_lock);
	if (!s)
		return real(t, a, fn, arg);
	/* The thread inherits its creator's settings: compare with those. */
	if (asked.explicit_sched && asked.has_policy)
		say(differs_sched(asked.policy, asked.prio), "pthread_attr_setschedpolicy");
	if (asked.has_cpus)
		say(differs_cpus(&asked.cpus), "pthread_attr_setaffinity_np");
	struct start *st = malloc(sizeof *st);
	if (!st)
		return EAGAIN;
	*st = (struct start){ fn, arg, asked };
	int rc = real(t, a, start_thread, st);
	if (rc)
		free(st);
	return rc;
}

/* ---------------------------------------------------------------- mutexes */

static __thread int asked_protocol = -1;

int pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int protocol)
{
	if (!(modes() & F_PROTOCOL)) {
		int (*fn)(pthread_mutexattr_t *, int) = next("pthread_mutexattr_setprotocol");
		return fn(a, protocol);
	}
	say(protocol != PTHREAD_PRIO_NONE, "pthread_mutexattr_setprotocol");
	asked_protocol = protocol;
	return 0;
}

int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *a, int *protocol)
{
	int (*fn)(const pthread_mutexattr_t *, int *) = next("pthread_mutexattr_getprotocol");
	if (asked_protocol < 0)
		return fn(a, protocol);
	*protocol = asked_protocol;
	return 0;
}

/* ------------------------------------------------------------ locked memory */

int mlockall(int flags)
{
	if (!(modes() & F_MEMLOCK)) {
		int (*fn)(int) = next("mlockall");
		return fn(flags);
	}
	say(true, "mlockall");
	return 0;
}
