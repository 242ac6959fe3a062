/* SPDX-License-Identifier: Apache-2.0 */
/* test_overhead.c - the overhead and coop-sched probes, and the promise that
 * no sample is lost to the histogram's range.
 *
 * Behaviour only, never absolute speed (a shared, noisy VM): tiny counts,
 * through runner_run as `rtconform run` measures.
 *   - every overhead variant gives a pass verdict, every sample, and a
 *     per-op figure > 0 and (mean) < 10 us;
 *   - what=tsc is refused with a reason when the timebase is not the TSC;
 *   - coop-sched with both switches, one and several tasks, under
 *     SCHED_OTHER and SCHED_FIFO at the highest priority, finishes by itself
 *     with a per-cycle figure > 0; switch=asm is refused off x86-64; a
 *     cycles count below iterations is refused with a reason;
 *   - a value beyond the histogram's range recorded through probe_record()
 *     is counted (overflow), enters min/max/sum exactly, and is what `max`
 *     and a percentile among the overflowed samples report.
 */
#include <check.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/measure/probes/probes.h"
#include "harness/runner.h"
#include "harness/stats.h"
#include "test_util.h"

#define ITERATIONS 20
#define RUNS 2

static void make_req(struct requirement *q, const char *probe, const char *const *kv,
		     enum sched_policy pol, uint64_t iterations)
{
	memset(q, 0, sizeof *q);
	q->id = (char *)"OVERHEAD";
	q->title = (char *)"probe under test";
	q->probe = (char *)probe;
	for (size_t i = 0; kv[i]; i += 2) {
		q->params[q->nparams].name = (char *)kv[i];
		q->params[q->nparams].value = (char *)kv[i + 1];
		q->nparams++;
	}
	q->policy = pol;
	q->priority_max = pol != POLICY_OTHER;
	q->cpu = -1;
	q->iterations = iterations;
	q->runs = RUNS;
	q->warmup = 2;
	q->timeout_ns = 60ull * 1000000000ull;
	struct req_limit *l = &q->limits[q->nlimits++];
	ck_assert_int_eq(statistic_parse("max", &l->stat), 0);
	l->stat_text = (char *)"max";
	l->has_max = true;
	l->max.value = 60e9; /* 60 s: only a hang fails it */
	l->max.unit = QTY_NS;
}

static void run_req(const struct requirement *q, struct req_result *r)
{
	static const struct req_file f = { .path = "<test>", .name = "test" };
	struct run_options o = { .self_dir = RTC_BINARY_DIR };
	runner_run(q, &f, &o, r);
}

static double stat_of(const struct req_result *r, const char *name)
{
	struct statistic st;
	double v = -1;
	ck_assert_int_eq(statistic_parse(name, &st), 0);
	ck_assert_msg(stat_value(result_metric_c(r->res, 0), &st, false, &v), "no %s", name);
	return v;
}

/* ---- overhead ------------------------------------------------------------ */

static const char *const whats[] = {
	"empty-loop", "gettimeofday", "clock_gettime-monotonic", "clock_gettime-monotonic-raw",
	"clock_gettime-realtime", "clock_gettime-monotonic-coarse", "tsc", "histogram-record",
};
#define NWHATS ((int)(sizeof whats / sizeof whats[0]))

START_TEST(overhead_every_variant)
{
	const char *kv[] = { "what", whats[_i], "batch", "200", NULL };
	struct requirement q;
	struct req_result r;
	make_req(&q, "overhead", kv, POLICY_OTHER, ITERATIONS);
	run_req(&q, &r);
	const struct timebase *tb = timebase_get();
	if (strcmp(whats[_i], "tsc") == 0 && !tb->is_tsc) {
		/* Covered by tsc_refused_without_tsc; here the refusal is right. */
		ck_assert_int_eq(r.verdict, VERDICT_ERROR);
		ck_assert_msg(strstr(r.reason, "not supported here"), "reason: %s", r.reason);
		req_result_free(&r);
		return;
	}
	ck_assert_msg(r.verdict == VERDICT_PASS, "what=%s: verdict %s: %s", whats[_i],
		      verdict_name(r.verdict), r.reason);
	const struct metric_data *m = result_metric_c(r.res, 0);
	ck_assert_uint_eq(m->hist.count, (uint64_t)ITERATIONS * RUNS);
	ck_assert_str_eq(r.probe->decl.metrics[0].name, "per-op");
	double mn = stat_of(&r, "min"), mean = stat_of(&r, "mean");
	ck_assert_msg(mn > 0, "what=%s: per-op min %g ns", whats[_i], mn);
	ck_assert_msg(mean > 0 && mean < 10000, "what=%s: per-op mean %g ns", whats[_i], mean);
	/* The scale is 1/batch: a sample's ticks over 200 operations. */
	ck_assert(m->ns_per_unit > 0 && m->ns_per_unit < tb->ns_per_tick / 100);
	req_result_free(&r);
}
END_TEST

