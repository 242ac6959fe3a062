/* SPDX-License-Identifier: Apache-2.0 */
/* compare_html.c - compare.html of `rtconform compare` (compare.h): the
 * table, then both histograms of each metric with a changed figure drawn
 * over each other, with the candidate's limits on it as report.html draws
 * them (html_plot.h). Rendered from the comparison alone. */
#include "across/compare.h"
#include "base/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "harness/runinfo.h"
#include "harness/verdict.h"
#include "reports/html_plot.h"
#include "reports/page.h"
#include "reports/svg.h"
#include "reports/xmlw.h"

/* ---- compare.html -------------------------------------------------------- */

static void nl(struct xw *x)
{
	xw_raw(x, "\n");
}

static void html_table(struct xw *x, const struct cmp_result *r)
{
	static const char *const heads[] = { "requirement", "metric", "statistic", "baseline",
					     "candidate", "change", "allowed", "interval", "outcome", "note" };
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
		utf8_snprintf(stat, sizeof stat, "%s%s%s", f->statistic,
			 f->unit == QTY_CYCLES ? " (cycles)" : "", f->limited ? " (limited)" : "");
		xw_start(x, "tr");
		if (f->outcome == CMP_WORSE || f->outcome == CMP_BETTER)
			xw_attr(x, "class", f->outcome == CMP_WORSE ? "worse" : "better");
		else if (f->outcome == CMP_INCONCLUSIVE || f->outcome == CMP_CHANGED)
			xw_attr(x, "class", "inconclusive");
		html_cell(x, NULL, f->id);
		html_cell(x, NULL, f->metric);
		html_cell(x, NULL, stat);
		html_cell(x, "num", t.base);
		html_cell(x, "num", t.cand);
		html_cell(x, "num", t.change);
		html_cell(x, "num", t.allowed);
		html_cell(x, "num", t.interval);
		html_cell(x, NULL, cmp_figure_outcome(f));
		html_cell(x, "note", f->note ? f->note : "");
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
}

/* The plot's top leaves two rows for the limits' labels under the legend
 * (html_limit_draw puts them 31 and 13 above it). */
#define SVG_W 680
#define SVG_H 264
#define PLOT_L 62
#define PLOT_R 660
#define PLOT_T 62
#define PLOT_B 226
#define SVG_COLS 170

/* The log10 span (ns) both histograms fall in, at least one decade,
 * widened to the limits near it as report.html's axis is
 * (html_limits_widen). A bucket whose edges are not above 0 (a scale of
 * 0) takes no part; with no such edge at all the span is 1 ns .. 10 ns.
 * False when a bound is not finite (a scale so large the values
 * overflow): no axis can be drawn. */
static bool overlay_span(const struct rv_metric *const m[2], const struct html_limit_line *lines,
			 size_t nlines, double *l0, double *l1)
{
	double lo = INFINITY, hi = 0;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < m[s]->nbuckets; i++) {
			double a = fmax((double)m[s]->buckets[i].lo, 1.0) * m[s]->ns_per_unit;
			double b = ((double)m[s]->buckets[i].hi + 1.0) * m[s]->ns_per_unit;
			if (a > 0)
				lo = fmin(lo, a);
			if (b > 0)
				hi = fmax(hi, b);
		}
	if (!(hi > 0)) {
		lo = 1;
		hi = 10;
	} else if (!(lo < hi)) {
		lo = hi / 10;
	}
	html_limits_widen(lines, nlines, &lo, &hi);
	*l0 = floor(log10(lo));
	*l1 = fmax(ceil(log10(hi)), *l0 + 1);
	return isfinite(*l0) && isfinite(*l1);
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
#define FRAC_DECADES 5
static double bar_height(double frac)
{
	double h = log10(1.0 + 1e5 * frac) / FRAC_DECADES;
	return fmin(h, 1.0) * (PLOT_B - PLOT_T);
}

/* The vertical axis: the share of each run's samples a bar holds, a grid
 * line and label at each decade from 100 % down to 0.001 %, placed by
 * bar_height itself, so a bar's top reads off the axis. */
