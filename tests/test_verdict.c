/* SPDX-License-Identifier: Apache-2.0 */
/* test_verdict.c - verdict_judge() on synthetic results: which limits pass,
 * which fail, the failure text, and when a limit cannot be judged; the
 * runner's classify stage on synthetic ends of a worker (wait statuses,
 * worker states and reasons, load outcomes); and its prepare stage. The
 * order of verdicts, and how far a value lies past a limit. No worker runs
 * (but one whose binary is missing) and nothing is timed. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "base/orderstat.h"
#include "harness/measure/probe.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/timebase.h"
#include "harness/measure/worker.h"
#include "harness/runner.h"
#include "harness/runner_stages.h"
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
	x->res.res = result_alloc_for(&x->res.probe->decl, 0, &x->res.res_bytes);
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
	ck_assert_int_eq(statistic_parse(stat, &l->stat), 0);
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

/* Measured without limits: the verdict stays pass (exit status 0) but what
 * people read does not claim a pass; with limits, or another verdict, the
 * label is the verdict's own. */
START_TEST(no_limits_is_labelled_measured)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert_str_eq(verdict_label_of(x->res.verdict, 0), "measured, no limits");
	ck_assert_str_eq(verdict_name(x->res.verdict), "pass");
	ck_assert_str_eq(verdict_label_of(VERDICT_PASS, 1), "PASS");
	ck_assert_str_eq(verdict_label_of(VERDICT_ERROR, 0), "ERROR");
	ck_assert_str_eq(verdict_label_of(VERDICT_SKIPPED, 0), "SKIP");
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
	/* Each limit keeps its own verdict: the max that held is a pass in
	 * the requirement that is an error, the one not computed an error. */
	ck_assert(x->res.limits[1].passed);
	ck_assert_int_eq(limit_verdict(x->res.verdict, true, true, false), VERDICT_PASS);
	ck_assert_int_eq(limit_verdict(x->res.verdict, true, false, false), VERDICT_FAIL);
	ck_assert_int_eq(limit_verdict(x->res.verdict, false, false, false), VERDICT_ERROR);
	ck_assert_int_eq(limit_verdict(VERDICT_SKIPPED, false, false, false), VERDICT_SKIPPED);
	fx_free(x);
}
END_TEST

/* A limit that failed settles the requirement though another could not be
 * computed (issue 24: exit 1, never 3, for a budget clearly missed); the
 * one that could not keeps its error and says why, in the reason too. */
START_TEST(failed_limit_beside_uncomputable_is_fail)
{
	struct fx *x = fx_new(300, 1.0, 0);
	bound_max(add(x, "p99.9", NULL), 1e9, QTY_NS); /* needs 10000 samples */
	bound_max(add(x, "max", NULL), 100, QTY_NS);   /* max 300 ns: fails */
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert(!x->res.limits[0].evaluated);
	ck_assert(x->res.limits[1].evaluated && !x->res.limits[1].passed);
	ck_assert_int_eq(limit_verdict(x->res.verdict, false, false, false), VERDICT_ERROR);
	ck_assert_str_eq(x->res.reason, "max 300 ns > 100 ns (n=300); "
			 "p99.9 per-op cannot be computed from 300 samples");
	ck_assert_int_eq(verdict_of_limits(true, true, false), VERDICT_FAIL);
	ck_assert_int_eq(verdict_of_limits(true, false, false), VERDICT_ERROR);
	ck_assert_int_eq(verdict_of_limits(false, true, false), VERDICT_FAIL);
	ck_assert_int_eq(verdict_of_limits(false, false, false), VERDICT_PASS);
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

/* The page-faults of n runs, as the worker records a count: the run's
 * count is its one sample. */
static void faults(struct fx *x, const uint64_t *per_run, uint32_t n)
{
	unsigned mi = (unsigned)x->res.probe->decl.nmetrics + HM_PAGE_FAULTS;
	struct metric_data *m = result_metric(x->res.res, mi);
	ck_assert_int_eq(m->kind, METRIC_COUNT);
	for (uint32_t r = 0; r < n; r++) {
		m->runs[r].sum = per_run[r];
		m->runs[r].count = 1;
		hist_record(&m->hist, per_run[r]);
	}
}

START_TEST(count_limits_judged)
{
	static const uint64_t runs[] = { 0, 3, 1 };
	struct fx *x = fx_new(100, 1.0, 0);
	faults(x, runs, 3);
	bound_max(add(x, "total", "page-faults"), 0, QTY_COUNT);  /* 4: fails */
	bound_max(add(x, "max", "page-faults"), 3, QTY_COUNT);    /* worst run 3: holds */
	bound_max(add(x, "mean", "page-faults"), 1.5, QTY_COUNT); /* 1.333: holds */
	bound_min(add(x, "min", "page-faults"), 1, QTY_COUNT);    /* best run 0: fails */
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);              /* the duration beside it */
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert_str_eq(x->res.limits[0].text, "total 4 > 0 (3 runs)");
	ck_assert_double_eq(x->res.limits[0].measured, 4);
	ck_assert_str_eq(x->res.limits[1].text, "max 3 <= 3 (3 runs)");
	ck_assert(x->res.limits[2].passed);
	ck_assert_double_eq_tol(x->res.limits[2].measured, 4.0 / 3.0, 1e-12);
	ck_assert_str_eq(x->res.limits[3].text, "min 0 < 1 (3 runs)");
	ck_assert(x->res.limits[4].passed);
	ck_assert_str_eq(x->res.reason, "total 4 > 0 (3 runs); min 0 < 1 (3 runs)");
	fx_free(x);

	/* no faults at all: total <= 0 holds */
	static const uint64_t none[] = { 0, 0 };
	x = fx_new(100, 1.0, 0);
	faults(x, none, 2);
	bound_max(add(x, "total", "page-faults"), 0, QTY_COUNT);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert_str_eq(x->res.limits[0].text, "total 0 <= 0 (2 runs)");
	fx_free(x);
}
END_TEST

