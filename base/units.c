/* SPDX-License-Identifier: Apache-2.0 */
/* units.c - see units.h.
 *
 * Numbers are parsed and printed with integer arithmetic rather than
 * strtod()/printf("%f"): both of those follow LC_NUMERIC, and a requirements
 * file or a report must mean the same thing on every machine.
 */
#include "base/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define UNIT_LIST "ns, us, \xc2\xb5s, ms, s or cycles"
#define DURATION_LIST "ns, us, \xc2\xb5s, ms or s"

struct unit_def {
	const char *name;
	uint64_t mult; /* base units (ns or cycles) per unit */
	enum qty_unit unit;
};

/* "μs" (U+03BC GREEK SMALL LETTER MU) is what many keyboards and input
 * methods produce for "micro"; it is accepted beside U+00B5 MICRO SIGN so a
 * user is not told their visually identical unit is unknown. */
static const struct unit_def units[] = {
	{ "ns", 1, QTY_NS },
	{ "us", 1000, QTY_NS },
	{ "\xc2\xb5s", 1000, QTY_NS },
	{ "\xce\xbcs", 1000, QTY_NS },
	{ "ms", 1000000, QTY_NS },
	{ "s", 1000000000, QTY_NS },
	{ "cycles", 1, QTY_CYCLES },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static uint64_t pow10u(int n)
{
	uint64_t p = 1;
	while (n-- > 0)
		p *= 10;
	return p;
}

/* Shared by units_qty_parse and units_duration_parse_ns: *whole is the value rounded to
 * whole base units, *value the value as a double (sub-unit fractions kept). */
static int parse_quantity(const char *text, bool allow_zero, bool allow_cycles,
			  bool allow_bare, double *value, uint64_t *whole, enum qty_unit *unit,
			  char *err, size_t errlen)
{
	static const struct unit_def bare = { "", 1, QTY_COUNT };
	const char *p = text;
	uint64_t ip = 0, frac = 0;
	int fdigits = 0;
	bool overflow = false;

	if (!text || !*text) {
		snprintf(err, errlen, "empty value (expected a number and a unit, e.g. 50us)");
		return -EINVAL;
	}
	if (*p == '-' || *p == '+') {
		snprintf(err, errlen, "a sign is not allowed (expected a number and a unit, e.g. 50us)");
		return -EINVAL;
	}
	if (!is_digit(*p)) {
		if (*p == '.')
			snprintf(err, errlen, "a number must start with a digit (write 0.5us, not .5us)");
		else
			snprintf(err, errlen, "expected a number and a unit (e.g. 50us)");
		return -EINVAL;
	}
	for (; is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (ip > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			ip = ip * 10 + d;
	}
	if (*p == '.') {
		p++;
		if (!is_digit(*p)) {
			snprintf(err, errlen, "expected digits after the decimal point");
			return -EINVAL;
		}
		/* 19 digits is below 1e-18 of a unit; later digits cannot matter
		 * but must still be digits. */
		for (; is_digit(*p); p++) {
			if (fdigits < 19) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fdigits++;
			}
		}
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p && !allow_bare) {
		snprintf(err, errlen, "missing unit (expected %s)",
			 allow_cycles ? UNIT_LIST : DURATION_LIST);
		return -EINVAL;
	}
	if ((*p == 'e' || *p == 'E') && (is_digit(p[1]) || p[1] == '-' || p[1] == '+')) {
		snprintf(err, errlen, "exponents are not allowed (write the number out, e.g. 1500us)");
		return -EINVAL;
	}
	const struct unit_def *u = *p ? NULL : &bare;
	for (size_t i = 0; *p && i < sizeof units / sizeof units[0]; i++)
		if (strcmp(p, units[i].name) == 0)
			u = &units[i];
	if (!u) {
		snprintf(err, errlen, "unknown unit '%.24s%s' (expected %s)", p,
			 strlen(p) > 24 ? "..." : "",
			 allow_cycles ? UNIT_LIST : DURATION_LIST);
		return -EINVAL;
	}
	if (u->unit == QTY_CYCLES && !allow_cycles) {
		snprintf(err, errlen, "a cycle count is not a duration (expected %s)",
			 DURATION_LIST);
		return -EINVAL;
	}

	/* 128-bit intermediates: ip * mult and frac * mult can exceed 64 bits
	 * before the range check below. */
	uint64_t scale = pow10u(fdigits);
	unsigned __int128 fm = (unsigned __int128)frac * u->mult;
	unsigned __int128 ipart = (unsigned __int128)ip * u->mult + fm / scale;
	uint64_t rem = (uint64_t)(fm % scale);
	unsigned __int128 rounded = ipart + (rem >= scale - rem ? 1 : 0); /* half up */
	if (overflow || rounded > UINT64_MAX) {
		if (u->unit != QTY_NS)
			snprintf(err, errlen, "too large (at most %llu%s)",
				 (unsigned long long)UINT64_MAX, u->unit == QTY_CYCLES ? " cycles" : "");
		else
			snprintf(err, errlen, "too large (at most %llu ns, about 584 years)",
				 (unsigned long long)UINT64_MAX);
		return -ERANGE;
	}
	if (!allow_zero && ipart == 0 && rem == 0) {
		snprintf(err, errlen, "must be greater than zero");
		return -ERANGE;
	}
	*value = (double)(uint64_t)ipart + (fdigits ? (double)rem / (double)scale : 0.0);
	*whole = (uint64_t)rounded;
	*unit = u->unit;
	return 0;
}

int units_qty_parse(const char *text, bool allow_zero, struct quantity *out,
	      char *err, size_t errlen)
{
	double v;
	uint64_t whole;
	enum qty_unit unit;
	int rc = parse_quantity(text, allow_zero, true, false, &v, &whole, &unit, err, errlen);
	if (rc == 0) {
		out->value = v;
		out->unit = unit;
	}
	return rc;
}

int units_bound_parse(const char *text, struct quantity *out, char *err, size_t errlen)
{
	double v;
	uint64_t whole;
	enum qty_unit unit;
	int rc = parse_quantity(text, true, true, true, &v, &whole, &unit, err, errlen);
	if (rc == 0) {
		out->value = v;
		out->unit = unit;
	}
	return rc;
}

int units_duration_parse_ns(const char *text, bool allow_zero, uint64_t *ns,
		      char *err, size_t errlen)
{
	double v;
	uint64_t whole;
	enum qty_unit unit;
	int rc = parse_quantity(text, allow_zero, false, false, &v, &whole, &unit, err, errlen);
	if (rc)
		return rc;
	if (whole == 0 && !allow_zero) {
		/* "0.2ns": positive as written, but nothing at ns resolution */
		snprintf(err, errlen, "must be at least 1 ns");
		return -ERANGE;
	}
	*ns = whole;
	return 0;
}

/* The number is read by units_duration_parse_ns as seconds, then multiplied:
 * one grammar of numbers for every quantity of a file. */
int units_run_duration_parse(const char *text, uint64_t *ns, char *err, size_t errlen)
{
	static const struct { const char *name; uint64_t mult; } run_units[] = {
		{ "s", 1 }, { "min", 60 }, { "h", 3600 },
	};
	char num[64];
	size_t len = text ? strlen(text) : 0, end = len;
	while (end > 0 && ((text[end - 1] >= 'a' && text[end - 1] <= 'z') ||
			   (text[end - 1] >= 'A' && text[end - 1] <= 'Z')))
		end--;
	const char *unit = text ? text + end : "";
	uint64_t mult = 0;
	for (size_t i = 0; i < sizeof run_units / sizeof run_units[0]; i++)
		if (strcmp(unit, run_units[i].name) == 0)
			mult = run_units[i].mult;
	if (len && end == len) {
		snprintf(err, errlen, "missing unit (expected s, min or h, e.g. 24h)");
		return -EINVAL;
	}
	if (!mult && len) {
		snprintf(err, errlen, "unknown unit '%.24s' (expected s, min or h, e.g. 24h)", unit);
		return -EINVAL;
	}
	if (end >= sizeof num - 2) {
		snprintf(err, errlen, "out of range (expected 1s .. 168h, 7 days)");
		return -ERANGE;
	}
	memcpy(num, text ? text : "", end);
	snprintf(num + end, sizeof num - end, "s");
	uint64_t secs_ns;
	int rc = units_duration_parse_ns(num, true, &secs_ns, err, errlen);
	if (rc == -ERANGE || (rc == 0 && (secs_ns > RUN_DURATION_MAX_NS / mult ||
					  secs_ns * mult < RUN_DURATION_MIN_NS))) {
		snprintf(err, errlen, "out of range (expected 1s .. 168h, 7 days)");
		return -ERANGE;
	}
	if (rc == -EINVAL && !strncmp(err, "unknown unit", 12)) {
		/* Something not a number before the unit ("1h30min", "1,5h"): the
		 * inner parser's unit is one the user never typed. */
		snprintf(err, errlen, "'%.40s%s' is not one number and one unit (expected a number "
			 "then s, min or h, e.g. 30s, 90min, 1.5h)", text, len > 40 ? "..." : "");
		return rc;
	}
	if (rc)
		return rc;
	*ns = secs_ns * mult;
	return 0;
}

int units_count_parse_range(const char *text, uint64_t min, uint64_t max, uint64_t *out,
		      char *err, size_t errlen)
{
	const char *p = text;
	uint64_t v = 0;
	bool overflow = false;

	if (!text || !*text) {
		snprintf(err, errlen, "empty value (expected a whole number %llu..%llu)",
			 (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	if (*p == '-') {
		snprintf(err, errlen, "negative numbers are not allowed (expected %llu..%llu)",
			 (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	if (*p == '+') {
		snprintf(err, errlen, "a sign is not allowed (expected %llu..%llu)",
			 (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	for (; *p; p++) {
		if (!is_digit(*p)) {
			snprintf(err, errlen, "not a whole number (expected digits only, %llu..%llu)",
				 (unsigned long long)min, (unsigned long long)max);
			return -EINVAL;
		}
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
	}
	if (overflow || v > max) {
		snprintf(err, errlen, "out of range (expected %llu..%llu)",
			 (unsigned long long)min, (unsigned long long)max);
		return -ERANGE;
	}
	if (v < min) {
		snprintf(err, errlen, "must be at least %llu (expected %llu..%llu)",
			 (unsigned long long)min, (unsigned long long)min, (unsigned long long)max);
		return -ERANGE;
	}
	*out = v;
	return 0;
}

int units_count_parse(const char *text, uint64_t max, uint64_t *out,
		char *err, size_t errlen)
{
	return units_count_parse_range(text, 1, max, out, err, errlen);
}

/* Decimals that give 4 significant digits for a value >= 0 (at most 3). */
static int sig_decimals(double v)
{
	if (v >= 1000)
		return 0;
	if (v >= 100)
		return 1;
	if (v >= 10)
		return 2;
	return 3;
}

/* v >= 0, finite. Rounds to `dec` decimals and prints without trailing zeros,
 * independent of the locale. Returns the rounded value. */
static double put_decimal(double v, int dec, char *buf, size_t len)
{
	uint64_t scale = pow10u(dec);
	double scaled = nearbyint(v * (double)scale);
	if (scaled >= 9e18) { /* beyond uint64: no fraction to show anyway */
		snprintf(buf, len, "%.0f", nearbyint(v));
		return nearbyint(v);
	}
	uint64_t s = (uint64_t)scaled;
	uint64_t ip = s / scale, fp = s % scale;
	if (fp == 0) {
		snprintf(buf, len, "%llu", (unsigned long long)ip);
	} else {
		while (fp % 10 == 0) {
			fp /= 10;
			dec--;
		}
		snprintf(buf, len, "%llu.%0*llu", (unsigned long long)ip, dec,
			 (unsigned long long)fp);
	}
	return scaled / (double)scale;
}

static const struct units_scale scale[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
};
static const size_t nscale = sizeof scale / sizeof scale[0];

/* nan, inf, -inf into buf; false for a finite v. */
static bool put_special(double v, const char *suffix, char *buf, size_t len)
{
	if (isfinite(v))
		return false;
	snprintf(buf, len, "%s%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf", suffix);
	return true;
}

struct units_scale units_scale_of(double largest_ns)
{
	double a = isfinite(largest_ns) ? fabs(largest_ns) : 0;
	size_t i = 0;
	while (i + 1 < nscale && nearbyint(a / scale[i].div) >= 10000)
		i++;
	return scale[i];
}

void units_fmt_ns_in(double ns, struct units_scale s, char *buf, size_t len)
{
	char num[48];
	if (!len || put_special(ns, "", buf, len))
		return;
	double v = fabs(ns) / s.div;
	put_decimal(v, sig_decimals(v), num, sizeof num);
	snprintf(buf, len, "%s%s %s", ns < 0 && strcmp(num, "0") ? "-" : "", num, s.name);
}

void units_fmt_ns(double ns, char *buf, size_t len)
{
	char num[48];

	if (!len || put_special(ns, "", buf, len))
		return;
	const char *sign = ns < 0 ? "-" : "";
	double a = fabs(ns);
	size_t i = 0;
	while (i + 1 < nscale && a >= scale[i + 1].div)
		i++;
	for (;;) {
		double v = a / scale[i].div;
		double r = put_decimal(v, sig_decimals(v), num, sizeof num);
		/* 999.96 ns rounds to 1000 ns: say 1 us instead */
		if (r >= 1000 && i + 1 < nscale) {
			i++;
			continue;
		}
		break;
	}
	if (strcmp(num, "0") == 0)
		sign = "";
	snprintf(buf, len, "%s%s %s", sign, num, scale[i].name);
}

void units_fmt_qty(const struct quantity *q, char *buf, size_t len)
{
	char num[48];

	if (q->unit == QTY_NS) {
		units_fmt_ns(q->value, buf, len);
		return;
	}
	const char *suffix = q->unit == QTY_CYCLES ? " cycles" : "";
	if (put_special(q->value, suffix, buf, len))
		return;
	/* as written: a whole count or cycle bound prints as the integer it
	 * is, a count's mean keeps its fraction */
	double a = fabs(q->value);
	put_decimal(a, sig_decimals(a), num, sizeof num);
	snprintf(buf, len, "%s%s%s", q->value < 0 && strcmp(num, "0") ? "-" : "", num, suffix);
}

void units_fmt_pct(double share, char *buf, size_t len)
{
	char num[48];
	if (put_special(share, "%", buf, len))
		return;
	double a = fabs(share) * 100;
	put_decimal(a, sig_decimals(a) < 2 ? sig_decimals(a) : 2, num, sizeof num);
	snprintf(buf, len, "%s%s%%", share < 0 && strcmp(num, "0") ? "-" : "", num);
}

/* Each replacement is at most one byte longer than what it replaces. */
void units_html(char *buf, size_t len)
{
	static const struct { const char *text, *html; bool after_digit; } rel[] = {
		{ " us", " \xc2\xb5s", true },
		{ " <= ", " \xe2\x89\xa4 ", false },
		{ " >= ", " \xe2\x89\xa5 ", false },
	};
	size_t n = strlen(buf);
	for (size_t i = 1; i < n; i++) {
		for (size_t k = 0; k < sizeof rel / sizeof rel[0]; k++) {
			size_t tl = strlen(rel[k].text), hl = strlen(rel[k].html);
			if (i + tl > n || memcmp(buf + i, rel[k].text, tl) != 0)
				continue;
			char next = buf[i + tl];
			bool digit = buf[i - 1] >= '0' && buf[i - 1] <= '9';
			bool word_ends = !(next >= 'a' && next <= 'z') && !(next >= 'A' && next <= 'Z') &&
					 !(next >= '0' && next <= '9');
			if (rel[k].after_digit && (!digit || !word_ends))
				continue;
			if (n + hl - tl >= len)
				return; /* no room to grow */
			memmove(buf + i + hl, buf + i + tl, n - (i + tl) + 1);
			memcpy(buf + i, rel[k].html, hl);
			n += hl - tl;
			i += hl - 1;
			break;
		}
	}
}
