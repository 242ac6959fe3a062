/* SPDX-License-Identifier: Apache-2.0 */
/* figures_runs.c - see figures.h (read_check_parts).
 *
 * A results.json states many figures twice: a metric's samples and its
 * statistics, and again each run's samples, mean and max; metrics[0]'s
 * statistics and again each CPU's series; the batch mean and again each
 * run's batch figure. compare decides on the per-run values and the
 * reports show the totals, so a file whose two copies disagree (a
 * candidate carrying the baseline's runs beside its own worse totals) would
 * be judged on one and shown with the other. The reader refuses it instead,
 * naming the field, as figures.c does for verdicts that disagree with the
 * figures.
 *
 * Rounding: the writer keeps every number as the shortest text that reads
 * back as the same double (reports/json.c), and each figure is one or two
 * roundings of a double away from exact: a run's mean is its exact sum over
 * its count (long double) times the scale, the metric's mean the exact sum
 * of all samples over their count times the scale, a max or min a sample
 * times the scale. So the count-weighted run means miss the metric's mean by
 * a few units in the last place of the sums involved (some 1e-16 per run),
 * and a max the largest run max by nothing at all; both are held to a
 * relative 1e-9 of the magnitudes summed (FIG_SLACK), which an edited file
 * misses by far more. Counts are integers and must add up exactly.
 */
#include "reports/read/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/units.h"

/* A duration as the file has it and as people read it: "152000000 (152 ms)". */
struct dur_text {
	char s[96];
};
static struct dur_text dur(double ns)
{
	struct dur_text t;
	char exact[48], human[40];
	numfmt_fmt_shortest(ns, exact, sizeof exact);
	units_fmt_ns(ns, human, sizeof human);
	snprintf(t.s, sizeof t.s, "%s (%s)", exact, human);
	return t;
}

static bool not_above(double a, double b)
{
	return fig_not_above(a, b);
}

/* One part of a whole: a run of a metric, a CPU's series of metrics[0]. */
struct part {
	uint64_t count;
	const struct rv_value *min, *mean, *max; /* NULL: the file states none */
};

/* The whole and how its parts are named: set "metrics[0].runs" or
 * "per_cpu", each part "SET[k].KEY". */
struct whole {
	const char *name;      /* "metrics[0]" */
	const char *stats;     /* "metrics[0].statistics_ns" */
	const char *set, *count_key;
	const char *what, *whats; /* "run", "runs"; "CPU's series", "CPUs' series" */
	uint64_t count;
	const struct rv_value *min, *mean, *max;
	bool negatives;        /* the metric holds samples below zero */
	bool exact;            /* the parts hold every sample (else at most all) */
};

/* A part's figure in results.json: which 0, 1, 2 for its min, mean, max. */
static const char *part_key(int which)
{
	static const char *const keys[] = { "min_ns", "mean_ns", "max_ns" };
	return keys[which];
}

/* Part k's own figures: none below zero in a metric without such samples,
 * none where it holds no sample, a mean where it holds some, each within
 * the whole's min and max and the part's own min and max. */
