/* SPDX-License-Identifier: Apache-2.0 */
/* xmlw.c - see xmlw.h. */
#include "reports/xmlw.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/utf8.h"
#include "reports/link.h"

/* XML 1.0 section 2.2, Char. */
static bool xml_char_ok(uint32_t c)
{
	return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/* Whether the character of len bytes (0: an invalid byte) at p, code
 * point cp, stays as it is. */
static bool char_stays(size_t len, uint32_t cp, bool xml)
{
	return len && (!xml || xml_char_ok(cp));
}

/* Whether s is written as it is: valid UTF-8 and, with xml, only
 * characters XML 1.0 allows (most text is, and a long one is then not
 * copied). */
static bool clean_already(const char *s, bool xml)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	while (n) {
		uint32_t cp;
		size_t len = utf8_decode(p, n, &cp);
		if (!char_stays(len, cp, xml))
			return false;
		p += len;
		n -= len;
	}
	return true;
}

/* A copy of s with each invalid UTF-8 byte, and with xml also each
 * character XML 1.0 does not allow, replaced by U+FFFD. */
static char *clean(const char *s, bool xml)
{
	static const char repl[] = "\xef\xbf\xbd";
	if (!s)
		s = "";
	size_t n = strlen(s);
	/* Worst case: every byte becomes a 3-byte replacement. */
	char *out = malloc(n * 3 + 1);
	if (!out)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	while (n) {
		uint32_t cp;
		size_t len = utf8_decode(p, n, &cp);
		if (char_stays(len, cp, xml)) {
			memcpy(out + o, p, len);
			o += len;
		} else {
			memcpy(out + o, repl, 3);
			o += 3;
			if (!len)
				len = 1; /* resynchronise on the next byte */
		}
		p += len;
		n -= len;
	}
	out[o] = '\0';
	return out;
}

/* s as x writes it: each offending byte or character replaced by U+FFFD
 * (so the reader sees that something was there) and, in a junit.xml,
 * defused after the cleaning, which can make no marker (it only
 * replaces). NULL s gives "". *own is what the caller frees (NULL when s
 * is written as it is); NULL (and x failed) when out of memory. */
static const char *prepare(struct xw *x, const char *s, char **own)
{
	*own = NULL;
	if (!s)
		return "";
	const char *v = s;
	if (!clean_already(s, true) && !(v = *own = clean(s, true))) {
		x->failed = true;
		return NULL;
	}
	if (x->junit && report_junit_has_mark(v)) {
		char *d = report_junit_defuse(v);
		free(*own);
		if (!(v = *own = d))
			x->failed = true;
	}
	return v;
}

void xw_check(struct xw *x, int rc)
{
	if (rc < 0)
		x->failed = true;
}

void xw_start(struct xw *x, const char *name)
{
	if (!x->failed)
		xw_check(x, xmlTextWriterStartElement(x->w, BAD_CAST name));
}

void xw_end(struct xw *x)
{
	if (!x->failed)
		xw_check(x, xmlTextWriterEndElement(x->w));
}

void xw_full_end(struct xw *x)
{
	if (!x->failed)
		xw_check(x, xmlTextWriterFullEndElement(x->w));
}

/* v (prepared) written as text or as the value of the attribute being
 * written, in pieces of at most XW_PIECE bytes cut between characters:
 * libxml2 escapes what it is given whole in memory (a "<" becomes 4
 * bytes, a '"' in HTML 6), so a long value escaped at once took several
 * times its size (a 30 MB host.os of "<" took 226 MB to write). */
#define XW_PIECE 65536

static void write_pieces(struct xw *x, const char *v)
{
	size_t n = strlen(v);
	if (n <= XW_PIECE) {
		xw_check(x, xmlTextWriterWriteString(x->w, BAD_CAST v));
		return;
	}
	char piece[XW_PIECE + 1];
	while (n && !x->failed) {
		size_t k = utf8_fit(v, XW_PIECE); /* never inside a character */
		memcpy(piece, v, k);
		piece[k] = '\0';
		xw_check(x, xmlTextWriterWriteString(x->w, BAD_CAST piece));
		v += k;
		n -= k;
	}
}

void xw_attr(struct xw *x, const char *name, const char *value)
{
	if (x->failed)
		return;
	char *own;
	const char *v = prepare(x, value, &own);
	if (!v)
		return;
	size_t n = strlen(v);
	if (n <= XW_PIECE) {
		xw_check(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST v));
	} else {
		/* libxml2 holds an attribute's whole escaped value until it ends
		 * (pieces do not help there), and no attribute rtconform writes
		 * needs more than a piece: a longer one (a 30 MB value from a
		 * hostile results.json) is cut, saying so; text keeps it whole. */
		char head[XW_PIECE + 1], note[96];
		size_t k = utf8_fit(v, XW_PIECE);
		memcpy(head, v, k);
		head[k] = '\0';
		snprintf(note, sizeof note, " [cut: %zu bytes in all]", n);
		xw_check(x, xmlTextWriterStartAttribute(x->w, BAD_CAST name));
		if (!x->failed)
			xw_check(x, xmlTextWriterWriteString(x->w, BAD_CAST head));
		if (!x->failed)
			xw_check(x, xmlTextWriterWriteString(x->w, BAD_CAST note));
		if (!x->failed)
			xw_check(x, xmlTextWriterEndAttribute(x->w));
	}
	free(own);
}

void xw_attrf(struct xw *x, const char *name, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	xw_attr(x, name, buf);
}