/* sem-pingpong's unanswered-waits is a violation metric: its limit (the
 * one rtconform adds, total <= 0) fails as a conformance violation, and the
 * text quotes the probe's words on the first; a count limit on a metric
 * that is none (page-faults) keeps its plain text. */
START_TEST(violation_metric_named)
{
	struct fx *x = fx_new(100, 1.0, 0);
	int mi = probe_decl_metric_index(&x->res.probe->decl, "unanswered-waits");
	ck_assert_int_ge(mi, 0);
	ck_assert(x->res.probe->decl.violation_metrics & (1u << mi));
	struct metric_data *m = result_metric(x->res.res, (unsigned)mi);
	static const uint64_t per_run[] = { 3, 0 };
	for (uint32_t r = 0; r < 2; r++) {
		m->runs[r].sum = per_run[r];
		m->runs[r].count = 1;
		hist_record(&m->hist, per_run[r]);
	}
	snprintf(x->res.res->violation, sizeof x->res.res->violation,
		 "run 1, round trip 8 of 50: the peer's sem_wait (posix-sem) returned "
		 "without the worker's post");
	bound_max(add(x, "total", "unanswered-waits"), 0, QTY_COUNT);
	faults(x, (const uint64_t[]){ 1, 0 }, 2);
	bound_max(add(x, "total", "page-faults"), 0, QTY_COUNT);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert_str_eq(x->res.limits[0].text,
			 "unanswered-waits total 3 > 0 (2 runs): a conformance violation of the "
			 "system under test; the first: run 1, round trip 8 of 50: the peer's "
			 "sem_wait (posix-sem) returned without the worker's post");
	ck_assert_str_eq(x->res.limits[1].text, "total 1 > 0 (2 runs)");
	fx_free(x);

	/* none counted: the limit holds, plainly */
	x = fx_new(100, 1.0, 0);
	m = result_metric(x->res.res, (unsigned)mi);
	for (uint32_t r = 0; r < 2; r++) {
		m->runs[r].count = 1;
		hist_record(&m->hist, 0);
	}
	bound_max(add(x, "total", "unanswered-waits"), 0, QTY_COUNT);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert_str_eq(x->res.limits[0].text, "total 0 <= 0 (2 runs)");
	fx_free(x);
}
END_TEST

/* What the validator refuses in a file cannot slip through as a pass when
 * a library caller builds the limit itself: an error, saying why. */
START_TEST(count_limit_mismatch_is_error)
{
	static const uint64_t runs[] = { 0, 0 };
	struct fx *x = fx_new(100, 1.0, 0);
	faults(x, runs, 2);
	bound_max(add(x, "total", "page-faults"), 0, QTY_NS);    /* a unit on a count */
	bound_max(add(x, "max", "per-op"), 5000, QTY_COUNT);     /* none on a duration */
	bound_max(add(x, "p99", "page-faults"), 0, QTY_COUNT);   /* no percentile of a count */
	bound_max(add(x, "total", "per-op"), 1e9, QTY_NS);       /* no total of a duration */
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(!x->res.limits[i].evaluated, "limit %d was judged: %s", i,
			      x->res.limits[i].text);
	ck_assert_str_eq(x->res.limits[0].text,
			 "metric page-faults is a count: the limit's bounds must have no unit");
	ck_assert_str_eq(x->res.limits[1].text,
			 "metric per-op is a duration: the limit's bounds need a unit");
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

/* The order of verdicts is that of their exit statuses' precedence: an
 * error outranks a failure, which outranks an inconclusive limit, which
 * outranks a pass; a skip judges nothing. */
START_TEST(verdict_order_is_the_exit_status_order)
{
	ck_assert_int_lt(verdict_rank(VERDICT_PASS), verdict_rank(VERDICT_INCONCLUSIVE));
	ck_assert_int_lt(verdict_rank(VERDICT_INCONCLUSIVE), verdict_rank(VERDICT_FAIL));
	ck_assert_int_lt(verdict_rank(VERDICT_FAIL), verdict_rank(VERDICT_ERROR));
	ck_assert_int_lt(verdict_rank(VERDICT_SKIPPED), verdict_rank(VERDICT_PASS));
	ck_assert_int_eq(verdict_rank(VERDICT_ERROR), EXIT_NOT_MEASURED);
}
END_TEST

/* How far a value lies past its limit, relative to the bound: positive
 * exactly when the limit fails, and larger the further it misses. */
START_TEST(limit_excess_ranks_the_miss)
{
	/* 845 us against max 300 us misses by 1.82 x the bound; 2.5 us within
	 * max 50 us has a margin of 95 % */
	ck_assert(fabs(limit_excess(845e3, false, 0, true, 300e3) - 545.0 / 300) < 1e-12);
	ck_assert(fabs(limit_excess(2.5e3, false, 0, true, 50e3) + 0.95) < 1e-12);
	ck_assert(limit_excess(300, false, 0, true, 300) == 0);
	/* a min: below it is past it */
	ck_assert(fabs(limit_excess(50, true, 100, false, 0) - 0.5) < 1e-12);
	ck_assert(fabs(limit_excess(150, true, 100, false, 0) + 0.5) < 1e-12);
	/* both bounds: the one missed, else the nearer one's margin */
	ck_assert(fabs(limit_excess(250, true, 100, true, 200) - 0.25) < 1e-12);
	ck_assert(fabs(limit_excess(180, true, 100, true, 200) + 0.1) < 1e-12);
	/* a bound of 0 (a count that must never happen) */
	ck_assert(isinf(limit_excess(1, false, 0, true, 0)) && limit_excess(1, false, 0, true, 0) > 0);
	ck_assert(limit_excess(0, false, 0, true, 0) == 0);
	/* positive exactly when limit_holds fails */
	static const double vals[] = { -5, 0, 1, 99.9, 100, 100.1, 199, 200, 200.5, 1e9 };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
		for (int b = 1; b < 4; b++) {
			bool mn = b & 1, mx = b & 2;
			ck_assert_msg((limit_excess(vals[i], mn, 100, mx, 200) > 0) ==
				      !limit_holds(vals[i], mn, 100, mx, 200), "v %g bounds %d",
				      vals[i], b);
		}
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
	ck_assert_int_eq(statistic_parse("p99", &r.limits[0].stat), 0);
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(runs, 3);
	ck_assert_uint_eq(it, 334);
	/* ... but never more than the file's own count */
	ck_assert_int_eq(statistic_parse("p99.99", &r.limits[0].stat), 0);
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(it, 2000);
}
END_TEST


/* ---- classify: how a worker ended, as a verdict ------------------------ */

/* A worker of x that ran `done` of 3 runs and reached `state`, then ended
 * with wait status `status` (built as the kernel encodes it). */
static struct worker_end ended(struct fx *x, int status, uint32_t done, enum worker_state state)
{
	x->req.timeout_ns = 500000000ull; /* 0.5 s */
	x->res.res->runs_done = done;
	x->res.res->state = state;
	return (struct worker_end){ .status = status };
}

#define EXITED(code) W_EXITCODE(code, 0)
#define KILLED(sig) W_EXITCODE(0, sig)

START_TEST(classify_clean_exit_is_judged)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);
	struct worker_end e = ended(x, EXITED(0), 3, WS_DONE);
	runner_classify(&x->res, 3, &e);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert(x->res.limits[0].evaluated);

	/* the limits decide, not the exit: the same end with a tight limit fails */
	struct fx *y = fx_new(1000, 1.0, 0);
	bound_max(add(y, "max", NULL), 10, QTY_NS);
	e = ended(y, EXITED(0), 3, WS_DONE);
	runner_classify(&y->res, 3, &e);
	ck_assert_int_eq(y->res.verdict, VERDICT_FAIL);
	ck_assert_str_eq(y->res.reason, "max 1 us > 10 ns (n=1000)");
	fx_free(x);
	fx_free(y);
}
END_TEST

