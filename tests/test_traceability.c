/* SPDX-License-Identifier: Apache-2.0 */
/* test_traceability.c - the traceability matrix (reports/traceability.h):
 * built from the requirements' clauses by one function, each clause's
 * rows in view order and the clauses by ref, the evidence each requirement
 * names, the paths an output may have; shown in every report, and read
 * back from results.json with a stored matrix that disagrees refused by
 * its field's path (reports/read/json_read.c).
 */
#include "report_fixture.h"

#include <jansson.h>

#include "reports/read/read.h"
#include "reports/traceability.h"

/* The fixture (report_fixture.h) with clauses: SEM-RT cites "B 1"
 * (titled "Bee") and "A 2", SEM-OK "B 1" (no title), TMR "B 1" (titled
 * "Other": the first title given is the row's), B-1 of the second file
 * "A 2"; SKP and NOS cite none. */
static void fx_clauses(struct fx *x)
{
	struct requirement *q = x->reqs[0];
	q[0].clauses[0] = (struct req_clause){ (char *)"B 1", (char *)"Bee", 3 };
	q[0].clauses[1] = (struct req_clause){ (char *)"A 2", NULL, 4 };
	q[0].nclauses = 2;
	q[1].clauses[0] = (struct req_clause){ (char *)"B 1", NULL, 9 };
	q[1].nclauses = 1;
	q[2].clauses[0] = (struct req_clause){ (char *)"B 1", (char *)"Other", 12 };
	q[2].nclauses = 1;
	x->reqs[1][0].clauses[0] = (struct req_clause){ (char *)"A 2", (char *)"Ay", 3 };
	x->reqs[1][0].nclauses = 1;
}

static void expect_cite(const struct rv_cite *c, size_t file, size_t req)
{
	ck_assert_uint_eq(c->file, file);
	ck_assert_uint_eq(c->req, req);
}

START_TEST(matrix_rows)
{
	struct fx *x = fx_new();
	fx_clauses(x);
	struct report_view v;
	fx_view(x, &v);
	ck_assert(report_view_traced(&v));
	struct rv_matrix m;
	ck_assert_int_eq(report_traceability(&v, &m), 0);
	ck_assert_uint_eq(m.nrows, 2);
	ck_assert_str_eq(m.rows[0].ref, "A 2");
	ck_assert_str_eq(m.rows[0].title, "Ay"); /* SEM-RT gives none, B-1 does */
	ck_assert_uint_eq(m.rows[0].ncites, 2);
	expect_cite(&m.rows[0].cites[0], 0, 0);
	expect_cite(&m.rows[0].cites[1], 1, 0);
	ck_assert_str_eq(m.rows[1].ref, "B 1");
	ck_assert_str_eq(m.rows[1].title, "Bee");
	ck_assert_uint_eq(m.rows[1].ncites, 3);
	for (size_t k = 0; k < 3; k++)
		expect_cite(&m.rows[1].cites[k], 0, k);
	ck_assert_uint_eq(m.nuntraced, 2);
	expect_cite(&m.untraced[0], 0, 3);
	expect_cite(&m.untraced[1], 0, 4);
	rv_matrix_free(&m);
	report_view_free(&v);

	/* no clause anywhere: no row, every requirement untraced */
	struct fx *y = fx_new();
	fx_view(y, &v);
	ck_assert(!report_view_traced(&v));
	ck_assert_int_eq(report_traceability(&v, &m), 0);
	ck_assert_uint_eq(m.nrows, 0);
	ck_assert_uint_eq(m.nuntraced, 6);
	rv_matrix_free(&m);
	report_view_free(&v);
	fx_free(y);
	fx_free(x);
}
END_TEST

