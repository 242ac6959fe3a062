/* report.h - what report writers get, and the writers.
 *
 * A run produces one report_run: the requirement files in command-line
 * order, each with the results of its requirements, plus the environment.
 * Writers never measure and never change results. Each writer writes to a
 * temporary file in the target directory and renames it into place, so a
 * killed rtconform never leaves a truncated report.
 */
#ifndef RTC_REPORT_H
#define RTC_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <locale.h>
#include <stdio.h>
#include <time.h>

#include "harness/runner.h"
#include "harness/measure/timebase.h"
#include "host/fingerprint.h"
#include "base/numfmt.h"

struct report_file {
	const struct req_file *file;
	struct req_result *results; /* file->nreqs entries */
	size_t nresults;            /* results that exist (== nreqs, or fewer with --only) */
};

struct report_run {
	struct report_file *files;
	size_t nfiles;
	const struct timebase *tb;
	const struct fingerprint *env;
	time_t started, ended;       /* UTC */
	const char *command_line;    /* exact command, shell-quoted */
};

/* Counts over every result. */
struct report_totals {
	size_t tests, passed, failures, errors, skipped;
	double seconds;
};
void report_totals(const struct report_run *run, const struct report_file *only,
		   struct report_totals *t);
/* Count one result of verdict v that took `seconds` into t. */
void report_totals_add(struct report_totals *t, enum verdict v, double seconds);


/* Exit status of a run: 3 if any error, else 1 if any failure, else 0. */
int report_exit_status(const struct report_run *run);

/* junit.xml via libxml2's xmlTextWriter. Returns 0 or -errno / -1 with a
 * message in err. Atomic (temp file + rename). */
int report_write_junit(const struct report_run *run, const char *path,
		       char *err, size_t errlen);

/* The verdict table (id, probe, policy, each limit vs measured, verdict),
 * as in summary.txt and on stdout. */
void report_write_text(const struct report_run *run, FILE *out);
int report_write_summary(const struct report_run *run, const char *path,
			 char *err, size_t errlen);

/* ASCII histogram + statistics of one result, as in <system-out> and
 * `rtconform probe`. */
void report_write_result_detail(const struct req_result *r, FILE *out);

/* The seeds' batch figure of a result (total time / N, loop overhead
 * subtracted), beside the per-sample statistics: for each run,
 * (t_end - t_begin) / iterations ticks minus res->loop_ticks, scaled by
 * metric 0's ns_per_unit. Gives the mean and the sample stddev (0 with one
 * run) over the runs that took samples. Returns how many runs that was; 0
 * (and 0s) when there is nothing to compute from. */
unsigned report_batch_ns(const struct req_result *r, double *mean_ns, double *stddev_ns);
/* The batch figure of run `run` alone; false when that run took no samples. */
bool report_batch_run_ns(const struct req_result *r, uint32_t run, double *ns);
/* Runs a result completed (0 without result memory), at most RTC_MAX_RUNS. */
uint32_t report_runs_done(const struct req_result *r);
/* "fifo:99", "rr:max" (not yet resolved), "other". */
void report_policy_text(const struct req_result *r, char *buf, size_t len);

/* Metrics a result holds (0 without result memory). */
unsigned report_nmetrics(const struct req_result *r);

/* Name of metric i of a result: the probe's ("per-op"), or "m<i>" when the
 * probe or that metric is unknown. Returns a pointer to the probe's string
 * or to buf. */
const char *report_metric_name(const struct req_result *r, unsigned i,
			       char *buf, size_t len);

/* ---- the report view ----------------------------------------------------
 *
 * What report.html and results.json show, as plain data. `run` fills it from
 * the results (report_view_from_run); `rtconform report` fills it from a
 * junit.xml that `run` wrote (report_view_from_junit). Both give the same
 * view for the same run, so the HTML and JSON rendered from either are the
 * same bytes: every number in a view is exactly what junit.xml's property
 * text parses back to (statistics rounded to 0.001 ns as the properties
 * print them, scales printed with 17 significant digits), and every string is
 * cleaned to what XML 1.0 allows, as junit.xml carries it.
 * docs/reports.md lists the properties.
 */

/* The statistics every report gives for each metric, in this order. */
#define RV_NSTATS 9
extern const char *const report_view_stats[RV_NSTATS];

struct rv_value {
	bool have; /* false: could not be computed (too few samples, ...) */
	double v;
};

struct rv_bucket {
	uint64_t lo, hi, count; /* inclusive bounds, in the metric's units */
};

