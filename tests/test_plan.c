/* SPDX-License-Identifier: Apache-2.0 */
/* test_plan.c - the samples a percentile limit takes, what they establish
 * and how many it needs (harness/plan.h), as `rtconform validate` and its
 * --plan print them: known answers of the order-statistic arithmetic
 * (worked by hand in the comments) and of the planning text, never this
 * machine's timings. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "base/orderstat.h"
#include "harness/estimate.h"
#include "harness/measure/probes/probes.h"
#include "harness/plan.h"
#include "test_util.h"

static struct requirement req(const char *probe, uint64_t iterations, uint64_t runs,
			      uint64_t duration_ns)
{
	struct requirement r = { .id = "R", .probe = (char *)probe, .cpu = -1,
				 .iterations = iterations, .runs = runs, .duration_ns = duration_ns };
	return r;
}

static void add_limit(struct requirement *r, const char *stat)
{
	struct req_limit *l = &r->limits[r->nlimits++];
	memset(l, 0, sizeof *l);
	ck_assert_int_eq(statistic_parse(stat, &l->stat), 0);
	l->stat_text = (char *)stat;
}

#define HAS(hay, needle) ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' not in '%s'", \
				       (needle), (hay))

START_TEST(counts_and_ordinals)
{
	char b[64];
	const struct { uint64_t n; const char *s; } counts[] = {
		{ 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 384000, "384,000" },
		{ 1234567, "1,234,567" },
	};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		plan_fmt_count(counts[i].n, b, sizeof b);
		ck_assert_str_eq(b, counts[i].s);
	}
	const struct { uint64_t k; const char *s; } ords[] = {
		{ 1, "1st" }, { 2, "2nd" }, { 3, "3rd" }, { 4, "4th" }, { 11, "11th" },
		{ 12, "12th" }, { 13, "13th" }, { 21, "21st" }, { 22, "22nd" }, { 101, "101st" },
		{ 111, "111th" }, { 112, "112th" }, { 1001, "1,001st" },
	};
	for (size_t i = 0; i < sizeof ords / sizeof ords[0]; i++) {
		plan_fmt_ordinal(ords[i].k, b, sizeof b);
		ck_assert_str_eq(b, ords[i].s);
	}
	ck_assert_uint_eq(plan_round3(384123), 384000);
	ck_assert_uint_eq(plan_round3(384500), 385000);
	ck_assert_uint_eq(plan_round3(999), 999);
	ck_assert_uint_eq(plan_round3(9995), 10000);
}
END_TEST

/* p99.9 of 10,000 samples: the estimate is X(ceil(9990)) = X(9990), the
 * 11th largest. Above the true p99.9 lie Bin(10000, 0.001) ~ Poisson(10)
 * samples; the upper bound X(u), u = n + 1 - k, falls below it with
 * P(Pois(10) <= k - 1): k = 4 gives e^-10 (1 + 10 + 50 + 166.7) = 0.0103
 * <= 0.025, k = 5 gives 0.029 > 0.025: the 4th largest. The plan is about
 * (1.96 / 0.1)^2 / 0.001 = 384,160 samples by the normal approximation;
 * the exact ranks put it at 387,587, printed to three digits. */
START_TEST(p999_of_ten_thousand)
{
	char b[400];
	plan_describe(10000, 0.999, 0.95, b, sizeof b);
	ck_assert_str_eq(b, "p99.9 with 10,000 samples: the estimate is the 11th largest sample, "
			 "its 95% upper bound the 4th largest; the bound comes within 10% of "
			 "the estimate's rank at about 388,000 samples");
	/* As a limit's p99.9 gives it: 99.9 / 100, a hair above 0.999. */
	volatile double pct = 99.9;
	char b2[400];
	plan_describe(10000, pct / 100, 0.95, b2, sizeof b2);
	ck_assert_str_eq(b2, b);
	uint64_t need = os_plan_samples(0.999, 0.95, PLAN_FRAC);
	/* Within 2 % of the normal approximation's 384,160. */
	ck_assert_msg(fabs((double)need - 384160.0) < 0.02 * 384160.0, "%llu",
		      (unsigned long long)need);
}
END_TEST

/* 1,000 samples: q^n = 0.999^1000 = 0.368 > 0.025, so no rank is an upper
 * bound; the estimate X(999) is the 2nd largest. One sample: the largest. */
START_TEST(too_few_for_a_bound)
{
	char b[400];
	plan_describe(1000, 0.999, 0.95, b, sizeof b);
	HAS(b, "p99.9 with 1,000 samples: the estimate is the 2nd largest sample; too few samples "
	    "for an upper bound at 95%;");
	plan_describe(1, 0.99, 0.95, b, sizeof b);
	HAS(b, "the estimate is the largest sample; too few");
	plan_describe(0, 0.99, 0.95, b, sizeof b);
	HAS(b, "no samples");
}
END_TEST

