/* SPDX-License-Identifier: Apache-2.0 */
/* merge_html.c - fleet.html of `rtconform merge`: a table of requirements
 * (rows) by hosts (columns), each cell the host's verdict and the figure the
 * requirement's first limit judges; beside them the spread of that figure
 * across the hosts and the host where it is worst; each host's name links
 * to its own report.html. Rendered from the host summaries alone (merge.h).
 */
#include "across/merge.h"
#include "base/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strindex.h"
#include "harness/runinfo.h"
#include "reports/html_plot.h"
#include "reports/link.h"
#include "reports/page.h"
#include "reports/xmlw.h"

/* A row: one requirement (file, id) as the first host that has it shows it. */
struct row {
	const struct merge_req *first;
	uint64_t at; /* where: host << 32 | position */
};

/* Every requirement of every host by (file, id, host, position), so that a
 * host's cell of a row is found in log time (a scan of each host for each
 * row was quadratic: 50,000 requirements took minutes). Built for one
 * render; hosts and positions are below 2^32. */
static struct strindex_entry *fleet_index;
static size_t fleet_nindex;

#define AT(h, i) ((uint64_t)(h) << 32 | (uint64_t)(i))

static const struct merge_req *find_req(const struct merge *mg, size_t h,
					const struct merge_req *want)
{
	size_t k = strindex_lower(fleet_index, fleet_nindex, want->file, want->id, AT(h, 0));
	if (k == fleet_nindex || !strindex_is(&fleet_index[k], want->file, want->id) ||
	    fleet_index[k].i >> 32 != h)
		return NULL;
	return &mg->hosts[h].reqs[fleet_index[k].i & UINT32_MAX];
}

static int by_at(const void *p, const void *q)
{
	const struct row *a = p, *b = q;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* The index, and every requirement of every host in order of first
 * appearance: the first entry of each key, sorted by where it is. */
static struct row *collect_rows(const struct merge *mg, size_t *n)
{
	size_t total = 0;
	for (size_t h = 0; h < mg->nhosts; h++)
		total += mg->hosts[h].nreqs;
	struct strindex_entry *e = malloc((total ? total : 1) * sizeof *e);
	struct row *rows = malloc((total ? total : 1) * sizeof *rows);
	*n = 0;
	if (!e || !rows) {
		free(e);
		free(rows);
		return NULL;
	}
	size_t k = 0;
	for (size_t h = 0; h < mg->nhosts; h++)
		for (size_t i = 0; i < mg->hosts[h].nreqs; i++)
			e[k++] = (struct strindex_entry){ mg->hosts[h].reqs[i].file,
							  mg->hosts[h].reqs[i].id, AT(h, i) };
	strindex_sort(e, total);
	for (k = 0; k < total; k++)
		if (!k || !strindex_is(&e[k - 1], e[k].a, e[k].b))
			rows[(*n)++] = (struct row){
				&mg->hosts[e[k].i >> 32].reqs[e[k].i & UINT32_MAX], e[k].i };
	qsort(rows, *n, sizeof *rows, by_at);
	fleet_index = e;
	fleet_nindex = total;
	return rows;
}

static void fmt_figure(enum qty_unit unit, double v, char *buf, size_t len)
{
	char n[40];
	if (unit == QTY_NS) {
		units_fmt_ns(v, buf, len);
		return;
	}
	numfmt_fmt3(v, n, sizeof n);
	utf8_snprintf(buf, len, "%s%s", n, unit == QTY_CYCLES ? " cycles" : "");
}

/* "per-op max <= 300 us" */
static void limit_text(const struct merge_req *r, char *buf, size_t len)
{
	char lo[64] = "", hi[64] = "";
	struct quantity q = { .unit = r->unit };
	if (r->has_min) {
		q.value = r->min;
		units_fmt_qty(&q, lo, sizeof lo);
	}
	if (r->has_max) {
		q.value = r->max;
		units_fmt_qty(&q, hi, sizeof hi);
	}
	if (r->has_min && r->has_max)
		utf8_snprintf(buf, len, "%s %s in [%s, %s]", r->metric, r->statistic, lo, hi);
	else
		utf8_snprintf(buf, len, "%s %s %s %s", r->metric, r->statistic, r->has_max ? "<=" : ">=",
			 r->has_max ? hi : lo);
}

static void cell(struct xw *x, const struct merge_req *r)
{
	xw_start(x, "td");
	if (!r) {
		xw_attr(x, "class", "absent");
		xw_text(x, "-");
		xw_full_end(x);
		return;
	}
	xw_attr(x, "class", verdict_name(r->verdict));
	xw_text(x, verdict_label_of(r->verdict, r->has_limit));
	if (r->has_limit && r->measured.have) {
		char v[80];
		fmt_figure(r->unit, r->measured.v, v, sizeof v);
		xw_text(x, " ");
		html_text_micro(x, v);
	}
	xw_full_end(x);
}

/* min .. max of the row's figure over the hosts with its unit, and the
 * host where it is worst (highest against a max, lowest against a min). */
static void spread(struct xw *x, const struct merge *mg, const struct merge_req *row)
{
	double lo = INFINITY, hi = -INFINITY;
	const struct merge_host *worst = NULL;
	double worst_v = 0;
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_req *r = find_req(mg, h, row);
		if (!r || !r->has_limit || !r->measured.have || r->unit != row->unit ||
		    strcmp(r->metric, row->metric) || strcmp(r->statistic, row->statistic))
			continue;
		double v = r->measured.v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		bool worse = row->has_max ? v > worst_v : v < worst_v;
		if (!worst || worse) {
			worst = &mg->hosts[h];
			worst_v = v;
		}
	}
	xw_start(x, "td");
	if (worst) {
		char a[80], b[80];
		fmt_figure(row->unit, lo, a, sizeof a);
		fmt_figure(row->unit, hi, b, sizeof b);
		html_text_micro(x, a);
		xw_text(x, " .. ");
		html_text_micro(x, b);
		xw_textf(x, "; worst: %s", worst->name);
	} else {
		xw_text(x, "-");
	}
	xw_full_end(x);
}

