/* SPDX-License-Identifier: Apache-2.0 */
/* test_json.c - results.json, the archive of a run.
 *
 * It parses with jansson, and agrees with what junit.xml says of the same
 * run (its verdicts, deciding figures, causes, samples; the environment
 * with report.html's table) (synthetic run of report_fixture.h and a tiny
 * real run of the built rtconform, tests/fixtures/cli/pass.xml). Read back
 * (json_read.c) it gives the exact view: every report rendered from it is
 * the same bytes, doubles that "%.3f" would round come back exactly, counts
 * and bounds up to 2^63-1 come back and larger ones are refused. The reader
 * refuses what it cannot read, naming the file and the field.
 */
#include "report_fixture.h"
#include "reports/read/explain_read.h"

#include <math.h>
#include <sys/wait.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

/* ---- junit.xml as the comparison reads it ------------------------------ */

struct jprops {
	xmlDocPtr doc;
};

/* The value of property `name` of suite `suite` (1-based), malloc'd, or
 * NULL when absent. Exactly one such property must exist if any. */
static char *prop(xmlDocPtr doc, int suite, const char *name)
{
	char expr[600];
	snprintf(expr, sizeof expr,
		 "/testsuites/testsuite[%d]/properties/property[@name=\"%s\"]/@value", suite, name);
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	ck_assert_ptr_nonnull(ctx);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_ptr_nonnull(o);
	char *v = NULL;
	if (o->nodesetval && o->nodesetval->nodeNr) {
		ck_assert_msg(o->nodesetval->nodeNr == 1, "property %s appears %d times", name,
			      o->nodesetval->nodeNr);
		xmlChar *s = xmlNodeGetContent(o->nodesetval->nodeTab[0]);
		v = strdup((const char *)s);
		xmlFree(s);
	}
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return v;
}

static double xp_num(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_ptr_nonnull(o);
	double v = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return v;
}

/* The string value of an XPath expression, malloc'd. */
static char *xp_str(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_ptr_nonnull(o);
	xmlChar *s = xmlXPathCastToString(o);
	char *v = strdup((const char *)s);
	xmlFree(s);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return v;
}

static int checks;

static void same_string(xmlDocPtr doc, int suite, const char *name, const json_t *j)
{
	char *p = prop(doc, suite, name);
	ck_assert_msg(p != NULL, "junit.xml lacks %s", name);
	ck_assert_msg(json_is_string(j), "%s is not a string in JSON", name);
	ck_assert_msg(strcmp(p, json_string_value(j)) == 0, "%s: junit '%s', json '%s'", name, p,
		      json_string_value(j));
	free(p);
	checks++;
}

/* Test case ID's <system-out> in suite `suite`, malloc'd ("" when none). */
static char *case_out(xmlDocPtr doc, int suite, const char *id)
{
	char e[600];
	snprintf(e, sizeof e, "/testsuites/testsuite[%d]/testcase[@name=\"%s\" or "
		 "starts-with(@name, \"%s: \")]/system-out", suite, id, id);
	return xp_str(doc, e);
}

/* Metric m of results.json against its line in the test case's
 * <system-out> (junit.xml keeps no statistic as a property, issue 41):
 * the samples (a count's runs) and, of a duration, the overflow; the
 * histogram holds every sample that is not an overflow. */
static void compare_metric(const char *out, const json_t *m)
{
	const char *name = json_string_value(json_object_get(m, "name"));
	char want[300];
	if (strcmp(json_string_value(json_object_get(m, "kind")), "count") == 0) {
		const json_t *st = json_object_get(m, "statistics");
		ck_assert(json_is_object(st));
		ck_assert_int_eq(json_object_size(st), RV_NCSTATS);
		size_t runs = json_array_size(json_object_get(m, "runs"));
		snprintf(want, sizeof want, "\nmetric %s (count): %zu run%s, total ", name, runs,
			 runs == 1 ? "" : "s");
		ck_assert_msg(strstr(out, want), "no '%s' in:\n%s", want, out);
		checks++;
		return;
	}
	ck_assert_str_eq(json_string_value(json_object_get(m, "kind")), "duration");
	snprintf(want, sizeof want, "\nmetric %s: n %lld, ", name,
		 (long long)json_integer_value(json_object_get(m, "count")));
	const char *at = strstr(out, want);
	ck_assert_msg(at, "no '%s' in:\n%s", want, out);
	snprintf(want, sizeof want, ", overflow %lld\n",
		 (long long)json_integer_value(json_object_get(m, "overflow")));
	ck_assert_msg(strstr(at, want), "no '%s' in:\n%s", want, at);
	const json_t *ns = json_object_get(m, "statistics_ns");
	ck_assert(json_is_object(ns));
	ck_assert_int_eq(json_object_size(ns), RV_NSTATS);

	const json_t *buckets = json_object_get(json_object_get(m, "histogram"), "buckets"), *val;
	ck_assert(json_is_array(buckets));
	json_int_t sum = 0, prev_hi = -1;
	size_t i;
	json_array_foreach((json_t *)buckets, i, val) {
		ck_assert_int_eq(json_array_size(val), 3);
		json_int_t lo = json_integer_value(json_array_get(val, 0));
		json_int_t hi = json_integer_value(json_array_get(val, 1));
		ck_assert(lo <= hi && lo > prev_hi);
		prev_hi = hi;
		sum += json_integer_value(json_array_get(val, 2));
	}
	ck_assert_int_eq(sum + json_integer_value(json_object_get(m, "overflow")),
			 json_integer_value(json_object_get(m, "count")));
	checks++;
}

/* Requirement r of results.json against its test case: the verdict line,
 * the deciding figure one of its limits' (metric and the judge's
 * sentence), the cause its reason, and each metric's line; junit.xml has
 * no property of a requirement. */
static void compare_requirement(xmlDocPtr doc, int suite, const json_t *r)
{
	const char *id = json_string_value(json_object_get(r, "id"));
	char want[700], e[300];
	ck_assert_ptr_nonnull(id);
	snprintf(e, sizeof e, "count(/testsuites/testsuite[%d]/properties/property[starts-with("
		 "@name, \"%s.\")])", suite, id);
	ck_assert_double_eq(xp_num(doc, e), 0);
	char *out = case_out(doc, suite, id);
	snprintf(want, sizeof want, "verdict: %s\n", json_string_value(json_object_get(r, "verdict")));
	ck_assert_msg(strncmp(out, want, strlen(want)) == 0, "%s: '%s' does not open:\n%s", id,
		      want, out);
	checks++;
	const json_t *limits = json_object_get(r, "limits"), *l;
	size_t i;
	bool found = !json_array_size(limits);
	json_array_foreach((json_t *)limits, i, l) {
		snprintf(want, sizeof want, "\nfigure: %s %s\n",
			 json_string_value(json_object_get(l, "metric")),
			 json_is_string(json_object_get(l, "text"))
				 ? json_string_value(json_object_get(l, "text")) : "-");
		found |= strstr(out, want) != NULL;
	}
	ck_assert_msg(found, "%s: the figure is none of its limits':\n%s", id, out);
	const json_t *reason = json_object_get(r, "reason");
	if (json_is_string(reason) && strcmp(json_string_value(json_object_get(r, "verdict")),
					     "pass") != 0) {
		snprintf(want, sizeof want, "\ncause: %s\n", json_string_value(reason));
		ck_assert_msg(strstr(out, want), "%s: no '%s' in:\n%s", id, want, out);
	}
	checks++;
	if (!json_is_true(json_object_get(r, "measured"))) {
		ck_assert_int_eq(json_array_size(json_object_get(r, "metrics")), 0);
		ck_assert_ptr_null(strstr(out, "\nmetric "));
		free(out);
		return;
	}
	snprintf(want, sizeof want, "\nruns completed: %lld\n",
		 (long long)json_integer_value(json_object_get(r, "runs")));
	ck_assert_msg(strstr(out, want), "%s: no '%s' in:\n%s", id, want, out);
	const json_t *m;
	json_array_foreach(json_object_get(r, "metrics"), i, m)
		compare_metric(out, m);
	free(out);
}

/* Everything results.json says that junit.xml also says, compared. */
static void compare_files(const char *json_path, const char *junit_path, int *exit_status)
{
	json_error_t jerr;
	json_t *root = json_load_file(json_path, JSON_REJECT_DUPLICATES, &jerr);
	ck_assert_msg(root != NULL, "%s does not parse: line %d: %s", json_path, jerr.line,
		      jerr.text);
	xmlDocPtr doc = xmlReadFile(junit_path, NULL, XML_PARSE_NONET);
	ck_assert_msg(doc != NULL, "%s does not parse", junit_path);
	checks = 0;

	ck_assert_str_eq(json_string_value(json_object_get(root, "schema")),
			 "urn:rtconform:results:2");
	const json_t *tot = json_object_get(root, "totals");
	ck_assert_int_eq(json_integer_value(json_object_get(tot, "tests")),
			 (json_int_t)xp_num(doc, "count(//testcase)"));
	ck_assert_int_eq(json_integer_value(json_object_get(tot, "failures")),
			 (json_int_t)xp_num(doc, "number(/testsuites/@failures)"));
	ck_assert_int_eq(json_integer_value(json_object_get(tot, "errors")),
			 (json_int_t)xp_num(doc, "number(/testsuites/@errors)"));
	ck_assert_int_eq(json_integer_value(json_object_get(tot, "skipped")),
			 (json_int_t)xp_num(doc, "count(//testcase/skipped)"));
	*exit_status = (int)json_integer_value(json_object_get(root, "exit_status"));

	/* the environment: every entry is a row of report.html's table (the
	 * report beside junit.xml), never in junit.xml but for a short set of
	 * properties (issue 41) */
	const json_t *env = json_object_get(root, "environment");
	ck_assert(json_object_size(env) > 3);
	const char *key;
	const json_t *val;
	char html_path[600];
	snprintf(html_path, sizeof html_path, "%.*s/report.html",
		 (int)(strrchr(junit_path, '/') - junit_path), junit_path);
	char *html = tu_slurp(html_path, NULL);
	ck_assert_double_eq(xp_num(doc, "count(/testsuites/testsuite/system-out)"), 0);
	json_object_foreach((json_t *)env, key, val) {
		char *cell = NULL;
		ck_assert(asprintf(&cell, "<tr><td>%s</td><td>", key) > 0);
		ck_assert_msg(strstr(html, cell), "report.html lacks '%s'", cell);
		free(cell);
		checks++;
	}
	free(html);
	static const char *const short_set[] = { "host.name", "host.kernel.release",
						 "rtconform.version" };
	for (size_t k = 0; k < sizeof short_set / sizeof short_set[0]; k++)
		same_string(doc, 1, short_set[k], json_object_get(env, short_set[k]));

	const json_t *files = json_object_get(root, "files");
	ck_assert_int_eq(json_array_size(files), xp_num(doc, "count(/testsuites/testsuite)"));
	size_t f;
	const json_t *fo;
	json_array_foreach((json_t *)files, f, fo) {
		int suite = (int)f + 1;
		same_string(doc, suite, "requirements.sha256", json_object_get(fo, "sha256"));
		same_string(doc, suite, "requirements.path", json_object_get(fo, "path"));
		size_t i;
		const json_t *r;
		char e[100];
		snprintf(e, sizeof e, "count(/testsuites/testsuite[%d]/testcase)", suite);
		ck_assert_int_eq(json_array_size(json_object_get(fo, "requirements")),
				 xp_num(doc, e));
		json_array_foreach(json_object_get(fo, "requirements"), i, r)
			compare_requirement(doc, suite, r);
	}
	ck_assert_int_gt(checks, 20);
	xmlFreeDoc(doc);
	json_decref(root);
}

