/* SPDX-License-Identifier: Apache-2.0 */
/* utf8.h - the one rule for what is well-formed UTF-8 (RFC 3629): no
 * overlong forms, no surrogates (U+D800..U+DFFF), nothing past U+10FFFF,
 * no sequence cut short. The loader refuses a requirements file that breaks
 * it, the report writers replace what breaks it, and text shown to a person
 * escapes it (base/termsafe.c).
 */
#ifndef RTC_UTF8_H
#define RTC_UTF8_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* The well-formed sequence at s, of which n bytes may be read (n > 0): its
 * length (1-4) with its code point in *cp (cp may be NULL), or 0 when s
 * does not start one. Reads no further than the first byte that breaks
 * the sequence, so a NUL-terminated string may pass n of 4. */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Offset of the first byte of s[0..len) that does not begin a well-formed
 * sequence, or len when all of it is well-formed. */
size_t utf8_invalid_at(const unsigned char *s, size_t len);

/* The length of the longest start of s (a NUL-terminated string) of at
 * most max bytes that ends on a character boundary: a string cut there
 * never ends in part of a character, which is not UTF-8 and which jansson
 * then refuses to write. */
size_t utf8_fit(const char *s, size_t max);

/* snprintf, but a text cut short to fit buf is cut at a character
 * boundary (utf8_fit). The one way a fixed buffer cuts names, titles and
 * identities. Returns what snprintf returns. */
int utf8_snprintf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int utf8_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* A malloc'd copy of s in which every byte that does not begin a
 * well-formed sequence is U+FFFD: a path or argument from the command line
 * (any bytes) as text a JSON or XML file may hold. NULL when out of
 * memory. */
char *utf8_valid_dup(const char *s);

#endif
