/* SPDX-License-Identifier: Apache-2.0 */
/* test_termsafe.c - what reaches a terminal: control characters, C1 and
 * broken UTF-8 escaped; ordinary text, UTF-8 included, kept; diagnostics
 * stored escaped. */
#include <check.h>

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/termsafe.h"
#include "test_util.h"

static const struct {
	const char *in, *out;
} cases[] = {
	{ "plain id-1", "plain id-1" },
	{ "line\nforged", "line\\x0aforged" },
	{ "tab\there", "tab\\x09here" },
	{ "\x1b[2Jclear", "\\x1b[2Jclear" },
	{ "del\x7f", "del\\x7f" },
	{ "c1 \xc2\x9b" "31m", "c1 \\u009b31m" },      /* CSI as a C1 character */
	{ "nel \xc2\x85", "nel \\u0085" },
	{ "ls \xe2\x80\xa8 ps \xe2\x80\xa9", "ls \\u2028 ps \\u2029" }, /* line ends to JS, Java */
	{ "en dash \xe2\x80\x93", "en dash \xe2\x80\x93" },         /* its neighbours kept */
	{ "\xc2\xb5s and \xe2\x82\xac", "\xc2\xb5s and \xe2\x82\xac" }, /* µ and € kept */
	{ "bad \xff byte", "bad \\xff byte" },
	{ "overlong \xc0\xaf", "overlong \\xc0\\xaf" },
	{ "cut \xe2\x82", "cut \\xe2\\x82" },
	{ "surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80" },
};

START_TEST(escapes)
{
	char buf[128];
	ck_assert_str_eq(termsafe_escape(cases[_i].in, buf, sizeof buf), cases[_i].out);
	ck_assert_int_eq(termsafe_is_safe(cases[_i].in), strcmp(cases[_i].in, cases[_i].out) == 0);
	char *d = termsafe_escape_dup(cases[_i].in);
	ck_assert_str_eq(d, cases[_i].out);
	free(d);
}
END_TEST

START_TEST(never_cut_mid_escape)
{
	char buf[6];
	/* "ab\x0a" does not fit in 5 characters: the escape is left out whole */
	ck_assert_str_eq(termsafe_escape("ab\ncd", buf, sizeof buf), "ab");
}
END_TEST

START_TEST(diag_stored_escaped)
{
	struct diag_list d = { 0 };
	diag_add(&d, "evil\n.xml", 3, "requirement %s: unknown", "id\x1b]0;title\x07");
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.msgs[0], "evil\\x0a.xml:3: requirement id\\x1b]0;title\\x07: unknown");
	diag_free(&d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("termsafe");
	TCase *tc = tu_tcase(s, "escape", 10);
	tcase_add_loop_test(tc, escapes, 0, sizeof cases / sizeof cases[0]);
	tcase_add_test(tc, never_cut_mid_escape);
	tcase_add_test(tc, diag_stored_escaped);
	return tu_run(s);
}
