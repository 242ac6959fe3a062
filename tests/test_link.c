/* SPDX-License-Identifier: Apache-2.0 */
/* test_link.c - what a report may point at (reports/link.c).
 *
 * A trace is linked and attached only when it is a name a run gives its
 * traces: every name trace_name_claim makes is one, and nothing else is
 * (absolute paths, "..", directories, schemes, control characters, names
 * a run never makes). Every href is "./" and a percent-encoded path. No
 * attachment marker of the text reaches a junit.xml's <system-out>; the
 * writer's own line is there only for a good trace and a directory that
 * makes a clean absolute path, and no text or attribute value of a
 * junit.xml holds a marker. A trace is linked only when a regular file of
 * its name, not a symlink, lies where the traces lie. report.html and
 * junit.xml of views with hostile traces are test_html.c's.
 */
#include "test_util.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/trace.h"
#include "reports/link.h"
#include "reports/xmlw.h"

/* ---- which traces are ours --------------------------------------------- */

START_TEST(claimed_names_are_ours)
{
	/* Every id, however hostile, gives a name a run could write, also the
	 * later ones of the same id, and one cut to fit. */
	static const char *const ids[] = {
		"SEM-RT.1", "../a b/c", "javascript:alert(1)", "-2+3", ".hidden", "",
		"x\n[[ATTACHMENT|/etc/passwd]]", "\xc3\xa9t\xc3\xa9", "a~2",
		"a-very-long-requirement-identifier-that-goes-on-and-on-and-on-and-on-and-on-"
		"and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-"
		"and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on",
	};
	struct trace_names tn = { 0 };
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
			char name[TRACE_NAME_MAX];
			trace_name_claim(&tn, ids[i], name, sizeof name);
			ck_assert_msg(report_trace_ok(name), "'%s' (of id '%s') is not ours", name,
				      ids[i]);
		}
	trace_names_free(&tn);
}
END_TEST

START_TEST(other_paths_are_not_ours)
{
	char longest[TRACE_NAME_MAX + 8];
	static const char *const bad[] = {
		"javascript:alert(1)",
		"/etc/shadow",
		"/abs/run/trace-SEM-RT.1.txt", /* as a results.json of 0.1 named them */
		"../trace-SEM-RT.1.txt",
		"sub/trace-SEM-RT.1.txt",
		"./trace-SEM-RT.1.txt",
		"trace-SEM-RT.1.txt\n[[ATTACHMENT|/etc/passwd",
		"trace-SEM-RT.1.txt/",
		"trace-a b.txt",
		"trace-a:b.txt",
		"trace-%2e%2e.txt",
		"trace-.hidden.txt",
		"trace-.txt",
		"trace-x~1.txt",
		"trace-x~02.txt",
		"trace-x~2~3.txt",
		"trace-x~.txt",
		"trace-x~-2.txt",
		"trace-x~4294967296.txt",
		"TRACE-x.txt",
		"trace-x.TXT",
		"trace-x.txt.html",
		"report.html",
		"",
	};
	ck_assert(!report_trace_ok(NULL));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!report_trace_ok(bad[i]), "'%s' taken for a trace of ours", bad[i]);
	/* one byte longer than a run makes one */
	memset(longest, 'a', sizeof longest);
	memcpy(longest, "trace-", 6);
	strcpy(longest + TRACE_NAME_MAX - 4, ".txt");
	ck_assert_uint_eq(strlen(longest), TRACE_NAME_MAX);
	ck_assert(!report_trace_ok(longest));
	strcpy(longest + TRACE_NAME_MAX - 5, ".txt");
	ck_assert(report_trace_ok(longest));
}
END_TEST

/* ---- hrefs -------------------------------------------------------------- */

