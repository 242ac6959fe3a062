/* SPDX-License-Identifier: Apache-2.0 */
/* xmlw.h - what the report writers share for XML and HTML output: text
 * cleaned to what XML 1.0 allows (or to valid UTF-8), and an xmlTextWriter wrapper whose first
 * failure sticks, so a document's shape is not buried under error checks.
 * Internal to reports/.
 */
#ifndef RTC_XMLW_H
#define RTC_XMLW_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include <libxml/xmlwriter.h>

/* A copy of s holding only valid UTF-8, each offending byte replaced by
 * U+FFFD so the reader sees that something was there; control characters
 * stay (the report view's strings; the XML writers also replace what XML
 * 1.0 does not allow as they write). NULL s gives "". Caller frees; NULL
 * on out of memory. */
char *xmlw_clean_utf8(const char *s);

/* A writer with a sticky error: after the first failed libxml2 call
 * (out of memory), every later call does nothing and `failed` stays set.
 * junit: the document is a junit.xml (xw_render_junit), whose readers
 * (Jenkins' JUnit Attachments plugin, GitLab) archive the file any
 * "[[ATTACHMENT|PATH]]" names: every text and attribute value is defused
 * (report_junit_defuse, reports/link.h) as it is written, whatever element
 * it is in, so no text of an input becomes an attachment. */
struct xw {
	xmlTextWriterPtr w;
	bool failed;
	bool junit;
	char lib_error[160]; /* libxml2's first complaint while writing, kept
			      * for the caller's message, never printed */
};

void xw_check(struct xw *x, int rc);
void xw_start(struct xw *x, const char *name);
/* Close the element; "<x/>" when it has no content. */
void xw_end(struct xw *x);
/* Close the element with an end tag even when empty: HTML reads "<div/>"
 * as an open tag. */
void xw_full_end(struct xw *x);
/* Attribute / text, holding only valid UTF-8 and characters XML 1.0
 * allows (others replaced by U+FFFD), and in a junit.xml defused (see
 * struct xw); the writer escapes. */
void xw_attr(struct xw *x, const char *name, const char *value);
void xw_attrf(struct xw *x, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void xw_text(struct xw *x, const char *s);
void xw_textf(struct xw *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text written without defusing, in a junit.xml too: only for the
 * attachment line report_junit_system_out builds from a checked path. */
void xw_text_attachment(struct xw *x, const char *s);
/* Bytes written as they are: only for constant markup and CSS. */
void xw_raw(struct xw *x, const char *s);
/* <name attrs...>text</name> in one call; text may be NULL (empty). */
void xw_elem(struct xw *x, const char *name, const char *text);

/* Write one document with doc(x, arg) into memory and return a malloc'd,
 * NUL-terminated copy (*len bytes); NULL after saying why in `why` (out
 * of memory). Numbers are written in the C locale whatever the user's
 * (a point, never a decimal comma); `indent`: two spaces a level. Every
 * XML and HTML report is made this way. */
char *xw_render(void (*doc)(struct xw *x, const void *arg), const void *arg, bool indent,
		size_t *len, char *why, size_t whylen);
/* xw_render of a junit.xml (indented; x->junit set): every junit.xml
 * rtconform writes (run, report, merge, compare) is made this way. */
char *xw_render_junit(void (*doc)(struct xw *x, const void *arg), const void *arg, size_t *len,
		      char *why, size_t whylen);
/* The same documents written straight onto f (a report's temporary file,
 * report_write): a large report is never held in memory whole. 0, or -1
 * with why. */
int xw_put(void (*doc)(struct xw *x, const void *arg), const void *arg, bool indent, FILE *f,
	   char *why, size_t whylen);
int xw_put_junit(void (*doc)(struct xw *x, const void *arg), const void *arg, FILE *f,
		 char *why, size_t whylen);

#endif
