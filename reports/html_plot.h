/* SPDX-License-Identifier: Apache-2.0 */
/* html_plot.h - the pictures of report.html (html_plot.c): a metric's
 * log-log histogram with its limits, and one small histogram per CPU for
 * probes that keep them (timer-wakeup); and the rule for drawing a
 * requirement's limits on a histogram, which compare.html (across/) draws
 * with too.
 */
#ifndef RTC_HTML_PLOT_H
#define RTC_HTML_PLOT_H

#include <stddef.h>

#include "reports/report.h"
#include "reports/svg.h"
#include "reports/xmlw.h"

/* ---- limits on a histogram --------------------------------------------
 *
 * The one rule for drawing a requirement's limits on a histogram's time
 * axis, report.html's and compare.html's (across/compare_html.c): each
 * bound a dashed vertical line, green when its limit was met, red when
 * not, labelled in its colour above the plot; a bound within a decade of
 * the data widens the axis to it, one further away is named at the edge
 * with an arrow, so a generous budget does not squash the samples into a
 * few pixels. */

/* A limit's bound on the time axis; ns < 0 is a min= bound at -ns. */
struct html_limit_line {
	double ns;
	bool passed;     /* its limit's verdict is pass */
	char label[96];  /* "p99 ≤ 100 µs" */
};

/* The bounds of r's limits on metric m, at most max, into out; how many.
 * A cycles limit is converted with the metric's own scales; without a
 * cycles scale it has no place on a time axis and is left out. */
size_t html_limit_lines(const struct rv_req *r, const struct rv_metric *m,
			struct html_limit_line *out, size_t max);

/* The value axis of data from dmin to dmax (ns): widened as
 * html_limits_widen says, to 1-2-5 steps and to at least one decade, into
 * *lo .. *hi. Every log value axis of report.html is spanned so. */
void html_value_span(double dmin, double dmax, const struct html_limit_line *lines, size_t nlines,
		     double *lo, double *hi);

/* The 1-2-5 step at or below v (v itself when it has no decade). */
double html_nice_floor(double v);

/* Widen the data's span *lo .. *hi (ns) to every bound within a decade of
 * it (and 2 % past a bound above, so its line is inside the plot). */
void html_limits_widen(const struct html_limit_line *lines, size_t nlines, double *lo, double *hi);

/* Where the lines go: the value axis (its ends lo .. hi, ns; its line at
 * axis->y is the plot's bottom), the plot's top, and whether there is room
 * for labels (a small picture draws the lines alone). */
struct html_limit_place {
	const struct svg_log_axis *axis;
	double lo, hi;
	double top;
	bool labels;
};
/* The lines, labelled two rows above place->top (its top - 31 and - 13). */
void html_limit_draw(struct xw *x, const struct html_limit_line *lines, size_t nlines,
		     const struct html_limit_place *place);

/* The SVG histogram of duration metric m of requirement r. */
void html_histogram(struct xw *x, const struct rv_req *r, const struct rv_metric *m);

/* One small histogram per CPU of r->metrics[0], on the merged histogram's
 * value axis and one count axis for all, so the CPUs compare at a glance;
 * or a sentence saying the report's source did not carry them. Nothing
 * without per-CPU series. */
void html_cpu_plots(struct xw *x, const struct rv_req *r);

/* A requirement's intervals over time (html_time.c): max and p99 of each
 * interval of duration metric m on a log value axis against UTC, its
 * limits, the intervals beyond a limit and the one the kernel trace was
 * taken in marked, in a <figure> with its caption. Nothing unless m has 2
 * or more intervals. */
void html_time_plot(struct xw *x, const struct rv_req *r, const struct rv_metric *m);

/* The same of each CPU's max (timer-wakeup's per-CPU series of
 * r->metrics[0]), one line per CPU with a legend, on the axes of
 * html_time_plot's. Nothing unless the series have 2 or more intervals. */
void html_time_cpu_plot(struct xw *x, const struct rv_req *r);

/* A time as report.html writes it: units_fmt_ns with the micro sign. */
void html_fmt_ns(double ns, char *buf, size_t len);

/* report.html writes figures in the HTML spelling of the unit rule
 * (units_html: "µs", "≤", "≥") in buf, formatted by units_fmt_ns,
 * units_fmt_qty or a judge's sentence, as far as len allows. */
void html_micro(char *buf, size_t len);

/* xw_text of s with html_micro applied (s may be any length). */
void html_text_micro(struct xw *x, const char *s);

/* A table cell <td class="cls"> (no class: cls NULL) holding text, its
 * microseconds as html_text_micro writes them. */
void html_cell(struct xw *x, const char *cls, const char *text);

/* The "why" block of a requirement whose traced breach was explained
 * (html_why.c): its headline, the largest parts as a stacked bar, a table
 * of every component and the sum check; nothing without an explanation. */
void html_why(struct xw *x, const struct rv_req *r);

#endif
