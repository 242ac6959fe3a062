/* SPDX-License-Identifier: Apache-2.0 */
/* link.c - links and attachments of the reports; see link.h. */
#include "reports/link.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/utf8.h"
#include "harness/trace.h"

bool report_trace_ok(const char *trace)
{
	return trace && trace_name_is_ours(trace);
}

/* What the reports do with trace, looked for in the directory dirfd
 * (-1: none could be opened). AT_SYMLINK_NOFOLLOW: a symlink is itself
 * looked at, never what it points to; the name has no '/' (it is ours),
 * so nothing but its last component could be one. */
static enum rv_trace_link trace_link_of(int dirfd, const char *trace)
{
	struct stat st;
	if (!report_trace_ok(trace))
		return RV_TRACE_NOT_OURS;
	if (dirfd < 0 || fstatat(dirfd, trace, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode))
		return RV_TRACE_NO_FILE;
	return RV_TRACE_LINKED;
}

int report_view_find_traces(struct report_view *v, const char *dir)
{
	int dirfd = dir ? open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
	free(v->trace_dir);
	v->trace_dir = dir ? realpath(dir, NULL) : NULL;
	int rc = dir && !v->trace_dir && errno == ENOMEM ? -ENOMEM : 0;
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			struct rv_req *r = &v->files[f].reqs[i];
			r->trace_link = r->trace ? trace_link_of(dirfd, r->trace)
						 : RV_TRACE_UNCHECKED;
		}
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}

const char *report_trace_why_not(const struct rv_req *r)
{
	if (!r->trace)
		return NULL;
	switch (r->trace_link) {
	case RV_TRACE_LINKED:
		return NULL;
	case RV_TRACE_NO_FILE:
		return "no regular file of that name beside the results";
	case RV_TRACE_NOT_OURS:
		break;
	case RV_TRACE_UNCHECKED:
		if (report_trace_ok(r->trace))
			return NULL;
		break;
	}
	return "not a name rtconform gives a trace";
}

/* RFC 3986 section 2.3, and '/' between the segments. */
static bool href_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

char *report_href(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	if (!path || !path[0] || path[0] == '/')
		return NULL;
	char *out = malloc(2 + strlen(path) * 3 + 1);
	if (!out)
		return NULL;
	/* "./" first: whatever the path begins with, a browser takes it as a
	 * path below the page's directory, never as a scheme ("javascript:")
	 * or a host ("//example"). */
	size_t o = 0;
	out[o++] = '.';
	out[o++] = '/';
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (href_plain(*p)) {
			out[o++] = (char)*p;
		} else {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		}
	}
	out[o] = 0;
	return out;
}

void report_file_link(struct xw *x, const char *path, const char *text)
{
	char *href = path ? report_href(path) : NULL;
	if (path && !href) {
		x->failed = true;
		return;
	}
	if (href) {
		xw_start(x, "a");
		xw_attr(x, "href", href);
	}
	xw_text(x, text);
	if (href)
		xw_full_end(x);
	free(href);
}

/* target relative to directory `from`, both canonical; malloc'd. */
static char *relative_path(const char *from, const char *target)
{
	size_t i = 0, common = 0;
	while (from[i] && from[i] == target[i])
		i++;
	/* Below from: no "../" (from ends at i: nothing of it is read past) */
	if (!from[i] && target[i] == '/')
		return strdup(target + i + 1);
	for (size_t k = 0; k < i; k++)
		if (from[k] == '/')
			common = k + 1;
	/* One "../" for each component of from past the common part. */
	size_t ups = from[common] ? 1 : 0;
	for (const char *p = from + common; *p; p++)
		ups += *p == '/';
	char *out = malloc(ups * 3 + strlen(target + common) + 1);
	if (!out)
		return NULL;
	char *o = out;
	for (size_t k = 0; k < ups; k++, o += 3)
		memcpy(o, "../", 3);
	strcpy(o, target + common);
	return out;
}

