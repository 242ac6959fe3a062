/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_cases.c - the known-answer cases of `rtconform selftest`: each
 * injects one known fault (or gives known samples) and requires the exact
 * outcome; docs/qualification.md has the table in words. */
#include "selftest/selftest.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef RTC_SANITIZED
#include <link.h> /* dl_iterate_phdr: the sanitizer runtimes */
#endif

#include "harness/measure/timebase.h"
#include "host/fingerprint.h"
#include "reports/read/read.h"

#define HEAD \
	"<requirements xmlns=\"urn:rtconform:requirements:1\" name=\"selftest\" version=\"1\">\n"
#define TAIL "</requirements>\n"

/* ---- statistics on known samples ---------------------------------------- */

/* samples=ramp: iteration i of the run records (i + 1) us. */
#define RAMP_N 1000u
static const char ramp_xml[] = HEAD
	"  <requirement id=\"RAMP\"><probe name=\"selftest\"><param name=\"samples\">ramp</param>"
	"</probe>\n    <run iterations=\"1000\" runs=\"1\" warmup=\"1\"/>\n"
	"    <limit metric=\"interval\" statistic=\"max\" max=\"1ms\"/></requirement>\n"
	"  <requirement id=\"RAMP-OVER\"><probe name=\"selftest\"><param name=\"samples\">ramp"
	"</param></probe>\n    <run iterations=\"1000\" runs=\"1\" warmup=\"1\"/>\n"
	"    <limit metric=\"interval\" statistic=\"max\" max=\"999us\"/></requirement>\n" TAIL;

/* The histogram's bucket holding value (ns units), or NULL. */
static const struct rv_bucket *bucket_of(const struct rv_metric *m, uint64_t value)
{
	for (size_t i = 0; i < m->nbuckets; i++)
		if (m->buckets[i].lo <= value && value <= m->buckets[i].hi)
			return &m->buckets[i];
	return NULL;
}

/* Every bucket holds exactly the ramp's values within its bounds. */
static uint64_t buckets_wrong(const struct rv_metric *m)
{
	uint64_t wrong = 0;
	for (size_t i = 0; i < m->nbuckets; i++) {
		const struct rv_bucket *b = &m->buckets[i];
		uint64_t lo_k = (b->lo + 999) / 1000, hi_k = b->hi / 1000;
		if (hi_k > RAMP_N)
			hi_k = RAMP_N;
		uint64_t want = hi_k >= lo_k && lo_k >= 1 ? hi_k - lo_k + 1 : 0;
		wrong += want != b->count;
	}
	return wrong;
}

uint64_t st_histogram_total(const struct rv_metric *m)
{
	uint64_t n = m->overflow;
	for (size_t i = 0; i < m->nbuckets; i++)
		n += m->buckets[i].count;
	return n;
}

/* A percentile of the ramp: the upper bound of the bucket that holds the
 * sample of rank ceil(p * N), the harness's conservative reading. */
static void expect_pct(struct st_outcome *o, const struct rv_metric *m, const char *name,
		       int stat, double p)
{
	uint64_t exact = (uint64_t)ceil(p * RAMP_N) * 1000u;
	const struct rv_bucket *b = bucket_of(m, exact);
	char what[64];
	snprintf(what, sizeof what, "%s ns (bucket of %llu)", name, (unsigned long long)exact);
	st_expect_u64(o, what, b ? b->hi : UINT64_MAX,
		      m->ns[stat].have ? (uint64_t)m->ns[stat].v : 0);
}

static void case_ramp(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	struct report_view v;
	int rc = st_run_xml(e, c, o, ramp_xml, NULL, &v);
	if (rc < 0)
		return;
	const struct rv_req *r = st_find_req(&v, "RAMP"), *over = st_find_req(&v, "RAMP-OVER");
	const struct rv_metric *m = st_find_metric(r, "interval");
	if (!m || !over) {
		st_error(o, "results.json has no RAMP interval metric or no RAMP-OVER");
		report_view_free(&v);
		return;
	}
	st_expect_u64(o, "exit", 1, (uint64_t)rc);
	st_expect_str(o, "RAMP (max <= 1 ms)", "pass", verdict_name(r->verdict));
	st_expect_str(o, "RAMP-OVER (max <= 999 us)", "fail", verdict_name(over->verdict));
	st_expect_u64(o, "count", RAMP_N, m->count);
	st_expect_u64(o, "min ns", 1000, (uint64_t)m->ns[RV_MIN].v);
	st_expect_u64(o, "max ns", RAMP_N * 1000, (uint64_t)m->ns[RV_MAX].v);
	st_expect_u64(o, "mean ns", (RAMP_N + 1) * 500, (uint64_t)llround(m->ns[RV_MEAN].v));
	expect_pct(o, m, "p50", RV_P50, 0.50);
	expect_pct(o, m, "p99", RV_P99, 0.99);
	st_expect_u64(o, "buckets not holding exactly the values in their bounds", 0,
		      buckets_wrong(m));
	/* buckets_wrong sees only the buckets there: one missing, or samples
	 * counted past the range, is seen by the histogram's total */
	st_expect_u64(o, "overflow", 0, m->overflow);
	st_expect_u64(o, "samples in the histogram", RAMP_N, st_histogram_total(m));
	report_view_free(&v);
}

