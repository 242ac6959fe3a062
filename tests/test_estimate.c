/* SPDX-License-Identifier: Apache-2.0 */
/* test_estimate.c - the expected run time of a requirement (harness/
 * estimate.h), as `rtconform list --profiles` prints it: every probe
 * declares its pace, counts and durations are the runner's (overrides
 * included), a probe's pace follows its parameters, and the RT throttling
 * guard's rests are counted by the guard's own rule. Known answers of the
 * model's arithmetic, never this machine's timings. */
#include <check.h>
#include <sched.h>
#include <string.h>

#include "harness/estimate.h"
#include "harness/measure/probes/probes.h"
#include "harness/runner.h"
#include "test_util.h"

#define EPS 1e-9
#define OVH ESTIMATE_REQ_OVERHEAD_S
#define RUN_OVH ESTIMATE_RUN_OVERHEAD_S

static struct requirement req(const char *probe, uint64_t iterations, uint64_t runs,
			      uint64_t warmup)
{
	struct requirement r = { .id = "R", .probe = (char *)probe, .cpu = -1,
				 .iterations = iterations, .runs = runs, .warmup = warmup };
	return r;
}

static void set_param(struct requirement *r, const char *name, const char *value)
{
	r->params[r->nparams].name = (char *)name;
	r->params[r->nparams].value = (char *)value;
	r->nparams++;
}

/* The pace of r's probe for r's parameters. */
static struct probe_pace pace_of(const struct requirement *r)
{
	struct probe_pace p;
	const struct probe *pr = probe_find(r->probe);
	ck_assert_ptr_nonnull(pr);
	ck_assert(estimate_probe_pace(&pr->decl, r, &p));
	return p;
}

/* Every probe of the table declares a pace, and a positive one for its
 * defaults: a new probe without one fails here (it would be estimated as
 * 0 s). A declaration without a pace is refused, not read as 0. */
START_TEST(every_probe_has_a_pace)
{
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe_decl *d = &probe_table[i]->decl;
		struct probe_pace p;
		ck_assert_msg(d->pace != NULL, "probe %s declares no pace (.decl.pace)", d->name);
		ck_assert(estimate_probe_pace(d, NULL, &p));
		ck_assert_msg(p.iteration_s > 0 || p.run_s > 0,
			      "probe %s: the pace of its defaults is 0", d->name);
	}
	struct probe_decl none = { .name = "no-pace" };
	struct probe_pace p = { .iteration_s = 1 };
	ck_assert(!estimate_probe_pace(&none, NULL, &p));
	ck_assert_double_eq(p.iteration_s, 0);
}
END_TEST

/* runs x (iterations x pace + per run) + warm-up x pace + per requirement:
 * timer-wakeup's pace is its interval. */
START_TEST(by_count_is_runs_times_iterations)
{
	struct requirement r = req("timer-wakeup", 1000, 5, 100);
	set_param(&r, "interval", "2ms");
	double want = OVH + 100 * 2e-3 + 5 * (1000 * 2e-3 + RUN_OVH);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, NULL), want, EPS);
	/* the default interval (1ms) when the file gives none */
	r.nparams = 0;
	want = OVH + 100 * 1e-3 + 5 * (1000 * 1e-3 + RUN_OVH);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, NULL), want, EPS);
}
END_TEST

/* The counts the runner uses: --runs and --iterations override the file's,
 * --quick divides them, --duration replaces the runs by the time. */
START_TEST(options_are_the_runners)
{
	struct requirement r = req("timer-wakeup", 1000, 5, 0);
	struct run_options o = { .runs_override = 2, .iterations_override = 10 };
	double want = OVH + 2 * (10 * 1e-3 + RUN_OVH);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, &o, NULL), want, EPS);
	struct run_options q = { .quick = true };
	uint64_t it, runs, warm;
	runner_counts(&r, &q, &it, &runs, &warm);
	want = OVH + (double)runs * ((double)it * 1e-3 + RUN_OVH);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, &q, NULL), want, EPS);
	struct run_options d = { .duration_override = 30 * 1000000000ull };
	ck_assert_double_eq_tol(estimate_requirement_s(&r, &d, NULL), OVH + 30, EPS);
	r.duration_ns = 60 * 1000000000ull; /* a file's own duration */
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, NULL), OVH + 60, EPS);
}
END_TEST

/* A probe whose runs take a parameter's time takes it a run whatever the
 * iterations, and its warm-up is one more run. */
START_TEST(per_run_pace_ignores_iterations)
{
	struct requirement r = req("priority-preempt", 1000000, 4, 1000);
	set_param(&r, "duration", "100ms");
	double want = OVH + (4 + 1) * (0.1 + RUN_OVH);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, NULL), want, EPS);
	r.warmup = 0;
	want = OVH + 4 * (0.1 + RUN_OVH);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, NULL), want, EPS);
}
END_TEST

/* A pace follows the parameters that set it: what the probe does, not
 * only how long. */
