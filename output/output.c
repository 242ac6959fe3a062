/* SPDX-License-Identifier: Apache-2.0 */
/* output.c - the table of output kinds, the output options, and every
 * command's outputs checked, written and vouched for (output.h). */
#include "output/output.h"
#include "evidence/manifest.h"
#include "evidence/sign.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "across/compare.h"
#include "across/merge.h"
#include "base/termsafe.h"
#include "harness/verdict.h"
#include "reports/csv.h"
#include "reports/journal.h"

/* ---------------------------------------------------------------- kinds */

static const struct out_row {
	const char *option; /* the option naming it; NULL: none */
	const char *name;   /* its name in its command's directory; NULL: none
			       (a run's reports: report_kind_file_name) */
	bool dir;           /* a directory, not a file */
	bool shared;        /* its directory is shared, never locked */
	bool unlisted;      /* not in the manifest (--metrics changes after it) */
	bool fresh;         /* a new or empty directory only we may write */
} rows[OUT_NKINDS] = {
	[OUT_JUNIT] = { "--junit", NULL, false, false },
	[OUT_SUMMARY] = { "--summary", NULL, false, false },
	[OUT_HTML] = { "--html", NULL, false, false },
	[OUT_JSON] = { "--json", NULL, false, false },
	[OUT_CSV] = { "--csv", NULL, true, false },
	[OUT_LAVA] = { "--lava", NULL, false, false, true },
	[OUT_KCIDB] = { "--kcidb", NULL, false, false, true },
	/* node_exporter's textfile directory is every feeding program's */
	[OUT_METRICS] = { "--metrics", NULL, false, true, true },
	[OUT_DIR] = { "-o/--output", NULL, true, false },
	[OUT_CMP_TEXT] = { NULL, CMP_TEXT, false, false },
	[OUT_CMP_JUNIT] = { NULL, CMP_JUNIT, false, false },
	[OUT_CMP_HTML] = { NULL, CMP_HTML, false, false },
	[OUT_FLEET_HTML] = { NULL, MERGE_HTML, false, false },
	[OUT_FLEET_JUNIT] = { NULL, MERGE_JUNIT, false, false },
	[OUT_FLEET_JSON] = { NULL, MERGE_JSON, false, false },
	[OUT_ST_JSON] = { NULL, OUT_NAME_ST_JSON, false, false },
	[OUT_ST_JUNIT] = { NULL, OUT_NAME_ST_JUNIT, false, false },
	[OUT_ST_HTML] = { NULL, OUT_NAME_ST_HTML, false, false },
	/* the record's files and its cases' directories are made by name */
	[OUT_ST_DIR] = { "-o/--output", NULL, true, false, false, true },
};

const char *out_kind_option(enum out_kind k)
{
	return (unsigned)k < OUT_NKINDS ? rows[k].option : NULL;
}

const char *out_kind_name(enum out_kind k)
{
	if ((unsigned)k < REPORT_NKINDS)
		return report_kind_file_name((enum report_kind)k);
	return (unsigned)k < OUT_NKINDS ? rows[k].name : NULL;
}

/* What a message calls output k of s: its option when it named it, else
 * its name in the directory. */
static const char *label(const struct out_set *s, enum out_kind k)
{
	return s->given[k] ? rows[k].option : out_kind_name(k);
}

int out_option(struct out_set *s, enum out_kind k, const char *v)
{
	if (!v[0]) {
		termsafe_println(stderr, "rtconform %s: %s: empty value (see rtconform %s --help)",
				 s->cmd, rows[k].option, s->cmd);
		return EXIT_USAGE;
	}
	s->given[k] = v;
	return 0;
}

/* --------------------------------------------------------------- checks */

static int out_of_memory(const struct out_set *s)
{
	termsafe_println(stderr, "rtconform %s: %s", s->cmd, strerror(ENOMEM));
	return EXIT_USAGE;
}

/* Whether path names what rtconform keeps for itself in a directory it
 * writes: the lock file, a run's journal or a file in one, the manifest. */
