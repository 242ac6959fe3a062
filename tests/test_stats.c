/* SPDX-License-Identifier: Apache-2.0 */
/* test_stats.c - statistic names, sample needs, and values computed from a
 * synthetic metric (no probe, no timing).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/measure/histogram.h"
#include "harness/measure/probe.h"
#include "harness/stats.h"
#include "test_util.h"

/* ---- names ------------------------------------------------------------ */

static const struct {
	const char *text;
	enum stat_kind kind;
	double pct;
	const char *canonical;
} accepted[] = {
	{ "min", STAT_MIN, 0, "min" },
	{ "mean", STAT_MEAN, 0, "mean" },
	{ "stddev", STAT_STDDEV, 0, "stddev" },
	{ "max", STAT_MAX, 0, "max" },
	{ "runs-mean-stddev", STAT_RUNS_MEAN_STDDEV, 0, "runs-mean-stddev" },
	{ "total", STAT_TOTAL, 0, "total" },
	{ "p50", STAT_PCT, 50, "p50" },
	{ "p99", STAT_PCT, 99, "p99" },
	{ "p1", STAT_PCT, 1, "p1" },
	{ "p5", STAT_PCT, 5, "p5" },
	{ "p99.9", STAT_PCT, 99.9, "p99.9" },
	{ "p99.99", STAT_PCT, 99.99, "p99.99" },
	{ "p99.999", STAT_PCT, 99.999, "p99.999" },
	{ "p0.5", STAT_PCT, 0.5, "p0.5" },
	{ "p33.3", STAT_PCT, 33.3, "p33.3" },
	{ "p99.90", STAT_PCT, 99.9, "p99.9" },
	{ "p50.0", STAT_PCT, 50, "p50" },
	{ "p0.0000000000001", STAT_PCT, 1e-13, "p0.0000000000001" },
	{ "p99.9999999999999", STAT_PCT, 99.9999999999999, "p99.9999999999999" },
	{ "p12.3456789012345", STAT_PCT, 12.3456789012345, "p12.3456789012345" },
};

static const char *const rejected[] = {
	"", "p", "p100", "p0", "p-1", "p99.", "p 99", "P99", "p99 ", " p99", "p+5", "p1e1",
	"p.5", "p05", "p00", "p00.5", "p0.0", "p100.0", "p999", "p99.5.5", "pinf", "pnan",
	"p99,9", "p0x10", "p50x", "p99.99999999999999", "MIN", "Mean", "mean ", "runs-mean",
	"std", "median", "p50%", "p\t50", "percentile", "Total", "sum",
};

START_TEST(parse_accepts)
{
	struct statistic st = { .kind = STAT_MAX, .pct = -1 };
	ck_assert_int_eq(statistic_parse(accepted[_i].text, &st), 0);
	ck_assert_int_eq(st.kind, accepted[_i].kind);
	if (st.kind == STAT_PCT)
		ck_assert_double_eq(st.pct, accepted[_i].pct); /* correctly rounded */
}
END_TEST

START_TEST(parse_rejects)
{
	struct statistic st;
	ck_assert_msg(statistic_parse(rejected[_i], &st) == -EINVAL, "accepted \"%s\"", rejected[_i]);
}
END_TEST

START_TEST(parse_rejects_null)
{
	struct statistic st;
	ck_assert_int_eq(statistic_parse(NULL, &st), -EINVAL);
	ck_assert_int_eq(statistic_parse("max", NULL), -EINVAL);
}
END_TEST

START_TEST(name_is_canonical)
{
	struct statistic st, again;
	char buf[64];
	ck_assert_int_eq(statistic_parse(accepted[_i].text, &st), 0);
	statistic_name(&st, buf, sizeof buf);
	ck_assert_str_eq(buf, accepted[_i].canonical);
	/* The canonical name parses back to the very same statistic. */
	ck_assert_int_eq(statistic_parse(buf, &again), 0);
	ck_assert_int_eq(again.kind, st.kind);
	ck_assert(again.pct == st.pct);
}
END_TEST

/* Every percentile with two decimals: the name comes back digit for digit. */
START_TEST(name_round_trips_every_hundredth)
{
	for (unsigned i = 1; i < 10000; i++) {
		char text[32], canon[32], buf[32];
		snprintf(text, sizeof text, "p%u.%02u", i / 100, i % 100);
		if (i % 100 == 0)
			snprintf(canon, sizeof canon, "p%u", i / 100);
		else if (i % 10 == 0)
			snprintf(canon, sizeof canon, "p%u.%u", i / 100, (i % 100) / 10);
		else
			snprintf(canon, sizeof canon, "%s", text);
		struct statistic st;
		ck_assert_int_eq(statistic_parse(text, &st), 0);
		ck_assert_int_eq(st.kind, STAT_PCT);
		statistic_name(&st, buf, sizeof buf);
		ck_assert_str_eq(buf, canon);
	}
}
END_TEST

