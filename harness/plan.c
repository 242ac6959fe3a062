/* SPDX-License-Identifier: Apache-2.0 */
/* plan.c - the samples percentile limits take and need; see plan.h. */
#include "harness/plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/orderstat.h"
#include "base/units.h"
#include "harness/estimate.h"
#include "harness/measure/probes/probes.h"

double plan_limit_level(const struct req_limit *l)
{
	/* The limit's confidence="..." (0: it names none), else the level
	 * every report states its intervals at. */
	return l->confidence > 0 ? l->confidence : PLAN_LEVEL_DEFAULT;
}

/* The samples limit l's plan needs: a max= rests on the upper bound, which
 * comes within PLAN_FRAC of the estimate's rank counted from the top; a
 * min= on the lower bound, the same from the bottom (the (1 - q)-quantile's
 * rule, by symmetry); both, the larger. */
static uint64_t limit_need(const struct req_limit *l)
{
	double q = l->stat.pct / 100, level = plan_limit_level(l);
	uint64_t up = l->has_max || !l->has_min ? os_plan_samples(q, level, PLAN_FRAC) : 0;
	uint64_t down = l->has_min ? os_plan_samples(1 - q, level, PLAN_FRAC) : 0;
	return up > down ? up : down;
}

void plan_fmt_count(uint64_t n, char *buf, size_t len)
{
	char digits[24], out[32];
	int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
	size_t o = 0;
	for (int i = 0; i < nd; i++) {
		if (i && (nd - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
	snprintf(buf, len, "%s", out);
}

void plan_fmt_ordinal(uint64_t k, char *buf, size_t len)
{
	const char *suf = "th";
	if (k % 100 < 11 || k % 100 > 13) {
		if (k % 10 == 1)
			suf = "st";
		else if (k % 10 == 2)
			suf = "nd";
		else if (k % 10 == 3)
			suf = "rd";
	}
	char n[32];
	plan_fmt_count(k, n, sizeof n);
	snprintf(buf, len, "%s%s", n, suf);
}

uint64_t plan_round3(uint64_t n)
{
	uint64_t scale = 1;
	while (n / scale >= 1000)
		scale *= 10;
	return (n + scale / 2) / scale * scale;
}

/* "95%", "99.5%". */
static void fmt_level(double level, char *buf, size_t len)
{
	snprintf(buf, len, "%g%%", level * 100);
}

/* "the largest", "the 11th largest". */
static void fmt_from_top(uint64_t k, char *buf, size_t len)
{
	char o[40];
	if (k == 1) {
		snprintf(buf, len, "the largest");
		return;
	}
	plan_fmt_ordinal(k, o, sizeof o);
	snprintf(buf, len, "the %s largest", o);
}

void plan_describe(uint64_t n, double q, double level, char *buf, size_t len)
{
	char ns[32], est[64], bound[64], lv[16], plan[32], stat[32];
	struct statistic st = { .kind = STAT_PCT, .pct = q * 100 };
	statistic_name(&st, stat, sizeof stat);
	plan_fmt_count(n, ns, sizeof ns);
	fmt_level(level, lv, sizeof lv);
	plan_fmt_count(plan_round3(os_plan_samples(q, level, PLAN_FRAC)), plan, sizeof plan);
	if (!n) {
		snprintf(buf, len, "%s with no samples: no estimate; the %s upper bound comes within "
			 "%g%% of the estimate's rank at about %s samples", stat, lv, PLAN_FRAC * 100,
			 plan);
		return;
	}
	struct os_bounds b;
	os_quantile_bounds(n, q, level, &b);
	fmt_from_top(n + 1 - os_estimate_rank(n, q), est, sizeof est);
	if (b.hi_rank > n) {
		snprintf(buf, len, "%s with %s samples: the estimate is %s sample; too few samples "
			 "for an upper bound at %s; the bound comes within %g%% of the estimate's "
			 "rank at about %s samples", stat, ns, est, lv, PLAN_FRAC * 100, plan);
		return;
	}
	fmt_from_top(n + 1 - b.hi_rank, bound, sizeof bound);
	snprintf(buf, len, "%s with %s samples: the estimate is %s sample, its %s upper bound %s; "
		 "the bound comes within %g%% of the estimate's rank at about %s samples", stat, ns,
		 est, lv, bound, PLAN_FRAC * 100, plan);
}

/* By time: the runs of r that fit in its duration and what they take,
 * from the probe's pace; false without one. */
static bool plan_by_time(const struct probe *pr, const struct requirement *r,
			 struct plan_limit *p)
{
	struct probe_pace pace;
	if (!estimate_probe_pace(&pr->decl, r, &pace))
		return false;
	p->run_s = pace.run_s + pace.iteration_s * (double)p->iterations + ESTIMATE_RUN_OVERHEAD_S;
	uint64_t per_run = p->per_it * p->iterations;
	if (!(p->run_s > 0) || !per_run)
		return false;
	double runs = floor((double)p->duration_ns / 1e9 / p->run_s);
	p->samples = (uint64_t)(runs * (double)per_run);
	p->need_s = ceil((double)p->need / (double)per_run) * p->run_s;
	p->known = true;
	return true;
}

bool plan_limit(const struct requirement *r, const struct req_limit *l,
		const struct run_options *o, struct plan_limit *p)
{
	memset(p, 0, sizeof *p);
	const struct probe *pr = probe_find(r->probe);
	if (l->stat.kind != STAT_PCT || !pr)
		return false;
	int mi = probe_decl_metric_index(&pr->decl, l->metric);
	if (mi < 0)
		return false;
	uint64_t warmup;
	runner_counts(r, o, &p->iterations, &p->runs, &warmup);
	p->q = l->stat.pct / 100;
	p->level = plan_limit_level(l);
	p->need = limit_need(l);
	p->duration_ns = runner_duration(r, o);
	p->by_time = p->duration_ns != 0;
	probe_decl_metric_samples(&pr->decl, (size_t)mi, p->iterations, 1, &p->per_cpu, &p->per_it);
	if (!p->per_it)
		p->per_it = 1;
	if (p->by_time) {
		p->runs = 0;
		plan_by_time(pr, r, p);
	} else {
		p->samples = probe_decl_metric_samples(&pr->decl, (size_t)mi, p->iterations, p->runs,
						       &p->per_cpu, &p->per_it);
		uint64_t per_it_run = p->per_it * (p->runs ? p->runs : 1);
		uint64_t it = (p->need + per_it_run - 1) / per_it_run;
		p->need_iterations = it <= REQ_MAX_ITERATIONS ? it : 0;
		p->known = true;
	}
	p->reaches = p->known && p->samples >= p->need;
	return true;
}

void plan_needs(const struct requirement *r, uint64_t need[REQ_MAX_LIMITS])
{
	for (size_t i = 0; i < REQ_MAX_LIMITS; i++) {
		const struct req_limit *l = i < r->nlimits ? &r->limits[i] : NULL;
		need[i] = l && l->stat.kind == STAT_PCT ? limit_need(l) : 0;
	}
}

void plan_setting_text(const struct plan_limit *p, char *buf, size_t len)
{
	char n[32], it[32], d[32], runs[32];
	const char *cpu = p->per_cpu ? " on each measured CPU" : "";
	plan_fmt_count(p->iterations, it, sizeof it);
	if (!p->by_time) {
		plan_fmt_count(p->samples, n, sizeof n);
		plan_fmt_count(p->runs, runs, sizeof runs);
		char per[64] = "";
		if (p->per_it > 1)
			snprintf(per, sizeof per, " x %llu samples an iteration",
				 (unsigned long long)p->per_it);
		snprintf(buf, len, "%s samples%s (%s runs x %s iterations%s)", n, cpu, runs, it, per);
		return;
	}
	units_fmt_ns((double)p->duration_ns, d, sizeof d);
	if (!p->known) {
		snprintf(buf, len, "runs by time (%s) of %s iterations: the probe has no pace to "
			 "estimate its samples from", d, it);
		return;
	}
	char rs[32];
	units_fmt_ns(p->run_s * 1e9, rs, sizeof rs);
	plan_fmt_count(plan_round3(p->samples), n, sizeof n);
	snprintf(buf, len, "about %s samples%s in %s (runs of %s iterations of about %s each, "
		 "from the probe's pace)", n, cpu, d, it, rs);
}

void plan_need_text(const struct plan_limit *p, char *buf, size_t len)
{
	char need[32], d[32], have[48];
	plan_fmt_count(plan_round3(p->need), need, sizeof need);
	const char *verdict = p->reaches ? "reaches the plan" : "is short of the plan";
	if (!p->by_time) {
		if (p->need_iterations)
			snprintf(have, sizeof have, "iterations=\"%llu\"",
				 (unsigned long long)p->need_iterations);
		else
			snprintf(have, sizeof have, "more runs (iterations are at most %llu)",
				 (unsigned long long)REQ_MAX_ITERATIONS);
		snprintf(buf, len, "needs about %s samples%s: %s at %llu runs (the file's "
			 "iterations=\"%llu\" %s)", need, p->per_cpu ? " on each measured CPU" : "",
			 have, (unsigned long long)p->runs, (unsigned long long)p->iterations,
			 verdict);
		return;
	}
	char file[32];
	units_fmt_ns((double)p->duration_ns, file, sizeof file);
	if (!p->known) {
		snprintf(buf, len, "needs about %s samples: the probe has no pace to tell the "
			 "duration that takes", need);
		return;
	}
	units_fmt_ns(p->need_s * 1e9, d, sizeof d);
	snprintf(buf, len, "needs about %s samples%s: a duration of about %s, from the probe's "
		 "pace (the file's %s %s)", need, p->per_cpu ? " on each measured CPU" : "", d,
		 file, verdict);
}
