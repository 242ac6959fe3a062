/* SPDX-License-Identifier: Apache-2.0 */
/* verify.c - the checks of `rtconform verify DIR` (cli/verify.c parses its
 * options): the evidence of a run's directory checked against its
 * MANIFEST.sha256 (evidence/manifest.h): every file it lists
 * is there with the same bytes, the files it does not list are named, and
 * the reports present agree with results.json, rendered again from it in
 * memory. docs/reports.md ("MANIFEST.sha256") and docs/qualification.md
 * ("Integrity of the evidence") have the rules. */
#include "evidence/verify.h"
#include "evidence/manifest.h"
#include "evidence/sign.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/termsafe.h"
#include "harness/verdict.h"
#include "reports/csv.h"
#include "reports/journal.h"
#include "reports/link.h"
#include "reports/read/read.h"
#include "reports/report.h"

/* The most a manifest may be: a run's lists a few hundred files. */
#define VERIFY_MANIFEST_MAX (16u << 20)
/* The most a junit.xml is read to find the directory it attaches from. */
#define VERIFY_REPORT_MAX (1u << 30)
/* The deepest a directory is searched for files the manifest leaves out. */
#define VERIFY_DEPTH_MAX 8

/* Read dir/MANIFEST.sha256 into m (safeopen_read: a regular file, not
 * through a link, a FIFO never waited for), its bytes kept in *text for the
 * signature check (NULL: not wanted). 0, or EXIT_USAGE after saying why. */
static int read_manifest(const char *dir, struct manifest *m, char **text, size_t *tlen)
{
	char path[PATH_MAX + 64], why[400], err[PATH_MAX + 400];
	snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_NAME);
	char *buf;
	size_t len;
	int e = safeopen_read(path, VERIFY_MANIFEST_MAX, "manifest", &buf, &len, err, sizeof err);
	if (e) {
		termsafe_println(stderr, "rtconform verify: %s%s", err,
				 e == -ENOENT ? " (no manifest: run, merge -o and compare -o write "
				 "one into their directory)" : "");
		return EXIT_USAGE;
	}
	size_t line = 0;
	e = manifest_parse(buf, len, m, &line, why, sizeof why);
	if (e == -ENOMEM)
		termsafe_println(stderr, "rtconform verify: %s: %s", path, strerror(ENOMEM));
	else if (e)
		termsafe_println(stderr, "rtconform verify: %s:%zu: malformed: %s", path, line, why);
	if (e || !text) {
		free(buf);
		return e ? EXIT_USAGE : 0;
	}
	*text = buf;
	*tlen = len;
	return 0;
}

/* Every file of m hashed again. The number of files that failed. */
static size_t check_hashes(const char *dir, const struct manifest *m)
{
	size_t bad = 0;
	char path[PATH_MAX + MANIFEST_PATH_MAX], hex[65], err[PATH_MAX + MANIFEST_PATH_MAX + 100];
	for (size_t i = 0; i < m->n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, m->e[i].path);
		int e = manifest_hash_file(dir, m->e[i].path, hex, err, sizeof err);
		if (e == -ENOENT) {
			termsafe_println(stderr, "rtconform verify: %s: missing (the manifest lists it "
					 "on line %zu)", path, m->e[i].line);
			bad++;
		} else if (e == -ELOOP || e == -EISDIR || e == -ENODEV || e == -ENOTDIR) {
			/* safeopen_below: never followed, never opened */
			termsafe_println(stderr, "rtconform verify: %s: %s, not the file the manifest "
					 "lists on line %zu", path,
					 e == -ELOOP && !strstr(err, ": its directory ") ?
					 "a symbolic link" : safeopen_why(err, path),
					 m->e[i].line);
			bad++;
		} else if (e) {
			termsafe_println(stderr, "rtconform verify: %s: cannot be read: %s", path,
					 safeopen_why(err, path));
			bad++;
		} else if (strcmp(hex, m->e[i].hex) != 0) {
			termsafe_println(stderr, "rtconform verify: %s: changed (its SHA-256 is %s, "
					 "the manifest's line %zu says %s)", path, hex, m->e[i].line,
					 m->e[i].hex);
			bad++;
		}
	}
	return bad;
}

bool verify_listed(const struct manifest *m, const char *rel)
{
	return manifest_find(m, rel) != NULL;
}

/* Names of the directory's own that no manifest lists: the manifest, its
 * signature, the output lock. */
static bool ours(const char *rel)
{
	return !strcmp(rel, MANIFEST_NAME) || !strcmp(rel, MANIFEST_NAME ".minisig") ||
	       !strcmp(rel, MANIFEST_NAME ".sig") || !strcmp(rel, MANIFEST_LOCK_NAME);
}

