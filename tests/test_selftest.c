/* SPDX-License-Identifier: Apache-2.0 */
/* test_selftest.c - the comparisons `rtconform selftest` decides every
 * case with (selftest/selftest_run.c): a known answer that matches passes, one
 * that does not fails the case, whatever passed before it, and an error
 * stays an error; the breach count of a delay case read from a histogram
 * (st_count_above); a case the machine can spoil run again, each run
 * kept, only while its judge blames the machine (st_run_attempts, with a
 * stand-in for rtconform that copies a results.json); and
 * RTC_SELFTEST_FAULTS's delay parsed or refused
 * (harness/measure/fault_spec.c). */
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "selftest/selftest.h"
#include "harness/measure/fault_spec.h"
#include "reports/report.h"
#include "test_util.h"

START_TEST(selftest_matching_answers_pass)
{
	struct st_outcome o = { .verdict = ST_PASS };
	ck_assert(st_expect_u64(&o, "breaches", 8, 8));
	ck_assert(st_expect_min(&o, "max", 20, 20.5, " ms"));
	ck_assert(st_expect_str(&o, "verdict", "fail", "fail"));
	ck_assert(st_expect_has(&o, "the reason", "did not take", "it did not take; nothing"));
	ck_assert_int_eq(o.verdict, ST_PASS);
	ck_assert_str_eq(o.expected, "breaches 8; max >= 20 ms; verdict fail; the reason says "
				     "\"did not take\"");
	ck_assert_str_eq(o.observed, "breaches 8; max 20.5 ms; verdict fail; the reason says it: "
				     "\"it did not take; nothing\"");
	/* the line that holds it is what is shown, not the whole text */
	struct st_outcome l = { .verdict = ST_PASS };
	ck_assert(st_expect_has(&l, "the message", "f.xml:3:", "first\nf.xml:3: bad unit\nlast"));
	ck_assert_str_eq(l.observed, "the message says it: \"f.xml:3: bad unit\"");
	/* a second check of the same line does not quote it again (issue 41) */
	ck_assert(st_expect_has(&l, "the message", "bad unit", "first\nf.xml:3: bad unit\nlast"));
	ck_assert_str_eq(l.observed, "the message says it: \"f.xml:3: bad unit\"; the message says "
				     "it: (the line quoted above)");
	/* another line is quoted */
	ck_assert(st_expect_has(&l, "the message", "last", "first\nf.xml:3: bad unit\nlast"));
	ck_assert_ptr_nonnull(strstr(l.observed, "above); the message says it: \"last\""));
}
END_TEST

/* Each comparison, given a wrong answer, fails the case and says what it
 * saw; later matches do not make it pass again. */
START_TEST(selftest_a_wrong_answer_fails_the_case)
{
	struct st_outcome o = { .verdict = ST_PASS };
	ck_assert(!st_expect_u64(&o, "breaches", 8, 7));
	ck_assert_int_eq(o.verdict, ST_FAIL);
	ck_assert(st_expect_u64(&o, "exit", 1, 1));
	ck_assert_int_eq(o.verdict, ST_FAIL);
	ck_assert_str_eq(o.observed, "breaches 7; exit 1");

	struct st_outcome m = { .verdict = ST_PASS };
	ck_assert(!st_expect_min(&m, "max", 20, 19.999, " ms"));
	ck_assert_int_eq(m.verdict, ST_FAIL);
	struct st_outcome s = { .verdict = ST_PASS };
	ck_assert(!st_expect_str(&s, "verdict", "fail", "pass"));
	ck_assert_int_eq(s.verdict, ST_FAIL);
	struct st_outcome n = { .verdict = ST_PASS };
	ck_assert(!st_expect_str(&n, "verdict", "fail", NULL));
	ck_assert_str_eq(n.observed, "verdict (none)");
	struct st_outcome h = { .verdict = ST_PASS };
	ck_assert(!st_expect_has(&h, "the reason", "did not take", NULL));
	ck_assert_int_eq(h.verdict, ST_FAIL);
	ck_assert_str_eq(h.observed, "the reason (none)");
	struct st_outcome w = { .verdict = ST_PASS };
	ck_assert(!st_expect_has(&w, "the reason", "did not take", "took\nsecond line"));
	ck_assert_int_eq(w.verdict, ST_FAIL);
	ck_assert_str_eq(w.observed, "the reason does not say it: \"took\"");
	/* an error stays an error */
	struct st_outcome e = { .verdict = ST_PASS };
	st_error(&e, "no results.json");
	ck_assert(!st_expect_u64(&e, "breaches", 8, 0));
	ck_assert_int_eq(e.verdict, ST_ERROR);
	ck_assert_str_eq(e.why, "no results.json");
}
END_TEST

