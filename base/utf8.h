/* SPDX-License-Identifier: Apache-2.0 */
/* utf8.h - the one rule for what is well-formed UTF-8 (RFC 3629): no
 * overlong forms, no surrogates (U+D800..U+DFFF), nothing past U+10FFFF,
 * no sequence cut short. The loader refuses a requirements file that breaks
 * it, the report writers replace what breaks it, and text shown to a person
 * escapes it (base/termsafe.c).
 */
#ifndef RTC_UTF8_H
#define RTC_UTF8_H

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

#endif