START_TEST(name_truncates_safely)
{
	struct statistic st;
	char buf[4];
	memset(buf, 'x', sizeof buf);
	ck_assert_int_eq(statistic_parse("runs-mean-stddev", &st), 0);
	statistic_name(&st, buf, sizeof buf);
	ck_assert_str_eq(buf, "run");
	ck_assert_int_eq(statistic_parse("p99.9", &st), 0);
	statistic_name(&st, buf, sizeof buf);
	ck_assert_str_eq(buf, "p99");
	buf[0] = 'x';
	statistic_name(&st, buf, 0); /* nothing written */
	ck_assert_int_eq(buf[0], 'x');
}
END_TEST

/* ---- sample needs ----------------------------------------------------- */

static uint64_t min_samples_of(const char *name)
{
	struct statistic st;
	ck_assert_int_eq(statistic_parse(name, &st), 0);
	return statistic_min_samples(&st);
}

START_TEST(min_samples_values)
{
	ck_assert_uint_eq(min_samples_of("p99"), 1000);
	ck_assert_uint_eq(min_samples_of("p99.9"), 10000);
	ck_assert_uint_eq(min_samples_of("p99.99"), 100000);
	ck_assert_uint_eq(min_samples_of("p99.999"), 1000000);
	ck_assert_uint_eq(min_samples_of("p50"), 20);
	ck_assert_uint_eq(min_samples_of("p90"), 100);
	ck_assert_uint_eq(min_samples_of("p95"), 200);
	ck_assert_uint_eq(min_samples_of("p99.5"), 2000);
	ck_assert_uint_eq(min_samples_of("p75"), 40);
	ck_assert_uint_eq(min_samples_of("p33.3"), 15); /* 14.99... */
	ck_assert_uint_eq(min_samples_of("p1"), 11);    /* 10.10... */
	ck_assert_uint_eq(min_samples_of("p0.0000000000001"), 11);
	ck_assert_uint_eq(min_samples_of("stddev"), 2);
	ck_assert_uint_eq(min_samples_of("min"), 1);
	ck_assert_uint_eq(min_samples_of("mean"), 1);
	ck_assert_uint_eq(min_samples_of("max"), 1);
	/* Needs two runs, which stat_value checks; one sample per run is
	 * enough as far as the count goes. */
	ck_assert_uint_eq(min_samples_of("runs-mean-stddev"), 1);
}
END_TEST

/* pQ with Q = i/100: the least N with N * (1 - Q/100) >= 10, in integers:
 * N * (10000 - i) >= 100000. */
START_TEST(min_samples_every_hundredth)
{
	for (unsigned i = 1; i < 10000; i++) {
		char text[32];
		snprintf(text, sizeof text, "p%u.%02u", i / 100, i % 100);
		uint64_t den = 10000 - i;
		uint64_t want = (100000 + den - 1) / den;
		ck_assert_msg(min_samples_of(text) == want, "%s: %llu, want %llu", text,
			      (unsigned long long)min_samples_of(text), (unsigned long long)want);
	}
}
END_TEST

/* ---- values ----------------------------------------------------------- */

/* A metric_data as the runner lays it out: the histogram's counters follow
 * the struct. */
static struct metric_data *new_metric(unsigned bits, double ns_per_unit, double cycles_per_unit)
{
	struct metric_data *m = calloc(1, sizeof *m + hist_bytes(bits) - sizeof(struct hist));
	ck_assert_ptr_nonnull(m);
	hist_init(&m->hist, bits);
	m->ns_per_unit = ns_per_unit;
	m->cycles_per_unit = cycles_per_unit;
	return m;
}

/* What probe_record() does, without a probe_ctx. */
static void record(struct metric_data *m, uint32_t run, uint64_t v)
{
	hist_record(&m->hist, v);
	m->runs[run].count++;
	m->runs[run].sum += v;
}

static double value_of(const struct metric_data *m, const char *name, bool cycles)
{
	struct statistic st;
	double v = -1;
	ck_assert_int_eq(statistic_parse(name, &st), 0);
	ck_assert_msg(stat_value(m, &st, cycles, &v), "%s not computed", name);
	return v;
}

