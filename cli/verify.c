/* SPDX-License-Identifier: Apache-2.0 */
/* verify.c - `rtconform verify DIR`: the evidence of a run's directory
 * checked against its MANIFEST.sha256 (cli/manifest.h): every file it lists
 * is there with the same bytes, the files it does not list are named, and
 * the reports present agree with results.json, rendered again from it in
 * memory. docs/reports.md ("MANIFEST.sha256") and docs/qualification.md
 * ("Integrity of the evidence") have the rules. */
#include "cli/cli.h"
#include "cli/manifest.h"
#include "cli/selftest.h"
#include "cli/sign.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/termsafe.h"
#include "reports/csv.h"
#include "reports/journal.h"
#include "reports/link.h"
#include "reports/read/read.h"
#include "reports/report.h"

static const char verify_usage[] =
	"usage: rtconform verify [--pubkey FILE] [--gpg-key KEY] DIR\n"
	"\n"
	"Check the reports of a run's directory (or of merge -o, compare -o) against the\n"
	"MANIFEST.sha256 written there: every file it lists is present with the same\n"
	"SHA-256 (each one missing or changed is named), files it does not list are\n"
	"named (a warning), and junit.xml, summary.txt, report.html, results.json and\n"
	"the CSV files present agree with the reports rendered again from a run's\n"
	"DIR/results.json. A selftest record (the manifest lists validation.json) has\n"
	"validation.json read back and junit.xml, validation.html and validation.json\n"
	"rendered again from it and compared, its totals checked against its cases.\n"
	"Every directory below DIR with its own MANIFEST.sha256 (a record's\n"
	"cases/ID/run/) is verified as a run's directory too.\n"
	"A signature beside the manifest (rtconform run --sign) counts only when made by\n"
	"a key named here: minisign's (MANIFEST.sha256.minisig) by the public key of\n"
	"--pubkey, GnuPG's (MANIFEST.sha256.sig) by the key of --gpg-key; a key gpg's\n"
	"keyring merely holds never counts.\n"
	"\n"
	"      --pubkey FILE     minisign's public key: the manifest must be signed by it\n"
	"      --gpg-key KEY     GnuPG: the manifest must be signed by this key, named by its\n"
	"                        full fingerprint (then that key is enough), or by a name\n"
	"                        of the keyring's (then gpg must hold the signing key\n"
	"                        valid full or ultimate)\n"
	"  -h, --help            this text\n"
	"\n"
	"exit status: 0 every check holds, 1 a file is missing, changed, or disagrees\n"
	"with results.json or validation.json, or a signature does not hold (another\n"
	"key's, a key of too little validity), 2 usage error, no manifest, a malformed\n"
	"manifest (the line is named), or a signature that cannot be checked: one that\n"
	"--pubkey or --gpg-key requires missing, a key file missing or malformed, a key\n"
	"the keyring lacks, the tool missing, a signature present and no key given\n";

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

static bool listed(const struct manifest *m, const char *rel)
{
	return manifest_find(m, rel) != NULL;
}

/* Names of the directory's own that no manifest lists: the manifest, its
 * signature, the output lock. */