/* Buckets in ns units: [1, 100] x5, [9e6, 10e6] x1 (at the threshold, not
 * above), [10e6, 11e6] x2 (straddles 10e6 + 1), [20e6, 21e6] x3, overflow 1. */
START_TEST(selftest_breaches_counted_from_the_histogram)
{
	struct rv_bucket b[] = { { 1, 100, 5 }, { 9000000, 10000000, 1 },
				 { 10000000, 11000000, 2 }, { 20000000, 21000000, 3 } };
	struct rv_metric m = { .ns_per_unit = 1.0, .buckets = b, .nbuckets = 4, .overflow = 1 };
	uint64_t above, straddle;
	st_count_above(&m, 10000000, &above, &straddle);
	ck_assert_uint_eq(above, 3 + 1);
	ck_assert_uint_eq(straddle, 2);
	st_count_above(&m, 11000000, &above, &straddle);
	ck_assert_uint_eq(above, 4);
	ck_assert_uint_eq(straddle, 0);
	/* units of 0.5 ns: 10 ms is 20e6 units */
	m.ns_per_unit = 0.5;
	st_count_above(&m, 10000000, &above, &straddle);
	ck_assert_uint_eq(above, 1);
	ck_assert_uint_eq(straddle, 3);
	/* stats-ramp's total: every bucket and the overflow; a bucket left
	 * out is a sample fewer */
	ck_assert_uint_eq(st_histogram_total(&m), 5 + 1 + 2 + 3 + 1);
	m.nbuckets = 3;
	ck_assert_uint_eq(st_histogram_total(&m), 5 + 1 + 2 + 1);
}
END_TEST

START_TEST(selftest_fault_spec_parsed_or_refused)
{
	struct fault_spec f;
	char err[300];
	ck_assert_int_eq(fault_spec_parse("delay=20ms,every=10", &f, err, sizeof err), 0);
	ck_assert_uint_eq(f.delay_ns, 20000000);
	ck_assert_uint_eq(f.every, 10);
	ck_assert_uint_eq(f.grow_ns, 0);
	ck_assert_int_eq(fault_spec_parse("delay=1ms,every=100,grow=2ms", &f, err, sizeof err), 0);
	ck_assert_uint_eq(f.delay_ns, 1000000);
	ck_assert_uint_eq(f.every, 100);
	ck_assert_uint_eq(f.grow_ns, 2000000);
	ck_assert(fault_spec_is_delay("delay=x"));
	ck_assert(!fault_spec_is_delay("rtconform-fault-sched.so RTC_FAKE_SCHED=policy"));
	ck_assert(!fault_spec_is_delay(NULL));
	static const char *const bad[] = { "delay=20ms", "delay=20ms,every=0", "delay=0ms,every=1",
					   "delay=2s,every=1", "delay=20parsecs,every=1",
					   "delay=20ms,each=3", "delay=20ms,every=3x",
					   "delay=1ms,every=3,grow=0ms", "delay=1ms,every=3,grow=2s",
					   "delay=1ms,every=3,shrink=1ms", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		ck_assert_msg(fault_spec_parse(bad[i], &f, err, sizeof err) < 0, "%s taken", bad[i]);
		ck_assert_msg(err[0], "%s: no reason", bad[i]);
	}
}
END_TEST

/* The judge of st_run_attempts: ST_TRY_MACHINE for the first `machine`
 * attempts, then `last`; counts its calls. */
struct judge_script {
	unsigned machine, calls;
	enum st_try last;
};

static enum st_try scripted_judge(struct st_outcome *o, const void *arg,
				  const struct report_view *v, int rc)
{
	struct judge_script *js = (struct judge_script *)arg;
	ck_assert_uint_eq(v->nfiles, 1);
	ck_assert_int_eq(rc, 0);
	enum st_try t = js->calls++ < js->machine ? ST_TRY_MACHINE : js->last;
	st_expect_u64(o, "breaches", 8, t == ST_TRY_MATCH ? 8 : 9);
	return t;
}

/* dir/rtconform: a stand-in that copies the fixture results.json into its
 * `run -o DIR`; the record's directory dir/record. */
