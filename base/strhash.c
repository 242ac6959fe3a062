/* SPDX-License-Identifier: Apache-2.0 */
/* strhash.c - see strhash.h. Open addressing with linear probing, at most
 * half full, so a lookup looks at a few slots whatever the keys. */
#include "base/strhash.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static unsigned char fold(const struct strhash *h, unsigned char c)
{
	return h->fold && c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* FNV-1a over the (folded) bytes. */
static uint64_t hash(const struct strhash *h, const char *s)
{
	uint64_t x = 0xcbf29ce484222325u;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		x = (x ^ fold(h, *p)) * 0x100000001b3u;
	return x;
}

static bool same(const struct strhash *h, const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	for (; *x && fold(h, *x) == fold(h, *y); x++, y++)
		;
	return fold(h, *x) == fold(h, *y);
}

/* The slot of key, or the free slot where it would go. cap > 0. */
static struct strhash_slot *probe(const struct strhash *h, const char *key)
{
	size_t i = (size_t)hash(h, key) & (h->cap - 1);
	while (h->slot[i].key && !same(h, h->slot[i].key, key))
		i = (i + 1) & (h->cap - 1);
	return &h->slot[i];
}

void strhash_init(struct strhash *h, bool fold_case)
{
	*h = (struct strhash){ .fold = fold_case };
}

size_t *strhash_get(const struct strhash *h, const char *key)
{
	if (!h->cap)
		return NULL;
	struct strhash_slot *s = probe(h, key);
	return s->key ? &s->value : NULL;
}

static int grow(struct strhash *h)
{
	size_t cap = h->cap ? h->cap * 2 : 16;
	struct strhash_slot *old = h->slot;
	size_t oldcap = h->cap;
	h->slot = calloc(cap, sizeof *h->slot);
	if (!h->slot) {
		h->slot = old;
		return -ENOMEM;
	}
	h->cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].key)
			*probe(h, old[i].key) = old[i];
	free(old);
	return 0;
}

int strhash_put(struct strhash *h, const char *key, size_t value)
{
	size_t *v = strhash_get(h, key);
	if (v) {
		*v = value;
		return 0;
	}
	if ((h->n + 1) * 2 > h->cap && grow(h))
		return -ENOMEM;
	char *k = strdup(key);
	if (!k)
		return -ENOMEM;
	struct strhash_slot *s = probe(h, key);
	s->key = k;
	s->value = value;
	h->n++;
	return 0;
}

void strhash_free(struct strhash *h)
{
	for (size_t i = 0; i < h->cap; i++)
		free(h->slot[i].key);
	free(h->slot);
	h->slot = NULL;
	h->n = h->cap = 0;
}
