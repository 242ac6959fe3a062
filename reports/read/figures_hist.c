/* SPDX-License-Identifier: Apache-2.0 */
/* figures_hist.c - see figures.h (read_check_stats).
 *
 * A duration metric's statistics are taken over the samples its histogram
 * holds (harness/stats.c), so the file states each of them twice: as a
 * number, and as what the buckets allow. A percentile is the upper edge of
 * the bucket its rank falls in, clamped to the min and max (the max when
 * the rank lies among the overflowed samples: harness/measure/histogram.c),
 * the min lies in the lowest bucket, the max in the highest (above the
 * histogram's top when samples overflowed), and the mean between the
 * buckets' lower and upper edges weighted by their counts. statistics_ns
 * and statistics_cycles are the same numbers in two scales, median_ns is
 * p50, a count metric's min, max and mean are its runs', and
 * batch.stddev_ns is the spread of batch.per_run_ns. A file edited to move
 * one of them (a p99 lowered under its limit, a min moved) and nothing else
 * is refused naming the field. Only a histogram that holds every sample
 * and none below zero is used (the same condition as check_ci_values in
 * figures.c); FIG_SLACK allows the roundings of one scaling.
 */
#include "reports/read/figures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/orderstat.h"
#include "base/statistic.h"

static const char *num(double v, char *buf, size_t len)
{
	numfmt_fmt_shortest(v, buf, len);
	return buf;
}

/* One histogram and the statistics stated for it (ns). */
struct hs {
	const char *set;            /* "metrics[0].statistics_ns", "per_cpu[1]" */
	const char *suffix;         /* "" or "_ns": per_cpu names them min_ns, ... */
	const struct rv_bucket *bk;
	size_t n;
	uint64_t count, overflow, highest;
	double npu;
	const struct rv_value *min, *mean, *max;
};

/* The histogram tells the statistics exactly: it holds every sample, none
 * below zero, with a usable scale. */
static bool hist_known(const struct hs *h, const struct rv_neg *neg)
{
	uint64_t sum = h->overflow;
	for (size_t i = 0; i < h->n; i++)
		if (__builtin_add_overflow(sum, h->bk[i].count, &sum))
			return false;
	return h->n && h->npu > 0 && isfinite(h->npu) && sum == h->count && h->count &&
	       !neg->nbuckets && !neg->overflow && h->min->have && h->max->have;
}

/* Percentile q (0..1) of h: the upper edge of the bucket of its rank,
 * within min and max; the max when that rank overflowed. */
static double pct_want(const struct hs *h, double q, uint64_t *rank)
{
	*rank = os_estimate_rank(h->count, q);
	uint64_t seen = 0;
	for (size_t i = 0; i < h->n; i++) {
		seen += h->bk[i].count;
		if (seen >= *rank)
			return fmin(fmax((double)h->bk[i].hi * h->npu, h->min->v), h->max->v);
	}
	return h->max->v;
}

static bool pct_ok(struct fig_refusal *c, const struct hs *h, const char *name,
		   const struct rv_value *v)
{
	struct statistic st;
	if (!v->have || statistic_parse(name, &st) != 0 || st.kind != STAT_PCT)
		return true;
	uint64_t rank;
	double want = pct_want(h, st.pct / 100.0, &rank);
	if (fig_about_equal(v->v, want))
		return true;
	char f[160], a[40], b[40];
	snprintf(f, sizeof f, "%s.%s%s", h->set, name, h->suffix);
	return fig_refuse(c, f, "%s, but rank %llu of the %llu samples lies where the histogram gives "
		      "%s: a percentile is the upper edge of its rank's bucket, within min and max",
		      num(v->v, a, sizeof a), (unsigned long long)rank,
		      (unsigned long long)h->count, num(want, b, sizeof b));
}

static bool within(struct fig_refusal *c, const struct hs *h, const char *name, double v, double lo,
		   double hi, const char *why)
{
	if (fig_not_above(lo, v) && fig_not_above(v, hi))
		return true;
	char f[160], a[40], b[40], d[40];
	snprintf(f, sizeof f, "%s.%s%s", h->set, name, h->suffix);
	return fig_refuse(c, f, "%s, but the histogram puts it in [%s, %s]: %s", num(v, a, sizeof a),
		      num(lo, b, sizeof b), num(hi, d, sizeof d), why);
}

