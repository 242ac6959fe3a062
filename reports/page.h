/* SPDX-License-Identifier: Apache-2.0 */
/* page.h - the look every HTML page of rtconform shares: report.html
 * (html.c), compare.html and fleet.html (across/). One style sheet, so a
 * fleet or comparison page looks like the report it links to; times are
 * written one way on every page, with the micro sign (html_micro in
 * reports/html_plot.h).
 */
#ifndef RTC_PAGE_H
#define RTC_PAGE_H

#include "reports/xmlw.h"


/* The document's head with title and the style sheet, and <body> opened. */
void page_begin(struct xw *x, const char *title);

#endif
