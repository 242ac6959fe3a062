/* html.c - report.html, the audit report for people.
 *
 * One self-contained file: inline CSS and SVG, no script, nothing fetched
 * from anywhere (no src=, no external href=, no url() in the CSS), so it
 * opens the same on an air-gapped machine in ten years. Rendered from the
 * report view only, so the report `run` writes and the one `rtconform report`
 * rebuilds from results.json are the same bytes. Written with xmlTextWriter as
 * polyglot markup: valid HTML5 that is also well-formed XML, every string
 * escaped by the writer.
 *
 * Order: verdict summary first; then each requirement (facts, limits against
 * measured values, per duration metric a log-log histogram with the limits
 * drawn on it and a statistics table, the count metrics' table of per-run
 * counts, the per-run table); then the environment and the
 * command that reproduces the run.
 */
#include "reports/report.h"
#include "base/quote.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/stats.h"
#include "base/units.h"
#include "reports/xmlw.h"

/* No '<', '>' or '&' in here: it is written raw inside <style>, and the
 * document must stay well-formed XML. */
static const char css[] =
	":root{--pass:#1a7f37;--fail:#cf222e;--error:#b35900;--skip:#6e7781;--line:#d0d7de}\n"
	"body{font:14px/1.45 system-ui,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif;"
	"color:#1f2328;max-width:1120px;margin:0 auto;padding:16px 24px;background:#fff}\n"
	"h1{font-size:22px;margin:0 0 6px}\n"
	"h2{font-size:18px;margin:30px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}\n"
	"h3{font-size:15px;margin:18px 0 6px}\n"
	"table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}\n"
	"th{background:#f6f8fa;font-weight:600}\n"
	"td.num{text-align:right;white-space:nowrap}\n"
	"td.note{color:#57606a;font-size:13px}\n"
	"table.facts th{white-space:nowrap;width:11em}\n"
	"table.env td{word-break:break-word}\n"
	"table.env td:first-child{white-space:nowrap;font-family:'DejaVu Sans Mono',monospace;font-size:12px}\n"
	"code,pre{font-family:'DejaVu Sans Mono',Consolas,monospace;font-size:12px}\n"
	"pre{background:#f6f8fa;border:1px solid var(--line);padding:8px 10px;"
	"white-space:pre-wrap;word-break:break-all}\n"
	".v{display:inline-block;min-width:3.6em;text-align:center;font-weight:700;font-size:12px;"
	"padding:1px 6px;border-radius:3px;color:#fff}\n"
	".v-pass{background:var(--pass)}.v-fail{background:var(--fail)}"
	".v-error{background:var(--error)}.v-skipped{background:var(--skip)}\n"
	".banner{padding:10px 14px;border-radius:6px;color:#fff;font-size:16px;font-weight:600;margin:10px 0}\n"
	".b-pass{background:var(--pass)}.b-fail{background:var(--fail)}.b-error{background:var(--error)}\n"
	".metric{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}\n"
	"figure{margin:0}\n"
	"figcaption{font-size:12px;color:#57606a;max-width:640px}\n"
	"table.stats{font-size:13px}\n"
	"table.counts{font-size:13px}\n"
	"svg.hist{width:640px;max-width:100%;height:auto;border:1px solid var(--line);background:#fff}\n"
	"svg .bar{fill:#4c78a8}\n"
	"svg .beyond{fill:#cf222e}\n"
	"svg .axis{stroke:#57606a;stroke-width:1}\n"
	"svg .grid{stroke:#eaeef2;stroke-width:1}\n"
	"svg .lim{stroke:#cf222e;stroke-width:1.6;stroke-dasharray:5 3}\n"
	"svg .lim-ok{stroke:#1a7f37}\n"
	"svg text{font-size:11px;fill:#57606a;font-family:'DejaVu Sans',Arial,sans-serif}\n"
	"svg text.lab{fill:#1f2328;font-weight:600}\n"
	"a{color:#0969da;text-decoration:none}\n"
	"footer{margin-top:30px;color:#57606a;font-size:12px}\n"
	"@media print{\n"
	"@page{size:A4;margin:12mm}\n"
	"body{max-width:none;padding:0;font-size:10pt}\n"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
	"h2{break-before:auto;break-after:avoid}h3{break-after:avoid}\n"
	"table,figure,tr,pre{break-inside:avoid}\n"
	".req{break-before:page}\n"
	"svg.hist{width:100%}\n"
	"a{color:inherit}\n"
	"}\n";

/* ---- small pieces ------------------------------------------------------ */


static void badge(struct xw *x, enum verdict v)
{
	xw_start(x, "span");
	xw_attrf(x, "class", "v v-%s", verdict_name(v));
	xw_text(x, verdict_label(v));
	xw_full_end(x);
}

static void nl(struct xw *x)
{
	xw_raw(x, "\n");
}

static void th(struct xw *x, const char *text)
{
	xw_elem(x, "th", text);
}

static void td(struct xw *x, const char *text)
{
	xw_elem(x, "td", text);
}

static void td_num(struct xw *x, const char *text)
{
	xw_start(x, "td");
	xw_attr(x, "class", "num");
	xw_text(x, text);
	xw_full_end(x);
}

static const char *env(const struct report_view *v, const char *key)
{
	const char *s = fingerprint_get(&v->env, key);
	return s ? s : "unknown";
}

