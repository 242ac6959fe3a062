/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_trace.c - selftest's case trace-worst: a traced run explains its
 * worst breach, not its first (issue 37 item 6; harness/trace.h, "keeping
 * the worst breach"). A delay that grows at each injection makes breaches
 * of 5, 10, 15, 20 and 25 ms, 250 ms apart, on one CPU: the trace must be
 * the one of the largest sample, which is the metric's max, and the note
 * must say so and that earlier breaches were superseded. */
#include "selftest/selftest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/explain.h"
#include "reports/report.h"

/* 5 delays (1250 / 250), the n-th 5 + 5 n ms; the first is 5 ms */
#define WORST_SPEC "delay=5ms,every=250,grow=5ms"
#define WORST_FOURTH_MS 20.0

static const char worst_xml[] =
	"<requirements xmlns=\"urn:rtconform:requirements:1\" name=\"selftest\" version=\"1\">\n"
	"  <requirement id=\"WORST\"><probe name=\"timer-wakeup\"><param name=\"cpus\">0"
	"</param>\n      <param name=\"interval\">1ms</param><param name=\"dma-latency\">off"
	"</param></probe>\n    <sched policy=\"fifo\" priority=\"90\"/>"
	"<run iterations=\"1250\" runs=\"1\" warmup=\"10\"/>\n"
	"    <limit metric=\"wakeup\" statistic=\"max\" max=\"2ms\"/><trace/></requirement>\n"
	"</requirements>\n";

static enum st_try judge_worst(struct st_outcome *o, const void *arg,
			       const struct report_view *v, int rc)
{
	(void)arg;
	const struct rv_req *r = st_find_req(v, "WORST");
	const struct rv_metric *m = st_find_metric(r, "wakeup");
	const char *note = r && r->trace_note ? r->trace_note : "";
	if (!m || !m->ns[RV_MAX].have) {
		st_error(o, "results.json has no wakeup max of WORST%s%s",
			 r && r->reason ? ": " : "", r && r->reason ? r->reason : "");
		return ST_TRY_MISMATCH;
	}
	/* no trace to be had (no tracefs, no privilege): the true reason */
	if (strncmp(note, "trace: tripped by ", 18) != 0 || !r->explain) {
		st_error(o, "no breach was traced and explained: %s", *note ? note
			 : "the run gave no trace note");
		return ST_TRY_MISMATCH;
	}
	st_expect_u64(o, "exit", 1, (uint64_t)rc);
	st_expect_str(o, "verdict", "fail", verdict_name(r->verdict));
	st_expect_has(o, "the run's record", WORST_SPEC,
		      fingerprint_get(&v->env, "rtconform.injected_faults"));
	st_expect_min(o, "the sample explained", WORST_FOURTH_MS,
		      (double)r->explain->value_ns / 1e6, " ms");
	bool others = o->verdict == ST_PASS;
	/* the marker gives the sample in whole ns, as the max rounds */
	st_expect_u64(o, "the sample explained (ns), the max", (uint64_t)llround(m->ns[RV_MAX].v),
		      r->explain->value_ns);
	st_expect_has(o, "its rank", "the max itself", note);
	st_expect_has(o, "earlier breaches", "superseded", note);
	if (o->verdict == ST_PASS)
		return ST_TRY_MATCH;
	/* the trace is right but the max came while a save was pending: a
	 * sample of the machine's own, or a save slower than 250 ms */
	return others && strstr(note, "not traced") ? ST_TRY_MACHINE : ST_TRY_MISMATCH;
}

void st_case_trace_worst(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	char *worker = st_helper(e, "rtconform-worker-faults");
	if (!worker) {
		st_error(o, "rtconform-worker-faults is not in the helper directory %s "
			 "(reinstall rtconform)", e->self_dir ? e->self_dir : "(none)");
		return;
	}
	free(worker);
	char *envs[] = { SELFTEST_FAULTS_ENV "=" WORST_SPEC, NULL };
	st_run_attempts(e, c, o, worst_xml, envs, judge_worst, NULL,
			"the max came while the trace of a smaller breach was being saved");
}
