/* SPDX-License-Identifier: Apache-2.0 */
/* statistic.h - the statistics a limit can name.
 *
 * Names: min, mean, stddev, max, pNN[.N...] (0 < NN < 100, e.g. p50, p99.9),
 * runs-mean-stddev (sample stddev of the per-run means), total (the sum of
 * a count over the runs). Which of them a metric can be judged by depends
 * on its kind (statistic_fits). See docs/requirements.md.
 */
#ifndef RTC_STATISTIC_H
#define RTC_STATISTIC_H

#include <stddef.h>
#include <stdint.h>

#include "base/probe_decl.h"

enum stat_kind { STAT_MIN, STAT_MEAN, STAT_STDDEV, STAT_MAX, STAT_PCT, STAT_RUNS_MEAN_STDDEV,
		 STAT_TOTAL };

struct statistic {
	enum stat_kind kind;
	double pct; /* STAT_PCT only: 0 < pct < 100 */
};

/* Parse a statistic name. Returns 0 or -EINVAL. */
int statistic_parse(const char *s, struct statistic *out);

/* Canonical name ("p99.9", "mean"); also the property-name fragment. */
void statistic_name(const struct statistic *st, char *buf, size_t len);

/* Every statistic name, for the message on one that is none. */
#define STAT_LIST_ALL "min, mean, stddev, max, pNN such as p99 or p99.9, runs-mean-stddev, " \
		      "or total (of a count)"

/* Whether a statistic applies to a metric of that kind. A duration takes
 * every statistic but total; a count (one value per run) takes total, min,
 * mean and max: its spread over a handful of runs (stddev, pNN,
 * runs-mean-stddev) says nothing a limit could hold it to. */
bool statistic_fits(const struct statistic *st, enum metric_kind kind);

/* The statistics a metric of that kind takes, for error messages. */
const char *statistic_list(enum metric_kind kind);

/* Samples a percentile needs to mean anything: 10 / (1 - q/100), rounded up
 * (p99 -> 1000, p99.9 -> 10000). 1 for every other statistic; 2 for stddev. */
uint64_t statistic_min_samples(const struct statistic *st);

#endif
