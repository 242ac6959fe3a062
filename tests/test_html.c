/* SPDX-License-Identifier: Apache-2.0 */
/* test_html.c - report.html, and its re-rendering from an older junit.xml.
 *
 * On the synthetic run of report_fixture.h: the document is well-formed for
 * libxml2's HTML parser and as XML; one <svg> per metric of every
 * requirement; every verdict shows; nothing would be fetched from a network;
 * bins beyond a limit are marked, the others not; print CSS is there. Then
 * the re-render from junit.xml: written, read back with
 * report_view_from_junit, rendered again: the same bytes as the report of
 * the run with its numbers rounded as junit.xml prints them, also with
 * hostile strings. And the junit reader refuses what a safe parser must
 * (DOCTYPE, entities, foreign files) and what it cannot read (a malformed
 * histogram bucket). (results.json, the exact archive, is test_json.c's.)
 */
#include "report_fixture.h"
#include "reports/html_plot.h"

#include <math.h>

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
	for (unsigned i = 0; i < report_nmetrics(r); i++)
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
			unsigned counts = report_nmetrics(r) - durations(r);
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
				ck_assert_msg(v && v[0] == '#', "href='%s' leaves the document", v);
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

/* Rendered from a lean junit.xml, which keeps neither histograms nor
 * per-CPU series, no plot is drawn empty: the histogram's place says where
 * it is, and no per-CPU section appears. */
START_TEST(html_cpu_plots_from_junit)
{
	struct fx *x = fx_new();
	char junit[256], err[512] = "";
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);
	struct report_view v;
	ck_assert_msg(report_view_from_junit(junit, &v, err, sizeof err) == 0, "%s", err);
	size_t len;
	char *html = fx_render(&v, REPORT_HTML, &len);
	htmlDocPtr doc = parse_html(html, len);
	ck_assert_double_eq(xp_num(doc, "count(//svg[@class='hist cpu'])"), 0);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r2-1']//div[@class='per-cpu'])"), 0);
	ck_assert_double_eq(xp_num(doc, "count(//div[@id='r2-1']//svg[@class='hist']"
				    "[contains(., 'the histogram is in results.json')])"), 2);
	xmlFreeDoc(doc);
	free(html);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* ---- re-rendering from junit.xml --------------------------------------- */

static void round3(struct rv_value *v)
{
	if (v->have)
		v->v = num_round3(v->v);
}

/* The view as a lean junit.xml carries it: verdicts, limits and the key
 * statistics, every number its properties print "%.3f" rounded that way;
 * no histogram, scales, cycles, batch figure, per-run figures or per-CPU
 * series (results.json has those). */
static void round_like_junit(struct report_view *v)
{
	static const bool key_stat[RV_NSTATS] = { [RV_MIN] = true, [RV_MEAN] = true,
						  [RV_MAX] = true, [RV_P50] = true,
						  [RV_P99] = true };
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			struct rv_req *r = &v->files[f].reqs[i];
			r->seconds = num_round3(r->seconds);
			r->batch_mean_ns = r->batch_stddev_ns = (struct rv_value){ 0 };
			free(r->batch_run_ns);
			r->batch_run_ns = NULL;
			/* junit.xml keeps no per-CPU series */
			for (size_t k = 0; k < r->nseries; k++)
				free(r->series[k].buckets);
			free(r->series);
			r->series = NULL;
			r->nseries = 0;
			for (size_t k = 0; k < r->nlimits; k++) {
				struct rv_limit *l = &r->limits[k];
				l->max.value = num_round3(l->max.value);
				l->min.value = num_round3(l->min.value);
				round3(&l->measured);
				for (char *c = l->text; c && *c; c++)
					*c = *c == ';' ? ',' : *c; /* ';' ends an entry */
			}
			for (size_t k = 0; k < r->nmetrics; k++) {
				struct rv_metric *m = &r->metrics[k];
				for (int j = 0; j < RV_NSTATS; j++) {
					if (!key_stat[j])
						m->ns[j].have = false;
					round3(&m->ns[j]);
					m->cycles[j].have = false;
				}
				for (int j = 0; j < RV_NCSTATS; j++)
					round3(&m->counts[j]);
				m->median_ns = m->ns[RV_P50];
				m->ns_per_unit = m->cycles_per_unit = 0;
				m->highest = 0;
				free(m->buckets);
				free(m->run_count);
				free(m->run_mean_ns);
				m->buckets = NULL;
				m->run_count = NULL;
				m->run_mean_ns = NULL;
				m->nbuckets = m->nruns = 0;
			}
		}
}

