/* SPDX-License-Identifier: Apache-2.0 */
/* test_orderstat.c - the confidence bounds of a quantile: the binomial CDF
 * and the ranks checked against exact sums, known answers, and coverage
 * measured by drawing samples of known distributions.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/orderstat.h"
#include "test_util.h"

/* P(Bin(n, p) <= k) by the definition: every term's binomial coefficient
 * built up factor by factor, summed from k = 0. */
static long double exact_cdf(unsigned n, long double p, unsigned k)
{
	long double sum = 0;
	for (unsigned j = 0; j <= k && j <= n; j++) {
		long double c = 1;
		for (unsigned i = 1; i <= j; i++)
			c = c * (long double)(n - j + i) / (long double)i;
		sum += c * powl(p, j) * powl(1 - p, n - j);
	}
	return sum;
}

START_TEST(cdf_is_the_exact_sum)
{
	static const unsigned ns[] = { 1, 2, 7, 50, 200, 600 };
	static const double ps[] = { 0.01, 0.5, 0.9, 0.99, 0.999 };
	for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
		for (size_t b = 0; b < sizeof ps / sizeof ps[0]; b++)
			for (unsigned k = 0; k <= ns[a]; k += 1 + ns[a] / 40) {
				double got = os_binom_cdf(ns[a], ps[b], k);
				long double want = exact_cdf(ns[a], ps[b], k);
				ck_assert_msg(fabsl(got - want) <= 1e-12L + 1e-9L * want,
					      "n %u p %g k %u: %.15g, exact %.15Lg", ns[a], ps[b], k,
					      got, want);
			}
}
END_TEST

/* The ranks by the definition, from the exact CDF: the largest l with
 * P(Bin < l) <= a/2, the smallest u with P(Bin >= u) <= a/2. */
static void exact_ranks(unsigned n, double q, double level, uint64_t *l, uint64_t *u)
{
	long double a = (1 - (long double)level) / 2, c[601];
	for (unsigned k = 0; k <= n && k <= 600; k++)
		c[k] = exact_cdf(n, q, k); /* c[k] = P(Bin <= k) */
	*l = 0;
	for (unsigned m = 1; m <= n; m++)
		if (c[m - 1] <= a)
			*l = m;
	*u = n + 1;
	for (unsigned m = n; m >= 1; m--)
		if (1 - c[m - 1] <= a)
			*u = m;
}

START_TEST(ranks_match_the_definition)
{
	static const unsigned ns[] = { 1, 3, 5, 10, 20, 59, 100, 299, 500 };
	static const double qs[] = { 0.5, 0.9, 0.95, 0.99 };
	static const double levels[] = { 0.9, 0.95, 0.99 };
	for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
		for (size_t b = 0; b < sizeof qs / sizeof qs[0]; b++)
			for (size_t c = 0; c < sizeof levels / sizeof levels[0]; c++) {
				struct os_bounds bd;
				uint64_t l, u;
				os_quantile_bounds(ns[a], qs[b], levels[c], &bd);
				exact_ranks(ns[a], qs[b], levels[c], &l, &u);
				ck_assert_msg(bd.lo_rank == l && bd.hi_rank == u,
					      "n %u q %g level %g: [%llu, %llu], exact [%llu, %llu]",
					      ns[a], qs[b], levels[c],
					      (unsigned long long)bd.lo_rank,
					      (unsigned long long)bd.hi_rank, (unsigned long long)l,
					      (unsigned long long)u);
				ck_assert(bd.coverage >= levels[c] - 1e-12);
			}
}
END_TEST

/* Known answers, worked by hand from the definition (and the figures of
 * docs/measurement.md). */
