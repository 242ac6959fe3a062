/* SPDX-License-Identifier: Apache-2.0 */
/* layout.c - where rtconform finds its helpers (rtconform-worker,
 * rtconform-nop) and the shipped requirement profiles: in the build tree, or
 * in the prefix it was installed to (docs/install.md).
 *
 * Both are found from this executable's own directory, read from
 * /proc/self/exe, and never from the current directory or PATH: rtconform
 * runs as root and would run whatever a directory holds.
 *   - The worker beside rtconform (the build tree, or the three programs
 *     copied together): helpers there, profiles from the source tree this
 *     binary was built from (RTC_SOURCE_PROFILES), if it is still there.
 *   - Otherwise the installed layout, relative to the executable's directory
 *     so a moved prefix keeps working: helpers in RTC_LIBEXEC_REL
 *     ("../libexec/rtconform"), profiles in RTC_PROFILES_REL
 *     ("../share/rtconform/profiles"), both fixed at build time from the
 *     GNUInstallDirs directories (CMakeLists.txt).
 * Without /proc, the configured install prefix (RTC_INSTALL_LIBEXEC,
 * RTC_INSTALL_PROFILES), then the build directory (RTC_HELPER_DIR); either
 * only when the directory and its worker belong to root or to us and no
 * one else may write them: a packaged rtconform still holds the path it was
 * built in (often under /tmp), which anyone might create on the target. */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if !defined(RTC_HELPER_DIR) || !defined(RTC_LIBEXEC_REL) || !defined(RTC_PROFILES_REL) || \
	!defined(RTC_SOURCE_PROFILES) || !defined(RTC_INSTALL_LIBEXEC) || \
	!defined(RTC_INSTALL_PROFILES)
#error "the helper and profile directories are fixed at build time (CMakeLists.txt)"
#endif

static bool has_worker(const char *dir)
{
	char w[PATH_MAX];
	int n = snprintf(w, sizeof w, "%s/rtconform-worker", dir);
	return n > 0 && (size_t)n < sizeof w && access(w, X_OK) == 0;
}

/* Owned by root or by us, and writable by no one else. */
static bool trusted(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && (st.st_uid == 0 || st.st_uid == geteuid()) &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* A fixed directory to take the worker from without /proc: it has one, and
 * neither it nor the worker could have been put there by someone else. */
static bool trusted_worker_dir(const char *dir)
{
	char w[PATH_MAX];
	int n = snprintf(w, sizeof w, "%s/rtconform-worker", dir);
	return has_worker(dir) && n > 0 && (size_t)n < sizeof w && trusted(dir) && trusted(w);
}

/* dir, symlinks and ".." resolved, into out; false (out "") when it is not a
 * directory. */
static bool set_dir(char out[PATH_MAX], const char *dir)
{
	struct stat st;
	out[0] = 0;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(dir, out)) {
		out[0] = 0;
		return false;
	}
	return true;
}

/* dir/rel into out, or false when it does not fit. */
static bool join(char out[PATH_MAX], const char *dir, const char *rel)
{
	int n = snprintf(out, PATH_MAX, "%s/%s", dir, rel);
	return n > 0 && n < PATH_MAX;
}

void cli_find_layout(struct cli_layout *l)
{
	char exe[PATH_MAX], p[PATH_MAX];
	memset(l, 0, sizeof *l);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
	if (slash && slash != exe) {
		*slash = 0;
		const char *prog = slash + 1;
		if (has_worker(exe)) {
			set_dir(l->helper_dir, exe);
			set_dir(l->profile_dir, RTC_SOURCE_PROFILES);
			return;
		}
		if (join(p, exe, RTC_PROFILES_REL))
			set_dir(l->profile_dir, p);
		if (join(p, exe, RTC_LIBEXEC_REL) && has_worker(p) && set_dir(l->helper_dir, p))
			return;
		snprintf(l->problem, sizeof l->problem,
			 "cannot locate rtconform-worker: it is neither beside %s/%s nor in "
			 "%s/%s (reinstall rtconform, or keep the three programs together)",
			 exe, prog, exe, RTC_LIBEXEC_REL);
		return;
	}
	int e = errno;
	if (trusted_worker_dir(RTC_INSTALL_LIBEXEC)) {
		set_dir(l->helper_dir, RTC_INSTALL_LIBEXEC);
		set_dir(l->profile_dir, RTC_INSTALL_PROFILES);
		return;
	}
	if (trusted_worker_dir(RTC_HELPER_DIR)) {
		set_dir(l->helper_dir, RTC_HELPER_DIR);
		set_dir(l->profile_dir, RTC_SOURCE_PROFILES);
		return;
	}
	snprintf(l->problem, sizeof l->problem,
		 "cannot locate rtconform-worker: /proc/self/exe cannot be read (%s) and it is "
		 "in neither %s nor %s (owned by root or you, writable by no one else); "
		 "rtconform never runs helpers from the current directory (mount /proc, or run "
		 "the rtconform built or installed with its worker)",
		 n < 0 ? strerror(e) : "not an absolute path", RTC_INSTALL_LIBEXEC, RTC_HELPER_DIR);
}
