/* SPDX-License-Identifier: Apache-2.0 */
/* html_why.c - report.html's "why" block of a requirement whose traced
 * breach was explained (rv_req.explain, harness/explain.h): its headline,
 * the largest parts as one stacked horizontal bar and every component in a
 * table, with the sum check and lost events (docs/explain.md). */
#include "reports/html_plot.h"

#include <inttypes.h>
#include <stdio.h>

#include "harness/explain.h"
#include "reports/ival.h"
#include "reports/svg.h"

/* The parts the bar shows on their own; the rest are one grey segment. */
#define WHY_BAR_PARTS 5
#define WHY_BAR_W 640
#define WHY_BAR_H 22

/* Whole percent of the window, rounded, as the headline gives it. */
static unsigned pct(const struct explain *e, uint64_t ns)
{
	uint64_t w = e->end_ns - e->start_ns;
	return w ? (unsigned)((ns * 100 + w / 2) / w) : 0;
}

/* The class of a component's colour: by kind, a task's by its class. */
static void seg_class(const struct explain_component *c, char *buf, size_t len)
{
	if (c->kind == EXPLAIN_TASK)
		snprintf(buf, len, "why-task-%s", explain_class_name(c->cls));
	else
		snprintf(buf, len, "why-%s", explain_kind_name(c->kind));
}

static void why_bar(struct xw *x, const struct explain *e)
{
	uint64_t w = e->end_ns - e->start_ns, rest = 0;
	char label[300], cls[48], t[64];
	if (!w || !e->ncomp)
		return;
	svg_open(x, WHY_BAR_W, WHY_BAR_H, "why", "where the breaching sample's time went");
	double at = 0;
	for (size_t i = 0; i < e->ncomp; i++) {
		const struct explain_component *c = &e->comp[i];
		if (i >= WHY_BAR_PARTS) {
			rest += c->ns;
			continue;
		}
		double width = (double)WHY_BAR_W * (double)c->ns / (double)w;
		char l[200];
		explain_label(e, c, l, sizeof l);
		html_fmt_ns((double)c->ns, t, sizeof t);
		snprintf(label, sizeof label, "%u%% %s (%s)", pct(e, c->ns), l, t);
		seg_class(c, cls, sizeof cls);
		svg_rect(x, at, 0, width, WHY_BAR_H, cls, label);
		at += width;
	}
	if (rest) {
		html_fmt_ns((double)rest, t, sizeof t);
		snprintf(label, sizeof label, "%u%% %zu smaller parts (%s)", pct(e, rest),
			 e->ncomp - WHY_BAR_PARTS, t);
		svg_rect(x, at, 0, (double)WHY_BAR_W - at, WHY_BAR_H, "why-rest", label);
	}
	svg_close(x);
}

static void why_table(struct xw *x, const struct explain *e)
{
	char t[64], s[32], n[32], l[200], cls[48];
	xw_start(x, "table");
	xw_attr(x, "class", "why");
	xw_start(x, "tr");
	static const char *const head[] = { "", "Time", "Share", "Count", "Component" };
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		xw_elem(x, "th", head[i]);
	xw_full_end(x);
	for (size_t i = 0; i < e->ncomp; i++) {
		const struct explain_component *c = &e->comp[i];
		xw_start(x, "tr");
		seg_class(c, cls, sizeof cls);
		xw_start(x, "td");
		xw_start(x, "span");
		xw_attrf(x, "class", "why-key %s", cls);
		xw_full_end(x);
		xw_full_end(x);
		html_fmt_ns((double)c->ns, t, sizeof t);
		snprintf(s, sizeof s, "%u %%", pct(e, c->ns));
		snprintf(n, sizeof n, "%u", c->count);
		explain_label(e, c, l, sizeof l);
		html_cell(x, "num", t);
		html_cell(x, "num", s);
		html_cell(x, "num", n);
		html_cell(x, NULL, l);
		xw_full_end(x);
	}
	xw_full_end(x);
}

/* The sum check, lost events and where the method is written. */
static void why_note(struct xw *x, const struct explain *e)
{
	char v[64], sum[64];
	html_fmt_ns((double)(e->end_ns - e->start_ns), v, sizeof v);
	html_fmt_ns((double)e->sum_ns, sum, sizeof sum);
	xw_start(x, "p");
	xw_attr(x, "class", "note");
	char buf[600];
	int n = snprintf(buf, sizeof buf, "The components (%s) %s the window (%s, tolerance %d ns)"
			 " on CPU %d, from the kernel's own events in the saved trace.", sum,
			 e->adds_up ? "add up to" : "DO NOT add up to", v, EXPLAIN_TOLERANCE_NS,
			 e->probe_cpu);
	if (e->lost_window && n >= 0 && (size_t)n < sizeof buf)
		snprintf(buf + n, sizeof buf - (size_t)n, " INCOMPLETE: %s%" PRIu64 " events were "
			 "lost on the probe's CPU in the window.", e->lost_unknown ? "at least " : "",
			 e->lost_window);
	html_text_micro(x, buf);
	char st[200];
	explain_steal_text(e, st, sizeof st);
	if (*st) {
		xw_text(x, " ");
		html_text_micro(x, st);
		xw_text(x, " (steal is counted over the whole span, not the window: "
			   "docs/explain.md).");
	}
	xw_text(x, " Time no event covers is \"unexplained\" (irqs-off sections, the "
		   "hypervisor, SMIs): docs/explain.md says what a trace cannot see.");
	xw_full_end(x);
}

void html_why(struct xw *x, const struct rv_req *r)
{
	const struct explain *e = r->explain;
	char h[1100];
	if (!e)
		return;
	xw_start(x, "div");
	xw_attr(x, "class", "why");
	xw_elem(x, "h3", "Why: where the breaching sample's time went");
	xw_start(x, "p");
	explain_headline(e, h, sizeof h);
	html_text_micro(x, h);
	xw_full_end(x);
	if (rv_trace_sample(r->trace_note, h, sizeof h)) {
		xw_start(x, "p");
		xw_text(x, "The sample explained: ");
		html_text_micro(x, h);
		xw_full_end(x);
	}
	why_bar(x, e);
	why_table(x, e);
	why_note(x, e);
	xw_full_end(x);
	xw_text(x, "\n");
}
