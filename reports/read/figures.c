/* SPDX-License-Identifier: Apache-2.0 */
/* figures.c - see figures.h.
 *
 * The reports show the stored verdicts, and users gate releases on them:
 * a results.json whose "verdict": "pass" sits beside a measured value
 * above its max would otherwise be shown as a PASS (the project's first
 * rule is never a false PASS). So the reader hands the stored figures to
 * the harness's own judge (harness/verdict.h: limit_judge, limit_verdict,
 * verdict_of_limits) and refuses a file whose verdicts differ from its,
 * rather than pick one side: either the figures or the verdicts were
 * changed after the run, and no report can tell which is true.
 */
#include "reports/read/figures.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/orderstat.h"
#include "base/statistic.h"
#include "harness/verdict.h"
#include "reports/read/read.h"


struct fig {
	char *at, *why;
	size_t atlen, whylen;
	size_t fi, ri; /* the file and requirement being checked */
	double ci_work; /* sqrt(samples) of the intervals checked so far */
};

static double ci_work_limit = READ_CI_WORK;

void read_ci_work_set(double units)
{
	ci_work_limit = units > 0 ? units : READ_CI_WORK;
}

/* Refuse field (below the current requirement) with a reason. Returns
 * false. */
static bool refuse(struct fig *g, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool refuse(struct fig *g, const char *field, const char *fmt, ...)
{
	snprintf(g->at, g->atlen, "files[%zu].requirements[%zu].%s", g->fi, g->ri, field);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->why, g->whylen, fmt, ap);
	va_end(ap);
	return false;
}

bool fig_refuse(struct fig_refusal *c, const char *field, const char *fmt, ...)
{
	snprintf(c->at, c->atlen, "%s", field);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, c->whylen, fmt, ap);
	va_end(ap);
	return false;
}

unsigned fig_batch_sum(const struct rv_req *r, long double *sum, long double *big)
{
	unsigned n = 0;
	*sum = *big = 0;
	for (uint32_t k = 0; k < r->runs; k++)
		if (r->batch_run_ns[k].have) {
			*sum += r->batch_run_ns[k].v;
			*big = fmaxl(*big, fabsl(r->batch_run_ns[k].v));
			n++;
		}
	return n;
}

/* v as the reports print numbers that read back (numfmt_fmt_shortest). */
static const char *num_text(double v, char *buf, size_t len)
{
	numfmt_fmt_shortest(v, buf, len);
	return buf;
}

static bool not_above(double a, double b)
{
	return fig_not_above(a, b);
}

static bool about_equal(double a, double b)
{
	return fig_about_equal(a, b);
}

/* A limit's bounds as words: "max 10", "min 5 and max 10". */
static void bounds_text(const struct rv_limit *l, char *buf, size_t len)
{
	char lo[40], hi[40];
	num_text(l->min.value, lo, sizeof lo);
	num_text(l->max.value, hi, sizeof hi);
	if (l->has_min && l->has_max)
		snprintf(buf, len, "min %s and max %s", lo, hi);
	else
		snprintf(buf, len, "%s %s", l->has_max ? "max" : "min", l->has_max ? hi : lo);
}

/* A refusal of a stored verdict the judge does not give (refuse's why so
 * far) ends naming the requirement, the stored verdict and the judge's.
 * Returns false. */
static bool judged_otherwise(struct fig *g, const struct rv_req *r, enum verdict stored,
			     enum verdict want)
{
	size_t used = strlen(g->why);
	snprintf(g->why + used, g->whylen - used, " (requirement %.64s: stored \"%s\", the "
		 "judge's \"%s\")", r->id ? r->id : "?", verdict_name(stored), verdict_name(want));
	return false;
}

/* The figure limit l was judged on, as the run's summary held it
 * (harness/summary.h): its measured value, and for a limit at a confidence
 * the interval; a limit without a value had none. */
static struct limit_figure stored_figure(const struct rv_limit *l)
{
	return (struct limit_figure){
		.lack = l->measured.have ? FIGURE_HAVE : FIGURE_NO_VALUE, .metric = -1,
		.value = l->measured.v, .interval = l->confidence > 0,
		.has_lo = l->lower.have, .lo = l->lower.v, .has_hi = l->upper.have,
		.hi = l->upper.v, .need = l->need,
	};
}

/* Limit i's verdict: skipped with the requirement (never measured), else
 * the one the judge (limit_judge, limit_verdict) gives its stored figure.
 * In a requirement that is an error, "error" is also accepted for a limit
 * with a figure: files written before each limit kept its own verdict gave
 * every limit of such a requirement the requirement's error, and an error
 * can never make anything pass. */
