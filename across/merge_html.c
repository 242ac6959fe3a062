/* SPDX-License-Identifier: Apache-2.0 */
/* merge_html.c - fleet.html of `rtconform merge`: a table of requirements
 * (rows) by hosts (columns), each cell the host's verdict and the figure of
 * the limit that decided it (rv_req_deciding_limit: a cell beside a
 * failure shows the figure that failed, not the first limit's); under a
 * requirement of several limits a row for each, so every limit can be
 * read; beside them the spread of a limit's figure across the hosts and
 * the host where it is worst; each host's name links to its own
 * report.html. Rendered from the host summaries alone (merge.h).
 */
#include "across/merge.h"
#include "base/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strindex.h"
#include "harness/runinfo.h"
#include "harness/verdict.h"
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

/* "per-op max <= 300 us" */
static void limit_text(const struct merge_limit *l, char *buf, size_t len)
{
	struct quantity lo = { l->min, l->unit }, hi = { l->max, l->unit };
	report_limit_text(l->metric, l->statistic, l->has_min ? &lo : NULL, l->has_max ? &hi : NULL,
			  0, buf, len);
}

/* One limit across hosts: the same metric, statistic, unit and bounds. */
static bool same_limit(const struct merge_limit *a, const struct merge_limit *b)
{
	return !strcmp(a->metric, b->metric) && !strcmp(a->statistic, b->statistic) &&
	       a->unit == b->unit && a->has_max == b->has_max && a->has_min == b->has_min &&
	       (!a->has_max || a->max == b->max) && (!a->has_min || a->min == b->min);
}

static const struct merge_limit *find_limit(const struct merge_req *r,
					    const struct merge_limit *want)
{
	for (size_t i = 0; r && i < r->nlimits; i++)
		if (same_limit(&r->limits[i], want))
			return &r->limits[i];
	return NULL;
}

/* How far l lies past its bounds (limit_excess); +infinity without a
 * figure, as rv_req_deciding_limit ranks it. */
static double excess_of(const struct merge_limit *l)
{
	return l->measured.have ? limit_excess(l->measured.v, l->has_min, l->min, l->has_max, l->max)
				: INFINITY;
}

static const struct merge_limit *deciding(const struct merge_req *r)
{
	return r && r->decides < r->nlimits ? &r->limits[r->decides] : NULL;
}

/* The limits of a row: every limit a host has of it, in order of first
 * appearance (hosts may run different versions of a file). */
struct row_limits {
	const struct merge_limit **l;
	size_t n, cap;
};

static bool row_limits(const struct merge *mg, const struct merge_req *row, struct row_limits *u)
{
	u->n = 0;
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_req *r = find_req(mg, h, row);
		for (size_t i = 0; r && i < r->nlimits; i++) {
			size_t k = 0;
			while (k < u->n && !same_limit(u->l[k], &r->limits[i]))
				k++;
			if (k < u->n)
				continue;
			if (u->n == u->cap) {
				size_t cap = u->cap ? 2 * u->cap : 8;
				const struct merge_limit **n = realloc(u->l, cap * sizeof *n);
				if (!n)
					return false;
				u->l = n;
				u->cap = cap;
			}
			u->l[u->n++] = &r->limits[i];
		}
	}
	return true;
}

/* A verdict and, when there is one, the figure: "FAIL 845 µs". */
static void verdict_figure(struct xw *x, enum verdict v, const struct merge_limit *l)
{
	xw_text(x, verdict_label_of(v, l != NULL));
	if (l && l->measured.have) {
		char f[80];
		units_fmt_qty(&(struct quantity){ l->measured.v, l->unit }, f, sizeof f);
		xw_text(x, " ");
		html_text_micro(x, f);
	}
}

/* A host's cell of a requirement: its verdict and the figure of the limit
 * that decided it, which is named when the row has several. */
static void req_cell(struct xw *x, const struct merge_req *r, bool name_limit)
{
	xw_start(x, "td");
	if (!r) {
		xw_attr(x, "class", "absent");
		xw_text(x, "-");
		xw_full_end(x);
		return;
	}
	xw_attr(x, "class", verdict_name(r->verdict));
	const struct merge_limit *d = deciding(r);
	verdict_figure(x, r->verdict, d);
	if (name_limit && d) {
		char lim[200];
		limit_text(d, lim, sizeof lim);
		xw_start(x, "span");
		xw_attr(x, "class", "decided");
		html_text_micro(x, lim);
		xw_full_end(x);
	}
	xw_full_end(x);
}

