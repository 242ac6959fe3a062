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
 *    its traces (report_trace_ok) and a regular file of that name, not a
 *    symlink, lies in the directory the traces lie in
 *    (report_view_find_traces); anything else is shown as text, saying
 *    why (report_trace_why_not);
 *  - every href to a file is made by report_href: relative, "./" first,
 *    percent-encoded;
 *  - every text and attribute value of every junit.xml is defused as the
 *    XML writer writes it (xw_render_junit, reports/xmlw.h: any
 *    attachment marker in it broken), and every <system-out> is written
 *    by report_junit_system_out, which alone adds an attachment line.
 * docs/reports.md ("Links and attachments") has the rules.
 */
#ifndef RTC_REPORT_LINK_H
#define RTC_REPORT_LINK_H

#include <stdbool.h>

#include "reports/report.h"
#include "reports/xmlw.h"

/* Whether a view's trace (rv_req.trace) is a trace file a run itself
 * writes, and so may be linked and attached: a name trace_name_claim
 * gives (harness/trace.h, trace_name_is_ours), which lies in the
 * directory of the run's report.html. Anything else (absolute, with a
 * directory, "..", a scheme, a control character, another name) is not:
 * the reports show it as text. The one rule every writer asks. */
bool report_trace_ok(const char *trace);

/* Look for each trace of v in dir (the directory the traces lie in; may
 * be relative; NULL: none to look in) and set its trace_link: linked only
 * when report_trace_ok takes its name and lstat finds a regular file
 * there (a symlink is not: it could name any file on the machine, which
 * the JUnit Attachments plugin would copy). Sets v->trace_dir to dir's
 * absolute path (NULL when it has none: nothing is then attached). The
 * one place the reports look at the file system; the writers render
 * the flags. Returns 0 or -ENOMEM. */
int report_view_find_traces(struct report_view *v, const char *dir);

/* Why the reports neither link nor attach r's trace: a phrase to go in
 * "(not linked: ...)"; NULL when there is no trace, when it is linked, or
 * when it was not looked for and its name is ours (a run's own output
 * while it measures). */
const char *report_trace_why_not(const struct rv_req *r);

/* The href of the file at relative path `path` (relative to the page's
 * directory; may have "../" that the caller computed, never a value taken
 * from input unchecked): "./" and the path with every byte outside RFC
 * 3986's unreserved set (letters, digits, '-', '.', '_', '~') and '/'
 * percent-encoded ("%3A"), so ':', '#', '?', '%', blanks and non-ASCII
 * bytes never end or redirect the path. malloc'd; NULL for an empty or
 * absolute path, or out of memory. Every writer's href to a file is made
 * by it. */
char *report_href(const char *path);

/* The file `name` beside the file source, as a path relative to the
 * directory dir (canonical), when it can be read: what a page of dir links
 * (fleet.html a host's report.html). malloc'd; NULL when there is none,
 * and *failed set out of memory. */
char *report_beside_link(const char *dir, const char *source, const char *name, bool *failed);

/* The one link of a page to a file: <a> with report_href(path), showing
 * text; only the text when path is NULL (nothing to link). Out of memory
 * fails x, never a quiet gap. */
void report_file_link(struct xw *x, const char *path, const char *text);

/* A copy of text in which each "[[ATTACHMENT|" (in any case) becomes
 * "[ [ATTACHMENT|", so that no CI consumer takes a line of it for an
 * attachment. malloc'd; NULL out of memory. */
char *report_junit_defuse(const char *text);
/* Whether text holds the marker report_junit_defuse defuses (a text
 * without it is written as it is, not copied). */
bool report_junit_has_mark(const char *text);

/* The <system-out> element of a junit.xml testcase (of a writer
 * xw_render_junit made; any other fails x): text (may be NULL), defused
 * as every text is, then, when trace (NULL unless its trace_link is
 * RV_TRACE_LINKED) is one report_trace_ok accepts and dir (where
 * the traces lie, report_view.trace_dir) is absolute and makes with it a
 * path the plugin reads whole (valid UTF-8; no control character, no line
 * separator, no '|', no "]]"), the line "[[ATTACHMENT|<dir>/<trace>]]"
 * the JUnit Attachments plugin reads. No element when there is nothing to
 * write. */
void report_junit_system_out(struct xw *x, const char *text, const char *dir,
			     const char *trace);

/* The directory of the first trace the text of a junit.xml attaches (the
 * line report_junit_system_out writes: "[[ATTACHMENT|/abs/dir/trace-ID.txt]]"),
 * malloc'd; NULL when it attaches none (or out of memory). */
char *report_junit_attached_dir(const char *junit);

#endif
