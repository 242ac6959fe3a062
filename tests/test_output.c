/* SPDX-License-Identifier: Apache-2.0 */
/* test_output.c - the one output path (output/output.h): each refusal of
 * out_prepare made and shown to refuse (a planted link, a name of
 * rtconform's own, an input or another output overwritten, an empty
 * value), the case beside it that passes, a directory the checks made
 * removed again on refusal and one that was there kept, a file written
 * atomically over a link, and -o / manifested as any other directory. */
#include "output/output.h"

#include <fcntl.h>
#include <limits.h>

#include "test_util.h"

/* A fresh temporary tree for one test. */
static void tree(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/rtc-output-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* The names a manifest was asked to list, kept by the fake evidence. */
static char seen[8][64];
static size_t nseen;
static int fake_write(const char *dir, char **names, size_t n, char **text, size_t *len,
		      char *err, size_t errlen)
{
	(void)dir, (void)err, (void)errlen;
	for (nseen = 0; nseen < n && nseen < 8; nseen++)
		snprintf(seen[nseen], sizeof seen[0], "%s", names[nseen]);
	*text = strdup("manifest");
	*len = 8;
	return 0;
}
static void fake_unsign(const char *dir)
{
	(void)dir;
}
static const struct out_evidence fake_ev = { "MANIFEST.sha256", fake_write, NULL, fake_unsign };

static const enum out_kind reports[] = { OUT_JUNIT, OUT_SUMMARY, OUT_HTML, OUT_JSON, OUT_LAVA };
#define NREPORTS (sizeof reports / sizeof reports[0])

START_TEST(empty_value_refused)
{
	struct out_set s = { .cmd = "run", .ev = &fake_ev };
	ck_assert_int_eq(out_option(&s, OUT_DIR, ""), 2);
	ck_assert_ptr_null(s.given[OUT_DIR]);
	ck_assert_int_eq(out_option(&s, OUT_JUNIT, "j.xml"), 0);
	ck_assert_str_eq(s.given[OUT_JUNIT], "j.xml");
}
END_TEST

/* A link planted in a directory others may write is never followed on the
 * way to an output; the same link in a directory only we write is. */
START_TEST(planted_link_refused)
{
	char t[64], shared[128], target[128], link[192], out[256];
	tree(t, sizeof t);
	snprintf(shared, sizeof shared, "%s/shared", t);
	snprintf(target, sizeof target, "%s/elsewhere", t);
	ck_assert_int_eq(mkdir(shared, 0777), 0);
	ck_assert_int_eq(chmod(shared, 0777), 0); /* others write it, not sticky */
	ck_assert_int_eq(mkdir(target, 0755), 0);
	snprintf(link, sizeof link, "%s/sub", shared);
	ck_assert_int_eq(symlink(target, link), 0);
	snprintf(out, sizeof out, "%s/junit.xml", link);
	struct out_set s = { .cmd = "report", .ev = &fake_ev };
	s.given[OUT_JUNIT] = out;
	ck_assert_int_eq(out_prepare(&s, reports, NREPORTS, NULL, 0, OUT_SET_ANY), 2);
	out_end(&s, 2);
	ck_assert_int_eq(rmdir(target), 0); /* empty: nothing written there */
	ck_assert_int_eq(mkdir(target, 0755), 0);
	ck_assert_int_eq(chmod(shared, 0755), 0); /* only we write it: followed */
	struct out_set ok = { .cmd = "report", .ev = &fake_ev };
	ok.given[OUT_JUNIT] = out;
	ck_assert_int_eq(out_prepare(&ok, reports, NREPORTS, NULL, 0, OUT_SET_ANY), 0);
	out_end(&ok, 0);
	tu_rm_tree(t);
}
END_TEST

/* An output named as the lock file, the manifest or a journal's file, one
 * that is an input, and two outputs of one file are refused; the same
 * outputs apart pass. */
START_TEST(collisions_refused)
{
	char t[64], in[128], o[128];
	tree(t, sizeof t);
	snprintf(in, sizeof in, "%s/in.xml", t);
	put(in, "<x/>");
	const struct out_file inputs[] = { { in, "the requirements file" } };
	static const struct {
		enum out_kind k;
		const char *name;
	} bad[] = { { OUT_LAVA, "MANIFEST.sha256" }, { OUT_LAVA, ".rtconform.lock" },
		    { OUT_LAVA, "journal/log" }, { OUT_JUNIT, "in.xml" },
		    { OUT_JSON, "o/summary.txt" } };
	snprintf(o, sizeof o, "%s/o", t);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct out_set s = { .cmd = "run", .ev = &fake_ev };
		char p[160];
		snprintf(p, sizeof p, "%s/%s", t, bad[i].name);
		s.given[OUT_DIR] = o;
		s.given[bad[i].k] = p;
		ck_assert_msg(out_prepare(&s, reports, NREPORTS, inputs, 1, OUT_SET_ANY) == 2,
			      "%s %s was not refused", out_kind_option(bad[i].k), bad[i].name);
		out_end(&s, 2);
		ck_assert_msg(!exists(o), "%s %s left the -o directory it made",
			      out_kind_option(bad[i].k), bad[i].name);
	}
	struct out_set s = { .cmd = "run", .ev = &fake_ev };
	char p[160];
	snprintf(p, sizeof p, "%s/l.lava", t);
	s.given[OUT_DIR] = o;
	s.given[OUT_LAVA] = p;
	ck_assert_int_eq(out_prepare(&s, reports, NREPORTS, inputs, 1, OUT_SET_ANY), 0);
	ck_assert(exists(o));
	out_end(&s, 0);
	ck_assert(exists(o)); /* not refused: what it made stays */
	tu_rm_tree(t);
}
END_TEST

