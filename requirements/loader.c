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
 *   5. the model is built and its values checked, all problems reported.
 */
#include "requirements/loader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sched.h>
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

#include "base/sha256.h"
#include "base/xmlsafe.h"

#define RTC_NS "urn:rtconform:requirements:1"
#define MAX_FILE_BYTES (16u * 1024u * 1024u)
/* After the first few, libxml2's errors are mostly echoes of the first. */
#define MAX_XML_ERRORS 20
#define ERRLEN 256

/* The compiled schema: the only mutable file-scope state. It is built from
 * constant data, read-only once built, and freed by req_loader_cleanup(). */
static xmlSchemaPtr schema_cache;

/* ---- small helpers ---------------------------------------------------- */

/* Like diag_add: a failed small allocation leaves nothing sane to report. */
static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		fputs("rtconform: out of memory loading requirements\n", stderr);
		abort();
	}
	return d;
}

static bool is_xml_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* libxml2 keeps an element's line in an unsigned short, stuck at 65535 past
 * that; on_start_element() then leaves the real line in the node's
 * application pointer. */
#define LINE_CAP 65535

static long line_of(const xmlNode *n)
{
	long line = xmlGetLineNo(n);
	if (line >= LINE_CAP && n->type == XML_ELEMENT_NODE && n->_private)
		line = (long)(intptr_t)n->_private;
	return line;
}

/* Copy with leading and trailing XML whitespace removed; with `collapse`,
 * inner runs become one space (titles written over several lines). */
