/* SPDX-License-Identifier: Apache-2.0 */
/* coop_sched.c - the cost of one cycle of a minimal cooperative user-level
 * scheduler (cttimer's cycle, docs/background.md).
 *
 * `tasks` tasks, each on its own stack, loop forever: decrement a shared
 * counter, yield to the scheduler. The scheduler (the worker's own
 * context) picks the next task round robin and switches to it. One cycle =
 * pick, switch in, decrement, switch back. The switch is swapcontext (which
 * also saves and restores the signal mask: one rt_sigprocmask system call
 * per switch) or, on x86-64, the hand-written rtc_coop_switch of
 * coop_switch_x86_64.S (callee-saved registers and the stack pointer, no
 * system call).
 *
 * Counts: `cycles` is the number of cycles per run; each of a run's
 * `iterations` samples times one block of cycles / iterations cycles and is
 * recorded as ticks scaled by 1 / block, so per-cycle keeps every digit.
 * Warm-up runs `warmup` blocks untimed. The scheduler loop runs exactly
 * `block` switches per sample whatever the tasks do, so it ends by itself
 * even at the highest SCHED_FIFO priority.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <ucontext.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"

static const char *const switches[] = { "ucontext", "asm", NULL };

static const struct probe_param params[] = {
	{ "tasks", "tasks the scheduler cycles through, round robin (at most 256)",
	  PARAM_COUNT, NULL, "1" },
	{ "cycles", "scheduler cycles per run; each sample times cycles / iterations of them",
	  PARAM_COUNT, NULL, "5000000" },
	{ "switch", "context switch: ucontext (swapcontext, saves the signal mask with a "
		    "system call) or asm (hand-written, x86-64 only, no system call)",
	  PARAM_ENUM, switches, "ucontext" },
};

static const struct probe_metric metrics[] = {
	{ "per-cycle", "pick a task, switch to it, it decrements the counter and yields back",
	  METRIC_DURATION },
};

#define COOP_MAX_TASKS 256u
/* Plenty for a task that decrements and yields (swapcontext's own frame
 * included), and for the sanitizer build's larger frames. */
#define COOP_STACK_BYTES (64u * 1024u)

struct coop_sched;

struct coop_task {
	ucontext_t uc;          /* switch=ucontext */
	void *sp;               /* switch=asm: saved stack pointer */
	struct coop_sched *s;
};

struct coop_sched {
	uint64_t remaining;     /* the shared counter the tasks decrement */
	ucontext_t main_uc;
	void *main_sp;
	struct coop_task *tasks;
	unsigned ntasks, next;
	struct probe_ctx *c;
};

static void task_main_uc(unsigned lo, unsigned hi)
{
	/* makecontext passes ints: the task pointer comes in two halves. */
	struct coop_task *t = (struct coop_task *)(uintptr_t)(((uint64_t)hi << 32) | lo);
	struct coop_sched *s = t->s;
	for (;;) {
		s->remaining--;
		if (swapcontext(&t->uc, &s->main_uc) != 0) {
			/* Without a working switch there is no way back to the
			 * scheduler; say why and crash, which the runner reports
			 * with this reason, rather than spin here. */
			probe_fail(s->c, errno, "swapcontext in a task: %s", strerror(errno));
			abort();
		}
	}
}

/* Task t's context, to start task_main_uc on `stack`. Returns 0, or -1 with
 * errno. A function of its own so that getcontext(), which returns twice,
 * leaves no variable of the caller's loop to be clobbered. */
static int uc_task_init(struct coop_task *t, void *stack)
{
	if (getcontext(&t->uc) != 0)
		return -1;
	t->uc.uc_stack.ss_sp = stack;
	t->uc.uc_stack.ss_size = COOP_STACK_BYTES;
	t->uc.uc_link = NULL; /* never used: a task never returns */
	uintptr_t p = (uintptr_t)t;
	makecontext(&t->uc, (void (*)(void))task_main_uc, 2, (unsigned)(p & 0xffffffffu),
		    (unsigned)((uint64_t)p >> 32));
	return 0;
}

