/* SPDX-License-Identifier: Apache-2.0 */
/* verdict.c - see verdict.h. */
#include "harness/verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/orderstat.h"
#include "harness/runner.h"
#include "harness/stats.h"

static const struct {
	const char *name, *label;
} verdicts[] = {
	[VERDICT_PASS] = { "pass", "PASS" },
	[VERDICT_FAIL] = { "fail", "FAIL" },
	[VERDICT_ERROR] = { "error", "ERROR" },
	[VERDICT_SKIPPED] = { "skipped", "SKIP" },
	[VERDICT_INCONCLUSIVE] = { "inconclusive", "INCONCLUSIVE" },
};

#define NVERDICTS (sizeof verdicts / sizeof verdicts[0])

const char *verdict_name(enum verdict v)
{
	return (unsigned)v < NVERDICTS ? verdicts[v].name : "?";
}

const char *verdict_label(enum verdict v)
{
	return (unsigned)v < NVERDICTS ? verdicts[v].label : "?";
}

const char *verdict_label_of(enum verdict v, size_t nlimits)
{
	return v == VERDICT_PASS && nlimits == 0 ? VERDICT_LABEL_NO_LIMITS : verdict_label(v);
}

bool verdict_parse(const char *s, enum verdict *out)
{
	for (unsigned i = 0; s && i < NVERDICTS; i++)
		if (strcmp(s, verdicts[i].name) == 0) {
			*out = (enum verdict)i;
			return true;
		}
	return false;
}

int verdict_exit_status(size_t failures, size_t errors, size_t inconclusive)
{
	if (errors)
		return EXIT_NOT_MEASURED;
	if (failures)
		return EXIT_FAILED;
	return inconclusive ? EXIT_INCONCLUSIVE : EXIT_PASS;
}

const char *verdict_exit_meaning(int status)
{
	switch (status) {
	case EXIT_PASS:
		return "every requirement passed";
	case EXIT_FAILED:
		return "at least one requirement failed its limits";
	case EXIT_USAGE:
		return "usage error or invalid input";
	case EXIT_NOT_MEASURED:
		return "at least one requirement could not be measured";
	case EXIT_INCONCLUSIVE:
		return "the samples could not decide a limit at its stated confidence";
	}
	return "?";
}

enum qty_unit limit_unit(const struct req_limit *l)
{
	return l->has_max ? l->max.unit : l->min.unit;
}

bool limit_in_cycles(const struct req_limit *l)
{
	return limit_unit(l) == QTY_CYCLES;
}

enum verdict limit_verdict(enum verdict req_verdict, bool evaluated, bool passed,
			   bool undecided)
{
	if (req_verdict == VERDICT_SKIPPED)
		return req_verdict;
	if (!evaluated)
		return VERDICT_ERROR;
	if (undecided)
		return VERDICT_INCONCLUSIVE;
	return passed ? VERDICT_PASS : VERDICT_FAIL;
}

bool limit_holds(double v, bool has_min, double min, bool has_max, double max)
{
	return !(has_max && v > max) && !(has_min && v < min);
}

enum limit_call limit_call_interval(bool has_lo, double lo, bool has_hi, double hi,
				    bool has_min, double min, bool has_max, double max)
{
	bool missed = (has_max && has_lo && lo > max) || (has_min && has_hi && hi < min);
	if (missed)
		return LIMIT_MISSED;
	bool max_ok = !has_max || (has_hi && hi <= max);
	bool min_ok = !has_min || (has_lo && lo >= min);
	return max_ok && min_ok ? LIMIT_HOLDS : LIMIT_UNDECIDED;
}

int verdict_rank(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS:
		return 0;
	case VERDICT_INCONCLUSIVE:
		return 1;
	case VERDICT_FAIL:
		return 2;
	case VERDICT_ERROR:
		return 3;
	default:
		return -1;
	}
}

/* v past one bound, dir 1 for a max and -1 for a min, relative to it. */
static double past(double v, double bound, int dir)
{
	double d = dir * (v - bound);
	if (bound != 0)
		return d / fabs(bound);
	return d > 0 ? INFINITY : d < 0 ? -INFINITY : 0;
}

