/* SPDX-License-Identifier: Apache-2.0 */
/* xmlsafe.c - see xmlsafe.h. */
#include "base/xmlsafe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Never NOENT (entity substitution), DTDLOAD, HUGE (lifts the parser's
 * resource limits) or XINCLUDE. BIG_LINES keeps line numbers right past
 * 65535. */
static const int safe_options = XML_PARSE_NONET | XML_PARSE_BIG_LINES
#if LIBXML_VERSION >= 21300
				| XML_PARSE_NO_XXE
#endif
	;

const char *xmlsafe_file_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "not a regular file (a directory)";
	case S_IFIFO:
		return "not a regular file (a FIFO)";
	case S_IFSOCK:
		return "not a regular file (a socket)";
	case S_IFCHR:
		return "not a regular file (a character device)";
	case S_IFBLK:
		return "not a regular file (a block device)";
	case S_IFLNK:
		return "not a regular file (a symbolic link)";
	default:
		return "not a regular file";
	}
}

int xmlsafe_read_file(const char *path, size_t max, unsigned char **bufp, size_t *lenp)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, first = 65536;
	struct stat st;
	int fd, rc = 0;

	*bufp = NULL;
	*lenp = 0;
	/* O_NONBLOCK: opening a FIFO that has no writer would block for good;
	 * it is refused below, like every file that is not a regular one. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = -ENODEV;
		goto fail;
	}
	if ((uint64_t)st.st_size > (uint64_t)max) {
		*lenp = (size_t)st.st_size;
		rc = -EFBIG;
		goto fail;
	}
	first = (size_t)st.st_size + 1; /* +1: reaching EOF takes one more read */
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : first;
			if (ncap > max + 1)
				ncap = max + 1;
			if (ncap <= len) { /* grew past max while being read */
				rc = -EFBIG;
				goto fail;
			}
			unsigned char *nb = realloc(buf, ncap + 1);
			if (!nb) {
				rc = -ENOMEM;
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			goto fail;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = 0;
	*bufp = buf;
	*lenp = len;
	return 0;
fail:
	close(fd);
	free(buf);
	return rc;
}

struct parse_state {
	const struct xmlsafe_opts *o;
	long doctype_line;
};

/* The parser calls this with its context as data. */
static void on_error(void *data, rtc_xml_error err)
{
	xmlParserCtxtPtr ctxt = data;
	struct parse_state *ps = ctxt ? ctxt->_private : NULL;
	/* Errors after a DOCTYPE stop are the parser noticing it was stopped. */
	if (!ps || ps->doctype_line > 0 || !ps->o->on_error)
		return;
	ps->o->on_error(ps->o->arg, err);
}

/* SAX internalSubset fires at <!DOCTYPE ...> before a single declaration of
 * the internal subset is read. Stopping here means entity definitions (XXE,
 * billion laughs) and external DTDs are never even parsed. */
static void on_doctype(void *data, const xmlChar *name, const xmlChar *public_id,
		       const xmlChar *system_id)
{
	xmlParserCtxtPtr ctxt = data;
	struct parse_state *ps = ctxt->_private;
	xmlParserInputPtr in = ctxt->input;
	long line = in && in->line > 0 ? in->line : 1;

	(void)name;
	(void)public_id;
	(void)system_id;
	/* The parser is past the external id by now, which may be lines later;
	 * point at the "<!DOCTYPE" itself. */
	if (in && in->base && in->cur) {
		for (const xmlChar *p = in->cur; p > in->base;) {
			p--;
			if (*p == '\n')
				line--;
			if (in->cur - p >= 9 && memcmp(p, "<!DOCTYPE", 9) == 0)
				break;
		}
		if (line < 1)
			line = 1;
	}
	ps->doctype_line = line;
	xmlStopParser(ctxt);
}

xmlDocPtr xmlsafe_parse(const unsigned char *buf, size_t len, const char *name,
			const struct xmlsafe_opts *o, long *doctype_line)
{
	struct parse_state ps = { .o = o };
	*doctype_line = 0;
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	if (!ctxt)
		return NULL;
	/* Each context owns its SAX handler table, so these overrides touch
	 * no one else's parsing. */
	ctxt->_private = &ps;
	ctxt->sax->serror = on_error;
	ctxt->sax->internalSubset = on_doctype;
	ctxt->sax->externalSubset = NULL;
	if (o->start_element)
		ctxt->sax->startElementNs = o->start_element;

	xmlDocPtr doc = xmlCtxtReadMemory(ctxt, (const char *)buf, (int)len, name, o->encoding,
					  safe_options | o->extra_options);
	if (ps.doctype_line > 0 || (doc && (doc->intSubset || doc->extSubset))) {
		*doctype_line = ps.doctype_line > 0 ? ps.doctype_line : 1;
		xmlFreeDoc(doc);
		doc = NULL;
	} else if (doc && !ctxt->wellFormed) {
		xmlFreeDoc(doc);
		doc = NULL;
	}
	xmlFreeParserCtxt(ctxt);
	return doc;
}