static void fmt_value(const struct rv_value *val, enum qty_unit unit, char *buf, size_t len)
{
	if (!val->have) {
		snprintf(buf, len, "-");
		return;
	}
	struct quantity q = { val->v, unit };
	fmt_qty(&q, buf, len);
}

/* "per-op max", "<= 300 us" / ">= 1 us" / "in [1 us, 300 us]". */
static void bound_text(const struct rv_limit *l, char *buf, size_t len)
{
	char a[48] = "", b[48] = "";
	if (l->has_max)
		fmt_qty(&l->max, a, sizeof a);
	if (l->has_min)
		fmt_qty(&l->min, b, sizeof b);
	if (l->has_max && l->has_min)
		snprintf(buf, len, "in [%s, %s]", b, a);
	else if (l->has_max)
		snprintf(buf, len, "\xe2\x89\xa4 %s", a); /* ≤ */
	else if (l->has_min)
		snprintf(buf, len, "\xe2\x89\xa5 %s", b); /* ≥ */
	else
		snprintf(buf, len, "(no bound)");
}

static void exit_text(int status, char *buf, size_t len)
{
	snprintf(buf, len, "exit status %d: %s", status, verdict_exit_meaning(status));
}

/* Why a statistic is absent: the same reasons the text report gives. */
static void absent_text(const struct rv_metric *m, int stat, char *buf, size_t len)
{
	struct statistic st;
	if (!m->count) {
		snprintf(buf, len, "n/a (no samples)");
		return;
	}
	if (stat_parse(report_view_stats[stat], &st) != 0) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (st.kind == STAT_RUNS_MEAN_STDDEV)
		snprintf(buf, len, "n/a (needs 2 runs with samples)");
	else if (m->count < stat_min_samples(&st))
		snprintf(buf, len, "n/a (needs %llu samples)",
			 (unsigned long long)stat_min_samples(&st));
	else
		snprintf(buf, len, "n/a");
}

static char *anchor(unsigned f, unsigned i, char *buf, size_t len)
{
	snprintf(buf, len, "r%u-%u", f + 1, i + 1);
	return buf;
}

/* ---- header and summary ------------------------------------------------ */

/* Which machine, for a lab that runs one OS on many boards: the label,
 * host name, hashed id, hardware and OS (the environment table has each). */
static void host_identity(struct xw *x, const struct report_view *v)
{
	char host[1600];
	fingerprint_host_summary(&v->env, host, sizeof host);
	xw_start(x, "p");
	xw_attr(x, "id", "host");
	xw_textf(x, "Host: %s", host);
	xw_full_end(x);
	nl(x);
}

static void header(struct xw *x, const struct report_view *v)
{
	struct report_totals t;
	report_view_totals(v, &t);
	int status = report_view_exit_status(v);
	char buf[200], preempt[64];
	/* The model alone ("PREEMPT_RT"); how it was found is in the table. */
	snprintf(preempt, sizeof preempt, "%s", env(v, "host.preempt"));
	preempt[strcspn(preempt, " ")] = '\0';

	xw_elem(x, "h1", "rtconform real-time conformance report");
	nl(x);
	xw_start(x, "div");
	xw_attrf(x, "class", "banner b-%s", status == 0 ? "pass" : status == 1 ? "fail" : "error");
	xw_attr(x, "id", "verdict");
	xw_textf(x, "%s \xe2\x80\x94 ", status == 0 ? "PASS" : status == 1 ? "FAIL" : "ERROR");
	exit_text(status, buf, sizeof buf);
	xw_text(x, buf);
	xw_full_end(x);
	nl(x);

	xw_start(x, "p");
	xw_textf(x, "%zu requirement%s: %zu passed, %zu failed, %zu error%s, %zu skipped; "
		    "measured on %s (%s, %s) from %s to %s.",
		 t.tests, t.tests == 1 ? "" : "s", t.passed, t.failures, t.errors,
		 t.errors == 1 ? "" : "s", t.skipped, env(v, "host.name"),
		 env(v, "host.kernel.release"), preempt,
		 env(v, "rtconform.started"), env(v, "rtconform.ended"));
	xw_full_end(x);
	nl(x);
	host_identity(x, v);
}

/* The cells of a requirement that span its rows of the verdict table. */
static void summary_req_cells(struct xw *x, const struct rv_req *r, size_t f, size_t i,
			      size_t rows)
{
	char id[32];
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	xw_start(x, "a");
	xw_attrf(x, "href", "#%s", anchor((unsigned)f, (unsigned)i, id, sizeof id));
	xw_text(x, r->id);
	xw_full_end(x);
	if (r->title) {
		xw_raw(x, "<br/>");
		xw_start(x, "span");
		xw_attr(x, "class", "note");
		xw_text(x, r->title);
		xw_full_end(x);
	}
	xw_full_end(x);
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	badge(x, r->verdict);
	xw_full_end(x);
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	xw_text(x, r->probe);
	xw_full_end(x);
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	xw_text(x, r->policy);
	xw_full_end(x);
}

