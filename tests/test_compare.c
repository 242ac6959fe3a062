/* test_compare.c - the rule of `rtconform compare` on views made by hand:
 * every per-run figure is chosen, so each outcome is known. Same, better and
 * worse by the tolerance and by the runs' spread; one wild run does not
 * decide; a figure whose only limit is a minimum is worse when it falls; a
 * count of violations that appears is worse; what cannot be compared is
 * refused with the reason; and the three reports render it.
 */
#include <check.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/compare.h"
#include "test_util.h"

#define NRUNS 5

/* A duration metric whose runs have these means and maxima (ns); its
 * statistics of all samples are the runs' mean and largest maximum. */
static void duration(struct rv_metric *m, const char *name, const double *means,
		     const double *maxima, size_t runs)
{
	memset(m, 0, sizeof *m);
	m->name = strdup(name);
	m->kind = METRIC_DURATION;
	m->ns_per_unit = 1;
	m->nruns = runs;
	m->run_count = calloc(runs, sizeof *m->run_count);
	m->run_mean_ns = calloc(runs, sizeof *m->run_mean_ns);
	m->run_max_ns = calloc(runs, sizeof *m->run_max_ns);
	double sum = 0, top = 0;
	for (size_t k = 0; k < runs; k++) {
		m->run_count[k] = 1000;
		m->run_mean_ns[k] = (struct rv_value){ true, means[k] };
		m->run_max_ns[k] = (struct rv_value){ true, maxima[k] };
		sum += means[k];
		top = fmax(top, maxima[k]);
	}
	m->count = 1000 * runs;
	m->ns[RV_MEAN] = (struct rv_value){ true, sum / (double)runs };
	m->ns[RV_MAX] = (struct rv_value){ true, top };
	m->ns[RV_P99] = (struct rv_value){ true, top * 0.5 };
	m->buckets = calloc(2, sizeof *m->buckets);
	m->buckets[0] = (struct rv_bucket){ (uint64_t)(sum / runs), (uint64_t)(sum / runs), 990 };
	m->buckets[1] = (struct rv_bucket){ (uint64_t)top, (uint64_t)top, 10 };
	m->nbuckets = 2;
}

static void count_metric(struct rv_metric *m, const char *name, const uint64_t *per_run,
			 size_t runs)
{
	memset(m, 0, sizeof *m);
	m->name = strdup(name);
	m->kind = METRIC_COUNT;
	m->nruns = runs;
	m->run_count = calloc(runs, sizeof *m->run_count);
	uint64_t total = 0;
	for (size_t k = 0; k < runs; k++)
		total += (m->run_count[k] = per_run[k]);
	m->counts[RVC_TOTAL] = (struct rv_value){ true, (double)total };
}

static void limit(struct rv_req *r, const char *metric, const char *stat, bool has_min,
		  bool has_max, bool cycles)
{
	r->limits = realloc(r->limits, (r->nlimits + 1) * sizeof *r->limits);
	struct rv_limit *l = &r->limits[r->nlimits++];
	memset(l, 0, sizeof *l);
	l->metric = strdup(metric);
	l->statistic = strdup(stat);
	l->has_min = has_min;
	l->has_max = has_max;
	l->cycles = cycles;
}

/* A view of one file with one measured requirement: per-op with these
 * runs, a limit on its mean (max=), and a violations count. */
static void view(struct report_view *v, const char *id, const double *means,
		 const double *maxima, const uint64_t *violations)
{
	memset(v, 0, sizeof *v);
	fingerprint_add(&v->env, "host.name", "bench");
	fingerprint_add(&v->env, "rtconform.version", "test");
	v->files = calloc(1, sizeof *v->files);
	v->nfiles = 1;
	struct rv_file *f = &v->files[0];
	f->name = strdup("profile");
	f->path = strdup("profile.xml");
	f->sha256 = strdup("00");
	f->reqs = calloc(1, sizeof *f->reqs);
	f->nreqs = 1;
	struct rv_req *r = &f->reqs[0];
	r->id = strdup(id);
	r->probe = strdup("sem-pingpong");
	r->policy = strdup("fifo:99");
	r->cpu = -1;
	r->measured = true;
	r->runs = NRUNS;
	r->metrics = calloc(2, sizeof *r->metrics);
	r->nmetrics = 2;
	duration(&r->metrics[0], "per-op", means, maxima, NRUNS);
	count_metric(&r->metrics[1], "violations", violations, NRUNS);
	limit(r, "per-op", "mean", false, true, false);
	limit(r, "violations", "total", false, true, false);
	r->limits[0].measured = r->metrics[0].ns[RV_MEAN];
	r->limits[1].measured = r->metrics[1].counts[RVC_TOTAL];
}

