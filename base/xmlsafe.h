/* SPDX-License-Identifier: Apache-2.0 */
/* xmlsafe.h - reading and parsing XML that may be hostile, in one place.
 *
 * Both XML readers of rtconform (the requirements loader and the junit.xml
 * reader behind `rtconform report`) go through here, so they share one set
 * of rules (the file itself is read with base/safeopen.h): a parser
 * context per parse, XML_PARSE_NONET (plus NO_XXE where libxml2 has it),
 * never NOENT, DTDLOAD, HUGE or XINCLUDE, and a stop at <!DOCTYPE before a
 * single entity or DTD declaration is read.
 */
#ifndef RTC_XMLSAFE_H
#define RTC_XMLSAFE_H

#include <stddef.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

/* libxml2 2.12 made the error argument const; one handler type for both. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *rtc_xml_error;
#else
typedef xmlErrorPtr rtc_xml_error;
#endif

struct xmlsafe_opts {
	const char *encoding;  /* forced encoding, or NULL to detect */
	int extra_options;     /* ORed into the safe options (e.g. IGNORE_ENC) */
	/* Parse errors, in order, until a DOCTYPE stop (after it only echoes
	 * of the stop would come). May be NULL. */
	void (*on_error)(void *arg, rtc_xml_error err);
	void *arg;
	/* Replaces the tree builder's startElementNs when set (it must call
	 * xmlSAX2StartElementNs itself); its data argument is the context. */
	startElementNsSAX2Func start_element;
};

/* Parse buf safely. Returns the document, or NULL when it is not
 * well-formed or has a DOCTYPE; *doctype_line is then the line of the
 * "<!DOCTYPE" (> 0), else 0. */
xmlDocPtr xmlsafe_parse(const unsigned char *buf, size_t len, const char *name,
			const struct xmlsafe_opts *o, long *doctype_line);

#endif
