/* SPDX-License-Identifier: Apache-2.0 */
/* run_metrics.h - `rtconform run --metrics FILE`: the run's live figures in
 * Prometheus text (reports/openmetrics.h), FILE replaced atomically at the
 * start, after the runs of a requirement (at most once a second), when a
 * requirement ends and at the end (docs/reports.md, "Live metrics"). */
#ifndef RTC_RUN_METRICS_H
#define RTC_RUN_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "host/fingerprint.h"
#include "reports/openmetrics.h"

/* Seconds at least between two versions of FILE while a requirement runs
 * (its start and end, and the run's, always write one). */
#define RUN_METRICS_GAP_S 1.0

struct run_metrics {
	bool on, warned;
	const char *path;
	const struct requirement **req; /* of each of run.reqs, to find a result's */
	struct om_req *reqs;
	struct om_run run;
	char host[256], hostname[256];
	double last;                    /* monotonic seconds of the last write */
};

/* Begin: every requirement of the files that selected(only, id) says is
 * measured listed as pending, the host named by env's host.label, else its
 * host.name; FILE written. path NULL: nothing is done, now or later. A
 * failed write is said once on stderr; the run goes on. */
void run_metrics_begin(struct run_metrics *rm, const char *path, struct req_file **files,
		       size_t nfiles, bool (*selected)(const char *only, const char *id),
		       const char *only, const struct fingerprint *env, time_t started);
/* A run of the requirement of `partial` ended (run_options.checkpoint). */
void run_metrics_checkpoint(struct run_metrics *rm, const struct req_result *partial);
/* The requirement of r ended (measured, or an error without measuring). */
void run_metrics_finished(struct run_metrics *rm, const struct req_result *r);
/* The run is over: the last version, then forget everything. */
void run_metrics_end(struct run_metrics *rm);

#endif