static bool part_ok(struct fig_refusal *c, const struct whole *w, const struct part *p, size_t k)
{
	const struct rv_value *v[3] = { p->min, p->mean, p->max };
	char f[160];
	for (int i = 0; i < 3; i++) {
		snprintf(f, sizeof f, "%s[%zu].%s", w->set, k, part_key(i));
		if (!v[i] || !v[i]->have) {
			if (i == 1 && v[i] && p->count)
				return fig_refuse(c, f, "null, but the %s holds %llu samples: a %s with "
					      "samples has a mean", w->what,
					      (unsigned long long)p->count, w->what);
			continue;
		}
		double x = v[i]->v;
		if (!p->count)
			return fig_refuse(c, f, "%s, but the %s holds no sample (%s[%zu].%s is 0)",
				      dur(x).s, w->what, w->set, k, w->count_key);
		if (x < 0 && !w->negatives)
			return fig_refuse(c, f, "%s is below zero, but %s holds no sample below zero: "
				      "a duration is never negative", dur(x).s, w->name);
		if (w->max && w->max->have && !not_above(x, w->max->v))
			return fig_refuse(c, f, "%s is above the metric's max %s (%s.max): no %s "
				      "holds more than the largest sample of all", dur(x).s,
				      dur(w->max->v).s, w->stats, w->what);
		if (w->min && w->min->have && !not_above(w->min->v, x))
			return fig_refuse(c, f, "%s is below the metric's min %s (%s.min): no %s "
				      "holds less than the least sample of all", dur(x).s,
				      dur(w->min->v).s, w->stats, w->what);
	}
	snprintf(f, sizeof f, "%s[%zu].mean_ns", w->set, k);
	if (p->mean && p->mean->have && p->max && p->max->have && !not_above(p->mean->v, p->max->v))
		return fig_refuse(c, f, "%s is above the %s's own max %s: a mean lies between its "
			      "samples' min and max", dur(p->mean->v).s, w->what, dur(p->max->v).s);
	if (p->mean && p->mean->have && p->min && p->min->have && !not_above(p->min->v, p->mean->v))
		return fig_refuse(c, f, "%s is below the %s's own min %s: a mean lies between its "
			      "samples' min and max", dur(p->mean->v).s, w->what, dur(p->min->v).s);
	return true;
}

/* The whole's min or max (which: 0 or 2) is the extreme of its parts'
 * when the parts hold every sample and each with samples states it. */
static bool extreme_ok(struct fig_refusal *c, const struct whole *w, const struct part *p, size_t n,
		       int which)
{
	const struct rv_value *wv = which ? w->max : w->min;
	size_t best = n;
	double got = 0;
	for (size_t k = 0; k < n; k++) {
		const struct rv_value *v = which ? p[k].max : p[k].min;
		if (!p[k].count)
			continue;
		if (!v || !v->have)
			return true; /* not stated (older files): nothing to compare */
		if (best == n || (which ? v->v > got : v->v < got)) {
			best = k;
			got = v->v;
		}
	}
	if (!w->exact || best == n || !wv || !wv->have)
		return true;
	if (fig_about_equal(got, wv->v))
		return true;
	char f[160];
	snprintf(f, sizeof f, "%s.%s", w->stats, which ? "max" : "min");
	return fig_refuse(c, f, "%s, but the %s of its %s' %s (%s[%zu].%s) is %s: the %s hold "
		      "every sample, so one of them holds the %s", dur(wv->v).s,
		      which ? "largest" : "least", w->whats, part_key(which), w->set, best,
		      part_key(which), dur(got).s, w->whats, which ? "max" : "min");
}

/* The parts' samples add up to the whole's count (to at most it when not
 * exact), and their means weighted by their samples give its mean. */
static bool totals_ok(struct fig_refusal *c, const struct whole *w, const struct part *p, size_t n)
{
	uint64_t sum = 0;
	bool wrapped = false;
	long double wsum = 0, wabs = 0;
	bool means = true;
	for (size_t k = 0; k < n; k++) {
		wrapped |= __builtin_add_overflow(sum, p[k].count, &sum);
		if (!p[k].count)
			continue;
		if (!p[k].mean || !p[k].mean->have)
			means = false;
		else {
			wsum += (long double)p[k].count * p[k].mean->v;
			wabs += (long double)p[k].count * fabs(p[k].mean->v);
		}
	}
	char f[160];
	snprintf(f, sizeof f, "%s", w->set);
	if (wrapped || (w->exact ? sum != w->count : sum > w->count))
		return fig_refuse(c, f, "its %s hold %s%llu samples (%s[k].%s), but %s.count is %llu: "
			      "the %s add up to %s", w->whats, wrapped ? "over " : "",
			      (unsigned long long)sum, w->set, w->count_key, w->name,
			      (unsigned long long)w->count, w->whats,
			      w->exact ? "the count" : "at most the count (a requirement cut "
			      "short keeps the part of a run it cut in its totals only)");
	if (!w->exact || !means || !w->count || !w->mean || !w->mean->have)
		return true;
	long double total = (long double)w->count * w->mean->v;
	long double tol = FIG_SLACK * (wabs + fabsl(total));
	if (fabsl(wsum - total) <= tol)
		return true;
	snprintf(f, sizeof f, "%s.mean", w->stats);
	return fig_refuse(c, f, "%s, but its %s' mean_ns weighted by their samples give %s: the %s "
		      "hold every sample, so their means make its mean", dur(w->mean->v).s,
		      w->whats, dur((double)(wsum / (long double)w->count)).s, w->whats);
}