static bool computable(const struct metric_data *m, const char *name, bool cycles)
{
	struct statistic st;
	double v = -1;
	ck_assert_int_eq(statistic_parse(name, &st), 0);
	bool ok = stat_value(m, &st, cycles, &v);
	if (!ok)
		ck_assert_double_eq(v, -1); /* untouched on failure */
	return ok;
}

START_TEST(values_are_scaled)
{
	/* Units of half a nanosecond, 3 cycles each. */
	struct metric_data *m = new_metric(42, 0.5, 3.0);
	for (uint64_t v = 1; v <= 1000; v++)
		record(m, 0, v);
	ck_assert_double_eq(value_of(m, "min", false), 0.5);
	ck_assert_double_eq(value_of(m, "max", false), 500.0);
	ck_assert_double_eq(value_of(m, "mean", false), 250.25);
	double sd = sqrt(1000.0 * 1001.0 / 12.0);
	ck_assert_double_eq_tol(value_of(m, "stddev", false), 0.5 * sd, 1e-9);
	ck_assert_double_eq(value_of(m, "min", true), 3.0);
	ck_assert_double_eq(value_of(m, "max", true), 3000.0);
	ck_assert_double_eq(value_of(m, "mean", true), 1501.5);
	ck_assert_double_eq_tol(value_of(m, "stddev", true), 3.0 * sd, 1e-9);

	/* Percentiles come from the histogram, scaled the same way. */
	double p50 = value_of(m, "p50", false);
	ck_assert_double_eq(p50, 0.5 * (double)hist_percentile(&m->hist, 50));
	ck_assert_double_ge(p50, 250.0);
	ck_assert_double_le(p50, 250.0 * 1.01);
	double p99 = value_of(m, "p99", true);
	ck_assert_double_ge(p99, 3.0 * 990);
	ck_assert_double_le(p99, 3.0 * 990 * 1.01);
	free(m);
}
END_TEST

START_TEST(cycles_need_a_cycle_scale)
{
	struct metric_data *m = new_metric(42, 1.0, 0.0);
	for (uint64_t v = 1; v <= 1000; v++)
		record(m, v % 4, v);
	static const char *const all[] = { "min", "mean", "stddev", "max", "p50", "p99",
					   "runs-mean-stddev" };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		ck_assert_msg(!computable(m, all[i], true), "%s in cycles", all[i]);
		ck_assert_msg(computable(m, all[i], false), "%s in ns", all[i]);
	}
	/* A metric without a time scale gives no number rather than zeros
	 * that would pass every max= limit. */
	m->ns_per_unit = 0.0;
	ck_assert(!computable(m, "max", false));
	m->ns_per_unit = NAN;
	ck_assert(!computable(m, "max", false));
	free(m);
}
END_TEST

START_TEST(no_samples_no_value)
{
	struct metric_data *m = new_metric(42, 1.0, 1.0);
	static const char *const all[] = { "min", "mean", "stddev", "max", "p50", "p1",
					   "runs-mean-stddev" };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		ck_assert_msg(!computable(m, all[i], false), "%s of nothing", all[i]);
		ck_assert_msg(!computable(m, all[i], true), "%s of nothing", all[i]);
	}
	free(m);
}
END_TEST

START_TEST(too_few_samples)
{
	struct metric_data *m = new_metric(42, 1.0, 0.0);
	record(m, 0, 10);
	ck_assert(computable(m, "min", false));
	ck_assert(computable(m, "mean", false));
	ck_assert(computable(m, "max", false));
	ck_assert(!computable(m, "stddev", false));
	record(m, 0, 12);
	ck_assert(computable(m, "stddev", false));
	ck_assert_double_eq_tol(value_of(m, "stddev", false), sqrt(2.0), 1e-12);

	/* p99 needs 1000, p99.9 10000: one short is refused, exact is fine. */
	while (m->hist.count < 999)
		record(m, 0, m->hist.count);
	ck_assert(!computable(m, "p99", false));
	record(m, 0, 5);
	ck_assert(computable(m, "p99", false));
	ck_assert(!computable(m, "p99.9", false));
	while (m->hist.count < 9999)
		record(m, 0, m->hist.count);
	ck_assert(!computable(m, "p99.9", false));
	record(m, 0, 5);
	ck_assert(computable(m, "p99.9", false));
	free(m);
}
END_TEST

