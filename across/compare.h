/* SPDX-License-Identifier: Apache-2.0 */
/* compare.h - `rtconform compare`: a candidate run's figures against a
 * baseline run's, requirement by requirement (matched by id) and metric by
 * metric (by name), and the reports of the comparison.
 *
 * The rule (docs/fleet.md, "Baselines", says why):
 *   - the figures: the mean and max of every duration metric, and every
 *     statistic a candidate limit is on (in the limit's unit). Mean and max
 *     are the typical run's: the median over runs of each run's mean, or of
 *     each run's largest sample, so one run that met a burst of load does
 *     not decide. Other statistics are of all samples (a limit's judged
 *     value);
 *   - the per-run values of a figure: each run's mean for mean, min, p50,
 *     p90 and runs-mean-stddev; each run's largest sample for max, stddev
 *     and p99 and above; each run's count for a count;
 *   - the interval: of the ratio candidate / baseline of those per-run
 *     values, at 1 - the significance level (cmp_ratio_interval, below:
 *     Welch's t on their logarithms);
 *     widened to the figure's own ratio when that lies outside it
 *     (cmp_interval_cover: the per-run values only stand in for it);
 *   - the tolerance band: ratios from 1 / (1 + tolerance) to 1 + tolerance
 *     (cmp_tolerance_band);
 *   - same: the interval lies inside the band; worse: wholly above it (below
 *     it for a figure whose only limit is a minimum); better: wholly beyond
 *     it the other way; inconclusive: across an end of the band, and only
 *     then (or one run a side that differ: no interval). One that may be
 *     worse (its one-sided bound at the level lies beyond the band's worse
 *     end: cmp_interval_may_be_worse) gates like worse unless allowed; one
 *     whose bound rules that out does not;
 *   - exact, without an interval: a count whose baseline is zero in every
 *     run (an event that must never happen: its first occurrence is worse),
 *     and a side without per-run values (an older results.json), the same
 *     only when its figure is exactly the other's.
 * A requirement's verdict is compared too, whatever its figures say
 * (cmp_verdict_change): one that moved up the order of verdict_rank
 * (pass -> inconclusive -> fail -> error) is a regression, one that
 * moved down it an improvement; a row of its own says so, and the exit
 * status follows. A requirement the candidate could not measure when the
 * baseline's verdict was an error too is worse; one the baseline did not
 * measure (an error, or skipped) is not compared. A requirement the
 * baseline measured and the candidate skipped (--only left it out) or does
 * not have at all is missing: a regression (a gate must not pass a run
 * that left out what the baseline measured) unless allow_missing says
 * otherwise, then not compared. One only the candidate has is new, listed
 * in a note, not compared. A metric is matched the same way: one the
 * baseline measured that the candidate's requirement lacks is a WORSE row
 * (not compared with allow_missing), one only the candidate has a note.
 * A requirement whose limits (a bound, its
 * confidence, a limit added or removed), probe parameters, policy and
 * priority, CPU, load or sample plan (iterations, runs, warmup, duration)
 * differ is changed: a row of its own names each difference, its verdicts
 * are not compared (never better nor worse), and it is a regression unless
 * allow_changed; its figures are compared as usual.
 */
#ifndef RTC_COMPARE_H
#define RTC_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/report.h"

/* --tolerance's default: 0.5, half the baseline value (docs/fleet.md says why). */
#define CMP_DEFAULT_TOLERANCE 0.5
/* --significance's default: 1 - the interval's coverage (docs/fleet.md). */
#define CMP_DEFAULT_SIGNIFICANCE 0.05

/* How compare judges: the relative tolerance, the test's significance
 * level, and whether an inconclusive figure is let through (exit 0). */
struct cmp_opts {
	double tolerance;
	double significance;
	bool allow_inconclusive;
	bool allow_missing;   /* a requirement missing from the candidate is not compared */
	bool allow_changed;   /* a changed requirement is let through (exit 0) */
};

struct cmp_figure;
enum cmp_outcome { CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_INCONCLUSIVE, CMP_NOT_COMPARED,
		   CMP_CHANGED };
/* "same", "better", "WORSE", "INCONCLUSIVE", "not compared", "CHANGED" */
const char *cmp_outcome_name(enum cmp_outcome o);
/* A figure's outcome as the reports show it: cmp_outcome_name, and
 * "inconclusive (not worse)" for an inconclusive figure that cannot be
 * worse (may_be_worse false). */
const char *cmp_figure_outcome(const struct cmp_figure *f);