/* Limit, measured value and limit verdict: of limit k, or dashes. */
static void summary_limit_cells(struct xw *x, const struct rv_req *r, size_t rows, size_t k)
{
	char buf[200];
	if (rows == r->nlimits && r->nlimits) {
		const struct rv_limit *l = &r->limits[k];
		char b[80];
		bound_text(l, b, sizeof b);
		snprintf(buf, sizeof buf, "%s %s %s", l->metric, l->statistic, b);
		td(x, buf);
		fmt_value(&l->measured, rv_limit_unit(l), buf, sizeof buf);
		td_num(x, buf);
		xw_start(x, "td");
		badge(x, l->verdict);
		xw_full_end(x);
	} else {
		td(x, r->nlimits ? "-" : "(no limits)");
		td_num(x, "-");
		td(x, "-");
	}
}

/* Why a requirement did not pass, under its rows. */
static void summary_note_row(struct xw *x, const struct rv_req *r)
{
	if (!r->reason || r->verdict == VERDICT_PASS)
		return;
	xw_start(x, "tr");
	xw_start(x, "td");
	xw_attr(x, "colspan", "7");
	xw_attr(x, "class", "note");
	xw_textf(x, "%s %s: %s", r->id,
		 r->verdict == VERDICT_FAIL ? "failed"
		 : r->verdict == VERDICT_ERROR ? "could not be measured"
					       : "skipped",
		 r->reason);
	xw_full_end(x);
	xw_full_end(x);
	nl(x);
}

/* One row per limit (or one for a requirement without limits, or that was
 * skipped), like summary.txt; the requirement's cells span its rows. */
static void summary(struct xw *x, const struct report_view *v)
{
	xw_elem(x, "h2", "Verdicts");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "summary");
	xw_start(x, "tr");
	static const char *const head[] = { "Requirement", "Verdict", "Probe", "Policy",
					    "Limit", "Measured", "Limit verdict" };
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		th(x, head[i]);
	xw_full_end(x);
	nl(x);
	for (size_t f = 0; f < v->nfiles; f++) {
		const struct rv_file *vf = &v->files[f];
		if (v->nfiles > 1) {
			xw_start(x, "tr");
			xw_start(x, "th");
			xw_attr(x, "colspan", "7");
			xw_textf(x, "%s (%s)", vf->name, vf->path);
			xw_full_end(x);
			xw_full_end(x);
			nl(x);
		}
		for (size_t i = 0; i < vf->nreqs; i++) {
			const struct rv_req *r = &vf->reqs[i];
			size_t rows = r->nlimits && r->verdict != VERDICT_SKIPPED ? r->nlimits : 1;
			for (size_t k = 0; k < rows; k++) {
				xw_start(x, "tr");
				if (k == 0)
					summary_req_cells(x, r, f, i, rows);
				summary_limit_cells(x, r, rows, k);
				xw_full_end(x); /* tr */
				nl(x);
			}
			summary_note_row(x, r);
		}
	}
	xw_full_end(x); /* table */
	nl(x);
}

/* ---- the histogram ----------------------------------------------------- */

#define SVG_W 640
#define SVG_H 270
#define PX0 52.0  /* plot area */
#define PX1 578.0
#define PY0 44.0
#define PY1 226.0
#define OVF_X0 590.0 /* the overflow column, right of the value axis */
#define OVF_X1 616.0

struct group {
	double e0, e1; /* ns */
	uint64_t count;
	bool beyond;
};

struct line {
	double ns;
	bool passed, on_scale;
	char label[96];
};