START_TEST(runs_mean_stddev_known)
{
	struct metric_data *m = new_metric(42, 0.5, 2.0);
	/* Run means 10, 20, 30 from runs of different lengths. */
	record(m, 0, 5);
	record(m, 0, 15);
	ck_assert(!computable(m, "runs-mean-stddev", false)); /* one run */
	record(m, 1, 20);
	record(m, 2, 25);
	record(m, 2, 30);
	record(m, 2, 35);
	ck_assert_double_eq_tol(value_of(m, "runs-mean-stddev", false), 0.5 * 10.0, 1e-12);
	ck_assert_double_eq_tol(value_of(m, "runs-mean-stddev", true), 2.0 * 10.0, 1e-12);
	ck_assert_double_eq(metric_run_mean_ns(m, 0), 5.0);
	ck_assert_double_eq(metric_run_mean_ns(m, 1), 10.0);
	ck_assert_double_eq(metric_run_mean_ns(m, 2), 15.0);
	ck_assert_double_eq(metric_run_mean_ns(m, 3), 0.0); /* never ran */
	ck_assert_double_eq(metric_run_mean_ns(m, RTC_MAX_RUNS), 0.0);
	/* The mean over all samples is not the mean of the run means. */
	ck_assert_double_eq(value_of(m, "mean", false), 0.5 * 130.0 / 6.0);
	free(m);
}
END_TEST

START_TEST(runs_mean_stddev_skips_empty_runs)
{
	struct metric_data *m = new_metric(42, 1.0, 0.0);
	/* Runs that recorded nothing (a crashed worker's tail) do not count
	 * as runs with mean 0. Means 1e9+1, 1e9+2, 1e9+3: stddev 1, which a
	 * one-pass formula would lose on that offset. */
	record(m, 0, 1000000001);
	record(m, 7, 1000000002);
	record(m, RTC_MAX_RUNS - 1, 1000000003);
	ck_assert_double_eq_tol(value_of(m, "runs-mean-stddev", false), 1.0, 1e-9);
	free(m);
}
END_TEST

START_TEST(overflowed_samples_count)
{
	/* Values beyond the histogram's range still set max and the mean. */
	struct metric_data *m = new_metric(20, 2.0, 0.0);
	for (int n = 0; n < 19; n++)
		record(m, 0, 100);
	record(m, 0, UINT64_C(1) << 30);
	ck_assert_uint_eq(m->hist.overflow, 1);
	ck_assert_double_eq(value_of(m, "max", false), 2.0 * 1073741824.0);
	ck_assert_double_eq_tol(value_of(m, "mean", false),
				2.0 * (1900.0 + 1073741824.0) / 20.0, 1e-6);
	/* p99 of 20 needs 1000 samples; p50 needs 20, and 20 it has. */
	ck_assert(!computable(m, "p99", false));
	ck_assert_double_eq(value_of(m, "p50", false), 200.0);
	free(m);
}
END_TEST

START_TEST(bad_statistic_no_value)
{
	struct metric_data *m = new_metric(42, 1.0, 1.0);
	for (uint64_t v = 1; v <= 100000; v++)
		record(m, 0, v);
	double out = -1;
	struct statistic st = { .kind = STAT_PCT, .pct = 100.0 };
	ck_assert(!stat_value(m, &st, false, &out));
	st.pct = 0.0;
	ck_assert(!stat_value(m, &st, false, &out));
	st.pct = NAN;
	ck_assert(!stat_value(m, &st, false, &out));
	st.kind = (enum stat_kind)99;
	ck_assert(!stat_value(m, &st, false, &out));
	ck_assert(!stat_value(NULL, &st, false, &out));
	ck_assert_double_eq(out, -1);
	free(m);
}
END_TEST

/* Which statistics a kind takes: a count total, min, mean and max; a
 * duration everything but total. */
START_TEST(statistics_fit_kinds)
{
	static const struct {
		const char *name;
		bool duration, count;
	} fit[] = {
		{ "min", true, true }, { "mean", true, true }, { "max", true, true },
		{ "total", false, true }, { "stddev", true, false }, { "p99", true, false },
		{ "runs-mean-stddev", true, false },
	};
	for (size_t i = 0; i < sizeof fit / sizeof fit[0]; i++) {
		struct statistic st;
		ck_assert_int_eq(statistic_parse(fit[i].name, &st), 0);
		ck_assert_msg(statistic_fits(&st, METRIC_DURATION) == fit[i].duration, "%s", fit[i].name);
		ck_assert_msg(statistic_fits(&st, METRIC_COUNT) == fit[i].count, "%s", fit[i].name);
	}
	ck_assert(!statistic_fits(NULL, METRIC_COUNT));
}
END_TEST

