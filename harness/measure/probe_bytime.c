/* SPDX-License-Identifier: Apache-2.0 */
/* probe_bytime.c - runs by time in the worker: the deadline, the recorded
 * run a measured run goes into (merging recorded runs two by two when they
 * run out) and the note saying how it went; see probe.h
 * (probe_by_time_slot). */
#include "harness/measure/probe.h"

#include <stdio.h>
#include <string.h>

_Static_assert(RTC_MAX_RUNS % 2 == 0, "recorded runs are merged two by two");

/* Recorded runs 2k and 2k+1 become k, for every metric block (the series
 * too) and the run times; the upper half is cleared. */
static void by_time_fold(struct probe_ctx *c)
{
	struct result_shm *res = c->res;
	unsigned blocks = res->nmetrics + res->nseries_alloc;
	for (unsigned b = 0; b < blocks; b++) {
		struct run_stat *rs = result_metric(res, b)->runs;
		for (uint32_t k = 0; k < RTC_MAX_RUNS / 2; k++) {
			rs[k] = run_stat_merge(rs[2 * k], rs[2 * k + 1]);
		}
		memset(rs + RTC_MAX_RUNS / 2, 0, sizeof *rs * (RTC_MAX_RUNS / 2));
	}
	for (uint32_t k = 0; k < RTC_MAX_RUNS / 2; k++) {
		struct run_info a = res->runs[2 * k], z = res->runs[2 * k + 1];
		res->runs[k] = (struct run_info){
			.t_begin = a.t_begin,
			.t_end = a.t_begin + (a.t_end - a.t_begin) + (z.t_end - z.t_begin),
			.iterations = a.iterations + z.iterations,
		};
	}
	memset(res->runs + RTC_MAX_RUNS / 2, 0, sizeof res->runs[0] * (RTC_MAX_RUNS / 2));
	c->by_time.shift++;
}

uint32_t probe_by_time_slot(struct probe_ctx *c, uint32_t r)
{
	if (r == 0) {
		double ticks = (double)c->duration_ns / c->tb->ns_per_tick;
		c->by_time.deadline = tb_now() + (uint64_t)ticks;
	}
	c->by_time.raw = r;
	while ((r >> c->by_time.shift) >= RTC_MAX_RUNS)
		by_time_fold(c);
	return r >> c->by_time.shift;
}

void probe_by_time_check(struct probe_ctx *c)
{
	if (tb_now() < c->by_time.deadline)
		return;
	c->runs = c->by_time.raw + 1;
	c->by_time.reached = true;
}

void probe_by_time_note(struct probe_ctx *c)
{
	if (!c->duration_ns)
		return;
	char *n = c->res->note;
	size_t len = sizeof c->res->note, used = strlen(n);
	uint64_t measured = c->by_time.reached ? c->runs : c->by_time.raw + 1;
	if (used + 2 < len)
		snprintf(n + used, len - used, "%sran by time: %llu runs measured, recorded as "
			 "%u runs (each holding up to %llu measured run%s).", used ? " " : "",
			 (unsigned long long)measured, c->res->runs_done, 1ull << c->by_time.shift,
			 c->by_time.shift ? "s" : "");
}