static void header_row(struct xw *x, const struct merge *mg)
{
	xw_start(x, "tr");
	xw_elem(x, "th", "requirement");
	xw_elem(x, "th", "limited figure");
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_host *fh = &mg->hosts[h];
		xw_start(x, "th");
		/* The path is ours (merge.c, from the file system), but its
		 * directory names are anyone's: encoded, "./" first. */
		char *href = fh->link ? report_href(fh->link) : NULL;
		if (fh->link && !href)
			x->failed = true; /* out of memory */
		if (href) {
			xw_start(x, "a");
			xw_attr(x, "href", href);
			xw_text(x, fh->name);
			xw_full_end(x);
			free(href);
		} else {
			xw_text(x, fh->name);
		}
		xw_full_end(x);
	}
	xw_elem(x, "th", "spread across hosts");
	xw_full_end(x);
}

static void table(struct xw *x, const struct merge *mg, const struct row *rows, size_t nrows)
{
	xw_start(x, "table");
	header_row(x, mg);
	for (size_t i = 0; i < nrows; i++) {
		const struct merge_req *r = rows[i].first;
		xw_start(x, "tr");
		xw_start(x, "th");
		xw_textf(x, "%s%s%s", r->id, r->title ? ": " : "", r->title ? r->title : "");
		xw_full_end(x);
		char lim[200] = "no limit";
		if (r->has_limit)
			limit_text(r, lim, sizeof lim);
		xw_start(x, "td");
		html_text_micro(x, lim);
		xw_full_end(x);
		for (size_t h = 0; h < mg->nhosts; h++)
			cell(x, find_req(mg, h, r));
		if (r->has_limit)
			spread(x, mg, r);
		else
			xw_elem(x, "td", "-");
		xw_full_end(x);
	}
	xw_full_end(x);
}

/* Each host: verdict counts, where it came from, a repeated identity. */
static void host_list(struct xw *x, const struct merge *mg)
{
	xw_elem(x, "h2", "Hosts");
	xw_start(x, "ul");
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_host *fh = &mg->hosts[h];
		const struct report_totals *t = &fh->totals;
		xw_start(x, "li");
		xw_textf(x, "%s: %zu passed, %zu failed, %zu errors, %zu skipped; from %s",
			 fh->name, t->passed, t->failures, t->errors, t->skipped, fh->source);
		if (fh->seen > 1) {
			xw_start(x, "span");
			xw_attr(x, "class", "note");
			xw_textf(x, " (host %s appears more than once: kept apart)", fh->identity);
			xw_full_end(x);
		}
		xw_full_end(x);
	}
	xw_full_end(x);
}

static void document(struct xw *x, const struct merge *mg, const struct row *rows, size_t nrows)
{
	int status = merge_exit_status(mg);
	const char *v = status == 0 ? "PASS" : status == 1 ? "FAIL" : "ERROR";
	char title[96];
	utf8_snprintf(title, sizeof title, "rtconform fleet: %s on %zu host%s", v, mg->nhosts,
		 mg->nhosts == 1 ? "" : "s");
	page_begin(x, title);
	xw_elem(x, "h1", title);
	xw_start(x, "p");
	xw_textf(x, "%zu requirement%s measured: %zu passed, %zu failed, %zu error%s, %zu skipped. "
		    "Each cell: the host's verdict and the figure its first limit judges.",
		 mg->totals.tests, mg->totals.tests == 1 ? "" : "s", mg->totals.passed,
		 mg->totals.failures, mg->totals.errors, mg->totals.errors == 1 ? "" : "s",
		 mg->totals.skipped);
	xw_full_end(x);
	table(x, mg, rows, nrows);
	host_list(x, mg);
	xw_start(x, "footer");
	xw_textf(x, "rtconform %s (commit %s) merge. results.json beside this file holds "
		    "every host's results.json whole.", runinfo_version, runinfo_commit);
	xw_full_end(x);
	xw_full_end(x); /* body */
	xw_full_end(x); /* html */
}

struct merge_doc {
	const struct merge *mg;
	const struct row *rows;
	size_t nrows;
};

static void merge_doc(struct xw *x, const void *arg)
{
	const struct merge_doc *d = arg;
	document(x, d->mg, d->rows, d->nrows);
}

char *merge_html_render(const struct merge *mg, size_t *len, char *why, size_t whylen)
{
	size_t nrows = 0;
	struct row *rows = collect_rows(mg, &nrows);
	if (!rows) {
		utf8_snprintf(why, whylen, "%s", strerror(ENOMEM));
		return NULL;
	}
	struct merge_doc d = { mg, rows, nrows };
	char *out = xw_render(merge_doc, &d, false, len, why, whylen);
	free(rows);
	free(fleet_index);
	fleet_index = NULL;
	fleet_nindex = 0;
	return out;
}