/* Warn of each file under dir/rel (rel "" at the top) the manifest does
 * not list. The number named. */
static size_t warn_extra(const char *dir, const char *rel, const struct manifest *m, int depth)
{
	char path[PATH_MAX + MANIFEST_PATH_MAX];
	snprintf(path, sizeof path, "%s%s%s", dir, rel[0] ? "/" : "", rel);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char sub[MANIFEST_PATH_MAX + 256];
		snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
		char full[PATH_MAX + 2 * MANIFEST_PATH_MAX];
		snprintf(full, sizeof full, "%s/%s", dir, sub);
		struct stat st;
		if (lstat(full, &st) != 0 || ours(sub) || verify_listed(m, sub))
			continue;
		if (S_ISDIR(st.st_mode) && depth < VERIFY_DEPTH_MAX) {
			n += warn_extra(dir, sub, m, depth + 1);
			continue;
		}
		termsafe_println(stderr, "rtconform verify: warning: %s: not in the manifest "
				 "(nothing vouches for it)", full);
		n++;
	}
	closedir(d);
	return n;
}

char *verify_slurp(const char *path, size_t max, size_t *len, int *e, char *err, size_t errlen)
{
	char *buf;
	*e = safeopen_read(path, max, "file verify compares", &buf, len, err, errlen);
	return *e ? NULL : buf;
}

bool verify_agrees(const char *path, const char *data, size_t len, const char *alt,
		   size_t alt_len, const char *source)
{
	size_t flen = 0;
	int e;
	char err[PATH_MAX + 400];
	/* a file longer than either form disagrees whatever it holds */
	char *file = verify_slurp(path, (alt && alt_len > len ? alt_len : len) + 1, &flen, &e, err,
			   sizeof err);
	if (!file && (e == -ENOENT || e == -ELOOP || e == -EISDIR || e == -ENODEV))
		return true; /* missing or not a regular file: said by check_hashes */
	if (!file && e == -EFBIG) {
		termsafe_println(stderr, "rtconform verify: %s: disagrees with %s (it is longer "
				 "than the report rendered again from it)", path, source);
		return false;
	}
	if (!file) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be read: %s", path,
				 safeopen_why(err, path));
		return false;
	}
	bool same = (flen == len && memcmp(file, data, len) == 0) ||
		    (alt && flen == alt_len && memcmp(file, alt, alt_len) == 0);
	if (!same) {
		size_t at = 0;
		while (at < flen && at < len && file[at] == data[at])
			at++;
		termsafe_println(stderr, "rtconform verify: %s: disagrees with %s (the report "
				 "rendered again from it differs from byte %zu on)", path, source,
				 at);
	}
	free(file);
	return same;
}

/* The directory junit.xml at path attaches its first trace from
 * ("[[ATTACHMENT|/abs/dir/trace-ID.txt]]"), malloc'd; NULL when it
 * attaches none. junit.xml names traces by absolute path, which results.json
 * does not hold: a directory moved or copied since the run still agrees. */
static char *attached_dir(const char *path)
{
	size_t len = 0;
	int e;
	char err[PATH_MAX + 400];
	char *file = verify_slurp(path, VERIFY_REPORT_MAX, &len, &e, err, sizeof err);
	char *dir = file ? report_junit_attached_dir(file) : NULL;
	free(file);
	return dir;
}

typedef char *(*render_fn)(const struct report_view *v, size_t *len, char *why, size_t whylen);

/* One report kind rendered from v and compared with dir's file of it,
 * when the manifest lists that file (one it does not list is not the
 * run's: named by warn_extra). */
static bool kind_agrees(const char *dir, const struct manifest *m, struct report_view *v,
			enum report_kind k)
{
	if (!verify_listed(m, report_kind_file_name(k)))
		return true;
	static const render_fn render[REPORT_NKINDS] = {
		[REPORT_JUNIT] = report_junit_render, [REPORT_SUMMARY] = report_summary_render,
		[REPORT_HTML] = report_html_render, [REPORT_JSON] = report_json_render,
	};
	char path[PATH_MAX + 64], why[400];
	snprintf(path, sizeof path, "%s/%s", dir, report_kind_file_name(k));
	size_t len = 0, alt_len = 0;
	char *own_dir = v->trace_dir, *att = k == REPORT_JUNIT ? attached_dir(path) : NULL;
	if (att)
		v->trace_dir = att;
	char *data = render[k](v, &len, why, sizeof why), *alt = NULL;
	if (data && k == REPORT_JUNIT) {
		/* results.json does not say whether run had --junit-skipped */
		v->junit_not_selected = !v->junit_not_selected;
		alt = render[k](v, &alt_len, why, sizeof why);
		v->junit_not_selected = !v->junit_not_selected;
	}
	v->trace_dir = own_dir;
	free(att);
	if (!data || (k == REPORT_JUNIT && !alt)) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be rendered again: %s", path,
				 why);
		free(data);
		return false;
	}
	bool ok = verify_agrees(path, data, len, alt, alt_len, "results.json");
	free(data);
	free(alt);
	return ok;
}

