/* SPDX-License-Identifier: Apache-2.0 */
/* link.h - what a report may point at: the links of the HTML pages and the
 * attachments of a junit.xml.
 *
 * A report rendered from a results.json that came from another machine
 * must not turn what that file says into a link a browser follows (a
 * javascript: URL, a path elsewhere) or into a file a CI server archives
 * (Jenkins' JUnit Attachments plugin copies every file a testcase's output
 * names in "[[ATTACHMENT|PATH]]", from the agent that publishes it). So:
 *  - a trace is linked and attached only when it is a name a run gives
 *    its traces (report_trace_ok); anything else is shown as text;
 *  - every href to a file is made by report_href: relative, "./" first,
 *    percent-encoded;
 *  - every <system-out> of every junit.xml is written by
 *    report_junit_system_out, which breaks any attachment marker in the
 *    text and adds the writer's own attachment line.
 * docs/reports.md ("Links and attachments") has the rules.
 */
#ifndef RTC_REPORT_LINK_H
#define RTC_REPORT_LINK_H

#include <stdbool.h>

#include "reports/xmlw.h"

/* Whether a view's trace (rv_req.trace) is a trace file a run itself
 * writes, and so may be linked and attached: a name trace_name_claim
 * gives (harness/trace.h, trace_name_is_ours), which lies in the
 * directory of the run's report.html. Anything else (absolute, with a
 * directory, "..", a scheme, a control character, another name) is not:
 * the reports show it as text. The one rule every writer asks. */
bool report_trace_ok(const char *trace);

/* The href of the file at relative path `path` (relative to the page's
 * directory; may have "../" that the caller computed, never a value taken
 * from input unchecked): "./" and the path with every byte outside RFC
 * 3986's unreserved set (letters, digits, '-', '.', '_', '~') and '/'
 * percent-encoded ("%3A"), so ':', '#', '?', '%', blanks and non-ASCII
 * bytes never end or redirect the path. malloc'd; NULL for an empty or
 * absolute path, or out of memory. Every writer's href to a file is made
 * by it. */
char *report_href(const char *path);

/* A copy of text in which each "[[ATTACHMENT|" (in any case) becomes
 * "[ [ATTACHMENT|", so that no CI consumer takes a line of it for an
 * attachment. malloc'd; NULL out of memory. */
char *report_junit_defuse(const char *text);

/* The <system-out> element of a junit.xml testcase: text (may be NULL)
 * defused, then, when trace is one report_trace_ok accepts and dir (where
 * the traces lie, report_view.trace_dir) is absolute and makes with it a
 * path the plugin reads whole (valid UTF-8; no control character, no line
 * separator, no '|', no "]]"), the line "[[ATTACHMENT|<dir>/<trace>]]"
 * the JUnit Attachments plugin reads. No element when there is nothing to
 * write. */
void report_junit_system_out(struct xw *x, const char *text, const char *dir,
			     const char *trace);

#endif