/* HTML from junit.xml equals the run's with junit.xml's rounding; with
 * same_junit also junit.xml rendered again from what was read of it (not
 * with control characters in the strings: junit.xml holds U+FFFD for them,
 * and <system-out> text shows what it holds). */
static void assert_rerender_equal(struct fx *x, bool same_junit)
{
	char junit[256], err[512] = "";
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);

	struct report_view a, b;
	fx_view(x, &a);
	round_like_junit(&a);
	ck_assert_msg(report_view_from_junit(junit, &b, err, sizeof err) == 0, "%s", err);
	size_t la, lb;
	char *ha = fx_render(&a, REPORT_HTML, &la), *hb = fx_render(&b, REPORT_HTML, &lb);
	fx_same_bytes(ha, la, hb, lb, "HTML re-rendered from junit.xml");
	free(ha);
	free(hb);
	if (same_junit) {
		/* its properties, verdicts and <system-out>: this says only
		 * what junit.xml keeps */
		char *ja = fx_render(&b, REPORT_JUNIT, &lb), *orig = tu_slurp(junit, &la);
		fx_same_bytes(orig, la, ja, lb, "junit.xml re-rendered from junit.xml");
		free(ja);
		free(orig);
	}
	report_view_free(&a);
	report_view_free(&b);
}

START_TEST(rerender_matches)
{
	struct fx *x = fx_new();
	assert_rerender_equal(x, true);
	fx_free(x);
}
END_TEST

/* junit.xml's readiness properties read back as the checks they came
 * from: level, finding and remedy; a check's property that is not
 * "LEVEL: finding", or a remedy without its check, is refused, named. */
START_TEST(junit_reads_readiness)
{
	struct fx *x = fx_new();
	char junit[256], err[512] = "";
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);
	char *text = tu_slurp(junit, NULL);
	ck_assert_ptr_nonnull(strstr(text, "<property name=\"readiness.preempt\" value=\"warn: "
					   "the kernel is not PREEMPT_RT (PREEMPT)\"/>"));
	ck_assert_ptr_nonnull(strstr(text, "<property name=\"readiness.preempt.remedy\" "
					   "value=\"boot a PREEMPT_RT kernel\"/>"));
	ck_assert_ptr_null(strstr(text, "readiness.sched_fifo.remedy"));
	struct report_view v;
	ck_assert_msg(report_view_from_junit(junit, &v, err, sizeof err) == 0, "%s", err);
	ck_assert(v.ready_recorded);
	ck_assert_uint_eq(v.nready, x->rd.n);
	for (size_t i = 0; i < v.nready; i++) {
		ck_assert_str_eq(v.ready[i].name, x->rd.c[i].name);
		ck_assert_int_eq(v.ready[i].level, x->rd.c[i].level);
		ck_assert_str_eq(v.ready[i].finding, x->rd.c[i].finding);
		ck_assert_str_eq(v.ready[i].remedy ? v.ready[i].remedy : "", x->rd.c[i].remedy);
	}
	/* the checks are not part of the environment */
	ck_assert_ptr_null(fingerprint_get(&v.env, "readiness.preempt"));
	report_view_free(&v);

	static const struct {
		const char *from, *to, *why;
	} bad[] = {
		{ "value=\"warn: the kernel", "value=\"worry: the kernel",
		  "property readiness.preempt: 'worry: the kernel" },
		{ "value=\"warn: the kernel", "value=\"warn-the kernel", "is not 'LEVEL: finding'" },
		{ "name=\"readiness.preempt.remedy\"", "name=\"readiness.smt.remedy\"",
		  "property readiness.smt.remedy: a remedy that does not follow its check" },
	};
	char bad_path[256];
	fx_path(x, "bad.xml", bad_path, sizeof bad_path);
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char *at = strstr(text, bad[k].from);
		ck_assert_ptr_nonnull(at);
		FILE *f = fopen(bad_path, "w");
		ck_assert_ptr_nonnull(f);
		fprintf(f, "%.*s%s%s", (int)(at - text), text, bad[k].to, at + strlen(bad[k].from));
		ck_assert_int_eq(fclose(f), 0);
		ck_assert_int_eq(report_view_from_junit(bad_path, &v, err, sizeof err), -EINVAL);
		ck_assert_msg(strstr(err, bad[k].why), "'%s' lacks '%s'", err, bad[k].why);
	}
	free(text);
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

