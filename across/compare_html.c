/* SPDX-License-Identifier: Apache-2.0 */
/* compare_html.c - compare.html of `rtconform compare` (compare.h): the
 * table, then both histograms of each metric with a changed figure drawn
 * over each other. Rendered from the comparison alone. */
#include "across/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "reports/html_plot.h"
#include "reports/page.h"
#include "reports/xmlw.h"

/* ---- compare.html -------------------------------------------------------- */

static void nl(struct xw *x)
{
	xw_raw(x, "\n");
}

static void cell(struct xw *x, const char *cls, const char *text)
{
	xw_start(x, "td");
	if (cls)
		xw_attr(x, "class", cls);
	html_text_micro(x, text);
	xw_full_end(x);
}

static void html_table(struct xw *x, const struct cmp_result *r)
{
	static const char *const heads[] = { "requirement", "metric", "statistic", "baseline",
					     "candidate", "change", "allowed", "p", "outcome", "note" };
	xw_start(x, "table");
	xw_start(x, "tr");
	for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
		xw_elem(x, "th", heads[i]);
	xw_end(x);
	nl(x);
	for (size_t i = 0; i < r->n; i++) {
		const struct cmp_figure *f = &r->f[i];
		struct cmp_row_text t;
		char stat[64];
		cmp_row_text(f, &t);
		snprintf(stat, sizeof stat, "%s%s%s", f->statistic,
			 f->unit == QTY_CYCLES ? " (cycles)" : "", f->limited ? " (limited)" : "");
		xw_start(x, "tr");
		if (f->outcome == CMP_WORSE || f->outcome == CMP_BETTER)
			xw_attr(x, "class", f->outcome == CMP_WORSE ? "worse" : "better");
		else if (f->outcome == CMP_INCONCLUSIVE)
			xw_attr(x, "class", "inconclusive");
		cell(x, NULL, f->id);
		cell(x, NULL, f->metric);
		cell(x, NULL, stat);
		cell(x, "num", t.base);
		cell(x, "num", t.cand);
		cell(x, "num", t.change);
		cell(x, "num", t.allowed);
		cell(x, "num", t.p);
		cell(x, NULL, cmp_outcome_name(f->outcome));
		cell(x, "note", f->note ? f->note : "");
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
}

#define SVG_W 680
#define SVG_H 220
#define PLOT_L 50
#define PLOT_R 660
#define PLOT_T 24
#define PLOT_B 186
#define SVG_COLS 170

/* The log10 span (ns) both histograms fall in, at least one decade. */
static void overlay_span(const struct rv_metric *const m[2], double *l0, double *l1)
{
	double lo = INFINITY, hi = 0;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < m[s]->nbuckets; i++) {
			double a = fmax((double)m[s]->buckets[i].lo, 1.0) * m[s]->ns_per_unit;
			double b = ((double)m[s]->buckets[i].hi + 1.0) * m[s]->ns_per_unit;
			lo = fmin(lo, a);
			hi = fmax(hi, b);
		}
	if (!(lo > 0) || !isfinite(lo)) {
		lo = 1;
		hi = 10;
	}
	*l0 = floor(log10(lo));
	*l1 = fmax(ceil(log10(hi)), *l0 + 1);
}

/* A histogram as the fraction of its samples in each of SVG_COLS columns
 * of the log axis: runs of different lengths compare by shape. */
static void overlay_columns(const struct rv_metric *m, double l0, double l1,
			    double col[SVG_COLS])
{
	memset(col, 0, SVG_COLS * sizeof *col);
	uint64_t total = 0;
	for (size_t i = 0; i < m->nbuckets; i++)
		total += m->buckets[i].count;
	for (size_t i = 0; total && i < m->nbuckets; i++) {
		double mid = ((double)m->buckets[i].lo + (double)m->buckets[i].hi + 1.0) / 2.0 *
			     m->ns_per_unit;
		int c = (int)floor((log10(fmax(mid, 1e-9)) - l0) / (l1 - l0) * SVG_COLS);
		c = c < 0 ? 0 : c >= SVG_COLS ? SVG_COLS - 1 : c;
		col[c] += (double)m->buckets[i].count / (double)total;
	}
}

