/* SPDX-License-Identifier: Apache-2.0 */
/* test_probe.c - the probe helpers that need no worker: the CPU-list
 * grammar shared by validation and the timer probe, recording, a probe's
 * own count metrics, and the harness's fault counts of a peer process. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/measure/probe.h"
#include "harness/measure/rtenv.h"
#include "harness/runner.h"
#include "harness/stats.h"
#include "probe_fixture.h"
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

/* A probe with a duration and a count metric, run by hand. */
static const struct probe_metric two_metrics[] = {
	{ "lat", "a duration", METRIC_DURATION },
	{ "violations", "a count", METRIC_COUNT },
};
static const struct probe counting_probe = {
	.decl = { .name = "counting", .help = "test", .metrics = two_metrics, .nmetrics = 2 },
};

/* probe_add_count adds up in a run; the run's end makes the sum its one
 * sample, zero when nothing was counted. */
START_TEST(own_count_metric)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&counting_probe.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->nmetrics, 2 + PROBE_HARNESS_METRICS);
	ck_assert_uint_eq(result_metric(r, 1)->kind, METRIC_COUNT);
	ck_assert_uint_eq(result_metric(r, 2 + HM_PAGE_FAULTS)->kind, METRIC_COUNT);
	struct probe_ctx c;
	ctx_for(&c, &counting_probe, r);
	probe_run_begin(&c, 0);
	probe_record(&c, 0, 7);
	probe_add_count(&c, 1, 3);
	probe_add_count(&c, 1, 2);
	probe_run_end(&c, 1);
	probe_run_begin(&c, 1);
	probe_run_end(&c, 0);
	const struct metric_data *v = result_metric(r, 1);
	ck_assert_uint_eq(v->hist.count, 2); /* one value per run */
	ck_assert(v->hist.sum == 5 && v->hist.max == 5 && v->hist.min == 0);
	ck_assert(v->runs[0].sum == 5 && v->runs[0].count == 1);
	ck_assert(v->runs[1].sum == 0 && v->runs[1].count == 1);
	ck_assert_uint_eq(result_metric(r, 0)->hist.count, 1);
	for (unsigned k = 0; k < PROBE_HARNESS_METRICS; k++)
		ck_assert_uint_eq(result_metric(r, 2 + k)->hist.count, 2);
	ck_assert_uint_eq(r->runs_done, 2);
	munmap(r, bytes);
}
END_TEST

/* A registered peer's page faults count in the runs they happen in; a peer
 * that is gone by a run's end is not counted, and the note says so. */
START_TEST(peer_faults_counted)
{
	enum { PAGES = 256 };
	size_t bytes;
	struct result_shm *r = result_alloc_for(&counting_probe.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	struct probe_ctx c;
	ctx_for(&c, &counting_probe, r);
	c.policy = SCHED_OTHER;
	c.cpu = -1;
	int ready[2], go[2];
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(go), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char b = 0;
		if (probe_peer_setup(&c, "the test peer", -1, 0) != 0)
			_exit(1);
		munlockall(); /* so that fresh pages fault when first written */
		if (write(ready[1], &b, 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(1);
		long page = sysconf(_SC_PAGESIZE);
		char *m = mmap(NULL, (size_t)(PAGES * page), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (long i = 0; m != MAP_FAILED && i < PAGES; i++)
			m[i * page] = 1;
		if (write(ready[1], &b, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	char b = 0;
	ck_assert_int_eq(read(ready[0], &b, 1), 1);
	ck_assert_uint_eq(r->peers.n, 1);
	ck_assert_int_eq(r->peers.pid[0], pid);
	unsigned pf = 2 + HM_PAGE_FAULTS;
	uint64_t n0 = 0, n1 = 0;
	probe_run_begin(&c, 0); /* the peer touches its pages in this run */
	ck_assert_int_eq(write(go[1], &b, 1), 1);
	ck_assert_int_eq(read(ready[0], &b, 1), 1);
	probe_run_end(&c, 1);
	probe_run_begin(&c, 1); /* and nothing in this one */
	probe_run_end(&c, 1);
	ck_assert(metric_run_count(result_metric(r, pf), 0, &n0));
	ck_assert(metric_run_count(result_metric(r, pf), 1, &n1));
	ck_assert_msg(n0 >= PAGES, "run 0: %llu page faults, the peer took %d",
		      (unsigned long long)n0, PAGES);
	ck_assert_msg(n1 < PAGES, "run 1: %llu page faults", (unsigned long long)n1);
	ck_assert_uint_eq(r->peers.lost, 0);

	probe_run_begin(&c, 2); /* the peer ends in this run */
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	probe_run_end(&c, 1);
	ck_assert_uint_eq(r->peers.lost, 1);
	probe_counters_note(&c);
	ck_assert_msg(strstr(r->note, "a peer process ended during a run 1 time"), "%s", r->note);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	munmap(r, bytes);
}
END_TEST

/* A kernel without sched_getattr is read back from /proc/PID/stat: policy
 * is field 41 and rt_priority field 40, counted after the name, which may
 * hold spaces and parentheses. Every field holds its own number, so
 * reading one field off gives another number. */
START_TEST(stat_line_policy_fields)
{
	char line[1024];
	int n = snprintf(line, sizeof line, "123 (a) b (c)) S");
	for (int field = 4; field <= 52; field++)
		n += snprintf(line + n, sizeof line - (size_t)n, " %d", field);
	struct rtenv_attr a = { 0 };
	ck_assert_int_eq(rtenv_stat_line_attr(line, &a), 0);
	ck_assert_uint_eq(a.priority, 40);
	ck_assert_uint_eq(a.policy, 41);
	ck_assert_int_eq(rtenv_stat_line_attr("123 (short) S 1 2 3", &a), -EIO);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tu_tcase(s, "helpers", 10);
	tcase_add_test(tc, stat_line_policy_fields);
	tcase_add_test(tc, cpulist_accepts);
	tcase_add_test(tc, cpulist_refuses);
	tcase_add_test(tc, record_counts_run_and_histogram);
	tcase_add_test(tc, own_count_metric);
	tcase_add_test(tc, peer_faults_counted);
	return tu_run(s);
}
