/* SPDX-License-Identifier: Apache-2.0 */
/* read.c - `rtconform report FILE`, `compare` and `merge`: FILE is a
 * results.json, recognised by what it holds, not by its name (a results.json
 * renamed to out.xml still reads). An XML file (a junit.xml) is refused:
 * junit.xml is written for CI and never read back. */
#include "reports/read/read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "reports/json_schema.h"
#include "reports/link.h"

/* The first byte that is not white space (after a UTF-8 byte order mark,
 * which the reader skips too: json_read.c), or EOF. */
static int first_byte(FILE *f)
{
	int c = fgetc(f);
	if (c == 0xef && fgetc(f) == 0xbb && fgetc(f) == 0xbf)
		c = fgetc(f);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		c = fgetc(f);
	return c;
}

FILE *read_open(const char *path, size_t *size, char *err, size_t errlen, int *rc)
{
	off_t sz = 0;
	int fd = safeopen_regular(path, &sz, err, errlen);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	*rc = fd < 0 ? fd : 0;
	if (f) {
		*size = (size_t)sz;
		return f;
	}
	if (fd >= 0) {
		*rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return NULL;
}

/* p past white space (JSON's four characters) up to end. */
static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* p past the literal lit, or NULL when the text there is not it. */
static const char *skip_lit(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0 ? p + n : NULL;
}

enum read_kind read_results_kind(const char *path)
{
	char buf[READ_SCHEMA_PEEK], err[300];
	size_t size;
	int rc;
	struct stat st;
	if (lstat(path, &st) != 0 && errno == ENOENT)
		return READ_NONE;
	FILE *f = read_open(path, &size, err, sizeof err, &rc);
	if (!f)
		return READ_OTHER;
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	const char *end = buf + n, *p = buf;
	if (skip_lit(p, end, "\xef\xbb\xbf"))
		p += 3;
	p = skip_lit(skip_ws(p, end), end, "{");
	p = p ? skip_lit(skip_ws(p, end), end, "\"schema\"") : NULL;
	p = p ? skip_lit(skip_ws(p, end), end, ":") : NULL;
	p = p ? skip_lit(skip_ws(p, end), end, "\"") : NULL;
	const char *q = p ? memchr(p, '"', (size_t)(end - p)) : NULL;
	if (!q)
		return READ_OTHER;
	size_t len = (size_t)(q - p);
	static const struct { const char *schema; enum read_kind kind; } known[] = {
		{ RESULTS_SCHEMA, READ_RUN }, { RESULTS_SCHEMA_1, READ_RUN },
		{ RESULTS_FLEET_SCHEMA, READ_FLEET },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strlen(known[i].schema) == len && memcmp(p, known[i].schema, len) == 0)
			return known[i].kind;
	return READ_OTHER;
}

/* 0 when path may be a results.json (a JSON object), else -errno or
 * -EINVAL with err. */
static int check_input(const char *path, char *err, size_t errlen)
{
	int rc;
	size_t size;
	FILE *f = read_open(path, &size, err, errlen, &rc);
	if (!f)
		return rc;
	int c = first_byte(f);
	int e = ferror(f) ? errno : 0;
	fclose(f);
	if (e) {
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (c == '{')
		return 0;
	if (c == '<')
		snprintf(err, errlen, "%s: " REPORT_XML_REFUSED, path);
	else
		snprintf(err, errlen, "%s: not a results.json (a JSON object)", path);
	return -EINVAL;
}

/* The absolute directory of path (which exists), malloc'd; NULL when it
 * cannot be had. */
static char *dir_of(const char *path)
{
	char *real = realpath(path, NULL);
	char *slash = real ? strrchr(real, '/') : NULL;
	if (slash)
		slash[slash == real ? 1 : 0] = 0; /* "/results.json" is in "/" */
	return real;
}

int report_view_read(const char *path, struct report_view *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof *v);
	int rc = check_input(path, err, errlen);
	if (rc)
		return rc;
	rc = report_view_from_json(path, v, err, errlen);
	if (rc)
		return rc;
	/* A run's traces lie beside its report.html, which `run -o DIR` puts
	 * beside results.json: a trace the file names is linked and attached
	 * from there when it is a name a run gives and a regular file there
	 * (report_view_find_traces). Without the directory nothing is. */
	char *dir = dir_of(path);
	rc = report_view_find_traces(v, dir);
	free(dir);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		report_view_free(v);
	}
	return rc;
}
