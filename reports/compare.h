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
 *   - the spread of a side: 1.4826 x the median absolute deviation of its
 *     per-run values (each run's mean for mean, min, p50, p90 and
 *     runs-mean-stddev; each run's largest sample for max, stddev and p99
 *     and above; each run's count for a count): an estimate of the runs'
 *     standard deviation that one wild run cannot inflate; 0 with one run;
 *   - worse: the figure moved in its bad direction (up; down for a figure
 *     whose only limit is a minimum) by more than BOTH tolerance x |baseline|
 *     and CMP_SPREAD_FACTOR x the larger of the two sides' spreads; better
 *     when it moved as far the other way; the same otherwise.
 * A requirement the candidate could not measure (an error) is worse; one
 * it skipped, or the baseline did not measure, is not compared.
 */
#ifndef RTC_COMPARE_H
#define RTC_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/report.h"

/* --tolerance's default: 0.5, half the baseline value (docs/fleet.md says why). */
#define CMP_DEFAULT_TOLERANCE 0.5
/* The multiple of the larger per-run range a change must exceed. */
#define CMP_SPREAD_FACTOR 3

enum cmp_outcome { CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_NOT_COMPARED };
const char *cmp_outcome_name(enum cmp_outcome o); /* "same", "better", "WORSE", "not compared" */

/* One compared figure: statistic of metric of requirement id. */
struct cmp_figure {
	const char *id, *metric, *statistic;      /* point into the views */
	const char *file;                         /* the candidate's file name */
	enum qty_unit unit;
	bool limited;                             /* a limit is on this statistic */
	bool lower_is_worse;
	bool typical;                             /* base and cand are the typical run's */
	double base, cand;                        /* the two values (when compared) */
	double spread_base, spread_cand;          /* the runs' spread; 0 with < 2 runs */
	double allowed;                           /* the change allowed either way */
	enum cmp_outcome outcome;
	char *note;                               /* why not compared, what differs; may be NULL */
	const struct rv_metric *mb, *mc;          /* the metrics (histograms), NULL for a row
						   * without them */
};

struct cmp_result {
	struct cmp_figure *f;
	size_t n, cap;
	size_t worse, better, same, not_compared;
	char **notes;                             /* run-level remarks, in order */
	size_t nnotes;
	double tolerance;
	const struct report_view *base, *cand;
	const char *base_path, *cand_path;
};

/* Compare cand against base with the relative tolerance. Returns 0, or
 * -EINVAL when the two cannot be compared (no requirement measured in both;
 * a requirement whose probe, a metric's kind or a limit's unit differs),
 * with the reason in err, or -ENOMEM. out is to be freed with
 * cmp_result_free either way. */
int cmp_views(const struct report_view *base, const struct report_view *cand, double tolerance,
	      struct cmp_result *out, char *err, size_t errlen);
void cmp_result_free(struct cmp_result *r);

/* 0 no figure worse, 1 a figure worse. */
int cmp_exit_status(const struct cmp_result *r);

/* Read a results.json for comparing: a junit.xml is refused with the
 * reason (it keeps no per-run figures), as is a file holding no run. */
int cmp_read(const char *path, struct report_view *v, char *err, size_t errlen);

/* The reports of a comparison, rendered into a malloc'd buffer (*len
 * bytes), or NULL when out of memory: the text table (stdout and
 * compare.txt), junit.xml (one testcase per figure) and compare.html (the
 * table, then per metric with a changed figure both histograms overlaid). */
char *cmp_render_text(const struct cmp_result *r, size_t *len);
char *cmp_render_junit(const struct cmp_result *r, size_t *len);
char *cmp_render_html(const struct cmp_result *r, size_t *len);

#endif
