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

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

/* A worker killed by a signal: which, why it may have come, how far it got. */
static void killed(struct req_result *out, int sig, uint64_t runs)
{
	const struct result_shm *res = out->res;
	const char *extra = sig == SIGXCPU || (sig == SIGKILL && out->policy != SCHED_OTHER)
		? " (a real-time worker that runs past its timeout without blocking "
		  "is stopped by RLIMIT_RTTIME)"
		: "";
	req_result_error(out, out->req, out->file,
			 "worker killed by signal %d (%s)%s after %u of %llu runs%s%s", sig,
			 strsignal(sig), extra, res->runs_done, (unsigned long long)runs,
			 res->reason[0] ? ": " : "", res->reason);
}

void runner_classify(struct req_result *out, uint64_t runs, const struct worker_end *e)
{
	const struct requirement *r = out->req;
	const struct req_file *f = out->file;
	const struct result_shm *res = out->res;
	uint32_t done = res->runs_done;
	int status = e->status;
	if (e->interrupted) {
		req_result_error(out, r, f, "interrupted (after %u of %llu runs)", done,
				 (unsigned long long)runs);
	} else if (e->timed_out) {
		req_result_error(out, r, f,
				 "timed out after %.1f s (timeout %.1f s; %u of %llu runs done); "
				 "the worker was killed",
				 out->seconds, (double)r->timeout_ns / 1e9, done,
				 (unsigned long long)runs);
	} else if (WIFSIGNALED(status)) {
		killed(out, WTERMSIG(status), runs);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || res->state != WS_DONE) {
		if (res->reason[0])
			req_result_error(out, r, f, "%s", res->reason);
		else
			req_result_error(out, r, f,
					 "worker exited with status %d after %u of %llu runs "
					 "without finishing or saying why",
					 WIFEXITED(status) ? WEXITSTATUS(status) : -1, done,
					 (unsigned long long)runs);
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