/* ---- the timebase against the kernel's clock ------------------------------ */

#define TB_SPAN_NS 1000000000ull
#define TB_TOLERANCE_PPM 1000.0

/* CLOCK_MONOTONIC as the kernel reads it (the system call itself), never
 * through the C library, which a preload can replace. */
static uint64_t mono_ns(void)
{
	return tb_kernel_ns(CLOCK_MONOTONIC);
}

static void case_timebase(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	(void)e;
	(void)c;
	struct timebase tb;
	char err[300];
	if (timebase_init(&tb, err, sizeof err) != 0) {
		st_error(o, "timebase: %s", err);
		return;
	}
	/* Each timebase read between two clock reads: its moment known to
	 * within their gap. */
	uint64_t m0 = mono_ns(), t0 = tb_now(), m1 = mono_ns();
	struct timespec span = { (time_t)(TB_SPAN_NS / 1000000000u), 0 };
	while (nanosleep(&span, &span) != 0 && errno == EINTR)
		;
	uint64_t m2 = mono_ns(), t1 = tb_now(), m3 = mono_ns();
	double tb_ns = tb_ticks_to_ns((double)(t1 - t0));
	double mono = ((double)(m2 + m3) - (double)(m0 + m1)) / 2.0;
	double slack = (double)(m1 - m0) / 2.0 + (double)(m3 - m2) / 2.0;
	double ppm = fabs(tb_ns - mono) / mono * 1e6;
	double allowed = TB_TOLERANCE_PPM + slack / mono * 1e6;
	st_append(o->expected, sizeof o->expected,
		  "%s agrees with the kernel's CLOCK_MONOTONIC (clock_gettime system call) over "
		  "%.1f s within %.0f ppm (+ the reads' gap)", tb.name, TB_SPAN_NS / 1e9,
		  TB_TOLERANCE_PPM);
	st_append(o->observed, sizeof o->observed,
		  "timebase %.0f ns, the kernel's CLOCK_MONOTONIC %.0f ns: %.1f ppm apart (allowed "
		  "%.1f)", tb_ns, mono, ppm, allowed);
	if (!mono || ppm > allowed)
		o->verdict = ST_FAIL;
	/* and the check every run makes before measuring found nothing */
	st_expect_str(o, "the timebase's check against the kernel", "passed",
		      tb.check.failed ? tb.check.error : "passed");
}

/* ---- the schema: invalid files refused with their line -------------------- */

struct st_invalid {
	const char *id;
	const char *text;
	int line;          /* the line the message must name */
	const char *says;  /* and what it must say */
};
static const struct st_invalid invalid_files[] = {
	{ "schema-priority",
	  HEAD "  <requirement id=\"A\">\n    <probe name=\"selftest\"/>\n"
	  "    <sched policy=\"fifo\" priority=\"100\"/>\n  </requirement>\n" TAIL,
	  4, "priority 100 is out of range for fifo" },
	{ "schema-duplicate-id",
	  HEAD "  <requirement id=\"A\"><probe name=\"selftest\"/></requirement>\n"
	  "  <requirement id=\"A\"><probe name=\"selftest\"/></requirement>\n" TAIL,
	  3, "duplicate requirement id 'A'" },
	{ "schema-unit",
	  HEAD "  <requirement id=\"A\"><probe name=\"selftest\"/>\n"
	  "    <limit metric=\"interval\" statistic=\"max\" max=\"5 parsecs\"/></requirement>\n" TAIL,
	  3, "unknown unit 'parsecs'" },
	{ "schema-zero-iterations",
	  HEAD "  <requirement id=\"A\"><probe name=\"selftest\"/>\n"
	  "    <run iterations=\"0\"/></requirement>\n" TAIL,
	  3, "iterations=\"0\": must be at least 1" },
	{ "schema-unknown-element",
	  HEAD "  <requirement id=\"A\"><probe name=\"selftest\"/>\n"
	  "    <colour>red</colour></requirement>\n" TAIL,
	  3, "Element 'colour': This element is not expected" },
	{ "schema-malformed",
	  HEAD "  <requirement id=\"A\"><probe name=\"selftest\"/>\n  </requirement>\n"
	  "</requirments>\n",
	  4, "not well-formed XML" },
	{ "schema-unknown-probe",
	  HEAD "  <requirement id=\"A\"><probe name=\"no-such-probe\"/></requirement>\n" TAIL,
	  2, "unknown probe 'no-such-probe'" },
	{ "schema-param-value",
	  HEAD "  <requirement id=\"A\"><probe name=\"selftest\"><param name=\"samples\">sideways"
	  "</param></probe></requirement>\n" TAIL,
	  2, "parameter samples has no value 'sideways'" },
};

