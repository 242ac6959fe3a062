/* SPDX-License-Identifier: Apache-2.0 */
/* clone.c - the raw clone() system call and how soon its child runs
 * (clone() latency, docs/background.md).
 *
 * Each sample: t1 = now; clone(); t2 = now in the parent; the child's first
 * statement stores now (t3) into a shared page and the child exits; the
 * parent waits for it (t4 = now after waitpid). Metrics:
 *   per-op       t4 - t1: create, run and reap the child
 *   call         t2 - t1: until clone() returns in the parent (the original's t2 - t1)
 *   child-start  t3 - t1: until the child's first statement (the original's t3 - t1),
 *                read by the parent after waitpid
 * With the TSC timebase the reports also give these in cycles, as the original did.
 *
 * flags=process: SIGCHLD only, a new process with its own copy of memory; the
 * child writes t3 into MAP_SHARED memory so the parent sees it.
 * flags=thread: CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
 * CLONE_SYSVSEM | SIGCHLD: what a thread shares, minus CLONE_THREAD (a
 * CLONE_THREAD child cannot be waited for with waitpid) and minus the TLS
 * and tid flags pthread_create adds (the child touches no TLS). The child
 * signals its exit with SIGCHLD and is reaped with waitpid like a process.
 *
 * glibc's clone() wrapper is used with one stack mapped and touched before
 * measuring; a child is always reaped before the next clone() reuses it.
 * Children inherit the worker's policy and priority (see docs/probes.md).
 *
 * Every hand-off is checked (issue 37): after its clock read the parent
 * asks the kernel whether the child it reaped is gone (ho_child_left,
 * handoff.h); a waitpid() that returned while the kernel still had it is
 * counted in `unanswered-waits` (a violation metric) and done again until
 * the child is gone, before the next clone() reuses the stack, and its
 * sample is not recorded.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/measure/probes/handoff.h"
#include "harness/measure/probes/probes.h"

static const char *const flag_sets[] = { "process", "thread", NULL };

static const struct probe_param params[] = {
	{ "flags", "process: SIGCHLD only (own memory); thread: CLONE_VM|CLONE_FS|CLONE_FILES|"
		   "CLONE_SIGHAND|CLONE_SYSVSEM|SIGCHLD (shared memory, waited for with waitpid)",
	  PARAM_ENUM, flag_sets, "process" },
};

enum { M_PER_OP, M_CALL, M_CHILD_START, M_UNANSWERED };

static const struct probe_metric metrics[] = {
	{ "per-op", "clone() of a child that exits at once, until waitpid() has reaped it",
	  METRIC_DURATION },
	{ "call", "from just before clone() until it returns in the parent", METRIC_DURATION },
	{ "child-start", "from just before clone() until the child's first statement",
	  METRIC_DURATION },
	{ "unanswered-waits", "waitpid() calls that returned while the kernel still had the "
	  "child (not ended or not reaped); must be 0", METRIC_COUNT },
};

#define STACK_BYTES (64 * 1024)

struct cl_shared {
	volatile uint64_t t_child;
};



/* The child: its first statement takes the timestamp. It returns, and
 * glibc's wrapper makes the exit system call. */
static int child_main(void *arg)
{
	((struct cl_shared *)arg)->t_child = tb_now();
	return 0;
}

/* Reap pid. 0 or -errno after probe_fail. */
static int reap(struct probe_ctx *c, pid_t pid)
{
	int status;
	pid_t w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w < 0) {
		int e = errno;
		return probe_fail(c, e, "waitpid: %s (%s)", probe_errname(e), strerror(e));
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return probe_fail(c, ECHILD, "the cloned child ended abnormally (status %#x)",
				  (unsigned)status);
	return 0;
}

/* One clone and reap. Returns 0 or -errno after probe_fail; fills t[0..2]
 * with t2 (call returned), t3 (child started), t4 (reaped). *ok: the reap
 * was answered by the child's end (else counted in *unanswered and reaped
 * again until it was: no sample of it is to be recorded). */
static inline int once(struct probe_ctx *c, struct cl_shared *sh, void *stack_top,
		       int flags, uint64_t *t1, uint64_t t[3], bool *ok, uint64_t *unanswered)
{
	sh->t_child = 0;
	*t1 = tb_now();
	pid_t pid = clone(child_main, stack_top, flags, sh);
	t[0] = tb_now();
	if (pid < 0) {
		int e = errno;
		return probe_fail(c, e, "clone: %s (%s)", probe_errname(e), strerror(e));
	}
	int rc = reap(c, pid);
	t[2] = tb_now();
	*ok = true;
	while (rc == 0 && __builtin_expect(ho_child_left(pid), 0)) {
		*ok = false;
		++*unanswered;
		rc = reap(c, pid);
	}
	if (rc)
		return rc;
	t[1] = sh->t_child;
	if (t[1] == 0)
		return probe_fail(c, ECHILD, "the cloned child exited without taking its "
				  "timestamp");
	return 0;
}

