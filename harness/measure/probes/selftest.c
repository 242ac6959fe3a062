/* SPDX-License-Identifier: Apache-2.0 */
/* selftest.c - a probe that checks the harness itself.
 *
 * fault=none times an empty interval (two back-to-back timebase reads): the
 * cheapest complete path through worker, histogram and reports. fault=touch
 * does the same, but first writes to TOUCH_PAGES pages in every run that
 * were given back to the kernel just before it, so each run takes page
 * faults a real-time path must not: the page-faults metric must see them.
 * The other faults make the worker misbehave on purpose, after its first
 * run, so a user (and the tests) can see what rtconform does when a probe
 * crashes, hangs, spins at real-time priority, exits early or fails: each
 * must end as an `error` verdict with the reason, the rest of the suite
 * still runs.
 *
 * samples=ramp records known values instead of measuring: iteration i
 * (from 0) of every run records (i + 1) us, exactly, in ns units, so the
 * statistics and verdicts of a run are known answers whatever the machine
 * (tests of the verdicts, such as tests/cli/confidence.sh).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/measure/probes/probes.h"

static const char *const faults[] = { "none", "touch", "segv", "abort", "hang", "spin",
				      "exit", "fail", NULL };
static const char *const sample_kinds[] = { "measured", "ramp", NULL };

static const struct probe_param params[] = {
	{ "fault", "none: measure an empty interval; touch: the same, after writing to 16 "
		   "pages the kernel took back before the run (page faults in every run); "
		   "segv, abort: crash after the first run; hang: block forever; spin: "
		   "busy-loop without blocking (bounded to 120 s); exit: leave early without "
		   "reporting; fail: report an error",
	  PARAM_ENUM, faults, "none" },
	{ "samples", "measured: the empty interval's time; ramp: known values instead, iteration "
		     "i (from 0) of each run records (i + 1) us, for tests of the verdicts",
	  PARAM_ENUM, sample_kinds, "measured" },
};

/* Pages fault=touch writes to in every run. */
#define TOUCH_PAGES 16

static const struct probe_metric metrics[] = {
	{ "interval", "two back-to-back timebase reads", METRIC_DURATION },
};

static void misbehave(struct probe_ctx *c, const char *fault)
{
	if (!strcmp(fault, "segv")) {
		/* Default action even in sanitizer builds, whose handler would
		 * turn the crash into an exit status. */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	} else if (!strcmp(fault, "abort")) {
		abort();
	} else if (!strcmp(fault, "hang")) {
		for (;;)
			pause();
	} else if (!strcmp(fault, "spin")) {
		/* Bounded even if every watchdog failed. */
		uint64_t end = tb_clock_ns() + UINT64_C(120) * 1000000000u;
		while (!*c->stop) {
			for (volatile unsigned i = 0; i < 1000000u; i++)
				;
			if (tb_clock_ns() > end)
				break;
		}
	} else if (!strcmp(fault, "exit")) {
		_exit(0);
	}
}

/* fault=touch: pages the worker's mlockall locked, unlocked again so that
 * MADV_DONTNEED can take them back before each run. *len 0 when not
 * touching. 0 or -errno after probe_fail. */
static int touch_map(struct probe_ctx *c, const char *fault, char **mem, size_t *len)
{
	*mem = NULL;
	*len = 0;
	if (strcmp(fault, "touch") != 0)
		return 0;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *m = mmap(NULL, TOUCH_PAGES * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || munlock(m, TOUCH_PAGES * page) != 0)
		return probe_fail(c, errno, "selftest: fault=touch: %s", strerror(errno));
	*mem = m;
	*len = TOUCH_PAGES * page;
	return 0;
}

/* Give the pages back (outside the run), so that the run's writes fault. */
static int touch_release(struct probe_ctx *c, char *mem, size_t len)
{
	if (len && madvise(mem, len, MADV_DONTNEED) != 0)
		return probe_fail(c, errno, "selftest: madvise: %s", strerror(errno));
	return 0;
}

/* Inside the run: one write per page, each a page fault. */
static void touch_pages(char *mem, size_t len)
{
	size_t page = len / TOUCH_PAGES;
	for (size_t off = 0; off < len; off += page)
		((volatile char *)mem)[off] = 1;
}

/* samples=ramp: the metric's units are ns, not timebase ticks, and it has
 * no cycles. */
static bool ramp_begin(struct probe_ctx *c)
{
	if (strcmp(probe_value(c, "samples"), "ramp") != 0)
		return false;
	c->m[0]->ns_per_unit = 1.0;
	c->m[0]->cycles_per_unit = 0.0;
	return true;
}

static int selftest_run(struct probe_ctx *c)
{
	const char *fault = probe_value(c, "fault");
	bool ramp = ramp_begin(c);
	char *mem;
	size_t len;
	int rc = touch_map(c, fault, &mem, &len);
	if (rc)
		return rc;
	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup; i++) {
		uint64_t a = tb_now();
		uint64_t b = tb_now();
		__asm__ __volatile__("" : : "r"(b - a));
	}
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		if (len == 0 && (r == 1 || (c->runs == 1 && r == 0 && strcmp(fault, "none")))) {
			if (!strcmp(fault, "fail"))
				return probe_fail(c, EPROTO, "selftest: failure requested (fault=fail)");
			misbehave(c, fault);
		}
		if ((rc = touch_release(c, mem, len)) != 0)
			return rc;
		probe_run_begin(c, r);
		if (len)
			touch_pages(mem, len);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t a = tb_now();
			uint64_t b = tb_now();
			probe_record(c, 0, ramp ? (i + 1) * 1000u : b - a);
		}
		probe_run_end(c, i);
	}
	if (len)
		munmap(mem, len);
	return 0;
}

/* Two timestamps an iteration (a fault asked for takes what it takes). */
static void selftest_pace(const char *const *values, struct probe_pace *out)
{
	(void)values;
	out->iteration_s = 1e-6;
}

const struct probe probe_selftest = {
	.decl.name = "selftest",
	.decl.pace = selftest_pace,
	.decl.verifies = "nothing beyond the worker: it starts no task",
	.decl.help = "checks the harness: an empty interval, or a worker that crashes, hangs, "
		"spins, exits or fails on purpose",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	.run = selftest_run,
};
