/* SPDX-License-Identifier: Apache-2.0 */
/* loader.c - see loader.h. Reads requirements files; the bytes go through
 * base/xmlsafe.c, which the junit.xml reader of reports/ shares.
 *
 * Order of checks, each stage only running when the previous one passed:
 *   1. bytes: size cap, empty, UTF-16, NUL bytes, UTF-8 (before libxml2 sees
 *      anything, so hostile or accidental binary input gets a plain message);
 *   2. well-formedness, with the parser stopped at a DOCTYPE;
 *   3. no entity references, no XInclude, right root namespace;
 *   4. the embedded XSD (structure);
 *   5. the model is built and its values checked, all problems reported
 *      (loader_model.c).
 * This file holds stages 1 to 4 and the entry points.
 */
#include "requirements/loader.h"
#include "requirements/loader_model.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlversion.h>

#include "base/safeopen.h"
#include "base/sha256.h"
#include "base/utf8.h"
#include "base/xmlsafe.h"

#define MAX_FILE_BYTES (16u * 1024u * 1024u)
/* After the first few, libxml2's errors are mostly echoes of the first. */
#define MAX_XML_ERRORS 20

/* The compiled schema: the only mutable file-scope state. It is built from
 * constant data, read-only once built, and freed by req_loader_cleanup(). */
static xmlSchemaPtr schema_cache;

/* ---- small helpers ---------------------------------------------------- */

/* libxml2 keeps an element's line in an unsigned short, stuck at 65535 past
 * that; on_start_element() then leaves the real line in the node's
 * application pointer. */
#define LINE_CAP 65535

long loader_line_of(const xmlNode *n)
{
	long line = xmlGetLineNo(n);
	if (line >= LINE_CAP && n->type == XML_ELEMENT_NODE && n->_private)
		line = (long)(intptr_t)n->_private;
	return line;
}

/* libxml2 messages end in a newline, some span lines, and schema messages
 * spell every element {urn:rtconform:requirements:1}name. Users wrote
 * <limit>, so that is what they read. */
