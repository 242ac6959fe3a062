/* SPDX-License-Identifier: Apache-2.0 */
/* test_compare.c - the rule of `rtconform compare` on views made by hand:
 * every per-run figure is chosen, so each outcome is known. Student's t
 * quantile against tabled values; the interval of the ratio against values
 * worked by hand (Welch's t on the logarithms, one run on a side, values
 * not above zero); same, better, worse and inconclusive by where the
 * interval lies against the tolerance; a run compared with itself the same
 * at 1, 2, 3 and 10 runs; three runs a side decide; the regression that
 * adds jitter found however scattered the candidate is; a verdict that got
 * worse is a regression whatever its figures say; a requirement whose
 * limits or plan changed is CHANGED, never better; a figure whose only
 * limit is a minimum is worse when it falls; a count of violations that
 * appears is worse; what cannot be compared is refused with the reason;
 * and the three reports render it.
 */
#include <check.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "across/compare.h"
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

/* A view of one file with one measured requirement of `runs` runs: per-op
 * with these runs, a limit on its mean (max=), and a violations count. */
static void view_n(struct report_view *v, const char *id, const double *means,
		   const double *maxima, const uint64_t *violations, size_t runs)
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
	r->runs = (uint32_t)runs;
	r->metrics = calloc(2, sizeof *r->metrics);
	r->nmetrics = 2;
	duration(&r->metrics[0], "per-op", means, maxima, runs);
	count_metric(&r->metrics[1], "violations", violations, runs);
	limit(r, "per-op", "mean", false, true, false);
	limit(r, "violations", "total", false, true, false);
	r->limits[0].measured = r->metrics[0].ns[RV_MEAN];
	r->limits[1].measured = r->metrics[1].counts[RVC_TOTAL];
}

static void view(struct report_view *v, const char *id, const double *means,
		 const double *maxima, const uint64_t *violations)
{
	view_n(v, id, means, maxima, violations, NRUNS);
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

/* Compare base with cand at tolerance and the default significance; 0 or
 * the error. */
static int run_cmp(struct report_view *b, struct report_view *c, double tol, struct cmp_result *r,
		   char *err)
{
	struct cmp_opts o = { .tolerance = tol, .significance = CMP_DEFAULT_SIGNIFICANCE };
	return cmp_views(b, c, &o, r, err, 600);
}

/* The outcome of figure metric stat, cand compared with base at tol. */
static enum cmp_outcome outcome_of(struct report_view *b, struct report_view *c, double tol,
				   const char *metric, const char *stat)
{
	struct cmp_result r;
	char err[600];
	ck_assert_int_eq(run_cmp(b, c, tol, &r, err), 0);
	enum cmp_outcome o = fig(&r, metric, stat)->outcome;
	cmp_result_free(&r);
	return o;
}

static void free_views(struct report_view *b, struct report_view *c)
{
	report_view_free(b);
	report_view_free(c);
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
	/* +30 %: the interval is narrow around x1.3, inside 50 %: the same */
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "mean");
	ck_assert_int_eq(m->outcome, CMP_SAME);
	ck_assert(m->tested && m->iv.lo > 1.25 && m->iv.hi < 1.35);
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

START_TEST(noisy_runs_are_inconclusive_not_same)
{
	/* Runs that differ among themselves by about 40 %: +50 % is beyond a
	 * 10 % tolerance, but the interval of the ratio (x1.06..x2.1) reaches
	 * below x1.1: inconclusive. A rule of the point estimate alone would
	 * call it worse, one of the scatter alone the same. */
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
	ck_assert_int_eq(m->outcome, CMP_INCONCLUSIVE);
	ck_assert(m->tested && m->iv.lo < 1.1 && m->iv.hi > 1.1);
	ck_assert_ptr_nonnull(strstr(m->note, "straddles the tolerance (x0.909..x1.1, 5 and 5 "
					      "runs)"));
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	cmp_result_free(&r);
	/* runs as noisy, but all of them above the baseline's: worse */
	for (int i = 0; i < NRUNS; i++)
		up[i] = noisy[i] + 3000;
	report_view_free(&c);
	view(&c, "A", up, steady_max, none);
	ck_assert_int_eq(outcome_of(&b, &c, 0.1, "per-op", "mean"), CMP_WORSE);
	free_views(&b, &c);
}
END_TEST

START_TEST(t_quantile_known_values)
{
	/* Student's t, 97.5 % point, from the tables */
	static const struct {
		double df, t;
	} q[] = { { 1, 12.706204736 }, { 2, 4.302652730 }, { 4, 2.776445105 },
		  { 10, 2.228138852 }, { 30, 2.042272456 }, { 1e7, 1.959964 } };
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
		ck_assert_msg(fabs(cmp_t_quantile(0.975, q[i].df) - q[i].t) < 1e-6, "df %g: %.9f",
			      q[i].df, cmp_t_quantile(0.975, q[i].df));
		ck_assert(fabs(cmp_t_quantile(0.025, q[i].df) + q[i].t) < 1e-6);
		ck_assert(fabs(cmp_t_cdf(q[i].t, q[i].df) - 0.975) < 1e-7);
	}
	ck_assert(fabs(cmp_t_quantile(0.95, 4) - 2.131846786) < 1e-6);
	ck_assert(fabs(cmp_t_quantile(0.995, 3) - 5.840909309) < 1e-6);
	ck_assert_double_eq(cmp_t_cdf(0, 3.5), 0.5);
	/* between the whole degrees of freedom */
	double t25 = cmp_t_quantile(0.975, 2.5);
	ck_assert(t25 < 4.302652730 && t25 > 3.182446305);
	ck_assert(isnan(cmp_t_quantile(1, 3)) && isnan(cmp_t_quantile(0.9, 0)));
}
END_TEST

