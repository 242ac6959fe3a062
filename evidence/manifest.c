/* SPDX-License-Identifier: Apache-2.0 */
/* manifest.c - MANIFEST.sha256 written and parsed (manifest.h). */
#include "evidence/manifest.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/sha256.h"
#include "base/path.h"
#include "reports/csv.h"
#include "reports/report.h"

bool manifest_path_ok(const char *path)
{
	size_t len = strlen(path);
	if (len == 0 || len >= MANIFEST_PATH_MAX || path[0] == '/')
		return false;
	for (const char *p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == '\\' || *p == 0x7f)
			return false;
	/* each component: not empty, not "." nor ".." */
	for (const char *c = path; c;) {
		const char *end = strchr(c, '/');
		size_t clen = end ? (size_t)(end - c) : strlen(c);
		if (clen == 0 || (clen == 1 && c[0] == '.') ||
		    (clen == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c = end ? end + 1 : NULL;
	}
	return true;
}

int manifest_hash_file(const char *dir, const char *rel, char hex[65], char *err,
		       size_t errlen)
{
	char path[PATH_MAX + MANIFEST_PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	int fd = safeopen_below(dir, rel, NULL, err, errlen);
	if (fd < 0)
		return fd;
	struct sha256_ctx c;
	sha256_init(&c);
	unsigned char buf[65536];
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			return -e;
		}
		if (r == 0)
			break;
		sha256_update(&c, buf, (size_t)r);
	}
	close(fd);
	unsigned char d[32];
	sha256_final(&c, d);
	sha256_hex(d, hex);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The manifest's text of names (sorted in place), malloc'd in *out. */
static int manifest_text(const char *dir, char **names, size_t n, char **out, size_t *len,
			 char *err, size_t errlen)
{
	qsort(names, n, sizeof *names, cmp_str);
	size_t cap = 1;
	for (size_t i = 0; i < n; i++)
		cap += 64 + 2 + strlen(names[i]) + 1;
	char *text = malloc(cap), path[PATH_MAX + MANIFEST_PATH_MAX];
	if (!text) {
		snprintf(err, errlen, "%s/%s: %s", dir, MANIFEST_NAME, strerror(ENOMEM));
		return -ENOMEM;
	}
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && strcmp(names[i], names[i - 1]) == 0)
			continue;
		char hex[65], why[PATH_MAX + MANIFEST_PATH_MAX + 100];
		int e = manifest_path_ok(names[i]) ? 0 : -EINVAL;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (!e)
			e = manifest_hash_file(dir, names[i], hex, why, sizeof why);
		if (e) {
			snprintf(err, errlen, "cannot list '%s' in %s: %s", path, MANIFEST_NAME,
				 e == -EINVAL ? "not a path the manifest can hold" : why);
			free(text);
			return e;
		}
		at += (size_t)snprintf(text + at, cap - at, "%s  %s\n", hex, names[i]);
	}
	*out = text;
	*len = at;
	return 0;
}

int manifest_write_kept(const char *dir, char **names, size_t n, char **text, size_t *len,
			char *err, size_t errlen)
{
	*text = NULL;
	int e = manifest_text(dir, names, n, text, len, err, errlen);
	if (e)
		return e;
	char path[PATH_MAX + MANIFEST_PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_NAME);
	e = report_atomic_write(path, *text, *len);
	if (e) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-e));
		free(*text);
		*text = NULL;
	}
	return e;
}

int manifest_write(const char *dir, char **names, size_t n, char *err, size_t errlen)
{
	char *text;
	size_t len;
	int e = manifest_write_kept(dir, names, n, &text, &len, err, errlen);
	free(text);
	return e;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* One line (without its '\n', NUL-terminated in line) into e. 0 or -EINVAL
 * with why. */
static int parse_line(const char *line, struct manifest_entry *e, char *why, size_t whylen)
{
	for (int i = 0; i < 64; i++) {
		if (hexval((unsigned char)line[i]) < 0) {
			snprintf(why, whylen, "not 64 hex digits, two blanks and a path");
			return -EINVAL;
		}
		e->hex[i] = (char)tolower((unsigned char)line[i]);
	}
	e->hex[64] = '\0';
	if (line[64] != ' ' || (line[65] != ' ' && line[65] != '*')) {
		snprintf(why, whylen, "not 64 hex digits, two blanks and a path");
		return -EINVAL;
	}
	const char *p = line + 66;
	if (!manifest_path_ok(p)) {
		snprintf(why, whylen, "'%.200s' is not a relative path inside the directory", p);
		return -EINVAL;
	}
	e->path = strdup(p);
	return e->path ? 0 : -ENOMEM;
}

/* m's entries sorted by path into m->sorted (n log n: a check of each
 * line against those before it made an 80,000-line manifest take 20 s);
 * the first line (in *bad_line) that lists a path again is malformed. */
static int index_paths(struct manifest *m, size_t *bad_line, char *why, size_t whylen)
{
	m->sorted = calloc(m->n ? m->n : 1, sizeof *m->sorted);
	if (!m->sorted)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++)
		m->sorted[i] = (struct strindex_entry){ .a = m->e[i].path, .b = "", .i = i };
	strindex_sort(m->sorted, m->n);
	/* entries of one path lie together, in the order of their lines */
	size_t again = m->n, first = 0;
	for (size_t k = 1; k < m->n; k++)
		if (strcmp(m->sorted[k].a, m->sorted[k - 1].a) == 0 && m->sorted[k].i < again) {
			again = (size_t)m->sorted[k].i;
			first = (size_t)m->sorted[k - 1].i;
		}
	if (again == m->n)
		return 0;
	*bad_line = m->e[again].line;
	snprintf(why, whylen, "'%s' listed again (first on line %zu)", m->e[again].path,
		 m->e[first].line);
	return -EINVAL;
}

