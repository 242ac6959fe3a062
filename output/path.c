/* SPDX-License-Identifier: Apache-2.0 */
/* path.c - the directories the output checks made, removed again on
 * refusal (output.h); paths themselves are base/path.c's. */
#include "output/output.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/verdict.h"

void out_made_dirs_note(struct out_made_dirs *m, const char *dir)
{
	struct stat st;
	if (m->n >= OUT_MADE_DIRS_MAX || lstat(dir, &st) == 0 || errno != ENOENT)
		return;
	char *copy = strdup(dir);
	if (copy) /* out of memory: the directory is left, nothing worse */
		m->dir[m->n++] = copy;
}

void out_made_dirs_note_parent(struct out_made_dirs *m, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return; /* "." or "/": there already */
	char *dir = strndup(path, (size_t)(slash - path));
	if (dir)
		out_made_dirs_note(m, dir);
	free(dir);
}

void out_made_dirs_end(struct out_made_dirs *m, int rc)
{
	for (size_t i = m->n; rc == EXIT_USAGE && i-- > 0;)
		rmdir(m->dir[i]); /* newest first; fails, as it should, when not empty */
	out_made_dirs_free(m);
}

int out_fresh_dir(const char *dir, char *err, size_t errlen)
{
	char why[PATH_MAX + 300] = "";
	int fd = report_open_dir(dir, true, why, sizeof why);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int e = fd >= 0 ? errno : -fd;
		snprintf(err, errlen, "%s: %s", dir, e == ELOOP && why[0] ? why : strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	struct stat st;
	int e = fstat(dirfd(d), &st) != 0 ? -errno : 0;
	if (e)
		snprintf(err, errlen, "%s: %s", dir, strerror(-e));
	else if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(err, errlen, "%s: %s: the record goes into a directory only you can "
			 "write (a new one is made so)", dir,
			 st.st_uid != geteuid() ? "owned by another user" : "others may write it");
		e = -EPERM;
	}
	struct dirent *de;
	while (!e && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(err, errlen, "%s is not empty: the record goes into a new or empty "
				 "directory", dir);
			e = -ENOTEMPTY;
		}
	closedir(d);
	return e;
}

void out_made_dirs_free(struct out_made_dirs *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->dir[i]);
	m->n = 0;
}
