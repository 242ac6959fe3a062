/* SPDX-License-Identifier: Apache-2.0 */
/* estimate.c - see estimate.h. */
#include "harness/estimate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"

/* What sets a probe's pace. The figures are deliberately round: an
 * estimate tells a minute from an hour, not a second from two. */
struct pace {
	const char *probe;
	/* NULL: a fixed cost of ns per iteration. A duration parameter: its
	 * value times ns (1: the value itself). A count parameter: its value
	 * times ns. */
	const char *param;
	double ns;
	/* The pace is of a whole run (the probe says "iterations not used",
	 * or the parameter counts a run's work), not of an iteration. */
	bool per_run;
};

static const struct pace paces[] = {
	{ "sem-pingpong", NULL, 10e3, false },
	{ "thread-create", NULL, 50e3, false },
	{ "process-create", NULL, 500e3, false },
	{ "clone", NULL, 50e3, false },
	{ "selftest", NULL, 1e3, false },
	{ "overhead", "batch", 30, false },        /* batch operations per sample */
	{ "coop-sched", "cycles", 100, true },     /* cycles per run */
	{ "timer-wakeup", "interval", 1, false },  /* one wake-up a period */
	{ "priority-inherit", "hold", 2, false },  /* the hold and the high task's wait */
	{ "priority-wake", NULL, 200e3, false },
	{ "rt-migrate", "busy", 2, false },        /* a release's tasks spin busy */
	{ "priority-preempt", "duration", 1, true },
	{ "deadline", "period", 1, false },        /* one job a period */
	{ "rr-quantum", "duration", 1, true },
	{ "timer-semantics", "interval", 1, false },
};

static const struct pace *pace_of(const char *probe)
{
	for (size_t i = 0; i < sizeof paces / sizeof paces[0]; i++)
		if (probe && strcmp(paces[i].probe, probe) == 0)
			return &paces[i];
	return NULL;
}

bool estimate_knows_probe(const char *name)
{
	return pace_of(name) != NULL;
}

/* The pace's ns for requirement r: of an iteration, or of a run. A value
 * the validator would refuse counts as 0. */
static double pace_ns(const struct pace *p, const struct probe_decl *d,
		      const struct requirement *r)
{
	if (!p->param)
		return p->ns;
	int k = probe_decl_param_index(d, p->param);
	if (k < 0)
		return 0;
	const char *v = req_param(r, p->param);
	if (!v)
		v = d->params[k].def;
	if (d->params[k].kind == PARAM_DURATION) {
		char err[200];
		uint64_t ns;
		return units_duration_parse_ns(v, false, &ns, err, sizeof err) ? 0 : (double)ns * p->ns;
	}
	char *end;
	unsigned long long n = strtoull(v, &end, 10);
	return *end ? 0 : (double)n * p->ns;
}

double estimate_requirement_s(const struct requirement *r, const struct run_options *o)
{
	const struct probe *pr = probe_find(r->probe);
	const struct pace *p = pace_of(r->probe);
	if (!pr || !p)
		return 0;
	uint64_t iterations, runs, warmup;
	runner_counts(r, o, &iterations, &runs, &warmup);
	double ns = pace_ns(p, &pr->decl, r);
	double run_s = p->per_run ? ns / 1e9 : ns * (double)iterations / 1e9;
	double warm_s = p->per_run ? 0 : ns * (double)warmup / 1e9;
	uint64_t duration_ns = runner_duration(r, o);
	if (duration_ns)
		return ESTIMATE_REQ_OVERHEAD_S + warm_s + (double)duration_ns / 1e9;
	return ESTIMATE_REQ_OVERHEAD_S + warm_s +
	       (double)runs * (run_s + ESTIMATE_RUN_OVERHEAD_S);
}

double estimate_file_s(const struct req_file *f, const struct run_options *o)
{
	double s = 0;
	for (size_t i = 0; i < f->nreqs; i++)
		s += estimate_requirement_s(&f->reqs[i], o);
	return s;
}
