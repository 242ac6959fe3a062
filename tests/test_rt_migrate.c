/* SPDX-License-Identifier: Apache-2.0 */
/* test_rt_migrate.c - the rule rt-migrate judges a release by, on times
 * made up here (task 0 the highest priority; times in arbitrary ticks), and
 * what its catalogue check refuses. The probe itself runs in
 * tests/cli/rt_migrate.sh. */
#include <stdint.h>
#include <string.h>

#include "harness/measure/probes/probes.h"
#include "harness/measure/probes/rt_migrate.h"
#include "test_util.h"

#define BUSY 100

/* Three tasks on two CPUs as the kernel should run them: 0 and 1 at once,
 * 2 once one of them has ended. Nothing is counted. */
START_TEST(in_priority_order_is_no_violation)
{
	uint64_t start[] = { 10, 12, 10 + BUSY + 3 };
	uint64_t end[] = { 10 + BUSY, 12 + BUSY, 13 + 2 * BUSY };
	uint64_t by[3] = { 0 };
	ck_assert_uint_eq(rt_migrate_judge(start, end, 3, 2, by), 0);
	ck_assert_uint_eq(by[0] + by[1] + by[2], 0);
	/* One CPU: each after the one above it ended. */
	uint64_t s1[] = { 0, BUSY + 1, 2 * BUSY + 2 }, e1[] = { BUSY, 2 * BUSY + 1, 3 * BUSY + 2 };
	ck_assert_uint_eq(rt_migrate_judge(s1, e1, 3, 1, NULL), 0);
}
END_TEST

/* Among the tasks owed a CPU, which got through its wake-up first is no
 * question of priority: task 1 before task 0 on two CPUs is not counted. */
START_TEST(race_among_the_top_cpus_is_no_violation)
{
	uint64_t start[] = { 40, 5, BUSY + 6 };
	uint64_t end[] = { 40 + BUSY, 5 + BUSY, 6 + 2 * BUSY };
	ck_assert_uint_eq(rt_migrate_judge(start, end, 3, 2, NULL), 0);
	/* On one CPU the same start of task 1 is a violation. */
	ck_assert_uint_eq(rt_migrate_judge(start, end, 3, 1, NULL), 1);
}
END_TEST

/* The lowest task starts while both higher ones are still waiting. */
START_TEST(lowest_first_is_counted)
{
	uint64_t start[] = { 30, 20, 10 };
	uint64_t end[] = { 30 + BUSY, 20 + BUSY, 10 + BUSY };
	uint64_t by[3] = { 0 };
	ck_assert_uint_eq(rt_migrate_judge(start, end, 3, 2, by), 1);
	ck_assert_uint_eq(by[2], 1);
	ck_assert_uint_eq(by[0] + by[1], 0);
	/* Counts add up over releases. */
	ck_assert_uint_eq(rt_migrate_judge(start, end, 3, 2, by), 1);
	ck_assert_uint_eq(by[2], 2);
	/* Four tasks released lowest first on two CPUs: tasks 3 and 2 each
	 * start while at least two higher ones wait (tasks - CPUs). */
	uint64_t s4[] = { 40, 30, 20, 10 }, e4[] = { 140, 130, 120, 110 };
	ck_assert_uint_eq(rt_migrate_judge(s4, e4, 4, 2, NULL), 2);
}
END_TEST

/* A higher task that has ended frees its CPU: the lower one may start even
 * if a higher one is still waiting on its way to the other CPU. */
START_TEST(ended_tasks_free_their_cpu)
{
	/* task 0 ran 0..100; task 2 starts at 101 while task 1 (owed the
	 * second CPU) is still waking: only one higher task is unfinished. */
	uint64_t start[] = { 0, 150, 101 };
	uint64_t end[] = { BUSY, 150 + BUSY, 101 + BUSY };
	ck_assert_uint_eq(rt_migrate_judge(start, end, 3, 2, NULL), 0);
	/* Had task 0 not ended yet, task 2 took a CPU owed to task 1. */
	uint64_t end2[] = { 200, 150 + BUSY, 101 + BUSY };
	ck_assert_uint_eq(rt_migrate_judge(start, end2, 3, 2, NULL), 1);
	/* A start at the very tick another ended is not before its end. */
	uint64_t s3[] = { 0, 150, BUSY }, e3[] = { BUSY, 150 + BUSY, 2 * BUSY };
	ck_assert_uint_eq(rt_migrate_judge(s3, e3, 3, 2, NULL), 0);
}
END_TEST

START_TEST(one_task_never_violates)
{
	uint64_t start[] = { 7 }, end[] = { 9 };
	ck_assert_uint_eq(rt_migrate_judge(start, end, 1, 1, NULL), 0);
	ck_assert_uint_eq(rt_migrate_judge(start, end, 0, 1, NULL), 0);
}
END_TEST

/* check(): busy 10us .. 10ms, tasks 3 .. 64 or the default. */
START_TEST(check_refuses_what_cannot_run)
{
	const struct probe *p = probe_find("rt-migrate");
	ck_assert_ptr_nonnull(p);
	char buf[300];
	const char *ok[] = { "cpus+1", "all", "100us", "together" };
	ck_assert_ptr_null(p->decl.check(ok, buf, sizeof buf));
	const char *five[] = { "5", "0-1", "10ms", "ascending" };
	ck_assert_ptr_null(p->decl.check(five, buf, sizeof buf));
	const char *two[] = { "2", "all", "100us", "together" };
	ck_assert_ptr_nonnull(p->decl.check(two, buf, sizeof buf));
	ck_assert_msg(strstr(buf, "tasks 2 is outside 3 .. 64"), "%s", buf);
	const char *many[] = { "65", "all", "100us", "together" };
	ck_assert_ptr_nonnull(p->decl.check(many, buf, sizeof buf));
	const char *fast[] = { "cpus+1", "all", "9us", "together" };
	ck_assert_ptr_nonnull(p->decl.check(fast, buf, sizeof buf));
	ck_assert_msg(strstr(buf, "busy 9us is outside 10us .. 10ms"), "%s", buf);
	const char *slow[] = { "cpus+1", "all", "11ms", "together" };
	ck_assert_ptr_nonnull(p->decl.check(slow, buf, sizeof buf));
}
END_TEST

static Suite *rt_migrate_suite(void)
{
	Suite *s = suite_create("rt_migrate");
	TCase *tc = tu_tcase(s, "judge", 10);
	tcase_add_test(tc, in_priority_order_is_no_violation);
	tcase_add_test(tc, race_among_the_top_cpus_is_no_violation);
	tcase_add_test(tc, lowest_first_is_counted);
	tcase_add_test(tc, ended_tasks_free_their_cpu);
	tcase_add_test(tc, one_task_never_violates);
	tc = tu_tcase(s, "check", 10);
	tcase_add_test(tc, check_refuses_what_cannot_run);
	return s;
}

int main(void)
{
	return tu_run(rt_migrate_suite());
}