void xw_text(struct xw *x, const char *s)
{
	if (x->failed || !s || !*s)
		return;
	char *own;
	const char *v = prepare(x, s, &own);
	if (!v)
		return;
	write_pieces(x, v);
	free(own);
}

void xw_textf(struct xw *x, const char *fmt, ...)
{
	if (x->failed)
		return;
	char *s;
	va_list ap;
	va_start(ap, fmt);
	int rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		x->failed = true;
		return;
	}
	xw_text(x, s);
	free(s);
}

void xw_text_attachment(struct xw *x, const char *s)
{
	bool junit = x->junit;
	x->junit = false;
	xw_text(x, s);
	x->junit = junit;
}

void xw_raw(struct xw *x, const char *s)
{
	if (!x->failed && s && *s)
		xw_check(x, xmlTextWriterWriteRaw(x->w, BAD_CAST s));
}

void xw_elem(struct xw *x, const char *name, const char *text)
{
	xw_start(x, name);
	xw_text(x, text);
	xw_full_end(x);
}

char *xmlw_clean_utf8(const char *s)
{
	return clean(s, false);
}

/* libxml2's errors while a report is written (an I/O error on a full
 * disk, for one) go to the caller's message, not to stderr as libxml2's
 * default handler would print them beside rtconform's own. */
static void keep_lib_error(void *ctx, xmlErrorPtr e)
{
	struct xw *x = ctx;
	if (x->lib_error[0] || !e || !e->message)
		return;
	snprintf(x->lib_error, sizeof x->lib_error, "%s", e->message);
	size_t n = strlen(x->lib_error);
	while (n > 0 && (x->lib_error[n - 1] == '\n' || x->lib_error[n - 1] == ' '))
		x->lib_error[--n] = 0;
}

static void quiet_enter(struct xw *x)
{
	xmlSetStructuredErrorFunc(x, keep_lib_error);
}

static void quiet_leave(void)
{
	xmlSetStructuredErrorFunc(NULL, NULL);
}

/* doc(x, arg) through writer w (freed here, and with it what it writes
 * to): false when it failed. */
static bool write_doc(struct xw *x, xmlTextWriterPtr w, void (*doc)(struct xw *x, const void *arg),
		      const void *arg, bool indent)
{
	x->w = w;
	if (indent) {
		xmlTextWriterSetIndent(x->w, 1);
		xmlTextWriterSetIndentString(x->w, BAD_CAST "  ");
	}
	doc(x, arg);
	if (!x->failed)
		xw_check(x, xmlTextWriterFlush(x->w));
	xmlFreeTextWriter(x->w);
	x->w = NULL;
	return !x->failed;
}

static char *render(void (*doc)(struct xw *x, const void *arg), const void *arg, bool indent,
		     bool junit, size_t *len, char *why, size_t whylen)
{
	struct xw x = { .junit = junit };
	char *out = NULL;
	xmlBufferPtr buf = xmlBufferCreate();
	locale_t old = numfmt_c_enter();
	quiet_enter(&x);
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	/* The text is taken from the buffer, not copied: a large report is
	 * not held twice (xmlMalloc is malloc: the caller frees it). */
	if (w && write_doc(&x, w, doc, arg, indent)) {
		size_t n = (size_t)xmlBufferLength(buf);
		if ((out = (char *)xmlBufferDetach(buf)))
			*len = n;
	}
	quiet_leave();
	if (!out && why)
		snprintf(why, whylen, "%s", x.lib_error[0] ? x.lib_error : strerror(ENOMEM));
	if (buf)
		xmlBufferFree(buf);
	numfmt_c_leave(old);
	return out;
}

static int put(void (*doc)(struct xw *x, const void *arg), const void *arg, bool indent,
	       bool junit, FILE *f, char *why, size_t whylen)
{
	struct xw x = { .junit = junit };
	locale_t old = numfmt_c_enter();
	quiet_enter(&x);
	/* Closing the output buffer (with the writer) flushes f, never closes it. */
	xmlOutputBufferPtr out = xmlOutputBufferCreateFile(f, NULL);
	xmlTextWriterPtr w = out ? xmlNewTextWriter(out) : NULL;
	if (out && !w)
		xmlOutputBufferClose(out);
	errno = 0;
	bool ok = w && write_doc(&x, w, doc, arg, indent) && !ferror(f);
	int e = errno;
	quiet_leave();
	numfmt_c_leave(old);
	if (!ok)
		snprintf(why, whylen, "%s",
			 ferror(f) && e ? strerror(e) : x.lib_error[0] ? x.lib_error : strerror(ENOMEM));
	return ok ? 0 : -1;
}

int xw_put(void (*doc)(struct xw *x, const void *arg), const void *arg, bool indent, FILE *f,
	   char *why, size_t whylen)
{
	return put(doc, arg, indent, false, f, why, whylen);
}

int xw_put_junit(void (*doc)(struct xw *x, const void *arg), const void *arg, FILE *f,
		 char *why, size_t whylen)
{
	return put(doc, arg, true, true, f, why, whylen);
}

char *xw_render(void (*doc)(struct xw *x, const void *arg), const void *arg, bool indent,
		size_t *len, char *why, size_t whylen)
{
	return render(doc, arg, indent, false, len, why, whylen);
}

char *xw_render_junit(void (*doc)(struct xw *x, const void *arg), const void *arg, size_t *len,
		      char *why, size_t whylen)
{
	return render(doc, arg, true, true, len, why, whylen);
}
