/* SPDX-License-Identifier: Apache-2.0 */
/* test_strhash.c - the hash map of names (base/strhash.c) and the sorted
 * index (base/strindex.c) on known answers: every key put is found with
 * its last value, none that was not put is, through many growths; case
 * folded only when asked; the index finds the first entry of a key. */
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strhash.h"
#include "base/strindex.h"
#include "test_util.h"

START_TEST(strhash_finds_what_was_put)
{
	struct strhash h = { 0 };
	ck_assert_ptr_null(strhash_get(&h, "a"));
	ck_assert_int_eq(strhash_put(&h, "", 7), 0);
	ck_assert_int_eq(strhash_put(&h, "a", 1), 0);
	ck_assert_int_eq(strhash_put(&h, "a", 2), 0); /* set again: one key */
	ck_assert_uint_eq(h.n, 2);
	ck_assert_uint_eq(*strhash_get(&h, ""), 7);
	ck_assert_uint_eq(*strhash_get(&h, "a"), 2);
	ck_assert_ptr_null(strhash_get(&h, "A")); /* exact unless asked */
	ck_assert_ptr_null(strhash_get(&h, "ab"));
	/* 100,000 keys alike but for a suffix: every one found, with its
	 * value, through the growths; none that was not put */
	char k[32];
	for (size_t i = 0; i < 100000; i++) {
		snprintf(k, sizeof k, "key-%zu", i);
		ck_assert_int_eq(strhash_put(&h, k, i * 3), 0);
	}
	ck_assert_uint_eq(h.n, 100002);
	ck_assert_uint_le(h.n * 2, h.cap); /* at most half full */
	for (size_t i = 0; i < 100000; i++) {
		snprintf(k, sizeof k, "key-%zu", i);
		size_t *v = strhash_get(&h, k);
		ck_assert_msg(v && *v == i * 3, "%s", k);
		snprintf(k, sizeof k, "key-%zu", i + 100000);
		ck_assert_ptr_null(strhash_get(&h, k));
	}
	strhash_free(&h);
	ck_assert_ptr_null(strhash_get(&h, "a"));
	ck_assert_uint_eq(h.n, 0);
}
END_TEST

START_TEST(strhash_folds_case_when_asked)
{
	struct strhash h;
	strhash_init(&h, true);
	ck_assert_int_eq(strhash_put(&h, "Sem-RT", 1), 0);
	ck_assert_uint_eq(*strhash_get(&h, "sem-rt"), 1);
	ck_assert_uint_eq(*strhash_get(&h, "SEM-RT"), 1);
	ck_assert_int_eq(strhash_put(&h, "SEM-rt", 5), 0); /* the same name */
	ck_assert_uint_eq(h.n, 1);
	ck_assert_uint_eq(*strhash_get(&h, "Sem-RT"), 5);
	/* only ASCII letters fold: not digits, punctuation or other bytes */
	ck_assert_ptr_null(strhash_get(&h, "SEM_RT"));
	ck_assert_int_eq(strhash_put(&h, "\xc3\x89", 2), 0); /* É */
	ck_assert_ptr_null(strhash_get(&h, "\xc3\xa9"));     /* é */
	strhash_free(&h);
}
END_TEST

START_TEST(strindex_finds_the_first_of_a_key)
{
	struct strindex_entry e[] = {
		{ "b", "x", 4 }, { "a", "", 9 }, { "b", "x", 1 }, { "a", "y", 0 },
		{ "b", "w", 2 }, { "c", "", 3 },
	};
	size_t n = sizeof e / sizeof e[0];
	strindex_sort(e, n);
	/* by a, then b, then i */
	const char *order[] = { "a/", "a/y", "b/w", "b/x", "b/x", "c/" };
	for (size_t i = 0; i < n; i++) {
		char got[8];
		snprintf(got, sizeof got, "%s/%s", e[i].a, e[i].b);
		ck_assert_str_eq(got, order[i]);
	}
	size_t at = strindex_lower(e, n, "b", "x", 0);
	ck_assert_uint_eq(at, 3);
	ck_assert_uint_eq(e[at].i, 1); /* the lowest i of the key first */
	ck_assert(strindex_is(&e[at], "b", "x"));
	ck_assert(!strindex_is(&e[at], "b", "w"));
	at = strindex_lower(e, n, "b", "v", 0); /* absent: where it would be */
	ck_assert(!strindex_is(&e[at], "b", "v"));
	ck_assert_uint_eq(strindex_lower(e, n, "d", "", 0), n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strhash");
	TCase *tc = tu_tcase(s, "core", 60);
	tcase_add_test(tc, strhash_finds_what_was_put);
	tcase_add_test(tc, strhash_folds_case_when_asked);
	tcase_add_test(tc, strindex_finds_the_first_of_a_key);
	return tu_run(s);
}