START_TEST(known_answers)
{
	struct os_bounds bd;
	/* The median of 10 samples at 95 %: X(2) .. X(9), coverage
	 * 1 - 2 * 11/1024 = 0.978515625. */
	os_quantile_bounds(10, 0.5, 0.95, &bd);
	ck_assert_uint_eq(bd.lo_rank, 2);
	ck_assert_uint_eq(bd.hi_rank, 9);
	ck_assert(fabs(bd.coverage - 0.978515625) < 1e-12);
	/* Too few samples for an upper bound of p99: 0.99^50 = 0.605 > 0.025;
	 * the lower one is X(48): P(3 or more of 50 above p99) = 0.014. */
	os_quantile_bounds(50, 0.99, 0.95, &bd);
	ck_assert_uint_eq(bd.lo_rank, 48);
	ck_assert_uint_eq(bd.hi_rank, 51);
	/* ... and of p1 no lower bound. */
	os_quantile_bounds(50, 0.01, 0.95, &bd);
	ck_assert_uint_eq(bd.lo_rank, 0);
	ck_assert_uint_eq(bd.hi_rank, 3);
	/* The upper bound of p99 exists from 0.99^n <= 0.025: n >= 368. */
	os_quantile_bounds(367, 0.99, 0.95, &bd);
	ck_assert_uint_eq(bd.hi_rank, 368);
	os_quantile_bounds(368, 0.99, 0.95, &bd);
	ck_assert_uint_eq(bd.hi_rank, 368);
	/* p99.9 of 10,000: the estimate is X(9990), the 11th largest; the
	 * upper bound the 4th largest, X(9997): of 10,000 samples about
	 * Poisson(10) lie above p99.9, P(3 or fewer) = 0.0103 <= 0.025, P(4
	 * or fewer) = 0.0293 is not. */
	ck_assert_uint_eq(os_estimate_rank(10000, 0.999), 9990);
	/* A limit's p99.9 reaches it as 99.9 / 100 = 0.99900000000000011,
	 * whose product with 10,000 is a hair above 9990: still X(9990), as
	 * hist_percentile takes it, not X(9991). */
	volatile double pct = 99.9;
	ck_assert_uint_eq(os_estimate_rank(10000, pct / 100), 9990);
	ck_assert_uint_eq(os_estimate_rank(1000, pct / 100), 999);
	ck_assert_uint_eq(os_estimate_rank(1001, pct / 100), 1000);
	os_quantile_bounds(10000, 0.999, 0.95, &bd);
	ck_assert_uint_eq(bd.hi_rank, 9997);
	ck_assert(bd.lo_rank >= 9980 && bd.lo_rank <= 9985);
	ck_assert_uint_eq(os_estimate_rank(0, 0.5), 0);
	os_quantile_bounds(0, 0.5, 0.95, &bd);
	ck_assert_uint_eq(bd.lo_rank, 0);
	ck_assert_uint_eq(bd.hi_rank, 1);
}
END_TEST

/* Large n: the ranks stay near q n +- z sqrt(n q (1 - q)), in order. */
START_TEST(large_counts_are_fast_and_ordered)
{
	static const uint64_t ns[] = { 1000000ull, 86400000000ull };
	static const double qs[] = { 0.5, 0.99, 0.999999 };
	for (size_t a = 0; a < 2; a++)
		for (size_t b = 0; b < 3; b++) {
			struct os_bounds bd;
			os_quantile_bounds(ns[a], qs[b], 0.95, &bd);
			double n = (double)ns[a], q = qs[b], sd = sqrt(n * q * (1 - q));
			uint64_t e = os_estimate_rank(ns[a], q);
			ck_assert(bd.lo_rank < e && e < bd.hi_rank);
			if (n * (1 - q) < 3) { /* about one sample above: no upper bound */
				ck_assert_uint_eq(bd.hi_rank, ns[a] + 1);
				continue;
			}
			ck_assert_msg(fabs((double)bd.hi_rank - (n * q + 1.96 * sd)) < 0.1 * sd + 3,
				      "n %g q %g: hi %llu", n, q, (unsigned long long)bd.hi_rank);
			ck_assert(bd.coverage >= 0.95 - 1e-9 && bd.coverage < 0.97);
		}
}
END_TEST

/* ---- coverage: samples of known distributions -------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double uniform01(void) /* splitmix64: deterministic, no libc state */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

enum dist { D_EXP, D_PARETO, D_BIMODAL, D_NDIST };
static const char *const dist_names[D_NDIST] = { "exponential", "pareto(1.1)", "bimodal" };

