/* SPDX-License-Identifier: Apache-2.0 */
/* kcidb.c - a run as a KCIDB submission (KernelCI's reporting database,
 * I/O schema v5.3, vendored in tests/schemas/kcidb/), so a lab that
 * reports kernels to KernelCI reports rtconform's verdicts beside them.
 *
 * One checkout, one build (the running kernel, from the host facts: KCIDB
 * wants every test tied to a build, and every build to a checkout) and one
 * test object per requirement, in file order. Its id is
 * "<origin>:<run>:<ID>" (<run> the host id and the start time, so the same
 * run gives the same ids and two runs different ones; "<file>.<ID>" with
 * several files), its path "rtconform.<file>.<ID>", its status the verdict
 * (kcidb_status), its number and misc the deciding figure
 * (rv_req_deciding_limit). Everything comes from the view: nothing is
 * measured or read. docs/reports.md, "KCIDB", has the mapping and what is
 * left out.
 */
#include "reports/report.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3
#define KCIDB_EXCERPT_MAX 16384 /* the schema's maxLength of log_excerpt */

bool report_kcidb_origin_ok(const char *s)
{
	if (!s || !s[0])
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* KCIDB's status of a requirement: pass, fail, error and skipped as they
 * are; a requirement measured with no limit to judge, or inconclusive
 * (measured, not decided), is DONE ("completed, reported no status of the
 * tested code"). MISS (the harness failed) is never given: rtconform
 * reports its own failures as error. */
static const char *kcidb_status(const struct rv_req *r)
{
	switch (r->verdict) {
	case VERDICT_PASS:
		return r->nlimits ? "PASS" : "DONE";
	case VERDICT_FAIL:
		return "FAIL";
	case VERDICT_ERROR:
		return "ERROR";
	case VERDICT_SKIPPED:
		return "SKIP";
	case VERDICT_INCONCLUSIVE:
		break;
	}
	return "DONE";
}

/* A path segment: letters, digits, '_' and '-' kept (the schema's
 * pattern), anything else '_', "_" for an empty one. Into out. */
static void put_segment(FILE *out, const char *s)
{
	bool any = false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80 && *p < 0xc0)
			continue; /* one '_' for a UTF-8 character */
		bool keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-';
		fputc(keep ? *p : '_', out);
		any = true;
	}
	if (!any)
		fputc('_', out);
}

/* printf into a new JSON string; NULL when out of memory. */
static json_t *jfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *jfmt(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	json_t *j = n < 0 ? NULL : json_string(s);
	free(n < 0 ? NULL : s);
	return j;
}

/* o[key] = val (taken); false when val is NULL or out of memory. */
static bool put(json_t *o, const char *key, json_t *val)
{
	return val && json_object_set_new(o, key, val) == 0;
}

/* o[key] = the fact, when the run recorded it. */
static bool put_fact(json_t *o, const char *key, const struct report_view *v, const char *fact)
{
	const char *s = fingerprint_get(&v->env, fact);
	return !s || put(o, key, json_string(s));
}

/* The run's part of every id: "<host id>-<start>", the start without its
 * '-' and ':' ("5699f42b8069e187-20261201T183704Z"). Into out. */
static void put_run_id(FILE *out, const struct report_view *v)
{
	const char *host = fingerprint_get(&v->env, "host.id");
	const char *start = fingerprint_get(&v->env, "rtconform.started");
	fputs(host ? host : "unknown", out);
	fputc('-', out);
	for (const char *p = start ? start : "unknown"; *p; p++)
		if (*p != '-' && *p != ':')
			fputc(*p, out);
}

/* The build id of v's kernel (also its checkout's): "<origin>:<host
 * id>:<kernel release>", the same for every run of that kernel on that
 * host. Malloc'd; NULL when out of memory. */
static char *kernel_id(const struct report_view *v, const char *origin)
{
	const char *host = fingerprint_get(&v->env, "host.id");
	const char *rel = fingerprint_get(&v->env, "host.kernel.release");
	char *s;
	return asprintf(&s, "%s:%s:%s", origin, host ? host : "unknown", rel ? rel : "unknown") < 0
		       ? NULL : s;
}

/* The kernel's architecture as the schema spells one: lower case,
 * letters, digits and '_' ("x86_64", "aarch64"). Into buf. */