/* A count metric: one value per run, unscaled; total is their sum. */
START_TEST(count_values)
{
	struct metric_data *m = new_metric(42, 0.5, 1.0);
	m->kind = METRIC_COUNT;
	static const uint64_t runs[] = { 3, 0, 9, 4 };
	for (uint32_t r = 0; r < 4; r++)
		record(m, r, runs[r]);
	ck_assert_double_eq(value_of(m, "total", false), 16);
	ck_assert_double_eq(value_of(m, "max", false), 9);
	ck_assert_double_eq(value_of(m, "min", false), 0);
	ck_assert_double_eq(value_of(m, "mean", false), 4);
	double out = -1;
	struct statistic st;
	ck_assert_int_eq(statistic_parse("p50", &st), 0);
	ck_assert(!stat_value(m, &st, false, &out));   /* no percentile of a count */
	ck_assert_int_eq(statistic_parse("total", &st), 0);
	ck_assert(!stat_value(m, &st, true, &out));    /* nor cycles */
	uint64_t c = 0;
	ck_assert(metric_run_count(m, 2, &c) && c == 9);
	ck_assert(!metric_run_count(m, 4, &c));         /* a run that counted nothing */
	m->kind = METRIC_DURATION;
	ck_assert(!metric_run_count(m, 2, &c));
	ck_assert_int_eq(statistic_parse("total", &st), 0);
	ck_assert(!stat_value(m, &st, false, &out));   /* no total of a duration */
	ck_assert_double_eq(out, -1);
	free(m);
}
END_TEST


/* ---- confidence bounds -------------------------------------------------- */

static struct stat_bounds bounds_of(const struct metric_data *m, const char *name, double level)
{
	struct statistic st;
	struct stat_bounds b;
	ck_assert_int_eq(statistic_parse(name, &st), 0);
	ck_assert(stat_bounds(m, &st, level, false, &b));
	return b;
}

/* Exact buckets below 128: the bounds are the samples of the ranks. */
START_TEST(bounds_are_the_samples_of_their_ranks)
{
	struct metric_data *m = new_metric(42, 2.0, 0.0);
	for (uint64_t v = 1; v <= 10; v++)
		record(m, 0, v * 10);
	/* The median of 10 at 95 %: X(2) .. X(9), ns_per_unit 2. */
	struct stat_bounds b = bounds_of(m, "p50", 0.95);
	ck_assert_uint_eq(b.n, 10);
	ck_assert_uint_eq(b.lo_rank, 2);
	ck_assert_uint_eq(b.hi_rank, 9);
	ck_assert(b.has_lo && b.has_hi);
	ck_assert_double_eq(b.lo, 40.0);
	ck_assert_double_eq(b.hi, 180.0);
	ck_assert(!b.lo_bucket && !b.hi_bucket);
	ck_assert(fabs(b.coverage - 0.978515625) < 1e-12);
	/* p99 of 10: no upper bound; the lower X(9) (P(2+ of 10 above p99) = 0.004). */
	b = bounds_of(m, "p99", 0.95);
	ck_assert(!b.has_hi && b.hi_rank == 11);
	ck_assert(b.has_lo && b.lo_rank == 9 && b.lo == 180.0);
	/* Not a percentile, or not a duration: no bounds. */
	struct statistic st;
	struct stat_bounds nb;
	ck_assert_int_eq(statistic_parse("max", &st), 0);
	ck_assert(!stat_bounds(m, &st, 0.95, false, &nb));
	free(m);
}
END_TEST

/* Wide buckets: the lower bound is its bucket's lower edge, the upper its
 * upper edge, and a bound in the estimate's own bucket says so. */
START_TEST(bounds_take_bucket_edges)
{
	struct metric_data *m = new_metric(42, 1.0, 0.0);
	for (int i = 0; i < 1000; i++)
		record(m, 0, 100000 + (uint64_t)i % 7); /* one bucket of 512 */
	struct stat_bounds b = bounds_of(m, "p50", 0.95);
	int64_t lo, hi, id;
	ck_assert(hist_rank_range(&m->hist, NULL, 500, &lo, &hi, &id));
	ck_assert(b.has_lo && b.has_hi && b.lo_bucket && b.hi_bucket);
	/* clamped to the exact min and max */
	ck_assert_double_eq(b.lo, 100000.0);
	ck_assert_double_eq(b.hi, 100006.0);
	free(m);
}
END_TEST