START_TEST(classify_segv_is_error_with_signal_and_progress)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS); /* would pass */
	x->res.policy = SCHED_OTHER;
	struct worker_end e = ended(x, KILLED(SIGSEGV), 1, WS_MEASURING);
	runner_classify(&x->res, 3, &e);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(x->res.reason,
			 "worker killed by signal 11 (Segmentation fault) after 1 of 3 runs");
	ck_assert(!x->res.limits[0].evaluated); /* never judged */

	/* what the worker said before it died follows */
	struct fx *y = fx_new(10, 1.0, 0);
	snprintf(y->res.res->reason, sizeof y->res.res->reason, "peer: futex wait: EINTR");
	e = ended(y, KILLED(SIGABRT), 0, WS_WARMUP);
	runner_classify(&y->res, 3, &e);
	ck_assert_str_eq(y->res.reason, "worker killed by signal 6 (Aborted) after 0 of 3 runs: "
			 "peer: futex wait: EINTR");
	fx_free(x);
	fx_free(y);
}
END_TEST

/* A SIGKILL is blamed on RLIMIT_RTTIME only for a real-time worker that
 * used the CPU time the limit allows (its timeout and the 1 s grace);
 * otherwise it came from outside, and the reason says so with the times. */
START_TEST(classify_sigkill_names_rttime_only_for_realtime)
{
	struct fx *x = fx_new(10, 1.0, 0);
	x->res.policy = SCHED_FIFO;
	struct worker_end e = ended(x, KILLED(SIGKILL), 2, WS_MEASURING);
	e.cpu_s = 1.6; /* timeout 0.5 s + 1 s grace: the hard limit */
	e.wall_s = 1.6;
	runner_classify(&x->res, 3, &e);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_msg(strstr(x->res.reason, "signal 9 (Killed) (RLIMIT_RTTIME: it ran 1.6 s "
			     "without blocking") && strstr(x->res.reason, "after 2 of 3 runs"),
		      "%s", x->res.reason);

	/* killed from outside 0.2 s in, real-time or not */
	for (int pol = 0; pol < 2; pol++) {
		struct fx *y = fx_new(10, 1.0, 0);
		y->res.policy = pol ? SCHED_FIFO : SCHED_OTHER;
		e = ended(y, KILLED(SIGKILL), 2, WS_MEASURING);
		e.cpu_s = 0.1;
		e.wall_s = 0.2;
		runner_classify(&y->res, 3, &e);
		ck_assert_msg(strstr(y->res.reason, "signal 9 (Killed) from outside rtconform 0.2 s "
				     "into its 0.5 s timeout, with 0.10 s of CPU time") &&
			      !strstr(y->res.reason, "RLIMIT_RTTIME"), "%s", y->res.reason);
		fx_free(y);
	}

	/* the CPU time of two threads (or a reaped peer) adds up past the
	 * limit long before a single thread's could: not RLIMIT_RTTIME */
	struct fx *w = fx_new(10, 1.0, 0);
	w->res.policy = SCHED_FIFO;
	e = ended(w, KILLED(SIGKILL), 2, WS_MEASURING);
	e.cpu_s = 1.6;
	e.wall_s = 0.8;
	runner_classify(&w->res, 3, &e);
	ck_assert_msg(strstr(w->res.reason, "from outside rtconform 0.8 s") &&
		      !strstr(w->res.reason, "RLIMIT_RTTIME"), "%s", w->res.reason);
	fx_free(w);

	/* a run by time outlives its timeout (of each run): the kill is
	 * placed in the run by time, never "900 s into its 0.5 s timeout" */
	struct fx *t = fx_new(10, 1.0, 0);
	t->res.policy = SCHED_FIFO;
	t->res.duration_ns = 3600000000000ull;
	e = ended(t, KILLED(SIGKILL), 2, WS_MEASURING);
	e.cpu_s = 0.25;
	e.wall_s = 823.8;
	runner_classify(&t->res, 3, &e);
	ck_assert_msg(strstr(t->res.reason, "from outside rtconform 823.8 s after it began, with "
			     "0.25 s of CPU time") &&
		      strstr(t->res.reason, "after 2 recorded runs of a 3600 s run by time") &&
		      !strstr(t->res.reason, "timeout"), "%s", t->res.reason);
	fx_free(t);

	/* SIGXCPU is RLIMIT_RTTIME's soft limit for a real-time worker */
	struct fx *z = fx_new(10, 1.0, 0);
	z->res.policy = SCHED_RR;
	e = ended(z, KILLED(SIGXCPU), 0, WS_MEASURING);
	runner_classify(&z->res, 3, &e);
	ck_assert_ptr_nonnull(strstr(z->res.reason, "RLIMIT_RTTIME"));
	fx_free(x);
	fx_free(z);
}
END_TEST