START_TEST(hrefs_are_relative_and_encoded)
{
	static const struct {
		const char *path, *href;
	} cases[] = {
		{ "trace-SEM-RT.1~2.txt", "./trace-SEM-RT.1~2.txt" },
		{ "javascript:alert(1);x/report.html", "./javascript%3Aalert%281%29%3Bx/report.html" },
		{ "board#1/report.html", "./board%231/report.html" },
		{ "b?x/report.html", "./b%3Fx/report.html" },
		{ "p%41/report.html", "./p%2541/report.html" },
		{ "../a/report.html", "./../a/report.html" },
		{ "a b\xc3\xa9/\"<&>'\n", "./a%20b%C3%A9/%22%3C%26%3E%27%0A" },
		{ "//evil.example/x", NULL }, /* absolute: no href at all */
		{ "/etc/passwd", NULL },
		{ "", NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *h = report_href(cases[i].path);
		if (!cases[i].href) {
			ck_assert_msg(h == NULL, "'%s' gave href '%s'", cases[i].path, h);
			continue;
		}
		ck_assert_ptr_nonnull(h);
		ck_assert_msg(strcmp(h, cases[i].href) == 0, "'%s' gave '%s', expected '%s'",
			      cases[i].path, h, cases[i].href);
		free(h);
	}
	ck_assert_ptr_null(report_href(NULL));
}
END_TEST

/* ---- attachments -------------------------------------------------------- */

START_TEST(defuse_breaks_every_marker)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "x\n[[ATTACHMENT|/etc/passwd]]", "x\n[ [ATTACHMENT|/etc/passwd]]" },
		{ "a [[attachment|/x]] b [[AtTaChMeNt|/y]]", "a [ [attachment|/x]] b [ [AtTaChMeNt|/y]]" },
		{ "[[[ATTACHMENT|/x]]", "[[ [ATTACHMENT|/x]]" },
		{ "[[ATTACHMENT /x]] [ATTACHMENT|/y]]", "[[ATTACHMENT /x]] [ATTACHMENT|/y]]" },
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *d = report_junit_defuse(cases[i].in);
		ck_assert_ptr_nonnull(d);
		ck_assert_str_eq(d, cases[i].out);
		ck_assert_ptr_null(strcasestr(d, "[[ATTACHMENT|"));
		free(d);
	}
}
END_TEST

struct so_args {
	const char *text, *dir, *trace;
};

static void so_doc(struct xw *x, const void *arg)
{
	const struct so_args *a = arg;
	xw_start(x, "testcase");
	report_junit_system_out(x, a->text, a->dir, a->trace);
	xw_end(x);
}

/* The <system-out> of text, dir and trace, as the writers make it. */
static char *system_out(const char *text, const char *dir, const char *trace)
{
	struct so_args a = { text, dir, trace };
	size_t len;
	char why[100];
	char *out = xw_render_junit(so_doc, &a, &len, why, sizeof why);
	ck_assert_msg(out != NULL, "%s", why);
	return out;
}

/* How many times "[[ATTACHMENT|" is in s, in any case. */
static int markers(const char *s)
{
	int n = 0;
	for (const char *p = s; (p = strcasestr(p, "[[ATTACHMENT|")); p++)
		n++;
	return n;
}

