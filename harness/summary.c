/* SPDX-License-Identifier: Apache-2.0 */
/* summary.c - a requirement's numbers taken from its result memory; see
 * summary.h. The one place above the worker that reads that memory's
 * layout for a report: a scale that is not a finite number (only a worker
 * that scribbled on its memory leaves one) becomes 0, which every writer
 * takes as "no scale".
 */
#include "harness/summary.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/orderstat.h"
#include "harness/interval.h"
#include "harness/runner.h"
#include "harness/stats.h"

_Static_assert(SUMMARY_MAX_SERIES == PROBE_MAX_SERIES, "a summary holds every series");

const char *const report_view_stats[RV_NSTATS] = { "min", "mean", "stddev", "max", "p50",
						   "p90", "p99", "p99.9", "runs-mean-stddev" };

const int report_view_key_stats[RV_NKEY_STATS] = { RV_MIN, RV_MEAN, RV_P50, RV_P99, RV_MAX };

const char *const report_view_series_stats[RV_NSERIES_STATS] = { "min", "mean", "max", "p99" };

const char *const report_view_count_stats[RV_NCSTATS] = { "total", "min", "mean", "max" };

uint64_t rv_neg_count(const struct rv_neg *n)
{
	uint64_t c = n->overflow;
	for (size_t i = 0; i < n->nbuckets; i++)
		c += n->buckets[i].count;
	return c;
}

const struct rv_ci *rv_metric_ci(const struct rv_metric *m, int stat)
{
	if (stat < 0 || stat >= RV_NSTATS || !m->ci[stat].have)
		return NULL;
	return &m->ci[stat];
}

struct rv_value rv_value_of(bool have, double v)
{
	struct rv_value r = { .have = have && isfinite(v) };
	r.v = r.have ? v : 0.0;
	return r;
}

static double finite_or_0(double v)
{
	return isfinite(v) ? v : 0.0;
}

/* ---- what a result holds ----------------------------------------------- */

const struct probe_decl *summary_decl(const struct req_result *r)
{
	return r->probe ? &r->probe->decl : NULL;
}

unsigned summary_nmetrics(const struct req_result *r)
{
	if (!r->res)
		return 0;
	/* The count lives in memory a crashed worker may have scribbled on;
	 * never walk past what a probe can have. */
	return r->res->nmetrics > RTC_MAX_METRICS ? RTC_MAX_METRICS : r->res->nmetrics;
}

const char *summary_metric_name(const struct req_result *r, unsigned i, char *buf, size_t len)
{
	const struct probe_metric *m = r->probe ? probe_decl_metric(&r->probe->decl, i) : NULL;
	if (m && m->name)
		return m->name;
	snprintf(buf, len, "m%u", i);
	return buf;
}

bool summary_batch_run_ns(const struct req_result *r, uint32_t run, double *ns)
{
	if (summary_nmetrics(r) == 0 || run >= RTC_MAX_RUNS)
		return false;
	const struct result_shm *res = r->res;
	const struct run_info *ri = &res->runs[run];
	if (!ri->iterations || ri->t_end < ri->t_begin)
		return false;
	double per = (double)(ri->t_end - ri->t_begin) / (double)ri->iterations;
	*ns = (per - res->loop_ticks) * result_metric_c(res, 0)->ns_per_unit;
	return true;
}

uint32_t summary_runs_done(const struct req_result *r)
{
	if (summary_nmetrics(r) == 0)
		return 0;
	uint32_t n = __atomic_load_n(&r->res->runs_done, __ATOMIC_ACQUIRE);
	return n > RTC_MAX_RUNS ? RTC_MAX_RUNS : n;
}

unsigned summary_batch_ns(const struct req_result *r, double *mean_ns, double *stddev_ns)
{
	*mean_ns = *stddev_ns = 0;
	uint32_t nruns = summary_runs_done(r);

	/* Welford's update: the per-run figures are close together, and the
	 * textbook sum-of-squares form would cancel them away. */
	unsigned n = 0;
	double mean = 0, m2 = 0;
	for (uint32_t i = 0; i < nruns; i++) {
		double x;
		if (!summary_batch_run_ns(r, i, &x))
			continue;
		n++;
		double d = x - mean;
		mean += d / n;
		m2 += d * (x - mean);
	}
	if (!n)
		return 0;
	*mean_ns = mean;
	*stddev_ns = n > 1 ? sqrt(m2 / (n - 1)) : 0;
	return n;
}

/* ---- a metric's numbers ------------------------------------------------ */

