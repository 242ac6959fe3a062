/* SPDX-License-Identifier: Apache-2.0 */
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
