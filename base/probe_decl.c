/* SPDX-License-Identifier: Apache-2.0 */
/* probe_decl.c - lookups in probe declarations; see probe_decl.h. */
#include "base/probe_decl.h"

#include <stdlib.h>
#include <string.h>

#include "base/units.h"

const struct probe_decl *probe_decl_catalog_find(const struct probe_catalog *c, const char *name)
{
	for (size_t i = 0; name && i < c->n; i++)
		if (strcmp(c->probes[i]->name, name) == 0)
			return c->probes[i];
	return NULL;
}

double probe_decl_value_s(const char *v)
{
	char err[200];
	uint64_t ns;
	return v && units_duration_parse_ns(v, false, &ns, err, sizeof err) == 0 ? (double)ns / 1e9 : 0;
}

double probe_decl_value_count(const char *v)
{
	char *end;
	if (!v || !*v)
		return 0;
	unsigned long long n = strtoull(v, &end, 10);
	return *end ? 0 : (double)n;
}

int probe_decl_param_index(const struct probe_decl *p, const char *name)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (strcmp(p->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

const struct probe_metric probe_decl_harness_metrics[PROBE_HARNESS_METRICS] = {
	[HM_PAGE_FAULTS] = { "page-faults", "page faults (minor + major) in a run, every task of "
			     "the measurement", METRIC_COUNT },
	[HM_MAJOR_FAULTS] = { "major-faults", "major page faults (that needed I/O) in a run",
			      METRIC_COUNT },
	[HM_INVOLUNTARY_SWITCHES] = { "involuntary-switches", "times a task of the measurement "
				      "was preempted in a run", METRIC_COUNT },
};

static const char *const kind_names[] = {
	[METRIC_DURATION] = "duration",
	[METRIC_COUNT] = "count",
};

const char *probe_decl_metric_kind_name(enum metric_kind k)
{
	return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

bool probe_decl_metric_kind_parse(const char *s, enum metric_kind *out)
{
	for (unsigned i = 0; s && i < sizeof kind_names / sizeof kind_names[0]; i++)
		if (strcmp(s, kind_names[i]) == 0) {
			*out = (enum metric_kind)i;
			return true;
		}
	return false;
}

size_t probe_decl_nmetrics(const struct probe_decl *p)
{
	return p->nmetrics + PROBE_HARNESS_METRICS;
}

const struct probe_metric *probe_decl_metric(const struct probe_decl *p, size_t i)
{
	if (i < p->nmetrics)
		return &p->metrics[i];
	if (i - p->nmetrics < PROBE_HARNESS_METRICS)
		return &probe_decl_harness_metrics[i - p->nmetrics];
	return NULL;
}

uint64_t probe_decl_metric_samples(const struct probe_decl *p, size_t i, uint64_t iterations,
				   uint64_t runs, bool *per_cpu, uint64_t *per_it)
{
	const struct probe_metric *m = p ? probe_decl_metric(p, i) : NULL;
	unsigned declared = m && i < p->nmetrics && p->per_iteration ? p->per_iteration[i] : 1;
	*per_cpu = m && m->kind == METRIC_DURATION && declared == PROBE_PER_CPU;
	*per_it = 1;
	if (m && m->kind == METRIC_COUNT)
		return runs;
	uint64_t k = declared > 1 && !*per_cpu ? declared : 1;
	*per_it = k;
	if (iterations && runs > UINT64_MAX / iterations)
		return UINT64_MAX;
	uint64_t n = iterations * runs;
	return n > UINT64_MAX / k ? UINT64_MAX : n * k;
}

/* No name: the first metric, which a limit that names none is about. */
int probe_decl_metric_index(const struct probe_decl *p, const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < probe_decl_nmetrics(p); i++)
		if (strcmp(probe_decl_metric(p, i)->name, name) == 0)
			return (int)i;
	return -1;
}
