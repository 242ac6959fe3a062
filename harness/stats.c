/* SPDX-License-Identifier: Apache-2.0 */
/* stats.c - the value of a statistic of one measured metric; see stats.h. */
#include "harness/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/orderstat.h"
#include "harness/measure/probe.h"

/* The mean of a run's samples, below zero too; count != 0. */
static long double run_mean(const struct run_stat *r)
{
	long double sum = (long double)r->sum - (long double)r->neg_sum;
	return sum / (long double)r->count;
}

uint64_t metric_samples(const struct metric_data *m)
{
	const struct hist *neg = metric_neg_c(m);
	return m->hist.count + (neg ? neg->count : 0);
}

double metric_median(const struct metric_data *m)
{
	const struct hist *neg = metric_neg_c(m);
	if (neg && neg->count)
		return (double)hist_signed_percentile(&m->hist, neg, 50);
	return (double)hist_percentile(&m->hist, 50);
}

/* Sample stddev of the means of the runs that recorded anything, in units.
 * Two passes over the means: they are close together by nature, so the
 * single-pass formula would cancel. false with fewer than two such runs. */
static bool runs_mean_stddev(const struct metric_data *m, double *out)
{
	long double total = 0;
	uint32_t n = 0;
	for (uint32_t r = 0; r < RTC_MAX_RUNS; r++) {
		if (m->runs[r].count) {
			total += run_mean(&m->runs[r]);
			n++;
		}
	}
	if (n < 2)
		return false;
	long double mean = total / n, ss = 0;
	for (uint32_t r = 0; r < RTC_MAX_RUNS; r++) {
		if (m->runs[r].count) {
			long double d = run_mean(&m->runs[r]) - mean;
			ss += d * d;
		}
	}
	*out = (double)sqrtl(ss / (n - 1));
	return true;
}

/* A count metric's statistics: its histogram holds one value per run (see
 * struct metric_data), unscaled. */
static bool count_value(const struct hist *h, const struct statistic *st, double *out)
{
	switch (st->kind) {
	case STAT_TOTAL:
		*out = (double)h->sum;
		return true;
	case STAT_MIN:
		*out = (double)h->min;
		return true;
	case STAT_MAX:
		*out = (double)h->max;
		return true;
	case STAT_MEAN:
		*out = hist_mean(h);
		return true;
	default:
		return false;
	}
}

/* A duration's statistic in units; false when it cannot be had. Signed
 * statistics only when there are samples below zero, so an unsigned
 * metric's figures are exactly what they always were. */
static bool duration_value(const struct metric_data *m, const struct statistic *st, double *v)
{
	const struct hist *h = &m->hist, *neg = metric_neg_c(m);
	if (st->kind == STAT_RUNS_MEAN_STDDEV)
		return runs_mean_stddev(m, v);
	if (!neg || !neg->count) {
		if (st->kind == STAT_STDDEV)
			*v = hist_stddev(h);
		else if (st->kind == STAT_PCT)
			*v = (double)hist_percentile(h, st->pct);
		else /* min, max, mean: over one histogram, as a count's */
			return st->kind != STAT_TOTAL && count_value(h, st, v);
		return true;
	}
	switch (st->kind) {
	case STAT_MIN:
		*v = (double)hist_signed_min(h, neg);
		return true;
	case STAT_MAX:
		*v = (double)hist_signed_max(h, neg);
		return true;
	case STAT_MEAN:
		*v = hist_signed_mean(h, neg);
		return true;
	case STAT_STDDEV:
		*v = hist_signed_stddev(h, neg);
		return true;
	case STAT_PCT:
		*v = (double)hist_signed_percentile(h, neg, st->pct);
		return true;
	default:
		return false;
	}
}

bool stat_value(const struct metric_data *m, const struct statistic *st,
		bool want_cycles, double *out)
{
	if (!m || !st || !out)
		return false;
	const struct hist *h = &m->hist;
	uint64_t n = metric_samples(m);
	if (n == 0 || n < statistic_min_samples(st))
		return false;
	if (m->kind == METRIC_COUNT)
		return !want_cycles && count_value(h, st, out);
	if (!statistic_fits(st, METRIC_DURATION))
		return false;
	double scale = want_cycles ? m->cycles_per_unit : m->ns_per_unit;
	/* A zero or nonsense scale would turn every value into 0 and pass every
	 * max= limit: refuse it instead. */
	if (!(scale > 0.0) || !isfinite(scale))
		return false;
	double v;
	if (!duration_value(m, st, &v))
		return false;
	*out = v * scale;
	return true;
}