START_TEST(ratio_interval_known_values)
{
	/* logs 0, +0.1, -0.1 about ln 1000 on both sides, the candidate twice
	 * the baseline: variance 0.01 a side, se = sqrt(0.02 / 3), Welch's df
	 * exactly 4, half-width t(0.975, 4) se = 0.226696: x2 e^-+0.226696 */
	double vb[3] = { 1000, 1000 * exp(0.1), 1000 * exp(-0.1) }, vc[3];
	for (int i = 0; i < 3; i++)
		vc[i] = 2 * vb[i];
	struct cmp_interval iv;
	ck_assert_int_eq(cmp_ratio_interval(vb, 3, vc, 3, 0.95, false, &iv), 0);
	ck_assert(iv.have && iv.log && !iv.exact);
	ck_assert_double_eq_tol(iv.df, 4, 1e-9);
	ck_assert_double_eq_tol(iv.lo, 2 * exp(-0.2266958), 1e-5);
	ck_assert_double_eq_tol(iv.hi, 2 * exp(0.2266958), 1e-5);
	/* the one-sided bounds: t(0.95, 4) se = 2.131847 x 0.0816497 */
	ck_assert_double_eq_tol(iv.lo1, 2 * exp(-0.1740646), 1e-5);
	ck_assert_double_eq_tol(iv.hi1, 2 * exp(0.1740646), 1e-5);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.5, false), CMP_WORSE);  /* 1.594 > 1.5 */
	/* at 1.5 the interval (x1.594..x2.509) straddles x2.5; its one-sided
	 * upper bound x2.381 does not reach it: not worse. At 1.3 it may be */
	ck_assert_int_eq(cmp_interval_outcome(&iv, 1.5, false), CMP_INCONCLUSIVE);
	ck_assert(!cmp_interval_may_be_worse(&iv, 1.5, false));
	ck_assert(cmp_interval_may_be_worse(&iv, 1.3, false));
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.6, false), CMP_INCONCLUSIVE);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 1.6, false), CMP_SAME);   /* 2.509 < 2.6 */
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.5, true), CMP_BETTER);
	/* the other way round: the reciprocal interval, better */
	ck_assert_int_eq(cmp_ratio_interval(vc, 3, vb, 3, 0.95, false, &iv), 0);
	ck_assert_double_eq_tol(iv.hi, 0.5 * exp(0.2266958), 1e-5);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.5, false), CMP_BETTER);
	/* the same values in another order: exactly 1 */
	double rb[3] = { vb[2], vb[0], vb[1] };
	ck_assert_int_eq(cmp_ratio_interval(vb, 3, rb, 3, 0.95, false, &iv), 0);
	ck_assert(iv.exact && iv.lo == 1 && iv.hi == 1);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0, false), CMP_SAME);
	/* one run a side: equal, exact; else no interval */
	ck_assert_int_eq(cmp_ratio_interval(vb, 1, vb, 1, 0.95, false, &iv), 0);
	ck_assert(iv.exact);
	ck_assert_int_eq(cmp_ratio_interval(vb, 1, vc, 1, 0.95, false, &iv), 0);
	ck_assert(!iv.have);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.5, false), CMP_INCONCLUSIVE);
	/* one run against three: the three's variance for both, df 2:
	 * se = 0.1 sqrt(1 + 1/3), half-width 4.302653 x 0.115470 = 0.496827 */
	ck_assert_int_eq(cmp_ratio_interval(vb, 3, vc, 1, 0.95, false, &iv), 0);
	ck_assert_double_eq_tol(iv.df, 2, 1e-12);
	ck_assert_double_eq_tol(iv.lo, 2 * exp(-0.496827), 1e-5);
	/* no spread on either side: a point */
	static const double flat_b[2] = { 100, 100 }, flat_c[3] = { 130, 130, 130 };
	ck_assert_int_eq(cmp_ratio_interval(flat_b, 2, flat_c, 3, 0.95, false, &iv), 0);
	ck_assert(iv.have && !iv.exact && iv.lo == iv.hi && fabs(iv.lo - 1.3) < 1e-12);
	/* a value of 0 has no logarithm: the difference of the means over the
	 * baseline's, 1 + (4 - 2 +- t se) / 2, se^2 = 2/2 + 32/2 = 17, Welch's
	 * df 17^2 / (1^2 + 16^2) */
	static const double z_b[2] = { 1, 3 }, z_c[2] = { 0, 8 };
	ck_assert_int_eq(cmp_ratio_interval(z_b, 2, z_c, 2, 0.95, false, &iv), 0);
	ck_assert(iv.have && !iv.log);
	ck_assert_double_eq_tol(iv.df, 289.0 / 257.0, 1e-12);
	ck_assert_double_eq_tol(iv.lo, 1 + (2 - cmp_t_quantile(0.975, iv.df) * sqrt(17)) / 2, 1e-9);
	double blo, bhi;
	cmp_tolerance_band(&iv, 0.5, &blo, &bhi);
	ck_assert(blo == 0.5 && bhi == 1.5);
	/* trimmed (Yuen): five runs a side, logs -0.2 .. +0.2 about ln 1000,
	 * the candidate twice that and its last run 40 times more (a burst):
	 * one run trimmed from each end, the variance winsorized, (n - 1)
	 * s_w^2 / (h - 1) = 4 x 0.01 / 2 a side over h = 3: se^2 = 0.04 / 3,
	 * df 4, the interval x2 e^-+(2.776445 x 0.115470), the burst gone */
	double tb[5], tc[5];
	for (int i = 0; i < 5; i++) {
		tb[i] = 1000 * exp(0.1 * (i - 2));
		tc[i] = 2 * tb[i] * (i == 4 ? 40 : 1);
	}
	ck_assert_int_eq(cmp_ratio_interval(tb, 5, tc, 5, 0.95, true, &iv), 0);
	ck_assert(iv.trimmed && iv.log);
	ck_assert_double_eq_tol(iv.df, 4, 1e-9);
	ck_assert_double_eq_tol(iv.lo, 2 * exp(-0.3205962), 1e-5);
	ck_assert_double_eq_tol(iv.hi, 2 * exp(0.3205962), 1e-5);
	/* untrimmed, the burst widens it past any tolerance */
	ck_assert_int_eq(cmp_ratio_interval(tb, 5, tc, 5, 0.95, false, &iv), 0);
	ck_assert(!iv.trimmed && iv.hi / iv.lo > 20);
	/* one run against ten with a burst (nine at 1000, one at 100000):
	 * trimmed and winsorized, the ten show no spread at all, but the lone
	 * run is one value, untrimmed, and may be a burst as well: its
	 * variance is the ten's plain one, (ln 100)^2 / 10 = 2.1207592, with
	 * the trimmed side's df h - 1 = 5: x1.6 e^-+(2.570582 x 1.4562827).
	 * (It was borrowed winsorized: 0, a point at x1.6, WORSE.) */
	double bu[10], one = 1600;
	for (int i = 0; i < 10; i++)
		bu[i] = i == 9 ? 100000 : 1000;
	ck_assert_int_eq(cmp_ratio_interval(bu, 10, &one, 1, 0.95, true, &iv), 0);
	ck_assert(iv.have && iv.trimmed);
	ck_assert_double_eq_tol(iv.df, 5, 1e-12);
	ck_assert_double_eq_tol(iv.lo, 1.6 * exp(-3.7434938), 1e-5);
	ck_assert_double_eq_tol(iv.hi, 1.6 * exp(3.7434938), 1e-3);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.5, false), CMP_INCONCLUSIVE);
	ck_assert_int_eq(cmp_ratio_interval(&one, 1, bu, 10, 0.95, true, &iv), 0);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.5, false), CMP_INCONCLUSIVE);
	/* the interval covers the figure's own ratio: the same run values
	 * (exactly x1) under a figure 15 % up widen to x1..x1.15, no longer
	 * exact, inconclusive at 5 % and maybe worse; a ratio inside changes
	 * nothing; on the values (a zero somewhere) the ratio is 1 + d/|base| */
	ck_assert_int_eq(cmp_ratio_interval(vb, 3, vb, 3, 0.95, false, &iv), 0);
	ck_assert(!cmp_interval_cover(&iv, 1000, 1000));
	ck_assert(cmp_interval_cover(&iv, 1000, 1150));
	ck_assert(!iv.exact && iv.lo == 1 && fabs(iv.hi - 1.15) < 1e-12 && fabs(iv.hi1 - 1.15) < 1e-12);
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.05, false), CMP_INCONCLUSIVE);
	ck_assert(cmp_interval_may_be_worse(&iv, 0.05, false));
	ck_assert_int_eq(cmp_interval_outcome(&iv, 0.5, false), CMP_SAME);
	ck_assert_int_eq(cmp_ratio_interval(z_b, 2, z_c, 2, 0.95, false, &iv), 0);
	double zlo = iv.lo;
	ck_assert(cmp_interval_cover(&iv, 2, -100)); /* 1 + (-102) / 2 = -50 */
	ck_assert(iv.lo == -50 && iv.lo1 == -50 && zlo > -50);
	ck_assert_int_eq(cmp_ratio_interval(vb, 1, vc, 1, 0.95, false, &iv), 0);
	ck_assert(!cmp_interval_cover(&iv, 1000, 5000) && !iv.have); /* no interval to widen */
	/* three runs are never trimmed */
	ck_assert_int_eq(cmp_ratio_interval(vb, 3, vc, 3, 0.95, true, &iv), 0);
	ck_assert(!iv.trimmed && fabs(iv.lo - 2 * exp(-0.2266958)) < 1e-5);
	ck_assert_int_eq(cmp_ratio_interval(vb, 0, vc, 3, 0.95, false, &iv), -EINVAL);
	ck_assert_int_eq(cmp_ratio_interval(vb, 3, vc, 3, 1, false, &iv), -EINVAL);
}
END_TEST

