/* SPDX-License-Identifier: Apache-2.0 */
/* run_metrics.c - `rtconform run --metrics FILE` (run_metrics.h). */
#include "cli/run_metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "base/utf8.h"
#include "harness/runinfo.h"
#include "reports/report.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Render and replace FILE. A failure is said once; the run goes on (the
 * reports at the end hold every figure). */
static void write_now(struct run_metrics *rm)
{
	size_t len = 0;
	char *text = openmetrics_render(&rm->run, &len);
	int e = text ? report_atomic_write(rm->path, text, len) : -ENOMEM;
	free(text);
	rm->last = now_s();
	if (e && !rm->warned) {
		rm->warned = true;
		termsafe_println(stderr, "rtconform run: --metrics: cannot write '%s': %s; the run "
				 "goes on, its reports at the end hold every figure",
				 rm->path, strerror(-e));
	}
}

/* The first pending requirement is the one measured next: requirements
 * are measured one at a time, in order, each as soon as the one before
 * ended. */
static void next_running(struct run_metrics *rm)
{
	for (size_t i = 0; i < rm->run.nreqs; i++)
		if (rm->reqs[i].state == OM_PENDING) {
			rm->reqs[i].state = OM_RUNNING;
			return;
		}
}

void run_metrics_begin(struct run_metrics *rm, const char *path, struct req_file **files,
		       size_t nfiles, bool (*selected)(const char *only, const char *id),
		       const char *only, const struct fingerprint *env, time_t started)
{
	memset(rm, 0, sizeof *rm);
	if (!path)
		return;
	size_t n = 0, k = 0;
	for (size_t f = 0; f < nfiles; f++)
		n += files[f]->nreqs;
	rm->reqs = calloc(n ? n : 1, sizeof *rm->reqs);
	rm->req = calloc(n ? n : 1, sizeof *rm->req);
	if (!rm->reqs || !rm->req) {
		termsafe_println(stderr, "rtconform run: out of memory");
		abort(); /* as every other allocation of a run that cannot go on */
	}
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++) {
			const struct requirement *r = &files[f]->reqs[i];
			if (!selected(only, r->id))
				continue;
			rm->req[k] = r;
			rm->reqs[k++] = (struct om_req){
				.suite = files[f]->name ? files[f]->name : "", .id = r->id,
				.probe = r->probe, .state = OM_PENDING };
		}
	const char *label = fingerprint_get(env, "host.label");
	const char *name = fingerprint_get(env, "host.name");
	utf8_snprintf(rm->host, sizeof rm->host, "%s",
		 label && label[0] ? label : name && name[0] ? name : "unknown");
	utf8_snprintf(rm->hostname, sizeof rm->hostname, "%s", name ? name : "");
	rm->run = (struct om_run){ .host = rm->host, .hostname = name ? rm->hostname : NULL,
				   .version = runinfo_version,
				   .commit = runinfo_commit, .started = (int64_t)started,
				   .reqs = rm->reqs, .nreqs = k };
	rm->path = path;
	rm->on = true;
	next_running(rm);
	write_now(rm);
}

/* The entry of r's requirement, or NULL (one the run does not measure). */
static struct om_req *entry_of(struct run_metrics *rm, const struct req_result *r)
{
	for (size_t i = 0; i < rm->run.nreqs; i++)
		if (rm->req[i] == r->req)
			return &rm->reqs[i];
	return NULL;
}

void run_metrics_checkpoint(struct run_metrics *rm, const struct req_result *partial)
{
	struct om_req *e = rm->on ? entry_of(rm, partial) : NULL;
	if (!e)
		return;
	bool first = !e->judged;
	e->state = OM_RUNNING;
	openmetrics_summarise(partial, true, e);
	if (first || now_s() - rm->last >= RUN_METRICS_GAP_S)
		write_now(rm);
}

void run_metrics_finished(struct run_metrics *rm, const struct req_result *r)
{
	struct om_req *e = rm->on ? entry_of(rm, r) : NULL;
	if (!e)
		return;
	e->state = OM_DONE;
	openmetrics_summarise(r, false, e);
	next_running(rm);
	write_now(rm);
}

void run_metrics_end(struct run_metrics *rm)
{
	if (!rm->on)
		return;
	rm->run.finished = true;
	write_now(rm);
	free(rm->reqs);
	free(rm->req);
	memset(rm, 0, sizeof *rm);
}
