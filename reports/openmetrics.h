/* SPDX-License-Identifier: Apache-2.0 */
/* openmetrics.h - a run's live figures in the Prometheus text exposition
 * format, for node_exporter's textfile collector (`run --metrics FILE`).
 *
 * Two steps, both pure: openmetrics_summarise() takes what the metrics keep
 * of a requirement from its result (partial while it runs, final once it
 * ended): per metric the samples, their sum and max, and the count at or
 * below each of the fixed `le` bounds; openmetrics_render() turns the run's
 * summaries into the text. The families, labels and rules are in
 * docs/reports.md ("Live metrics"); the caller (cli/run_metrics.c) writes
 * the file.
 *
 * The form is the one both Prometheus's text format 0.0.4 parser (promtool
 * check metrics, node_exporter's textfile collector) and an OpenMetrics
 * 1.0.0 reader take: counters are named with their _total in the # TYPE
 * line, there is no timestamp and no _created, and the text ends with
 * "# EOF" (a comment to the 0.0.4 parser).
 */
#ifndef RTC_OPENMETRICS_H
#define RTC_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/runner.h"

/* The histogram's `le` bounds: 100 ns to 10 s in 1-2-5 steps, in ns. */
#define OM_NBOUNDS 25
extern const double openmetrics_bounds_ns[OM_NBOUNDS];

struct om_metric {
	char name[32];           /* "per-op", "page-faults" */
	enum metric_kind kind;
	/* A duration: its samples at or above zero (count, sum in s, and
	 * le[k] of them certainly <= bound k: exact except that a bucket of
	 * the histogram straddling a bound counts only in the bounds above
	 * it, so le[k] may be low, never high); max_s the largest sample of
	 * all (below zero too, as the reports give it). scaled false: the
	 * metric has no scale to seconds, and no duration series. A count:
	 * count is the runs counted, total the events, max the most in a
	 * run. */
	bool scaled;
	uint64_t count;
	double sum_s;
	bool have_max;
	double max;              /* s, or a count's events of its worst run */
	uint64_t le[OM_NBOUNDS];
	uint64_t total;
	/* A signed duration (a timer that fires early): the samples below
	 * zero, and the largest of their magnitudes in s. */
	bool is_signed;
	uint64_t early;
	double early_max_s;
};

enum om_state { OM_PENDING, OM_RUNNING, OM_DONE };

struct om_req {
	const char *suite, *id, *probe; /* the caller's strings, kept while rendering */
	enum om_state state;
	bool judged;             /* verdict holds one: false until its first run ended */
	enum verdict verdict;    /* running: so far (its limits judged on what it has) */
	uint32_t runs;           /* runs completed */
	double fraction;         /* of its planned work done, 0..1 */
	unsigned nmetrics;
	struct om_metric metrics[RTC_MAX_METRICS];
};

struct om_run {
	const char *host, *version, *commit;
	const char *hostname;    /* the host name, beside host (a label): NULL, none */
	int64_t started;         /* UTC seconds */
	bool finished;           /* the run is over: the file stays as it is */
	const struct om_req *reqs;
	size_t nreqs;
};

/* What the metrics keep of result r: its runs, metrics and fraction done
 * (judged set);
 * with running, the verdict its limits give the figures so far (r itself,
 * and its result memory, are only read), else r's verdict. suite, id,
 * probe and state are the caller's to set. */
void openmetrics_summarise(const struct req_result *r, bool running, struct om_req *out);

/* The text of the run, malloc'd with its length in *len; NULL when out of
 * memory. */
char *openmetrics_render(const struct om_run *run, size_t *len);

#endif