/* A reproducible draw of n values around centre (xorshift, uniform noise
 * of +-spread, and every heavy-th value times 5 when heavy > 0). */
static void draw(double *out, size_t n, uint64_t seed, double centre, double spread, int heavy)
{
	uint64_t s = seed * 2654435761u + 1;
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		double u = (double)(s >> 11) / 9007199254740992.0;
		out[i] = centre * (1 + spread * (2 * u - 1));
		if (heavy > 0 && i % (size_t)heavy == (size_t)heavy - 1)
			out[i] *= 5;
		out[i] = round(out[i]); /* whole ns: ties happen */
	}
}

START_TEST(jitter_regression_is_worse)
{
	/* The bug this rule fixes: sem_post made 100 us slower, SEM-OTHER's
	 * typical-run max went from 17.35 us to 5.05 ms, every candidate run
	 * but one above 9 of the 10 baseline runs, scattered over three
	 * decades. The old rule allowed 3 x the candidate's own MAD (+12 ms)
	 * and called it the same. */
	static const double base_max[10] = { 17100, 17250, 17300, 17350, 17350,
					     17400, 17500, 17600, 17800, 2100000 };
	static const double cand_max[10] = { 16900, 160000, 1200000, 3100000, 4800000,
					     5300000, 9000000, 14000000, 21000000, 30000000 };
	static const double base_mean[10] = { 3000, 3010, 2990, 3005, 2995,
					      3000, 3020, 2980, 3000, 3300 };
	static const double cand_mean[10] = { 3000, 9000, 20000, 40000, 70000,
					      90000, 100000, 150000, 200000, 400000 };
	static const uint64_t zeros[10] = { 0 };
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view_n(&b, "SEM-OTHER", base_mean, base_max, zeros, 10);
	view_n(&c, "SEM-OTHER", cand_mean, cand_max, zeros, 10);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "max");
	ck_assert_double_eq_tol(m->base, 17375, 1e-9);
	ck_assert_double_eq_tol(m->cand, 5050000, 1e-9);
	ck_assert_int_eq(m->outcome, CMP_WORSE);
	ck_assert(m->iv.lo > 1.5);
	ck_assert_int_eq(fig(&r, "per-op", "mean")->outcome, CMP_WORSE);
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

START_TEST(same_distribution_is_same)
{
	/* Two draws of 10 runs from one distribution (means within +-20 %,
	 * maxima within +-30 % or +-50 % with every fifth run 5 times
	 * larger): never worse nor better, for every seed tried; the means
	 * (steady runs) the same. A maximum that one run in five multiplies
	 * by 5 scatters its logarithms so that its interval may reach past
	 * the tolerance: inconclusive, which asks for more runs, never a
	 * verdict the runs do not support. */
	for (uint64_t seed = 1; seed <= 40; seed++) {
		double wide = seed > 20 ? 0.5 : 0.3;
		double mb[10], mc[10], xb[10], xc[10];
		static const uint64_t zeros[10] = { 0 };
		draw(mb, 10, seed, 3000, 0.2, 0);
		draw(mc, 10, seed + 1000, 3000, 0.2, 0);
		draw(xb, 10, seed % 20 + 2000, 17000, wide, 5);
		draw(xc, 10, seed % 20 + 3000, 17000, wide, 5);
		struct report_view b, c;
		struct cmp_result r;
		char err[600];
		view_n(&b, "A", mb, xb, zeros, 10);
		view_n(&c, "A", mc, xc, zeros, 10);
		ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
		ck_assert_msg(fig(&r, "per-op", "mean")->outcome == CMP_SAME, "seed %d: mean %s",
			      (int)seed, cmp_outcome_name(fig(&r, "per-op", "mean")->outcome));
		ck_assert_msg(r.same + r.inconclusive == r.n, "seed %d: %zu worse, %zu better",
			      (int)seed, r.worse, r.better);
		cmp_result_free(&r);
		report_view_free(&b);
		report_view_free(&c);
	}
}
END_TEST

START_TEST(three_runs_decide)
{
	/* 3 runs a side (the default profile's count, and --quick's): steady
	 * runs are the same (the rank test the rule replaced could never go
	 * below p = 0.1 here: every such figure was inconclusive), a
	 * candidate 3 times slower worse, one 5 times faster better */
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view_n(&b, "A", steady, steady_max, none, 3);
	view_n(&c, "A", steady + 1, steady_max + 1, none, 3);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.same, r.n);
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	cmp_result_free(&r);
	report_view_free(&c);
	double m3[NRUNS], x3[NRUNS];
	scaled(m3, steady, 3);
	scaled(x3, steady_max, 3);
	view_n(&c, "A", m3, x3, none, 3);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.worse, 2);
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	cmp_result_free(&r);
	report_view_free(&c);
	scaled(m3, steady, 0.2);
	scaled(x3, steady_max, 0.2);
	view_n(&c, "A", m3, x3, none, 3);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.better, 2);
	ck_assert_uint_eq(r.same, 1); /* the count: none on either side */
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

