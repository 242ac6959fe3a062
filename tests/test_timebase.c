/* SPDX-License-Identifier: Apache-2.0 */
/* test_timebase.c - the timebase: backend choice, TSC calibration against
 * CLOCK_MONOTONIC_RAW, the read-overhead fields, the forced clock fallback,
 * and its check against the kernel (timebase_check.c): the rate comparison
 * on known answers, each way it must fail, and a failed check making a
 * requirement an error before it is prepared.
 *
 * Behaviour, not speed: the calibration must agree with the clock over a
 * 200 ms sleep within 1 % (it promises 0.1 %), and the overhead fields must
 * be ordered and below limits no working machine comes near.
 */
#include <check.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/measure/timebase.h"
#include "harness/measure/timebase_impl.h"
#include "harness/runner.h"
#include "harness/runner_stages.h"
#include "test_util.h"

/* What the CPU says, read independently of the code under test's reader so
 * that a parser bug cannot make the test expect the wrong backend. */
static int cpu_has_invariant_tsc(void)
{
#if defined(__x86_64__)
	FILE *f = fopen("/proc/cpuinfo", "r");
	ck_assert_msg(f != NULL, "cannot read /proc/cpuinfo: %s", strerror(errno));
	static char line[16384];
	int c = 0, n = 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		for (char *tok = strtok(strchr(line, ':') + 1, " \t\n"); tok;
		     tok = strtok(NULL, " \t\n")) {
			c |= strcmp(tok, "constant_tsc") == 0;
			n |= strcmp(tok, "nonstop_tsc") == 0;
		}
		break;
	}
	fclose(f);
	return c && n;
#else
	return 0;
#endif
}

static void init_or_fail(struct timebase *tb)
{
	char err[300] = "";
	int rc = timebase_init(tb, err, sizeof err);
	ck_assert_msg(rc == 0, "timebase_init: %d %s", rc, err);
	ck_assert_ptr_nonnull(tb->name);
}

/* A timebase reading and a clock reading taken together: the clock read is
 * bracketed by two timebase reads and the tightest bracket of a few is kept,
 * so a preemption between them does not count. */
static void paired(uint64_t *ticks, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 16; i++) {
		uint64_t a = tb_now();
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		uint64_t b = tb_now();
		if (b - a < best) {
			best = b - a;
			*ticks = a + (b - a) / 2;
			*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		}
	}
}

START_TEST(backend_follows_cpu_flags)
{
	unsetenv("RTC_TIMEBASE");
	struct timebase tb;
	init_or_fail(&tb);
	if (cpu_has_invariant_tsc()) {
		ck_assert_msg(tb.is_tsc, "invariant TSC present but timebase is %s (%s)", tb.name,
			      tb.reason);
		ck_assert_str_eq(tb.name, "tsc");
		ck_assert_msg(tb.freq_hz > 1e8 && tb.freq_hz < 1e10, "TSC at %.0f Hz", tb.freq_hz);
		ck_assert_msg(tb.calib_rounds >= 2, "%g calibration rounds: two must agree",
			      tb.calib_rounds);
		ck_assert(tb.reason[0] == 0);
	} else {
		ck_assert(!tb.is_tsc);
		ck_assert_str_eq(tb.name, "clock_gettime(CLOCK_MONOTONIC_RAW)");
		ck_assert_msg(tb.reason[0] != 0, "the clock is used without saying why");
	}
	ck_assert(fabs(tb.ns_per_tick * tb.freq_hz - 1e9) < 1.0);
}
END_TEST