START_TEST(evidence_of_a_requirement)
{
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	char ev[RV_EVIDENCE_MAX][RV_EVIDENCE_PATH_MAX];
	int trace = 7;
	/* nothing known of the outputs (an older results.json): nothing */
	ck_assert_uint_eq(report_evidence(&v, &v.files[0].reqs[0], ev, &trace), 0);
	ck_assert_int_eq(trace, -1);

	v.outputs.report[REPORT_JSON] = strdup("results.json");
	v.outputs.report[REPORT_HTML] = strdup("report.html");
	v.outputs.report[REPORT_SUMMARY] = strdup("summary.txt");
	v.outputs.csv = strdup("csv");
	struct rv_req *r = &v.files[0].reqs[0];
	r->trace = strdup("trace-SEM-RT.txt");
	size_t n = report_evidence(&v, r, ev, &trace);
	ck_assert_uint_eq(n, 5);
	static const char *const want[] = { "results.json", "report.html", "summary.txt",
					    "trace-SEM-RT.txt", "csv/index.csv" };
	for (size_t k = 0; k < n; k++)
		ck_assert_str_eq(ev[k], want[k]);
	ck_assert_int_eq(trace, 3);
	/* a trace no run names (from a results.json of anywhere) is no evidence */
	free(r->trace);
	r->trace = strdup("../../etc/passwd");
	ck_assert_uint_eq(report_evidence(&v, r, ev, &trace), 4);
	ck_assert_int_eq(trace, -1);
	/* not measured: the CSV export holds nothing of it */
	ck_assert_uint_eq(report_evidence(&v, &v.files[0].reqs[2], ev, NULL), 3);
	/* the export in report.html's own directory */
	free(v.outputs.csv);
	v.outputs.csv = strdup(".");
	n = report_evidence(&v, &v.files[0].reqs[1], ev, NULL);
	ck_assert_str_eq(ev[n - 1], "index.csv");
	report_view_free(&v);
	fx_free(x);
}
END_TEST

START_TEST(output_paths)
{
	static const char *const ok_file[] = { "junit.xml", "a b.html", "r\xc3\xa9sultats.json" };
	static const char *const ok_dir[] = { "csv", "out/csv", "." };
	static const char *const bad[] = { "", "/etc/passwd", "../x", "a/../b", "./a", "a//b",
					   "a/", "javascript:alert(1)", "a\\b", "a\x01",
					   "a\x7f", "\xff\xfe", ".." };
	for (size_t i = 0; i < sizeof ok_file / sizeof ok_file[0]; i++) {
		ck_assert_msg(report_evidence_path_ok(ok_file[i], false), "%s", ok_file[i]);
		ck_assert_msg(report_evidence_path_ok(ok_file[i], true), "%s", ok_file[i]);
	}
	for (size_t i = 0; i < sizeof ok_dir / sizeof ok_dir[0]; i++)
		ck_assert_msg(report_evidence_path_ok(ok_dir[i], true), "%s", ok_dir[i]);
	ck_assert(!report_evidence_path_ok("out/csv", false)); /* a report: one name */
	ck_assert(!report_evidence_path_ok(".", false));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!report_evidence_path_ok(bad[i], true), "'%s' taken", bad[i]);
	char longp[RV_EVIDENCE_PATH_MAX];
	memset(longp, 'a', sizeof longp - 1);
	longp[sizeof longp - 1] = '\0';
	ck_assert(!report_evidence_path_ok(longp, true));
	longp[RV_EVIDENCE_PATH_MAX - 16] = '\0';
	ck_assert(report_evidence_path_ok(longp, true));
}
END_TEST

/* The fixture with clauses and outputs written to dir/results.json. */
static void write_traced(struct fx *x, char *path, size_t len)
{
	struct report_view v;
	char err[512] = "";
	fx_clauses(x);
	fx_view(x, &v);
	v.outputs.report[REPORT_JSON] = strdup("results.json");
	v.outputs.report[REPORT_HTML] = strdup("report.html");
	v.outputs.report[REPORT_JUNIT] = strdup("junit.xml");
	v.outputs.csv = strdup("csv");
	fx_path(x, "results.json", path, len);
	ck_assert_msg(report_write(REPORT_JSON, &v, path, err, sizeof err) == 0, "%s", err);
	report_view_free(&v);
}

/* Every report of a view read back from results.json: the same bytes as
 * of the view it was written from, the matrix in each. */