/* A count metric: its statistics and each completed run's count. */
static void fill_count(uint32_t runs, const struct metric_data *m, struct rv_metric *vm,
		       bool *failed)
{
	vm->count = m->hist.count;
	for (int i = 0; i < RV_NCSTATS; i++) {
		struct statistic st;
		double val;
		if (statistic_parse(report_view_count_stats[i], &st) == 0 &&
		    stat_value(m, &st, false, &val))
			vm->counts[i] = rv_value_of(true, val);
	}
	if (!runs)
		return;
	vm->run_count = calloc(runs, sizeof *vm->run_count);
	if (!vm->run_count) {
		*failed = true;
		return;
	}
	vm->nruns = runs;
	for (uint32_t k = 0; k < runs; k++)
		if (!metric_run_count(m, k, &vm->run_count[k]))
			vm->run_count[k] = 0;
}

/* A histogram's non-empty buckets, ascending, into *out (*n of them).
 * False (and *failed) on out of memory. */
static bool fill_buckets(const struct hist *h, struct rv_bucket **out, size_t *n, bool *failed)
{
	uint32_t i = 0;
	uint64_t lo, hi, c;
	size_t want = 0;
	while (hist_next_bucket(h, &i, &lo, &hi, &c))
		want++;
	if (!want)
		return true;
	*out = calloc(want, sizeof **out);
	if (!*out) {
		*failed = true;
		return false;
	}
	i = 0;
	while (*n < want && hist_next_bucket(h, &i, &lo, &hi, &c))
		(*out)[(*n)++] = (struct rv_bucket){ lo, hi, c };
	return true;
}

/* A signed metric's samples below zero (nothing for another). */
static void fill_neg(const struct metric_data *m, struct rv_neg *out, bool *failed)
{
	const struct hist *neg = metric_neg_c(m);
	if (!neg || !neg->count)
		return;
	out->overflow = neg->overflow;
	fill_buckets(neg, &out->buckets, &out->nbuckets, failed);
}

/* The statistics of m's samples (count of them) in ns, and in cycles into
 * cycles when not NULL and m has them. A statistic the samples are too few
 * for is absent, not a number. */
static void fill_stats(const struct metric_data *m, uint64_t count, struct rv_value *ns,
		       struct rv_value *cycles)
{
	for (int i = 0; i < RV_NSTATS; i++) {
		struct statistic st;
		double val;
		if (statistic_parse(report_view_stats[i], &st) != 0)
			continue;
		if (count < statistic_min_samples(&st))
			continue;
		if (stat_value(m, &st, false, &val))
			ns[i] = rv_value_of(true, val);
		if (cycles && m->cycles_per_unit != 0 && stat_value(m, &st, true, &val))
			cycles[i] = rv_value_of(true, val);
	}
}

/* The confidence interval of percentile st of m's `count` samples at
 * `level` (stat_bounds), in ns; nothing when st is not a percentile or the
 * bounds cannot be had. */
static void fill_ci(const struct metric_data *m, const struct statistic *st, uint64_t count,
		    double level, struct rv_ci *out)
{
	struct stat_bounds b;
	memset(out, 0, sizeof *out);
	if (st->kind != STAT_PCT || count > RV_CI_MAX_SAMPLES ||
	    !stat_bounds(m, st, level, false, &b) || b.n != count)
		return;
	if ((b.has_lo && !isfinite(b.lo)) || (b.has_hi && !isfinite(b.hi)) ||
	    !isfinite(b.coverage))
		return;
	*out = (struct rv_ci){
		.have = true, .level = level, .n = b.n,
		.lo_rank = b.lo_rank, .hi_rank = b.hi_rank,
		.has_lo = b.has_lo, .has_hi = b.has_hi,
		.lo_ns = b.has_lo ? b.lo : 0.0, .hi_ns = b.has_hi ? b.hi : 0.0,
		.coverage = b.coverage,
		.lo_bucket = b.has_lo && b.lo_bucket, .hi_bucket = b.has_hi && b.hi_bucket,
	};
}

/* The level of the interval of statistic `stat` of metric `metric`: the
 * confidence= of the first limit of r's requirement on it that states one
 * (the interval it was judged on), else `level`. */
