/* statistic.h - the statistics a limit can name.
 *
 * Names: min, mean, stddev, max, pNN[.N...] (0 < NN < 100, e.g. p50, p99.9),
 * runs-mean-stddev (sample stddev of the per-run means). See docs/requirements.md.
 */
#ifndef RTC_STATISTIC_H
#define RTC_STATISTIC_H

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

#endif