START_TEST(calibration_matches_clock_over_200ms)
{
	unsetenv("RTC_TIMEBASE");
	struct timebase tb;
	init_or_fail(&tb);
	uint64_t t0, c0, t1, c1;
	paired(&t0, &c0);
	struct timespec req = { 0, 200 * 1000 * 1000 };
	while (nanosleep(&req, &req) != 0 && errno == EINTR)
		;
	paired(&t1, &c1);
	double by_tb = (double)(t1 - t0) * tb.ns_per_tick;
	double by_clock = (double)(c1 - c0);
	ck_assert_msg(by_clock >= 200e6, "slept %.0f ns", by_clock);
	double rel = fabs(by_tb - by_clock) / by_clock;
	ck_assert_msg(rel < 0.01, "%s says %.0f ns, CLOCK_MONOTONIC_RAW %.0f ns (%.3f %% apart)",
		      tb.name, by_tb, by_clock, rel * 100);
	ck_assert(fabs(tb_ticks_to_ns((double)(t1 - t0)) - by_tb) < 1e-6 * by_tb);
}
END_TEST

START_TEST(read_overhead_fields_sane)
{
	struct timebase tb;
	if (_i == 1)
		setenv("RTC_TIMEBASE", "clock", 1);
	else
		unsetenv("RTC_TIMEBASE");
	init_or_fail(&tb);
	ck_assert_msg(tb.read_min_ns >= 0 && tb.read_min_ns <= tb.read_median_ns,
		      "%s: read min %.3f ns, median %.3f ns", tb.name, tb.read_min_ns,
		      tb.read_median_ns);
	ck_assert_msg(tb.read_median_ns > 0 && tb.read_median_ns < 10000,
		      "%s: read median %.3f ns", tb.name, tb.read_median_ns);
	ck_assert_msg(tb.resolution_ns > 0 && tb.resolution_ns <= 1e6, "%s: resolution %.3f ns",
		      tb.name, tb.resolution_ns);
	if (tb.is_tsc)
		ck_assert(fabs(tb.resolution_ns - tb.ns_per_tick) < 1e-9);
}
END_TEST