START_TEST(tsc_refused_without_tsc)
{
	setenv("RTC_TIMEBASE", "clock", 1);
	struct timebase tb;
	char err[300];
	ck_assert_int_eq(timebase_init(&tb, err, sizeof err), 0);
	ck_assert(!tb.is_tsc);
	const char *kv[] = { "what", "tsc", NULL };
	struct requirement q;
	struct req_result r;
	make_req(&q, "overhead", kv, POLICY_OTHER, ITERATIONS);
	run_req(&q, &r);
	ck_assert_int_eq(r.verdict, VERDICT_ERROR);
	ck_assert_msg(strstr(r.reason, "what=tsc is not supported here") &&
			      strstr(r.reason, "CLOCK_MONOTONIC_RAW"),
		      "reason: %s", r.reason);
	req_result_free(&r);
}
END_TEST

/* ---- coop-sched ---------------------------------------------------------- */

/* _i: bit 0 switch (ucontext, asm), bit 1 tasks (1, 3), bit 2 policy
 * (SCHED_OTHER, SCHED_FIFO at the highest priority). */
START_TEST(coop_sched_cycles)
{
	const char *sw = (_i & 1) ? "asm" : "ucontext";
	const char *tasks = (_i & 2) ? "3" : "1";
	enum sched_policy pol = (_i & 4) ? POLICY_FIFO : POLICY_OTHER;
	const char *kv[] = { "switch", sw, "tasks", tasks, "cycles", "20000", NULL };
	struct requirement q;
	struct req_result r;
	make_req(&q, "coop-sched", kv, pol, ITERATIONS);
	run_req(&q, &r);
#if !defined(__x86_64__)
	if (_i & 1) {
		ck_assert_int_eq(r.verdict, VERDICT_ERROR);
		ck_assert_msg(strstr(r.reason, "x86-64 only"), "reason: %s", r.reason);
		req_result_free(&r);
		return;
	}
#endif
	ck_assert_msg(r.verdict == VERDICT_PASS, "switch=%s tasks=%s %s: verdict %s: %s", sw,
		      tasks, policy_name(pol), verdict_name(r.verdict), r.reason);
	const struct metric_data *m = result_metric_c(r.res, 0);
	ck_assert_uint_eq(m->hist.count, (uint64_t)ITERATIONS * RUNS);
	ck_assert_str_eq(r.probe->decl.metrics[0].name, "per-cycle");
	double mn = stat_of(&r, "min"), mean = stat_of(&r, "mean");
	ck_assert_msg(mn > 0 && mean > 0, "switch=%s: per-cycle min %g mean %g ns", sw, mn, mean);
	/* A block is 20000 / 20 = 1000 cycles: the scale says so. */
	const struct timebase *tb = timebase_get();
	ck_assert(m->ns_per_unit > tb->ns_per_tick / 1000.5 &&
		  m->ns_per_unit < tb->ns_per_tick / 999.5);
	req_result_free(&r);
}
END_TEST

START_TEST(coop_sched_cycles_below_iterations)
{
	const char *kv[] = { "cycles", "10", NULL };
	struct requirement q;
	struct req_result r;
	make_req(&q, "coop-sched", kv, POLICY_OTHER, ITERATIONS);
	run_req(&q, &r);
	ck_assert_int_eq(r.verdict, VERDICT_ERROR);
	ck_assert_msg(strstr(r.reason, "cycles (10) must be at least iterations (20)"),
		      "reason: %s", r.reason);
	req_result_free(&r);
}
END_TEST