/* By count: runs x iterations x samples an iteration, and the iterations
 * a run that reach the plan at the file's runs: ceil(need / runs). */
START_TEST(by_count)
{
	struct requirement r = req("sem-pingpong", 2000, 5, 0);
	add_limit(&r, "max");
	add_limit(&r, "p99.9");
	struct plan_limit p;
	ck_assert(!plan_limit(&r, &r.limits[0], NULL, &p)); /* not a percentile */
	ck_assert(plan_limit(&r, &r.limits[1], NULL, &p));
	uint64_t need = os_plan_samples(0.999, 0.95, PLAN_FRAC);
	ck_assert(!p.by_time && p.known && !p.reaches);
	ck_assert_uint_eq(p.samples, 10000);
	ck_assert_uint_eq(p.need, need);
	ck_assert_uint_eq(p.need_iterations, (need + 4) / 5);
	ck_assert_double_eq(p.level, 0.95);
	char b[400], want[200];
	plan_setting_text(&p, b, sizeof b);
	ck_assert_str_eq(b, "10,000 samples (5 runs x 2,000 iterations)");
	plan_need_text(&p, b, sizeof b);
	snprintf(want, sizeof want, "iterations=\"%llu\" at 5 runs (the file's iterations=\"2000\" "
		 "is short of the plan)", (unsigned long long)((need + 4) / 5));
	HAS(b, want);
	HAS(b, "needs about 388,000 samples");
	ck_assert_uint_eq(plan_round3(need), 388000);

	/* sem-pingpong's wakeup takes two samples an iteration. */
	add_limit(&r, "p99");
	r.limits[2].metric = "wakeup";
	ck_assert(plan_limit(&r, &r.limits[2], NULL, &p));
	ck_assert_uint_eq(p.samples, 20000);
	plan_setting_text(&p, b, sizeof b);
	ck_assert_str_eq(b, "20,000 samples (5 runs x 2,000 iterations x 2 samples an iteration)");
	uint64_t need99 = os_plan_samples(0.99, 0.95, PLAN_FRAC);
	ck_assert_uint_eq(p.need_iterations, (need99 + 9) / 10);

	r.iterations = 100000;
	r.runs = 10;
	ck_assert(plan_limit(&r, &r.limits[1], NULL, &p));
	ck_assert(p.reaches);
	plan_need_text(&p, b, sizeof b);
	HAS(b, "(the file's iterations=\"100000\" reaches the plan)");

	uint64_t needs[REQ_MAX_LIMITS];
	plan_needs(&r, needs);
	ck_assert_uint_eq(needs[0], 0);
	ck_assert_uint_eq(needs[1], need);
	ck_assert_uint_eq(needs[2], need99);
	ck_assert_uint_eq(needs[3], 0);
}
END_TEST

/* By time: the runs that fit, from the probe's pace (runs of its
 * iterations and per-run cost plus the runner's overhead), and the
 * duration of as many runs as the plan's samples take. */
START_TEST(by_time)
{
	struct requirement r = req("timer-wakeup", 1000, 0, 60ull * 1000000000ull);
	add_limit(&r, "p99.9");
	const struct probe *pr = probe_find("timer-wakeup");
	ck_assert_ptr_nonnull(pr);
	struct probe_pace pace;
	ck_assert(estimate_probe_pace(&pr->decl, &r, &pace));
	double run_s = pace.run_s + pace.iteration_s * 1000 + ESTIMATE_RUN_OVERHEAD_S;
	struct plan_limit p;
	ck_assert(plan_limit(&r, &r.limits[0], NULL, &p));
	ck_assert(p.by_time && p.known);
	ck_assert_double_eq_tol(p.run_s, run_s, 1e-12);
	ck_assert_uint_eq(p.samples, (uint64_t)floor(60 / run_s) * 1000);
	uint64_t need = os_plan_samples(0.999, 0.95, PLAN_FRAC);
	ck_assert_double_eq_tol(p.need_s, ceil((double)need / 1000) * run_s, 1e-9);
	ck_assert(p.reaches == (p.samples >= need));
	char b[400];
	plan_need_text(&p, b, sizeof b);
	HAS(b, "a duration of about");
	HAS(b, p.reaches ? "reaches the plan" : "is short of the plan");
	/* A second cannot take 384,000 timer wake-ups of this pace. */
	r.duration_ns = 1000000000ull;
	ck_assert(plan_limit(&r, &r.limits[0], NULL, &p));
	ck_assert(!p.reaches);
	plan_setting_text(&p, b, sizeof b);
	HAS(b, "from the probe's pace");
	HAS(b, "on each measured CPU"); /* timer-wakeup's wakeup: one a CPU */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, counts_and_ordinals);
	tcase_add_test(tc, p999_of_ten_thousand);
	tcase_add_test(tc, too_few_for_a_bound);
	tcase_add_test(tc, by_count);
	tcase_add_test(tc, by_time);
	return tu_run(s);
}
