/* SPDX-License-Identifier: Apache-2.0 */
/* layers: private to measure harness (the result memory's layout: above the
 * harness, a result's numbers are read in harness/summary.h) */
/* stats.h - the value of a statistic (see base/statistic.h) computed from
 * a metric's measured results. */
#ifndef RTC_STATS_H
#define RTC_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/statistic.h"

struct metric_data;
/* Value of a statistic of one metric, in the metric's units scaled to ns
 * (cycles when want_cycles and the metric has cycles_per_unit != 0); of a
 * count metric, the count itself (total, min, mean or max over its runs).
 * Returns false when it cannot be computed (no samples, fewer than the
 * statistic needs, cycles asked of a non-TSC metric or of a count, or a
 * statistic that does not apply to the metric's kind). */
bool stat_value(const struct metric_data *m, const struct statistic *st,
		bool want_cycles, double *out);

/* Confidence bounds of a percentile statistic (STAT_PCT) of a duration
 * metric at `level` (e.g. 0.95), two-sided with equal tails, from the order
 * statistics of its samples (base/orderstat.h), mapped onto the histogram:
 * the lower bound is the lower edge of the bucket that holds the
 * lo_rank-th smallest sample, the upper bound the upper edge of the bucket
 * of the hi_rank-th, each clamped to the exact [min, max]; a rank among
 * overflowed samples (beyond the histogram's range) gives the lowest value
 * past the range (lower) or the exact max (upper). Signed metrics count
 * ranks from the most negative sample. In ns, or cycles when want_cycles.
 * False when st is not a percentile, m not a duration with samples, or the
 * scale is unusable. The quantile is q = pct / 100 (a double), the ranks
 * os_quantile_bounds(n, q, level) gives. */
struct stat_bounds {
	uint64_t n;                /* the samples the ranks are of */
	uint64_t lo_rank, hi_rank; /* 0 / n + 1: no bound on that side */
	bool has_lo, has_hi;       /* false: too few samples for that side */
	double lo, hi;             /* the bounds (only with has_lo / has_hi) */
	double coverage;           /* exact probability the ranks hold the quantile */
	/* The bound lies in the point estimate's own bucket: its edge is the
	 * histogram's resolution (<= 0.79 %), not what the sample count allows. */
	bool lo_bucket, hi_bucket;
};
bool stat_bounds(const struct metric_data *m, const struct statistic *st, double level,
		 bool want_cycles, struct stat_bounds *out);

/* Samples of a duration metric certainly at or below `value` (ns, or
 * cycles when want_cycles): those of the buckets whose upper edge is at or
 * below it (a bucket that straddles it counts as above). False when m is
 * not a duration with samples. */
bool stat_count_at_or_below(const struct metric_data *m, double value, bool want_cycles,
			    uint64_t *out);
/* Samples of a duration metric that may lie below `value` (ns, or cycles
 * when want_cycles), strictly when `strict`, else at or below it: all but
 * those of the buckets whose lower edge is certainly not (a bucket that
 * straddles it counts as below): the count a lower bound (a bucket's lower
 * edge) must rank above to lie above `value` (strict: at or above it). */
bool stat_count_maybe_below(const struct metric_data *m, double value, bool strict,
			    bool want_cycles, uint64_t *out);

/* The count of run `run` of a count metric; false when it is not one or
 * that run recorded none. */
bool metric_run_count(const struct metric_data *m, uint32_t run, uint64_t *out);

/* Samples a metric holds: its histogram's, and those below zero of a
 * signed metric. */
uint64_t metric_samples(const struct metric_data *m);

/* The median of a duration's samples in its units, whatever their number
 * (the statistic p50 asks for enough samples first); 0 without samples. */
double metric_median(const struct metric_data *m);

/* Per-run figures of a metric. */
double metric_run_mean_ns(const struct metric_data *m, uint32_t run);
/* The largest sample of run `run` of a duration metric, ns; false when it
 * is a count or that run took no samples. */
bool metric_run_max_ns(const struct metric_data *m, uint32_t run, double *out);

#endif