static void case_schema(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	const struct st_invalid *f = NULL;
	for (size_t i = 0; i < sizeof invalid_files / sizeof invalid_files[0]; i++)
		if (!strcmp(invalid_files[i].id, c->id))
			f = &invalid_files[i];
	char dir[PATH_MAX], file[PATH_MAX + 32], log[PATH_MAX + 32], want[PATH_MAX + 64];
	if (!f || st_case_dir(e, c, o, dir, sizeof dir) != 0) {
		if (!f)
			st_error(o, "no invalid file for case %s", c->id);
		return;
	}
	snprintf(file, sizeof file, "%s/invalid.xml", dir);
	snprintf(log, sizeof log, "%s/output.txt", dir);
	if (st_write_text(o, file, f->text) != 0)
		return;
	char *argv[] = { (char *)e->self, "validate", file, NULL };
	int rc = st_spawn(o, argv, NULL, log);
	if (rc < 0)
		return;
	FILE *in = fopen(log, "r");
	char msg[2048] = "";
	size_t n = in ? fread(msg, 1, sizeof msg - 1, in) : 0;
	msg[n] = 0;
	if (in)
		fclose(in);
	st_expect_u64(o, "exit", 2, (uint64_t)rc);
	snprintf(want, sizeof want, "%s:%d: ", file, f->line);
	st_expect_has(o, "the message", want, msg);
	st_expect_has(o, "the message", f->says, msg);
}

/* ---- verdicts and counts of the probes' own faults ------------------------- */

/* The must-violate profile: every requirement fails. */
static void case_must_fail(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	struct report_view v;
	int rc = st_run_xml(e, c, o, "@posix-rt-must-fail", NULL, &v);
	if (rc < 0)
		return;
	size_t n = 0, failed = 0;
	char errors[400] = "";
	for (size_t f = 0; f < v.nfiles; f++)
		for (size_t i = 0; i < v.files[f].nreqs; i++, n++) {
			const struct rv_req *r = &v.files[f].reqs[i];
			failed += r->verdict == VERDICT_FAIL;
			if (r->verdict == VERDICT_ERROR)
				st_append(errors, sizeof errors, "%s could not be measured: %s", r->id,
					  r->reason ? r->reason : "(no reason)");
			else if (r->verdict != VERDICT_FAIL)
				st_append(o->why, sizeof o->why, "%s: %s", r->id,
					  verdict_name(r->verdict));
		}
	st_expect_u64(o, "exit", 1, (uint64_t)rc);
	st_expect_u64(o, "requirements failed", n, failed);
	if (!n)
		st_expect_u64(o, "requirements", 1, 0);
	if (errors[0]) /* not a known answer missed: one that could not be had */
		st_error(o, "%s", errors);
	report_view_free(&v);
}

/* A count metric's total, runs and the smallest run. */
static bool count_of(const struct rv_metric *m, uint64_t *total, uint64_t *runs, uint64_t *min)
{
	if (!m || !m->counts[0].have)
		return false;
	*total = (uint64_t)m->counts[0].v;
	*min = m->counts[1].have ? (uint64_t)m->counts[1].v : 0;
	*runs = m->nruns;
	return true;
}

/* Page faults in the measured loop: selftest's fault=touch writes 16 pages
 * it gave back before every run. */
#define TOUCH_RUNS 3
#define TOUCH_PAGES 16
static const char touch_xml[] = HEAD
	"  <requirement id=\"TOUCH\"><probe name=\"selftest\"><param name=\"fault\">touch</param>"
	"</probe>\n    <sched policy=\"fifo\" priority=\"10\"/>\n"
	"    <run iterations=\"50\" runs=\"3\" warmup=\"5\" timeout=\"60s\"/>\n"
	"    <limit metric=\"page-faults\" statistic=\"total\" max=\"0\"/></requirement>\n" TAIL;

static void case_page_faults(const struct st_env *e, const struct st_case *c,
			     struct st_outcome *o)
{
	struct report_view v;
	int rc = st_run_xml(e, c, o, touch_xml, NULL, &v);
	if (rc < 0)
		return;
	const struct rv_req *r = st_find_req(&v, "TOUCH");
	uint64_t total, runs, min;
	if (!r || !count_of(st_find_metric(r, "page-faults"), &total, &runs, &min)) {
		st_error(o, "results.json has no page-faults count of TOUCH");
	} else {
		st_expect_u64(o, "exit", 1, (uint64_t)rc);
		st_expect_str(o, "verdict", "fail", verdict_name(r->verdict));
		st_expect_u64(o, "runs", TOUCH_RUNS, runs);
		st_expect_min(o, "page faults of the least run", TOUCH_PAGES, (double)min, "");
	}
	report_view_free(&v);
}