static double ci_level_of(const struct req_result *r, const char *metric, const char *stat,
			  double level)
{
	const struct requirement *q = r->req;
	for (size_t i = 0; q && i < q->nlimits && i < REQ_MAX_LIMITS; i++) {
		const struct req_limit *l = &q->limits[i];
		char mbuf[16], st[32];
		const char *lm = l->metric ? l->metric : summary_metric_name(r, 0, mbuf, sizeof mbuf);
		statistic_name(&l->stat, st, sizeof st);
		if (l->confidence > 0 && l->confidence < 1 && strcmp(lm, metric) == 0 &&
		    strcmp(st, stat) == 0)
			return l->confidence;
	}
	return level;
}

/* Each reported percentile's interval (those ns[] has): at RV_CI_LEVEL,
 * or the level a limit on that statistic states. */
static void fill_cis(const struct metric_data *m, const struct req_result *r,
		     struct rv_metric *vm)
{
	vm->ci_level = RV_CI_LEVEL;
	for (int i = 0; i < RV_NSTATS; i++) {
		struct statistic st;
		if (vm->ns[i].have && statistic_parse(report_view_stats[i], &st) == 0)
			fill_ci(m, &st, vm->count,
				ci_level_of(r, vm->name ? vm->name : "", report_view_stats[i],
					    vm->ci_level), &vm->ci[i]);
	}
}

/* A duration's runs: each one's samples, mean and largest sample. */
static void fill_runs(uint32_t runs, const struct metric_data *m, struct rv_metric *vm,
		      bool *failed)
{
	if (!runs)
		return;
	vm->run_count = calloc(runs, sizeof *vm->run_count);
	vm->run_mean_ns = calloc(runs, sizeof *vm->run_mean_ns);
	vm->run_max_ns = calloc(runs, sizeof *vm->run_max_ns);
	if (!vm->run_count || !vm->run_mean_ns || !vm->run_max_ns) {
		*failed = true;
		return;
	}
	vm->nruns = runs;
	for (uint32_t k = 0; k < runs; k++) {
		vm->run_count[k] = m->runs[k].count;
		vm->run_mean_ns[k] = rv_value_of(m->runs[k].count != 0, metric_run_mean_ns(m, k));
		double mx = 0;
		bool have = metric_run_max_ns(m, k, &mx);
		vm->run_max_ns[k] = rv_value_of(have, mx);
	}
}

static void fill_metric(const struct req_result *r, uint32_t runs, unsigned mi,
			struct rv_metric *vm, bool *failed)
{
	const struct metric_data *m = result_metric_c(r->res, mi);
	const struct hist *h = &m->hist;
	char nbuf[16];
	vm->name = strdup(summary_metric_name(r, mi, nbuf, sizeof nbuf));
	if (!vm->name)
		*failed = true;
	vm->live_count = h->count;
	vm->live_max = h->max;
	vm->live_sum = (double)h->sum;
	vm->live_total = (uint64_t)h->sum;
	vm->live_signed = metric_neg_c(m) != NULL;
	vm->live_neg_max = vm->live_signed ? metric_neg_c(m)->max : 0;
	if (m->kind == METRIC_COUNT) {
		vm->kind = METRIC_COUNT;
		fill_count(runs, m, vm, failed);
		return;
	}
	vm->count = metric_samples(m);
	vm->overflow = h->overflow;
	vm->highest = h->highest;
	vm->ns_per_unit = finite_or_0(m->ns_per_unit);
	vm->cycles_per_unit = finite_or_0(m->cycles_per_unit);
	if (vm->count)
		vm->median_ns = rv_value_of(true, metric_median(m) * vm->ns_per_unit);
	fill_stats(m, vm->count, vm->ns, vm->cycles);
	fill_cis(m, r, vm);
	if (!fill_buckets(h, &vm->buckets, &vm->nbuckets, failed))
		return;
	fill_neg(m, &vm->neg, failed);
	fill_runs(runs, m, vm, failed);
}

