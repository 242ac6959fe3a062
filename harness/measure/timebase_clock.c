/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_clock.c - the clock_gettime(CLOCK_MONOTONIC_RAW) backend, built
 * where there is no TSC backend (CMake picks this file or timebase_tsc.c).
 * Ticks are nanoseconds. */
#include "harness/measure/timebase.h"
#include "harness/measure/timebase_impl.h"

#include <stdio.h>
#include <string.h>

int timebase_init(struct timebase *tb, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(tb, 0, sizeof *tb);
	snprintf(tb->reason, sizeof tb->reason, "no TSC backend on this architecture");
	timebase_use_clock(tb);
	return 0;
}
