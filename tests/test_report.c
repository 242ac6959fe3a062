/* SPDX-License-Identifier: Apache-2.0 */
/* test_report.c - totals, junit.xml, the text reports and the atomic write,
 * on the synthetic run of report_fixture.h; which limit decides a verdict.
 *
 * Nothing here measures: every requirement, result and sample is made by
 * hand, so each expected number is known exactly. JUnit output is checked
 * the way CI consumes it: validated by xmllint against the project's JUnit
 * schema (tests/schemas/junit.xsd: what the Jenkins and Surefire readers
 * accept), then parsed back with libxml2 and queried with XPath.
 */
#include "report_fixture.h"

#include <math.h>
#include <stdarg.h>
#include <sys/wait.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "harness/measure/probes/probes.h"
#include "test_util.h"

#define JUNIT_XSD RTC_SOURCE_DIR "/tests/schemas/junit.xsd"

/* Entries in dir other than . and .. */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* xmllint's exit status validating file against a schema. Its chatter
 * goes to a log beside the file, shown only when it fails. */
static int xmllint(const char *schema, const char *file)
{
	char log[512];
	snprintf(log, sizeof log, "%s.xmllint.log", file);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (!freopen(log, "w", stderr) || dup2(fileno(stderr), 1) < 0)
			_exit(126);
		execlp("xmllint", "xmllint", "--noout", "--nonet", "--schema", schema, file,
		       (char *)NULL);
		_exit(127);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (rc) {
		char *text = tu_slurp(log, NULL);
		fprintf(stderr, "xmllint --schema %s %s: exit %d\n%s", schema, file, rc, text);
		free(text);
	}
	unlink(log);
	return rc;
}

static void assert_valid_junit(const char *file)
{
	ck_assert_int_eq(xmllint(JUNIT_XSD, file), 0);
}

/* ---- XPath over the written report ------------------------------------- */

static xmlDocPtr parse(const char *file)
{
	xmlDocPtr doc = xmlReadFile(file, NULL, XML_PARSE_NONET);
	ck_assert_msg(doc != NULL, "%s does not parse", file);
	return doc;
}

/* string(expr), malloc'd. */
static char *xp_str(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	ck_assert_ptr_nonnull(ctx);
	char *full;
	ck_assert_int_ge(asprintf(&full, "string(%s)", expr), 0);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST full, ctx);
	ck_assert_msg(o != NULL, "bad xpath %s", full);
	char *s = strdup(o->stringval ? (const char *)o->stringval : "");
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	free(full);
	return s;
}

static double xp_num(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	ck_assert_ptr_nonnull(ctx);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_msg(o != NULL, "bad xpath %s", expr);
	double v = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return v;
}

static void assert_xp_str(xmlDocPtr doc, const char *expr, const char *want)
{
	char *got = xp_str(doc, expr);
	ck_assert_msg(strcmp(got, want) == 0, "%s: got '%s', want '%s'", expr, got, want);
	free(got);
}

/* Properties are per suite; each named property must be there once. */
static void assert_prop_in(xmlDocPtr doc, int suite, const char *name, const char *want)
{
	char expr[300], cexpr[300];
	snprintf(expr, sizeof expr,
		 "/testsuites/testsuite[%d]/properties/property[@name='%s']/@value", suite, name);
	snprintf(cexpr, sizeof cexpr,
		 "count(/testsuites/testsuite[%d]/properties/property[@name='%s'])", suite, name);
	double n = xp_num(doc, cexpr);
	ck_assert_msg(n == 1, "property %s appears %g times in suite %d", name, n, suite);
	assert_xp_str(doc, expr, want);
}

static void assert_prop(xmlDocPtr doc, const char *name, const char *want)
{
	assert_prop_in(doc, 1, name, want);
}

static void assert_no_prop(xmlDocPtr doc, const char *name)
{
	char cexpr[300];
	snprintf(cexpr, sizeof cexpr, "count(//property[@name='%s'])", name);
	ck_assert_msg(xp_num(doc, cexpr) == 0, "property %s should be absent", name);
}

/* ---- totals and exit status -------------------------------------------- */

START_TEST(totals_and_exit_status)
{
	struct fx *x = fx_new();
	struct report_totals t;

	report_totals(&x->run, NULL, &t);
	ck_assert_uint_eq(t.tests, 6);
	ck_assert_uint_eq(t.passed, 2);
	ck_assert_uint_eq(t.failures, 1);
	ck_assert_uint_eq(t.errors, 2);
	ck_assert_uint_eq(t.skipped, 1);
	ck_assert_double_eq_tol(t.seconds, 64.25, 1e-9);
	/* error and failure together: 3 wins over 1 */
	ck_assert_int_eq(report_exit_status(&x->run), 3);
	/* the view counts the same, to the bit */
	struct report_view v;
	struct report_totals vt;
	fx_view(x, &v);
	report_view_totals(&v, &vt);
	ck_assert_uint_eq(vt.tests, t.tests);
	ck_assert_uint_eq(vt.errors, t.errors);
	ck_assert(vt.seconds == t.seconds);
	ck_assert_int_eq(report_view_exit_status(&v), 3);
	report_view_file_totals(&v.files[1], &vt);
	ck_assert_uint_eq(vt.tests, 1);
	report_view_free(&v);

	report_totals(&x->run, &x->rf[1], &t);
	ck_assert_uint_eq(t.tests, 1);
	ck_assert_uint_eq(t.passed, 1);

	/* failure without error: 1 */
	x->results[0][2].verdict = VERDICT_PASS;
	x->results[0][4].verdict = VERDICT_PASS;
	ck_assert_int_eq(report_exit_status(&x->run), 1);
	/* error without failure: 3 */
	x->results[0][2].verdict = VERDICT_ERROR;
	x->results[0][0].verdict = VERDICT_PASS;
	ck_assert_int_eq(report_exit_status(&x->run), 3);
	/* passes and a skip: 0 */
	x->results[0][2].verdict = VERDICT_PASS;
	ck_assert_int_eq(report_exit_status(&x->run), 0);
	/* nothing at all: 0 */
	struct report_run empty = { 0 };
	ck_assert_int_eq(report_exit_status(&empty), 0);
	fx_free(x);
}
END_TEST

/* ---- junit ------------------------------------------------------------- */

