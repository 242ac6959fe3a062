/* SPDX-License-Identifier: Apache-2.0 */
/* test_units.c - quantities, durations and counts as written in requirements
 * files, and the way numbers are printed in reports.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/units.h"
#include "test_util.h"

static char err[256];

/* ---- units_qty_parse: accepted ---------------------------------------------- */

static const struct {
	const char *text;
	double value;
	enum qty_unit unit;
} good_qty[] = {
	{ "50us", 50000, QTY_NS },
	{ "50 us", 50000, QTY_NS },
	{ "50\tus", 50000, QTY_NS },
	{ "1.5 ms", 1500000, QTY_NS },
	{ "300\xc2\xb5s", 300000, QTY_NS },   /* U+00B5 MICRO SIGN */
	{ "300 \xce\xbcs", 300000, QTY_NS },  /* U+03BC GREEK SMALL LETTER MU */
	{ "7ns", 7, QTY_NS },
	{ "0.5ns", 0.5, QTY_NS },
	{ "2s", 2e9, QTY_NS },
	{ "0.000001s", 1000, QTY_NS },
	{ "1200cycles", 1200, QTY_CYCLES },
	{ "12.5 cycles", 12.5, QTY_CYCLES },
	{ "007us", 7000, QTY_NS },
	{ "18446744073709551615ns", 18446744073709551615.0, QTY_NS },
};

START_TEST(qty_accepts)
{
	struct quantity q = { -1, QTY_CYCLES };
	int rc = units_qty_parse(good_qty[_i].text, false, &q, err, sizeof err);
	ck_assert_msg(rc == 0, "'%s' rejected: %s", good_qty[_i].text, err);
	ck_assert_double_eq_tol(q.value, good_qty[_i].value, good_qty[_i].value * 1e-12);
	ck_assert_int_eq(q.unit, good_qty[_i].unit);
}
END_TEST

START_TEST(qty_zero)
{
	struct quantity q;
	ck_assert_int_eq(units_qty_parse("0us", true, &q, err, sizeof err), 0);
	ck_assert_double_eq(q.value, 0);
	ck_assert_int_eq(units_qty_parse("0us", false, &q, err, sizeof err), -ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "greater than zero"));
	ck_assert_int_eq(units_qty_parse("0.000 ms", false, &q, err, sizeof err), -ERANGE);
}
END_TEST

/* ---- units_qty_parse: refused, with the words a user needs ------------------ */

static const struct {
	const char *text;
	int rc;
	const char *words;
} bad_qty[] = {
	{ "5 parsecs", -EINVAL, "unknown unit 'parsecs' (expected ns, us, \xc2\xb5s, ms, s or cycles)" },
	{ "50", -EINVAL, "missing unit" },
	{ "50 ", -EINVAL, "missing unit" },
	{ "50us ", -EINVAL, "unknown unit 'us '" },
	{ "50usx", -EINVAL, "unknown unit" },
	{ "50 US", -EINVAL, "unknown unit 'US'" },
	{ " 50us", -EINVAL, "expected a number" },
	{ "-5us", -EINVAL, "sign" },
	{ "+5us", -EINVAL, "sign" },
	{ "1e3us", -EINVAL, "exponent" },
	{ "1E-3s", -EINVAL, "exponent" },
	{ ".5us", -EINVAL, "start with a digit" },
	{ "5.us", -EINVAL, "after the decimal point" },
	{ "1,5ms", -EINVAL, "unknown unit ',5ms'" },
	{ "", -EINVAL, "empty" },
	{ "us", -EINVAL, "expected a number" },
	{ "nan us", -EINVAL, "expected a number" },
	{ "18446744073709551616ns", -ERANGE, "too large" },
	{ "18446744073709552s", -ERANGE, "too large" },
	{ "99999999999999999999us", -ERANGE, "too large" },
	{ "18446744073709551616cycles", -ERANGE, "cycles" },
};

START_TEST(qty_refuses)
{
	struct quantity q = { 42, QTY_NS };
	err[0] = '\0';
	int rc = units_qty_parse(bad_qty[_i].text, true, &q, err, sizeof err);
	ck_assert_msg(rc == bad_qty[_i].rc, "'%s': rc %d, expected %d", bad_qty[_i].text, rc,
		      bad_qty[_i].rc);
	ck_assert_msg(strstr(err, bad_qty[_i].words), "'%s': message '%s' lacks '%s'",
		      bad_qty[_i].text, err, bad_qty[_i].words);
	ck_assert_double_eq(q.value, 42); /* untouched on error */
}
END_TEST

START_TEST(qty_null)
{
	struct quantity q;
	ck_assert_int_eq(units_qty_parse(NULL, true, &q, err, sizeof err), -EINVAL);
}
END_TEST