START_TEST(inconclusive_but_not_worse_passes)
{
	/* 3 runs scattered by a factor of 2, the candidate's 0.6 times the
	 * baseline's: the interval (x0.27..x1.32) straddles the band's lower
	 * end, x0.667, and stays below its upper one: inconclusive between
	 * the same and better, which cannot be a regression: exit 0. Three
	 * times the baseline's instead reaches above x1.5: may be worse,
	 * exit 1. */
	static const double noisy[3] = { 1000, 1400, 700 }, down[3] = { 600, 840, 420 };
	static const double up[3] = { 1000, 4200, 1400 };
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view_n(&b, "A", noisy, noisy, none, 3);
	view_n(&c, "A", down, down, none, 3);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "mean");
	ck_assert_int_eq(m->outcome, CMP_INCONCLUSIVE);
	ck_assert(!m->may_be_worse && m->iv.lo < 1 / 1.5 && m->iv.hi < 1.5);
	ck_assert_str_eq(cmp_figure_outcome(m), "inconclusive (not worse)");
	ck_assert_uint_eq(r.inconclusive, 2);
	ck_assert_uint_eq(r.inconclusive_worse, 0);
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	r.base_path = "base.json";
	r.cand_path = "cand.json";
	size_t len;
	char *t = cmp_render_text(&r, &len);
	ck_assert_ptr_nonnull(strstr(t, "  inconclusive (not worse) (limited)\n"));
	ck_assert_ptr_nonnull(strstr(t, "0 worse, 2 inconclusive (2 not worse), 0 better, 1 same"));
	ck_assert_ptr_nonnull(strstr(t, "exit status 0: no figure is worse than the baseline, nor "
					"any verdict\n"));
	free(t);
	char *j = cmp_render_junit(&r, &len);
	ck_assert_ptr_nonnull(strstr(j, "failures=\"0\""));
	free(j);
	cmp_result_free(&r);
	report_view_free(&c);
	view_n(&c, "A", up, up, none, 3);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	m = fig(&r, "per-op", "mean");
	ck_assert(m->outcome == CMP_INCONCLUSIVE && m->may_be_worse);
	ck_assert_str_eq(cmp_figure_outcome(m), "INCONCLUSIVE");
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

START_TEST(self_is_same_at_any_run_count)
{
	/* a run compared with itself: the same, exit 0, whatever the runs'
	 * scatter, at 1, 2, 3 and 10 runs */
	static const double wild[10] = { 1000, 9000, 1300, 700, 40000, 1100, 900, 2500, 1000, 800 };
	static const uint64_t zeros[10] = { 0 };
	static const size_t runs[] = { 1, 2, 3, 10 };
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		struct report_view b, c;
		struct cmp_result r;
		char err[600];
		view_n(&b, "A", wild, wild, zeros, runs[i]);
		view_n(&c, "A", wild, wild, zeros, runs[i]);
		ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
		ck_assert_msg(r.same == r.n, "%zu runs: %zu of %zu same", runs[i], r.same, r.n);
		ck_assert(fig(&r, "per-op", "max")->iv.exact);
		ck_assert_int_eq(cmp_exit_status(&r), 0);
		cmp_result_free(&r);
		/* and at a tolerance of 0: still exactly the same */
		ck_assert_int_eq(run_cmp(&b, &c, 0, &r, err), 0);
		ck_assert_uint_eq(r.same, r.n);
		cmp_result_free(&r);
		free_views(&b, &c);
	}
	/* one run a side that differ: no interval, inconclusive, saying why */
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view_n(&b, "A", wild, wild, zeros, 1);
	view_n(&c, "A", wild + 2, wild + 2, zeros, 1);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "mean");
	ck_assert_int_eq(m->outcome, CMP_INCONCLUSIVE);
	ck_assert_ptr_nonnull(strstr(m->note, "one run a side, and they differ"));
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

