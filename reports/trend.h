/* SPDX-License-Identifier: Apache-2.0 */
/* trend.h - whether the maxima of a run's intervals were still rising when
 * it ended: the record-setting intervals (an interval whose max exceeds
 * every earlier one's; the first is one) and when the last was set, and
 * Kendall's tau of interval max against time with its two-sided p-value.
 *
 * The largest sample observed is a sample statistic, not a bound on the
 * worst case: a longer run can always see a larger one. What a report can
 * say honestly is whether the run's maxima had stopped growing: a record
 * late in the run, or a significant rising trend, says a longer run would
 * likely have seen more. No extreme-value estimate is made
 * (docs/measurement.md, "Confidence bounds, planning and what the maximum
 * means").
 *
 * Kendall's tau-b: the intervals are in time order and their times are
 * distinct, so only the maxima can tie. With n0 = n (n - 1) / 2 pairs,
 * n2 = sum of u (u - 1) / 2 over groups of u tied maxima, D the pairs
 * i < j with max_i > max_j, S = n0 - n2 - 2 D (concordant minus
 * discordant), tau = S / sqrt(n0 (n0 - n2)), and under no trend
 * Var(S) = (n (n - 1) (2n + 5) - sum u (u - 1) (2u + 5)) / 18; the
 * p-value is the normal approximation's, 2 P(Z > |S| / sqrt(Var S)),
 * without continuity correction. D is counted by merge sort, in
 * O(n log n): a week of one-second intervals takes no time to judge.
 *
 * Pure: no I/O; one scratch allocation.
 */
#ifndef RTC_TREND_H
#define RTC_TREND_H

#include <stdbool.h>
#include <stddef.h>

/* What trend_of finds of n intervals. */
struct trend {
	size_t n;            /* the intervals */
	size_t records;      /* record-setting intervals, the first included */
	size_t last_record;  /* index of the last of them */
	bool tau_defined;    /* at least 2 intervals, not all maxima equal */
	double tau;          /* Kendall's tau-b; 0 when not defined */
	double z, p;         /* S / sqrt(Var S), its two-sided p-value (1: none) */
	bool late_record;    /* the last record's interval ends in the last quarter
			      * of the run (after 3/4 of first start .. last end) */
	bool rising;         /* late_record, or tau > 0 with p < TREND_ALPHA */
};

#define TREND_ALPHA 0.05

/* Interval k started at start_s[k] and ended at end_s[k] (seconds, any
 * origin, in time order) with largest sample max[k]. False when n is 0 or
 * the scratch memory cannot be had. */
bool trend_of(const double *start_s, const double *end_s, const double *max, size_t n,
	      struct trend *out);

/* "still rising" or "no rising trend", as the reports say it. */
const char *trend_word(const struct trend *t);

/* One sentence of t, for the reports (times as the caller formats them):
 * "3 record-setting intervals of 5, the last in interval 4 (at WHEN);
 *  Kendall's tau 0.60, p = 0.14: still rising (the last record is in the
 *  last quarter of the run)". */
void trend_text(const struct trend *t, const char *when, char *buf, size_t len);

#endif