/* The per-CPU series: a statistic the samples are too few for is absent. */
static void fill_series(const struct req_result *r, struct summary *s, bool *failed)
{
	const struct result_shm *res = r->res;
	uint32_t n = res->nseries < res->nseries_alloc ? res->nseries : res->nseries_alloc;
	if (n > PROBE_MAX_SERIES)
		n = PROBE_MAX_SERIES;
	if (!n)
		return;
	s->series = calloc(n, sizeof *s->series);
	if (!s->series) {
		*failed = true;
		return;
	}
	s->nseries = n;
	const char *first = s->nmetrics && s->metrics[0].name ? s->metrics[0].name : "";
	for (uint32_t k = 0; k < n; k++) {
		const struct metric_data *m = result_metric_c(res, res->nmetrics + k);
		struct rv_series *vs = &s->series[k];
		vs->cpu = res->series_cpu[k];
		vs->ci_level = RV_CI_LEVEL;
		vs->count = metric_samples(m);
		vs->overflow = m->hist.overflow;
		vs->highest = m->hist.highest;
		vs->has_hist = fill_buckets(&m->hist, &vs->buckets, &vs->nbuckets, failed);
		fill_neg(m, &vs->neg, failed);
		for (int i = 0; i < RV_NSERIES_STATS; i++) {
			struct statistic st;
			double val;
			if (statistic_parse(report_view_series_stats[i], &st) != 0 ||
			    vs->count < statistic_min_samples(&st))
				continue;
			if (stat_value(m, &st, false, &val))
				vs->ns[i] = rv_value_of(true, val);
			if (i == RVS_P99 && vs->ns[i].have)
				fill_ci(m, &st, vs->count,
					ci_level_of(r, first, "p99", vs->ci_level), &vs->p99_ci);
		}
	}
}

static void fill_batch(const struct req_result *r, struct summary *s, bool *failed)
{
	double mean, sd;
	if ((s->batch_runs = summary_batch_ns(r, &mean, &sd))) {
		s->batch_mean_ns = rv_value_of(true, mean);
		s->batch_stddev_ns = rv_value_of(true, sd);
	}
	if (!s->runs)
		return;
	s->batch_run_ns = calloc(s->runs, sizeof *s->batch_run_ns);
	if (!s->batch_run_ns) {
		*failed = true;
		return;
	}
	for (uint32_t k = 0; k < s->runs; k++) {
		double x;
		bool have = summary_batch_run_ns(r, k, &x);
		s->batch_run_ns[k] = rv_value_of(have, x);
	}
}

/* ---- the figure each limit is judged on -------------------------------- */

/* The samples that would decide limit l, undecided at its confidence, were
 * the samples to lie as they do now (the fraction f of them at or below
 * the bound left undecided: the max when on_max, limit_judge's), on the
 * side the point estimate lies on:
 * os_samples_to_pass for a max whose estimate holds it, os_samples_to_fail
 * for one whose estimate misses it; a min the other way round (its
 * interval must come to lie wholly above it, or wholly below). 0: no
 * number would. */
static uint64_t samples_to_decide(const struct req_limit *l, const struct limit_figure *f,
				  const struct metric_data *m, bool on_max)
{
	double bound = on_max ? l->max.value : l->min.value;
	bool estimate_holds = on_max ? f->value <= bound : f->value >= bound;
	/* The upper bound is an upper bucket edge, so it comes at or below
	 * the bound once its rank is among the samples of buckets wholly at or
	 * below it; the lower bound, a lower edge, comes above a max (at or
	 * above a min) only once its rank is past every sample whose bucket
	 * begins at or below it (below it): a bucket straddling the bound
	 * counts against the side that must clear it, or the count would be
	 * too few, fewer even than the samples already taken. */
	bool upper_side = on_max == estimate_holds;
	uint64_t at_or_below;
	bool cycles = limit_in_cycles(l);
	if (f->n == 0 || !(upper_side ? stat_count_at_or_below(m, bound, cycles, &at_or_below)
				      : stat_count_maybe_below(m, bound, !on_max, cycles,
							       &at_or_below)))
		return 0;
	double frac = (double)at_or_below / (double)f->n, q = l->stat.pct / 100.0;
	if (upper_side)
		return os_samples_to_pass(q, l->confidence, frac);
	return os_samples_to_fail(q, l->confidence, frac);
}

/* The confidence interval limit l (with confidence=) is judged on. */
static void fill_figure_interval(const struct req_limit *l, const struct metric_data *m,
				 struct limit_figure *f)
{
	struct stat_bounds b;
	f->interval = true;
	if (!stat_bounds(m, &l->stat, l->confidence, limit_in_cycles(l), &b)) {
		f->lack = FIGURE_NO_INTERVAL;
		return;
	}
	f->has_lo = b.has_lo;
	f->has_hi = b.has_hi;
	f->lo = b.lo;
	f->hi = b.hi;
	struct limit_bounds lb = limit_bounds_of(l);
	struct limit_judged j;
	limit_judge(&lb, f, &j);
	if (j.undecided)
		f->need = samples_to_decide(l, f, m, j.on_max);
}