/* ---- units_duration_parse_ns ------------------------------------------------ */

START_TEST(duration_values)
{
	uint64_t ns = 0;
	ck_assert_int_eq(units_duration_parse_ns("60s", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, 60000000000ull);
	ck_assert_int_eq(units_duration_parse_ns("1.5us", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, 1500);
	ck_assert_int_eq(units_duration_parse_ns("250 ms", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, 250000000);
	ck_assert_int_eq(units_duration_parse_ns("1.0000000001s", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, 1000000000);
	ck_assert_int_eq(units_duration_parse_ns("0.6ns", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, 1); /* rounded to whole ns */
	ck_assert_int_eq(units_duration_parse_ns("0.12345678912345678912s", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, 123456789);
	ck_assert_int_eq(units_duration_parse_ns("18446744073709551615ns", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, UINT64_MAX);
	ck_assert_int_eq(units_duration_parse_ns("18446744073.709551615s", false, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, UINT64_MAX);
	ck_assert_int_eq(units_duration_parse_ns("0s", true, &ns, err, sizeof err), 0);
	ck_assert_uint_eq(ns, 0);
}
END_TEST

START_TEST(duration_refuses)
{
	uint64_t ns = 7;
	ck_assert_int_eq(units_duration_parse_ns("1200cycles", false, &ns, err, sizeof err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not a duration"));
	ck_assert_ptr_null(strstr(err, "cycles)")); /* the list offered has no cycles */
	ck_assert_int_eq(units_duration_parse_ns("0s", false, &ns, err, sizeof err), -ERANGE);
	ck_assert_int_eq(units_duration_parse_ns("0.4ns", false, &ns, err, sizeof err), -ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "at least 1 ns"));
	ck_assert_int_eq(units_duration_parse_ns("60 sec", false, &ns, err, sizeof err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "unknown unit 'sec' (expected ns, us, \xc2\xb5s, ms or s)"));
	ck_assert_int_eq(units_duration_parse_ns("600 years", false, &ns, err, sizeof err), -EINVAL);
	ck_assert_int_eq(units_duration_parse_ns("18446744073.709551616s", false, &ns, err, sizeof err), -ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "too large"));
	ck_assert_uint_eq(ns, 7);
}
END_TEST

/* ---- units_count_parse ------------------------------------------------------ */

START_TEST(count_values)
{
	uint64_t v = 0;
	ck_assert_int_eq(units_count_parse("2000", 100000000, &v, err, sizeof err), 0);
	ck_assert_uint_eq(v, 2000);
	ck_assert_int_eq(units_count_parse("1", 1, &v, err, sizeof err), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(units_count_parse("0010", 1000, &v, err, sizeof err), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(units_count_parse("1000", 1000, &v, err, sizeof err), 0);
	ck_assert_int_eq(units_count_parse("18446744073709551615", UINT64_MAX, &v, err, sizeof err), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

static const struct {
	const char *text;
	int rc;
	const char *words;
} bad_count[] = {
	{ "0", -ERANGE, "at least 1" },
	{ "000", -ERANGE, "at least 1" },
	{ "-1", -EINVAL, "negative" },
	{ "+5", -EINVAL, "sign" },
	{ "99999999999999999999", -ERANGE, "out of range (expected 1..1000)" },
	{ "18446744073709551616", -ERANGE, "out of range" },
	{ "1001", -ERANGE, "out of range (expected 1..1000)" },
	{ "12x", -EINVAL, "not a whole number" },
	{ "1.5", -EINVAL, "not a whole number" },
	{ "1e3", -EINVAL, "not a whole number" },
	{ " 5", -EINVAL, "not a whole number" },
	{ "5 ", -EINVAL, "not a whole number" },
	{ "0x10", -EINVAL, "not a whole number" },
	{ "", -EINVAL, "empty" },
};

START_TEST(count_refuses)
{
	uint64_t v = 99;
	err[0] = '\0';
	int rc = units_count_parse(bad_count[_i].text, 1000, &v, err, sizeof err);
	ck_assert_msg(rc == bad_count[_i].rc, "'%s': rc %d", bad_count[_i].text, rc);
	ck_assert_msg(strstr(err, bad_count[_i].words), "'%s': message '%s' lacks '%s'",
		      bad_count[_i].text, err, bad_count[_i].words);
	ck_assert_uint_eq(v, 99);
}
END_TEST

/* ---- printing --------------------------------------------------------- */

static const struct {
	double ns;
	const char *text;
} shown[] = {
	{ 412300, "412.3 us" },
	{ 950, "950 ns" },
	{ 1204000, "1.204 ms" },
	{ 2.5e9, "2.5 s" },
	{ 0, "0 ns" },
	{ 0.5, "0.5 ns" },
	{ 12.25, "12.25 ns" },
	{ 50000, "50 us" },
	{ 300000, "300 us" },
	{ 999.96, "1 us" },        /* rounds up into the next unit */
	{ 999999.9, "1 ms" },
	{ 1000, "1 us" },
	{ 123456789, "123.5 ms" },
	{ 60e9, "60 s" },
	{ 1.5e13, "15000 s" },
	{ -5000, "-5 us" },
	{ 1e30, "1000000000000000000000 s" },
};

START_TEST(count_range_min)
{
	/* 0 allowed where min is 0 (warmup, --cpu); the message names the range */
	uint64_t v = 7;
	char err[160] = "";
	ck_assert_int_eq(units_count_parse_range("0", 0, 10, &v, err, sizeof err), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(units_count_parse_range("000", 0, 10, &v, err, sizeof err), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(units_count_parse_range("11", 0, 10, &v, err, sizeof err), -ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "expected 0..10"));
	ck_assert_int_eq(units_count_parse_range("-1", 0, 10, &v, err, sizeof err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "expected 0..10"));
	ck_assert_int_eq(units_count_parse_range("4", 5, 10, &v, err, sizeof err), -ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "at least 5 (expected 5..10)"));
	ck_assert_int_eq(units_count_parse("0", 10, &v, err, sizeof err), -ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "expected 1..10"));
}
END_TEST

START_TEST(fmt_ns_values)
{
	char buf[64];
	units_fmt_ns(shown[_i].ns, buf, sizeof buf);
	ck_assert_str_eq(buf, shown[_i].text);
}
END_TEST

START_TEST(fmt_ns_odd)
{
	char buf[64], tiny[4];
	units_fmt_ns(NAN, buf, sizeof buf);
	ck_assert_str_eq(buf, "nan");
	units_fmt_ns(INFINITY, buf, sizeof buf);
	ck_assert_str_eq(buf, "inf");
	units_fmt_ns(412300, tiny, sizeof tiny); /* truncates, stays terminated */
	ck_assert_str_eq(tiny, "412");
}
END_TEST

START_TEST(fmt_qty_values)
{
	char buf[64];
	struct quantity q = { 1200, QTY_CYCLES };
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "1200 cycles");
	q.value = 12.5;
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "12.5 cycles");
	q = (struct quantity){ 300000, QTY_NS };
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "300 us");
}
END_TEST

/* The unit rule (docs/reports.md "Units and numbers"): one unit per table,
 * whole counts, percentages, the HTML spelling. */
START_TEST(unit_rule)
{
	static const struct { double largest, v; const char *want; } tab[] = {
		{ 9999, 950, "950 ns" },          /* below 10000 ns: ns */
		{ 161300, 2073, "2.073 us" },     /* a us table: its min keeps its digits */
		{ 2909000, 9164, "9.164 us" },    /* 2.909 ms: still us, "2909 us" */
		{ 2909000, 2909000, "2909 us" },
		{ 58000000, 9164, "0.009 ms" },   /* 58 ms: ms */
		{ 12e9, 3e9, "3 s" },
		{ 0, 0, "0 ns" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
		units_fmt_ns_in(tab[i].v, units_scale_of(tab[i].largest), buf, sizeof buf);
		ck_assert_msg(!strcmp(buf, tab[i].want), "%g in a table of %g: '%s', want '%s'",
			      tab[i].v, tab[i].largest, buf, tab[i].want);
	}
	struct quantity q = { 0, QTY_COUNT };
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "0"); /* never 0.000 */
	q.value = 160;
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "160");
	q.value = 160.3333;
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "160.3");
	units_fmt_pct(0.20333, buf, sizeof buf);
	ck_assert_str_eq(buf, "20.33%");
	units_fmt_pct(1, buf, sizeof buf);
	ck_assert_str_eq(buf, "100%");
	char h[64] = "max 161.3 us <= 10 s, min 2 us >= 1 us, 5 users";
	units_html(h, sizeof h);
	ck_assert_str_eq(h, "max 161.3 \xc2\xb5s \xe2\x89\xa4 10 s, min 2 \xc2\xb5s "
			 "\xe2\x89\xa5 1 \xc2\xb5s, 5 users");
	char small[12] = "1 us <= 2";  /* no room to grow: left as it is */
	units_html(small, 11);
	ck_assert_str_eq(small, "1 \xc2\xb5s <= 2");
}
END_TEST

/* A limit's bound: a unit as units_qty_parse takes it, or none (a count). */
START_TEST(bound_values)
{
	struct quantity q;
	char err[200];
	ck_assert_int_eq(units_bound_parse("0", &q, err, sizeof err), 0);
	ck_assert(q.unit == QTY_COUNT && q.value == 0);
	ck_assert_int_eq(units_bound_parse("2.5 ", &q, err, sizeof err), 0);
	ck_assert(q.unit == QTY_COUNT && q.value == 2.5);
	ck_assert_int_eq(units_bound_parse("50us", &q, err, sizeof err), 0);
	ck_assert(q.unit == QTY_NS && q.value == 50000);
	ck_assert_int_eq(units_bound_parse("7cycles", &q, err, sizeof err), 0);
	ck_assert(q.unit == QTY_CYCLES && q.value == 7);
	ck_assert_int_eq(units_bound_parse("-1", &q, err, sizeof err), -EINVAL);
	ck_assert_int_eq(units_bound_parse("1e3", &q, err, sizeof err), -EINVAL);
	ck_assert_int_eq(units_bound_parse("5 faults", &q, err, sizeof err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "unknown unit 'faults'"));
	ck_assert_int_eq(units_bound_parse("", &q, err, sizeof err), -EINVAL);
	ck_assert_int_eq(units_bound_parse("99999999999999999999", &q, err, sizeof err), -ERANGE);
	/* a count prints as the bare number */
	char buf[32];
	q = (struct quantity){ 12, QTY_COUNT };
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "12");
	q.value = 1.5;
	units_fmt_qty(&q, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.5");
}
END_TEST

/* What is printed parses back to the same value (limits echoed in reports). */
START_TEST(round_trip)
{
	static const char *texts[] = { "50us", "300\xc2\xb5s", "1.5ms", "2s", "7ns", "1.204ms" };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct quantity a, b;
		char buf[64], compact[64];
		ck_assert_int_eq(units_qty_parse(texts[i], false, &a, err, sizeof err), 0);
		units_fmt_qty(&a, buf, sizeof buf);
		ck_assert_int_eq(units_qty_parse(buf, false, &b, err, sizeof err), 0);
		ck_assert_double_eq(a.value, b.value);
		/* and without the space too */
		snprintf(compact, sizeof compact, "%s", buf);
		char *sp = strchr(compact, ' ');
		memmove(sp, sp + 1, strlen(sp));
		ck_assert_int_eq(units_qty_parse(compact, false, &b, err, sizeof err), 0);
		ck_assert_double_eq(a.value, b.value);
	}
}
END_TEST

/* The shortest text that reads back as the same double: as few digits as
 * the value needs (15 when they do), 17 only when nothing shorter is
 * exact, and always the same double back. */
START_TEST(shortest_round_trips)
{
	static const struct {
		double v;
		const char *text;
	} want[] = {
		{ 0.035, "0.035" }, { 100.0, "100" }, { 1e-5, "1e-05" },
		{ 2.0 / 3.0, "0.6666666666666666" }, { 0.1 + 0.2, "0.30000000000000004" },
		{ 1.0000004, "1.0000004" }, { 1138.148298475492, "1138.148298475492" },
		{ 1e300, "1e+300" }, { 5e-324, "4.94065645841247e-324" },
		{ -2.5, "-2.5" }, { 0.0, "0" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char buf[64];
		numfmt_fmt_shortest(want[i].v, buf, sizeof buf);
		ck_assert_str_eq(buf, want[i].text);
		ck_assert_msg(strtod(buf, NULL) == want[i].v, "%s does not read back as %.17g", buf,
			      want[i].v);
		char exact[64];
		numfmt_fmt_exact(want[i].v, exact, sizeof exact);
		ck_assert_uint_le(strlen(buf), strlen(exact));
	}
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tu_tcase(s, "parse", 10);
	tcase_add_loop_test(tc, qty_accepts, 0, sizeof good_qty / sizeof good_qty[0]);
	tcase_add_test(tc, qty_zero);
	tcase_add_loop_test(tc, qty_refuses, 0, sizeof bad_qty / sizeof bad_qty[0]);
	tcase_add_test(tc, qty_null);
	tcase_add_test(tc, duration_values);
	tcase_add_test(tc, duration_refuses);
	tcase_add_test(tc, count_values);
	tcase_add_test(tc, count_range_min);
	tcase_add_loop_test(tc, count_refuses, 0, sizeof bad_count / sizeof bad_count[0]);

	tc = tu_tcase(s, "format", 10);
	tcase_add_loop_test(tc, fmt_ns_values, 0, sizeof shown / sizeof shown[0]);
	tcase_add_test(tc, fmt_ns_odd);
	tcase_add_test(tc, fmt_qty_values);
	tcase_add_test(tc, unit_rule);
	tcase_add_test(tc, bound_values);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, shortest_round_trips);
	return s;
}

int main(void)
{
	return tu_run(units_suite());
}
