/* SPDX-License-Identifier: Apache-2.0 */
/* test_estimate.c - the expected run time of a requirement (harness/
 * estimate.h), as `rtconform list --profiles` prints it: every probe has a
 * pace, counts and durations are the runner's (overrides included), and a
 * probe paced by a parameter follows that parameter. */
#include <check.h>
#include <string.h>

#include "harness/estimate.h"
#include "harness/measure/probes/probes.h"
#include "harness/runner.h"
#include "test_util.h"

#define EPS 1e-9

static struct requirement req(const char *probe, uint64_t iterations, uint64_t runs,
			      uint64_t warmup)
{
	struct requirement r = { .id = "R", .probe = (char *)probe, .cpu = -1,
				 .iterations = iterations, .runs = runs, .warmup = warmup };
	return r;
}

/* A new probe without a pace would be estimated as 0 s. */
START_TEST(every_probe_has_a_pace)
{
	for (size_t i = 0; i < probe_catalog.n; i++)
		ck_assert_msg(estimate_knows_probe(probe_catalog.probes[i]->name),
			      "probe %s has no pace in harness/estimate.c",
			      probe_catalog.probes[i]->name);
	ck_assert(!estimate_knows_probe("no-such-probe"));
}
END_TEST

/* runs x (iterations x pace + per run) + warm-up x pace + per requirement:
 * timer-wakeup's pace is its interval. */
START_TEST(by_count_is_runs_times_iterations)
{
	struct requirement r = req("timer-wakeup", 1000, 5, 100);
	r.params[0].name = "interval";
	r.params[0].value = "2ms";
	r.nparams = 1;
	double want = ESTIMATE_REQ_OVERHEAD_S + 100 * 2e-3 + 5 * (1000 * 2e-3 + ESTIMATE_RUN_OVERHEAD_S);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL), want, EPS);
	/* the default interval (1ms) when the file gives none */
	r.nparams = 0;
	want = ESTIMATE_REQ_OVERHEAD_S + 100 * 1e-3 + 5 * (1000 * 1e-3 + ESTIMATE_RUN_OVERHEAD_S);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL), want, EPS);
}
END_TEST

/* The counts the runner uses: --runs and --iterations override the file's,
 * --quick divides them, --duration replaces the runs by the time. */
START_TEST(options_are_the_runners)
{
	struct requirement r = req("timer-wakeup", 1000, 5, 0);
	struct run_options o = { .runs_override = 2, .iterations_override = 10 };
	double want = ESTIMATE_REQ_OVERHEAD_S + 2 * (10 * 1e-3 + ESTIMATE_RUN_OVERHEAD_S);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, &o), want, EPS);
	struct run_options q = { .quick = true };
	uint64_t it, runs, warm;
	runner_counts(&r, &q, &it, &runs, &warm);
	want = ESTIMATE_REQ_OVERHEAD_S + (double)runs * ((double)it * 1e-3 + ESTIMATE_RUN_OVERHEAD_S);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, &q), want, EPS);
	struct run_options d = { .duration_override = 30 * 1000000000ull };
	ck_assert_double_eq_tol(estimate_requirement_s(&r, &d), ESTIMATE_REQ_OVERHEAD_S + 30, EPS);
	r.duration_ns = 60 * 1000000000ull; /* a file's own duration */
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL), ESTIMATE_REQ_OVERHEAD_S + 60, EPS);
}
END_TEST

/* A probe whose iterations are not used takes its parameter's time a run. */
START_TEST(per_run_pace_ignores_iterations)
{
	struct requirement r = req("priority-preempt", 1000000, 4, 1000);
	r.params[0].name = "duration";
	r.params[0].value = "100ms";
	r.nparams = 1;
	double want = ESTIMATE_REQ_OVERHEAD_S + 4 * (0.1 + ESTIMATE_RUN_OVERHEAD_S);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL), want, EPS);
}
END_TEST

/* A file's estimate is the sum of its requirements'. */
START_TEST(file_is_the_sum)
{
	struct requirement rs[2] = { req("timer-wakeup", 100, 1, 0), req("sem-pingpong", 1000, 2, 0) };
	struct req_file f = { .path = "f.xml", .reqs = rs, .nreqs = 2 };
	ck_assert_double_eq_tol(estimate_file_s(&f, NULL),
				estimate_requirement_s(&rs[0], NULL) +
				estimate_requirement_s(&rs[1], NULL), EPS);
	ck_assert(estimate_requirement_s(&rs[1], NULL) > ESTIMATE_REQ_OVERHEAD_S);
	struct requirement unknown = req("no-such-probe", 100, 1, 0);
	ck_assert_double_eq(estimate_requirement_s(&unknown, NULL), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("estimate");
	TCase *tc = tu_tcase(s, "estimate", 10);
	tcase_add_test(tc, every_probe_has_a_pace);
	tcase_add_test(tc, by_count_is_runs_times_iterations);
	tcase_add_test(tc, options_are_the_runners);
	tcase_add_test(tc, per_run_pace_ignores_iterations);
	tcase_add_test(tc, file_is_the_sum);
	return tu_run(s);
}
