/* SPDX-License-Identifier: Apache-2.0 */
/* test_trend.c - the trend of a run's interval maxima (reports/trend.h):
 * record-setting intervals, the last record's place in the run, Kendall's
 * tau-b with its tie-corrected normal p-value, and the "still rising" rule,
 * against answers worked by hand in the comments. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/trend.h"
#include "test_util.h"

#define MAXN 4096
static double t0[MAXN], t1[MAXN];

/* Intervals of one second each, back to back from 0. */
static void unit_intervals(size_t n)
{
	for (size_t k = 0; k < n; k++) {
		t0[k] = (double)k;
		t1[k] = (double)k + 1;
	}
}

static struct trend of(const double *max, size_t n)
{
	struct trend t;
	unit_intervals(n);
	ck_assert(trend_of(t0, t1, max, n, &t));
	return t;
}

/* Strictly rising over 10 intervals: every interval a record, every pair
 * concordant: S = 45, tau = 1, Var S = 10 x 9 x 25 / 18 = 125,
 * z = 45 / sqrt(125) = 4.0249, p = erfc(z / sqrt 2) = 5.6994e-05. */
START_TEST(strictly_rising)
{
	double y[10];
	for (int k = 0; k < 10; k++)
		y[k] = 100 + k;
	struct trend t = of(y, 10);
	ck_assert_uint_eq(t.records, 10);
	ck_assert_uint_eq(t.last_record, 9);
	ck_assert(t.tau_defined);
	ck_assert_double_eq_tol(t.tau, 1.0, 1e-12);
	ck_assert_double_eq_tol(t.z, 4.024922359499621, 1e-9);
	ck_assert_double_eq_tol(t.p, 5.699411623331854e-05, 1e-12);
	ck_assert(t.late_record && t.rising);
	ck_assert_str_eq(trend_word(&t), "still rising");
	char b[300];
	trend_text(&t, "01:02:03Z", b, sizeof b);
	ck_assert_str_eq(b, "10 record-setting intervals of 10, the last in interval 10 (at "
			 "01:02:03Z); Kendall's tau 1.00, p = 5.7e-05: still rising (the last "
			 "record is in the last quarter of the run)");
}
END_TEST

/* Flat: one record (the first), every maximum tied: no tau, p 1. */
START_TEST(flat)
{
	double y[8] = { 5, 5, 5, 5, 5, 5, 5, 5 };
	struct trend t = of(y, 8);
	ck_assert_uint_eq(t.records, 1);
	ck_assert_uint_eq(t.last_record, 0);
	ck_assert(!t.tau_defined);
	ck_assert_double_eq(t.tau, 0);
	ck_assert_double_eq(t.p, 1);
	ck_assert(!t.late_record && !t.rising);
	ck_assert_str_eq(trend_word(&t), "no rising trend");
	char b[300];
	trend_text(&t, "x", b, sizeof b);
	ck_assert(strstr(b, "Kendall's tau undefined (every interval's max equal): no rising "
			    "trend") != NULL);
}
END_TEST

/* Strictly falling over 10: the first is the only record, tau = -1,
 * p = 5.6994e-05 (a significant fall is no rising trend). */
START_TEST(falling)
{
	double y[10];
	for (int k = 0; k < 10; k++)
		y[k] = 100 - k;
	struct trend t = of(y, 10);
	ck_assert_uint_eq(t.records, 1);
	ck_assert_uint_eq(t.last_record, 0);
	ck_assert_double_eq_tol(t.tau, -1.0, 1e-12);
	ck_assert_double_eq_tol(t.p, 5.699411623331854e-05, 1e-12);
	ck_assert(!t.rising);
}
END_TEST

/* 1 3 2 5 4: D = 2 ((3,2), (5,4)), S = 10 - 4 = 6, tau = 0.6, Var S =
 * 5 x 4 x 15 / 18 = 16.667, z = 1.46969, p = 0.141645: not significant,
 * but the last record (5, interval 4, ending at 4 s of 5) is in the last
 * quarter (after 3.75 s): still rising. Records: 1, 3, 5. */