START_TEST(json_statistics_equal_junit)
{
	struct fx *x = fx_new();
	char junit[256], json[256], html[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);
	fx_write(x, REPORT_JSON, "results.json", json, sizeof json);
	fx_write(x, REPORT_HTML, "report.html", html, sizeof html);
	int status = -1;
	compare_files(json, junit, &status);
	ck_assert_int_eq(status, report_exit_status(&x->run));

	/* a few values by hand, so "equal" cannot mean "equally wrong" */
	json_t *root = json_load_file(json, 0, NULL);
	ck_assert_ptr_nonnull(root);
	json_t *sem = json_array_get(json_object_get(json_array_get(json_object_get(root, "files"),
								       0),
						     "requirements"),
				     0);
	ck_assert_str_eq(json_string_value(json_object_get(sem, "id")), "SEM-RT");
	ck_assert_str_eq(json_string_value(json_object_get(sem, "verdict")), "fail");
	ck_assert_str_eq(json_string_value(json_object_get(sem, "load")),
			 "/usr/bin/stress-ng --cpu 1");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(sem, "params"),
							   "mechanism")),
			 "sysv-sem");
	json_t *m0 = json_array_get(json_object_get(sem, "metrics"), 0);
	json_t *st = json_object_get(m0, "statistics_ns");
	ck_assert_double_eq(json_number_value(json_object_get(st, "min")), 500.0);
	ck_assert_double_eq(json_number_value(json_object_get(st, "max")), 996.5);
	ck_assert(json_is_null(json_object_get(st, "p99.9"))); /* 4000 < 10000 samples */
	ck_assert_int_eq(json_integer_value(json_object_get(m0, "count")), 4000);
	ck_assert_int_eq(json_array_size(json_object_get(m0, "runs")), 4);
	json_t *lim = json_array_get(json_object_get(sem, "limits"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(lim, "verdict")), "fail");
	ck_assert_double_eq(json_number_value(json_object_get(lim, "max")), 800.0);
	/* a count: typed as what it is (integers, the mean a real), no unit */
	json_t *pf = json_array_get(json_object_get(sem, "metrics"), 2);
	ck_assert_str_eq(json_string_value(json_object_get(pf, "name")), "page-faults");
	ck_assert_str_eq(json_string_value(json_object_get(pf, "kind")), "count");
	ck_assert_str_eq(json_string_value(json_object_get(m0, "kind")), "duration");
	json_t *pst = json_object_get(pf, "statistics");
	ck_assert(json_is_integer(json_object_get(pst, "total")));
	ck_assert_int_eq(json_integer_value(json_object_get(pst, "total")), 12);
	ck_assert_int_eq(json_integer_value(json_object_get(pst, "max")), 6);
	ck_assert(json_is_real(json_object_get(pst, "mean")));
	ck_assert_double_eq(json_real_value(json_object_get(pst, "mean")), 3.0);
	json_t *pruns = json_object_get(pf, "runs");
	ck_assert_int_eq(json_array_size(pruns), 4);
	ck_assert(json_is_integer(json_array_get(pruns, 3)));
	ck_assert_int_eq(json_integer_value(json_array_get(pruns, 3)), 6);
	json_t *climit = json_array_get(json_object_get(sem, "limits"), 3);
	ck_assert(json_is_null(json_object_get(climit, "unit")));
	ck_assert(json_is_integer(json_object_get(climit, "max")));
	ck_assert_int_eq(json_integer_value(json_object_get(climit, "measured")), 12);
	ck_assert_str_eq(json_string_value(json_object_get(climit, "verdict")), "fail");
	json_t *b1 = json_array_get(json_object_get(json_array_get(json_object_get(root, "files"), 1),
						     "requirements"),
				    0);
	json_t *cpu3 = json_array_get(json_object_get(b1, "per_cpu"), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(cpu3, "cpu")), 3);
	ck_assert_double_eq(json_number_value(json_object_get(cpu3, "max_ns")), 7.5);
	ck_assert(json_is_null(json_object_get(cpu3, "p99_ns"))); /* 5 samples */
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "environment"),
							   "host.name")),
			 "testhost");
	json_decref(root);
	fx_free(x);
}
END_TEST

/* The built binary, a tiny real run: results.json against junit.xml. */
START_TEST(json_from_a_real_run)
{
	char dir[] = "/tmp/rtc-test-json.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "%s/rtconform run --iterations 300 --runs 2 -o '%s' '%s/tests/fixtures/cli/pass.xml'"
		 " >'%s/out.txt' 2>&1",
		 RTC_BINARY_DIR, dir, RTC_SOURCE_DIR, dir);
	int st = system(cmd);
	ck_assert(WIFEXITED(st));
	char junit[256], json[256];
	snprintf(junit, sizeof junit, "%s/junit.xml", dir);
	snprintf(json, sizeof json, "%s/results.json", dir);
	int status = -1;
	compare_files(json, junit, &status);
	ck_assert_int_eq(status, WEXITSTATUS(st));
	tu_rm_tree(dir);
}
END_TEST

