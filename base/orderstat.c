/* SPDX-License-Identifier: Apache-2.0 */
/* orderstat.c - see orderstat.h. */
#include "base/orderstat.h"

#include <math.h>
#include <stdbool.h>

/* A binomial term is smaller than this part of the sum already taken: the
 * tail is complete to long double precision. */
#define TAIL_EPS 1e-21L
/* Beyond this many samples the planning functions take the normal
 * approximation's answer (within a fraction of a percent there) instead of
 * searching exact bounds, whose cost grows with sqrt(n). */
#define PLAN_EXACT_MAX 100000000.0L
#define PLAN_MAX 9007199254740992.0L /* 2^53 */

struct binom {
	uint64_t n;
	long double p, r; /* r: p / (1 - p), the ratio of neighbouring terms' factors */
};

static long double log_pmf(const struct binom *b, uint64_t k)
{
	long double n = (long double)b->n, x = (long double)k;
	return lgammal(n + 1) - lgammal(x + 1) - lgammal(n - x + 1) + x * logl(b->p) +
	       (n - x) * log1pl(-b->p);
}

static long double pmf(const struct binom *b, uint64_t k)
{
	return k > b->n ? 0 : expl(log_pmf(b, k));
}

/* pmf(k + 1) from pmf(k), and back. */
static long double next_up(const struct binom *b, uint64_t k, long double t)
{
	return k >= b->n ? 0 : t * (long double)(b->n - k) / (long double)(k + 1) * b->r;
}

static long double next_down(const struct binom *b, uint64_t k, long double t)
{
	return k == 0 ? 0 : t * (long double)k / ((long double)(b->n - k + 1) * b->r);
}

/* P(Bin <= k): the tail away from the mode summed term by term (the terms
 * shrink all the way), the other as its complement. */
static long double cdf(const struct binom *b, uint64_t k)
{
	if (k >= b->n)
		return 1;
	long double sum = 0, t = pmf(b, k);
	if ((long double)k < (long double)b->n * b->p) {
		for (uint64_t j = k;; j--) {
			sum += t;
			if (j == 0 || t == 0 || t < sum * TAIL_EPS)
				return sum;
			t = next_down(b, j, t);
		}
	}
	t = next_up(b, k, t);
	for (uint64_t j = k + 1;; j++) {
		sum += t;
		if (j >= b->n || t == 0 || t < sum * TAIL_EPS)
			return 1 - sum;
		t = next_up(b, j, t);
	}
}

double os_binom_cdf(uint64_t n, double p, uint64_t k)
{
	struct binom b = { n, p, p / (1 - (long double)p) };
	return (double)cdf(&b, k);
}

uint64_t os_estimate_rank(uint64_t n, double q)
{
	if (n == 0)
		return 0;
	/* q reaches us in binary (0.999 is a hair off): a product within a few
	 * ulps of an integer is that integer, as hist_percentile's rank. */
	long double x = (long double)q * (long double)n, near = roundl(x);
	if (fabsl(x - near) <= 4.0L * 2.220446049250313e-16L * near)
		x = near;
	long double r = ceill(x);
	return r < 1 ? 1 : r > (long double)n ? n : (uint64_t)r;
}

/* z with P(Z <= z) = prob for a standard normal Z, by bisection of erfc:
 * only a starting point for the exact search. */
