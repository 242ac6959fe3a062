/* SPDX-License-Identifier: Apache-2.0 */
/* load.h - a background load (stress-ng) run beside a measurement.
 *
 * The supervisor starts the load before it forks the worker, checks that it
 * is running, and stops it once the worker is gone, whatever became of the
 * worker. The load runs in its own process group, so one signal reaches
 * every process of it and a terminal's Ctrl-C reaches only rtconform, which
 * then stops it in order. Its stdout and stderr go to an anonymous memory
 * file (nothing on disk, nothing on rtconform's terminal); their tail is
 * quoted when the load fails.
 *
 * The tool is looked up in PATH like a shell would, but nothing runs through
 * a shell: args are split on blanks and passed as they are. The recorded
 * command is the resolved absolute path followed by the args.
 *
 * Library code: returns 0 or -errno with a message in err; never prints,
 * never exits.
 */
#ifndef RTC_LOAD_H
#define RTC_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "requirements/model.h"

#define LOAD_SETTLE_MS 300u   /* alive this long after the start = running */
#define LOAD_TERM_GRACE_MS 2000u /* SIGTERM, then SIGKILL after this */

struct load_proc {
	pid_t pid;      /* the tool's process = its process group id; 0: none */
	int out_fd;     /* memory file with its stdout and stderr, or -1 */
	bool reaped;    /* pid was waited for */
	int status;     /* its wait status once reaped */
	char cmd[600];  /* the exact command, shell-quoted where needed */
};

/* A load_proc that runs nothing (safe to pass to load_stop). */
void load_init(struct load_proc *lp);

/* Start the load in its own process group. Fills lp->cmd as soon as the
 * command is known (even when the start then fails). Errors: -EINVAL (the
 * spec is not runnable, see load_spec_problem), -ENOENT (the tool is not
 * installed: the message says so and how to install it), or the errno of
 * memfd_create, fork or exec. */
int load_start(const struct req_load *l, struct load_proc *lp, char *err, size_t len);

/* Wait settle_ms, then check the load is still running. -ECHILD with its
 * exit status and the tail of its output when it already ended. */
int load_check(struct load_proc *lp, unsigned settle_ms, char *err, size_t len);

/* Is the load's first process still running? (Reaps it when it is not.) */
bool load_running(struct load_proc *lp);

/* Stop the load: SIGTERM to its group, SIGKILL after LOAD_TERM_GRACE_MS,
 * and reap every process of the group (the caller should be a child
 * subreaper, runner_become_supervisor(), so that grandchildren come back
 * to it). Returns 0; -ECHILD when
 * the load had already ended before it was stopped (the measurement did not
 * run under load throughout); -EBUSY when processes of the group were still
 * there after SIGKILL and a further grace period. err may be NULL. Leaves
 * lp as load_init does (cmd kept). Safe on a load_proc that runs nothing. */
int load_stop(struct load_proc *lp, char *err, size_t len);

#endif