static bool check_limit(struct fig *g, const struct rv_req *r, size_t i)
{
	const struct rv_limit *l = &r->limits[i];
	char field[48], mv[40], bv[100];
	const char *lv = verdict_name(l->verdict), *rv = verdict_name(r->verdict);
	snprintf(field, sizeof field, "limits[%zu].verdict", i);
	if (r->verdict == VERDICT_SKIPPED) {
		if (l->verdict != r->verdict)
			return refuse(g, field, "\"%s\", but the requirement is \"%s\", and a run "
				      "gives each limit of a requirement that is \"%s\" that verdict",
				      lv, rv, rv);
		snprintf(field, sizeof field, "limits[%zu].measured", i);
		if (l->measured.have)
			return refuse(g, field, "%s, but the requirement was skipped: a skipped "
				      "requirement is never measured",
				      num_text(l->measured.v, mv, sizeof mv));
		return true;
	}
	if (r->verdict == VERDICT_ERROR && l->verdict == VERDICT_ERROR)
		return true;
	struct limit_figure f = stored_figure(l);
	struct limit_bounds b = { l->has_min, l->has_max, l->min.value, l->max.value };
	struct limit_judged j;
	limit_judge(&b, &f, &j);
	enum verdict want = limit_verdict(r->verdict, j.evaluated, j.passed, j.undecided);
	if (l->verdict == want)
		return true;
	if (f.interval && j.evaluated) {
		char lo[40] = "none", hi[40] = "none";
		if (l->lower.have)
			num_text(l->lower.v, lo, sizeof lo);
		if (l->upper.have)
			num_text(l->upper.v, hi, sizeof hi);
		refuse(g, field, "\"%s\", but its %g%% interval [%s, %s] makes it \"%s\"", lv,
		       l->confidence * 100, lo, hi, verdict_name(want));
	} else if (!j.evaluated) {
		refuse(g, field, "\"%s\", but measured is null: a limit whose statistic could not "
		       "be computed is \"error\"", lv);
	} else if (want == VERDICT_FAIL) {
		num_text(f.value, mv, sizeof mv);
		num_text(j.on_max ? l->max.value : l->min.value, bv, sizeof bv);
		refuse(g, field, "\"%s\", but measured %s is %s %s %s", lv, mv,
		       j.on_max ? "above" : "below", j.on_max ? "max" : "min", bv);
	} else {
		num_text(f.value, mv, sizeof mv);
		bounds_text(l, bv, sizeof bv);
		refuse(g, field, "\"%s\", but measured %s is within %s: the limit passes", lv, mv,
		       bv);
	}
	return judged_otherwise(g, r, l->verdict, want);
}

/* A requirement judged on its limits (pass or fail) has the verdict they
 * give; an error may have its own cause besides them (the worker failed,
 * the load could not be stopped), and a skipped one gave its own to each
 * limit (check_limit). */
static bool check_req(struct fig *g, const struct rv_req *r)
{
	if (r->verdict == VERDICT_ERROR || r->verdict == VERDICT_SKIPPED)
		return true;
	size_t first_error = SIZE_MAX, first_fail = SIZE_MAX, first_undecided = SIZE_MAX;
	for (size_t i = r->nlimits; i-- > 0;) {
		if (r->limits[i].verdict == VERDICT_ERROR)
			first_error = i;
		else if (r->limits[i].verdict == VERDICT_FAIL)
			first_fail = i;
		else if (r->limits[i].verdict == VERDICT_INCONCLUSIVE)
			first_undecided = i;
	}
	enum verdict want = verdict_of_limits(first_error != SIZE_MAX, first_fail != SIZE_MAX,
					      first_undecided != SIZE_MAX);
	if (want == r->verdict)
		return true;
	const char *rv = verdict_name(r->verdict);
	size_t i = want == VERDICT_ERROR ? first_error
		   : want == VERDICT_INCONCLUSIVE ? first_undecided : first_fail;
	if (want == VERDICT_PASS)
		refuse(g, "verdict", "\"%s\", but none of its %zu limits failed: a requirement "
		       "fails only by a limit", rv, r->nlimits);
	else
		refuse(g, "verdict", "\"%s\", but limits[%zu] is \"%s\", which makes the "
		       "requirement \"%s\"", rv, i, verdict_name(r->limits[i].verdict),
		       verdict_name(want));
	return judged_otherwise(g, r, r->verdict, want);
}

/* The present ones of vals[order[0]], vals[order[1]], ... must not fall;
 * what says why. */
static bool rising(struct fig *g, const char *set, const char *const *names,
		   const struct rv_value *vals, const int *order, size_t n, const char *what)
{
	int prev = -1;
	for (size_t k = 0; k < n; k++) {
		int i = order[k];
		if (!vals[i].have)
			continue;
		if (prev >= 0 && !not_above(vals[prev].v, vals[i].v)) {
			char field[120], a[40], b[40];
			snprintf(field, sizeof field, "%s.%s", set, names[prev]);
			return refuse(g, field, "%s, above %s %s: %s",
				      num_text(vals[prev].v, a, sizeof a), names[i],
				      num_text(vals[i].v, b, sizeof b), what);
		}
		prev = i;
	}
	return true;
}

