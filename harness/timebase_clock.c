/* timebase_clock.c - clock_gettime(CLOCK_MONOTONIC_RAW) backend. On x86-64 it
 * is also the fallback of timebase_tsc.c when the TSC is not invariant. */
#include "timebase.h"
#include "timebase_impl.h"

#include <stdio.h>

bool tb_use_tsc;

void timebase_use_clock(struct timebase *tb)
{
	tb_use_tsc = false;
	tb->name = "clock_gettime(CLOCK_MONOTONIC_RAW)";
	tb->is_tsc = false;
	tb->freq_hz = 1e9;
	tb->ns_per_tick = 1.0;
	tb->calib_rounds = 0;
	timebase_measure_reads(tb);
	timebase_set_current(tb);
}

#if !defined(__x86_64__)
int timebase_init(struct timebase *tb, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	snprintf(tb->reason, sizeof tb->reason, "no TSC backend on this architecture");
	timebase_use_clock(tb);
	return 0;
}
#endif