/* A DEADLINE task whose work (4 ms) is four times its runtime (1 ms):
 * throttled at its runtime each period, every job ends after its 10 ms
 * deadline (about 4 periods after its release). Four times, not just
 * over: the kernel enforces the runtime with a timer, and a timer a
 * loaded virtual machine fires a few ms late lets a job of twice its
 * runtime finish in one period (2 of 300 jobs once, here, under two
 * parallel test suites). */
#define DL_ITER 25u
#define DL_RUNS 3u
#define DL_TASKS 2u
static const char overrun_xml[] = HEAD
	"  <requirement id=\"OVERRUN\"><probe name=\"deadline\"><param name=\"runtime\">1ms</param>\n"
	"      <param name=\"deadline\">10ms</param><param name=\"work\">4ms</param></probe>\n"
	"    <sched policy=\"fifo\" priority=\"80\"/>\n"
	"    <run iterations=\"25\" runs=\"3\" warmup=\"2\" timeout=\"60s\"/>\n"
	"    <limit metric=\"misses\" statistic=\"total\" max=\"0\"/></requirement>\n" TAIL;

static enum st_try judge_overrun(struct st_outcome *o, const void *arg,
				 const struct report_view *v, int rc)
{
	(void)arg;
	const struct rv_req *r = st_find_req(v, "OVERRUN");
	uint64_t total, runs, min;
	if (!r || !count_of(st_find_metric(r, "misses"), &total, &runs, &min)) {
		st_error(o, "results.json has no misses count of OVERRUN%s%s",
			 r && r->reason ? ": " : "", r && r->reason ? r->reason : "");
		return ST_TRY_MISMATCH;
	}
	st_expect_u64(o, "exit", 1, (uint64_t)rc);
	st_expect_str(o, "verdict", "fail", verdict_name(r->verdict));
	bool others = o->verdict == ST_PASS;
	st_expect_u64(o, "misses", DL_TASKS * DL_ITER * DL_RUNS, total);
	if (o->verdict == ST_PASS)
		return ST_TRY_MATCH;
	/* some misses, fewer than jobs, all else as expected: a late
	 * enforcement timer of the machine's; none at all is never that */
	return others && total > 0 && total < DL_TASKS * DL_ITER * DL_RUNS ? ST_TRY_MACHINE
									  : ST_TRY_MISMATCH;
}

static void case_overrun(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	st_run_attempts(e, c, o, overrun_xml, NULL, judge_overrun, NULL,
			"fewer misses than jobs, a runtime enforced late by the machine");
}

/* ---- premises: requests the C library accepts and ignores ------------------- */

struct st_premise {
	const char *id, *lib, *var, *xml, *req;
};
static const struct st_premise premises[] = {
	{ "premise-policy", SELFTEST_LIB_SCHED, "RTC_FAKE_SCHED=policy",
	  HEAD "  <requirement id=\"POLICY\"><probe name=\"selftest\"/>\n"
	  "    <sched policy=\"fifo\" priority=\"50\"/><run iterations=\"20\" runs=\"1\" "
	  "warmup=\"2\"/></requirement>\n" TAIL, "POLICY" },
	{ "premise-priority", SELFTEST_LIB_SCHED, "RTC_FAKE_SCHED=attr",
	  HEAD "  <requirement id=\"PRIORITY\"><probe name=\"priority-preempt\"/>\n"
	  "    <sched policy=\"fifo\" priority=\"50\"/><run iterations=\"20\" runs=\"1\" "
	  "warmup=\"2\"/></requirement>\n" TAIL, "PRIORITY" },
	{ "premise-protocol", SELFTEST_LIB_SCHED, "RTC_FAKE_SCHED=protocol",
	  HEAD "  <requirement id=\"PROTOCOL\"><probe name=\"priority-inherit\"/>\n"
	  "    <sched policy=\"fifo\" priority=\"50\"/><run iterations=\"20\" runs=\"2\" "
	  "warmup=\"2\"/>\n    <limit metric=\"violations\" statistic=\"total\" max=\"0\"/>"
	  "</requirement>\n" TAIL, "PROTOCOL" },
	{ "timer-early", SELFTEST_LIB_CLOCK, "RTC_FAKE_EARLY_US=15000",
	  HEAD "  <requirement id=\"EARLY\"><probe name=\"timer-wakeup\">"
	  "<param name=\"interval\">40ms</param>\n      <param name=\"dma-latency\">off</param>"
	  "</probe>\n    <sched policy=\"fifo\" priority=\"90\"/><run iterations=\"20\" runs=\"2\" "
	  "warmup=\"2\"/>\n    <limit metric=\"early\" statistic=\"total\" max=\"0\"/>"
	  "</requirement>\n" TAIL, "EARLY" },
	/* No limit written: rtconform's own, unanswered-waits total <= 0. */
	{ "handoff-early", SELFTEST_LIB_IPC, "RTC_FAKE_IPC_EVERY=8",
	  HEAD "  <requirement id=\"HANDOFF\"><probe name=\"sem-pingpong\"/>\n"
	  "    <sched policy=\"fifo\" priority=\"90\"/><run iterations=\"200\" runs=\"2\" "
	  "warmup=\"10\"/></requirement>\n" TAIL, "HANDOFF" },
};