static double nice_floor(double v)
{
	double p = pow(10, floor(log10(v)));
	double m = v / p;
	return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

static double nice_ceil(double v)
{
	double p = pow(10, floor(log10(v)));
	double m = v / p;
	if (m <= 1 * (1 + 1e-12))
		return p;
	return (m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

struct axis {
	double l0, l1; /* log10 of the ends, ns */
	double lo, hi; /* the ends, ns */
};

static double xpos(const struct axis *a, double ns)
{
	return PX0 + (log10(ns) - a->l0) / (a->l1 - a->l0) * (PX1 - PX0);
}

static double ypos(double count, double lmax)
{
	return PY1 - (lmax > 0 ? log10(1.0 + count) / lmax : 0) * (PY1 - PY0);
}

static void svg_text(struct xw *x, double px, double py, const char *anchor_, const char *cls,
		     const char *text)
{
	xw_start(x, "text");
	xw_attrf(x, "x", "%.1f", px);
	xw_attrf(x, "y", "%.1f", py);
	if (anchor_)
		xw_attr(x, "text-anchor", anchor_);
	if (cls)
		xw_attr(x, "class", cls);
	xw_text(x, text);
	xw_full_end(x);
}

static void svg_line(struct xw *x, double x1, double y1, double x2, double y2, const char *cls)
{
	xw_start(x, "line");
	xw_attrf(x, "x1", "%.1f", x1);
	xw_attrf(x, "y1", "%.1f", y1);
	xw_attrf(x, "x2", "%.1f", x2);
	xw_attrf(x, "y2", "%.1f", y2);
	xw_attr(x, "class", cls);
	xw_end(x);
}

static void svg_rect(struct xw *x, double px, double py, double w, double h, const char *cls,
		     const char *title)
{
	xw_start(x, "rect");
	xw_attrf(x, "x", "%.2f", px);
	xw_attrf(x, "y", "%.2f", py);
	xw_attrf(x, "width", "%.2f", w);
	xw_attrf(x, "height", "%.2f", h);
	xw_attr(x, "class", cls);
	xw_elem(x, "title", title);
	xw_full_end(x);
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

/* The limits of this metric as vertical lines, in ns. A cycles limit is
 * converted with the metric's own scales; without a cycles scale it has
 * no place on a time axis and is left out. */
static size_t metric_lines(const struct rv_req *r, const struct rv_metric *m, struct line *out,
			   size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nlimits && n < max; i++) {
		const struct rv_limit *l = &r->limits[i];
		if (strcmp(l->metric, m->name) != 0)
			continue;
		for (int side = 0; side < 2 && n < max; side++) {
			bool is_max = side == 0;
			if (is_max ? !l->has_max : !l->has_min)
				continue;
			const struct quantity *q = is_max ? &l->max : &l->min;
			double ns = q->value;
			if (q->unit == QTY_CYCLES) {
				if (!(m->cycles_per_unit > 0))
					continue;
				ns = q->value * m->ns_per_unit / m->cycles_per_unit;
			}
			if (!(ns > 0) || !isfinite(ns))
				continue;
			char b[48];
			fmt_qty(q, b, sizeof b);
			out[n].ns = ns;
			out[n].passed = l->verdict == VERDICT_PASS;
			snprintf(out[n].label, sizeof out[n].label, "%s %s %s", l->statistic,
				 is_max ? "\xe2\x89\xa4" : "\xe2\x89\xa5", b);
			/* remember the side in the sign, for marking bins */
			if (!is_max)
				out[n].ns = -ns;
			n++;
		}
	}
	return n;
}

static bool bucket_beyond(const struct rv_bucket *b, double npu, const struct line *lines,
			  size_t nlines)
{
	for (size_t i = 0; i < nlines; i++) {
		if (lines[i].ns > 0 && (double)b->hi * npu > lines[i].ns)
			return true; /* may hold values above a max= bound */
		if (lines[i].ns < 0 && (double)b->lo * npu < -lines[i].ns)
			return true; /* may hold values below a min= bound */
	}
	return false;
}

/* The value axis covers the samples, widened to 1-2-5 steps and to at least
 * one decade; a limit within a decade of the data joins it, one further away
 * is marked at the edge, so a generous budget does not squash the
 * distribution into a few pixels. */
static struct axis value_axis(const struct rv_metric *m, double npu, const struct line *lines,
			      size_t nlines)
{
	double dmin, dmax;
	if (m->nbuckets) {
		dmin = m->buckets[0].lo ? (double)m->buckets[0].lo * npu : 0.5 * npu;
		dmax = (double)(m->buckets[m->nbuckets - 1].hi + 1) * npu;
	} else {
		dmin = (double)m->highest * npu;
		dmax = dmin * 10;
	}
	if (!(dmin > 0))
		dmin = 1;
	if (!(dmax > dmin))
		dmax = dmin * 10;
	double lo = dmin, hi = dmax;
	for (size_t i = 0; i < nlines; i++) {
		double ns = fabs(lines[i].ns);
		if (ns >= dmin / 10 && ns <= dmax * 10) {
			lo = fmin(lo, ns);
			hi = fmax(hi, ns * 1.02);
		}
	}
	lo = nice_floor(lo);
	hi = nice_ceil(hi);
	if (log10(hi) - log10(lo) < 1) {
		double pad = (1 - (log10(hi) - log10(lo))) / 2;
		lo = nice_floor(pow(10, log10(lo) - pad));
		hi = nice_ceil(pow(10, log10(hi) + pad));
	}
	return (struct axis){ log10(lo), log10(hi), lo, hi };
}

/* Neighbouring buckets that land on one pixel column become one bar, unless
 * a limit separates them: a marked bin never hides in an unmarked one.
 * Returns the bars in g (m->nbuckets room); *cmax the largest count of a bar
 * or of the overflow. */
static size_t group_buckets(const struct rv_metric *m, double npu, const struct axis *ax,
			    const struct line *lines, size_t nlines, struct group *g,
			    uint64_t *cmax)
{
	size_t ng = 0;
	long last_px = -1;
	*cmax = m->overflow;
	for (size_t i = 0; i < m->nbuckets; i++) {
		const struct rv_bucket *bk = &m->buckets[i];
		double e0 = bk->lo ? (double)bk->lo * npu : 0.5 * npu;
		double e1 = (double)(bk->hi + 1) * npu;
		bool beyond = bucket_beyond(bk, npu, lines, nlines);
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
static void count_axis(struct xw *x, uint64_t cmax, double lmax)
{
	char buf[32];
	for (uint64_t c = 1; c <= cmax; c *= 10) {
		double py = ypos((double)c, lmax);
		svg_line(x, PX0, py, PX1, py, "grid");
		count_label(c, buf, sizeof buf);
		svg_text(x, PX0 - 6, py + 4, "end", NULL, buf);
		if (c > UINT64_MAX / 10)
			break;
	}
}

/* The value axis (log): decades labelled, 2 and 5 ticked. */
static void value_ticks(struct xw *x, const struct axis *ax)
{
	char buf[48];
	int decades = (int)lround(ax->l1 - ax->l0);
	for (int k = (int)floor(ax->l0); k <= (int)ceil(ax->l1); k++) {
		static const int mult[] = { 1, 2, 5 };
		for (int j = 0; j < 3; j++) {
			double v = mult[j] * pow(10, k);
			if (v < ax->lo * (1 - 1e-9) || v > ax->hi * (1 + 1e-9))
				continue;
			double px = xpos(ax, v);
			svg_line(x, px, PY1, px, PY1 + (j ? 3 : 5), "axis");
			if (j == 0 || decades <= 2) {
				fmt_ns(v, buf, sizeof buf);
				svg_text(x, px, PY1 + 17, "middle", NULL, buf);
			}
		}
	}
}

static void bars(struct xw *x, const struct group *g, size_t ng, const struct rv_metric *m,
		 double npu, const struct axis *ax, double lmax)
{
	char buf[200], a[48], b[48];
	for (size_t i = 0; i < ng; i++) {
		double x0 = xpos(ax, g[i].e0), x1 = xpos(ax, g[i].e1);
		double w = fmax(x1 - x0, 1.0);
		double py = ypos((double)g[i].count, lmax);
		double h = PY1 - py;
		if (h < 1) {
			h = 1;
			py = PY1 - 1;
		}
		fmt_ns(g[i].e0, a, sizeof a);
		fmt_ns(g[i].e1, b, sizeof b);
		snprintf(buf, sizeof buf, "%s to %s: %llu sample%s%s", a, b,
			 (unsigned long long)g[i].count, g[i].count == 1 ? "" : "s",
			 g[i].beyond ? " (beyond a limit)" : "");
		svg_rect(x, x0, py, w, h, g[i].beyond ? "beyond" : "bar", buf);
	}
	if (m->overflow) {
		double py = ypos((double)m->overflow, lmax);
		fmt_ns((double)m->highest * npu, a, sizeof a);
		snprintf(buf, sizeof buf, "above %s (the histogram's range): %llu sample%s", a,
			 (unsigned long long)m->overflow, m->overflow == 1 ? "" : "s");
		svg_rect(x, OVF_X0, py, OVF_X1 - OVF_X0, fmax(PY1 - py, 1.0), "beyond", buf);
		svg_text(x, (OVF_X0 + OVF_X1) / 2, PY1 + 17, "middle", NULL, "over");
	}
}

/* The limits as dashed lines, or at the edge with an arrow when off scale. */
static void limit_lines(struct xw *x, const struct line *lines, size_t nlines,
			const struct axis *ax)
{
	char buf[200];
	for (size_t i = 0; i < nlines; i++) {
		double ns = fabs(lines[i].ns);
		double ly = 14 + 13 * (double)(i % 2);
		if (ns >= ax->lo && ns <= ax->hi) {
			double px = xpos(ax, ns);
			svg_line(x, px, PY0 - 4 - (i % 2 ? 0 : 13), px, PY1,
				 lines[i].passed ? "lim lim-ok" : "lim");
			bool right = px > (PX0 + PX1) / 2;
			svg_text(x, right ? px - 4 : px + 4, ly, right ? "end" : "start", "lab",
				 lines[i].label);
		} else {
			bool right = ns > ax->hi;
			snprintf(buf, sizeof buf, "%s%s%s", right ? "" : "\xe2\x86\x90 ",
				 lines[i].label, right ? " \xe2\x86\x92" : "");
			svg_text(x, right ? PX1 : PX0, ly, right ? "end" : "start", "lab", buf);
		}
	}
}

static void histogram(struct xw *x, const struct rv_req *r, const struct rv_metric *m)
{
	char buf[200];
	double npu = m->ns_per_unit > 0 && isfinite(m->ns_per_unit) ? m->ns_per_unit : 1.0;
	struct line lines[2 * REQ_MAX_LIMITS];
	size_t nlines = metric_lines(r, m, lines, sizeof lines / sizeof lines[0]);

	xw_start(x, "svg");
	xw_attr(x, "class", "hist");
	xw_attrf(x, "viewBox", "0 0 %d %d", SVG_W, SVG_H);
	xw_attrf(x, "width", "%d", SVG_W);
	xw_attrf(x, "height", "%d", SVG_H);
	xw_attr(x, "role", "img");
	snprintf(buf, sizeof buf, "Histogram of %s %s", r->id, m->name);
	xw_attr(x, "aria-label", buf);

	if (!m->nbuckets && !m->overflow) {
		svg_text(x, SVG_W / 2.0, SVG_H / 2.0, "middle", "lab", "no samples");
		xw_full_end(x);
		return;
	}
	struct axis ax = value_axis(m, npu, lines, nlines);
	struct group *g = calloc(m->nbuckets ? m->nbuckets : 1, sizeof *g);
	if (!g) {
		x->failed = true;
		return;
	}
	uint64_t cmax;
	size_t ng = group_buckets(m, npu, &ax, lines, nlines, g, &cmax);
	double lmax = log10(1.0 + (double)cmax);

	count_axis(x, cmax, lmax);
	value_ticks(x, &ax);
	bars(x, g, ng, m, npu, &ax, lmax);
	svg_line(x, PX0, PY1, PX1, PY1, "axis");
	svg_line(x, PX0, PY0 - 4, PX0, PY1, "axis");
	limit_lines(x, lines, nlines, &ax);
	svg_text(x, (PX0 + PX1) / 2, SVG_H - 6, "middle", NULL,
		 "latency (log scale); bar height: samples (log scale)");
	free(g);
	xw_full_end(x); /* svg */
}

/* ---- a requirement ----------------------------------------------------- */

static void fact(struct xw *x, const char *name, const char *value, bool code)
{
	xw_start(x, "tr");
	th(x, name);
	xw_start(x, "td");
	if (code)
		xw_elem(x, "code", value);
	else
		xw_text(x, value);
	xw_full_end(x);
	xw_full_end(x);
	nl(x);
}

static void facts(struct xw *x, const struct rv_req *r)
{
	char buf[800], a[48], b[48];
	xw_start(x, "table");
	xw_attr(x, "class", "facts");
	nl(x);
	if (r->source)
		fact(x, "Source", r->source, false);
	{
		size_t o = (size_t)snprintf(buf, sizeof buf, "%s", r->probe);
		for (size_t i = 0; i < r->nparams && o < sizeof buf; i++)
			o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s=%s",
					      i ? ", " : " (", r->params[i].name,
					      r->params[i].value);
		if (r->nparams && o < sizeof buf)
			snprintf(buf + o, sizeof buf - o, ")");
		fact(x, "Probe", buf, false);
	}
	if (r->cpu >= 0)
		snprintf(buf, sizeof buf, "%s, pinned to CPU %d", r->policy, r->cpu);
	else
		snprintf(buf, sizeof buf, "%s, not pinned", r->policy);
	fact(x, "Scheduling", buf, false);
	if (r->load)
		fact(x, "Background load", r->load, true);
	snprintf(buf, sizeof buf, "%u run%s completed in %.3f s", r->runs, r->runs == 1 ? "" : "s",
		 r->seconds);
	fact(x, "Runs", r->measured ? buf : "nothing measured", false);
	if (r->batch_mean_ns.have) {
		fmt_ns(r->batch_mean_ns.v, a, sizeof a);
		fmt_ns(r->batch_stddev_ns.v, b, sizeof b);
		snprintf(buf, sizeof buf,
			 "%s per operation, stddev %s over the runs (total time / iterations, "
			 "empty-loop overhead subtracted)", a, b);
		fact(x, "Batch figure", buf, false);
	}
	if (r->reason)
		fact(x, r->verdict == VERDICT_ERROR ? "Error"
			: r->verdict == VERDICT_SKIPPED ? "Skipped" : "Failure",
		     r->reason, false);
	if (r->note)
		fact(x, "Probe note", r->note, false);
	xw_full_end(x);
	nl(x);
}

static void limits_table(struct xw *x, const struct rv_req *r)
{
	char buf[200];
	if (!r->nlimits)
		return;
	xw_elem(x, "h3", "Limits");
	nl(x);
	xw_start(x, "table");
	xw_start(x, "tr");
	static const char *const head[] = { "Metric", "Statistic", "Bound", "Measured",
					    "Verdict", "Judgement" };
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		th(x, head[i]);
	xw_full_end(x);
	nl(x);
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		xw_start(x, "tr");
		td(x, l->metric);
		td(x, l->statistic);
		bound_text(l, buf, sizeof buf);
		td_num(x, buf);
		fmt_value(&l->measured, rv_limit_unit(l), buf, sizeof buf);
		td_num(x, buf);
		xw_start(x, "td");
		badge(x, l->verdict);
		xw_full_end(x);
		td(x, l->text ? l->text : "");
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
}

static void stats_table(struct xw *x, const struct rv_metric *m)
{
	/* Percentiles in rank order between min and max, then the moments. */
	static const int order[] = { 0, 4, 5, 6, 7, 3, 1, 2, 8 };
	bool cycles = m->cycles_per_unit > 0;
	char buf[64];
	xw_start(x, "table");
	xw_attr(x, "class", "stats");
	xw_start(x, "tr");
	th(x, "Statistic");
	th(x, "Time");
	if (cycles)
		th(x, "Cycles");
	xw_full_end(x);
	nl(x);
	xw_start(x, "tr");
	td(x, "samples");
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)m->count);
	td_num(x, buf);
	if (cycles)
		td_num(x, "");
	xw_full_end(x);
	nl(x);
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		int i = order[k];
		xw_start(x, "tr");
		td(x, report_view_stats[i]);
		if (m->ns[i].have)
			fmt_value(&m->ns[i], QTY_NS, buf, sizeof buf);
		else
			absent_text(m, i, buf, sizeof buf);
		td_num(x, buf);
		if (cycles) {
			if (m->cycles[i].have)
				snprintf(buf, sizeof buf, "%.1f", m->cycles[i].v);
			else
				snprintf(buf, sizeof buf, "-");
			td_num(x, buf);
		}
		xw_full_end(x);
		nl(x);
	}
	xw_start(x, "tr");
	td(x, "overflow");
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)m->overflow);
	td_num(x, buf);
	if (cycles)
		td_num(x, "");
	xw_full_end(x);
	nl(x);
	xw_full_end(x);
	nl(x);
}