/* The first unanswered waitpid in words (res->violation), and the note. */
static void cl_words(struct probe_ctx *c, uint32_t run, uint64_t op, uint64_t unanswered)
{
	size_t used = strlen(c->res->note);
	ho_waitpid_words(c->res->violation, sizeof c->res->violation, "clone", run, op,
			 c->warmup, c->iterations);
	snprintf(c->res->note + used, sizeof c->res->note - used, "%s%llu unanswered waitpid "
		 "calls: their samples were not recorded.", used ? ". " : "",
		 (unsigned long long)unanswered);
}

static int cl_run(struct probe_ctx *c)
{
	bool thread = strcmp(probe_value(c, "flags"), "thread") == 0;
	int flags = thread ? CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_SYSVSEM |
				     SIGCHLD
			   : SIGCHLD;
	int rc = 0;
	uint64_t t1 = 0, t[3] = { 0 }, negative = 0; /* once() sets them before use */
	uint64_t unanswered = 0, added = 0, first_op = 0;
	uint32_t first_run = 0;
	bool ok = true;

	struct cl_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return probe_fail(c, errno, "mmap of the shared page: %s", strerror(errno));
	char *stack = mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED) {
		rc = probe_fail(c, errno, "mmap of the child stack: %s", strerror(errno));
		goto cleanup_sh;
	}
	memset(stack, 0, STACK_BYTES); /* touched: no page fault inside a sample */
	/* The stack grows down; its top is 16-byte aligned as the ABI wants. */
	void *stack_top = stack + STACK_BYTES;

	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup && rc == 0; i++)
		if ((rc = once(c, sh, stack_top, flags, &t1, t, &ok, &unanswered)) == 0 && !ok &&
		    !first_op)
			first_run = UINT32_MAX, first_op = i + 1;
	for (uint32_t r = 0; r < c->runs && rc == 0 && !*c->stop; r++) {
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			if ((rc = once(c, sh, stack_top, flags, &t1, t, &ok, &unanswered)) != 0)
				break;
			if (__builtin_expect(!ok, 0)) {
				if (!first_op)
					first_run = r, first_op = i + 1;
				continue;
			}
			probe_record(c, M_PER_OP, t[2] - t1);
			probe_record(c, M_CALL, t[0] - t1);
			/* The child may read the clock on another CPU; with
			 * a synchronised TSC it cannot be earlier, but a
			 * skewed one could make it so: counted, recorded 0. */
			if (t[1] >= t1) {
				probe_record(c, M_CHILD_START, t[1] - t1);
			} else {
				probe_record(c, M_CHILD_START, 0);
				negative++;
			}
		}
		if (rc)
			break;
		/* the warm-up's into the first run's */
		probe_add_count(c, M_UNANSWERED, unanswered - added);
		added = unanswered;
		probe_run_end(c, i);
	}
	if (negative)
		snprintf(c->res->note, sizeof c->res->note,
			 "%llu child-start samples were negative (clock skew between CPUs) "
			 "and were recorded as 0", (unsigned long long)negative);
	if (rc == 0 && first_op)
		cl_words(c, first_run, first_op, unanswered);
	probe_reap_children();
	munmap(stack, STACK_BYTES);
cleanup_sh:
	munmap(sh, sizeof *sh);
	return rc;
}

/* A raw clone of a child that exits at once, and its reaping: a process
 * copies the worker's page tables (some 300 us), a thread shares them
 * (50 us). */
static void clone_pace(const char *const *values, struct probe_pace *out)
{
	out->iteration_s = strcmp(values[0], "thread") == 0 ? 50e-6 : 300e-6;
}

const struct probe probe_clone = {
	.decl.name = "clone",
	.decl.pace = clone_pace,
	.decl.verifies = "the children inherit the worker's checked policy, priority and CPUs "
		"(reset-on-fork is off); a child is not checked itself, as that would be "
		"inside the measured clone()",
	.decl.help = "the raw clone() system call of a child that exits at once: call and "
		"child-start latency (clone() latency)",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	.decl.violation_metrics = 1u << M_UNANSWERED,
	.run = cl_run,
};
