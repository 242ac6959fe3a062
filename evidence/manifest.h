/* SPDX-License-Identifier: Apache-2.0 */
/* manifest.h - MANIFEST.sha256, the list of what a command wrote into its
 * output directory with each file's SHA-256, in the form `sha256sum -c`
 * reads: one line "<64 lower-case hex digits>  <relative path>" per file,
 * sorted by path (bytes, strcmp), each ended by '\n'.
 *
 * `rtconform run` writes it last, atomically, into its -o directory
 * (cli/run.c); `rtconform verify DIR` reads it back (verify.c).
 * docs/reports.md ("MANIFEST.sha256") has the rules. */
#ifndef RTC_EVIDENCE_MANIFEST_H
#define RTC_EVIDENCE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strindex.h"

#define MANIFEST_NAME "MANIFEST.sha256"
/* The lock file of an output directory (output/lock.c, OUT_LOCK_NAME): a
 * record's manifest never lists it, verify never names it as left out. */
#define MANIFEST_LOCK_NAME ".rtconform.lock"

/* A path the manifest may hold: relative, not empty, no "." or ".."
 * component, no empty component, no byte below 0x20, no '\\' (sha256sum
 * would escape it) and shorter than MANIFEST_PATH_MAX. */
#define MANIFEST_PATH_MAX 1024
bool manifest_path_ok(const char *path);

struct manifest_entry {
	char hex[65];  /* the digest, 64 lower-case hex digits */
	char *path;    /* relative to the directory */
	size_t line;   /* 1-based, in the manifest read */
};
struct manifest {
	struct manifest_entry *e;
	size_t n;
	struct strindex_entry *sorted; /* the entries by path, for manifest_find */
};

/* The SHA-256 of file dir/rel as 64 hex digits in hex, the file opened by
 * safeopen_below (base/safeopen.h: a regular file, no link followed, not
 * even a directory of rel's, a FIFO never blocking). 0, or -errno with err
 * saying "PATH: why". */
int manifest_hash_file(const char *dir, const char *rel, char hex[65], char *err,
		       size_t errlen);

/* Write dir/MANIFEST.sha256 listing names[] (paths relative to dir, each
 * manifest_path_ok; duplicates are listed once), each hashed now, sorted;
 * atomically (temp file beside it, fsync, rename). 0, or -errno with err
 * naming the file that could not be hashed or written. */
int manifest_write(const char *dir, char **names, size_t n, char *err, size_t errlen);
/* manifest_write, the text written kept in *text (malloc'd, *len bytes; NULL
 * on failure): what --sign signs is what was written, not what the file
 * holds by the time the tool reads it. */
int manifest_write_kept(const char *dir, char **names, size_t n, char **text, size_t *len,
			char *err, size_t errlen);

/* Parse a manifest's text (len bytes), in time linear in len. 0, or
 * -EINVAL with *bad_line (1-based) and why saying what is wrong with that
 * line; -ENOMEM. Free with manifest_free either way. A line is "<64 hex>
 * <path>" or "<64 hex> *<path>" (sha256sum's binary mark); upper-case hex
 * is taken and kept lower-case; a path twice is malformed. */
int manifest_parse(const char *text, size_t len, struct manifest *m, size_t *bad_line,
		   char *why, size_t whylen);
/* The entry of m listing path, NULL when none does (a binary search). */
const struct manifest_entry *manifest_find(const struct manifest *m, const char *path);
void manifest_free(struct manifest *m);



/* ---- what `run` wrote into its output directory ---- */

struct report_view;
struct manifest_names {
	char **name;
	size_t n, cap;
};
/* Add file `path` (written by the command) to names when it lies inside
 * directory dir_canon (absolute, symlink-free): as its path relative to
 * it. A file outside is left out. 0 or -ENOMEM. */
int manifest_names_add(struct manifest_names *mn, const char *dir_canon, const char *path);
/* Add every file run wrote beside its reports: the traces view links
 * (in view->trace_dir) and, with csv_dir, the CSV export's files. */
int manifest_names_add_run(struct manifest_names *mn, const char *dir_canon,
			   const struct report_view *v, const char *csv_dir);
void manifest_names_free(struct manifest_names *mn);

#endif