/* The figure of limit l of r. */
static void fill_figure(const struct req_result *r, const struct req_limit *l,
			struct limit_figure *f)
{
	memset(f, 0, sizeof *f);
	f->metric = -1;
	int mi = r->probe ? probe_decl_metric_index(&r->probe->decl, l->metric) : -1;
	if (mi < 0 || !r->res || (unsigned)mi >= r->res->nmetrics) {
		f->lack = FIGURE_NO_METRIC;
		return;
	}
	const struct metric_data *m = result_metric_c(r->res, (unsigned)mi);
	f->metric = mi;
	f->kind = m->kind == METRIC_COUNT ? METRIC_COUNT : METRIC_DURATION;
	bool count = f->kind == METRIC_COUNT, cycles = limit_in_cycles(l);
	/* The validator keeps these apart; a library caller might not. */
	if (count != (limit_unit(l) == QTY_COUNT)) {
		f->lack = FIGURE_WRONG_KIND;
		return;
	}
	/* A duration's samples below zero (early wake-ups) are kept apart
	 * from hist's count: metric_samples counts both. */
	f->n = count ? m->hist.count : metric_samples(m);
	f->no_cycles = cycles && m->cycles_per_unit == 0;
	if (!stat_value(m, &l->stat, cycles, &f->value)) {
		f->lack = FIGURE_NO_VALUE;
		return;
	}
	if (l->confidence > 0 && l->stat.kind == STAT_PCT && !count)
		fill_figure_interval(l, m, f);
}

/* ---- the whole ---------------------------------------------------------- */

int summary_fill(const struct req_result *r, struct summary *s)
{
	bool failed = false;
	memset(s, 0, sizeof *s);
	s->filled = true;
	const struct requirement *q = r->req;
	s->nlimits = q ? (q->nlimits < REQ_MAX_LIMITS ? q->nlimits : REQ_MAX_LIMITS) : 0;
	for (size_t i = 0; i < s->nlimits; i++)
		fill_figure(r, &q->limits[i], &s->limits[i]);
	if (r->res)
		/* Bounded copies: a worker that died mid-write may have left
		 * them without their terminators. */
		snprintf(s->violation, sizeof s->violation, "%.*s",
			 (int)sizeof r->res->violation, r->res->violation);
	unsigned nm = summary_nmetrics(r);
	if (!nm)
		return 0;
	s->measured = true;
	snprintf(s->note, sizeof s->note, "%.*s", (int)sizeof r->res->note, r->res->note);
	s->verified = r->res->verified;
	s->runs = summary_runs_done(r);
	s->spec_runs = r->res->spec.runs;
	s->spec_duration_ns = r->res->spec.duration_ns;
	fill_batch(r, s, &failed);
	s->metrics = calloc(nm, sizeof *s->metrics);
	if (!s->metrics)
		return -ENOMEM;
	s->nmetrics = nm;
	for (unsigned i = 0; i < nm; i++)
		fill_metric(r, s->runs, i, &s->metrics[i], &failed);
	fill_series(r, s, &failed);
	return failed ? -ENOMEM : 0;
}

/* A copy of n elements of size sz at p (NULL for none); *failed when it
 * cannot be made. */
static void *dup_n(const void *p, size_t n, size_t sz, bool *failed)
{
	if (!p || !n)
		return NULL;
	void *c = malloc(n * sz);
	if (!c) {
		*failed = true;
		return NULL;
	}
	return memcpy(c, p, n * sz);
}

static void copy_neg(struct rv_neg *n, bool *failed)
{
	n->buckets = dup_n(n->buckets, n->nbuckets, sizeof *n->buckets, failed);
}

static struct rv_ival *copy_ivals(const struct rv_ival *iv, size_t n, bool *failed)
{
	struct rv_ival *c = dup_n(iv, n, sizeof *iv, failed);
	for (size_t i = 0; c && i < n; i++) {
		c[i].buckets = dup_n(c[i].buckets, c[i].nbuckets, sizeof *c[i].buckets, failed);
		copy_neg(&c[i].neg, failed);
	}
	return c;
}