START_TEST(late_record_without_significance)
{
	double y[5] = { 1, 3, 2, 5, 4 };
	struct trend t = of(y, 5);
	ck_assert_uint_eq(t.records, 3);
	ck_assert_uint_eq(t.last_record, 3);
	ck_assert_double_eq_tol(t.tau, 0.6, 1e-12);
	ck_assert_double_eq_tol(t.z, 1.4696938456699067, 1e-9);
	ck_assert_double_eq_tol(t.p, 0.14164469029513682, 1e-9);
	ck_assert(t.late_record && t.rising);
	/* The same maxima with the fourth interval ending before 3/4 of the
	 * run (a long last interval): no late record, no significance. */
	struct trend u;
	double s[5] = { 0, 1, 2, 3, 4 }, e[5] = { 1, 2, 3, 4, 20 };
	ck_assert(trend_of(s, e, y, 5, &u));
	ck_assert(!u.late_record && !u.rising);
	ck_assert_str_eq(trend_word(&u), "no rising trend");
}
END_TEST

/* Ties: 1 1 2 2: n0 = 6, n2 = 2 (two pairs of ties), D = 0, S = 4,
 * tau-b = 4 / sqrt(6 x 4) = 0.81650, Var S = (4 x 3 x 13 - 2 x 2 x 1 x 9)
 * / 18 = 6.6667, z = 1.54919, p = 0.121335. Records: the first 1 and the
 * first 2 (the second of each equals, not exceeds). */
START_TEST(ties_corrected)
{
	double y[4] = { 1, 1, 2, 2 };
	struct trend t = of(y, 4);
	ck_assert_uint_eq(t.records, 2);
	ck_assert_uint_eq(t.last_record, 2);
	ck_assert_double_eq_tol(t.tau, 0.8164965809277261, 1e-12);
	ck_assert_double_eq_tol(t.z, 1.5491933384829668, 1e-9);
	ck_assert_double_eq_tol(t.p, 0.12133525035848217, 1e-9);
	ck_assert(!t.late_record && !t.rising); /* interval 3 ends at 3 s: not after 3 */
}
END_TEST

/* A long noisy rise is significant though its last record is early:
 * maxima k + noise for k < 3000, the last quarter all below the record;
 * the merge-sort count agrees with the pairwise count. */
START_TEST(significant_rise_and_the_pair_count)
{
	static double y[MAXN];
	size_t n = 3000;
	srand(7);
	for (size_t k = 0; k < n; k++)
		y[k] = (double)(k < 2000 ? k : 1000) + (double)(rand() % 500);
	y[1999] = 1e9; /* the last record, at 2/3 of the run */
	struct trend t = of(y, n);
	ck_assert_uint_eq(t.last_record, 1999);
	ck_assert(!t.late_record);
	uint64_t d = 0, ties = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			d += y[i] > y[j];
			ties += y[i] == y[j];
		}
	double n0 = (double)n * (double)(n - 1) / 2;
	double s = n0 - (double)ties - 2 * (double)d;
	ck_assert_double_eq_tol(t.tau, s / sqrt(n0 * (n0 - (double)ties)), 1e-12);
	ck_assert(t.tau > 0 && t.p < TREND_ALPHA && t.rising);
}
END_TEST

START_TEST(one_interval_and_none)
{
	double y[1] = { 3 };
	struct trend t = of(y, 1);
	ck_assert_uint_eq(t.records, 1);
	ck_assert(!t.tau_defined && !t.rising);
	ck_assert(!trend_of(t0, t1, y, 0, &t));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trend");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, strictly_rising);
	tcase_add_test(tc, flat);
	tcase_add_test(tc, falling);
	tcase_add_test(tc, late_record_without_significance);
	tcase_add_test(tc, ties_corrected);
	tcase_add_test(tc, significant_rise_and_the_pair_count);
	tcase_add_test(tc, one_interval_and_none);
	return tu_run(s);
}