START_TEST(classify_timeout_outranks_the_kill)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);
	x->res.policy = SCHED_FIFO;
	/* supervise killed it: the status is SIGKILL, but the timeout is the news */
	struct worker_end e = ended(x, KILLED(SIGKILL), 1, WS_MEASURING);
	e.timed_out = true;
	x->res.seconds = 1.52;
	runner_classify(&x->res, 3, &e);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(x->res.reason, "timed out after 1.52 s (timeout 500 ms; 1 of 3 runs done); "
			 "the worker was killed");
	fx_free(x);
}
END_TEST

/* A timeout under 0.1 s is said in a unit that shows it: "1 ms", never
 * "0.0 s". */
START_TEST(classify_timeout_short)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);
	struct worker_end e = ended(x, KILLED(SIGKILL), 0, WS_MEASURING);
	x->req.timeout_ns = 1000000ull;
	e.timed_out = true;
	x->res.seconds = 0.0012;
	runner_classify(&x->res, 3, &e);
	ck_assert_str_eq(x->res.reason, "timed out after 1.2 ms (timeout 1 ms; 0 of 3 runs done); "
			 "the worker was killed");
	fx_free(x);
}
END_TEST

START_TEST(classify_interrupted)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);
	struct worker_end e = ended(x, KILLED(SIGKILL), 2, WS_MEASURING);
	e.interrupted = true;
	runner_classify(&x->res, 3, &e);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(x->res.reason, "interrupted (after 2 of 3 runs)");
	fx_free(x);
}
END_TEST

START_TEST(classify_worker_reported_failure)
{
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS); /* would pass */
	snprintf(x->res.res->reason, sizeof x->res.res->reason,
		 "mlockall: Operation not permitted");
	struct worker_end e = ended(x, EXITED(1), 0, WS_FAILED);
	runner_classify(&x->res, 3, &e);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(x->res.reason, "mlockall: Operation not permitted");

	/* a clean exit that never reached WS_DONE is no pass either */
	struct fx *y = fx_new(1000, 1.0, 0);
	bound_max(add(y, "max", NULL), 1e9, QTY_NS);
	e = ended(y, EXITED(0), 1, WS_MEASURING);
	runner_classify(&y->res, 3, &e);
	ck_assert_int_eq(y->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(y->res.reason, "worker exited with status 0 after 1 of 3 runs without "
			 "finishing or saying why");

	/* nor does WS_DONE excuse a non-zero exit */
	struct fx *z = fx_new(1000, 1.0, 0);
	e = ended(z, EXITED(3), 3, WS_DONE);
	runner_classify(&z->res, 3, &e);
	ck_assert_int_eq(z->res.verdict, VERDICT_ERROR);
	ck_assert_ptr_nonnull(strstr(z->res.reason, "worker exited with status 3 after 3 of 3"));
	fx_free(x);
	fx_free(y);
	fx_free(z);
}
END_TEST

