/* SPDX-License-Identifier: Apache-2.0 */
/* process_create.c - cost of creating and deleting a process (docs/background.md:
 * thread and process creation on Windows, creation and deletion on Unix).
 *
 * One sample = create a child that ends at once, then waitpid() for it:
 *   fork       fork(); the child calls _exit(0)
 *   vfork      vfork(); the child calls _exit(0) (the parent is suspended
 *              until then, and no page tables are copied)
 *   spawn      posix_spawn() of rtconform-nop (the Windows timings' CreateProcess of an
 *              empty proc.exe)
 *   fork-exec  fork(), then execve() of rtconform-nop in the child
 * rtconform-nop is looked up in ctx->self_dir (the directory of the running
 * rtconform), never through PATH: a PATH lookup would measure the search
 * and could run another program.
 *
 * Children are made with default attributes, so they inherit the worker's
 * policy and priority (see docs/probes.md). The executed child gets an empty
 * environment: the figure must not depend on the caller's.
 *
 * Every hand-off is checked (issue 37): after its clock read the parent
 * asks the kernel whether the child it reaped is gone (ho_child_left,
 * handoff.h). A waitpid() that returned before its child ended (or without
 * reaping it) is counted in `unanswered-waits` (a violation metric), done
 * again until the kernel has no such child, and its sample is not
 * recorded.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/measure/probes/handoff.h"
#include "harness/measure/probes/probes.h"

static const char *const methods[] = { "fork", "vfork", "spawn", "fork-exec", NULL };

static const struct probe_param params[] = {
	{ "method", "fork: fork + _exit; vfork: vfork + _exit; spawn: posix_spawn of "
		    "rtconform-nop; fork-exec: fork + execve of rtconform-nop",
	  PARAM_ENUM, methods, "fork" },
};

enum { M_PER_OP, M_UNANSWERED };

static const struct probe_metric metrics[] = {
	[M_PER_OP] = { "per-op", "create a process that ends at once, until waitpid() has "
		       "reaped it", METRIC_DURATION },
	[M_UNANSWERED] = { "unanswered-waits", "waitpid() calls that returned while the kernel "
			   "still had the child (not ended or not reaped); must be 0",
			   METRIC_COUNT },
};

enum method { M_FORK, M_VFORK, M_SPAWN, M_FORK_EXEC };

/* Written by a fork-exec child whose execve() failed, read by the parent. */
struct pc_shared {
	volatile int exec_errno;
};

struct pc_state {
	enum method method;
	char nop[PATH_MAX];
	char *argv[2];
	char *envp[1];
	struct pc_shared *sh;
};



/* vfork() in a function of its own: the child borrows this frame until it
 * calls _exit(), and nothing of the caller's can be clobbered. */
static pid_t __attribute__((noinline)) vfork_exit(void)
{
	pid_t p = vfork();
	if (p == 0)
		_exit(0);
	return p;
}

static pid_t __attribute__((noinline)) fork_exec(struct pc_state *s)
{
	pid_t p = fork();
	if (p == 0) {
		execve(s->nop, s->argv, s->envp);
		s->sh->exec_errno = errno;
		_exit(127);
	}
	return p;
}

/* Create one child. Returns its pid, or -errno with *what naming the call. */
static inline pid_t create(struct pc_state *s, const char **what)
{
	pid_t p;
	int e;
	switch (s->method) {
	case M_FORK:
		*what = "fork";
		p = fork();
		if (p == 0)
			_exit(0);
		return p < 0 ? -errno : p;
	case M_VFORK:
		*what = "vfork";
		p = vfork_exit();
		return p < 0 ? -errno : p;
	case M_SPAWN:
		*what = "posix_spawn";
		e = posix_spawn(&p, s->nop, NULL, NULL, s->argv, s->envp);
		return e ? -e : p;
	case M_FORK_EXEC:
	default:
		*what = "fork";
		p = fork_exec(s);
		return p < 0 ? -errno : p;
	}
}

/* Reap pid; returns 0, or -errno / -ECHILD-like with a reason recorded. */
static int reap(struct probe_ctx *c, struct pc_state *s, pid_t pid)
{
	int status;
	pid_t w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w < 0)
		return probe_fail(c, errno, "waitpid: %s (%s)", probe_errname(errno), strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (s->sh->exec_errno) {
		int e = s->sh->exec_errno;
		return probe_fail(c, e, "execve of %s: %s (%s)", s->nop, probe_errname(e), strerror(e));
	}
	if (WIFSIGNALED(status))
		return probe_fail(c, ECHILD, "the child was killed by signal %d (%s)",
				  WTERMSIG(status), strsignal(WTERMSIG(status)));
	return probe_fail(c, ECHILD, "the child exited with status %d", WEXITSTATUS(status));
}

/* One create-delete, unmeasured (warm-up) or measured by the caller; the
 * child in *pid. */
static inline int once(struct probe_ctx *c, struct pc_state *s, pid_t *pid)
{
	const char *what = "";
	pid_t p = create(s, &what);
	if (p < 0)
		return probe_fail(c, (int)-p, "%s: %s (%s)", what, probe_errname((int)-p),
				  strerror((int)-p));
	*pid = p;
	return reap(c, s, p);
}