static const int pct_order[] = { RV_MIN, RV_P50, RV_P90, RV_P99, RV_P99_9, RV_MAX };
static const int mean_order[] = { RV_MIN, RV_MEAN, RV_MAX };
static const int count_order[] = { RVC_MIN, RVC_MEAN, RVC_MAX, RVC_TOTAL };
static const int series_pct[] = { RVS_MIN, RVS_P99, RVS_MAX };
static const int series_mean[] = { RVS_MIN, RVS_MEAN, RVS_MAX };
#define N(a) (sizeof a / sizeof a[0])
#define PCT_WHY "percentiles rise with their rank (min <= p50 <= p90 <= p99 <= p99.9 <= max)"
#define MEAN_WHY "a mean lies between the min and the max"

/* One duration's statistics (statistics_ns or statistics_cycles). */
static bool stats_ordered(struct fig *g, const char *set, const struct rv_value *s)
{
	return rising(g, set, report_view_stats, s, pct_order, N(pct_order), PCT_WHY) &&
	       rising(g, set, report_view_stats, s, mean_order, N(mean_order), MEAN_WHY);
}

/* The histogram a metric's or a series' intervals are mapped onto. */
struct ci_hist {
	const struct rv_bucket *bk;
	size_t n;
	uint64_t count, overflow;
	const struct rv_neg *neg;
	double npu;
	const struct rv_value *min, *max;
};

static bool check_ci_values(struct fig *g, const char *at, const struct rv_ci *c,
			    const struct ci_hist *h, double q);

/* A percentile's stored interval (set: "metrics[0].confidence", name:
 * "p99") is the one a run gives for its figures: the ranks and coverage
 * are what base/orderstat.h gives for the count and level (pure, so
 * computed again here), a side is null exactly when its rank is none, and
 * the bounds enclose the point estimate within the min and the max. */
static bool check_ci(struct fig *g, const char *set, const char *name, const struct rv_ci *c,
		     const struct rv_value *est, const struct ci_hist *h)
{
	const struct rv_value *min = h->min, *max = h->max;
	char f[160], a[40], b[40];
	struct statistic st;
	struct os_bounds ob;
	snprintf(f, sizeof f, "%s.%s", set, name);
	if (!est->have)
		return refuse(g, f, "an interval of a percentile that is null: only a reported "
			      "percentile has one");
	if (statistic_parse(name, &st) != 0 || st.kind != STAT_PCT)
		return refuse(g, f, "an interval of what is not a percentile");
	if (c->n > RV_CI_MAX_SAMPLES)
		return refuse(g, f, "an interval of %llu samples, but a run gives none above 2^40",
			      (unsigned long long)c->n);
	g->ci_work += sqrt((double)c->n);
	if (g->ci_work > ci_work_limit)
		return refuse(g, f, "checking the file's intervals up to this one would take "
			      "more than %.0f units of sqrt(samples), the most the reader spends "
			      "on a file", ci_work_limit);
	os_quantile_bounds(c->n, st.pct / 100.0, c->level, &ob);
	const struct {
		const char *key;
		uint64_t got, want;
	} ranks[] = { { "lo_rank", c->lo_rank, ob.lo_rank }, { "hi_rank", c->hi_rank, ob.hi_rank } };
	for (size_t k = 0; k < N(ranks); k++)
		if (ranks[k].got != ranks[k].want) {
			snprintf(f, sizeof f, "%s.%s.%s", set, name, ranks[k].key);
			return refuse(g, f, "%llu, but %llu samples at level %s give %llu: the "
				      "ranks are the order statistics' (base/orderstat.h)",
				      (unsigned long long)ranks[k].got, (unsigned long long)c->n,
				      num_text(c->level, a, sizeof a),
				      (unsigned long long)ranks[k].want);
		}
	snprintf(f, sizeof f, "%s.%s.coverage", set, name);
	if (!(fabs(c->coverage - ob.coverage) <= 1e-9))
		return refuse(g, f, "%s, but ranks %llu and %llu of %llu samples cover %s",
			      num_text(c->coverage, a, sizeof a), (unsigned long long)ob.lo_rank,
			      (unsigned long long)ob.hi_rank, (unsigned long long)c->n,
			      num_text(ob.coverage, b, sizeof b));
	bool lo_none = c->lo_rank == 0, hi_none = c->hi_rank > c->n;
	snprintf(f, sizeof f, "%s.%s.lo_ns", set, name);
	num_text(c->lo_ns, a, sizeof a);
	if (c->has_lo == lo_none)
		return refuse(g, f, "%s, but lo_rank %llu %s", c->has_lo ? a : "null",
			      (unsigned long long)c->lo_rank,
			      c->has_lo ? "is no lower bound" : "is a bound");
	if (c->has_lo && !not_above(c->lo_ns, est->v))
		return refuse(g, f, "%s, above the estimate %s %s: a lower bound lies at or "
			      "below it", a, name, num_text(est->v, b, sizeof b));
	if (c->has_lo && min->have && !not_above(min->v, c->lo_ns))
		return refuse(g, f, "%s, below min %s: no bound lies outside the samples", a,
			      num_text(min->v, b, sizeof b));
	snprintf(f, sizeof f, "%s.%s.hi_ns", set, name);
	num_text(c->hi_ns, a, sizeof a);
	if (c->has_hi == hi_none)
		return refuse(g, f, "%s, but hi_rank %llu %s", c->has_hi ? a : "null",
			      (unsigned long long)c->hi_rank,
			      c->has_hi ? "(n + 1) is no upper bound" : "is a bound");
	if (c->has_hi && !not_above(est->v, c->hi_ns))
		return refuse(g, f, "%s, below the estimate %s %s: an upper bound lies at or "
			      "above it", a, name, num_text(est->v, b, sizeof b));
	if (c->has_hi && max->have && !not_above(c->hi_ns, max->v))
		return refuse(g, f, "%s, above max %s: no bound lies outside the samples", a,
			      num_text(max->v, b, sizeof b));
	snprintf(f, sizeof f, "%s.%s.%s_bucket_limited", set, name, c->lo_bucket && !c->has_lo
			 ? "lo" : "hi");
	if ((c->lo_bucket && !c->has_lo) || (c->hi_bucket && !c->has_hi))
		return refuse(g, f, "true, but that side has no bound");
	snprintf(f, sizeof f, "%s.%s", set, name);
	return check_ci_values(g, f, c, h, st.pct / 100.0);
}

