/* SPDX-License-Identifier: Apache-2.0 */
/* html_plot.c - report.html's histograms, as inline SVG; see html_plot.h.
 *
 * A histogram is log-log: the value axis logarithmic (decades labelled),
 * bar height log(1 + count). Bars are the histogram's own buckets, joined
 * when they fall on one pixel column, so a lone outlier keeps a bar of its
 * own. Each limit on the metric is a dashed vertical line, green when met,
 * red when not. A bar is red only when it may hold samples beyond a bound
 * that was not met: a passing requirement has no red bar, and a failing
 * one shows where its failing samples are.
 *
 * The per-CPU plots of a probe that keeps per-CPU series (timer-wakeup) are
 * small multiples: the same value axis as the merged histogram and one count
 * axis for every CPU, so a CPU that wakes late stands out.
 *
 * The SVG elements and the value axis's ticks are svg.c's, which
 * compare.html draws with too.
 */
#include "reports/html_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "reports/ival.h"
#include "reports/svg.h"

/* ---- microseconds ------------------------------------------------------ */

void html_micro(char *buf, size_t len)
{
	units_html(buf, len);
}

void html_text_micro(struct xw *x, const char *s)
{
	size_t len = strlen(s) * 2 + 1; /* each replacement grows by one byte */
	char *buf = malloc(len);
	if (!buf) {
		x->failed = true;
		return;
	}
	memcpy(buf, s, strlen(s) + 1);
	html_micro(buf, len);
	xw_text(x, buf);
	free(buf);
}

void html_cell(struct xw *x, const char *cls, const char *text)
{
	xw_start(x, "td");
	if (cls)
		xw_attr(x, "class", cls);
	html_text_micro(x, text);
	xw_full_end(x);
}

void html_fmt_ns(double ns, char *buf, size_t len)
{
	units_fmt_ns(ns, buf, len);
	html_micro(buf, len);
}

/* ---- geometry ---------------------------------------------------------- */

/* A picture's size and plot area, in SVG user units. */
struct frame {
	int w, h;
	double x0, x1, y0, y1; /* the plot area */
	double ovf0, ovf1;     /* the overflow column, right of the value axis */
	bool labels;           /* limit labels, minor tick labels, axis title */
};

static const struct frame frame_metric = { 640, 270, 52, 578, 50, 226, 590, 616, true };

/* The limit labels above a large picture: two rows, so neighbouring lines'
 * labels do not overlap; baselines far enough apart, and the first far
 * enough below the frame, for the print style's 15 px text (page.c), which
 * touched the frame and the other row at 14 and 13. The rows are measured
 * up from the plot's top: report.html's (50) puts them at 19 and 37. */
#define LABEL_ROW0_ABOVE 31.0
#define LABEL_ROW_STEP 18.0
static const struct frame frame_cpu = { 320, 150, 40, 274, 24, 118, 282, 302, false };

/* What a histogram holds: a metric's, or one CPU's of it. */
struct hdata {
	const struct rv_bucket *b;
	size_t n;
	uint64_t overflow, highest;
	double npu; /* ns per unit */
};

struct group {
	double e0, e1; /* ns */
	uint64_t count;
	bool beyond;
};

struct axis {
	struct svg_log_axis s; /* its ticks; l0, l1: log10 of lo, hi */
	double lo, hi;         /* the ends, ns */
	const struct frame *f;
};

/* The decade v lies in; 0 below the smallest normal double (the reader
 * refuses such scales: read.h), where v / decade would divide by zero. */
static double decade(double v)
{
	double p = pow(10, floor(log10(v)));
	return p > 0 && isfinite(p) ? p : 0;
}

