/* SPDX-License-Identifier: Apache-2.0 */
/* test_timer_semantics.c - the rules timer-semantics judges a wake-up by,
 * on clock readings made up here (a timer whose expiry 1 is at 1000 ns and
 * whose interval is 100 ns: expiry n at 900 + 100 n), and what its
 * catalogue check refuses. The kernel keeps these rules on this machine,
 * so only made-up readings can show that a broken timer is counted; the
 * probe itself runs in tests/cli/timer_semantics.sh. */
#include <stdint.h>
#include <string.h>

#include "harness/measure/probes/probes.h"
#include "harness/measure/probes/timer_semantics.h"
#include "test_util.h"

#define FIRST 1000
#define IV 100

static struct ts_account fresh(void)
{
	return (struct ts_account){ .first = FIRST, .interval = IV };
}

static struct ts_judgement wake(struct ts_account *a, uint64_t before, uint64_t after,
				uint64_t reported, bool suspended)
{
	struct ts_wake w = { before, after, reported, suspended };
	return ts_judge(a, &w);
}

START_TEST(due_counts_expiries_at_or_before)
{
	struct ts_account a = fresh();
	ck_assert_uint_eq(ts_due(&a, 0), 0);
	ck_assert_uint_eq(ts_due(&a, FIRST - 1), 0);
	ck_assert_uint_eq(ts_due(&a, FIRST), 1);
	ck_assert_uint_eq(ts_due(&a, FIRST + IV - 1), 1);
	ck_assert_uint_eq(ts_due(&a, FIRST + IV), 2);
	ck_assert_uint_eq(ts_expiry(&a, 1), FIRST);
	ck_assert_uint_eq(ts_expiry(&a, 3), FIRST + 2 * IV);
}
END_TEST

/* A timer that keeps the rules: one expiry a wake-up, each a little late. */
START_TEST(punctual_timer_is_no_violation)
{
	struct ts_account a = fresh();
	for (uint64_t n = 1; n <= 5; n++) {
		uint64_t e = ts_expiry(&a, n);
		struct ts_judgement j = wake(&a, e - 60, e + 7, 1, true);
		ck_assert(!j.early);
		ck_assert(!j.count_error);
		ck_assert_uint_eq(j.missed, 0);
		ck_assert_uint_eq(a.accounted, n);
	}
	/* A wake-up exactly at its expiry is not early. */
	struct ts_judgement j = wake(&a, ts_expiry(&a, 6) - 50, ts_expiry(&a, 6), 1, true);
	ck_assert(!j.early);
	ck_assert(!j.count_error);
}
END_TEST

/* A wake-up before its expiry is early; a timer's count then also names
 * an expiry that has not come. */
START_TEST(early_wakeup_is_counted)
{
	struct ts_account a = fresh();
	struct ts_judgement j = wake(&a, FIRST - 60, FIRST - 1, 1, true);
	ck_assert(j.early);
	ck_assert(j.count_error);
	ck_assert_uint_eq(a.accounted, 0);
	/* The same early wake-up of an absolute sleep: early, and the sleep
	 * goes on to the same expiry. */
	a = fresh();
	j = wake(&a, FIRST - 60, FIRST - 1, 0, true);
	ck_assert(j.early);
	ck_assert(!j.count_error);
	ck_assert_uint_eq(a.accounted, 0);
	j = wake(&a, FIRST - 1, FIRST + 3, 0, true);
	ck_assert(!j.early);
	ck_assert_uint_eq(a.accounted, 1);
}
END_TEST

/* A busy stretch from expiry 1 to the middle of the period after expiry
 * 4: the next wake-up serves expiry 2 and must report 2 overruns (3,
 * 4). */
START_TEST(busy_stretch_overruns_are_checked)
{
	struct ts_account a = fresh();
	wake(&a, FIRST - 50, FIRST + 5, 1, true);
	uint64_t before = ts_expiry(&a, 4) + IV / 2, after = before + 10;
	struct ts_judgement j = wake(&a, before, after, 3, false);
	ck_assert(!j.early && !j.count_error);
	ck_assert_uint_eq(j.missed, 2);
	ck_assert_uint_eq(a.accounted, 4);
	/* A kernel that lost the overruns (reported 1) is counted ... */
	a = fresh();
	wake(&a, FIRST - 50, FIRST + 5, 1, true);
	j = wake(&a, before, after, 1, false);
	ck_assert(j.count_error);
	ck_assert(!j.early);
	/* ... once: the next wake-up is judged from what the clock says was
	 * due, not from the wrong count. */
	ck_assert_uint_eq(a.accounted, 4);
	j = wake(&a, after + 5, ts_expiry(&a, 5) + 8, 1, true);
	ck_assert(!j.count_error && !j.early);
	/* One that counts an overrun too many is counted as well. */
	a = fresh();
	wake(&a, FIRST - 50, FIRST + 5, 1, true);
	j = wake(&a, before, after, 4, false);
	ck_assert(j.count_error);
	ck_assert_uint_eq(a.accounted, 4);
}
END_TEST

/* The window is set by the readings around the wait: an expiry that
 * falls between them may be in the count or not. */