static void arch_of(const char *m, char *buf, size_t len)
{
	size_t i = 0;
	for (; m && m[i] && i + 1 < len; i++) {
		char c = m[i] >= 'A' && m[i] <= 'Z' ? (char)(m[i] - 'A' + 'a') : m[i];
		buf[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_';
	}
	buf[i] = 0;
}

/* The checkout and the build: the running kernel, as far as the host
 * facts tell it (no source, no config: docs/reports.md says what stands
 * in). */
static bool put_kernel(json_t *root, const struct report_view *v, const char *origin,
		       const char *kid)
{
	const char *rel = fingerprint_get(&v->env, "host.kernel.release");
	const char *ver = fingerprint_get(&v->env, "host.kernel.version");
	json_t *cos = json_array(), *bs = json_array();
	json_t *co = json_object(), *b = json_object(), *misc = json_object();
	bool ok = put(root, "checkouts", cos) && put(root, "builds", bs) &&
		  co && json_array_append_new(cos, co) == 0 &&
		  b && json_array_append_new(bs, b) == 0 && misc && put(b, "misc", misc);
	if (!ok)
		return false;
	char arch[64];
	arch_of(fingerprint_get(&v->env, "host.machine"), arch, sizeof arch);
	return put(co, "id", json_string(kid)) && put(co, "origin", json_string(origin)) &&
	       put(co, "comment", jfmt("the kernel running on the host (%s %s); rtconform does "
				       "not know its source", rel ? rel : "unknown", ver ? ver : "")) &&
	       put(b, "id", json_string(kid)) && put(b, "origin", json_string(origin)) &&
	       put(b, "checkout_id", json_string(kid)) &&
	       (!arch[0] || put(b, "architecture", json_string(arch))) &&
	       put(b, "comment", jfmt("the running kernel %s %s", rel ? rel : "unknown",
				      ver ? ver : "")) &&
	       put_fact(misc, "kernel_release", v, "host.kernel.release") &&
	       put_fact(misc, "kernel_version", v, "host.kernel.version") &&
	       put_fact(misc, "preempt", v, "host.preempt") &&
	       put_fact(misc, "cmdline", v, "host.kernel.cmdline");
}

/* "file:///dir/name" with every byte a URI may not hold as it is
 * percent-encoded. NULL when out of memory. */
static json_t *file_url(const char *dir, const char *rel)
{
	char *s = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&s, &n);
	if (!out)
		return NULL;
	fputs("file://", out);
	for (int part = 0; part < 2; part++) {
		if (part)
			fputc('/', out);
		for (const unsigned char *p = (const unsigned char *)(part ? rel : dir); *p; p++)
			if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
				fputc(*p, out);
			else
				fprintf(out, "%%%02X", *p);
	}
	json_t *j = fclose(out) == 0 ? json_string(s) : NULL;
	free(s);
	return j;
}

/* One output_files entry: name (rel's last part) and its file:// url. */
static bool add_file(json_t *list, const char *dir, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	json_t *f = json_object();
	bool ok = f && put(f, "name", json_string(slash ? slash + 1 : rel)) &&
		  put(f, "url", file_url(dir, rel)) && json_array_append(list, f) == 0;
	json_decref(f);
	return ok;
}

/* The reports people read a verdict in, and the requirement's trace: each
 * only when written where a link to it can be made (rv_outputs, the
 * traces' directory known). */
static bool put_outputs(json_t *t, const struct report_view *v, const struct rv_req *r)
{
	if (!v->trace_dir)
		return true;
	json_t *list = json_array();
	bool ok = list != NULL;
	const char *rel[] = { v->outputs.report[REPORT_HTML], v->outputs.report[REPORT_JSON],
			      r->trace_link == RV_TRACE_LINKED ? r->trace : NULL };
	for (size_t i = 0; ok && i < sizeof rel / sizeof rel[0]; i++)
		ok = !rel[i] || add_file(list, v->trace_dir, rel[i]);
	if (ok && json_array_size(list))
		return put(t, "output_files", list);
	json_decref(list);
	return ok;
}

/* The deciding figure: number (value, unit) and misc.deciding (the limit
 * as the reports word it, the figure as units_fmt_qty does, the judge's
 * sentence). */
static bool put_deciding(json_t *t, json_t *misc, const struct rv_req *r)
{
	size_t k = rv_req_deciding_limit(r);
	if (k == SIZE_MAX)
		return true;
	const struct rv_limit *l = &r->limits[k];
	enum qty_unit u = rv_limit_unit(l);
	static const char *const unit_name[] = { [QTY_NS] = "ns", [QTY_CYCLES] = "cycles",
						 [QTY_COUNT] = "" };
	char limit[256], figure[64] = "not computed";
	report_limit_text(l->metric, l->statistic, l->has_min ? &l->min : NULL,
			  l->has_max ? &l->max : NULL, l->confidence, limit, sizeof limit);
	bool have = l->measured.have && isfinite(l->measured.v);
	if (have)
		units_fmt_qty(&(struct quantity){ l->measured.v, u }, figure, sizeof figure);
	json_t *d = json_pack("{s:s, s:s, s:s}", "limit", limit, "measured", figure, "verdict",
			      verdict_name(l->verdict));
	bool ok = put(misc, "deciding", d) && (!l->text || put(d, "text", json_string(l->text))) &&
		  (!unit_name[u][0] || put(d, "unit", json_string(unit_name[u])));
	if (ok && have) {
		json_t *num = json_pack("{s:f}", "value", l->measured.v);
		ok = put(t, "number", num) && (!unit_name[u][0] ||
					       put(num, "unit", json_string(unit_name[u])));
	}
	return ok;
}