/* handoff-early's known answer: each process's every 8th sem_wait returns
 * at once and is waited again, so of the worker's 1 + 10 + 400 waits (the
 * peer's ready post, the warm-up, the runs) and the peer's 410, each with
 * its retries, 58 return early: floor((411 + 58) / 8), floor((410 + 58) /
 * 8). The worker's 8th wait, in warm-up round trip 7 (after the ready
 * one), is the first. */
#define HANDOFF_UNANSWERED 116u
#define HANDOFF_FIRST "the first: warm-up round trip 7 of 10: the worker's sem_wait (posix-sem) " \
		      "returned without the peer's post"

static void judge_handoff(struct st_outcome *o, const struct rv_req *r, int rc)
{
	uint64_t total = 0, runs = 0, min = 0;
	st_expect_u64(o, "exit", 1, (uint64_t)rc);
	st_expect_str(o, "verdict", "fail", verdict_name(r->verdict));
	count_of(st_find_metric(r, "unanswered-waits"), &total, &runs, &min);
	st_expect_u64(o, "unanswered waits", HANDOFF_UNANSWERED, total);
	st_expect_has(o, "the reason", HANDOFF_FIRST, r->reason);
}

/* What each premise case must find in its run. */
static enum st_try judge_premise(struct st_outcome *o, const void *arg,
				 const struct report_view *v, int rc)
{
	const struct st_premise *p = arg;
	const struct rv_req *r = st_find_req(v, p->req);
	uint64_t total = 0, runs = 0, min = 0;
	if (!r) {
		st_error(o, "results.json has no requirement %s", p->req);
		return ST_TRY_MISMATCH;
	}
	if (!strcmp(p->id, "premise-protocol")) {
		/* Without inheritance the medium task runs in every cycle. */
		st_expect_u64(o, "exit", 1, (uint64_t)rc);
		st_expect_str(o, "verdict", "fail", verdict_name(r->verdict));
		count_of(st_find_metric(r, "violations"), &total, &runs, &min);
		st_expect_u64(o, "violations", 20 * 2, total);
	} else if (!strcmp(p->id, "handoff-early")) {
		judge_handoff(o, r, rc);
	} else if (!strcmp(p->id, "timer-early")) {
		/* Every wake-up 15 ms early, of 20 x 2 on each CPU; one woken
		 * more than 15 ms late on top is not early: the machine's. */
		const struct rv_metric *w = st_find_metric(r, "wakeup");
		uint64_t n = w ? w->count : 0;
		st_expect_u64(o, "exit", 1, (uint64_t)rc);
		st_expect_str(o, "verdict", "fail", verdict_name(r->verdict));
		st_expect_u64(o, "wake-ups", 20u * 2u * (uint64_t)sysconf(_SC_NPROCESSORS_ONLN), n);
		bool others = o->verdict == ST_PASS;
		count_of(st_find_metric(r, "early"), &total, &runs, &min);
		st_expect_u64(o, "early wake-ups", n, total);
		if (o->verdict != ST_PASS && others && total > 0 && total < n)
			return ST_TRY_MACHINE;
	} else {
		st_expect_u64(o, "exit", 3, (uint64_t)rc);
		st_expect_str(o, "verdict", "error", verdict_name(r->verdict));
		st_expect_has(o, "the reason", "did not take", r->reason);
	}
	return o->verdict == ST_PASS ? ST_TRY_MATCH : ST_TRY_MISMATCH;
}

#ifdef RTC_SANITIZED
/* A sanitizer build's runtimes must come first among the libraries a
 * program loads, so they are preloaded before the fault library: their
 * paths (as this process loaded them) appended to buf, each with a space. */
static int add_runtime(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	char *buf = arg;
	const char *n = info->dlpi_name;
	size_t used = strlen(buf);
	if (n && (strstr(n, "/libasan.so") || strstr(n, "/libubsan.so")) &&
	    used + strlen(n) + 2 < 2 * PATH_MAX)
		snprintf(buf + used, 2 * PATH_MAX - used, "%s ", n);
	return 0;
}
#endif

/* The environment that preloads fault library lib (of the helper
 * directory) with its variable var: LD_PRELOAD into preload (a sanitizer
 * build's runtimes first), RTC_SELFTEST_FAULTS into faults. 0, or -1 with
 * o not run (a static build) or an error (no such helper). */