static void overlay_y_axis(struct xw *x)
{
	static const char *const labels[FRAC_DECADES + 1] = { "100%", "10%", "1%", "0.1%",
							      "0.01%", "0.001%" };
	double frac = 1;
	for (int k = 0; k <= FRAC_DECADES; k++, frac /= 10) {
		double py = PLOT_B - bar_height(frac);
		svg_line(x, PLOT_L, py, PLOT_R, py, "grid");
		svg_line(x, PLOT_L - 4, py, PLOT_L, py, "axis");
		svg_text(x, PLOT_L - 6, py + 4, "end", NULL, labels[k]);
	}
	svg_line(x, PLOT_L, PLOT_T, PLOT_L, PLOT_B, "axis");
}

static void overlay_bars(struct xw *x, const double col[SVG_COLS], const char *cls)
{
	double w = (double)(PLOT_R - PLOT_L) / SVG_COLS;
	for (int c = 0; c < SVG_COLS; c++) {
		if (col[c] <= 0)
			continue;
		double h = fmax(bar_height(col[c]), 1.0);
		svg_rect(x, PLOT_L + c * w, PLOT_B - h, w, h, cls, NULL);
	}
}

/* Which colour is which side, above the plot, and what the bars' height
 * is. */
static void overlay_legend(struct xw *x, const char *cand)
{
	svg_rect(x, PLOT_L, 6, 10, 10, "ov-base", NULL);
	svg_text(x, PLOT_L + 14, 15, NULL, NULL, "baseline");
	svg_rect(x, PLOT_L + 90, 6, 10, 10, cand, NULL);
	svg_text(x, PLOT_L + 104, 15, NULL, NULL, "candidate");
	svg_text(x, PLOT_R, 15, "end", NULL, "share of samples (log scale)");
}

/* The candidate's colour in figure i's overlay, by its metric's figures
 * (they follow each other, compare.c): red when one is worse or decided a
 * worse verdict, green when every one that moved is better, else neutral. */
static const char *cand_class(const struct cmp_result *r, size_t i)
{
	bool better = false;
	for (size_t j = i; j < r->n && r->f[j].mc == r->f[i].mc; j++) {
		const struct cmp_figure *f = &r->f[j];
		if (f->outcome == CMP_WORSE || (f->decides && cmp_verdict_change(f->vbase, f->vcand)
							      == CMP_WORSE))
			return "ov-worse";
		if (f->outcome == CMP_INCONCLUSIVE || f->decides)
			return "ov-cand";
		better |= f->outcome == CMP_BETTER;
	}
	return better ? "ov-better" : "ov-cand";
}

/* Both histograms of figure f's metric over each other: the baseline grey,
 * the candidate in cand's colour, on one logarithmic value axis, with the candidate's
 * limits on the metric as report.html draws them (html_limit_draw): the
 * requirement as it stands, judged as the candidate's run judged it. */
static void svg_overlay(struct xw *x, const struct cmp_figure *f, const char *cand)
{
	const struct rv_metric *m[2] = { f->mb, f->mc };
	double col[SVG_COLS];
	char label[300];
	struct html_limit_line lines[2 * REQ_MAX_LIMITS];
	size_t nlines = f->req ? html_limit_lines(f->req, f->mc, lines, 2 * REQ_MAX_LIMITS) : 0;
	utf8_snprintf(label, sizeof label, "Histograms of %s %s: baseline and candidate", f->id,
		 f->metric);
	svg_open(x, SVG_W, SVG_H, NULL, label);
	overlay_legend(x, cand);
	struct svg_log_axis ax = { PLOT_L, PLOT_R, PLOT_B, 0, 1, false, false, false };
	if (!overlay_span(m, lines, nlines, &ax.l0, &ax.l1)) {
		svg_text(x, SVG_W / 2.0, SVG_H / 2.0, "middle", "lab",
			 "not drawn: the values overflow a time axis (ns_per_unit too large)");
		svg_close(x);
		return;
	}
	overlay_y_axis(x);
	overlay_columns(f->mb, ax.l0, ax.l1, col);
	overlay_bars(x, col, "ov-base");
	overlay_columns(f->mc, ax.l0, ax.l1, col);
	overlay_bars(x, col, cand);
	svg_line(x, PLOT_L, PLOT_B, PLOT_R, PLOT_B, "axis");
	svg_log_ticks(x, &ax);
	struct html_limit_place pl = { &ax, pow(10, ax.l0), pow(10, ax.l1), PLOT_T, true };
	html_limit_draw(x, lines, nlines, &pl);
	svg_text(x, (PLOT_L + PLOT_R) / 2.0, SVG_H - 4, "middle", NULL, "latency (log scale)");
	svg_close(x);
}