START_TEST(json_unwritable)
{
	struct fx *x = fx_new();
	char p[256], err[512] = "";
	fx_path(x, "no/such/dir/results.json", p, sizeof p);
	struct report_view v;
	fx_view(x, &v);
	ck_assert_int_eq(report_write_json(&v, p, err, sizeof err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, p));
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* ---- the archive: written, read back, rendered again ------------------ */

/* The fixture made awkward: strings with control characters and bytes that
 * are not UTF-8, scales and values no decimal prints exactly, a run without
 * samples. */
/* Limit l of requirement r of the first file judged by p95, a statistic
 * results.json does not store beside the limit: the reader holds a stored
 * statistic and a limit's measured value to each other, and these tests
 * give the measured value odd doubles (that keep its verdict). */
static void free_measured(struct fx *x, int r, int l)
{
	ck_assert_int_eq(statistic_parse("p95", &x->reqs[0][r].limits[l].stat), 0);
}

static void make_odd(struct fx *x)
{
	static const char hostile[] = "evil\x01\x1b[31m <&> ]]> \"q' \xff\xfe tab\there\r\nend: x";
	x->reqs[0][0].title = (char *)hostile;
	x->reqs[0][0].source = (char *)hostile;
	snprintf(x->results[0][2].reason, sizeof x->results[0][2].reason, "%s", hostile);
	snprintf(x->results[0][1].res->note, sizeof x->results[0][1].res->note, "%s", hostile);
	fingerprint_add(&x->fp, "host.name", "host\x07name\xff");
	x->files[0].name = (char *)"suite\x03<&>";
	result_metric(x->results[0][0].res, 0)->ns_per_unit = 1.0 / 3.0;
	x->reqs[0][0].limits[0].max.value = 1234.56789;
	free_measured(x, 0, 0);
	x->results[0][0].limits[0].measured = 1.0000004;
	free_measured(x, 1, 1);
	x->results[0][1].limits[1].measured = 2.0 / 3.0;
	/* the scale above changes the max the file stores beside it */
	free_measured(x, 0, 1);
	x->results[1][0].res->runs[1].iterations = 0;
}

/* results.json of view v, written and read back into *back. */
static void json_round_trip(struct fx *x, const struct report_view *v, struct report_view *back)
{
	char path[256], err[512] = "";
	fx_path(x, "results.json", path, sizeof path);
	ck_assert_msg(report_write_json(v, path, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(report_view_from_json(path, back, err, sizeof err) == 0, "%s", err);
}

/* Every report of the run, and of its view read back from results.json:
 * the same bytes. */
static void assert_archive_exact(struct fx *x)
{
	struct report_view a, b;
	fx_view(x, &a);
	json_round_trip(x, &a, &b);
	static const char *const what[REPORT_NKINDS] = { "junit.xml", "summary.txt",
							  "report.html", "results.json" };
	for (int k = 0; k < REPORT_NKINDS; k++) {
		size_t la, lb;
		char *ra = fx_render(&a, (enum report_kind)k, &la);
		char *rb = fx_render(&b, (enum report_kind)k, &lb);
		fx_same_bytes(ra, la, rb, lb, what[k]);
		free(ra);
		free(rb);
	}
	/* the table `run` prints, too */
	char *ta = NULL, *tb = NULL;
	size_t la = 0, lb = 0;
	FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);
	ck_assert(fa && fb);
	report_write_text(&a, fa);
	report_write_text(&b, fb);
	ck_assert_int_eq(fclose(fa), 0);
	ck_assert_int_eq(fclose(fb), 0);
	fx_same_bytes(ta, la, tb, lb, "the verdict table");
	free(ta);
	free(tb);
	report_view_free(&a);
	report_view_free(&b);
}

START_TEST(archive_renders_every_report_again)
{
	struct fx *x = fx_new();
	assert_archive_exact(x);
	make_odd(x);
	assert_archive_exact(x);
	/* a single file, no title, no limits */
	x->run.nfiles = 1;
	x->reqs[0][1].title = NULL;
	x->reqs[0][1].nlimits = 0;
	assert_archive_exact(x);
	fx_free(x);
}
END_TEST

START_TEST(archive_keeps_doubles_exact)
{
	struct fx *x = fx_new();
	make_odd(x);
	struct report_view a, b;
	fx_view(x, &a);
	json_round_trip(x, &a, &b);
	/* 1.0000004 prints "1.000" in junit.xml; the archive keeps it */
	const struct rv_limit *la = &a.files[0].reqs[0].limits[0], *lb = &b.files[0].reqs[0].limits[0];
	ck_assert(la->measured.have && la->measured.v == 1.0000004);
	ck_assert(numfmt_round3(la->measured.v) != la->measured.v);
	ck_assert(lb->measured.have);
	ck_assert_msg(lb->measured.v == 1.0000004, "read back %.17g", lb->measured.v);
	ck_assert(lb->max.value == 1234.56789);
	ck_assert(b.files[0].reqs[1].limits[1].measured.v == 2.0 / 3.0);
	const struct rv_metric *ma = &a.files[0].reqs[0].metrics[0], *mb = &b.files[0].reqs[0].metrics[0];
	ck_assert(mb->ns_per_unit == 1.0 / 3.0);
	for (int i = 0; i < RV_NSTATS; i++) {
		ck_assert_int_eq(ma->ns[i].have, mb->ns[i].have);
		ck_assert_msg(ma->ns[i].v == mb->ns[i].v, "%s: %.17g read back as %.17g",
			      report_view_stats[i], ma->ns[i].v, mb->ns[i].v);
	}
	/* the mean of 1496.5 units of 1/3 ns is no decimal with 3 places */
	ck_assert(numfmt_round3(mb->ns[RV_MEAN].v) != mb->ns[RV_MEAN].v);
	ck_assert(b.files[0].reqs[1].batch_stddev_ns.v == a.files[0].reqs[1].batch_stddev_ns.v);
	ck_assert(b.files[0].started == 1700000000);
	report_view_free(&a);
	report_view_free(&b);
	fx_free(x);
}
END_TEST

/* Reals are written with the fewest digits that read back as the same
 * double, in jansson's form (a point or an exponent, no '+'); integers and
 * numbers inside strings are left as they are. */
START_TEST(archive_reals_shortest)
{
	struct fx *x = fx_new();
	x->reqs[0][0].title = (char *)"budget 0.035000000000000003 s, -1e+05";
	for (int l = 0; l < 2; l++) {
		free_measured(x, 0, l);
		free_measured(x, 1, l);
	}
	x->results[0][0].limits[0].measured = 0.035;
	x->results[0][0].limits[1].measured = 1e-5;
	x->results[0][0].limits[1].passed = true; /* below its max of 800 */
	x->reqs[0][0].limits[0].max.value = 100.0;
	x->results[0][1].limits[0].measured = 2.0 / 3.0;
	x->results[0][1].limits[1].measured = 1e30; /* the reader refuses more than 1e40 */
	x->reqs[0][1].limits[1].max.value = 1e31;   /* and it still passes */
	struct report_view a, b;
	fx_view(x, &a);
	size_t len;
	char *text = fx_render(&a, REPORT_JSON, &len);
	static const char *const want[] = {
		"\"measured\": 0.035,", "\"measured\": 1e-5,", "\"max\": 100.0,",
		"\"measured\": 0.6666666666666666,", "\"measured\": 1e30,",
		"\"title\": \"budget 0.035000000000000003 s, -1e+05\"", "\"count\": 4000,",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(text, want[i]), "results.json lacks %s", want[i]);
	ck_assert_ptr_null(strstr(text, ": 0.035000000000000003"));
	free(text);
	json_round_trip(x, &a, &b);
	ck_assert(b.files[0].reqs[0].limits[0].measured.v == 0.035);
	ck_assert(b.files[0].reqs[0].limits[1].measured.v == 1e-5);
	ck_assert(b.files[0].reqs[0].limits[0].max.value == 100.0);
	ck_assert(b.files[0].reqs[1].limits[0].measured.v == 2.0 / 3.0);
	ck_assert(b.files[0].reqs[1].limits[1].measured.v == 1e30);
	report_view_free(&a);
	report_view_free(&b);
	fx_free(x);
}
END_TEST

/* Counts come back as they went: the kind, each run's count, statistics,
 * and a bound that is not whole (a mean's) as the real it is. */
START_TEST(archive_keeps_counts)
{
	struct fx *x = fx_new();
	x->reqs[0][1].limits[2].max.value = 2.5;
	struct report_view a, b;
	fx_view(x, &a);
	json_round_trip(x, &a, &b);
	const struct rv_req *ra = &a.files[0].reqs[0], *rb = &b.files[0].reqs[0];
	ck_assert_uint_eq(rb->nmetrics, 5);
	for (size_t i = 2; i < 5; i++) {
		const struct rv_metric *ma = &ra->metrics[i], *mb = &rb->metrics[i];
		ck_assert_int_eq(mb->kind, METRIC_COUNT);
		ck_assert_str_eq(mb->name, ma->name);
		ck_assert_uint_eq(mb->nruns, ma->nruns);
		ck_assert_uint_eq(mb->count, ma->count);
		for (size_t k = 0; k < mb->nruns; k++)
			ck_assert_uint_eq(mb->run_count[k], ma->run_count[k]);
		for (int k = 0; k < RV_NCSTATS; k++)
			ck_assert(mb->counts[k].have == ma->counts[k].have &&
				  mb->counts[k].v == ma->counts[k].v);
	}
	ck_assert_int_eq(rb->metrics[0].kind, METRIC_DURATION);
	ck_assert(rb->metrics[2].counts[RVC_TOTAL].v == 12);
	const struct rv_limit *lb = &b.files[0].reqs[1].limits[2];
	ck_assert(lb->count && !lb->cycles && lb->max.unit == QTY_COUNT);
	ck_assert(lb->max.value == 2.5);
	report_view_free(&a);
	report_view_free(&b);
	fx_free(x);
}
END_TEST

/* m's runs as one run of all its count samples, at its mean and max (the
 * reader holds the runs to the totals); no spread of run means then. */
static void one_run_of_all(struct rv_metric *m)
{
	m->nruns = 1;
	m->run_count[0] = m->count;
	m->run_mean_ns[0] = m->ns[RV_MEAN];
	m->run_max_ns[0] = m->ns[RV_MAX];
	m->ns[RV_RUNS_MEAN_STDDEV].have = false;
}

START_TEST(archive_integers_to_2_63)
{
	struct fx *x = fx_new();
	struct report_view a, b;
	fx_view(x, &a);
	struct rv_metric *m = &a.files[0].reqs[0].metrics[0];
	const uint64_t top = (uint64_t)INT64_MAX;
	/* the histogram still holds the count (the reader checks it): the
	 * count, the last bucket and the overflow at the top of the range */
	uint64_t others = 0;
	for (size_t i = 0; i + 1 < m->nbuckets; i++)
		others += m->buckets[i].count;
	m->buckets[m->nbuckets - 1] = (struct rv_bucket){ top - 1, top, top - others - 2 };
	m->highest = top;
	m->overflow = 2;
	m->count = top;
	for (int k = 0; k < RV_NSTATS; k++) {
		m->ci[k].have = false; /* no interval reaches past 2^40 samples */
	}
	one_run_of_all(m);
	/* nor do the fixture's statistics lie where these buckets put them
	 * (figures_hist.c): the counts are under test, not them */
	for (int k = 0; k < RV_NSTATS; k++)
		m->ns[k].have = m->cycles[k].have = false;
	m->median_ns.have = false;
	/* B-1's series 0 too, and its metric 0 the sum of its series: both at
	 * B-1's mean, so the means still add up */
	struct rv_req *b1 = &a.files[1].reqs[0];
	struct rv_metric *bm = &b1->metrics[0];
	struct rv_series *s0 = &b1->series[0], *s1 = &b1->series[1];
	s0->p99_ci.have = s1->p99_ci.have = false;
	if (s0->has_hist)
		s0->overflow += top - s1->count - s0->count;
	s0->count = top - s1->count;
	s0->ns[RVS_MEAN] = s1->ns[RVS_MEAN] = bm->ns[RV_MEAN];
	bm->overflow += top - bm->count;
	bm->count = top;
	for (int k = 0; k < RV_NSTATS; k++)
		bm->ci[k].have = false;
	one_run_of_all(bm);
	/* as m's: its statistics and its series' no longer lie where the
	 * buckets put them (figures_hist.c) */
	for (int k = 0; k < RV_NSTATS; k++)
		bm->ns[k].have = bm->cycles[k].have = false;
	bm->median_ns.have = false;
	s0->has_hist = s1->has_hist = false;
	json_round_trip(x, &a, &b);
	const struct rv_metric *mb = &b.files[0].reqs[0].metrics[0];
	ck_assert_uint_eq(mb->nbuckets, m->nbuckets);
	ck_assert(mb->buckets[mb->nbuckets - 1].lo == top - 1);
	ck_assert(mb->buckets[mb->nbuckets - 1].hi == top);
	ck_assert(mb->buckets[mb->nbuckets - 1].count == top - others - 2);
	ck_assert(mb->highest == top && mb->overflow == 2 && mb->count == top);
	ck_assert(b.files[1].reqs[0].series[0].count == top - s1->count);
	ck_assert(b.files[1].reqs[0].metrics[0].count == top);
	report_view_free(&b);

	/* one more does not fit a JSON integer of jansson's: refused, not
	 * clamped, and nothing is written */
	m->buckets[m->nbuckets - 1].hi = top + 1;
	char path[256], err[512] = "";
	fx_path(x, "big.json", path, sizeof path);
	ck_assert_int_eq(report_write_json(&a, path, err, sizeof err), -ENOMEM);
	ck_assert_msg(strstr(err, "9223372036854775808") && strstr(err, "big.json"), "%s", err);
	ck_assert_int_eq(access(path, F_OK), -1);
	report_view_free(&a);
	fx_free(x);
}
END_TEST

/* ---- the reader refuses ------------------------------------------------ */

/* The fixture's results.json as a jansson tree (the caller edits it). */
static json_t *fixture_json(struct fx *x)
{
	char path[256];
	fx_write(x, REPORT_JSON, "results.json", path, sizeof path);
	json_t *root = json_load_file(path, 0, NULL);
	ck_assert_ptr_nonnull(root);
	return root;
}

/* text written to dir/in.json, read into v: the reader's return. */
static int read_text_view(struct fx *x, const char *text, struct report_view *v, char *p,
			  char *err, size_t errlen)
{
	fx_path(x, "in.json", p, 256);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	err[0] = '\0';
	return report_view_from_json(p, v, err, errlen);
}

/* text written to dir/in.json and read: the reader's return, err its
 * message, which must name the file. */
static int read_json_text(struct fx *x, const char *text, char *err, size_t errlen)
{
	char p[256];
	struct report_view v;
	int rc = read_text_view(x, text, &v, p, err, errlen);
	if (rc == 0)
		report_view_free(&v);
	else
		ck_assert_msg(strstr(err, p) != NULL, "message does not name the file: %s", err);
	return rc;
}

static int read_json_tree(struct fx *x, json_t *root, char *err, size_t errlen)
{
	char *text = json_dumps(root, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	ck_assert_ptr_nonnull(text);
	int rc = read_json_text(x, text, err, errlen);
	free(text);
	return rc;
}

/* The first requirement of the first file, and its first metric. */
static json_t *req0(json_t *root)
{
	return json_array_get(json_object_get(json_array_get(json_object_get(root, "files"), 0),
					      "requirements"), 0);
}

static json_t *metric0(json_t *root)
{
	return json_array_get(json_object_get(req0(root), "metrics"), 0);
}

static void expect_refused(struct fx *x, json_t *root, const char *field, const char *why)
{
	char err[600];
	ck_assert_msg(read_json_tree(x, root, err, sizeof err) == -EINVAL, "read: %s", field);
	ck_assert_msg(strstr(err, field) && strstr(err, why), "'%s' lacks '%s' / '%s'", err, field,
		      why);
	json_decref(root);
}

START_TEST(json_reader_refuses)
{
	struct fx *x = fx_new();
	char err[600];
	/* the file as written reads */
	json_t *root = fixture_json(x);
	ck_assert_msg(read_json_tree(x, root, err, sizeof err) == 0, "%s", err);
	json_decref(root);

	/* not JSON, and trailing garbage after a whole document */
	ck_assert_int_eq(read_json_text(x, "{ \"schema\": ", err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "not JSON"), "%s", err);
	char path[256];
	fx_write(x, REPORT_JSON, "results.json", path, sizeof path);
	char *text = tu_slurp(path, NULL), *garbage;
	ck_assert_int_ge(asprintf(&garbage, "%s}x\n", text), 0);
	ck_assert_int_eq(read_json_text(x, garbage, err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "not JSON") && strstr(err, "end of file expected"), "%s", err);
	free(garbage);
	/* a key given twice: which one would a reader take? */
	char *dup;
	ck_assert_int_ge(asprintf(&dup, "{\"schema\": \"x\",%s", strchr(text, '{') + 1), 0);
	ck_assert_int_eq(read_json_text(x, dup, err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "duplicate object key"), "%s", err);
	free(dup);
	free(text);

	/* a field of the wrong type */
	root = fixture_json(x);
	json_object_set_new(req0(root), "seconds", json_string("1.5"));
	expect_refused(x, root, "files[0].requirements[0].seconds", "expected a number");
	root = fixture_json(x);
	json_object_set_new(metric0(root), "count", json_real(4000.0));
	expect_refused(x, root, "files[0].requirements[0].metrics[0].count", "expected an integer");
	root = fixture_json(x);
	json_object_set_new(req0(root), "verdict", json_string("maybe"));
	expect_refused(x, root, "files[0].requirements[0].verdict", "expected \"pass\"");
	root = fixture_json(x);
	json_object_set_new(json_object_get(metric0(root), "statistics_ns"), "p50", json_true());
	expect_refused(x, root, "metrics[0].statistics_ns.p50", "expected a number or null");

	/* a missing field */
	root = fixture_json(x);
	json_object_del(metric0(root), "median_ns");
	expect_refused(x, root, "files[0].requirements[0].metrics[0].median_ns", "missing");
	root = fixture_json(x);
	json_object_del(json_object_get(req0(root), "batch"), "per_run_ns");
	expect_refused(x, root, "files[0].requirements[0].batch.per_run_ns", "missing");
	root = fixture_json(x);
	json_object_del(root, "schema");
	expect_refused(x, root, "schema", "missing");

	/* a bucket with lo > hi, and one that is not [lo, hi, count] */
	root = fixture_json(x);
	json_t *b = json_array_get(json_object_get(json_object_get(metric0(root), "histogram"),
						   "buckets"), 1);
	json_array_set_new(b, 0, json_integer(json_integer_value(json_array_get(b, 1)) + 1));
	expect_refused(x, root, "metrics[0].histogram.buckets[1]", "lo");
	root = fixture_json(x);
	b = json_array_get(json_object_get(json_object_get(metric0(root), "histogram"), "buckets"),
			   2);
	json_array_remove(b, 2);
	expect_refused(x, root, "metrics[0].histogram.buckets[2]", "expected [lo, hi, count]");

	/* a total that the verdicts do not give, another schema */
	root = fixture_json(x);
	json_object_set_new(json_object_get(root, "totals"), "errors", json_integer(0));
	expect_refused(x, root, "totals.errors", "expected 2");
	root = fixture_json(x);
	json_object_set_new(root, "exit_status", json_integer(0));
	expect_refused(x, root, "exit_status", "expected 3");
	root = fixture_json(x);
	json_object_set_new(root, "schema", json_string("urn:rtconform:results:0"));
	expect_refused(x, root, "schema", "urn:rtconform:results:2");

	fx_free(x);
}
END_TEST

/* A traced breach's explanation (results.json's "explain"): written with
 * every component, read back the same, every report rendered again the
 * same bytes; summary.txt and the table say it in one line, junit.xml's
 * failure message ends in its top cause. */
START_TEST(archive_keeps_explanation)
{
	struct fx *x = fx_new();
	fx_explain(&x->results[0][0]);
	assert_archive_exact(x);
	json_t *root = fixture_json(x), *ex = json_object_get(req0(root), "explain");
	ck_assert_ptr_nonnull(ex);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(ex, "window"), "ns")),
			 2100000);
	json_t *c = json_object_get(ex, "components");
	ck_assert_uint_eq(json_array_size(c), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 0), "kind")), "task");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 0), "class")),
			 "violation");
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(c, 0), "pid")), 23);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(c, 1), "irq")), 11);
	ck_assert(json_number_value(json_object_get(json_array_get(c, 0), "share")) == 0.68);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 2), "kind")),
			 "unexplained");
	ck_assert(json_is_true(json_object_get(ex, "adds_up")));
	ck_assert(json_is_true(json_object_get(ex, "complete")));
	/* the other requirements have none: the key is absent, as in old files */
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(root, "files"), 0), "requirements"), 1), "explain"));
	json_decref(root);

	struct report_view a, b;
	fx_view(x, &a);
	json_round_trip(x, &a, &b);
	const struct explain *e = b.files[0].reqs[0].explain;
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->ncomp, 3);
	ck_assert_uint_eq(e->comp[1].ns, 420000);
	ck_assert_uint_eq(e->nmig, 1);
	ck_assert_uint_eq(e->run_ns - e->waking_ns, 1995000);
	ck_assert_ptr_null(b.files[0].reqs[1].explain);
	size_t len;
	char *sum = fx_render(&b, REPORT_SUMMARY, &len);
	ck_assert_msg(strstr(sum, "\nwhy: SEM-RT wakeup 2.1 ms: 68% ksoftirqd/1 (pid 23, RT 1, "
				  "lower than the probe, which was runnable: a violation), 20% irq "
				  "11 virtio0, 12% unexplained (no event tells)\n"), "%.3000s", sum);
	free(sum);
	char *junit = fx_render(&b, REPORT_JUNIT, &len);
	ck_assert_msg(strstr(junit, "page-faults total 12 &gt; 0 (4 runs); top cause of the traced "
				    "breach: 68% ksoftirqd/1 (pid 23, RT 1, lower than the probe, "
				    "which was runnable: a violation)\""), "%.3000s",
		      strstr(junit, "<failure") ? strstr(junit, "<failure") : junit);
	free(junit);
	report_view_free(&a);
	report_view_free(&b);
	/* exit from idle (power:cpu_idle) keeps its state */
	x->results[0][0].explain->comp[2] = (struct explain_component){
		.kind = EXPLAIN_IDLE_EXIT, .id = 3, .prio = EXPLAIN_PRIO_UNKNOWN, .ns = 252000,
		.count = 1 };
	assert_archive_exact(x);
	root = fixture_json(x);
	c = json_object_get(json_object_get(req0(root), "explain"), "components");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(c, 2), "kind")),
			 "idle-exit");
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(c, 2), "state")), 3);
	json_object_set_new(json_array_get(c, 2), "state", json_integer(-5));
	expect_refused(x, root, "files[0].requirements[0].explain.components[2].state",
		       "expected an integer from 0 to 4294967294");
	/* the steal time of the probe's CPU over the traced span: kept, said
	 * beside the headline, and refused when more than the span */
	x->results[0][0].explain->steal_known = true;
	x->results[0][0].explain->steal_ns = 12000000;
	x->results[0][0].explain->steal_span_ns = 2500000000u;
	assert_archive_exact(x);
	fx_view(x, &a);
	sum = fx_render(&a, REPORT_SUMMARY, &len);
	ck_assert_msg(strstr(sum, "12% exit from idle (the CPU in idle state 3); steal: 12 ms over "
				  "the run's traced span of 2.5 s (CPU 1, /proc/stat)\n"),
		      "%.3000s", sum);
	free(sum);
	report_view_free(&a);
	root = fixture_json(x);
	json_object_set_new(json_object_get(json_object_get(req0(root), "explain"), "steal"), "ns",
			    json_integer(2500000001));
	expect_refused(x, root, "files[0].requirements[0].explain.steal.ns",
		       "2500000001 is more than the span, 2500000000 ns");
	fx_free(x);
}
END_TEST

