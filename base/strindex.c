/* SPDX-License-Identifier: Apache-2.0 */
/* strindex.c - see strindex.h. */
#include "base/strindex.h"

#include <stdlib.h>
#include <string.h>

static int cmp_key(const struct strindex_entry *x, const char *a, const char *b, uint64_t i)
{
	int c = strcmp(x->a, a);
	if (!c)
		c = strcmp(x->b, b);
	if (!c)
		c = x->i < i ? -1 : x->i > i;
	return c;
}

static int cmp_entry(const void *p, const void *q)
{
	const struct strindex_entry *y = q;
	return cmp_key(p, y->a, y->b, y->i);
}

void strindex_sort(struct strindex_entry *e, size_t n)
{
	if (n > 1)
		qsort(e, n, sizeof *e, cmp_entry);
}

size_t strindex_lower(const struct strindex_entry *e, size_t n, const char *a, const char *b,
		      uint64_t i)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_key(&e[mid], a, b, i) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int strindex_is(const struct strindex_entry *e, const char *a, const char *b)
{
	return strcmp(e->a, a) == 0 && strcmp(e->b, b) == 0;
}
