/* SPDX-License-Identifier: Apache-2.0 */
/* timebase.h - the clock every sample is taken with.
 *
 * Two backends, chosen by file in CMake: timebase_tsc.c (x86-64: the
 * invariant TSC when /proc/cpuinfo shows constant_tsc and nonstop_tsc,
 * calibrated against the kernel's CLOCK_MONOTONIC_RAW, else the clock
 * below) and
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

/* The timebase checked against what the C library cannot replace
 * (timebase_check.c; docs/measurement.md, "The timebase against the
 * kernel"): over one window timed by the kernel's clock, read with the
 * clock_gettime system call itself (tb_kernel_ns), the C library's clocks
 * and the timebase must keep its pace, and the hardware counter (the TSC,
 * the aarch64 generic timer) the rate the kernel or the hardware publishes
 * for it. Every comparison is a row; no pointers, as the struct travels to
 * the worker in shared memory. */
#define TB_CHECK_TOLERANCE 0.01          /* against the kernel's own figures */
#define TB_CHECK_TOLERANCE_NOMINAL 0.05  /* against CPUID's nominal figures */
#define TB_CHECK_MAX_ROWS 10
enum tb_row_state { TB_ROW_UNAVAILABLE, TB_ROW_AGREES, TB_ROW_DISAGREES };
struct tb_check_row {
	char key[24];        /* its name in the reports: timebase.check.KEY */
	char subject[64];    /* what is checked: "the C library's clock (...)", "the TSC" */
	char source[112];    /* what it is checked against */
	int32_t state;       /* enum tb_row_state */
	bool is_rate;        /* rates in Hz (a counter); else clocks, in s per s */
	double measured;     /* the subject by the kernel's clock: Hz, or s per s */
	double expected;     /* what the source says it must be: Hz, or 1 */
	double ratio;        /* measured / expected */
	double tolerance;    /* relative */
	char note[200];      /* unavailable: why; else what was read */
};
struct tb_check {
	bool done;           /* the check ran (timebase_init); false: never checked */
	bool failed;         /* a row disagrees, or the kernel's clock could not be read */
	double span_ns;      /* the window, by the kernel's clock */
	double slack;        /* the reads' own uncertainty over it, relative (added to
			      * each row's tolerance) */
	char kernel[96];     /* how the kernel's clock was read */
	uint32_t nrows;
	struct tb_check_row row[TB_CHECK_MAX_ROWS];
	char error[480];     /* failed: why, naming both rates; else "" */
};

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
	struct tb_check check;   /* against the kernel, before anything is measured */
};

/* Set by timebase_init; read by tb_now(). */
extern bool tb_use_tsc;

/* Choose and calibrate the timebase (the TSC against the kernel's clock,
 * tb_kernel_ns), measure its read overhead and check it against the kernel
 * (tb->check). Call once in the supervisor before forking workers (they
 * inherit it). Returns 0, or -errno with a message in err (-EINVAL:
 * RTC_TIMEBASE set to anything but "clock"); a timebase that
 * fails its check is still returned (0), with tb->check.failed, so that the
 * caller can report every requirement as an error that says why. Takes
 * about 100-400 ms with a TSC. */
int timebase_init(struct timebase *tb, char *err, size_t errlen);

/* RTC_TIMEBASE as timebase_init reads it: 0 unset (or empty), 1 "clock",
 * -EINVAL anything else (with why in err), which commands refuse before
 * they create any output. */
int timebase_forced(char *err, size_t len);

/* The timebase chosen by the last timebase_init (NULL before): a copy kept
 * by this module, valid for the life of the process whatever happens to the
 * struct the caller passed in. */
const struct timebase *timebase_get(void);

/* Use a timebase calibrated elsewhere (by the supervisor, in the exec'd
 * worker): the same backend and frequency, no recalibration. */
void timebase_adopt(const struct timebase *tb);

/* CLOCK_MONOTONIC_RAW (or `clock`) as the kernel itself reads it: the
 * clock_gettime system call made with the syscall instruction (x86-64
 * `syscall`, aarch64 `svc 0`), so that no C library function, vDSO or
 * preloaded wrapper stands between (elsewhere: syscall(2)). 0 when the
 * kernel refuses (a sandbox). Costs a system call: never in a measured
 * loop. */
uint64_t tb_kernel_ns(clockid_t clock);

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

/* The check again, in this process, of the timebase it adopted (the
 * exec'd worker: its C library, its preloads, its environment are its own,
 * and a layer may lie to it alone, e.g. libfaketime's FAKETIME_ONLY_CMDS):
 * the same rows against the kernel's clock over a window of
 * TB_RECHECK_SPAN_NS to TB_RECHECK_SPAN_MAX_NS, the TSC held to the
 * supervisor's calibrated rate. True when every row agrees; else false with the disagreement, naming
 * both rates, in err. Before anything is measured, never in a loop. */
#define TB_RECHECK_SPAN_NS 10000000.0      /* 10 ms */
#define TB_RECHECK_SPAN_MAX_NS 160000000.0 /* 160 ms: a worker's timeout runs meanwhile */
bool timebase_recheck(char *err, size_t len);

/* One line of what chk found ("agrees with the kernel's clock: ...",
 * "FAILED: <its error>", "not checked"), for the reports and readiness. */
void timebase_check_summary(const struct tb_check *chk, char *buf, size_t len);

/* Convert ticks to nanoseconds with the current timebase. */
double tb_ticks_to_ns(double ticks);

#endif
