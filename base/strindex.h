/* SPDX-License-Identifier: Apache-2.0 */
/* strindex.h - a sorted index of names, for matching by name in time
 * n log n: compare and merge look requirements up by (file, id) among tens
 * of thousands, where a scan for each was quadratic.
 *
 * An entry is a key of two strings and a number (where the item is, in the
 * caller's terms: its position, or a host and a position); entries sort by
 * a, then b, then i, so among entries of one key the one of lowest i comes
 * first. The strings are the caller's and must outlive the index.
 */
#ifndef RTC_STRINDEX_H
#define RTC_STRINDEX_H

#include <stddef.h>
#include <stdint.h>

struct strindex_entry {
	const char *a, *b; /* b "" when the key is one string */
	uint64_t i;
};

/* Sort n entries. */
void strindex_sort(struct strindex_entry *e, size_t n);
/* The first of the n sorted entries that is not below (a, b, i); n when
 * every one is. */
size_t strindex_lower(const struct strindex_entry *e, size_t n, const char *a, const char *b,
		      uint64_t i);
/* Whether entry e has the key (a, b). */
int strindex_is(const struct strindex_entry *e, const char *a, const char *b);

#endif