START_TEST(no_per_run_values_cannot_be_same_unless_equal)
{
	/* a baseline written before per-run maxima were kept, and a candidate
	 * whose maxima are 10 % higher */
	static const double max11[NRUNS] = { 5500, 5720, 5390, 5610, 5555 };
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	free(b.files[0].reqs[0].metrics[0].run_max_ns);
	b.files[0].reqs[0].metrics[0].run_max_ns = NULL;
	view(&c, "A", steady, max11, none);
	/* the means have their runs: tested, the same */
	ck_assert_int_eq(outcome_of(&b, &c, 0.5, "per-op", "mean"), CMP_SAME);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	const struct cmp_figure *m = fig(&r, "per-op", "max");
	ck_assert_int_eq(m->outcome, CMP_INCONCLUSIVE);
	ck_assert(!m->tested && !m->typical);
	ck_assert_str_eq(m->note, "no per-run maxima in the baseline: a change cannot be tested");
	cmp_result_free(&r);
	report_view_free(&c);
	/* the same largest sample on both sides is exactly the same */
	view(&c, "A", steady, steady_max, none);
	ck_assert_int_eq(outcome_of(&b, &c, 0.5, "per-op", "max"), CMP_SAME);
	free_views(&b, &c);
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
	ck_assert(fabs(m->cand - 5050) < 1e-9);
	/* ... nor does the interval of a tail figure, which trims each side's
	 * highest and lowest of 5 runs (Yuen) */
	ck_assert_int_eq(m->outcome, CMP_SAME);
	ck_assert(m->iv.trimmed);
	/* a figure of the bulk is not trimmed: a mean that one run of 5 had
	 * 40 times as large widens the interval past the tolerance: not the
	 * same, and not worse either (ln 40 / 5 moves the mean logarithm as
	 * much as its standard error) */
	cmp_result_free(&r);
	static const double wild_mean[NRUNS] = { 1000, 40000, 990, 1005, 995 };
	report_view_free(&c);
	view(&c, "A", wild_mean, steady_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	m = fig(&r, "per-op", "mean");
	ck_assert(!m->iv.trimmed);
	ck_assert_int_eq(m->outcome, CMP_INCONCLUSIVE);
	ck_assert(m->iv.lo < 1 && m->iv.hi > 1.5);
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
	ck_assert_uint_eq(r.verdicts_worse, 1); /* pass -> error */
	ck_assert(r.f[0].verdict_row);
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

/* Move other's one file into v (a view of two files), freeing other. */
static void take_file(struct report_view *v, struct report_view *other)
{
	v->files = realloc(v->files, (v->nfiles + 1) * sizeof *v->files);
	ck_assert_ptr_nonnull(v->files);
	v->files[v->nfiles++] = other->files[0];
	free(other->files);
	other->files = NULL;
	other->nfiles = 0;
	report_view_free(other);
}

/* A requirement the baseline measured that the candidate skipped or does
 * not have is missing: a regression unless allowed; one only the
 * candidate has is new, a note (issue 24 review, B). */
START_TEST(missing_from_the_candidate)
{
	struct report_view b, c, x;
	struct cmp_result r;
	char err[600];
	struct cmp_opts o = { .tolerance = 0.5, .significance = CMP_DEFAULT_SIGNIFICANCE };
	view(&b, "A", steady, steady_max, none);
	view(&x, "B", steady, steady_max, none);
	take_file(&b, &x);
	view(&c, "A", steady, steady_max, none);
	ck_assert_int_eq(cmp_views(&b, &c, &o, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.missing, 1);
	ck_assert_uint_eq(r.worse, 0);
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	const struct cmp_figure *m = &r.f[r.n - 1];
	ck_assert(m->missing_row && m->outcome == CMP_WORSE);
	ck_assert_str_eq(m->id, "B");
	ck_assert_str_eq(m->note, "measured in the baseline (pass), not in the candidate");
	cmp_result_free(&r);
	o.allow_missing = true;
	ck_assert_int_eq(cmp_views(&b, &c, &o, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.missing, 1);
	ck_assert_int_eq(r.f[r.n - 1].outcome, CMP_NOT_COMPARED);
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	cmp_result_free(&r);
	o.allow_missing = false;

	/* skipped in the candidate (--only) */
	view(&x, "B", steady, steady_max, none);
	x.files[0].reqs[0].measured = false;
	x.files[0].reqs[0].verdict = VERDICT_SKIPPED;
	x.files[0].reqs[0].reason = strdup("not selected (--only A)");
	take_file(&c, &x);
	ck_assert_int_eq(cmp_views(&b, &c, &o, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.missing, 1);
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	ck_assert_str_eq(r.f[r.n - 1].note, "measured in the baseline (pass), skipped in the "
			 "candidate: not selected (--only A)");
	cmp_result_free(&r);
	free_views(&b, &c);

	/* only in the candidate: new, not a regression */
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", steady, steady_max, none);
	view(&x, "B", steady, steady_max, none);
	take_file(&c, &x);
	ck_assert_int_eq(cmp_views(&b, &c, &o, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.missing, 0);
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	ck_assert_uint_eq(r.nnotes, 1);
	ck_assert_str_eq(r.notes[0], "B: new in the candidate (the baseline has no such "
			 "requirement), not compared");
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

/* A side selftest faulted (rtconform.injected_faults) is named in a note,
 * which compare.txt, compare.html and junit.xml all carry. */
START_TEST(injected_faults_noted)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", steady, steady_max, none);
	fingerprint_add(&b.env, "rtconform.injected_faults",
			"RTC_SELFTEST_FAULTS=delay=20ms,every=10 (rtconform selftest)");
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.nnotes, 1);
	ck_assert_str_eq(r.notes[0], "FAULTS INJECTED by selftest into the baseline: "
			 "RTC_SELFTEST_FAULTS=delay=20ms,every=10 (rtconform selftest): its "
			 "figures are not the machine's own");
	cmp_result_free(&r);
	free_views(&b, &c);
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
	ck_assert_ptr_nonnull(strstr(t, "1 worse, 0 inconclusive, 0 better, 2 same, 0 not compared"));
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
	/* the overlay's vertical axis: a label at each decade of the share */
	ck_assert_ptr_nonnull(strstr(h, "text-anchor=\"end\">100%</text>"));
	ck_assert_ptr_nonnull(strstr(h, "text-anchor=\"end\">0.001%</text>"));
	ck_assert_ptr_nonnull(strstr(h, ">share of samples (log scale)</text>"));
	ck_assert_ptr_nonnull(strstr(h, "class=\"worse\""));
	ck_assert_ptr_null(strstr(h, "\x1b"));
	free(h);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

START_TEST(reports_render_inconclusive)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	/* 3 runs scattered by a factor of 2, the candidate's 1.5 times the
	 * baseline's: the interval straddles x1.5 */
	static const double noisy[3] = { 1000, 1400, 700 }, up[3] = { 1500, 2100, 1050 };
	view_n(&b, "A", noisy, noisy, none, 3);
	view_n(&c, "A", up, up, none, 3);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	r.base_path = "base.json";
	r.cand_path = "cand.json";
	for (int allow = 0; allow < 2; allow++) {
		r.opts.allow_inconclusive = allow;
		size_t len;
		char *t = cmp_render_text(&r, &len);
		ck_assert_ptr_nonnull(strstr(t, "  INCONCLUSIVE (limited)"));
		ck_assert_ptr_nonnull(strstr(t, "0 worse, 2 inconclusive, 0 better, 1 same, 0 not "
						"compared, and 1 verdict: 0 worse, 0 better, 1 "
						"unchanged (tolerance 50%, interval 95%"));
		ck_assert_ptr_nonnull(strstr(t, allow ? "inconclusive allowed); exit status 0"
						      : "exit status 1: a figure is inconclusive"));
		free(t);
		char *j = cmp_render_junit(&r, &len);
		ck_assert_ptr_nonnull(strstr(j, "name=\"compare.significance\" value=\"0.05\""));
		ck_assert_ptr_nonnull(strstr(j, allow ? "failures=\"0\"" : "failures=\"2\""));
		ck_assert((strstr(j, "type=\"Inconclusive\" message=\"per-op mean") == NULL) == allow);
		free(j);
		char *h = cmp_render_html(&r, &len);
		ck_assert_ptr_nonnull(strstr(h, "class=\"inconclusive\""));
		ck_assert_ptr_nonnull(strstr(h, allow ? "INCONCLUSIVE (allowed) \xe2\x80\x94"
						      : "INCONCLUSIVE \xe2\x80\x94 verdicts: 0 worse, 0 "
							"better, 1 unchanged; figures: 0 worse, 2 "
							"inconclusive"));
		free(h);
	}
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

/* A verdict moves up the order pass < inconclusive < fail < error (the
 * exit statuses' precedence): worse; down it: better; a skip on either
 * side is not compared. */
/* A figure's cells print its values as every report prints a figure
 * (units_fmt_qty: summary.txt, report.html, fleet.html): a count's mean
 * "2.5", not "2.500", a cycles figure to 4 significant digits. */
START_TEST(row_text_prints_figures_as_every_report)
{
	static const struct rv_metric m;
	static const struct {
		enum qty_unit unit;
		double base, cand, allowed;
		const char *b, *c, *change, *a;
	} rows[] = {
		{ QTY_COUNT, 2.5, 3, 0.25, "2.5", "3", "+20.0%", "+0.25" },
		{ QTY_COUNT, 0, 2.5, 1, "0", "2.5", "+2.5", "+1" },
		{ QTY_CYCLES, 123.4, 1234.4, 12.34, "123.4 cycles", "1234 cycles", "+900.3%",
		  "+12.34 cycles" },
		{ QTY_NS, 1270, 1900, 600, "1.27 us", "1.9 us", "+49.6%", "+600 ns" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct cmp_figure f = { .unit = rows[i].unit, .base = rows[i].base,
					.cand = rows[i].cand, .allowed = rows[i].allowed,
					.outcome = CMP_SAME, .mc = &m };
		struct cmp_row_text t;
		cmp_row_text(&f, &t);
		ck_assert_str_eq(t.base, rows[i].b);
		ck_assert_str_eq(t.cand, rows[i].c);
		ck_assert_str_eq(t.change, rows[i].change);
		ck_assert_str_eq(t.allowed, rows[i].a);
		char want[64];
		units_fmt_qty(&(struct quantity){ rows[i].base, rows[i].unit }, want, sizeof want);
		ck_assert_str_eq(t.base, want);
	}
}
END_TEST

START_TEST(verdict_changes)
{
	static const struct {
		enum verdict b, c;
		enum cmp_outcome o;
	} t[] = {
		{ VERDICT_PASS, VERDICT_FAIL, CMP_WORSE },
		{ VERDICT_PASS, VERDICT_ERROR, CMP_WORSE },
		{ VERDICT_FAIL, VERDICT_ERROR, CMP_WORSE },
		{ VERDICT_FAIL, VERDICT_PASS, CMP_BETTER },
		{ VERDICT_ERROR, VERDICT_PASS, CMP_BETTER },
		{ VERDICT_ERROR, VERDICT_FAIL, CMP_BETTER },
		{ VERDICT_PASS, VERDICT_PASS, CMP_SAME },
		{ VERDICT_FAIL, VERDICT_FAIL, CMP_SAME },
		{ VERDICT_ERROR, VERDICT_ERROR, CMP_SAME },
		{ VERDICT_SKIPPED, VERDICT_FAIL, CMP_NOT_COMPARED },
		{ VERDICT_PASS, VERDICT_SKIPPED, CMP_NOT_COMPARED },
		{ VERDICT_PASS, VERDICT_INCONCLUSIVE, CMP_WORSE },
		{ VERDICT_INCONCLUSIVE, VERDICT_FAIL, CMP_WORSE },
		{ VERDICT_INCONCLUSIVE, VERDICT_ERROR, CMP_WORSE },
		{ VERDICT_INCONCLUSIVE, VERDICT_PASS, CMP_BETTER },
		{ VERDICT_FAIL, VERDICT_INCONCLUSIVE, CMP_BETTER },
		{ VERDICT_INCONCLUSIVE, VERDICT_INCONCLUSIVE, CMP_SAME },
		{ VERDICT_INCONCLUSIVE, VERDICT_SKIPPED, CMP_NOT_COMPARED },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		ck_assert_msg(cmp_verdict_change(t[i].b, t[i].c) == t[i].o, "%s -> %s",
			      verdict_name(t[i].b), verdict_name(t[i].c));
}
END_TEST

/* Make requirement A of v fail its limit on per-op mean. */
static void fail_mean(struct report_view *v)
{
	struct rv_req *q = &v->files[0].reqs[0];
	q->verdict = VERDICT_FAIL;
	q->limits[0].verdict = VERDICT_FAIL;
	q->limits[0].text = strdup("mean 1 us > 900 ns (n=5000)");
}

/* Issue 24: the same figures, but the candidate failed a limit the
 * baseline passed. No figure moved, and yet it is a regression: a row of
 * its own, the closing line, junit.xml, the banner, exit status 1. The
 * other way it is an improvement, and exit 0. */
START_TEST(pass_to_fail_is_a_regression_whatever_the_figures)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", steady, steady_max, none);
	fail_mean(&c);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.verdicts_worse, 1);
	ck_assert_uint_eq(r.worse, 0);
	ck_assert_uint_eq(r.same, 3);
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	ck_assert(r.f[0].verdict_row && r.f[0].outcome == CMP_WORSE);
	ck_assert_str_eq(r.f[0].note, "the candidate failed per-op mean 1 us > 900 ns (n=5000)");
	ck_assert(fig(&r, "per-op", "mean")->decides); /* its histograms are drawn */
	r.base_path = "base.json";
	r.cand_path = "cand.json";
	size_t len;
	char *t = cmp_render_text(&r, &len);
	ck_assert_ptr_nonnull(strstr(t, "3 figures: 0 worse, 0 inconclusive, 0 better, 3 same"));
	ck_assert_ptr_nonnull(strstr(t, "and 1 verdict: 1 worse, 0 better, 0 unchanged (tolerance "
					"50%, interval 95%); exit status 1: a requirement's "
					"verdict is worse than the baseline's"));
	free(t);
	char *j = cmp_render_junit(&r, &len);
	ck_assert_ptr_nonnull(strstr(j, "tests=\"4\" failures=\"1\""));
	ck_assert_ptr_nonnull(strstr(j, "<testcase name=\"A verdict\""));
	ck_assert_ptr_nonnull(strstr(j, "<failure type=\"Regression\" message=\"verdict pass -&gt; "
					"fail, the candidate failed per-op mean"));
	free(j);
	char *h = cmp_render_html(&r, &len);
	ck_assert_ptr_nonnull(strstr(h, "REGRESSION \xe2\x80\x94 verdicts: 1 worse"));
	ck_assert_ptr_nonnull(strstr(h, "its limit decided the verdict, pass -&gt; fail"));
	free(h);
	cmp_result_free(&r);

	/* a figure worse too: the closing line gives both reasons */
	double m3[NRUNS];
	scaled(m3, steady, 3);
	report_view_free(&c);
	view(&c, "A", m3, steady_max, none);
	fail_mean(&c);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	t = cmp_render_text(&r, &len);
	ck_assert_ptr_nonnull(strstr(t, "exit status 1: a figure is worse than the baseline, and a "
					"requirement's verdict is worse than the baseline's\n"));
	free(t);
	cmp_result_free(&r);

	ck_assert_int_eq(run_cmp(&c, &b, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.verdicts_better, 1);
	ck_assert_int_eq(cmp_exit_status(&r), 0);
	ck_assert_str_eq(r.f[0].note, "the baseline failed per-op mean 1 us > 900 ns (n=5000)");
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

/* The case: the candidate loosened the limit on per-op mean from
 * 3 us to 50 us and cut its iterations 10 times, and went from fail to
 * pass. Not better: CHANGED, naming both, exit 1; with --allow-changed
 * exit 0 and still CHANGED. A parameter, the policy or the CPU changed
 * is CHANGED too; the same requirement on both sides is not. */
static void plan_and_bound(struct report_view *v, uint64_t iterations, double max_ns,
			   enum verdict verdict)
{
	struct rv_req *q = &v->files[0].reqs[0];
	q->plan = (struct rv_plan){ true, iterations, 10, 100, 0 };
	q->limits[0].has_max = true;
	q->limits[0].max = (struct quantity){ max_ns, QTY_NS };
	q->limits[1].max = (struct quantity){ 0, QTY_COUNT };
	q->verdict = q->limits[0].verdict = verdict;
}

START_TEST(changed_requirement_is_never_better)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	view(&b, "SEM", steady, steady_max, none);
	view(&c, "SEM", steady, steady_max, none);
	plan_and_bound(&b, 20000, 3000, VERDICT_FAIL);
	plan_and_bound(&c, 20000, 3000, VERDICT_FAIL);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.changed, 0); /* nothing differs */
	cmp_result_free(&r);
	/* the same load and parameters written otherwise are no change: the
	 * tool at another path, other spacing, 1ms for 1000us, CPUs 0-1 for
	 * 0,1; another argument or value is */
	static const char *const same[2][3] = { { "/usr/bin/stress-ng --cpu 2", "1ms", "0-1" },
						{ "/opt/bin/stress-ng  --cpu\t2 ", "1000us", "0,1" } };
	for (int side = 0; side < 2; side++) {
		struct rv_req *x = &(side ? &c : &b)->files[0].reqs[0];
		x->load = strdup(same[side][0]);
		x->params = calloc(2, sizeof *x->params);
		x->params[0] = (struct rv_param){ strdup("period"), strdup(same[side][1]) };
		x->params[1] = (struct rv_param){ strdup("cpus"), strdup(same[side][2]) };
		x->nparams = 2;
	}
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_uint_eq(r.changed, 0);
	cmp_result_free(&r);
	struct rv_req *y = &c.files[0].reqs[0];
	free(y->load);
	y->load = strdup("/usr/bin/stress-ng --cpu 3");
	free(y->params[0].value);
	y->params[0].value = strdup("1001us");
	free(y->params[1].value);
	y->params[1].value = strdup("0,2");
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_str_eq(r.f[0].note, "the requirement changed: period 1ms -> 1001us, cpus 0-1 -> 0,2, "
				      "background load /usr/bin/stress-ng --cpu 2 -> /usr/bin/stress-ng "
				      "--cpu 3; its verdicts are not compared");
	cmp_result_free(&r);
	free(y->load);
	y->load = strdup(same[0][0]);
	free(y->params[0].value);
	y->params[0].value = strdup("1ms");
	free(y->params[1].value);
	y->params[1].value = strdup("0-1");
	plan_and_bound(&c, 2000, 50000, VERDICT_PASS);
	for (int allow = 0; allow < 2; allow++) {
		struct cmp_opts o = { .tolerance = 0.5, .significance = 0.05, .allow_changed = allow };
		ck_assert_int_eq(cmp_views(&b, &c, &o, &r, err, sizeof err), 0);
		ck_assert_uint_eq(r.changed, 1);
		ck_assert_uint_eq(r.verdicts_better + r.verdicts_worse + r.verdicts_same, 0);
		ck_assert(r.f[0].changed_row && r.f[0].outcome == CMP_CHANGED);
		ck_assert_str_eq(r.f[0].note, allow
				 ? "the requirement changed: limit per-op mean 3 us -> 50 us, "
				   "iterations 20000 -> 2000; its verdicts are not compared "
				   "(--allow-changed)"
				 : "the requirement changed: limit per-op mean 3 us -> 50 us, "
				   "iterations 20000 -> 2000; its verdicts are not compared");
		ck_assert_uint_eq(r.same, 3); /* the figures, compared as usual */
		ck_assert_int_eq(cmp_exit_status(&r), allow ? 0 : 1);
		r.base_path = "base.json";
		r.cand_path = "cand.json";
		size_t len;
		char *t = cmp_render_text(&r, &len);
		ck_assert_ptr_nonnull(strstr(t, "verdict            fail           pass"));
		ck_assert_ptr_nonnull(strstr(t, "  CHANGED\n"));
		ck_assert_ptr_nonnull(strstr(t, allow ? "and 1 requirement changed (allowed) "
						      : "and 1 requirement changed (tolerance"));
		ck_assert_ptr_nonnull(strstr(t, allow ? "exit status 0: no figure is worse than the "
							"baseline, nor any verdict (changed "
							"requirements allowed)"
						      : "exit status 1: a requirement changed between "
							"the runs"));
		ck_assert_ptr_null(strstr(t, "better"  "  "));
		free(t);
		char *j = cmp_render_junit(&r, &len);
		ck_assert_ptr_nonnull(strstr(j, allow ? "<skipped>verdict fail -&gt; pass, the "
							"requirement changed"
						      : "<failure type=\"Changed\" message=\"verdict "
							"fail -&gt; pass, the requirement changed: "
							"limit per-op mean 3 us -&gt; 50 us"));
		free(j);
		char *h = cmp_render_html(&r, &len);
		ck_assert_ptr_nonnull(strstr(h, allow ? "NO REGRESSION \xe2\x80\x94" : "CHANGED \xe2\x80\x94"));
		ck_assert_ptr_nonnull(strstr(h, "1 requirement changed, verdicts not compared"));
		free(h);
		cmp_result_free(&r);
	}
	/* how it is measured: parameters, policy, CPU, a limit added, the
	 * runs; each named */
	plan_and_bound(&c, 20000, 3000, VERDICT_FAIL);
	struct rv_req *q = &c.files[0].reqs[0];
	free(q->policy);
	q->policy = strdup("fifo:80");
	q->cpu = 2;
	q->plan.runs = 3;
	limit(q, "per-op", "p99", false, true, false);
	q->limits[2].max = (struct quantity){ 100000, QTY_NS };
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_str_eq(r.f[0].note, "the requirement changed: limit per-op p99 added (max 100 us), "
				      "policy fifo:99 -> fifo:80, cpu not pinned -> 2, runs 10 -> 3; its "
				      "verdicts are not compared");
	ck_assert_str_eq(fig(&r, "per-op", "mean")->note, "measured differently: policy fifo:99 -> "
							  "fifo:80, cpu not pinned -> 2, runs 10 -> 3");
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	cmp_result_free(&r);
	/* two limits on one statistic (with and without confidence=) pair
	 * in their order: only the one that moved is named */
	plan_and_bound(&c, 20000, 3000, VERDICT_FAIL);
	free(q->policy);
	q->policy = strdup("fifo:99");
	q->cpu = -1;
	for (int side = 0; side < 2; side++) {
		struct rv_req *x = &(side ? &c : &b)->files[0].reqs[0];
		for (; x->nlimits > 2; x->nlimits--) { /* the p99 limit added above */
			free(x->limits[x->nlimits - 1].metric);
			free(x->limits[x->nlimits - 1].statistic);
		}
		limit(x, "per-op", "p99", false, true, false);
		limit(x, "per-op", "p99", false, true, false);
		x->limits[2].max = (struct quantity){ side ? 120000 : 100000, QTY_NS };
		x->limits[2].confidence = 0.95;
		x->limits[3].max = (struct quantity){ 100000, QTY_NS };
	}
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	ck_assert_str_eq(r.f[0].note, "the requirement changed: limit per-op p99 100 us -> 120 us; "
				      "its verdicts are not compared");
	cmp_result_free(&r);
	/* changed, and the candidate could not measure it: still a
	 * regression, --allow-changed or not */
	q->measured = false;
	q->verdict = VERDICT_ERROR;
	q->reason = strdup("worker crashed");
	struct cmp_opts o = { .tolerance = 0.5, .significance = 0.05, .allow_changed = true };
	ck_assert_int_eq(cmp_views(&b, &c, &o, &r, err, sizeof err), -EINVAL); /* none in both */
	ck_assert(r.f[0].changed_row);
	ck_assert_int_eq(r.f[1].outcome, CMP_WORSE);
	ck_assert_str_eq(r.f[1].note, "not measured in the candidate: worker crashed (the "
				      "requirement changed, but must still be measured and judged)");
	ck_assert_int_eq(cmp_exit_status(&r), 1);
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

/* Bound max of requirement A's limit i: value ns, verdict v. */
static void set_max(struct report_view *v, size_t i, double ns, enum verdict verdict)
{
	struct rv_limit *l = &v->files[0].reqs[0].limits[i];
	l->max = (struct quantity){ ns, QTY_NS };
	l->verdict = verdict;
}

/* compare.html's histograms carry the limits as report.html's do
 * (html_limit_draw): the candidate's bounds on the metric, a red line for
 * one it failed, a green one for one it met, labelled; a bound far off the
 * data is named at the edge with an arrow. The baseline's own bounds (a
 * file changed between the runs) are not drawn: the requirement as it now
 * stands is. */
START_TEST(overlay_draws_the_limits)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double m3[NRUNS];
	scaled(m3, steady, 3);
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", m3, steady_max, none);
	set_max(&b, 0, 700, VERDICT_FAIL);
	set_max(&c, 0, 900, VERDICT_FAIL); /* mean ~3 us: failed */
	limit(&b.files[0].reqs[0], "per-op", "max", false, true, false);
	limit(&c.files[0].reqs[0], "per-op", "max", false, true, false);
	set_max(&b, 2, 2e9, VERDICT_PASS);
	set_max(&c, 2, 1e9, VERDICT_PASS); /* 1 s: five decades off the data */
	limit(&c.files[0].reqs[0], "per-op", "p99", false, true, false);
	set_max(&c, 3, 20000, VERDICT_PASS); /* 20 us: within a decade, widens the axis */
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	r.base_path = "base.json";
	r.cand_path = "cand.json";
	size_t len;
	char *h = cmp_render_html(&r, &len);
	ck_assert_ptr_nonnull(h);
	const char *svg = strstr(h, "<svg");
	ck_assert_ptr_nonnull(svg);
	/* the failed bound: a red line, labelled in red */
	ck_assert_ptr_nonnull(strstr(svg, "class=\"lim\""));
	ck_assert_ptr_nonnull(strstr(svg, "class=\"lab lab-no\">mean \xe2\x89\xa4 900 ns</text>"));
	/* the met bound within a decade: a green line, the axis reaching it */
	ck_assert_ptr_nonnull(strstr(svg, "class=\"lim lim-ok\""));
	ck_assert_ptr_nonnull(strstr(svg, ">p99 \xe2\x89\xa4 20 \xc2\xb5s</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">100 \xc2\xb5s</text>")); /* the decade past 20 us */
	/* the far one: at the edge, with an arrow, no line */
	ck_assert_ptr_nonnull(strstr(svg, ">max \xe2\x89\xa4 1 s \xe2\x86\x92</text>"));
	ck_assert_ptr_null(strstr(svg, ">1 s</text>"));
	/* the baseline's bounds are not the requirement's now */
	ck_assert_ptr_null(strstr(h, "\xe2\x89\xa4 700 ns"));
	ck_assert_ptr_null(strstr(h, "\xe2\x89\xa4 2 s"));
	free(h);
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

/* A scale so large the values overflow a double: compare.html draws no
 * axis (its loop never ended on infinite ends) and says why. */
START_TEST(overlay_not_finite)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double m3[NRUNS];
	scaled(m3, steady, 3);
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", m3, steady_max, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.5, &r, err), 0);
	r.base_path = "base.json";
	r.cand_path = "cand.json";
	c.files[0].reqs[0].metrics[0].ns_per_unit = 1e308;
	size_t len;
	char *h = cmp_render_html(&r, &len);
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(strstr(h, "not drawn: the values overflow a time axis"));
	ck_assert_ptr_null(strstr(h, "class=\"axis\""));
	free(h);
	cmp_result_free(&r);
	report_view_free(&b);
	report_view_free(&c);
}
END_TEST

/* Issue 41: a candidate that improved every figure it moved gets a green
 * banner that says so, its rows marked better, and its histograms drawn
 * in the colour of better (not the fail red a regression's are). */
START_TEST(all_better_is_green)
{
	struct report_view b, c;
	struct cmp_result r;
	char err[600];
	double m[NRUNS], x[NRUNS];
	scaled(m, steady, 0.3);
	scaled(x, steady_max, 0.3);
	view(&b, "A", steady, steady_max, none);
	view(&c, "A", m, x, none);
	ck_assert_int_eq(run_cmp(&b, &c, 0.1, &r, err), 0);
	ck_assert_uint_eq(r.better, 2);
	ck_assert_uint_eq(r.worse + r.inconclusive, 0);
	r.base_path = "base.json";
	r.cand_path = "cand.json";
	size_t len;
	char *h = cmp_render_html(&r, &len);
	ck_assert_ptr_nonnull(strstr(h, "<div class=\"banner b-pass\">NO REGRESSION, BETTER \xe2\x80\x94"));
	ck_assert_ptr_null(strstr(h, "class=\"ov-worse\""));
	ck_assert_ptr_nonnull(strstr(h, "class=\"ov-better\""));
	free(h);
	cmp_result_free(&r);
	/* the other way round: worse, red */
	ck_assert_int_eq(run_cmp(&c, &b, 0.1, &r, err), 0);
	r.base_path = "cand.json";
	r.cand_path = "base.json";
	h = cmp_render_html(&r, &len);
	ck_assert_ptr_nonnull(strstr(h, "<div class=\"banner b-fail\">REGRESSION \xe2\x80\x94"));
	ck_assert_ptr_nonnull(strstr(h, "class=\"ov-worse\""));
	ck_assert_ptr_null(strstr(h, "class=\"ov-better\""));
	free(h);
	cmp_result_free(&r);
	free_views(&b, &c);
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, same_runs_are_the_same);
	tcase_add_test(tc, all_better_is_green);
	tcase_add_test(tc, three_times_slower_is_worse);
	tcase_add_test(tc, tolerance_decides_for_steady_runs);
	tcase_add_test(tc, noisy_runs_are_inconclusive_not_same);
	tcase_add_test(tc, t_quantile_known_values);
	tcase_add_test(tc, ratio_interval_known_values);
	tcase_add_test(tc, jitter_regression_is_worse);
	tcase_add_test(tc, same_distribution_is_same);
	tcase_add_test(tc, three_runs_decide);
	tcase_add_test(tc, self_is_same_at_any_run_count);
	tcase_add_test(tc, inconclusive_but_not_worse_passes);
	tcase_add_test(tc, no_per_run_values_cannot_be_same_unless_equal);
	tcase_add_test(tc, one_wild_run_does_not_decide);
	tcase_add_test(tc, lower_is_worse_under_a_minimum);
	tcase_add_test(tc, violations_that_appear_are_worse);
	tcase_add_test(tc, what_cannot_be_compared);
	tcase_add_test(tc, unmeasured_and_differently_measured);
	tcase_add_test(tc, missing_from_the_candidate);
	tcase_add_test(tc, injected_faults_noted);
	tcase_add_test(tc, reports_render);
	tcase_add_test(tc, reports_render_inconclusive);
	tcase_add_test(tc, overlay_not_finite);
	tcase_add_test(tc, overlay_draws_the_limits);
	tcase_add_test(tc, row_text_prints_figures_as_every_report);
	tcase_add_test(tc, verdict_changes);
	tcase_add_test(tc, pass_to_fail_is_a_regression_whatever_the_figures);
	tcase_add_test(tc, changed_requirement_is_never_better);
	return s;
}

int main(void)
{
	return tu_run(compare_suite());
}