static bool parts_ok(struct fig_refusal *c, const struct whole *w, const struct part *p, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!part_ok(c, w, &p[k], k))
			return false;
	return totals_ok(c, w, p, n) && extreme_ok(c, w, p, n, 0) && extreme_ok(c, w, p, n, 2);
}

/* No duration statistic below zero where the metric holds no sample below
 * zero, and no spread below zero at all. */
static bool signs_ok(struct fig_refusal *c, const char *stats, const struct rv_value *s,
		     bool negatives)
{
	for (int k = 0; k < RV_NSTATS; k++) {
		bool spread = k == RV_STDDEV || k == RV_RUNS_MEAN_STDDEV;
		if (!s[k].have || !(s[k].v < 0) || (negatives && !spread))
			continue;
		char f[160];
		snprintf(f, sizeof f, "%s.%s", stats, report_view_stats[k]);
		return fig_refuse(c, f, "%s is below zero, %s", dur(s[k].v).s,
			      spread ? "and a spread never is"
				     : "but the metric holds no sample below zero");
	}
	return true;
}

/* The sample standard deviation of the run means, as runs-mean-stddev is
 * taken (harness/stats.c: over the runs with samples, two passes). */
static bool runs_spread_ok(struct fig_refusal *c, const struct rv_metric *m, const char *stats)
{
	const struct rv_value *sd = &m->ns[RV_RUNS_MEAN_STDDEV];
	long double total = 0, ss = 0, big = 0;
	size_t n = 0;
	for (size_t k = 0; k < m->nruns; k++)
		if (m->run_count[k]) {
			if (!m->run_mean_ns[k].have)
				return true;
			total += m->run_mean_ns[k].v;
			big = fmaxl(big, fabsl(m->run_mean_ns[k].v));
			n++;
		}
	char f[160];
	snprintf(f, sizeof f, "%s.runs-mean-stddev", stats);
	if (n < 2) {
		if (sd->have)
			return fig_refuse(c, f, "%s, but %zu run%s samples: the spread of the run means "
				      "needs two", dur(sd->v).s, n, n == 1 ? " holds" : "s hold");
		return true;
	}
	if (!sd->have)
		return true; /* a view may leave it out; nothing stated twice */
	long double mean = total / n;
	for (size_t k = 0; k < m->nruns; k++)
		if (m->run_count[k]) {
			long double d = m->run_mean_ns[k].v - mean;
			ss += d * d;
		}
	double want = (double)sqrtl(ss / (n - 1));
	if (fabs(want - sd->v) <= FIG_SLACK * (fmax(want, fabs(sd->v)) + (double)big))
		return true;
	return fig_refuse(c, f, "%s, but its runs' mean_ns give %s: it is the spread of the run means",
		      dur(sd->v).s, dur(want).s);
}

/* A duration metric's runs against its totals. */
static bool metric_runs_ok(struct fig_refusal *c, const struct rv_metric *m, size_t i, bool exact)
{
	char name[40], stats[64], set[64];
	snprintf(name, sizeof name, "metrics[%zu]", i);
	snprintf(stats, sizeof stats, "%s.statistics_ns", name);
	snprintf(set, sizeof set, "%s.runs", name);
	bool neg = rv_neg_count(&m->neg) > 0;
	if (!signs_ok(c, stats, m->ns, neg))
		return false;
	snprintf(stats, sizeof stats, "%s.statistics_cycles", name);
	if (!signs_ok(c, stats, m->cycles, neg))
		return false;
	snprintf(stats, sizeof stats, "%s.statistics_ns", name);
	if (!m->nruns)
		return true;
	size_t n = m->nruns;
	struct part *p = calloc(n, sizeof *p);
	if (!p)
		return fig_refuse(c, set, "out of memory checking its runs");
	for (size_t k = 0; k < n; k++)
		p[k] = (struct part){ m->run_count[k], NULL, &m->run_mean_ns[k],
				      m->run_max_ns ? &m->run_max_ns[k] : NULL };
	struct whole w = { name, stats, set, "samples", "run", "runs", m->count, &m->ns[RV_MIN],
			   &m->ns[RV_MEAN], &m->ns[RV_MAX], neg, exact };
	bool ok = parts_ok(c, &w, p, n) && (!exact || runs_spread_ok(c, m, stats));
	free(p);
	return ok;
}

