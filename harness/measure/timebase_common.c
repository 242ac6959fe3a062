/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_common.c - what both backends share: the clock_gettime fallback,
 * the read-overhead measurement and the copy timebase_get() returns. */
#include "harness/measure/timebase.h"
#include "harness/measure/timebase_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tb_use_tsc;

/* A copy, not the caller's pointer: timebase_init's argument is often a
 * local of a function that returns long before workers read timebase_get(). */
static struct timebase current;
static bool have_current;

const struct timebase *timebase_get(void)
{
	return have_current ? &current : NULL;
}

void timebase_set_current(const struct timebase *tb)
{
	current = *tb;
	have_current = true;
}

void timebase_adopt(const struct timebase *tb)
{
	tb_use_tsc = tb->is_tsc;
	timebase_set_current(tb);
}

double tb_ticks_to_ns(double ticks)
{
	return have_current ? ticks * current.ns_per_tick : ticks;
}

void timebase_use_clock(struct timebase *tb)
{
	tb_use_tsc = false;
	tb->name = "clock_gettime(CLOCK_MONOTONIC_RAW)";
	tb->is_tsc = false;
	tb->freq_hz = 1e9;
	tb->ns_per_tick = 1.0;
	tb->calib_rounds = 0;
	timebase_measure_reads(tb);
}

void timebase_finish(struct timebase *tb)
{
	timebase_check_run(tb);
	timebase_set_current(tb);
}

int timebase_forced(char *err, size_t len)
{
	const char *v = getenv("RTC_TIMEBASE");
	if (!v || !*v)
		return 0;
	if (strcmp(v, "clock") == 0)
		return 1;
	/* A typo ("Clock", "tsc") would time with what the user did not ask
	 * for, and say so only in timebase.name. */
	snprintf(err, len, "RTC_TIMEBASE=%.40s%s in the environment: expected \"clock\" (the "
		 "clock_gettime timebase) or unset (the TSC where it is invariant)", v,
		 strlen(v) > 40 ? "..." : "");
	return -EINVAL;
}

bool timebase_flag_listed(const char *flags, const char *flag)
{
	/* Whole words only: "nonstop_tsc" must not match "nonstop_tsc_s3". */
	size_t n = strlen(flag);
	for (const char *p = flags; (p = strstr(p, flag)) != NULL; p += n) {
		bool starts = p == flags || p[-1] == ' ' || p[-1] == '\t' || p[-1] == ':';
		char after = p[n];
		if (starts && (after == 0 || after == ' ' || after == '\t' || after == '\n'))
			return true;
	}
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void timebase_measure_reads(struct timebase *tb)
{
	enum { N = 2001 };
	static uint64_t d[N];
	uint64_t res = UINT64_MAX;
	for (int i = 0; i < N; i++) {
		uint64_t a = tb_now();
		uint64_t b = tb_now();
		d[i] = b - a;
		if (b > a && b - a < res)
			res = b - a;
	}
	qsort(d, N, sizeof d[0], cmp_u64);
	tb->read_min_ns = (double)d[0] * tb->ns_per_tick;
	tb->read_median_ns = (double)d[N / 2] * tb->ns_per_tick;
	/* The TSC counts every cycle: its resolution is one tick even when two
	 * reads are never closer than their own cost. The clock's is the
	 * smallest step seen (a coarse clocksource shows here). */
	if (tb->is_tsc || res == UINT64_MAX)
		tb->resolution_ns = tb->ns_per_tick;
	else
		tb->resolution_ns = (double)res * tb->ns_per_tick;
}

bool timebase_tsc_disagree(const double *off, const int *cpus, int n, double *spread,
			   int *worst)
{
	double lo = 0, hi = 0, far = -1;
	*worst = -1;
	for (int i = 0; i < n; i++) {
		lo = i == 0 || off[i] < lo ? off[i] : lo;
		hi = i == 0 || off[i] > hi ? off[i] : hi;
		double d = off[i] > off[0] ? off[i] - off[0] : off[0] - off[i];
		if (d > far) {
			far = d;
			*worst = cpus[i];
		}
	}
	*spread = hi - lo;
	return *spread > TB_TSC_MAX_SKEW_NS;
}