/* The interval of a figure's ratio, candidate / baseline, from the two
 * sides' per-run values (cmp_ratio_interval):
 *   - the same values on both sides (a run compared with itself, or a copy
 *     of it): exactly 1, nothing to estimate;
 *   - else Welch's t-interval for the difference of the mean logarithms
 *     (each side its own variance, Welch-Satterthwaite's degrees of
 *     freedom), mapped back by exp: an interval of the ratio of the sides'
 *     geometric means. With trim (a tail figure, whose per-run values are
 *     run maxima: one run that met a burst is common) it is Yuen's
 *     version: 20 % of each side's values (rounded down: none of 3 or 4
 *     runs) trimmed from each end of the mean, the variance winsorized,
 *     the kept values' count h in place of n. With one run on a side, the
 *     other side's variance
 *     is taken for both (its runs show the noise between runs), with its
 *     n - 1 degrees of freedom; with one run on each, no interval (have
 *     false). No spread on either side gives a point;
 *   - a value not above zero (a count of 0, a signed mean) has no
 *     logarithm: then the t-interval is of the difference of the means,
 *     as a ratio to the baseline mean (1 + difference / |baseline|), and
 *     have is false when that mean is 0. */
struct cmp_interval {
	bool have;            /* an interval could be built */
	bool exact;           /* the same values on both sides: [1, 1] */
	bool log;             /* on the logarithms (else on the values) */
	bool trimmed;         /* Yuen's trimming removed values */
	double level;         /* two-sided coverage, 1 - significance */
	double lo, hi;        /* of the ratio candidate / baseline */
	double lo1, hi1;      /* the one-sided bounds at level (each alone covers it) */
	double df;            /* the t distribution's; 0 for a point */
	size_t runs_base, runs_cand;
};
/* The interval at level (0 < level < 1) of vc's values over vb's (1 to
 * RTC_MAX_RUNS each), trimmed or not. Returns 0 or -EINVAL. */
int cmp_ratio_interval(const double *vb, size_t nb, const double *vc, size_t nc, double level,
		       bool trim, struct cmp_interval *out);
/* Widen iv to cover the ratio of the figure itself, cand / base (on the
 * values: 1 + difference / |base|), when it lies outside: a figure's
 * per-run values stand in for it (each run's mean for p50, each run's
 * largest sample for p99), and a figure that moved where its stand-ins
 * did not (or not as far) must not be called the same, nor worse or
 * better on the stand-ins' word alone. Returns whether it widened (then
 * not exact); nothing when there is no interval or no ratio. */
bool cmp_interval_cover(struct cmp_interval *iv, double base, double cand);
/* The band of ratios the tolerance calls the same: [1 / (1 + t), 1 + t]
 * on the logarithms (symmetric: swapping the files swaps worse and better),
 * [1 - t, 1 + t] on the values. */
void cmp_tolerance_band(const struct cmp_interval *iv, double tolerance, double *lo, double *hi);
/* The rule: the interval inside the band, the same; wholly beyond it in
 * the bad direction (up; down with lower_is_worse), worse; wholly beyond
 * it the other way, better; across one of its ends (or no interval),
 * inconclusive. */
enum cmp_outcome cmp_interval_outcome(const struct cmp_interval *iv, double tolerance,
				      bool lower_is_worse);
/* Whether a figure may be worse than the tolerance allows: its one-sided
 * bound at the level in the bad direction (hi1; lo1 with lower_is_worse)
 * lies past the band's end, or there is no interval. The gate's question
 * is one-sided (is a regression beyond the tolerance ruled out?), so it
 * is asked of the one-sided bound; an inconclusive figure that is ruled
 * out so does not fail the comparison. */
bool cmp_interval_may_be_worse(const struct cmp_interval *iv, double tolerance,
			       bool lower_is_worse);
/* Student's t distribution with df > 0 degrees of freedom (not only
 * whole): P(T <= t), and the t with P(T <= t) = p (0 < p < 1). */
double cmp_t_cdf(double t, double df);
double cmp_t_quantile(double p, double df);

/* How a requirement's verdict moved from base to cand: CMP_WORSE up the
 * order of verdict_rank (pass -> fail, pass -> error, fail -> error, and
 * pass -> inconclusive, inconclusive -> fail: a budget no longer shown to
 * hold, or shown missed; a regression whatever the figures say),
 * CMP_BETTER down it (fail -> pass, error -> pass, error -> fail,
 * inconclusive -> pass, fail -> inconclusive), CMP_SAME when it stayed, and
 * CMP_NOT_COMPARED when either side skipped it (a skip judges nothing). */
enum cmp_outcome cmp_verdict_change(enum verdict base, enum verdict cand);

/* One compared figure: statistic of metric of requirement id; or, with
 * verdict_row, the verdict of requirement id that changed. */