/* One block of n cycles with swapcontext. Returns 0 or -errno. */
static int block_uc(struct coop_sched *s, uint64_t n)
{
	unsigned k = s->next;
	s->remaining = n;
	for (uint64_t i = 0; i < n; i++) {
		struct coop_task *t = &s->tasks[k];
		if (++k == s->ntasks)
			k = 0;
		if (swapcontext(&s->main_uc, &t->uc) != 0)
			return -errno;
	}
	s->next = k;
	return s->remaining == 0 ? 0 : -EPROTO;
}

#if defined(__x86_64__)
/* coop_switch_x86_64.S */
void rtc_coop_switch(void **save_sp, void *to_sp);
void rtc_coop_trampoline(void);

static void task_main_asm(void *arg)
{
	struct coop_task *t = arg;
	struct coop_sched *s = t->s;
	for (;;) {
		s->remaining--;
		rtc_coop_switch(&t->sp, s->main_sp);
	}
}

/* The frame rtc_coop_switch pops on a task's first switch: r15 r14 r13 r12
 * rbx rbp, then the return address (the trampoline), placed so that rsp is
 * 16-byte aligned after the `ret`. r13 = function, r12 = argument. */
static void *asm_initial_sp(void *stack, size_t bytes, struct coop_task *t)
{
	uintptr_t top = ((uintptr_t)stack + bytes) & ~(uintptr_t)15;
	uint64_t *f = (uint64_t *)(top - 72);
	memset(f, 0, 72);
	f[2] = (uint64_t)(uintptr_t)task_main_asm;
	f[3] = (uint64_t)(uintptr_t)t;
	f[6] = (uint64_t)(uintptr_t)rtc_coop_trampoline;
	return f;
}

static int block_asm(struct coop_sched *s, uint64_t n)
{
	unsigned k = s->next;
	s->remaining = n;
	for (uint64_t i = 0; i < n; i++) {
		struct coop_task *t = &s->tasks[k];
		if (++k == s->ntasks)
			k = 0;
		rtc_coop_switch(&s->main_sp, t->sp);
	}
	s->next = k;
	return s->remaining == 0 ? 0 : -EPROTO;
}
#define COOP_HAVE_ASM 1
#else
#define COOP_HAVE_ASM 0
static void *asm_initial_sp(void *stack, size_t bytes, struct coop_task *t)
{
	(void)stack;
	(void)bytes;
	(void)t;
	return NULL;
}
static int block_asm(struct coop_sched *s, uint64_t n)
{
	(void)s;
	(void)n;
	return -ENOTSUP;
}
#endif

static int parse(const char *text, const char *name, uint64_t max, uint64_t *out,
		 char *buf, size_t len)
{
	char e[200];
	if (units_count_parse(text, max, out, e, sizeof e) == 0)
		return 0;
	snprintf(buf, len, "coop-sched: %s %s: %s", name, text, e);
	return -EINVAL;
}

static const char *coop_check(const char *const *values, char *buf, size_t len)
{
	uint64_t v;
	if (parse(values[0], "tasks", COOP_MAX_TASKS, &v, buf, len) != 0 ||
	    parse(values[1], "cycles", UINT64_C(1) << 40, &v, buf, len) != 0)
		return buf;
	return NULL;
}