/* min, max and mean against the buckets. */
static bool extremes_ok(struct fig_refusal *c, const struct hs *h)
{
	const struct rv_bucket *first = &h->bk[0], *last = &h->bk[h->n - 1];
	if (!within(c, h, "min", h->min->v, (double)first->lo * h->npu,
		    (double)first->hi * h->npu, "the min lies in the lowest bucket"))
		return false;
	double top = h->overflow ? INFINITY : (double)last->hi * h->npu;
	double bottom = h->overflow ? (double)(h->highest + 1) * h->npu : (double)last->lo * h->npu;
	if (!within(c, h, "max", h->max->v, bottom, top, h->overflow
		    ? "samples overflowed, so the max lies above the histogram's highest"
		    : "the max lies in the highest bucket"))
		return false;
	if (!h->mean->have)
		return true;
	long double lo = (long double)h->overflow * (long double)(h->highest + 1) * h->npu;
	long double hi = (long double)h->overflow * h->max->v;
	for (size_t i = 0; i < h->n; i++) {
		lo += (long double)h->bk[i].count * h->bk[i].lo * h->npu;
		hi += (long double)h->bk[i].count * h->bk[i].hi * h->npu;
	}
	return within(c, h, "mean", h->mean->v, (double)(lo / h->count), (double)(hi / h->count),
		      "a mean lies between its samples' buckets' edges weighted by their counts");
}

/* The sum of squared distances of the samples from the stated mean lies
 * between what the buckets allow: each sample at the nearest and at the
 * farthest edge of its bucket (the overflowed ones in (highest, max]). The
 * true mean makes that sum least, and the stated one is it within a
 * rounding, so stddev^2 (n - 1) is at most the upper sum and at least the
 * lower one; the runner takes it from a sum of squares (harness/measure/
 * histogram.c), which cancels by up to some 1e-19 of n max^2, allowed with
 * room (1e-12). */
static bool spread_ok(struct fig_refusal *c, const struct hs *h, const struct rv_value *sd)
{
	if (!sd->have || !h->mean->have || h->count < 2)
		return true;
	long double a = h->mean->v, lo = 0, hi = 0;
	for (size_t i = 0; i <= h->n; i++) {
		bool ovf = i == h->n;
		if (ovf && !h->overflow)
			break;
		long double l = ovf ? (long double)(h->highest + 1) * h->npu
				    : (long double)h->bk[i].lo * h->npu;
		long double u = ovf ? h->max->v : (long double)h->bk[i].hi * h->npu;
		long double k = ovf ? h->overflow : h->bk[i].count;
		long double near = a < l ? l - a : a > u ? a - u : 0;
		long double far = fmaxl(fabsl(u - a), fabsl(a - l));
		lo += k * near * near;
		hi += k * far * far;
	}
	long double got = (long double)sd->v * sd->v * (h->count - 1);
	long double top = fmaxl(fabsl(h->max->v), fabsl(h->min->v));
	long double tol = 1e-12L * h->count * top * top + FIG_SLACK * hi;
	if (got >= lo - tol && got <= hi + tol)
		return true;
	char f[160], x[40], y[40], z[40], w[40];
	snprintf(f, sizeof f, "%s.stddev%s", h->set, h->suffix);
	return fig_refuse(c, f, "%s, but the histogram puts it in [%s, %s] about the mean %s: a "
		      "spread is what its samples' buckets allow", num(sd->v, x, sizeof x),
		      num((double)sqrtl(lo / (h->count - 1)), y, sizeof y),
		      num((double)sqrtl(hi / (h->count - 1)), z, sizeof z),
		      num(h->mean->v, w, sizeof w));
}

/* statistics_cycles is statistics_ns in cycles; median_ns is p50. */
static bool scales_ok(struct fig_refusal *c, const struct rv_metric *m, size_t i)
{
	char f[160], a[40], b[40];
	for (int k = 0; k < RV_NSTATS && m->cycles_per_unit > 0 && m->ns_per_unit > 0; k++) {
		if (!m->ns[k].have || !m->cycles[k].have)
			continue;
		double want = m->ns[k].v / m->ns_per_unit * m->cycles_per_unit;
		if (fig_about_equal(m->cycles[k].v, want))
			continue;
		snprintf(f, sizeof f, "metrics[%zu].statistics_cycles.%s", i, report_view_stats[k]);
		return fig_refuse(c, f, "%s, but statistics_ns.%s gives %s cycles (cycles_per_unit over "
			      "ns_per_unit): the two are the same statistic in two scales",
			      num(m->cycles[k].v, a, sizeof a), report_view_stats[k],
			      num(want, b, sizeof b));
	}
	const struct rv_value *p50 = &m->ns[RV_P50];
	if (m->median_ns.have && p50->have && !fig_about_equal(m->median_ns.v, p50->v)) {
		snprintf(f, sizeof f, "metrics[%zu].median_ns", i);
		return fig_refuse(c, f, "%s, but statistics_ns.p50 is %s: the median is p50",
			      num(m->median_ns.v, a, sizeof a), num(p50->v, b, sizeof b));
	}
	return true;
}

