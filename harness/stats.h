/* stats.h - statistics named in limits, computed from a metric's results,
 * and the verdict of a limit.
 *
 * Names: min, mean, stddev, max, pNN[.N...] (0 < NN < 100, e.g. p50, p99.9),
 * runs-mean-stddev (sample stddev of the per-run means). See docs/requirements.md.
 */
#ifndef RTC_STATS_H
#define RTC_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum stat_kind { STAT_MIN, STAT_MEAN, STAT_STDDEV, STAT_MAX, STAT_PCT, STAT_RUNS_MEAN_STDDEV };

struct statistic {
	enum stat_kind kind;
	double pct; /* STAT_PCT only: 0 < pct < 100 */
};

/* Parse a statistic name. Returns 0 or -EINVAL. */
int stat_parse(const char *s, struct statistic *out);

/* Canonical name ("p99.9", "mean"); also the property-name fragment. */
void stat_name(const struct statistic *st, char *buf, size_t len);

/* Samples a percentile needs to mean anything: 10 / (1 - q/100), rounded up
 * (p99 -> 1000, p99.9 -> 10000). 1 for every other statistic; 2 for stddev. */
uint64_t stat_min_samples(const struct statistic *st);

struct metric_data;
/* Value of a statistic of one metric, in the metric's units scaled to ns
 * (cycles when want_cycles and the metric has cycles_per_unit != 0).
 * Returns false when it cannot be computed (no samples, fewer than the
 * statistic needs, or cycles asked of a non-TSC metric). */
bool stat_value(const struct metric_data *m, const struct statistic *st,
		bool want_cycles, double *out);

/* Per-run figures of a metric. */
double metric_run_mean_ns(const struct metric_data *m, uint32_t run);

#endif
