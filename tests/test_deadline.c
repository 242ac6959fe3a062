/* SPDX-License-Identifier: Apache-2.0 */
/* test_deadline.c - the rules the deadline probe counts by, on events made
 * up here: the kernel's answers to admission requests (which a test
 * cannot make the kernel get wrong) and jobs' start and completion times;
 * and what its catalogue check refuses. The probe itself runs in
 * tests/cli/deadline.sh. */
#include <stdint.h>
#include <string.h>

#include "harness/measure/probes/deadline.h"
#include "harness/measure/probes/probes.h"
#include "test_util.h"

#define MS 1000000ull

/* Two CPUs at the default 950000 / 1000000 us: the kernel admits 1.9 CPUs;
 * at most 1.7 must be admitted, above 1.92 must be refused. */
START_TEST(capacity_from_the_rt_settings)
{
	struct dl_capacity c;
	dl_capacity_set(&c, 2, 950000, 1000000);
	ck_assert(!c.unlimited);
	ck_assert_double_eq_tol(c.limit, 1.9, 1e-9);
	ck_assert_double_eq_tol(c.fit, 1.7, 1e-9);
	ck_assert_double_eq_tol(c.over, 1.92, 1e-9);
	dl_capacity_set(&c, 4, 500000, 1000000);
	ck_assert_double_eq_tol(c.limit, 2.0, 1e-9);
	dl_capacity_set(&c, 2, -1, 1000000);
	ck_assert(c.unlimited);
}
END_TEST

/* The kernel's right answers count nothing. */
START_TEST(right_answers_count_nothing)
{
	struct dl_capacity c;
	dl_capacity_set(&c, 2, 950000, 1000000);
	ck_assert_uint_eq(dl_admission_judge(&c, 0.2, 0.75, true), 0);
	ck_assert_uint_eq(dl_admission_judge(&c, 0.95, 0.75, true), 0);   /* 1.7: fits */
	ck_assert_uint_eq(dl_admission_judge(&c, 1.1, 0.9, false), 0);    /* 2.0: over */
	ck_assert_uint_eq(dl_admission_judge(&c, 1.1, 0.9, true) +
			  dl_admission_judge(&c, 0.2, 0.75, false), 2);
}
END_TEST

/* A set past the limit admitted: every request past c.over is an error,
 * as a kernel without admission control (or with a wrong sum) would give. */
START_TEST(over_subscription_admitted_is_counted)
{
	struct dl_capacity c;
	dl_capacity_set(&c, 2, 950000, 1000000);
	double held = 0.2, got = 0;
	unsigned errors = 0;
	for (int i = 0; i < 4; i++) { /* 4 x 0.9, all admitted */
		errors += dl_admission_judge(&c, held + got, 0.9, true);
		got += 0.9;
	}
	/* totals 1.1, 2.0, 2.9, 3.8: the last three are past 1.92 */
	ck_assert_uint_eq(errors, 3);
}
END_TEST

/* A set that fits refused: each refusal with the total at most c.fit is
 * an error, as a kernel that leaked bandwidth would give. */
START_TEST(fitting_set_refused_is_counted)
{
	struct dl_capacity c;
	dl_capacity_set(&c, 2, 950000, 1000000);
	/* 0.75 on 0.2 held refused (0.95), then 1.5 refused (1.7, at the
	 * fit bound exactly) */
	ck_assert_uint_eq(dl_admission_judge(&c, 0.2, 0.75, false) +
			  dl_admission_judge(&c, 0.2, 1.5, false), 2);
	/* Without a limit any refusal is an error, no admission is. */
	dl_capacity_set(&c, 2, -1, 1000000);
	ck_assert_uint_eq(dl_admission_judge(&c, 5.0, 0.9, false), 1);
	ck_assert_uint_eq(dl_admission_judge(&c, 5.0, 0.9, true), 0);
}
END_TEST

/* Near the limit nothing is judged: the kernel's own servers and rounding
 * decide there. */
START_TEST(near_the_limit_is_not_judged)
{
	struct dl_capacity c;
	dl_capacity_set(&c, 2, 950000, 1000000);
	for (int hundredths = 171; hundredths <= 191; hundredths++) {
		double total = hundredths / 100.0;
		ck_assert(!dl_admission_judged(&c, total));
		ck_assert_uint_eq(dl_admission_judge(&c, total - 0.5, 0.5, true), 0);
		ck_assert_uint_eq(dl_admission_judge(&c, total - 0.5, 0.5, false), 0);
	}
	ck_assert(dl_admission_judged(&c, 1.7));
	ck_assert(dl_admission_judged(&c, 1.93));
}
END_TEST