START_TEST(system_out_attaches_only_ours)
{
	static const char hostile[] = "R: [[ATTACHMENT|/etc/shadow]]\n"
				      "trace file: x\n[[ATTACHMENT|/etc/passwd]]\n";
	char *o = system_out(hostile, "/srv/runs/r1", "trace-R.txt");
	ck_assert_int_eq(markers(o), 1);
	ck_assert_msg(strstr(o, "\n[[ATTACHMENT|/srv/runs/r1/trace-R.txt]]\n</system-out>"), "%s", o);
	ck_assert_ptr_nonnull(strstr(o, "[ [ATTACHMENT|/etc/passwd]]"));
	/* what verify reads back: the writer's line, never the defused ones */
	char *dir = report_junit_attached_dir(o);
	ck_assert_str_eq(dir, "/srv/runs/r1");
	free(dir);
	ck_assert_ptr_null(report_junit_attached_dir("R: [ [ATTACHMENT|/etc/shadow]]\n"));
	ck_assert_ptr_null(report_junit_attached_dir("[[ATTACHMENT|trace-R.txt]]\n"));
	free(o);
	/* a directory with a slash at its end, text without a newline at its
	 * end; a directory not in ASCII */
	o = system_out("R\n", "/srv/r\xc3\xa9sultats", "trace-R.txt");
	ck_assert_msg(strstr(o, "\n[[ATTACHMENT|/srv/r\xc3\xa9sultats/trace-R.txt]]\n"), "%s", o);
	free(o);
	o = system_out("R", "/srv/", "trace-R~2.txt");
	ck_assert_msg(strstr(o, "<system-out>R\n[[ATTACHMENT|/srv/trace-R~2.txt]]\n</system-out>"),
		      "%s", o);
	free(o);
	/* nothing to attach: a trace that is not ours, no directory, one
	 * that is relative or would not make one clean line */
	static const struct {
		const char *dir, *trace;
	} none[] = {
		{ "/srv", "/etc/shadow" },
		{ "/srv", "javascript:alert(1)" },
		{ "/srv", "trace-R.txt\n[[ATTACHMENT|/etc/passwd" },
		{ "/srv", "../trace-R.txt" },
		{ "/srv", NULL },
		{ NULL, "trace-R.txt" },
		{ "srv", "trace-R.txt" },
		{ "/srv/a|b", "trace-R.txt" },
		{ "/srv/a\n[[ATTACHMENT|/etc/passwd]]", "trace-R.txt" },
		{ "/srv/\xff", "trace-R.txt" },
		{ "/srv/x]]", "trace-R.txt" },
		{ "/srv/x\xc2\x85", "trace-R.txt" },     /* U+0085, a line end to Java */
		{ "/srv/x\xe2\x80\xa8", "trace-R.txt" }, /* U+2028 */
	};
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
		o = system_out(hostile, none[i].dir, none[i].trace);
		ck_assert_msg(markers(o) == 0, "dir '%s', trace '%s': %s", none[i].dir,
			      none[i].trace, o);
		free(o);
	}
	/* no text and nothing attached: no element */
	o = system_out(NULL, "/srv", "/etc/shadow");
	ck_assert_ptr_null(strstr(o, "system-out"));
	free(o);
}
END_TEST

struct doc_args {
	const char *text;
};

/* Text and attribute values of all kinds, a marker in each. */
static void marks_doc(struct xw *x, const void *arg)
{
	const struct doc_args *a = arg;
	xw_start(x, "testcase");
	xw_attr(x, "name", a->text);
	xw_attrf(x, "classname", "c.%s", a->text);
	xw_start(x, "failure");
	xw_attr(x, "message", a->text);
	xw_text(x, a->text);
	xw_textf(x, "again %s", a->text);
	xw_end(x);
	xw_elem(x, "skipped", a->text);
	xw_end(x);
}

/* A junit writer breaks every marker of every text and attribute value;
 * any other writer (HTML) leaves text as it is; a <system-out> asked of a
 * writer that is not a junit one is a failure, never undefused text. */
START_TEST(junit_writer_defuses_everything)
{
	struct doc_args a = { "x\n[[ATTACHMENT|/etc/passwd]] [[attachment|/x]]" };
	size_t len;
	char why[100];
	char *o = xw_render_junit(marks_doc, &a, &len, why, sizeof why);
	ck_assert_msg(o != NULL, "%s", why);
	ck_assert_msg(markers(o) == 0, "%s", o);
	ck_assert_int_eq(strstr(o, "[ [ATTACHMENT|/etc/passwd]] [ [attachment|/x]]") != NULL, 1);
	free(o);
	o = xw_render(marks_doc, &a, false, &len, why, sizeof why);
	ck_assert_int_eq(markers(o), 12);
	free(o);
	struct so_args s = { "R", "/srv", "trace-R.txt" };
	ck_assert_ptr_null(xw_render(so_doc, &s, false, &len, why, sizeof why));
}
END_TEST

/* A view of one file whose requirements name the traces t[0..n). */
static void traces_view(struct report_view *v, const char *const *t, size_t n)
{
	memset(v, 0, sizeof *v);
	v->files = calloc(1, sizeof *v->files);
	ck_assert_ptr_nonnull(v->files);
	v->nfiles = 1;
	v->files[0].reqs = calloc(n, sizeof *v->files[0].reqs);
	ck_assert_ptr_nonnull(v->files[0].reqs);
	v->files[0].nreqs = n;
	for (size_t i = 0; i < n; i++)
		v->files[0].reqs[i].trace = t[i] ? strdup(t[i]) : NULL;
}

