/* SPDX-License-Identifier: Apache-2.0 */
/* runner_supervise.c - the supervise stage (runner_stages.h): everything
 * the supervisor does while a requirement's processes exist.
 *
 * The background load runs from before the warm-up until the worker is
 * gone, whatever becomes of the worker. The supervisor sleeps in poll() on
 * a pidfd with a 100 ms tick until the worker exits, the timeout passes, or
 * an interrupt arrives; then the worker's whole process group is killed
 * (unless it exited) and reaped, so no peer outlives its requirement.
 */
#include "harness/runner_stages.h"

#include <errno.h>
#include <sys/resource.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int runner_become_supervisor(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : -errno;
}

int runner_load_start(struct runner_job *j, struct req_result *out)
{
	const struct requirement *r = out->req;
	if (!r->load)
		return 0;
	char lerr[600];
	int lrc = load_start(r->load, &j->load, lerr, sizeof lerr);
	snprintf(out->load_cmd, sizeof out->load_cmd, "%s", j->load.cmd);
	if (lrc == 0)
		lrc = load_check(&j->load, LOAD_SETTLE_MS, lerr, sizeof lerr);
	if (lrc != 0) {
		req_result_error(out, r, out->file, "background load: %s", lerr);
		return -1;
	}
	return 0;
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Kill the worker's process group and reap everything of it we can. */
static void reap_group(pid_t pgid)
{
	kill(-pgid, SIGKILL);
	/* We are a child subreaper (runner_become_supervisor), so orphaned peers come back
	 * to us; reap those of this group without blocking forever. */
	for (int tries = 0; tries < 200; tries++) {
		pid_t p = waitpid(-pgid, NULL, WNOHANG);
		if (p < 0 && errno == ECHILD)
			return;
		if (p == 0) {
			struct timespec ts = { 0, 5 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
}

/* Wait for the worker, at most until deadline, ticking at least every
 * 100 ms for interrupts and progress. Sets e->status when it exited, else
 * e->timed_out or e->interrupted; the worker is still running then. */
/* wait4 on the worker, keeping its CPU time in e. */
static pid_t reap_worker(const struct runner_job *j, int flags, struct worker_end *e)
{
	struct rusage ru;
	pid_t p = wait4(j->pid, &e->status, flags, &ru);
	if (p == j->pid) {
		e->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
			   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
		e->wall_s = runner_now_s() - j->t_spawn;
	}
	return p;
}

/* The worker ended a run and waits (probe_checkpoint): hand the journal the
 * requirement as it stands, then let the worker go on. Returns the seconds
 * it took, which the watchdog does not count. */
static double checkpoint(struct runner_job *j, const struct run_options *o,
			 const struct req_result *out)
{
	double t0 = runner_now_s();
	uint64_t n;
	if (read(j->ckpt_ask, &n, sizeof n) != (ssize_t)sizeof n)
		return 0; /* nothing asked after all */
	struct interval_out iv;
	if (interval_cap_tick(&j->ivc, out->res, false, &iv) && o->interval)
		o->interval(out, &iv, o->interval_arg);
	if (o->checkpoint) {
		struct req_result cp;
		runner_checkpoint_result(out, j->c.runs, &cp);
		cp.seconds = t0 - j->t_start;
		o->checkpoint(&cp, o->checkpoint_arg);
	}
	/* The worker sets its next checkpoint from the pause it saw
	 * (probe_checkpoint): at most 2 % of the measuring time. */
	uint64_t one = 1;
	if (write(j->ckpt_go, &one, sizeof one) != (ssize_t)sizeof one)
		kill(j->pid, SIGKILL); /* it would wait for ever; classify says killed */
	return runner_now_s() - t0;
}

/* Wait up to ms for the worker's end (its pidfd) or its checkpoint;
 * true when a checkpoint is asked. */
static bool wait_worker(int pfd, const struct runner_job *j, int ms)
{
	struct pollfd pf[3] = { { .fd = pfd, .events = POLLIN },
				{ .fd = j->ckpt_ask, .events = POLLIN },
				{ .fd = j->trace.kick_fd, .events = POLLIN } };
	if (pfd < 0 && j->ckpt_ask < 0 && j->trace.kick_fd < 0) {
		struct timespec ts = { 0, (long)ms * 1000000L };
		nanosleep(&ts, NULL);
		return false;
	}
	if (pfd < 0)
		pf[0].fd = -1; /* poll ignores it */
	return poll(pf, 3, ms) > 0 && (pf[1].revents & POLLIN);
}

static void watch(struct runner_job *j, const struct run_options *o,
		  const struct req_result *out, double deadline, struct worker_end *e)
{
	int pfd = pidfd_open_(j->pid);
	for (;;) {
		if (reap_worker(j, WNOHANG, e) == j->pid)
			break;
		if (o && o->interrupted && *o->interrupted) {
			e->interrupted = true;
			break;
		}
		double now = runner_now_s();
		if (now >= deadline) {
			e->timed_out = true;
			break;
		}
		trace_keep_poll(&j->trace, out->res); /* a new worst breach to keep */
		if (o && o->progress)
			o->progress(out, out->res->runs_done, j->c.runs, now - j->t_start,
				    o->progress_arg);
		int ms = (int)((deadline - now) * 1000.0) + 1;
		if (ms > 100)
			ms = 100;
		if (wait_worker(pfd, j, ms))
			deadline += checkpoint(j, o, out);
	}
	if (pfd >= 0)
		close(pfd);
}

void runner_supervise(struct runner_job *j, const struct run_options *o,
		      struct req_result *out, struct worker_end *e)
{
	*e = (struct worker_end){ 0 };
	/* By time, the requirement's timeout is on top of its duration. */
	watch(j, o, out, j->t_spawn + (double)j->c.timeout_ns / 1e9, e);
	if (e->timed_out || e->interrupted) {
		kill(-j->pid, SIGKILL);
		kill(j->pid, SIGKILL);
		while (reap_worker(j, 0, e) < 0 && errno == EINTR)
			;
	}
	reap_group(j->pid);
	runner_ckpt_close(j);
	if (out->probe->per_cpu_series)
		result_merge_series(out->res);
	/* The last interval: up to the worker's end, however it ended. */
	struct interval_out iv;
	if (interval_cap_tick(&j->ivc, out->res, true, &iv) && o && o->interval)
		o->interval(out, &iv, o->interval_arg);
	interval_cap_free(&j->ivc);
	if (out->probe->cleanup)
		out->probe->cleanup(out->res);
	e->load_rc = load_stop(&j->load, e->load_err, sizeof e->load_err);
	out->seconds = runner_now_s() - j->t_start;
}
