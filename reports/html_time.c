/* SPDX-License-Identifier: Apache-2.0 */
/* html_time.c - report.html's plots of a requirement's intervals over
 * time, as inline SVG; see html_plot.h.
 *
 * The way OSADL's long-term plots show a board's history: time (UTC) runs
 * left to right, latency up, on a log axis as the histograms' (a max is
 * often decades above the p99, and a breach of a 100 us limit by a 5 ms
 * stall must not squash the rest into a line). Each interval is a point at
 * its middle: its max (filled) and its p99 (hollow), a p99 left out where
 * the interval had too few samples for one (never made up). Points of
 * neighbouring intervals are joined by a line; a missing point breaks it.
 * The limits on the metric are dashed horizontal lines (html_limit_lines,
 * spanned as the histograms are: html_value_span); an interval whose own
 * statistic lies beyond a limit's bound (rv_ival_breach) is a red band, a
 * point beyond a limit on its own statistic is red, and the interval the
 * kernel trace was taken in (rv_ival_traced) a purple band.
 *
 * A plot holds at most one point per COL_PX units of its width: more
 * intervals than that (a week of 1 min intervals) are joined per column,
 * each point then the largest value of the intervals it covers and red or
 * banded when any of them was, so the SVG stays small and no breach hides.
 * The per-CPU plot draws each CPU's max alike, one line per CPU in colours
 * and dashes of their own, on the same axes.
 */
#include "reports/html_plot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/units.h"
#include "reports/ival.h"
#include "reports/svg.h"
#include "reports/trend.h"

#define TW 640
#define TX0 66.0
#define TX1 610.0
#define TY0 46.0
#define TY1 206.0
#define COL_PX 3.0
/* More points than this on a line are too close for a dot each: only
 * those beyond a limit (and lone ones) get one. */
#define DOTS_MAX 90
#define LEGEND_Y (TY1 + 52.0)
#define LEGEND_ROW 18.0
/* Colours and dashes of the CPUs' lines (page.c: .tc0 .. .tc7, .td1,
 * .td2): 24 CPUs are told apart, more repeat them (the legend names each). */
#define CPU_COLOURS 8
#define CPU_DASHES 3

/* What a plot shows, and where. */
struct tplot {
	const struct rv_req *r;
	const struct rv_metric *m;     /* the metric, whose intervals the bands are of */
	double t0, t1;                 /* ms, UTC: the first start, the last end */
	struct svg_log_axis ya;        /* vertical */
	double lo, hi;                 /* ns */
	struct html_limit_line lines[2 * REQ_MAX_LIMITS];
	size_t nlines;
	size_t traced;                 /* interval of m, SIZE_MAX: none marked */
	double trip;                   /* ns, 0: not known */
};

/* The intervals i0 .. i1 one point stands for. */
struct tgroup {
	size_t i0, i1;
	double t0, t1;                 /* ms */
	struct rv_value max, p99;
	bool max_beyond, p99_beyond;
	size_t breach;                 /* a limit one of them lies beyond, SIZE_MAX: none */
};

static double tx(const struct tplot *p, double ms)
{
	return TX0 + (ms - p->t0) / (p->t1 - p->t0) * (TX1 - TX0);
}

static double vy(const struct tplot *p, double ns)
{
	return svg_log_x(&p->ya, fmin(fmax(ns, p->lo), p->hi));
}

static double ival_end(const struct rv_ival *iv)
{
	return (double)iv->start_ms + iv->seconds * 1000.0;
}

/* ---- set-up ------------------------------------------------------------- */

/* The smallest and largest positive value of statistic k of n intervals
 * into *lo, *hi (left as they are when none). */
static void ival_span(const struct rv_ival *iv, size_t n, int k, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++)
		if (iv[i].ns[k].have && iv[i].ns[k].v > 0) {
			*lo = fmin(*lo, iv[i].ns[k].v);
			*hi = fmax(*hi, iv[i].ns[k].v);
		}
}