static bool own_file(const char *path, const char *manifest)
{
	char *copy = strdup(path);
	if (!copy)
		return false;
	char *base = strrchr(copy, '/');
	const char *name = base ? base + 1 : copy;
	bool own = strcmp(name, OUT_LOCK_NAME) == 0 || strcmp(name, JOURNAL_DIR) == 0 ||
		   strcmp(name, manifest) == 0;
	if (base && !own) {
		*base = '\0';
		const char *up = strrchr(copy, '/');
		own = strcmp(up ? up + 1 : copy, JOURNAL_DIR) == 0;
	}
	free(copy);
	return own;
}

/* Whether output k, given as p, names what rtconform keeps for itself,
 * after saying so. A file of -o DIR has a name of the table's, never one
 * of these; a directory named so (-o DIR/journal, --csv DIR/.rtconform.lock)
 * would pass for one of them, or wedge DIR's next run. */
static bool own_name(const struct out_set *s, enum out_kind k, const char *p)
{
	const char *man = s->ev ? s->ev->manifest : "";
	if (!s->given[k] || !own_file(p, man))
		return false;
	termsafe_println(stderr, "rtconform %s: %s %s: names what rtconform keeps for itself in a "
			 "directory it writes (the lock file %s, a run's %s/, and %s, overwritten "
			 "by the run's manifest): choose another name", s->cmd, rows[k].option, p,
			 OUT_LOCK_NAME, JOURNAL_DIR, man);
	return true;
}

/* Whether canonical path p is dir itself or a *.csv directly in it (dir
 * canonical too). */
static bool in_csv_dir(const char *dir, const char *p, bool *is_dir)
{
	const char *rel = path_below(p, dir);
	size_t len = rel ? strlen(rel) : 0;
	*is_dir = rel && !*rel;
	return *is_dir || (rel && !strchr(rel, '/') && len >= 4 &&
			   strcasecmp(rel + len - 4, ".csv") == 0);
}

/* A --csv directory (canonical cdir) holds file `label (path)`, canonical
 * c, that the export could overwrite. */
static int csv_clash(const struct out_set *s, const char *cdir, const char *c, const char *what,
		     const char *path)
{
	bool is_dir;
	if (!c || !in_csv_dir(cdir, c, &is_dir))
		return 0;
	if (is_dir)
		termsafe_println(stderr, "rtconform %s: %s (%s) is the --csv directory", s->cmd, what,
				 path);
	else
		termsafe_println(stderr, "rtconform %s: %s (%s) is a .csv file in the --csv "
				 "directory %s, whose files the export may overwrite", s->cmd, what,
				 path, s->path[OUT_CSV]);
	return EXIT_USAGE;
}

/* Output k (canonical c) against the inputs (canonical in[]) and the
 * outputs before it in kinds[] (canonical out[]); a --csv directory against
 * every one. 0, or 2 after saying which collide. */
static int collide(const struct out_set *s, const enum out_kind *kinds, size_t i, char **out,
		   const struct out_file *inputs, char **in, size_t nin)
{
	enum out_kind k = kinds[i];
	const char *p = s->path[k];
	if (own_name(s, k, p))
		return EXIT_USAGE;
	if (rows[k].dir) {
		int rc = 0;
		for (size_t j = 0; out[i] && j < nin && !rc; j++)
			rc = csv_clash(s, out[i], in[j], inputs[j].label, inputs[j].path);
		for (size_t j = 0; out[i] && kinds[j] != OUT_NKINDS && !rc; j++)
			if (j != i && !rows[kinds[j]].dir)
				rc = csv_clash(s, out[i], out[j], label(s, kinds[j]),
					       s->path[kinds[j]]);
		return rc;
	}
	for (size_t j = 0; out[i] && j < nin; j++)
		if (in[j] && strcmp(in[j], out[i]) == 0) {
			termsafe_println(stderr, "rtconform %s: %s (%s) would overwrite %s %s", s->cmd,
					 label(s, k), p, inputs[j].label, inputs[j].path);
			return EXIT_USAGE;
		}
	for (size_t j = 0; out[i] && j < i; j++)
		if (out[j] && !rows[kinds[j]].dir && strcmp(out[j], out[i]) == 0) {
			termsafe_println(stderr, "rtconform %s: %s and %s are the same file (%s)",
					 s->cmd, label(s, kinds[j]), label(s, k), p);
			return EXIT_USAGE;
		}
	return 0;
}

