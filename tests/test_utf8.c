/* SPDX-License-Identifier: Apache-2.0 */
/* test_utf8.c - the one UTF-8 rule (base/utf8.c) on known answers: each
 * length at its first and last code point, and the forms RFC 3629 rules
 * out (overlongs, surrogates, past U+10FFFF, stray continuations, cut
 * sequences) refused at the byte where they begin. */
#include <check.h>

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "test_util.h"

static const struct {
	const char *in;
	size_t len;  /* utf8_decode's answer for the whole of in */
	uint32_t cp; /* its code point when len != 0 */
} seqs[] = {
	{ "\x00", 1, 0x0 },
	{ "A", 1, 0x41 },
	{ "\x7f", 1, 0x7f },
	{ "\xc2\x80", 2, 0x80 },
	{ "\xc2\xb5", 2, 0xb5 },                  /* µ */
	{ "\xdf\xbf", 2, 0x7ff },
	{ "\xe0\xa0\x80", 3, 0x800 },
	{ "\xe2\x82\xac", 3, 0x20ac },            /* € */
	{ "\xed\x9f\xbf", 3, 0xd7ff },            /* just below the surrogates */
	{ "\xee\x80\x80", 3, 0xe000 },            /* just above them */
	{ "\xef\xbf\xbf", 3, 0xffff },
	{ "\xf0\x90\x80\x80", 4, 0x10000 },
	{ "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
	{ "\xc0\xaf", 0, 0 },                     /* overlong '/' */
	{ "\xc1\xbf", 0, 0 },                     /* overlong U+007F */
	{ "\xe0\x9f\xbf", 0, 0 },                 /* overlong U+07FF */
	{ "\xf0\x8f\xbf\xbf", 0, 0 },             /* overlong U+FFFF */
	{ "\xed\xa0\x80", 0, 0 },                 /* U+D800 */
	{ "\xed\xbf\xbf", 0, 0 },                 /* U+DFFF */
	{ "\xf4\x90\x80\x80", 0, 0 },             /* U+110000 */
	{ "\xf7\xbf\xbf\xbf", 0, 0 },             /* U+1FFFFF */
	{ "\xf8\x88\x80\x80\x80", 0, 0 },         /* a five-byte form */
	{ "\x80", 0, 0 },                         /* a stray continuation */
	{ "\xbf", 0, 0 },
	{ "\xfe", 0, 0 },
	{ "\xff", 0, 0 },
	{ "\xe2\x82", 0, 0 },                     /* cut short */
	{ "\xf0\x90\x80", 0, 0 },
	{ "\xe2\x41\xac", 0, 0 },                 /* not a continuation */
};

START_TEST(decode)
{
	const unsigned char *s = (const unsigned char *)seqs[_i].in;
	size_t n = seqs[_i].len ? seqs[_i].len : strlen(seqs[_i].in);
	uint32_t cp = 0xdeadbeef;
	ck_assert_uint_eq(utf8_decode(s, n ? n : 1, &cp), seqs[_i].len);
	if (seqs[_i].len)
		ck_assert_uint_eq(cp, seqs[_i].cp);
	else
		ck_assert_uint_eq(cp, 0xdeadbeef); /* left alone */
	ck_assert_uint_eq(utf8_decode(s, n ? n : 1, NULL), seqs[_i].len);
}
END_TEST

START_TEST(decode_stops_at_n)
{
	/* The bytes are there, but only n of them may be read. */
	const unsigned char *euro = (const unsigned char *)"\xe2\x82\xac";
	ck_assert_uint_eq(utf8_decode(euro, 3, NULL), 3);
	ck_assert_uint_eq(utf8_decode(euro, 2, NULL), 0);
	ck_assert_uint_eq(utf8_decode(euro, 1, NULL), 0);
	/* A NUL ends a sequence in a C string: n of 4 is safe there. */
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xe2\x82", 4, NULL), 0);
}
END_TEST

static const struct {
	const char *in;
	size_t at; /* utf8_invalid_at's answer; SIZE_MAX: the whole length */
} bufs[] = {
	{ "", SIZE_MAX },
	{ "plain ascii", SIZE_MAX },
	{ "\xc2\xb5s and \xe2\x82\xac and \xf0\x9f\x98\x80", SIZE_MAX },
	{ "\xff", 0 },
	{ "ab\xc0\xaf", 2 },
	{ "ab\xed\xa0\x80z", 2 },
	{ "\xe2\x82\xac\xf4\x90\x80\x80", 3 },
	{ "abc\xe2\x82", 3 },                     /* cut at the end */
	{ "a\x80", 1 },
};

START_TEST(invalid_at)
{
	size_t len = strlen(bufs[_i].in);
	size_t want = bufs[_i].at == SIZE_MAX ? len : bufs[_i].at;
	ck_assert_uint_eq(utf8_invalid_at((const unsigned char *)bufs[_i].in, len), want);
}
END_TEST

START_TEST(invalid_at_counts_nul_as_text)
{
	/* NUL is U+0000: well-formed (the loader refuses it on its own). */
	const unsigned char s[] = { 'a', 0, 'b', 0xc2, 0xb5 };
	ck_assert_uint_eq(utf8_invalid_at(s, sizeof s), sizeof s);
	ck_assert_uint_eq(utf8_invalid_at(s, sizeof s - 1), sizeof s - 2);
}
END_TEST

/* A fixed buffer cuts text before a character, never inside one: the
 * host title cut at 400 bytes inside an "é" was not UTF-8 and jansson
 * refused to write it (issue 23). */
START_TEST(cut_on_character_boundaries)
{
	char buf[6];
	ck_assert_int_eq(utf8_snprintf(buf, sizeof buf, "%s", "abcd\xc3\xa9"), 6);
	ck_assert_str_eq(buf, "abcd"); /* not "abcd\xc3" */
	utf8_snprintf(buf, sizeof buf, "%s", "a\xe2\x82\xac\xe2\x82\xac");
	ck_assert_str_eq(buf, "a\xe2\x82\xac");
	utf8_snprintf(buf, sizeof buf, "%s", "ab\xf0\x9f\x98\x80");
	ck_assert_str_eq(buf, "ab");
	utf8_snprintf(buf, sizeof buf, "%s", "abc\xc3\xa9");
	ck_assert_str_eq(buf, "abc\xc3\xa9"); /* it fits: whole */
	ck_assert_uint_eq(utf8_fit("abcd\xc3\xa9", 5), 4);
	ck_assert_uint_eq(utf8_fit("abcd\xc3\xa9", 6), 6);
	ck_assert_uint_eq(utf8_fit("abcd\xc3\xa9", 4), 4);
	ck_assert_uint_eq(utf8_fit("ab", 10), 2);
	for (size_t len = 1; len < 12; len++) {
		char b[12];
		utf8_snprintf(b, len, "%s", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
		ck_assert_uint_eq(utf8_invalid_at((const unsigned char *)b, strlen(b)), strlen(b));
	}
}
END_TEST

/* Any bytes (a path from the command line) become valid UTF-8, each byte
 * that begins no sequence U+FFFD, the rest as it was. */
START_TEST(valid_dup_replaces_bad_bytes)
{
	char *s = utf8_valid_dup("h\xff/r\xc3\xa9s\xc3");
	ck_assert_str_eq(s, "h\xef\xbf\xbd/r\xc3\xa9s\xef\xbf\xbd");
	free(s);
	s = utf8_valid_dup("");
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tu_tcase(s, "decode", 10);
	tcase_add_loop_test(tc, decode, 0, sizeof seqs / sizeof seqs[0]);
	tcase_add_test(tc, decode_stops_at_n);
	tcase_add_loop_test(tc, invalid_at, 0, sizeof bufs / sizeof bufs[0]);
	tcase_add_test(tc, invalid_at_counts_nul_as_text);
	tcase_add_test(tc, cut_on_character_boundaries);
	tcase_add_test(tc, valid_dup_replaces_bad_bytes);
	return tu_run(s);
}
