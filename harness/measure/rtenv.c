/* SPDX-License-Identifier: Apache-2.0 */
/* rtenv.c - see rtenv.h. */
#include "harness/measure/rtenv.h"
#include "base/policy.h"
#include "base/rtperm.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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

#ifndef RTC_SANITIZED
/* The process's locked memory in kB as the kernel counts it (VmLck of
 * /proc/self/status), or -1 when it cannot be read. */
static long locked_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}
#endif

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
	/* Accepted is not done: a layer that returns success for mlockall
	 * leaves every page to fault inside the measured loop. Without /proc
	 * (kb -1) there is nothing to read it from. */
	if (locked_kb() == 0) {
		snprintf(err, len, "mlockall was accepted but did not take: the kernel counts no "
			 "locked memory (VmLck 0 kB in /proc/self/status); nothing was measured");
		return -EPERM;
	}
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
	int cg = rtperm_cgroup_runtime(&runtime, path, sizeof path);
	if (cg == RTPERM_CG_FOUND && runtime == 0) {
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
		/* A group whose file is out of reach (a container's mount of
		 * the hierarchy shows only part of it) may be the cause: say so. */
		snprintf(err, len,
			 "%s priority %d refused (%s) although this process %s: neither "
			 "capabilities nor limits explain it (a security module, a seccomp "
			 "filter or the cgroup's RT runtime may%s%s); nothing was measured under "
			 "another policy",
			 pname, priority, strerror(EPERM),
			 nice ? "has CAP_SYS_NICE" : "has an rtprio limit reaching the priority",
			 cg == RTPERM_CG_UNREACHABLE ? "; " : "",
			 cg == RTPERM_CG_UNREACHABLE ? path : "");
	}
}

int rtenv_set_policy(int policy, int priority, char *err, size_t len)
{
	const char *pname = policy_kernel_name(policy);
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
	if (rtenv_affinity(&set) != 0) {
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

long rtenv_getattr(pid_t tid, struct rtenv_attr *a)
{
	memset(a, 0, sizeof *a);
	return syscall(SYS_sched_getattr, tid, a, (unsigned)sizeof *a, 0u);
}

long rtenv_setattr(pid_t tid, const struct rtenv_attr *a)
{
	return syscall(SYS_sched_setattr, tid, a, 0u);
}

int rtenv_affinity(cpu_set_t *set)
{
	CPU_ZERO(set);
	if (syscall(SYS_sched_getaffinity, 0, sizeof *set, set) < 0)
		return -errno;
	return 0;
}

/* "0-3,6": a CPU set as the kernel writes lists, into buf. */
static void rtenv_cpus_text(const cpu_set_t *set, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE && at + 1 < len; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		int n = e == c ? snprintf(buf + at, len - at, "%s%d", at ? "," : "", c)
			       : snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", c, e);
		if (n < 0 || (size_t)n >= len - at)
			break;
		at += (size_t)n;
		c = e;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* The policy and priority from /proc/thread-self/stat (fields 41 and 40),
 * for a kernel without sched_getattr (before 3.14). 0 or -errno. */
int rtenv_stat_line_attr(const char *line, struct rtenv_attr *a)
{
	const char *p = strrchr(line, ')');
	unsigned long prio, pol;
	/* The name (field 2) ends at the last ')'; each space after it starts
	 * the next field: stop at the one before field 40, rt_priority, which
	 * field 41, policy, follows. */
	for (int field = 3; p && field <= 40; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %lu %lu", &prio, &pol) != 2)
		return -EIO;
	a->policy = (uint32_t)pol;
	a->priority = (uint32_t)prio;
	return 0;
}

static int stat_attr(struct rtenv_attr *a)
{
	char line[1024];
	FILE *f = fopen("/proc/thread-self/stat", "r");
	if (!f)
		return -errno;
	size_t n = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[n] = 0;
	return rtenv_stat_line_attr(line, a);
}

/* "SCHED_FIFO priority 50", "SCHED_DEADLINE runtime 1000 ns ...". */
static void sched_text(unsigned policy, unsigned priority, uint64_t rt, uint64_t dl,
		       uint64_t per, char *buf, size_t len)
{
	if (policy == 6)
		snprintf(buf, len, "SCHED_DEADLINE runtime %llu ns, deadline %llu ns, period "
			 "%llu ns", (unsigned long long)rt, (unsigned long long)dl,
			 (unsigned long long)per);
	else if (policy == SCHED_FIFO || policy == SCHED_RR)
		snprintf(buf, len, "%s priority %u", policy_kernel_name((int)policy), priority);
	else
		snprintf(buf, len, "%s", policy_kernel_name((int)policy));
}

static bool attr_matches(const struct rtenv_want *w, const struct rtenv_attr *a)
{
	if (a->policy != (uint32_t)w->policy)
		return false;
	if (w->policy == SCHED_FIFO || w->policy == SCHED_RR)
		return a->priority == (uint32_t)w->priority;
	if (w->policy == 6)
		return a->runtime == w->runtime && a->deadline == w->deadline &&
		       a->period == w->period;
	return true;
}

#define RTENV_RESET_ON_FORK 0x01u /* SCHED_FLAG_RESET_ON_FORK */

int rtenv_verify(const char *task, const struct rtenv_want *want, const cpu_set_t *cpus,
		 char *err, size_t len)
{
	struct rtenv_attr a;
	cpu_set_t got;
	int rc = rtenv_getattr(0, &a) == 0 ? 0 : -errno;
	if (rc == -ENOSYS)
		rc = stat_attr(&a);
	if (rc == 0)
		rc = rtenv_affinity(&got);
	if (rc != 0) {
		snprintf(err, len, "%s: cannot read back from the kernel what it runs under: %s",
			 task, strerror(-rc));
		return rc;
	}
	bool cpus_ok = !cpus || CPU_EQUAL(cpus, &got);
	bool reset = (a.flags & RTENV_RESET_ON_FORK) != 0;
	if (attr_matches(want, &a) && cpus_ok && !reset)
		return 0;
	char asked[120], runs[120], want_cpus[160] = "", got_cpus[160];
	sched_text((unsigned)want->policy, (unsigned)want->priority, want->runtime,
		   want->deadline, want->period, asked, sizeof asked);
	sched_text(a.policy, a.priority, a.runtime, a.deadline, a.period, runs, sizeof runs);
	if (cpus)
		rtenv_cpus_text(cpus, want_cpus, sizeof want_cpus);
	rtenv_cpus_text(&got, got_cpus, sizeof got_cpus);
	snprintf(err, len, "%s (tid %ld) asked for %s%s%s; the kernel runs it under %s on "
		 "CPUs %s%s (read back with sched_getattr and sched_getaffinity): the setting "
		 "was accepted but did not take; nothing was measured", task, (long)gettid(), asked,
		 cpus ? " on CPUs " : "", want_cpus, runs, got_cpus,
		 reset ? ", with reset-on-fork set (its children would not inherit it)" : "");
	return -EPERM;
}
