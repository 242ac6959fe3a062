/* SPDX-License-Identifier: Apache-2.0 */
/* svg.h - the inline SVG of rtconform's HTML pages (svg.c): report.html's
 * histograms (html_plot.c) and compare.html's overlays (across/) are drawn
 * with these alone, so their pictures look alike. Coordinates are SVG user
 * units; classes are those of the pages' one style sheet (page.h).
 */
#ifndef RTC_SVG_H
#define RTC_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/xmlw.h"

/* <svg> of w by h units opened (viewBox, width, height, role="img"), with
 * class cls and aria-label label unless NULL. svg_close closes it. */
void svg_open(struct xw *x, int w, int h, const char *cls, const char *label);
void svg_close(struct xw *x);

/* text at (px, py), anchored at anchor ("start", "middle", "end") and of
 * class cls unless NULL. Written as given: a time in it is formatted for
 * the page already (html_micro, html_plot.h). */
void svg_text(struct xw *x, double px, double py, const char *anchor, const char *cls,
	      const char *text);

/* A line from (x1, y1) to (x2, y2) of class cls. */
void svg_line(struct xw *x, double x1, double y1, double x2, double y2, const char *cls);

/* A rectangle of class cls, with title (its tooltip) unless NULL. */
void svg_rect(struct xw *x, double px, double py, double w, double h, const char *cls,
	      const char *title);

/* A circle of class cls at (cx, cy), radius r, with title unless NULL. */
void svg_circle(struct xw *x, double cx, double cy, double r, const char *cls, const char *title);

/* A line through n points (px[i], py[i]) of class cls; nothing for n < 2. */
void svg_polyline(struct xw *x, const double *px, const double *py, size_t n, const char *cls);

/* A logarithmic value axis of times: from x0 (10^l0 ns) to x1 (10^l1 ns),
 * its ticks hanging from the line at y; vertical: x0 and x1 are heights
 * (x0 the bottom), y the line's x, ticks and labels to its left. */
struct svg_log_axis {
	double x0, x1, y;
	double l0, l1;     /* log10 of the ends, ns */
	bool minor;        /* ticks at 2 and 5 times each decade too */
	bool minor_labels; /* ... labelled as the decades are */
	bool vertical;
};

/* Where ns falls on axis a. */
double svg_log_x(const struct svg_log_axis *a, double ns);

/* The ticks of axis a within its ends, each decade's labelled (units_fmt_ns, with
 * the micro sign): at most SVG_MAX_TICKS decades (a wider axis is ticked
 * every few decades), whatever the ends. Draws nothing and returns false
 * unless l0 < l1 are finite and within +-SVG_MAX_LOG: the caller says why
 * there is no axis. The axis line itself is the caller's (svg_line,
 * "axis"). */
#define SVG_MAX_TICKS 40
#define SVG_MAX_LOG 330
bool svg_log_ticks(struct xw *x, const struct svg_log_axis *a);

#endif