static json_t *explain0(json_t *root)
{
	return json_object_get(req0(root), "explain");
}

static json_t *comp0(json_t *root, size_t i)
{
	return json_array_get(json_object_get(explain0(root), "components"), i);
}

/* A results.json from elsewhere whose explanation does not hold together
 * is refused, the field and the value named. */
START_TEST(json_reader_refuses_bad_explanation)
{
	struct fx *x = fx_new();
	fx_explain(&x->results[0][0]);
	const char *at = "files[0].requirements[0].explain.";
	char field[200];
	json_t *root = fixture_json(x);
	json_object_set_new(comp0(root, 0), "ns", json_integer(1428001));
	snprintf(field, sizeof field, "%ssum_ns", at);
	expect_refused(x, root, field, "2100000 is not the components' sum, 2100001");
	/* the components agree with sum_ns, which is not the window */
	root = fixture_json(x);
	json_object_set_new(comp0(root, 0), "ns", json_integer(1438000));
	json_object_set_new(comp0(root, 0), "share", json_real(1438000.0 / 2100000.0));
	json_object_set_new(explain0(root), "sum_ns", json_integer(2110000));
	expect_refused(x, root, field, "2110000 does not add up to the window's 2100000 ns "
		       "within 1000 ns");
	root = fixture_json(x);
	json_object_set_new(comp0(root, 1), "kind", json_string("gremlin"));
	snprintf(field, sizeof field, "%scomponents[1].kind", at);
	expect_refused(x, root, field, "'gremlin' is not a kind rtconform writes");
	root = fixture_json(x);
	json_object_set_new(comp0(root, 0), "share", json_real(0.5));
	snprintf(field, sizeof field, "%scomponents[0].share", at);
	expect_refused(x, root, field, "0.5 is not its ns over the window's (0.68)");
	root = fixture_json(x);
	json_object_set_new(comp0(root, 0), "class", json_string("innocent"));
	snprintf(field, sizeof field, "%scomponents[0].class", at);
	expect_refused(x, root, field, "'innocent' is not a class");
	root = fixture_json(x);
	json_object_set_new(comp0(root, 0), "label", json_string("someone else"));
	snprintf(field, sizeof field, "%scomponents[0].label", at);
	expect_refused(x, root, field, "'someone else' is not what its fields say");
	root = fixture_json(x);
	json_object_set_new(explain0(root), "lost_in_window", json_integer(2));
	snprintf(field, sizeof field, "%scomplete", at);
	expect_refused(x, root, field, "true, but lost_in_window is 2");
	root = fixture_json(x);
	json_object_set_new(explain0(root), "adds_up", json_false());
	snprintf(field, sizeof field, "%sadds_up", at);
	expect_refused(x, root, field, "false, but sum_ns 2100000 adds up");
	root = fixture_json(x);
	json_t *many = json_array();
	for (int i = 0; i < EXPLAIN_READ_MAX_ITEMS + 1; i++)
		json_array_append(many, comp0(root, 2));
	json_object_set_new(explain0(root), "components", many);
	snprintf(field, sizeof field, "%scomponents", at);
	expect_refused(x, root, field, "4097 items, more than the 4096");
	root = fixture_json(x);
	json_object_set_new(json_object_get(explain0(root), "window"), "ns", json_integer(7));
	snprintf(field, sizeof field, "%swindow.ns", at);
	expect_refused(x, root, field, "7 is not end_ns - start_ns, 2100000");
	root = fixture_json(x);
	json_object_set_new(explain0(root), "headline", json_string("blame the network"));
	snprintf(field, sizeof field, "%sheadline", at);
	expect_refused(x, root, field, "'blame the network' is not what its fields say");
	root = fixture_json(x);
	json_object_set_new(explain0(root), "tolerance_ns", json_integer(5000000));
	snprintf(field, sizeof field, "%stolerance_ns", at);
	expect_refused(x, root, field, "expected an integer from 1000 to 1000");
	root = fixture_json(x);
	json_object_set_new(explain0(root), "lost_in_window", json_integer(5));
	snprintf(field, sizeof field, "%slost_in_window", at);
	expect_refused(x, root, field, "5 is more than lost_events, 3");
	root = fixture_json(x);
	json_object_set_new(json_object_get(explain0(root), "wakeup"), "to_run_ns",
			    json_integer(3000000));
	snprintf(field, sizeof field, "%swakeup.to_run_ns", at);
	expect_refused(x, root, field, "3000000 is after the marker (woken 2000000 ns before it)");
	root = fixture_json(x);
	json_object_set_new(json_array_get(json_object_get(explain0(root), "migrations"), 0), "to",
			    json_integer(-1));
	snprintf(field, sizeof field, "%smigrations[0].to", at);
	expect_refused(x, root, field, "expected an integer from 0 to 65535");
	root = fixture_json(x);
	json_object_set_new(json_object_get(explain0(root), "probe"), "priority",
			    json_string("RT 1"));
	snprintf(field, sizeof field, "%sprobe.priority", at);
	expect_refused(x, root, field, "'RT 1' is not what its fields say: 'RT 99'");
	root = fixture_json(x);
	json_object_set_new(comp0(root, 0), "pid", json_integer(1 << 23));
	snprintf(field, sizeof field, "%scomponents[0].pid", at);
	expect_refused(x, root, field, "expected an integer from 0 to 4194304");
	/* the file as written reads, and so does one without the key (older) */
	char err[600];
	root = fixture_json(x);
	ck_assert_msg(read_json_tree(x, root, err, sizeof err) == 0, "%s", err);
	json_object_del(req0(root), "explain");
	ck_assert_msg(read_json_tree(x, root, err, sizeof err) == 0, "%s", err);
	json_decref(root);
	fx_free(x);
}
END_TEST

/* The readiness checks come back as they went; a results.json from before
 * they were recorded (no "readiness", or null) still reads, and every
 * report says they were not recorded; a check that cannot be read is
 * refused, named. */
START_TEST(archive_keeps_readiness)
{
	struct fx *x = fx_new();
	struct report_view a, b;
	fx_view(x, &a);
	json_round_trip(x, &a, &b);
	ck_assert(a.ready_recorded && b.ready_recorded);
	ck_assert_uint_eq(b.nready, 3);
	for (size_t i = 0; i < a.nready; i++) {
		ck_assert_str_eq(a.ready[i].name, b.ready[i].name);
		ck_assert_int_eq(a.ready[i].level, b.ready[i].level);
		ck_assert_str_eq(a.ready[i].finding, b.ready[i].finding);
		ck_assert_int_eq(!a.ready[i].remedy, !b.ready[i].remedy);
		if (a.ready[i].remedy)
			ck_assert_str_eq(a.ready[i].remedy, b.ready[i].remedy);
	}
	ck_assert_ptr_null(b.ready[0].remedy);
	ck_assert_int_eq(b.ready[1].level, READY_WARN);
	report_view_free(&b);

	/* without the field, and with null: not recorded, said in every report */
	char path[256], err[600] = "";
	json_t *root = fixture_json(x);
	for (int k = 0; k < 2; k++) {
		if (k == 0)
			json_object_del(root, "readiness");
		else
			json_object_set_new(root, "readiness", json_null());
		fx_path(x, "old.json", path, sizeof path);
		ck_assert_int_eq(json_dump_file(root, path, JSON_PRESERVE_ORDER |
							     JSON_REAL_PRECISION(17)), 0);
		ck_assert_msg(report_view_from_json(path, &b, err, sizeof err) == 0, "%s", err);
		ck_assert(!b.ready_recorded);
		ck_assert_uint_eq(b.nready, 0);
		size_t len;
		char *txt = fx_render(&b, REPORT_SUMMARY, &len);
		ck_assert_ptr_nonnull(strstr(txt, "readiness of the machine: not recorded"));
		free(txt);
		char *html = fx_render(&b, REPORT_HTML, &len);
		ck_assert_ptr_nonnull(strstr(html, "Not recorded: this report comes from a run"));
		free(html);
		char *json = fx_render(&b, REPORT_JSON, &len);
		ck_assert_ptr_nonnull(strstr(json, "\"readiness\": null"));
		free(json);
		char *junit = fx_render(&b, REPORT_JUNIT, &len);
		ck_assert_ptr_null(strstr(junit, "\"readiness."));
		free(junit);
		report_view_free(&b);
	}
	json_decref(root);

	/* a level that is none of the four, a check without its finding */
	root = fixture_json(x);
	json_object_set_new(json_array_get(json_object_get(root, "readiness"), 1), "level",
			    json_string("bad"));
	expect_refused(x, root, "readiness[1].level", "expected \"ok\", \"note\"");
	root = fixture_json(x);
	json_object_del(json_array_get(json_object_get(root, "readiness"), 2), "finding");
	expect_refused(x, root, "readiness[2].finding", "missing");
	root = fixture_json(x);
	json_object_set_new(root, "readiness", json_string("fine"));
	expect_refused(x, root, "readiness", "expected an array");
	report_view_free(&a);
	fx_free(x);
}
END_TEST

/* Each CPU's histogram of a per-CPU series comes back; a results.json
 * written before the series carried one (neither field) still reads, the
 * series then without it; one of the two fields alone is refused. */
START_TEST(json_series_histograms)
{
	struct fx *x = fx_new();
	char err[600], path[256];
	struct report_view v;
	fx_write(x, REPORT_JSON, "results.json", path, sizeof path);
	ck_assert_msg(report_view_from_json(path, &v, err, sizeof err) == 0, "%s", err);
	const struct rv_req *b1 = &v.files[1].reqs[0];
	ck_assert_uint_eq(b1->nseries, 2);
	uint64_t n = 0;
	for (size_t i = 0; i < b1->series[1].nbuckets; i++)
		n += b1->series[1].buckets[i].count;
	ck_assert(b1->series[1].has_hist);
	ck_assert_uint_eq(n, b1->series[1].count);
	report_view_free(&v);

	json_t *root = fixture_json(x);
	json_t *s0 = json_array_get(json_object_get(json_array_get(json_object_get(
		json_array_get(json_object_get(root, "files"), 1), "requirements"), 0), "per_cpu"), 0);
	json_object_del(s0, "overflow");
	json_object_del(s0, "histogram");
	fx_path(x, "old.json", path, sizeof path);
	ck_assert_int_eq(json_dump_file(root, path, JSON_PRESERVE_ORDER), 0);
	ck_assert_msg(report_view_from_json(path, &v, err, sizeof err) == 0, "%s", err);
	ck_assert(!v.files[1].reqs[0].series[0].has_hist);
	ck_assert(v.files[1].reqs[0].series[1].has_hist);
	report_view_free(&v);
	json_object_set_new(s0, "overflow", json_integer(0));
	expect_refused(x, root, "per_cpu[0].histogram", "missing while overflow is there");

	root = fixture_json(x);
	s0 = json_array_get(json_object_get(json_array_get(json_object_get(
		json_array_get(json_object_get(root, "files"), 1), "requirements"), 0), "per_cpu"), 0);
	json_object_set_new(s0, "histogram", json_null());
	expect_refused(x, root, "per_cpu[0].histogram", "null while overflow is not");
	fx_free(x);
}
END_TEST