static void stand_in(char *dir, struct st_env *e)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(e->self, sizeof e->self, "%s/rtconform", dir);
	FILE *f = fopen(e->self, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n[ \"$1\" = run ] && mkdir -p \"$3\" && "
		   "cp %s/tests/fixtures/results/pass.json \"$3/results.json\"\n", RTC_SOURCE_DIR);
	fclose(f);
	ck_assert_int_eq(chmod(e->self, 0755), 0);
	static char record[256];
	snprintf(record, sizeof record, "%s/record", dir);
	ck_assert_int_eq(mkdir(record, 0755), 0);
	e->dir = record;
	e->self_dir = NULL; /* no helper directory */
	e->root = e->rt = true;
}

START_TEST(selftest_machine_spoiled_runs_again)
{
	char dir[] = "/tmp/test_selftest.XXXXXX", path[512];
	struct st_env e;
	memset(&e, 0, sizeof e);
	stand_in(dir, &e);
	const struct st_case c = { "retry", "f", "i", ST_PRIV_NONE, NULL };
	/* twice the machine's, then a match: three runs, each kept and named */
	struct judge_script js = { .machine = 2, .last = ST_TRY_MATCH };
	struct st_outcome o = { .verdict = ST_PASS };
	st_run_attempts(&e, &c, &o, "<x/>", NULL, scripted_judge, &js, "the machine's");
	ck_assert_uint_eq(js.calls, 3);
	ck_assert_int_eq(o.verdict, ST_PASS);
	ck_assert_str_eq(o.observed, "breaches 8; attempt 1 (run/): the machine's; run again; "
				     "attempt 2 (run-2/): the machine's; run again");
	for (int k = 1; k <= 3; k++) {
		snprintf(path, sizeof path, k == 1 ? "%s/record/cases/retry/run/results.json"
			 : "%s/record/cases/retry/run-%d/results.json", dir, k);
		ck_assert_msg(access(path, F_OK) == 0, "%s missing", path);
	}
	/* always the machine's: three attempts, then it fails */
	struct judge_script always = { .machine = 99, .last = ST_TRY_MATCH };
	const struct st_case c2 = { "always", "f", "i", ST_PRIV_NONE, NULL };
	struct st_outcome o2 = { .verdict = ST_PASS };
	st_run_attempts(&e, &c2, &o2, "<x/>", NULL, scripted_judge, &always, "the machine's");
	ck_assert_uint_eq(always.calls, ST_ATTEMPTS);
	ck_assert_int_eq(o2.verdict, ST_FAIL);
	/* any other mismatch: one attempt, failed */
	struct judge_script once = { .machine = 0, .last = ST_TRY_MISMATCH };
	const struct st_case c3 = { "once", "f", "i", ST_PRIV_NONE, NULL };
	struct st_outcome o3 = { .verdict = ST_PASS };
	st_run_attempts(&e, &c3, &o3, "<x/>", NULL, scripted_judge, &once, "the machine's");
	ck_assert_uint_eq(once.calls, 1);
	ck_assert_int_eq(o3.verdict, ST_FAIL);
	ck_assert_str_eq(o3.observed, "breaches 9");
	tu_rm_tree(dir);
}
END_TEST

/* A record rendered to validation.json, read back, rendered again: the
 * same bytes for all three documents (what verify compares); each kind of
 * forgery or hostile field is named. */
static char *record_json(enum st_verdict last, const char *observed)
{
	struct st_outcome *out = calloc(st_ncases, sizeof *out);
	ck_assert_ptr_nonnull(out);
	for (size_t i = 0; i < st_ncases; i++) {
		snprintf(out[i].expected, sizeof out[i].expected, "exit %zu", i);
		snprintf(out[i].observed, sizeof out[i].observed, "%s", observed);
		out[i].seconds = 0.125 * (double)i + 1.0 / 3;
	}
	out[st_ncases - 1].verdict = last;
	snprintf(out[st_ncases - 1].why, sizeof out[0].why, "%s", last ? "because" : "");
	struct st_record rec = { .out = out };
	st_tally(&rec);
	struct st_doc d = { .rec = &rec, .version = "9.9", .commit = "abc" };
	snprintf(d.started, sizeof d.started, "2026-01-01T00:00:00Z");
	snprintf(d.ended, sizeof d.ended, "2026-01-01T00:01:00Z");
	fingerprint_add(&d.fp, "host.name", "box <&> \"q\"");
	fingerprint_add(&d.fp, "host.kernel.release", "6.1");
	char why[300];
	size_t len;
	char *json = st_render(&d, ST_FILE_JSON, &len, why, sizeof why);
	ck_assert_ptr_nonnull(json);
	fingerprint_free(&d.fp);
	free(out);
	return json;
}

/* text with the first `from` replaced by `to`, malloc'd. */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	ck_assert_ptr_nonnull(at);
	size_t n = strlen(text) + strlen(to) + 1;
	char *out = malloc(n);
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

