/* rtenv.c - see rtenv.h. */
#include "harness/measure/rtenv.h"
#include "base/rtperm.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* The command that gives this program (the worker: capabilities must be
 * on the binary that is exec'd, not on rtconform) what measuring needs. */
static void setcap_self(char *buf, size_t len)
{
	char self[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		snprintf(self, sizeof self, "rtconform-worker");
	else
		self[n] = 0;
	rtperm_setcap_line(self, buf, len);
}

/* Touch `bytes` of stack below the caller so later growth does not fault. */
static void __attribute__((noinline)) prefault_stack(size_t bytes)
{
	unsigned char buf[bytes];
	for (size_t i = 0; i < bytes; i += 4096)
		buf[i] = 0;
	/* Keep the stores: the compiler may not drop what it cannot see unused. */
	__asm__ __volatile__("" : : "r"(buf) : "memory");
}

int rtenv_lock_memory(size_t stack_bytes, char *err, size_t len)
{
#ifdef RTC_SANITIZED
	(void)err;
	(void)len;
	if (stack_bytes)
		prefault_stack(stack_bytes);
	return 0; /* see RTC_SANITIZE in CMakeLists.txt; reported as rtconform.build */
#else
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
		int e = errno;
		struct rlimit rl = { 0, 0 };
		getrlimit(RLIMIT_MEMLOCK, &rl);
		char setcap[700];
		setcap_self(setcap, sizeof setcap);
		snprintf(err, len,
			 "mlockall refused (%s; RLIMIT_MEMLOCK %llu bytes): run as root, "
			 "grant the worker CAP_IPC_LOCK (%s), or raise the memlock "
			 "limit (ulimit -l unlimited, or 'memlock unlimited' in "
			 "/etc/security/limits.conf)",
			 strerror(e), (unsigned long long)rl.rlim_cur, setcap);
		return -e;
	}
	if (stack_bytes)
		prefault_stack(stack_bytes);
	return 0;
#endif
}

/* Why the kernel refused a real-time policy (EPERM), by its true cause:
 * the cgroup's RT runtime refuses even root; then a missing capability with
 * an rtprio limit too low; else something neither explains. */
static void explain_refusal(const char *pname, int priority, char *err, size_t len)
{
	struct rlimit rl = { 0, 0 };
	getrlimit(RLIMIT_RTPRIO, &rl);
	long long runtime;
	char path[600];
	bool nice = rtperm_has_cap(RTPERM_CAP_SYS_NICE);
	if (rtperm_cgroup_runtime(&runtime, path, sizeof path) && runtime == 0) {
		snprintf(err, len,
			 "%s priority %d refused (%s): this process's cgroup has no real-time "
			 "runtime (%s is 0, RT group scheduling), which refuses real-time "
			 "policies to root too; give the cgroup runtime (write e.g. 950000 to "
			 "that file, within its parent's) or run rtconform outside it; nothing "
			 "was measured under another policy",
			 pname, priority, strerror(EPERM), path);
	} else if (!nice && rl.rlim_cur < (rlim_t)priority) {
		char setcap[700];
		setcap_self(setcap, sizeof setcap);
		snprintf(err, len,
			 "%s priority %d refused (%s; no CAP_SYS_NICE, RLIMIT_RTPRIO %llu): run "
			 "as root, grant the worker CAP_SYS_NICE (%s), or raise the "
			 "rtprio limit ('rtprio %d' in /etc/security/limits.conf); nothing was "
			 "measured under another policy",
			 pname, priority, strerror(EPERM), (unsigned long long)rl.rlim_cur,
			 setcap, priority);
	} else {
		snprintf(err, len,
			 "%s priority %d refused (%s) although this process %s: neither "
			 "capabilities nor limits explain it (a security module, a seccomp "
			 "filter or the cgroup's RT runtime may); nothing was measured under "
			 "another policy",
			 pname, priority, strerror(EPERM),
			 nice ? "has CAP_SYS_NICE" : "has an rtprio limit reaching the priority");
	}
}

int rtenv_set_policy(int policy, int priority, char *err, size_t len)
{
	const char *pname = policy == SCHED_FIFO ? "SCHED_FIFO"
			  : policy == SCHED_RR   ? "SCHED_RR"
						 : "SCHED_OTHER";
	struct sched_param sp = { .sched_priority = priority };
	if (sched_setscheduler(0, policy, &sp) != 0) {
		int e = errno;
		if (e == EPERM) {
			explain_refusal(pname, priority, err, len);
		} else {
			snprintf(err, len, "%s priority %d refused: %s", pname, priority,
				 strerror(e));
		}
		return -e;
	}
	/* Check it took: a measurement under another policy would be a lie. */
	struct sched_param got;
	if (sched_getscheduler(0) != policy || sched_getparam(0, &got) != 0 ||
	    got.sched_priority != priority) {
		snprintf(err, len, "scheduling policy did not take (asked %s priority %d)",
			 pname, priority);
		return -EPERM;
	}
	return 0;
}

int rtenv_pin(int cpu, char *err, size_t len)
{
	if (cpu < 0)
		return 0;
	cpu_set_t set;
	CPU_ZERO(&set);
	if (cpu < CPU_SETSIZE)
		CPU_SET(cpu, &set);
	/* The kernel is the judge of what is online and allowed (cpusets):
	 * our own mask may already be narrowed to another CPU. */
	if (cpu >= CPU_SETSIZE || sched_setaffinity(0, sizeof set, &set) != 0) {
		int e = cpu >= CPU_SETSIZE ? EINVAL : errno;
		snprintf(err, len, "cannot pin to CPU %d: %s (%ld CPUs online)", cpu,
			 e == EINVAL ? "not online or not allowed" : strerror(e),
			 sysconf(_SC_NPROCESSORS_ONLN));
		return -e;
	}
	return 0;
}

int rtenv_limit_rttime(uint64_t timeout_ns, char *err, size_t len)
{
	/* RLIMIT_RTTIME counts microseconds of CPU a real-time task uses without
	 * blocking: SIGXCPU at the soft limit, SIGKILL at the hard one. */
	uint64_t us = timeout_ns / 1000u;
	struct rlimit rl = { .rlim_cur = us, .rlim_max = us + 1000000u };
	if (setrlimit(RLIMIT_RTTIME, &rl) != 0) {
		int e = errno;
		snprintf(err, len, "cannot set RLIMIT_RTTIME: %s", strerror(e));
		return -e;
	}
	return 0;
}

int rtenv_allowed_list(int *out, int max)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		if (max > 0)
			out[0] = 0;
		return max > 0;
	}
	int n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			out[n++] = c;
	return n;
}
