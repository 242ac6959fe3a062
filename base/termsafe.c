/* SPDX-License-Identifier: Apache-2.0 */
/* termsafe.c - see termsafe.h. */
#include "base/termsafe.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

/* The escape for the character at s into esc (at most 7 bytes and a NUL),
 * or "" when it is shown as it is; *step is its length in bytes. */
static void escape_of(const unsigned char *s, char esc[8], size_t *step)
{
	size_t n = utf8_decode(s, strnlen((const char *)s, 4), NULL);
	esc[0] = 0;
	*step = n ? n : 1;
	if (n == 0 || s[0] < 0x20 || s[0] == 0x7f)
		snprintf(esc, 8, "\\x%02x", s[0]);
	else if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) /* C1: U+0080..U+009F */
		snprintf(esc, 8, "\\u%04x", (unsigned)(s[1] & 0x3f) | 0x80);
	else if (n == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))
		snprintf(esc, 8, "\\u%04x", 0x2000u | (s[2] & 0x3f)); /* U+2028, U+2029 */
}

bool termsafe_is_safe(const char *s)
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

char *termsafe_escape(const char *s, char *buf, size_t len)
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

char *termsafe_escape_dup(const char *s)
{
	size_t len = strlen(s) * 6 + 1; /* \u0080 is 6 bytes for 2 */
	char *buf = malloc(len);
	return buf ? termsafe_escape(s, buf, len) : NULL;
}

static int vprint(FILE *out, bool newline, const char *fmt, va_list ap)
{
	char *raw = NULL;
	if (vasprintf(&raw, fmt, ap) < 0)
		return EOF;
	char *safe = termsafe_escape_dup(raw);
	free(raw);
	if (!safe)
		return EOF;
	int rc = fputs(safe, out);
	free(safe);
	return rc == EOF || !newline ? rc : putc('\n', out);
}

static int termsafe_vprintln(FILE *out, const char *fmt, va_list ap)
{
	return vprint(out, true, fmt, ap);
}

int termsafe_print(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vprint(out, false, fmt, ap);
	va_end(ap);
	return rc;
}

int termsafe_println(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = termsafe_vprintln(out, fmt, ap);
	va_end(ap);
	return rc;
}