/* Whether a figure changed, or may have, or its limit decided a verdict
 * that changed (its histograms are worth a look). */
static bool changed(const struct cmp_figure *f)
{
	return f->outcome == CMP_WORSE || f->outcome == CMP_BETTER ||
	       f->outcome == CMP_INCONCLUSIVE || f->decides;
}

/* Whether figure i is the first changed one of its metric. */
static bool first_changed(const struct cmp_result *r, size_t i)
{
	const struct cmp_figure *f = &r->f[i];
	if (!f->mb || !f->mc || f->mc->kind != METRIC_DURATION || !changed(f))
		return false;
	/* A metric's figures are made one after another (compare.c,
	 * metric_figures): the earlier ones are just before it. Looking no
	 * further keeps this linear in the figures. */
	for (size_t j = i; j-- > 0 && r->f[j].mc == f->mc;)
		if (changed(&r->f[j]))
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
		svg_overlay(x, f, cand_class(r, i));
		xw_start(x, "figcaption");
		xw_textf(x, "%llu baseline samples, %llu candidate samples; ",
			 (unsigned long long)f->mb->count, (unsigned long long)f->mc->count);
		for (size_t j = i; j < r->n; j++)
			if (r->f[j].mc == f->mc && (r->f[j].outcome != CMP_SAME || r->f[j].decides)) {
				char s[1200];
				cmp_figure_sentence(&r->f[j], s, sizeof s);
				html_text_micro(x, s);
				if (r->f[j].decides)
					xw_textf(x, " (its limit decided the verdict, %s -> %s)",
						 verdict_name(r->f[j].vbase),
						 verdict_name(r->f[j].vcand));
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
	char title[128], rule[1200];
	utf8_snprintf(title, sizeof title, "rtconform compare: %zu verdict%s worse, %zu figure%s "
		      "worse, %zu inconclusive", r->verdicts_worse, r->verdicts_worse == 1 ? "" : "s",
		      r->worse, r->worse == 1 ? "" : "s", r->inconclusive);
	cmp_rule_text(r, rule, sizeof rule);
	page_begin(x, title, "rtconform compare");
	bool regression = r->verdicts_worse || r->worse || (r->missing && !r->opts.allow_missing);
	bool changed_fails = r->changed && !r->opts.allow_changed;
	xw_start(x, "div");
	xw_attrf(x, "class", "banner %s", regression ? "b-fail"
					   : r->inconclusive_worse || r->changed ? "b-undecided"
					   : "b-pass");
	char missing[240] = "";
	size_t o = 0;
	if (r->missing)
		o = (size_t)utf8_snprintf(missing, sizeof missing, "; %zu requirement%s missing from "
					  "the candidate%s", r->missing, r->missing == 1 ? "" : "s",
					  r->opts.allow_missing ? " (allowed)" : "");
	if (r->changed && o < sizeof missing)
		utf8_snprintf(missing + o, sizeof missing - o, "; %zu requirement%s changed, "
			      "verdicts not compared%s", r->changed, r->changed == 1 ? "" : "s",
			      r->opts.allow_changed ? " (allowed)" : "");
	bool better = r->better || r->verdicts_better; /* nothing worse or undecided besides */
	xw_textf(x, "%s \xe2\x80\x94 verdicts: %zu worse, %zu better, %zu unchanged%s; figures: "
		    "%zu worse, %zu inconclusive, %zu better, %zu same, %zu not compared; "
		    "tolerance %g%%, interval %g%%",
		 regression ? "REGRESSION" : changed_fails ? "CHANGED"
			 : r->inconclusive_worse ? (status ? "INCONCLUSIVE" : "INCONCLUSIVE (allowed)")
			 : better && !r->changed ? "NO REGRESSION, BETTER" : "NO REGRESSION",
		 r->verdicts_worse,
		 r->verdicts_better, r->verdicts_same, missing, r->worse, r->inconclusive,
		 r->better, r->same, r->not_compared, 100.0 * r->opts.tolerance,
		 100.0 * (1.0 - r->opts.significance));
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
	page_end(x, runinfo_version, runinfo_commit, " compare.");
}

char *cmp_render_html(const struct cmp_result *r, size_t *len)
{
	return xw_render(html_document, r, false, len, NULL, 0);
}