START_TEST(rerender_matches_hostile_and_odd)
{
	struct fx *x = fx_new();
	static const char hostile[] = "evil\x01\x1b[31m <&> ]]> \"q' \xff\xfe tab\there\r\nend: x";
	x->reqs[0][0].title = (char *)hostile;
	x->reqs[0][0].source = (char *)hostile;
	snprintf(x->results[0][2].reason, sizeof x->results[0][2].reason, "%s", hostile);
	snprintf(x->results[0][1].res->note, sizeof x->results[0][1].res->note, "%s", hostile);
	fingerprint_add(&x->fp, "host.name", "host\x07name\xff");
	x->files[0].name = (char *)"suite\x03<&>";
	/* numbers that do not print exactly, and a run that took no samples */
	result_metric(x->results[0][0].res, 0)->ns_per_unit = 1.0 / 3.0;
	x->reqs[0][0].limits[0].max.value = 1234.56789;
	x->results[0][0].limits[0].measured = 2.0 / 3.0;
	x->results[1][0].res->runs[1].iterations = 0;
	assert_rerender_equal(x, false);

	/* a single file, no title, no limits */
	x->run.nfiles = 1;
	x->reqs[0][1].title = NULL;
	x->reqs[0][1].nlimits = 0;
	assert_rerender_equal(x, false);
	fx_free(x);
}
END_TEST

START_TEST(rerender_through_the_command)
{
	/* The same through `rtconform report` with a junit.xml: the CLI wiring. */
	struct fx *x = fx_new();
	char junit[256], rerendered[256];
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);
	fx_path(x, "again.html", rerendered, sizeof rerendered);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s/rtconform report '%s' --html '%s' >/dev/null", RTC_BINARY_DIR,
		 junit, rerendered);
	ck_assert_int_eq(system(cmd), 0);
	struct report_view v;
	fx_view(x, &v);
	round_like_junit(&v);
	size_t la, lb;
	char *a = fx_render(&v, REPORT_HTML, &la), *b = tu_slurp(rerendered, &lb);
	fx_same_bytes(a, la, b, lb, "report.html from `rtconform report junit.xml`");
	free(a);
	free(b);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* ---- the junit reader is a safe parser --------------------------------- */

static int read_text(struct fx *x, const char *text, char *err, size_t errlen)
{
	char p[256];
	fx_path(x, "in.xml", p, sizeof p);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	struct report_view v;
	int rc = report_view_from_junit(p, &v, err, errlen);
	if (rc == 0)
		report_view_free(&v);
	return rc;
}

START_TEST(junit_reader_refuses)
{
	struct fx *x = fx_new();
	char err[512];
	/* entities: refused at the DOCTYPE, before any is defined */
	ck_assert_int_eq(read_text(x,
				   "<?xml version=\"1.0\"?>\n<!DOCTYPE t [<!ENTITY a \"aaaaaaaaaa\">"
				   "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n"
				   "<testsuites>&b;</testsuites>\n", err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "DOCTYPE"), "%s", err);
	/* an external entity: same */
	ck_assert_int_eq(read_text(x,
				   "<!DOCTYPE t SYSTEM \"file:///etc/passwd\"><testsuites/>", err,
				   sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "DOCTYPE"), "%s", err);
	ck_assert_ptr_null(strstr(err, "root:"));
	/* not well-formed */
	ck_assert_int_eq(read_text(x, "<testsuites><testsuite></testsuites>", err, sizeof err),
			 -EINVAL);
	ck_assert_msg(strstr(err, "not well-formed"), "%s", err);
	/* not JUnit, and JUnit that rtconform did not write */
	ck_assert_int_eq(read_text(x, "<html/>", err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "<testsuites>"), "%s", err);
	ck_assert_int_eq(read_text(x, "<testsuites><testsuite name=\"x\"><testcase name=\"a\"/>"
				      "</testsuite></testsuites>", err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "not written by rtconform"), "%s", err);
	/* missing file */
	struct report_view v;
	char p[256];
	fx_path(x, "nope.xml", p, sizeof p);
	ck_assert_int_eq(report_view_from_junit(p, &v, err, sizeof err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, p));
	fx_free(x);
}
END_TEST