/* The axes of r's metric m: time over m's intervals, values over their max
 * and p99 and, for metric 0, every CPU's max, so the two plots compare.
 * False when no interval has a value to plot. */
static bool setup(struct tplot *p, const struct rv_req *r, const struct rv_metric *m)
{
	memset(p, 0, sizeof *p);
	p->r = r;
	p->m = m;
	p->t0 = (double)m->intervals[0].start_ms;
	p->t1 = p->t0;
	for (size_t i = 0; i < m->nintervals; i++) {
		p->t0 = fmin(p->t0, (double)m->intervals[i].start_ms);
		p->t1 = fmax(p->t1, ival_end(&m->intervals[i]));
	}
	if (!(p->t1 > p->t0))
		p->t1 = p->t0 + 1000;
	double lo = INFINITY, hi = 0;
	ival_span(m->intervals, m->nintervals, RV_MAX, &lo, &hi);
	ival_span(m->intervals, m->nintervals, RV_P99, &lo, &hi);
	for (size_t s = 0; m == &r->metrics[0] && s < r->nseries; s++)
		ival_span(r->series[s].intervals, r->series[s].nintervals, RV_MAX, &lo, &hi);
	if (!(hi > 0) || !isfinite(lo) || !isfinite(hi))
		return false;
	p->nlines = html_limit_lines(r, m, p->lines, sizeof p->lines / sizeof p->lines[0]);
	/* a little room below and above, so no point sits on the frame */
	html_value_span(lo / 1.5, hi * 1.5, p->lines, p->nlines, &p->lo, &p->hi);
	/* a bound the axis was widened down to would lie on the time axis:
	 * one step lower */
	for (size_t i = 0; i < p->nlines; i++)
		if (fabs(p->lines[i].ns) <= p->lo * 1.05 && fabs(p->lines[i].ns) >= p->lo)
			p->lo = html_nice_floor(p->lo * 0.99);
	double l0 = log10(p->lo), l1 = log10(p->hi);
	if (!isfinite(l0) || !isfinite(l1) || !(l0 < l1))
		return false;
	p->ya = (struct svg_log_axis){ TY1, TY0, TX0, l0, l1, true, lround(l1 - l0) <= 2, true };
	p->traced = rv_ival_traced(r, m, &p->trip);
	return true;
}

/* Intervals iv[0 .. n) as points: one each when they are COL_PX apart,
 * else joined per column. g has n room; returns how many. */
static size_t group_ivals(const struct tplot *p, const struct rv_metric *m,
			  const struct rv_ival *iv, size_t n, struct tgroup *g)
{
	bool join = (double)n > (TX1 - TX0) / COL_PX;
	size_t ng = 0;
	long last = -1;
	for (size_t i = 0; i < n; i++) {
		double at = tx(p, ((double)iv[i].start_ms + ival_end(&iv[i])) / 2);
		at = fmin(fmax(at, TX0), TX1);
		long col = join ? lround(floor((at - TX0) / COL_PX)) : (long)i;
		if (!ng || col != last) {
			g[ng++] = (struct tgroup){ .i0 = i, .i1 = i, .t0 = (double)iv[i].start_ms,
						   .t1 = ival_end(&iv[i]), .breach = SIZE_MAX };
			last = col;
		}
		struct tgroup *t = &g[ng - 1];
		t->i1 = i;
		t->t1 = fmax(t->t1, ival_end(&iv[i]));
		if (iv[i].ns[RV_MAX].have && (!t->max.have || iv[i].ns[RV_MAX].v > t->max.v))
			t->max = iv[i].ns[RV_MAX];
		if (iv[i].ns[RV_P99].have && (!t->p99.have || iv[i].ns[RV_P99].v > t->p99.v))
			t->p99 = iv[i].ns[RV_P99];
		t->max_beyond |= rv_ival_stat_beyond(p->r, m, &iv[i], RV_MAX);
		t->p99_beyond |= rv_ival_stat_beyond(p->r, m, &iv[i], RV_P99);
		if (t->breach == SIZE_MAX)
			t->breach = rv_ival_breach(p->r, m, &iv[i]);
	}
	return ng;
}

