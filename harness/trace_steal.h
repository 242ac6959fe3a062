/* SPDX-License-Identifier: Apache-2.0 */
/* trace_steal.h - the steal time of every CPU from /proc/stat, taken when a
 * trace is armed and when it is saved, so an explained breach can show how
 * much time the hypervisor took from the probe's CPU over the traced span
 * (beside the unexplained share: docs/explain.md, "Steal time"). */
#ifndef RTC_TRACE_STEAL_H
#define RTC_TRACE_STEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most CPUs read. */
#define STEAL_CPU_MAX 16384

struct steal_snap {
	uint64_t *ns;     /* steal of CPU i, ns (USER_HZ ticks scaled); UINT64_MAX: no line */
	size_t n;         /* CPUs 0..n-1 */
	uint64_t mono_ns; /* CLOCK_MONOTONIC when read */
	bool ok;
};

/* Read path (/proc/stat) into s: each "cpuN" line's 8th number (steal).
 * 0, or -1 (s then not ok: a file without steal, unreadable, no memory). */
int steal_read(const char *path, struct steal_snap *s);
void steal_free(struct steal_snap *s);
/* The steal of cpu between a and b (later), and b's time after a's: true
 * when both know that CPU and steal did not go backwards. */
bool steal_between(const struct steal_snap *a, const struct steal_snap *b, int cpu,
		   uint64_t *ns, uint64_t *span_ns);

#endif