double html_nice_floor(double v)
{
	double p = decade(v);
	if (!p)
		return v;
	double m = v / p;
	return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

static double nice_ceil(double v)
{
	double p = decade(v);
	if (!p)
		return v;
	double m = v / p;
	if (m <= 1 * (1 + 1e-12))
		return p;
	return (m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static double xpos(const struct axis *a, double ns)
{
	return svg_log_x(&a->s, ns);
}

static double ypos(const struct frame *f, double count, double lmax)
{
	return f->y1 - (lmax > 0 ? log10(1.0 + count) / lmax : 0) * (f->y1 - f->y0);
}

static void count_label(uint64_t c, char *buf, size_t len)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	int i = 0;
	while (c >= 1000 && c % 1000 == 0 && i < 4) {
		c /= 1000;
		i++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)c, suffix[i]);
}

/* ---- limits, axis, bars ------------------------------------------------ */

size_t html_limit_lines(const struct rv_req *r, const struct rv_metric *m, struct html_limit_line *out,
			   size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nlimits && n < max; i++) {
		const struct rv_limit *l = &r->limits[i];
		if (strcmp(l->metric, m->name) != 0)
			continue;
		for (int side = 0; side < 2 && n < max; side++) {
			bool is_max = side == 0;
			double ns;
			if (!rv_limit_bound_ns(l, m, is_max, &ns))
				continue;
			const struct quantity *q = is_max ? &l->max : &l->min;
			char b[48];
			units_fmt_qty(q, b, sizeof b);
			html_micro(b, sizeof b);
			out[n].ns = is_max ? ns : -ns;
			out[n].passed = l->verdict == VERDICT_PASS;
			snprintf(out[n].label, sizeof out[n].label, "%s %s %s", l->statistic,
				 is_max ? "\xe2\x89\xa4" : "\xe2\x89\xa5", b);
			n++;
		}
	}
	return n;
}

/* A bucket (values lo..hi units, inclusive) may hold samples beyond a bound
 * that was not met: above a violated max=, below a violated min=, whatever
 * the limit's statistic. A bound that was met marks nothing. */
static bool bucket_beyond(uint64_t lo, uint64_t hi, double npu, const struct html_limit_line *lines,
			  size_t nlines)
{
	for (size_t i = 0; i < nlines; i++) {
		if (lines[i].passed)
			continue;
		if (lines[i].ns > 0 && (double)hi * npu > lines[i].ns)
			return true;
		if (lines[i].ns < 0 && (double)lo * npu < -lines[i].ns)
			return true;
	}
	return false;
}

void html_limits_widen(const struct html_limit_line *lines, size_t nlines, double *lo, double *hi)
{
	double dmin = *lo, dmax = *hi;
	for (size_t i = 0; i < nlines; i++) {
		double ns = fabs(lines[i].ns);
		if (ns >= dmin / 10 && ns <= dmax * 10) {
			*lo = fmin(*lo, ns);
			*hi = fmax(*hi, ns * 1.02);
		}
	}
}

void html_value_span(double dmin, double dmax, const struct html_limit_line *lines, size_t nlines,
		     double *plo, double *phi)
{
	if (!(dmin > 0))
		dmin = 1;
	if (!(dmax > dmin))
		dmax = dmin * 10;
	double lo = dmin, hi = dmax;
	html_limits_widen(lines, nlines, &lo, &hi);
	lo = html_nice_floor(lo);
	hi = nice_ceil(hi);
	if (log10(hi) - log10(lo) < 1) {
		double pad = (1 - (log10(hi) - log10(lo))) / 2;
		lo = html_nice_floor(pow(10, log10(lo) - pad));
		hi = nice_ceil(pow(10, log10(hi) + pad));
	}
	*plo = lo;
	*phi = hi;
}

/* The value axis covers the samples, widened to 1-2-5 steps and to at least
 * one decade, and by the limits as html_limits_widen says. */
static struct axis value_axis(const struct hdata *d, const struct html_limit_line *lines, size_t nlines,
			      const struct frame *f)
{
	double dmin, dmax;
	if (d->n) {
		dmin = d->b[0].lo ? (double)d->b[0].lo * d->npu : 0.5 * d->npu;
		dmax = (double)(d->b[d->n - 1].hi + 1) * d->npu;
	} else {
		dmin = (double)d->highest * d->npu;
		dmax = dmin * 10;
	}
	double lo, hi;
	html_value_span(dmin, dmax, lines, nlines, &lo, &hi);
	/* 2 and 5 ticked too, and labelled on a large picture spanning at
	 * most two decades */
	double l0 = log10(lo), l1 = log10(hi);
	bool minor_labels = f->labels && lround(l1 - l0) <= 2;
	struct svg_log_axis s = { f->x0, f->x1, f->y1, l0, l1, true, minor_labels, false };
	return (struct axis){ s, lo, hi, f };
}