/* Only a regular file of a name of ours in the directory is linked: not a
 * symlink (to a file or to a directory), a directory, a FIFO or nothing;
 * a name not ours is never looked for. trace_dir is the directory's
 * absolute path; without a directory nothing is linked. */
START_TEST(find_traces_takes_regular_files_only)
{
	char dir[] = "/tmp/rtc-test-link.XXXXXX", p[PATH_MAX], real[PATH_MAX];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	static const char *const t[] = { "trace-R.txt", "trace-S.txt", "trace-D.txt",
					 "trace-F.txt", "trace-M.txt", "trace-L.txt",
					 "/etc/shadow", NULL };
	static const enum rv_trace_link want[] = { RV_TRACE_LINKED, RV_TRACE_NO_FILE,
						   RV_TRACE_NO_FILE, RV_TRACE_NO_FILE,
						   RV_TRACE_NO_FILE, RV_TRACE_NO_FILE,
						   RV_TRACE_NOT_OURS, RV_TRACE_UNCHECKED };
	snprintf(p, sizeof p, "%s/trace-R.txt", dir);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs("trace\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/trace-S.txt", dir);
	ck_assert_int_eq(symlink("/etc/passwd", p), 0);
	snprintf(p, sizeof p, "%s/trace-L.txt", dir);
	ck_assert_int_eq(symlink("trace-R.txt", p), 0); /* even to a good one beside it */
	snprintf(p, sizeof p, "%s/trace-D.txt", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof p, "%s/trace-F.txt", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	struct report_view v;
	traces_view(&v, t, 8);
	ck_assert_int_eq(report_view_find_traces(&v, dir), 0);
	ck_assert_ptr_nonnull(realpath(dir, real));
	ck_assert_str_eq(v.trace_dir, real);
	for (size_t i = 0; i < 8; i++)
		ck_assert_msg(v.files[0].reqs[i].trace_link == want[i], "trace %s: %d, not %d",
			      t[i] ? t[i] : "(none)", (int)v.files[0].reqs[i].trace_link,
			      (int)want[i]);
	ck_assert_ptr_null(report_trace_why_not(&v.files[0].reqs[0]));
	ck_assert_str_eq(report_trace_why_not(&v.files[0].reqs[1]),
			 "no regular file of that name beside the results");
	ck_assert_str_eq(report_trace_why_not(&v.files[0].reqs[6]),
			 "not a name rtconform gives a trace");
	ck_assert_ptr_null(report_trace_why_not(&v.files[0].reqs[7]));
	/* no directory: nothing linked, nothing to attach from */
	ck_assert_int_eq(report_view_find_traces(&v, NULL), 0);
	ck_assert_ptr_null(v.trace_dir);
	ck_assert_int_eq(v.files[0].reqs[0].trace_link, RV_TRACE_NO_FILE);
	report_view_free(&v);
	/* not looked for: a name of ours is shown without a remark, none linked */
	traces_view(&v, t, 1);
	ck_assert_ptr_null(report_trace_why_not(&v.files[0].reqs[0]));
	report_view_free(&v);
	static const char *const names[] = { "trace-R.txt", "trace-S.txt", "trace-L.txt",
					     "trace-D.txt", "trace-F.txt" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		ck_assert_int_eq(remove(p), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("link");
	TCase *tc = tu_tcase(s, "link", 10);
	tcase_add_test(tc, claimed_names_are_ours);
	tcase_add_test(tc, other_paths_are_not_ours);
	tcase_add_test(tc, hrefs_are_relative_and_encoded);
	tcase_add_test(tc, defuse_breaks_every_marker);
	tcase_add_test(tc, system_out_attaches_only_ours);
	tcase_add_test(tc, junit_writer_defuses_everything);
	tcase_add_test(tc, find_traces_takes_regular_files_only);
	return tu_run(s);
}