char *report_beside_link(const char *dir, const char *source, const char *name, bool *failed)
{
	char *real = realpath(source, NULL);
	char *slash = real ? strrchr(real, '/') : NULL;
	char *link = NULL;
	if (slash) {
		*slash = 0;
		char *file = NULL;
		if (asprintf(&file, "%s/%s", real[0] ? real : "", name) < 0)
			*failed = true;
		else if (access(file, R_OK) == 0 && !(link = relative_path(dir, file)))
			*failed = true;
		free(file);
	}
	free(real);
	return link;
}

#define ATTACHMENT_MARK "[[ATTACHMENT|"

bool report_junit_has_mark(const char *text)
{
	const size_t ml = strlen(ATTACHMENT_MARK);
	for (const char *p = strchr(text, '['); p; p = strchr(p + 1, '['))
		if (strncasecmp(p, ATTACHMENT_MARK, ml) == 0)
			return true;
	return false;
}

char *report_junit_defuse(const char *text)
{
	const size_t ml = strlen(ATTACHMENT_MARK);
	size_t n = strlen(text), marks = 0;
	for (const char *p = text; *p; p++)
		marks += strncasecmp(p, ATTACHMENT_MARK, ml) == 0;
	char *out = malloc(n + marks + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (const char *p = text; *p; p++) {
		out[o++] = *p;
		/* A blank between the brackets: Jenkins' plugin and GitLab look
		 * for the marker exactly, anywhere in a line. */
		if (strncasecmp(p, ATTACHMENT_MARK, ml) == 0)
			out[o++] = ' ';
	}
	out[o] = 0;
	return out;
}

/* Whether path may go into an attachment line as it is: absolute, the
 * same bytes once in the XML (invalid UTF-8 would become U+FFFD, another
 * path), and read whole by the plugin, whose pattern ends a line at CR,
 * LF, U+0085, U+2028 and U+2029 (Java's '.'), takes the text up to the
 * last "]]" of the line and cuts it at the first '|'. */
static bool attachable(const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t n = strlen(path);
	if (path[0] != '/' || strstr(path, "]]"))
		return false;
	while (n) {
		uint32_t cp;
		size_t len = utf8_decode(p, n, &cp);
		if (!len || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
		    cp == 0x2029 || cp == '|')
			return false;
		p += len;
		n -= len;
	}
	return true;
}

void report_junit_system_out(struct xw *x, const char *text, const char *dir,
			     const char *trace)
{
	char *path = NULL, *line = NULL;
	if (!x->junit) {
		x->failed = true; /* text undefused: never written */
		return;
	}
	if (!text)
		text = "";
	if (dir && report_trace_ok(trace)) {
		size_t dl = strlen(dir);
		if (asprintf(&path, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", trace) < 0) {
			path = NULL;
			x->failed = true;
		}
	}
	/* On a line of its own, as the plugin expects. */
	if (path && attachable(path) &&
	    asprintf(&line, "%s" ATTACHMENT_MARK "%s]]\n",
		     text[0] && text[strlen(text) - 1] != '\n' ? "\n" : "", path) < 0) {
		line = NULL;
		x->failed = true;
	}
	if (text[0] || line) {
		xw_start(x, "system-out");
		xw_text(x, text); /* defused by the junit writer */
		if (line)
			xw_text_attachment(x, line);
		xw_end(x);
	}
	free(line);
	free(path);
}

char *report_junit_attached_dir(const char *junit)
{
	const char *at = strstr(junit, ATTACHMENT_MARK);
	const char *end = at ? strstr(at, "]]") : NULL;
	if (!end)
		return NULL;
	at += strlen(ATTACHMENT_MARK);
	const char *slash = memrchr(at, '/', (size_t)(end - at));
	return slash && slash > at ? strndup(at, (size_t)(slash - at)) : NULL;
}