/* junit.xml of the fixture with the value of property `name` replaced by
 * `value`, read back: the reader's return, its message in err. */
static int read_edited(struct fx *x, const char *name, const char *value, char *err,
		       size_t errlen)
{
	char junit[256], key[200];
	fx_write(x, REPORT_JUNIT, "junit.xml", junit, sizeof junit);
	char *text = tu_slurp(junit, NULL);
	snprintf(key, sizeof key, "name=\"%s\" value=\"", name);
	char *at = strstr(text, key);
	ck_assert_msg(at != NULL, "no property %s", name);
	at += strlen(key);
	char *end = strchr(at, '"');
	char *edited;
	ck_assert_int_ge(asprintf(&edited, "%.*s%s%s", (int)(at - text), text, value, end), 0);
	int rc = read_text(x, edited, err, errlen);
	free(edited);
	free(text);
	return rc;
}

START_TEST(junit_reader_refuses_what_it_cannot_read)
{
	struct fx *x = fx_new();
	char err[512] = "";
	/* unedited, it reads */
	const char *per_op = "kind=duration count=4000 min_ns=500.000 mean_ns=748.250";
	ck_assert_msg(read_edited(x, "SEM-RT.per-op", per_op, err, sizeof err) == 0, "%s", err);
	static const struct {
		const char *name, *value;
	} bad[] = {
		{ "SEM-RT.per-op", "kind=duration count=4k" },
		{ "SEM-RT.per-op", "kind=duration mean_ns=fast" },
		{ "SEM-RT.per-op", "count=4000" },                    /* no kind */
		{ "SEM-RT.per-op", "kind=duration colour=red" },
		{ "SEM-RT.per-op", "kind=duration total=3" },         /* a count's */
		{ "SEM-RT.page-faults", "kind=count max=many" },
		{ "SEM-RT.limits", "metric=per-op statistic=max max_ns=1 measured_cycles=2 verdict=fail" },
		{ "SEM-RT.limits", "metric=per-op statistic=max verdict=perhaps" },
		{ "SEM-RT.limits", "metric=per-op max_ns=1 verdict=fail" }, /* no statistic */
		{ "SEM-RT.limits", "metric=per-op statistic=max loud" },
		{ "SEM-RT.verdict", "maybe" },
		{ "SEM-OK.cpu", "one" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(read_edited(x, bad[i].name, bad[i].value, err, sizeof err) == -EINVAL,
			      "%s=%s was read", bad[i].name, bad[i].value);
		ck_assert_msg(strstr(err, bad[i].name) && strstr(err, "in.xml"),
			      "%s=%s: message '%s' names neither", bad[i].name, bad[i].value, err);
	}
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
	tcase_add_test(tc, html_cpu_plots_from_junit);
	tcase_add_test(tc, html_every_verdict);
	tcase_add_test(tc, html_nothing_from_the_network);
	tcase_add_test(tc, html_limits_on_histogram);
	tcase_add_test(tc, rerender_matches);
	tcase_add_test(tc, junit_reads_readiness);
	tcase_add_test(tc, html_readiness_placement);
	tcase_add_test(tc, rerender_matches_hostile_and_odd);
	tcase_add_test(tc, rerender_through_the_command);
	tcase_add_test(tc, junit_reader_refuses);
	tcase_add_test(tc, junit_reader_refuses_what_it_cannot_read);
	return s;
}

int main(void)
{
	return tu_run(html_suite());
}