static int preload_env(const struct st_env *e, struct st_outcome *o, const char *lib,
		       const char *var, char preload[3 * PATH_MAX + 32], char faults[200])
{
#ifdef RTC_STATIC_BUILD
	(void)e;
	(void)var;
	(void)preload;
	(void)faults;
	o->verdict = ST_NOT_RUN;
	snprintf(o->why, sizeof o->why, "a static build (RTC_STATIC): LD_PRELOAD cannot put "
		 "%s into its programs", lib);
	return -1;
#else
	char *path = st_helper(e, lib);
	if (!path) {
		st_error(o, "%s is not in the helper directory %s (reinstall rtconform)", lib,
			 e->self_dir ? e->self_dir : "(none)");
		return -1;
	}
	char runtimes[2 * PATH_MAX] = "";
#ifdef RTC_SANITIZED
	dl_iterate_phdr(add_runtime, runtimes);
#endif
	snprintf(preload, 3 * PATH_MAX + 32, "LD_PRELOAD=%s%s", runtimes, path);
	snprintf(faults, 200, SELFTEST_FAULTS_ENV "=%s %s", lib, var);
	free(path);
	return 0;
#endif
}

static void case_premise(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	const struct st_premise *p = NULL;
	for (size_t i = 0; i < sizeof premises / sizeof premises[0]; i++)
		if (!strcmp(premises[i].id, c->id))
			p = &premises[i];
	char preload[3 * PATH_MAX + 32], faults[200];
	if (!p) {
		st_error(o, "no premise for case %s", c->id);
		return;
	}
	if (preload_env(e, o, p->lib, p->var, preload, faults) != 0)
		return;
	char *envs[] = { preload, (char *)p->var, faults, NULL };
	st_run_attempts(e, c, o, p->xml, envs, judge_premise, p,
			"wake-ups more than 15 ms late were not early: the machine's own latency");
}

/* ---- a C library clock at another rate than the kernel's -------------------- */

/* The fault clock library runs every clock the C library gives at half or
 * twice the kernel's rate, as a preloaded libfaketime does: the timebase's
 * check must make every requirement an error naming both rates, before
 * anything is measured; RAMP would pass and RAMP-OVER fail if measured. */
struct st_clock_rate {
	const char *id, *var, *says, *only; /* only: the one program it lies to, or NULL */
};
static const struct st_clock_rate clock_rates[] = {
	{ "clock-half", "RTC_FAKE_CLOCK_RATE=0.5", "runs at 0.500 of the kernel's", NULL },
	{ "clock-double", "RTC_FAKE_CLOCK_RATE=2", "runs at 2.000 of the kernel's", NULL },
	/* rtconform's own check agrees; the worker's must not. */
	{ "clock-worker", "RTC_FAKE_CLOCK_RATE=0.5", "runs at 0.500 of the kernel's",
	  "RTC_FAKE_CLOCK_ONLY=rtconform-worker" },
};

static void case_clock_rate(const struct st_env *e, const struct st_case *c,
			    struct st_outcome *o)
{
	const struct st_clock_rate *k = NULL;
	for (size_t i = 0; i < sizeof clock_rates / sizeof clock_rates[0]; i++)
		if (!strcmp(clock_rates[i].id, c->id))
			k = &clock_rates[i];
	char preload[3 * PATH_MAX + 32], faults[200];
	if (!k) {
		st_error(o, "no clock rate for case %s", c->id);
		return;
	}
	if (preload_env(e, o, SELFTEST_LIB_CLOCK, k->var, preload, faults) != 0)
		return;
	size_t used = strlen(faults);
	if (k->only)
		snprintf(faults + used, sizeof faults - used, " %s", k->only);
	char *envs[] = { preload, (char *)k->var, faults, (char *)k->only, NULL };
	struct report_view v;
	int rc = st_run_xml(e, c, o, ramp_xml, envs, &v);
	if (rc < 0)
		return;
	st_expect_u64(o, "exit", 3, (uint64_t)rc);
	static const char *const ids[] = { "RAMP", "RAMP-OVER" };
	for (size_t i = 0; i < 2; i++) {
		const struct rv_req *r = st_find_req(&v, ids[i]);
		char what[64];
		snprintf(what, sizeof what, "%s verdict", ids[i]);
		st_expect_str(o, what, "error", r ? verdict_name(r->verdict) : NULL);
		snprintf(what, sizeof what, "%s's reason", ids[i]);
		st_expect_has(o, what, k->says, r ? r->reason : NULL);
	}
	const struct rv_req *r = st_find_req(&v, ids[0]);
	st_expect_has(o, "and names", "the C library's clock", r ? r->reason : NULL);
	st_expect_has(o, "and the kernel's", "(clock_gettime system call)", r ? r->reason : NULL);
	if (k->only)
		st_expect_has(o, "in the worker", "found in the measuring process (rtconform-worker) "
			      "alone", r ? r->reason : NULL);
	st_expect_has(o, "the run's record", k->var,
		      fingerprint_get(&v.env, "rtconform.injected_faults"));
	report_view_free(&v);
}