struct rv_metric {
	char *name;
	uint64_t count, overflow;
	uint64_t highest;              /* largest value a bucket holds, units */
	double ns_per_unit, cycles_per_unit; /* cycles_per_unit 0: no cycles */
	struct rv_value ns[RV_NSTATS], cycles[RV_NSTATS];
	struct rv_bucket *buckets;     /* non-empty buckets, ascending */
	size_t nbuckets;
	size_t nruns;                  /* runs completed */
	uint64_t *run_count;           /* samples of each run */
	struct rv_value *run_mean_ns;  /* mean of each run (absent without samples) */
};

struct rv_limit {
	char *metric;                  /* resolved: the probe's first when the file named none */
	char *statistic;               /* canonical name: "p99.9" */
	bool has_max, has_min;
	struct quantity max, min;      /* ns, or cycles */
	bool cycles;                   /* the bounds (and measured) are cycles */
	struct rv_value measured;
	enum verdict verdict;          /* of this limit alone */
	char *text;                    /* the judge's sentence, may be NULL */
};

struct rv_param {
	char *name, *value;
};

/* One CPU's histogram of the first metric, for probes that keep one per CPU
 * (timer-wakeup): min, mean, max, p99 in ns. */
#define RV_NSERIES_STATS 4
extern const char *const report_view_series_stats[RV_NSERIES_STATS];

struct rv_series {
	int cpu;
	uint64_t count;
	struct rv_value ns[RV_NSERIES_STATS];
};

struct rv_req {
	char *id, *title, *source;     /* title, source: NULL when absent */
	char *probe, *policy;          /* policy "fifo:99", "other" */
	int cpu;                       /* -1: not pinned */
	char *reason, *note, *load;    /* NULL when absent */
	struct rv_param *params;       /* effective values, defaults applied */
	size_t nparams;
	enum verdict verdict;
	double seconds;
	bool measured;                 /* there are metrics (the worker reported) */
	uint32_t runs;                 /* runs completed */
	struct rv_value batch_mean_ns, batch_stddev_ns;
	struct rv_value *batch_run_ns; /* runs entries */
	struct rv_limit *limits;
	size_t nlimits;
	struct rv_metric *metrics;
	size_t nmetrics;
	struct rv_series *series;      /* per CPU, of metrics[0] */
	size_t nseries;
};

struct rv_file {
	char *name, *path, *version, *sha256; /* version may be NULL */
	struct rv_req *reqs;
	size_t nreqs;
};

struct report_view {
	struct rv_file *files;
	size_t nfiles;
	struct fingerprint env;        /* environment, in junit.xml's order */
};

/* Fill v from a finished run. Returns 0 or -ENOMEM (v is then empty). */
int report_view_from_run(const struct report_run *run, struct report_view *v);

/* Fill v from a junit.xml written by `rtconform run`. Parsed as safely as
 * requirements files are (no network, no DTD, no entities, DOCTYPE refused).
 * Returns 0, or -errno / -EINVAL (not a junit.xml, or not rtconform's) with a
 * message naming the file in err. */
int report_view_from_junit(const char *path, struct report_view *v,
			   char *err, size_t errlen);

void report_view_free(struct report_view *v);

/* Totals and exit status of a view, as report_totals gives for a run. */
void report_view_totals(const struct report_view *v, struct report_totals *t);
int report_view_exit_status(const struct report_view *v);

/* report.html: self-contained HTML with inline CSS and SVG. The _view form
 * renders a view; the other builds one from the run first. Atomic. Return
 * 0 or -errno with a message in err. */
int report_write_html(const struct report_run *run, const char *path,
		      char *err, size_t errlen);
/* junit.xml from a run and its view (built once by the caller). */
int report_write_junit_view(const struct report_run *run, const struct report_view *v,
			    const char *path, char *err, size_t errlen);
int report_write_html_view(const struct report_view *v, const char *path,
			   char *err, size_t errlen);
/* The HTML document into a malloc'd buffer (for tests). NULL on failure. */
char *report_html_render(const struct report_view *v, size_t *len);

/* results.json via jansson; same conventions as the HTML writers. */
int report_write_json(const struct report_run *run, const char *path,
		      char *err, size_t errlen);
int report_write_json_view(const struct report_view *v, const char *path,
			   char *err, size_t errlen);
char *report_json_render(const struct report_view *v, size_t *len);

/* Write `len` bytes to path atomically (temp file in the same directory,
 * fsync, rename). Helper for every writer. Returns 0 or -errno. */
int report_atomic_write(const char *path, const void *data, size_t len);

/* Probe that path's directory exists (creating one level for -o) and is
 * writable, before anything is measured. */
int report_check_writable(const char *path, char *err, size_t errlen);

#endif