/* What a count metric and schema 1 may hold: the same strictness. */
/* root with the member key of obj (found by at(root)) set to a real. */
static json_t *with_real(struct fx *x, json_t *(*at)(json_t *), const char *key, double v)
{
	json_t *root = fixture_json(x);
	json_object_set_new(at(root), key, json_real(v));
	return root;
}

static json_t *stats0(json_t *root)
{
	return json_object_get(metric0(root), "statistics_ns");
}

static json_t *limit0(json_t *root)
{
	return json_array_get(json_object_get(req0(root), "limits"), 0);
}

/* The metric's statistics no longer held to its histogram nor to its
 * cycles (figures_hist.c), so that a test of another rule can move one of
 * them alone: no cycles, and every sample above the (empty) buckets. */
static void unhook_stats(json_t *metric)
{
	json_object_set_new(metric, "cycles_per_unit", json_integer(0));
	json_object_set_new(json_object_get(metric, "histogram"), "buckets", json_array());
	json_object_set(metric, "overflow", json_object_get(metric, "count"));
	json_object_set_new(metric, "median_ns", json_null());
}

/* unhook_stats for every duration metric of root's first file */
static void unhook_all(json_t *root)
{
	json_t *reqs = json_object_get(json_array_get(json_object_get(root, "files"), 0),
				       "requirements");
	for (size_t r = 0; r < json_array_size(reqs); r++) {
		json_t *ms = json_object_get(json_array_get(reqs, r), "metrics");
		for (size_t m = 0; m < json_array_size(ms); m++)
			if (json_object_get(json_array_get(ms, m), "histogram"))
				unhook_stats(json_array_get(ms, m));
	}
}

/* Numbers a run cannot write, which made the plots hang or divide by zero,
 * are refused naming the field and the value (reports/read/read.h has the
 * ranges); the ends of the ranges read. */
START_TEST(json_reader_refuses_numbers)
{
	struct fx *x = fx_new();
	char err[600];
	static const double bad_scale[] = { 1e308, 5e-324, 0, -1, 1e7, 1e-16 };
	for (size_t i = 0; i < sizeof bad_scale / sizeof bad_scale[0]; i++) {
		char want[64];
		snprintf(want, sizeof want, "%.17g is out of range", bad_scale[i]);
		expect_refused(x, with_real(x, metric0, "ns_per_unit", bad_scale[i]),
			       "metrics[0].ns_per_unit", want);
	}
	expect_refused(x, with_real(x, metric0, "cycles_per_unit", 1e300),
		       "metrics[0].cycles_per_unit", "out of range");
	expect_refused(x, with_real(x, metric0, "cycles_per_unit", -0.5),
		       "metrics[0].cycles_per_unit", "out of range");
	static const double bad_real[] = { 1e308, -1e41, 5e-324, -1e-41 };
	for (size_t i = 0; i < sizeof bad_real / sizeof bad_real[0]; i++) {
		expect_refused(x, with_real(x, stats0, "max", bad_real[i]),
			       "metrics[0].statistics_ns.max", "out of range");
		expect_refused(x, with_real(x, req0, "seconds", bad_real[i]),
			       "requirements[0].seconds", "out of range");
		expect_refused(x, with_real(x, limit0, "max", bad_real[i]),
			       "requirements[0].limits[0].max", "out of range");
	}
	/* a huge integer is no JSON integer of jansson's */
	json_t *root = fixture_json(x);
	char *text = json_dumps(root, JSON_PRESERVE_ORDER);
	char *at = strstr(text, "\"runs\":"), *big;
	ck_assert_ptr_nonnull(at);
	ck_assert_int_ge(asprintf(&big, "%.*s\"runs\": 99999999999999999999%s", (int)(at - text),
				  text, strchr(at, ',')), 0);
	ck_assert_int_eq(read_json_text(x, big, err, sizeof err), -EINVAL);
	free(big);
	free(text);
	json_decref(root);
	/* the ends of the ranges read */
	static const struct {
		json_t *(*at)(json_t *);
		const char *key;
		double v;
	} good[] = { { metric0, "ns_per_unit", 1e-15 }, { metric0, "ns_per_unit", 1e6 },
		     { metric0, "cycles_per_unit", 0 }, { stats0, "min", 1e-40 },
		     { stats0, "stddev", 1e-40 }, { stats0, "stddev", 0 } };
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		root = with_real(x, good[i].at, good[i].key, good[i].v);
		/* another scale maps the intervals' ranks onto other bounds: the
		 * reader would hold them to it (json_reader_checks_confidence) */
		if (strcmp(good[i].key, "ns_per_unit") == 0)
			json_object_del(metric0(root), "confidence");
		unhook_stats(metric0(root)); /* the number alone is under test */
		ck_assert_msg(read_json_tree(x, root, err, sizeof err) == 0, "%s %g: %s",
			      good[i].key, good[i].v, err);
		json_decref(root);
	}
	fx_free(x);
}
END_TEST

/* Arrays longer than rtconform writes are refused before anything is
 * allocated for them: the loops over them in the reports stay bounded. */
START_TEST(json_reader_refuses_long_arrays)
{
	struct fx *x = fx_new();
	json_t *root = fixture_json(x);
	json_t *lim = json_object_get(req0(root), "limits");
	while (json_array_size(lim) <= REQ_MAX_LIMITS)
		json_array_append(lim, json_array_get(lim, 0));
	expect_refused(x, root, "requirements[0].limits", "more than the 32 rtconform writes");
	root = fixture_json(x);
	json_object_set_new(req0(root), "runs", json_integer(RTC_MAX_RUNS + 1));
	expect_refused(x, root, "requirements[0].runs", "from 0 to 1000");
	root = fixture_json(x);
	json_t *bk = json_object_get(json_object_get(metric0(root), "histogram"), "buckets");
	json_array_clear(bk);
	for (int i = 0; i <= (int)READ_MAX_BUCKETS; i++)
		json_array_append_new(bk, json_pack("[iii]", 2 * i, 2 * i, 1));
	expect_refused(x, root, "metrics[0].histogram.buckets", "more than the 8192");
	root = fixture_json(x);
	json_t *params = json_object_get(req0(root), "params");
	for (int i = 0; i <= REQ_MAX_PARAMS; i++) {
		char k[16];
		snprintf(k, sizeof k, "p%d", i);
		json_object_set_new(params, k, json_string("1"));
	}
	expect_refused(x, root, "requirements[0].params", "more than the 16");
	fx_free(x);
}
END_TEST

/* A file of tiny elements would take some 70 times its size as a tree:
 * refused once past the budget, naming it, not "not JSON"; a byte order
 * mark before a results.json is skipped. */
START_TEST(json_reader_memory_budget)
{
	struct fx *x = fx_new();
	char err[600];
	size_t n = 1u << 20; /* 3 MiB of {} */
	char *text = malloc(3 * n + 16);
	ck_assert_ptr_nonnull(text);
	char *p = text + sprintf(text, "{\"files\":[");
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, i ? ",{}" : "{}");
	strcpy(p, "]}");
	ck_assert_int_eq(read_json_text(x, text, err, sizeof err), -EFBIG);
	ck_assert_msg(strstr(err, "reading it needs more than") && strstr(err, "MiB") &&
		      !strstr(err, "not JSON"), "%s", err);
	free(text);

	json_t *root = fixture_json(x);
	char *doc = json_dumps(root, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)), *bom;
	ck_assert_int_ge(asprintf(&bom, "\xef\xbb\xbf%s", doc), 0);
	ck_assert_msg(read_json_text(x, bom, err, sizeof err) == 0, "with a BOM: %s", err);
	free(bom);
	free(doc);
	json_decref(root);
	fx_free(x);
}
END_TEST

/* text read and written again as results.json (malloc'd), or NULL when
 * refused (err says why). */
static char *reread(struct fx *x, const char *text, char *err, size_t errlen)
{
	char p[256];
	struct report_view v;
	if (read_text_view(x, text, &v, p, err, errlen) != 0)
		return NULL;
	size_t len;
	char why[200];
	char *out = report_json_render(&v, &len, why, sizeof why);
	ck_assert_msg(out != NULL, "%s", why);
	report_view_free(&v);
	return out;
}

/* text with the first `from` after `after` replaced by `to` (malloc'd). */
static char *edit(const char *text, const char *after, const char *from, const char *to)
{
	const char *a = strstr(text, after);
	ck_assert_ptr_nonnull(a);
	const char *at = strstr(a, from);
	ck_assert_ptr_nonnull(at);
	char *out;
	ck_assert_int_ge(asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)),
			 0);
	return out;
}

/* A fault at `after`..`from` is placed where jansson places it in the
 * whole text: "in.json:LINE:COLUMN: not JSON". */
static void expect_fault_at(struct fx *x, const char *text, const char *after, const char *from,
			    const char *to)
{
	char err[600], want[64];
	char *bad = edit(text, after, from, to);
	json_error_t jerr;
	ck_assert_ptr_null(json_loads(bad, 0, &jerr));
	snprintf(want, sizeof want, "in.json:%d:%d: not JSON", jerr.line, jerr.column);
	ck_assert_int_eq(read_json_text(x, bad, err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, want), "'%s' lacks '%s'", err, want);
	free(bad);
}

/* The reader takes each requirement's text alone (json_split.h). What it
 * reads, and where it says a fault is, is what a parse of the whole text
 * gives, indented or compact; a key spelled with escapes reads the same;
 * nothing a file holds passes for a requirement it did not write there. */
START_TEST(json_reader_splits_requirements)
{
	struct fx *x = fx_new();
	char err[600];
	json_t *root = fixture_json(x);
	char *ind = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					     JSON_REAL_PRECISION(17));
	char *tight = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER |
					       JSON_REAL_PRECISION(17));
	char *a = reread(x, ind, err, sizeof err), *b = reread(x, tight, err, sizeof err);
	ck_assert_msg(a && b, "%s", err);
	ck_assert_str_eq(a, b);
	char *esc = edit(ind, "", "\"files\"", "\"\\u0066iles\"");
	char *c = reread(x, esc, err, sizeof err);
	ck_assert_msg(c, "%s", err);
	ck_assert_str_eq(a, c);
	free(c);
	free(esc);
	/* faults inside the second requirement, and in the text after one */
	expect_fault_at(x, ind, "\"requirements\"", "\"probe\": ", "\"probe\": tru");
	expect_fault_at(x, tight, "\"requirements\"", "\"probe\":", "\"probe\":tru");
	expect_fault_at(x, ind, "\"id\": \"TMR\"", "\"probe\": ", "\"probe\": [}");
	expect_fault_at(x, ind, "\"requirements\"", "\"sha256\"", "\"sha256\" \"x\",");
	/* two requirements with no comma, or a number glued to one */
	expect_fault_at(x, tight, "\"requirements\"", "},{\"id\"", "}{\"id\"");
	expect_fault_at(x, tight, "\"requirements\"", "},{\"id\"", "}.5,{\"id\"");
	expect_fault_at(x, tight, "\"requirements\"", "},{\"id\"", "},-{\"id\"");
	/* nesting: refused where a whole-file parse refuses it (jansson's
	 * depth limit counts from the top of the file, not the requirement) */
	for (int n = JSON_PARSER_MAX_DEPTH - 6; n <= JSON_PARSER_MAX_DEPTH - 3; n++) {
		char *deep = malloc((size_t)n * 2 + 32);
		ck_assert_ptr_nonnull(deep);
		char *q = deep + sprintf(deep, "\"zz\": ");
		memset(q, '[', (size_t)n);
		memset(q + n, ']', (size_t)n);
		strcpy(q + 2 * n, ", \"probe\": ");
		json_error_t jerr;
		char *bad = edit(ind, "\"requirements\"", "\"probe\": ", deep);
		json_t *whole = json_loads(bad, JSON_REJECT_DUPLICATES, &jerr);
		if (whole) {
			char *ok = reread(x, bad, err, sizeof err);
			ck_assert_msg(ok != NULL, "depth %d: %s", n, err);
			free(ok);
			json_decref(whole);
		} else {
			expect_fault_at(x, ind, "\"requirements\"", "\"probe\": ", deep);
		}
		free(bad);
		free(deep);
	}
	/* the splitter's own stand-in, [N], written by the file is none */
	json_t *reqs = json_object_get(json_array_get(json_object_get(root, "files"), 0),
				       "requirements");
	json_array_set_new(reqs, 1, json_pack("[i]", 0));
	expect_refused(x, json_deep_copy(root), "requirements[1]", "expected an object");
	json_array_set_new(reqs, 1, json_pack("[i]", 1));
	expect_refused(x, json_deep_copy(root), "requirements[1]", "expected an object");
	json_array_set_new(reqs, 0, json_integer(0));
	expect_refused(x, root, "requirements[0]", "expected an object");
	free(a);
	free(b);
	free(ind);
	free(tight);
	fx_free(x);
}
END_TEST