/* ---- the time axis ------------------------------------------------------ */

/* "01:02:03Z"-like labels of a tick at ms, for ticks step seconds apart
 * over a span of several UTC dates (multi) or not. */
static void tick_label(double ms, long step, bool multi, char *buf, size_t len)
{
	struct tm tm;
	time_t t = (time_t)floor(ms / 1000);
	if (!gmtime_r(&t, &tm)) {
		buf[0] = '\0';
		return;
	}
	const char *fmt = step < 60 ? "%H:%M:%S" : "%H:%M";
	if (step >= 86400 || (multi && tm.tm_hour == 0 && tm.tm_min == 0 && tm.tm_sec == 0))
		fmt = "%m-%d";
	if (!strftime(buf, len, fmt, &tm))
		buf[0] = '\0';
}

/* The UTC date of ms, "2026-12-02". */
static void date_of(double ms, char *buf, size_t len)
{
	struct tm tm;
	time_t t = (time_t)floor(ms / 1000);
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d", &tm))
		snprintf(buf, len, "?");
}

/* Ticks at whole multiples of a step (UTC: a day's start is one), at most
 * 8 of them whatever the span (a second to a week), and the axis's title
 * with the date(s). */
static void time_axis(struct xw *x, const struct tplot *p)
{
	static const long steps[] = { 1,    2,    5,    10,    15,    30,    60,     120,   300,
				      600,  900,  1800, 3600,  7200,  10800, 21600,  43200, 86400,
				      172800, 345600, 604800 };
	size_t nsteps = sizeof steps / sizeof steps[0];
	double span = (p->t1 - p->t0) / 1000;
	size_t k = 0;
	while (k + 1 < nsteps && span / (double)steps[k] > 8)
		k++;
	/* A span beyond 8 weeks (a results.json may say anything): whole
	 * weeks, still at most 8 ticks. */
	double step_s = (double)steps[k];
	if (span / step_s > 8)
		step_s = ceil(span / 8 / step_s) * step_s;
	char d0[16], d1[16], buf[64];
	date_of(p->t0, d0, sizeof d0);
	date_of(p->t1 - 1, d1, sizeof d1);
	bool multi = strcmp(d0, d1) != 0;
	double step_ms = step_s * 1000;
	int n = 0;
	for (double t = ceil(p->t0 / step_ms) * step_ms; t <= p->t1 && n < 10; t += step_ms, n++) {
		double px = tx(p, t);
		svg_line(x, px, TY1, px, TY1 + 5, "axis");
		svg_line(x, px, TY0, px, TY1, "grid");
		tick_label(t, (long)fmin(step_s, 86400), multi, buf, sizeof buf);
		svg_text(x, px, TY1 + 17, "middle", NULL, buf);
	}
	snprintf(buf, sizeof buf, "time (UTC), %s%s%s", d0, multi ? " to " : "", multi ? d1 : "");
	svg_text(x, (TX0 + TX1) / 2, TY1 + 34, "middle", NULL, buf);
}

/* ---- the value axis and the limits -------------------------------------- */

static void value_axis(struct xw *x, const struct tplot *p)
{
	for (int k = (int)ceil(p->ya.l0 - 1e-9); k <= (int)floor(p->ya.l1 + 1e-9); k++) {
		double py = svg_log_x(&p->ya, pow(10, k));
		svg_line(x, TX0, py, TX1, py, "grid");
	}
	svg_log_ticks(x, &p->ya);
	svg_line(x, TX0, TY1, TX1, TY1, "axis");
	svg_line(x, TX0, TY0 - 4, TX0, TY1, "axis");
	svg_text(x, 6, 16, "start", NULL, "latency (log scale)");
}

/* Each bound a dashed horizontal line, labelled at its end (alternately
 * left and right); a bound off the axis is named at the top (above it) or
 * the bottom with an arrow. */
