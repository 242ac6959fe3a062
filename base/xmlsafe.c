/* SPDX-License-Identifier: Apache-2.0 */
/* xmlsafe.c - see xmlsafe.h. */
#include "base/xmlsafe.h"

#include <string.h>

/* Never NOENT (entity substitution), DTDLOAD, HUGE (lifts the parser's
 * resource limits) or XINCLUDE. BIG_LINES keeps line numbers right past
 * 65535. */
static const int safe_options = XML_PARSE_NONET | XML_PARSE_BIG_LINES
#if LIBXML_VERSION >= 21300
				| XML_PARSE_NO_XXE
#endif
	;

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