/* The CSV export, when the manifest lists one (its index.csv), rendered
 * from v and compared with each file of it. The number that disagree. */
static size_t csv_agrees(const char *dir, const struct manifest *m,
			 const struct report_view *v)
{
	const char *index = NULL;
	for (size_t i = 0; i < m->n && !index; i++) {
		const char *base = strrchr(m->e[i].path, '/');
		if (!strcmp(base ? base + 1 : m->e[i].path, REPORT_CSV_INDEX))
			index = m->e[i].path;
	}
	if (!index)
		return 0;
	struct report_csv c;
	if (report_csv_render(v, &c) != 0) {
		termsafe_println(stderr, "rtconform verify: the CSV files cannot be rendered again: %s",
				 strerror(ENOMEM));
		report_csv_free(&c);
		return 1;
	}
	size_t bad = 0, dlen = (size_t)(strrchr(index, '/') ? strrchr(index, '/') - index : 0);
	char path[PATH_MAX + 2 * MANIFEST_PATH_MAX];
	for (size_t i = 0; i < c.nfiles; i++) {
		snprintf(path, sizeof path, "%.*s%s%s", (int)dlen, index, dlen ? "/" : "",
			 c.files[i].name);
		if (!verify_listed(m, path))
			continue; /* not the run's export: the digests said what is */
		snprintf(path, sizeof path, "%s/%.*s%s%s", dir, (int)dlen, index, dlen ? "/" : "",
			 c.files[i].name);
		bad += !verify_agrees(path, c.files[i].data, c.files[i].len, NULL, 0, "results.json");
	}
	report_csv_free(&c);
	return bad;
}

/* The reports of dir rendered again from its results.json. The number of
 * files that disagree (or 1 when results.json cannot be read); *rendered
 * says whether they were rendered again at all (else their digests alone
 * vouch for them). */
static size_t check_rendered(const char *dir, const struct manifest *m, bool *rendered)
{
	*rendered = false;
	char path[PATH_MAX + 64], err[2000];
	snprintf(path, sizeof path, "%s/%s", dir, report_kind_file_name(REPORT_JSON));
	if (!verify_listed(m, report_kind_file_name(REPORT_JSON))) {
		termsafe_println(stderr, "rtconform verify: warning: %s: the manifest lists no "
				 "results.json: the reports are checked by their digests only", dir);
		return 0;
	}
	if (access(path, F_OK) != 0)
		return 0; /* missing: said by check_hashes */
	if (read_results_kind(path) == READ_FLEET) {
		termsafe_println(stderr, "rtconform verify: %s: a fleet's (rtconform merge): its "
				 "reports are checked by their digests only", path);
		return 0;
	}
	struct report_view v;
	*rendered = true;
	if (report_view_read(path, &v, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be read back, so the "
				 "reports cannot be checked against it: %s", path, err);
		return 1;
	}
	/* The traces lie beside the reports, as the run saved them. */
	size_t bad = 0;
	if (report_view_find_traces(&v, dir) != 0) {
		termsafe_println(stderr, "rtconform verify: %s: %s", dir, strerror(ENOMEM));
		bad++;
	}
	for (int k = 0; k < REPORT_NKINDS; k++)
		bad += !kind_agrees(dir, m, &v, (enum report_kind)k);
	if (!bad)
		bad += csv_agrees(dir, m, &v);
	report_view_free(&v);
	return bad;
}

/* ---- nested directories: a record's runs ---- */

/* The most nested manifested directories verified, and directories
 * searched for them. */
#define VERIFY_NESTED_MAX 1024
#define VERIFY_WALK_MAX 16384

struct nested {
	size_t runs, dirs, bad;
	bool over;
	verify_record_fn record;
};

/* The directory path (with a MANIFEST.sha256 of its own) verified as the
 * top one is: its digests, and its reports rendered again from its
 * results.json (or, a selftest record's, from its validation.json). The
 * number of problems (a malformed manifest is one). */
static size_t verify_one_nested(const char *path, verify_record_fn record)
{
	struct manifest m = { NULL, 0, NULL };
	if (read_manifest(path, &m, NULL, NULL) != 0) {
		manifest_free(&m);
		return 1;
	}
	size_t bad = check_hashes(path, &m);
	warn_extra(path, "", &m, 0);
	bool rendered, is_record = false;
	if (record)
		bad += record(path, &m, &is_record);
	if (!is_record)
		bad += check_rendered(path, &m, &rendered);
	manifest_free(&m);
	return bad;
}

