/* SPDX-License-Identifier: Apache-2.0 */
/* test_manifest.c - MANIFEST.sha256 (evidence/manifest.c): written sorted, once
 * per path, with the digests of known answers, in sha256sum's form; read
 * back; every malformed line refused with its number (a path listed again
 * too, found by the sorted index that manifest_find searches); paths that
 * leave the directory refused both ways. */
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "evidence/manifest.h"
#include "test_util.h"

/* SHA-256 of "abc" and of the empty string (FIPS 180-4 examples). */
#define ABC "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define EMPTY "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(manifest_written_sorted_and_read_back)
{
	char dir[] = "/tmp/test_manifest.XXXXXX", p[256];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p, sizeof p, "%s/b.txt", dir);
	put(p, "abc");
	snprintf(p, sizeof p, "%s/sub", dir);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/sub/a.csv", dir);
	put(p, "");
	char *names[] = { strdup("sub/a.csv"), strdup("b.txt"), strdup("b.txt") };
	char err[600];
	ck_assert_int_eq(manifest_write(dir, names, 3, err, sizeof err), 0);
	snprintf(p, sizeof p, "%s/%s", dir, MANIFEST_NAME);
	size_t len;
	char *text = tu_slurp(p, &len);
	ck_assert_str_eq(text, ABC "  b.txt\n" EMPTY "  sub/a.csv\n");
	struct manifest m;
	size_t line = 99;
	ck_assert_int_eq(manifest_parse(text, len, &m, &line, err, sizeof err), 0);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_str_eq(m.e[1].path, "sub/a.csv");
	ck_assert_str_eq(m.e[1].hex, EMPTY);
	ck_assert_uint_eq(m.e[1].line, 2);
	manifest_free(&m);
	free(text);
	/* a file that cannot be hashed: named */
	char *gone[] = { strdup("nothere") };
	ck_assert_int_ne(manifest_write(dir, gone, 1, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "nothere"));
	for (size_t i = 0; i < 3; i++)
		free(names[i]);
	free(gone[0]);
	tu_rm_tree(dir);
}
END_TEST

/* parse must refuse text, naming line want_line. */
static void refused(const char *text, size_t want_line, const char *why_has)
{
	struct manifest m;
	size_t line = 0;
	char why[400];
	ck_assert_int_ne(manifest_parse(text, strlen(text), &m, &line, why, sizeof why), 0);
	ck_assert_msg(line == want_line, "%s: line %zu, not %zu", text, line, want_line);
	ck_assert_msg(strstr(why, why_has), "%s: '%s' lacks '%s'", text, why, why_has);
	manifest_free(&m);
}

START_TEST(manifest_malformed_lines_refused)
{
	refused("garbage\n", 1, "64 hex");
	refused(ABC "  a\n" ABC " b\n", 2, "64 hex");       /* one blank */
	refused(ABC "  a\n\n", 2, "64 hex");                /* an empty line */
	refused("g" ABC "  a\n", 1, "64 hex");             /* not hex */
	refused(ABC "  /etc/passwd\n", 1, "relative path");
	refused(ABC "  a/../../x\n", 1, "relative path");
	refused(ABC "  a//b\n", 1, "relative path");
	refused(ABC "  ./a\n", 1, "relative path");
	refused(ABC "  a\\b\n", 1, "relative path");
	refused(ABC "  a\n" EMPTY "  a\n", 2, "listed again (first on line 1)");
	/* sha256sum's binary mark, upper-case hex, no final newline: taken */
	struct manifest m;
	size_t line;
	char why[400];
	const char *t = "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD *x";
	ck_assert_int_eq(manifest_parse(t, strlen(t), &m, &line, why, sizeof why), 0);
	ck_assert_str_eq(m.e[0].hex, ABC);
	ck_assert_str_eq(m.e[0].path, "x");
	manifest_free(&m);
	ck_assert(manifest_path_ok("trace-A.txt"));
	ck_assert(manifest_path_ok("csv/..x"));
	ck_assert(!manifest_path_ok(""));
	ck_assert(!manifest_path_ok("a/"));
	ck_assert(!manifest_path_ok("a\nb"));
}
END_TEST

START_TEST(manifest_find_and_repeats)
{
	/* unsorted: every path found, one not listed not */
	const char *t = ABC "  c\n" ABC "  a\n" EMPTY "  b/x\n";
	struct manifest m;
	size_t line = 0;
	char why[400];
	ck_assert_int_eq(manifest_parse(t, strlen(t), &m, &line, why, sizeof why), 0);
	const struct manifest_entry *e = manifest_find(&m, "b/x");
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->line, 3);
	ck_assert_str_eq(e->hex, EMPTY);
	ck_assert_uint_eq(manifest_find(&m, "c")->line, 1);
	ck_assert_uint_eq(manifest_find(&m, "a")->line, 2);
	ck_assert_ptr_null(manifest_find(&m, "b"));
	ck_assert_ptr_null(manifest_find(&m, "d"));
	manifest_free(&m);
	/* the first line that repeats a path is named, with the first */
	refused(ABC "  a\n" ABC "  b\n" ABC "  a\n" ABC "  a\n", 3, "'a' listed again (first on line 1)");
	refused(ABC "  b\n" ABC "  a\n" ABC "  a\n" ABC "  b\n", 3, "'a' listed again (first on line 2)");
	/* a malformed line before any repeat is named first */
	refused(ABC "  a\n" "x\n" ABC "  a\n", 2, "64 hex");
	/* nothing listed: nothing found */
	ck_assert_int_eq(manifest_parse("", 0, &m, &line, why, sizeof why), 0);
	ck_assert_ptr_null(manifest_find(&m, "a"));
	manifest_free(&m);
	struct manifest z = { 0 };
	ck_assert_ptr_null(manifest_find(&z, "a"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tu_tcase(s, "core", 60);
	tcase_add_test(tc, manifest_written_sorted_and_read_back);
	tcase_add_test(tc, manifest_malformed_lines_refused);
	tcase_add_test(tc, manifest_find_and_repeats);
	return tu_run(s);
}
