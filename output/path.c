/* SPDX-License-Identifier: Apache-2.0 */
/* path.c - the paths of outputs: joined, made canonical before they exist,
 * what lies in a directory, and the directories the checks made (output.h). */
#include "output/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/verdict.h"

char *out_join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir), len = n + strlen(name) + 2;
	char *s = malloc(len);
	if (s) /* "/" or "out/": no second slash ("//junit.xml") */
		snprintf(s, len, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return s;
}

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

/* path without empty and "." components ("a//./b/" -> "a/b"; "/" stays),
 * malloc'd. What does not exist yet cannot be resolved, so this is how two
 * spellings of one new file become one. */
static char *drop_dot_components(const char *path)
{
	char *out = malloc(strlen(path) + 2), *o = out;
	if (!out)
		return NULL;
	if (path[0] == '/')
		*o++ = '/';
	for (const char *p = path; *p;) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n && !(n == 1 && p[0] == '.')) {
			if (o > out && o[-1] != '/')
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n + (e ? 1 : 0);
	}
	if (o == out)
		*o++ = '.';
	*o = 0;
	return out;
}

static char *canonical(const char *path)
{
	char *real = realpath(path, NULL);
	if (real || errno != ENOENT)
		return real;
	/* Not there yet: resolve its directory, then append the last part. */
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	if (dir && !dir[0]) { /* "/name" */
		free(dir);
		dir = strdup("/");
	}
	char *rdir = dir ? canonical(dir) : NULL;
	free(dir);
	char *out = NULL;
	if (rdir && asprintf(&out, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", base) < 0)
		out = NULL;
	free(rdir);
	return out;
}

char *out_canonical_path(const char *path)
{
	char *clean = drop_dot_components(path);
	char *out = clean ? canonical(clean) : NULL;
	int e = clean ? errno : ENOMEM;
	free(clean);
	errno = out ? errno : e; /* why not, for the caller */
	return out;
}

const char *out_path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (strncmp(path, dir, n) != 0)
		return NULL;
	if (n == 1) /* "/" */
		return path + 1;
	return path[n] == '\0' ? path + n : path[n] == '/' ? path + n + 1 : NULL;
}

