/* model.c - see model.h. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

const char *policy_name(enum sched_policy p)
{
	switch (p) {
	case POLICY_OTHER:
		return "other";
	case POLICY_FIFO:
		return "fifo";
	case POLICY_RR:
		return "rr";
	}
	return "?";
}

const char *req_param(const struct requirement *r, const char *name)
{
	for (size_t i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	return NULL;
}

static void load_free(struct req_load *l)
{
	if (!l)
		return;
	free(l->tool);
	free(l->args);
	free(l);
}

static void requirement_free(struct requirement *r)
{
	free(r->id);
	free(r->title);
	free(r->source);
	free(r->probe);
	for (size_t i = 0; i < r->nparams; i++) {
		free(r->params[i].name);
		free(r->params[i].value);
	}
	for (size_t i = 0; i < r->nlimits; i++) {
		struct req_limit *l = &r->limits[i];
		free(l->metric);
		free(l->stat_text);
		free(l->max_text);
		free(l->min_text);
	}
	/* A requirement without its own <load> points at the file's; that
	 * one is freed once, by req_file_free. */
	if (r->load_owned)
		load_free(r->load);
}

void req_file_free(struct req_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nreqs; i++)
		requirement_free(&f->reqs[i]);
	free(f->reqs);
	load_free(f->load);
	free(f->path);
	free(f->name);
	free(f->version);
	free(f->title);
	free(f);
}