START_TEST(pace_follows_the_parameters)
{
	/* priority-inherit: a cycle and the rest after it; without a
	 * protocol H also waits for M's spin of two holds */
	struct requirement r = req("priority-inherit", 100, 5, 10);
	set_param(&r, "hold", "1ms");
	ck_assert_double_eq_tol(pace_of(&r).iteration_s, 2 * 1e-3, EPS);
	set_param(&r, "protocol", "none");
	ck_assert_double_eq_tol(pace_of(&r).iteration_s, 2 * 3 * 1e-3, EPS);
	/* deadline: a job overrunning its runtime twice over takes three
	 * periods; within its runtime, one */
	r = req("deadline", 50, 3, 5);
	set_param(&r, "period", "10ms");
	set_param(&r, "runtime", "1ms");
	set_param(&r, "work", "500us");
	ck_assert_double_eq_tol(pace_of(&r).iteration_s, 10e-3, EPS);
	r.params[2].value = "2ms";
	ck_assert_double_eq_tol(pace_of(&r).iteration_s, 3 * 10e-3, EPS);
	r.params[2].value = "1500us";
	ck_assert_double_eq_tol(pace_of(&r).iteration_s, 2 * 10e-3, EPS);
	/* rr-quantum: duration and a quantum to end on a slice; fifo two */
	r = req("rr-quantum", 1, 5, 1);
	set_param(&r, "duration", "200ms");
	struct probe_pace p = pace_of(&r);
	ck_assert_double_eq_tol(p.run_s, 0.3, EPS);
	ck_assert(p.warmup_run);
	set_param(&r, "policy", "fifo");
	ck_assert_double_eq_tol(pace_of(&r).run_s, 0.4, EPS);
	/* overhead: batch operations a sample */
	r = req("overhead", 1000, 10, 100);
	set_param(&r, "batch", "1000");
	double one = pace_of(&r).iteration_s;
	r.params[0].value = "4000";
	ck_assert_double_eq_tol(pace_of(&r).iteration_s, 4 * one, EPS);
	/* a value the validator refuses counts as 0 */
	r.params[0].value = "lots";
	ck_assert_double_eq(pace_of(&r).iteration_s, 0);
}
END_TEST

/* The guard's rule from the sysctls: half the runtime busy, twice the
 * throttled part of a period resting; none with throttling off. */
START_TEST(guard_plan)
{
	uint64_t budget = 1, rest = 1;
	ck_assert(probe_rt_guard_plan(950000, 1000000, &budget, &rest));
	ck_assert_uint_eq(budget, 475000000u);
	ck_assert_uint_eq(rest, 100000000u);
	ck_assert(!probe_rt_guard_plan(-1, 1000000, &budget, &rest));
	ck_assert(!probe_rt_guard_plan(1000000, 1000000, &budget, &rest));
	ck_assert(probe_rt_guard_due(300, 200, 475));
	ck_assert(!probe_rt_guard_due(275, 200, 475)); /* exactly at the budget: no rest */
}
END_TEST

/* The guard rests before a run when the busy time since its last rest
 * plus the longest run passes the budget: with a budget of 3.5 runs, 10
 * runs rest before runs 3, 6 and 9. Only a real-time policy and a probe
 * that keeps its CPU busy are guarded; no guard (throttling off), none. */
START_TEST(guard_rests_are_counted)
{
	struct requirement r = req("sem-pingpong", 10000, 10, 0);
	r.policy = POLICY_FIFO;
	double run = pace_of(&r).iteration_s * 10000 + RUN_OVH;
	struct estimate_guard g = { .budget_s = 3.5 * run, .rest_s = 0.25 };
	double base = OVH + 10 * run;
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, &g), base + 3 * 0.25, 1e-6);
	/* the warm-up is busy time too: 2 runs' worth moves the first rest
	 * to before run 1 (2 + 1 > 3.5 only from there), then 4, 7 */
	r.warmup = 20000;
	double warm = pace_of(&r).iteration_s * 20000;
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, &g),
				OVH + warm + 10 * run + 3 * 0.25, 1e-6);
	r.warmup = 0;
	struct estimate_guard off = { 0 };
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, &off), base, 1e-6);
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, NULL), base, 1e-6);
	r.policy = POLICY_OTHER;
	ck_assert_double_eq_tol(estimate_requirement_s(&r, NULL, &g), base, 1e-6);
	/* timer-wakeup mostly sleeps: never guarded */
	struct requirement t = req("timer-wakeup", 1000, 10, 0);
	t.policy = POLICY_FIFO;
	ck_assert_double_eq_tol(estimate_requirement_s(&t, NULL, &g),
				estimate_requirement_s(&t, NULL, NULL), EPS);
	/* a run longer than the budget rests before every run but the first */
	struct requirement rr = req("rr-quantum", 1, 5, 0);
	rr.policy = POLICY_FIFO;
	struct estimate_guard tight = { .budget_s = 0.1, .rest_s = 0.5 };
	ck_assert_double_eq_tol(estimate_requirement_s(&rr, NULL, &tight),
				estimate_requirement_s(&rr, NULL, NULL) + 4 * 0.5, EPS);
}
END_TEST

/* A file's estimate is the sum of its requirements'. */
START_TEST(file_is_the_sum)
{
	struct requirement rs[2] = { req("timer-wakeup", 100, 1, 0), req("sem-pingpong", 1000, 2, 0) };
	struct req_file f = { .path = "f.xml", .reqs = rs, .nreqs = 2 };
	struct estimate_guard g = { 0.475, 0.1 };
	ck_assert_double_eq_tol(estimate_file_s(&f, NULL, &g),
				estimate_requirement_s(&rs[0], NULL, &g) +
				estimate_requirement_s(&rs[1], NULL, &g), EPS);
	ck_assert(estimate_requirement_s(&rs[1], NULL, NULL) > OVH);
	struct requirement unknown = req("no-such-probe", 100, 1, 0);
	ck_assert_double_eq(estimate_requirement_s(&unknown, NULL, NULL), 0);
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
	tcase_add_test(tc, pace_follows_the_parameters);
	tcase_add_test(tc, guard_plan);
	tcase_add_test(tc, guard_rests_are_counted);
	tcase_add_test(tc, file_is_the_sum);
	return tu_run(s);
}
