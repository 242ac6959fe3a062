/* SPDX-License-Identifier: Apache-2.0 */
/* strhash.h - a hash map from strings to numbers, for the writers and the
 * fingerprint that must tell in constant time whether a name is taken: a
 * scan of the names given out so far made a few thousand requirements or
 * environment keys of a hostile results.json take minutes (issue 23).
 *
 * The map keeps its own copy of each key. All zero ({0}) is an empty map
 * that compares keys exactly; strhash_init chooses a map that ignores the
 * case of ASCII letters (file names on a case-insensitive file system).
 */
#ifndef RTC_STRHASH_H
#define RTC_STRHASH_H

#include <stdbool.h>
#include <stddef.h>

struct strhash_slot {
	char *key; /* NULL: free */
	size_t value;
};

struct strhash {
	struct strhash_slot *slot;
	size_t n, cap; /* cap 0 or a power of two */
	bool fold;     /* ASCII letters compare ignoring case */
};

void strhash_init(struct strhash *h, bool fold_case);
/* The value of key, NULL when the map lacks it. Valid until the next put. */
size_t *strhash_get(const struct strhash *h, const char *key);
/* Set key to value (adding key when the map lacks it): 0, or -ENOMEM with
 * the map as it was. */
int strhash_put(struct strhash *h, const char *key, size_t value);
void strhash_free(struct strhash *h);

#endif