static void tidy_message(const char *in, char *out, size_t len)
{
	static const char nsq[] = "{" RTC_NS "}";
	size_t o = 0;

	if (!in)
		in = "(no message)";
	while (*in && loader_is_xml_space(*in))
		in++;
	while (*in && o + 1 < len) {
		if (strncmp(in, nsq, sizeof nsq - 1) == 0) {
			in += sizeof nsq - 1;
			continue;
		}
		char c = *in++;
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (c == ' ' && o > 0 && out[o - 1] == ' ')
			continue;
		out[o++] = c;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
	/* Advice to pass a parser option users cannot pass; the limit stays. */
	char *huge = strstr(out, " use XML_PARSE_HUGE option");
	if (huge)
		*huge = '\0';
}

static long line_of_offset(const unsigned char *buf, size_t off)
{
	long line = 1;
	for (size_t i = 0; i < off; i++)
		if (buf[i] == '\n')
			line++;
	return line;
}

/* ---- error collection ------------------------------------------------- */

struct xml_errors {
	const char *file;         /* name used in diagnostics */
	const char *prefix;       /* "not well-formed XML: " or "" */
	struct diag_list *diags;  /* the first MAX_XML_ERRORS go here */
	size_t count;             /* all of them */
	bool tree_nodes;          /* err->node is a node of the parsed tree */
};

static void record_error(struct xml_errors *xe, rtc_xml_error err)
{
	char msg[512];

	/* Warnings (e.g. a relative namespace URI) do not make a file invalid;
	 * whatever they point at is caught by a later, clearer check. */
	if (!err || err->level < XML_ERR_ERROR)
		return;
	if (++xe->count > MAX_XML_ERRORS)
		return;
	long line = err->line;
	if (xe->tree_nodes && err->node && line >= LINE_CAP) {
		const xmlNode *n = err->node;
		if (n->type == XML_ATTRIBUTE_NODE && n->parent)
			n = n->parent;
		line = loader_line_of(n);
	}
	tidy_message(err->message, msg, sizeof msg);
	diag_add(xe->diags, xe->file, line, "%s%s", xe->prefix, msg);
}

/* Parse and schema errors alike: data is the xml_errors. */
static void on_xml_error(void *data, rtc_xml_error err)
{
	record_error(data, err);
}

/* The default tree builder, plus the real line number for elements past
 * line 65535 (see loader_line_of). */
static void on_start_element(void *data, const xmlChar *localname, const xmlChar *prefix,
			     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
			     int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	xmlParserCtxtPtr ctxt = data;

	xmlSAX2StartElementNs(ctxt, localname, prefix, uri, nb_namespaces, namespaces,
			      nb_attributes, nb_defaulted, attributes);
	if (ctxt->input && ctxt->input->line >= LINE_CAP && ctxt->node &&
	    ctxt->node->type == XML_ELEMENT_NODE &&
	    xmlStrEqual(ctxt->node->name, localname) && !ctxt->node->_private)
		ctxt->node->_private = (void *)(intptr_t)ctxt->input->line;
}

static void note_dropped(const struct xml_errors *xe)
{
	if (xe->count > MAX_XML_ERRORS)
		diag_add(xe->diags, xe->file, 0, "%zu more errors not shown",
			 xe->count - MAX_XML_ERRORS);
}

/* ---- stage 1 and 2: bytes and well-formedness ------------------------- */

static bool check_bytes(const unsigned char *buf, size_t len, const char *file,
			struct diag_list *diags)
{
	size_t i, start = 0;

	if (len > MAX_FILE_BYTES) {
		diag_add(diags, file, 0, "too large (%zu bytes, limit 16 MiB)", len);
		return false;
	}
	if (len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF)
		start = 3;
	for (i = start; i < len && loader_is_xml_space((char)buf[i]); i++)
		;
	if (i == len) {
		diag_add(diags, file, 0, "empty file (expected a <requirements> document)");
		return false;
	}
	if (len >= 2 && ((buf[0] == 0xFF && buf[1] == 0xFE) || (buf[0] == 0xFE && buf[1] == 0xFF))) {
		diag_add(diags, file, 0,
			 "UTF-16 text; requirements files must be UTF-8 (save the file as UTF-8)");
		return false;
	}
	const unsigned char *nul = memchr(buf, 0, len);
	if (nul) {
		size_t off = (size_t)(nul - buf);
		diag_add(diags, file, line_of_offset(buf, off),
			 "NUL byte at offset %zu: binary data, not an XML text file", off);
		return false;
	}
	size_t bad = utf8_invalid_at(buf, len);
	if (bad < len) {
		size_t col = bad;
		while (col > 0 && buf[col - 1] != '\n')
			col--;
		diag_add(diags, file, line_of_offset(buf, bad),
			 "invalid UTF-8 (byte 0x%02X at column %zu); requirements files must be UTF-8",
			 buf[bad], bad - col + 1);
		return false;
	}
	return true;
}

static xmlDocPtr parse_xml(const unsigned char *buf, size_t len, const char *file,
			   struct diag_list *diags)
{
	struct xml_errors xe = { .file = file, .prefix = "not well-formed XML: ", .diags = diags };
	xmlDocPtr doc;

	/* A UTF-8 byte order mark is dropped here: the encoding is forced to
	 * UTF-8 below, and libxml2 only skips a BOM it detected itself. */
	if (len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) {
		buf += 3;
		len -= 3;
	}
	/* IGNORE_ENC: the bytes were already checked to be UTF-8. */
	const struct xmlsafe_opts o = { .encoding = "UTF-8", .extra_options = XML_PARSE_IGNORE_ENC,
					.on_error = on_xml_error, .arg = &xe,
					.start_element = on_start_element };
	long doctype_line;
	doc = xmlsafe_parse(buf, len, file, &o, &doctype_line);
	if (doctype_line > 0) {
		diag_add(diags, file, doctype_line,
			 "DOCTYPE declarations are not allowed (no DTDs or entities in requirements files)");
	} else if (!doc || xe.count > 0) {
		if (xe.count == 0)
			diag_add(diags, file, 0, "not well-formed XML");
		note_dropped(&xe);
		xmlFreeDoc(doc);
		doc = NULL;
	}
	return doc;
}

/* ---- stage 3: what the parser allowed but we do not ------------------- */

static bool is_xinclude_ns(const xmlNs *ns)
{
	return ns && ns->href &&
	       (strcmp((const char *)ns->href, "http://www.w3.org/2001/XInclude") == 0 ||
		strcmp((const char *)ns->href, "http://www.w3.org/2003/XInclude") == 0);
}

static void check_nodes(xmlNodePtr n, const char *file, struct diag_list *diags)
{
	for (; n; n = n->next) {
		if (n->type == XML_ENTITY_REF_NODE || n->type == XML_ENTITY_NODE) {
			diag_add(diags, file, loader_line_of(n),
				 "entity reference &%s; is not allowed (no DTDs or entities in requirements files)",
				 n->name ? (const char *)n->name : "");
			continue;
		}
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (is_xinclude_ns(n->ns)) {
			diag_add(diags, file, loader_line_of(n),
				 "XInclude (<%s%s%s>) is not allowed in requirements files; nothing is included",
				 n->ns->prefix ? (const char *)n->ns->prefix : "",
				 n->ns->prefix ? ":" : "", (const char *)n->name);
			continue;
		}
		check_nodes(n->children, file, diags);
	}
}

static bool check_root(xmlDocPtr doc, const char *file, struct diag_list *diags)
{
	xmlNodePtr root = xmlDocGetRootElement(doc);
	size_t n0 = diags->n;

	if (!root) {
		diag_add(diags, file, 0, "no root element (expected <requirements xmlns=\"" RTC_NS "\">)");
		return false;
	}
	check_nodes(root, file, diags);
	if (diags->n > n0)
		return false;
	/* The schema would say "No matching global declaration available for
	 * the validation root", which does not tell anyone what to write. */
	if (strcmp((const char *)root->name, "requirements") != 0) {
		diag_add(diags, file, loader_line_of(root),
			 "root element is <%s>, expected <requirements xmlns=\"" RTC_NS "\">",
			 (const char *)root->name);
		return false;
	}
	if (!root->ns || !root->ns->href) {
		diag_add(diags, file, loader_line_of(root),
			 "<requirements> has no namespace; write <requirements xmlns=\"" RTC_NS "\" ...>");
		return false;
	}
	if (strcmp((const char *)root->ns->href, RTC_NS) != 0) {
		diag_add(diags, file, loader_line_of(root),
			 "wrong namespace '%s' for <requirements> (expected xmlns=\"" RTC_NS "\")",
			 (const char *)root->ns->href);
		return false;
	}
	return true;
}

/* ---- stage 4: schema -------------------------------------------------- */

static xmlSchemaPtr get_schema(struct diag_list *diags)
{
	struct xml_errors xe = { .file = "<built-in schema>", .prefix = "", .diags = diags };
	xmlSchemaParserCtxtPtr pctxt;

	if (schema_cache)
		return schema_cache;
	pctxt = xmlSchemaNewMemParserCtxt(rtc_schema_xsd, (int)rtc_schema_xsd_len);
	if (pctxt) {
		xmlSchemaSetParserStructuredErrors(pctxt, on_xml_error, &xe);
		schema_cache = xmlSchemaParse(pctxt);
		xmlSchemaFreeParserCtxt(pctxt);
	}
	if (!schema_cache) {
		diag_add(diags, "<built-in schema>", 0,
			 "internal error: the embedded requirements schema does not compile");
		note_dropped(&xe);
	}
	return schema_cache;
}

static bool validate_schema(xmlDocPtr doc, const char *file, struct diag_list *diags)
{
	struct xml_errors xe = { .file = file, .prefix = "", .diags = diags, .tree_nodes = true };
	xmlSchemaPtr schema = get_schema(diags);
	xmlSchemaValidCtxtPtr vctxt;
	int rc;

	if (!schema)
		return false;
	vctxt = xmlSchemaNewValidCtxt(schema);
	if (!vctxt) {
		diag_add(diags, file, 0, "internal error: cannot create a schema validation context");
		return false;
	}
	xmlSchemaSetValidStructuredErrors(vctxt, on_xml_error, &xe);
	rc = xmlSchemaValidateDoc(vctxt, doc);
	xmlSchemaFreeValidCtxt(vctxt);
	if (rc == 0)
		return true;
	if (rc > 0) {
		if (xe.count == 0)
			diag_add(diags, file, 0, "does not match the requirements schema");
	} else {
		diag_add(diags, file, 0, "internal error while validating against the schema (libxml2 code %d)", rc);
	}
	note_dropped(&xe);
	return false;
}

/* ---- entry points ----------------------------------------------------- */

static struct req_file *load_buffer(const unsigned char *buf, size_t len, const char *file,
				    struct diag_list *diags)
{
	size_t n0 = diags->n;
	struct req_file *f = NULL;
	xmlDocPtr doc;

	if (!check_bytes(buf, len, file, diags))
		return NULL;
	xmlInitParser(); /* idempotent; callers that skipped req_loader_init */
	doc = parse_xml(buf, len, file, diags);
	if (!doc)
		return NULL;
	if (check_root(doc, file, diags) && validate_schema(doc, file, diags))
		f = loader_build(doc, file, diags);
	xmlFreeDoc(doc);
	if (f && diags->n > n0) {
		req_file_free(f);
		f = NULL;
	}
	if (f)
		sha256(buf, len, f->sha256);
	return f;
}

/* The file's bytes (safeopen_read: a regular file, not through a link),
 * or NULL with a diagnostic saying why. */
static unsigned char *read_all(const char *path, const char *file, size_t *lenp,
			       struct diag_list *diags)
{
	char *buf, err[PATH_MAX + 300];
	int rc = safeopen_read(path, MAX_FILE_BYTES, "requirements file", &buf, lenp, err,
			       sizeof err);
	if (rc == 0)
		return (unsigned char *)buf;
	const char *why = safeopen_why(err, path);
	if (rc == -EFBIG && *lenp)
		diag_add(diags, file, 0, "too large (%zu bytes, limit 16 MiB)", *lenp);
	else if (rc == -EFBIG)
		diag_add(diags, file, 0, "too large (more than %u bytes, limit 16 MiB)",
			 MAX_FILE_BYTES);
	else if (rc == -EISDIR)
		diag_add(diags, file, 0, "is a directory, not a requirements file");
	else if (rc == -ENODEV || rc == -ELOOP)
		diag_add(diags, file, 0, "is %s; give the path of a requirements file", why);
	else if (rc == -ENOMEM)
		diag_add(diags, file, 0, "out of memory reading the file");
	else
		diag_add(diags, file, 0, "cannot open or read: %s", strerror(-rc));
	return NULL;
}

struct req_file *req_load_file(const char *path, const char *display,
			       struct diag_list *diags)
{
	const char *file = display ? display : path;
	size_t len = 0;
	unsigned char *buf = read_all(path, file, &len, diags);
	struct req_file *f;

	if (!buf)
		return NULL;
	f = load_buffer(buf, len, file, diags);
	free(buf);
	return f;
}

struct req_file *req_load_memory(const char *buf, size_t len, const char *display,
				 struct diag_list *diags)
{
	return load_buffer((const unsigned char *)buf, len,
			   display ? display : "<memory>", diags);
}

void req_loader_init(void)
{
	LIBXML_TEST_VERSION
	xmlInitParser();
}

void req_loader_cleanup(void)
{
	if (schema_cache) {
		xmlSchemaFree(schema_cache);
		schema_cache = NULL;
	}
	xmlCleanupParser();
}
