/* SPDX-License-Identifier: Apache-2.0 */
/* verdict.c - see verdict.h. */
#include "harness/verdict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/measure/probe.h"
#include "harness/runner.h"

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

struct limit_standing limit_standing_of(int w, bool have, double v, bool has_min, double min,
					bool has_max, double max)
{
	struct limit_standing s = { w, INFINITY, false };
	if (have) {
		s.excess = limit_excess(v, has_min, min, has_max, max);
		s.held_at_zero = has_max && max == 0 && v == 0 && (!has_min || min <= 0);
	}
	return s;
}

/* Whether a decides before b: the heavier verdict; of two passes, one
 * that shows headroom before one held at zero; then the larger excess. */
static bool decides_before(const struct limit_standing *a, const struct limit_standing *b)
{
	if (a->weight != b->weight)
		return a->weight > b->weight;
	if (a->weight == limit_weight(VERDICT_PASS) && a->held_at_zero != b->held_at_zero)
		return !a->held_at_zero;
	return a->excess > b->excess;
}

size_t limit_deciding(const struct limit_standing *s, size_t n)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (best == SIZE_MAX || decides_before(&s[i], &s[best]))
			best = i;
	return best;
}

size_t req_deciding_limit(const struct req_result *r)
{
	struct limit_standing s[REQ_MAX_LIMITS];
	size_t n = r->req ? r->req->nlimits : 0;
	if (n > REQ_MAX_LIMITS)
		n = REQ_MAX_LIMITS;
	for (size_t i = 0; i < n; i++) {
		const struct limit_outcome *o = &r->limits[i];
		struct limit_bounds b = limit_bounds_of(&r->req->limits[i]);
		s[i] = limit_standing_of(limit_weight(limit_verdict(r->verdict, o->evaluated,
								   o->passed, o->undecided)),
					 o->evaluated, o->measured, b.has_min, b.min, b.has_max,
					 b.max);
	}
	return limit_deciding(s, n);
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

void limit_judge(const struct limit_bounds *b, const struct limit_figure *f,
		 struct limit_judged *out)
{
	memset(out, 0, sizeof *out);
	out->lack = f->lack;
	out->evaluated = f->lack == FIGURE_HAVE;
	if (!out->evaluated)
		return;
	double v = f->value;
	if (!f->interval) {
		out->passed = limit_holds(v, b->has_min, b->min, b->has_max, b->max);
		/* The bound that was missed, else the one that held (max first). */
		out->on_max = b->has_max && (v > b->max || out->passed);
		out->rel = out->passed ? (out->on_max ? LIMIT_REL_LE : LIMIT_REL_GE)
				       : (out->on_max ? LIMIT_REL_GT : LIMIT_REL_LT);
		return;
	}
	enum limit_call c = limit_call_interval(f->has_lo, f->lo, f->has_hi, f->hi, b->has_min,
						b->min, b->has_max, b->max);
	out->passed = c == LIMIT_HOLDS;
	out->undecided = c == LIMIT_UNDECIDED;
	/* The bound that was missed or left undecided, else the max. */
	out->on_max = c == LIMIT_HOLDS ? b->has_max
		      : c == LIMIT_MISSED ? b->has_max && f->has_lo && f->lo > b->max
		      : b->has_max && !(f->has_hi && f->hi <= b->max);
	out->rel = c == LIMIT_HOLDS ? (out->on_max ? LIMIT_REL_LE : LIMIT_REL_GE)
		   : c == LIMIT_MISSED ? (out->on_max ? LIMIT_REL_GT : LIMIT_REL_LT)
		   : LIMIT_REL_STRADDLES;
}

const char *limit_rel_text(enum limit_relation rel)
{
	static const char *const text[] = { [LIMIT_REL_LE] = "<=", [LIMIT_REL_GT] = ">",
					    [LIMIT_REL_GE] = ">=", [LIMIT_REL_LT] = "<",
					    [LIMIT_REL_STRADDLES] = "straddles" };
	return (unsigned)rel < sizeof text / sizeof text[0] && text[rel] ? text[rel] : "?";
}

/* The judge's sentence of limit l of out (lo judged on figure f):
 * "max 412.3 us > 300 us (n=100000)", "p90 180.2 us, 95% interval [170 us,
 * 189.4 us] straddles max 185 us: not enough samples to decide: need about
 * 920 (n=200)", or why it has no figure. */
static void limit_words(const struct req_result *out, const struct req_limit *l,
			const struct limit_figure *f, struct limit_outcome *lo)
{
	char st[32], n[48], mv[40], bound[40];
	statistic_name(&l->stat, st, sizeof st);
	bool count = f->kind == METRIC_COUNT;
	const char *mname = f->metric >= 0 ? probe_decl_metric(&out->probe->decl,
							       (size_t)f->metric)->name : NULL;
	switch (f->lack) {
	case FIGURE_NO_METRIC:
		snprintf(lo->text, sizeof lo->text, "no metric '%s'", l->metric ? l->metric : "?");
		return;
	case FIGURE_WRONG_KIND:
		snprintf(lo->text, sizeof lo->text, "metric %s is a %s: the limit's bounds %s",
			 mname, probe_decl_metric_kind_name(f->kind),
			 count ? "must have no unit" : "need a unit");
		return;
	case FIGURE_NO_VALUE:
		snprintf(lo->text, sizeof lo->text, "%s %s cannot be computed from %llu %s%s", st,
			 l->metric ? l->metric : probe_decl_metric(&out->probe->decl, 0)->name,
			 (unsigned long long)f->n, count ? "runs" : "samples",
			 f->no_cycles ? " (cycles need the TSC timebase)" : "");
		return;
	default:
		break;
	}
	snprintf(n, sizeof n, count ? "%llu runs" : "n=%llu", (unsigned long long)f->n);
	double pct = l->confidence * 100;
	if (f->lack == FIGURE_NO_INTERVAL) {
		snprintf(lo->text, sizeof lo->text,
			 "the %g%% confidence interval of %s cannot be computed (%s)", pct, st, n);
		return;
	}
	struct quantity q = { f->value, limit_unit(l) };
	units_fmt_qty(&q, mv, sizeof mv);
	units_fmt_qty(lo->on_max ? &l->max : &l->min, bound, sizeof bound);
	const char *rel = limit_rel_text(lo->rel);
	if (!f->interval) {
		snprintf(lo->text, sizeof lo->text, "%s %s %s %s (%s)", st, mv, rel, bound, n);
		return;
	}
	char lv[40] = "none", hv[40] = "none", decide[120];
	q.value = f->lo;
	if (f->has_lo)
		units_fmt_qty(&q, lv, sizeof lv);
	q.value = f->hi;
	if (f->has_hi)
		units_fmt_qty(&q, hv, sizeof hv);
	if (lo->undecided && lo->need)
		snprintf(decide, sizeof decide, "not enough samples to decide: need about %llu",
			 (unsigned long long)lo->need);
	else if (lo->undecided)
		snprintf(decide, sizeof decide, "not enough samples to decide, and no "
			 "number would: the estimate sits at the limit");
	else
		snprintf(decide, sizeof decide, "%s", lo->passed ? "passes" : "fails");
	snprintf(lo->text, sizeof lo->text, "%s %s, %g%% interval [%s, %s] %s %s %s: %s (%s)", st,
		 mv, pct, lv, hv, rel, lo->on_max ? "max" : "min", bound, decide, n);
}

/* A failed limit on a violation metric (probe_decl.violation_metrics):
 * the system under test broke a rule it must keep (POSIX's, the kernel's),
 * so the limit's text says so and quotes the probe's words on the first
 * event (summary.violation), e.g. which wait of which run returned
 * without its post. */
static void violation_words(const struct req_result *out, const struct req_limit *l,
			    struct limit_outcome *lo)
{
	int mi = probe_decl_metric_index(&out->probe->decl, l->metric);
	if (mi < 0 || (size_t)mi >= out->probe->decl.nmetrics || mi >= 32 ||
	    !(out->probe->decl.violation_metrics & (1u << mi)))
		return;
	char text[sizeof lo->text];
	const char *first = out->sum.violation;
	/* Cut to what fits when long: the count and the bound come first. */
	if (snprintf(text, sizeof text, "%s %s: a conformance violation of the system under "
		     "test%s%s", probe_decl_metric(&out->probe->decl, (size_t)mi)->name,
		     lo->text, first[0] ? "; the first: " : "", first) < 0)
		return;
	memcpy(lo->text, text, sizeof text);
}

struct limit_bounds limit_bounds_of(const struct req_limit *l)
{
	return (struct limit_bounds){ l->has_min, l->has_max, l->min.value, l->max.value };
}

/* Judge limit i of out on its figure: its outcome and text. false when it
 * cannot be evaluated. */
static bool judge_limit(struct req_result *out, size_t i)
{
	const struct req_limit *l = &out->req->limits[i];
	const struct limit_figure *f = &out->sum.limits[i];
	struct limit_outcome *lo = &out->limits[i];
	struct limit_bounds b = limit_bounds_of(l);
	struct limit_judged j;
	limit_judge(&b, f, &j);
	lo->evaluated = j.evaluated;
	lo->passed = j.passed;
	lo->undecided = j.undecided;
	lo->on_max = j.on_max;
	lo->rel = j.rel;
	lo->lack = f->lack;
	if (f->lack == FIGURE_HAVE || f->lack == FIGURE_NO_INTERVAL)
		lo->measured = f->value;
	if (f->interval && f->lack == FIGURE_HAVE) {
		lo->has_lo = f->has_lo;
		lo->has_hi = f->has_hi;
		lo->lo = f->lo;
		lo->hi = f->hi;
		lo->need = j.undecided ? f->need : 0;
	}
	limit_words(out, l, f, lo);
	if (j.evaluated && !j.passed && !f->interval)
		violation_words(out, l, lo);
	return j.evaluated;
}

void verdict_judge(struct req_result *out)
{
	if (out->verdict == VERDICT_ERROR || out->verdict == VERDICT_SKIPPED)
		return;
	/* The numbers as they are now, once: the reports copy what was
	 * judged (summary_of). */
	summary_free(&out->sum);
	summary_fill(out, &out->sum);
	const struct requirement *r = out->req;
	bool failed = false, errored = false, undecided = false;
	char *fails = out->reason;
	size_t flen = sizeof out->reason;
	fails[0] = 0;
	for (size_t i = 0; i < r->nlimits && i < REQ_MAX_LIMITS; i++) {
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
		for (size_t i = 0; i < r->nlimits && i < REQ_MAX_LIMITS; i++)
			if (!out->limits[i].evaluated || (!failed && out->limits[i].undecided)) {
				snprintf(fails + used, flen - used, "%s%s", used ? "; " : "",
					 out->limits[i].text);
				used = strlen(fails);
			}
	}
}
