/* SPDX-License-Identifier: Apache-2.0 */
/* diag.h - a list of "file:line: message" diagnostics.
 *
 * Loader and validator append problems here instead of printing, so a caller
 * can show all of them at once (and tests can look at them). Owns its strings.
 * Messages are stored escaped for a terminal (base/termsafe.h), so a control
 * character in a file name or value is shown as \xNN, never sent raw.
 */
#ifndef RTC_DIAG_H
#define RTC_DIAG_H

#include <stddef.h>

struct diag_list {
	char **msgs;
	size_t n, cap;
};

/* Append "file:line: message"; line <= 0 gives "file: message". Never fails
 * silently: on allocation failure the process aborts (nothing sane remains). */
void diag_add(struct diag_list *d, const char *file, long line,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_free(struct diag_list *d);

#endif
