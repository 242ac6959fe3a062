/* SPDX-License-Identifier: Apache-2.0 */
/* procid.h - whether a process that left something behind (a tracefs
 * instance, a semaphore set) still runs: its PID namespace and its start
 * time, read from the kernel (/proc), never assumed.
 *
 * A pid alone proves nothing: a pid of another PID namespace (a container)
 * names nobody here or someone else, and a pid is reused. What made a
 * thing records its namespace (procid_pidns) and its start time
 * (procid_state), and a sweeper removes it only when the namespace is its
 * own and the process is gone or is another with the same pid.
 */
#ifndef RTC_PROCID_H
#define RTC_PROCID_H

#include <stdint.h>
#include <sys/types.h>

/* Our PID namespace's identity: the inode of /proc/self/ns/pid. 0 when
 * unknown: no /proc, or a /proc of another PID namespace (its "self" is
 * not our pid), where no pid read from it can be trusted. */
uint64_t procid_pidns(void);

enum procid_state {
	PROCID_UNKNOWN = -1, /* cannot tell (no /proc, unreadable) */
	PROCID_GONE = 0,     /* no such process, or only its zombie */
	PROCID_ALIVE = 1,    /* runs; *start is its start time */
};

/* Whether pid (of our namespace: check procid_pidns first) runs, and its
 * start time (field 22 of /proc/PID/stat, clock ticks after boot) into
 * *start when it does (start may be NULL). */
enum procid_state procid_state(pid_t pid, unsigned long long *start);

#endif