static void limit_lines(struct xw *x, const struct tplot *p)
{
	char buf[128];
	int above = 0;
	for (size_t i = 0; i < p->nlines; i++) {
		const struct html_limit_line *l = &p->lines[i];
		double ns = fabs(l->ns);
		const char *lab = l->passed ? "lab lab-ok" : "lab lab-no";
		if (ns >= p->lo && ns <= p->hi) {
			double py = vy(p, ns);
			bool left = i % 2 == 1;
			svg_line(x, TX0, py, TX1, py, l->passed ? "lim lim-ok" : "lim");
			svg_text(x, left ? TX0 + 4 : TX1 - 4, py - 4, left ? "start" : "end", lab,
				 l->label);
		} else if (ns > p->hi) {
			snprintf(buf, sizeof buf, "%s \xe2\x86\x91", l->label);
			svg_text(x, TX1, TY0 - 10 - 14 * above++, "end", lab, buf);
		} else {
			snprintf(buf, sizeof buf, "%s \xe2\x86\x93", l->label);
			svg_text(x, TX1 - 4, TY1 - 6, "end", lab, buf);
		}
	}
}

/* ---- marks -------------------------------------------------------------- */

/* "interval 3 (from 01:02:03Z, 1 min)" or "intervals 3 to 9 (from ...)",
 * numbered from 1 as people count. */
static void group_name(const struct tgroup *g, char *buf, size_t len)
{
	char t[40], d[24];
	rv_fmt_utc_ms((int64_t)g->t0, t, sizeof t);
	rv_fmt_span((g->t1 - g->t0) / 1000, d, sizeof d);
	if (g->i0 == g->i1)
		snprintf(buf, len, "interval %zu (from %s, %s)", g->i0 + 1, t, d);
	else
		snprintf(buf, len, "intervals %zu to %zu (from %s, %s)", g->i0 + 1, g->i1 + 1, t,
			 d);
}

/* A red band over each point's intervals when one lies beyond a limit,
 * titled with the limit (and the interval's value, when it is one). */
static void breach_bands(struct xw *x, const struct tplot *p, const struct tgroup *g, size_t ng)
{
	char name[120], buf[400], lim[48], val[48];
	for (size_t i = 0; i < ng; i++) {
		if (g[i].breach == SIZE_MAX)
			continue;
		const struct rv_limit *l = &p->r->limits[g[i].breach];
		double b;
		bool upper = rv_limit_bound_ns(l, p->m, true, &b);
		if (!upper && !rv_limit_bound_ns(l, p->m, false, &b))
			b = 0;
		const char *rel = upper ? "\xe2\x89\xa4" : "\xe2\x89\xa5";
		html_fmt_ns(b, lim, sizeof lim);
		group_name(&g[i], name, sizeof name);
		int k = rv_stat_index(l->statistic);
		const struct rv_ival *iv = &p->m->intervals[g[i].i0];
		if (g[i].i0 == g[i].i1 && k >= 0 && iv->ns[k].have) {
			html_fmt_ns(iv->ns[k].v, val, sizeof val);
			snprintf(buf, sizeof buf, "%s: %s %s, beyond the limit %s %s %s", name,
				 l->statistic, val, l->statistic, rel, lim);
		} else {
			snprintf(buf, sizeof buf, "%s: at least one beyond the limit %s %s %s",
				 name, l->statistic, rel, lim);
		}
		double x0 = tx(p, g[i].t0), x1 = tx(p, g[i].t1);
		svg_rect(x, x0, TY0, fmax(x1 - x0, 1.0), TY1 - TY0, "breach", buf);
	}
}