/* Every directory under path (not followed through a link), to depth
 * VERIFY_DEPTH_MAX, that holds a MANIFEST.sha256 verified. */
static void walk_nested(const char *path, int depth, struct nested *n)
{
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char sub[PATH_MAX + 256], man[PATH_MAX + 300];
		snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
		struct stat st;
		if (lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (++n->dirs > VERIFY_WALK_MAX || depth >= VERIFY_DEPTH_MAX) {
			n->over = true;
			continue;
		}
		snprintf(man, sizeof man, "%s/%s", sub, MANIFEST_NAME);
		if (lstat(man, &st) == 0 && S_ISREG(st.st_mode)) {
			if (n->runs >= VERIFY_NESTED_MAX) {
				n->over = true;
				continue;
			}
			n->runs++;
			n->bad += verify_one_nested(sub, n->record);
		}
		walk_nested(sub, depth + 1, n);
	}
	closedir(d);
}

/* The nested manifested directories of dir verified. The number of
 * problems (a search cut short at its bounds is one: what lies beyond is
 * not vouched for); the number verified in *runs. */
static size_t check_nested(const char *dir, size_t *runs, verify_record_fn record)
{
	struct nested n = { .record = record };
	walk_nested(dir, 1, &n);
	*runs = n.runs;
	if (n.over)
		termsafe_println(stderr, "rtconform verify: %s: more nested directories than "
				 "verify searches (%d deep, %d directories, %d with a manifest): "
				 "those beyond are not verified", dir, VERIFY_DEPTH_MAX,
				 VERIFY_WALK_MAX, VERIFY_NESTED_MAX);
	return n.bad + n.over;
}

/* The last line: FAILED with the problems' count, or OK with what was
 * checked (how: 0 digests only, 1 rendered from results.json, 2 a record
 * rendered from validation.json). */
static void say_verdict(const char *arg, const struct manifest *m, size_t bad, int src,
			size_t extra, int how, size_t runs)
{
	char nested[96] = "";
	if (runs || how == 2)
		snprintf(nested, sizeof nested, "; %zu nested run%s verified", runs,
			 runs == 1 ? "" : "s");
	if (bad)
		termsafe_println(stderr, "rtconform verify: %s: FAILED: %zu problem%s (a file "
				 "missing, changed or disagreeing with %s: above)%s", arg, bad,
				 bad == 1 ? "" : "s", how == 2 ? "validation.json or a run's results.json" :
				 "results.json",
				 src ? "; the signature does not hold or cannot be checked" : "");
	else if (src)
		termsafe_println(stderr, "rtconform verify: %s: FAILED: the signature does not hold "
				 "or cannot be checked", arg);
	else
		termsafe_println(stdout, "rtconform verify: %s: OK: %zu file%s as the manifest "
				 "lists them, %s%s%s", arg, m->n, m->n == 1 ? "" : "s",
				 how == 2 ? "a selftest record: junit.xml, validation.html and "
				 "validation.json agree with validation.json read back, its totals "
				 "with its cases" : how == 1 ? "the reports agree with results.json" :
				 "the reports checked by their digests only", nested,
				 extra ? " (files not in the manifest: see above)" : "");
}

int verify_dir(const char *arg, const struct sign_check *sc, verify_record_fn record)
{
	char *dir = realpath(arg, NULL);
	struct stat st;
	if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		termsafe_println(stderr, "rtconform verify: %s: %s", arg,
				 dir ? "not a directory" : strerror(errno));
		free(dir);
		return EXIT_USAGE;
	}
	struct manifest m = { NULL, 0, NULL };
	char *text = NULL;
	size_t tlen = 0;
	int rc = read_manifest(dir, &m, &text, &tlen);
	if (rc) {
		manifest_free(&m);
		free(dir);
		return rc;
	}
	size_t bad = check_hashes(dir, &m);
	size_t extra = warn_extra(dir, "", &m, 0);
	bool rendered = false, is_record = false;
	if (record)
		bad += record(dir, &m, &is_record);
	if (!is_record)
		bad += check_rendered(dir, &m, &rendered);
	size_t runs = 0;
	bad += check_nested(dir, &runs, record);
	/* the bytes checked above are the bytes the signature is checked of */
	int src = sign_verify(dir, text, tlen, sc);
	say_verdict(arg, &m, bad, src, extra, is_record ? 2 : rendered, runs);
	free(text);
	manifest_free(&m);
	free(dir);
	rc = bad ? EXIT_FAILED : 0;
	return src > rc ? src : rc;
}