double limit_excess(double v, bool has_min, double min, bool has_max, double max)
{
	double e = -INFINITY;
	if (has_max)
		e = past(v, max, 1);
	if (has_min)
		e = fmax(e, past(v, min, -1));
	return e;
}

enum verdict verdict_of_limits(bool any_unevaluated, bool any_failed, bool any_undecided)
{
	/* A limit that was judged and missed settles the requirement: no
	 * figure another limit lacks can make it pass. */
	if (any_failed)
		return VERDICT_FAIL;
	if (any_unevaluated)
		return VERDICT_ERROR;
	return any_undecided ? VERDICT_INCONCLUSIVE : VERDICT_PASS;
}

int limit_weight(enum verdict v)
{
	/* verdict_of_limits' order: a failure settles, then an error, then
	 * an undecided limit. */
	switch (v) {
	case VERDICT_FAIL:
		return 3;
	case VERDICT_ERROR:
		return 2;
	case VERDICT_INCONCLUSIVE:
		return 1;
	case VERDICT_PASS:
		return 0;
	default:
		return -1;
	}
}

/* The metric limit l is about, or NULL with why in lo->text. */
static const struct metric_data *limit_metric(const struct req_result *out,
					      const struct req_limit *l, struct limit_outcome *lo)
{
	int mi = out->probe ? probe_decl_metric_index(&out->probe->decl, l->metric) : -1;
	if (mi < 0 || !out->res || (unsigned)mi >= out->res->nmetrics) {
		snprintf(lo->text, sizeof lo->text, "no metric '%s'", l->metric ? l->metric : "?");
		return NULL;
	}
	const struct probe_metric *pm = probe_decl_metric(&out->probe->decl, (size_t)mi);
	const struct metric_data *m = result_metric_c(out->res, (unsigned)mi);
	/* The validator keeps these apart; a library caller might not. */
	if ((m->kind == METRIC_COUNT) != (limit_unit(l) == QTY_COUNT)) {
		snprintf(lo->text, sizeof lo->text, "metric %s is a %s: the limit's bounds %s",
			 pm->name, probe_decl_metric_kind_name(m->kind),
			 m->kind == METRIC_COUNT ? "must have no unit" : "need a unit");
		return NULL;
	}
	return m;
}

/* The samples that would decide limit l, undecided at its confidence, were
 * the samples to lie as they do now (the fraction f of them at or below
 * the bound left undecided), on the side the point estimate v lies on:
 * os_samples_to_pass for a max whose estimate holds it, os_samples_to_fail
 * for one whose estimate misses it; a min the other way round (its
 * interval must come to lie wholly above it, or wholly below). 0: no
 * number would. */
static uint64_t samples_to_decide(const struct req_limit *l, const struct limit_outcome *lo,
				  const struct metric_data *m, uint64_t n, double v)
{
	bool on_max = l->has_max && !(lo->has_hi && lo->hi <= l->max.value);
	double bound = on_max ? l->max.value : l->min.value;
	bool estimate_holds = on_max ? v <= bound : v >= bound;
	/* The upper bound is an upper bucket edge, so it comes at or below
	 * the bound once its rank is among the samples of buckets wholly at or
	 * below it; the lower bound, a lower edge, comes above a max (at or
	 * above a min) only once its rank is past every sample whose bucket
	 * begins at or below it (below it): a bucket straddling the bound
	 * counts against the side that must clear it, or the count would be
	 * too few, fewer even than the samples already taken. */
	bool upper_side = on_max == estimate_holds;
	uint64_t at_or_below;
	bool cycles = limit_in_cycles(l);
	if (n == 0 || !(upper_side ? stat_count_at_or_below(m, bound, cycles, &at_or_below)
				   : stat_count_maybe_below(m, bound, !on_max, cycles, &at_or_below)))
		return 0;
	double f = (double)at_or_below / (double)n, q = l->stat.pct / 100.0;
	if (upper_side)
		return os_samples_to_pass(q, l->confidence, f);
	return os_samples_to_fail(q, l->confidence, f);
}

