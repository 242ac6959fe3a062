/* SPDX-License-Identifier: Apache-2.0 */
/* traceability.c - the traceability matrix (traceability.h): clauses to
 * the requirements citing them, their probes, verdicts and evidence, built
 * from a view by report_traceability alone; the JSON form results.json
 * holds and its reader compares.
 */
#include "reports/traceability.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "reports/csv.h"
#include "reports/link.h"

/* One citation while the matrix is built: sorted by ref, then by `seq`
 * (view order), so equal refs keep the order of the view. */
struct cite_key {
	const char *ref, *title;
	size_t seq;
	struct rv_cite at;
};

static int cmp_cite(const void *a, const void *b)
{
	const struct cite_key *x = a, *y = b;
	int c = strcmp(x->ref, y->ref);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

bool report_view_traced(const struct report_view *v)
{
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++)
			if (v->files[f].reqs[i].nclauses)
				return true;
	return false;
}

void rv_matrix_free(struct rv_matrix *m)
{
	for (size_t i = 0; i < m->nrows; i++)
		free(m->rows[i].cites);
	free(m->rows);
	free(m->untraced);
	memset(m, 0, sizeof *m);
}

/* The citations of v (keys, n of them) and its untraced requirements. */
static int collect(const struct report_view *v, struct rv_matrix *m, struct cite_key **keys,
		   size_t *n)
{
	size_t cites = 0, reqs = 0;
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			cites += v->files[f].reqs[i].nclauses;
			reqs++;
		}
	*keys = calloc(cites ? cites : 1, sizeof **keys);
	m->untraced = calloc(reqs ? reqs : 1, sizeof *m->untraced);
	if (!*keys || !m->untraced)
		return -ENOMEM;
	*n = 0;
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			const struct rv_req *r = &v->files[f].reqs[i];
			if (!r->nclauses)
				m->untraced[m->nuntraced++] = (struct rv_cite){ f, i };
			for (size_t k = 0; k < r->nclauses; k++, (*n)++)
				(*keys)[*n] = (struct cite_key){ r->clauses[k].ref,
								 r->clauses[k].title, *n,
								 { f, i } };
		}
	return 0;
}

int report_traceability(const struct report_view *v, struct rv_matrix *m)
{
	memset(m, 0, sizeof *m);
	struct cite_key *keys = NULL;
	size_t n = 0;
	int e = collect(v, m, &keys, &n);
	if (!e && n) {
		qsort(keys, n, sizeof *keys, cmp_cite);
		m->rows = calloc(n, sizeof *m->rows);
		e = m->rows ? 0 : -ENOMEM;
	}
	/* A ref's citations are adjacent: keys[k..end) */
	for (size_t k = 0, end; !e && k < n; k = end) {
		for (end = k + 1; end < n && strcmp(keys[end].ref, keys[k].ref) == 0; end++)
			;
		struct rv_trace_row *row = &m->rows[m->nrows++];
		row->ref = keys[k].ref;
		if (!(row->cites = calloc(end - k, sizeof *row->cites))) {
			e = -ENOMEM;
			break;
		}
		for (size_t i = k; i < end; i++) {
			if (!row->title)
				row->title = keys[i].title;
			row->cites[row->ncites++] = keys[i].at;
		}
	}
	free(keys);
	if (e)
		rv_matrix_free(m);
	return e;
}