START_TEST(classify_load_ended_or_stuck)
{
	/* a load that ended early voids a clean finish ... */
	struct fx *x = fx_new(1000, 1.0, 0);
	bound_max(add(x, "max", NULL), 1e9, QTY_NS);
	struct worker_end e = ended(x, EXITED(0), 3, WS_DONE);
	e.load_rc = -ECHILD;
	snprintf(e.load_err, sizeof e.load_err, "stress-ng exited with status 1");
	runner_classify(&x->res, 3, &e);
	ck_assert_int_eq(x->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(x->res.reason, "background load ended during the measurement: "
			 "stress-ng exited with status 1");

	/* ... but a crash is still reported as the crash */
	struct fx *y = fx_new(10, 1.0, 0);
	e = ended(y, KILLED(SIGSEGV), 0, WS_MEASURING);
	e.load_rc = -ECHILD;
	runner_classify(&y->res, 3, &e);
	ck_assert_ptr_nonnull(strstr(y->res.reason, "signal 11"));

	/* a load that would not stop spoils a fail as well as a pass ... */
	struct fx *z = fx_new(1000, 1.0, 0);
	bound_max(add(z, "max", NULL), 10, QTY_NS);
	e = ended(z, EXITED(0), 3, WS_DONE);
	e.load_rc = -EBUSY;
	snprintf(e.load_err, sizeof e.load_err, "group 42 still there");
	runner_classify(&z->res, 3, &e);
	ck_assert_int_eq(z->res.verdict, VERDICT_ERROR);
	ck_assert_str_eq(z->res.reason, "background load could not be stopped: group 42 still there");

	/* ... and leaves an earlier error's reason alone */
	struct fx *w = fx_new(10, 1.0, 0);
	e = ended(w, KILLED(SIGSEGV), 0, WS_MEASURING);
	e.load_rc = -EBUSY;
	runner_classify(&w->res, 3, &e);
	ck_assert_ptr_nonnull(strstr(w->res.reason, "signal 11"));
	fx_free(x);
	fx_free(y);
	fx_free(z);
	fx_free(w);
}
END_TEST

/* ---- prepare, and a worker that cannot be spawned ---------------------- */

/* The supervisor calibrates the timebase before it runs anything. */
static void calibrate(void)
{
	static struct timebase tb;
	char err[300];
	ck_assert_msg(timebase_init(&tb, err, sizeof err) == 0, "timebase: %s", err);
}

START_TEST(prepare_needs_a_timebase)
{
	/* each test runs in its own process: nothing calibrated here */
	struct requirement r = { .id = "R", .probe = "sem-pingpong", .iterations = 10, .runs = 1,
				 .cpu = -1 };
	struct req_file f = { .path = "t.xml" };
	struct req_result out;
	struct runner_job j;
	ck_assert_int_eq(runner_prepare(&r, &f, NULL, &out, &j), -1);
	ck_assert_str_eq(out.reason, "internal error: no timebase");
	ck_assert_ptr_null(out.res);
	calibrate();
	ck_assert_int_eq(runner_prepare(&r, &f, NULL, &out, &j), 0);
	runner_abandon(&j);
	req_result_free(&out);
}
END_TEST

START_TEST(prepare_refuses_unknown_probe)
{
	struct requirement r = { .id = "R", .probe = "no-such-probe", .iterations = 10, .runs = 1 };
	struct req_file f = { .path = "t.xml" };
	struct req_result out;
	struct runner_job j;
	ck_assert_int_eq(runner_prepare(&r, &f, NULL, &out, &j), -1);
	ck_assert_int_eq(out.verdict, VERDICT_ERROR);
	ck_assert_str_eq(out.reason, "unknown probe 'no-such-probe'");
	ck_assert_ptr_null(out.res);
	runner_abandon(&j); /* safe after a failed prepare */
	ck_assert_int_eq(j.res_fd, -1);
}
END_TEST

START_TEST(prepare_stores_the_workers_spec)
{
	struct requirement r = { .id = "R", .probe = "sem-pingpong", .iterations = 2000,
				 .runs = 10, .warmup = 100, .cpu = -1,
				 .timeout_ns = 7000000000ull };
	struct req_file f = { .path = "t.xml" };
	struct run_options o = { .quick = true, .self_dir = "/opt/rtc/bin" };
	struct req_result out;
	struct runner_job j;
	calibrate();
	ck_assert_int_eq(runner_prepare(&r, &f, &o, &out, &j), 0);
	ck_assert_ptr_nonnull(out.res);
	ck_assert_int_ge(j.res_fd, 0);
	ck_assert_int_ne(fcntl(j.res_fd, F_GETFD) & FD_CLOEXEC, 0);
	ck_assert_str_eq(j.worker_path, "/opt/rtc/bin/rtconform-worker");
	uint64_t it, runs, wu;
	runner_counts(&r, &o, &it, &runs, &wu);
	ck_assert_uint_eq(j.c.iterations, it);
	ck_assert_uint_eq(j.c.runs, runs);

	/* the worker rebuilds the same context from the memory alone */
	struct probe_ctx w;
	memset(&w, 0, sizeof w);
	ck_assert_int_eq(worker_ctx_load(&w, out.res), 0);
	ck_assert_ptr_eq(w.probe, out.probe);
	ck_assert_uint_eq(w.iterations, it);
	ck_assert_uint_eq(w.runs, runs);
	ck_assert_uint_eq(w.warmup, wu);
	ck_assert_uint_eq(w.timeout_ns, 7000000000ull);
	ck_assert_str_eq(probe_value(&w, "mechanism"), "posix-sem"); /* the default */

	runner_abandon(&j);
	ck_assert_int_eq(j.res_fd, -1);
	req_result_free(&out);
}
END_TEST

START_TEST(missing_worker_binary_names_the_path)
{
	struct requirement r = { .id = "R", .probe = "sem-pingpong", .iterations = 10,
				 .runs = 1, .cpu = -1, .timeout_ns = 30000000000ull };
	struct req_file f = { .path = "t.xml" };
	struct run_options o = { .self_dir = "/nonexistent/rtc" };
	struct req_result out;
	struct runner_job j;
	calibrate();
	ck_assert_int_eq(runner_prepare(&r, &f, &o, &out, &j), 0);
	ck_assert_int_eq(runner_load_start(&j, &out), 0); /* no load: nothing to do */
	ck_assert_int_eq(runner_spawn(&j, &out), 0);
	ck_assert_int_eq(j.res_fd, -1); /* the supervisor's copy is closed */
	struct worker_end e;
	runner_supervise(&j, &o, &out, &e);
	ck_assert(!e.timed_out && !e.interrupted);
	ck_assert(WIFEXITED(e.status) && WEXITSTATUS(e.status) == 127);
	ck_assert_uint_eq(out.res->state, WS_FAILED); /* the child said it failed */
	runner_classify(&out, j.c.runs, &e);
	ck_assert_int_eq(out.verdict, VERDICT_ERROR);
	ck_assert_str_eq(out.reason, "cannot run the worker /nonexistent/rtc/rtconform-worker: "
			 "No such file or directory (it is built beside rtconform)");
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1); /* nothing left to reap */
	req_result_free(&out);
}
END_TEST

/* ---- supervise: a worker that never ends ------------------------------- */

/* A directory whose rtconform-worker is a script that starts a peer (its
 * pid in DIR/peer) and then sleeps far past any timeout here. */
static char hang_dir[64];

