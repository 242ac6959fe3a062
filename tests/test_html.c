/* SPDX-License-Identifier: Apache-2.0 */
/* test_html.c - report.html, and junit.xml never read back.
 *
 * On the synthetic run of report_fixture.h: the document is well-formed for
 * libxml2's HTML parser and as XML; one <svg> per metric of every
 * requirement; every verdict shows; nothing would be fetched from a network;
 * bins beyond a limit are marked, the others not; print CSS is there. A
 * junit.xml is written for CI: its readiness properties are there, and the
 * reader (and `rtconform report`) refuses it. (Re-rendering from
 * results.json, the exact archive, is test_json.c's.)
 */
#include "report_fixture.h"
#include "reports/link.h"
#include "reports/html_plot.h"
#include "reports/svg.h"
#include "reports/xmlw.h"

#include <ctype.h>
#include <math.h>
#include <sys/wait.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>

/* ---- parsing what we wrote --------------------------------------------- */

#if LIBXML_VERSION >= 21200
typedef const xmlError *test_xml_error;
#else
typedef xmlErrorPtr test_xml_error;
#endif

struct errs {
	int count;
	char first[300];
};

/* libxml2's HTML parser predates HTML5: it calls <svg>, <rect> and the rest
 * unknown tags. That is the only complaint allowed; any other error (a bad
 * nesting, a stray '<', a broken entity) fails the test. */
static void on_html_error(void *data, test_xml_error e)
{
	struct errs *er = data;
	if (!e || e->level < XML_ERR_ERROR || e->code == XML_HTML_UNKNOWN_TAG)
		return;
	if (!er->count++)
		snprintf(er->first, sizeof er->first, "line %d: %s", e->line,
			 e->message ? e->message : "?");
}

static htmlDocPtr parse_html(const char *html, size_t len)
{
	struct errs er = { 0 };
	htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
	ck_assert_ptr_nonnull(ctxt);
	xmlSetStructuredErrorFunc(&er, on_html_error);
	htmlDocPtr doc = htmlCtxtReadMemory(ctxt, html, (int)len, "report.html", "UTF-8",
					    HTML_PARSE_NONET);
	xmlSetStructuredErrorFunc(NULL, NULL);
	htmlFreeParserCtxt(ctxt);
	ck_assert_msg(doc != NULL, "report.html does not parse as HTML");
	ck_assert_msg(er.count == 0, "%d HTML parser errors, first %s", er.count, er.first);
	return doc;
}

/* Also well-formed XML: the writer's escaping is complete. */
static void assert_xml_wellformed(const char *html, size_t len)
{
	struct errs er = { 0 };
	xmlSetStructuredErrorFunc(&er, on_html_error);
	xmlDocPtr doc = xmlReadMemory(html, (int)len, "report.html", "UTF-8", XML_PARSE_NONET);
	xmlSetStructuredErrorFunc(NULL, NULL);
	ck_assert_msg(doc != NULL && er.count == 0, "report.html is not well-formed XML: %s",
		      er.first);
	xmlFreeDoc(doc);
}

static double xp_num(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	ck_assert_ptr_nonnull(ctx);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_msg(o != NULL, "bad xpath %s", expr);
	double v = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return v;
}

static xmlXPathObjectPtr xp_nodes(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	ck_assert_ptr_nonnull(ctx);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_msg(o != NULL, "bad xpath %s", expr);
	xmlXPathFreeContext(ctx);
	return o;
}

static char *render_run(const struct report_run *run, size_t *len)
{
	struct report_view v;
	ck_assert_int_eq(report_view_from_run(run, &v), 0);
	char *html = fx_render(&v, REPORT_HTML, len);
	report_view_free(&v);
	return html;
}

/* ---- the document ------------------------------------------------------ */

START_TEST(html_well_formed)
{
	struct fx *x = fx_new();
	size_t len;
	char *html = render_run(&x->run, &len);
	ck_assert_uint_gt(len, 1000);
	ck_assert(strncmp(html, "<!DOCTYPE html>\n<html lang=\"en\">", 31) == 0);
	htmlDocPtr doc = parse_html(html, len);
	assert_xml_wellformed(html, len);
	ck_assert_double_eq(xp_num(doc, "count(//head/meta[@charset='utf-8'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//head/style)"), 1);
	/* the verdict summary comes before the first requirement */
	ck_assert_double_eq(xp_num(doc, "count(//table[@class='summary']/following::div"
					"[@class='req'])"),
			    8); /* 6 requirements, readiness and the environment */
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='req']//table[@class='summary'])"), 0);
	xmlFreeDoc(doc);

	/* the run writes it atomically where it is told */
	char p[256];
	fx_write(x, REPORT_HTML, "report.html", p, sizeof p);
	size_t flen;
	char *file = tu_slurp(p, &flen);
	ck_assert_uint_eq(flen, len);
	ck_assert(memcmp(file, html, len) == 0);
	free(file);
	free(html);
	fx_free(x);
}
END_TEST

/* The duration metrics of a result: those with a histogram. */
static unsigned durations(const struct req_result *r)
{
	unsigned n = 0;
	for (unsigned i = 0; i < summary_nmetrics(r); i++)
		n += result_metric_c(r->res, i)->kind == METRIC_DURATION;
	return n;
}

START_TEST(html_one_svg_per_metric)
{
	struct fx *x = fx_new();
	size_t len;
	char *html = render_run(&x->run, &len);
	htmlDocPtr doc = parse_html(html, len);
	/* SEM-RT, SEM-OK, NOS and B-1 have two duration metrics each (and all
	 * but NOS three counts, in a table); TMR and SKP none */
	ck_assert_double_eq(xp_num(doc, "count(//svg[@class='hist'])"), 8);
	for (int f = 0; f < 2; f++)
		for (int i = 0; i < FX_MAXREQ; i++) {
			const struct req_result *r = &x->results[f][i];
			if (!r->req)
				continue;
			char e[200];
			snprintf(e, sizeof e, "count(//div[@id='r%d-%d']//svg[@class='hist'])", f + 1,
				 i + 1);
			ck_assert_msg(xp_num(doc, e) == durations(r), "%s: %g svgs, want %u",
				      r->req->id, xp_num(doc, e), durations(r));
			/* and each metric has its statistics table */
			snprintf(e, sizeof e, "count(//div[@id='r%d-%d']//table[@class='stats'])", f + 1,
				 i + 1);
			ck_assert(xp_num(doc, e) == durations(r));
			/* the counts in one table, a column each, a row per run
			 * and per statistic */
			snprintf(e, sizeof e, "count(//div[@id='r%d-%d']//table[@class='counts']/tr[1]/th)",
				 f + 1, i + 1);
			unsigned counts = summary_nmetrics(r) - durations(r);
			ck_assert_msg(xp_num(doc, e) == (counts ? counts + 1 : 0), "%s: %g headers",
				      r->req->id, xp_num(doc, e));
		}
	/* SEM-RT's page-faults: 0, 2, 4, 6 in its runs, total 12 */
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']//table[@class='counts']/tr)"),
			    1 + 4 + RV_NCSTATS);
	ck_assert_double_eq(xp_num(doc, "number(//div[@id='r1-1']//table[@class='counts']"
				    "/tr[5]/td[2])"), 6);
	ck_assert_double_eq(xp_num(doc, "number(//div[@id='r1-1']//table[@class='counts']"
				    "/tr[td[1]='total']/td[2])"), 12);
	/* a metric without samples says so instead of drawing nothing */
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-5']//svg/text[.='no samples'])"), 2);
	/* per-CPU series: a small histogram and a table row per CPU, under
	 * the first metric */
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r2-1']//table[@class='series']//tr)"), 3);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r2-1']//div[@class='cpus']"
				    "/svg[@class='hist cpu'])"), 2);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r2-1']//svg[@class='hist cpu']"
				    "[text[.='CPU 3']]/rect) > 0"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//svg[@class='hist cpu'])"), 2);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']//table[@class='series'])"), 0);
	/* the per-run table has a row per run plus its header */
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']//table[@class='runs']//tr)"), 5);
	/* each run's max beside its mean (issue 41): per-op's largest sample
	 * is 1990 + run units of 0.5 ns, so runs 1 and 4 differ */
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']//table[@class='runs']"
				    "/tr[1]/th[4][.='per-op max'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']//table[@class='runs']"
				    "/tr[5]/td[4][.='996.5 ns'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']//table[@class='runs']"
				    "/tr[2]/td[4][.='995 ns'])"), 1);
	xmlFreeDoc(doc);
	free(html);
	fx_free(x);
}
END_TEST