/* A count metric: its runs' counts add up to its total. */
static bool count_runs_ok(struct fig_refusal *c, const struct rv_metric *m, size_t i, bool exact)
{
	const struct rv_value *t = &m->counts[RVC_TOTAL];
	if (!m->nruns || !t->have)
		return true;
	uint64_t sum = 0;
	bool wrapped = false;
	for (size_t k = 0; k < m->nruns; k++)
		wrapped |= __builtin_add_overflow(sum, m->run_count[k], &sum);
	double s = (double)sum;
	if (!wrapped && (exact ? s == t->v : s <= t->v))
		return true;
	char f[64];
	snprintf(f, sizeof f, "metrics[%zu].runs", i);
	return fig_refuse(c, f, "its runs count %s%llu, but metrics[%zu].statistics.total is %.17g: "
		      "the runs' counts add up to %s", wrapped ? "over " : "",
		      (unsigned long long)sum, i, t->v, exact ? "the total" : "at most the total");
}

/* The per-CPU series of metrics[0] (merged, it is their sum). */
static bool series_ok(struct fig_refusal *c, const struct rv_req *r, bool exact)
{
	if (!r->nseries || !r->nmetrics || r->metrics[0].kind == METRIC_COUNT)
		return true;
	const struct rv_metric *m = &r->metrics[0];
	size_t n = r->nseries;
	struct part *p = calloc(n, sizeof *p);
	if (!p)
		return fig_refuse(c, "per_cpu", "out of memory checking the series");
	bool neg = rv_neg_count(&m->neg) > 0;
	for (size_t k = 0; k < n; k++) {
		const struct rv_series *s = &r->series[k];
		p[k] = (struct part){ s->count, &s->ns[RVS_MIN], &s->ns[RVS_MEAN], &s->ns[RVS_MAX] };
		neg |= rv_neg_count(&s->neg) > 0;
	}
	struct whole w = { "metrics[0]", "metrics[0].statistics_ns", "per_cpu", "count",
			   "CPU's series", "CPUs' series", m->count, &m->ns[RV_MIN], &m->ns[RV_MEAN],
			   &m->ns[RV_MAX], neg, exact };
	bool ok = parts_ok(c, &w, p, n);
	free(p);
	return ok;
}

/* batch.mean_ns is the mean of the present batch.per_run_ns. */
static bool batch_ok(struct fig_refusal *c, const struct rv_req *r)
{
	if (!r->batch_run_ns || !r->batch_mean_ns.have)
		return true;
	long double sum, big;
	unsigned n = fig_batch_sum(r, &sum, &big);
	if (!n)
		return fig_refuse(c, "batch.mean_ns", "%s, but batch.per_run_ns holds no figure: the "
			      "batch mean is theirs", dur(r->batch_mean_ns.v).s);
	double want = (double)(sum / n);
	if (fabs(want - r->batch_mean_ns.v) <= FIG_SLACK * (double)big)
		return true;
	return fig_refuse(c, "batch.mean_ns", "%s, but the mean of batch.per_run_ns is %s: the batch "
		      "mean is theirs", dur(r->batch_mean_ns.v).s, dur(want).s);
}

bool read_check_parts(const struct rv_req *r, char *at, size_t atlen, char *why, size_t whylen)
{
	struct fig_refusal c = { at, why, atlen, whylen };
	/* a requirement cut short (an error) keeps the part of a run it cut in
	 * its totals only: its runs hold at most the totals */
	bool exact = r->verdict != VERDICT_ERROR;
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		if (!(m->kind == METRIC_COUNT ? count_runs_ok(&c, m, i, exact)
					      : metric_runs_ok(&c, m, i, exact)))
			return false;
	}
	return series_ok(&c, r, exact) && batch_ok(&c, r);
}