/* A value axis whose ends are finite: a scale (ns_per_unit) near the
 * largest double makes the values overflow, and such a histogram is not
 * drawn, with this sentence in its place. */
#define AXIS_NOT_FINITE "its values overflow a time axis (ns_per_unit too large)"

static bool axis_drawable(const struct axis *ax)
{
	return isfinite(ax->s.l0) && isfinite(ax->s.l1) && ax->s.l0 < ax->s.l1;
}

/* Neighbouring buckets that land on one pixel column become one bar, unless
 * a violated bound separates them: a red bar never hides in another.
 * Returns the bars in g (d->n room); *cmax the largest count of a bar or of
 * the overflow. */
static size_t group_buckets(const struct hdata *d, const struct axis *ax,
			    const struct html_limit_line *lines, size_t nlines, struct group *g,
			    uint64_t *cmax)
{
	size_t ng = 0;
	long last_px = -1;
	*cmax = d->overflow;
	for (size_t i = 0; i < d->n; i++) {
		const struct rv_bucket *bk = &d->b[i];
		double e0 = bk->lo ? (double)bk->lo * d->npu : 0.5 * d->npu;
		double e1 = (double)(bk->hi + 1) * d->npu;
		bool beyond = bucket_beyond(bk->lo, bk->hi, d->npu, lines, nlines);
		long px = lround(floor(xpos(ax, e0)));
		if (ng && px == last_px && g[ng - 1].beyond == beyond) {
			g[ng - 1].e1 = e1;
			g[ng - 1].count += bk->count;
		} else {
			g[ng++] = (struct group){ e0, e1, bk->count, beyond };
			last_px = px;
		}
		if (g[ng - 1].count > *cmax)
			*cmax = g[ng - 1].count;
	}
	return ng;
}

/* The grid and the count axis (log). */
static void count_axis(struct xw *x, const struct frame *f, uint64_t cmax, double lmax)
{
	char buf[32];
	for (uint64_t c = 1; c <= cmax; c *= 10) {
		double py = ypos(f, (double)c, lmax);
		svg_line(x, f->x0, py, f->x1, py, "grid");
		count_label(c, buf, sizeof buf);
		svg_text(x, f->x0 - 6, py + 4, "end", NULL, buf);
		if (c > UINT64_MAX / 10)
			break;
	}
}

static void bars(struct xw *x, const struct group *g, size_t ng, const struct hdata *d,
		 const struct axis *ax, const struct html_limit_line *lines, size_t nlines, double lmax)
{
	const struct frame *f = ax->f;
	char buf[200], a[48], b[48];
	for (size_t i = 0; i < ng; i++) {
		double x0 = xpos(ax, g[i].e0), x1 = xpos(ax, g[i].e1);
		double w = fmax(x1 - x0, 1.0);
		double py = ypos(f, (double)g[i].count, lmax);
		double h = f->y1 - py;
		if (h < 1) {
			h = 1;
			py = f->y1 - 1;
		}
		html_fmt_ns(g[i].e0, a, sizeof a);
		html_fmt_ns(g[i].e1, b, sizeof b);
		snprintf(buf, sizeof buf, "%s to %s: %llu sample%s%s", a, b,
			 (unsigned long long)g[i].count, g[i].count == 1 ? "" : "s",
			 g[i].beyond ? " (beyond a bound that was not met)" : "");
		svg_rect(x, x0, py, w, h, g[i].beyond ? "beyond" : "bar", buf);
	}
	if (d->overflow) {
		/* Samples above the histogram's range: a bucket from highest + 1
		 * without an end. */
		bool beyond = bucket_beyond(d->highest + 1, UINT64_MAX, d->npu, lines, nlines);
		double py = ypos(f, (double)d->overflow, lmax);
		html_fmt_ns((double)d->highest * d->npu, a, sizeof a);
		snprintf(buf, sizeof buf, "above %s (the histogram's range): %llu sample%s%s", a,
			 (unsigned long long)d->overflow, d->overflow == 1 ? "" : "s",
			 beyond ? " (beyond a bound that was not met)" : "");
		svg_rect(x, f->ovf0, py, f->ovf1 - f->ovf0, fmax(f->y1 - py, 1.0),
			 beyond ? "beyond" : "bar", buf);
		svg_text(x, (f->ovf0 + f->ovf1) / 2, f->y1 + 16, "middle", NULL, "over");
	}
}