START_TEST(html_every_verdict)
{
	struct fx *x = fx_new();
	size_t len;
	char *html = render_run(&x->run, &len);
	htmlDocPtr doc = parse_html(html, len);
	static const char *const v[][2] = {
		{ "v v-pass", "PASS" }, { "v v-fail", "FAIL" },
		{ "v v-error", "ERROR" }, { "v v-skipped", "SKIP" },
	};
	for (size_t i = 0; i < 4; i++) {
		char e[200];
		snprintf(e, sizeof e, "count(//span[@class='%s' and .='%s'])", v[i][0], v[i][1]);
		ck_assert_msg(xp_num(doc, e) >= 1, "no %s badge", v[i][1]);
	}
	/* each requirement's heading carries its own verdict */
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']/h2/span[.='FAIL'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-3']/h2/span[.='ERROR'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-4']/h2/span[.='SKIP'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r2-1']/h2/span[.='PASS'])"), 1);
	/* the overall verdict first: an error outranks a failure (exit 3) */
	ck_assert_double_eq(xp_num(doc, "count(//body/*[2][@id='verdict' and "
					"contains(., 'exit status 3')])"), 1);
	/* the reason of an error, the failing limit, the environment, the command */
	ck_assert_ptr_nonnull(strstr(html, "worker timed out after 60 s"));
	ck_assert_ptr_nonnull(strstr(html, "max 996.5 ns &gt; 800 ns (n=4000)"));
	ck_assert_ptr_nonnull(strstr(html, "/usr/bin/stress-ng --cpu 1"));
	ck_assert_ptr_nonnull(strstr(html, "mechanism=sysv-sem, placement=same-cpu"));
	ck_assert_ptr_nonnull(strstr(html, "pinned to CPU 1"));
	ck_assert_ptr_nonnull(strstr(html, "rtconform run profiles/spy-memo.xml extra.xml"));
	ck_assert_double_eq(xp_num(doc, "count(//table[@class='env']//td[.='host.name'])"), 1);
	ck_assert_ptr_nonnull(strstr(html, "@media print"));
	xmlFreeDoc(doc);
	free(html);
	fx_free(x);
}
END_TEST

/* An href report.html may have: an anchor of the page ("#" and letters,
 * digits, '-'), or a file below the page's directory as report_href makes
 * it ("./", then unreserved bytes, '/' and %XX). */
static bool href_allowed(const char *v)
{
	if (v[0] == '#') {
		for (const char *p = v + 1; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '-')
				return false;
		return v[1] != 0;
	}
	if (strncmp(v, "./", 2) != 0 || !v[2])
		return false;
	for (const char *p = v + 2; *p; p++) {
		if (*p == '%' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2]))
			p += 2;
		else if (!isalnum((unsigned char)*p) && !strchr("-._~/", *p))
			return false;
	}
	return true;
}

static void assert_offline(xmlNodePtr n)
{
	static const char *const fetchers[] = { "script", "link", "img", "iframe", "object",
						"embed", "base", "audio", "video", "source",
						"image", "use", "foreignObject" };
	static const char *const fetch_attrs[] = { "src", "srcset", "action", "poster", "data",
						   "formaction", "background", "manifest" };
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (size_t i = 0; i < sizeof fetchers / sizeof fetchers[0]; i++)
			ck_assert_msg(strcasecmp((const char *)n->name, fetchers[i]) != 0,
				      "<%s> in report.html", n->name);
		for (xmlAttrPtr a = n->properties; a; a = a->next) {
			for (size_t i = 0; i < sizeof fetch_attrs / sizeof fetch_attrs[0]; i++)
				ck_assert_msg(strcasecmp((const char *)a->name, fetch_attrs[i]) != 0,
					      "%s= on <%s>", a->name, n->name);
			if (!strcasecmp((const char *)a->name, "href") ||
			    !strcasecmp((const char *)a->name, "xlink:href")) {
				xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
				ck_assert_msg(v && href_allowed((const char *)v),
					      "href='%s' is neither an anchor nor ./ and an encoded path", v);
				xmlFree(v);
			}
			if (!strcasecmp((const char *)a->name, "style")) {
				xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
				ck_assert(!strstr((const char *)v, "url("));
				xmlFree(v);
			}
		}
		if (!strcasecmp((const char *)n->name, "style")) {
			xmlChar *v = xmlNodeGetContent(n);
			ck_assert_msg(!strstr((const char *)v, "url(") &&
				      !strstr((const char *)v, "@import"),
				      "the CSS loads something");
			xmlFree(v);
		}
		assert_offline(n->children);
	}
}

START_TEST(html_nothing_from_the_network)
{
	struct fx *x = fx_new();
	/* Text that looks like markup must stay text. */
	x->reqs[0][0].title = (char *)"<script src=\"https://evil.example/x.js\"></script>"
				      "<img src=http://evil.example/p.png>";
	x->reqs[0][1].source = (char *)"<link rel=stylesheet href=https://evil.example/s.css>";
	fingerprint_add(&x->fp, "host.kernel.cmdline", "ds=nocloud;s=http://10.0.0.1/ \x01\xff");
	size_t len;
	char *html = render_run(&x->run, &len);
	htmlDocPtr doc = parse_html(html, len);
	assert_xml_wellformed(html, len);
	assert_offline(xmlDocGetRootElement(doc));
	/* no namespace or DTD URL either: the only "http" is the hostile text */
	ck_assert_ptr_null(strstr(html, "w3.org"));
	ck_assert_ptr_nonnull(strstr(html, "&lt;script src="));
	xmlFreeDoc(doc);
	free(html);
	fx_free(x);
}
END_TEST

/* x of the limit line labelled `label`, or NAN. */
static double line_x(xmlDocPtr doc, const char *svg, const char *label)
{
	char e[300];
	/* the label text follows its line */
	snprintf(e, sizeof e, "%s/text[.='%s']/preceding-sibling::line[1]/@x1", svg, label);
	xmlXPathObjectPtr o = xp_nodes(doc, e);
	double v = NAN;
	if (o->nodesetval && o->nodesetval->nodeNr == 1) {
		xmlChar *s = xmlNodeGetContent(o->nodesetval->nodeTab[0]);
		v = strtod((const char *)s, NULL);
		xmlFree(s);
	}
	xmlXPathFreeObject(o);
	return v;
}