struct cmp_figure {
	const char *id, *metric, *statistic;      /* point into the views */
	const char *file;                         /* the candidate's file name */
	enum qty_unit unit;
	bool limited;                             /* a limit is on this statistic */
	bool lower_is_worse;
	bool typical;                             /* base and cand are the typical run's */
	double base, cand;                        /* the two values (when compared) */
	size_t runs_base, runs_cand;              /* per-run values of each side */
	bool tested;                              /* judged by an interval: iv holds */
	struct cmp_interval iv;                   /* of cand / base */
	bool may_be_worse;                        /* of an inconclusive figure: its
						   * interval (or its lack) leaves room for
						   * worse; it then fails the comparison
						   * unless allowed */
	double allowed;                           /* the tolerance: the change allowed
						   * either way */
	enum cmp_outcome outcome;
	char *note;                               /* why not compared, what differs; may be NULL */
	const struct rv_metric *mb, *mc;          /* the metrics (histograms), NULL for a row
						   * without them */
	const struct rv_req *req;                 /* the candidate's requirement: its limits
						   * are drawn on the histograms */
	bool verdict_row;                         /* the requirement's verdict changed:
						   * vbase -> vcand, outcome cmp_verdict_change */
	bool decides;                             /* the figure of the limit that decided a
						   * verdict change (the worse side's,
						   * rv_req_deciding_limit) */
	enum verdict vbase, vcand;                /* the verdicts, of a verdict row or of a
						   * figure that decides */
	bool missing_row;                         /* a requirement the baseline measured
						   * that the candidate skipped or lacks:
						   * outcome CMP_WORSE, CMP_NOT_COMPARED
						   * with allow_missing */
	bool changed_row;                         /* a requirement whose limits or
						   * measurement differ: vbase, vcand,
						   * outcome CMP_CHANGED, note says what */
};

struct cmp_result {
	struct cmp_figure *f;
	size_t n, cap;
	size_t worse, inconclusive, better, same, not_compared;   /* figures */
	size_t inconclusive_worse;                /* inconclusive figures that may be worse */
	size_t verdicts_worse, verdicts_better, verdicts_same;   /* of requirements both
								  * judged */
	size_t missing;                           /* missing_row rows */
	size_t changed;                           /* changed_row rows */
	char **notes;                             /* run-level remarks, in order */
	size_t nnotes;
	struct cmp_opts opts;
	const struct report_view *base, *cand;
	const char *base_path, *cand_path;
};

/* Compare cand against base as opts say. Returns 0, or
 * -EINVAL when the two cannot be compared (no requirement measured in both;
 * a requirement whose probe, a metric's kind or a limit's unit differs),
 * with the reason in err, or -ENOMEM. out is to be freed with
 * cmp_result_free either way. */
int cmp_views(const struct report_view *base, const struct report_view *cand,
	      const struct cmp_opts *opts, struct cmp_result *out, char *err, size_t errlen);
void cmp_result_free(struct cmp_result *r);

/* 0 no verdict and no figure worse, no requirement missing from the
 * candidate or changed, nor a figure inconclusive (each but a worse one
 * unless allowed), 1 otherwise. */
int cmp_exit_status(const struct cmp_result *r);

/* The files `compare -o DIR` writes into DIR: what each is named, and how
 * a directory holding a comparison is recognised (output/lock.c). */
#define CMP_TEXT "compare.txt"
#define CMP_JUNIT "junit.xml"
#define CMP_HTML "compare.html"

/* The reports of a comparison, rendered into a malloc'd buffer (*len
 * bytes), or NULL when out of memory: the text table (stdout and
 * compare.txt), junit.xml (one testcase per figure) and compare.html (the
 * table, then per metric with a changed figure both histograms overlaid). */
char *cmp_render_text(const struct cmp_result *r, size_t *len);
char *cmp_render_junit(const struct cmp_result *r, size_t *len);
char *cmp_render_html(const struct cmp_result *r, size_t *len);

/* What the text table and compare.html both show (compare_text.c): the
 * cells of a figure's row as text ("-" where there is no value), and the
 * rule in a sentence. */
struct cmp_row_text {
	char base[64], cand[64], change[64], allowed[64], interval[64];
};
void cmp_row_text(const struct cmp_figure *f, struct cmp_row_text *t);
void cmp_rule_text(const struct cmp_result *r, char *buf, size_t len);
/* The sentence of a figure (compare_text.c): "per-op max 1.2 us -> 1.9 us
 * (+58.3%), allowed +600 ns, interval x1.31..x1.82: WORSE", or why it was not
 * compared. */
void cmp_figure_sentence(const struct cmp_figure *f, char *buf, size_t len);

#endif
