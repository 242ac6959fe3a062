/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_impl.h - internal to the timebase backends (and their tests). */
#ifndef RTC_TIMEBASE_IMPL_H
#define RTC_TIMEBASE_IMPL_H
#include "harness/measure/timebase.h"

/* Fill read_min_ns, read_median_ns and resolution_ns using tb_now(). */
void timebase_measure_reads(struct timebase *tb);
/* Keep a copy of *tb as what timebase_get() returns. */
void timebase_set_current(const struct timebase *tb);
/* Fill tb for clock_gettime(CLOCK_MONOTONIC_RAW) (ticks are ns), make it
 * current and make tb_now() read the clock. tb->reason is left alone. */
void timebase_use_clock(struct timebase *tb);
/* True when `flag` is a whole word of a /proc/cpuinfo flags line. */
bool timebase_flag_listed(const char *flags, const char *flag);
/* The CPUs' TSCs disagree too much to time with: the spread of their
 * offsets from one clock (off[i] of CPU cpus[i], ns) is over
 * TB_TSC_MAX_SKEW_NS. *spread and *worst (the CPU furthest from the first)
 * say by how much. */
#define TB_TSC_MAX_SKEW_NS 1000.0
bool timebase_tsc_disagree(const double *off, const int *cpus, int n, double *spread,
			   int *worst);

#endif