/* Output k can be written: its directory opened without following a
 * planted link, made (one level) when missing and noted for out_end. */
static int writable(struct out_set *s, enum out_kind k)
{
	char err[PATH_MAX + 700];
	const char *p = s->path[k];
	int e;
	if (rows[k].dir) {
		out_made_dirs_note(&s->made, p);
		e = rows[k].fresh ? out_fresh_dir(p, err, sizeof err)
				  : report_csv_check_dir(p, err, sizeof err);
	} else {
		out_made_dirs_note_parent(&s->made, p);
		e = report_check_writable(p, err, sizeof err);
	}
	if (!e)
		return 0;
	/* an extra output is named by its option; a report by its path */
	bool extra = (int)k >= (int)REPORT_NKINDS && rows[k].option;
	termsafe_println(stderr, "rtconform %s: %s%s%s", s->cmd, extra ? rows[k].option : "",
			 extra ? ": " : "", err);
	return EXIT_USAGE;
}

int out_paths(struct out_set *s, const enum out_kind *kinds, size_t n)
{
	const char *dir = s->given[OUT_DIR];
	for (size_t i = 0; i < n; i++) {
		enum out_kind k = kinds[i];
		const char *name = out_kind_name(k);
		if (s->path[k] || !(s->given[k] || (dir && name)))
			continue;
		s->path[k] = s->given[k] ? strdup(s->given[k]) : path_join(dir, name);
		if (!s->path[k])
			return out_of_memory(s);
	}
	return 0;
}

/* Collisions, then writability, then the locks, of the m outputs mine[]
 * (ended by OUT_NKINDS), canonical c[] (the inputs' after them). */
static int check_all(struct out_set *s, const enum out_kind *mine, size_t m, char **c,
		     const struct out_file *inputs, size_t nin)
{
	int rc = 0;
	/* every collision before any directory is made */
	for (size_t i = 0; !rc && i < m; i++)
		rc = collide(s, mine, i, c, inputs, c + m, nin);
	for (size_t i = 0; !rc && i < m; i++)
		rc = writable(s, mine[i]);
	/* each output's directory locked, held until every output is written */
	for (size_t i = 0; !rc && i < m; i++) {
		const char *p = s->path[mine[i]];
		if (!rows[mine[i]].shared)
			rc = rows[mine[i]].dir ? out_lock_dir(&s->locks, s->cmd, p, s->cmdline)
					       : out_lock_parent(&s->locks, s->cmd, p, s->cmdline);
	}
	return rc;
}

int out_prepare(struct out_set *s, const enum out_kind *kinds, size_t n,
		const struct out_file *inputs, size_t nin, enum out_set_kind set)
{
	int rc = out_paths(s, kinds, n);
	if (rc)
		return rc;
	/* the kinds written, ended by OUT_NKINDS; their canonical paths, then
	 * the inputs' (realpath: they exist) */
	enum out_kind *mine = calloc(n + 1, sizeof *mine);
	char **c = calloc(n + nin + 1, sizeof *c);
	size_t m = 0;
	for (size_t i = 0; mine && c && i < n; i++)
		if (s->path[kinds[i]]) {
			c[m] = path_canonical(s->path[kinds[i]]);
			mine[m++] = kinds[i];
		}
	for (size_t j = 0; mine && c && j < nin; j++)
		c[m + j] = inputs[j].path ? realpath(inputs[j].path, NULL) : NULL;
	if (mine)
		mine[m] = OUT_NKINDS;
	if (own_name(s, OUT_DIR, s->given[OUT_DIR] ? s->given[OUT_DIR] : ""))
		rc = EXIT_USAGE;
	else
		rc = mine && c ? check_all(s, mine, m, c, inputs, nin) : out_of_memory(s);
	if (!rc && set != OUT_SET_ANY)
		rc = out_check_set(s->cmd, s->given[OUT_DIR], set, s->force);
	for (size_t i = 0; c && i < m + nin; i++)
		free(c[i]);
	free(c);
	free(mine);
	return rc;
}

