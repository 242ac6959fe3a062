/* test_verdict.c - verdict_judge() on synthetic results: which limits pass,
 * which fail, the failure text, and when a limit cannot be judged. No
 * worker runs and nothing is timed. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "harness/measure/probe.h"
#include "harness/measure/probes/probes.h"
#include "harness/runner.h"
#include "test_util.h"

/* A requirement on sem-pingpong (metric per-op) with samples 1..n ticks,
 * one tick = 1 ns here so the numbers are easy to read. */
struct fx {
	struct requirement req;
	struct req_file file;
	struct req_result res;
};

static struct fx *fx_new(uint64_t n, double ns_per_unit, double cycles_per_unit)
{
	struct fx *x = calloc(1, sizeof *x);
	x->req.id = "R";
	x->req.probe = "sem-pingpong";
	x->req.runs = 2;
	x->req.iterations = n / 2;
	x->file.path = "t.xml";
	x->res.req = &x->req;
	x->res.file = &x->file;
	x->res.probe = probe_find("sem-pingpong");
	ck_assert_ptr_nonnull(x->res.probe);
	x->res.res = result_alloc(1, &x->res.res_bytes);
	ck_assert_ptr_nonnull(x->res.res);
	struct metric_data *m = result_metric(x->res.res, 0);
	m->ns_per_unit = ns_per_unit;
	m->cycles_per_unit = cycles_per_unit;
	for (uint64_t v = 1; v <= n; v++) {
		uint32_t run = v <= n / 2 ? 0 : 1;
		hist_record(&m->hist, v);
		m->runs[run].count++;
		m->runs[run].sum += v;
	}
	return x;
}

static void fx_free(struct fx *x)
{
	req_result_free(&x->res);
	free(x);
}

static struct req_limit *add(struct fx *x, const char *stat, const char *metric)
{
	struct req_limit *l = &x->req.limits[x->req.nlimits++];
	memset(l, 0, sizeof *l);
	ck_assert_int_eq(stat_parse(stat, &l->stat), 0);
	l->stat_text = (char *)stat;
	l->metric = (char *)metric;
	return l;
}

static void bound_max(struct req_limit *l, double v, enum qty_unit u)
{
	l->has_max = true;
	l->max.value = v;
	l->max.unit = u;
}

static void bound_min(struct req_limit *l, double v, enum qty_unit u)
{
	l->has_min = true;
	l->min.value = v;
	l->min.unit = u;
}

START_TEST(all_limits_hold_is_pass)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "mean", NULL), 600, QTY_NS);
	bound_max(add(x, "max", "per-op"), 1000, QTY_NS); /* inclusive: max == bound */
	bound_min(add(x, "min", NULL), 1, QTY_NS);        /* inclusive: min == bound */
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	for (int i = 0; i < 3; i++) {
		ck_assert(x->res.limits[i].evaluated);
		ck_assert(x->res.limits[i].passed);
	}
	ck_assert_double_eq_tol(x->res.limits[0].measured, 500.5, 1e-9);
	ck_assert_double_eq(x->res.limits[1].measured, 1000);
	ck_assert_str_eq(x->res.reason, "");
	fx_free(x);
}
END_TEST

START_TEST(max_exceeded_is_fail_with_message)
{
	struct fx *x = fx_new(1000, 412.3, 0); /* max = 1000 units = 412.3 us */
	bound_max(add(x, "mean", NULL), 50000, QTY_NS);  /* fails too: mean 206 us */
	bound_max(add(x, "max", NULL), 300000, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert(!x->res.limits[1].passed);
	ck_assert_str_eq(x->res.limits[1].text, "max 412.3 us > 300 us (n=1000)");
	ck_assert_ptr_nonnull(strstr(x->res.reason, "max 412.3 us > 300 us (n=1000)"));
	ck_assert_ptr_nonnull(strstr(x->res.reason, "mean "));
	fx_free(x);
}
END_TEST

START_TEST(min_bound_below_is_fail)
{
	struct fx *x = fx_new(100, 1.0, 0);
	bound_min(add(x, "min", NULL), 2, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert_str_eq(x->res.limits[0].text, "min 1 ns < 2 ns (n=100)");
	fx_free(x);
}
END_TEST

START_TEST(just_above_bound_fails)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 999.999, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	fx_free(x);
}
END_TEST

START_TEST(cycles_limit_uses_cycles)
{
	/* 1 unit = 0.5 ns = 1.5 cycles: max 1000 units = 1500 cycles */
	struct fx *x = fx_new(1000, 0.5, 1.5);
	bound_max(add(x, "max", NULL), 1500, QTY_CYCLES);
	bound_max(add(x, "min", NULL), 1.4, QTY_CYCLES);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert(x->res.limits[0].passed);
	ck_assert_double_eq(x->res.limits[0].measured, 1500);
	ck_assert(!x->res.limits[1].passed);
	ck_assert_ptr_nonnull(strstr(x->res.limits[1].text, "cycles"));
	fx_free(x);
}
END_TEST

START_TEST(cycles_without_tsc_is_error)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1500, QTY_CYCLES);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_ptr_nonnull(strstr(x->res.reason, "TSC"));
	fx_free(x);
}
END_TEST

