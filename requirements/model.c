/* SPDX-License-Identifier: Apache-2.0 */
/* model.c - see model.h. */
#include "requirements/model.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int req_sched_policy(enum sched_policy p)
{
	switch (p) {
	case POLICY_FIFO:
		return SCHED_FIFO;
	case POLICY_RR:
		return SCHED_RR;
	case POLICY_OTHER:
	default:
		return SCHED_OTHER;
	}
}

int req_priority(const struct requirement *r)
{
	int pol = req_sched_policy(r->policy);
	if (pol == SCHED_OTHER)
		return 0;
	if (r->priority_max)
		return sched_get_priority_max(pol);
	return r->priority;
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
	for (size_t i = 0; i < r->nclauses; i++) {
		free(r->clauses[i].ref);
		free(r->clauses[i].title);
	}
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
		free(l->confidence_text);
		free(l->min_text);
	}
	/* A requirement without its own <load> points at the file's; that
	 * one is freed once, by req_file_free. */
	if (r->load_owned)
		load_free(r->load);
	free(r->trace.metric);
	free(r->trace.threshold_text);
}

double req_trip_ns(const struct requirement *r, const char *metric, bool first)
{
	if (r->trace.metric && strcmp(r->trace.metric, metric) != 0)
		return 0;
	if (r->trace.has_threshold)
		return r->trace.threshold_ns;
	double trip = 0;
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct req_limit *l = &r->limits[i];
		bool mine = l->metric ? strcmp(l->metric, metric) == 0 : first;
		if (mine && l->has_max && l->max.unit == QTY_NS && l->max.value > 0 &&
		    (trip == 0 || l->max.value < trip))
			trip = l->max.value;
	}
	return trip;
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

/* What a reader could take for shell syntax. There is no shell, so these
 * would reach the tool literally; refusing them keeps a file from meaning
 * something other than what it appears to say. */
static const char shell_chars[] = "'\"`;|&$<>(){}\\*?[]~#";

/* The blanks load args are split on. */
static bool load_arg_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

const char *load_spec_problem(const struct req_load *l, char *buf, size_t len)
{
	if (!l->tool || strcmp(l->tool, LOAD_TOOL) != 0) {
		snprintf(buf, len, "load tool '%s' is not supported (expected %s)",
			 l->tool ? l->tool : "", LOAD_TOOL);
		return buf;
	}
	const char *a = l->args ? l->args : "";
	size_t words = 0;
	for (const char *p = a; *p; p++) {
		if (strchr(shell_chars, *p)) {
			snprintf(buf, len, "load args: '%c' is not allowed: args are split on blanks "
				 "and passed to %s without a shell (no quoting, no expansion)",
				 *p, LOAD_TOOL);
			return buf;
		}
		if ((unsigned char)*p < 0x20 && !load_arg_blank(*p)) {
			snprintf(buf, len, "load args: control character 0x%02x is not allowed",
				 (unsigned char)*p);
			return buf;
		}
		if (!load_arg_blank(*p) && (p == a || load_arg_blank(p[-1])))
			words++;
	}
	if (words == 0) {
		snprintf(buf, len, "load args are empty: say which stressors %s runs "
			 "(e.g. args=\"--cpu 2 --io 1\")", LOAD_TOOL);
		return buf;
	}
	if (words > LOAD_MAX_ARGS || strlen(a) > LOAD_MAX_ARGS_LEN) {
		snprintf(buf, len, "load args: at most %d arguments and %d characters",
			 LOAD_MAX_ARGS, LOAD_MAX_ARGS_LEN);
		return buf;
	}
	return NULL;
}
