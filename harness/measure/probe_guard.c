/* SPDX-License-Identifier: Apache-2.0 */
/* probe_guard.c - the guard against the kernel's RT throttling: rests
 * between runs of a real-time worker, and the note on what it did; see
 * probe.h (probe_rt_guard_init). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long read_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

bool probe_rt_guarded(const struct probe *p, int policy)
{
	return policy != SCHED_OTHER && p && !p->mostly_sleeps;
}

bool probe_rt_guard_plan(long runtime_us, long period_us, uint64_t *budget_ns, uint64_t *rest_ns)
{
	if (runtime_us < 0 || period_us <= runtime_us) /* -1: throttling off */
		return false;
	*budget_ns = (uint64_t)runtime_us * 1000u / 2u;
	*rest_ns = 2u * (uint64_t)(period_us - runtime_us) * 1000u;
	return true;
}

bool probe_rt_guard_plan_machine(uint64_t *budget_ns, uint64_t *rest_ns)
{
	return probe_rt_guard_plan(read_long("/proc/sys/kernel/sched_rt_runtime_us"),
				   read_long("/proc/sys/kernel/sched_rt_period_us"), budget_ns,
				   rest_ns);
}

void probe_rt_guard_init(struct probe_ctx *c)
{
	memset(&c->rt, 0, sizeof c->rt);
	uint64_t budget_ns, rest_ns;
	if (!c->tb || !probe_rt_guarded(c->probe, c->policy) ||
	    !probe_rt_guard_plan_machine(&budget_ns, &rest_ns))
		return;
	c->rt.runtime = (uint64_t)((double)(2u * budget_ns) / c->tb->ns_per_tick);
	c->rt.budget = c->rt.runtime / 2;
	c->rt.rest.tv_sec = (time_t)(rest_ns / 1000000000u);
	c->rt.rest.tv_nsec = (long)(rest_ns % 1000000000u);
	c->rt.since = tb_now();
}

void probe_rt_guard_rest(struct probe_ctx *c)
{
	if (!probe_rt_guard_due(tb_now() - c->rt.since, c->rt.longest_run, c->rt.budget))
		return;
	struct timespec left = c->rt.rest;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left) == EINTR)
		;
	c->rt.rests++;
	c->rt.since = tb_now();
}

void probe_rt_guard_note(struct probe_ctx *c)
{
	char *n = c->res->note;
	size_t len = sizeof c->res->note, used = strlen(n);
	double ms = c->tb ? c->tb->ns_per_tick / 1e6 : 0;
	if (c->rt.rests && used + 2 < len)
		used += (size_t)snprintf(n + used, len - used,
					 "%srested %ld ms %u time%s between runs to stay under the "
					 "kernel's RT throttling.", used ? " " : "",
					 (long)(c->rt.rest.tv_sec * 1000 + c->rt.rest.tv_nsec / 1000000),
					 c->rt.rests, c->rt.rests == 1 ? "" : "s");
	if (c->rt.runtime && c->rt.longest_run > c->rt.runtime && used + 2 < len)
		snprintf(n + used, len - used,
			 "%sa run took %.0f ms, over the RT runtime (%.0f ms): throttling may "
			 "have stopped it; use shorter runs.", used ? " " : "",
			 (double)c->rt.longest_run * ms, (double)c->rt.runtime * ms);
}