START_TEST(json_reader_refuses_counts)
{
	struct fx *x = fx_new();
	char err[600];
	json_t *root;
	/* a count metric: a kind that is none, a run's count that is not one */
	json_t *pf;
	root = fixture_json(x);
	pf = json_array_get(json_object_get(req0(root), "metrics"), 2);
	json_object_set_new(pf, "kind", json_string("gauge"));
	expect_refused(x, root, "metrics[2].kind", "expected \"duration\" or \"count\"");
	root = fixture_json(x);
	pf = json_array_get(json_object_get(req0(root), "metrics"), 2);
	json_array_set_new(json_object_get(pf, "runs"), 1, json_real(2.5));
	expect_refused(x, root, "metrics[2].runs[1]", "expected an integer");
	root = fixture_json(x);
	pf = json_array_get(json_object_get(req0(root), "metrics"), 2);
	json_object_del(json_object_get(pf, "statistics"), "total");
	expect_refused(x, root, "metrics[2].statistics.total", "missing");
	root = fixture_json(x);
	json_object_set_new(json_array_get(json_object_get(req0(root), "limits"), 3), "unit",
			    json_string("faults"));
	expect_refused(x, root, "limits[3].unit", "expected \"ns\", \"cycles\" or null");

	/* schema 2 needs a metric's kind; schema 1 has none (durations only) */
	root = fixture_json(x);
	json_object_del(metric0(root), "kind");
	expect_refused(x, root, "metrics[0].kind", "missing");
	root = fixture_json(x);
	json_object_set_new(root, "schema", json_string("urn:rtconform:results:1"));
	size_t f, i, k;
	json_t *fo, *r, *m;
	json_array_foreach(json_object_get(root, "files"), f, fo)
		json_array_foreach(json_object_get(fo, "requirements"), i, r) {
			json_t *ms = json_object_get(r, "metrics"), *ls = json_object_get(r, "limits");
			while (json_array_size(ms) > 2)
				json_array_remove(ms, 2);
			json_array_foreach(ms, k, m)
				json_object_del(m, "kind");
			for (k = json_array_size(ls); k-- > 0;)
				if (json_is_null(json_object_get(json_array_get(ls, k), "unit")))
					json_array_remove(ls, k);
		}
	ck_assert_msg(read_json_tree(x, root, err, sizeof err) == 0, "schema 1: %s", err);
	json_decref(root);
	fx_free(x);
}
END_TEST

/* ---- verdicts held to their figures (reports/read/figures.c) ---------- */

/* Requirement r of file f, its limit l, and set ("statistics_ns", ...) of
 * its metric m. */
static json_t *req_at(json_t *root, size_t f, size_t r)
{
	return json_array_get(json_object_get(json_array_get(json_object_get(root, "files"), f),
					      "requirements"), r);
}

static json_t *limit_at(json_t *root, size_t r, size_t l)
{
	return json_array_get(json_object_get(req_at(root, 0, r), "limits"), l);
}

static json_t *stats_at(json_t *root, size_t r, size_t m, const char *set)
{
	return json_object_get(json_array_get(json_object_get(req_at(root, 0, r), "metrics"), m),
			       set);
}

static double num_at(json_t *obj, const char *key)
{
	ck_assert_msg(json_is_number(json_object_get(obj, key)), "%s", key);
	return json_number_value(json_object_get(obj, key));
}

static void set_str(json_t *obj, const char *key, const char *v)
{
	json_object_set_new(obj, key, json_string(v));
}

static void expect_read(struct fx *x, json_t *root, const char *what)
{
	char err[600];
	ck_assert_msg(read_json_tree(x, root, err, sizeof err) == 0, "%s: %s", what, err);
	json_decref(root);
}

/* totals passed, failures, errors and skipped set to p, f, e, s (the
 * fixture's 2, 1, 2, 1), so that only the rule under test refuses */
static void set_totals(json_t *root, int p, int f, int e, int s)
{
	json_t *t = json_object_get(root, "totals");
	json_object_set_new(t, "passed", json_integer(p));
	json_object_set_new(t, "failures", json_integer(f));
	json_object_set_new(t, "errors", json_integer(e));
	json_object_set_new(t, "skipped", json_integer(s));
}

/* Each limit's verdict is the one limit_holds gives its measured value and
 * bounds (a value at its bound passes, ns, cycles or a count alike), error
 * without a measured value, the requirement's own when that is skipped
 * (an error requirement's limits may also be "error", as older files
 * have them); and a skipped requirement has no measured value. The fixture:
 * SEM-RT (fail) mean 748.25 <= 50 us, max 996.5 > 800 ns, wakeup min 100 >=
 * 50 ns, page-faults total 12 > 0; SEM-OK (pass) mean 748.25 <= 50 us, p99
 * 1983 <= 4000 cycles, involuntary-switches max 1 <= 2; TMR error. */
START_TEST(json_reader_rejudges_limits)
{
	struct fx *x = fx_new();
	json_t *root;
	/* exactly at the bound: pass */
	static const struct {
		size_t r, l;
		const char *key;
		double v;
	} at_bound[] = { { 1, 0, "max", 748.25 }, { 0, 2, "min", 100 }, { 1, 1, "max", 1983 } };
	for (size_t i = 0; i < sizeof at_bound / sizeof at_bound[0]; i++) {
		root = fixture_json(x);
		json_object_set_new(limit_at(root, at_bound[i].r, at_bound[i].l), at_bound[i].key,
				    json_real(at_bound[i].v));
		expect_read(x, root, at_bound[i].key);
	}
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 2), "max", json_integer(1));
	expect_read(x, root, "a count at its max");

	/* just past it, kept "pass"; within it, kept "fail" */
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 0), "max", json_real(748.2));
	expect_refused(x, root, "files[0].requirements[1].limits[0].verdict",
		       "\"pass\", but measured 748.25 is above max 748.2");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 0, 2), "min", json_real(100.5));
	expect_refused(x, root, "requirements[0].limits[2].verdict",
		       "\"pass\", but measured 100 is below min 100.5");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 1), "max", json_real(1982));
	expect_refused(x, root, "requirements[1].limits[1].verdict", "above max 1982");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 2), "max", json_integer(0));
	expect_refused(x, root, "requirements[1].limits[2].verdict", "measured 1 is above max 0");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 0, 1), "max", json_real(996.5));
	expect_refused(x, root, "requirements[0].limits[1].verdict",
		       "\"fail\", but measured 996.5 is within max 996.5");

	/* a statistic that could not be computed: "error", and so is the
	 * requirement, whose other limits keep their measured values */
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 0), "measured", json_null());
	expect_refused(x, root, "requirements[1].limits[0].verdict",
		       "\"pass\", but measured is null");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 0), "measured", json_null());
	set_str(req_at(root, 0, 1), "verdict", "error");
	for (size_t l = 0; l < 3; l++)
		set_str(limit_at(root, 1, l), "verdict", "error");
	set_totals(root, 1, 1, 3, 1);
	expect_read(x, root, "an error requirement");

	/* in a requirement that is an error each limit keeps its own
	 * verdict (issue 24 review, A): one not computed is an error, one
	 * that held a pass (an older file's "error" for it is read too) */
	root = fixture_json(x);
	set_str(limit_at(root, 2, 0), "verdict", "pass");
	expect_refused(x, root, "requirements[2].limits[0].verdict",
		       "\"pass\", but measured is null");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 0), "measured", json_null());
	set_str(limit_at(root, 1, 0), "verdict", "error");
	set_str(req_at(root, 0, 1), "verdict", "error");
	set_totals(root, 1, 1, 3, 1);
	expect_read(x, root, "an error requirement whose other limits held");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 0), "measured", json_null());
	set_str(limit_at(root, 1, 0), "verdict", "error");
	set_str(req_at(root, 0, 1), "verdict", "error");
	json_object_set_new(limit_at(root, 1, 1), "max", json_real(1982));
	set_totals(root, 1, 1, 3, 1);
	expect_refused(x, root, "requirements[1].limits[1].verdict", "above max 1982");
	/* a skipped requirement gives each limit its verdict */
	root = fixture_json(x);
	set_str(req_at(root, 0, 1), "verdict", "skipped");
	set_totals(root, 1, 1, 2, 2);
	expect_refused(x, root, "requirements[1].limits[0].verdict",
		       "\"pass\", but the requirement is \"skipped\"");
	root = fixture_json(x);
	set_str(req_at(root, 0, 1), "verdict", "skipped");
	for (size_t l = 0; l < 3; l++)
		set_str(limit_at(root, 1, l), "verdict", "skipped");
	set_totals(root, 1, 1, 2, 2);
	json_t *kept = json_deep_copy(root);
	expect_refused(x, root, "requirements[1].limits[0].measured",
		       "748.25, but the requirement was skipped");
	for (size_t l = 0; l < 3; l++)
		json_object_set_new(limit_at(kept, 1, l), "measured", json_null());
	expect_read(x, kept, "a skipped requirement");
	fx_free(x);
}
END_TEST

/* A requirement judged on its limits has the verdict verdict_of_limits
 * gives: fail by one failed limit (whatever the others), else error by one
 * that could not be evaluated, else pass. */
START_TEST(json_reader_combines_limits)
{
	struct fx *x = fx_new();
	json_t *root = fixture_json(x);
	set_str(req_at(root, 0, 1), "verdict", "fail");
	set_totals(root, 1, 2, 2, 1);
	expect_refused(x, root, "files[0].requirements[1].verdict",
		       "\"fail\", but none of its 3 limits failed");
	root = fixture_json(x);
	set_str(req_at(root, 0, 0), "verdict", "pass");
	set_totals(root, 3, 0, 2, 1);
	expect_refused(x, root, "files[0].requirements[0].verdict",
		       "\"pass\", but limits[1] is \"fail\", which makes the requirement \"fail\"");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 1, 0), "measured", json_null());
	set_str(limit_at(root, 1, 0), "verdict", "error");
	expect_refused(x, root, "files[0].requirements[1].verdict",
		       "limits[0] is \"error\", which makes the requirement \"error\"");
	/* a failed limit outranks one that could not be computed: the
	 * requirement fails, and that limit alone says error */
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 0, 0), "measured", json_null());
	set_str(limit_at(root, 0, 0), "verdict", "error");
	expect_read(x, root, "SEM-RT failed by limits[1], limits[0] not computed");
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 0, 0), "measured", json_null());
	set_str(limit_at(root, 0, 0), "verdict", "error");
	set_str(req_at(root, 0, 0), "verdict", "error");
	set_totals(root, 2, 0, 3, 1);
	expect_read(x, root, "an error requirement keeps its failed limit's own verdict");
	/* one failed limit of four is enough */
	root = fixture_json(x);
	json_object_set_new(limit_at(root, 0, 1), "max", json_real(1000));
	set_str(limit_at(root, 0, 1), "verdict", "pass");
	expect_read(x, root, "SEM-RT failing by its count alone");
	fx_free(x);
}
END_TEST

/* "selected": false marks a requirement run --only left out, which is
 * skipped; anything else, or a value not a boolean, is refused; absent
 * (older files) reads as selected. */
START_TEST(json_reader_selected)
{
	struct fx *x = fx_new();
	json_t *root = fixture_json(x);
	ck_assert_str_eq(json_string_value(json_object_get(req_at(root, 0, 3), "verdict")),
			 "skipped");
	json_object_set_new(req_at(root, 0, 3), "selected", json_false());
	expect_read(x, root, "a skipped requirement not selected");
	root = fixture_json(x);
	json_object_set_new(req_at(root, 0, 0), "selected", json_false());
	expect_refused(x, root, "files[0].requirements[0].selected",
		       "false, but the verdict is \"fail\"");
	root = fixture_json(x);
	json_object_set_new(req_at(root, 0, 3), "selected", json_string("no"));
	expect_refused(x, root, "files[0].requirements[3].selected", "expected true or false");
	root = fixture_json(x);
	json_object_del(req_at(root, 0, 0), "selected");
	expect_read(x, root, "a file without \"selected\"");
	fx_free(x);
}
END_TEST

