/* SPDX-License-Identifier: Apache-2.0 */
/* verdict.h - what a requirement's verdict is, how its limits are judged,
 * and what exit status a run's verdicts give. The one place for each of
 * these rules: the runner judges with them and every report names and
 * counts verdicts with them.
 */
#ifndef RTC_VERDICT_H
#define RTC_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/summary.h"
#include "requirements/model.h"

/* VERDICT_INCONCLUSIVE: a limit with confidence= whose confidence interval
 * straddles its bound, so the samples decide neither pass nor fail at the
 * stated confidence (docs/requirements.md, "Confidence"). Last, so the
 * numbers of the others stay what they were. */
enum verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR, VERDICT_SKIPPED,
	       VERDICT_INCONCLUSIVE };
#define VERDICT_COUNT 5

/* "pass", "fail", "error", "skipped", "inconclusive": the machine-readable name (junit.xml
 * properties, results.json, HTML classes). */
const char *verdict_name(enum verdict v);
/* "PASS", "FAIL", "ERROR", "SKIP", "INCONCLUSIVE": as the text and HTML reports show it. */
const char *verdict_label(enum verdict v);
/* The label of a requirement's verdict v when it has nlimits limits: a
 * requirement without limits that was measured has nothing it could fail,
 * so what people read says "measured, no limits" rather than PASS (its
 * verdict stays pass: verdict_name, the exit status 0, results.json). */
#define VERDICT_LABEL_NO_LIMITS "measured, no limits"
const char *verdict_label_of(enum verdict v, size_t nlimits);
/* A verdict_name back into a verdict; false when s is none. */
bool verdict_parse(const char *s, enum verdict *out);

/* The exit statuses of rtconform. */
enum rtc_exit {
	EXIT_PASS = 0,         /* every requirement passed */
	EXIT_FAILED = 1,       /* at least one failed its limits */
	EXIT_USAGE = 2,        /* usage error or invalid input: nothing measured */
	EXIT_NOT_MEASURED = 3, /* at least one could not be measured */
	EXIT_INCONCLUSIVE = 4, /* the samples could not decide a limit at its
				* stated confidence (none failed or errored) */
};

/* Exit status of a run with that many failed, errored and inconclusive
 * requirements. An error outranks a failure: a requirement that could not
 * be measured says nothing about its budget, and CI must not read it as
 * "merely failed"; a failure outranks an inconclusive one, which is a
 * budget not yet shown either way: error 3 > fail 1 > inconclusive 4 >
 * pass 0. */
int verdict_exit_status(size_t failures, size_t errors, size_t inconclusive);
/* What an exit status means, in the words every report uses. */
const char *verdict_exit_meaning(int status);

/* The unit of a limit's bounds (and so of its measured value): ns,
 * cycles, or none (QTY_COUNT, a limit on a count metric). */
enum qty_unit limit_unit(const struct req_limit *l);
/* Whether a limit's bounds (and so its measured value) are in cycles. */
bool limit_in_cycles(const struct req_limit *l);

/* The verdict of one limit of a requirement: skipped when the requirement
 * was (it was never measured), else error when the limit could not be
 * evaluated, else inconclusive when `undecided` (its confidence interval
 * straddles a bound), else pass or fail as its figure gives. Each limit keeps its
 * own: a limit judged and held is pass even in a requirement that is an
 * error (another limit's percentile could not be computed, or the load
 * could not be stopped after the measurement), so no report calls a budget
 * that held an error or a LAVA fail. A requirement that is an error before
 * it was judged (the worker failed, timed out ...) has no limit evaluated:
 * each is an error. */
enum verdict limit_verdict(enum verdict req_verdict, bool evaluated, bool passed,
			   bool undecided);

/* Whether measured value v holds a limit's bounds: it fails only strictly
 * past one (above max, below min), so a value exactly at its bound passes.
 * The one comparison: the runner judges with it, and the reader of a
 * results.json re-judges the stored figures with it. */
bool limit_holds(double v, bool has_min, double min, bool has_max, double max);

/* A limit with confidence= judged on the confidence interval [lo, hi] of
 * its percentile (has_lo / has_hi false: no bound on that side, too few
 * samples): a max holds only when hi <= max and is missed only when
 * lo > max; a min holds only when lo >= min and is missed only when
 * hi < min; a limit with both is missed when either is, holds when both
 * hold. Anything else is undecided. The one rule: the runner judges with
 * it and the reader of a results.json re-judges the stored interval. */
enum limit_call { LIMIT_HOLDS, LIMIT_MISSED, LIMIT_UNDECIDED };
enum limit_call limit_call_interval(bool has_lo, double lo, bool has_hi, double hi,
				    bool has_min, double min, bool has_max, double max);

/* How bad a verdict is, in the order of precedence of the exit statuses
 * it gives (verdict_exit_status: an error outranks a failure, a failure an
 * inconclusive limit): pass 0 < inconclusive 1 < fail 2 < error 3;
 * skipped, which judges nothing, -1. The one order for which of
 * a requirement's limits decides its verdict (rv_req_deciding_limit,
 * reports/report.h) and for when compare calls a verdict worse. */
int verdict_rank(enum verdict v);