/* The bucket (index into h->bk) of the k-th smallest sample; h->n when it
 * is among the overflowed ones. */
static size_t bucket_of_rank(const struct ci_hist *h, uint64_t k)
{
	uint64_t seen = 0;
	for (size_t i = 0; i < h->n; i++) {
		seen += h->bk[i].count;
		if (seen >= k)
			return i;
	}
	return h->n;
}

/* v clamped to the present ones of [min, max]. */
static double clamp_to(double v, const struct rv_value *min, const struct rv_value *max)
{
	if (min->have && v < min->v)
		v = min->v;
	if (max->have && v > max->v)
		v = max->v;
	return v;
}

/* The bounds' values and bucket-limited flags are what the ranks give on
 * the histogram (stat_bounds: the lower edge of the bucket of lo_rank, the
 * upper edge of that of hi_rank, clamped to min and max; bucket-limited
 * when that bucket is the estimate's), where the file tells them exactly:
 * a histogram whose buckets and overflow hold the count, without samples
 * below zero (whose own min and max it does not keep), and each rank in a
 * bucket, not among the overflowed. */
static bool check_ci_values(struct fig *g, const char *at, const struct rv_ci *c,
			    const struct ci_hist *h, double q)
{
	uint64_t sum = h->overflow;
	for (size_t i = 0; i < h->n; i++)
		sum += h->bk[i].count;
	if (!h->n || h->npu <= 0 || sum != h->count || h->neg->nbuckets || h->neg->overflow)
		return true;
	size_t est = bucket_of_rank(h, os_estimate_rank(c->n, q));
	const struct {
		const char *side;
		bool has;
		uint64_t rank;
		double v;
		bool bucket;
	} sides[] = { { "lo", c->has_lo, c->lo_rank, c->lo_ns, c->lo_bucket },
		      { "hi", c->has_hi, c->hi_rank, c->hi_ns, c->hi_bucket } };
	for (size_t k = 0; k < N(sides); k++) {
		size_t b = sides[k].has ? bucket_of_rank(h, sides[k].rank) : h->n;
		if (b == h->n)
			continue;
		const struct rv_bucket *bk = &h->bk[b];
		double want = clamp_to((double)(k ? bk->hi : bk->lo) * h->npu, h->min, h->max);
		char f[200], a[40], w[40];
		snprintf(f, sizeof f, "%s.%s_ns", at, sides[k].side);
		if (!about_equal(sides[k].v, want))
			return refuse(g, f, "%s, but rank %llu lies in bucket [%llu, %llu], which "
				      "gives %s: a bound is its rank's bucket edge, within min and max",
				      num_text(sides[k].v, a, sizeof a),
				      (unsigned long long)sides[k].rank, (unsigned long long)bk->lo,
				      (unsigned long long)bk->hi, num_text(want, w, sizeof w));
		snprintf(f, sizeof f, "%s.%s_bucket_limited", at, sides[k].side);
		if (est != h->n && sides[k].bucket != (b == est))
			return refuse(g, f, "%s, but rank %llu lies %s the estimate's bucket",
				      sides[k].bucket ? "true" : "false",
				      (unsigned long long)sides[k].rank,
				      b == est ? "in" : "outside");
	}
	return true;
}

/* A histogram holds every sample: its buckets, the positive overflow and
 * the samples below zero add up to the count. Otherwise a bucket was
 * dropped or added after the run (an outlier's bucket taken out, say),
 * and the percentiles, the plots and the CSV export would no longer show
 * the samples the statistics were taken over. */