/* The interval the kernel trace was taken in: a purple band, "trace" above. */
static void trace_band(struct xw *x, const struct tplot *p)
{
	if (p->traced == SIZE_MAX)
		return;
	const struct rv_ival *iv = &p->m->intervals[p->traced];
	char t[40], trip[48], buf[300];
	rv_fmt_utc_ms(iv->start_ms, t, sizeof t);
	html_fmt_ns(p->trip, trip, sizeof trip);
	snprintf(buf, sizeof buf, "interval %zu (from %s): the kernel trace %s was taken here, "
		 "at the worst breach of %s it kept", p->traced + 1, t, p->r->trace, trip);
	double x0 = tx(p, (double)iv->start_ms), x1 = tx(p, ival_end(iv));
	svg_rect(x, x0, TY0, fmax(x1 - x0, 2.0), TY1 - TY0, "traced", buf);
	svg_text(x, (x0 + x1) / 2, TY0 - 4, "middle", "lab tr-lab", "trace");
}

/* The points of one statistic (RV_MAX or RV_P99) of the groups: a line
 * through each run of neighbours that have it, and, with titles, a circle
 * of class cls on each (red when beyond a limit on it; of many, only those
 * beyond a limit), and on a lone one (untitled: the CPUs' lines). */
static void points(struct xw *x, const struct tplot *p, const struct tgroup *g, size_t ng,
		   int stat, const char *line_cls, const char *cls, bool titles, double *px,
		   double *py)
/* px, py: ng room */
{
	char name[120], v[48], buf[300], c[64];
	size_t run = 0;
	for (size_t i = 0; i <= ng; i++) {
		const struct rv_value *val =
			i < ng ? (stat == RV_MAX ? &g[i].max : &g[i].p99) : NULL;
		bool have = val && val->have && val->v > 0;
		if (have) {
			px[run] = tx(p, (g[i].t0 + g[i].t1) / 2);
			py[run++] = vy(p, val->v);
		}
		if (have && i + 1 < ng)
			continue;
		svg_polyline(x, px, py, run, line_cls);
		run = 0;
	}
	for (size_t i = 0; i < ng; i++) {
		const struct rv_value *val = stat == RV_MAX ? &g[i].max : &g[i].p99;
		bool beyond = stat == RV_MAX ? g[i].max_beyond : g[i].p99_beyond;
		if (!val->have || !(val->v > 0))
			continue;
		bool lone = !(i > 0 && (stat == RV_MAX ? g[i - 1].max : g[i - 1].p99).have) &&
			    !(i + 1 < ng && (stat == RV_MAX ? g[i + 1].max : g[i + 1].p99).have);
		if (!lone && !(titles && (ng <= DOTS_MAX || beyond)))
			continue;
		snprintf(c, sizeof c, "%s%s", cls, beyond ? " tp-beyond" : "");
		group_name(&g[i], name, sizeof name);
		html_fmt_ns(val->v, v, sizeof v);
		snprintf(buf, sizeof buf, "%s: %s %s%s%s", name, report_view_stats[stat], v,
			 g[i].i0 == g[i].i1 ? "" : " (the largest)",
			 beyond ? " (beyond a limit on it)" : "");
		svg_circle(x, tx(p, (g[i].t0 + g[i].t1) / 2), vy(p, val->v), 2.6, c,
			   titles ? buf : NULL);
	}
}

/* ---- legend ------------------------------------------------------------- */

/* One entry: a band swatch, a line, a dot (each NULL: none) and its text. */
struct lentry {
	const char *band;
	char line[24], dot[24], text[40];
};

/* Lay the entries out in rows under the time axis, drawing them unless x
 * is NULL; returns the rows taken. Widths are reckoned for the print
 * style's larger text. */
static int legend(struct xw *x, const struct lentry *e, size_t n)
{
	double lx = TX0, ly = LEGEND_Y;
	int rows = n ? 1 : 0;
	for (size_t i = 0; i < n; i++) {
		double w = 26 + 7.5 * (double)strlen(e[i].text) + 16;
		if (lx > TX0 && lx + w > TX1) {
			lx = TX0;
			ly += LEGEND_ROW;
			rows++;
		}
		if (x && e[i].band)
			svg_rect(x, lx, ly - 10, 20, 12, e[i].band, NULL);
		if (x && e[i].line[0])
			svg_line(x, lx, ly - 4, lx + 20, ly - 4, e[i].line);
		if (x && e[i].dot[0])
			svg_circle(x, lx + 10, ly - 4, 2.6, e[i].dot, NULL);
		if (x)
			svg_text(x, lx + 26, ly, "start", NULL, e[i].text);
		lx += w;
	}
	return rows;
}