START_TEST(junit_validates_against_the_schema)
{
	struct fx *x = fx_new();
	char path[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", path, sizeof path);
	assert_valid_junit(path);
	/* atomic: the report and nothing else */
	ck_assert_int_eq(dir_entries(x->dir), 1);
	fx_free(x);
}
END_TEST

START_TEST(junit_totals_match_cases)
{
	struct fx *x = fx_new();
	char path[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", path, sizeof path);
	xmlDocPtr doc = parse(path);

	ck_assert_double_eq(xp_num(doc, "count(/testsuites)"), 1);
	ck_assert_double_eq(xp_num(doc, "count(/testsuites/testsuite)"), 2);
	ck_assert_double_eq(xp_num(doc, "count(//testsuite//testsuite)"), 0);
	assert_xp_str(doc, "/testsuites/@name", "rtconform");
	ck_assert_double_eq(xp_num(doc, "number(/testsuites/@tests)"), 6);
	ck_assert_double_eq(xp_num(doc, "number(/testsuites/@failures)"), 1);
	ck_assert_double_eq(xp_num(doc, "number(/testsuites/@errors)"), 2);
	assert_xp_str(doc, "/testsuites/@time", "64.250");
	ck_assert_double_eq(xp_num(doc, "count(//testcase)"), 6);
	ck_assert_double_eq(xp_num(doc, "count(//testcase/failure)"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//testcase/error)"), 2);
	ck_assert_double_eq(xp_num(doc, "count(//testcase/skipped)"), 1);

	for (int s = 1; s <= 2; s++) {
		char e1[128], e2[128];
		static const char *const kinds[][2] = {
			{ "tests", "testcase" }, { "failures", "testcase/failure" },
			{ "errors", "testcase/error" }, { "skipped", "testcase/skipped" },
		};
		for (int k = 0; k < 4; k++) {
			snprintf(e1, sizeof e1, "number(/testsuites/testsuite[%d]/@%s)", s,
				 kinds[k][0]);
			snprintf(e2, sizeof e2, "count(/testsuites/testsuite[%d]/%s)", s,
				 kinds[k][1]);
			ck_assert_msg(xp_num(doc, e1) == xp_num(doc, e2), "suite %d %s", s,
				      kinds[k][0]);
		}
	}
	assert_xp_str(doc, "/testsuites/testsuite[1]/@name", "spy-memo");
	assert_xp_str(doc, "/testsuites/testsuite[2]/@name", "extra.xml");
	assert_xp_str(doc, "/testsuites/testsuite[1]/@time", "62.250");
	assert_xp_str(doc, "/testsuites/testsuite[1]/@hostname", "testhost");
	/* earliest requirement start: 1700000000 = 2023-11-14T22:13:20 UTC */
	assert_xp_str(doc, "/testsuites/testsuite[1]/@timestamp", "2023-11-14T22:13:20");
	/* <properties> comes first, as Jenkins' schema demands */
	assert_xp_str(doc, "name(/testsuites/testsuite[1]/*[1])", "properties");
	xmlFreeDoc(doc);
	fx_free(x);
}
END_TEST

START_TEST(junit_testcases)
{
	struct fx *x = fx_new();
	char path[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", path, sizeof path);
	xmlDocPtr doc = parse(path);

	const char *tc = "/testsuites/testsuite[1]/testcase[1]";
	char e[256];
	snprintf(e, sizeof e, "%s/@name", tc);
	assert_xp_str(doc, e,
		      "SEM-RT: Free semaphore acquisition at the highest real-time priority");
	snprintf(e, sizeof e, "%s/@classname", tc);
	assert_xp_str(doc, e, "spy-memo.sem-pingpong");
	snprintf(e, sizeof e, "%s/@time", tc);
	assert_xp_str(doc, e, "1.500");
	snprintf(e, sizeof e, "%s/failure/@type", tc);
	assert_xp_str(doc, e, "LatencyBudgetExceeded");
	snprintf(e, sizeof e, "%s/failure/@message", tc);
	/* every failed limit with its metric */
	char *msg = xp_str(doc, e);
	ck_assert_msg(strncmp(msg, "per-op max 996.5 ns > 800 ns (n=4000); page-faults total 12 > ",
			      62) == 0, "message: %s", msg);
	ck_assert_ptr_null(strstr(msg, "mean 748.2 ns")); /* only failed limits */
	free(msg);
	/* said once: the element holds nothing besides its attributes */
	snprintf(e, sizeof e, "count(%s/failure/node())", tc);
	ck_assert_double_eq(xp_num(doc, e), 0);
	snprintf(e, sizeof e, "%s/system-out", tc);
	char *out = xp_str(doc, e);
	/* short: each limit with the judge's sentence, a line of key
	 * statistics per metric, and where the rest is */
	static const char *const lines[] = {
		"\nload: /usr/bin/stress-ng --cpu 1\n",
		"\nlimit per-op max <= 800 ns: FAIL, max 996.5 ns > 800 ns (n=4000)\n",
		"\nlimit wakeup min >= 50 ns: PASS, min 100 ns >= 50 ns (n=10)\n",
		"\nnote: synthetic samples\n",
		"\nmetric per-op: n 4000, min 500 ns, mean 748.2 ns, p50 747.5 ns, p99 991.5 ns, "
		"max 996.5 ns, overflow 0\n",
		"\nmetric wakeup: n 10, min 100 ns, mean 104.5 ns, p50 n/a, p99 n/a, max 109 ns, "
		"overflow 0\n",
		"\nmetric page-faults (count): 4 runs, total 12, min 0, mean 3, max 6\n",
		"\nhistograms and per-run figures: in results.json\n",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		ck_assert_msg(strstr(out, lines[i]), "no '%s' in <system-out>:\n%s", lines[i], out);
	/* no histogram, per-run list or statistic junit.xml does not keep */
	static const char *const none[] = { "|#", "per run", "stddev", "p90", "cycles", "batch" };
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
		ck_assert_msg(!strstr(out, none[i]), "'%s' in <system-out>:\n%s", none[i], out);
	ck_assert_uint_lt(strlen(out), 1200);
	free(out);

	/* a title-less requirement is named by its id */
	assert_xp_str(doc, "/testsuites/testsuite[1]/testcase[3]/@name", "TMR");
	assert_xp_str(doc, "/testsuites/testsuite[1]/testcase[3]/error/@type",
		      "MeasurementError");
	assert_xp_str(doc, "/testsuites/testsuite[1]/testcase[3]/error/@message",
		      "worker timed out after 60 s");
	ck_assert_double_eq(xp_num(doc, "count(/testsuites/testsuite[1]/testcase[3]/error/node())"),
			    0);
	assert_xp_str(doc, "/testsuites/testsuite[1]/testcase[4]/skipped",
		      "not selected by --only");
	ck_assert_double_eq(xp_num(doc, "count(//testcase[2]/*[self::failure or self::error"
					 " or self::skipped])"), 0);
	/* a suite without a name attribute uses its path */
	assert_xp_str(doc, "/testsuites/testsuite[2]/testcase[1]/@classname",
		      "extra.xml.sem-pingpong");
	xmlFreeDoc(doc);
	fx_free(x);
}
END_TEST

/* Member KEYS... of j (a key "#N": element N of an array), NULL where
 * there is none. */
static json_t *jat(json_t *j, ...)
{
	va_list ap;
	va_start(ap, j);
	for (const char *k; j && (k = va_arg(ap, const char *));)
		j = k[0] == '#' ? json_array_get(j, (size_t)atoi(k + 1)) : json_object_get(j, k);
	va_end(ap);
	return j;
}

/* results.json of fixture x, parsed. */
static json_t *fx_json(struct fx *x)
{
	struct report_view v;
	size_t len;
	fx_view(x, &v);
	char *text = fx_render(&v, REPORT_JSON, &len);
	json_error_t e;
	json_t *j = json_loadb(text, len, 0, &e);
	ck_assert_msg(j, "results.json: %s", e.text);
	free(text);
	report_view_free(&v);
	return j;
}

START_TEST(junit_properties)
{
	struct fx *x = fx_new();
	char path[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", path, sizeof path);
	xmlDocPtr doc = parse(path);
	char want[64];

	/* environment: a screen of properties (issues 24, 41: viewers list
	 * them all before the first test case), the whole fingerprint in
	 * results.json (and report.html), not in junit.xml */
	assert_prop(doc, "host.name", "testhost");
	assert_prop(doc, "host.kernel.release", "6.1.0-rt");
	assert_prop(doc, "rtconform.version", "0.1.0");
	assert_prop(doc, "verdicts", "passed=1 failed=1 errors=2 skipped=1");
	assert_no_prop(doc, "timebase.name");
	assert_no_prop(doc, "host.cpu.model");
	ck_assert_double_eq(xp_num(doc, "count(/testsuites/testsuite[1]/system-out)"), 0);
	json_t *j = fx_json(x), *env = jat(j, "environment", NULL);
	ck_assert_str_eq(json_string_value(json_object_get(env, "host.name")), "testhost");
	ck_assert_str_eq(json_string_value(json_object_get(env, "timebase.name")), "tsc");
	ck_assert_ptr_nonnull(json_object_get(env, "timebase.freq_hz"));
	ck_assert_ptr_nonnull(json_object_get(env, "timebase.read_overhead_min_ns"));
	/* the suite's own properties, in order, and nothing of a requirement */
	static const char *const suite_props[] = { "host.name", "host.kernel.release",
		"rtconform.version", "verdicts", "readiness", "requirements.path",
		"requirements.version", "requirements.sha256", "report" };
	size_t nprops = sizeof suite_props / sizeof suite_props[0];
	for (size_t i = 0; i < nprops; i++) {
		snprintf(want, sizeof want, "/testsuites/testsuite[1]/properties/property[%zu]/@name",
			 i + 1);
		assert_xp_str(doc, want, suite_props[i]);
	}
	ck_assert_double_eq(xp_num(doc, "count(/testsuites/testsuite[1]/properties/property)"),
			    (double)nprops);
	assert_prop(doc, "report", "report.html");

	/* each test case opens its <system-out> with what a CI page needs:
	 * SEM-RT fails its max and its page faults, and the limit missed by
	 * the most decides (a bound of 0: any fault is past it infinitely),
	 * SEM-OK passes */
	char *out = xp_str(doc, "/testsuites/testsuite[1]/testcase[1]/system-out");
	static const char head[] = "verdict: fail\nfigure: page-faults total 12 > 0 (4 runs)\n"
				   "limit: page-faults total <= 0\ncause: max 996.5 ns > 800 ns";
	ck_assert_msg(strncmp(out, head, strlen(head)) == 0, "%s", out);
	ck_assert_msg(strstr(out, "\nreport: ./report.html#r1-1\n"), "%s", out);
	free(out);
	out = xp_str(doc, "/testsuites/testsuite[1]/testcase[2]/system-out");
	ck_assert_msg(strncmp(out, "verdict: pass\nfigure: ", 22) == 0, "%s", out);
	ck_assert_msg(!strstr(out, "\ncause: "), "%s", out);
	free(out);

	/* SEM-RT, metric 0 in units of 0.5 ns: run i has 1000 + 10 * (k % 100) + i
	 * units, i = 0..3. Its statistics in results.json. */
	json_t *sem = jat(j, "files", "#0", "requirements", "#0", NULL);
	ck_assert_str_eq(json_string_value(jat(sem, "verdict", NULL)), "fail");
	json_t *m0 = jat(sem, "metrics", "#0", NULL), *ns = jat(m0, "statistics_ns", NULL);
	ck_assert_str_eq(json_string_value(jat(m0, "name", NULL)), "per-op");
	ck_assert_str_eq(json_string_value(jat(m0, "kind", NULL)), "duration");
	ck_assert_int_eq(json_integer_value(jat(m0, "count", NULL)), 4000);
	ck_assert_int_eq(json_integer_value(jat(m0, "overflow", NULL)), 0);
	ck_assert_double_eq_tol(json_number_value(jat(ns, "min", NULL)), 500.0, 1e-9);
	ck_assert_double_eq_tol(json_number_value(jat(ns, "max", NULL)), 996.5, 1e-9);
	ck_assert_double_eq_tol(json_number_value(jat(ns, "mean", NULL)), 748.25, 1e-9);
	/* p99 needs 1000 samples (have 4000), p99.9 needs 10000 */
	struct statistic st;
	double v;
	ck_assert_int_eq(statistic_parse("p99", &st), 0);
	ck_assert(stat_value(result_metric_c(x->results[0][0].res, 0), &st, false, &v));
	ck_assert_double_eq_tol(json_number_value(jat(ns, "p99", NULL)), v, 1e-9);
	ck_assert(json_is_null(jat(ns, "p99.9", NULL)));
	/* junit.xml keeps none of a requirement's figures as properties */
	ck_assert_double_eq(xp_num(doc, "count(//property[starts-with(@name, 'SEM-RT.')])"), 0);
	/* metric 1 has 10 samples: no p50 (needs 20) */
	json_t *m1 = jat(sem, "metrics", "#1", NULL);
	ck_assert_int_eq(json_integer_value(jat(m1, "count", NULL)), 10);
	ck_assert_double_eq_tol(json_number_value(jat(m1, "statistics_ns", "max", NULL)), 109.0,
				1e-9);
	ck_assert(json_is_null(jat(m1, "statistics_ns", "p50", NULL)));
	/* a count: its runs counted and statistics, no unit */
	json_t *pf = jat(sem, "metrics", "#2", NULL), *pst = jat(pf, "statistics", NULL);
	ck_assert_str_eq(json_string_value(jat(pf, "name", NULL)), "page-faults");
	ck_assert_str_eq(json_string_value(jat(pf, "kind", NULL)), "count");
	ck_assert_uint_eq(json_array_size(jat(pf, "runs", NULL)), 4);
	ck_assert_int_eq(json_integer_value(jat(pst, "total", NULL)), 12);
	ck_assert_int_eq(json_integer_value(jat(pst, "min", NULL)), 0);
	ck_assert_double_eq_tol(json_number_value(jat(pst, "mean", NULL)), 3.0, 1e-9);
	ck_assert_int_eq(json_integer_value(jat(pst, "max", NULL)), 6);
	static const char *const names[] = { "per-op", "wakeup", "page-faults", "major-faults",
					     "involuntary-switches" };
	ck_assert_uint_eq(json_array_size(jat(sem, "metrics", NULL)), 5);
	for (size_t i = 0; i < 5; i++) {
		snprintf(want, sizeof want, "#%zu", i);
		ck_assert_str_eq(json_string_value(jat(sem, "metrics", want, "name", NULL)), names[i]);
	}
	/* every limit */
	json_t *l0 = NULL;
	for (size_t i = 0; !l0 && i < json_array_size(jat(sem, "limits", NULL)); i++) {
		json_t *l = json_array_get(jat(sem, "limits", NULL), i);
		if (!strcmp(json_string_value(jat(l, "metric", NULL)), "per-op") &&
		    !strcmp(json_string_value(jat(l, "statistic", NULL)), "max"))
			l0 = l;
	}
	ck_assert_ptr_nonnull(l0);
	ck_assert_double_eq_tol(json_number_value(jat(l0, "max", NULL)), 800.0, 1e-9);
	ck_assert_double_eq_tol(json_number_value(jat(l0, "measured", NULL)), 996.5, 1e-9);
	ck_assert_str_eq(json_string_value(jat(l0, "verdict", NULL)), "fail");
	ck_assert_str_eq(json_string_value(jat(l0, "text", NULL)), "max 996.5 ns > 800 ns (n=4000)");
	bool pf_limit = false;
	for (size_t i = 0; i < json_array_size(jat(sem, "limits", NULL)); i++) {
		json_t *l = json_array_get(jat(sem, "limits", NULL), i);
		pf_limit |= strcmp(json_string_value(jat(l, "metric", NULL)), "page-faults") == 0 &&
			    strcmp(json_string_value(jat(l, "statistic", NULL)), "total") == 0 &&
			    jat(l, "max", NULL) && !json_is_null(jat(l, "max", NULL));
	}
	ck_assert(pf_limit);
	/* the verdicts, in junit.xml's test cases and results.json alike */
	static const char *const verdicts[][2] = { { "SEM-OK", "pass" }, { "TMR", "error" },
						   { "SKP", "skipped" } };
	for (size_t i = 0; i < 3; i++) {
		char e[160];
		snprintf(e, sizeof e, "substring-before(//testcase[starts-with(@name, '%s')]"
			 "/system-out, '\n')", verdicts[i][0]);
		snprintf(want, sizeof want, "verdict: %s", verdicts[i][1]);
		assert_xp_str(doc, e, want);
		snprintf(want, sizeof want, "#%zu", i + 1);
		ck_assert_str_eq(json_string_value(jat(j, "files", "#0", "requirements", want, "verdict",
							NULL)), verdicts[i][1]);
	}
	/* TMR measured nothing */
	ck_assert_uint_eq(json_array_size(jat(j, "files", "#0", "requirements", "#2", "metrics",
					      NULL)), 0);
	ck_assert_str_eq(json_string_value(jat(j, "files", "#1", "requirements", "#0", "verdict",
						NULL)), "pass");
	assert_xp_str(doc, "substring-before(/testsuites/testsuite[2]/testcase[1]/system-out, '\n')",
		      "verdict: pass");
	assert_prop_in(doc, 2, "host.name", "testhost");
	assert_prop_in(doc, 2, "requirements.path", "extra.xml");
	json_decref(j);
	xmlFreeDoc(doc);
	fx_free(x);
}
END_TEST

START_TEST(junit_hostile_strings)
{
	struct fx *x = fx_new();
	static const char hostile[] =
		"evil\x01\x08\x1b[31m <&> ]]> \"quote' \xff\xfe \xc0\xaf \xed\xa0\x80 "
		"\xef\xbf\xbf \xf4\x90\x80\x80 tab\there\r\nend \xe2\x82";
	x->reqs[0][0].title = (char *)hostile;
	x->reqs[0][2].title = (char *)hostile;
	snprintf(x->results[0][2].reason, sizeof x->results[0][2].reason, "%s", hostile);
	snprintf(x->results[0][3].reason, sizeof x->results[0][3].reason, "%s", hostile);
	snprintf(x->results[0][0].limits[1].text, sizeof x->results[0][0].limits[1].text,
		 "max \x02<&>]]> \xff");
	x->files[0].name = (char *)"suite\x03<&>";
	fingerprint_add(&x->fp, "host.name", "host\x07name\xff");
	x->run.command_line = "rtconform run '\x1b]0;x\x07' ]]>";

	char path[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", path, sizeof path);
	assert_valid_junit(path);

	xmlDocPtr doc = parse(path);
	char *name = xp_str(doc, "/testsuites/testsuite[1]/testcase[1]/@name");
	ck_assert_ptr_nonnull(strstr(name, "SEM-RT: evil"));
	ck_assert_ptr_nonnull(strstr(name, " <&> ]]> \"quote' "));
	ck_assert_ptr_nonnull(strstr(name, "\xef\xbf\xbd")); /* U+FFFD stands in */
	ck_assert_ptr_null(strchr(name, '\x01'));
	ck_assert_ptr_null(strchr(name, '\x1b'));
	ck_assert_ptr_nonnull(strstr(name, "end"));
	free(name);
	char *reason = xp_str(doc, "/testsuites/testsuite[1]/testcase[3]/error/@message");
	ck_assert_ptr_nonnull(strstr(reason, "<&> ]]>"));
	free(reason);
	assert_xp_str(doc, "/testsuites/testsuite[1]/@hostname", "host\xef\xbf\xbdname\xef\xbf\xbd");
	xmlFreeDoc(doc);
	fx_free(x);
}
END_TEST

/* The worst case a requirement can be: REQ_MAX_LIMITS limits,
 * REQ_MAX_PARAMS parameters, RTC_MAX_METRICS metrics and every optional
 * string. junit.xml's suite stays within a screen of properties (20) for
 * it, none of them the requirement's (its figures are in results.json),
 * and stays valid. */
START_TEST(junit_properties_bounded)
{
	struct report_view v = { 0 };
	fingerprint_add(&v.env, "rtconform.version", "%s", "0.1.0");
	v.files = calloc(1, sizeof *v.files);
	v.nfiles = 1;
	struct rv_file *f = &v.files[0];
	f->name = strdup("worst");
	f->path = strdup("worst.xml");
	f->sha256 = strdup("00");
	f->reqs = calloc(1, sizeof *f->reqs);
	f->nreqs = 1;
	struct rv_req *r = &f->reqs[0];
	r->id = strdup("W");
	r->title = strdup("worst case");
	r->source = strdup("s");
	r->probe = strdup("p");
	r->policy = strdup("fifo:99");
	r->cpu = 1;
	r->reason = strdup("limits exceeded");
	r->note = strdup("n");
	r->load = strdup("stress-ng --cpu 1");
	r->verdict = VERDICT_FAIL;
	r->measured = true;
	r->runs = 2;
	r->params = calloc(REQ_MAX_PARAMS, sizeof *r->params);
	for (r->nparams = 0; r->nparams < REQ_MAX_PARAMS; r->nparams++) {
		ck_assert_int_ge(asprintf(&r->params[r->nparams].name, "p%zu", r->nparams), 0);
		r->params[r->nparams].value = strdup("v");
	}
	r->metrics = calloc(RTC_MAX_METRICS, sizeof *r->metrics);
	for (r->nmetrics = 0; r->nmetrics < RTC_MAX_METRICS; r->nmetrics++) {
		struct rv_metric *m = &r->metrics[r->nmetrics];
		ck_assert_int_ge(asprintf(&m->name, "m%zu", r->nmetrics), 0);
		m->kind = r->nmetrics % 2 ? METRIC_COUNT : METRIC_DURATION;
		m->count = 100;
		for (int i = 0; i < RV_NSTATS; i++)
			m->ns[i] = (struct rv_value){ true, 10.0 * i };
		for (int i = 0; i < RV_NCSTATS; i++)
			m->counts[i] = (struct rv_value){ true, i };
	}
	r->limits = calloc(REQ_MAX_LIMITS, sizeof *r->limits);
	for (r->nlimits = 0; r->nlimits < REQ_MAX_LIMITS; r->nlimits++) {
		struct rv_limit *l = &r->limits[r->nlimits];
		l->metric = strdup("m0");
		l->statistic = strdup("max");
		l->has_max = true;
		l->max = (struct quantity){ 5.0, QTY_NS };
		l->measured = (struct rv_value){ true, 90.0 };
		l->verdict = VERDICT_FAIL;
		ck_assert_int_ge(asprintf(&l->text, "max 90 ns > 5 ns (n=100; limit %zu)", r->nlimits), 0);
	}

	char path[] = "/tmp/rtc-test-worst.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	char err[300];
	ck_assert_int_eq(report_write_junit(&v, path, err, sizeof err), 0);
	assert_valid_junit(path);
	xmlDocPtr doc = parse(path);
	double n = xp_num(doc, "count(//property)");
	ck_assert_msg(n <= 20, "the worst-case requirement's suite has %g properties", n);
	ck_assert_double_eq(xp_num(doc, "count(//property[starts-with(@name, 'W.')])"), 0);
	/* every parameter and metric is in results.json */
	size_t jlen;
	char *jtext = fx_render(&v, REPORT_JSON, &jlen);
	json_t *j = json_loadb(jtext, jlen, 0, NULL);
	ck_assert_ptr_nonnull(j);
	json_t *wr = jat(j, "files", "#0", "requirements", "#0", NULL);
	ck_assert_uint_eq(json_object_size(jat(wr, "params", NULL)), REQ_MAX_PARAMS);
	ck_assert_uint_eq(json_array_size(jat(wr, "metrics", NULL)), RTC_MAX_METRICS);
	json_decref(j);
	free(jtext);
	/* the message names every failed limit, each with its metric */
	char *msg = xp_str(doc, "//failure/@message");
	ck_assert_ptr_nonnull(strstr(msg, "m0 max 90 ns > 5 ns (n=100; limit 0); m0 max"));
	ck_assert_ptr_nonnull(strstr(msg, "(n=100; limit 31)"));
	free(msg);
	xmlFreeDoc(doc);

	report_view_free(&v);
	unlink(path);
}
END_TEST

START_TEST(junit_unwritable_path)
{
	struct fx *x = fx_new();
	char err[256] = "", path[256];
	snprintf(path, sizeof path, "%s/no/such/dir/junit.xml", x->dir);
	struct report_view v;
	fx_view(x, &v);
	int rc = report_write_junit(&v, path, err, sizeof err);
	report_view_free(&v);
	ck_assert_int_eq(rc, -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_int_eq(dir_entries(x->dir), 0);
	fx_free(x);
}
END_TEST

/* ---- atomic write and writability -------------------------------------- */

/* A writer killed before its rename leaves a hidden temporary file; the
 * next write of that report removes it, and only it: not a live writer's,
 * not a name of another form. */
START_TEST(atomic_write_removes_a_dead_writers_temp)
{
	struct fx *x = fx_new();
	pid_t dead = fork();
	ck_assert_int_ge(dead, 0);
	if (dead == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(dead, NULL, 0), dead); /* gone: its pid runs nothing */
	char path[256], stale[300], live[300], other[300];
	fx_path(x, "junit.xml", path, sizeof path);
	snprintf(stale, sizeof stale, "%s/.junit.xml.rtc%ld.aB3dE9", x->dir, (long)dead);
	snprintf(live, sizeof live, "%s/.junit.xml.rtc%ld.aB3dE9", x->dir, (long)getppid());
	snprintf(other, sizeof other, "%s/.junit.xml.keep", x->dir);
	/* near misses of the form, with a dead writer: kept */
	char signed_pid[300], short_rnd[300];
	snprintf(signed_pid, sizeof signed_pid, "%s/.junit.xml.rtc+%ld.aB3dE9", x->dir, (long)dead);
	snprintf(short_rnd, sizeof short_rnd, "%s/.junit.xml.rtc%ld.aB3", x->dir, (long)dead);
	const char *const made[] = { stale, live, other, signed_pid, short_rnd };
	for (int i = 0; i < 5; i++) {
		FILE *f = fopen(made[i], "w");
		ck_assert_ptr_nonnull(f);
		fclose(f);
	}
	ck_assert_int_eq(report_atomic_write(path, "x\n", 2), 0);
	ck_assert_int_eq(access(stale, F_OK), -1);
	ck_assert_int_eq(access(live, F_OK), 0);
	ck_assert_int_eq(access(other, F_OK), 0);
	ck_assert_int_eq(access(signed_pid, F_OK), 0);
	ck_assert_int_eq(access(short_rnd, F_OK), 0);
	ck_assert_int_eq(dir_entries(x->dir), 5); /* junit.xml, live, other, two near misses */
	fx_free(x);
}
END_TEST

/* Each report written onto its file as it is made (report_write) is, byte
 * for byte, the one made in memory (the renderers compare, merge and the
 * fuzzer use). */
START_TEST(written_as_rendered)
{
	struct fx *x = fx_new();
	static const struct {
		enum report_kind kind;
		char *(*render)(const struct report_view *v, size_t *len, char *why,
				size_t whylen);
	} k[] = { { REPORT_JUNIT, report_junit_render }, { REPORT_HTML, report_html_render },
		  { REPORT_JSON, report_json_render }, { REPORT_SUMMARY, report_summary_render } };
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		char path[256], why[256];
		fx_write(x, k[i].kind, "out", path, sizeof path);
		struct report_view v;
		fx_view(x, &v);
		size_t lm = 0, lf = 0;
		char *mem = k[i].render(&v, &lm, why, sizeof why);
		ck_assert_msg(mem != NULL, "%s", why);
		char *file = tu_slurp(path, &lf);
		fx_same_bytes(mem, lm, file, lf, "written and rendered");
		free(mem);
		free(file);
		report_view_free(&v);
	}
	fx_free(x);
}
END_TEST

START_TEST(atomic_write_replaces_and_cleans_up)
{
	struct fx *x = fx_new();
	char path[256];
	fx_path(x, "junit.xml", path, sizeof path);
	ck_assert_int_eq(report_atomic_write(path, "first\n", 6), 0);
	ck_assert_int_eq(report_atomic_write(path, "second\n", 7), 0);
	size_t len;
	char *got = tu_slurp(path, &len);
	ck_assert_uint_eq(len, 7);
	ck_assert_str_eq(got, "second\n");
	free(got);
	ck_assert_int_eq(dir_entries(x->dir), 1);
	/* mode is the usual 0666 & ~umask, not mkstemp's 0600 */
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	mode_t mask = umask(022);
	umask(mask);
	ck_assert_uint_eq(st.st_mode & 0777, 0666 & ~mask);

	/* rename onto a directory fails: the temp file must not stay */
	char sub[256];
	snprintf(sub, sizeof sub, "%s/adir", x->dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_lt(report_atomic_write(sub, "x", 1), 0);
	ck_assert_int_eq(dir_entries(x->dir), 2); /* junit.xml and adir */
	ck_assert_int_eq(dir_entries(sub), 0);

	/* missing directory */
	char missing[256];
	snprintf(missing, sizeof missing, "%s/nope/out.txt", x->dir);
	ck_assert_int_eq(report_atomic_write(missing, "x", 1), -ENOENT);
	ck_assert_int_eq(dir_entries(x->dir), 2);
	fx_free(x);
}
END_TEST

START_TEST(check_writable)
{
	struct fx *x = fx_new();
	char err[512], p[256];

	/* one missing level is created */
	snprintf(p, sizeof p, "%s/results/junit.xml", x->dir);
	err[0] = '\0';
	ck_assert_msg(report_check_writable(p, err, sizeof err) == 0, "%s", err);
	struct stat st;
	char d[256];
	snprintf(d, sizeof d, "%s/results", x->dir);
	ck_assert_int_eq(stat(d, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(dir_entries(d), 0); /* the probe file is gone */

	/* two missing levels are not */
	snprintf(p, sizeof p, "%s/a/b/junit.xml", x->dir);
	ck_assert_int_eq(report_check_writable(p, err, sizeof err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, p));
	ck_assert_ptr_nonnull(strstr(err, strerror(ENOENT)));

	/* a regular file where the directory should be (fails even as root) */
	char f[256];
	snprintf(f, sizeof f, "%s/plain", x->dir);
	ck_assert_int_eq(report_atomic_write(f, "x", 1), 0);
	snprintf(p, sizeof p, "%s/plain/junit.xml", x->dir);
	ck_assert_int_lt(report_check_writable(p, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, p));
	fx_free(x);
}
END_TEST

/* ---- text -------------------------------------------------------------- */

static char *text_of(const struct fx *x)
{
	char *buf = NULL;
	size_t len = 0;
	struct report_view v;
	fx_view(x, &v);
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	report_write_text(&v, f);
	report_view_free(&v);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

START_TEST(text_table)
{
	struct fx *x = fx_new();
	char *t = text_of(x);
	static const char *const want[] = {
		"ID", "PROBE", "POLICY", "LIMIT", "MEASURED", "VERDICT",
		"SEM-RT", "SEM-OK", "TMR", "SKP", "B-1", "sem-pingpong", "fifo:99", "other",
		"per-op mean <= 50 us", "per-op max <= 800 ns", "per-op p99 <= 100 us",
		"wakeup min >= 50 ns", "per-op p99 <= 4000 cycles", "1983 cycles",
		"996.5 ns", "PASS", "FAIL", "ERROR", "SKIP",
		"error: worker timed out after 60 s", "skipped: not selected by --only",
		"[spy-memo]", "[extra.xml]",
		"6 requirements: 2 passed, 1 failed, 2 errors, 1 skipped (64.250 s)",
		"exit status 3: at least one requirement could not be measured",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(t, want[i]) != NULL, "missing '%s' in:\n%s", want[i], t);

	/* the failing limit's row says FAIL, the passing one PASS */
	char *row = strstr(t, "per-op max <= 800 ns");
	ck_assert_ptr_nonnull(row);
	char *eol = strchr(row, '\n');
	ck_assert_ptr_nonnull(eol);
	*eol = '\0';
	ck_assert_ptr_nonnull(strstr(row, "FAIL"));
	*eol = '\n';
	free(t);

	/* without the errors: exit status 1 explained */
	x->results[0][2].verdict = VERDICT_PASS;
	x->results[0][4].verdict = VERDICT_PASS;
	t = text_of(x);
	ck_assert_ptr_nonnull(strstr(t, "exit status 1: at least one requirement failed"));
	free(t);
	x->results[0][2].verdict = VERDICT_ERROR;
	x->results[0][4].verdict = VERDICT_ERROR;

	/* summary.txt: the same text, atomically */
	char p[256];
	fx_write(x, REPORT_SUMMARY, "summary.txt", p, sizeof p);
	t = text_of(x);
	char *s = tu_slurp(p, NULL);
	/* the verdict table as on stdout, then the figures behind it */
	ck_assert_int_eq(strncmp(s, t, strlen(t)), 0);
	const char *fig = s + strlen(t);
	ck_assert_ptr_nonnull(strstr(fig, "\nfigures ("));
	ck_assert_ptr_nonnull(strstr(fig, "SEM-RT per-op: n="));
	ck_assert_ptr_nonnull(strstr(fig, "; batch "));
	free(s);
	free(t);
	ck_assert_int_eq(dir_entries(x->dir), 1);
	fx_free(x);
}
END_TEST

/* summary.txt's line of a requirement's intervals: how many of about what
 * length from when, the worst max and when, how many lay beyond each limit
 * they can be judged by, in the limits' order (SEM-RT: mean <= 50 us, beyond
 * in the last; max <= 800 ns), and the interval the trace was taken in; none for a
 * requirement without intervals, and "none beyond a limit" when none was. */
START_TEST(summary_intervals_line)
{
	static const double max[] = { 700, 900, 750, 1000, 500 };
	static const double mean[] = { 500, 500, 500, 500, 60000 };
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_req *r = &v.files[0].reqs[0];
	struct rv_metric *m = &r->metrics[0];
	m->intervals = calloc(5, sizeof *m->intervals);
	ck_assert_ptr_nonnull(m->intervals);
	m->nintervals = 5;
	for (int i = 0; i < 5; i++)
		fx_ival(&m->intervals[i], FX_T0 + 86400000LL / 2 * i, 43200.3, max[i], 0, mean[i]);
	r->trace = strdup("trace-SEM-RT.txt");
	free(r->trace_note);
	r->trace_note = strdup("trace: tripped by per-op 900 ns > 800 ns in run 2");
	struct rv_req *ok = &v.files[0].reqs[1];
	ok->metrics[0].intervals = calloc(2, sizeof *m->intervals);
	ok->metrics[0].nintervals = 2;
	fx_ival(&ok->metrics[0].intervals[0], FX_T0, 60, 700, 0, 500);
	fx_ival(&ok->metrics[0].intervals[1], FX_T0 + 60000, 30, 600, 0, 500);
	size_t len;
	char *sum = fx_render(&v, REPORT_SUMMARY, &len);
	ck_assert_msg(strstr(sum, "\n  SEM-RT per-op intervals: 5 of about 12 h from "
				  "2025-12-02T01:00:00Z; worst max 1 us at 2025-12-03T13:00:00Z "
				  "(interval 4); 1 beyond per-op mean <= 50 us; 2 beyond per-op max "
				  "<= 800 ns; trace taken in interval 2\n"), "%s", sum);
	ck_assert_msg(strstr(sum, "\n  SEM-OK per-op intervals: 2 of about 1 min from "
				  "2025-12-02T01:00:00Z; worst max 700 ns at 01:00:00Z (interval 1); "
				  "none beyond a limit\n"), "%s", sum);
	size_t lines = 0;
	for (const char *p = sum; (p = strstr(p, " intervals: ")); p++)
		lines++;
	ck_assert_uint_eq(lines, 2);
	/* The trend of the maxima: SEM-RT's 700 900 750 1000 500 set records
	 * in intervals 1, 2 and 4; 5 of the 10 pairs fall, 5 rise, so S = 0,
	 * tau 0, p 1; but interval 4 ends at 2 d of 2.5 d, in the last quarter:
	 * still rising. SEM-OK's 700 600: one record, tau -1, Var S = 1,
	 * p = erfc(1 / sqrt 2) = 0.32; no rising trend. */
	ck_assert_msg(strstr(sum, "\n  SEM-RT per-op interval maxima: 3 record-setting intervals "
				  "of 5, the last in interval 4 (at 2025-12-03T13:00:00Z); Kendall's "
				  "tau 0.00, p = 1: still rising (the last record is in the last "
				  "quarter of the run)\n"), "%s", sum);
	ck_assert_msg(strstr(sum, "\n  SEM-OK per-op interval maxima: 1 record-setting interval "
				  "of 2, the last in interval 1 (at 01:00:00Z); Kendall's tau -1.00, "
				  "p = 0.32: no rising trend\n"), "%s", sum);
	/* A max is said to be the largest observed, in how many samples over
	 * the intervals' time: SEM-RT's 5 x 43200.3 s, about 2.5 d. */
	ck_assert_msg(strstr(sum, " (largest observed in ") != NULL, "%s", sum);
	ck_assert_msg(strstr(sum, " samples over 2.5 d)") != NULL, "%s", sum);
	free(sum);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

START_TEST(text_control_chars_do_not_reach_terminal)
{
	struct fx *x = fx_new();
	snprintf(x->results[0][2].reason, sizeof x->results[0][2].reason,
		 "bad \x1b[2J reason\nsecond line");
	char *t = text_of(x);
	ck_assert_ptr_null(strchr(t, '\x1b'));
	ck_assert_ptr_nonnull(strstr(t, "bad ?[2J reason?second line"));
	free(t);
	fx_free(x);
}
END_TEST

static char *detail_of(const struct req_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	report_write_result_detail(r, f);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

START_TEST(detail_histogram_and_stats)
{
	struct fx *x = fx_new();
	struct req_result *r = &x->results[0][0];
	struct metric_data *m0 = result_metric(r->res, 0);
	/* Spread over four decades, so there are hundreds of non-empty
	 * buckets to fold into ~30 rows, plus one sample beyond the range. */
	hist_reset(&m0->hist);
	memset(m0->runs, 0, sizeof m0->runs);
	for (uint64_t v = 100; v < 1000000; v = v * 1.01 + 1)
		for (int k = 0; k < 3; k++) {
			hist_record(&m0->hist, v);
			m0->runs[k].count++;
			m0->runs[k].sum += v;
		}
	hist_record(&m0->hist, m0->hist.highest + 1000);
	m0->runs[0].count++;
	m0->runs[0].sum += m0->hist.highest + 1000;

	char *t = detail_of(r);
	static const char *const want[] = {
		"SEM-RT: Free semaphore", "metric per-op", "metric wakeup", "min", "mean",
		"stddev", "p50", "p90", "p99", "p99.9", "max", "runs-mean-stddev", "batch",
		"histogram (", "overflow  >",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(t, want[i]) != NULL, "missing '%s' in:\n%s", want[i], t);
	ck_assert_ptr_nonnull(strstr(t, "overflow           1"));
	/* p99.9 wants 10000 samples; metric 0 has fewer than 3000 */
	ck_assert_ptr_nonnull(strstr(t, "n/a (needs 10000 samples)"));

	/* Rows of the per-op histogram: between its header and "metric wakeup". */
	char *h = strstr(t, "histogram (");
	char *end = strstr(t, "metric wakeup");
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(end);
	ck_assert(h < end);
	int rows = 0;
	for (char *p = strchr(h, '\n') + 1; p < end; p = strchr(p, '\n') + 1) {
		ck_assert_ptr_nonnull(strstr(p, "|"));
		rows++;
	}
	ck_assert_int_ge(rows, 20);
	ck_assert_int_le(rows, 31); /* at most 30 buckets + the overflow row */
	free(t);

	/* a result with no memory says so instead of crashing */
	t = detail_of(&x->results[0][2]);
	ck_assert_ptr_nonnull(strstr(t, "no measurements"));
	ck_assert_ptr_nonnull(strstr(t, "worker timed out"));
	free(t);
	fx_free(x);
}
END_TEST

START_TEST(batch_figure)
{
	struct fx *x = fx_new();
	double mean, sd;
	ck_assert_uint_eq(summary_batch_ns(&x->results[0][0], &mean, &sd), 4);
	ck_assert_double_eq_tol(mean, 9.75, 1e-9);
	ck_assert_double_eq_tol(sd, sqrt(1.25 / 3.0), 1e-9);
	ck_assert_uint_eq(summary_batch_ns(&x->results[0][2], &mean, &sd), 0);
	ck_assert_double_eq(mean, 0);
	fx_free(x);
}
END_TEST

/* ---- fingerprint ------------------------------------------------------- */

START_TEST(fingerprint_basics)
{
	struct fingerprint fp = { 0 };
	struct timebase tb = { .name = "clock_gettime(CLOCK_MONOTONIC_RAW)", .freq_hz = 1e9,
			       .ns_per_tick = 1, .resolution_ns = 1, .read_min_ns = 20,
			       .read_median_ns = 21.5 };
	runinfo_collect(&fp, &tb);
	static const char *const keys[] = {
		"host.name", "host.kernel.release", "host.kernel.version", "host.machine",
		"host.cpu.model", "host.cpu.count", "host.preempt", "host.clocksource",
		"host.rt_throttling", "rtconform.version", "rtconform.compiler",
		"rtconform.libxml2", "timebase.name", "timebase.freq_hz",
		"timebase.resolution_ns", "timebase.read_overhead_min_ns",
		"timebase.read_overhead_median_ns",
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *v = fingerprint_get(&fp, keys[i]);
		ck_assert_msg(v && *v, "no %s", keys[i]);
	}
	ck_assert_str_eq(fingerprint_get(&fp, "rtconform.version"), runinfo_version);
	ck_assert_str_eq(fingerprint_get(&fp, "timebase.freq_hz"), "1000000000");
	ck_assert_str_eq(fingerprint_get(&fp, "timebase.read_overhead_median_ns"), "21.500");
	ck_assert_ptr_null(fingerprint_get(&fp, "no.such.key"));

	/* a key is set once; adding it again replaces the value */
	size_t n = fp.n;
	fingerprint_add(&fp, "host.name", "%s-%d", "x", 1);
	ck_assert_uint_eq(fp.n, n);
	ck_assert_str_eq(fingerprint_get(&fp, "host.name"), "x-1");
	fingerprint_free(&fp);
	ck_assert_uint_eq(fp.n, 0);

	/* without a timebase there are no timebase.* keys */
	runinfo_collect(&fp, NULL);
	ck_assert_ptr_null(fingerprint_get(&fp, "timebase.name"));
	fingerprint_free(&fp);
}
END_TEST

/* A limit on per-op STAT with max (or min) bound b, measured v (absent
 * when NaN), of verdict vd. */
static struct rv_limit dl_limit(const char *stat, bool is_max, double b, double v, enum verdict vd)
{
	struct rv_limit l = { .metric = (char *)"per-op", .statistic = (char *)stat,
			      .has_max = is_max, .has_min = !is_max, .verdict = vd };
	(is_max ? &l.max : &l.min)->value = b;
	l.measured = (struct rv_value){ !isnan(v), isnan(v) ? 0 : v };
	return l;
}

/* Which limit decides a requirement's verdict: the failing one missed by
 * the most (not the first, nor a passing one beside it, nor one that could
 * not be evaluated), an unevaluated one of an error, the nearest to its
 * bound of a pass. */
START_TEST(deciding_limit)
{
	struct rv_req r = { 0 };
	struct rv_limit l[3];
	r.limits = l;
	ck_assert_uint_eq(rv_req_deciding_limit(&r), SIZE_MAX);
	/* the issue's cell: mean 2.564 us <= 50 us passed, max 845 us > 300 us failed */
	l[0] = dl_limit("mean", true, 50e3, 2564, VERDICT_PASS);
	l[1] = dl_limit("max", true, 300e3, 845e3, VERDICT_FAIL);
	r.nlimits = 2;
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 1);
	/* two failures: p99 400 us > 100 us (3 x past) before max (1.8 x) */
	l[2] = dl_limit("p99", true, 100e3, 400e3, VERDICT_FAIL);
	r.nlimits = 3;
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 2);
	/* a min missed by half is past it by less than the max's 1.8 */
	l[2] = dl_limit("min", false, 2e3, 1e3, VERDICT_FAIL);
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 1);
	/* equal misses: the first */
	l[2] = dl_limit("p99", true, 300e3, 845e3, VERDICT_FAIL);
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 1);
	/* an error: every limit is one, and the unevaluated one decides */
	l[0] = dl_limit("mean", true, 50e3, 2564, VERDICT_ERROR);
	l[1] = dl_limit("max", true, 300e3, 845e3, VERDICT_ERROR);
	l[2] = dl_limit("p99.9", true, 100e3, NAN, VERDICT_ERROR);
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 2);
	/* a failure beside a limit that could not be evaluated: the
	 * requirement fails (verdict_of_limits), and the failure decides */
	l[0] = dl_limit("p99.999", true, 50e3, NAN, VERDICT_ERROR);
	l[1] = dl_limit("max", true, 100e3, 14.61e6, VERDICT_FAIL);
	r.nlimits = 2;
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 1);
	r.nlimits = 3;
	/* a pass: the limit with the least margin (max 255 us of 300 us) */
	l[0] = dl_limit("mean", true, 50e3, 2564, VERDICT_PASS);
	l[1] = dl_limit("max", true, 300e3, 255e3, VERDICT_PASS);
	l[2] = dl_limit("min", false, 1e3, 2e3, VERDICT_PASS);
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 1);
	/* a count held at its bound of zero (rtconform's own "total <= 0" of
	 * a violation metric) has no headroom to show: a pass is decided by
	 * the file's limits (the walk of issue 41: fleet cells read "PASS 0") */
	l[2] = dl_limit("total", true, 0, 0, VERDICT_PASS);
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 1);
	l[0] = dl_limit("total", true, 0, 0, VERDICT_PASS);
	l[1] = dl_limit("total", true, 0, 0, VERDICT_PASS);
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 0); /* only such: the first */
	/* ... and decides as any other when it fails */
	l[0] = dl_limit("max", true, 300e3, 255e3, VERDICT_PASS);
	l[1] = dl_limit("total", true, 0, 3, VERDICT_FAIL);
	ck_assert_uint_eq(rv_req_deciding_limit(&r), 1);
}
END_TEST

/* The POLICY column names the policy the measured tasks run under: a
 * SCHED_DEADLINE probe's reservation, rr-quantum's tasks one priority
 * above the worker's, the worker's for every other probe (issue 24: both
 * said fifo:80). */
START_TEST(policy_of_the_measured_tasks)
{
	struct requirement q = { .id = "R", .policy = POLICY_FIFO, .priority = 80, .cpu = -1 };
	struct req_result r = { .req = &q, .policy = SCHED_FIFO, .priority = 80 };
	char buf[64];
	q.probe = "deadline";
	r.probe = probe_find("deadline");
	ck_assert_ptr_nonnull(r.probe);
	report_policy_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "deadline 1ms/5ms/10ms");
	q.params[0] = (struct req_param){ "period", "20ms", 1 };
	q.nparams = 1;
	report_policy_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "deadline 1ms/5ms/20ms");
	q.nparams = 0;
	q.probe = "rr-quantum";
	r.probe = probe_find("rr-quantum");
	ck_assert_ptr_nonnull(r.probe);
	report_policy_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "rr:81");
	q.params[0] = (struct req_param){ "policy", "fifo", 1 };
	q.nparams = 1;
	report_policy_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "fifo:81");
	/* not run (an error before the worker): the file's priority, or none */
	r.policy = SCHED_OTHER;
	q.priority_max = true;
	report_policy_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "fifo");
	q.nparams = 0;
	q.priority_max = false;
	q.probe = "sem-pingpong";
	r.probe = probe_find("sem-pingpong");
	r.policy = SCHED_FIFO;
	report_policy_text(&r, buf, sizeof buf);
	ck_assert_str_eq(buf, "fifo:80");
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tu_tcase(s, "core", 60);
	tcase_add_test(tc, totals_and_exit_status);
	tcase_add_test(tc, deciding_limit);
	tcase_add_test(tc, junit_validates_against_the_schema);
	tcase_add_test(tc, junit_totals_match_cases);
	tcase_add_test(tc, junit_testcases);
	tcase_add_test(tc, junit_properties);
	tcase_add_test(tc, junit_hostile_strings);
	tcase_add_test(tc, junit_properties_bounded);
	tcase_add_test(tc, junit_unwritable_path);
	tcase_add_test(tc, atomic_write_replaces_and_cleans_up);
	tcase_add_test(tc, written_as_rendered);
	tcase_add_test(tc, atomic_write_removes_a_dead_writers_temp);
	tcase_add_test(tc, check_writable);
	tcase_add_test(tc, text_table);
	tcase_add_test(tc, summary_intervals_line);
	tcase_add_test(tc, text_control_chars_do_not_reach_terminal);
	tcase_add_test(tc, detail_histogram_and_stats);
	tcase_add_test(tc, batch_figure);
	tcase_add_test(tc, fingerprint_basics);
	tcase_add_test(tc, policy_of_the_measured_tasks);
	return s;
}

int main(void)
{
	return tu_run(report_suite());
}