/* A draw by inverting the CDF, and the true q-quantile. */
static double draw(enum dist d, double u)
{
	switch (d) {
	case D_EXP:
		return -log1p(-u);
	case D_PARETO:
		return pow(1 - u, -1 / 1.1); /* heavy tail: infinite variance */
	case D_BIMODAL: /* 90 %: exp around 10, 10 %: exp around 1000 */
		return u < 0.9 ? 10 * -log1p(-u / 0.9) : 1000 + 100 * -log1p(-(u - 0.9) / 0.1);
	default:
		return 0;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

START_TEST(intervals_cover_at_the_stated_rate)
{
	enum { N = 400, TRIALS = 3000 };
	static double s[N];
	static const double qs[] = { 0.5, 0.9, 0.99 };
	for (int d = 0; d < D_NDIST; d++)
		for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
			struct os_bounds bd;
			os_quantile_bounds(N, qs[k], 0.95, &bd);
			ck_assert(bd.lo_rank >= 1 && bd.hi_rank <= N);
			double truth = draw((enum dist)d, qs[k]);
			int covered = 0;
			for (int t = 0; t < TRIALS; t++) {
				for (int i = 0; i < N; i++)
					s[i] = draw((enum dist)d, uniform01());
				qsort(s, N, sizeof s[0], cmp_double);
				covered += s[bd.lo_rank - 1] <= truth && truth <= s[bd.hi_rank - 1];
			}
			/* The stated coverage, within 4 standard errors of TRIALS. */
			double rate = (double)covered / TRIALS;
			double se = sqrt(bd.coverage * (1 - bd.coverage) / TRIALS);
			ck_assert_msg(fabs(rate - bd.coverage) < 4 * se,
				      "%s q %g: covered %.4f, stated %.4f", dist_names[d], qs[k],
				      rate, bd.coverage);
			ck_assert(bd.coverage >= 0.95);
		}
}
END_TEST

START_TEST(planning)
{
	/* p99.9 at 95 %: the bound within 10 % of the estimate's rank (from
	 * the top) once about (1.96 / 0.1)^2 = 384 samples lie above it. */
	uint64_t n = os_plan_samples(0.999, 0.95, 0.10);
	ck_assert_msg(n > 300000 && n < 500000, "%llu", (unsigned long long)n);
	struct os_bounds bd;
	os_quantile_bounds(n, 0.999, 0.95, &bd);
	ck_assert((double)(n + 1 - bd.hi_rank) >= 0.9 * (double)(n + 1 - os_estimate_rank(n, 0.999)));
	os_quantile_bounds(n - n / 10, 0.999, 0.95, &bd);
	uint64_t m = n - n / 10;
	ck_assert((double)(m + 1 - bd.hi_rank) < 0.9 * (double)(m + 1 - os_estimate_rank(m, 0.999)));

	/* A max limit on p99 with 0.5 % of the samples above it passes once
	 * the upper bound's rank is at or below the count beneath the limit. */
	n = os_samples_to_pass(0.99, 0.95, 0.995);
	ck_assert(n > 1000 && n < 10000);
	os_quantile_bounds(n, 0.99, 0.95, &bd);
	ck_assert(bd.hi_rank <= (uint64_t)floor(0.995 * (double)n));
	/* ... and with 2 % above it, fails. */
	n = os_samples_to_fail(0.99, 0.95, 0.98);
	ck_assert_msg(n > 100 && n < 10000, "%llu", (unsigned long long)n);
	os_quantile_bounds(n, 0.99, 0.95, &bd);
	ck_assert(bd.lo_rank > (uint64_t)floor(0.98 * (double)n));
	/* Nothing decides a limit exactly at the quantile, or from the wrong side. */
	ck_assert_uint_eq(os_samples_to_pass(0.99, 0.95, 0.99), 0);
	ck_assert_uint_eq(os_samples_to_pass(0.99, 0.95, 0.98), 0);
	ck_assert_uint_eq(os_samples_to_fail(0.99, 0.95, 0.995), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("orderstat");
	TCase *tc = tu_tcase(s, "core", 120);
	tcase_add_test(tc, cdf_is_the_exact_sum);
	tcase_add_test(tc, ranks_match_the_definition);
	tcase_add_test(tc, known_answers);
	tcase_add_test(tc, large_counts_are_fast_and_ordered);
	tcase_add_test(tc, intervals_cover_at_the_stated_rate);
	tcase_add_test(tc, planning);
	return tu_run(s);
}