static char *tidy_copy(const char *s, bool collapse)
{
	size_t n = strlen(s);
	char *d = xstrdup(s), *o = d;
	const char *p = s, *end = s + n;

	while (p < end && is_xml_space(*p))
		p++;
	while (end > p && is_xml_space(end[-1]))
		end--;
	for (; p < end; p++) {
		if (collapse && is_xml_space(*p)) {
			if (o > d && o[-1] == ' ')
				continue;
			*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return d;
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
	while (*in && is_xml_space(*in))
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

/* Offset of the first byte that is not part of well-formed UTF-8 (RFC 3629:
 * no overlongs, no surrogates, nothing past U+10FFFF), or len. */
static size_t utf8_invalid_at(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		unsigned char lo = 0x80, hi = 0xBF;
		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xC2 && c <= 0xDF) {
			n = 1;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 2;
			if (c == 0xE0)
				lo = 0xA0;
			else if (c == 0xED)
				hi = 0x9F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 3;
			if (c == 0xF0)
				lo = 0x90;
			else if (c == 0xF4)
				hi = 0x8F;
		} else {
			return i;
		}
		if (n >= len - i) /* truncated at the end */
			return i;
		if (s[i + 1] < lo || s[i + 1] > hi)
			return i;
		for (size_t k = 2; k <= n; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return i;
		i += n + 1;
	}
	return len;
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
		line = line_of(n);
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
 * line 65535 (see line_of). */
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
	for (i = start; i < len && is_xml_space((char)buf[i]); i++)
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
			diag_add(diags, file, line_of(n),
				 "entity reference &%s; is not allowed (no DTDs or entities in requirements files)",
				 n->name ? (const char *)n->name : "");
			continue;
		}
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (is_xinclude_ns(n->ns)) {
			diag_add(diags, file, line_of(n),
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
		diag_add(diags, file, line_of(root),
			 "root element is <%s>, expected <requirements xmlns=\"" RTC_NS "\">",
			 (const char *)root->name);
		return false;
	}
	if (!root->ns || !root->ns->href) {
		diag_add(diags, file, line_of(root),
			 "<requirements> has no namespace; write <requirements xmlns=\"" RTC_NS "\" ...>");
		return false;
	}
	if (strcmp((const char *)root->ns->href, RTC_NS) != 0) {
		diag_add(diags, file, line_of(root),
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

/* ---- stage 5: the model ----------------------------------------------- */

struct builder {
	const char *file;
	struct diag_list *diags;
};

/* Effective run settings; `bad` records which came from an invalid attribute
 * so the percentile check does not pile a second error on the first. */
struct run_cfg {
	uint64_t iterations, runs, warmup, timeout_ns;
	uint64_t duration_ns; /* 0: by count */
	long duration_line;
	bool bad;
};

static bool is_el(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
	       strcmp((const char *)n->ns->href, RTC_NS) == 0 &&
	       strcmp((const char *)n->name, name) == 0;
}

/* Attribute value, trimmed, malloc'd; NULL when absent. */
static char *attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
	if (!v)
		return NULL;
	char *d = tidy_copy((const char *)v, false);
	xmlFree(v);
	return d;
}

static char *text(xmlNodePtr n, bool collapse)
{
	xmlChar *v = xmlNodeGetContent(n);
	char *d = tidy_copy(v ? (const char *)v : "", collapse);
	xmlFree(v);
	return d;
}

/* A count attribute: absent leaves *out alone. warmup may be 0. */
static void count_attr(struct builder *b, xmlNodePtr n, const char *name, uint64_t max,
		       bool allow_zero, uint64_t *out, bool *bad)
{
	char err[ERRLEN];
	char *v = attr(n, name);
	uint64_t x;

	if (!v)
		return;
	if (count_parse_range(v, allow_zero ? 0 : 1, max, &x, err, sizeof err) == 0) {
		*out = x;
	} else {
		diag_add(b->diags, b->file, line_of(n), "%s=\"%s\": %s", name, v, err);
		*bad = true;
	}
	free(v);
}

/* runs= and duration= are one setting, how long a requirement runs: the
 * element that gives either replaces what an outer one gave; one element
 * may not give both. */
static void run_length_attrs(struct builder *b, xmlNodePtr n, struct run_cfg *cfg)
{
	char err[ERRLEN];
	char *runs = attr(n, "runs"), *dur = attr(n, "duration");
	if (runs && dur) {
		diag_add(b->diags, b->file, line_of(n),
			 "runs=\"%s\" and duration=\"%s\": give one, not both (a run by time "
			 "does runs of `iterations` samples until the duration is up)", runs, dur);
		cfg->bad = true;
	} else if (runs) {
		count_attr(b, n, "runs", RTC_MAX_RUNS, false, &cfg->runs, &cfg->bad);
		cfg->duration_ns = 0;
	} else if (dur) {
		uint64_t ns;
		if (run_duration_parse(dur, &ns, err, sizeof err) == 0) {
			cfg->duration_ns = ns;
			cfg->duration_line = line_of(n);
		} else {
			diag_add(b->diags, b->file, line_of(n), "duration=\"%s\": %s", dur, err);
			cfg->bad = true;
		}
	}
	free(runs);
	free(dur);
}

static void run_attrs(struct builder *b, xmlNodePtr n, struct run_cfg *cfg)
{
	char err[ERRLEN];
	char *v;

	count_attr(b, n, "iterations", REQ_MAX_ITERATIONS, false, &cfg->iterations, &cfg->bad);
	count_attr(b, n, "warmup", REQ_MAX_ITERATIONS, true, &cfg->warmup, &cfg->bad);
	run_length_attrs(b, n, cfg);
	v = attr(n, "timeout");
	if (v) {
		uint64_t ns;
		if (duration_parse_ns(v, false, &ns, err, sizeof err) == 0)
			cfg->timeout_ns = ns;
		else
			diag_add(b->diags, b->file, line_of(n), "timeout=\"%s\": %s", v, err);
		free(v);
	}
}

static struct req_load *load_el(xmlNodePtr n)
{
	struct req_load *l = calloc(1, sizeof *l);
	if (!l) {
		fputs("rtconform: out of memory loading requirements\n", stderr);
		abort();
	}
	l->tool = attr(n, "tool");
	if (!l->tool)
		l->tool = xstrdup("");
	l->args = attr(n, "args");
	l->line = line_of(n);
	return l;
}

static void probe_el(struct builder *b, xmlNodePtr n, struct requirement *r)
{
	r->probe = attr(n, "name");
	if (!r->probe)
		r->probe = xstrdup("");
	r->probe_line = line_of(n);
	for (xmlNodePtr c = n->children; c; c = c->next) {
		if (!is_el(c, "param"))
			continue;
		long line = line_of(c);
		if (r->nparams == REQ_MAX_PARAMS) { /* the schema caps it; be sure */
			diag_add(b->diags, b->file, line, "more than %d parameters", REQ_MAX_PARAMS);
			break;
		}
		struct req_param *p = &r->params[r->nparams];
		p->name = attr(c, "name");
		if (!p->name)
			p->name = xstrdup("");
		p->value = text(c, false);
		p->line = line;
		for (size_t i = 0; i < r->nparams; i++)
			if (strcmp(r->params[i].name, p->name) == 0) {
				diag_add(b->diags, b->file, line,
					 "duplicate parameter '%s' (first at line %ld)",
					 p->name, r->params[i].line);
				break;
			}
		r->nparams++;
	}
}

/* Strict decimal integer, optional leading '-'; false when not one or when
 * it does not fit in an int (callers then say "out of range"). */
static bool parse_int(const char *s, int *out, bool *toolarge)
{
	bool neg = false;
	long long v = 0;

	*toolarge = false;
	if (*s == '-') {
		neg = true;
		s++;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v <= 1000000000LL)
			v = v * 10 + (*s - '0');
		else
			*toolarge = true;
	}
	if (v > 1000000000LL)
		*toolarge = true;
	*out = (int)(neg ? -v : v);
	return true;
}

int req_policy_parse(const char *name, enum sched_policy *out, char *err, size_t len)
{
	static const enum sched_policy all[] = { POLICY_OTHER, POLICY_FIFO, POLICY_RR };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (strcmp(name, policy_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	snprintf(err, len, "unknown scheduling policy '%s' (expected other, fifo or rr)", name);
	return -1;
}

int req_priority_parse(const char *text, struct requirement *r, char *err, size_t len)
{
	int v;
	bool big;

	if (r->policy == POLICY_OTHER) {
		r->priority = 0;
		if (!text || (parse_int(text, &v, &big) && !big && v == 0))
			return 0;
		snprintf(err, len, "priority %s is not allowed for other (SCHED_OTHER has no "
			 "priority levels: leave it out or write 0)", text);
		return -1;
	}
	int sp = req_sched_policy(r->policy);
	int lo = sched_get_priority_min(sp), hi = sched_get_priority_max(sp);
	const char *pn = policy_name(r->policy);
	if (lo < 0 || hi < 0) { /* Linux always answers; POSIX says >= 32 levels */
		lo = 1;
		hi = 99;
	}
	if (!text) {
		snprintf(err, len, "policy %s needs a priority (expected %d..%d or max)", pn, lo, hi);
	} else if (strcmp(text, "max") == 0) {
		r->priority_max = true;
		r->priority = hi;
		return 0;
	} else if (!parse_int(text, &v, &big)) {
		snprintf(err, len, "priority '%s' is not a number (expected %d..%d or max)", text,
			 lo, hi);
	} else if (big || v < lo || v > hi) {
		snprintf(err, len, "priority %s is out of range for %s (expected %d..%d or max)",
			 text, pn, lo, hi);
	} else {
		r->priority = v;
		return 0;
	}
	return -1;
}

static void sched_el(struct builder *b, xmlNodePtr n, struct requirement *r)
{
	long line = line_of(n);
	char *policy = attr(n, "policy");
	char *prio = attr(n, "priority");
	char *cpu = attr(n, "cpu");
	char err[ERRLEN];

	r->sched_line = line;
	/* The schema requires policy=; a missing one would mean other. */
	if (req_policy_parse(policy ? policy : "other", &r->policy, err, sizeof err) != 0 ||
	    req_priority_parse(prio, r, err, sizeof err) != 0)
		diag_add(b->diags, b->file, line, "%s", err);

	if (cpu) {
		int v;
		bool big;
		if (!parse_int(cpu, &v, &big) || big || v < 0 || v >= CPU_SETSIZE)
			diag_add(b->diags, b->file, line,
				 "cpu '%s' is not a CPU number (expected 0..%d)", cpu, CPU_SETSIZE - 1);
		else
			r->cpu = v;
	}
	free(policy);
	free(prio);
	free(cpu);
}

static void limit_el(struct builder *b, xmlNodePtr n, struct requirement *r,
		     const struct run_cfg *cfg)
{
	long line = line_of(n);
	char err[ERRLEN];
	bool stat_ok = false;

	if (r->nlimits == REQ_MAX_LIMITS) { /* the schema caps it; be sure */
		diag_add(b->diags, b->file, line, "more than %d limits", REQ_MAX_LIMITS);
		return;
	}
	struct req_limit *l = &r->limits[r->nlimits++];
	l->line = line;
	l->metric = attr(n, "metric");
	l->stat_text = attr(n, "statistic");
	if (!l->stat_text)
		l->stat_text = xstrdup("");
	l->max_text = attr(n, "max");
	l->min_text = attr(n, "min");

	if (stat_parse(l->stat_text, &l->stat) == 0)
		stat_ok = true;
	else
		diag_add(b->diags, b->file, line, "unknown statistic '%s' (expected %s)",
			 l->stat_text, STAT_LIST_ALL);

	if (!l->max_text && !l->min_text)
		diag_add(b->diags, b->file, line,
			 "limit on %s needs max= or min= (or both)", l->stat_text);
	if (l->max_text) {
		if (bound_parse(l->max_text, &l->max, err, sizeof err) == 0)
			l->has_max = true;
		else
			diag_add(b->diags, b->file, line, "max=\"%s\": %s", l->max_text, err);
	}
	if (l->min_text) {
		if (bound_parse(l->min_text, &l->min, err, sizeof err) == 0)
			l->has_min = true;
		else
			diag_add(b->diags, b->file, line, "min=\"%s\": %s", l->min_text, err);
	}
	/* One limit is judged in one unit: a time against a cycle count would
	 * compare numbers of different kinds. A bare number is a count, which
	 * the metric's kind must agree with (the validator knows it). */
	if (l->has_max && l->has_min && l->max.unit != l->min.unit)
		diag_add(b->diags, b->file, line,
			 "min=\"%s\" and max=\"%s\" mix %s (give both in time units, both in "
			 "cycles or both without a unit, or write two limits)", l->min_text,
			 l->max_text, l->max.unit != QTY_COUNT && l->min.unit != QTY_COUNT
					      ? "a duration and a cycle count"
					      : "a number with a unit and one without");
	else if (l->has_max && l->has_min && l->min.value > l->max.value)
		diag_add(b->diags, b->file, line,
			 "min=\"%s\" is greater than max=\"%s\" (no value can pass)",
			 l->min_text, l->max_text);

	/* A run by time takes as many samples as fit: a statistic they are
	 * too few for is an error verdict at run time, not a validation error. */
	if (!stat_ok || cfg->bad || cfg->duration_ns)
		return;
	/* Counts are known from the file, so a statistic the run cannot give
	 * a meaningful value for is an error now, not a verdict later. */
	uint64_t samples = cfg->iterations * cfg->runs;
	uint64_t need = stat_min_samples(&l->stat);
	if (need > samples)
		diag_add(b->diags, b->file, line,
			 "%s needs at least %llu samples, this requirement takes %llu "
			 "(iterations x runs)", l->stat_text, (unsigned long long)need,
			 (unsigned long long)samples);
	if (l->stat.kind == STAT_RUNS_MEAN_STDDEV && cfg->runs < 2)
		diag_add(b->diags, b->file, line,
			 "%s needs at least 2 runs, this requirement has %llu",
			 l->stat_text, (unsigned long long)cfg->runs);
}

/* <trace metric="..." threshold="100us"/>: the threshold is a duration
 * (a cycle count would need the timebase, which only the run knows). */
static void trace_el(struct builder *b, xmlNodePtr n, struct requirement *r)
{
	char err[ERRLEN];
	struct req_trace *t = &r->trace;
	t->wanted = true;
	t->line = line_of(n);
	t->metric = attr(n, "metric");
	t->threshold_text = attr(n, "threshold");
	if (!t->threshold_text)
		return;
	uint64_t ns;
	if (duration_parse_ns(t->threshold_text, false, &ns, err, sizeof err) == 0) {
		t->has_threshold = true;
		t->threshold_ns = (double)ns;
	} else {
		diag_add(b->diags, b->file, t->line, "<trace> threshold=\"%s\": %s",
			 t->threshold_text, err);
	}
}

static void requirement_el(struct builder *b, xmlNodePtr n, struct requirement *r,
			   const struct run_cfg *defaults, struct req_load *file_load)
{
	struct run_cfg cfg = *defaults;
	xmlNodePtr c;

	r->line = line_of(n);
	r->id = attr(n, "id");
	if (!r->id)
		r->id = xstrdup("");
	r->policy = POLICY_OTHER;
	r->cpu = -1;
	r->load = file_load;
	r->load_owned = false;

	/* Document order, so diagnostics come out in line order; the schema
	 * puts <run> before the <limit>s that need its counts. */
	for (c = n->children; c; c = c->next) {
		if (is_el(c, "title")) {
			free(r->title);
			r->title = text(c, true);
		} else if (is_el(c, "source")) {
			free(r->source);
			r->source = text(c, true);
		} else if (is_el(c, "probe")) {
			probe_el(b, c, r);
		} else if (is_el(c, "sched")) {
			sched_el(b, c, r);
		} else if (is_el(c, "run")) {
			run_attrs(b, c, &cfg);
		} else if (is_el(c, "load")) {
			if (r->load_owned) /* schema allows one; be sure */
				continue;
			r->load = load_el(c);
			r->load_owned = true;
		} else if (is_el(c, "limit")) {
			limit_el(b, c, r, &cfg);
		} else if (is_el(c, "trace")) {
			trace_el(b, c, r);
		}
	}
	if (!r->probe) {
		r->probe = xstrdup("");
		r->probe_line = r->line;
	}
	r->iterations = cfg.iterations;
	r->runs = cfg.runs;
	r->warmup = cfg.warmup;
	r->timeout_ns = cfg.timeout_ns;
	r->duration_ns = cfg.duration_ns;
	r->duration_line = cfg.duration_line;
}

static struct req_file *build(xmlDocPtr doc, const char *file, struct diag_list *diags)
{
	struct builder b = { .file = file, .diags = diags };
	struct run_cfg defaults = {
		.iterations = REQ_DEFAULT_ITERATIONS,
		.runs = REQ_DEFAULT_RUNS,
		.warmup = REQ_DEFAULT_WARMUP,
		.timeout_ns = REQ_DEFAULT_TIMEOUT_NS,
	};
	xmlNodePtr root = xmlDocGetRootElement(doc), c;
	struct req_file *f = calloc(1, sizeof *f);
	size_t count = 0;

	if (!f) {
		diag_add(diags, file, 0, "out of memory");
		return NULL;
	}
	f->path = xstrdup(file);
	f->name = attr(root, "name");
	f->version = attr(root, "version");

	for (c = root->children; c; c = c->next) {
		if (is_el(c, "title")) {
			free(f->title);
			f->title = text(c, true);
		} else if (is_el(c, "defaults")) {
			/* A bad default is reported once, here; requirements then
			 * use the built-in value, and their sample checks are
			 * skipped rather than judged on a number nobody wrote. */
			run_attrs(&b, c, &defaults);
		} else if (is_el(c, "load")) {
			if (!f->load)
				f->load = load_el(c);
		} else if (is_el(c, "requirement")) {
			count++;
		}
	}

	f->reqs = calloc(count ? count : 1, sizeof *f->reqs);
	if (!f->reqs) {
		diag_add(diags, file, 0, "out of memory");
		req_file_free(f);
		return NULL;
	}
	for (c = root->children; c; c = c->next) {
		if (!is_el(c, "requirement"))
			continue;
		struct requirement *r = &f->reqs[f->nreqs++];
		requirement_el(&b, c, r, &defaults, f->load);
		for (size_t i = 0; i + 1 < f->nreqs; i++)
			if (strcmp(f->reqs[i].id, r->id) == 0) {
				diag_add(diags, file, r->line,
					 "duplicate requirement id '%s' (first at line %ld)",
					 r->id, f->reqs[i].line);
				break;
			}
	}
	return f;
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
		f = build(doc, file, diags);
	xmlFreeDoc(doc);
	if (f && diags->n > n0) {
		req_file_free(f);
		f = NULL;
	}
	if (f)
		sha256(buf, len, f->sha256);
	return f;
}

/* The file's bytes, or NULL with a diagnostic saying why. */
static unsigned char *read_all(const char *path, const char *file, size_t *lenp,
			       struct diag_list *diags)
{
	unsigned char *buf;
	int rc = xmlsafe_read_file(path, MAX_FILE_BYTES, &buf, lenp);
	if (rc == 0)
		return buf;
	if (rc == -EFBIG && *lenp)
		diag_add(diags, file, 0, "too large (%zu bytes, limit 16 MiB)", *lenp);
	else if (rc == -EFBIG)
		diag_add(diags, file, 0, "too large (more than %u bytes, limit 16 MiB)",
			 MAX_FILE_BYTES);
	else if (rc == -EISDIR)
		diag_add(diags, file, 0, "is a directory, not a requirements file");
	else if (rc == -ENODEV)
		diag_add(diags, file, 0, "is not a regular file (a FIFO, socket or device); "
			 "give the path of a requirements file");
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
