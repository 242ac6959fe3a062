/* SPDX-License-Identifier: Apache-2.0 */
/* runner_spawn.c - the spawn stage (runner_stages.h): fork the worker.
 *
 * What the child arranges before anything else can go wrong:
 *   - death with the supervisor: the death signal is armed first, then the
 *     child checks that its parent is still the supervisor that forked it.
 *     A supervisor killed between fork and prctl would otherwise leave a
 *     worker that then runs at a real-time priority with no watchdog (the
 *     worker arms the signal again after exec, which clears it for a binary
 *     with file capabilities);
 *   - its own process group (pgid = its pid), so the supervisor can kill it
 *     and every peer it forks with one signal. The supervisor sets the same
 *     group from its side too: whichever of the two runs first wins, and no
 *     kill can miss the worker in between;
 *   - the result memory's fd without close-on-exec, handed to
 *     rtconform-worker as its only argument;
 *   - when the exec fails, the reason in the result memory and state
 *     WS_FAILED, then _exit(127): classify reports that reason, so a
 *     missing worker binary is an error naming the path.
 * Without a worker path (library callers) the child runs worker_main on the
 * prepared context itself; worker_main never returns.
 */
#include "harness/runner_stages.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "harness/measure/worker.h"

void runner_child_arm(pid_t supervisor)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != supervisor)
		_exit(1);
}

/* Let fd survive the exec (-1: nothing to do). */
static void keep_across_exec(int fd)
{
	int fl = fd >= 0 ? fcntl(fd, F_GETFD) : -1;
	if (fl >= 0)
		fcntl(fd, F_SETFD, fl & ~FD_CLOEXEC);
}

/* In the child: become the worker. Never returns. */
static void __attribute__((noreturn)) exec_worker(struct runner_job *j, pid_t supervisor)
{
	runner_child_arm(supervisor);
	setpgid(0, 0);
	if (!j->worker_path[0])
		worker_main(&j->c);
	char fdarg[16];
	snprintf(fdarg, sizeof fdarg, "%d", j->res_fd);
	keep_across_exec(j->res_fd);
	keep_across_exec(j->trace.marker_fd); /* the trace's files, when armed */
	keep_across_exec(j->trace.on_fd);
	keep_across_exec(j->trace.kick_fd);
	keep_across_exec(j->ckpt_ask); /* the journal's checkpoint, when asked */
	keep_across_exec(j->ckpt_go);
	char *const args[] = { j->worker_path, fdarg, NULL };
	execv(j->worker_path, args);
	struct result_shm *res = j->c.res;
	snprintf(res->reason, sizeof res->reason,
		 "cannot run the worker %.400s: %s (it is built beside rtconform)",
		 j->worker_path, strerror(errno));
	res->state = WS_FAILED;
	_exit(127);
}

int runner_spawn(struct runner_job *j, struct req_result *out)
{
	/* The watchdog times the worker only, not the load's start-up check. */
	j->t_spawn = runner_now_s();
	fflush(NULL); /* the worker must not inherit unflushed output */
	pid_t self = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		req_result_error(out, out->req, out->file, "cannot fork the worker: %s",
				 strerror(errno));
		return -1;
	}
	if (pid == 0)
		exec_worker(j, self);
	j->pid = pid;
	close(j->res_fd);
	j->res_fd = -1;
	trace_close_fds(&j->trace);
	setpgid(pid, pid); /* also done in the child: whichever runs first wins */
	return 0;
}

void runner_ckpt_close(struct runner_job *j)
{
	if (j->ckpt_ask >= 0)
		close(j->ckpt_ask);
	if (j->ckpt_go >= 0)
		close(j->ckpt_go);
	j->ckpt_ask = j->ckpt_go = -1;
}

void runner_abandon(struct runner_job *j)
{
	runner_ckpt_close(j);
	interval_cap_free(&j->ivc);
	load_stop(&j->load, NULL, 0);
	trace_abandon(&j->trace);
	if (j->res_fd >= 0)
		close(j->res_fd);
	j->res_fd = -1;
}