static int coop_run(struct probe_ctx *c)
{
	char e[300];
	uint64_t ntasks, cycles;
	bool use_asm = strcmp(probe_value(c, "switch"), "asm") == 0;
	if (parse(probe_value(c, "tasks"), "tasks", COOP_MAX_TASKS, &ntasks, e, sizeof e) != 0 ||
	    parse(probe_value(c, "cycles"), "cycles", UINT64_C(1) << 40, &cycles, e, sizeof e) != 0)
		return probe_fail(c, EINVAL, "%s", e);
	if (use_asm && !COOP_HAVE_ASM) {
		struct utsname u;
		return probe_fail(c, ENOTSUP,
				  "switch=asm is not supported here: the hand-written context "
				  "switch is x86-64 only and this machine is %s; use switch=ucontext",
				  uname(&u) == 0 ? u.machine : "another architecture");
	}
	if (cycles < c->iterations)
		return probe_fail(c, EINVAL,
				  "cycles (%llu) must be at least iterations (%llu): each sample "
				  "times cycles / iterations cycles",
				  (unsigned long long)cycles, (unsigned long long)c->iterations);
	uint64_t block = cycles / c->iterations;

	int rc = 0;
	struct coop_sched s = { .ntasks = (unsigned)ntasks, .c = c };
	size_t stack_total = (size_t)ntasks * COOP_STACK_BYTES;
	s.tasks = calloc(ntasks, sizeof *s.tasks);
	char *stacks = mmap(NULL, stack_total, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stacks == MAP_FAILED)
		stacks = NULL;
	if (!s.tasks || !stacks) {
		rc = probe_fail(c, ENOMEM, "cannot allocate %llu task stacks: %s",
				(unsigned long long)ntasks, strerror(ENOMEM));
		goto cleanup;
	}
	/* Every page of every stack written before anything is timed. */
	memset(stacks, 0, stack_total);
	for (unsigned i = 0; i < s.ntasks; i++) {
		struct coop_task *t = &s.tasks[i];
		void *stack = stacks + (size_t)i * COOP_STACK_BYTES;
		t->s = &s;
		if (use_asm) {
			t->sp = asm_initial_sp(stack, COOP_STACK_BYTES, t);
			continue;
		}
		if (uc_task_init(t, stack) != 0) {
			rc = probe_fail(c, errno, "getcontext: %s", strerror(errno));
			goto cleanup;
		}
	}
	int (*run_block)(struct coop_sched *, uint64_t) = use_asm ? block_asm : block_uc;

	probe_set_scale(c, 0, 1.0 / (double)block);
	c->res->state = WS_WARMUP;
	/* The first switch into each task starts it: part of the warm-up
	 * whatever `warmup` says. */
	if ((rc = run_block(&s, s.ntasks)) != 0)
		goto switch_failed;
	for (uint64_t w = 0; w < c->warmup && !*c->stop; w++)
		if ((rc = run_block(&s, block)) != 0)
			goto switch_failed;
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t t0 = tb_now();
			/* Keep the compiler from moving the block across a read. */
			__asm__ __volatile__("" ::: "memory");
			rc = run_block(&s, block);
			__asm__ __volatile__("" ::: "memory");
			uint64_t t1 = tb_now();
			if (rc != 0)
				goto switch_failed;
			probe_record(c, 0, t1 - t0);
		}
		probe_run_end(c, i);
	}
	goto cleanup;

switch_failed:
	if (rc == -EPROTO)
		rc = probe_fail(c, EPROTO, "a task did not decrement the counter");
	else
		rc = probe_fail(c, -rc, "swapcontext in the scheduler: %s", strerror(-rc));
cleanup:
	if (stacks)
		munmap(stacks, stack_total);
	free(s.tasks);
	return rc;
}

/* `cycles` a run whatever the iterations (its samples split them):
 * swapcontext's sigprocmask makes a cycle some 500 ns, the hand-written
 * switch some 30. The warm-up's few blocks are left out. */
static void coop_pace(const char *const *values, struct probe_pace *out)
{
	double cycle = strcmp(values[2], "asm") == 0 ? 30e-9 : 500e-9;
	out->run_s = probe_decl_value_count(values[1]) * cycle;
}

const struct probe probe_coop_sched = {
	.decl.name = "coop-sched",
	.decl.pace = coop_pace,
	.decl.verifies = "nothing beyond the worker: its tasks are user-level contexts of the "
		"worker's one thread",
	.decl.help = "one cycle of a minimal cooperative user-level scheduler: pick a task, switch "
		"to it, it decrements a counter and yields (as cttimer does)",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	.decl.check = coop_check,
	.run = coop_run,
};