/* A host's cell of one limit of a requirement ("-": the host has no such
 * limit). */
static void limit_cell(struct xw *x, const struct merge_limit *l)
{
	xw_start(x, "td");
	xw_attr(x, "class", l ? verdict_name(l->verdict) : "absent");
	if (l)
		verdict_figure(x, l->verdict, l);
	else
		xw_text(x, "-");
	xw_full_end(x);
}

/* min .. max of one limit's figure over the hosts that have the limit, and
 * the host where it is worst (one figure alone when every host has it): furthest past its bound (limit_excess), so
 * the highest against a max, the lowest against a min. */
static void limit_spread(struct xw *x, const struct merge *mg, const struct merge_req *row,
			 const struct merge_limit *key)
{
	double lo = INFINITY, hi = -INFINITY, worst_e = 0;
	const struct merge_host *worst = NULL;
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_limit *l = find_limit(find_req(mg, h, row), key);
		if (!l || !l->measured.have)
			continue;
		double v = l->measured.v, e = excess_of(l);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		if (!worst || e > worst_e) {
			worst = &mg->hosts[h];
			worst_e = e;
		}
	}
	xw_start(x, "td");
	if (worst) {
		char a[80], b[80];
		units_fmt_qty(&(struct quantity){ lo, key->unit }, a, sizeof a);
		units_fmt_qty(&(struct quantity){ hi, key->unit }, b, sizeof b);
		html_text_micro(x, a);
		/* one figure on every host: none is worse than another */
		if (lo == hi) {
			xw_text(x, " on every host that has it");
		} else {
			xw_text(x, " .. ");
			html_text_micro(x, b);
			xw_textf(x, "; worst: %s", worst->name);
		}
	} else {
		xw_text(x, "-");
	}
	xw_full_end(x);
}

/* The host whose verdict of a requirement of several limits is worst: by
 * verdict_rank, then by how far its deciding limit lies past its bound. */
static void worst_host(struct xw *x, const struct merge *mg, const struct merge_req *row)
{
	const struct merge_host *worst = NULL;
	const struct merge_limit *wl = NULL;
	int worst_rank = 0;
	double worst_e = 0;
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_req *r = find_req(mg, h, row);
		if (!r || r->verdict == VERDICT_SKIPPED)
			continue;
		const struct merge_limit *d = deciding(r);
		int rank = verdict_rank(r->verdict);
		double e = d ? excess_of(d) : -INFINITY;
		if (!worst || rank > worst_rank || (rank == worst_rank && e > worst_e)) {
			worst = &mg->hosts[h];
			wl = d;
			worst_rank = rank;
			worst_e = e;
		}
	}
	xw_start(x, "td");
	if (worst) {
		xw_textf(x, "worst: %s", worst->name);
		if (wl) {
			char lim[200];
			limit_text(wl, lim, sizeof lim);
			xw_text(x, "; decided by ");
			html_text_micro(x, lim);
		}
	} else {
		xw_text(x, "-");
	}
	xw_full_end(x);
}

static void header_row(struct xw *x, const struct merge *mg)
{
	xw_start(x, "tr");
	xw_elem(x, "th", "requirement");
	xw_elem(x, "th", "limit");
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_host *fh = &mg->hosts[h];
		xw_start(x, "th");
		/* The path is ours (merge.c, from the file system), but its
		 * directory names are anyone's: encoded, "./" first. */
		report_file_link(x, fh->link, fh->name);
		xw_full_end(x);
	}
	xw_elem(x, "th", "spread across hosts");
	xw_full_end(x);
}

/* A row per limit of a requirement of several: each host's verdict of
 * that limit and its figure. */
