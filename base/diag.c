/* SPDX-License-Identifier: Apache-2.0 */
/* diag.c - see diag.h. */
#include "base/diag.h"
#include "base/termsafe.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A diagnostic that cannot be recorded would turn an invalid file into a
 * silently accepted one, so running out of memory here ends the process. */
static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		fputs("rtconform: out of memory recording a diagnostic\n", stderr);
		abort();
	}
	return q;
}

void diag_add(struct diag_list *d, const char *file, long line,
	      const char *fmt, ...)
{
	char prefix[64];
	va_list ap;
	int mlen, plen;
	char *msg;

	if (!file)
		file = "<input>";
	if (line > 0)
		plen = snprintf(prefix, sizeof prefix, ":%ld: ", line);
	else
		plen = snprintf(prefix, sizeof prefix, ": ");

	va_start(ap, fmt);
	mlen = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (mlen < 0) /* an encoding error in a %ls argument; keep the format */
		mlen = 0;

	size_t flen = strlen(file);
	size_t total = flen + (size_t)plen + (size_t)mlen + 1;
	msg = xrealloc(NULL, total);
	memcpy(msg, file, flen);
	memcpy(msg + flen, prefix, (size_t)plen);
	va_start(ap, fmt);
	if (mlen > 0)
		vsnprintf(msg + flen + plen, (size_t)mlen + 1, fmt, ap);
	else
		msg[flen + (size_t)plen] = '\0';
	va_end(ap);

	/* File names and the values quoted in messages come from outside:
	 * escaped here, a diagnostic can be printed as it is. */
	if (!termsafe_is_safe(msg)) {
		char *safe = termsafe_escape_dup(msg);
		if (!safe) {
			fputs("rtconform: out of memory recording a diagnostic\n", stderr);
			abort();
		}
		free(msg);
		msg = safe;
	}

	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 8;
		d->msgs = xrealloc(d->msgs, d->cap * sizeof *d->msgs);
	}
	d->msgs[d->n++] = msg;
}

void diag_free(struct diag_list *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msgs[i]);
	free(d->msgs);
	d->msgs = NULL;
	d->n = d->cap = 0;
}
