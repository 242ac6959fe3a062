/* SPDX-License-Identifier: Apache-2.0 */
/* statistic.c - statistic names and the samples each needs; see statistic.h.
 *
 * Percentiles are handled in fixed point: a percentile name has at most
 * PCT_DECIMALS digits after the point, so pct * 10^PCT_DECIMALS is an integer
 * below 10^15 < 2^53. Every decimal with that few digits survives the trip
 * through a double, so statistic_name() gives back exactly the digits the user
 * wrote (minus trailing zeros), and statistic_min_samples() can divide integers
 * instead of trusting 1 - 0.999 in binary (which gives 10000.00000000057
 * samples for p99.9, ceil 10001).
 */
#include "base/statistic.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


#define PCT_DECIMALS 13
#define PCT_SCALE UINT64_C(10000000000000) /* 10^PCT_DECIMALS */
#define PCT_HUNDRED (100 * PCT_SCALE)

static const struct {
	const char *name;
	enum stat_kind kind;
} named[] = {
	{ "min", STAT_MIN },
	{ "mean", STAT_MEAN },
	{ "stddev", STAT_STDDEV },
	{ "max", STAT_MAX },
	{ "runs-mean-stddev", STAT_RUNS_MEAN_STDDEV },
	{ "total", STAT_TOTAL },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* pct in fixed point, or 0 when it is not a valid percentile (0 and 100 are
 * not, and neither is NaN). Rounding to the nearest step undoes the binary
 * error of a pct that came from statistic_parse(). */
static uint64_t pct_fixed(double pct)
{
	if (!(pct > 0.0 && pct < 100.0))
		return 0;
	double f = round(pct * (double)PCT_SCALE);
	if (f <= 0.0 || f >= (double)PCT_HUNDRED)
		return 0;
	return (uint64_t)f;
}

int statistic_parse(const char *s, struct statistic *out)
{
	if (!s || !out)
		return -EINVAL;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		if (strcmp(s, named[i].name) == 0) {
			out->kind = named[i].kind;
			out->pct = 0.0;
			return 0;
		}
	}
	/* pNN[.N...]: strict by hand rather than strtod, which would take
	 * signs, blanks, exponents, hex, "inf" and the locale's decimal point. */
	if (s[0] != 'p')
		return -EINVAL;
	const char *p = s + 1;
	uint64_t ip = 0;
	int idigits = 0;
	while (is_digit(*p)) {
		ip = ip * 10 + (uint64_t)(*p++ - '0');
		if (++idigits > 2)
			return -EINVAL;
	}
	/* No leading zeros ("p05"), so that one percentile has one spelling;
	 * a lone 0 before the point ("p0.5") is fine. */
	if (idigits == 0 || (idigits == 2 && s[1] == '0'))
		return -EINVAL;
	uint64_t frac = 0;
	int fdigits = 0;
	if (*p == '.') {
		p++;
		while (is_digit(*p)) {
			if (++fdigits > PCT_DECIMALS)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p++ - '0');
		}
		if (fdigits == 0) /* "p99." */
			return -EINVAL;
	}
	if (*p != '\0')
		return -EINVAL;
	for (int i = fdigits; i < PCT_DECIMALS; i++)
		frac *= 10;
	uint64_t fixed = ip * PCT_SCALE + frac;
	if (fixed == 0 || fixed >= PCT_HUNDRED) /* p0, p0.0; 100 can't be written with 2 digits */
		return -EINVAL;
	out->kind = STAT_PCT;
	/* Both operands are exact, so the quotient is the correctly rounded
	 * double of the decimal, as strtod would give. */
	out->pct = (double)fixed / (double)PCT_SCALE;
	return 0;
}

void statistic_name(const struct statistic *st, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (!st) {
		snprintf(buf, len, "?");
		return;
	}
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		if (st->kind == named[i].kind) {
			snprintf(buf, len, "%s", named[i].name);
			return;
		}
	}
	if (st->kind != STAT_PCT) {
		snprintf(buf, len, "?");
		return;
	}
	uint64_t fixed = pct_fixed(st->pct);
	if (!fixed) {
		/* Not something statistic_parse() returns; say what it is rather than
		 * invent a valid-looking name. */
		snprintf(buf, len, "p%g", st->pct);
		return;
	}
	uint64_t frac = fixed % PCT_SCALE;
	if (!frac) {
		snprintf(buf, len, "p%llu", (unsigned long long)(fixed / PCT_SCALE));
		return;
	}
	int digits = PCT_DECIMALS;
	while (frac % 10 == 0) { /* shortest form: p99.9, not p99.9000000000000 */
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "p%llu.%0*llu", (unsigned long long)(fixed / PCT_SCALE), digits,
		 (unsigned long long)frac);
}

bool statistic_fits(const struct statistic *st, enum metric_kind kind)
{
	if (!st)
		return false;
	if (kind == METRIC_COUNT)
		return st->kind == STAT_TOTAL || st->kind == STAT_MIN || st->kind == STAT_MEAN ||
		       st->kind == STAT_MAX;
	return st->kind != STAT_TOTAL;
}

const char *statistic_list(enum metric_kind kind)
{
	if (kind == METRIC_COUNT)
		return "total, min, mean or max";
	return "min, mean, stddev, max, pNN such as p99 or p99.9, or runs-mean-stddev";
}

/* runs-mean-stddev counts as needing one sample: what it really needs is two
 * runs that recorded something, a property of the runs rather than of the
 * sample count. stat_value() refuses it with fewer; a validator that knows
 * the run count from the file has to check runs >= 2 itself. */
uint64_t statistic_min_samples(const struct statistic *st)
{
	if (!st)
		return 1;
	switch (st->kind) {
	case STAT_STDDEV:
		return 2; /* a sample stddev divides by n - 1 */
	case STAT_PCT: {
		uint64_t fixed = pct_fixed(st->pct);
		if (!fixed)
			return UINT64_MAX; /* no count is enough for a bad percentile */
		/* 10 / (1 - q/100) = 1000 / (100 - q) = 1000*S / (100*S - q*S), all
		 * integers; 1000*S = 10^16 fits in 64 bits. */
		uint64_t num = 1000 * PCT_SCALE;
		uint64_t den = PCT_HUNDRED - fixed;
		return (num + den - 1) / den;
	}
	default:
		return 1;
	}
}

