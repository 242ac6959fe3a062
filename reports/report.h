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

#include <stdio.h>
#include <time.h>

#include "../harness/runner.h"
#include "../harness/timebase.h"
#include "fingerprint.h"

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

/* Metrics a result holds (0 without result memory). */
unsigned report_nmetrics(const struct req_result *r);

/* Name of metric i of a result: the probe's ("per-op"), or "m<i>" when the
 * probe or that metric is unknown. Returns a pointer to the probe's string
 * or to buf. */
const char *report_metric_name(const struct req_result *r, unsigned i,
			       char *buf, size_t len);

/* Write `len` bytes to path atomically (temp file in the same directory,
 * fsync, rename). Helper for every writer. Returns 0 or -errno. */
int report_atomic_write(const char *path, const void *data, size_t len);

/* Probe that path's directory exists (creating one level for -o) and is
 * writable, before anything is measured. */
int report_check_writable(const char *path, char *err, size_t errlen);

#endif
