/* SPDX-License-Identifier: Apache-2.0 */
/* cpulist.h - the one grammar of a CPU list ("0,2-3"), as the kernel writes
 * them in /sys and as a probe parameter takes them ("all" is the caller's). */
#ifndef RTC_CPULIST_H
#define RTC_CPULIST_H

#include <sched.h>
#include <stddef.h>

/* Parse s into set: numbers and ascending ranges below CPU_SETSIZE,
 * comma-separated, digits only. Returns 0 or -EINVAL. */
int cpulist_parse(const char *s, cpu_set_t *set);

/* set in that grammar ("0,2-3"; "" for none) into buf, cut at a whole
 * entry where it does not fit. */
void cpulist_format(const cpu_set_t *set, char *buf, size_t len);

#endif
