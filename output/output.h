/* SPDX-License-Identifier: Apache-2.0 */
/* output.h - the one output path of every command that writes files (run,
 * probe, report, compare, merge, selftest): the output options parsed from
 * one table of output kinds, each output checked before anything is
 * measured or read (no link planted on the way followed, no name of
 * rtconform's own, no input or other output overwritten, writable), its
 * missing directory made and removed again when the command ends refused,
 * every directory written into locked (one owner, lock.c), each file
 * written atomically, and MANIFEST.sha256 written and signed last.
 * docs/reports.md, "Output directories"; docs/failure-modes.md. */
#ifndef RTC_OUTPUT_H
#define RTC_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/path.h"
#include "evidence/manifest.h"
#include "reports/report.h"

/* ---- the kinds of output ----
 *
 * One row each (output.c): the option that names it (NULL: none, it lies
 * in -o DIR only), its file name in -o DIR (NULL: given by its option
 * only), whether it is a directory, whether its directory is locked,
 * whether it must be a new or empty directory only we may write. */
enum out_kind {
	OUT_JUNIT = REPORT_JUNIT, OUT_SUMMARY = REPORT_SUMMARY, OUT_HTML = REPORT_HTML,
	OUT_JSON = REPORT_JSON,                    /* a run's reports: run, probe, report */
	OUT_CSV = REPORT_NKINDS, OUT_LAVA, OUT_KCIDB, OUT_METRICS, /* run's and report's extras */
	OUT_DIR,                                   /* -o DIR itself */
	OUT_CMP_TEXT, OUT_CMP_JUNIT, OUT_CMP_HTML, /* compare -o DIR */
	OUT_FLEET_HTML, OUT_FLEET_JUNIT, OUT_FLEET_JSON, /* merge -o DIR */
	OUT_ST_JSON, OUT_ST_JUNIT, OUT_ST_HTML,    /* selftest's record */
	OUT_ST_DIR,                                /* selftest -o DIR: new or empty */
	OUT_NKINDS
};

/* selftest's record's file names (selftest.h's st_file_names). */
#define OUT_NAME_ST_JSON "validation.json"
#define OUT_NAME_ST_JUNIT "junit.xml"
#define OUT_NAME_ST_HTML "validation.html"

/* The option naming kind k ("--junit", "-o/--output"), NULL when none. */
const char *out_kind_option(enum out_kind k);
/* Kind k's file name in its command's directory, NULL when it has none. */
const char *out_kind_name(enum out_kind k);

/* ---- one owner per output directory (lock.c) ----
 *
 * Each directory a command writes into is locked before it measures,
 * reads or writes anything there, and held until every output is written:
 * a second command writing into one of them is refused at once (exit 2),
 * naming the directory and the pid that holds it, and writes nothing
 * (docs/reports.md). The lock is flock(2) on OUT_LOCK_NAME in the
 * directory, which holds the holder's pid and command for that message;
 * the kernel releases it when its holder dies, so a file left by a killed
 * holder is no lock. It is removed at the end by its holder while held
 * (out_unlock). */
#define OUT_LOCK_NAME MANIFEST_LOCK_NAME
#define OUT_LOCKS_MAX 8
struct out_lock {
	int fd;
	char *file;         /* dir/OUT_LOCK_NAME */
	dev_t dev, dir_dev; /* the lock file's and its directory's identity */
	ino_t ino, dir_ino;
};
struct out_locks {
	struct out_lock l[OUT_LOCKS_MAX];
	size_t n;
};

/* Lock directory dir (which exists) for command cmd, whose whole command
 * line (NULL: none) the lock file records; nothing when ls holds it
 * already. 0, or 2 (exit status) after saying who holds it or why it
 * cannot be locked. */
int out_lock_dir(struct out_locks *ls, const char *cmd, const char *dir, const char *cmdline);
/* The same for the directory of output file path. */
int out_lock_parent(struct out_locks *ls, const char *cmd, const char *path,
		    const char *cmdline);
/* Release every lock of ls, removing each lock file while it is held. */
void out_unlock(struct out_locks *ls);

/* The kinds of report set a directory may hold: a run's reports (results.json,
 * junit.xml, report.html, summary.txt), a fleet report (rtconform merge:
 * fleet.html, junit.xml, a fleet results.json), a comparison (compare -o:
 * compare.txt, junit.xml, compare.html). OUT_SET_ANY: not checked. */
enum out_set_kind { OUT_SET_RUN, OUT_SET_FLEET, OUT_SET_COMPARISON, OUT_SET_ANY };

/* Whether cmd, writing a set of kind `mine`, may write into dir (locked):
 * yes when force, or when dir holds no report set of another kind, nor a
 * results.json or a lone junit.xml whose kind cannot be told. 0, or 2
 * after naming the file found and what it is. */
int out_check_set(const char *cmd, const char *dir, enum out_set_kind mine, bool force);

/* Paths are joined, made canonical and compared with base/path.h's
 * path_join, path_canonical and path_below. */

/* ---- directories the output checks make (path.c) ----
 *
 * Checking an output before anything is measured or read creates its
 * missing directory (one level: report_check_writable, the --csv check). A
 * command refused after that removes again what its checks made: only a
 * directory that was not there before them, and only while empty (rmdir),
 * so nothing of anyone else's goes, and never a directory that existed. */
#define OUT_MADE_DIRS_MAX 8
struct out_made_dirs {
	char *dir[OUT_MADE_DIRS_MAX];
	size_t n;
};
/* Just before the check that may create it: note `dir` if it does not
 * exist (yet). */
