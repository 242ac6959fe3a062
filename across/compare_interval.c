/* SPDX-License-Identifier: Apache-2.0 */
/* compare_interval.c - the interval compare decides a figure from
 * (compare.h, cmp_ratio_interval): Welch's t-interval for the ratio of the
 * two sides' per-run values, and Student's t quantile it needs. */
#include "across/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The continued fraction of the regularized incomplete beta function
 * I_x(a, b), evaluated by the modified Lentz method; converges quickly for
 * x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
	d = 1.0 / (fabs(d) < tiny ? tiny : d);
	double h = d;
	for (int m = 1; m <= 400; m++) {
		double m2 = 2.0 * m;
		/* the even step, then the odd one */
		double e = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		double o = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		for (int k = 0; k < 2; k++) {
			double t = k ? o : e;
			d = 1.0 + t * d;
			d = 1.0 / (fabs(d) < tiny ? tiny : d);
			c = 1.0 + t / c;
			c = fabs(c) < tiny ? tiny : c;
			h *= c * d;
			if (k && fabs(c * d - 1.0) < 1e-15)
				return h;
		}
	}
	return h;
}

/* I_x(a, b), a, b > 0. */
static double beta_reg(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_fraction(a, b, x) / a;
	return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double cmp_t_cdf(double t, double df)
{
	double tail = 0.5 * beta_reg(df / 2.0, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail : tail;
}

double cmp_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -cmp_t_quantile(1.0 - p, df);
	if (p == 0.5)
		return 0;
	double lo = 0, hi = 1;
	while (cmp_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (cmp_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Whether the two sides hold the same values, in any order. */
static bool same_values(const double *vb, size_t nb, const double *vc, size_t nc)
{
	if (nb != nc || nb > RTC_MAX_RUNS)
		return false;
	double b[RTC_MAX_RUNS], c[RTC_MAX_RUNS];
	memcpy(b, vb, nb * sizeof *b);
	memcpy(c, vc, nc * sizeof *c);
	qsort(b, nb, sizeof *b, cmp_dbl);
	qsort(c, nc, sizeof *c, cmp_dbl);
	return !memcmp(b, c, nb * sizeof *b);
}

/* The share of each side's values trimmed from each end with trim (Yuen's
 * trimmed t): 20 %, rounded down, so 3 or 4 runs are not trimmed, 5 to 9
 * lose their lowest and highest, 10 to 14 their two of each. */
#define TRIM 0.2

/* Of v (or of its logarithms): the trimmed mean, and the variance of the
 * trimmed mean's estimate per observation as Yuen gives it, (n - 1) s_w^2 /
 * (h - 1) with s_w^2 the winsorized sample variance (0 for one value); h,
 * the values kept. */
struct side {
	double mean, var;
	double raw; /* the plain sample variance of all n (0 for one value) */
	size_t n, h;
};

static void side_of(const double *v, size_t n, bool use_log, bool trim, struct side *out)
{
	double x[RTC_MAX_RUNS];
	for (size_t i = 0; i < n; i++)
		x[i] = use_log ? log(v[i]) : v[i];
	qsort(x, n, sizeof *x, cmp_dbl);
	size_t g = trim ? (size_t)floor(TRIM * (double)n) : 0, h = n - 2 * g;
	double s = 0, w = 0, ww = 0, all = 0, rr = 0;
	for (size_t i = g; i < n - g; i++)
		s += x[i];
	for (size_t i = 0; i < n; i++)
		all += x[i];
	all /= (double)n;
	for (size_t i = 0; i < n; i++)
		rr += (x[i] - all) * (x[i] - all);
	for (size_t i = 0; i < n; i++) {
		double y = x[i < g ? g : i >= n - g ? n - g - 1 : i];
		w += y;
	}
	w /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double y = x[i < g ? g : i >= n - g ? n - g - 1 : i] - w;
		ww += y * y;
	}
	*out = (struct side){ .mean = s / (double)h, .n = n, .h = h,
			      .var = h > 1 ? ww / (double)(h - 1) : 0.0,
			      .raw = n > 1 ? rr / (double)(n - 1) : 0.0 };
}

static bool all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return true;
}

int cmp_ratio_interval(const double *vb, size_t nb, const double *vc, size_t nc, double level,
		       bool trim, struct cmp_interval *out)
{
	memset(out, 0, sizeof *out);
	if (!nb || !nc || nb > RTC_MAX_RUNS || nc > RTC_MAX_RUNS || !(level > 0 && level < 1))
		return -EINVAL;
	out->level = level;
	out->runs_base = nb;
	out->runs_cand = nc;
	if (same_values(vb, nb, vc, nc)) {
		*out = (struct cmp_interval){ .have = true, .exact = true, .level = level, .lo = 1,
					      .hi = 1, .lo1 = 1, .hi1 = 1, .log = true,
					      .runs_base = nb, .runs_cand = nc };
		return 0;
	}
	out->log = all_positive(vb, nb) && all_positive(vc, nc);
	struct side b, c;
	side_of(vb, nb, out->log, trim, &b);
	side_of(vc, nc, out->log, trim, &c);
	out->trimmed = b.h < nb || c.h < nc;
	double mb = b.mean, mc = c.mean;
	if (!out->log && mb == 0)
		return 0; /* no ratio to a zero mean: have stays false */
	double se2, df;
	if (nb >= 2 && nc >= 2) { /* Welch (Yuen): each side its own spread */
		double db = b.var / (double)b.h, dc = c.var / (double)c.h;
		se2 = db + dc;
		df = se2 > 0 ? se2 * se2 / (db * db / (double)(b.h - 1) + dc * dc / (double)(c.h - 1))
			     : 0;
	} else if (nb >= 2 || nc >= 2) { /* one run on a side: the other side's spread for both */
		/* The lone run is one value, untrimmed: its variance is the
		 * other side's plain variance over all its runs (bursts and all),
		 * not the winsorized one that stands for a trimmed mean. */
		const struct side *o = nb >= 2 ? &b : &c;
		se2 = o->var / (double)o->h + o->raw;
		df = (double)o->h - 1.0;
	} else {
		return 0; /* one run a side, and they differ: no spread to judge by */
	}
	double d = mc - mb, half = 0, half1 = 0;
	if (se2 > 0) {
		out->df = df;
		half = cmp_t_quantile(0.5 + level / 2.0, df) * sqrt(se2);
		half1 = cmp_t_quantile(level, df) * sqrt(se2);
	}
	out->have = true;
	const double ends[4] = { d - half, d + half, d - half1, d + half1 };
	double *to[4] = { &out->lo, &out->hi, &out->lo1, &out->hi1 };
	for (int k = 0; k < 4; k++)
		*to[k] = out->log ? exp(ends[k]) : 1.0 + ends[k] / fabs(mb);
	return 0;
}

bool cmp_interval_cover(struct cmp_interval *iv, double base, double cand)
{
	if (!iv->have || !isfinite(base) || !isfinite(cand))
		return false;
	double x;
	if (iv->log && base > 0 && cand > 0)
		x = cand / base;
	else if (!iv->log && base != 0)
		x = 1.0 + (cand - base) / fabs(base);
	else
		return false;
	if (x >= iv->lo && x <= iv->hi)
		return false;
	iv->exact = false;
	iv->lo = fmin(iv->lo, x);
	iv->hi = fmax(iv->hi, x);
	iv->lo1 = fmin(iv->lo1, x);
	iv->hi1 = fmax(iv->hi1, x);
	return true;
}

void cmp_tolerance_band(const struct cmp_interval *iv, double tolerance, double *lo, double *hi)
{
	*hi = 1.0 + tolerance;
	*lo = iv->log ? 1.0 / (1.0 + tolerance) : 1.0 - tolerance;
}

enum cmp_outcome cmp_interval_outcome(const struct cmp_interval *iv, double tolerance,
				      bool lower_is_worse)
{
	if (!iv->have)
		return CMP_INCONCLUSIVE;
	double blo, bhi;
	cmp_tolerance_band(iv, tolerance, &blo, &bhi);
	if (iv->lo >= blo && iv->hi <= bhi)
		return CMP_SAME;
	if (iv->lo > bhi)
		return lower_is_worse ? CMP_BETTER : CMP_WORSE;
	if (iv->hi < blo)
		return lower_is_worse ? CMP_WORSE : CMP_BETTER;
	return CMP_INCONCLUSIVE;
}

bool cmp_interval_may_be_worse(const struct cmp_interval *iv, double tolerance,
			       bool lower_is_worse)
{
	if (!iv->have)
		return true;
	double blo, bhi;
	cmp_tolerance_band(iv, tolerance, &blo, &bhi);
	return lower_is_worse ? iv->lo1 < blo : iv->hi1 > bhi;
}
