/* SPDX-License-Identifier: Apache-2.0 */
/* html_plot.h - the pictures of report.html (html_plot.c): a metric's
 * log-log histogram with its limits, and one small histogram per CPU for
 * probes that keep them (timer-wakeup). Internal to reports/.
 */
#ifndef RTC_HTML_PLOT_H
#define RTC_HTML_PLOT_H

#include <stddef.h>

#include "reports/report.h"
#include "reports/xmlw.h"

/* The SVG histogram of duration metric m of requirement r. */
void html_histogram(struct xw *x, const struct rv_req *r, const struct rv_metric *m);

/* One small histogram per CPU of r->metrics[0], on the merged histogram's
 * value axis and one count axis for all, so the CPUs compare at a glance;
 * or a sentence saying the report's source did not carry them. Nothing
 * without per-CPU series. */
void html_cpu_plots(struct xw *x, const struct rv_req *r);

/* report.html writes microseconds as "µs": every " us" after a digit in buf
 * (formatted by units_fmt_ns, units_fmt_qty or a judge's sentence) becomes " µs", as
 * far as len allows. */
void html_micro(char *buf, size_t len);

/* xw_text of s with html_micro applied (s may be any length). */
void html_text_micro(struct xw *x, const char *s);

#endif