/* The bars of `svg` (an XPath): every red one reaches right of x lx,
 * every other lies left of it, and there are both. */
static void assert_red_right_of(xmlDocPtr doc, const char *svg, double lx)
{
	char e[300];
	snprintf(e, sizeof e, "%s/rect", svg);
	xmlXPathObjectPtr o = xp_nodes(doc, e);
	ck_assert(o->nodesetval && o->nodesetval->nodeNr > 10);
	int beyond = 0, within = 0;
	for (int i = 0; i < o->nodesetval->nodeNr; i++) {
		xmlNodePtr n = o->nodesetval->nodeTab[i];
		xmlChar *cls = xmlGetProp(n, BAD_CAST "class");
		xmlChar *xs = xmlGetProp(n, BAD_CAST "x"), *ws = xmlGetProp(n, BAD_CAST "width");
		double rx = strtod((const char *)xs, NULL), rw = strtod((const char *)ws, NULL);
		if (!strcmp((const char *)cls, "beyond")) {
			beyond++;
			ck_assert_msg(rx + rw > lx - 0.01, "marked bar at %g..%g left of %g", rx,
				      rx + rw, lx);
		} else {
			ck_assert_str_eq((const char *)cls, "bar");
			within++;
			ck_assert_msg(rx < lx + 0.01, "unmarked bar at %g right of %g", rx, lx);
		}
		xmlFree(cls);
		xmlFree(xs);
		xmlFree(ws);
	}
	ck_assert_int_gt(beyond, 0);
	ck_assert_int_gt(within, 0);
	xmlXPathFreeObject(o);
}

START_TEST(html_limits_on_histogram)
{
	struct fx *x = fx_new();
	size_t len;
	char *html = render_run(&x->run, &len);
	htmlDocPtr doc = parse_html(html, len);
	const char *svg = "(//div[@id='r1-1']//svg)[1]";

	/* max <= 800 ns lies inside the data (500..996.5 ns): drawn as a line,
	 * red (not met); the mean limit (50 us) is 50x the data: marked off
	 * scale at the right edge. */
	double lx = line_x(doc, svg, "max \xe2\x89\xa4 800 ns");
	ck_assert_msg(isfinite(lx), "no line for max <= 800 ns");
	char e[300];
	snprintf(e, sizeof e, "count(%s/line[@class='lim'])", svg);
	ck_assert_double_eq(xp_num(doc, e), 1);
	snprintf(e, sizeof e, "count(%s/text[.='mean \xe2\x89\xa4 50 \xc2\xb5s \xe2\x86\x92'])", svg);
	ck_assert_double_eq(xp_num(doc, e), 1);

	/* every bar right of the line is marked, every bar left of it not */
	assert_red_right_of(doc, svg, lx);

	/* a limit that holds is drawn green; a cycles limit is converted to
	 * time with the metric's scales (4000 cycles x 0.5 ns = 2 us) */
	ck_assert(isfinite(line_x(doc, "(//div[@id='r1-2']//svg)[1]",
				  "p99 \xe2\x89\xa4 4000 cycles")));
	ck_assert_double_eq(xp_num(doc, "count((//div[@id='r1-2']//svg)[1]/line[@class='lim lim-ok'])"),
			    1);
	/* a min= limit on the second metric, on that metric's histogram only */
	ck_assert(isfinite(line_x(doc, "(//div[@id='r1-1']//svg)[2]",
				  "min \xe2\x89\xa5 50 ns")));
	/* both axes are logarithmic: decades labelled */
	ck_assert_double_eq(xp_num(doc, "count((//div[@id='r1-1']//svg)[1]/text[.='1 \xc2\xb5s'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count((//div[@id='r1-1']//svg)[1]/text[.='10'])"), 1);
	xmlFreeDoc(doc);
	free(html);
	fx_free(x);
}
END_TEST

/* A bar is red only beyond a bound that was not met: SEM-OK's mean bound
 * moved inside its data (500..996.5 ns) marks nothing while it holds, and
 * the bars beyond it once it does not. */