bool metric_run_count(const struct metric_data *m, uint32_t run, uint64_t *out)
{
	if (!m || m->kind != METRIC_COUNT || run >= RTC_MAX_RUNS || m->runs[run].count == 0)
		return false;
	*out = (uint64_t)m->runs[run].sum;
	return true;
}

double metric_run_mean_ns(const struct metric_data *m, uint32_t run)
{
	if (!m || run >= RTC_MAX_RUNS || m->runs[run].count == 0)
		return 0.0;
	return (double)run_mean(&m->runs[run]) * m->ns_per_unit;
}

bool metric_run_max_ns(const struct metric_data *m, uint32_t run, double *out)
{
	if (!m || m->kind == METRIC_COUNT || run >= RTC_MAX_RUNS || m->runs[run].count == 0)
		return false;
	const struct run_stat *r = &m->runs[run];
	/* Every sample below zero: the largest is the least magnitude. */
	double mx = r->neg_count == r->count ? -(double)r->neg_least : (double)r->max;
	*out = mx * m->ns_per_unit;
	return true;
}

/* The scale of a duration metric's units to ns or cycles; 0 when unusable. */
static double duration_scale(const struct metric_data *m, bool want_cycles)
{
	double scale = want_cycles ? m->cycles_per_unit : m->ns_per_unit;
	return scale > 0.0 && isfinite(scale) ? scale : 0.0;
}

bool stat_bounds(const struct metric_data *m, const struct statistic *st, double level,
		 bool want_cycles, struct stat_bounds *out)
{
	if (!out)
		return false;
	memset(out, 0, sizeof *out);
	if (!m || !st || st->kind != STAT_PCT || m->kind == METRIC_COUNT)
		return false;
	uint64_t n = metric_samples(m);
	double scale = duration_scale(m, want_cycles);
	if (n == 0 || scale == 0.0)
		return false;
	const struct hist *neg = metric_neg_c(m);
	double q = st->pct / 100.0;
	struct os_bounds b;
	os_quantile_bounds(n, q, level, &b);
	int64_t lo, hi, est_bucket, bucket;
	hist_rank_range(&m->hist, neg, os_estimate_rank(n, q), &lo, &hi, &est_bucket);
	*out = (struct stat_bounds){ .n = n, .lo_rank = b.lo_rank, .hi_rank = b.hi_rank,
				     .coverage = b.coverage };
	int64_t unused;
	if ((out->has_lo = hist_rank_range(&m->hist, neg, b.lo_rank, &lo, &unused, &bucket))) {
		out->lo = (double)lo * scale;
		out->lo_bucket = bucket == est_bucket;
	}
	if ((out->has_hi = hist_rank_range(&m->hist, neg, b.hi_rank, &unused, &hi, &bucket))) {
		out->hi = (double)hi * scale;
		out->hi_bucket = bucket == est_bucket;
	}
	return true;
}

bool stat_count_at_or_below(const struct metric_data *m, double value, bool want_cycles,
			    uint64_t *out)
{
	if (!m || !out || m->kind == METRIC_COUNT || metric_samples(m) == 0)
		return false;
	double scale = duration_scale(m, want_cycles);
	if (scale == 0.0 || isnan(value))
		return false;
	/* Whole units at or below value / scale. */
	long double u = floorl((long double)value / scale);
	int64_t v = u >= 9.2e18L ? INT64_MAX : u <= -9.2e18L ? INT64_MIN + 1 : (int64_t)u;
	*out = hist_count_at_or_below(&m->hist, metric_neg_c(m), v);
	return true;
}

bool stat_count_maybe_below(const struct metric_data *m, double value, bool strict,
			    bool want_cycles, uint64_t *out)
{
	if (!m || !out || m->kind == METRIC_COUNT || metric_samples(m) == 0)
		return false;
	double scale = duration_scale(m, want_cycles);
	if (scale == 0.0 || isnan(value))
		return false;
	/* A lower edge e (units) lies below value when e * scale < value
	 * (strict) or <= it: e <= ceil(value / scale) - 1, or e <= floor(). */
	long double x = (long double)value / scale;
	long double u = strict ? ceill(x) - 1 : floorl(x);
	int64_t v = u >= 9.2e18L ? INT64_MAX : u <= -9.2e18L ? INT64_MIN + 1 : (int64_t)u;
	*out = hist_count_maybe_at_or_below(&m->hist, metric_neg_c(m), v);
	return true;
}
