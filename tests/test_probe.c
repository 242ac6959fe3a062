/* test_probe.c - the probe helpers that need no worker: the CPU-list
 * grammar shared by validation and the timer probe, and recording. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/measure/probe.h"
#include "harness/runner.h"
#include "test_util.h"

START_TEST(cpulist_accepts)
{
	cpu_set_t set;
	ck_assert_int_eq(cpulist_parse("0", &set), 0);
	ck_assert_int_eq(CPU_COUNT(&set), 1);
	ck_assert(CPU_ISSET(0, &set));
	ck_assert_int_eq(cpulist_parse("0,2-3,7", &set), 0);
	ck_assert_int_eq(CPU_COUNT(&set), 4);
	ck_assert(CPU_ISSET(2, &set) && CPU_ISSET(3, &set) && CPU_ISSET(7, &set));
	ck_assert(!CPU_ISSET(1, &set));
	ck_assert_int_eq(cpulist_parse("1023", &set), 0);
}
END_TEST

START_TEST(cpulist_refuses)
{
	static const char *const bad[] = { "", "all", "0,", ",0", "1,,2", "+1", " 1", "1 ",
					   "-1", "1-", "3-1", "0x1", "1024", "0-1024", "a" };
	cpu_set_t set;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(cpulist_parse(bad[i], &set) == -EINVAL, "accepted '%s'",
			      bad[i]);
}
END_TEST

START_TEST(record_counts_run_and_histogram)
{
	size_t bytes;
	struct result_shm *r = result_alloc_series(1, 2, &bytes);
	ck_assert_ptr_nonnull(r);
	struct probe_ctx c;
	memset(&c, 0, sizeof c);
	c.res = r;
	c.m[0] = result_metric(r, 0);
	c.run = 1;
	probe_record(&c, 0, 10);
	probe_record(&c, 0, 30);
	probe_record_series(&c, 1, 5);
	ck_assert_uint_eq(c.m[0]->hist.count, 2);
	ck_assert_uint_eq(c.m[0]->runs[1].count, 2);
	ck_assert(c.m[0]->runs[1].sum == 40);
	ck_assert_uint_eq(c.m[0]->runs[0].count, 0);
	ck_assert_uint_eq(result_series(r, 1)->hist.count, 1);
	ck_assert_uint_eq(result_series(r, 1)->runs[1].count, 1);
	ck_assert_uint_eq(result_series(r, 0)->hist.count, 0);
	munmap(r, bytes);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tu_tcase(s, "helpers", 10);
	tcase_add_test(tc, cpulist_accepts);
	tcase_add_test(tc, cpulist_refuses);
	tcase_add_test(tc, record_counts_run_and_histogram);
	return tu_run(s);
}
