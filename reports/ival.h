/* SPDX-License-Identifier: Apache-2.0 */
/* ival.h - what the reports say of a requirement's intervals (ival.c).
 *
 * A run by time, or any run with --interval, keeps one histogram per
 * interval beside the total (report.h, struct rv_ival). report.html plots
 * them over time (html_time.c), the CSV export lists them (intervals.csv)
 * and summary.txt gives one line per requirement; all three say which
 * interval breached which limit, where it was, and in which interval the
 * kernel trace was taken, by the rules here (docs/reports.md).
 */
#ifndef RTC_REPORTS_IVAL_H
#define RTC_REPORTS_IVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/units.h"
#include "reports/report.h"

/* An interval's start as results.json writes it, UTC to the millisecond:
 * "2026-12-02T01:02:03.456Z"; "" for a time not known (0 or before). */
void rv_fmt_utc_ms(int64_t ms, char *buf, size_t len);

/* A length of time for people, in two significant digits of the largest
 * unit it reaches: "1 s", "45 s", "1 min", "1.5 h", "7 d". */
void rv_fmt_span(double seconds, char *buf, size_t len);

/* The intervals' length as asked for, as far as the view tells: an
 * interval ends at the end of a run, so it lasts at least the length; the
 * shortest of them but the last (which the requirement's end may cut
 * short), or the only one's. 0 without intervals. */
double rv_ivals_length(const struct rv_ival *iv, size_t n);

/* The seconds a metric's samples were taken over, as the reports say
 * "largest observed in N samples over T": the sum of its intervals'
 * lengths when it kept intervals, else the requirement's wall time (its
 * worker's start and warm-up included: the view keeps no other). */
double rv_metric_span_s(const struct rv_req *r, const struct rv_metric *m);

/* The one unit of duration metric m's table (its statistics and its
 * histogram's bounds): units_scale_of its largest figure. */
struct units_scale rv_metric_scale(const struct rv_metric *m);

/* "largest observed in 40,426,000 samples over 2 s" of metric m of r:
 * what a max is (a sample statistic, not a bound on the worst case). */
void rv_max_observed(const struct rv_req *r, const struct rv_metric *m, char *buf, size_t len);

/* The trend of the maxima of intervals iv[0..n) (reports/trend.h), of
 * those that have a max, into *t; *last the index in iv of the last
 * record-setting interval. False when fewer than two have a max (no trend
 * to tell) or memory ran out. */
struct trend;
bool rv_ivals_trend(const struct rv_ival *iv, size_t n, struct trend *t, size_t *last);

/* Index of statistic name s in report_view_stats, or -1 (a pNN the
 * intervals do not keep, a count's statistic). */
int rv_stat_index(const char *s);

/* The bound of limit l on duration metric m in ns: its max= (upper) or
 * min= bound; a cycles bound converted with m's scales. False when l has
 * no such bound, it is a count, or a cycles bound without m's cycles
 * scale, or it is not a positive finite time. The one conversion
 * report.html's limit lines (html_limit_lines) and the intervals' breaches
 * use. */
bool rv_limit_bound_ns(const struct rv_limit *l, const struct rv_metric *m, bool upper,
		       double *ns);

/* Whether interval iv (of metric m, or of a CPU's series of m) lies beyond
 * limit l: l is on m, its statistic one the intervals keep, and iv's own
 * value of that statistic is above its max= or below its min= bound. A
 * limit whose statistic iv has no value of (too few samples) is not
 * breached. */
bool rv_ival_beyond(const struct rv_limit *l, const struct rv_metric *m, const struct rv_ival *iv);

/* The first limit of r that iv (of metric m) lies beyond, or SIZE_MAX. */
size_t rv_ival_breach(const struct rv_req *r, const struct rv_metric *m, const struct rv_ival *iv);

/* Whether iv's statistic `stat` (an index of report_view_stats) lies beyond
 * a limit of r on m on that statistic. */
bool rv_ival_stat_beyond(const struct rv_req *r, const struct rv_metric *m,
			 const struct rv_ival *iv, int stat);

/* The interval of metric m that r's kernel trace was taken in, or
 * SIZE_MAX when r saved no trace (r->trace NULL), the trace tripped on
 * another metric, or it cannot be told. The time a trace tripped is not
 * kept; its note says the metric, the sample and the trip ("trace: tripped
 * by per-op 87.09 us > 50 us in run 1"), and the trace is of the largest
 * breach its budget reached (harness/trace.h), so it was taken in the
 * first interval whose max is above the trip and as large as the sample
 * (within the note's rounding).
 * *trip_ns (may be NULL) gets the trip when the note gives it (else 0). */
size_t rv_ival_traced(const struct rv_req *r, const struct rv_metric *m, double *trip_ns);

/* Which sample a trace note says its trace explains, and how it ranks
 * against the max (harness/trace.c writes the note): "wakeup in run 1 (sample
 * 512 of the run on CPU 1): the max itself; the largest of 3 breaches the trace
 * stopped at (2 superseded, at most 8)" into buf; false when the note is
 * not a tripped trace's, or one written before traces kept the worst
 * breach (no rank: "... in run 2; explained: ..."). For the terminal's and report.html's "why". */
bool rv_trace_sample(const char *note, char *buf, size_t len);

#endif
