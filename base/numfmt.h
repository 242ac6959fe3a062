/* SPDX-License-Identifier: Apache-2.0 */
/* numfmt.h - numbers as every report prints and reads them.
 *
 * Reports are compared and parsed by machines, so a number must print the
 * same whatever LC_NUMERIC the user has: everything here uses the C numeric
 * locale (one kept for the process, never one built per number).
 */
#ifndef RTC_NUMFMT_H
#define RTC_NUMFMT_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>

/* Switch this thread to the C numeric locale; returns the locale to hand
 * back to numfmt_c_leave (0 when the switch could not be made). */
locale_t numfmt_c_enter(void);
void numfmt_c_leave(locale_t old);

/* "%.3f", locale-independent. */
void numfmt_fmt3(double v, char *buf, size_t len);

/* "%.17g", locale-independent: the shortest form guaranteed to read back as
 * the same double. */
void numfmt_fmt_exact(double v, char *buf, size_t len);

/* The fewest significant digits (15, 16 or 17, "%.Ng") that read back as
 * the same double, locale-independent: 0.035 prints "0.035", where "%.17g"
 * gives "0.035000000000000003". */
void numfmt_fmt_shortest(double v, char *buf, size_t len);

/* Parse a whole string as a finite double in the C locale. *ok (may be NULL)
 * says whether it was one; returns 0.0 when not. */
double numfmt_parse(const char *s, bool *ok);

/* v rounded as "%.3f" prints it. */
double numfmt_round3(double v);

#endif