int summary_of(const struct req_result *r, struct summary *s)
{
	if (!r->sum.filled)
		return summary_fill(r, s);
	const struct summary *o = &r->sum;
	bool failed = false;
	*s = *o;
	s->batch_run_ns = dup_n(o->batch_run_ns, o->runs, sizeof *o->batch_run_ns, &failed);
	s->metrics = dup_n(o->metrics, o->nmetrics, sizeof *o->metrics, &failed);
	s->series = dup_n(o->series, o->nseries, sizeof *o->series, &failed);
	if (!s->metrics)
		s->nmetrics = 0;
	if (!s->series)
		s->nseries = 0;
	for (size_t i = 0; i < s->nmetrics; i++) {
		struct rv_metric *m = &s->metrics[i];
		m->name = m->name ? strdup(m->name) : NULL;
		failed |= !m->name;
		m->buckets = dup_n(m->buckets, m->nbuckets, sizeof *m->buckets, &failed);
		copy_neg(&m->neg, &failed);
		m->run_count = dup_n(m->run_count, m->nruns, sizeof *m->run_count, &failed);
		m->run_mean_ns = dup_n(m->run_mean_ns, m->nruns, sizeof *m->run_mean_ns, &failed);
		m->run_max_ns = dup_n(m->run_max_ns, m->nruns, sizeof *m->run_max_ns, &failed);
		m->intervals = copy_ivals(m->intervals, m->nintervals, &failed);
	}
	for (size_t i = 0; i < s->nseries; i++) {
		struct rv_series *v = &s->series[i];
		v->buckets = dup_n(v->buckets, v->nbuckets, sizeof *v->buckets, &failed);
		copy_neg(&v->neg, &failed);
		v->intervals = copy_ivals(v->intervals, v->nintervals, &failed);
	}
	return failed ? -ENOMEM : 0;
}

void summary_ival_list_free(struct rv_ival *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].buckets);
		free(list[i].neg.buckets);
	}
	free(list);
}

void summary_metrics_free(struct rv_metric *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		summary_ival_list_free(m[i].intervals, m[i].nintervals);
		free(m[i].name);
		free(m[i].buckets);
		free(m[i].neg.buckets);
		free(m[i].run_count);
		free(m[i].run_mean_ns);
		free(m[i].run_max_ns);
	}
	free(m);
}

void summary_series_free(struct rv_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		summary_ival_list_free(s[i].intervals, s[i].nintervals);
		free(s[i].buckets);
		free(s[i].neg.buckets);
	}
	free(s);
}

void summary_free(struct summary *s)
{
	free(s->batch_run_ns);
	summary_metrics_free(s->metrics, s->nmetrics);
	summary_series_free(s->series, s->nseries);
	memset(s, 0, sizeof *s);
}

/* ---- intervals --------------------------------------------------------- */

/* Block m (an interval's samples of one metric or series) as an rv_ival. */
static void fill_ival(const struct metric_data *m, const struct interval_out *iv,
		      struct rv_ival *out, bool *failed)
{
	memset(out, 0, sizeof *out);
	out->start_ms = iv->start_ms;
	out->seconds = iv->seconds;
	out->count = metric_samples(m);
	out->overflow = m->hist.overflow;
	fill_stats(m, out->count, out->ns, NULL);
	if (fill_buckets(&m->hist, &out->buckets, &out->nbuckets, failed))
		fill_neg(m, &out->neg, failed);
}

int rv_ivals_add(struct rv_ivals *acc, const struct req_result *r, const struct interval_out *iv)
{
	bool failed = false;
	acc->nmetrics = iv->nmetrics < RTC_MAX_METRICS ? iv->nmetrics : RTC_MAX_METRICS;
	acc->nseries = iv->nseries < PROBE_MAX_SERIES ? iv->nseries : PROBE_MAX_SERIES;
	for (unsigned b = 0; b < acc->nmetrics + acc->nseries && !failed; b++) {
		unsigned blk = b < acc->nmetrics ? b : iv->nmetrics + (b - acc->nmetrics);
		const struct metric_data *m = interval_block(iv, blk);
		if (m->kind == METRIC_COUNT)
			continue;
		struct rv_ival *grown = realloc(acc->list[b], (acc->n[b] + 1) * sizeof *grown);
		if (!grown)
			return -ENOMEM;
		acc->list[b] = grown;
		fill_ival(m, iv, &grown[acc->n[b]++], &failed);
		/* The result memory's block, whose range the interval's shares. */
		unsigned rblk = b < acc->nmetrics ? b : r->res->nmetrics + (b - acc->nmetrics);
		acc->highest[b] = result_metric_c(r->res, rblk)->hist.highest;
		if (b >= acc->nmetrics)
			acc->cpu[b - acc->nmetrics] = r->res->series_cpu[b - acc->nmetrics];
	}
	return failed ? -ENOMEM : 0;
}

void rv_ivals_free(struct rv_ivals *acc)
{
	for (size_t b = 0; b < sizeof acc->list / sizeof acc->list[0]; b++)
		summary_ival_list_free(acc->list[b], acc->n[b]);
	memset(acc, 0, sizeof *acc);
}
