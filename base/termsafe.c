/* SPDX-License-Identifier: Apache-2.0 */
/* termsafe.c - see termsafe.h. */
#include "base/termsafe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when s does not start
 * one (overlong forms, surrogates and values past U+10FFFF are not valid). */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t c;
	size_t n;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/* The escape for the character at s into esc (at most 7 bytes and a NUL),
 * or "" when it is shown as it is; *step is its length in bytes. */
static void escape_of(const unsigned char *s, char esc[8], size_t *step)
{
	size_t n = utf8_len(s);
	esc[0] = 0;
	*step = n ? n : 1;
	if (n == 0 || s[0] < 0x20 || s[0] == 0x7f)
		snprintf(esc, 8, "\\x%02x", s[0]);
	else if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) /* C1: U+0080..U+009F */
		snprintf(esc, 8, "\\u%04x", (unsigned)(s[1] & 0x3f) | 0x80);
}

bool term_is_safe(const char *s)
{
	char esc[8];
	size_t step;
	for (const unsigned char *p = (const unsigned char *)s; *p; p += step) {
		escape_of(p, esc, &step);
		if (esc[0])
			return false;
	}
	return true;
}

char *term_escape(const char *s, char *buf, size_t len)
{
	size_t used = 0;
	char esc[8];
	size_t step;
	if (!len)
		return buf;
	for (const unsigned char *p = (const unsigned char *)s; *p; p += step) {
		escape_of(p, esc, &step);
		const char *out = esc[0] ? esc : (const char *)p;
		size_t n = esc[0] ? strlen(esc) : step;
		if (used + n >= len)
			break;
		memcpy(buf + used, out, n);
		used += n;
	}
	buf[used] = 0;
	return buf;
}

char *term_escape_dup(const char *s)
{
	size_t len = strlen(s) * 6 + 1; /* \u0080 is 6 bytes for 2 */
	char *buf = malloc(len);
	return buf ? term_escape(s, buf, len) : NULL;
}

static int vprint(FILE *out, bool newline, const char *fmt, va_list ap)
{
	char *raw = NULL;
	if (vasprintf(&raw, fmt, ap) < 0)
		return EOF;
	char *safe = term_escape_dup(raw);
	free(raw);
	if (!safe)
		return EOF;
	int rc = fputs(safe, out);
	free(safe);
	return rc == EOF || !newline ? rc : putc('\n', out);
}

int term_vprintln(FILE *out, const char *fmt, va_list ap)
{
	return vprint(out, true, fmt, ap);
}

int term_print(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vprint(out, false, fmt, ap);
	va_end(ap);
	return rc;
}

int term_println(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = term_vprintln(out, fmt, ap);
	va_end(ap);
	return rc;
}