START_TEST(reports_show_the_matrix)
{
	struct fx *x = fx_new();
	char path[256], err[600];
	write_traced(x, path, sizeof path);
	struct report_view v, back;
	fx_view(x, &v);
	v.outputs.report[REPORT_JSON] = strdup("results.json");
	v.outputs.report[REPORT_HTML] = strdup("report.html");
	v.outputs.report[REPORT_JUNIT] = strdup("junit.xml");
	v.outputs.csv = strdup("csv");
	ck_assert_msg(report_view_from_json(path, &back, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(back.files[0].reqs[0].nclauses, 2);
	ck_assert_str_eq(back.files[0].reqs[0].clauses[0].ref, "B 1");
	ck_assert_str_eq(back.files[0].reqs[0].clauses[1].ref, "A 2");
	ck_assert_uint_eq(back.files[0].reqs[3].nclauses, 0);
	ck_assert_str_eq(back.files[0].reqs[0].clauses[0].title, "Bee");
	ck_assert_ptr_null(back.files[0].reqs[0].clauses[1].title);
	ck_assert_str_eq(back.outputs.csv, "csv");
	ck_assert_ptr_null(back.outputs.report[REPORT_SUMMARY]);
	for (int k = 0; k < REPORT_NKINDS; k++) {
		size_t la, lb;
		char *a = fx_render(&v, (enum report_kind)k, &la);
		char *b = fx_render(&back, (enum report_kind)k, &lb);
		fx_same_bytes(a, la, b, lb, report_kind_file_name((enum report_kind)k));
		free(b);
		if (k == REPORT_HTML) {
			ck_assert_ptr_nonnull(strstr(a, "<h2>Traceability</h2>"));
			ck_assert_ptr_nonnull(strstr(a, "<td rowspan=\"3\" class=\"nowrap\">B 1</td>"
							"<td rowspan=\"3\">Bee</td>"));
			ck_assert_ptr_nonnull(strstr(a, "<a href=\"./csv/index.csv\">"));
			ck_assert_ptr_nonnull(strstr(a, "Cite no clause (2)"));
		} else if (k == REPORT_SUMMARY) {
			ck_assert_ptr_nonnull(strstr(a, "  B 1 (Bee)\n    -> spy-memo: SEM-RT: FAIL\n"
							"    -> spy-memo: SEM-OK: PASS\n"));
			ck_assert_ptr_nonnull(strstr(a, "citing no clause: spy-memo: SKP, "
							"spy-memo: NOS\n"));
		} else if (k == REPORT_JUNIT) {
			/* the clauses are in results.json (issue 41; read back in
			 * file order above) */
			ck_assert_ptr_null(strstr(a, ".clauses\""));
		}
		free(a);
	}
	report_view_free(&back);
	report_view_free(&v);

	/* without a clause: no section, no block, no property */
	struct fx *y = fx_new();
	fx_view(y, &v);
	size_t len;
	char *h = fx_render(&v, REPORT_HTML, &len), *s = fx_render(&v, REPORT_SUMMARY, &len);
	char *j = fx_render(&v, REPORT_JSON, &len);
	ck_assert_ptr_null(strstr(h, "Traceability"));
	ck_assert_ptr_null(strstr(s, "traceability"));
	ck_assert_ptr_null(strstr(j, "\"traceability\""));
	ck_assert_ptr_nonnull(strstr(j, "\"clauses\": []"));
	free(h);
	free(s);
	free(j);
	report_view_free(&v);
	fx_free(y);
	fx_free(x);
}
END_TEST

/* results.json's text changed by edit, read: 0 or the reader's error. */
static int read_edited(struct fx *x, void (*edit)(json_t *root), char *err, size_t errlen)
{
	char path[256];
	write_traced(x, path, sizeof path);
	json_t *root = json_load_file(path, 0, NULL);
	ck_assert_ptr_nonnull(root);
	edit(root);
	ck_assert_int_eq(json_dump_file(root, path, JSON_PRESERVE_ORDER | JSON_INDENT(1) |
							 JSON_REAL_PRECISION(17)), 0);
	json_decref(root);
	struct report_view v;
	int rc = report_view_from_json(path, &v, err, errlen);
	if (rc == 0)
		report_view_free(&v);
	return rc;
}

static json_t *req_of(json_t *root, size_t f, size_t i)
{
	return json_array_get(json_object_get(json_array_get(json_object_get(root, "files"), f),
					      "requirements"), i);
}

static json_t *clause_of(json_t *root, size_t i, size_t k)
{
	return json_array_get(json_object_get(req_of(root, 0, i), "clauses"), k);
}

static json_t *row_of(json_t *root, size_t i)
{
	return json_array_get(json_object_get(json_object_get(root, "traceability"), "clauses"),
			      i);
}

static void forge_verdict(json_t *root)
{
	json_t *e = json_array_get(json_object_get(row_of(root, 1), "requirements"), 0);
	json_object_set_new(e, "verdict", json_string("pass"));
}

static void forge_row(json_t *root)
{
	json_array_append_new(json_object_get(json_object_get(root, "traceability"), "clauses"),
			      json_pack("{s:s, s:n, s:[]}", "ref", "C 3", "title", "requirements"));
}

static void drop_evidence(json_t *root)
{
	json_t *e = json_array_get(json_object_get(row_of(root, 0), "requirements"), 0);
	json_array_remove(json_object_get(e, "evidence"), 0);
}

static void retitle_row(json_t *root)
{
	json_object_set_new(row_of(root, 1), "title", json_string("Other"));
}

static void ref_number(json_t *root)
{
	json_object_set_new(clause_of(root, 0, 0), "ref", json_integer(5));
}

static void ref_long(json_t *root)
{
	char s[REQ_CLAUSE_REF_MAX + 2];
	memset(s, 'x', sizeof s - 1);
	s[sizeof s - 1] = '\0';
	json_object_set_new(clause_of(root, 0, 1), "ref", json_string(s));
}

static void ref_control(json_t *root)
{
	json_object_set_new(clause_of(root, 0, 1), "ref", json_string("A\n2"));
}

static void ref_twice(json_t *root)
{
	json_object_set_new(clause_of(root, 0, 1), "ref", json_string("B 1"));
}

static void title_number(json_t *root)
{
	json_object_set_new(clause_of(root, 0, 0), "title", json_true());
}

static void clauses_object(json_t *root)
{
	json_object_set_new(req_of(root, 0, 1), "clauses", json_object());
}

static void no_matrix(json_t *root)
{
	json_object_del(root, "traceability");
}

static void output_escapes(json_t *root)
{
	json_object_set_new(json_object_get(root, "outputs"), "junit", json_string("../junit.xml"));
}

static void output_scheme(json_t *root)
{
	json_object_set_new(json_object_get(root, "outputs"), "csv",
			    json_string("javascript:alert(1)"));
}

/* The clauses taken away, the matrix kept: a matrix is checked whenever
 * it is there. */
static void unclaused(json_t *root)
{
	for (size_t f = 0; f < 2; f++)
		for (size_t i = 0; req_of(root, f, i); i++)
			json_object_set_new(req_of(root, f, i), "clauses", json_array());
}

/* Written before clauses were kept: no "clauses", "outputs" or matrix. */
static void older_file(json_t *root)
{
	json_object_del(root, "traceability");
	json_object_del(root, "outputs");
	for (size_t f = 0; f < 2; f++)
		for (size_t i = 0; req_of(root, f, i); i++)
			json_object_del(req_of(root, f, i), "clauses");
}

START_TEST(reader_refuses_what_disagrees)
{
	static const struct {
		void (*edit)(json_t *root);
		const char *field, *why;
	} cases[] = {
		{ forge_verdict, "traceability.clauses[1].requirements[0].verdict",
		  "disagrees with the matrix built from the requirements, which has \"fail\"" },
		{ forge_row, "traceability.clauses[2]", "not in the matrix" },
		{ drop_evidence, "traceability.clauses[0].requirements[0].evidence[0]",
		  "which has \"results.json\" there" },
		{ retitle_row, "traceability.clauses[1].title", "which has \"Bee\"" },
		{ ref_number, "files[0].requirements[0].clauses[0].ref", "expected a string" },
		{ ref_long, "files[0].requirements[0].clauses[1].ref",
		  "has 129 characters, more than the 128" },
		{ ref_control, "files[0].requirements[0].clauses[1].ref", "control character" },
		{ ref_twice, "files[0].requirements[0].clauses[1].ref",
		  "\"B 1\" again (first at clauses[0]" },
		{ title_number, "files[0].requirements[0].clauses[0].title",
		  "expected a string or null" },
		{ clauses_object, "files[0].requirements[1].clauses", "expected an array" },
		{ no_matrix, "traceability", "missing" },
		{ unclaused, "traceability.clauses[0]", "not in the matrix" },
		{ output_escapes, "outputs.junit", "\"../junit.xml\": expected null or a file name" },
		{ output_scheme, "outputs.csv", "expected null or a path" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fx *x = fx_new();
		char err[700] = "";
		ck_assert_msg(read_edited(x, cases[i].edit, err, sizeof err) == -EINVAL,
			      "case %zu (%s) read", i, cases[i].field);
		ck_assert_msg(strstr(err, cases[i].field) && strstr(err, cases[i].why),
			      "case %zu: '%s' lacks '%s' / '%s'", i, err, cases[i].field,
			      cases[i].why);
		fx_free(x);
	}
	struct fx *x = fx_new();
	char err[700] = "";
	ck_assert_msg(read_edited(x, older_file, err, sizeof err) == 0, "older file: %s", err);
	fx_free(x);
}
END_TEST

static Suite *traceability_suite(void)
{
	Suite *s = suite_create("traceability");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, matrix_rows);
	tcase_add_test(tc, evidence_of_a_requirement);
	tcase_add_test(tc, output_paths);
	tcase_add_test(tc, reports_show_the_matrix);
	tcase_add_test(tc, reader_refuses_what_disagrees);
	return s;
}

int main(void)
{
	return tu_run(traceability_suite());
}