/* Whether any group is banded. */
static bool any_breach(const struct tgroup *g, size_t ng)
{
	for (size_t i = 0; i < ng; i++)
		if (g[i].breach != SIZE_MAX)
			return true;
	return false;
}

/* The bands' entries after the lines' (e has room for 2 more). */
static size_t band_entries(const struct tplot *p, const struct tgroup *g, size_t ng,
			   struct lentry *e, size_t n)
{
	if (any_breach(g, ng)) {
		e[n] = (struct lentry){ "breach", "", "", "" };
		snprintf(e[n++].text, sizeof e[0].text, "beyond a limit");
	}
	if (p->traced != SIZE_MAX) {
		e[n] = (struct lentry){ "traced", "", "", "" };
		snprintf(e[n++].text, sizeof e[0].text, "kernel trace taken");
	}
	return n;
}

/* <svg> of the height the legend's rows need, the bands, axes and limits. */
static void open_plot(struct xw *x, const struct tplot *p, const struct tgroup *bands,
		      size_t nbands, const struct lentry *e, size_t ne, const char *label)
{
	int rows = legend(NULL, e, ne);
	svg_open(x, TW, (int)(LEGEND_Y + LEGEND_ROW * (rows ? rows - 1 : 0) + 10), "tplot", label);
	breach_bands(x, p, bands, nbands);
	trace_band(x, p);
	value_axis(x, p);
	time_axis(x, p);
	limit_lines(x, p);
	legend(x, e, ne);
}

/* ---- the captions ------------------------------------------------------- */

/* Intervals of m beyond a limit, and those with samples but no p99. */
static void count_ivals(const struct tplot *p, size_t *breached, size_t *no_p99)
{
	*breached = *no_p99 = 0;
	for (size_t i = 0; i < p->m->nintervals; i++) {
		const struct rv_ival *iv = &p->m->intervals[i];
		if (rv_ival_breach(p->r, p->m, iv) != SIZE_MAX)
			(*breached)++;
		if (!iv->ns[RV_P99].have)
			(*no_p99)++;
	}
}

/* What the bands say, and where the trace is: the end of both captions. */
static void caption_marks(struct xw *x, const struct tplot *p, size_t breached)
{
	char trip[48];
	if (breached)
		xw_textf(x, " Red bands: the %zu interval%s whose own statistics lie beyond a "
			    "limit's bound (hover for which).", breached, breached == 1 ? "" : "s");
	else if (p->nlines)
		xw_text(x, " No interval's own statistics lie beyond a limit's bound.");
	if (p->traced != SIZE_MAX) {
		html_fmt_ns(p->trip, trip, sizeof trip);
		xw_textf(x, " Purple band: interval %zu, where the kernel trace %s was taken (the "
			    "first interval whose max is above its trip, %s, and reaches the "
			    "sample the trace kept).", p->traced + 1, p->r->trace, trip);
	} else if (p->r->trace) {
		xw_textf(x, " A kernel trace was taken (%s, under Kernel trace above); the "
			    "interval it was taken in is not marked: its note names another "
			    "metric's trip, or none of this metric's intervals is above it.",
			 p->r->trace);
	}
}

/* "N intervals of about 1 min, from ... to ... (UTC)" */
static void caption_head(struct xw *x, const struct tplot *p, const char *what)
{
	char len[24], a[40], b[40];
	rv_fmt_span(rv_ivals_length(p->m->intervals, p->m->nintervals), len, sizeof len);
	rv_fmt_utc_ms((int64_t)p->t0, a, sizeof a);
	rv_fmt_utc_ms((int64_t)p->t1, b, sizeof b);
	xw_textf(x, "%s of %s %s over time: %zu intervals of about %s each, from %s to %s.", what,
		 p->r->id, p->m->name, p->m->nintervals, len, a, b);
	if ((double)p->m->nintervals > (TX1 - TX0) / COL_PX)
		xw_textf(x, " Intervals closer than %.0f units of the plot are joined: a point is "
			    "the largest value of those it covers, red when any was.", COL_PX);
}