START_TEST(html_red_only_beyond_a_violated_bound)
{
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_limit *l = &v.files[0].reqs[1].limits[0];
	ck_assert_str_eq(l->statistic, "mean");
	l->max.value = 700;
	const char *svg = "(//div[@id='r1-2']//svg)[1]";
	for (int met = 1; met >= 0; met--) {
		l->verdict = met ? VERDICT_PASS : VERDICT_FAIL;
		size_t len;
		char *html = fx_render(&v, REPORT_HTML, &len);
		htmlDocPtr doc = parse_html(html, len);
		double lx = line_x(doc, svg, "mean \xe2\x89\xa4 700 ns");
		ck_assert_msg(isfinite(lx), "no line for mean <= 700 ns");
		char e[300];
		snprintf(e, sizeof e, "count(%s/line[@class='%s'])", svg, met ? "lim lim-ok" : "lim");
		ck_assert_double_eq(xp_num(doc, e), met ? 2 : 1); /* and p99 <= 4000 cycles, met */
		if (met) {
			snprintf(e, sizeof e, "count(%s/rect[@class='beyond'])", svg);
			ck_assert_double_eq(xp_num(doc, e), 0);
		} else {
			assert_red_right_of(doc, svg, lx);
		}
		xmlFreeDoc(doc);
		free(html);
	}
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* A scale the reader refuses (reports/read/read.h) may still reach the
 * plots from another writer: 1e308 overflowed the axis (a loop without
 * end), 5e-324 divided by zero. Each renders, and the axis's ticks stay
 * within their constant bound. */
static void long_doc(struct xw *x, const void *arg)
{
	xw_start(x, "p");
	xw_attr(x, "title", arg);
	xw_text(x, arg);
	xw_full_end(x);
}

/* A long text is written in pieces (each escaped alone, so that escaping
 * never holds several times a long value at once): the text is the one
 * libxml2 writes of the whole value in one call. A long attribute, which
 * libxml2 holds whole until it ends, is cut, saying so. */
START_TEST(long_values_written_in_pieces)
{
	size_t n = 300000;
	char *s = malloc(n + 1);
	ck_assert_ptr_nonnull(s);
	static const char mix[] = "<\"&>'\t\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80x";
	for (size_t i = 0; i < n;) {
		size_t k = sizeof mix - 1;
		if (i + k > n)
			break;
		memcpy(s + i, mix, k);
		i += k;
		s[i] = '\0';
	}
	/* an attribute is cut after its first 64 KiB, at a character */
	size_t cut = 65536;
	while (((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	char *title;
	ck_assert_int_ge(asprintf(&title, "%.*s [cut: %zu bytes in all]", (int)cut, s, strlen(s)), 0);
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = xmlNewTextWriterMemory(buf, 0);
	ck_assert_int_ge(xmlTextWriterStartElement(w, BAD_CAST "p"), 0);
	ck_assert_int_ge(xmlTextWriterWriteAttribute(w, BAD_CAST "title", BAD_CAST title), 0);
	ck_assert_int_ge(xmlTextWriterWriteString(w, BAD_CAST s), 0);
	ck_assert_int_ge(xmlTextWriterFullEndElement(w), 0);
	ck_assert_int_ge(xmlTextWriterFlush(w), 0);
	xmlFreeTextWriter(w);
	size_t len = 0;
	char why[100];
	char *got = xw_render(long_doc, s, false, &len, why, sizeof why);
	ck_assert_msg(got != NULL, "%s", why);
	ck_assert_uint_gt(strlen(s), 4 * 65536);
	fx_same_bytes((const char *)xmlBufferContent(buf), (size_t)xmlBufferLength(buf), got, len,
		      "in pieces and whole");
	free(got);
	xmlBufferFree(buf);
	free(title);
	free(s);
}
END_TEST

START_TEST(html_plots_bounded_on_extreme_scales)
{
	static const double scales[] = { 1e308, 5e-324, 1e-300, 1e300, 0, -1 };
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_metric *m = &v.files[0].reqs[0].metrics[0];
	m->highest = UINT64_MAX >> 1;
	for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
		m->ns_per_unit = scales[i];
		size_t len;
		char *html = fx_render(&v, REPORT_HTML, &len);
		ck_assert_msg(html && len, "ns_per_unit %g: nothing rendered", scales[i]);
		free(html);
	}
	report_view_free(&v);
	fx_free(x);
}
END_TEST

struct ticks_arg {
	double l0, l1;
	bool drawn;
};

static void ticks_doc(struct xw *x, const void *arg)
{
	struct ticks_arg *a = (struct ticks_arg *)arg;
	struct svg_log_axis ax = { 0, 600, 100, a->l0, a->l1, true, true, false };
	xw_start(x, "svg");
	a->drawn = svg_log_ticks(x, &ax);
	xw_full_end(x);
}

/* svg_log_ticks draws at most SVG_MAX_TICKS decades whatever its ends,
 * and nothing for ends no double's log10 reaches. */
START_TEST(svg_ticks_bounded)
{
	static const double ends[][2] = { { -323, 308 }, { -30, 30 }, { 0, 1 },
					  { -1e9, 1e9 }, { 1, 1e300 } };
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		struct ticks_arg a = { ends[i][0], ends[i][1], false };
		size_t len;
		char why[200];
		char *svg = xw_render(ticks_doc, &a, false, &len, why, sizeof why);
		ck_assert_ptr_nonnull(svg);
		size_t lines = 0;
		for (const char *p = svg; (p = strstr(p, "<line")); p++)
			lines++;
		bool sane = fabs(ends[i][0]) <= SVG_MAX_LOG && fabs(ends[i][1]) <= SVG_MAX_LOG;
		ck_assert_int_eq(a.drawn, sane);
		/* a tick at 1, 2 and 5 times each decade on a narrow axis */
		ck_assert_msg(lines <= 3 * (SVG_MAX_TICKS + 2), "%g..%g: %zu ticks", ends[i][0],
			      ends[i][1], lines);
		if (!sane)
			ck_assert_uint_eq(lines, 0);
		free(svg);
	}
}
END_TEST

/* report.html writes microseconds as µs: no "<digit> us" anywhere, the
 * trace note included. */
START_TEST(html_micro_sign)
{
	struct fx *x = fx_new();
	snprintf(x->results[0][0].trace_note, sizeof x->results[0][0].trace_note,
		 "trace: tripped by per-op 87.09 us > 50 us in run 1");
	size_t len;
	char *html = render_run(&x->run, &len);
	ck_assert_ptr_nonnull(strstr(html, "50 \xc2\xb5s"));
	ck_assert_ptr_nonnull(strstr(html, "per-op 87.09 \xc2\xb5s &gt; 50 \xc2\xb5s in run 1"));
	for (const char *p = html; (p = strstr(p, " us")) != NULL; p++) {
		bool digit = p > html && p[-1] >= '0' && p[-1] <= '9';
		char n = p[3];
		bool ends = !((n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z'));
		ck_assert_msg(!(digit && ends), "\"us\" at byte %td: %.40s", p - html, p - 10);
	}
	/* the rewrite itself: only a unit after a number, as far as room goes */
	char buf[32] = "1 us, 2 user, us 3 us";
	html_micro(buf, sizeof buf);
	ck_assert_str_eq(buf, "1 \xc2\xb5s, 2 user, us 3 \xc2\xb5s");
	char tight[6] = "1 us";
	html_micro(tight, sizeof tight);
	ck_assert_str_eq(tight, "1 \xc2\xb5s");
	char full[5] = "1 us";
	html_micro(full, sizeof full);
	ck_assert_str_eq(full, "1 us");
	free(html);
	fx_free(x);
}
END_TEST

/* ---- traces a results.json names --------------------------------------- */

/* The traces a view read from a results.json may hold: one a run wrote
 * (linked, attached), and what an attacker could write instead (shown as
 * text: no link, no attachment), in the run's view v; SEM-RT's is the good one. */
static void hostile_traces(struct fx *x, struct report_view *v)
{
	static const struct {
		const char *id, *trace;
	} t[] = {
		{ "SEM-RT", "trace-SEM-RT.txt" },
		{ "SEM-OK", "javascript:alert(1)" },
		{ "NOS", "/etc/shadow" },
		{ "TMR", "x\n[[ATTACHMENT|/etc/passwd]]" },
		{ "SKP", "../../trace-SKP.txt" },
		{ "B-1", "trace-B-1.txt?x#y" },
	};
	fx_view(x, v);
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			struct rv_req *r = &v->files[f].reqs[i];
			for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
				if (strcmp(r->id, t[k].id) == 0)
					r->trace = strdup(t[k].trace);
		}
	/* and a title holding a marker of its own */
	free(v->files[0].reqs[1].title);
	v->files[0].reqs[1].title = strdup("[[ATTACHMENT|/etc/shadow]]");
	/* as report_view_find_traces leaves them with the good trace a
	 * regular file in the directory (test_link.c looks on a disk) */
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			struct rv_req *r = &v->files[f].reqs[i];
			r->trace_link = !r->trace ? RV_TRACE_UNCHECKED
				      : report_trace_ok(r->trace) ? RV_TRACE_LINKED
								  : RV_TRACE_NOT_OURS;
		}
}

/* A trace whose name is ours but that is no regular file in the traces'
 * directory (missing, a symlink: RV_TRACE_NO_FILE) is shown as text saying
 * so, never linked, never attached. */
START_TEST(unfound_trace_is_text)
{
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_req *r = &v.files[0].reqs[0];
	r->trace = strdup("trace-SEM-RT.txt");
	r->trace_link = RV_TRACE_NO_FILE;
	v.trace_dir = strdup("/srv/runs/r1");
	size_t len;
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	ck_assert_double_eq(xp_num(doc, "count(//a[not(starts-with(@href, '#'))])"), 0);
	ck_assert_double_eq(xp_num(doc, "count(//tr[th='Kernel trace']/td[contains(., "
					"'trace file trace-SEM-RT.txt (not linked: no regular file "
					"of that name beside the results)')])"), 1);
	xmlFreeDoc(doc);
	free(html);
	char *xml = fx_render(&v, REPORT_JUNIT, &len);
	ck_assert_ptr_null(strcasestr(xml, "[[ATTACHMENT|"));
	ck_assert_ptr_nonnull(strstr(xml, "trace file: trace-SEM-RT.txt (not linked or attached: "
					  "no regular file of that name beside the results)"));
	free(xml);
	char *sum = fx_render(&v, REPORT_SUMMARY, &len);
	ck_assert_ptr_nonnull(strstr(sum, "SEM-RT trace file: trace-SEM-RT.txt (not linked or "
					  "attached: no regular file of that name beside the results)"));
	free(sum);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* An explained breach has its "why" block: the headline, a stacked bar of
 * its parts (one segment each, their tooltips their shares) and a table of
 * every component; a requirement without an explanation has none. */
START_TEST(html_why_block)
{
	struct fx *x = fx_new();
	fx_explain(&x->results[0][0]);
	struct report_view v;
	fx_view(x, &v);
	size_t len;
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='why'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='req'][1]//div[@class='why'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='why']/p[starts-with(., 'SEM-RT "
					"wakeup 2.1 ms: 68% ksoftirqd/1 (pid 23, RT 1, lower than the "
					"probe')])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='why']//svg//rect)"), 3);
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='why']//svg//rect[@class="
					"'why-task-violation']/title[starts-with(., '68% ')])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='why']//svg//rect[@class="
					"'why-irq']/title[starts-with(., '20% irq 11 virtio0')])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//table[@class='why']/tr)"), 4);
	ck_assert_double_eq(xp_num(doc, "count(//table[@class='why']/tr[td[3]='12 %' and "
					"td[5]='unexplained (no event tells)'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//div[@class='why']/p[@class='note' and "
					"contains(., 'add up to the window')])"), 1);
	xmlFreeDoc(doc);
	free(html);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* Replace *s (malloc'd, may be NULL) with a copy of t. */
static void set_str(char **s, const char *t)
{
	free(*s);
	*s = strdup(t);
	ck_assert_ptr_nonnull(*s);
}

/* No text of the input makes an attachment marker anywhere in junit.xml,
 * whatever element or attribute it lands in: a failure's, a skip's and an
 * error's bodies and messages, testcase names, property names and values
 * (report_junit_defuse's rule, applied by the junit writer). */
START_TEST(junit_defuses_every_text)
{
	static const char mark[] = "x\n[[ATTACHMENT|/etc/passwd]]";
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	for (size_t f = 0; f < v.nfiles; f++)
		for (size_t i = 0; i < v.files[f].nreqs; i++) {
			struct rv_req *r = &v.files[f].reqs[i];
			set_str(&r->id, mark);
			set_str(&r->title, mark);
			set_str(&r->reason, mark);
			set_str(&r->load, mark);
			set_str(&r->note, mark);
			set_str(&r->source, mark);
			for (size_t k = 0; k < r->nparams; k++) {
				set_str(&r->params[k].name, mark);
				set_str(&r->params[k].value, mark);
			}
			for (size_t k = 0; k < r->nlimits; k++)
				set_str(&r->limits[k].text, mark);
		}
	for (size_t i = 0; i < v.env.n; i++)
		set_str(&v.env.e[i].value, mark);
	/* a failure, a skip and an error among them */
	ck_assert_int_eq(v.files[0].reqs[0].verdict, VERDICT_FAIL);
	ck_assert_int_eq(v.files[0].reqs[2].verdict, VERDICT_ERROR);
	ck_assert_int_eq(v.files[0].reqs[3].verdict, VERDICT_SKIPPED);
	size_t len;
	char *xml = fx_render(&v, REPORT_JUNIT, &len);
	assert_xml_wellformed(xml, len);
	ck_assert_msg(!strcasestr(xml, "[[ATTACHMENT|"), "%s", xml);
	ck_assert_ptr_nonnull(strstr(xml, "<failure type=\"LatencyBudgetExceeded\" message=\""));
	ck_assert_ptr_nonnull(strstr(xml, "<skipped>x\n[ [ATTACHMENT|/etc/passwd]]</skipped>"));
	ck_assert_ptr_nonnull(strstr(xml, "<testcase name=\"x&#10;[ [ATTACHMENT|/etc/passwd]]: "));
	free(xml);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* report.html links the good trace alone, "./" and its name; every other
 * one is shown as text; every href is an anchor or "./" and encoded. */
START_TEST(html_links_only_good_traces)
{
	struct fx *x = fx_new();
	struct report_view v;
	hostile_traces(x, &v);
	size_t len;
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	assert_xml_wellformed(html, len);
	assert_offline(xmlDocGetRootElement(doc));
	ck_assert_double_eq(xp_num(doc, "count(//a[@href='./trace-SEM-RT.txt'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//a[not(starts-with(@href, '#'))])"), 1);
	static const char *const shown[] = { "javascript:alert(1)", "/etc/shadow",
					     "[[ATTACHMENT|/etc/passwd]]", "../../trace-SKP.txt",
					     "trace-B-1.txt?x#y" };
	for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
		char e[200];
		snprintf(e, sizeof e, "count(//tr[th='Kernel trace']/td[contains(., '%s') and "
			 "contains(., 'not linked')])", shown[i]);
		ck_assert_msg(xp_num(doc, e) == 1, "'%s' is not shown as text", shown[i]);
	}
	xmlFreeDoc(doc);
	free(html);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* The text of every <system-out> and <system-err> of junit.xml `xml`
 * (what Jenkins' JUnit Attachments plugin looks for attachment lines in),
 * one after another, each ending in a newline. */
static char *ci_output(const char *xml, size_t len)
{
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, "junit.xml", "UTF-8", XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	xmlXPathObjectPtr o = xp_nodes(doc, "//system-out | //system-err");
	char *all = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&all, &n);
	ck_assert_ptr_nonnull(f);
	for (int i = 0; o->nodesetval && i < o->nodesetval->nodeNr; i++) {
		xmlChar *t = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
		fprintf(f, "%s\n", (const char *)t);
		xmlFree(t);
	}
	fclose(f);
	xmlXPathFreeObject(o);
	xmlFreeDoc(doc);
	return all;
}

/* junit.xml attaches the good trace alone, by the view's trace_dir, on a
 * line of its own; no other text makes an attachment line; without a
 * trace_dir nothing is attached. */
START_TEST(junit_attaches_only_good_traces)
{
	struct fx *x = fx_new();
	struct report_view v;
	hostile_traces(x, &v);
	v.trace_dir = strdup("/srv/runs/r1");
	size_t len;
	char *xml = fx_render(&v, REPORT_JUNIT, &len);
	char *out = ci_output(xml, len);
	const char *first = strcasestr(out, "[[ATTACHMENT|");
	ck_assert_msg(first && !strcasestr(first + 1, "[[ATTACHMENT|"),
		      "not exactly one attachment marker in the testcases' output");
	ck_assert_ptr_nonnull(strstr(out, "\n[[ATTACHMENT|/srv/runs/r1/trace-SEM-RT.txt]]\n"));
	ck_assert_ptr_nonnull(strstr(out, "[ [ATTACHMENT|/etc/passwd]]"));
	ck_assert_ptr_nonnull(strstr(out, "[ [ATTACHMENT|/etc/shadow]]"));
	free(out);
	free(xml);
	free(v.trace_dir);
	v.trace_dir = NULL;
	xml = fx_render(&v, REPORT_JUNIT, &len);
	out = ci_output(xml, len);
	ck_assert_ptr_null(strcasestr(out, "[[ATTACHMENT|"));
	free(out);
	free(xml);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* ---- junit.xml is written, never read back ----------------------------- */

/* junit.xml's readiness property: the tally, then the checks that warn or
 * fail by name; every check with its finding and remedy is in report.html
 * (and results.json), not in junit.xml. */
START_TEST(junit_writes_readiness)
{
	struct fx *x = fx_new();
	char junit[256], html[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);
	fx_write(x, REPORT_HTML, "report.html", html, sizeof html);
	char *text = tu_slurp(junit, NULL);
	ck_assert_ptr_nonnull(strstr(text, "<property name=\"readiness\" value=\""));
	ck_assert_ptr_nonnull(strstr(text, "; warn: preempt"));
	ck_assert_ptr_null(strstr(text, "readiness.preempt"));
	ck_assert_ptr_null(strstr(text, "remedy"));
	ck_assert_ptr_null(strstr(text, "sched_fifo"));
	free(text);
	text = tu_slurp(html, NULL);
	ck_assert_ptr_nonnull(strstr(text, "the kernel is not PREEMPT_RT (PREEMPT)"));
	ck_assert_ptr_nonnull(strstr(text, "boot a PREEMPT_RT kernel"));
	ck_assert_ptr_nonnull(strstr(text, "sched_fifo"));
	free(text);
	fx_free(x);
}
END_TEST

/* A junit.xml given to the reader is refused, named, with where to render
 * from instead; through `rtconform report` that is exit status 2 and
 * nothing written. */
START_TEST(junit_is_not_read_back)
{
	struct fx *x = fx_new();
	char junit[256], again[256], err[512] = "";
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);
	struct report_view v;
	ck_assert_int_eq(report_view_read(junit, &v, err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, junit) && strstr(err, "render from the run's results.json"),
		      "%s", err);
	ck_assert_uint_eq(v.nfiles, 0);
	fx_path(x, "again.html", again, sizeof again);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s/rtconform report '%s' --html '%s' 2>/dev/null",
		 RTC_BINARY_DIR, junit, again);
	int st = system(cmd);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	ck_assert_int_ne(access(again, F_OK), 0);
	fx_free(x);
}
END_TEST

/* Every readiness check is listed after the requirements, before the
 * environment; when a check warns or fails, those checks alone also stand
 * before the verdicts (so the verdict table still starts on page 1). */
START_TEST(html_readiness_placement)
{
	struct fx *x = fx_new();
	for (int all_ok = 0; all_ok < 2; all_ok++) {
		size_t alarming = 0;
		for (size_t i = 0; i < x->rd.n; i++) {
			if (all_ok)
				x->rd.c[i].level = READY_OK;
			alarming += x->rd.c[i].level >= READY_WARN;
		}
		ck_assert_uint_eq(alarming, all_ok ? 0 : 1);
		size_t len;
		char *html = render_run(&x->run, &len);
		htmlDocPtr doc = parse_html(html, len);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness'])"), 1);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness']//tr)"), 1 + x->rd.n);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness']/following::"
						"table[@class='summary'])"), 0);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness']/following::"
						"div[@id='environment'])"), 1);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness-alarm'])"), !all_ok);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness-alarm']//tr)"),
				    all_ok ? 0 : 1 + alarming);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness-alarm']/following::"
						"table[@class='summary'])"), !all_ok);
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='readiness']//span[@class='v r-warn'])"),
				    alarming);
		/* a remedy is shown for what is not ok */
		ck_assert((strstr(html, "boot a PREEMPT_RT kernel") == NULL) == (all_ok == 1));
		xmlFreeDoc(doc);
		free(html);
	}
	fx_free(x);
}
END_TEST