int manifest_parse(const char *text, size_t len, struct manifest *m, size_t *bad_line,
		   char *why, size_t whylen)
{
	memset(m, 0, sizeof *m);
	size_t cap = 0, lineno = 0;
	char line[66 + MANIFEST_PATH_MAX + 1];
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t llen = nl ? (size_t)(nl - (text + at)) : len - at;
		*bad_line = ++lineno;
		if (llen < 67 || llen >= sizeof line || memchr(text + at, '\0', llen)) {
			snprintf(why, whylen, llen >= sizeof line ? "longer than a line can be"
				 : "not 64 hex digits, two blanks and a path");
			return -EINVAL;
		}
		memcpy(line, text + at, llen);
		line[llen] = '\0';
		at += llen + 1;
		if (m->n == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			struct manifest_entry *ne = realloc(m->e, ncap * sizeof *ne);
			if (!ne)
				return -ENOMEM;
			m->e = ne;
			cap = ncap;
		}
		struct manifest_entry *e = &m->e[m->n];
		int r = parse_line(line, e, why, whylen);
		if (r)
			return r;
		m->n++;
		e->line = lineno;
	}
	*bad_line = 0;
	return index_paths(m, bad_line, why, whylen);
}

const struct manifest_entry *manifest_find(const struct manifest *m, const char *path)
{
	if (!m->sorted)
		return NULL; /* not parsed, or refused before it was indexed */
	size_t k = strindex_lower(m->sorted, m->n, path, "", 0);
	return k < m->n && strindex_is(&m->sorted[k], path, "") ? &m->e[m->sorted[k].i] : NULL;
}

void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].path);
	free(m->e);
	free(m->sorted);
	memset(m, 0, sizeof *m);
}

void manifest_names_free(struct manifest_names *mn)
{
	for (size_t i = 0; i < mn->n; i++)
		free(mn->name[i]);
	free(mn->name);
	mn->name = NULL;
	mn->n = mn->cap = 0;
}

int manifest_names_add(struct manifest_names *mn, const char *dir_canon, const char *path)
{
	char *canon = path_canonical(path);
	if (!canon)
		return -ENOMEM;
	/* "/" is a directory as any other: its files are "/NAME" (with a
	 * check for "DIR/" they were all outside, and `run -o /` wrote no
	 * manifest and signed nothing, exit 0) */
	const char *below = path_below(canon, dir_canon);
	if (!below || !*below) {
		free(canon); /* outside the directory (or it): not in its manifest */
		return 0;
	}
	if (mn->n == mn->cap) {
		size_t ncap = mn->cap ? 2 * mn->cap : 16;
		char **nn = realloc(mn->name, ncap * sizeof *nn);
		if (!nn) {
			free(canon);
			return -ENOMEM;
		}
		mn->name = nn;
		mn->cap = ncap;
	}
	char *rel = strdup(below);
	free(canon);
	if (!rel)
		return -ENOMEM;
	mn->name[mn->n++] = rel;
	return 0;
}

/* join dir and name, add it */
static int add_joined(struct manifest_names *mn, const char *dir_canon, const char *dir,
		      const char *name)
{
	char *p = path_join(dir, name);
	int e = p ? manifest_names_add(mn, dir_canon, p) : -ENOMEM;
	free(p);
	return e;
}

int manifest_names_add_run(struct manifest_names *mn, const char *dir_canon,
			   const struct report_view *v, const char *csv_dir)
{
	int e = 0;
	for (size_t f = 0; v->trace_dir && f < v->nfiles && !e; f++)
		for (size_t i = 0; i < v->files[f].nreqs && !e; i++) {
			const struct rv_req *r = &v->files[f].reqs[i];
			if (r->trace && r->trace_link == RV_TRACE_LINKED)
				e = add_joined(mn, dir_canon, v->trace_dir, r->trace);
		}
	if (e || !csv_dir)
		return e;
	struct report_csv c;
	e = report_csv_render(v, &c);
	for (size_t i = 0; !e && i < c.nfiles; i++)
		e = add_joined(mn, dir_canon, csv_dir, c.files[i].name);
	report_csv_free(&c);
	return e;
}
