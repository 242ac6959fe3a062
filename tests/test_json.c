/* test_json.c - results.json parses with jansson, and every statistic in it
 * equals junit.xml's property for the same run, to the bit.
 *
 * Checked on the synthetic run of report_fixture.h and on a tiny real run of
 * the built rtconform (tests/fixtures/cli/pass.xml, a few hundred samples).
 */
#include "report_fixture.h"

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

static int checks;

/* A JSON number or null against a property: both absent, or both there and
 * equal as doubles (the property text parsed as strtod does). */
static void same_number(xmlDocPtr doc, int suite, const char *name, const json_t *j)
{
	char *p = prop(doc, suite, name);
	ck_assert_msg(j != NULL, "JSON lacks the member for %s", name);
	if (!p) {
		ck_assert_msg(json_is_null(j), "%s: absent in junit.xml, %g in results.json", name,
			      json_number_value(j));
	} else {
		ck_assert_msg(json_is_number(j), "%s: %s in junit.xml, not a number in JSON", name, p);
		double want = strtod(p, NULL);
		ck_assert_msg(json_number_value(j) == want, "%s: junit %s (%.17g), json %.17g", name,
			      p, want, json_number_value(j));
	}
	free(p);
	checks++;
}

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

static void compare_metric(xmlDocPtr doc, int suite, const char *id, const json_t *m)
{
	const char *name = json_string_value(json_object_get(m, "name"));
	char pn[300];
	ck_assert_ptr_nonnull(name);
	snprintf(pn, sizeof pn, "%s.%s.count", id, name);
	same_number(doc, suite, pn, json_object_get(m, "count"));
	snprintf(pn, sizeof pn, "%s.%s.overflow", id, name);
	same_number(doc, suite, pn, json_object_get(m, "overflow"));

	const json_t *ns = json_object_get(m, "statistics_ns");
	const json_t *cy = json_object_get(m, "statistics_cycles");
	ck_assert(json_is_object(ns));
	ck_assert_int_eq(json_object_size(ns), RV_NSTATS);
	const char *key;
	const json_t *val;
	json_object_foreach((json_t *)ns, key, val) {
		snprintf(pn, sizeof pn, "%s.%s.%s_ns", id, name, key);
		same_number(doc, suite, pn, val);
	}
	if (json_is_object(cy)) {
		json_object_foreach((json_t *)cy, key, val) {
			snprintf(pn, sizeof pn, "%s.%s.%s_cycles", id, name, key);
			same_number(doc, suite, pn, val);
		}
	} else {
		/* no cycles scale: no cycles property either */
		snprintf(pn, sizeof pn, "%s.%s.max_cycles", id, name);
		char *p = prop(doc, suite, pn);
		ck_assert_ptr_null(p);
	}

	/* the histogram holds every sample that is not an overflow */
	const json_t *buckets = json_object_get(json_object_get(m, "histogram"), "buckets");
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

static void compare_requirement(xmlDocPtr doc, int suite, const json_t *r)
{
	const char *id = json_string_value(json_object_get(r, "id"));
	char pn[300];
	ck_assert_ptr_nonnull(id);
	snprintf(pn, sizeof pn, "%s.verdict", id);
	same_string(doc, suite, pn, json_object_get(r, "verdict"));

	const json_t *limits = json_object_get(r, "limits");
	size_t i;
	const json_t *l;
	json_array_foreach((json_t *)limits, i, l) {
		const char *unit = json_string_value(json_object_get(l, "unit"));
		snprintf(pn, sizeof pn, "%s.limit.%zu.measured_%s", id, i + 1, unit);
		same_number(doc, suite, pn, json_object_get(l, "measured"));
		snprintf(pn, sizeof pn, "%s.limit.%zu.verdict", id, i + 1);
		same_string(doc, suite, pn, json_object_get(l, "verdict"));
		snprintf(pn, sizeof pn, "%s.limit.%zu.statistic", id, i + 1);
		same_string(doc, suite, pn, json_object_get(l, "statistic"));
	}

	if (!json_is_true(json_object_get(r, "measured"))) {
		snprintf(pn, sizeof pn, "%s.runs", id);
		char *p = prop(doc, suite, pn);
		ck_assert_msg(p == NULL, "%s not measured, yet junit.xml has %s", id, pn);
		ck_assert_int_eq(json_array_size(json_object_get(r, "metrics")), 0);
		return;
	}
	snprintf(pn, sizeof pn, "%s.runs", id);
	same_number(doc, suite, pn, json_object_get(r, "runs"));
	const json_t *batch = json_object_get(r, "batch");
	snprintf(pn, sizeof pn, "%s.batch.runs_mean_ns", id);
	same_number(doc, suite, pn, json_object_get(batch, "mean_ns"));
	snprintf(pn, sizeof pn, "%s.batch.runs_stddev_ns", id);
	same_number(doc, suite, pn, json_object_get(batch, "stddev_ns"));
	ck_assert_int_eq(json_array_size(json_object_get(batch, "per_run_ns")),
			 json_integer_value(json_object_get(r, "runs")));
	const json_t *m;
	json_array_foreach(json_object_get(r, "metrics"), i, m)
		compare_metric(doc, suite, id, m);
	const char *m0 = json_string_value(
		json_object_get(json_array_get(json_object_get(r, "metrics"), 0), "name"));
	json_array_foreach(json_object_get(r, "per_cpu"), i, m) {
		int cpu = (int)json_integer_value(json_object_get(m, "cpu"));
		static const char *const st[] = { "count", "min_ns", "mean_ns", "max_ns", "p99_ns" };
		for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) {
			snprintf(pn, sizeof pn, "%s.%s.cpu%d.%s", id, m0, cpu, st[k]);
			same_number(doc, suite, pn, json_object_get(m, st[k]));
		}
	}
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
			 "urn:rtconform:results:1");
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

	/* the environment: every entry is a property of every suite */
	const json_t *env = json_object_get(root, "environment");
	ck_assert(json_object_size(env) > 3);
	const char *key;
	const json_t *val;
	json_object_foreach((json_t *)env, key, val)
		same_string(doc, 1, key, val);

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
	char junit[256], json[256], err[512] = "";
	fx_path(x, "junit.xml", junit, sizeof junit);
	fx_path(x, "results.json", json, sizeof json);
	ck_assert_msg(report_write_junit(&x->run, junit, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(report_write_json(&x->run, json, err, sizeof err) == 0, "%s", err);
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
	json_t *b1 = json_array_get(json_object_get(json_array_get(json_object_get(root, "files"), 1),
						     "requirements"),
				    0);
	json_t *cpu3 = json_array_get(json_object_get(b1, "per_cpu"), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(cpu3, "cpu")), 3);
	ck_assert_double_eq(json_number_value(json_object_get(cpu3, "max_ns")), 107.0);
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
	ck_assert_int_eq(report_write_json(&x->run, p, err, sizeof err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, p));
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
	return s;
}

int main(void)
{
	return tu_run(json_suite());
}