/* Limit l judged on the confidence interval of its percentile (its point
 * estimate in lo->measured; st its name, n its "n=..."): lo's outcome and
 * text, "p90 180.2 us, 95% interval [170 us, 189.4 us] straddles max 185
 * us: not enough samples to decide: need about 920 (n=200)". false when
 * the interval cannot be computed. */
static bool judge_interval(struct limit_outcome *lo, const struct req_limit *l,
			   const struct metric_data *m, const char *st, const char *n)
{
	struct stat_bounds b;
	bool cycles = limit_in_cycles(l);
	double pct = l->confidence * 100;
	if (!stat_bounds(m, &l->stat, l->confidence, cycles, &b)) {
		snprintf(lo->text, sizeof lo->text,
			 "the %g%% confidence interval of %s cannot be computed (%s)", pct, st, n);
		return false;
	}
	lo->has_lo = b.has_lo;
	lo->has_hi = b.has_hi;
	lo->lo = b.lo;
	lo->hi = b.hi;
	enum limit_call c = limit_call_interval(b.has_lo, b.lo, b.has_hi, b.hi, l->has_min,
						l->min.value, l->has_max, l->max.value);
	lo->passed = c == LIMIT_HOLDS;
	lo->undecided = c == LIMIT_UNDECIDED;
	char mv[40], lv[40] = "none", hv[40] = "none", bound[40], decide[120];
	struct quantity q = { lo->measured, limit_unit(l) };
	units_fmt_qty(&q, mv, sizeof mv);
	q.value = b.lo;
	if (b.has_lo)
		units_fmt_qty(&q, lv, sizeof lv);
	q.value = b.hi;
	if (b.has_hi)
		units_fmt_qty(&q, hv, sizeof hv);
	/* The bound that was missed or left undecided, else the max. */
	bool on_max = c == LIMIT_HOLDS ? l->has_max
		      : c == LIMIT_MISSED ? l->has_max && b.has_lo && b.lo > l->max.value
		      : l->has_max && !(b.has_hi && b.hi <= l->max.value);
	units_fmt_qty(on_max ? &l->max : &l->min, bound, sizeof bound);
	const char *rel = c == LIMIT_HOLDS ? (on_max ? "<=" : ">=")
			  : c == LIMIT_MISSED ? (on_max ? ">" : "<") : "straddles";
	if (c == LIMIT_UNDECIDED) {
		lo->need = samples_to_decide(l, lo, m, b.n, lo->measured);
		if (lo->need)
			snprintf(decide, sizeof decide, "not enough samples to decide: need about %llu",
				 (unsigned long long)lo->need);
		else
			snprintf(decide, sizeof decide, "not enough samples to decide, and no "
				 "number would: the estimate sits at the limit");
	} else {
		snprintf(decide, sizeof decide, "%s", c == LIMIT_HOLDS ? "passes" : "fails");
	}
	snprintf(lo->text, sizeof lo->text, "%s %s, %g%% interval [%s, %s] %s %s %s: %s (%s)", st,
		 mv, pct, lv, hv, rel, on_max ? "max" : "min", bound, decide, n);
	return true;
}

/* A failed limit on a violation metric (probe_decl.violation_metrics):
 * the system under test broke a rule it must keep (POSIX's, the kernel's),
 * so the limit's text says so and quotes the probe's words on the first
 * event (result_shm.violation), e.g. which wait of which run returned
 * without its post. */
