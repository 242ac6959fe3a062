/* SPDX-License-Identifier: Apache-2.0 */
/* runner_stages.h - the four stages runner_run() drives, one requirement
 * at a time:
 *
 *   prepare    (runner_prepare.c)   what to measure and where the results go
 *   spawn      (runner_spawn.c)     the worker process
 *   supervise  (runner_supervise.c) the background load, the watchdog and the
 *                                   end of every process the worker made
 *   classify   (runner_classify.c)  how the worker ended, as a verdict
 *
 * Internal to harness/ (and its tests): callers outside use runner.h. The
 * stages before a worker exists (prepare, the load start, spawn) either
 * complete or leave an `error` verdict in the result and return non-zero;
 * runner_run() then releases what the earlier ones hold with
 * runner_abandon() and stops. Once a worker exists, supervise and classify
 * always run: they cannot fail, only report how the worker ended.
 */
#ifndef RTC_RUNNER_STAGES_H
#define RTC_RUNNER_STAGES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "harness/interval.h"
#include "harness/load.h"
#include "harness/measure/probe.h"
#include "harness/runner.h"
#include "harness/trace.h"

/* One requirement on its way through the stages. */
struct runner_job {
	struct probe_ctx c;      /* what the worker measures (also in res->spec) */
	int res_fd;              /* the result memory's memfd; -1 once spawn closed it */
	char worker_path[1200];  /* rtconform-worker; "": measure in the forked child */
	struct load_proc load;   /* the background load (runs nothing without one) */
	struct trace_job trace;  /* trace on breach (trace.h): nothing armed without one */
	double t_start;          /* monotonic seconds when the requirement began */
	double t_spawn;          /* ... just before the fork: the watchdog starts here */
	pid_t pid;               /* the worker = its process group id */
	/* The journal's checkpoint eventfds (probe_checkpoint): the worker
	 * signals ask, the supervisor answers on go; -1 without a journal. */
	int ckpt_ask, ckpt_go;
	struct interval_cap ivc;  /* the intervals (none when not asked) */
};

/* How the worker ended, as supervise saw it; classify's input. */
struct worker_end {
	int status;              /* waitpid status (after the kill when not exited) */
	bool timed_out;          /* the watchdog killed it */
	bool interrupted;        /* an interrupt arrived; it was killed */
	double cpu_s;            /* the worker's CPU time (and its reaped peers') */
	double wall_s;           /* from just before the fork to its end */
	int load_rc;             /* load_stop(): 0, -ECHILD or -EBUSY */
	char load_err[600];      /* load_stop's message */
};

/* Monotonic seconds: the one clock of the runner's timing. */
static inline double runner_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reset out for requirement r of file f: zeroed, with the probe looked up
 * and the requested policy, priority and start time. */
void runner_result_init(struct req_result *out, const struct requirement *r,
			const struct req_file *f);

/* Close the journal's eventfds of j (either may be -1). */
void runner_ckpt_close(struct runner_job *j);

/* prepare: initialise out and fill j with the effective counts, the probe
 * (known, and able to run here), parameter values, timebase and CPUs; map
 * the result memory (out->res, j->res_fd) and store the worker's spec in
 * it. Returns 0, or -1 with an error verdict in out. Either way j can be
 * given to runner_abandon (out->res may be mapped: req_result_free unmaps
 * it). */
int runner_prepare(const struct requirement *r, const struct req_file *f,
		   const struct run_options *o, struct req_result *out, struct runner_job *j);

/* supervise, before the worker: start the requirement's background load, if
 * any, and check that it keeps running (out->load_cmd names it). Returns
 * 0, or -1 with an error verdict in out. */
int runner_load_start(struct runner_job *j, struct req_result *out);

/* First thing in the forked child: arm the death signal (SIGKILL when the
 * parent dies), then _exit(1) when the parent is no longer `supervisor`,
 * the process that forked it (it died before the signal was armed). */
void runner_child_arm(pid_t supervisor);

/* spawn: fork the worker into its own process group (j->pid) and, in the
 * child, exec rtconform-worker with the result memory, or run the worker
 * in place without a worker path. Closes j->res_fd in the supervisor.
 * Returns 0, or -1 with an error verdict in out. */
int runner_spawn(struct runner_job *j, struct req_result *out);

/* Release what prepare, runner_load_start and a failed spawn hold: stop
 * the load, remove an armed trace's instance, close the result memory's fd. For a requirement given up
 * before a worker ran; safe after any of those stages, failed or not. */
void runner_abandon(struct runner_job *j);

/* supervise: wait for the worker until it exits, the requirement's timeout
 * passes (counted from j->t_spawn) or o->interrupted is set, reporting
 * progress meanwhile; kill its process group unless it exited, reap every
 * process of it, run the probe's cleanup, stop the load. On return nothing
 * of the requirement runs any more; e says how it ended and out->seconds
 * is its wall time. */
void runner_supervise(struct runner_job *j, const struct run_options *o,
		      struct req_result *out, struct worker_end *e);

/* classify: the verdict and reason of a requirement whose worker ended as
 * e says, from the worker's state and reason in out->res (which must be
 * mapped) and `runs`, the runs asked for. A worker that finished cleanly
 * under an intact load is judged on its limits (verdict_judge); every
 * other end is an error saying what happened. Uses out->req (timeout),
 * out->policy and out->seconds; touches nothing outside out. */
void runner_classify(struct req_result *out, uint64_t runs, const struct worker_end *e);

#endif
