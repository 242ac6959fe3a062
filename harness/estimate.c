/* SPDX-License-Identifier: Apache-2.0 */
/* estimate.c - see estimate.h. */
#include "harness/estimate.h"

#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "harness/measure/probes/probes.h"

void estimate_guard_of_machine(struct estimate_guard *g)
{
	uint64_t budget_ns, rest_ns;
	memset(g, 0, sizeof *g);
	if (probe_rt_guard_plan_machine(&budget_ns, &rest_ns)) {
		g->budget_s = (double)budget_ns / 1e9;
		g->rest_s = (double)rest_ns / 1e9;
	}
}

bool estimate_probe_pace(const struct probe_decl *d, const struct requirement *r,
			 struct probe_pace *out)
{
	memset(out, 0, sizeof *out);
	if (!d->pace || d->nparams > PROBE_MAX_PARAMS)
		return false;
	const char *values[PROBE_MAX_PARAMS] = { 0 };
	for (size_t i = 0; i < d->nparams; i++) {
		const char *v = r ? req_param(r, d->params[i].name) : NULL;
		values[i] = v ? v : d->params[i].def;
	}
	d->pace(values, out);
	return true;
}

/* Seconds the guard rests in `runs` runs of run_s each, begun busy_s after
 * its last rest (the warm-up), as probe_rt_guard_rest decides in the
 * worker: before a run whose busy time since the last rest plus the
 * longest run so far passes the budget. */
static double guard_rests_s(const struct estimate_guard *g, uint64_t runs, double busy_s,
			    double run_s)
{
	if (!(g->budget_s > 0))
		return 0;
	double rested = 0, longest = 0;
	uint64_t budget = (uint64_t)(g->budget_s * 1e9);
	for (uint64_t i = 0; i < runs; i++) {
		if (probe_rt_guard_due((uint64_t)(busy_s * 1e9), (uint64_t)(longest * 1e9), budget)) {
			rested += g->rest_s;
			busy_s = 0;
		}
		busy_s += run_s;
		longest = run_s;
	}
	return rested;
}

double estimate_requirement_s(const struct requirement *r, const struct run_options *o,
			      const struct estimate_guard *g)
{
	const struct probe *pr = probe_find(r->probe);
	struct probe_pace p;
	if (!pr || !estimate_probe_pace(&pr->decl, r, &p))
		return 0;
	uint64_t iterations, runs, warmup;
	runner_counts(r, o, &iterations, &runs, &warmup);
	double run_s = p.run_s + p.iteration_s * (double)iterations + ESTIMATE_RUN_OVERHEAD_S;
	double warm_s = p.warmup_run ? (warmup ? run_s : 0) : p.iteration_s * (double)warmup;
	uint64_t duration_ns = runner_duration(r, o);
	if (duration_ns) /* the rests fall within the duration */
		return ESTIMATE_REQ_OVERHEAD_S + warm_s + (double)duration_ns / 1e9;
	double rests_s = 0;
	if (g && probe_rt_guarded(pr, req_sched_policy(r->policy)))
		rests_s = guard_rests_s(g, runs, warm_s, run_s);
	return ESTIMATE_REQ_OVERHEAD_S + warm_s + (double)runs * run_s + rests_s;
}

double estimate_file_s(const struct req_file *f, const struct run_options *o,
		       const struct estimate_guard *g)
{
	double s = 0;
	for (size_t i = 0; i < f->nreqs; i++)
		s += estimate_requirement_s(&f->reqs[i], o, g);
	return s;
}