/* ---------------------------------------------------------------- writes */

int out_write(const struct out_set *s, enum out_kind k, const void *data, size_t len)
{
	int e = data ? report_atomic_write(s->path[k], data, len) : -ENOMEM;
	if (!e)
		return 0;
	termsafe_println(stderr, "rtconform %s: cannot write '%s': %s", s->cmd, s->path[k],
			 strerror(-e));
	return -1;
}

/* The CSV export of v into s's --csv directory. Duration metrics left out
 * because `source` (v's file, for the message) keeps no histogram of them
 * are named by count on stderr; that is not a failure. */
static int write_csv(const struct out_set *s, const struct report_view *v, const char *source)
{
	char err[PATH_MAX + 700];
	const char *dir = s->path[OUT_CSV];
	size_t missing = 0;
	if (report_csv_write(v, dir, &missing, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform %s: %s", s->cmd, err);
		return -1;
	}
	if (missing)
		termsafe_println(stderr, "rtconform %s: %s keeps no histogram of %zu metric%s with "
				 "samples: no CSV file for %s in %s (results.json has every "
				 "histogram)", s->cmd, source, missing, missing == 1 ? "" : "s",
				 missing == 1 ? "it" : "them", dir);
	return 0;
}

int out_write_view(const struct out_set *s, const struct report_view *v, const char *source)
{
	char err[PATH_MAX + 700];
	int rc = 0;
	/* Every one attempted: a full disk for one must not cost the others. */
	for (int k = 0; k < REPORT_NKINDS; k++)
		if (s->path[k] && report_write((enum report_kind)k, v, s->path[k], err,
					       sizeof err) != 0) {
			termsafe_println(stderr, "rtconform %s: %s", s->cmd, err);
			rc = -1;
		}
	if (s->path[OUT_CSV] && write_csv(s, v, source) != 0)
		rc = -1;
	if (s->path[OUT_LAVA] && report_write_lava(v, s->path[OUT_LAVA], err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform %s: --lava: %s", s->cmd, err);
		rc = -1;
	}
	if (s->path[OUT_KCIDB] && report_write_kcidb(v, s->path[OUT_KCIDB], err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform %s: --kcidb: %s", s->cmd, err);
		rc = -1;
	}
	return rc;
}

void out_say(const struct out_set *s, FILE *f)
{
	int n = 0;
	for (int k = 0; k < OUT_NKINDS; k++)
		if (s->path[k] && !rows[k].dir && (k < REPORT_NKINDS || k > OUT_DIR))
			termsafe_print(f, "%s%s", n++ ? ", " : "reports: ", s->path[k]);
	if (n)
		fputc('\n', f);
	if (s->path[OUT_CSV])
		termsafe_println(f, "csv: %s", s->path[OUT_CSV]);
	if (s->path[OUT_LAVA])
		termsafe_println(f, "lava: %s", s->path[OUT_LAVA]);
	if (s->path[OUT_KCIDB])
		termsafe_println(f, "kcidb: %s", s->path[OUT_KCIDB]);
}

/* ------------------------------------------------------------- manifest */

char *out_dir_canonical(const struct out_set *s)
{
	return s->given[OUT_DIR] ? realpath(s->given[OUT_DIR], NULL) : NULL;
}

/* names[] (*n of them, room for OUT_NKINDS more) and each file of s inside
 * canonical dir, by its path relative to it. 0 or -ENOMEM. */
static int own_names(const struct out_set *s, const char *dir, char **names, size_t *n)
{
	for (int k = 0; k < OUT_NKINDS; k++) {
		char *c = s->path[k] && !rows[k].dir && !rows[k].unlisted
				  ? path_canonical(s->path[k]) : NULL;
		/* "/" is a directory as any other: its files are "/NAME" */
		const char *rel = c ? path_below(c, dir) : NULL;
		if (rel && *rel && !(names[(*n)++] = strdup(rel))) {
			free(c);
			return -ENOMEM;
		}
		free(c);
	}
	return 0;
}

/* The manifest's names gathered: extra[] then s's own files in dir. */
static char **gather(const struct out_set *s, const char *dir, char **extra, size_t n_extra,
		     size_t *n, int *e)
{
	char **names = calloc(n_extra + OUT_NKINDS + 1, sizeof *names);
	*n = 0;
	*e = names ? 0 : -ENOMEM;
	for (size_t i = 0; !*e && i < n_extra; i++)
		if (!(names[(*n)++] = strdup(extra[i])))
			*e = -ENOMEM;
	if (!*e)
		*e = own_names(s, dir, names, n);
	return names;
}

/* Write dir's manifest of names[] (or remove an earlier one when not all
 * was written) and sign it. 0, or -1 after saying why. */
static int vouch(const struct out_set *s, const char *dir, char **names, size_t n, bool written)
{
	char err[PATH_MAX + 700], *text = NULL;
	size_t len = 0;
	int rc = 0;
	s->ev->unsign(dir); /* an earlier signature vouches for nothing now */
	if (!written) {
		snprintf(err, sizeof err, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "",
			 s->ev->manifest);
		if (unlink(err) == 0)
			termsafe_println(stderr, "rtconform %s: removed %s: it vouched for an "
					 "earlier run's reports", s->cmd, err);
	} else if (s->ev->write(dir, names, n, &text, &len, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform %s: %s", s->cmd, err);
		rc = -1;
	} else if (s->sign && s->ev->sign(s->cmd, s->sign, dir, text, len) != 0) {
		rc = -1;
	}
	free(text);
	return rc;
}

int out_seal(const struct out_set *s, char **extra, size_t n_extra, bool written)
{
	char *dir = out_dir_canonical(s);
	size_t n = 0;
	int e = 0;
	char **names = dir ? gather(s, dir, extra, n_extra, &n, &e) : NULL;
	int rc = 0;
	if (e) {
		termsafe_println(stderr, "rtconform %s: %s/%s: %s", s->cmd, dir, s->ev->manifest,
				 strerror(-e));
		rc = -1;
	} else if (!n) { /* wrote nothing there (or never made it): not its directory */
		if (s->sign)
			termsafe_println(stderr, "rtconform %s: --sign: nothing written into %s, no "
					 "manifest to sign", s->cmd, s->given[OUT_DIR]);
	} else {
		rc = vouch(s, dir, names, n, written);
	}
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return rc;
}

int out_seal_view(const struct out_set *s, const struct report_view *v, bool written)
{
	char *dir = out_dir_canonical(s);
	struct manifest_names mn = { NULL, 0, 0 };
	int e = dir ? manifest_names_add_run(&mn, dir, v, s->path[OUT_CSV]) : 0;
	int rc = 0;
	if (e) {
		termsafe_println(stderr, "rtconform %s: %s/%s: %s", s->cmd, dir, s->ev->manifest,
				 strerror(-e));
		rc = -1;
	} else {
		rc = out_seal(s, mn.name, mn.n, written);
	}
	manifest_names_free(&mn);
	free(dir);
	return rc;
}

void out_end(struct out_set *s, int rc)
{
	out_unlock(&s->locks);
	out_made_dirs_end(&s->made, rc); /* refused: what the checks made goes */
	for (int k = 0; k < OUT_NKINDS; k++) {
		free(s->path[k]);
		s->path[k] = NULL;
	}
}

/* ---------------------------------------------------- the evidence used */

static int sign_with(const char *cmd, const void *key, const char *dir, const char *text,
		     size_t len)
{
	return sign_manifest(cmd, key, dir, text, len);
}

const struct out_evidence out_evidence_std = {
	.manifest = MANIFEST_NAME,
	.write = manifest_write_kept,
	.sign = sign_with,
	.unsign = sign_remove,
};