/* Bar height: the fraction on a log scale from 1e-5 (one sample in
 * 100000 still shows) to 1. */
static double bar_height(double frac)
{
	double h = log10(1.0 + 1e5 * frac) / 5.0;
	return fmin(h, 1.0) * (PLOT_B - PLOT_T);
}

static void svg_bars(struct xw *x, const double col[SVG_COLS], const char *fill, double opacity)
{
	double w = (double)(PLOT_R - PLOT_L) / SVG_COLS;
	for (int c = 0; c < SVG_COLS; c++) {
		if (col[c] <= 0)
			continue;
		double h = fmax(bar_height(col[c]), 1.0);
		xw_start(x, "rect");
		xw_attrf(x, "x", "%.1f", PLOT_L + c * w);
		xw_attrf(x, "y", "%.1f", PLOT_B - h);
		xw_attrf(x, "width", "%.1f", w);
		xw_attrf(x, "height", "%.1f", h);
		xw_attr(x, "fill", fill);
		xw_attrf(x, "fill-opacity", "%.2f", opacity);
		xw_end(x);
	}
}

static void svg_text(struct xw *x, double px, double py, const char *anchor, const char *text)
{
	xw_start(x, "text");
	xw_attrf(x, "x", "%.1f", px);
	xw_attrf(x, "y", "%.1f", py);
	if (anchor)
		xw_attr(x, "text-anchor", anchor);
	html_text_micro(x, text);
	xw_full_end(x);
}

static void svg_axis(struct xw *x, double l0, double l1)
{
	xw_start(x, "path");
	xw_attrf(x, "d", "M%d %dH%d", PLOT_L, PLOT_B, PLOT_R);
	xw_attr(x, "stroke", "#57606a");
	xw_end(x);
	for (double d = l0; d <= l1 + 1e-9; d += 1) {
		double px = PLOT_L + (d - l0) / (l1 - l0) * (PLOT_R - PLOT_L);
		char label[32];
		fmt_ns(pow(10, d), label, sizeof label);
		xw_start(x, "path");
		xw_attrf(x, "d", "M%.1f %dV%d", px, PLOT_B, PLOT_B + 5);
		xw_attr(x, "stroke", "#57606a");
		xw_end(x);
		svg_text(x, px, PLOT_B + 17, "middle", label);
	}
}

/* Both histograms of a metric over each other: the baseline grey, the
 * candidate red, on one logarithmic value axis. */
static void svg_overlay(struct xw *x, const struct rv_metric *mb, const struct rv_metric *mc)
{
	const struct rv_metric *m[2] = { mb, mc };
	double l0, l1, col[SVG_COLS];
	overlay_span(m, &l0, &l1);
	xw_start(x, "svg");
	xw_attr(x, "xmlns", "http://www.w3.org/2000/svg");
	xw_attrf(x, "width", "%d", SVG_W);
	xw_attrf(x, "height", "%d", SVG_H);
	xw_attrf(x, "viewBox", "0 0 %d %d", SVG_W, SVG_H);
	xw_attr(x, "role", "img");
	overlay_columns(mb, l0, l1, col);
	svg_bars(x, col, "#6e7781", 0.55);
	overlay_columns(mc, l0, l1, col);
	svg_bars(x, col, "#cf222e", 0.45);
	svg_axis(x, l0, l1);
	xw_start(x, "rect");
	xw_attrf(x, "x", "%d", PLOT_L);
	xw_attr(x, "y", "6");
	xw_attr(x, "width", "10");
	xw_attr(x, "height", "10");
	xw_attr(x, "fill", "#6e7781");
	xw_end(x);
	svg_text(x, PLOT_L + 14, 15, NULL, "baseline");
	xw_start(x, "rect");
	xw_attrf(x, "x", "%d", PLOT_L + 90);
	xw_attr(x, "y", "6");
	xw_attr(x, "width", "10");
	xw_attr(x, "height", "10");
	xw_attr(x, "fill", "#cf222e");
	xw_end(x);
	svg_text(x, PLOT_L + 104, 15, NULL, "candidate (fraction of samples, log scale)");
	xw_full_end(x);
}

