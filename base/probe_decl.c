/* probe_decl.c - lookups in probe declarations; see probe_decl.h. */
#include "base/probe_decl.h"

#include <string.h>

const struct probe_decl *catalog_find(const struct probe_catalog *c, const char *name)
{
	for (size_t i = 0; name && i < c->n; i++)
		if (strcmp(c->probes[i]->name, name) == 0)
			return c->probes[i];
	return NULL;
}

int decl_param_index(const struct probe_decl *p, const char *name)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (strcmp(p->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* No name: the first metric, which a limit that names none is about. */
int decl_metric_index(const struct probe_decl *p, const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < p->nmetrics; i++)
		if (strcmp(p->metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}