/* ---- a known delay in a measured loop (rtconform-worker-faults) ------------- */

/* 20 ms busy-waited on every 10th measured iteration; a sample is a breach
 * above 10 ms, half the delay: far above what a wake-up at FIFO 90 takes
 * on a loaded machine, far below what a delayed one takes. */
#define DELAY_SPEC "delay=20ms,every=10"
#define DELAY_NS 20000000ull
#define DELAY_EVERY 10u
#define BREACH_NS (DELAY_NS / 2)

struct st_delay {
	const char *id, *xml, *metric;
	uint64_t iterations, runs;
};
static const struct st_delay delays[] = {
	{ "delay-timer-wakeup",
	  HEAD "  <requirement id=\"DELAY\"><probe name=\"timer-wakeup\"><param name=\"cpus\">0"
	  "</param>\n      <param name=\"interval\">30ms</param><param name=\"dma-latency\">off"
	  "</param></probe>\n    <sched policy=\"fifo\" priority=\"90\"/>"
	  "<run iterations=\"25\" runs=\"2\" warmup=\"2\"/>\n"
	  "    <limit metric=\"wakeup\" statistic=\"max\" max=\"10ms\"/></requirement>\n" TAIL,
	  "wakeup", 25, 2 },
	{ "delay-sem-pingpong",
	  HEAD "  <requirement id=\"DELAY\"><probe name=\"sem-pingpong\"><param name=\"peer\">thread"
	  "</param></probe>\n    <sched policy=\"fifo\" priority=\"90\"/>"
	  "<run iterations=\"205\" runs=\"2\" warmup=\"10\"/>\n"
	  "    <limit metric=\"wakeup\" statistic=\"max\" max=\"10ms\"/></requirement>\n" TAIL,
	  "wakeup", 205, 2 },
};

void st_count_above(const struct rv_metric *m, uint64_t ns, uint64_t *above,
		    uint64_t *straddle)
{
	double thr = (double)ns / m->ns_per_unit;
	*above = *straddle = 0;
	for (size_t i = 0; i < m->nbuckets; i++) {
		const struct rv_bucket *b = &m->buckets[i];
		if ((double)b->lo > thr)
			*above += b->count;
		else if ((double)b->hi > thr)
			*straddle += b->count;
	}
	*above += m->overflow;
}

static enum st_try judge_delay(struct st_outcome *o, const void *arg,
			       const struct report_view *v, int rc)
{
	const struct st_delay *d = arg;
	const struct rv_req *r = st_find_req(v, "DELAY");
	const struct rv_metric *m = st_find_metric(r, d->metric);
	if (!m) {
		st_error(o, "results.json has no %s metric of DELAY%s%s", d->metric,
			 r && r->reason ? ": " : "", r && r->reason ? r->reason : "");
		return ST_TRY_MISMATCH;
	}
	uint64_t above, straddle, injected = d->runs * (d->iterations / DELAY_EVERY);
	st_count_above(m, BREACH_NS, &above, &straddle);
	st_expect_u64(o, "exit", 1, (uint64_t)rc);
	st_expect_str(o, "verdict", "fail", verdict_name(r->verdict));
	st_expect_u64(o, "samples in a bucket straddling 10 ms", 0, straddle);
	st_expect_min(o, "max", (double)DELAY_NS / 1e6,
		      m->ns[RV_MAX].have ? m->ns[RV_MAX].v / 1e6 : 0, " ms");
	st_expect_has(o, "the run's record", DELAY_SPEC,
		      fingerprint_get(&v->env, "rtconform.injected_faults"));
	bool others = o->verdict == ST_PASS;
	st_expect_u64(o, "breaches (> 10 ms)", injected, above);
	if (o->verdict == ST_PASS)
		return ST_TRY_MATCH;
	/* more breaches than injected, all else as expected: the machine's */
	return others && above > injected ? ST_TRY_MACHINE : ST_TRY_MISMATCH;
}

static void case_delay(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	const struct st_delay *d = NULL;
	for (size_t i = 0; i < sizeof delays / sizeof delays[0]; i++)
		if (!strcmp(delays[i].id, c->id))
			d = &delays[i];
	char *worker = st_helper(e, "rtconform-worker-faults");
	if (!d || !worker) {
		st_error(o, "rtconform-worker-faults is not in the helper directory %s "
			 "(reinstall rtconform)", e->self_dir ? e->self_dir : "(none)");
		free(worker);
		return;
	}
	free(worker);
	char *envs[] = { SELFTEST_FAULTS_ENV "=" DELAY_SPEC, NULL };
	st_run_attempts(e, c, o, d->xml, envs, judge_delay, d,
			"more breaches than injected, samples of the machine's own above 10 ms");
}

/* ---- the table -------------------------------------------------------------- */

