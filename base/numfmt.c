/* SPDX-License-Identifier: Apache-2.0 */
/* numfmt.c - see numfmt.h. */
#include "base/numfmt.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static locale_t c_numeric;
static pthread_once_t c_numeric_once = PTHREAD_ONCE_INIT;

static void c_numeric_init(void)
{
	c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static locale_t c_loc(void)
{
	pthread_once(&c_numeric_once, c_numeric_init);
	return c_numeric;
}

locale_t numfmt_c_enter(void)
{
	locale_t c = c_loc();
	return c ? uselocale(c) : (locale_t)0;
}

void numfmt_c_leave(locale_t old)
{
	if (old)
		uselocale(old);
}

static void fmt(const char *f, double v, char *buf, size_t len)
{
	locale_t old = numfmt_c_enter();
	snprintf(buf, len, f, v);
	numfmt_c_leave(old);
}

void numfmt_fmt3(double v, char *buf, size_t len)
{
	fmt("%.3f", v, buf, len);
}

void numfmt_fmt_exact(double v, char *buf, size_t len)
{
	fmt("%.17g", v, buf, len);
}

void numfmt_fmt_shortest(double v, char *buf, size_t len)
{
	locale_t c = c_loc(), old = c ? uselocale(c) : (locale_t)0;
	/* Fewer than 15 digits never needs trying: "%.15g" drops the zeros
	 * after a shorter decimal, and 17 always reads back. */
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (digits == 17 || !isfinite(v) || strtod(buf, NULL) == v)
			break;
	}
	if (old)
		uselocale(old);
}

double numfmt_parse(const char *s, bool *ok)
{
	char *end;
	double v;
	locale_t c = c_loc();
	errno = 0;
	v = c ? strtod_l(s, &end, c) : strtod(s, &end);
	bool good = end != s && *end == '\0' && errno == 0 && isfinite(v);
	if (ok)
		*ok = good;
	return good ? v : 0.0;
}

double numfmt_round3(double v)
{
	char buf[64];
	if (!isfinite(v))
		return v;
	numfmt_fmt3(v, buf, sizeof buf);
	return numfmt_parse(buf, NULL);
}
