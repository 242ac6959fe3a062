/* SPDX-License-Identifier: Apache-2.0 */
/* runner.c - one forked worker per requirement, under a watchdog. See
 * runner.h for the contract and runner_stages.h for the stages
 * runner_run() drives: prepare, spawn, supervise, classify. This file
 * holds the driver and the result bookkeeping the stages share.
 */
#include "harness/runner.h"
#include "harness/runner_stages.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/explain.h"
#include "harness/measure/probes/probes.h"

void runner_result_init(struct req_result *out, const struct requirement *r,
			const struct req_file *f)
{
	memset(out, 0, sizeof *out);
	out->req = r;
	out->file = f;
	out->probe = probe_find(r->probe);
	out->policy = req_sched_policy(r->policy);
	out->priority = req_priority(r);
	out->started = time(NULL);
}

void req_result_error(struct req_result *out, const struct requirement *r,
		      const struct req_file *f, const char *fmt, ...)
{
	if (!out->req)
		runner_result_init(out, r, f);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof out->reason, fmt, ap);
	va_end(ap);
	out->verdict = VERDICT_ERROR;
}

void req_result_free(struct req_result *r)
{
	if (r->res)
		munmap(r->res, r->res_bytes);
	r->res = NULL;
	if (r->explain)
		explain_free(r->explain);
	free(r->explain);
	r->explain = NULL;
	summary_free(&r->sum);
}

/* Each stage either hands on or leaves an error verdict; whatever was
 * started before a failing stage is released here, and a worker that ran
 * is always supervised to its end and classified. */
void runner_run(const struct requirement *r, const struct req_file *f,
		const struct run_options *o, struct req_result *out)
{
	struct runner_job j;
	if (runner_prepare(r, f, o, out, &j) != 0) {
		runner_abandon(&j);
		return;
	}
	/* Never fails: without a trace the requirement is measured as usual
	 * and the note says why. */
	trace_arm(&j.trace, r, out->probe, out->res, o && o->trace, out->trace_note,
		  sizeof out->trace_note);
	if (runner_load_start(&j, out) != 0 || runner_spawn(&j, out) != 0) {
		runner_abandon(&j);
		return;
	}
	struct worker_end e;
	runner_supervise(&j, o, out, &e);
	trace_finish(&j.trace, out->res, out->probe, r->id, o ? o->trace_dir : NULL,
		     o ? o->trace_names : NULL, out->trace_file, sizeof out->trace_file,
		     out->trace_note, sizeof out->trace_note, &out->explain);
	runner_classify(out, j.c.runs, &e);
}