static bool check_hist(struct fig *g, const char *set, const struct ci_hist *h)
{
	uint64_t sum = h->overflow;
	bool wrapped = false;
	for (size_t i = 0; i < h->n && !wrapped; i++)
		wrapped = __builtin_add_overflow(sum, h->bk[i].count, &sum);
	if (wrapped || __builtin_add_overflow(sum, rv_neg_count(h->neg), &sum) ||
	    sum != h->count) {
		char f[120];
		snprintf(f, sizeof f, "%s.histogram", set);
		return refuse(g, f, "its buckets, overflow and samples below zero hold %s%llu "
			      "samples, but count is %llu: the histogram does not hold the samples",
			      wrapped ? "over " : "", (unsigned long long)sum,
			      (unsigned long long)h->count);
	}
	return true;
}

/* Every duration metric's, and every per-CPU series', histogram. */
static bool check_hists(struct fig *g, const struct rv_req *r)
{
	char set[80];
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		if (m->kind == METRIC_COUNT)
			continue;
		struct ci_hist h = { m->buckets, m->nbuckets, m->count, m->overflow, &m->neg,
				     m->ns_per_unit, &m->ns[RV_MIN], &m->ns[RV_MAX] };
		snprintf(set, sizeof set, "metrics[%zu]", i);
		if (!check_hist(g, set, &h))
			return false;
	}
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rv_series *s = &r->series[i];
		if (!s->has_hist)
			continue;
		struct ci_hist h = { s->buckets, s->nbuckets, s->count, s->overflow, &s->neg,
				     r->nmetrics ? r->metrics[0].ns_per_unit : 0,
				     &s->ns[RVS_MIN], &s->ns[RVS_MAX] };
		snprintf(set, sizeof set, "per_cpu[%zu]", i);
		if (!check_hist(g, set, &h))
			return false;
	}
	return true;
}

/* Every stored interval of r's metrics and per-CPU series. */
static bool check_cis(struct fig *g, const struct rv_req *r)
{
	char set[80];
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		struct ci_hist h = { m->buckets, m->nbuckets, m->count, m->overflow, &m->neg,
				     m->ns_per_unit, &m->ns[RV_MIN], &m->ns[RV_MAX] };
		snprintf(set, sizeof set, "metrics[%zu].confidence", i);
		for (int k = 0; k < RV_NSTATS && m->kind != METRIC_COUNT; k++)
			if (m->ci[k].have &&
			    !check_ci(g, set, report_view_stats[k], &m->ci[k], &m->ns[k], &h))
				return false;
	}
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rv_series *s = &r->series[i];
		/* a series without its histogram (older files) is held to its
		 * figures alone */
		struct ci_hist h = { s->buckets, s->has_hist ? s->nbuckets : 0, s->count,
				     s->overflow, &s->neg, r->nmetrics ? r->metrics[0].ns_per_unit : 0,
				     &s->ns[RVS_MIN], &s->ns[RVS_MAX] };
		snprintf(set, sizeof set, "per_cpu[%zu].confidence", i);
		if (s->p99_ci.have && !check_ci(g, set, "p99", &s->p99_ci, &s->ns[RVS_P99], &h))
			return false;
	}
	return true;
}

static bool check_metrics(struct fig *g, const struct rv_req *r)
{
	char set[80];
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		if (m->kind == METRIC_COUNT) {
			snprintf(set, sizeof set, "metrics[%zu].statistics", i);
			if (!rising(g, set, report_view_count_stats, m->counts, count_order,
				    N(count_order), "a count's min <= mean <= max <= total"))
				return false;
			continue;
		}
		snprintf(set, sizeof set, "metrics[%zu].statistics_ns", i);
		if (!stats_ordered(g, set, m->ns))
			return false;
		snprintf(set, sizeof set, "metrics[%zu].statistics_cycles", i);
		if (!stats_ordered(g, set, m->cycles))
			return false;
	}
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rv_series *s = &r->series[i];
		snprintf(set, sizeof set, "per_cpu[%zu]", i);
		/* results.json names them "min_ns", ... (json.c) */
		char buf[RV_NSERIES_STATS][24];
		const char *names[RV_NSERIES_STATS];
		for (int k = 0; k < RV_NSERIES_STATS; k++) {
			snprintf(buf[k], sizeof buf[k], "%s_ns", report_view_series_stats[k]);
			names[k] = buf[k];
		}
		if (!rising(g, set, names, s->ns, series_pct, N(series_pct), PCT_WHY) ||
		    !rising(g, set, names, s->ns, series_mean, N(series_mean), MEAN_WHY))
			return false;
	}
	return true;
}

/* Where bucket [lo, hi] is among bk's (ascending), or n when it is not one. */
static size_t bucket_at(const struct rv_bucket *bk, size_t n, uint64_t lo, uint64_t hi)
{
	size_t a = 0, z = n;
	while (a < z) {
		size_t m = a + (z - a) / 2;
		if (bk[m].lo < lo)
			a = m + 1;
		else
			z = m;
	}
	return a < n && bk[a].lo == lo && bk[a].hi == hi ? a : n;
}