const struct st_case st_cases[] = {
	{ "stats-ramp", "statistics and verdicts: count, min, max, mean, p50, p99, histogram "
	  "bucket bounds, a limit met at its bound and one missed", "known samples: (i + 1) us "
	  "for i = 0 .. 999 (selftest probe, samples=ramp)", ST_PRIV_NONE, case_ramp },
	{ "timebase", "the probes' timebase against the kernel's CLOCK_MONOTONIC (the system call)",
	  "nothing: 1 s timed by both", ST_PRIV_NONE, case_timebase },
	{ "clock-half", "the timebase checked against the kernel: a C library clock at half its "
	  "rate", "every C library clock at 0.5 of the kernel's (" SELFTEST_LIB_CLOCK ", "
	  "RTC_FAKE_CLOCK_RATE=0.5)", ST_PRIV_NONE, case_clock_rate },
	{ "clock-double", "the timebase checked against the kernel: a C library clock at twice "
	  "its rate", "every C library clock at 2 times the kernel's (" SELFTEST_LIB_CLOCK ", "
	  "RTC_FAKE_CLOCK_RATE=2)", ST_PRIV_NONE, case_clock_rate },
	{ "clock-worker", "the timebase checked against the kernel in the measuring process: a "
	  "C library clock at half its rate in rtconform-worker alone", "the worker's C library "
	  "clocks at 0.5 of the kernel's (" SELFTEST_LIB_CLOCK ", RTC_FAKE_CLOCK_RATE=0.5, "
	  "RTC_FAKE_CLOCK_ONLY=rtconform-worker)", ST_PRIV_ROOT, case_clock_rate },
	{ "schema-priority", "requirements validation: a priority out of range",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "schema-duplicate-id", "requirements validation: a requirement id twice",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "schema-unit", "requirements validation: an unknown unit",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "schema-zero-iterations", "requirements validation: a count out of range",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "schema-unknown-element", "requirements validation: the schema refuses an element",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "schema-malformed", "requirements validation: XML that is not well-formed",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "schema-unknown-probe", "requirements validation: a probe that does not exist",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "schema-param-value", "requirements validation: a parameter's value not allowed",
	  "an invalid requirements file", ST_PRIV_NONE, case_schema },
	{ "must-fail", "the behaviour probes' violation counts", "the must-violate profile "
	  "posix-rt-must-fail (every requirement breaks its rule)", ST_PRIV_RT, case_must_fail },
	{ "page-faults", "page faults counted inside the measured loop", "16 pages written in "
	  "every run after the kernel took them back (selftest probe, fault=touch)", ST_PRIV_RT,
	  case_page_faults },
	{ "deadline-overrun", "SCHED_DEADLINE deadline misses", "2 DEADLINE tasks working 4 ms "
	  "a job on a 1 ms runtime (10 ms deadline and period)", ST_PRIV_RT, case_overrun },
	{ "premise-policy", "the policy check at the kernel", "a C library layer that accepts "
	  "and ignores every policy and priority request (" SELFTEST_LIB_SCHED ", policy)",
	  ST_PRIV_ROOT, case_premise },
	{ "premise-priority", "the threads' priority check at the kernel", "a C library layer "
	  "that ignores a new thread's policy and priority (" SELFTEST_LIB_SCHED ", attr)",
	  ST_PRIV_ROOT, case_premise },
	{ "premise-protocol", "a mutex protocol ignored, judged by its effect", "a C library "
	  "layer that ignores the mutex protocol (" SELFTEST_LIB_SCHED ", protocol)",
	  ST_PRIV_ROOT, case_premise },
	{ "timer-early", "early timer wake-ups counted and failed", "absolute sleeps that end "
	  "15 ms early (" SELFTEST_LIB_CLOCK ")", ST_PRIV_ROOT, case_premise },
	{ "handoff-early", "every hand-off checked: a wait without its post counted and failed",
	  "a C library layer whose every 8th sem_wait returns at once (" SELFTEST_LIB_IPC
	  ", sem-pingpong, 200 x 2)", ST_PRIV_ROOT, case_premise },
	{ "delay-timer-wakeup", "timer-wakeup's breach count and max", "20 ms busy-waited on "
	  "every 10th measured wake-up, CPU 0 (rtconform-worker-faults, " DELAY_SPEC ")",
	  ST_PRIV_ROOT, case_delay },
	{ "delay-sem-pingpong", "sem-pingpong's breach count and max", "20 ms busy-waited on "
	  "every 10th measured round trip, before its clock read (rtconform-worker-faults, "
	  DELAY_SPEC ")", ST_PRIV_ROOT, case_delay },
	{ "trace-worst", "a traced run explains its worst breach, not its first", "busy waits "
	  "growing 5 ms each, 5 to 25 ms, every 250th wake-up, CPU 0, traced "
	  "(rtconform-worker-faults, delay=5ms,every=250,grow=5ms)", ST_PRIV_ROOT,
	  st_case_trace_worst },
};
const size_t st_ncases = sizeof st_cases / sizeof st_cases[0];
