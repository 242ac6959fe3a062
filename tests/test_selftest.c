/* SPDX-License-Identifier: Apache-2.0 */
/* test_selftest.c - the comparisons `rtconform selftest` decides every
 * case with (cli/selftest_run.c): a known answer that matches passes, one
 * that does not fails the case, whatever passed before it, and an error
 * stays an error; the breach count of a delay case read from a histogram
 * (st_count_above); and RTC_SELFTEST_FAULTS's delay parsed or refused
 * (harness/measure/fault_spec.c). */
#include <check.h>

#include <string.h>

#include "cli/selftest.h"
#include "harness/measure/fault_spec.h"
#include "reports/report.h"
#include "test_util.h"

START_TEST(selftest_matching_answers_pass)
{
	struct st_outcome o = { .verdict = ST_PASS };
	ck_assert(st_expect_u64(&o, "breaches", 8, 8));
	ck_assert(st_expect_min(&o, "max", 20, 20.5, " ms"));
	ck_assert(st_expect_str(&o, "verdict", "fail", "fail"));
	ck_assert(st_expect_has(&o, "the reason", "did not take", "it did not take; nothing"));
	ck_assert_int_eq(o.verdict, ST_PASS);
	ck_assert_str_eq(o.expected, "breaches 8; max >= 20 ms; verdict fail; the reason says "
				     "\"did not take\"");
	ck_assert_str_eq(o.observed, "breaches 8; max 20.5 ms; verdict fail; the reason says it");
}
END_TEST

/* Each comparison, given a wrong answer, fails the case and says what it
 * saw; later matches do not make it pass again. */
START_TEST(selftest_a_wrong_answer_fails_the_case)
{
	struct st_outcome o = { .verdict = ST_PASS };
	ck_assert(!st_expect_u64(&o, "breaches", 8, 7));
	ck_assert_int_eq(o.verdict, ST_FAIL);
	ck_assert(st_expect_u64(&o, "exit", 1, 1));
	ck_assert_int_eq(o.verdict, ST_FAIL);
	ck_assert_str_eq(o.observed, "breaches 7; exit 1");

	struct st_outcome m = { .verdict = ST_PASS };
	ck_assert(!st_expect_min(&m, "max", 20, 19.999, " ms"));
	ck_assert_int_eq(m.verdict, ST_FAIL);
	struct st_outcome s = { .verdict = ST_PASS };
	ck_assert(!st_expect_str(&s, "verdict", "fail", "pass"));
	ck_assert_int_eq(s.verdict, ST_FAIL);
	struct st_outcome n = { .verdict = ST_PASS };
	ck_assert(!st_expect_str(&n, "verdict", "fail", NULL));
	ck_assert_str_eq(n.observed, "verdict (none)");
	struct st_outcome h = { .verdict = ST_PASS };
	ck_assert(!st_expect_has(&h, "the reason", "did not take", NULL));
	ck_assert_int_eq(h.verdict, ST_FAIL);
	ck_assert_str_eq(h.observed, "the reason does not say it");
	/* an error stays an error */
	struct st_outcome e = { .verdict = ST_PASS };
	st_error(&e, "no results.json");
	ck_assert(!st_expect_u64(&e, "breaches", 8, 0));
	ck_assert_int_eq(e.verdict, ST_ERROR);
	ck_assert_str_eq(e.why, "no results.json");
}
END_TEST

/* Buckets in ns units: [1, 100] x5, [9e6, 10e6] x1 (at the threshold, not
 * above), [10e6, 11e6] x2 (straddles 10e6 + 1), [20e6, 21e6] x3, overflow 1. */
START_TEST(selftest_breaches_counted_from_the_histogram)
{
	struct rv_bucket b[] = { { 1, 100, 5 }, { 9000000, 10000000, 1 },
				 { 10000000, 11000000, 2 }, { 20000000, 21000000, 3 } };
	struct rv_metric m = { .ns_per_unit = 1.0, .buckets = b, .nbuckets = 4, .overflow = 1 };
	uint64_t above, straddle;
	st_count_above(&m, 10000000, &above, &straddle);
	ck_assert_uint_eq(above, 3 + 1);
	ck_assert_uint_eq(straddle, 2);
	st_count_above(&m, 11000000, &above, &straddle);
	ck_assert_uint_eq(above, 4);
	ck_assert_uint_eq(straddle, 0);
	/* units of 0.5 ns: 10 ms is 20e6 units */
	m.ns_per_unit = 0.5;
	st_count_above(&m, 10000000, &above, &straddle);
	ck_assert_uint_eq(above, 1);
	ck_assert_uint_eq(straddle, 3);
}
END_TEST

START_TEST(selftest_fault_spec_parsed_or_refused)
{
	struct fault_spec f;
	char err[300];
	ck_assert_int_eq(fault_spec_parse("delay=20ms,every=10", &f, err, sizeof err), 0);
	ck_assert_uint_eq(f.delay_ns, 20000000);
	ck_assert_uint_eq(f.every, 10);
	ck_assert(fault_spec_is_delay("delay=x"));
	ck_assert(!fault_spec_is_delay("rtconform-fault-sched.so RTC_FAKE_SCHED=policy"));
	ck_assert(!fault_spec_is_delay(NULL));
	static const char *const bad[] = { "delay=20ms", "delay=20ms,every=0", "delay=0ms,every=1",
					   "delay=2s,every=1", "delay=20parsecs,every=1",
					   "delay=20ms,each=3", "delay=20ms,every=3x", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		ck_assert_msg(fault_spec_parse(bad[i], &f, err, sizeof err) < 0, "%s taken", bad[i]);
		ck_assert_msg(err[0], "%s: no reason", bad[i]);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("selftest");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, selftest_matching_answers_pass);
	tcase_add_test(tc, selftest_a_wrong_answer_fails_the_case);
	tcase_add_test(tc, selftest_breaches_counted_from_the_histogram);
	tcase_add_test(tc, selftest_fault_spec_parsed_or_refused);
	return tu_run(s);
}