/* ---- intervals over time ----------------------------------------------- */

/* The text of each node EXPR selects, joined with '|'. */
static void xp_texts(xmlDocPtr doc, const char *expr, char *buf, size_t len)
{
	xmlXPathObjectPtr o = xp_nodes(doc, expr);
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; o->nodesetval && i < o->nodesetval->nodeNr; i++) {
		xmlChar *t = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%.12s", i ? "|" : "",
				      (const char *)t);
		xmlFree(t);
	}
	xmlXPathFreeObject(o);
}

#define T0 FX_T0

/* SEM-RT's per-op (limits max <= 800 ns, failed, and mean <= 50 us) over 5
 * intervals of 1 min: a point per interval with a max, a p99 only where the
 * interval has one, red bands on exactly the intervals beyond a limit (2
 * and 4 by their max, 5 by its mean), red max points on 2 and 4 alone, and
 * the trace, tripped at 800 ns on per-op, in interval 2. A metric of one
 * interval has no plot. */
START_TEST(html_intervals_over_time)
{
	static const double max[] = { 700, 900, 750, 1000, 500 };
	static const double p99[] = { 600, 650, 0, 0, 400 };
	static const double mean[] = { 500, 500, 500, 500, 60000 };
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_req *r = &v.files[0].reqs[0];
	struct rv_metric *m = &r->metrics[0];
	m->intervals = calloc(5, sizeof *m->intervals);
	m->nintervals = 5;
	for (int i = 0; i < 5; i++)
		fx_ival(&m->intervals[i], T0 + 60000LL * i, i == 4 ? 31 : 60.4, max[i], p99[i],
			mean[i]);
	r->metrics[1].intervals = calloc(1, sizeof *m->intervals);
	r->metrics[1].nintervals = 1;
	fx_ival(&r->metrics[1].intervals[0], T0, 60, 105, 0, 104);
	r->trace = strdup("trace-SEM-RT.txt");
	free(r->trace_note);
	r->trace_note = strdup("trace: tripped by per-op 900 ns > 800 ns in run 2");
	size_t len;
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	char got[600];
	ck_assert_double_eq(xp_num(doc, "count(//figure[@class='time'])"), 1);
	const char *fig = "//div[@id='r1-1']//figure[@class='time']";
	char e[600];
	snprintf(e, sizeof e, "count(%s//circle[contains(@class,'tp-max')][title])", fig);
	ck_assert_double_eq(xp_num(doc, e), 5);
	snprintf(e, sizeof e, "%s//circle[contains(@class,'tp-p99')][title]/title", fig);
	xp_texts(doc, e, got, sizeof got);
	ck_assert_str_eq(got, "interval 1 (|interval 2 (|interval 5 (");
	snprintf(e, sizeof e, "%s//rect[@class='breach']/title", fig);
	xp_texts(doc, e, got, sizeof got);
	ck_assert_str_eq(got, "interval 2 (|interval 4 (|interval 5 (");
	snprintf(e, sizeof e, "%s//circle[contains(@class,'tp-beyond')][title]/title", fig);
	xp_texts(doc, e, got, sizeof got);
	ck_assert_str_eq(got, "interval 2 (|interval 4 (");
	snprintf(e, sizeof e, "%s//rect[@class='traced']/title", fig);
	xp_texts(doc, e, got, sizeof got);
	ck_assert_str_eq(got, "interval 2 (");
	snprintf(e, sizeof e, "count(%s//text[.='p99'])", fig); /* in the legend */
	ck_assert_double_eq(xp_num(doc, e), 1);
	snprintf(e, sizeof e, "count(%s//line[@class='lim'])", fig);
	ck_assert_double_eq(xp_num(doc, e), 1);
	snprintf(e, sizeof e, "count(%s/figcaption[contains(., '5 intervals of about 1 min each') "
		 "and contains(., '2 intervals had too few samples for a p99') and "
		 "contains(., 'the 3 intervals whose own statistics lie beyond') and "
		 "contains(., 'Purple band: interval 2, where the kernel trace "
		 "trace-SEM-RT.txt was taken')])", fig);
	ck_assert_double_eq(xp_num(doc, e), 1);
	xmlFreeDoc(doc);
	free(html);
	/* a trace that tripped on another metric is not placed */
	free(r->trace_note);
	r->trace_note = strdup("trace: tripped by wakeup 900 ns > 800 ns in run 2");
	html = fx_render(&v, REPORT_HTML, &len);
	doc = parse_html(html, len);
	ck_assert_double_eq(xp_num(doc, "count(//rect[@class='traced'])"), 0);
	ck_assert_double_eq(xp_num(doc, "count(//figcaption[contains(., 'the interval it was "
					"taken in is not marked')])"), 1);
	xmlFreeDoc(doc);
	free(html);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* A week of 1 min intervals stays a small picture: at most one point per
 * 3 units of the plot's width per line, dots only where they say
 * something, and the one interval beyond the limit still banded and its
 * point red; dates label the time axis. */
START_TEST(html_intervals_of_a_week)
{
	const size_t n = 7 * 24 * 60;
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_req *r = &v.files[0].reqs[0];
	struct rv_metric *m = &r->metrics[0];
	m->intervals = calloc(n, sizeof *m->intervals);
	m->nintervals = n;
	for (size_t i = 0; i < n; i++)
		fx_ival(&m->intervals[i], T0 + 60000LL * (int64_t)i, 60, i == 5000 ? 5000 : 600,
			500, 400);
	size_t len;
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	xmlXPathObjectPtr o = xp_nodes(doc, "//figure[@class='time']//polyline[@class='tl tl-max']");
	ck_assert_int_eq(o->nodesetval ? o->nodesetval->nodeNr : 0, 1);
	xmlChar *pts = xmlGetProp(o->nodesetval->nodeTab[0], BAD_CAST "points");
	size_t npts = 1;
	for (const xmlChar *c = pts; *c; c++)
		npts += *c == ' ';
	ck_assert_msg(npts >= 100 && npts <= 200, "%zu points for a week", npts);
	xmlFree(pts);
	xmlXPathFreeObject(o);
	/* too close for a dot each: only the one beyond the limit has one */
	ck_assert_double_eq(xp_num(doc, "count(//figure[@class='time']//circle[title])"), 1);
	char got[600];
	xp_texts(doc, "//figure[@class='time']//rect[@class='breach']/title", got, sizeof got);
	ck_assert_str_eq(got, "intervals 49");
	ck_assert_double_eq(xp_num(doc, "count(//figure[@class='time']//circle[contains(@class,"
					"'tp-beyond')][title][contains(title, 'to 5')])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//figure[@class='time']//text[.='12-03'])"), 1);
	ck_assert_double_eq(xp_num(doc, "count(//figure[@class='time']//text[.='time (UTC), "
					"2025-12-02 to 2025-12-09'])"), 1);
	ck_assert_uint_lt(len, 2u << 20);
	xmlFreeDoc(doc);
	free(html);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* B-1 keeps per-op per CPU (0 and 3): under its plot one of each CPU's max,
 * a line per CPU in a class of its own, both named in the legend; a CPU
 * without a sample in an interval has no point there (its line breaks). */
START_TEST(html_intervals_per_cpu)
{
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_req *r = &v.files[1].reqs[0];
	ck_assert_uint_eq(r->nseries, 2);
	struct rv_metric *m = &r->metrics[0];
	m->intervals = calloc(4, sizeof *m->intervals);
	m->nintervals = 4;
	for (int i = 0; i < 4; i++)
		fx_ival(&m->intervals[i], T0 + 1000LL * i, 1, 800, 0, 500);
	for (size_t s = 0; s < 2; s++) {
		struct rv_series *se = &r->series[s];
		se->intervals = calloc(4, sizeof *se->intervals);
		se->nintervals = 4;
		for (int i = 0; i < 4; i++)
			fx_ival(&se->intervals[i], T0 + 1000LL * i, 1, 700 + 50.0 * (double)s, 0, 500);
	}
	r->series[1].intervals[2].ns[RV_MAX].have = false;
	size_t len;
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	ck_assert_double_eq(xp_num(doc, "count(//figure[@class='time'])"), 2);
	const char *cpu = "//div[@class='per-cpu']//figure[@class='time']";
	char e[300];
	snprintf(e, sizeof e, "count(%s//text[.='CPU 0'])", cpu);
	ck_assert_double_eq(xp_num(doc, e), 1);
	snprintf(e, sizeof e, "count(%s//text[.='CPU 3'])", cpu);
	ck_assert_double_eq(xp_num(doc, e), 1);
	snprintf(e, sizeof e, "count(%s//polyline[@class='tl tc0 td0'])", cpu);
	ck_assert_double_eq(xp_num(doc, e), 1);
	/* CPU 3: intervals 1-2 a line, 3 missing, 4 a lone dot */
	snprintf(e, sizeof e, "count(%s//polyline[@class='tl tc1 td0'])", cpu);
	ck_assert_double_eq(xp_num(doc, e), 1);
	/* no interval of B-1 has a p99: the legend names none */
	ck_assert_double_eq(xp_num(doc, "count((//div[@id='r2-1']//figure[@class='time'])[1]//text[.='p99'])"), 0);
	ck_assert_double_eq(xp_num(doc, "count((//div[@id='r2-1']//figure[@class='time'])[1]//text[.='max'])"), 1);
	snprintf(e, sizeof e, "count(%s//circle[@class='tp-cpu tc1'])", cpu);
	ck_assert_double_eq(xp_num(doc, e), 2); /* the lone point and the legend's */
	snprintf(e, sizeof e, "count(%s/figcaption[contains(., 'Max per CPU of B-1 per-op')])", cpu);
	ck_assert_double_eq(xp_num(doc, e), 1);
	xmlFreeDoc(doc);
	free(html);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* A max is named for what it is, and under the time plot the trend of
 * the interval maxima: B-1's 100 200 300 400 ns, a second each, are four
 * records, tau 1 (S = 6, Var S = 4 x 3 x 13 / 18, z = 2.038, p = 0.042),
 * still rising; the same intervals all at 100 ns: one record, no tau, no
 * rising trend. */
START_TEST(html_max_observed_and_trend)
{
	for (int flat = 0; flat < 2; flat++) {
		struct fx *x = fx_new();
		struct report_view v;
		fx_view(x, &v);
		struct rv_req *r = &v.files[1].reqs[0];
		struct rv_metric *m = &r->metrics[0];
		m->intervals = calloc(4, sizeof *m->intervals);
		m->nintervals = 4;
		for (int i = 0; i < 4; i++)
			fx_ival(&m->intervals[i], T0 + 1000LL * i, 1, flat ? 100 : 100.0 * (i + 1), 0,
				50);
		size_t len;
		char *html = fx_render(&v, REPORT_HTML, &len);
		htmlDocPtr doc = parse_html(html, len);
		const char *want = flat
			? "count(//div[@id='r2-1']//p[@class='trend'][contains(., 'Interval maxima "
			  "of B-1 per-op: 1 record-setting interval of 4, the last in interval 1') "
			  "and contains(., \"every interval's max equal): no rising trend.\")])"
			: "count(//div[@id='r2-1']//p[@class='trend rising'][contains(., 'Interval "
			  "maxima of B-1 per-op: 4 record-setting intervals of 4, the last in "
			  "interval 4') and contains(., \"Kendall's tau 1.00, p = 0.042: still "
			  "rising\") and contains(., 'not a worst case')])";
		ck_assert_msg(xp_num(doc, want) == 1, "%s", want);
		/* every stats table with a max names it the largest observed
		 * (one of a metric without samples has none to name) */
		double tables = xp_num(doc, "count(//table[@class='stats'])");
		double named = xp_num(doc, "count(//table[@class='stats']//td[starts-with(., "
					   "'max: largest observed in ')])");
		ck_assert(named > 0);
		ck_assert_double_eq(named + xp_num(doc, "count(//table[@class='stats']//td[.='max'])"),
				    tables);
		/* B-1's over its intervals' 4 s */
		ck_assert_double_eq(xp_num(doc, "count(//div[@id='r2-1']//table[@class='stats']//"
						"td[starts-with(., 'max: largest observed in ') and "
						"contains(., ' samples over 4 s')])"), 1);
		xmlFreeDoc(doc);
		free(html);
		report_view_free(&v);
		fx_free(x);
	}
}
END_TEST

/* Times a results.json may hold (intervals out of order, a span of
 * millennia, starts unknown): the plot stays drawn and bounded, at most 10
 * ticks on its time axis. */
START_TEST(html_intervals_bounded_on_extreme_times)
{
	static const int64_t starts[][3] = { { FX_T0, 1, 253402300799000LL },
					     { 253402300799000LL, FX_T0, FX_T0 + 1 },
					     { 0, 0, 0 } };
	struct fx *x = fx_new();
	struct report_view v;
	fx_view(x, &v);
	struct rv_metric *m = &v.files[0].reqs[0].metrics[0];
	m->intervals = calloc(3, sizeof *m->intervals);
	m->nintervals = 3;
	for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
		for (int i = 0; i < 3; i++)
			fx_ival(&m->intervals[i], starts[k][i], i == 2 ? 1e9 : 60, 700, 600, 500);
		size_t len;
		char *html = fx_render(&v, REPORT_HTML, &len);
		htmlDocPtr doc = parse_html(html, len);
		ck_assert_double_eq(xp_num(doc, "count(//figure[@class='time'])"), 1);
		double ticks = xp_num(doc, "count(//figure[@class='time']//line[@class='grid'])");
		ck_assert_msg(ticks <= 10 + 10, "case %zu: %g grid lines", k, ticks);
		xmlFreeDoc(doc);
		free(html);
	}
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* The text of the first node expr selects ("" for none), malloc'd. */
static char *xp_text(xmlDocPtr doc, const char *expr)
{
	xmlXPathObjectPtr o = xp_nodes(doc, expr);
	xmlChar *t = xmlXPathCastToString(o);
	char *r = strdup((const char *)t);
	xmlFree(t);
	xmlXPathFreeObject(o);
	return r;
}

/* Each reported percentile shows its confidence interval beside it:
 * "[lo, hi]" in a column "95% confidence interval", with the ranks in its
 * title; a side without a bound is a dash and a bucket-limited bound a
 * dagger, each explained in a note under the metric's histogram and table;
 * a percentile without an interval has an empty cell. */
START_TEST(html_shows_confidence)
{
	struct fx *x = fx_new();
	struct report_view v;
	size_t len;
	fx_view(x, &v);
	struct rv_metric *m = &v.files[0].reqs[0].metrics[0]; /* SEM-RT per-op, 4000 samples */
	ck_assert(m->ci[RV_P99].have);
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	const char *row = "(//div[@id='r1-1']//table[@class='stats'])[1]/tr[td[1]='p99']/td[3]";
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r1-1']//table[@class='stats']"
				   "/tr/th[.='95% confidence interval'])"), 2);
	char *cell = xp_text(doc, row);
	ck_assert_msg(cell[0] == '[' && cell[strlen(cell) - 1] == ']' &&
		      !strstr(cell, "\xe2\x80\x94"), "p99 interval cell '%s'", cell);
	free(cell);
	char want[120], expr[200];
	snprintf(want, sizeof want, "ranks %llu to %llu", (unsigned long long)m->ci[RV_P99].lo_rank,
		 (unsigned long long)m->ci[RV_P99].hi_rank);
	snprintf(expr, sizeof expr, "%s/@title", row);
	cell = xp_text(doc, expr);
	ck_assert_msg(strstr(cell, "95% confidence interval of p99 from 4000 samples") &&
		      strstr(cell, want), "title '%s'", cell);
	free(cell);
	/* wakeup's 10 samples have no p99, so no interval */
	ck_assert_double_eq(xp_num(doc, "count((//div[@id='r1-1']//table[@class='stats'])[2]"
				   "/tr[td[1]='p99']/td[3])"), 1);
	cell = xp_text(doc, "(//div[@id='r1-1']//table[@class='stats'])[2]/tr[td[1]='p99']/td[3]");
	ck_assert_str_eq(cell, "");
	free(cell);
	ck_assert_ptr_null(strstr(html, "no bound on that side"));
	xmlFreeDoc(doc);
	free(html);

	m->ci[RV_P99].has_hi = false; /* as too few samples leave it */
	m->ci[RV_P99].hi_bucket = false;
	m->ci[RV_P99].lo_bucket = true;
	html = fx_render(&v, REPORT_HTML, &len);
	doc = parse_html(html, len);
	cell = xp_text(doc, row);
	ck_assert_msg(strstr(cell, "\xe2\x80\xa0, \xe2\x80\x94]"), "cell '%s'", cell);
	free(cell);
	cell = xp_text(doc, expr);
	ck_assert_msg(strstr(cell, "no upper bound: too few samples") &&
		      strstr(cell, "lower bound is the histogram's resolution"), "title '%s'", cell);
	free(cell);
	cell = xp_text(doc, "//div[@id='r1-1']/p[@class='note'][contains(., 'bound')]");
	ck_assert_msg(strstr(cell, "no bound on that side: too few samples") &&
		      strstr(cell, "bucket-limited"), "note '%s'", cell);
	free(cell);
	xmlFreeDoc(doc);
	free(html);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

static Suite *html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tu_tcase(s, "core", 60);
	tcase_add_test(tc, html_well_formed);
	tcase_add_test(tc, html_one_svg_per_metric);
	tcase_add_test(tc, html_red_only_beyond_a_violated_bound);
	tcase_add_test(tc, html_micro_sign);
	tcase_add_test(tc, html_every_verdict);
	tcase_add_test(tc, html_nothing_from_the_network);
	tcase_add_test(tc, html_limits_on_histogram);
	tcase_add_test(tc, html_readiness_placement);
	tcase_add_test(tc, junit_writes_readiness);
	tcase_add_test(tc, junit_is_not_read_back);
	tcase_add_test(tc, html_links_only_good_traces);
	tcase_add_test(tc, junit_attaches_only_good_traces);
	tcase_add_test(tc, unfound_trace_is_text);
	tcase_add_test(tc, html_why_block);
	tcase_add_test(tc, junit_defuses_every_text);
	tcase_add_test(tc, html_plots_bounded_on_extreme_scales);
	tcase_add_test(tc, svg_ticks_bounded);
	tcase_add_test(tc, long_values_written_in_pieces);
	tcase_add_test(tc, html_intervals_over_time);
	tcase_add_test(tc, html_intervals_of_a_week);
	tcase_add_test(tc, html_intervals_per_cpu);
	tcase_add_test(tc, html_max_observed_and_trend);
	tcase_add_test(tc, html_intervals_bounded_on_extreme_times);
	tcase_add_test(tc, html_shows_confidence);
	return s;
}

int main(void)
{
	return tu_run(html_suite());
}
