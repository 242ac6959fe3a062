/* SPDX-License-Identifier: Apache-2.0 */
/* test_duration.c - running by time: the duration grammar and bounds, the
 * loader's <run duration> and <defaults duration>, validation refusing it
 * for probes that cannot run by time, and the worker side: the deadline
 * ends the runs, and recorded runs merge two by two past RTC_MAX_RUNS
 * with nothing lost. */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/units.h"
#include "harness/measure/probe.h"
#include "harness/measure/probes/probes.h"
#include "harness/runner.h"
#include "requirements/loader.h"
#include "requirements/validate.h"
#include "test_util.h"

#define NS 1000000000ull

START_TEST(grammar_accepts)
{
	static const struct { const char *text; uint64_t ns; } good[] = {
		{ "1s", NS }, { "3 s", 3 * NS }, { "90min", 5400 * NS }, { "1.5min", 90 * NS },
		{ "24h", 86400 * NS }, { "5.5h", 19800 * NS }, { "168h", 604800 * NS },
		{ "0.5min", 30 * NS }, { "010s", 10 * NS },
	};
	char err[200];
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		uint64_t ns = 0;
		ck_assert_msg(units_run_duration_parse(good[i].text, &ns, err, sizeof err) == 0,
			      "'%s' refused: %s", good[i].text, err);
		ck_assert_msg(ns == good[i].ns, "'%s' is %llu ns", good[i].text,
			      (unsigned long long)ns);
	}
}
END_TEST

START_TEST(grammar_refuses)
{
	static const struct { const char *text; int rc; const char *words; } bad[] = {
		{ "", -EINVAL, "number" },
		{ "24", -EINVAL, "missing unit" },
		{ "24 hours", -EINVAL, "unknown unit 'hours'" },
		{ "3ms", -EINVAL, "unknown unit 'ms'" },
		{ "24H", -EINVAL, "unknown unit 'H'" },
		{ "-1h", -EINVAL, "sign" },
		{ "1e3s", -EINVAL, "exponents are not allowed" },
		{ ".5h", -EINVAL, "start with a digit" },
		{ "1,5h", -EINVAL, "'1,5h' is not one number and one unit (expected a number then "
			"s, min or h" },
		/* review 24: not "unknown unit 'h30s' (expected ns, us, ...)" */
		{ "1h30min", -EINVAL, "'1h30min' is not one number and one unit (expected a number "
			"then s, min or h, e.g. 30s, 90min, 1.5h)" },
		{ "0.5s", -ERANGE, "1s .. 168h" },
		{ "0s", -ERANGE, "1s .. 168h" },
		{ "169h", -ERANGE, "1s .. 168h" },
		{ "7.0001d", -EINVAL, "unknown unit 'd'" },
		{ "99999999999999999999999h", -ERANGE, "1s .. 168h" },
	};
	char err[200];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint64_t ns = 7;
		err[0] = 0;
		int rc = units_run_duration_parse(bad[i].text, &ns, err, sizeof err);
		ck_assert_msg(rc == bad[i].rc, "'%s': %d, want %d (%s)", bad[i].text, rc,
			      bad[i].rc, err);
		ck_assert_msg(strstr(err, bad[i].words), "'%s': '%s' lacks '%s'", bad[i].text, err,
			      bad[i].words);
		ck_assert_uint_eq(ns, 7);
	}
}
END_TEST

static struct diag_list diags;

static void setup(void)
{
	memset(&diags, 0, sizeof diags);
	if (!timebase_get()) {
		struct timebase tb;
		char err[200];
		ck_assert_msg(timebase_init(&tb, err, sizeof err) == 0, "timebase: %s", err);
	}
}

static void teardown(void)
{
	diag_free(&diags);
}

static struct req_file *load(const char *body)
{
	char doc[4096];
	snprintf(doc, sizeof doc,
		 "<requirements xmlns=\"urn:rtconform:requirements:1\" name=\"t\">\n%s"
		 "</requirements>\n", body);
	return req_load_memory(doc, strlen(doc), "t.xml", &diags);
}

static bool has(const char *words)
{
	for (size_t i = 0; i < diags.n; i++)
		if (strstr(diags.msgs[i], words))
			return true;
	return false;
}