static void hang_setup(void)
{
	snprintf(hang_dir, sizeof hang_dir, "/tmp/rtc-verdict-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(hang_dir));
	char path[128];
	snprintf(path, sizeof path, "%s/rtconform-worker", hang_dir);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fprintf(fp, "#!/bin/sh\nsleep 60 &\necho $! > %s/peer\nexec sleep 60\n", hang_dir);
	fclose(fp);
	ck_assert_int_eq(chmod(path, 0755), 0);
	/* as rtconform's supervisor is: orphaned peers come back to be reaped */
	ck_assert_int_eq(runner_become_supervisor(), 0);
}

static void hang_teardown(void)
{
	tu_rm_tree(hang_dir);
}

struct progress_seen {
	int calls;
	const struct req_result *r;
	uint64_t runs_total;
};

static void count_progress(const struct req_result *r, uint32_t runs_done, uint64_t runs_total,
			   double elapsed_s, void *arg)
{
	struct progress_seen *p = arg;
	(void)runs_done;
	(void)elapsed_s;
	p->calls++;
	p->r = r;
	p->runs_total = runs_total;
}

/* Run a requirement on the hanging worker through every stage. */
static void run_hanging(struct run_options *o, uint64_t timeout_ns, struct req_result *out,
			struct worker_end *e)
{
	static struct requirement r;
	static struct req_file f = { .path = "t.xml" };
	r = (struct requirement){ .id = "R", .probe = "sem-pingpong", .iterations = 10,
				  .runs = 1, .cpu = -1, .timeout_ns = timeout_ns };
	struct runner_job j;
	calibrate();
	o->self_dir = hang_dir;
	ck_assert_int_eq(runner_prepare(&r, &f, o, out, &j), 0);
	ck_assert_int_eq(runner_spawn(&j, out), 0);
	runner_supervise(&j, o, out, e);
	runner_classify(out, j.c.runs, e);
}

/* Nothing of the worker's process group is left: not the worker, not the
 * peer it started (reaped by us as the subreaper). */
static void assert_group_gone(void)
{
	char path[128];
	snprintf(path, sizeof path, "%s/peer", hang_dir);
	FILE *fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "the hanging worker never started its peer");
	int peer = 0;
	ck_assert_int_eq(fscanf(fp, "%d", &peer), 1);
	fclose(fp);
	ck_assert_int_gt(peer, 0);
	ck_assert_msg(kill(peer, 0) == -1 && errno == ESRCH, "peer %d still exists", peer);
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

START_TEST(supervise_kills_on_timeout)
{
	struct progress_seen seen = { 0 };
	struct run_options o = { .progress = count_progress, .progress_arg = &seen };
	struct req_result out;
	struct worker_end e;
	run_hanging(&o, 1000000000ull, &out, &e); /* 1 s */
	ck_assert(e.timed_out && !e.interrupted);
	ck_assert(WIFSIGNALED(e.status) && WTERMSIG(e.status) == SIGKILL);
	ck_assert_double_ge(out.seconds, 1.0);
	ck_assert_double_lt(out.seconds, 50.0); /* long before the worker's own end */
	ck_assert_int_eq(out.verdict, VERDICT_ERROR);
	ck_assert_msg(strstr(out.reason, "(timeout 1 s; 0 of 1 runs done); the worker was killed"),
		      "%s", out.reason);
	ck_assert_int_ge(seen.calls, 1); /* the display was fed while it waited */
	ck_assert_ptr_eq(seen.r, &out);
	ck_assert_uint_eq(seen.runs_total, 1);
	assert_group_gone();
	req_result_free(&out);
}
END_TEST

START_TEST(supervise_stops_on_interrupt)
{
	volatile sig_atomic_t stop = 1; /* already asked to stop */
	struct run_options o = { .interrupted = &stop };
	struct req_result out;
	struct worker_end e;
	run_hanging(&o, 60000000000ull, &out, &e);
	ck_assert(e.interrupted && !e.timed_out);
	ck_assert_double_lt(out.seconds, 50.0); /* not the timeout, not the worker's end */
	ck_assert_str_eq(out.reason, "interrupted (after 0 of 1 runs)");
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1); /* all of it reaped */
	req_result_free(&out);
}
END_TEST

/* The forked worker dies with its supervisor, also when the supervisor died
 * before the death signal was armed: it then sees another parent and goes. */
START_TEST(child_arm_checks_its_parent)
{
	pid_t me = getpid();
	for (int wrong = 0; wrong < 2; wrong++) {
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			runner_child_arm(wrong ? me + 1 : me); /* me + 1: not our parent */
			int sig = 0;
			prctl(PR_GET_PDEATHSIG, &sig);
			_exit(sig == SIGKILL ? 0 : 2);
		}
		int st;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert(WIFEXITED(st));
		ck_assert_int_eq(WEXITSTATUS(st), wrong ? 1 : 0);
	}
}
END_TEST

/* A requirement's verdict is that of its heaviest limit: limit_weight
 * orders limit verdicts as verdict_of_limits combines them, for every mix
 * of failed, unevaluated and passed limits. */
START_TEST(limit_weight_is_verdict_of_limits_order)
{
	for (int mask = 0; mask < 16; mask++) {
		bool fail = mask & 1, error = mask & 2, pass = mask & 4, undecided = mask & 8;
		enum verdict heaviest = VERDICT_PASS;
		int w = -1;
		const struct {
			bool on;
			enum verdict v;
		} has[] = { { fail, VERDICT_FAIL }, { error, VERDICT_ERROR }, { pass, VERDICT_PASS },
			    { undecided, VERDICT_INCONCLUSIVE } };
		for (size_t i = 0; i < 4; i++)
			if (has[i].on && limit_weight(has[i].v) > w) {
				w = limit_weight(has[i].v);
				heaviest = has[i].v;
			}
		ck_assert_int_eq(verdict_of_limits(error, fail, undecided), heaviest);
	}
	ck_assert_int_lt(limit_weight(VERDICT_SKIPPED), limit_weight(VERDICT_PASS));
}
END_TEST

/* ---- confidence= (docs/requirements.md, "Confidence") ------------------ */

/* A requirement whose metric holds n samples spread evenly up to top_ns:
 * sample k (1..n) is k * top_ns / n ns, rounded down; one tick = 1 ns. */
static struct fx *fx_ramp(uint64_t n, uint64_t top_ns)
{
	struct fx *x = fx_new(0, 1.0, 0);
	struct metric_data *m = result_metric(x->res.res, 0);
	for (uint64_t k = 1; k <= n; k++) {
		uint64_t v = k * top_ns / n;
		hist_record(&m->hist, v);
		m->runs[0].count++;
		m->runs[0].sum += v;
	}
	x->req.runs = 1;
	x->req.iterations = n;
	return x;
}

/* p90 <= max at 95 %, on n samples up to top_ns: the limit's outcome. */
static struct fx *judge_p90(uint64_t n, uint64_t top_ns, double max_ns, double confidence)
{
	struct fx *x = fx_ramp(n, top_ns);
	struct req_limit *l = add(x, "p90", NULL);
	bound_max(l, max_ns, QTY_NS);
	l->confidence = confidence;
	verdict_judge(&x->res);
	return x;
}