/* After once() and the clock read: whether child pid is gone; if the
 * kernel still has it, its wait is done again until it is, each unanswered
 * one counted in *unanswered. 0, or -errno after probe_fail. */
static int answered(struct probe_ctx *c, struct pc_state *s, pid_t pid, bool *ok,
		    uint64_t *unanswered)
{
	int rc = 0;
	*ok = true;
	while (rc == 0 && __builtin_expect(ho_child_left(pid), 0)) {
		*ok = false;
		++*unanswered;
		rc = reap(c, s, pid);
	}
	return rc;
}

/* The first unanswered waitpid in words (res->violation), and the note. */
static void pc_words(struct probe_ctx *c, uint32_t run, uint64_t op, uint64_t unanswered)
{
	ho_waitpid_words(c->res->violation, sizeof c->res->violation, "create", run, op,
			 c->warmup, c->iterations);
	snprintf(c->res->note, sizeof c->res->note, "%llu unanswered waitpid calls: their "
		 "samples were not recorded.", (unsigned long long)unanswered);
}

static int pc_run(struct probe_ctx *c)
{
	const char *m = probe_value(c, "method");
	struct pc_state s;
	memset(&s, 0, sizeof s);
	for (unsigned i = 0; methods[i]; i++) /* enum method follows methods[] */
		if (strcmp(m, methods[i]) == 0)
			s.method = (enum method)i;

	if (s.method == M_SPAWN || s.method == M_FORK_EXEC) {
		if (!c->self_dir || !c->self_dir[0])
			return probe_fail(c, ENOENT, "method %s needs rtconform-nop, but the "
				       "directory of the rtconform binary is unknown", m);
		int n = snprintf(s.nop, sizeof s.nop, "%s/rtconform-nop", c->self_dir);
		if (n < 0 || (size_t)n >= sizeof s.nop)
			return probe_fail(c, ENAMETOOLONG, "path of rtconform-nop too long");
		if (access(s.nop, X_OK) != 0)
			return probe_fail(c, errno, "method %s: %s: %s (rtconform-nop is built "
				       "with rtconform and must sit next to it)", m, s.nop,
				       strerror(errno));
	}
	s.argv[0] = (char *)"rtconform-nop";
	s.argv[1] = NULL;
	s.envp[0] = NULL;
	s.sh = mmap(NULL, sizeof *s.sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (s.sh == MAP_FAILED)
		return probe_fail(c, errno, "mmap: %s", strerror(errno));
	s.sh->exec_errno = 0;

	int rc = 0;
	pid_t pid = 0;
	bool ok = true;
	uint64_t unanswered = 0, added = 0, first_op = 0;
	uint32_t first_run = 0;
	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup && rc == 0; i++)
		if ((rc = once(c, &s, &pid)) == 0 &&
		    (rc = answered(c, &s, pid, &ok, &unanswered)) == 0 && !ok && !first_op)
			first_run = UINT32_MAX, first_op = i + 1;
	for (uint32_t r = 0; r < c->runs && rc == 0 && !*c->stop; r++) {
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t t0 = tb_now();
			if ((rc = once(c, &s, &pid)) != 0)
				break;
			uint64_t t1 = tb_now();
			if ((rc = answered(c, &s, pid, &ok, &unanswered)) != 0)
				break;
			if (__builtin_expect(ok, 1))
				probe_record(c, M_PER_OP, t1 - t0);
			else if (!first_op)
				first_run = r, first_op = i + 1;
		}
		if (rc)
			break;
		/* the warm-up's into the first run's */
		probe_add_count(c, M_UNANSWERED, unanswered - added);
		added = unanswered;
		probe_run_end(c, i);
	}
	if (rc == 0 && first_op)
		pc_words(c, first_run, first_op, unanswered);
	probe_reap_children();
	munmap(s.sh, sizeof *s.sh);
	return rc;
}

/* A process created and reaped, by method: fork copies the worker's
 * locked page tables (some 400 us), vfork does not (150 us); spawn and
 * fork-exec load rtconform-nop too (0.9 and 1.5 ms). */
static void pc_pace(const char *const *values, struct probe_pace *out)
{
	const char *m = values[0];
	out->iteration_s = strcmp(m, "vfork") == 0 ? 150e-6 : strcmp(m, "spawn") == 0 ? 900e-6
			   : strcmp(m, "fork-exec") == 0 ? 1.5e-3 : 400e-6;
}

const struct probe probe_process_create = {
	.decl.name = "process-create",
	.decl.pace = pc_pace,
	.decl.verifies = "the children inherit the worker's checked policy, priority and CPUs "
		"(reset-on-fork is off); a child is not checked itself, as that would be "
		"inside the measured creation",
	.decl.help = "create a process that ends at once and reap it: fork, vfork, posix_spawn "
		"or fork+execve of rtconform-nop (docs/background.md)",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	.decl.violation_metrics = 1u << M_UNANSWERED,
	.run = pc_run,
};
