/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_impl.h - internal to the timebase backends (and their tests). */
#ifndef RTC_TIMEBASE_IMPL_H
#define RTC_TIMEBASE_IMPL_H
#include "harness/measure/timebase.h"

/* Fill read_min_ns, read_median_ns and resolution_ns using tb_now(). */
void timebase_measure_reads(struct timebase *tb);
/* Keep a copy of *tb as what timebase_get() returns. */
void timebase_set_current(const struct timebase *tb);
/* Fill tb for clock_gettime(CLOCK_MONOTONIC_RAW) (ticks are ns) and make
 * tb_now() read the clock. tb->reason is left alone. */
void timebase_use_clock(struct timebase *tb);
/* The end of every timebase_init: check tb against the kernel
 * (timebase_check_run) and make it current. */
void timebase_finish(struct timebase *tb);
/* True when `flag` is a whole word of a /proc/cpuinfo flags line. */
bool timebase_flag_listed(const char *flags, const char *flag);
/* The CPUs' TSCs disagree too much to time with: the spread of their
 * offsets from one clock (off[i] of CPU cpus[i], ns) is over
 * TB_TSC_MAX_SKEW_NS. *spread and *worst (the CPU furthest from the first)
 * say by how much. */
#define TB_TSC_MAX_SKEW_NS 1000.0
bool timebase_tsc_disagree(const double *off, const int *cpus, int n, double *spread,
			   int *worst);

/* ---- the check against the kernel (timebase_check.c) ---- */

/* The backend's hardware counter, which the check holds to the rate
 * published for it: the TSC (timebase_tsc.c), the aarch64 generic timer's
 * CNTVCT_EL0 (timebase_clock.c), none elsewhere. */
struct tb_counter {
	const char *name;       /* "the TSC", "the generic timer (CNTVCT_EL0)"; NULL: none */
	uint64_t (*read)(void); /* NULL: none */
	bool steady;            /* its rate is fixed (else no rate is compared) */
	char why[160];          /* no counter, or not steady: why */
};
void timebase_counter(struct tb_counter *c);
/* The rates the kernel, the CPU or the firmware publish for that counter,
 * a row each from rows[0] (key, source, expected Hz, tolerance, note; state
 * TB_ROW_UNAVAILABLE and why in note where one is not there). Returns the
 * rows filled, at most max. */
unsigned timebase_published_rates(struct tb_check_row *rows, unsigned max);
/* The row of the rate the kernel publishes for the counter named counter
 * (its sched_clock's, on the perf_event mmap page: x86-64 and aarch64),
 * unavailable with why when it publishes none or perf_event_open is
 * refused. */
void timebase_perf_rate(struct tb_check_row *r, const char *counter);
/* Time a window with the kernel's clock and fill tb->check: the C
 * library's clocks, the TSC at its calibrated rate and the counter against
 * each published rate, judged by timebase_check_judge. */
void timebase_check_run(struct timebase *tb);
/* The same over a window of at least min_span_ns, doubled while the
 * slack is over a twentieth of the tolerance and the next would not pass
 * max_span_ns (then the slack, added to each tolerance, stays as it is):
 * timebase_check_run's 50 ms to 1.6 s; timebase_recheck's
 * TB_RECHECK_SPAN_NS to TB_RECHECK_SPAN_MAX_NS. */
void timebase_check_window(struct timebase *tb, double min_span_ns, double max_span_ns);
/* Judge chk's rows that are not unavailable (measured, expected, tolerance
 * and chk->slack set): each row's ratio and state; chk->failed and
 * chk->error from the first that disagrees, naming both rates. Also fails
 * a check whose kernel clock was never read (chk->span_ns 0). */
void timebase_check_judge(struct tb_check *chk);

#endif