/* The same limit, p90 <= 185 us at 95 %, passes, fails or cannot be
 * decided by what the samples show: 200 samples up to 200 us put p90 at
 * 180 us but its interval (about 170..189 us) reaches past 185 us; 2000 of
 * the same shape narrow it to about 177..183 us: pass; 2000 up to 210 us
 * put all of it above: fail. Without confidence= the 200 samples pass on
 * the point estimate, as before. */
START_TEST(confidence_decides_by_samples)
{
	struct fx *x = judge_p90(200, 200000, 185000, 0.95);
	ck_assert_int_eq(x->res.verdict, VERDICT_INCONCLUSIVE);
	struct limit_outcome *o = &x->res.limits[0];
	ck_assert(o->evaluated && o->undecided && !o->passed);
	ck_assert(o->has_lo && o->has_hi);
	ck_assert_double_lt(o->lo, 180000);
	ck_assert_double_gt(o->hi, 185000);
	ck_assert_double_le(o->lo, o->measured);
	ck_assert_double_ge(o->hi, o->measured);
	ck_assert_int_eq(limit_verdict(x->res.verdict, o->evaluated, o->passed, o->undecided),
			 VERDICT_INCONCLUSIVE);
	/* 184 of 200 samples (0.92) lie at or below 185 us */
	uint64_t need = os_samples_to_pass(0.9, 0.95, 184.0 / 200);
	ck_assert_uint_eq(o->need, need);
	ck_assert_uint_gt(need, 200);
	char want[64];
	snprintf(want, sizeof want, "not enough samples to decide: need about %llu",
		 (unsigned long long)need);
	ck_assert_ptr_nonnull(strstr(o->text, want));
	ck_assert_ptr_nonnull(strstr(o->text, "95% interval ["));
	ck_assert_ptr_nonnull(strstr(x->res.reason, want)); /* why, in the reason */
	fx_free(x);

	/* As many samples as it said, of the same shape: decided, pass. */
	x = judge_p90(need, 200000, 185000, 0.95);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert(x->res.limits[0].passed && !x->res.limits[0].undecided);
	ck_assert_ptr_nonnull(strstr(x->res.limits[0].text, "<= max 185 us: passes"));
	fx_free(x);

	x = judge_p90(2000, 200000, 185000, 0.95);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert_double_le(x->res.limits[0].hi, 185000);
	fx_free(x);

	x = judge_p90(2000, 210000, 185000, 0.95);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert_double_gt(x->res.limits[0].lo, 185000);
	ck_assert_ptr_nonnull(strstr(x->res.limits[0].text, "> max 185 us: fails"));
	fx_free(x);

	/* Without confidence=: today's point estimate, 180 us <= 185 us. */
	x = judge_p90(200, 200000, 185000, 0);
	ck_assert_int_eq(x->res.verdict, VERDICT_PASS);
	ck_assert(!x->res.limits[0].undecided);
	ck_assert_ptr_null(strstr(x->res.limits[0].text, "interval"));
	fx_free(x);
	/* ... and 200 samples up to 210 us (p90 189 us) fail on it, where at
	 * 95 % they are inconclusive (interval about 179..199 us). */
	x = judge_p90(200, 210000, 185000, 0);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	fx_free(x);
	x = judge_p90(200, 210000, 185000, 0.95);
	ck_assert_int_eq(x->res.verdict, VERDICT_INCONCLUSIVE);
	/* the estimate misses: how many samples would show the miss, were
	 * 176 of 200 at or below 185 us: the miss shows once the lower bound,
	 * a bucket's lower edge, is above 185 us, so the bucket that holds the
	 * 176th, 184.8 us, and reaches past 185 us counts as at or below (its
	 * lower edge is); counting it as above (175) said too few */
	ck_assert_uint_eq(x->res.limits[0].need,
			  os_samples_to_fail(0.9, 0.95, 176.0 / 200));
	fx_free(x);
	/* A limit inside the estimate's own bucket (p90 180 us, buckets of
	 * 1024 ns there): no count of samples of this shape decides it, and
	 * the sentence says so in the words every inconclusive one begins. */
	x = judge_p90(200, 200000, 180000, 0.95);
	ck_assert_int_eq(x->res.verdict, VERDICT_INCONCLUSIVE);
	ck_assert_uint_eq(x->res.limits[0].need, 0);
	ck_assert_ptr_nonnull(strstr(x->res.limits[0].text, "not enough samples to decide, and "
						     "no number would: the estimate sits at the "
						     "limit"));
	fx_free(x);
}
END_TEST

/* A min bound the other way round, and a higher level widens the
 * interval: p10 of 2000 samples up to 200 us is 20 us, its 95 % interval
 * about 17.3..22.9 us (ranks 174 and 227, and the buckets' edges). */
START_TEST(confidence_min_bound_and_level)
{
	const struct {
		double min_ns, level;
		enum verdict want;
	} cases[] = {
		{ 15000, 0.95, VERDICT_PASS },        /* lo >= min */
		{ 20000, 0.95, VERDICT_INCONCLUSIVE },
		{ 25000, 0.95, VERDICT_FAIL },        /* hi < min */
		{ 17000, 0.95, VERDICT_PASS },
		{ 17000, 0.999, VERDICT_INCONCLUSIVE }, /* 99.9 %: wider, reaches below */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fx *x = fx_ramp(2000, 200000);
		struct req_limit *l = add(x, "p10", NULL);
		bound_min(l, cases[i].min_ns, QTY_NS);
		l->confidence = cases[i].level;
		verdict_judge(&x->res);
		ck_assert_msg(x->res.verdict == cases[i].want, "case %zu: %s (%s)", i,
			      verdict_name(x->res.verdict), x->res.limits[0].text);
		fx_free(x);
	}
}
END_TEST

/* The rule on an interval, and a requirement's verdict of several limits:
 * a failure outranks an undecided limit, which outranks a pass. */