START_TEST(coop_sched_check_limits_tasks)
{
	const struct probe *p = probe_find("coop-sched");
	ck_assert_ptr_nonnull(p);
	char buf[300];
	const char *ok[] = { "256", "5000000", "asm" };
	const char *bad[] = { "257", "5000000", "ucontext" };
	ck_assert_ptr_null(p->decl.check(ok, buf, sizeof buf));
	const char *why = p->decl.check(bad, buf, sizeof buf);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "tasks"), "why: %s", why);
}
END_TEST

/* ---- out-of-range samples ------------------------------------------------ */

START_TEST(overflow_counted_through_probe_record)
{
	size_t bytes;
	struct result_shm *res = result_alloc(1, &bytes);
	ck_assert_ptr_nonnull(res);
	struct probe_ctx c;
	memset(&c, 0, sizeof c);
	c.probe = probe_find("overhead");
	c.tb = timebase_get();
	c.res = res;
	c.m[0] = result_metric(res, 0);
	probe_set_scale(&c, 0, 1.0);
	const struct hist *h = &c.m[0]->hist;
	ck_assert_uint_eq(h->highest, (UINT64_C(1) << HIST_DEFAULT_BITS) - 1);

	/* 98 ordinary samples and two far beyond the range. */
	const uint64_t big = UINT64_C(1) << 50, bigger = UINT64_C(3) << 52;
	unsigned __int128 sum = 0;
	probe_run_begin(&c, 0);
	for (uint64_t v = 1; v <= 98; v++) {
		probe_record(&c, 0, v * 10);
		sum += v * 10;
	}
	probe_record(&c, 0, big);
	probe_record(&c, 0, bigger);
	sum += big;
	sum += bigger;
	probe_run_end(&c, 100);

	ck_assert_uint_eq(h->count, 100);
	ck_assert_uint_eq(h->overflow, 2);
	ck_assert_uint_eq(h->min, 10);
	ck_assert_uint_eq(h->max, bigger);
	ck_assert(h->sum == sum);
	ck_assert_uint_eq(c.m[0]->runs[0].count, 100);
	ck_assert(c.m[0]->runs[0].sum == sum);
	uint64_t in_buckets = 0;
	for (uint32_t i = 0; i < h->nbuckets; i++)
		in_buckets += h->counts[i];
	ck_assert_uint_eq(in_buckets + h->overflow, h->count);

	/* max, mean and a percentile whose rank falls among the overflowed
	 * samples all see them. */
	struct statistic st;
	double v;
	double tick = c.m[0]->ns_per_unit;
	ck_assert_int_eq(statistic_parse("max", &st), 0);
	ck_assert(stat_value(c.m[0], &st, false, &v));
	ck_assert(v == (double)bigger * tick);
	ck_assert_int_eq(statistic_parse("mean", &st), 0);
	ck_assert(stat_value(c.m[0], &st, false, &v));
	ck_assert(v > (double)big / 100 * tick);
	ck_assert_uint_eq(hist_percentile(h, 99.5), bigger);
	munmap(res, bytes);
}
END_TEST

static Suite *overhead_suite(void)
{
	Suite *s = suite_create("overhead");
	TCase *tc = tu_tcase(s, "overhead", 120);
	tcase_add_loop_test(tc, overhead_every_variant, 0, NWHATS);
	tcase_add_test(tc, tsc_refused_without_tsc);
	tc = tu_tcase(s, "coop-sched", 120);
	tcase_add_loop_test(tc, coop_sched_cycles, 0, 8);
	tcase_add_test(tc, coop_sched_cycles_below_iterations);
	tcase_add_test(tc, coop_sched_check_limits_tasks);
	tc = tu_tcase(s, "histogram-range", 10);
	tcase_add_test(tc, overflow_counted_through_probe_record);
	return s;
}

int main(void)
{
	char err[300];
	struct timebase tb;
	/* Once, before Check forks each test: the workers inherit it. */
	if (timebase_init(&tb, err, sizeof err) != 0) {
		fprintf(stderr, "timebase: %s\n", err);
		return EXIT_FAILURE;
	}
	/* Orphans of a worker come back here to be reaped. */
	runner_become_supervisor();
	return tu_run(overhead_suite());
}