/* A job's release is the start of the period it started in. */
START_TEST(release_is_the_period_start)
{
	uint64_t a = 1000 * MS, p = 10 * MS;
	ck_assert_uint_eq(dl_release(a, p, a), a);
	ck_assert_uint_eq(dl_release(a, p, a + 30 * 1000), a);          /* woken 30 us late */
	ck_assert_uint_eq(dl_release(a, p, a + p), a + p);
	ck_assert_uint_eq(dl_release(a, p, a + 3 * p + 1), a + 3 * p);
	ck_assert_uint_eq(dl_release(a, p, a - 5), a);                  /* before the anchor */
}
END_TEST

/* Jobs of a 5 ms deadline: done within it, exactly at it, after it. */
START_TEST(miss_after_release_plus_deadline)
{
	uint64_t a = 1000 * MS, p = 10 * MS, d = 5 * MS;
	struct { uint64_t start, done; bool miss; } jobs[] = {
		{ a + 20000, a + 600000, false },          /* 0.6 ms: in time */
		{ a + p + 10000, a + p + d, false },       /* at the deadline: in time */
		{ a + 2 * p + 10000, a + 2 * p + d + 1, true },
		/* throttled at its runtime, finished in the next period */
		{ a + 3 * p + 10000, a + 4 * p + 1 * MS, true },
	};
	unsigned misses = 0;
	for (unsigned i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
		uint64_t rel = dl_release(a, p, jobs[i].start);
		ck_assert_uint_eq(rel, a + i * p);
		ck_assert_int_eq(dl_missed(rel, d, jobs[i].done), jobs[i].miss);
		misses += dl_missed(rel, d, jobs[i].done);
	}
	ck_assert_uint_eq(misses, 2);
}
END_TEST

/* check(): the bounds and relations of the parameters. */
START_TEST(check_refuses_what_cannot_run)
{
	const struct probe *p = probe_find("deadline");
	ck_assert_ptr_nonnull(p);
	char buf[300];
	const char *ok[] = { "2", "1ms", "5ms", "10ms", "500us" };
	ck_assert_ptr_null(p->decl.check(ok, buf, sizeof buf));
	const char *over[] = { "2", "1ms", "10ms", "10ms", "2ms" }; /* must-miss: allowed */
	ck_assert_ptr_null(p->decl.check(over, buf, sizeof buf));
	const struct { const char *v[5]; const char *msg; } bad[] = {
		{ { "17", "1ms", "5ms", "10ms", "500us" }, "tasks 17 is outside 1 .. 16" },
		{ { "2", "1ms", "5ms", "200ms", "500us" }, "period 200ms is outside 1ms .. 100ms" },
		{ { "2", "6ms", "5ms", "10ms", "500us" }, "need 100us <= runtime <= deadline" },
		{ { "2", "1ms", "11ms", "10ms", "500us" }, "need 100us <= runtime <= deadline" },
		{ { "2", "50us", "5ms", "10ms", "20us" }, "need 100us <= runtime" },
		{ { "2", "1ms", "5ms", "10ms", "5ms" }, "work 5ms is outside 10us .. the period and 4 x" },
		{ { "2", "1ms", "5ms", "10ms", "5us" }, "work 5us is outside" },
		{ { "6", "1ms", "5ms", "10ms", "500us" }, "tasks 6 x runtime 1ms / period 10ms reserve more than 0.5 CPU" },
	};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_ptr_nonnull(p->decl.check(bad[i].v, buf, sizeof buf));
		ck_assert_msg(strstr(buf, bad[i].msg), "%u: %s", i, buf);
	}
}
END_TEST

static Suite *deadline_suite(void)
{
	Suite *s = suite_create("deadline");
	TCase *tc = tu_tcase(s, "admission", 10);
	tcase_add_test(tc, capacity_from_the_rt_settings);
	tcase_add_test(tc, right_answers_count_nothing);
	tcase_add_test(tc, over_subscription_admitted_is_counted);
	tcase_add_test(tc, fitting_set_refused_is_counted);
	tcase_add_test(tc, near_the_limit_is_not_judged);
	tc = tu_tcase(s, "misses", 10);
	tcase_add_test(tc, release_is_the_period_start);
	tcase_add_test(tc, miss_after_release_plus_deadline);
	tc = tu_tcase(s, "check", 10);
	tcase_add_test(tc, check_refuses_what_cannot_run);
	return s;
}

int main(void)
{
	return tu_run(deadline_suite());
}