static void caption(struct xw *x, const struct tplot *p)
{
	size_t breached, no_p99;
	count_ivals(p, &breached, &no_p99);
	xw_start(x, "figcaption");
	caption_head(x, p, "Max and p99");
	xw_text(x, " Each point is one interval's own max (filled) or p99 (hollow), on a log "
		   "scale");
	if (no_p99)
		xw_textf(x, "; %zu interval%s had too few samples for a p99, which is left out",
			 no_p99, no_p99 == 1 ? "" : "s");
	xw_text(x, ". Dashed lines: the limits on this metric (green: met over the whole run, "
		   "red: not met); a red point lies beyond a limit on its own statistic.");
	caption_marks(x, p, breached);
	xw_full_end(x);
}

/* Below the plot: the trend of its maxima (reports/trend.h), the
 * question a max over time answers: were they still rising at the end? */
static void trend_note(struct xw *x, const struct rv_req *r, const struct rv_metric *m)
{
	struct trend t;
	size_t last;
	char when[40], buf[400];
	if (!rv_ivals_trend(m->intervals, m->nintervals, &t, &last))
		return;
	rv_fmt_utc_ms(m->intervals[last].start_ms, when, sizeof when);
	trend_text(&t, when[0] ? when : "an unknown time", buf, sizeof buf);
	xw_start(x, "p");
	xw_attr(x, "class", t.rising ? "trend rising" : "trend");
	xw_textf(x, "Interval maxima of %s %s: %s. The max is the largest observed, not a "
		    "worst case: a longer run can see a larger one.", r->id, m->name, buf);
	xw_full_end(x);
}

/* ---- the plots ---------------------------------------------------------- */

/* A figure that has nothing to plot says so. */
static void nothing_to_plot(struct xw *x, const struct rv_req *r, const struct rv_metric *m)
{
	xw_start(x, "p");
	xw_attr(x, "class", "note");
	xw_textf(x, "%s %s has %zu intervals, none with a value a time plot can show.", r->id,
		 m->name, m->nintervals);
	xw_full_end(x);
}

void html_time_plot(struct xw *x, const struct rv_req *r, const struct rv_metric *m)
{
	struct tplot p;
	if (m->kind != METRIC_DURATION || m->nintervals < 2)
		return;
	if (!setup(&p, r, m)) {
		nothing_to_plot(x, r, m);
		return;
	}
	size_t n = m->nintervals;
	struct tgroup *g = calloc(n, sizeof *g);
	double *px = calloc(n, sizeof *px), *py = calloc(n, sizeof *py);
	if (!g || !px || !py) {
		x->failed = true;
		goto out;
	}
	size_t ng = group_ivals(&p, m, m->intervals, n, g);
	struct lentry e[4] = { { NULL, "tl tl-max", "tp-max", "max" },
			       { NULL, "tl tl-p99", "tp-p99", "p99" } };
	bool p99 = false;
	for (size_t i = 0; i < ng; i++)
		p99 |= g[i].p99.have;
	size_t ne = band_entries(&p, g, ng, e, p99 ? 2 : 1); /* no p99 anywhere: no entry */
	char label[200];
	snprintf(label, sizeof label, "Max and p99 of %s %s per interval", r->id, m->name);
	xw_start(x, "figure");
	xw_attr(x, "class", "time");
	open_plot(x, &p, g, ng, e, ne, label);
	points(x, &p, g, ng, RV_P99, "tl tl-p99", "tp-p99", true, px, py);
	points(x, &p, g, ng, RV_MAX, "tl tl-max", "tp-max", true, px, py);
	svg_close(x);
	caption(x, &p);
	xw_full_end(x); /* figure */
	trend_note(x, r, m);
out:
	free(g);
	free(px);
	free(py);
}