/* Whether a figure changed, or may have (its histograms are worth a look). */
static bool changed(const struct cmp_figure *f)
{
	return f->outcome == CMP_WORSE || f->outcome == CMP_BETTER ||
	       f->outcome == CMP_INCONCLUSIVE;
}

/* Whether figure i is the first changed one of its metric. */
static bool first_changed(const struct cmp_result *r, size_t i)
{
	const struct cmp_figure *f = &r->f[i];
	if (!f->mb || !f->mc || f->mc->kind != METRIC_DURATION || !changed(f))
		return false;
	for (size_t j = 0; j < i; j++)
		if (r->f[j].mc == f->mc && changed(&r->f[j]))
			return false;
	return true;
}

static void html_histograms(struct xw *x, const struct cmp_result *r)
{
	bool any = false;
	for (size_t i = 0; i < r->n; i++) {
		const struct cmp_figure *f = &r->f[i];
		if (!first_changed(r, i))
			continue;
		if (!any)
			xw_elem(x, "h2", "Changed metrics: both histograms");
		any = true;
		xw_start(x, "h3");
		xw_textf(x, "%s %s", f->id, f->metric);
		xw_full_end(x);
		xw_start(x, "figure");
		svg_overlay(x, f->mb, f->mc);
		xw_start(x, "figcaption");
		xw_textf(x, "%llu baseline samples, %llu candidate samples; ",
			 (unsigned long long)f->mb->count, (unsigned long long)f->mc->count);
		for (size_t j = i; j < r->n; j++)
			if (r->f[j].mc == f->mc && r->f[j].outcome != CMP_SAME) {
				char s[1200];
				cmp_figure_sentence(&r->f[j], s, sizeof s);
				html_text_micro(x, s);
				xw_text(x, ". ");
			}
		xw_full_end(x);
		xw_full_end(x);
		nl(x);
	}
}

static void html_document(struct xw *x, const void *arg)
{
	const struct cmp_result *r = arg;
	int status = cmp_exit_status(r);
	char hb[400], hc[400];
	fingerprint_host_title(&r->base->env, hb, sizeof hb);
	fingerprint_host_title(&r->cand->env, hc, sizeof hc);
	char title[96], rule[900];
	snprintf(title, sizeof title, "rtconform compare: %zu worse, %zu inconclusive", r->worse,
		 r->inconclusive);
	cmp_rule_text(r, rule, sizeof rule);
	page_begin(x, title);
	nl(x);
	xw_elem(x, "h1", "rtconform compare");
	xw_start(x, "div");
	xw_attrf(x, "class", "banner %s", r->worse ? "b-fail" : r->inconclusive ? "b-undecided"
									       : "b-pass");
	xw_textf(x, "%s \xe2\x80\x94 %zu worse, %zu inconclusive, %zu better, %zu same, "
		    "%zu not compared; tolerance %g%%, significance %g",
		 r->worse ? "REGRESSION" : !r->inconclusive ? "NO REGRESSION"
			 : status ? "INCONCLUSIVE" : "INCONCLUSIVE (allowed)", r->worse,
		 r->inconclusive, r->better, r->same, r->not_compared, 100.0 * r->opts.tolerance,
		 r->opts.significance);
	xw_full_end(x);
	xw_start(x, "p");
	xw_textf(x, "Baseline %s (%s); candidate %s (%s). %s", r->base_path, hb, r->cand_path,
		 hc, rule);
	xw_full_end(x);
	if (r->nnotes) {
		xw_start(x, "ul");
		for (size_t i = 0; i < r->nnotes; i++)
			xw_elem(x, "li", r->notes[i]);
		xw_full_end(x);
	}
	html_table(x, r);
	html_histograms(x, r);
	xw_full_end(x); /* body */
	xw_full_end(x); /* html */
	nl(x);
}

char *cmp_render_html(const struct cmp_result *r, size_t *len)
{
	return xw_render(html_document, r, false, len, NULL, 0);
}