static const double steady[NRUNS] = { 1000, 1010, 990, 1005, 995 };
static const double steady_max[NRUNS] = { 5000, 5200, 4900, 5100, 5050 };
static const uint64_t none[NRUNS] = { 0 };

static const struct cmp_figure *fig(const struct cmp_result *r, const char *metric,
				    const char *stat)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].metric, metric) && !strcmp(r->f[i].statistic, stat))
			return &r->f[i];
	ck_abort_msg("no figure %s %s", metric, stat);
	return NULL;
}

/* Compare base with cand at tolerance; 0 or the error. */
static int run_cmp(struct report_view *b, struct report_view *c, double tol, struct cmp_result *r,
		   char *err)
{
	return cmp_views(b, c, tol, r, err, 600);
}

static void scaled(double *out, const double *in, double k)
{
	for (int i = 0; i < NRUNS; i++)
		out[i] = in[i] * k;
}

START_TEST(same_runs_are_the_same)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", steady, steady_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	/* per-op mean, max (the mean limited), violations total */
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.same, 3);
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "mean");
	ck_assert(m->limited && m->typical);
	ck_assert(fabs(m->base - 1000) < 1e-9); /* the median run's mean */
	ck_assert(fig(&r, "violations", "total")->limited);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(three_times_slower_is_worse)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double m3[NRUNS], x3[NRUNS];
	scaled(m3, steady, 3);
	scaled(x3, steady_max, 3);
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", m3, x3, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_int_eq(fig(&r, "per-op", "mean")->outcome, CMP_WORSE);
	ck_assert_int_eq(fig(&r, "per-op", "max")->outcome, CMP_WORSE);
	ck_assert_uint_eq(r.worse, 2);
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	cmp_result_free(&r);
	/* and the other way round, better */
	ck_assert_int_eq(run_cmp(&c, &b, 0.5, &r, err), 0);
	ck_assert_int_eq(fig(&r, "per-op", "mean")->outcome, CMP_BETTER);
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(tolerance_decides_for_steady_runs)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double m13[NRUNS];
	scaled(m13, steady, 1.3);
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", m13, steady_max, none);
	/* +30 %: well beyond the runs' spread (about 1 %), within 50 % */
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_int_eq(fig(&r, "per-op", "mean")->outcome, CMP_SAME);
	cmp_result_free(&r);
	/* ... and beyond 10 % */
	ck_assert_int_eq(run_cmp(&b, &c, 0.1, &r, err), 0);
	ck_assert_int_eq(fig(&r, "per-op", "mean")->outcome, CMP_WORSE);
	ck_assert(fabs(fig(&r, "per-op", "mean")->allowed - 100) < 1e-9);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(spread_decides_for_noisy_runs)
{
	/* Runs that differ among themselves by about 40 %: +50 % is beyond a
	 * 10 % tolerance but not beyond three times their spread (the larger,
	 * the candidate's). */
	static const double noisy[NRUNS] = { 1000, 1400, 700, 1200, 900 };
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double up[NRUNS];
	scaled(up, noisy, 1.5);
	view(&b, "A", noisy, steady_max, none);
	view(&c, "A", up, steady_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.1, &r, err), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "mean");
	ck_assert_int_eq(m->outcome, CMP_SAME);
	ck_assert(m->allowed > 0.1 * m->base);
	ck_assert(m->spread_cand > m->spread_base);
	cmp_result_free(&r);
	/* four times (the runs as noisy as the baseline's) is beyond it */
	for (int i = 0; i < NRUNS; i++)
		up[i] = noisy[i] + 3000;
	report_view_free(&c);
	view(&c, "A", up, steady_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.1, &r, err), 0);
	ck_assert_int_eq(fig(&r, "per-op", "mean")->outcome, CMP_WORSE);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(one_wild_run_does_not_decide)
{
	/* One run of the candidate met a burst of load: its largest sample is
	 * 40 times the others'. The typical run's maximum did not move. */
	static const double wild_max[NRUNS] = { 5000, 200000, 4900, 5100, 5050 };
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", steady, wild_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "max");
	ck_assert_int_eq(m->outcome, CMP_SAME);
	ck_assert(fabs(m->cand - 5050) < 1e-9);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(lower_is_worse_under_a_minimum)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double low[NRUNS];
	scaled(low, steady, 0.3);
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", low, steady_max, none);
	/* the mean limit becomes a minimum: falling is the bad direction */
	for (int s = 0; s < 2; s++) {
		struct rv_limit *l = &(s ? &c : &b)->files[0].reqs[0].limits[0];
		l->has_max = false;
		l->has_min = true;
	}
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert(fig(&r, "per-op", "mean")->lower_is_worse);
	ck_assert_int_eq(fig(&r, "per-op", "mean")->outcome, CMP_WORSE);
	ck_assert_int_eq(fig(&r, "per-op", "max")->outcome, CMP_SAME);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(violations_that_appear_are_worse)
{
	static const uint64_t some[NRUNS] = { 2, 3, 2, 4, 2 };
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", steady, steady_max, some);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	const struct cmp_figure *v = fig(&r, "violations", "total");
	ck_assert_int_eq(v->outcome, CMP_WORSE);
	ck_assert(fabs(v->cand - 13) < 1e-9);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(what_cannot_be_compared)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	view(&c, "B", steady, steady_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "no requirement was measured in both runs"));
	cmp_result_free(&r);
	report_view_free(&c);

	view(&c, "A", steady, steady_max, none);
	free(c.files[0].reqs[0].probe);
	c.files[0].reqs[0].probe = strdup("futex");
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), -EINVAL);
	ck_assert_str_eq(err, "A: measured by probe sem-pingpong in the baseline and by futex "
			      "in the candidate: not the same measurement");
	cmp_result_free(&r);
	report_view_free(&c);

	view(&c, "A", steady, steady_max, none);
	c.files[0].reqs[0].limits[0].cycles = true;
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is in ns in the baseline and in cycles"));
	cmp_result_free(&r);
	report_view_free(&c);

	view(&c, "A", steady, steady_max, none);
	c.files[0].reqs[0].metrics[1].kind = METRIC_DURATION;
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "metric violations is a count in the baseline and a "
					  "duration in the candidate"));
	cmp_result_free(&r);
	report_view_free(&c);
	report_view_free(&b);
}
END_TEST