static long double normal_quantile(long double prob)
{
	long double lo = -40, hi = 40;
	for (int i = 0; i < 200 && hi - lo > 1e-12L; i++) {
		long double mid = (lo + hi) / 2;
		if (0.5L * erfcl(-mid / sqrtl(2)) < prob)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static uint64_t clamp_rank(long double x, uint64_t lo, uint64_t hi)
{
	return x <= (long double)lo ? lo : x >= (long double)hi ? hi : (uint64_t)x;
}

/* The largest m in [0, n] with P(Bin < m) <= a; *below: that probability. */
static uint64_t lower_rank(const struct binom *b, long double a, long double guess,
			   long double *below)
{
	uint64_t m = clamp_rank(guess, 0, b->n);
	long double c = m ? cdf(b, m - 1) : 0, t = pmf(b, m); /* t: pmf(m) */
	if (c <= a) {
		while (m < b->n && c + t <= a) {
			c += t;
			t = next_up(b, m, t);
			m++;
		}
	} else {
		while (m > 0 && c > a) {
			t = next_down(b, m, t); /* pmf(m - 1) */
			c -= t;
			m--;
		}
		c = m ? cdf(b, m - 1) : 0; /* afresh: no drift from the steps */
	}
	*below = c < 0 ? 0 : c;
	return m;
}

/* The smallest m in [1, n + 1] with P(Bin >= m) <= a; *above: that
 * probability. */
static uint64_t upper_rank(const struct binom *b, long double a, long double guess,
			   long double *above)
{
	uint64_t m = clamp_rank(guess, 1, b->n + 1);
	long double u = m > b->n ? 0 : 1 - cdf(b, m - 1), t = pmf(b, m - 1); /* pmf(m - 1) */
	if (u <= a) {
		while (m > 1 && u + t <= a) {
			u += t;
			t = next_down(b, m - 1, t);
			m--;
		}
	} else {
		while (m <= b->n && u > a) {
			t = next_up(b, m - 1, t); /* pmf(m) */
			u -= t;
			m++;
		}
		u = m > b->n ? 0 : 1 - cdf(b, m - 1);
	}
	*above = u < 0 ? 0 : u;
	return m;
}

void os_quantile_bounds(uint64_t n, double q, double level, struct os_bounds *out)
{
	*out = (struct os_bounds){ .lo_rank = 0, .hi_rank = n + 1, .coverage = 0 };
	if (n == 0 || !(q > 0 && q < 1) || !(level > 0 && level < 1))
		return;
	struct binom b = { n, q, q / (1 - (long double)q) };
	long double a = (1 - (long double)level) / 2, z = normal_quantile(a);
	long double mean = (long double)n * q, sd = sqrtl(mean * (1 - (long double)q));
	long double below, above;
	out->lo_rank = lower_rank(&b, a, floorl(mean + z * sd) + 1, &below);
	out->hi_rank = upper_rank(&b, a, floorl(mean - z * sd) + 1, &above);
	out->coverage = (double)(1 - below - above);
}

/* What a planning search asks of n samples. */
enum plan_kind { PLAN_NEAR, PLAN_PASS, PLAN_FAIL };

struct plan {
	enum plan_kind kind;
	double q, level, x; /* x: frac (PLAN_NEAR) or f */
};

static bool plan_met(const struct plan *pl, uint64_t n)
{
	struct os_bounds bd;
	os_quantile_bounds(n, pl->q, pl->level, &bd);
	/* In double, as a caller computes f n (f's long double expansion
	 * would put an integer f n just below itself). */
	long double at_or_below = floor(pl->x * (double)n);
	switch (pl->kind) {
	case PLAN_NEAR:
		return bd.hi_rank <= n &&
		       (long double)(n + 1 - bd.hi_rank) >=
			       (1 - (long double)pl->x) *
				       (long double)(n + 1 - os_estimate_rank(n, pl->q));
	case PLAN_PASS:
		return bd.hi_rank <= n && (long double)bd.hi_rank <= at_or_below;
	case PLAN_FAIL:
		return (long double)bd.lo_rank > at_or_below;
	}
	return false;
}

/* The fewest n that meet pl, from the normal approximation's guess: exact
 * search (doubling, then bisection) up to PLAN_EXACT_MAX samples, the
 * guess itself beyond; 0 past PLAN_MAX. */
static uint64_t plan_search(const struct plan *pl, long double guess)
{
	if (!(guess < PLAN_MAX))
		return 0;
	if (guess > PLAN_EXACT_MAX)
		return (uint64_t)ceill(guess);
	uint64_t lo = 0, hi = guess > 2 ? (uint64_t)(guess / 2) : 1;
	while (!plan_met(pl, hi)) {
		lo = hi;
		hi *= 2;
		if ((long double)hi > 4 * PLAN_EXACT_MAX)
			return 0;
	}
	while (hi - lo > 1) { /* plan_met(hi), and not of lo (or lo is 0) */
		uint64_t mid = lo + (hi - lo) / 2;
		if (plan_met(pl, mid))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

uint64_t os_plan_samples(double q, double level, double frac)
{
	if (!(q > 0 && q < 1) || !(level > 0 && level < 1) || !(frac > 0 && frac < 1))
		return 0;
	struct plan pl = { PLAN_NEAR, q, level, frac };
	/* Of m = n (1 - q) samples above the estimate, the bound stands about
	 * z sqrt(m) ranks higher: within frac once m >= (z / frac)^2. */
	long double z = -normal_quantile((1 - (long double)level) / 2);
	long double m = (z / frac) * (z / frac);
	return plan_search(&pl, m / (1 - (long double)q));
}

/* The normal approximation's n for a bound z standard deviations from
 * q n to reach f n: z^2 q (1 - q) / (f - q)^2. */
static long double decide_guess(double q, double level, double f)
{
	long double z = -normal_quantile((1 - (long double)level) / 2);
	long double d = (long double)f - q;
	return z * z * q * (1 - (long double)q) / (d * d);
}

uint64_t os_samples_to_pass(double q, double level, double f)
{
	if (!(q > 0 && q < 1) || !(level > 0 && level < 1) || !(f > q && f <= 1))
		return 0;
	struct plan pl = { PLAN_PASS, q, level, f };
	return plan_search(&pl, decide_guess(q, level, f));
}

uint64_t os_samples_to_fail(double q, double level, double f)
{
	if (!(q > 0 && q < 1) || !(level > 0 && level < 1) || !(f >= 0 && f < q))
		return 0;
	struct plan pl = { PLAN_FAIL, q, level, f };
	return plan_search(&pl, decide_guess(q, level, f));
}
