/* timebase_impl.h - internal to the timebase backends. */
#ifndef RTC_TIMEBASE_IMPL_H
#define RTC_TIMEBASE_IMPL_H
#include "timebase.h"

/* Fill read_min_ns, read_median_ns and resolution_ns using tb_now(). */
void timebase_measure_reads(struct timebase *tb);
void timebase_set_current(const struct timebase *tb);
/* Fill tb for clock_gettime(CLOCK_MONOTONIC_RAW) (ticks are ns). */
void timebase_use_clock(struct timebase *tb);

#endif