static void violation_words(const struct req_result *out, const struct req_limit *l,
			    struct limit_outcome *lo)
{
	int mi = probe_decl_metric_index(&out->probe->decl, l->metric);
	if (mi < 0 || (size_t)mi >= out->probe->decl.nmetrics || mi >= 32 ||
	    !(out->probe->decl.violation_metrics & (1u << mi)))
		return;
	char text[sizeof lo->text];
	const char *first = out->res->violation;
	/* Cut to what fits when long: the count and the bound come first. */
	if (snprintf(text, sizeof text, "%s %s: a conformance violation of the system under "
		     "test%s%.*s", probe_decl_metric(&out->probe->decl, (size_t)mi)->name,
		     lo->text, first[0] ? "; the first: " : "", (int)sizeof out->res->violation,
		     first) < 0)
		return;
	memcpy(lo->text, text, sizeof text);
}

/* Judge limit i of out: its outcome and text. false when it cannot be
 * evaluated. */
static bool judge_limit(struct req_result *out, size_t i)
{
	const struct req_limit *l = &out->req->limits[i];
	struct limit_outcome *lo = &out->limits[i];
	const struct metric_data *m = limit_metric(out, l, lo);
	if (!m)
		return false;
	char st[32], n[48];
	statistic_name(&l->stat, st, sizeof st);
	bool cycles = limit_in_cycles(l);
	bool count = m->kind == METRIC_COUNT;
	double v;
	if (!stat_value(m, &l->stat, cycles, &v)) {
		snprintf(lo->text, sizeof lo->text, "%s %s cannot be computed from %llu %s%s", st,
			 l->metric ? l->metric : probe_decl_metric(&out->probe->decl, 0)->name,
			 (unsigned long long)(count ? m->hist.count : metric_samples(m)),
			 count ? "runs" : "samples",
			 cycles && m->cycles_per_unit == 0 ? " (cycles need the TSC timebase)" : "");
		return false;
	}
	lo->measured = v;
	/* A duration's samples below zero (early wake-ups) are kept apart
	 * from hist's count: metric_samples counts both. */
	snprintf(n, sizeof n, count ? "%llu runs" : "n=%llu",
		 (unsigned long long)(count ? m->hist.count : metric_samples(m)));
	if (l->confidence > 0 && l->stat.kind == STAT_PCT && !count)
		return lo->evaluated = judge_interval(lo, l, m, st, n);
	lo->evaluated = true;
	char mv[40], bound[40];
	struct quantity q = { v, limit_unit(l) };
	units_fmt_qty(&q, mv, sizeof mv);
	lo->passed = limit_holds(v, l->has_min, l->min.value, l->has_max, l->max.value);
	/* The bound that was missed, else the one that held (max first). */
	bool on_max = l->has_max && (v > l->max.value || lo->passed);
	units_fmt_qty(on_max ? &l->max : &l->min, bound, sizeof bound);
	const char *rel = lo->passed ? (on_max ? "<=" : ">=") : (on_max ? ">" : "<");
	snprintf(lo->text, sizeof lo->text, "%s %s %s %s (%s)", st, mv, rel, bound, n);
	if (!lo->passed)
		violation_words(out, l, lo);
	return true;
}

void verdict_judge(struct req_result *out)
{
	if (out->verdict == VERDICT_ERROR || out->verdict == VERDICT_SKIPPED)
		return;
	const struct requirement *r = out->req;
	bool failed = false, errored = false, undecided = false;
	char *fails = out->reason;
	size_t flen = sizeof out->reason;
	fails[0] = 0;
	for (size_t i = 0; i < r->nlimits; i++) {
		if (!judge_limit(out, i)) {
			errored = true;
		} else if (out->limits[i].undecided) {
			undecided = true;
		} else if (!out->limits[i].passed) {
			size_t used = strlen(fails);
			snprintf(fails + used, flen - used, "%s%s", used ? "; " : "",
				 out->limits[i].text);
			failed = true;
		}
	}
	out->verdict = verdict_of_limits(errored, failed, undecided);
	if (errored || (!failed && undecided)) {
		size_t used = strlen(fails);
		for (size_t i = 0; i < r->nlimits; i++)
			if (!out->limits[i].evaluated || (!failed && out->limits[i].undecided)) {
				snprintf(fails + used, flen - used, "%s%s", used ? "; " : "",
					 out->limits[i].text);
				used = strlen(fails);
			}
	}
}
