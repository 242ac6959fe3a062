/* SPDX-License-Identifier: Apache-2.0 */
/* utf8.c - see utf8.h. */
#include "base/utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		len = 1, v = c, min = 0;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if (i >= n || (s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	if (cp)
		*cp = v;
	return len;
}

size_t utf8_invalid_at(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		size_t n = utf8_decode(s + i, len - i, NULL);
		if (!n)
			return i;
		i += n;
	}
	return len;
}

/* n, or less so that u[0..n) does not end in the first bytes of a
 * character whose rest was cut off. */
static size_t drop_partial(const unsigned char *u, size_t n)
{
	for (size_t k = n; k > 0 && n - k < 4; k--) {
		unsigned char c = u[k - 1];
		if ((c & 0xc0) == 0x80)
			continue; /* a continuation byte: its lead is further back */
		size_t want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		return want > n - (k - 1) ? k - 1 : n;
	}
	return n;
}

size_t utf8_fit(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	if (n < max || !s[n])
		return n; /* the whole of s fits */
	return drop_partial((const unsigned char *)s, n);
}

int utf8_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);
	if (n >= 0 && len && (size_t)n >= len) {
		/* vsnprintf kept len - 1 bytes: cut them where the text that did
		 * not fit begins a character. */
		buf[drop_partial((const unsigned char *)buf, len - 1)] = 0;
	}
	return n;
}

int utf8_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = utf8_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

char *utf8_valid_dup(const char *s)
{
	static const char repl[] = "\xef\xbf\xbd";
	size_t len = strlen(s), out = 0;
	char *d = malloc(len * 3 + 1); /* each byte at most U+FFFD's three */
	if (!d)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_decode((const unsigned char *)s + i, len - i, NULL);
		if (n) {
			memcpy(d + out, s + i, n);
			out += n, i += n;
		} else {
			memcpy(d + out, repl, 3);
			out += 3, i++;
		}
	}
	d[out] = 0;
	return d;
}