static bool ours(const char *rel)
{
	return !strcmp(rel, MANIFEST_NAME) || !strcmp(rel, MANIFEST_NAME ".minisig") ||
	       !strcmp(rel, MANIFEST_NAME ".sig") || !strcmp(rel, CLI_LOCK_NAME);
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
		if (lstat(full, &st) != 0 || ours(sub) || listed(m, sub))
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

/* The bytes of file path (safeopen_read: a regular file, not through a
 * link), at most max, malloc'd (NUL-terminated), length in *len; NULL with
 * -errno in *e and err saying "PATH: why". */
static char *slurp(const char *path, size_t max, size_t *len, int *e, char *err, size_t errlen)
{
	char *buf;
	*e = safeopen_read(path, max, "file verify compares", &buf, len, err, errlen);
	return *e ? NULL : buf;
}

/* Whether file path, when it exists, holds exactly data (len bytes), the
 * same report rendered again from file `source`; also with `alt` (NULL:
 * none), the one other form it may take. Says so when it does not. True
 * when it agrees or is absent. */
static bool agrees(const char *path, const char *data, size_t len, const char *alt,
		   size_t alt_len, const char *source)
{
	size_t flen = 0;
	int e;
	char err[PATH_MAX + 400];
	/* a file longer than either form disagrees whatever it holds */
	char *file = slurp(path, (alt && alt_len > len ? alt_len : len) + 1, &flen, &e, err,
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
	char *file = slurp(path, VERIFY_REPORT_MAX, &len, &e, err, sizeof err);
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
	if (!listed(m, report_kind_file_name(k)))
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
	bool ok = agrees(path, data, len, alt, alt_len, "results.json");
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
		if (!listed(m, path))
			continue; /* not the run's export: the digests said what is */
		snprintf(path, sizeof path, "%s/%.*s%s%s", dir, (int)dlen, index, dlen ? "/" : "",
			 c.files[i].name);
		bad += !agrees(path, c.files[i].data, c.files[i].len, NULL, 0, "results.json");
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
	if (!listed(m, report_kind_file_name(REPORT_JSON))) {
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

/* ---- a selftest record (docs/qualification.md "Selftest: the validation
 * record") ---- */

/* Each document of the record rendered again from what st_read_record
 * read, and compared with the file. The number that disagree. */
static size_t record_docs_agree(const char *dir, const struct st_read *r)
{
	size_t bad = 0;
	char path[PATH_MAX + 64], why[400];
	for (int f = 0; f < ST_NFILES; f++) {
		size_t len = 0;
		char *data = st_render(&r->d, (enum st_file)f, &len, why, sizeof why);
		snprintf(path, sizeof path, "%s/%s", dir, st_file_names[f]);
		if (!data) {
			termsafe_println(stderr, "rtconform verify: %s: cannot be rendered again from "
					 "validation.json: %s", path, why);
			bad++;
			continue;
		}
		/* validation.json written again from itself differs where it
		 * says what this rtconform would not write: totals that are
		 * not its cases', a field it does not know, another layout */
		bad += !agrees(path, data, len, NULL, 0,
			       f == ST_FILE_JSON ? "validation.json read back and written again"
						 : "validation.json");
		free(data);
	}
	return bad;
}

/* When the manifest lists validation.json, dir is a selftest record: the
 * file read back as untrusted input, its totals and exit status checked
 * against its cases, and validation.json, junit.xml and validation.html
 * rendered again from it and compared. Each of the three must be listed
 * (selftest writes them all): a record whose manifest leaves one out has
 * lost it. The number of problems; *record says whether dir is one. */
static size_t check_record(const char *dir, const struct manifest *m, bool *record)
{
	*record = listed(m, st_file_names[ST_FILE_JSON]);
	if (!*record)
		return 0;
	size_t bad = 0;
	for (int f = 0; f < ST_NFILES; f++) {
		if (!listed(m, st_file_names[f])) {
			termsafe_println(stderr, "rtconform verify: %s: a selftest record's manifest "
					 "that does not list %s (selftest writes it)", dir,
					 st_file_names[f]);
			bad++;
		}
	}
	char path[PATH_MAX + 64], err[PATH_MAX + 1000];
	snprintf(path, sizeof path, "%s/%s", dir, st_file_names[ST_FILE_JSON]);
	size_t len = 0;
	int e;
	char *text = slurp(path, ST_RECORD_MAX, &len, &e, err, sizeof err);
	if (!text && e == -EFBIG) {
		/* never read whole: refused by its size alone */
		termsafe_println(stderr, "rtconform verify: %s: %zu bytes, more than a selftest "
				 "record's %u", path, len, ST_RECORD_MAX);
		return bad + 1;
	}
	if (!text) /* missing, not a regular file, unreadable: said by check_hashes */
		return bad + (e != -ENOENT);
	struct st_read r;
	if (st_read_record(path, text, len, &r, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform verify: %s (so the record's reports cannot be "
				 "checked against it)", err);
		bad++;
	} else {
		size_t n = st_read_totals_differ(&r, err, sizeof err);
		if (n)
			termsafe_println(stderr, "rtconform verify: %s: %s%s", path, err,
					 n > 1 ? " (and more totals)" : "");
		bad += (n > 0) + record_docs_agree(dir, &r);
	}
	st_read_free(&r);
	free(text);
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
};

/* The directory path (with a MANIFEST.sha256 of its own) verified as the
 * top one is: its digests, and its reports rendered again from its
 * results.json (or, a selftest record's, from its validation.json). The
 * number of problems (a malformed manifest is one). */
static size_t verify_one_nested(const char *path)
{
	struct manifest m = { NULL, 0, NULL };
	if (read_manifest(path, &m, NULL, NULL) != 0) {
		manifest_free(&m);
		return 1;
	}
	size_t bad = check_hashes(path, &m);
	warn_extra(path, "", &m, 0);
	bool rendered, record;
	bad += check_record(path, &m, &record);
	if (!record)
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
			n->bad += verify_one_nested(sub);
		}
		walk_nested(sub, depth + 1, n);
	}
	closedir(d);
}

/* The nested manifested directories of dir verified. The number of
 * problems (a search cut short at its bounds is one: what lies beyond is
 * not vouched for); the number verified in *runs. */
static size_t check_nested(const char *dir, size_t *runs)
{
	struct nested n = { 0 };
	walk_nested(dir, 1, &n);
	*runs = n.runs;
	if (n.over)
		termsafe_println(stderr, "rtconform verify: %s: more nested directories than "
				 "verify searches (%d deep, %d directories, %d with a manifest): "
				 "those beyond are not verified", dir, VERIFY_DEPTH_MAX,
				 VERIFY_WALK_MAX, VERIFY_NESTED_MAX);
	return n.bad + n.over;
}

/* The directory argument, --pubkey and --gpg-key; VERIFY_GO_ON, or an exit
 * status. */
#define VERIFY_GO_ON (-1)
static int parse_options(int argc, char **argv, struct sign_check *sc)
{
	static const struct option opts[] = {
		{ "pubkey", required_argument, NULL, 'p' },
		{ "gpg-key", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	cli_getopt_begin();
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(verify_usage, stdout);
			return 0;
		}
		if (c != 'p' && c != 'g')
			return cli_getopt_error("verify", c, argv);
		if (!optarg[0]) {
			termsafe_println(stderr, "rtconform verify: %s: empty value",
					 c == 'p' ? "--pubkey" : "--gpg-key");
			return EXIT_USAGE;
		}
		*(c == 'p' ? &sc->pubkey : &sc->gpg_key) = optarg;
	}
	if (optind != argc - 1) {
		termsafe_println(stderr, "rtconform verify: give one directory, a run's -o "
				 "directory (see rtconform verify --help)");
		return EXIT_USAGE;
	}
	return VERIFY_GO_ON;
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

int cmd_verify(int argc, char **argv, const struct cli_ctx *ctx)
{
	(void)ctx;
	struct sign_check sc = { NULL, NULL };
	int rc = parse_options(argc, argv, &sc);
	if (rc != VERIFY_GO_ON)
		return rc;
	const char *arg = argv[optind];
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
	rc = read_manifest(dir, &m, &text, &tlen);
	if (rc) {
		manifest_free(&m);
		free(dir);
		return rc;
	}
	size_t bad = check_hashes(dir, &m);
	size_t extra = warn_extra(dir, "", &m, 0);
	bool rendered = false, record;
	bad += check_record(dir, &m, &record);
	if (!record)
		bad += check_rendered(dir, &m, &rendered);
	size_t runs = 0;
	bad += check_nested(dir, &runs);
	/* the bytes checked above are the bytes the signature is checked of */
	int src = sign_verify(dir, text, tlen, &sc);
	say_verdict(arg, &m, bad, src, extra, record ? 2 : rendered, runs);
	free(text);
	manifest_free(&m);
	free(dir);
	rc = bad ? EXIT_FAILED : 0;
	return src > rc ? src : rc;
}
