/* SPDX-License-Identifier: Apache-2.0 */
/* termsafe.h - text from files and the command line made safe to show a
 * person. A requirement id, a file name or an --only value can hold raw
 * newlines, ESC sequences or C1 control characters; printed as they are,
 * they forge lines of output or drive the terminal. Everything rtconform
 * prints for a person (stdout, stderr, summary.txt) goes through here.
 *
 * Escaped: C0 controls (bytes 0x00-0x1f, tab and newline included), DEL,
 * C1 controls (U+0080-U+009F in UTF-8), the line and paragraph separators
 * U+2028 and U+2029 (a line end to JavaScript and Java, and so to web log
 * viewers such as LAVA's) and bytes that are not valid UTF-8, each as
 * \xNN (C1 as \u0080 .. \u009f, the separators as \u2028 and \u2029).
 * Everything else, other UTF-8 characters included, is kept as it is.
 */
#ifndef RTC_TERMSAFE_H
#define RTC_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether s needs no escaping. */
bool termsafe_is_safe(const char *s);

/* The escaped form of s into buf (always NUL-terminated; cut short, never
 * mid-escape, when it does not fit). Returns buf. */
char *termsafe_escape(const char *s, char *buf, size_t len);

/* The escaped form of s, malloc'd; NULL when out of memory. */
char *termsafe_escape_dup(const char *s);

/* printf to out with the whole formatted text escaped (termsafe_print), and
 * then a newline (termsafe_println).
 * Returns what fputs/putc return (EOF on a write error). */
int termsafe_println(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int termsafe_print(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