static void runs_table(struct xw *x, const struct rv_req *r)
{
	char buf[64];
	if (!r->runs)
		return;
	xw_elem(x, "h3", "Runs");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "runs");
	xw_start(x, "tr");
	th(x, "Run");
	for (size_t i = 0; i < r->nmetrics; i++) {
		if (r->metrics[i].kind == METRIC_COUNT)
			continue; /* in the counts table */
		snprintf(buf, sizeof buf, "%s samples", r->metrics[i].name);
		th(x, buf);
		snprintf(buf, sizeof buf, "%s mean", r->metrics[i].name);
		th(x, buf);
	}
	th(x, "Batch (total / N)");
	xw_full_end(x);
	nl(x);
	for (uint32_t k = 0; k < r->runs; k++) {
		xw_start(x, "tr");
		snprintf(buf, sizeof buf, "%u", k + 1);
		td_num(x, buf);
		for (size_t i = 0; i < r->nmetrics; i++) {
			const struct rv_metric *m = &r->metrics[i];
			if (m->kind == METRIC_COUNT)
				continue;
			if (k < m->nruns) {
				snprintf(buf, sizeof buf, "%llu", (unsigned long long)m->run_count[k]);
				td_num(x, buf);
				fmt_value(&m->run_mean_ns[k], QTY_NS, buf, sizeof buf);
				td_num(x, buf);
			} else {
				td_num(x, "-");
				td_num(x, "-");
			}
		}
		if (r->batch_run_ns)
			fmt_value(&r->batch_run_ns[k], QTY_NS, buf, sizeof buf);
		else
			snprintf(buf, sizeof buf, "-");
		td_num(x, buf);
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
}