START_TEST(unmeasured_and_differently_measured)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", steady, steady_max, none);
	struct rv_req *q = &c.files[0].reqs[0];
	q->measured = false;
	q->verdict = VERDICT_ERROR;
	q->reason = strdup("worker crashed");
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), -EINVAL); /* nothing measured in both */
	ck_assert_uint_eq(r.worse, 1);
	ck_assert_str_eq(r.f[0].note, "not measured in the candidate: worker crashed");
	cmp_result_free(&r);
	report_view_free(&c);

	/* A heavier parameter is compared, and said. */
	view(&c, "A", steady, steady_max, none);
	for (int s = 0; s < 2; s++) {
		struct rv_req *x = &(s ? &c : &b)->files[0].reqs[0];
		x->params = calloc(1, sizeof *x->params);
		x->nparams = 1;
		x->params[0].name = strdup("hold");
		x->params[0].value = strdup(s ? "1ms" : "200us");
	}
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_str_eq(fig(&r, "per-op", "mean")->note, "measured differently: hold 200us -> 1ms");
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(reports_render)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double m3[NRUNS];
	scaled(m3, steady, 3);
	view(&b, "A\x1b[31m", steady, steady_max, none);
	view(&c, "A\x1b[31m", m3, steady_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	r.base_path = "base.json";
	r.cand_path = "cand.json";
	size_t len;
	char *t = cmp_render_text(&r, &len);
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_null(strchr(t, '\x1b')); /* escaped for the terminal */
	ck_assert_ptr_nonnull(strstr(t, "A\\x1b[31m"));
	ck_assert_ptr_nonnull(strstr(t, "1 worse, 0 better, 2 same, 0 not compared"));
	ck_assert_ptr_nonnull(strstr(t, "exit status 1: a figure is worse"));
	free(t);
	char *j = cmp_render_junit(&r, &len);
	ck_assert_ptr_nonnull(j);
	ck_assert_ptr_nonnull(strstr(j, "<failure type=\"Regression\" message=\"per-op mean"));
	ck_assert_ptr_nonnull(strstr(j, "tests=\"3\" failures=\"1\""));
	free(j);
	char *h = cmp_render_html(&r, &len);
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(strstr(h, "<svg"));
	ck_assert_ptr_nonnull(strstr(h, "class=\"worse\""));
	ck_assert_ptr_null(strstr(h, "\x1b"));
	free(h);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, same_runs_are_the_same);
	tcase_add_test(tc, three_times_slower_is_worse);
	tcase_add_test(tc, tolerance_decides_for_steady_runs);
	tcase_add_test(tc, spread_decides_for_noisy_runs);
	tcase_add_test(tc, one_wild_run_does_not_decide);
	tcase_add_test(tc, lower_is_worse_under_a_minimum);
	tcase_add_test(tc, violations_that_appear_are_worse);
	tcase_add_test(tc, what_cannot_be_compared);
	tcase_add_test(tc, unmeasured_and_differently_measured);
	tcase_add_test(tc, reports_render);
	return s;
}

int main(void)
{
	return tu_run(compare_suite());
}
