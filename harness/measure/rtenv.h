/* SPDX-License-Identifier: Apache-2.0 */
/* rtenv.h - the real-time environment of a worker: memory locking, policy,
 * affinity, prefaulting, watchdog limits. Library code: returns -errno and a
 * message (with the remedy) in err; never prints, never exits.
 */
#ifndef RTC_RTENV_H
#define RTC_RTENV_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>


/* mlockall(MCL_CURRENT|MCL_FUTURE) and prefault `stack_bytes` of stack,
 * then read back from the kernel (VmLck of /proc/self/status) that memory
 * is locked. On refusal: -EPERM/-ENOMEM with a remedy in err; accepted but
 * nothing locked: -EPERM saying so. */
int rtenv_lock_memory(size_t stack_bytes, char *err, size_t len);

/* Apply policy and priority to the calling process (pid 0). On refusal
 * -EPERM with a remedy (root, CAP_SYS_NICE, rtprio). Whether it took is
 * rtenv_verify's to say, from the kernel. */
int rtenv_set_policy(int policy, int priority, char *err, size_t len);

/* Pin the calling thread/process to cpu. -EINVAL with message if the CPU is
 * not online or not allowed. */
int rtenv_pin(int cpu, char *err, size_t len);

/* RLIMIT_RTTIME for a real-time worker: soft = timeout, hard = timeout + 1 s,
 * so a worker spinning without blocking is stopped by the kernel itself. */
int rtenv_limit_rttime(uint64_t timeout_ns, char *err, size_t len);

/* The CPUs this process may run on, in increasing order, into out (at most
 * max); returns how many (1 with out[0] = 0 if the set cannot be read). */
int rtenv_allowed_list(int *out, int max);

/* struct sched_attr of sched_setattr(2) and sched_getattr(2), its first
 * version (glibc 2.36 has neither the structure nor a wrapper). */
struct rtenv_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

/* The raw system calls, never a library's idea of them: 0 or -1 with errno.
 * tid 0 is the calling thread. */
long rtenv_getattr(pid_t tid, struct rtenv_attr *a);
/* The policy (field 41) and rt_priority (field 40) of a /proc/PID/stat
 * line into a: how a kernel without sched_getattr (before 3.14) is read
 * back. 0, or -EIO when the line has too few fields. */
int rtenv_stat_line_attr(const char *line, struct rtenv_attr *a);
long rtenv_setattr(pid_t tid, const struct rtenv_attr *a);

/* What a task was asked to run under: policy, and the priority (SCHED_FIFO,
 * SCHED_RR) or runtime, deadline and period (SCHED_DEADLINE, ns). */
struct rtenv_want {
	int policy;
	int priority;
	uint64_t runtime, deadline, period;
};

/* The premise check of every task a probe runs: read back from the kernel
 * itself (the sched_getattr and sched_getaffinity system calls, or
 * /proc/thread-self/stat where sched_getattr is missing) the calling
 * thread's policy, priority (or DEADLINE parameters), reset-on-fork flag
 * and CPU affinity, and compare them with what `task` asked for (cpus NULL:
 * the affinity is not part of the request). 0 when they match; else -EPERM
 * with a sentence in err naming the task, what it asked for and what it
 * got. Calls nothing a preloaded library could answer in the kernel's
 * place. */
int rtenv_verify(const char *task, const struct rtenv_want *want, const cpu_set_t *cpus,
		 char *err, size_t len);

/* The calling thread's CPU affinity, from the system call: 0 or -errno. */
int rtenv_affinity(cpu_set_t *set);

#endif