/* A refusal after the checks made the -o directory (an output in a
 * directory two levels down cannot be made) removes it again; a directory
 * that was there before stays. */
START_TEST(made_directory_removed_on_refusal)
{
	char t[64], o[128], lava[160];
	tree(t, sizeof t);
	snprintf(o, sizeof o, "%s/new", t);
	snprintf(lava, sizeof lava, "%s/no/such/x.lava", t);
	struct out_set s = { .cmd = "run", .ev = &fake_ev };
	s.given[OUT_DIR] = o;
	s.given[OUT_LAVA] = lava;
	ck_assert_int_eq(out_prepare(&s, reports, NREPORTS, NULL, 0, OUT_SET_ANY), 2);
	ck_assert_msg(exists(o), "the reports' check made %s before --lava's refused", o);
	out_end(&s, 2);
	ck_assert_msg(!exists(o), "the refused command left %s", o);
	ck_assert_int_eq(mkdir(o, 0755), 0); /* there before: never removed */
	struct out_set again = { .cmd = "run", .ev = &fake_ev };
	again.given[OUT_DIR] = o;
	again.given[OUT_LAVA] = lava;
	ck_assert_int_eq(out_prepare(&again, reports, NREPORTS, NULL, 0, OUT_SET_ANY), 2);
	out_end(&again, 2);
	ck_assert(exists(o));
	tu_rm_tree(t);
}
END_TEST

/* A link at an output's name is refused by the check; one planted after
 * it is replaced by the atomic write (never written through), which leaves
 * no temporary file; the directory is locked while prepared, the lock file
 * gone at the end. */
START_TEST(written_atomically)
{
	char t[64], o[128], victim[128], p[160], lock[160];
	tree(t, sizeof t);
	snprintf(o, sizeof o, "%s/o", t);
	snprintf(victim, sizeof victim, "%s/victim", t);
	put(victim, "keep");
	ck_assert_int_eq(mkdir(o, 0755), 0);
	snprintf(p, sizeof p, "%s/compare.txt", o);
	ck_assert_int_eq(symlink(victim, p), 0);
	static const enum out_kind cmp[] = { OUT_CMP_TEXT, OUT_CMP_JUNIT, OUT_CMP_HTML };
	struct out_set early = { .cmd = "compare", .ev = &fake_ev };
	early.given[OUT_DIR] = o;
	ck_assert_int_eq(out_prepare(&early, cmp, 3, NULL, 0, OUT_SET_COMPARISON), 2);
	out_end(&early, 2);
	ck_assert(exists(o)); /* there before */
	ck_assert_int_eq(unlink(p), 0);
	struct out_set s = { .cmd = "compare", .ev = &fake_ev };
	s.given[OUT_DIR] = o;
	ck_assert_int_eq(out_prepare(&s, cmp, 3, NULL, 0, OUT_SET_COMPARISON), 0);
	ck_assert_int_eq(symlink(victim, p), 0); /* planted after the check */
	snprintf(lock, sizeof lock, "%s/%s", o, OUT_LOCK_NAME);
	ck_assert(exists(lock));
	ck_assert_int_eq(out_write(&s, OUT_CMP_TEXT, "table\n", 6), 0);
	struct stat st;
	ck_assert_int_eq(lstat(p, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	char *v = tu_slurp(victim, NULL), *w = tu_slurp(p, NULL);
	ck_assert_str_eq(v, "keep");
	ck_assert_str_eq(w, "table\n");
	free(v);
	free(w);
	DIR *d = opendir(o);
	struct dirent *e;
	size_t n = 0;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		     strcmp(e->d_name, OUT_LOCK_NAME);
	closedir(d);
	ck_assert_uint_eq(n, 1); /* compare.txt alone: no temporary file */
	ck_assert_int_eq(out_seal(&s, NULL, 0, true), 0);
	ck_assert_uint_eq(nseen, 3);
	out_end(&s, 0);
	ck_assert(!exists(lock));
	tu_rm_tree(t);
}
END_TEST

/* -o / is a directory as any other: its manifest lists its files by name
 * (before, every file of / was taken for one outside it: no manifest, exit
 * 0), and a run's extra files (its traces) with them. */
START_TEST(root_directory_manifested)
{
	struct out_set s = { .cmd = "run", .ev = &fake_ev };
	s.given[OUT_DIR] = "/";
	s.path[OUT_JUNIT] = strdup("/junit.xml");
	s.path[OUT_JSON] = strdup("/results.json");
	char *extra[] = { "trace-R.txt" };
	nseen = 0;
	ck_assert_int_eq(out_seal(&s, extra, 1, true), 0);
	ck_assert_uint_eq(nseen, 3);
	ck_assert_str_eq(seen[0], "trace-R.txt");
	ck_assert_str_eq(seen[1], "junit.xml");
	ck_assert_str_eq(seen[2], "results.json");
	ck_assert_str_eq(path_below("/junit.xml", "/"), "junit.xml");
	ck_assert_ptr_null(path_below("/tmpx/a", "/tmp"));
	out_end(&s, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tu_tcase(s, "output", 10);
	tcase_add_test(tc, empty_value_refused);
	tcase_add_test(tc, planted_link_refused);
	tcase_add_test(tc, collisions_refused);
	tcase_add_test(tc, made_directory_removed_on_refusal);
	tcase_add_test(tc, written_atomically);
	tcase_add_test(tc, root_directory_manifested);
	return tu_run(s);
}
