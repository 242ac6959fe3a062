/* SPDX-License-Identifier: Apache-2.0 */
/* path.c - paths as every output check and the manifest see them; see path.h. */
#include "base/path.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir), len = n + strlen(name) + 2;
	char *s = malloc(len);
	if (s) /* "/" or "out/": no second slash ("//junit.xml") */
		snprintf(s, len, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return s;
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


char *path_canonical(const char *path)
{
	char *clean = drop_dot_components(path);
	char *out = clean ? canonical(clean) : NULL;
	int e = clean ? errno : ENOMEM;
	free(clean);
	errno = out ? errno : e; /* why not, for the caller */
	return out;
}


const char *path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (strncmp(path, dir, n) != 0)
		return NULL;
	if (n == 1) /* "/" */
		return path + 1;
	return path[n] == '\0' ? path + n : path[n] == '/' ? path + n + 1 : NULL;
}