static void read_fails(const char *text, const char *want)
{
	struct st_read r;
	char err[1000];
	ck_assert_int_eq(st_read_record("v.json", text, strlen(text), &r, err, sizeof err), -1);
	st_read_free(&r);
	ck_assert_msg(strstr(err, want), "\"%s\" lacks \"%s\"", err, want);
}

START_TEST(selftest_record_read_back_renders_the_same)
{
	char *json = record_json(ST_ERROR, "observed \u00e9");
	struct st_read r;
	char err[1000], why[300];
	ck_assert_int_eq(st_read_record("v.json", json, strlen(json), &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.rec.counts[ST_ERROR], 1);
	ck_assert_int_eq(r.rec.status, EXIT_NOT_MEASURED);
	ck_assert_uint_eq(st_read_totals_differ(&r, err, sizeof err), 0);
	size_t len;
	char *again = st_render(&r.d, ST_FILE_JSON, &len, why, sizeof why);
	ck_assert_ptr_nonnull(again);
	ck_assert_str_eq(again, json); /* byte for byte */
	free(again);
	for (int f = ST_FILE_JUNIT; f < ST_NFILES; f++) {
		char *doc = st_render(&r.d, (enum st_file)f, &len, why, sizeof why);
		ck_assert_ptr_nonnull(doc);
		free(doc);
	}
	st_read_free(&r);
	/* a verdict forged: the totals say otherwise, named */
	char *forged = replaced(json, "\"verdict\": \"error\"", "\"verdict\": \"pass\"");
	ck_assert_int_eq(st_read_record("v.json", forged, strlen(forged), &r, err, sizeof err), 0);
	ck_assert_uint_ge(st_read_totals_differ(&r, err, sizeof err), 1);
	ck_assert_msg(strstr(err, "totals.pass says"), "%s", err);
	st_read_free(&r);
	free(forged);
	free(json);
}
END_TEST

START_TEST(selftest_record_hostile_fields_named)
{
	char *json = record_json(ST_PASS, "fine");
	static const struct { const char *from, *to, *want; } bad[] = {
		{ "\"verdict\": \"pass\"", "\"verdict\": \"great\"", "v.json: cases[0].verdict: \"great\" is no verdict" },
		{ "\"verdict\": \"pass\"", "\"verdict\": 1", "cases[0].verdict: expected a string" },
		{ "\"privilege\": \"", "\"privilege\": \"x", "cases[0].privilege: " },
		{ "\"seconds\": ", "\"seconds\": \"s\", \"x\": ", "cases[0].seconds: not a number" },
		{ "\"seconds\": ", "\"seconds\": -1, \"x\": ", "cases[0].seconds: -1: not between" },
		{ "\"why\": null", "\"why\": []", "cases[0].why: expected a string or null" },
		{ "\"exit_status\": 0", "\"exit_status\": 0.5", "exit_status: expected an integer" },
		{ "\"schema\": \"urn:rtconform:validation:1\"", "\"schema\": \"x\"", "schema: \"x\", not" },
		{ "\"host.name\": \"", "\"host.name\": null, \"h\": \"", "host.host.name: expected a string" },
		{ "\"cases\": [", "\"cases\": [{}, ", "cases: " },
		{ "\"commit\": \"abc\"", "\"commit\": \"abc\", \"commit\": \"d\"", "not JSON" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *t = replaced(json, bad[i].from, bad[i].to);
		read_fails(t, bad[i].want);
		free(t);
	}
	/* a string longer than its field: refused, not cut */
	char big[1300];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	char to[1400];
	snprintf(to, sizeof to, "\"observed\": \"%s", big);
	char *t = replaced(json, "\"observed\": \"", to);
	read_fails(t, "cases[0].observed: 1303 bytes, more than the 1199");
	free(t);
	char *id = replaced(json, st_cases[0].id, "not-a-case");
	read_fails(id, "cases[0].id: \"not-a-case");
	free(id);
	read_fails("[[[", "v.json: not JSON");
	read_fails("[]", "v.json: not a JSON object");
	free(json);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("selftest");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, selftest_matching_answers_pass);
	tcase_add_test(tc, selftest_a_wrong_answer_fails_the_case);
	tcase_add_test(tc, selftest_breaches_counted_from_the_histogram);
	tcase_add_test(tc, selftest_fault_spec_parsed_or_refused);
	tcase_add_test(tc, selftest_machine_spoiled_runs_again);
	tcase_add_test(tc, selftest_record_read_back_renders_the_same);
	tcase_add_test(tc, selftest_record_hostile_fields_named);
	return tu_run(s);
}