/* <defaults duration> applies to every requirement; a <run runs=...> takes
 * it back to counting, a <run duration> sets its own. */
START_TEST(loader_precedence)
{
	struct req_file *f = load(
		"<defaults duration=\"2h\" iterations=\"500\"/>\n"                       /* 2 */
		"<requirement id=\"A\"><probe name=\"selftest\"/></requirement>\n"
		"<requirement id=\"B\"><probe name=\"selftest\"/><run runs=\"4\"/></requirement>\n"
		"<requirement id=\"C\"><probe name=\"selftest\"/>\n"
		"  <run duration=\"90min\"/>\n"                                          /* 6 */
		"  <limit statistic=\"p99.999\" max=\"1s\"/></requirement>\n");
	ck_assert_msg(f, "refused: %s", diags.n ? diags.msgs[0] : "");
	ck_assert(f->reqs[0].duration_ns == 7200 * NS && f->reqs[0].duration_line == 2);
	ck_assert_uint_eq(f->reqs[0].iterations, 500);
	ck_assert(f->reqs[1].duration_ns == 0 && f->reqs[1].runs == 4);
	ck_assert(f->reqs[2].duration_ns == 5400 * NS && f->reqs[2].duration_line == 6);
	/* The samples of a run by time are not known: no validation error for
	 * a percentile that needs more than one run gives. */
	ck_assert_uint_eq(diags.n, 0);
	ck_assert_uint_eq(validate_file(f, &probe_catalog, &diags), 0);
	req_file_free(f);
}
END_TEST

START_TEST(loader_refuses)
{
	ck_assert_ptr_null(load(
		"<defaults duration=\"8d\"/>\n"
		"<requirement id=\"A\"><probe name=\"selftest\"/>\n"
		"  <run runs=\"3\" duration=\"1h\"/></requirement>\n"
		"<requirement id=\"B\"><probe name=\"selftest\"/><run duration=\"0.1s\"/></requirement>\n"));
	ck_assert_msg(has("t.xml:2: duration=\"8d\": unknown unit 'd' (expected s, min or h"),
		      "%s", diags.msgs[0]);
	ck_assert(has("t.xml:4: runs=\"3\" and duration=\"1h\": give one, not both"));
	ck_assert(has("t.xml:5: duration=\"0.1s\": out of range (expected 1s .. 168h"));
	ck_assert_uint_eq(diags.n, 3);
}
END_TEST

/* A behaviour probe cannot run by time: the message names the line of the
 * element that asked, the requirement and the probe. */
START_TEST(validate_refuses_probe)
{
	struct req_file *f = load(
		"<defaults duration=\"1h\"/>\n"
		"<requirement id=\"RR\"><probe name=\"rr-quantum\"/>\n"
		"  <sched policy=\"rr\" priority=\"10\"/></requirement>\n"
		"<requirement id=\"OK\"><probe name=\"sem-pingpong\"/></requirement>\n"
		"<requirement id=\"DL\"><probe name=\"deadline\"/><run duration=\"3s\"/></requirement>\n");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(validate_file(f, &probe_catalog, &diags), 2);
	ck_assert(has("t.xml:2: requirement RR: duration: probe rr-quantum cannot run by time"));
	ck_assert(has("t.xml:6: requirement DL: duration: probe deadline cannot run by time"));
	ck_assert(has("give runs= instead of duration"));
	req_file_free(f);
}
END_TEST

static const struct probe_metric metrics[] = {
	{ "lat", "a duration", METRIC_DURATION },
	{ "events", "a count", METRIC_COUNT },
};
static const struct probe timed_probe = {
	.decl = { .name = "timed", .help = "test", .metrics = metrics, .nmetrics = 2,
		  .by_time = true },
};

/* Runs as a probe does them, by hand: past RTC_MAX_RUNS the recorded runs
 * merge two by two, every sample and count stays, and the batch time of a
 * recorded run is the sum of its measured runs'. */