/* One row of the counts table: a label, then each count metric's cell. */
static void counts_row(struct xw *x, const struct rv_req *r, const char *label, uint32_t run,
		       int stat)
{
	char buf[64];
	xw_start(x, "tr");
	td(x, label);
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		if (m->kind != METRIC_COUNT)
			continue;
		if (stat >= 0)
			fmt_value(&m->counts[stat], QTY_COUNT, buf, sizeof buf);
		else if (run < m->nruns)
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)m->run_count[run]);
		else
			snprintf(buf, sizeof buf, "-");
		td_num(x, buf);
	}
	xw_full_end(x);
	nl(x);
}

/* The count metrics (the harness's faults and switches, a probe's own
 * counts): one column each, a row per run, then their statistics. Counts
 * are few values, so a table shows them better than a histogram would. */
static void counts_table(struct xw *x, const struct rv_req *r)
{
	char buf[64];
	size_t n = 0;
	for (size_t i = 0; i < r->nmetrics; i++)
		n += r->metrics[i].kind == METRIC_COUNT;
	if (!n)
		return;
	xw_elem(x, "h3", "Counts per run");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "counts");
	xw_start(x, "tr");
	th(x, "Run");
	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].kind == METRIC_COUNT)
			th(x, r->metrics[i].name);
	xw_full_end(x);
	nl(x);
	for (uint32_t k = 0; k < r->runs; k++) {
		snprintf(buf, sizeof buf, "%u", k + 1);
		counts_row(x, r, buf, k, -1);
	}
	for (int i = 0; i < RV_NCSTATS; i++)
		counts_row(x, r, report_view_count_stats[i], 0, i);
	xw_full_end(x);
	nl(x);
}