START_TEST(confidence_interval_rule)
{
	/* max 100 */
	ck_assert_int_eq(limit_call_interval(true, 90, true, 100, false, 0, true, 100), LIMIT_HOLDS);
	ck_assert_int_eq(limit_call_interval(true, 90, true, 101, false, 0, true, 100),
			 LIMIT_UNDECIDED);
	ck_assert_int_eq(limit_call_interval(true, 101, true, 120, false, 0, true, 100),
			 LIMIT_MISSED);
	ck_assert_int_eq(limit_call_interval(true, 100, true, 120, false, 0, true, 100),
			 LIMIT_UNDECIDED); /* lo at the bound: not past it */
	/* too few samples for an upper bound: never a pass */
	ck_assert_int_eq(limit_call_interval(true, 10, false, 0, false, 0, true, 100),
			 LIMIT_UNDECIDED);
	ck_assert_int_eq(limit_call_interval(false, 0, false, 0, false, 0, true, 100),
			 LIMIT_UNDECIDED);
	/* min 10 */
	ck_assert_int_eq(limit_call_interval(true, 10, true, 20, true, 10, false, 0), LIMIT_HOLDS);
	ck_assert_int_eq(limit_call_interval(true, 9, true, 20, true, 10, false, 0),
			 LIMIT_UNDECIDED);
	ck_assert_int_eq(limit_call_interval(true, 1, true, 9, true, 10, false, 0), LIMIT_MISSED);
	/* both: missed when either is */
	ck_assert_int_eq(limit_call_interval(true, 5, true, 9, true, 10, true, 100), LIMIT_MISSED);
	ck_assert_int_eq(limit_call_interval(true, 50, true, 60, true, 10, true, 100), LIMIT_HOLDS);

	/* A requirement with a failed, an undecided and a passed limit fails;
	 * without the failure it is inconclusive. */
	struct fx *x = fx_ramp(200, 200000);
	struct req_limit *l = add(x, "p90", NULL);
	bound_max(l, 185000, QTY_NS);
	l->confidence = 0.95;
	bound_max(add(x, "max", NULL), 300000, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_INCONCLUSIVE);
	bound_max(add(x, "mean", NULL), 50000, QTY_NS);
	verdict_judge(&x->res);
	ck_assert_int_eq(x->res.verdict, VERDICT_FAIL);
	ck_assert_ptr_null(strstr(x->res.reason, "not enough samples")); /* the failure says why */
	fx_free(x);

	ck_assert_int_eq(verdict_exit_status(0, 0, 0), EXIT_PASS);
	ck_assert_int_eq(verdict_exit_status(0, 0, 1), EXIT_INCONCLUSIVE);
	ck_assert_int_eq(verdict_exit_status(1, 0, 1), EXIT_FAILED);
	ck_assert_int_eq(verdict_exit_status(1, 1, 1), EXIT_NOT_MEASURED);
	ck_assert_int_eq(EXIT_INCONCLUSIVE, 4);
	ck_assert_str_eq(verdict_name(VERDICT_INCONCLUSIVE), "inconclusive");
	ck_assert_str_eq(verdict_label(VERDICT_INCONCLUSIVE), "INCONCLUSIVE");
	enum verdict v;
	ck_assert(verdict_parse("inconclusive", &v) && v == VERDICT_INCONCLUSIVE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tu_tcase(s, "judge", 10);
	tcase_add_test(tc, all_limits_hold_is_pass);
	tcase_add_test(tc, violation_metric_named);
	tcase_add_test(tc, no_limits_is_labelled_measured);
	tcase_add_test(tc, max_exceeded_is_fail_with_message);
	tcase_add_test(tc, min_bound_below_is_fail);
	tcase_add_test(tc, just_above_bound_fails);
	tcase_add_test(tc, cycles_limit_uses_cycles);
	tcase_add_test(tc, cycles_without_tsc_is_error);
	tcase_add_test(tc, too_few_samples_is_error_not_pass);
	tcase_add_test(tc, failed_limit_beside_uncomputable_is_fail);
	tcase_add_test(tc, percentile_judged);
	tcase_add_test(tc, runs_mean_stddev_judged);
	tcase_add_test(tc, unknown_metric_is_error);
	tcase_add_test(tc, error_verdict_is_kept);
	tcase_add_test(tc, count_limits_judged);
	tcase_add_test(tc, count_limit_mismatch_is_error);
	tcase_add_test(tc, verdict_names);
	tcase_add_test(tc, verdict_order_is_the_exit_status_order);
	tcase_add_test(tc, limit_excess_ranks_the_miss);
	tcase_add_test(tc, limit_weight_is_verdict_of_limits_order);
	tcase_add_test(tc, quick_and_overrides_change_counts);
	tcase_add_test(tc, confidence_decides_by_samples);
	tcase_add_test(tc, confidence_min_bound_and_level);
	tcase_add_test(tc, confidence_interval_rule);
	TCase *cl = tu_tcase(s, "classify", 10);
	tcase_add_test(cl, classify_clean_exit_is_judged);
	tcase_add_test(cl, classify_segv_is_error_with_signal_and_progress);
	tcase_add_test(cl, classify_sigkill_names_rttime_only_for_realtime);
	tcase_add_test(cl, classify_timeout_outranks_the_kill);
	tcase_add_test(cl, classify_timeout_short);
	tcase_add_test(cl, classify_interrupted);
	tcase_add_test(cl, classify_worker_reported_failure);
	tcase_add_test(cl, classify_load_ended_or_stuck);
	TCase *pr = tu_tcase(s, "prepare", 10);
	tcase_add_test(pr, prepare_refuses_unknown_probe);
	tcase_add_test(pr, prepare_needs_a_timebase);
	tcase_add_test(pr, prepare_stores_the_workers_spec);
	tcase_add_test(pr, missing_worker_binary_names_the_path);
	tcase_add_test(pr, child_arm_checks_its_parent);
	TCase *sv = tu_tcase(s, "supervise", 60);
	tcase_add_checked_fixture(sv, hang_setup, hang_teardown);
	tcase_add_test(sv, supervise_kills_on_timeout);
	tcase_add_test(sv, supervise_stops_on_interrupt);
	return tu_run(s);
}
