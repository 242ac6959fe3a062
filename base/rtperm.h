/* rtperm.h - what the kernel looks at before it lets the calling process
 * use a real-time policy or lock memory, read from /proc and the cgroup
 * filesystem, so that a refusal can be explained by its true cause: a
 * missing capability, an rtprio limit, or (even for root) a cgroup that the
 * kernel's RT group scheduling gives no real-time runtime.
 */
#ifndef RTC_RTPERM_H
#define RTC_RTPERM_H

#include <stdbool.h>
#include <stddef.h>

#define RTPERM_CAP_IPC_LOCK 14
#define RTPERM_CAP_SYS_NICE 23

/* The calling process's effective capability set (CapEff of
 * /proc/self/status). false when it cannot be read. */
bool rtperm_caps(unsigned long long *eff);

/* Whether capability `cap` is effective; false also when unknown. */
bool rtperm_has_cap(int cap);

/* RT group scheduling: the cpu.rt_runtime_us of the calling process's
 * cgroup (cgroup v1 "cpu" controller). Returns true and fills runtime_us
 * (-1: unlimited) and path (the file read) when the kernel has RT group
 * scheduling and the file could be read; false otherwise (no such
 * controller or file: the cgroup cannot be what refused). */
bool rtperm_cgroup_runtime(long long *runtime_us, char *path, size_t len);

#endif