START_TEST(expiry_between_the_readings_may_go_either_way)
{
	uint64_t before = ts_expiry(&(struct ts_account){ FIRST, IV, 0 }, 3) - 2;
	uint64_t after = before + 4; /* expiry 3 in between */
	for (uint64_t rep = 1; rep <= 4; rep++) {
		struct ts_account a = fresh();
		wake(&a, FIRST - 50, FIRST + 5, 1, true);
		struct ts_judgement j = wake(&a, before, after, rep, false);
		ck_assert_msg(j.count_error == (rep < 1 || rep > 2), "reported %llu",
			      (unsigned long long)rep);
	}
	/* A busy stretch that ends exactly at an expiry: due at `before`
	 * already, so it must be in the count. */
	struct ts_account a = fresh();
	wake(&a, FIRST - 50, FIRST + 5, 1, true);
	uint64_t at = ts_expiry(&a, 4);
	ck_assert(wake(&a, at, at + 3, 2, false).count_error);
	a = fresh();
	wake(&a, FIRST - 50, FIRST + 5, 1, true);
	ck_assert(!wake(&a, at, at + 3, 3, false).count_error);
}
END_TEST

/* An absolute sleep to a time already passed must not suspend the thread;
 * a sleep to a time still ahead may. */
START_TEST(sleep_to_a_passed_time_must_not_suspend)
{
	struct ts_account a = fresh();
	wake(&a, FIRST - 50, FIRST + 5, 0, true);
	uint64_t before = ts_expiry(&a, 4) + IV / 2;
	struct ts_judgement j = wake(&a, before, before + 3, 0, false);
	ck_assert(!j.count_error && !j.early);
	ck_assert_uint_eq(j.missed, 2);
	ck_assert_uint_eq(a.accounted, 4);
	a = fresh();
	wake(&a, FIRST - 50, FIRST + 5, 0, true);
	j = wake(&a, before, before + 3, 0, true);
	ck_assert(j.count_error);
	/* Called exactly at its target: already due, so no suspension. */
	a = fresh();
	ck_assert(wake(&a, FIRST, FIRST + 2, 0, true).count_error);
	a = fresh();
	ck_assert(!wake(&a, FIRST - 1, FIRST + 2, 0, true).count_error);
}
END_TEST

/* check(): interval 10us .. 1s, busy-periods 1 .. 16, busy-every more than
 * 2 x (busy-periods + 1), a spin of at most 50 ms, coarse not on boottime. */
START_TEST(check_refuses_what_cannot_run)
{
	const struct probe *p = probe_find("timer-semantics");
	ck_assert_ptr_nonnull(p);
	char buf[300];
#define CHECK(clk, iv, kind, every, k, judge) \
	p->decl.check((const char *const[]){ clk, iv, kind, every, k, judge }, buf, sizeof buf)
	ck_assert_ptr_null(CHECK("monotonic", "1ms", "nanosleep", "10", "2", "armed"));
	ck_assert_ptr_null(CHECK("realtime", "10us", "timerfd", "7", "2", "coarse"));
	ck_assert_ptr_nonnull(CHECK("monotonic", "9us", "nanosleep", "10", "2", "armed"));
	ck_assert_msg(strstr(buf, "interval 9us is outside 10us .. 1s"), "%s", buf);
	ck_assert_ptr_nonnull(CHECK("monotonic", "1ms", "nanosleep", "10", "17", "armed"));
	ck_assert_msg(strstr(buf, "busy-periods 17 is outside 1 .. 16"), "%s", buf);
	ck_assert_ptr_nonnull(CHECK("monotonic", "1ms", "nanosleep", "6", "2", "armed"));
	ck_assert_msg(strstr(buf, "busy-every 6 must be more than 2 x (busy-periods + 1) = 6"),
		      "%s", buf);
	/* (1 + 1.5) x 20ms is 50 ms: allowed; 21ms is over. */
	ck_assert_ptr_null(CHECK("monotonic", "20ms", "timerfd", "10", "1", "armed"));
	ck_assert_ptr_nonnull(CHECK("monotonic", "21ms", "timerfd", "10", "1", "armed"));
	ck_assert_msg(strstr(buf, "(1 + 1.5) x 21ms is over 50ms"), "%s", buf);
	ck_assert_ptr_nonnull(CHECK("boottime", "1ms", "timer-signal", "10", "2", "coarse"));
	ck_assert_msg(strstr(buf, "boottime clock has no coarse variant"), "%s", buf);
#undef CHECK
}
END_TEST

static Suite *timer_semantics_suite(void)
{
	Suite *s = suite_create("timer_semantics");
	TCase *tc = tu_tcase(s, "judge", 10);
	tcase_add_test(tc, due_counts_expiries_at_or_before);
	tcase_add_test(tc, punctual_timer_is_no_violation);
	tcase_add_test(tc, early_wakeup_is_counted);
	tcase_add_test(tc, busy_stretch_overruns_are_checked);
	tcase_add_test(tc, expiry_between_the_readings_may_go_either_way);
	tcase_add_test(tc, sleep_to_a_passed_time_must_not_suspend);
	tc = tu_tcase(s, "check", 10);
	tcase_add_test(tc, check_refuses_what_cannot_run);
	return s;
}

int main(void)
{
	return tu_run(timer_semantics_suite());
}