/* The statistics of a sample set rise: min <= p50 <= ... <= max and min <=
 * mean <= max (a count's min <= mean <= max <= total, a CPU's series too),
 * equality and a rounding's slack allowed; and a limit's measured value is
 * the statistic it names where the file stores it. */
START_TEST(json_reader_orders_statistics)
{
	struct fx *x = fx_new();
	json_t *root = fixture_json(x);
	unhook_all(root);
	json_t *st = stats_at(root, 0, 0, "statistics_ns");
	json_object_set_new(st, "p50", json_real(num_at(st, "p90")));
	/* its interval no longer holds it: this checks the order alone */
	json_object_set_new(stats_at(root, 0, 0, "confidence"), "p50", json_null());
	expect_read(x, root, "p50 == p90");
	root = fixture_json(x); unhook_all(root);
	st = stats_at(root, 0, 0, "statistics_ns");
	json_object_set_new(st, "p50", json_real(num_at(st, "p90") * (1 + 1e-6)));
	expect_refused(x, root, "requirements[0].metrics[0].statistics_ns.p50", "above p90");
	root = fixture_json(x); unhook_all(root);
	st = stats_at(root, 0, 1, "statistics_ns");
	json_object_set_new(st, "mean", json_real(num_at(st, "max") * (1 + 1e-12)));
	/* its one run with samples holds them all: the same mean (figures_runs.c) */
	json_object_set_new(json_array_get(stats_at(root, 0, 1, "runs"), 0), "mean_ns",
			    json_real(num_at(st, "mean")));
	expect_read(x, root, "a mean a rounding above the max");
	root = fixture_json(x); unhook_all(root);
	st = stats_at(root, 0, 1, "statistics_ns");
	json_object_set_new(st, "mean", json_real(num_at(st, "max") * (1 + 1e-6)));
	expect_refused(x, root, "requirements[0].metrics[1].statistics_ns.mean", "above max");
	root = fixture_json(x); unhook_all(root);
	st = stats_at(root, 1, 1, "statistics_ns");
	json_object_set_new(st, "min", json_real(num_at(st, "mean") + 1));
	expect_refused(x, root, "requirements[1].metrics[1].statistics_ns.min", "above mean");
	root = fixture_json(x); unhook_all(root);
	st = stats_at(root, 0, 0, "statistics_cycles");
	json_object_set_new(st, "p99", json_real(num_at(st, "max") + 1));
	expect_refused(x, root, "metrics[0].statistics_cycles.p99", "above max");
	root = fixture_json(x); unhook_all(root);
	json_object_set_new(stats_at(root, 0, 2, "statistics"), "min", json_integer(7));
	expect_refused(x, root, "requirements[0].metrics[2].statistics.min", "7, above mean 3");
	root = fixture_json(x); unhook_all(root);
	json_t *s0 = json_array_get(json_object_get(req_at(root, 1, 0), "per_cpu"), 0);
	json_object_set_new(s0, "min_ns", json_real(num_at(s0, "max_ns") + 1));
	expect_refused(x, root, "files[1].requirements[0].per_cpu[0].min_ns", "above");

	/* measured against the stored statistic: ns, cycles, a count */
	root = fixture_json(x); unhook_all(root);
	json_object_set_new(limit_at(root, 0, 0), "measured", json_real(748.25 * (1 + 1e-12)));
	expect_read(x, root, "measured a rounding off");
	root = fixture_json(x); unhook_all(root);
	json_object_set_new(limit_at(root, 0, 0), "measured", json_real(748.25 * 1.5));
	expect_refused(x, root, "requirements[0].limits[0].measured",
		       "1122.375, but metrics[0].statistics_ns.mean is 748.25");
	root = fixture_json(x); unhook_all(root);
	json_object_set_new(limit_at(root, 1, 1), "measured", json_real(1990));
	expect_refused(x, root, "requirements[1].limits[1].measured",
		       "metrics[0].statistics_cycles.p99 is 1983");
	root = fixture_json(x); unhook_all(root);
	json_object_set_new(limit_at(root, 1, 2), "measured", json_integer(2));
	expect_refused(x, root, "requirements[1].limits[2].measured",
		       "metrics[4].statistics.max is 1");
	fx_free(x);
}
END_TEST

/* Run k of metric m of requirement r (file 0). */
static json_t *run_at(json_t *root, size_t r, size_t m, size_t k)
{
	return json_array_get(stats_at(root, r, m, "runs"), k);
}

/* The figures a file states twice agree (figures_runs.c): a run's samples,
 * mean and max against its metric's count, mean, min and max; a run figure
 * a rounding off still reads. The fixture's per-op: 4 runs of 1000 samples,
 * run k's mean 747.5 + k / 2 ns and max 995 + k / 2 ns. */
START_TEST(json_reader_holds_runs_to_totals)
{
	struct fx *x = fx_new();
	json_t *root = fixture_json(x);
	json_object_set_new(run_at(root, 0, 0, 3), "max_ns", json_real(2000));
	expect_refused(x, root, "requirements[0].metrics[0].runs[3].max_ns",
		       "2000 (2 us) is above the metric's max 996.5");
	root = fixture_json(x);
	json_object_set_new(run_at(root, 0, 0, 1), "samples", json_integer(999));
	expect_refused(x, root, "requirements[0].metrics[0].runs",
		       "its runs hold 3999 samples (metrics[0].runs[k].samples), but "
		       "metrics[0].count is 4000");
	root = fixture_json(x);
	json_object_set_new(run_at(root, 0, 0, 0), "mean_ns", json_real(-747.5));
	expect_refused(x, root, "requirements[0].metrics[0].runs[0].mean_ns",
		       "-747.5 (-747.5 ns) is below zero");
	root = fixture_json(x);
	json_object_set_new(run_at(root, 0, 0, 0), "mean_ns", json_real(747.5 * 1.01));
	expect_refused(x, root, "requirements[0].metrics[0].statistics_ns.mean",
		       "but its runs' mean_ns weighted by their samples give");
	/* the candidate: its own max far above its runs' */
	root = fixture_json(x);
	json_object_set_new(stats_at(root, 0, 0, "statistics_ns"), "max", json_real(152e6));
	expect_refused(x, root, "requirements[0].metrics[0].statistics_ns.max",
		       "152000000 (152 ms), but the largest of its runs' max_ns "
		       "(metrics[0].runs[3].max_ns) is 996.5");
	/* within rounding: a run max an ulp-ish above the max, a mean 1e-13 off */
	root = fixture_json(x);
	json_object_set_new(run_at(root, 0, 0, 3), "max_ns", json_real(996.5 * (1 + 1e-12)));
	json_object_set_new(run_at(root, 0, 0, 0), "mean_ns", json_real(747.5 * (1 + 1e-13)));
	expect_read(x, root, "run figures a rounding off");
	fx_free(x);
}
END_TEST

/* The base of the hostile corpus reads: each refusal of its rows
 * (tests/fixtures/hostile/cases.tsv, checked with their messages by
 * cli.untrusted) is for the field the row changed, not something else. */
START_TEST(json_reader_reads_corpus_base)
{
	char path[512], err[600] = "";
	struct report_view v;
	snprintf(path, sizeof path, "%s/tests/fixtures/results/pass.json", RTC_SOURCE_DIR);
	ck_assert_msg(report_view_from_json(path, &v, err, sizeof err) == 0, "%s", err);
	report_view_free(&v);
}
END_TEST

/* `rtconform report results.json`: the four reports as `run` writes them,
 * and a refused file makes exit status 2 and writes nothing. */
START_TEST(archive_through_the_command)
{
	struct fx *x = fx_new();
	make_odd(x);
	static const struct {
		enum report_kind kind;
		const char *name, *option;
	} out[] = { { REPORT_JUNIT, "junit.xml", "--junit" },
		    { REPORT_SUMMARY, "summary.txt", "--summary" },
		    { REPORT_HTML, "report.html", "--html" },
		    { REPORT_JSON, "results.json", "--json" } };
	char orig[4][256], again[4][256], cmd[2048];
	for (int k = 0; k < 4; k++) {
		fx_write(x, out[k].kind, out[k].name, orig[k], sizeof orig[k]);
		char name[64];
		snprintf(name, sizeof name, "again-%s", out[k].name);
		fx_path(x, name, again[k], sizeof again[k]);
	}
	snprintf(cmd, sizeof cmd,
		 "%s/rtconform report '%s' --junit '%s' --summary '%s' --html '%s' --json '%s'"
		 " >/dev/null", RTC_BINARY_DIR, orig[3], again[0], again[1], again[2], again[3]);
	ck_assert_int_eq(system(cmd), 0);
	for (int k = 0; k < 4; k++) {
		size_t la, lb;
		char *a = tu_slurp(orig[k], &la), *b = tu_slurp(again[k], &lb);
		fx_same_bytes(a, la, b, lb, out[k].name);
		free(a);
		free(b);
		unlink(again[k]);
	}
	/* refused: 2, the reason, nothing written */
	json_t *root = fixture_json(x);
	json_object_del(metric0(root), "count");
	char bad[256], msg[256];
	fx_path(x, "bad.json", bad, sizeof bad);
	fx_path(x, "msg.txt", msg, sizeof msg);
	ck_assert_int_eq(json_dump_file(root, bad, 0), 0);
	json_decref(root);
	snprintf(cmd, sizeof cmd, "%s/rtconform report '%s' --html '%s' 2>'%s'", RTC_BINARY_DIR,
		 bad, again[2], msg);
	int st = system(cmd);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	char *text = tu_slurp(msg, NULL);
	ck_assert_msg(strstr(text, "bad.json") && strstr(text, "metrics[0].count: missing"), "%s",
		      text);
	free(text);
	ck_assert_int_eq(access(again[2], F_OK), -1);
	fx_free(x);
}
END_TEST

/* ---- confidence intervals (issue 26) ------------------------------------ */

/* A result of fx_probe whose per-op holds the samples 1..n once each (2 ns
 * a unit), whose wakeup holds 1000 samples all of value 5000 (1 ns a unit),
 * and one per-CPU series of per-op with 1..1000. */
static void ci_result(struct req_result *r, struct requirement *q, uint64_t n)
{
	memset(r, 0, sizeof *r);
	memset(q, 0, sizeof *q);
	fx_req(q, "CI", NULL);
	r->req = q;
	r->probe = &fx_probe;
	r->verdict = VERDICT_PASS;
	r->res = result_alloc_for(&fx_probe.decl, 1, &r->res_bytes);
	ck_assert_ptr_nonnull(r->res);
	struct metric_data *m0 = result_metric(r->res, 0), *m1 = result_metric(r->res, 1);
	struct metric_data *sm = result_series(r->res, 0);
	m0->ns_per_unit = 2.0;
	m1->ns_per_unit = sm->ns_per_unit = 1.0;
	for (uint64_t v = 1; v <= n; v++) {
		hist_record(&m0->hist, v);
		m0->runs[0].count++;
		m0->runs[0].sum += v;
	}
	for (uint64_t v = 1; v <= 1000; v++) {
		hist_record(&m1->hist, 5000);
		m1->runs[0].count++;
		m1->runs[0].sum += 5000;
		hist_record(&sm->hist, v);
		sm->runs[0].count++;
		sm->runs[0].sum += v;
	}
	r->res->series_cpu[0] = 2;
	r->res->nseries = 1;
	r->res->runs_done = 1;
	r->res->state = WS_DONE;
}

static void expect_ci(const struct rv_ci *c, uint64_t n, uint64_t lo_rank, uint64_t hi_rank,
		      double lo_ns, double hi_ns, double coverage, bool lo_bucket, bool hi_bucket)
{
	ck_assert_msg(c->have, "no interval");
	ck_assert_double_eq(c->level, 0.95);
	ck_assert_uint_eq(c->n, n);
	ck_assert_uint_eq(c->lo_rank, lo_rank);
	ck_assert_uint_eq(c->hi_rank, hi_rank);
	ck_assert(c->has_lo && c->has_hi);
	ck_assert_double_eq(c->lo_ns, lo_ns);
	ck_assert_double_eq(c->hi_ns, hi_ns);
	ck_assert_double_eq_tol(c->coverage, coverage, 1e-12);
	ck_assert(c->lo_bucket == lo_bucket && c->hi_bucket == hi_bucket);
}

