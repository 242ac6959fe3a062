/* selftest.c - a probe that checks the harness itself.
 *
 * fault=none times an empty interval (two back-to-back timebase reads): the
 * cheapest complete path through worker, histogram and reports. The other
 * faults make the worker misbehave on purpose, after its first run, so a
 * user (and the tests) can see what rtconform does when a probe crashes,
 * hangs, spins at real-time priority, exits early or fails: each must end
 * as an `error` verdict with the reason, the rest of the suite still runs.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/measure/probes/probes.h"

static const char *const faults[] = { "none", "segv", "abort", "hang", "spin", "exit",
				      "fail", NULL };

static const struct probe_param params[] = {
	{ "fault", "none: measure an empty interval; segv, abort: crash after the first "
		   "run; hang: block forever; spin: busy-loop without blocking (bounded "
		   "to 120 s); exit: leave early without reporting; fail: report an error",
	  PARAM_ENUM, faults, "none" },
};

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

static int selftest_run(struct probe_ctx *c)
{
	const char *fault = probe_value(c, "fault");
	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup; i++) {
		uint64_t a = tb_now();
		uint64_t b = tb_now();
		__asm__ __volatile__("" : : "r"(b - a));
	}
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		if (r == 1 || (c->runs == 1 && r == 0 && strcmp(fault, "none"))) {
			if (!strcmp(fault, "fail"))
				return probe_fail(c, EPROTO, "selftest: failure requested (fault=fail)");
			misbehave(c, fault);
		}
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t a = tb_now();
			uint64_t b = tb_now();
			probe_record(c, 0, b - a);
		}
		probe_run_end(c, i);
	}
	return 0;
}

const struct probe probe_selftest = {
	.decl.name = "selftest",
	.decl.help = "checks the harness: an empty interval, or a worker that crashes, hangs, "
		"spins, exits or fails on purpose",
	.decl.params = params,
	.decl.nparams = sizeof params / sizeof params[0],
	.decl.metrics = metrics,
	.decl.nmetrics = sizeof metrics / sizeof metrics[0],
	.run = selftest_run,
};
