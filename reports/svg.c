/* SPDX-License-Identifier: Apache-2.0 */
/* svg.c - the SVG elements every picture of rtconform's HTML pages is
 * made of; see svg.h. */
#include "reports/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/units.h"
#include "reports/html_plot.h"

void svg_open(struct xw *x, int w, int h, const char *cls, const char *label)
{
	xw_start(x, "svg");
	if (cls)
		xw_attr(x, "class", cls);
	xw_attrf(x, "viewBox", "0 0 %d %d", w, h);
	xw_attrf(x, "width", "%d", w);
	xw_attrf(x, "height", "%d", h);
	xw_attr(x, "role", "img");
	if (label)
		xw_attr(x, "aria-label", label);
}

void svg_close(struct xw *x)
{
	xw_full_end(x);
}

void svg_text(struct xw *x, double px, double py, const char *anchor, const char *cls,
	      const char *text)
{
	xw_start(x, "text");
	xw_attrf(x, "x", "%.1f", px);
	xw_attrf(x, "y", "%.1f", py);
	if (anchor)
		xw_attr(x, "text-anchor", anchor);
	if (cls)
		xw_attr(x, "class", cls);
	xw_text(x, text);
	xw_full_end(x);
}

void svg_line(struct xw *x, double x1, double y1, double x2, double y2, const char *cls)
{
	xw_start(x, "line");
	xw_attrf(x, "x1", "%.1f", x1);
	xw_attrf(x, "y1", "%.1f", y1);
	xw_attrf(x, "x2", "%.1f", x2);
	xw_attrf(x, "y2", "%.1f", y2);
	xw_attr(x, "class", cls);
	xw_end(x);
}

/* A shape's class and, when given, its tooltip, then its end. */
static void shape_end(struct xw *x, const char *cls, const char *title)
{
	xw_attr(x, "class", cls);
	if (title) {
		xw_elem(x, "title", title);
		xw_full_end(x);
	} else {
		xw_end(x);
	}
}

void svg_rect(struct xw *x, double px, double py, double w, double h, const char *cls,
	      const char *title)
{
	xw_start(x, "rect");
	xw_attrf(x, "x", "%.2f", px);
	xw_attrf(x, "y", "%.2f", py);
	xw_attrf(x, "width", "%.2f", w);
	xw_attrf(x, "height", "%.2f", h);
	shape_end(x, cls, title);
}

void svg_circle(struct xw *x, double cx, double cy, double r, const char *cls, const char *title)
{
	xw_start(x, "circle");
	xw_attrf(x, "cx", "%.1f", cx);
	xw_attrf(x, "cy", "%.1f", cy);
	xw_attrf(x, "r", "%.1f", r);
	shape_end(x, cls, title);
}

void svg_polyline(struct xw *x, const double *px, const double *py, size_t n, const char *cls)
{
	if (n < 2)
		return;
	char *pts = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&pts, &len);
	if (!f) {
		x->failed = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", px[i], py[i]);
	bool good = !ferror(f);
	if (fclose(f) != 0 || !good) {
		free(pts);
		x->failed = true;
		return;
	}
	xw_start(x, "polyline");
	xw_attr(x, "points", pts);
	xw_attr(x, "class", cls);
	xw_end(x);
	free(pts);
}

double svg_log_x(const struct svg_log_axis *a, double ns)
{
	return a->x0 + (log10(ns) - a->l0) / (a->l1 - a->l0) * (a->x1 - a->x0);
}

bool svg_log_ticks(struct xw *x, const struct svg_log_axis *a)
{
	/* The reader keeps what an axis spans within 1e-40..1e40 ns (read.h);
	 * whatever slips past, the loop is bounded by a constant: ends outside
	 * +-SVG_MAX_LOG are no axis, and a wide one is ticked every few
	 * decades, at most SVG_MAX_TICKS of them. */
	if (!isfinite(a->l0) || !isfinite(a->l1) || !(a->l0 < a->l1) ||
	    fabs(a->l0) > SVG_MAX_LOG || fabs(a->l1) > SVG_MAX_LOG)
		return false;
	double lo = pow(10, a->l0), hi = pow(10, a->l1);
	char buf[48];
	int k0 = (int)floor(a->l0), k1 = (int)ceil(a->l1);
	int step = (k1 - k0) / SVG_MAX_TICKS + 1;
	for (int k = k0; k <= k1; k += step) {
		static const int mult[] = { 1, 2, 5 };
		for (int j = 0; j < (a->minor ? 3 : 1); j++) {
			if (j && step > 1)
				break; /* decades alone on a wide axis */
			double v = mult[j] * pow(10, k);
			if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9))
				continue;
			double px = svg_log_x(a, v);
			if (a->vertical)
				svg_line(x, a->y - (j ? 3 : 5), px, a->y, px, "axis");
			else
				svg_line(x, px, a->y, px, a->y + (j ? 3 : 5), "axis");
			if (j == 0 || a->minor_labels) {
				units_fmt_ns(v, buf, sizeof buf);
				html_micro(buf, sizeof buf);
				if (a->vertical)
					svg_text(x, a->y - 7, px + 4, "end", NULL, buf);
				else
					svg_text(x, px, a->y + 16, "middle", NULL, buf);
			}
		}
	}
	return true;
}