/* The samples of one side (buckets) of a histogram and of its intervals:
 * each interval bucket one of the whole's, none holding more than it. */
struct ival_side {
	const struct rv_bucket *bk;
	size_t n;
	uint64_t *sum;   /* per bucket of the whole, over the intervals */
};

static bool add_side(struct fig *g, const char *set, size_t k, const char *side,
		     struct ival_side *w, const struct rv_bucket *ib, size_t in, uint64_t *count)
{
	for (size_t i = 0; i < in; i++) {
		size_t at = bucket_at(w->bk, w->n, ib[i].lo, ib[i].hi);
		char field[120];
		snprintf(field, sizeof field, "%s.intervals[%zu].histogram%s.buckets[%zu]", set, k,
			 side, i);
		if (at == w->n)
			return refuse(g, field, "[%llu, %llu] is not a bucket of the whole histogram",
				      (unsigned long long)ib[i].lo, (unsigned long long)ib[i].hi);
		if (__builtin_add_overflow(w->sum[at], ib[i].count, &w->sum[at]) ||
		    __builtin_add_overflow(*count, ib[i].count, count))
			return refuse(g, field, "counts past 2^64 samples: no run holds that many");
	}
	return true;
}

/* Each interval's count is what its histogram holds; the intervals add up
 * to the whole, bucket by bucket (to at most it for a requirement that
 * ended in error: one cut short by a kill keeps the runs after its last
 * interval in its totals only). */
static bool ivals_add_up(struct fig *g, const char *set, const struct rv_ival *iv, size_t n,
			 uint64_t count, uint64_t overflow, struct ival_side *pos,
			 struct ival_side *neg, bool exact)
{
	uint64_t all = 0, ovf = 0;
	for (size_t k = 0; k < n; k++) {
		char field[96];
		snprintf(field, sizeof field, "%s.intervals[%zu]", set, k);
		if (k && iv[k].start_ms < iv[k - 1].start_ms)
			return refuse(g, field, "starts before the interval ahead of it: intervals "
				      "are in time order");
		snprintf(field, sizeof field, "%s.intervals[%zu].statistics_ns", set, k);
		if (!stats_ordered(g, field, iv[k].ns))
			return false;
		uint64_t c;
		if (__builtin_add_overflow(iv[k].overflow, iv[k].neg.overflow, &c))
			return refuse(g, field, "counts past 2^64 samples: no run holds that many");
		if (!add_side(g, set, k, "", pos, iv[k].buckets, iv[k].nbuckets, &c) ||
		    !add_side(g, set, k, ".negative", neg, iv[k].neg.buckets, iv[k].neg.nbuckets, &c))
			return false;
		snprintf(field, sizeof field, "%s.intervals[%zu].count", set, k);
		if (c != iv[k].count)
			return refuse(g, field, "%llu, but its histogram holds %llu",
				      (unsigned long long)iv[k].count, (unsigned long long)c);
		if (__builtin_add_overflow(all, c, &all) ||
		    __builtin_add_overflow(ovf, iv[k].overflow, &ovf))
			return refuse(g, field, "counts past 2^64 samples: no run holds that many");
	}
	struct ival_side *sides[2] = { pos, neg };
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->n; i++)
			if (sides[s]->sum[i] > sides[s]->bk[i].count ||
			    (exact && sides[s]->sum[i] != sides[s]->bk[i].count))
				return refuse(g, set, "its intervals put %llu samples in bucket [%llu, %llu], "
					      "which holds %llu: the intervals do not add up to the whole",
					      (unsigned long long)sides[s]->sum[i],
					      (unsigned long long)sides[s]->bk[i].lo,
					      (unsigned long long)sides[s]->bk[i].hi,
					      (unsigned long long)sides[s]->bk[i].count);
	if (all > count || ovf > overflow || (exact && (all != count || ovf != overflow)))
		return refuse(g, set, "its intervals hold %llu samples (%llu above the histogram), "
			      "the whole %llu (%llu): they do not add up", (unsigned long long)all,
			      (unsigned long long)ovf, (unsigned long long)count,
			      (unsigned long long)overflow);
	return true;
}

static bool check_ivals(struct fig *g, const char *set, const struct rv_ival *iv, size_t n,
			uint64_t count, uint64_t overflow, const struct rv_bucket *bk, size_t nbk,
			const struct rv_neg *neg, bool exact)
{
	if (!n)
		return true;
	struct ival_side pos = { bk, nbk, calloc(nbk + 1, sizeof(uint64_t)) };
	struct ival_side ng = { neg->buckets, neg->nbuckets,
				calloc(neg->nbuckets + 1, sizeof(uint64_t)) };
	bool ok = pos.sum && ng.sum
			  ? ivals_add_up(g, set, iv, n, count, overflow, &pos, &ng, exact)
			  : refuse(g, set, "out of memory checking its intervals");
	free(pos.sum);
	free(ng.sum);
	return ok;
}

