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

/* Fixed costs besides the probe's own: starting a worker (exec, mlockall,
 * prefaulting, the kernel checks) once per requirement, and the
 * bookkeeping around each run. */
#define ESTIMATE_REQ_OVERHEAD_S 0.05
#define ESTIMATE_RUN_OVERHEAD_S 0.001

/* The kernel's RT throttling as the worker's guard sees it (probe_guard.c):
 * the busy seconds it allows between rests and the rest; budget_s 0: no
 * guard (throttling off). estimate_guard_of_machine reads this machine's
 * sched_rt_runtime_us and sched_rt_period_us as the worker does. */
struct estimate_guard {
	double budget_s, rest_s;
};
void estimate_guard_of_machine(struct estimate_guard *g);

/* Seconds requirement r is expected to take under options o (NULL: the
 * file's counts) on a machine whose guard is g (NULL: none): by time, its
 * warm-up and duration; by count, runs x (iterations x the probe's seconds
 * an iteration + its seconds a run + the run overhead above), plus its
 * warm-up (iterations, or one more run: struct probe_pace), the worker's
 * start, and the rests the RT throttling guard takes between the runs of a
 * probe it guards (probe_rt_guarded: a real-time policy and a probe that
 * does not mostly sleep), counted with the guard's own rule. The probe's
 * pace is its declaration's (probe_decl.pace) for r's parameter values.
 * Counts and duration are the ones the runner uses (runner_counts,
 * runner_duration). 0 for a probe it does not know. */
double estimate_requirement_s(const struct requirement *r, const struct run_options *o,
			      const struct estimate_guard *g);

/* The sum over the requirements of file f. */
double estimate_file_s(const struct req_file *f, const struct run_options *o,
		       const struct estimate_guard *g);

/* The pace of probe d for requirement r's parameter values (r NULL: the
 * defaults), into *out; false when d declares none. */
bool estimate_probe_pace(const struct probe_decl *d, const struct requirement *r,
			 struct probe_pace *out);

#endif
