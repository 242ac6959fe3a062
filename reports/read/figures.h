/* SPDX-License-Identifier: Apache-2.0 */
/* figures.h - a view read from a results.json held to its own figures
 * (figures.c): the verdicts must be the ones the harness's rules give for
 * the stored numbers, and the statistics ordered as any sample set's are.
 * Private to the reader (json_read.c calls it once the file is read). */
#ifndef RTC_READ_FIGURES_H
#define RTC_READ_FIGURES_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "reports/report.h"

/* Two statistics of one sample set are compared with a relative slack of
 * 1e-9: each is exact or one rounding of a double away from exact (a
 * percentile, min or max is a sample times the scale; a mean is a sum over
 * a count, times the scale), so one that ought to equal or bound another
 * can miss it by a few units in the last place (1e-16 relative), never by
 * 1e-9; a file edited to disagree misses it by far more. */
#define FIG_SLACK 1e-9
/* a <= b, and a == b, within that slack */
static inline bool fig_not_above(double a, double b)
{
	return a <= b + FIG_SLACK * fmax(fabs(a), fabs(b));
}
static inline bool fig_about_equal(double a, double b)
{
	return fabs(a - b) <= FIG_SLACK * fmax(fabs(a), fabs(b));
}

/* Where a check of one requirement's figures (figures_runs.c,
 * figures_hist.c) puts its refusal: the field below the requirement in at,
 * why in why. */
struct fig_refusal {
	char *at, *why;
	size_t atlen, whylen;
};
/* Refuse field with a reason (printf's format). Returns false. */
bool fig_refuse(struct fig_refusal *c, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The present figures of r's batch.per_run_ns: how many, their sum and
 * largest magnitude (the slack of a mean or spread checked against them). */
unsigned fig_batch_sum(const struct rv_req *r, long double *sum, long double *big);

/* 0 when every verdict of v agrees with its figures; else -EINVAL with the
 * JSON path of the first field that does not in at ("files[0].
 * requirements[3].limits[0].verdict") and why in why (its value first). */
int read_check_figures(const struct report_view *v, char *at, size_t atlen, char *why,
		       size_t whylen);

/* The figures r states twice agree (figures_runs.c): each duration
 * metric's runs (samples adding up to its count, no run max above its max
 * nor run mean or max below its min, the count-weighted run means giving
 * its mean, the largest run max its max, runs-mean-stddev the spread of
 * the run means), a count metric's runs adding up to its total, the per-CPU
 * series of metrics[0] likewise, batch.mean_ns the mean of per_run_ns, and
 * no duration below zero in a metric without samples below zero. A
 * requirement that is an error may hold part of a run in its totals only:
 * its runs add up to at most them. false with the field (below the
 * requirement: "metrics[0].runs[2].max_ns") in at and why in why. */
bool read_check_parts(const struct rv_req *r, char *at, size_t atlen, char *why, size_t whylen);

/* The statistics r states twice agree (figures_hist.c): each duration
 * metric's and per-CPU series' percentiles, min, max and mean (a
 * metric's stddev too) with its histogram (where it holds every sample and none below zero),
 * statistics_cycles with statistics_ns, median_ns with p50, a count
 * metric's min, max and mean with its runs (but in an error), and
 * batch.stddev_ns with per_run_ns. As read_check_parts. */
bool read_check_stats(const struct rv_req *r, char *at, size_t atlen, char *why, size_t whylen);

#endif