START_TEST(too_few_samples_is_error_not_pass)
{
	struct fx *x = fx_new(300, 1.0, 0); /* --quick: p99.9 needs 10000 */
	bound_max(add(x, "p99.9", NULL), 1e9, QTY_NS);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert(!x->res.limits[0].evaluated);
	ck_assert(x->res.limits[1].evaluated);
	ck_assert_ptr_nonnull(strstr(x->res.reason, "p99.9 per-op cannot be computed from 300 samples"));
	fx_free(x);
}
END_TEST

START_TEST(percentile_judged)
{
	struct fx *x = fx_new(2000, 1.0, 0);
	bound_max(add(x, "p50", NULL), 1010, QTY_NS);  /* p50 ~ 1000 (+1 bucket) */
	bound_max(add(x, "p99", NULL), 1900, QTY_NS);  /* p99 ~ 1980: fails */
	verdict_judge(&x->res);
	ck_assert(x->res.limits[0].passed);
	ck_assert(!x->res.limits[1].passed);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	fx_free(x);
}
END_TEST

START_TEST(runs_mean_stddev_judged)
{
	/* run means: 250.5 and 750.5 -> sample stddev 353.55 */
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "runs-mean-stddev", NULL), 354, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert_double_eq_tol(x->res.limits[0].measured, 353.553, 1e-3);
	fx_free(x);
}
END_TEST

START_TEST(unknown_metric_is_error)
{
	struct fx *x = fx_new(100, 1.0, 0);
	bound_max(add(x, "max", "jitter"), 1e9, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_ptr_nonnull(strstr(x->res.reason, "no metric 'jitter'"));
	fx_free(x);
}
END_TEST

START_TEST(error_verdict_is_kept)
{
	struct fx *x = fx_new(100, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);
	req_result_error(&x->res, &x->req, &x->file, "timed out after %d s", 3);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(x->res.reason, "timed out after 3 s");
	fx_free(x);
}
END_TEST

START_TEST(verdict_names)
{
	ck_assert_str_eq(verdict_name(VERDICT_PASS), "pass");
	ck_assert_str_eq(verdict_name(VERDICT_FAIL), "fail");
	ck_assert_str_eq(verdict_name(VERDICT_ERROR), "error");
	ck_assert_str_eq(verdict_name(VERDICT_SKIPPED), "skipped");
}
END_TEST

START_TEST(quick_and_overrides_change_counts)
{
	struct requirement r = { .iterations = 2000, .runs = 10, .warmup = 100 };
	struct run_options o = { .quick = true };
	uint64_t it, runs, wu;
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(it, 200);
	ck_assert_uint_eq(runs, 3);
	ck_assert_uint_eq(wu, 10);
	o.iterations_override = 7;
	o.runs_override = 5000; /* capped */
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(it, 7);
	ck_assert_uint_eq(runs, RTC_MAX_RUNS);
	r.iterations = 5;
	o = (struct run_options){ .quick = true };
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(it, 1); /* never zero */

	/* --quick keeps enough samples for a p99 limit (1000 over 3 runs) */
	r.iterations = 2000;
	r.nlimits = 1;
	ck_assert_int_eq(stat_parse("p99", &r.limits[0].stat), 0);
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(runs, 3);
	ck_assert_uint_eq(it, 334);
	/* ... but never more than the file's own count */
	ck_assert_int_eq(stat_parse("p99.99", &r.limits[0].stat), 0);
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(it, 2000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tu_tcase(s, "judge", 10);
	tcase_add_test(tc, all_limits_hold_is_pass);
	tcase_add_test(tc, max_exceeded_is_fail_with_message);
	tcase_add_test(tc, min_bound_below_is_fail);
	tcase_add_test(tc, just_above_bound_fails);
	tcase_add_test(tc, cycles_limit_uses_cycles);
	tcase_add_test(tc, cycles_without_tsc_is_error);
	tcase_add_test(tc, too_few_samples_is_error_not_pass);
	tcase_add_test(tc, percentile_judged);
	tcase_add_test(tc, runs_mean_stddev_judged);
	tcase_add_test(tc, unknown_metric_is_error);
	tcase_add_test(tc, error_verdict_is_kept);
	tcase_add_test(tc, verdict_names);
	tcase_add_test(tc, quick_and_overrides_change_counts);
	return tu_run(s);
}
