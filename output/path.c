/* SPDX-License-Identifier: Apache-2.0 */
/* path.c - the directories the output checks made, removed again on
 * refusal (output.h); paths themselves are base/path.c's. */
#include "output/output.h"

#include <errno.h>
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

void out_made_dirs_free(struct out_made_dirs *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->dir[i]);
	m->n = 0;
}
