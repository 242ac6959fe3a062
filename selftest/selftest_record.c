/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_record.c - the validation record of `rtconform selftest`:
 * validation.json (the whole record), junit.xml (one testcase per case),
 * validation.html (the project's page look) and MANIFEST.sha256 over every
 * file of the record, the cases' evidence too (see selftest.h). */
#include "selftest/selftest.h"

#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/path.h"
#include "base/termsafe.h"
#include "base/utc.h"
#include "evidence/manifest.h"
#include "output/output.h"
#include "harness/measure/timebase.h"
#include "harness/runinfo.h"
#include "host/fingerprint.h"
#include "reports/junit.h"
#include "reports/link.h"
#include "reports/page.h"
#include "reports/report.h"
#include "reports/xmlw.h"

const char *const st_file_names[ST_NFILES] = {
	[ST_FILE_JSON] = OUT_NAME_ST_JSON, [ST_FILE_JUNIT] = OUT_NAME_ST_JUNIT,
	[ST_FILE_HTML] = OUT_NAME_ST_HTML,
};
/* Each file's kind of output (output/output.h). */
static const enum out_kind st_kinds[ST_NFILES] = {
	[ST_FILE_JSON] = OUT_ST_JSON, [ST_FILE_JUNIT] = OUT_ST_JUNIT,
	[ST_FILE_HTML] = OUT_ST_HTML,
};

void st_tally(struct st_record *rec)
{
	memset(rec->counts, 0, sizeof rec->counts);
	for (size_t i = 0; i < st_ncases; i++)
		rec->counts[rec->out[i].verdict]++;
	rec->status = rec->counts[ST_FAIL] ? EXIT_FAILED : rec->counts[ST_ERROR] ? EXIT_NOT_MEASURED : 0;
}

static const char *fp_or(const struct st_doc *d, const char *key)
{
	const char *v = fingerprint_get(&d->fp, key);
	return v ? v : "unknown";
}

/* ---- validation.json ---- */

static json_t *case_json(const struct st_case *c, const struct st_outcome *o)
{
	json_t *j = json_object();
	json_object_set_new(j, "id", json_string(c->id));
	json_object_set_new(j, "function", json_string(c->function));
	json_object_set_new(j, "injected", json_string(c->injects));
	json_object_set_new(j, "privilege", json_string(st_priv_name(c->priv)));
	json_object_set_new(j, "expected", json_string(o->expected));
	json_object_set_new(j, "observed", json_string(o->observed));
	json_object_set_new(j, "verdict", json_string(st_verdict_name(o->verdict)));
	json_object_set_new(j, "why", o->why[0] ? json_string(o->why) : json_null());
	json_object_set_new(j, "seconds", json_real(o->seconds));
	json_object_set_new(j, "evidence", o->evidence[0] ? json_string(o->evidence) : json_null());
	return j;
}

static char *render_json(const struct st_doc *d, size_t *len)
{
	const struct st_record *r = d->rec;
	json_t *root = json_object(), *host = json_object(), *cases = json_array();
	json_object_set_new(root, "schema", json_string(ST_SCHEMA));
	json_object_set_new(root, "tool", json_pack("{s:s, s:s}", "version", d->version,
						    "commit", d->commit));
	json_object_set_new(root, "started", json_string(d->started));
	json_object_set_new(root, "ended", json_string(d->ended));
	for (size_t i = 0; i < d->fp.n; i++)
		json_object_set_new(host, d->fp.e[i].key, json_string(d->fp.e[i].value));
	json_object_set_new(root, "host", host);
	for (size_t i = 0; i < st_ncases; i++)
		json_array_append_new(cases, case_json(&st_cases[i], &r->out[i]));
	json_object_set_new(root, "cases", cases);
	json_object_set_new(root, "totals",
			    json_pack("{s:I, s:I, s:I, s:I, s:I}", "cases", (json_int_t)st_ncases,
				      "pass", (json_int_t)r->counts[ST_PASS], "fail",
				      (json_int_t)r->counts[ST_FAIL], "not-run",
				      (json_int_t)r->counts[ST_NOT_RUN], "error",
				      (json_int_t)r->counts[ST_ERROR]));
	json_object_set_new(root, "exit_status", json_integer(r->status));
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	*len = text ? strlen(text) : 0;
	return text;
}

/* ---- junit.xml ---- */

static void junit_case(struct xw *x, const struct st_case *c, const struct st_outcome *o)
{
	junit_case_begin(x, c->id, "rtconform.selftest", o->seconds);
	if (o->verdict == ST_NOT_RUN) {
		junit_skipped(x, o->why);
	} else if (o->verdict == ST_ERROR) {
		junit_error(x, "error", o->why);
	} else if (o->verdict == ST_FAIL) {
		char *msg;
		if (asprintf(&msg, "expected %s; observed %s", o->expected, o->observed) < 0) {
			x->failed = true;
			return;
		}
		junit_failure(x, "mismatch", msg);
		free(msg);
	}
	char *out;
	if (asprintf(&out, "function: %s\ninjected: %s\nexpected: %s\nobserved: %s\nevidence: %s\n",
		     c->function, c->injects, o->expected, o->observed,
		     o->evidence[0] ? o->evidence : "(none)") < 0) {
		x->failed = true;
		return;
	}
	report_junit_system_out(x, out, NULL, NULL);
	free(out);
	junit_case_end(x);
}

static void junit_doc(struct xw *x, const void *arg)
{
	const struct st_doc *d = arg;
	const struct st_record *r = d->rec;
	double secs = 0;
	for (size_t i = 0; i < st_ncases; i++)
		secs += r->out[i].seconds;
	const struct junit_counts c = { st_ncases, r->counts[ST_FAIL], r->counts[ST_ERROR],
					r->counts[ST_NOT_RUN], secs };
	junit_begin(x, "rtconform selftest", &c);
	char ts[32]; /* junit's timestamp has no zone: UTC, as the record's */
	snprintf(ts, sizeof ts, "%.19s", d->started);
	const struct junit_suite suite = { "rtconform selftest", c, ts, fp_or(d, "host.name"), 0,
					   "rtconform.selftest" };
	junit_suite_begin(x, &suite);
	junit_prop(x, "rtconform.version", d->version);
	junit_prop(x, "rtconform.commit", d->commit);
	junit_prop(x, "host.name", fp_or(d, "host.name"));
	junit_prop(x, "host.kernel.release", fp_or(d, "host.kernel.release"));
	junit_props_end(x);
	for (size_t i = 0; i < st_ncases; i++)
		junit_case(x, &st_cases[i], &r->out[i]);
	junit_suite_end(x);
	junit_end(x);
}

/* ---- validation.html ---- */

static void html_row(struct xw *x, const char *const cells[], size_t n, bool head)
{
	xw_start(x, "tr");
	for (size_t i = 0; i < n; i++)
		xw_elem(x, head ? "th" : "td", cells[i]);
	xw_full_end(x);
}

static void html_cases(struct xw *x, const struct st_record *r)
{
	static const char *const head[] = { "case", "function validated", "injected",
					    "expected", "observed", "verdict" };
	xw_start(x, "table");
	html_row(x, head, 6, true);
	for (size_t i = 0; i < st_ncases; i++) {
		const struct st_case *c = &st_cases[i];
		const struct st_outcome *o = &r->out[i];
		char observed[sizeof o->observed + sizeof o->why + 8];
		snprintf(observed, sizeof observed, "%s%s%s", o->observed,
			 o->observed[0] && o->why[0] ? "; " : "", o->why);
		const char *const cells[] = { c->id, c->function, c->injects, o->expected,
					      observed };
		xw_start(x, "tr");
		for (size_t k = 0; k < 5; k++)
			xw_elem(x, "td", cells[k]);
		xw_start(x, "td");
		xw_start(x, "span");
		static const char *const cls[] = { "v v-pass", "v v-fail", "v v-skipped",
						   "v v-error" };
		xw_attr(x, "class", cls[o->verdict]);
		xw_text(x, st_verdict_name(o->verdict));
		xw_full_end(x);
		xw_full_end(x);
		xw_full_end(x);
	}
	xw_full_end(x);
}

static void html_doc(struct xw *x, const void *arg)
{
	const struct st_doc *d = arg;
	const struct st_record *r = d->rec;
	page_begin(x, "rtconform selftest: validation record",
		   "rtconform selftest: validation record");
	xw_start(x, "div");
	xw_attr(x, "class", r->status == 0 ? "banner b-pass" : r->counts[ST_FAIL] ?
			    "banner b-fail" : "banner b-error");
	xw_textf(x, "%zu cases: %zu matched, %zu did not match, %zu not run, %zu errors "
		 "(exit status %d)", st_ncases, r->counts[ST_PASS], r->counts[ST_FAIL],
		 r->counts[ST_NOT_RUN], r->counts[ST_ERROR], r->status);
	xw_full_end(x);
	xw_start(x, "table");
	xw_attr(x, "class", "facts");
	const char *const facts[][2] = { { "tool", d->version }, { "commit", d->commit },
					 { "started", d->started }, { "ended", d->ended } };
	for (size_t i = 0; i < 4; i++)
		html_row(x, facts[i], 2, false);
	xw_full_end(x);
	xw_elem(x, "h2", "Cases");
	html_cases(x, r);
	xw_elem(x, "h2", "Host fingerprint");
	xw_start(x, "table");
	xw_attr(x, "class", "env");
	for (size_t i = 0; i < d->fp.n; i++) {
		const char *const cells[] = { d->fp.e[i].key, d->fp.e[i].value };
		html_row(x, cells, 2, false);
	}
	xw_full_end(x);
	page_end(x, d->version, d->commit, " selftest.");
}

/* ---- files ---- */

char *st_render(const struct st_doc *d, enum st_file f, size_t *len, char *why, size_t whylen)
{
	char *buf = NULL;
	if (f == ST_FILE_JSON) {
		buf = render_json(d, len);
		if (!buf)
			snprintf(why, whylen, "%s", strerror(ENOMEM));
	} else if (f == ST_FILE_JUNIT) {
		buf = xw_render_junit(junit_doc, d, len, why, whylen);
	} else {
		buf = xw_render(html_doc, d, true, len, why, whylen);
	}
	return buf;
}

/* Render file f and write it as output f of out, as every output is
 * (out_write: a name planted in the directory, a link to a file of
 * root's, is replaced, never written through). */
static int render(const struct out_set *out, const struct st_doc *d, enum st_file f)
{
	char why[300];
	size_t len;
	char *buf = st_render(d, f, &len, why, sizeof why);
	if (!buf) {
		termsafe_println(stderr, "rtconform selftest: %s: %s", st_file_names[f], why);
		return -1;
	}
	int e = out_write(out, st_kinds[f], buf, len);
	free(buf);
	return e;
}

/* nftw has no argument for its callback: the walk's state. */
static struct manifest_names *walk_names;
static const char *walk_root;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	const char *rel = type == FTW_F ? path_below(path, walk_root) : NULL;
	if (!rel || !*rel || !strcmp(rel, MANIFEST_NAME) || strstr(rel, MANIFEST_LOCK_NAME) || !manifest_path_ok(rel))
		return 0;
	char *copy = strdup(rel);
	if (!copy)
		return -1;
	if (walk_names->n == walk_names->cap) {
		size_t cap = walk_names->cap ? walk_names->cap * 2 : 64;
		char **p = realloc(walk_names->name, cap * sizeof *p);
		if (!p) {
			free(copy);
			return -1;
		}
		walk_names->name = p;
		walk_names->cap = cap;
	}
	walk_names->name[walk_names->n++] = copy;
	return 0;
}