/* Every metric's and series' intervals add up to it. */
static bool check_intervals(struct fig *g, const struct rv_req *r)
{
	char set[48];
	bool exact = r->verdict != VERDICT_ERROR;
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		snprintf(set, sizeof set, "metrics[%zu]", i);
		if (!check_ivals(g, set, m->intervals, m->nintervals, m->count, m->overflow,
				 m->buckets, m->nbuckets, &m->neg, exact))
			return false;
	}
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rv_series *s = &r->series[i];
		snprintf(set, sizeof set, "per_cpu[%zu]", i);
		if (!check_ivals(g, set, s->intervals, s->nintervals, s->count, s->overflow,
				 s->buckets, s->nbuckets, &s->neg, exact))
			return false;
	}
	return true;
}

/* A limit's measured value is the statistic it names of its metric, which
 * the file stores too (when it is one of those every report gives). */
static bool check_measured(struct fig *g, const struct rv_req *r, size_t i)
{
	const struct rv_limit *l = &r->limits[i];
	if (!l->measured.have || !l->metric || !l->statistic)
		return true;
	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct rv_metric *m = &r->metrics[k];
		if (strcmp(m->name, l->metric) != 0)
			continue;
		if ((m->kind == METRIC_COUNT) != l->count)
			return true; /* judged an error; nothing stored to compare */
		const char *const *names = l->count ? report_view_count_stats : report_view_stats;
		size_t n = l->count ? RV_NCSTATS : RV_NSTATS;
		const struct rv_value *vals = l->count ? m->counts : l->cycles ? m->cycles : m->ns;
		const char *set = l->count ? "statistics" : l->cycles ? "statistics_cycles"
								      : "statistics_ns";
		for (size_t s = 0; s < n; s++) {
			if (strcmp(names[s], l->statistic) != 0 || !vals[s].have ||
			    about_equal(vals[s].v, l->measured.v))
				continue;
			char field[48], a[40], b[40];
			snprintf(field, sizeof field, "limits[%zu].measured", i);
			return refuse(g, field, "%s, but metrics[%zu].%s.%s is %s: a limit's "
				      "measured value is the statistic it names",
				      num_text(l->measured.v, a, sizeof a), k, set, names[s],
				      num_text(vals[s].v, b, sizeof b));
		}
		return true;
	}
	return true;
}

/* A limit judged at a confidence (ns) on a percentile whose interval metric
 * m (metrics[k]) does not keep (a percentile not reported, such as p95, or
 * an interval removed or nulled): its lower and upper are still
 * stat_bounds' on m's histogram, computed here where the histogram tells
 * them exactly (check_ci_values' conditions), so neither can be moved to
 * turn the limit's verdict. */
static bool check_limit_ci_hist(struct fig *g, const struct rv_metric *m, size_t k,
				const struct rv_limit *l, size_t i)
{
	struct statistic st;
	struct ci_hist h = { m->buckets, m->nbuckets, m->count, m->overflow, &m->neg,
			     m->ns_per_unit, &m->ns[RV_MIN], &m->ns[RV_MAX] };
	uint64_t sum = h.overflow;
	for (size_t b = 0; b < h.n; b++)
		sum += h.bk[b].count;
	/* a limit never judged (too few samples: an error) has no interval */
	if (!l->measured.have || statistic_parse(l->statistic, &st) != 0 ||
	    st.kind != STAT_PCT || !h.n ||
	    h.npu <= 0 || sum != h.count || h.neg->nbuckets || h.neg->overflow ||
	    m->count == 0 || m->count > RV_CI_MAX_SAMPLES || !(l->confidence > 0.5) ||
	    !(l->confidence < 1))
		return true;
	char f[80], a[40], b[40], w[40];
	snprintf(f, sizeof f, "limits[%zu]", i);
	g->ci_work += sqrt((double)m->count);
	if (g->ci_work > ci_work_limit)
		return refuse(g, f, "checking the file's intervals up to this one would take "
			      "more than %.0f units of sqrt(samples), the most the reader spends "
			      "on a file", ci_work_limit);
	struct os_bounds ob;
	os_quantile_bounds(m->count, st.pct / 100.0, l->confidence, &ob);
	const struct {
		const char *key;
		const struct rv_value *v;
		uint64_t rank;
		bool has;
	} sides[] = { { "lower", &l->lower, ob.lo_rank, ob.lo_rank > 0 },
		      { "upper", &l->upper, ob.hi_rank, ob.hi_rank <= m->count } };
	for (size_t n = 0; n < N(sides); n++) {
		size_t bk = sides[n].has ? bucket_of_rank(&h, sides[n].rank) : h.n;
		if (sides[n].has && bk == h.n)
			continue; /* among the overflowed: not known exactly */
		double want = sides[n].has ? clamp_to((double)(n ? h.bk[bk].hi : h.bk[bk].lo) *
						      h.npu, h.min, h.max)
					   : 0;
		if (sides[n].v->have == sides[n].has &&
		    (!sides[n].has || about_equal(sides[n].v->v, want)))
			continue;
		snprintf(f, sizeof f, "limits[%zu].%s", i, sides[n].key);
		return refuse(g, f, "%s, but rank %llu of metrics[%zu]'s %llu samples at level "
			      "%s gives %s on its histogram: a limit is judged on its "
			      "statistic's interval",
			      sides[n].v->have ? num_text(sides[n].v->v, a, sizeof a) : "null",
			      (unsigned long long)sides[n].rank, k,
			      (unsigned long long)m->count, num_text(l->confidence, b, sizeof b),
			      sides[n].has ? num_text(want, w, sizeof w) : "null");
	}
	return true;
}