static void limit_rows(struct xw *x, const struct merge *mg, const struct merge_req *row,
		       const struct row_limits *u)
{
	for (size_t k = 0; k < u->n; k++) {
		char lim[200];
		limit_text(u->l[k], lim, sizeof lim);
		xw_start(x, "tr");
		xw_attr(x, "class", "limit");
		xw_elem(x, "th", "");
		xw_start(x, "td");
		html_text_micro(x, lim);
		xw_full_end(x);
		for (size_t h = 0; h < mg->nhosts; h++)
			limit_cell(x, find_limit(find_req(mg, h, row), u->l[k]));
		limit_spread(x, mg, row, u->l[k]);
		xw_full_end(x);
	}
}

/* A requirement's row: each host's verdict and deciding figure; with one
 * limit, that limit and its spread; with several, a row for each below. */
static void req_rows(struct xw *x, const struct merge *mg, const struct merge_req *r,
		     const struct row_limits *u)
{
	xw_start(x, "tr");
	xw_start(x, "th");
	xw_textf(x, "%s%s%s", r->id, r->title ? ": " : "", r->title ? r->title : "");
	xw_full_end(x);
	char lim[200] = "no limit";
	if (u->n == 1)
		limit_text(u->l[0], lim, sizeof lim);
	else if (u->n > 1)
		utf8_snprintf(lim, sizeof lim, "%zu limits, each below; a cell names the one that "
			      "decided it", u->n);
	xw_start(x, "td");
	html_text_micro(x, lim);
	xw_full_end(x);
	for (size_t h = 0; h < mg->nhosts; h++)
		req_cell(x, find_req(mg, h, r), u->n > 1);
	if (u->n == 1)
		limit_spread(x, mg, r, u->l[0]);
	else if (u->n > 1)
		worst_host(x, mg, r);
	else
		xw_elem(x, "td", "-");
	xw_full_end(x);
	if (u->n > 1)
		limit_rows(x, mg, r, u);
}

static void table(struct xw *x, const struct merge *mg, const struct row *rows, size_t nrows)
{
	struct row_limits u = { 0 };
	xw_start(x, "table");
	xw_attr(x, "class", "fleet");
	header_row(x, mg);
	for (size_t i = 0; i < nrows && !x->failed; i++) {
		if (!row_limits(mg, rows[i].first, &u)) {
			x->failed = true; /* out of memory */
			break;
		}
		req_rows(x, mg, rows[i].first, &u);
	}
	xw_full_end(x);
	free(u.l);
}

/* Each host: verdict counts, where it came from, a repeated identity. */
static void host_list(struct xw *x, const struct merge *mg)
{
	xw_elem(x, "h2", "Hosts");
	xw_start(x, "ul");
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_host *fh = &mg->hosts[h];
		char counts[200];
		report_totals_text(&fh->totals, counts, sizeof counts);
		xw_start(x, "li");
		xw_textf(x, "%s: %s; from %s", fh->name, counts, fh->source);
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
	char title[96];
	utf8_snprintf(title, sizeof title, "rtconform fleet: %s on %zu host%s",
		      merge_status_label(mg), mg->nhosts,
		 mg->nhosts == 1 ? "" : "s");
	page_begin(x, title, title);
	xw_start(x, "p");
	/* requirements are the table's rows, one per (file, id); each host's
	 * verdict of one is a result */
	char counts[400];
	merge_counts_text(mg, counts, sizeof counts);
	xw_textf(x, "%s. "
		    "Each cell: the host's verdict and the figure of the limit that decided it "
		    "(of a failure, the failed limit furthest past its bound, relative to the "
		    "bound; of a pass, the limit nearest its bound). A requirement of several "
		    "limits has a row for each below it.", counts);
	xw_full_end(x);
	table(x, mg, rows, nrows);
	host_list(x, mg);
	page_end(x, runinfo_version, runinfo_commit, " merge. results.json beside this file "
		 "holds every host's results.json whole.");
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

int merge_html_put(const struct merge *mg, FILE *f, char *why, size_t whylen)
{
	size_t nrows = 0;
	struct row *rows = collect_rows(mg, &nrows);
	if (!rows) {
		utf8_snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	struct merge_doc d = { mg, rows, nrows };
	int rc = xw_put(merge_doc, &d, false, f, why, whylen);
	free(rows);
	free(fleet_index);
	fleet_index = NULL;
	fleet_nindex = 0;
	return rc ? -EIO : 0;
}