START_TEST(worker_folds_runs)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&timed_probe.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	struct probe_ctx c;
	memset(&c, 0, sizeof c);
	c.probe = &timed_probe;
	c.res = r;
	c.worker = getpid();
	c.m[0] = result_metric(r, 0);
	c.m[1] = result_metric(r, 1);
	c.tb = timebase_get();
	ck_assert_ptr_nonnull(c.tb);
	c.duration_ns = 3600 * NS; /* never reached here */
	c.runs = UINT32_MAX;
	const uint32_t total = 2 * RTC_MAX_RUNS + 3;
	for (uint32_t k = 0; k < total && k < c.runs; k++) {
		probe_run_begin(&c, k);
		probe_record(&c, 0, k);
		probe_record(&c, 0, 1);
		probe_add_count(&c, 1, k % 3);
		probe_run_end(&c, 2);
	}
	ck_assert_uint_eq(c.runs, UINT32_MAX);
	ck_assert_uint_eq(c.by_time.shift, 2);
	/* 2003 runs in groups of 4: 501 recorded runs, the last of 3. */
	ck_assert_uint_eq(r->runs_done, 501);
	const struct metric_data *lat = result_metric(r, 0), *ev = result_metric(r, 1);
	ck_assert_uint_eq(lat->hist.count, 2 * total);
	ck_assert_uint_eq(lat->runs[0].count, 8);
	ck_assert(lat->runs[0].sum == 0 + 1 + 2 + 3 + 4);
	ck_assert_uint_eq(lat->runs[500].count, 6);
	ck_assert_uint_eq(lat->runs[501].count, 0);
	ck_assert_uint_eq(r->runs[0].iterations, 8);
	ck_assert_uint_eq(r->runs[500].iterations, 6);
	ck_assert(r->runs[0].t_end >= r->runs[0].t_begin);
	/* A count is one sample per measured run, its recorded runs add up. */
	ck_assert_uint_eq(ev->hist.count, total);
	ck_assert(ev->hist.max == 2 && ev->hist.min == 0);
	ck_assert(ev->runs[0].sum == 0 + 1 + 2 + 0 && ev->runs[0].count == 4);
	unsigned __int128 sum = 0;
	for (uint32_t k = 0; k < RTC_MAX_RUNS; k++)
		sum += ev->runs[k].sum;
	ck_assert(sum == ev->hist.sum);
	munmap(r, bytes);
}
END_TEST

/* The first run sets the deadline; the first run to end after it lowers
 * c->runs to the runs measured, so the probe's loop ends there. */
START_TEST(worker_stops_at_deadline)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&timed_probe.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	struct probe_ctx c;
	memset(&c, 0, sizeof c);
	c.probe = &timed_probe;
	c.res = r;
	c.worker = getpid();
	c.m[0] = result_metric(r, 0);
	c.m[1] = result_metric(r, 1);
	c.tb = timebase_get();
	c.duration_ns = NS; /* 1 s */
	c.runs = UINT32_MAX;
	uint32_t k;
	uint64_t t0 = tb_clock_ns();
	for (k = 0; k < c.runs; k++) {
		probe_run_begin(&c, k);
		usleep(20000);
		probe_record(&c, 0, 1);
		probe_run_end(&c, 1);
	}
	uint64_t took = tb_clock_ns() - t0;
	ck_assert(c.by_time.reached);
	ck_assert_uint_eq(c.runs, k);
	ck_assert_msg(took >= NS, "stopped after %llu ns", (unsigned long long)took);
	ck_assert_uint_ge(k, 2);
	probe_by_time_note(&c);
	ck_assert_msg(strstr(r->note, "ran by time: "), "%s", r->note);
	/* Review 24: not "recorded as 3 runs of up to 1 each". */
	char want[128];
	snprintf(want, sizeof want, "recorded as %u runs (each holding up to 1 measured run).",
		 r->runs_done);
	ck_assert_msg(strstr(r->note, want), "'%s' lacks '%s'", r->note, want);
	munmap(r, bytes);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("duration");
	TCase *tc = tu_tcase(s, "duration", 10);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, grammar_accepts);
	tcase_add_test(tc, grammar_refuses);
	tcase_add_test(tc, loader_precedence);
	tcase_add_test(tc, loader_refuses);
	tcase_add_test(tc, validate_refuses_probe);
	tcase_add_test(tc, worker_folds_runs);
	tcase_add_test(tc, worker_stops_at_deadline);
	return tu_run(s);
}