/* How far measured value v lies past a limit's bounds, relative to the
 * bound it misses: (v - max) / |max| above a max, (min - v) / |min| below
 * a min. Within the bounds the same figure of the nearer bound, negative
 * (the margin left), 0 at a bound; a bound of 0 gives +-infinity off it.
 * Positive exactly when limit_holds fails, so ranking by it puts every
 * failing limit above every passing one: the failing limit missed by the
 * most, else the passing one nearest its bound. */
double limit_excess(double v, bool has_min, double min, bool has_max, double max);

/* The verdict a requirement's limits give it: fail when one was judged and
 * failed, whatever the others (a missing figure cannot undo a missed
 * budget); else error when one could not be evaluated (a figure that is
 * missing says nothing of its budget, so the requirement cannot pass);
 * else inconclusive when one was undecided at its confidence; else pass
 * (also with no limits at all). A limit that could not be
 * evaluated keeps its own verdict, error, beside a failed requirement
 * (limit_verdict). Not for a requirement that is already an error or
 * skipped: those keep theirs. */
enum verdict verdict_of_limits(bool any_unevaluated, bool any_failed, bool any_undecided);

/* How much a limit's verdict weighs in its requirement's, in
 * verdict_of_limits' order: fail 3, error 2, inconclusive 1, pass 0
 * (skipped -1). The
 * requirement's verdict is that of its heaviest limit; the limit that
 * decides it (rv_req_deciding_limit) is one of those. */
int limit_weight(enum verdict v);

/* Where one limit stands, for choosing the limit that decides its
 * requirement: the weight of its verdict (limit_weight) and how far its
 * figure lies past its bounds (limit_excess; +infinity without a figure,
 * so that of equal verdicts the limit that could not be evaluated
 * decides). */
struct limit_standing {
	int weight;
	double excess;
	/* met at a bound of zero: nothing allowed, nothing seen (a violation
	 * count's "total <= 0", rtconform's own limits among them); a pass
	 * with no headroom to show, which decides a passing requirement only
	 * when no other limit does (docs/reports.md, "The deciding limit") */
	bool held_at_zero;
};
/* Where a limit stands with weight w and its figure v (have: there is
 * one) against its bounds: limit_excess, and held_at_zero. */
struct limit_standing limit_standing_of(int w, bool have, double v, bool has_min, double min,
					bool has_max, double max);
/* THE rule for which of n limits decides: the heaviest verdict, of equal
 * ones the figure past its bound by the most, so a failing requirement's
 * limit missed by the most and a passing one's tightest limit (least
 * headroom, a limit held at zero only when no other passes); the first of
 * equals. SIZE_MAX when n is 0. junit.xml,
 * report.html, fleet.html, compare (rv_req_deciding_limit, reports/), the
 * run's progress line (req_deciding_limit) and its live line all choose
 * with it. */
size_t limit_deciding(const struct limit_standing *s, size_t n);
/* The limit that decides a judged requirement r, by limit_deciding over
 * its limits' outcomes; SIZE_MAX without limits. */
struct req_result;
size_t req_deciding_limit(const struct req_result *r);

/* A limit's bounds, as the judge compares a figure with them (in the
 * figure's unit); from a requirement's limit by limit_bounds_of. */
struct limit_bounds {
	bool has_min, has_max;
	double min, max;
};
struct limit_bounds limit_bounds_of(const struct req_limit *l);

/* How a figure stands to the bound that decided it: <=, >, >=, <, or an
 * interval that straddles it. */
enum limit_relation { LIMIT_REL_LE, LIMIT_REL_GT, LIMIT_REL_GE, LIMIT_REL_LT,
		      LIMIT_REL_STRADDLES };
/* "<=", ">", ">=", "<", "straddles". */
const char *limit_rel_text(enum limit_relation rel);

/* A limit judged: numbers only (reports/ says it in words). */
struct limit_judged {
	bool evaluated;          /* it had a figure (lack FIGURE_HAVE) */
	enum figure_lack lack;   /* else why not */
	bool passed, undecided;  /* undecided: its interval straddles a bound */
	bool on_max;             /* the deciding bound is the max (else the min): the one
				  * missed or left undecided, else the one held (max first) */
	enum limit_relation rel;
};
/* THE judge of one limit: figure f (harness/summary.h) against bounds b.
 * A figure on its point estimate holds the bounds by limit_holds; one
 * judged at a confidence (f->interval) by limit_call_interval on its
 * interval. The run judges the worker's figures with it (verdict_judge),
 * and the reader of a results.json the stored ones (reports/read/). Its
 * verdict within a requirement: limit_verdict(req, evaluated, passed,
 * undecided). */
void limit_judge(const struct limit_bounds *b, const struct limit_figure *f,
		 struct limit_judged *out);

/* Judge the limits of a finished result on its summary (out->sum, filled
 * here from its result memory as it is now, and kept: the numbers the
 * reports copy), each
 * limit by limit_judge (its outcome and text, and the failures, then the
 * limits that could not be evaluated, in its reason) and set its verdict by
 * verdict_of_limits; an error or skipped verdict is left alone. */
struct req_result;
void verdict_judge(struct req_result *out);

#endif