static json_t *ci_json(const struct rv_req *vr, size_t metric, const char *stat)
{
	char why[200];
	size_t len;
	char *text = report_json_requirement(vr, &len, why, sizeof why);
	ck_assert_msg(text != NULL, "%s", why);
	json_t *root = json_loads(text, 0, NULL);
	free(text);
	ck_assert_ptr_nonnull(root);
	json_t *conf = json_object_get(json_array_get(json_object_get(root, "metrics"), metric),
				       "confidence");
	ck_assert_ptr_nonnull(conf);
	ck_assert_double_eq(json_real_value(json_object_get(conf, "level")), 0.95);
	json_t *c = json_incref(json_object_get(conf, stat));
	json_decref(root);
	return c;
}

/* Known answers, ranks from the exact binomial sums (Bin(n, q) CDF, by
 * hand / exact fractions): the median of 20 samples at 95 % is [X(6),
 * X(15)] with coverage 1 - 2 * 21700 / 2^20; of 100, [X(40), X(61)]
 * (0.9648); p90 of 100, [X(84), X(96)] (0.9557); p99 of 1000, [X(983),
 * X(997)] (0.97609). Samples 1..n are their own ranks, exact in buckets
 * below 256 (2 ns a unit); from 512 a bucket is 4 wide, so X(983) = 983
 * lies in [980, 983] and X(997) in [996, 999]. */
START_TEST(json_confidence_known_answers)
{
	struct req_result r;
	struct requirement q;
	struct rv_req vr;
	ci_result(&r, &q, 20);
	ck_assert_int_eq(report_view_req_from_result(&r, &vr), 0);
	expect_ci(&vr.metrics[0].ci[RV_P50], 20, 6, 15, 12.0, 30.0, 1.0 - 43400.0 / 1048576.0,
		  false, false);
	ck_assert(!vr.metrics[0].ci[RV_P90].have); /* p90 needs 100 samples: none */
	ck_assert(!vr.metrics[0].ci[RV_MIN].have);
	json_t *c = ci_json(&vr, 0, "p50");
	ck_assert_double_eq(json_real_value(json_object_get(c, "lo_ns")), 12.0);
	ck_assert_double_eq(json_real_value(json_object_get(c, "hi_ns")), 30.0);
	ck_assert_int_eq(json_integer_value(json_object_get(c, "lo_rank")), 6);
	ck_assert_int_eq(json_integer_value(json_object_get(c, "hi_rank")), 15);
	ck_assert(json_is_false(json_object_get(c, "lo_bucket_limited")));
	ck_assert_ptr_null(json_object_get(c, "level")); /* the object's own */
	json_decref(c);
	c = ci_json(&vr, 0, "p90");
	ck_assert(json_is_null(c));
	json_decref(c);
	report_view_req_free(&vr);
	req_result_free(&r);

	ci_result(&r, &q, 100);
	ck_assert_int_eq(report_view_req_from_result(&r, &vr), 0);
	expect_ci(&vr.metrics[0].ci[RV_P50], 100, 40, 61, 80.0, 122.0, 0.9647997997822951,
		  false, false);
	expect_ci(&vr.metrics[0].ci[RV_P90], 100, 84, 96, 168.0, 192.0, 0.955690107191223,
		  false, false);
	/* all 1000 samples of wakeup are 5000: every bound is the estimate's
	 * own bucket, clamped to the exact min and max */
	expect_ci(&vr.metrics[1].ci[RV_P99], 1000, 983, 997, 5000.0, 5000.0, 0.9760947634979771,
		  true, true);
	c = ci_json(&vr, 1, "p99");
	ck_assert(json_is_true(json_object_get(c, "lo_bucket_limited")));
	ck_assert(json_is_true(json_object_get(c, "hi_bucket_limited")));
	json_decref(c);
	/* the per-CPU series' p99 */
	ck_assert_uint_eq(vr.nseries, 1);
	expect_ci(&vr.series[0].p99_ci, 1000, 983, 997, 980.0, 999.0, 0.9760947634979771,
		  false, false);
	ck_assert_double_eq(vr.series[0].ci_level, 0.95);
	report_view_req_free(&vr);
	req_result_free(&r);

	/* a limit on p50 of per-op at confidence="99%": that interval is at
	 * 99 %, [X(37), X(64)] of 100 (coverage 0.99336), and results.json
	 * gives its level beside the metric's 0.95 */
	ci_result(&r, &q, 100);
	fx_limit(&q, "per-op", "p50", 1e9, 0, QTY_NS);
	q.limits[0].confidence = 0.99;
	ck_assert_int_eq(report_view_req_from_result(&r, &vr), 0);
	const struct rv_ci *c99 = &vr.metrics[0].ci[RV_P50];
	ck_assert_double_eq(c99->level, 0.99);
	ck_assert_uint_eq(c99->lo_rank, 37);
	ck_assert_uint_eq(c99->hi_rank, 64);
	ck_assert_double_eq(c99->lo_ns, 74.0);
	ck_assert_double_eq(c99->hi_ns, 128.0);
	ck_assert_double_eq_tol(c99->coverage, 0.9933628794840739, 1e-12);
	ck_assert_double_eq(vr.metrics[0].ci[RV_P90].level, 0.95);
	c = ci_json(&vr, 0, "p50");
	ck_assert_double_eq(json_real_value(json_object_get(c, "level")), 0.99);
	json_decref(c);
	report_view_req_free(&vr);
	req_result_free(&r);
}
END_TEST

static json_t *conf_at(json_t *root, size_t r, size_t m, const char *stat)
{
	json_t *c = stats_at(root, r, m, "confidence");
	return stat ? json_object_get(c, stat) : c;
}

/* A results.json's intervals are held to its figures: the ranks and
 * coverage are recomputed from the count and level, the bounds enclose the
 * estimate within min and max, a side is null exactly when its rank is
 * none; a file without them (written before) still reads. */
START_TEST(json_reader_checks_confidence)
{
	struct fx *x = fx_new();
	json_t *root = fixture_json(x), *c = conf_at(root, 0, 0, "p99");
	ck_assert_ptr_nonnull(c);
	json_int_t lo = json_integer_value(json_object_get(c, "lo_rank"));
	json_object_set_new(c, "lo_rank", json_integer(lo + 1));
	expect_refused(x, root, "metrics[0].confidence.p99.lo_rank", "at level 0.95 give");
	root = fixture_json(x);
	c = conf_at(root, 0, 0, "p99");
	json_object_set_new(c, "hi_ns", json_real(num_at(stats_at(root, 0, 0, "statistics_ns"),
							  "p99") - 1));
	expect_refused(x, root, "metrics[0].confidence.p99.hi_ns", "below the estimate p99");
	root = fixture_json(x);
	c = conf_at(root, 0, 0, "p50");
	json_object_set_new(c, "lo_ns", json_real(num_at(stats_at(root, 0, 0, "statistics_ns"),
							  "min") - 1));
	expect_refused(x, root, "metrics[0].confidence.p50.lo_ns", "below min");
	root = fixture_json(x);
	c = conf_at(root, 0, 0, "p90");
	json_object_set_new(c, "hi_ns", json_real(num_at(stats_at(root, 0, 0, "statistics_ns"),
							  "max") + 1));
	expect_refused(x, root, "metrics[0].confidence.p90.hi_ns", "above max");
	root = fixture_json(x);
	c = conf_at(root, 0, 0, "p90");
	json_object_set_new(c, "coverage", json_real(num_at(c, "coverage") + 1e-6));
	expect_refused(x, root, "metrics[0].confidence.p90.coverage", "cover");
	root = fixture_json(x);
	json_object_set_new(conf_at(root, 0, 0, NULL), "level", json_real(0.4));
	expect_refused(x, root, "metrics[0].confidence.level", "0.4");
	root = fixture_json(x);
	json_object_set_new(conf_at(root, 0, 0, NULL), "level", json_integer(1));
	expect_refused(x, root, "metrics[0].confidence.level", "not a level");
	root = fixture_json(x);
	/* another level with the 0.95 ranks: the ranks are refused */
	json_object_set_new(conf_at(root, 0, 0, "p99"), "level", json_real(0.99));
	expect_refused(x, root, "metrics[0].confidence.p99.lo_rank", "at level 0.99 give");
	/* a bound moved within [min, estimate]: not its rank's bucket edge */
	root = fixture_json(x);
	c = conf_at(root, 0, 0, "p99");
	json_object_set_new(c, "lo_ns", json_real((num_at(c, "lo_ns") +
						   num_at(stats_at(root, 0, 0, "statistics_ns"),
							  "p99")) / 2));
	expect_refused(x, root, "metrics[0].confidence.p99.lo_ns", "bucket edge");
	root = fixture_json(x);
	c = conf_at(root, 0, 0, "p50");
	json_object_set_new(c, "hi_bucket_limited",
			    json_boolean(!json_is_true(json_object_get(c, "hi_bucket_limited"))));
	expect_refused(x, root, "metrics[0].confidence.p50.hi_bucket_limited", "estimate's bucket");
	root = fixture_json(x);
	json_object_set_new(conf_at(root, 0, 0, "p99"), "lo_ns", json_null());
	expect_refused(x, root, "metrics[0].confidence.p99.lo_ns", "null, but lo_rank");
	root = fixture_json(x);
	json_object_set_new(conf_at(root, 0, 0, "p99"), "lo_bucket_limited", json_string("no"));
	expect_refused(x, root, "metrics[0].confidence.p99.lo_bucket_limited", "true or false");
	root = fixture_json(x);
	json_object_del(conf_at(root, 0, 0, "p99"), "coverage");
	expect_refused(x, root, "metrics[0].confidence.p99.coverage", "missing");
	root = fixture_json(x);
	json_object_set_new(stats_at(root, 0, 0, "statistics_ns"), "p99.9", json_null());
	json_object_set_new(conf_at(root, 0, 0, NULL), "p99.9",
			    json_deep_copy(conf_at(root, 0, 0, "p99")));
	expect_refused(x, root, "metrics[0].confidence.p99.9", "percentile that is null");
	/* more samples than a run gives an interval of */
	root = fixture_json(x);
	json_object_set_new(json_array_get(json_object_get(req_at(root, 0, 0), "metrics"), 0),
			    "count", json_integer(((json_int_t)1 << 40) + 1));
	expect_refused(x, root, "metrics[0].confidence.p50", "none above 2^40");
	/* what checking the intervals may cost: 7 intervals of 4000 and 20
	 * samples are some 390 units of sqrt(samples) */
	read_ci_work_set(300);
	expect_refused(x, fixture_json(x), ".confidence.", "the most the reader spends");
	read_ci_work_set(400);
	expect_read(x, fixture_json(x), "within the cost");
	read_ci_work_set(0);
	/* written before they were kept: no "confidence" at all */
	root = fixture_json(x);
	json_t *reqs = json_object_get(json_array_get(json_object_get(root, "files"), 0),
				       "requirements");
	for (size_t i = 0; i < json_array_size(reqs); i++) {
		json_t *ms = json_object_get(json_array_get(reqs, i), "metrics");
		for (size_t k = 0; k < json_array_size(ms); k++)
			json_object_del(json_array_get(ms, k), "confidence");
	}
	expect_read(x, root, "a file without confidence");
	fx_free(x);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tu_tcase(s, "core", 120);
	tcase_add_test(tc, json_statistics_equal_junit);
	tcase_add_test(tc, json_from_a_real_run);
	tcase_add_test(tc, json_unwritable);
	tcase_add_test(tc, archive_renders_every_report_again);
	tcase_add_test(tc, archive_keeps_doubles_exact);
	tcase_add_test(tc, archive_reals_shortest);
	tcase_add_test(tc, archive_integers_to_2_63);
	tcase_add_test(tc, archive_keeps_counts);
	tcase_add_test(tc, json_reader_refuses);
	tcase_add_test(tc, json_reader_refuses_counts);
	tcase_add_test(tc, json_reader_refuses_numbers);
	tcase_add_test(tc, json_reader_refuses_long_arrays);
	tcase_add_test(tc, json_reader_memory_budget);
	tcase_add_test(tc, json_reader_splits_requirements);
	tcase_add_test(tc, json_reader_rejudges_limits);
	tcase_add_test(tc, json_reader_combines_limits);
	tcase_add_test(tc, json_reader_selected);
	tcase_add_test(tc, json_reader_orders_statistics);
	tcase_add_test(tc, json_confidence_known_answers);
	tcase_add_test(tc, json_reader_checks_confidence);
	tcase_add_test(tc, json_reader_reads_corpus_base);
	tcase_add_test(tc, json_reader_holds_runs_to_totals);
	tcase_add_test(tc, archive_keeps_readiness);
	tcase_add_test(tc, archive_keeps_explanation);
	tcase_add_test(tc, json_reader_refuses_bad_explanation);
	tcase_add_test(tc, json_series_histograms);
	tcase_add_test(tc, archive_through_the_command);
	return s;
}

int main(void)
{
	return tu_run(json_suite());
}
