/* SPDX-License-Identifier: Apache-2.0 */
/* page.h - the look every HTML page of rtconform shares: report.html
 * (html.c), compare.html and fleet.html (across/), selftest's
 * validation.html (selftest/). One frame and one style sheet, so a
 * fleet or comparison page looks like the report it links to; times are
 * written one way on every page, with the micro sign (html_micro in
 * reports/html_plot.h).
 */
#ifndef RTC_PAGE_H
#define RTC_PAGE_H

#include "reports/xmlw.h"


/* The frame of every page: the document's head with title and the style
 * sheet, <body> opened and the page's heading (<h1>); at its end the
 * footer, "rtconform VERSION (commit COMMIT)" and `more` (NULL: nothing)
 * after it, and <body> and <html> closed. */
void page_begin(struct xw *x, const char *title, const char *heading);
void page_end(struct xw *x, const char *version, const char *commit, const char *more);

#endif