/* Each CPU's max line, in its colour and dash; lone points as dots. */
static void cpu_lines(struct xw *x, const struct tplot *p, struct tgroup *g, double *px,
		      double *py)
{
	char line[48], dot[48];
	for (size_t s = 0; s < p->r->nseries; s++) {
		const struct rv_series *se = &p->r->series[s];
		size_t ng = group_ivals(p, p->m, se->intervals, se->nintervals, g);
		int c = (int)(s % CPU_COLOURS), d = (int)(s / CPU_COLOURS % CPU_DASHES);
		snprintf(line, sizeof line, "tl tc%d td%d", c, d);
		snprintf(dot, sizeof dot, "tp-cpu tc%d", c);
		points(x, p, g, ng, RV_MAX, line, dot, false, px, py);
	}
}

/* The legend of the CPUs' plot: one entry per CPU, then the bands'. */
static struct lentry *cpu_entries(const struct tplot *p, const struct tgroup *g, size_t ng,
				  size_t *ne)
{
	const struct rv_req *r = p->r;
	struct lentry *e = calloc(r->nseries + 2, sizeof *e);
	if (!e)
		return NULL;
	for (size_t s = 0; s < r->nseries; s++) {
		int c = (int)(s % CPU_COLOURS), d = (int)(s / CPU_COLOURS % CPU_DASHES);
		e[s].band = NULL;
		snprintf(e[s].line, sizeof e[s].line, "tl tc%d td%d", c, d);
		snprintf(e[s].dot, sizeof e[s].dot, "tp-cpu tc%d", c);
		snprintf(e[s].text, sizeof e[s].text, "CPU %d", r->series[s].cpu);
	}
	*ne = band_entries(p, g, ng, e, r->nseries);
	return e;
}

static void cpu_caption(struct xw *x, const struct tplot *p)
{
	size_t breached, no_p99;
	count_ivals(p, &breached, &no_p99);
	xw_start(x, "figcaption");
	caption_head(x, p, "Max per CPU");
	xw_text(x, " Each CPU's own max of each interval, one line per CPU (legend), on the axes "
		   "of the plot above; an interval in which a CPU took no sample has no point "
		   "of it. Dashed lines: the limits on this metric (green: met over the whole "
		   "run, red: not met). The bands are the metric's intervals, as above.");
	caption_marks(x, p, breached);
	xw_full_end(x);
}

void html_time_cpu_plot(struct xw *x, const struct rv_req *r)
{
	struct tplot p;
	if (!r->nseries || !r->nmetrics)
		return;
	const struct rv_metric *m = &r->metrics[0];
	if (m->kind != METRIC_DURATION || m->nintervals < 2 || !setup(&p, r, m))
		return;
	size_t room = m->nintervals, ne = 0;
	for (size_t s = 0; s < r->nseries; s++)
		if (r->series[s].nintervals > room)
			room = r->series[s].nintervals;
	struct tgroup *g = calloc(room, sizeof *g);
	double *px = calloc(room, sizeof *px), *py = calloc(room, sizeof *py);
	struct lentry *e = NULL;
	size_t ng = g ? group_ivals(&p, m, m->intervals, m->nintervals, g) : 0;
	if (g)
		e = cpu_entries(&p, g, ng, &ne);
	if (!g || !px || !py || !e) {
		x->failed = true;
		goto out;
	}
	char label[200];
	snprintf(label, sizeof label, "Max per CPU of %s %s per interval", r->id, m->name);
	xw_start(x, "figure");
	xw_attr(x, "class", "time");
	open_plot(x, &p, g, ng, e, ne, label);
	cpu_lines(x, &p, g, px, py);
	svg_close(x);
	cpu_caption(x, &p);
	xw_full_end(x); /* figure */
out:
	free(e);
	free(g);
	free(px);
	free(py);
}