void html_limit_draw(struct xw *x, const struct html_limit_line *lines, size_t nlines,
		     const struct html_limit_place *pl)
{
	const struct svg_log_axis *a = pl->axis;
	char buf[200];
	for (size_t i = 0; i < nlines; i++) {
		double ns = fabs(lines[i].ns);
		double ly = pl->top - LABEL_ROW0_ABOVE + LABEL_ROW_STEP * (double)(i % 2);
		const char *lab = lines[i].passed ? "lab lab-ok" : "lab lab-no";
		if (ns >= pl->lo && ns <= pl->hi) {
			double px = svg_log_x(a, ns);
			double top = pl->labels ? pl->top - 4 - (i % 2 ? 0 : LABEL_ROW_STEP) : pl->top;
			svg_line(x, px, top, px, a->y, lines[i].passed ? "lim lim-ok" : "lim");
			if (!pl->labels)
				continue;
			bool right = px > (a->x0 + a->x1) / 2;
			svg_text(x, right ? px - 4 : px + 4, ly, right ? "end" : "start", lab,
				 lines[i].label);
		} else if (pl->labels) {
			bool right = ns > pl->hi;
			snprintf(buf, sizeof buf, "%s%s%s", right ? "" : "\xe2\x86\x90 ",
				 lines[i].label, right ? " \xe2\x86\x92" : "");
			svg_text(x, right ? a->x1 : a->x0, ly, right ? "end" : "start", lab, buf);
		}
	}
}

/* Grid, ticks, bars, axes and limits of one histogram; g has d->n room. */
static void plot(struct xw *x, const struct hdata *d, const struct axis *ax,
		 const struct html_limit_line *lines, size_t nlines, struct group *g, uint64_t cmax)
{
	const struct frame *f = ax->f;
	uint64_t own;
	size_t ng = group_buckets(d, ax, lines, nlines, g, &own);
	double lmax = log10(1.0 + (double)(cmax > own ? cmax : own));
	count_axis(x, f, cmax > own ? cmax : own, lmax);
	svg_log_ticks(x, &ax->s);
	bars(x, g, ng, d, ax, lines, nlines, lmax);
	svg_line(x, f->x0, f->y1, f->x1, f->y1, "axis");
	svg_line(x, f->x0, f->y0 - 4, f->x0, f->y1, "axis");
	struct html_limit_place pl = { &ax->s, ax->lo, ax->hi, f->y0, f->labels };
	html_limit_draw(x, lines, nlines, &pl);
}

static struct hdata metric_data(const struct rv_metric *m)
{
	double npu = m->ns_per_unit > 0 && isfinite(m->ns_per_unit) ? m->ns_per_unit : 1.0;
	return (struct hdata){ m->buckets, m->nbuckets, m->overflow, m->highest, npu };
}

/* ---- the pictures ------------------------------------------------------ */

void html_histogram(struct xw *x, const struct rv_req *r, const struct rv_metric *m)
{
	const struct frame *f = &frame_metric;
	char buf[200];
	struct hdata d = metric_data(m);
	struct html_limit_line lines[2 * REQ_MAX_LIMITS];
	size_t nlines = html_limit_lines(r, m, lines, sizeof lines / sizeof lines[0]);

	snprintf(buf, sizeof buf, "Histogram of %s %s", r->id, m->name);
	svg_open(x, f->w, f->h, "hist", buf);
	if (!d.n && !d.overflow) {
		svg_text(x, f->w / 2.0, f->h / 2.0, "middle", "lab", "no samples");
		svg_close(x);
		return;
	}
	struct axis ax = value_axis(&d, lines, nlines, f);
	if (!axis_drawable(&ax)) {
		svg_text(x, f->w / 2.0, f->h / 2.0, "middle", "lab", AXIS_NOT_FINITE);
		svg_close(x);
		return;
	}
	struct group *g = calloc(d.n ? d.n : 1, sizeof *g);
	if (!g) {
		x->failed = true;
		return;
	}
	plot(x, &d, &ax, lines, nlines, g, 0);
	svg_text(x, (f->x0 + f->x1) / 2, f->h - 6, "middle", NULL,
		 "latency (log scale); bar height: samples (log scale)");
	free(g);
	svg_close(x);
}