static void series_table(struct xw *x, const struct rv_req *r)
{
	char buf[64];
	if (!r->nseries)
		return;
	snprintf(buf, sizeof buf, "Metric %s per CPU", r->metrics[0].name);
	xw_elem(x, "h3", buf);
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "series");
	xw_start(x, "tr");
	th(x, "CPU");
	th(x, "samples");
	for (int k = 0; k < RV_NSERIES_STATS; k++)
		th(x, report_view_series_stats[k]);
	xw_full_end(x);
	nl(x);
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rv_series *s = &r->series[i];
		xw_start(x, "tr");
		snprintf(buf, sizeof buf, "%d", s->cpu);
		td_num(x, buf);
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)s->count);
		td_num(x, buf);
		for (int k = 0; k < RV_NSERIES_STATS; k++) {
			fmt_value(&s->ns[k], QTY_NS, buf, sizeof buf);
			td_num(x, buf);
		}
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
}

static void requirement(struct xw *x, const struct report_view *v, size_t f, size_t i)
{
	const struct rv_req *r = &v->files[f].reqs[i];
	char id[32], buf[160];
	xw_start(x, "div");
	xw_attr(x, "class", "req");
	xw_attr(x, "id", anchor((unsigned)f, (unsigned)i, id, sizeof id));
	nl(x);
	xw_start(x, "h2");
	badge(x, r->verdict);
	xw_textf(x, " %s%s%s", r->id, r->title ? ": " : "", r->title ? r->title : "");
	xw_full_end(x);
	nl(x);
	if (v->nfiles > 1) {
		xw_start(x, "p");
		xw_attr(x, "class", "note");
		xw_textf(x, "from %s (%s)", v->files[f].name, v->files[f].path);
		xw_full_end(x);
		nl(x);
	}
	facts(x, r);
	limits_table(x, r);
	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct rv_metric *m = &r->metrics[k];
		if (m->kind == METRIC_COUNT)
			continue; /* in counts_table */
		snprintf(buf, sizeof buf, "Metric %s", m->name);
		xw_elem(x, "h3", buf);
		nl(x);
		xw_start(x, "div");
		xw_attr(x, "class", "metric");
		xw_start(x, "figure");
		histogram(x, r, m);
		xw_start(x, "figcaption");
		xw_textf(x, "%llu samples of %s %s. Log-log histogram: bars are the histogram's "
			    "buckets (at most 0.8 %% wide) joined per pixel; red bars may hold "
			    "samples beyond a limit's bound; dashed lines are the limits on this "
			    "metric (green: met, red: not met).",
			 (unsigned long long)m->count, r->id, m->name);
		xw_full_end(x);
		xw_full_end(x); /* figure */
		stats_table(x, m);
		xw_full_end(x); /* div.metric */
		nl(x);
		if (k == 0)
			series_table(x, r);
	}
	counts_table(x, r);
	runs_table(x, r);
	xw_full_end(x); /* div.req */
	nl(x);
}