/* The environment: the host and its kernel, in words and as facts. */
static json_t *environment(const struct report_view *v)
{
	char host[600];
	fingerprint_host_title(&v->env, host, sizeof host);
	const char *rel = fingerprint_get(&v->env, "host.kernel.release");
	json_t *e = json_object(), *misc = json_object();
	bool ok = e && misc && put(e, "misc", misc) &&
		  put(e, "comment", jfmt("%s, kernel %s", host, rel ? rel : "unknown")) &&
		  put_fact(misc, "host_label", v, "host.label") &&
		  put_fact(misc, "host_name", v, "host.name") &&
		  put_fact(misc, "host_id", v, "host.id") &&
		  put_fact(misc, "kernel_release", v, "host.kernel.release") &&
		  put_fact(misc, "cpu_model", v, "host.cpu.model");
	if (!ok && !e)
		json_decref(misc);
	if (!ok)
		json_decref(e);
	return ok ? e : NULL;
}

/* "2026-12-01T18:37:04+00:00" of UTC seconds t. */
static json_t *rfc3339(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[64];
	if (!gmtime_r(&tt, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S+00:00", &tm))
		return NULL;
	return json_string(buf);
}

/* With an origin, the test's id "<origin>:<run>:[<file>.]<ID>" (any text
 * after the origin is an id); without, its path "rtconform.<file>.<ID>",
 * each segment put_segment's. Malloc'd; NULL when out of memory. */
static char *test_name(const struct report_view *v, const struct rv_file *f,
		       const struct rv_req *r, const char *origin)
{
	char *s = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&s, &n);
	if (!out)
		return NULL;
	if (origin) {
		fprintf(out, "%s:", origin);
		put_run_id(out, v);
		fputc(':', out);
		if (v->nfiles > 1)
			fprintf(out, "%s.", f->name);
		fputs(r->id, out);
	} else {
		fputs("rtconform.", out);
		put_segment(out, f->name);
		fputc('.', out);
		put_segment(out, r->id);
	}
	if (fclose(out) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

static json_t *test_object(const struct report_view *v, const struct rv_file *f,
			   const struct rv_req *r, const char *origin, const char *kid)
{
	char *id = test_name(v, f, r, origin), *path = test_name(v, f, r, NULL);
	json_t *t = json_object(), *misc = json_object();
	bool ok = t && misc && put(t, "misc", misc) && id && path && put(t, "id", json_string(id)) &&
		  put(t, "origin", json_string(origin)) && put(t, "build_id", json_string(kid)) &&
		  put(t, "path", json_string(path)) && put(t, "status", json_string(kcidb_status(r))) &&
		  put(t, "comment", json_string(r->title ? r->title : r->id)) &&
		  put(t, "environment", environment(v)) &&
		  (!isfinite(r->seconds) || put(t, "duration", json_real(r->seconds))) &&
		  (!f->started || put(t, "start_time", rfc3339(f->started))) &&
		  put_outputs(t, v, r) && put_deciding(t, misc, r) &&
		  put(misc, "verdict", json_string(verdict_name(r->verdict))) &&
		  put(misc, "probe", json_string(r->probe ? r->probe : "")) &&
		  (!r->not_selected || put(misc, "not_selected", json_true()));
	if (ok && r->reason) {
		/* cut at a character's first byte: the schema's maxLength */
		size_t len = strlen(r->reason);
		if (len > KCIDB_EXCERPT_MAX)
			for (len = KCIDB_EXCERPT_MAX; (r->reason[len] & 0xc0) == 0x80; len--)
				;
		ok = put(t, "log_excerpt", json_stringn(r->reason, len));
	}
	free(id);
	free(path);
	if (!t)
		json_decref(misc);
	if (!ok) {
		json_decref(t);
		return NULL;
	}
	return t;
}

/* The submission of v (report.h), malloc'd, for report_render_write. */
static char *report_kcidb_render(const struct report_view *v, size_t *len, char *why,
				 size_t whylen)
{
	const char *origin = v->kcidb_origin ? v->kcidb_origin : REPORT_KCIDB_ORIGIN;
	char *kid = kernel_id(v, origin);
	json_t *root = json_pack("{s:{s:i, s:i}}", "version", "major", KCIDB_MAJOR, "minor",
				 KCIDB_MINOR);
	json_t *tests = json_array();
	bool ok = kid && root && put(root, "tests", tests) && put_kernel(root, v, origin, kid);
	for (size_t fi = 0; ok && fi < v->nfiles; fi++)
		for (size_t i = 0; ok && i < v->files[fi].nreqs; i++) {
			json_t *t = test_object(v, &v->files[fi], &v->files[fi].reqs[i], origin, kid);
			ok = t && json_array_append_new(tests, t) == 0;
		}
	char *doc = ok ? json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS)
				 : NULL, *text = NULL;
	if (!root)
		json_decref(tests);
	json_decref(root);
	free(kid);
	if (!doc || asprintf(&text, "%s\n", doc) < 0) {
		free(doc);
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return NULL;
	}
	free(doc);
	*len = strlen(text);
	return text;
}

int report_write_kcidb(const struct report_view *v, const char *path, char *err, size_t errlen)
{
	return report_render_write(report_kcidb_render, "the KCIDB submission", v, path, err,
				   errlen);
}
