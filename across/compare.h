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
 *   - the test: Mann-Whitney U (Wilcoxon rank sum) on the two sides'
 *     per-run values, two-sided, at the significance level; its p is exact
 *     (the permutation distribution of the midrank sum, ties included) for
 *     up to CMP_MWU_EXACT_MAX runs in all, else the normal approximation
 *     with the tie correction;
 *   - worse: the figure moved in its bad direction (up; down for a figure
 *     whose only limit is a minimum) by more than tolerance x |baseline|
 *     AND the test finds the runs differ that way; better when both hold
 *     the other way; the same when it moved by no more than the tolerance
 *     and the test could have found a change (enough runs on both sides);
 *   - inconclusive: the runs cannot decide: too few runs for the test to
 *     reach the significance level even when the two sides do not overlap,
 *     a move beyond the tolerance the test does not find significant (or
 *     finds the other way), or a side without per-run values whose figure
 *     differs from the other's. It gates like worse unless allowed;
 *   - exact, without a test: a count whose baseline is zero in every run
 *     (an event that must never happen: its first occurrence is worse), and
 *     a figure whose every run on both sides has one value (the same).
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
 * in a note, not compared.
 */
#ifndef RTC_COMPARE_H
#define RTC_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/report.h"

/* --tolerance's default: 0.5, half the baseline value (docs/fleet.md says why). */
#define CMP_DEFAULT_TOLERANCE 0.5
/* --significance's default: the test's two-sided level (docs/fleet.md). */
#define CMP_DEFAULT_SIGNIFICANCE 0.05
/* Up to this many runs of both sides together the test's p is exact. */
#define CMP_MWU_EXACT_MAX 60

/* How compare judges: the relative tolerance, the test's significance
 * level, and whether an inconclusive figure is let through (exit 0). */
struct cmp_opts {
	double tolerance;
	double significance;
	bool allow_inconclusive;
	bool allow_missing;   /* a requirement missing from the candidate is not compared */
};

enum cmp_outcome { CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_INCONCLUSIVE, CMP_NOT_COMPARED };
/* "same", "better", "WORSE", "INCONCLUSIVE", "not compared" */
const char *cmp_outcome_name(enum cmp_outcome o);

/* Mann-Whitney U of y against x. */
enum cmp_mwu_method { CMP_MWU_AUTO, CMP_MWU_EXACT, CMP_MWU_NORMAL };
struct cmp_mwu {
	double u;          /* U of y: pairs (x, y) with y > x, plus half the ties */
	double p;          /* two-sided p of the ranks' difference */
	double p_best;     /* the smallest two-sided p these run counts allow */
	int direction;     /* 1 y ranks above x, -1 below, 0 neither */
	bool exact;        /* p from the exact permutation distribution */
};
/* The test on x[0..nx) and y[0..ny) (both > 0) by method (AUTO: exact up
 * to CMP_MWU_EXACT_MAX values in all, else the normal approximation with
 * the tie correction; EXACT: up to CMP_MWU_EXACT_MAX values; NORMAL: any).
 * Returns 0, -EINVAL for an empty side or too many values for EXACT, or
 * -ENOMEM. */
int cmp_mwu_test(const double *x, size_t nx, const double *y, size_t ny,
		 enum cmp_mwu_method method, struct cmp_mwu *out);

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
	bool tested;                              /* judged by the test: p holds */
	double p;                                 /* the test's two-sided p */
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
};

struct cmp_result {
	struct cmp_figure *f;
	size_t n, cap;
	size_t worse, inconclusive, better, same, not_compared;   /* figures */
	size_t verdicts_worse, verdicts_better, verdicts_same;   /* of requirements both
								  * judged */
	size_t missing;                           /* missing_row rows */
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
 * candidate, nor a figure inconclusive (each unless allowed), 1 otherwise. */
int cmp_exit_status(const struct cmp_result *r);

/* The files `compare -o DIR` writes into DIR: what each is named, and how
 * a directory holding a comparison is recognised (cli/outdir.c). */
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
	char base[64], cand[64], change[64], allowed[64], p[32];
};
void cmp_row_text(const struct cmp_figure *f, struct cmp_row_text *t);
void cmp_rule_text(const struct cmp_result *r, char *buf, size_t len);
/* The sentence of a figure (compare_text.c): "per-op max 1.2 us -> 1.9 us
 * (+58.3%), allowed +600 ns, p 0.0079: WORSE", or why it was not compared. */
void cmp_figure_sentence(const struct cmp_figure *f, char *buf, size_t len);

#endif