void out_made_dirs_note(struct out_made_dirs *m, const char *dir);
/* The same for the directory of the output file `path`. */
void out_made_dirs_note_parent(struct out_made_dirs *m, const char *path);
/* Directory dir (made, one level, when missing, reached as every output's
 * is: report_open_dir) new or empty, and ours alone to write: a name
 * planted there by another user (a link to a file of root's) would be
 * followed when the files in it are made by name. 0, or -errno with err
 * saying why. */
int out_fresh_dir(const char *dir, char *err, size_t errlen);
/* The command goes on: forget what was noted, removing nothing. */
void out_made_dirs_free(struct out_made_dirs *m);
/* At the command's very end, its locks released: remove what was noted,
 * newest first, when it ends refused (rc 2: bad input found before or
 * after its outputs' checks, its journal refused, a lock held), else only
 * forget it. A command keeps what it noted until it returns (issue 38). */
void out_made_dirs_end(struct out_made_dirs *m, int rc);

/* ---- a command's outputs ---- */

/* A file a command reads, and what a message calls it ("the input"). */
struct out_file {
	const char *path, *label;
};

/* How the manifest is written and signed: the evidence functions
 * (evidence/manifest.h, evidence/sign.h): out_evidence_std, or a test's own. */
struct out_evidence {
	const char *manifest; /* its file name, MANIFEST.sha256 */
	/* manifest_write_kept: dir/manifest listing names[], its text kept */
	int (*write)(const char *dir, char **names, size_t n, char **text, size_t *len,
		     char *err, size_t errlen);
	/* sign_manifest with the key of --sign */
	int (*sign)(const char *cmd, const void *key, const char *dir, const char *text,
		    size_t len);
	void (*unsign)(const char *dir); /* sign_remove */
};

/* The evidence every command uses: evidence/manifest.c's writer,
 * evidence/sign.c's signer (tests give their own). */
extern const struct out_evidence out_evidence_std;

/* The outputs of one command, from its options to its end. Set cmd,
 * cmdline and ev (and force, sign), then out_option() for each output
 * option, out_prepare(), the writes, out_seal(), out_end(). */
struct out_set {
	const char *cmd;     /* "run": the messages' "rtconform run: " */
	const char *cmdline; /* the whole command line, recorded in the lock; NULL: none */
	const struct out_evidence *ev;
	const void *sign;    /* --sign's key for ev->sign; NULL: not signed */
	bool force;          /* --force: write over another kind of report set */
	const char *given[OUT_NKINDS]; /* what the options named (given[OUT_DIR]: -o) */
	char *path[OUT_NKINDS];  /* once prepared: each output's path; NULL: not written */
	struct out_locks locks;
	struct out_made_dirs made;
};

/* Output option of kind k with value v: 0, or 2 after saying "rtconform
 * CMD: OPTION: empty value" (-o '' would write into /). Given twice, the
 * last counts. */
int out_option(struct out_set *s, enum out_kind k, const char *v);

/* The path of each output of kinds[] (n of them) into s->path[]: the one
 * its option gave, else its name in -o DIR (given[OUT_DIR]), else none.
 * out_prepare() does this first; alone, for outputs checked elsewhere. 0,
 * or 2 out of memory. */
int out_paths(struct out_set *s, const enum out_kind *kinds, size_t n);

/* Every output of kinds[] (n of them: a file in -o DIR, given[OUT_DIR],
 * unless its option named another; an extra such as --csv only when its
 * option was given) checked before anything is measured: none names what
 * rtconform keeps for itself (the lock file, a journal, the manifest), none
 * is one of inputs[] or another output, a --csv directory holds none of
 * them; each can be written, its missing directory made (one level) and
 * noted for out_end; then each directory written into is locked (--metrics'
 * is shared, never locked) and, unless set is OUT_SET_ANY, holds no report
 * set of another kind. s->path[] is filled. 0, or 2 after saying why. */
int out_prepare(struct out_set *s, const enum out_kind *kinds, size_t n,
		const struct out_file *inputs, size_t ninputs, enum out_set_kind set);

/* Write len bytes of data as output k, atomically (a temporary file beside
 * it, fsync, rename: a name planted there is replaced, never written
 * through). 0, or -1 after saying "cannot write 'PATH': why". */
int out_write(const struct out_set *s, enum out_kind k, const void *data, size_t len);

/* View v's reports, CSV export, LAVA results and KCIDB submission, those of s->path[] that
 * are set, every one attempted. 0, or -1 after saying what could not be
 * written. `source` names v's file for the CSV export's note. */
int out_write_view(const struct out_set *s, const struct report_view *v, const char *source);

/* What was written, for standard output (f): "reports: " and each file of
 * s but the extras, in the order of the kinds, then "csv: DIR" and
 * "lava: FILE", "kcidb: FILE" when written. */
void out_say(const struct out_set *s, FILE *f);

/* The canonical -o directory, malloc'd; NULL when there is none (never
 * made: every output elsewhere). */
char *out_dir_canonical(const struct out_set *s);

/* MANIFEST.sha256 in -o DIR, last: the outputs of s there and extra[]
 * (n_extra paths relative to it: a run's traces and CSV files), an
 * earlier signature removed, signed with s->sign. written false (a report
 * could not be written): no manifest vouches for the directory, an
 * earlier one is removed. Nothing when no output lies there. 0, or -1
 * after saying why. */
int out_seal(const struct out_set *s, char **extra, size_t n_extra, bool written);

/* out_seal for a run's reports written from view v (run, probe, report):
 * extra[] every file the run wrote beside them there, the traces v links
 * and the CSV export when --csv lies in -o DIR (manifest_names_add_run).
 * 0, or -1 after saying why. */
int out_seal_view(const struct out_set *s, const struct report_view *v, bool written);

/* At the command's end with status rc: the locks released, what the
 * checks made removed when rc is 2, s's memory freed. */
void out_end(struct out_set *s, int rc);

#endif