static bool metric_ok(struct fig_refusal *c, const struct rv_metric *m, size_t i)
{
	if (!scales_ok(c, m, i))
		return false;
	char set[64];
	snprintf(set, sizeof set, "metrics[%zu].statistics_ns", i);
	struct hs h = { set, "", m->buckets, m->nbuckets, m->count, m->overflow, m->highest,
			m->ns_per_unit, &m->ns[RV_MIN], &m->ns[RV_MEAN], &m->ns[RV_MAX] };
	if (!hist_known(&h, &m->neg))
		return true;
	for (int k = 0; k < RV_NSTATS; k++)
		if (!pct_ok(c, &h, report_view_stats[k], &m->ns[k]))
			return false;
	char mset[64];
	snprintf(mset, sizeof mset, "metrics[%zu]", i);
	struct hs med = h;
	med.set = mset;
	med.suffix = "_ns";
	return pct_ok(c, &med, "median", &m->median_ns) && extremes_ok(c, &h) &&
	       spread_ok(c, &h, &m->ns[RV_STDDEV]);
}

static bool series_ok(struct fig_refusal *c, const struct rv_req *r, size_t i)
{
	const struct rv_series *s = &r->series[i];
	if (!s->has_hist || !r->nmetrics)
		return true;
	char set[64];
	snprintf(set, sizeof set, "per_cpu[%zu]", i);
	struct hs h = { set, "_ns", s->buckets, s->nbuckets, s->count, s->overflow, s->highest,
			r->metrics[0].ns_per_unit, &s->ns[RVS_MIN], &s->ns[RVS_MEAN],
			&s->ns[RVS_MAX] };
	if (!hist_known(&h, &s->neg))
		return true;
	return pct_ok(c, &h, "p99", &s->ns[RVS_P99]) && extremes_ok(c, &h);
}

/* A count metric's min, max and mean are its runs' (each run one value),
 * where the runs hold every value (a requirement that is not an error). */
static bool count_ok(struct fig_refusal *c, const struct rv_metric *m, size_t i, bool exact)
{
	if (!exact || !m->nruns)
		return true;
	uint64_t lo = UINT64_MAX, hi = 0;
	long double sum = 0;
	for (size_t k = 0; k < m->nruns; k++) {
		lo = m->run_count[k] < lo ? m->run_count[k] : lo;
		hi = m->run_count[k] > hi ? m->run_count[k] : hi;
		sum += m->run_count[k];
	}
	const struct {
		int k;
		double want;
		const char *what;
	} w[] = { { RVC_MIN, (double)lo, "the least of its runs" },
		  { RVC_MAX, (double)hi, "the largest of its runs" },
		  { RVC_MEAN, (double)(sum / m->nruns), "the mean of its runs" } };
	for (size_t j = 0; j < sizeof w / sizeof w[0]; j++) {
		const struct rv_value *v = &m->counts[w[j].k];
		if (!v->have || fig_about_equal(v->v, w[j].want))
			continue;
		char f[96], a[40], b[40];
		snprintf(f, sizeof f, "metrics[%zu].statistics.%s", i, report_view_count_stats[w[j].k]);
		return fig_refuse(c, f, "%s, but %s (metrics[%zu].runs) is %s", num(v->v, a, sizeof a),
			      w[j].what, i, num(w[j].want, b, sizeof b));
	}
	return true;
}

/* batch.stddev_ns is the sample standard deviation of the present
 * batch.per_run_ns (0 for one run), as reports/report.c takes it. */
static bool batch_spread_ok(struct fig_refusal *c, const struct rv_req *r)
{
	if (!r->batch_run_ns || !r->batch_stddev_ns.have)
		return true;
	long double sum, ss = 0, big;
	unsigned n = fig_batch_sum(r, &sum, &big);
	if (!n)
		return true; /* batch_ok (figures_runs.c) judges a mean without runs */
	long double mean = sum / n;
	for (uint32_t k = 0; k < r->runs; k++)
		if (r->batch_run_ns[k].have) {
			long double d = r->batch_run_ns[k].v - mean;
			ss += d * d;
		}
	double want = n > 1 ? (double)sqrtl(ss / (n - 1)) : 0;
	if (fabs(want - r->batch_stddev_ns.v) <= FIG_SLACK * (double)big)
		return true;
	char a[40], b[40];
	return fig_refuse(c, "batch.stddev_ns", "%s, but the spread of batch.per_run_ns is %s: the "
		      "batch spread is theirs", num(r->batch_stddev_ns.v, a, sizeof a),
		      num(want, b, sizeof b));
}

bool read_check_stats(const struct rv_req *r, char *at, size_t atlen, char *why, size_t whylen)
{
	struct fig_refusal c = { at, why, atlen, whylen };
	bool exact = r->verdict != VERDICT_ERROR;
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		if (!(m->kind == METRIC_COUNT ? count_ok(&c, m, i, exact) : metric_ok(&c, m, i)))
			return false;
	}
	for (size_t i = 0; i < r->nseries; i++)
		if (!series_ok(&c, r, i))
			return false;
	return batch_spread_ok(&c, r);
}
