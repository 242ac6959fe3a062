/* SPDX-License-Identifier: Apache-2.0 */
/* orderstat.h - distribution-free confidence bounds of a quantile from the
 * order statistics of a sample, and how many samples a bound needs.
 *
 * Of n independent samples of one continuous distribution, sorted
 * X(1) <= ... <= X(n), and its true q-quantile xi: the number of samples at
 * or below xi is Binomial(n, q), whatever the distribution, so
 *
 *   P(X(l) >  xi) = P(Bin(n, q) <= l - 1)
 *   P(X(u) <  xi) = P(Bin(n, q) >= u) = 1 - P(Bin(n, q) <= u - 1)
 *
 * The two-sided bounds at level 1 - a take equal tails: l the largest rank
 * with P(Bin <= l - 1) <= a/2, u the smallest with P(Bin >= u) <= a/2, so
 * [X(l), X(u)] holds xi with probability at least 1 - a (exactly
 * P(Bin <= u - 1) - P(Bin <= l - 1), given as `coverage`). With too few
 * samples there is no such rank: l = 0 (no lower bound: (1 - q)^n > a/2) or
 * u = n + 1 (no upper bound: q^n > a/2).
 *
 * The binomial CDF is computed exactly (up to long double rounding), not by
 * an approximation: the tail away from the mode is summed term by term from
 * one lgamma()-based term and the terms' ratio, until a term no longer
 * moves the sum. A normal approximation only picks the rank to start from.
 *
 * Pure functions: no allocation, no I/O. docs/measurement.md has the rules.
 */
#ifndef RTC_ORDERSTAT_H
#define RTC_ORDERSTAT_H

#include <stdint.h>

/* Ranks from 1 (the smallest sample) to n. */
struct os_bounds {
	uint64_t lo_rank;  /* the lower bound is X(lo_rank); 0: none */
	uint64_t hi_rank;  /* the upper bound is X(hi_rank); n + 1: none */
	double coverage;   /* the exact probability that [X(lo), X(hi)] holds xi */
};

/* P(Bin(n, p) <= k), 0 < p < 1; 1 when k >= n. */
double os_binom_cdf(uint64_t n, double p, uint64_t k);

/* The rank of the point estimate as hist_percentile() takes it:
 * ceil(q * n), at least 1 (0 when n is 0). */
uint64_t os_estimate_rank(uint64_t n, double q);

/* The two-sided bounds of the q-quantile (0 < q < 1) at `level`
 * (0 < level < 1, e.g. 0.95) from n samples. */
void os_quantile_bounds(uint64_t n, double q, double level, struct os_bounds *out);

/* The fewest samples n for which the upper bound's rank counted from the
 * top (n + 1 - hi_rank) is at least (1 - frac) times the estimate's
 * (n + 1 - os_estimate_rank): the bound has come within frac of the
 * estimate, in ranks. 0 < frac < 1. */
uint64_t os_plan_samples(double q, double level, double frac);

/* The fewest samples that decide a limit on the q-quantile at `level`,
 * were the fraction f of them (0 <= f <= 1) to lie at or below the limit as
 * they do now: a `max` passes once hi_rank <= f n (os_samples_to_pass), and
 * fails once lo_rank > f n (os_samples_to_fail). 0 when no number of
 * samples would (f on the wrong side of q, or equal to it), or when more
 * than 2^53 would be needed. */
uint64_t os_samples_to_pass(double q, double level, double f);
uint64_t os_samples_to_fail(double q, double level, double f);

#endif
