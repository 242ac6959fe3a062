/* SPDX-License-Identifier: Apache-2.0 */
/* path.h - paths as rtconform compares them: the canonical form of a path
 * that may not exist yet, what lies below a directory, and joining a
 * directory and a name. Below every module that checks an output or lists
 * a directory (cli's output checks, evidence's manifest, selftest's record). */
#ifndef RTC_BASE_PATH_H
#define RTC_BASE_PATH_H

/* The absolute, symlink-free form of path, malloc'd, also for a file (and
 * its directory) that does not exist yet: the longest existing prefix is
 * resolved and the rest appended. NULL when out of memory or nothing of it
 * can be resolved. */
char *path_canonical(const char *path);

/* Canonical path relative to canonical directory dir: "" for dir itself,
 * the rest below it ("/" too: "/a" is "a" below it), NULL when outside.
 * Points into path. The one rule of what lies in a directory, for the
 * manifest, the report's links and the CSV export's checks. */
const char *path_below(const char *path, const char *dir);

/* "dir/name", malloc'd ("/name" of "/", "out/name" of "out/"); NULL when
 * out of memory. */
char *path_join(const char *dir, const char *name);

#endif
