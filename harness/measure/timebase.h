/* SPDX-License-Identifier: Apache-2.0 */
/* timebase.h - the clock every sample is taken with.
 *
 * Two backends, chosen by file in CMake: timebase_tsc.c (x86-64: the
 * invariant TSC when /proc/cpuinfo shows constant_tsc and nonstop_tsc,
 * calibrated against CLOCK_MONOTONIC_RAW, else the clock below) and
 * timebase_clock.c (everywhere else: clock_gettime(CLOCK_MONOTONIC_RAW),
 * ticks are nanoseconds); what both share is timebase_common.c. tb_now() is
 * inline and branch-predictable so the harness's own read costs what a bare
 * read costs. The TSC read is a plain rdtsc: cheapest, but not serialising
 * (an operation of a few tens of cycles is best timed in a batch).
 *
 * Samples are NOT corrected for the read overhead: a sample is the raw
 * difference of two reads, so it includes one read's cost (reported as
 * timebase.read_overhead_* beside every result). See docs/measurement.md.
 */
#ifndef RTC_TIMEBASE_H
#define RTC_TIMEBASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct timebase {
	const char *name;        /* "tsc" or "clock_gettime(CLOCK_MONOTONIC_RAW)" */
	bool is_tsc;             /* ticks are TSC cycles */
	double freq_hz;          /* ticks per second */
	double ns_per_tick;
	double resolution_ns;    /* smallest non-zero difference of two reads seen */
	double read_min_ns;      /* back-to-back read overhead, min and median */
	double read_median_ns;
	double calib_rounds;     /* calibration estimates taken (TSC only) */
	char reason[160];        /* why the TSC is not used, when it is not */
};

/* Set by timebase_init; read by tb_now(). */
extern bool tb_use_tsc;

/* Choose and calibrate the timebase, measure its read overhead. Call once in
 * the supervisor before forking workers (they inherit it). Returns 0, or
 * -errno with a message in err. Takes about 50-300 ms with a TSC. */
int timebase_init(struct timebase *tb, char *err, size_t errlen);

/* The timebase chosen by the last timebase_init (NULL before): a copy kept
 * by this module, valid for the life of the process whatever happens to the
 * struct the caller passed in. */
const struct timebase *timebase_get(void);

/* Use a timebase calibrated elsewhere (by the supervisor, in the exec'd
 * worker): the same backend and frequency, no recalibration. */
void timebase_adopt(const struct timebase *tb);

static inline uint64_t tb_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static inline uint64_t tb_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
static inline uint64_t tb_now(void)
{
	if (__builtin_expect(tb_use_tsc, 1))
		return tb_rdtsc();
	return tb_clock_ns();
}
#else
static inline uint64_t tb_now(void)
{
	return tb_clock_ns();
}
#endif

/* Convert ticks to nanoseconds with the current timebase. */
double tb_ticks_to_ns(double ticks);

#endif