bool report_evidence_path_ok(const char *p, bool dir)
{
	size_t len = p ? strlen(p) : 0;
	if (dir && len == 1 && p[0] == '.') /* the directory itself */
		return true;
	if (!len || len > RV_EVIDENCE_PATH_MAX - 16 || p[0] == '/' || p[len - 1] == '/' ||
	    utf8_invalid_at((const unsigned char *)p, len) != len)
		return false;
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '\\' || *c == ':' ||
		    (!dir && *c == '/'))
			return false;
	for (const char *s = p; s;) { /* each component */
		const char *e = strchr(s, '/');
		size_t k = e ? (size_t)(e - s) : strlen(s);
		if (k == 0 || (k == 1 && s[0] == '.') || (k == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s = e ? e + 1 : NULL;
	}
	return true;
}

size_t report_evidence(const struct report_view *v, const struct rv_req *r,
		       char out[RV_EVIDENCE_MAX][RV_EVIDENCE_PATH_MAX], int *trace)
{
	static const enum report_kind order[] = { REPORT_JSON, REPORT_HTML, REPORT_JUNIT,
						  REPORT_SUMMARY };
	size_t n = 0;
	if (trace)
		*trace = -1;
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		const char *p = v->outputs.report[order[k]];
		if (p && report_evidence_path_ok(p, false))
			snprintf(out[n++], RV_EVIDENCE_PATH_MAX, "%s", p);
	}
	if (r->trace && report_trace_ok(r->trace)) {
		if (trace)
			*trace = (int)n;
		snprintf(out[n++], RV_EVIDENCE_PATH_MAX, "%s", r->trace);
	}
	const char *csv = v->outputs.csv;
	if (r->measured && csv && report_evidence_path_ok(csv, true))
		snprintf(out[n++], RV_EVIDENCE_PATH_MAX, "%s%s%s", strcmp(csv, ".") ? csv : "",
			 strcmp(csv, ".") ? "/" : "", REPORT_CSV_INDEX);
	return n;
}

void report_clauses_text(const struct rv_req *r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < r->nclauses && used < len; k++) {
		int w = snprintf(buf + used, len - used, "%s%s", k ? "; " : "", r->clauses[k].ref);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* ---- results.json's form ------------------------------------------------ */

static json_t *cite_json(const struct report_view *v, struct rv_cite c, bool *failed);

/* Like json.c's: the first failure sticks, the value is dropped. */
static void jset(bool *failed, json_t *o, const char *key, json_t *val)
{
	if (!o || !val || json_object_set_new(o, key, val) != 0)
		*failed = true;
	if (!o)
		json_decref(val);
}

static void jpush(bool *failed, json_t *a, json_t *val)
{
	if (!a || !val || json_array_append_new(a, val) != 0)
		*failed = true;
	if (!a)
		json_decref(val);
}

json_t *report_traceability_cite_json(const struct report_view *v, struct rv_cite c)
{
	bool failed = false;
	json_t *o = cite_json(v, c, &failed);
	if (failed) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *cite_json(const struct report_view *v, struct rv_cite c, bool *failed)
{
	const struct rv_req *r = &v->files[c.file].reqs[c.req];
	char ev[RV_EVIDENCE_MAX][RV_EVIDENCE_PATH_MAX];
	json_t *o = json_object(), *a = json_array();
	jset(failed, o, "file", json_string(v->files[c.file].name));
	jset(failed, o, "id", json_string(r->id));
	jset(failed, o, "probe", json_string(r->probe));
	jset(failed, o, "verdict", json_string(verdict_name(r->verdict)));
	size_t n = report_evidence(v, r, ev, NULL);
	for (size_t k = 0; k < n; k++)
		jpush(failed, a, json_string(ev[k]));
	jset(failed, o, "evidence", a);
	return o;
}

json_t *report_traceability_json(const struct report_view *v)
{
	struct rv_matrix m;
	if (report_traceability(v, &m) != 0)
		return NULL;
	bool failed = false;
	json_t *o = json_object(), *rows = json_array(), *un = json_array();
	for (size_t i = 0; i < m.nrows; i++) {
		json_t *row = json_object(), *cites = json_array();
		jset(&failed, row, "ref", json_string(m.rows[i].ref));
		jset(&failed, row, "title",
		     m.rows[i].title ? json_string(m.rows[i].title) : json_null());
		for (size_t k = 0; k < m.rows[i].ncites; k++)
			jpush(&failed, cites, cite_json(v, m.rows[i].cites[k], &failed));
		jset(&failed, row, "requirements", cites);
		jpush(&failed, rows, row);
	}
	for (size_t k = 0; k < m.nuntraced; k++)
		jpush(&failed, un, cite_json(v, m.untraced[k], &failed));
	jset(&failed, o, "clauses", rows);
	jset(&failed, o, "untraced", un);
	rv_matrix_free(&m);
	if (failed) {
		json_decref(o);
		return NULL;
	}
	return o;
}
