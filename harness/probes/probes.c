/* probes.c - the table built from RTC_PROBES, and lookups. */
#include "probes.h"

#include <string.h>

#define RTC_PROBE_ENTRY(n) &probe_##n,
const struct probe *const probe_table[] = { RTC_PROBES(RTC_PROBE_ENTRY) };
#undef RTC_PROBE_ENTRY
const size_t probe_count = sizeof probe_table / sizeof probe_table[0];

const struct probe *probe_find(const char *name)
{
	for (size_t i = 0; name && i < probe_count; i++)
		if (strcmp(probe_table[i]->name, name) == 0)
			return probe_table[i];
	return NULL;
}

int probe_param_index(const struct probe *p, const char *name)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (strcmp(p->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

int probe_metric_index(const struct probe *p, const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < p->nmetrics; i++)
		if (strcmp(p->metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}
