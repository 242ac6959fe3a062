/* rtenv.h - the real-time environment of a worker: memory locking, policy,
 * affinity, prefaulting, watchdog limits. Library code: returns -errno and a
 * message (with the remedy) in err; never prints, never exits.
 */
#ifndef RTC_RTENV_H
#define RTC_RTENV_H

#include <stddef.h>
#include <stdint.h>


/* mlockall(MCL_CURRENT|MCL_FUTURE) and prefault `stack_bytes` of stack.
 * On refusal: -EPERM/-ENOMEM with a remedy in err. */
int rtenv_lock_memory(size_t stack_bytes, char *err, size_t len);

/* Apply policy and priority to the calling process (pid 0) and check that
 * they took. On refusal -EPERM with a remedy (root, CAP_SYS_NICE, rtprio). */
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

#endif