/* One CPU's small histogram on the shared axes. */
static void cpu_plot(struct xw *x, const struct rv_req *r, const struct rv_series *s,
		     const struct hdata *dm, const struct axis *ax, const struct html_limit_line *lines,
		     size_t nlines, struct group *g, uint64_t cmax)
{
	const struct frame *f = ax->f;
	char buf[200], mx[48];
	struct hdata d = { s->buckets, s->nbuckets, s->overflow, s->highest, dm->npu };
	snprintf(buf, sizeof buf, "Histogram of %s %s on CPU %d", r->id, r->metrics[0].name,
		 s->cpu);
	svg_open(x, f->w, f->h, "hist cpu", buf);
	snprintf(buf, sizeof buf, "CPU %d", s->cpu);
	svg_text(x, f->x0, 13, "start", "lab", buf);
	if (s->ns[RVS_MAX].have) {
		html_fmt_ns(s->ns[RVS_MAX].v, mx, sizeof mx);
		snprintf(buf, sizeof buf, "%llu samples, max %s", (unsigned long long)s->count, mx);
	} else {
		snprintf(buf, sizeof buf, "%llu samples", (unsigned long long)s->count);
	}
	svg_text(x, f->x1, 13, "end", NULL, buf);
	if (!d.n && !d.overflow)
		svg_text(x, (f->x0 + f->x1) / 2, (f->y0 + f->y1) / 2, "middle", "lab",
			 "no samples");
	else
		plot(x, &d, ax, lines, nlines, g, cmax);
	svg_close(x);
}

/* Bars of every CPU share one count axis: the largest bar of any. */
static uint64_t cpu_count_max(const struct rv_req *r, const struct hdata *dm,
			      const struct axis *ax, const struct html_limit_line *lines, size_t nlines,
			      struct group *g)
{
	uint64_t cmax = 0, c;
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rv_series *s = &r->series[i];
		struct hdata d = { s->buckets, s->nbuckets, s->overflow, s->highest, dm->npu };
		group_buckets(&d, ax, lines, nlines, g, &c);
		if (c > cmax)
			cmax = c;
	}
	return cmax;
}

void html_cpu_plots(struct xw *x, const struct rv_req *r)
{
	if (!r->nseries || !r->nmetrics || r->metrics[0].kind != METRIC_DURATION)
		return;
	size_t room = 1;
	for (size_t i = 0; i < r->nseries; i++) {
		if (!r->series[i].has_hist) {
			xw_elem(x, "p", "The per-CPU histograms are not in the file this report "
					"was rendered from (a results.json written before they "
					"were kept carries only their statistics, below).");
			return;
		}
		if (r->series[i].nbuckets > room)
			room = r->series[i].nbuckets;
	}
	const struct rv_metric *m = &r->metrics[0];
	struct hdata dm = metric_data(m);
	struct html_limit_line lines[2 * REQ_MAX_LIMITS];
	size_t nlines = html_limit_lines(r, m, lines, sizeof lines / sizeof lines[0]);
	/* The merged histogram's value axis, so a bar sits where it does there */
	struct axis ax = value_axis(&dm, lines, nlines, &frame_cpu);
	if (!axis_drawable(&ax)) {
		xw_elem(x, "p", "The per-CPU histograms are not drawn: " AXIS_NOT_FINITE ".");
		return;
	}
	struct group *g = calloc(room, sizeof *g);
	if (!g) {
		x->failed = true;
		return;
	}
	uint64_t cmax = cpu_count_max(r, &dm, &ax, lines, nlines, g);
	xw_start(x, "div");
	xw_attr(x, "class", "cpus");
	for (size_t i = 0; i < r->nseries; i++)
		cpu_plot(x, r, &r->series[i], &dm, &ax, lines, nlines, g, cmax);
	xw_full_end(x);
	free(g);
}
