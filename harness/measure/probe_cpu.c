/* SPDX-License-Identifier: Apache-2.0 */
/* probe_cpu.c - the CPUs a probe measures on: a placement's pair and a
 * cpulist parameter's CPUs, among those allowed to the worker; see
 * probe.h (probe_pick_cpus, probe_cpus), and the merged metric of a probe
 * that keeps one series per CPU (result_merge_series). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

int probe_pick_cpus(const struct probe_ctx *c, const char *placement, int *a, int *b)
{
	*a = *b = -1;
	if (!placement || strcmp(placement, "unpinned") == 0)
		return 0;
	int base = c->cpu >= 0 ? c->cpu : (c->ncpus > 0 ? c->allowed[0] : 0);
	if (strcmp(placement, "same-cpu") == 0) {
		*a = *b = base;
		return 0;
	}
	if (strcmp(placement, "cross-cpu") == 0) {
		for (int i = 0; i < c->ncpus; i++) {
			if (c->allowed[i] == base) {
				if (c->ncpus < 2)
					break;
				*a = base;
				*b = c->allowed[(i + 1) % c->ncpus];
				return 0;
			}
		}
		if (c->ncpus >= 2) {
			*a = base;
			*b = c->allowed[0] == base ? c->allowed[1] : c->allowed[0];
			return 0;
		}
		return -ENODEV;
	}
	return -EINVAL;
}

int probe_cpus(const struct probe_ctx *c, const char *param, int *cpus, int max)
{
	const char *list = probe_value(c, param);
	int n = 0;
	if (!list || strcmp(list, "all") == 0) {
		if (c->cpu >= 0) {
			cpus[0] = c->cpu;
			return 1;
		}
		for (int i = 0; i < c->ncpus; i++) {
			if (n == max)
				return probe_fail(c, E2BIG, "%d CPUs allowed, at most %d can be "
					  "measured at once: give a %s list", c->ncpus, max,
					  param);
			cpus[n++] = c->allowed[i];
		}
		if (!n)
			return probe_fail(c, ENODEV, "no CPU is allowed to this process");
		return n;
	}
	cpu_set_t set;
	if (cpulist_parse(list, &set) != 0)
		return probe_fail(c, EINVAL, "%s '%s' is not a CPU list below %d", param, list,
				  CPU_SETSIZE);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		bool allowed = false;
		for (int i = 0; i < c->ncpus && !allowed; i++)
			allowed = c->allowed[i] == cpu;
		if (!allowed)
			return probe_fail(c, EINVAL, "%s '%s': CPU %d is not online or not "
					  "allowed to rtconform (%d CPUs allowed)", param, list, cpu,
					  c->ncpus);
		if (n == max)
			return probe_fail(c, E2BIG, "%s '%s' selects more than %d CPUs", param, list, max);
		cpus[n++] = cpu;
	}
	return n;
}

void result_merge_series(struct result_shm *res)
{
	struct metric_data *m0 = result_metric(res, 0);
	uint32_t n = res->nseries < res->nseries_alloc ? res->nseries : res->nseries_alloc;
	if (n == 0)
		return; /* no series used (sem-pingpong's one pair): metric 0 as recorded */
	hist_reset(&m0->hist);
	if (metric_neg(m0))
		hist_reset(metric_neg(m0));
	memset(m0->runs, 0, sizeof m0->runs);
	for (uint32_t i = 0; i < n; i++) {
		struct metric_data *s = result_series(res, i);
		hist_merge(&m0->hist, &s->hist);
		if (metric_neg(m0) && metric_neg(s))
			hist_merge(metric_neg(m0), metric_neg(s));
		for (uint32_t r = 0; r < RTC_MAX_RUNS; r++)
			m0->runs[r] = run_stat_merge(m0->runs[r], s->runs[r]);
	}
}