/* A signed metric: ranks from the most negative sample. */
START_TEST(bounds_of_signed_samples)
{
	size_t hb = hist_bytes(42);
	struct metric_data *m = calloc(1, sizeof *m + 2 * hb);
	ck_assert_ptr_nonnull(m);
	hist_init(&m->hist, 42);
	m->neg_off = (uint32_t)(sizeof *m - sizeof(struct hist) + hb);
	hist_init(metric_neg(m), 42);
	m->ns_per_unit = 1.0;
	for (uint64_t v = 1; v <= 6; v++) /* -60 .. -10 */
		hist_record(metric_neg(m), v * 10);
	for (uint64_t v = 1; v <= 4; v++) /* 10 .. 40 */
		hist_record(&m->hist, v * 10);
	struct stat_bounds b = bounds_of(m, "p50", 0.95);
	ck_assert_double_eq(b.lo, -50.0); /* X(2) */
	ck_assert_double_eq(b.hi, 30.0);  /* X(9) */
	uint64_t c;
	ck_assert(stat_count_at_or_below(m, -25.0, false, &c));
	ck_assert_uint_eq(c, 4); /* -60, -50, -40, -30 */
	ck_assert(stat_count_at_or_below(m, 25.0, false, &c));
	ck_assert_uint_eq(c, 8);
	ck_assert(stat_count_at_or_below(m, 40.0, false, &c));
	ck_assert_uint_eq(c, 10);
	ck_assert(stat_count_at_or_below(m, -70.0, false, &c));
	ck_assert_uint_eq(c, 0);
	free(m);
}
END_TEST

/* A bucket that straddles the value counts as above it. */
START_TEST(count_at_or_below_is_certain)
{
	struct metric_data *m = new_metric(42, 1.0, 0.0);
	record(m, 0, 1001); /* buckets of 4 here: [1000, 1003] */
	record(m, 0, 1002);
	record(m, 0, 1005); /* [1004, 1007] */
	record(m, 0, 5000);
	uint64_t c;
	ck_assert(stat_count_at_or_below(m, 1002.0, false, &c));
	ck_assert_uint_eq(c, 0); /* its bucket straddles 1002 */
	ck_assert(stat_count_at_or_below(m, 1003.0, false, &c));
	ck_assert_uint_eq(c, 2);
	ck_assert(stat_count_at_or_below(m, 1007.5, false, &c));
	ck_assert_uint_eq(c, 3);
	ck_assert(stat_count_at_or_below(m, 5000.0, false, &c));
	ck_assert_uint_eq(c, 4);
	free(m);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tu_tcase(s, "names", 10);
	int nacc = (int)(sizeof accepted / sizeof accepted[0]);
	tcase_add_loop_test(tc, parse_accepts, 0, nacc);
	tcase_add_loop_test(tc, parse_rejects, 0, (int)(sizeof rejected / sizeof rejected[0]));
	tcase_add_test(tc, parse_rejects_null);
	tcase_add_loop_test(tc, name_is_canonical, 0, nacc);
	tcase_add_test(tc, name_round_trips_every_hundredth);
	tcase_add_test(tc, name_truncates_safely);
	tcase_add_test(tc, statistics_fit_kinds);
	tcase_add_test(tc, count_values);

	tc = tu_tcase(s, "min_samples", 10);
	tcase_add_test(tc, min_samples_values);
	tcase_add_test(tc, min_samples_every_hundredth);

	tc = tu_tcase(s, "values", 10);
	tcase_add_test(tc, values_are_scaled);
	tcase_add_test(tc, cycles_need_a_cycle_scale);
	tcase_add_test(tc, no_samples_no_value);
	tcase_add_test(tc, too_few_samples);
	tcase_add_test(tc, runs_mean_stddev_known);
	tcase_add_test(tc, runs_mean_stddev_skips_empty_runs);
	tcase_add_test(tc, overflowed_samples_count);
	tcase_add_test(tc, bad_statistic_no_value);

	tc = tu_tcase(s, "bounds", 10);
	tcase_add_test(tc, bounds_are_the_samples_of_their_ranks);
	tcase_add_test(tc, bounds_take_bucket_edges);
	tcase_add_test(tc, bounds_of_signed_samples);
	tcase_add_test(tc, count_at_or_below_is_certain);
	return s;
}

int main(void)
{
	return tu_run(stats_suite());
}
