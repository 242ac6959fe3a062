/* timebase_tsc.c - invariant-TSC backend for x86-64.
 *
 * The TSC is used only when /proc/cpuinfo lists both constant_tsc (fixed
 * rate) and nonstop_tsc (keeps counting in deep C-states); RTC_TIMEBASE=clock
 * in the environment forces the clock backend. The frequency is estimated
 * from TSC and CLOCK_MONOTONIC_RAW deltas over growing intervals (10, 20,
 * 40 ... ms) until two successive estimates agree within 0.1 %.
 */
#include "timebase.h"
#include "timebase_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool cpuinfo_has_invariant_tsc(char *why, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f) {
		snprintf(why, len, "cannot read /proc/cpuinfo: %s", strerror(errno));
		return false;
	}
	char line[4096];
	bool c = false, n = false, seen = false;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		seen = true;
		c = strstr(line, " constant_tsc") != NULL;
		n = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	if (!seen)
		snprintf(why, len, "no flags line in /proc/cpuinfo");
	else if (!c || !n)
		snprintf(why, len, "TSC is not invariant (constant_tsc %s, nonstop_tsc %s)",
			 c ? "yes" : "no", n ? "yes" : "no");
	return c && n;
}

/* One estimate over roughly `ms` milliseconds. */
static double estimate_hz(unsigned ms)
{
	uint64_t c0 = tb_clock_ns(), t0 = tb_rdtsc();
	struct timespec req = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	nanosleep(&req, NULL);
	uint64_t t1 = tb_rdtsc(), c1 = tb_clock_ns();
	/* bracket: average the clock reads around each TSC read */
	return (double)(t1 - t0) * 1e9 / (double)(c1 - c0);
}

int timebase_init(struct timebase *tb, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(tb, 0, sizeof *tb);
	const char *force = getenv("RTC_TIMEBASE");
	if (force && strcmp(force, "clock") == 0) {
		snprintf(tb->reason, sizeof tb->reason, "RTC_TIMEBASE=clock in the environment");
		timebase_use_clock(tb);
		return 0;
	}
	if (!cpuinfo_has_invariant_tsc(tb->reason, sizeof tb->reason)) {
		timebase_use_clock(tb);
		return 0;
	}
	double prev = estimate_hz(10), hz = prev;
	int rounds = 1;
	for (unsigned ms = 20; ms <= 1280; ms *= 2) {
		hz = estimate_hz(ms);
		rounds++;
		if (fabs(hz - prev) / hz < 0.001)
			break;
		prev = hz;
	}
	if (fabs(hz - prev) / hz >= 0.001) {
		snprintf(tb->reason, sizeof tb->reason,
			 "TSC calibration did not settle within 0.1%% (%.0f vs %.0f Hz)", prev, hz);
		timebase_use_clock(tb);
		return 0;
	}
	tb_use_tsc = true;
	tb->name = "tsc";
	tb->is_tsc = true;
	tb->freq_hz = hz;
	tb->ns_per_tick = 1e9 / hz;
	tb->calib_rounds = rounds;
	timebase_measure_reads(tb);
	timebase_set_current(tb);
	return 0;
}