/* ---- environment and reproduction -------------------------------------- */

static void environment(struct xw *x, const struct report_view *v)
{
	xw_start(x, "div");
	xw_attr(x, "class", "req");
	xw_attr(x, "id", "environment");
	xw_elem(x, "h2", "Environment");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "env");
	nl(x);
	for (size_t i = 0; i < v->env.n; i++) {
		xw_start(x, "tr");
		td(x, v->env.e[i].key);
		td(x, v->env.e[i].value);
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);

	xw_elem(x, "h2", "Reproduce");
	nl(x);
	xw_elem(x, "p", "On the machine above, from the same directory, with the same files "
			"(their SHA-256 below):");
	nl(x);
	xw_start(x, "pre");
	const char *cwd = fingerprint_get(&v->env, "rtconform.cwd");
	if (cwd && cwd[0] == '/') {
		/* Quoted as the command line is, so pasting it runs nothing a
		 * directory's name holds ("$(...)", quotes, ;). */
		size_t len = strlen("cd") + shell_quote_room(cwd) + 1;
		char *cd = malloc(len);
		if (cd) {
			snprintf(cd, len, "cd");
			shell_quote_append(cd, len, cwd);
			xw_textf(x, "%s\n", cd);
		}
		free(cd);
	} else if (cwd) {
		xw_textf(x, "# the directory is not known: %s\n", cwd);
	}
	xw_text(x, env(v, "rtconform.command"));
	xw_full_end(x);
	nl(x);
	xw_elem(x, "p", "Requirements files (sha256sum -c checks them):");
	xw_start(x, "pre");
	for (size_t f = 0; f < v->nfiles; f++) {
		const struct rv_file *vf = &v->files[f];
		/* "<built-in default profile>" is no file to check: say what it
		 * is instead of giving sha256sum a line it cannot use. */
		if (vf->path[0] == '<')
			xw_textf(x, "# %s %s, SHA-256 %s: built into rtconform %s\n", vf->path,
				 vf->name, vf->sha256, env(v, "rtconform.version"));
		else
			xw_textf(x, "%s  %s\n", vf->sha256, vf->path);
	}
	xw_full_end(x);
	nl(x);
	xw_full_end(x); /* div */
	nl(x);
}

/* ---- the document ------------------------------------------------------ */

static void document(struct xw *x, const struct report_view *v)
{
	int status = report_view_exit_status(v);
	xw_raw(x, "<!DOCTYPE html>\n");
	xw_start(x, "html");
	xw_attr(x, "lang", "en");
	nl(x);
	xw_start(x, "head");
	xw_start(x, "meta");
	xw_attr(x, "charset", "utf-8");
	xw_end(x);
	xw_start(x, "meta");
	xw_attr(x, "name", "viewport");
	xw_attr(x, "content", "width=device-width, initial-scale=1");
	xw_end(x);
	xw_start(x, "title");
	xw_textf(x, "rtconform report: %s on %s", status == 0 ? "PASS" : status == 1 ? "FAIL" : "ERROR",
		 env(v, "host.name"));
	xw_full_end(x);
	xw_start(x, "style");
	xw_raw(x, "\n");
	xw_raw(x, css);
	xw_full_end(x);
	xw_full_end(x); /* head */
	nl(x);
	xw_start(x, "body");
	nl(x);
	header(x, v);
	summary(x, v);
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++)
			requirement(x, v, f, i);
	environment(x, v);
	xw_start(x, "footer");
	xw_textf(x, "rtconform %s. This report is rendered from the run's data alone; "
		    "rtconform report junit.xml --html FILE renders the same report from "
		    "junit.xml.", env(v, "rtconform.version"));
	xw_full_end(x);
	nl(x);
	xw_full_end(x); /* body */
	nl(x);
	xw_full_end(x); /* html */
	nl(x);
}

char *report_html_render(const struct report_view *v, size_t *len, char *why, size_t whylen)
{
	struct xw x = { 0 };
	char *out = NULL;
	xmlBufferPtr buf = xmlBufferCreate();
	/* Coordinates and numbers with a point, whatever the user's locale. */
	locale_t old = num_c_enter();

	if (buf && (x.w = xmlNewTextWriterMemory(buf, 0))) {
		document(&x, v);
		if (!x.failed)
			xw_check(&x, xmlTextWriterFlush(x.w));
		if (!x.failed)
			out = xmlw_buffer_copy(buf, len);
	}
	if (!out)
		snprintf(why, whylen, "%s", strerror(ENOMEM));
	if (x.w)
		xmlFreeTextWriter(x.w);
	if (buf)
		xmlBufferFree(buf);
	num_c_leave(old);
	return out;
}