/* MANIFEST.sha256 of every file of the record (out_seal). */
static int write_manifest(const struct out_set *out)
{
	struct manifest_names mn = { 0 };
	walk_names = &mn;
	walk_root = out->given[OUT_DIR];
	int rc = nftw(walk_root, walk_one, 16, FTW_PHYS);
	if (rc != 0)
		termsafe_println(stderr, "rtconform selftest: %s: cannot list the record's files",
				 MANIFEST_NAME);
	else
		rc = out_seal(out, mn.name, mn.n, true);
	manifest_names_free(&mn);
	return rc ? -1 : 0;
}

int st_write_record(const struct st_record *rec)
{
	struct st_doc d = { .rec = rec, .version = runinfo_version, .commit = runinfo_commit };
	utc_fmt(rec->started, true, d.started, sizeof d.started);
	utc_fmt(rec->ended, true, d.ended, sizeof d.ended);
	struct timebase tb;
	char err[300];
	const struct timebase *tbp = timebase_init(&tb, err, sizeof err) == 0 ? &tb : NULL;
	struct host_facts hf;
	host_facts_collect(&hf);
	runinfo_collect_facts(&d.fp, &hf, tbp);
	/* the directory is checked, made and locked by cmd_selftest */
	struct out_set out = { .cmd = "selftest", .ev = &out_evidence_std,
			       .given[OUT_DIR] = rec->dir };
	bool named = out_paths(&out, st_kinds, ST_NFILES) == 0;
	int rc = named ? 0 : -1;
	for (int f = 0; named && f < ST_NFILES; f++) /* each tried: one failed costs no other */
		if (render(&out, &d, (enum st_file)f) != 0)
			rc = -1;
	if (rc == 0)
		rc = write_manifest(&out);
	out_end(&out, 0);
	fingerprint_free(&d.fp);
	return rc;
}
