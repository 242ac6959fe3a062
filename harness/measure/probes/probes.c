/* SPDX-License-Identifier: Apache-2.0 */
/* probes.c - the table built from RTC_PROBES, and lookups. */
#include "harness/measure/probes/probes.h"

#include <string.h>

#define RTC_PROBE_ENTRY(n) &probe_##n,
const struct probe *const probe_table[] = { RTC_PROBES(RTC_PROBE_ENTRY) };
#undef RTC_PROBE_ENTRY
const size_t probe_count = sizeof probe_table / sizeof probe_table[0];

#define RTC_DECL_ENTRY(n) &probe_##n.decl,
static const struct probe_decl *const decls[] = { RTC_PROBES(RTC_DECL_ENTRY) };
#undef RTC_DECL_ENTRY
const struct probe_catalog probe_catalog = { decls, sizeof decls / sizeof decls[0] };

const struct probe *probe_find(const char *name)
{
	for (size_t i = 0; name && i < probe_count; i++)
		if (strcmp(probe_table[i]->decl.name, name) == 0)
			return probe_table[i];
	return NULL;
}