/* A limit judged at a confidence (ns) on a percentile whose interval the
 * metric keeps: the first such limit on that statistic set that
 * interval's level, and an interval at the limit's level is the one the
 * limit was judged on (both stat_bounds), so its lower and upper are that
 * interval's bounds, which are held to the ranks and buckets above. A
 * metric that keeps none (files written before, a count past 2^40) leaves
 * the limit's interval to its own checks. */
static bool check_limit_ci(struct fig *g, const struct rv_req *r, size_t i)
{
	const struct rv_limit *l = &r->limits[i];
	if (!(l->confidence > 0) || l->count || l->cycles || !l->metric || !l->statistic)
		return true;
	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct rv_metric *m = &r->metrics[k];
		if (m->kind == METRIC_COUNT || strcmp(m->name, l->metric) != 0)
			continue;
		for (int s = 0; s < RV_NSTATS; s++) {
			const struct rv_ci *c = rv_metric_ci(m, s);
			if (!c || strcmp(report_view_stats[s], l->statistic) != 0)
				continue;
			char f[80], a[40], b[40];
			bool first = true;
			for (size_t j = 0; j < i; j++)
				first &= !(r->limits[j].confidence > 0 && r->limits[j].metric &&
					   r->limits[j].statistic &&
					   !strcmp(r->limits[j].metric, l->metric) &&
					   !strcmp(r->limits[j].statistic, l->statistic));
			snprintf(f, sizeof f, "limits[%zu].confidence", i);
			if (c->level != l->confidence)
				return !first ? check_limit_ci_hist(g, m, k, l, i)
				       : refuse(g, f, "%s, but metrics[%zu].confidence.%s is at %s: a "
						"limit's confidence sets its statistic's interval",
						num_text(l->confidence, a, sizeof a), k, l->statistic,
						num_text(c->level, b, sizeof b));
			const struct {
				const char *key;
				const struct rv_value *v;
				bool has;
				double want;
			} sides[] = { { "lower", &l->lower, c->has_lo, c->lo_ns },
				      { "upper", &l->upper, c->has_hi, c->hi_ns } };
			for (size_t n = 0; n < N(sides); n++) {
				if (sides[n].v->have == sides[n].has &&
				    (!sides[n].has || about_equal(sides[n].v->v, sides[n].want)))
					continue;
				snprintf(f, sizeof f, "limits[%zu].%s", i, sides[n].key);
				return refuse(g, f, "%s, but metrics[%zu].confidence.%s.%s_ns is %s: a "
					      "limit is judged on its statistic's interval",
					      sides[n].v->have ? num_text(sides[n].v->v, a, sizeof a)
							       : "null", k, l->statistic, n ? "hi" : "lo",
					      sides[n].has ? num_text(sides[n].want, b, sizeof b)
							   : "null");
			}
			return true;
		}
		return check_limit_ci_hist(g, m, k, l, i);
	}
	return true;
}

/* The figures the requirement states twice (figures_runs.c). */
static bool check_parts(struct fig *g, const struct rv_req *r)
{
	char field[200], why[600];
	if (read_check_parts(r, field, sizeof field, why, sizeof why) &&
	    read_check_stats(r, field, sizeof field, why, sizeof why))
		return true;
	return refuse(g, field, "%s", why);
}

/* The verdicts first: they are what a reader acts on, and what a changed
 * figure most often contradicts. */
static bool check_one(struct fig *g, const struct rv_req *r)
{
	for (size_t i = 0; i < r->nlimits; i++)
		if (!check_limit(g, r, i))
			return false;
	if (!check_req(g, r) || !check_metrics(g, r) || !check_cis(g, r) ||
	    !check_intervals(g, r) || !check_hists(g, r) || !check_parts(g, r))
		return false;
	for (size_t i = 0; i < r->nlimits; i++)
		if (!check_measured(g, r, i) || !check_limit_ci(g, r, i))
			return false;
	return true;
}

int read_check_figures(const struct report_view *v, char *at, size_t atlen, char *why,
		       size_t whylen)
{
	struct fig g = { at, why, atlen, whylen, 0, 0, 0 };
	for (g.fi = 0; g.fi < v->nfiles; g.fi++)
		for (g.ri = 0; g.ri < v->files[g.fi].nreqs; g.ri++)
			if (!check_one(&g, &v->files[g.fi].reqs[g.ri]))
				return -EINVAL;
	return 0;
}