START_TEST(forced_clock)
{
	setenv("RTC_TIMEBASE", "clock", 1);
	struct timebase tb;
	init_or_fail(&tb);
	ck_assert(!tb.is_tsc);
	ck_assert_str_eq(tb.name, "clock_gettime(CLOCK_MONOTONIC_RAW)");
	ck_assert(tb.freq_hz == 1e9 && tb.ns_per_tick == 1.0);
	ck_assert_msg(strstr(tb.reason, "RTC_TIMEBASE") || strstr(tb.reason, "architecture"),
		      "reason: %s", tb.reason);
	/* tb_now() now reads CLOCK_MONOTONIC_RAW in ns. */
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	uint64_t t = tb_now();
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	uint64_t na = (uint64_t)a.tv_sec * 1000000000u + (uint64_t)a.tv_nsec;
	uint64_t nb = (uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec;
	ck_assert_msg(na <= t && t <= nb, "tb_now %llu outside [%llu, %llu]",
		      (unsigned long long)t, (unsigned long long)na, (unsigned long long)nb);

	/* And back: unset, the CPU's choice again. */
	unsetenv("RTC_TIMEBASE");
	init_or_fail(&tb);
	ck_assert(tb.is_tsc == (cpu_has_invariant_tsc() != 0));
	ck_assert(timebase_get()->is_tsc == tb.is_tsc);
}
END_TEST

/* timebase_init's argument is often a local of a function that has returned
 * by the time a worker asks timebase_get(). */
static double __attribute__((noinline)) init_in_a_frame_that_ends(void)
{
	struct timebase tb;
	init_or_fail(&tb);
	return tb.freq_hz;
}

static void __attribute__((noinline)) scribble_stack(void)
{
	volatile char junk[sizeof(struct timebase) * 4];
	memset((char *)junk, 0x5a, sizeof junk);
}

START_TEST(get_outlives_callers_struct)
{
	ck_assert_ptr_null(timebase_get());
	double hz = init_in_a_frame_that_ends();
	scribble_stack();
	const struct timebase *cur = timebase_get();
	ck_assert_ptr_nonnull(cur);
	ck_assert(cur->freq_hz == hz);
	ck_assert(cur->name != NULL && (strcmp(cur->name, "tsc") == 0 ||
					strstr(cur->name, "CLOCK_MONOTONIC_RAW") != NULL));
}
END_TEST

/* CPUs whose TSCs stand apart are caught (and the one furthest off
 * named); a spread within what pairing reads leaves is not. */
START_TEST(tsc_disagreement_caught)
{
	const int cpus[3] = { 0, 2, 5 };
	double spread;
	int worst;
	const double close[3] = { 100.0, 120.0, 90.0 };
	ck_assert(!timebase_tsc_disagree(close, cpus, 3, &spread, &worst));
	ck_assert_double_eq_tol(spread, 30.0, 1e-9);
	const double apart[3] = { 100.0, 120.0, -40000.0 };
	ck_assert(timebase_tsc_disagree(apart, cpus, 3, &spread, &worst));
	ck_assert_int_eq(worst, 5);
	ck_assert_double_eq_tol(spread, 40120.0, 1e-9);
	ck_assert(!timebase_tsc_disagree(apart, cpus, 1, &spread, &worst));
}
END_TEST

START_TEST(flags_match_whole_words)
{
	const char *line = "flags\t\t: fpu tsc nonstop_tsc_s3 constant_tsc_x rdtscp\n";
	ck_assert(!timebase_flag_listed(line, "nonstop_tsc"));
	ck_assert(!timebase_flag_listed(line, "constant_tsc"));
	ck_assert(timebase_flag_listed(line, "tsc"));
	ck_assert(timebase_flag_listed(line, "rdtscp"));
	ck_assert(timebase_flag_listed(line, "fpu"));
	const char *good = "flags\t\t: constant_tsc nonstop_tsc_s3 nonstop_tsc\n";
	ck_assert(timebase_flag_listed(good, "constant_tsc"));
	ck_assert(timebase_flag_listed(good, "nonstop_tsc"));
	ck_assert(timebase_flag_listed("flags:nonstop_tsc", "nonstop_tsc"));
	ck_assert(!timebase_flag_listed("flags: xnonstop_tsc", "nonstop_tsc"));
}
END_TEST

/* ---- the check against the kernel ------------------------------------------ */

/* A check of one clock row and one rate row, as timebase_check_run fills
 * them, over 100 ms with no slack. */
static void two_rows(struct tb_check *chk, double clock_ratio, double hz, double published_hz)
{
	memset(chk, 0, sizeof *chk);
	chk->done = true;
	chk->span_ns = 100e6;
	chk->nrows = 2;
	struct tb_check_row *c = &chk->row[0], *r = &chk->row[1];
	snprintf(c->key, sizeof c->key, "libc_monotonic_raw");
	snprintf(c->subject, sizeof c->subject, "the C library's clock (CLOCK_MONOTONIC_RAW)");
	snprintf(c->source, sizeof c->source, "the kernel's (clock_gettime system call)");
	c->state = TB_ROW_AGREES;
	c->measured = clock_ratio;
	c->expected = 1.0;
	c->tolerance = TB_CHECK_TOLERANCE;
	snprintf(r->key, sizeof r->key, "perf");
	snprintf(r->subject, sizeof r->subject, "the TSC");
	snprintf(r->source, sizeof r->source, "the rate the kernel publishes for it (perf)");
	r->state = TB_ROW_AGREES;
	r->is_rate = true;
	r->measured = hz;
	r->expected = published_hz;
	r->tolerance = TB_CHECK_TOLERANCE;
}

/* A clock at half (and at twice) the kernel's rate fails, naming both;
 * one within the tolerance passes, one just past it fails. */
START_TEST(check_clock_rate_known_answers)
{
	struct tb_check chk;
	two_rows(&chk, 0.5, 2445.4e6, 2445.4e6);
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
	ck_assert_int_eq(chk.row[0].state, TB_ROW_DISAGREES);
	ck_assert_int_eq(chk.row[1].state, TB_ROW_AGREES);
	ck_assert_double_eq_tol(chk.row[0].ratio, 0.5, 1e-12);
	ck_assert_msg(strstr(chk.error, "the C library's clock (CLOCK_MONOTONIC_RAW) runs at 0.500 "
				      "of the kernel's (clock_gettime system call)"), "%s", chk.error);
	ck_assert_msg(strstr(chk.error, "0.500000 s per s against 1.000000 s per s over 100.0 ms"),
		      "%s", chk.error);
	ck_assert_msg(strstr(chk.error, "tolerance 1%"), "%s", chk.error);
	ck_assert_ptr_null(strstr(chk.error, "more comparison"));

	two_rows(&chk, 2.0, 2445.4e6, 2445.4e6);
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
	ck_assert_msg(strstr(chk.error, "runs at 2.000 of the kernel's"), "%s", chk.error);

	two_rows(&chk, 1.009, 2445.4e6, 2445.4e6 * 0.991);
	timebase_check_judge(&chk);
	ck_assert_msg(!chk.failed, "%s", chk.error);
	ck_assert_str_eq(chk.error, "");
	two_rows(&chk, 1.011, 2445.4e6, 2445.4e6);
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
	ck_assert_msg(strstr(chk.error, "runs at 1.011 of"), "%s", chk.error);
	/* the reads' own uncertainty widens every row's tolerance */
	chk.slack = 0.002;
	timebase_check_judge(&chk);
	ck_assert_msg(!chk.failed, "%s", chk.error);
}
END_TEST

/* A counter at another rate than the one published for it fails, naming
 * both rates in MHz; a second disagreement is counted, not hidden. */
START_TEST(check_counter_rate_known_answers)
{
	struct tb_check chk;
	two_rows(&chk, 1.0, 2445.4e6, 4890.8e6);
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
	ck_assert_int_eq(chk.row[0].state, TB_ROW_AGREES);
	ck_assert_int_eq(chk.row[1].state, TB_ROW_DISAGREES);
	ck_assert_msg(strstr(chk.error, "the TSC runs at 2445.400 MHz by the kernel's clock "
				      "(clock_gettime system call), 0.500 of the rate the kernel "
				      "publishes for it (perf), 4890.800 MHz"), "%s", chk.error);
	two_rows(&chk, 0.5, 2445.4e6, 4890.8e6);
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
	ck_assert_msg(strstr(chk.error, "the C library's clock"), "the first row is named: %s",
		      chk.error);
	ck_assert_msg(strstr(chk.error, "(and 1 more comparison disagrees: timebase.check.*)"),
		      "%s", chk.error);
	/* CPUID's nominal figures have the wider tolerance */
	two_rows(&chk, 1.0, 2445.4e6, 2445.4e6 * 1.04);
	chk.row[1].tolerance = TB_CHECK_TOLERANCE_NOMINAL;
	timebase_check_judge(&chk);
	ck_assert_msg(!chk.failed, "%s", chk.error);
	chk.row[1].expected = 2445.4e6 * 1.06;
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
}
END_TEST

/* What could not be compared is never judged; a check whose kernel clock
 * was never read fails: nothing is trusted unchecked. */
START_TEST(check_unavailable_and_unchecked)
{
	struct tb_check chk;
	two_rows(&chk, 1.0, 2445.4e6, 1.0);
	chk.row[1].state = TB_ROW_UNAVAILABLE;
	timebase_check_judge(&chk);
	ck_assert_msg(!chk.failed, "%s", chk.error);
	ck_assert_int_eq(chk.row[1].state, TB_ROW_UNAVAILABLE);
	char line[600];
	timebase_check_summary(&chk, line, sizeof line);
	ck_assert_msg(strstr(line, "agrees with the kernel's clock: 1 comparisons within tolerance "
				   "over 100.0 ms; 1 sources not available"), "%s", line);
	/* a NaN (a clock read that failed) is no agreement */
	two_rows(&chk, NAN, 2445.4e6, 2445.4e6);
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
	two_rows(&chk, 1.0, 2445.4e6, 2445.4e6);
	chk.span_ns = 0;
	timebase_check_judge(&chk);
	ck_assert(chk.failed);
	ck_assert_msg(strstr(chk.error, "cannot be read with the clock_gettime system call"), "%s",
		      chk.error);
	timebase_check_summary(&chk, line, sizeof line);
	ck_assert(strncmp(line, "FAILED: timebase check: ", 24) == 0);
	memset(&chk, 0, sizeof chk);
	timebase_check_summary(&chk, line, sizeof line);
	ck_assert_str_eq(line, "not checked");
}
END_TEST

/* The kernel's clock, read with the system call, is the C library's
 * clock here (nothing preloaded), and timebase_init's check agrees with
 * it on every row it could make, the C library's clocks among them. */
START_TEST(check_agrees_without_a_preload)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	uint64_t k = tb_kernel_ns(CLOCK_MONOTONIC_RAW);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	uint64_t na = (uint64_t)a.tv_sec * 1000000000u + (uint64_t)a.tv_nsec;
	uint64_t nb = (uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec;
	ck_assert_msg(na <= k && k <= nb, "kernel %llu outside [%llu, %llu]", (unsigned long long)k,
		      (unsigned long long)na, (unsigned long long)nb);
	if (_i == 1)
		setenv("RTC_TIMEBASE", "clock", 1);
	else
		unsetenv("RTC_TIMEBASE");
	struct timebase tb;
	init_or_fail(&tb);
	ck_assert(tb.check.done);
	ck_assert_msg(!tb.check.failed, "%s", tb.check.error);
	ck_assert_msg(tb.check.span_ns >= 50e6, "a window of %.0f ns", tb.check.span_ns);
	ck_assert(tb.check.slack >= 0 && tb.check.slack <= TB_CHECK_TOLERANCE);
	bool raw = false, mono = false;
	int others = 0;
	for (unsigned i = 0; i < tb.check.nrows; i++) {
		const struct tb_check_row *r = &tb.check.row[i];
		ck_assert_msg(r->state != TB_ROW_DISAGREES, "%s", r->key);
		ck_assert_msg(r->state == TB_ROW_AGREES || r->note[0], "%s unavailable without why",
			      r->key);
		raw |= !strcmp(r->key, "libc_monotonic_raw") && r->state == TB_ROW_AGREES;
		mono |= !strcmp(r->key, "libc_monotonic") && r->state == TB_ROW_AGREES;
		/* Unavailable only where the kernel's own clock was stepped. */
		others += (!strcmp(r->key, "libc_realtime") || !strcmp(r->key, "libc_boottime")) &&
			  (r->state == TB_ROW_AGREES || strstr(r->note, "stepped"));
		if (!strcmp(r->key, "tsc_calibrated"))
			ck_assert(tb.is_tsc && fabs(r->ratio - 1) < TB_CHECK_TOLERANCE);
	}
	ck_assert(raw && mono);
	ck_assert_int_eq(others, 2);
	ck_assert(timebase_get()->check.done && !timebase_get()->check.failed);
}
END_TEST

/* A timebase whose check failed (or never ran) makes the requirement an
 * error with the check's words, before anything is prepared. */
START_TEST(failed_check_is_an_error_before_measuring)
{
	struct timebase tb;
	init_or_fail(&tb);
	struct requirement r = { .id = "R", .probe = "sem-pingpong", .iterations = 10, .runs = 1,
				 .cpu = -1 };
	struct req_file f = { .path = "t.xml" };
	struct req_result out;
	struct runner_job j;
	ck_assert_int_eq(runner_prepare(&r, &f, NULL, &out, &j), 0);
	runner_abandon(&j);
	req_result_free(&out);

	static struct timebase bad;
	bad = tb;
	bad.check.failed = true;
	snprintf(bad.check.error, sizeof bad.check.error, "timebase check: the C library's clock "
		 "runs at 0.500 of the kernel's");
	timebase_adopt(&bad);
	ck_assert_int_eq(runner_prepare(&r, &f, NULL, &out, &j), -1);
	ck_assert_int_eq(out.verdict, VERDICT_ERROR);
	ck_assert_str_eq(out.reason, bad.check.error);
	ck_assert_ptr_null(out.res);
	runner_abandon(&j);
	req_result_free(&out);

	bad.check = (struct tb_check){ 0 };
	timebase_adopt(&bad);
	ck_assert_int_eq(runner_prepare(&r, &f, NULL, &out, &j), -1);
	ck_assert_int_eq(out.verdict, VERDICT_ERROR);
	ck_assert_ptr_nonnull(strstr(out.reason, "never checked against the kernel"));
	runner_abandon(&j);
	req_result_free(&out);
}
END_TEST

/* The worker's own check (timebase_recheck) of the timebase it adopted:
 * true for the one calibrated here; for a TSC timebase adopted at twice
 * its true rate (a supervisor's calibration the worker's TSC contradicts)
 * false, naming both rates. */
START_TEST(recheck_holds_the_adopted_timebase)
{
	unsetenv("RTC_TIMEBASE");
	struct timebase tb;
	init_or_fail(&tb);
	char err[480] = "";
	ck_assert_msg(timebase_recheck(err, sizeof err), "%s", err);
	if (!tb.is_tsc) {
		/* The clock's ticks are the C library's ns, its rows the same
		 * two as the supervisor's: nothing to adopt wrong here. */
		ck_assert(!tb.check.failed);
		return;
	}
	static struct timebase wrong;
	wrong = tb;
	wrong.freq_hz = tb.freq_hz * 2;
	wrong.ns_per_tick = 1e9 / wrong.freq_hz;
	timebase_adopt(&wrong);
	err[0] = 0;
	ck_assert(!timebase_recheck(err, sizeof err));
	ck_assert_msg(strstr(err, "timebase check: the TSC runs at ") &&
		      strstr(err, "0.500 of its calibrated rate"), "%s", err);
	ck_assert_msg(!strstr(err, "timebase.check.*"), "%s", err);
	/* The adopted timebase's own check (the supervisor's) is left alone. */
	ck_assert(!timebase_get()->check.failed);
	timebase_adopt(&tb);
	ck_assert_msg(timebase_recheck(err, sizeof err), "%s", err);
}
END_TEST

static Suite *timebase_suite(void)
{
	Suite *s = suite_create("timebase");
	/* Calibration may take up to 2.5 s when estimates wobble. */
	TCase *tc = tu_tcase(s, "timebase", 60);
	tcase_add_test(tc, backend_follows_cpu_flags);
	tcase_add_test(tc, calibration_matches_clock_over_200ms);
	tcase_add_loop_test(tc, read_overhead_fields_sane, 0, 2);
	tcase_add_test(tc, forced_clock);
	tcase_add_test(tc, get_outlives_callers_struct);
	tcase_add_test(tc, flags_match_whole_words);
	tcase_add_test(tc, tsc_disagreement_caught);
	tcase_add_test(tc, check_clock_rate_known_answers);
	tcase_add_test(tc, check_counter_rate_known_answers);
	tcase_add_test(tc, check_unavailable_and_unchecked);
	tcase_add_loop_test(tc, check_agrees_without_a_preload, 0, 2);
	tcase_add_test(tc, failed_check_is_an_error_before_measuring);
	tcase_add_test(tc, recheck_holds_the_adopted_timebase);
	return s;
}

int main(void)
{
	return tu_run(timebase_suite());
}
