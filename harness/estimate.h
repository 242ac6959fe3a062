/* SPDX-License-Identifier: Apache-2.0 */
/* estimate.h - how long a requirement is expected to take, before it runs:
 * for `rtconform list --profiles`. An estimate, never a promise nor a
 * limit: a probe's cost per iteration varies by machine and load, so what
 * prints it says "about N s (estimate)". The one rule for it is here. */
#ifndef RTC_ESTIMATE_H
#define RTC_ESTIMATE_H

#include <stdbool.h>

#include "harness/runner.h"
#include "requirements/model.h"

/* Fixed costs besides the measurement: starting a worker (exec, mlockall,
 * prefaulting, the kernel checks) once per requirement, and the
 * bookkeeping around each run. */
#define ESTIMATE_REQ_OVERHEAD_S 0.05
#define ESTIMATE_RUN_OVERHEAD_S 0.001

/* Seconds requirement r is expected to take under options o (NULL: the
 * file's counts): by time, its duration; by count, runs x iterations x the
 * probe's time per iteration (or runs x its time per run, for a probe
 * paced by a per-run parameter), plus its warm-up and the overheads
 * above. Counts and duration are the ones the runner uses (runner_counts,
 * runner_duration). 0 for a probe it does not know. */
double estimate_requirement_s(const struct requirement *r, const struct run_options *o);

/* The sum over the requirements of file f. */
double estimate_file_s(const struct req_file *f, const struct run_options *o);

/* Whether the estimate has a pace for probe `name` (every probe must:
 * unit.estimate checks the probe table against it). */
bool estimate_knows_probe(const char *name);

#endif
