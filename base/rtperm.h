/* SPDX-License-Identifier: Apache-2.0 */
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

/* Where the calling process's RT group scheduling file is. */
enum {
	RTPERM_CG_NONE = 0,        /* no cgroup v1 hierarchy with the cpu controller */
	RTPERM_CG_FOUND = 1,       /* path is its cpu.rt_runtime_us */
	RTPERM_CG_UNREACHABLE = 2, /* path says why it cannot be reached */
};

/* The cpu.rt_runtime_us of the group that `cgroup` (the text of
 * /proc/self/cgroup) puts the process in, from `mountinfo` (the text of
 * /proc/self/mountinfo): a pure function, for tests. A cgroup v1 mount of
 * the cpu hierarchy shows the part of it at or below its root (field 4,
 * "/docker/abc" in a container), so the group maps to the mount point plus
 * the group's path below that root; a group outside every such mount's
 * root cannot be reached (RTPERM_CG_UNREACHABLE, path saying so). Mount
 * points and roots are decoded (\040 is a space). */
int rtperm_cgroup_file(const char *mountinfo, const char *cgroup, char *path, size_t len);

/* RT group scheduling: the cpu.rt_runtime_us of the calling process's
 * cgroup (cgroup v1 "cpu" controller). RTPERM_CG_FOUND with runtime_us
 * (-1: unlimited) and path (the file read) when the kernel has RT group
 * scheduling and the file could be read; RTPERM_CG_UNREACHABLE with path
 * saying why the group's file is out of reach; RTPERM_CG_NONE otherwise
 * (no such controller or file: the cgroup cannot be what refused). */
int rtperm_cgroup_runtime(long long *runtime_us, char *path, size_t len);

/* ---- where an exec'd helper's capabilities come from ----
 *
 * rtconform measures in rtconform-worker, a program it execs. Capabilities
 * do not simply pass from rtconform to the worker: execve() computes the
 * worker's sets from the caller's and from the worker's own file
 * capabilities (the security.capability attribute `setcap` writes), as
 * capabilities(7) describes. What the worker gets is asked of the worker
 * itself (rtconform-worker --capabilities); these functions explain it. */

/* The capability sets and flags of the calling process that execve() uses. */
struct rtperm_task {
	bool known;        /* /proc/self/status was read */
	unsigned long long inh, prm, eff, bnd, amb;
	bool no_new_privs; /* the process asked never to gain privileges by exec */
	bool noroot;       /* SECBIT_NOROOT: uid 0 gets no capabilities on exec */
	unsigned ruid, euid;
};

/* Fill t from /proc/self/status, the uids and the securebits. */
void rtperm_task_read(struct rtperm_task *t);

/* A file's capabilities (its security.capability attribute). */
struct rtperm_fcaps {
	bool present;      /* the file has a valid attribute */
	bool effective;    /* the "e" flag: permitted ones become effective */
	unsigned long long permitted, inheritable;
	unsigned rootid;   /* version 3 (namespaced) attributes: the root they are for */
};

/* Parse a security.capability value of len bytes (versions 1, 2 and 3,
 * little-endian as the kernel stores it). 0, or -1 when it is not one. */
int rtperm_fcaps_parse(const void *buf, size_t len, struct rtperm_fcaps *fc);

/* The capabilities of file `path` into fc (fc->present false when it has
 * none). ignored gets why the kernel will not honour them on exec ("" when
 * nothing says so: "its file system is mounted nosuid", ...). 0, or -1 with
 * the reason in why when the file cannot be examined. */
int rtperm_fcaps_read(const char *path, struct rtperm_fcaps *fc, char *ignored, size_t ilen,
		      char *why, size_t wlen);

/* The command that grants the worker at `path` the capabilities real-time
 * measuring needs, shell-quoted: "setcap cap_ipc_lock,cap_sys_nice+ep PATH". */
void rtperm_setcap_line(const char *path, char *buf, size_t len);
#endif
