/* SPDX-License-Identifier: Apache-2.0 */
/* runner_classify.c - the classify stage (runner_stages.h): from how the
 * worker ended to a verdict and its reason.
 *
 * The order of the checks is the order of what a reader must hear first:
 * an interrupt or a timeout (the supervisor killed the worker, whatever it
 * was doing), a signal (it crashed or the kernel stopped it), an exit that
 * was not a clean finish (the worker's own reason when it gave one), a load
 * that ended under the measurement; only a clean finish under an intact
 * load is judged on its limits. A load that would not stop spoils any
 * verdict that is not already an error.
 */
#include "harness/runner_stages.h"
#include "base/units.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* A worker killed by a signal: which, why it may have come, how far it got. */
/* Why a worker got signal sig, when rtconform can tell. A real-time worker
 * gets SIGXCPU from RLIMIT_RTTIME once it has run for its timeout without
 * blocking, and SIGKILL a second later (rtenv_limit_rttime); a SIGKILL
 * before it has had that much CPU time, or that much wall time (the CPU
 * time of wait4 adds up all its threads and reaped peers, the limit is a
 * thread's), came from outside. */
static void kill_cause(const struct req_result *out, int sig, const struct worker_end *e,
		       char *buf, size_t len)
{
	double timeout = (double)out->req->timeout_ns / 1e9;
	bool rt = out->policy != SCHED_OTHER;
	buf[0] = 0;
	if (sig == SIGXCPU && rt)
		snprintf(buf, len, " (RLIMIT_RTTIME: it ran %.1f s, its timeout, without blocking)",
			 timeout);
	else if (sig == SIGKILL && rt && e->cpu_s >= timeout + 1.0 - 0.05 &&
		 e->wall_s >= timeout + 1.0 - 0.05)
		snprintf(buf, len, " (RLIMIT_RTTIME: it ran %.1f s without blocking, past its "
			 "timeout and the 1 s grace)", e->cpu_s);
	else if (sig == SIGXCPU)
		snprintf(buf, len, " (a CPU time limit, RLIMIT_CPU, which rtconform does not set)");
	else if (sig == SIGKILL && out->duration_ns) {
		/* A run by time outlives its timeout, which bounds each run:
		 * how far it got follows ("of a 24 h run by time"). */
		snprintf(buf, len, " from outside rtconform %.1f s after it began, with %.2f s of "
			 "CPU time: not a limit of rtconform's (another process, or the kernel's "
			 "OOM killer: see dmesg)", e->wall_s, e->cpu_s);
	} else if (sig == SIGKILL)
		snprintf(buf, len, " from outside rtconform %.1f s into its %.1f s timeout, with "
			 "%.2f s of CPU time: not a limit of rtconform's (another process, or the "
			 "kernel's OOM killer: see dmesg)", e->wall_s, timeout, e->cpu_s);
}

/* How far the worker got: "3 of 10 runs", or for a run by time (where the
 * planned count means nothing) "3 recorded runs of a 24 h run by time". */
static void how_far(const struct req_result *out, uint64_t runs, char *buf, size_t len)
{
	uint32_t done = out->res->runs_done;
	if (out->duration_ns) {
		char d[32];
		units_fmt_ns((double)out->duration_ns, d, sizeof d);
		snprintf(buf, len, "%u recorded run%s of a %s run by time", done,
			 done == 1 ? "" : "s", d);
	} else {
		snprintf(buf, len, "%u of %llu runs", done, (unsigned long long)runs);
	}
}

static void killed(struct req_result *out, int sig, uint64_t runs, const struct worker_end *e)
{
	const struct result_shm *res = out->res;
	char cause[300], far[96];
	kill_cause(out, sig, e, cause, sizeof cause);
	how_far(out, runs, far, sizeof far);
	req_result_error(out, out->req, out->file,
			 "worker killed by signal %d (%s)%s after %s%s%s", sig,
			 strsignal(sig), cause, far, res->reason[0] ? ": " : "", res->reason);
}

void runner_checkpoint_result(const struct req_result *out, uint64_t runs, struct req_result *cp)
{
	char far[96];
	*cp = *out;
	cp->explain = NULL; /* the run's own, freed with it */
	memset(&cp->sum, 0, sizeof cp->sum); /* likewise */
	how_far(out, runs, far, sizeof far);
	req_result_error(cp, out->req, out->file,
			 "incomplete: rtconform ended during this requirement (killed, or the "
			 "machine stopped) after %s, the last its journal kept; the figures are "
			 "of those", far);
}

void runner_classify(struct req_result *out, uint64_t runs, const struct worker_end *e)
{
	const struct requirement *r = out->req;
	const struct req_file *f = out->file;
	const struct result_shm *res = out->res;
	int status = e->status;
	char far[96];
	how_far(out, runs, far, sizeof far);
	if (e->interrupted) {
		req_result_error(out, r, f, "interrupted (after %s)", far);
	} else if (e->timed_out) {
		/* In the unit that suits each: "1.2 ms", "30 s" (a 1 ms timeout
		 * is no "0.0 s"). */
		char after[32], limit[32], dur[32], plus[64] = "";
		units_fmt_ns(out->seconds * 1e9, after, sizeof after);
		units_fmt_ns((double)r->timeout_ns, limit, sizeof limit);
		/* By time the watchdog allows the duration on top of the
		 * timeout: say both, never a sum the user did not write. */
		if (out->duration_ns) {
			units_fmt_ns((double)out->duration_ns, dur, sizeof dur);
			snprintf(plus, sizeof plus, " after the duration %s", dur);
		}
		req_result_error(out, r, f,
				 "timed out after %s (timeout %s%s; %s done); the worker was killed",
				 after, limit, plus, far);
	} else if (WIFSIGNALED(status)) {
		killed(out, WTERMSIG(status), runs, e);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || res->state != WS_DONE) {
		if (res->reason[0])
			req_result_error(out, r, f, "%s", res->reason);
		else
			req_result_error(out, r, f,
					 "worker exited with status %d after %s "
					 "without finishing or saying why",
					 WIFEXITED(status) ? WEXITSTATUS(status) : -1, far);
	} else if (e->load_rc == -ECHILD) {
		/* Figures taken partly without the load would pass for loaded ones. */
		req_result_error(out, r, f, "background load ended during the measurement: %s",
				 e->load_err);
	} else {
		verdict_judge(out);
	}
	if (e->load_rc == -EBUSY && out->verdict != VERDICT_ERROR)
		req_result_error(out, r, f, "background load could not be stopped: %s", e->load_err);
}
