/* SPDX-License-Identifier: Apache-2.0 */
/* junit.c - junit.xml for CI gates, written with libxml2's xmlTextWriter.
 *
 * The shape is the intersection of the two schemas CI systems accept
 * (tests/schemas/junit.xsd encodes what both require):
 *  - <testsuites> takes name, tests, failures, errors, time. Neither schema
 *    allows `skipped` there, so skipped counts appear per suite only.
 *  - <testsuite> takes name, tests, failures, errors, skipped, time,
 *    timestamp, hostname, id, package; children in Jenkins' fixed order:
 *    <properties> (which Jenkins requires to be non-empty), then
 *    <testcase>s, then its <system-out> (the whole environment).
 *  - <testcase> takes name, classname, time; children in Jenkins' order
 *    skipped, error, failure, system-out. Jenkins' <skipped> is a plain
 *    string element (no attributes), so a skip reason is its text.
 *  - time is SUREFIRE_TIME in junit-10: digits and a point, never negative.
 *
 * Every string that comes from outside (titles, reasons, host names, the
 * command line) is cleaned to characters XML 1.0 allows and to valid UTF-8
 * before the writer sees it, and any attachment marker in it is broken
 * (xw_render_junit, reports/xmlw.h); the writer does the escaping.
 */
#include "reports/report.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "base/utc.h"
#include "harness/explain.h"
#include "harness/runinfo.h"
#include "reports/junit.h"
#include "reports/junit_props.h"
#include "reports/traceability.h"
#include "reports/link.h"
#include "reports/xmlw.h"

/* ---- the elements every junit.xml is made of (junit.h) ---------------- */

double junit_seconds(double s)
{
	return isfinite(s) && s > 0 ? s : 0.0;
}

static void counts(struct xw *x, const struct junit_counts *c, bool skipped)
{
	xw_attrf(x, "tests", "%zu", c->tests);
	xw_attrf(x, "failures", "%zu", c->failures);
	xw_attrf(x, "errors", "%zu", c->errors);
	if (skipped)
		xw_attrf(x, "skipped", "%zu", c->skipped);
	xw_attrf(x, "time", "%.3f", junit_seconds(c->seconds));
}

void junit_begin(struct xw *x, const char *name, const struct junit_counts *c)
{
	xw_check(x, xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL));
	xw_start(x, "testsuites");
	xw_attr(x, "name", name);
	counts(x, c, false);
}

void junit_end(struct xw *x)
{
	xw_end(x); /* testsuites */
	if (!x->failed)
		xw_check(x, xmlTextWriterEndDocument(x->w));
	if (!x->failed)
		xw_check(x, xmlTextWriterFlush(x->w));
}

void junit_suite_begin(struct xw *x, const struct junit_suite *s)
{
	xw_start(x, "testsuite");
	xw_attr(x, "name", s->name);
	counts(x, &s->c, true);
	if (s->timestamp && s->timestamp[0])
		xw_attr(x, "timestamp", s->timestamp);
	if (s->hostname)
		xw_attr(x, "hostname", s->hostname);
	xw_attrf(x, "id", "%zu", s->id);
	xw_attr(x, "package", s->package);
	xw_start(x, "properties");
}

void junit_prop(struct xw *x, const char *name, const char *value)
{
	xw_start(x, "property");
	xw_attr(x, "name", name);
	xw_attr(x, "value", value ? value : "");
	xw_end(x);
}

void junit_props_end(struct xw *x)
{
	xw_end(x); /* properties */
}

void junit_suite_end(struct xw *x)
{
	xw_end(x); /* testsuite */
}

void junit_case_begin(struct xw *x, const char *name, const char *classname, double seconds)
{
	xw_start(x, "testcase");
	xw_attr(x, "name", name);
	xw_attr(x, "classname", classname);
	xw_attrf(x, "time", "%.3f", junit_seconds(seconds));
}

void junit_skipped(struct xw *x, const char *reason)
{
	xw_start(x, "skipped");
	xw_text(x, reason ? reason : "");
	xw_end(x);
}

static void verdict_element(struct xw *x, const char *elem, const char *type, const char *message)
{
	xw_start(x, elem);
	xw_attr(x, "type", type);
	xw_attr(x, "message", message);
	xw_end(x);
}

void junit_error(struct xw *x, const char *type, const char *message)
{
	verdict_element(x, "error", type, message);
}

void junit_failure(struct xw *x, const char *type, const char *message)
{
	verdict_element(x, "failure", type, message);
}

void junit_case_end(struct xw *x)
{
	xw_end(x); /* testcase */
}

/* <property name="..." value="..."/>, the name built from a format of
 * junit_props.h and its arguments. */
static void x_vprop(struct xw *x, const char *value, const char *namefmt, va_list ap)
{
	char *name;
	if (x->failed)
		return;
	if (vasprintf(&name, namefmt, ap) < 0) {
		x->failed = true;
		return;
	}
	junit_prop(x, name, value);
	free(name);
}

static void x_prop(struct xw *x, const char *value, const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));
static void x_prop(struct xw *x, const char *value, const char *namefmt, ...)
{
	va_list ap;
	va_start(ap, namefmt);
	x_vprop(x, value, namefmt, ap);
	va_end(ap);
}

/* ---- properties -------------------------------------------------------- */

/* The readiness tally, then the checks that warn or fail by name ("6 ok,
 * 4 notes, 2 warnings, 0 failures; warn: rt-throttling, smt"), so that a
 * CI page shows the machine was unfit in one property; every check with
 * its finding and remedy is in results.json and report.html. */
static void ready_property(struct xw *x, const struct report_view *view)
{
	size_t count[READY_NLEVELS];
	char tally[160];
	if (!view->ready_recorded)
		return;
	report_view_ready_counts(view, count);
	ready_count_text(count, tally, sizeof tally);
	char *value = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&value, &len);
	if (!m) {
		x->failed = true;
		return;
	}
	fputs(tally, m);
	static const enum ready_level amiss[] = { READY_WARN, READY_FAIL };
	for (size_t k = 0; k < sizeof amiss / sizeof amiss[0]; k++) {
		bool any = false;
		for (size_t i = 0; i < view->nready; i++) {
			if (view->ready[i].level != amiss[k])
				continue;
			if (!any)
				fprintf(m, "; %s: ", ready_level_name(amiss[k]));
			fprintf(m, "%s%s", any ? ", " : "", view->ready[i].name);
			any = true;
		}
	}
	if (fclose(m) != 0)
		x->failed = true;
	else
		x_prop(x, value, JP_READY_TALLY);
	free(value);
}

/* The environment keys junit.xml keeps as properties: which machine,
 * kernel and build. Generic viewers list every property before the first
 * test case, and the whole fingerprint (some 50 keys) with every readiness
 * check and remedy pushed it pages down; those are in results.json and
 * report.html. With the alarms, the verdicts, readiness, the requirements
 * file and the report: at most JUNIT_MAX_SUITE_PROPS, one screen. */
static const char *const env_keys[] = { "host.label", "host.name", "host.id",
					"host.kernel.release", "rtconform.version",
					"rtconform.commit" };

/* Keys kept only when they say something is amiss: a sanitizer build
 * (memory not locked), a run cut short, and faults `rtconform selftest`
 * injected (cli/run_faults.h). */
static const struct {
	const char *key, *usual;
} env_alarms[] = { { "rtconform.build", "standard" }, { "rtconform.interrupted", "no" },
		   { "rtconform.injected_faults", "" } };

static void env_properties(struct xw *x, const struct report_view *view,
			   const struct rv_file *f)
{
	for (size_t i = 0; i < sizeof env_keys / sizeof env_keys[0]; i++) {
		const char *v = fingerprint_get(&view->env, env_keys[i]);
		if (v)
			x_prop(x, v, "%s", env_keys[i]);
	}
	for (size_t i = 0; i < sizeof env_alarms / sizeof env_alarms[0]; i++) {
		const char *v = fingerprint_get(&view->env, env_alarms[i].key);
		if (v && strcmp(v, env_alarms[i].usual) != 0)
			x_prop(x, v, "%s", env_alarms[i].key);
	}
	/* The suite's verdicts as the run counted them (those --only left
	 * out among the skipped, those measured without limits apart from
	 * the passed), as the terminal's last line does. */
	struct report_totals t;
	char counts[160], unjudged[48] = "";
	report_view_file_totals(f, &t);
	char undecided[48] = "";
	if (t.no_limits)
		snprintf(unjudged, sizeof unjudged, " no-limits=%zu", t.no_limits);
	if (t.inconclusive)
		snprintf(undecided, sizeof undecided, " inconclusive=%zu", t.inconclusive);
	snprintf(counts, sizeof counts, "passed=%zu%s failed=%zu%s errors=%zu skipped=%zu",
		 t.passed - t.no_limits, unjudged, t.failures, undecided, t.errors, t.skipped);
	x_prop(x, counts, JP_VERDICTS);
	ready_property(x, view);

	/* What was measured against: an auditor needs the exact file. Also
	 * guarantees <properties> is never empty, as Jenkins requires. */
	x_prop(x, f->path, JP_REQ_PATH);
	if (f->version)
		x_prop(x, f->version, JP_REQ_VERSION);
	x_prop(x, f->sha256, JP_REQ_SHA256);
	x_prop(x, JUNIT_REPORT, JP_REPORT);
}
/* A screen (docs/reports.md, "junit.xml"): the environment's keys and
 * alarms, then verdicts, readiness, the file's path, version and sha256
 * and the report: 6. */
#define JUNIT_MAX_SUITE_PROPS 20
_Static_assert(sizeof env_keys / sizeof env_keys[0] + sizeof env_alarms / sizeof env_alarms[0] +
		       6 <= JUNIT_MAX_SUITE_PROPS,
	       "a junit.xml suite's properties must fit one screen (docs/reports.md)");

/* ---- test cases -------------------------------------------------------- */

/* Whether junit.xml lists r: a requirement `run --only` left out is a
 * skipped test case only when asked (--junit-skipped): CI pages count a
 * skip as something that did not happen and list each, so nine
 * requirements nobody asked for would read as nine tests that could not
 * run. The one rule for the test cases, their properties and the counts. */
static bool listed(const struct report_view *v, const struct rv_req *r)
{
	return !r->not_selected || v->junit_not_selected;
}

/* The counts of the test cases junit.xml lists, of file f (NULL: every
 * file). */
static void listed_totals(const struct report_view *v, const struct rv_file *f,
			  struct report_totals *t)
{
	memset(t, 0, sizeof *t);
	for (size_t k = 0; k < v->nfiles; k++) {
		const struct rv_file *vf = &v->files[k];
		for (size_t i = 0; (!f || vf == f) && i < vf->nreqs; i++)
			if (listed(v, &vf->reqs[i]))
				report_totals_add(t, vf->reqs[i].verdict, vf->reqs[i].nlimits,
						  vf->reqs[i].seconds);
	}
	/* An inconclusive requirement is a <failure> (type="inconclusive"),
	 * so the schemas' failures count it. */
	t->failures += t->inconclusive;
	t->inconclusive = 0;
}

void report_junit_totals(const struct report_view *v, struct report_totals *t)
{
	listed_totals(v, NULL, t);
}

/* "; top cause: 68% ksoftirqd/1 (pid 23, RT 1, ...)": the largest part of
 * the traced breach's explanation (docs/explain.md), one component only so
 * the one-line reason stays one line. */
static void top_cause(const struct explain *e, FILE *msg)
{
	uint64_t w = e->end_ns - e->start_ns;
	char l[200];
	if (!e->ncomp || !w)
		return;
	explain_label(e, &e->comp[0], l, sizeof l);
	fprintf(msg, "; top cause of the traced breach: %u%% %s",
		(unsigned)((e->comp[0].ns * 100 + w / 2) / w), l);
}


/* The <failure> of a requirement whose message was written to msg (a
 * memstream over *message, set only once it is closed here; any: it holds
 * something): its text the message, else the requirement's reason, else
 * fallback. */
static void failure_end(struct xw *x, FILE *msg, char **message, bool any,
			const struct rv_req *r, const char *type, const char *fallback)
{
	if (msg && fclose(msg) != 0)
		x->failed = true;
	junit_failure(x, type, any && *message ? *message : r->reason ? r->reason : fallback);
	free(*message);
}
/* The failure's message, what CI pages show as the one-line reason: every
 * failed limit with its metric, "per-op mean 61.2 us > 50 us (n=1000);
 * per-op max 412 us > 300 us (n=1000)", then every limit that could not be
 * judged ("error: p99.999 per-op cannot be computed from 3000 samples").
 * Said once, in the attribute (docs/reports.md says why); the element is
 * empty, and the test case's <system-out> has each limit on a line. */
static void failure_element(struct xw *x, const struct rv_req *r)
{
	char *message = NULL;
	size_t mlen = 0;
	FILE *msg = open_memstream(&message, &mlen);
	if (!msg)
		x->failed = true; /* the message would be missing: never a quiet gap */
	bool any = false;
	for (size_t i = 0; msg && i < r->nlimits; i++) {
		/* Of a failed requirement, the limits that were judged and missed. */
		const struct rv_limit *l = &r->limits[i];
		if (l->verdict != VERDICT_FAIL)
			continue;
		fprintf(msg, "%s%s %s", any ? "; " : "", l->metric, l->text ? l->text : l->statistic);
		any = true;
	}
	for (size_t i = 0; any && i < r->nlimits; i++) {
		/* Then those that could not be judged, each saying why (the
		 * judge's sentence names statistic and metric). */
		const struct rv_limit *l = &r->limits[i];
		if (l->verdict == VERDICT_ERROR)
			fprintf(msg, "; error: %s", l->text ? l->text : l->statistic);
	}
	if (msg && any && r->explain)
		top_cause(r->explain, msg);
	failure_end(x, msg, &message, any, r, "LatencyBudgetExceeded", "limits exceeded");
}

/* An inconclusive requirement's failure (CI must not take it for a pass;
 * its type tells it from a missed budget): each undecided limit as
 * "not enough samples to decide: need about N (per-op p99 ...)", the
 * judge's sentence in the brackets; "not enough samples to decide, and no
 * number would: the estimate sits at the limit (...)" for one that no count
 * would decide. */
static void inconclusive_element(struct xw *x, const struct rv_req *r)
{
	char *message = NULL;
	size_t mlen = 0;
	FILE *msg = open_memstream(&message, &mlen);
	if (!msg)
		x->failed = true;
	bool any = false;
	for (size_t i = 0; msg && i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		if (l->verdict != VERDICT_INCONCLUSIVE)
			continue;
		if (l->need)
			fprintf(msg, "%snot enough samples to decide: need about %llu", any ? "; " : "",
				(unsigned long long)l->need);
		else
			fprintf(msg, "%snot enough samples to decide, and no number would: the "
				"estimate sits at the limit", any ? "; " : "");
		char lo[48] = "none", hi[48] = "none", bound[48];
		struct quantity q = { l->lower.v, rv_limit_unit(l) };
		if (l->lower.have)
			units_fmt_qty(&q, lo, sizeof lo);
		q.value = l->upper.v;
		if (l->upper.have)
			units_fmt_qty(&q, hi, sizeof hi);
		units_fmt_qty(l->has_max ? &l->max : &l->min, bound, sizeof bound);
		fprintf(msg, " (%s %s %s %s: its %g%% interval [%s, %s])", l->metric, l->statistic,
			l->has_max ? "max" : "min", bound, l->confidence * 100, lo, hi);
		any = true;
	}
	failure_end(x, msg, &message, any, r, "inconclusive", "inconclusive");
}

/* What a CI page needs of requirement r first, one "key: value" a line
 * (docs/reports.md, "junit.xml"): its verdict; the limit that decides it
 * (rv_req_deciding_limit: the failing one, else the tightest), its figure
 * as the judge said it and the limit; the cause (the reason of what did
 * not pass); the link to its section of report.html (fi: its file's
 * index; NULL host: a run's junit.xml, beside its report.html). */
static void ci_lines(const struct rv_req *r, const struct rv_file *f, size_t fi,
		     const char *host, FILE *out)
{
	fprintf(out, JP_CASE_VERDICT ": %s\n", verdict_name(r->verdict));
	size_t k = rv_req_deciding_limit(r);
	if (k != SIZE_MAX) {
		const struct rv_limit *l = &r->limits[k];
		char words[256];
		report_limit_text(l->metric, l->statistic, l->has_min ? &l->min : NULL,
				  l->has_max ? &l->max : NULL, l->confidence, words, sizeof words);
		fprintf(out, JP_CASE_FIGURE ": %s %s\n", l->metric, l->text ? l->text : "-");
		fprintf(out, JP_CASE_LIMIT ": %s\n", words);
	}
	if (r->verdict != VERDICT_PASS && r->reason)
		fprintf(out, JP_CASE_CAUSE ": %s\n", r->reason);
	if (!host) {
		char a[32];
		report_html_anchor((unsigned)fi, (unsigned)(r - f->reqs), a, sizeof a);
		fprintf(out, JP_CASE_REPORT ": ./" JUNIT_REPORT "#%s\n", a);
	}
}

/* The test case's <system-out>: the CI lines, then what junit.xml keeps of
 * the requirement for people reading the CI page (the histograms and
 * per-run figures are in results.json); even an error keeps what the
 * worker measured before it died. The saved trace is attached when it is
 * one a run writes and a regular file in trace_dir (rv_req.trace_link;
 * report_junit_system_out, reports/link.c; docs/reports.md). */
static void system_out(struct xw *x, const struct rv_req *r, const struct rv_file *f, size_t fi,
		       const char *host, const char *trace_dir)
{
	char *detail = NULL;
	size_t dlen = 0;
	FILE *mem = open_memstream(&detail, &dlen);
	if (!mem) {
		x->failed = true;
		return;
	}
	ci_lines(r, f, fi, host, mem);
	report_write_req_brief(r, mem);
	if (fclose(mem) != 0)
		x->failed = true;
	else
		report_junit_system_out(x, detail, trace_dir,
					r->trace_link == RV_TRACE_LINKED ? r->trace : NULL);
	free(detail);
}

/* host: NULL, or the host a fleet junit.xml qualifies the classname with;
 * trace_dir: where r's trace lies (report_view.trace_dir). */
static void testcase(struct xw *x, const struct rv_file *f, const struct rv_req *r,
		     const char *host, const char *trace_dir, size_t fi)
{
	char *name = NULL, *classname = NULL;
	if (r->title) {
		if (asprintf(&name, "%s: %s", r->id, r->title) < 0)
			name = NULL;
	} else {
		name = strdup(r->id);
	}
	if (asprintf(&classname, "%s%s%s.%s", host ? host : "", host ? "." : "", f->name,
		     r->probe) < 0)
		classname = NULL;
	if (!name || !classname) {
		x->failed = true;
		goto cleanup;
	}

	junit_case_begin(x, name, classname, r->seconds);
	switch (r->verdict) {
	case VERDICT_SKIPPED:
		junit_skipped(x, r->reason);
		break;
	case VERDICT_ERROR:
		/* The reason once, in the attribute, as a failure's. */
		junit_error(x, "MeasurementError", r->reason ? r->reason : "could not be measured");
		break;
	case VERDICT_FAIL:
		failure_element(x, r);
		break;
	case VERDICT_INCONCLUSIVE:
		inconclusive_element(x, r);
		break;
	case VERDICT_PASS:
		break;
	}
	system_out(x, r, f, fi, host, trace_dir);
	junit_case_end(x);

cleanup:
	free(name);
	free(classname);
}

/* The counts of junit_counts from a view's totals. */
static struct junit_counts counts_of(const struct report_totals *t)
{
	return (struct junit_counts){ t->tests, t->failures, t->errors, t->skipped, t->seconds };
}

static void testsuite(struct xw *x, const struct report_view *view, size_t index)
{
	const struct rv_file *f = &view->files[index];
	struct report_totals t;
	listed_totals(view, f, &t);
	char ts[32] = "";
	if (f->started)
		utc_fmt(f->started, false, ts, sizeof ts);
	const struct junit_suite s = { f->name, counts_of(&t), ts,
				       fingerprint_get(&view->env, "host.name"), index, f->name };
	junit_suite_begin(x, &s);
	env_properties(x, view, f);
	junit_props_end(x);

	for (size_t i = 0; i < f->nreqs; i++)
		if (listed(view, &f->reqs[i]))
			testcase(x, f, &f->reqs[i], NULL, view->trace_dir, index);
	junit_suite_end(x);
}

static void document(struct xw *x, const struct report_view *view)
{
	struct report_totals t;
	listed_totals(view, NULL, &t);
	const struct junit_counts c = counts_of(&t);
	junit_begin(x, "rtconform", &c);
	for (size_t i = 0; i < view->nfiles; i++)
		testsuite(x, view, i);
	junit_end(x);
}

static void junit_doc(struct xw *x, const void *v)
{
	document(x, v);
}

char *report_junit_render(const struct report_view *v, size_t *len, char *why, size_t whylen)
{
	return xw_render_junit(junit_doc, v, len, why, whylen);
}

int report_junit_put(const struct report_view *v, FILE *f, char *why, size_t whylen)
{
	return xw_put_junit(junit_doc, v, f, why, whylen);
}

/* ---- a host's suite of a fleet junit.xml (rtconform merge) ---- */

static void host_suite(struct xw *x, const struct report_view *v, const char *host,
		       const char *source, size_t index)
{
	struct report_totals t;
	listed_totals(v, NULL, &t);
	const struct junit_suite s = { host, counts_of(&t), NULL,
				       fingerprint_get(&v->env, "host.name"), index, host };
	/* Never empty (Jenkins): the source is always there. */
	junit_suite_begin(x, &s);
	x_prop(x, source, "%s", "rtconform.source");
	x_prop(x, runinfo_version, "%s", JP_MERGE_VERSION);
	x_prop(x, runinfo_commit, "%s", JP_MERGE_COMMIT);
	static const char *const keys[] = { "host.label", "host.name", "host.id", "host.os",
					    "host.kernel.release", "rtconform.version",
					    "rtconform.injected_faults" };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const char *val = fingerprint_get(&v->env, keys[k]);
		if (val)
			x_prop(x, val, "%s", keys[k]);
	}
	junit_props_end(x);
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++)
			if (listed(v, &v->files[f].reqs[i]))
				testcase(x, &v->files[f], &v->files[f].reqs[i], host,
					 v->trace_dir, f);
	junit_suite_end(x);
}

struct host_suite_args {
	const struct report_view *v;
	const char *host, *source;
	size_t index;
};

static void host_suite_doc(struct xw *x, const void *arg)
{
	const struct host_suite_args *a = arg;
	host_suite(x, a->v, a->host, a->source, a->index);
}

int report_junit_host_suite(const struct report_view *v, const char *host, const char *source,
			    size_t index, FILE *out)
{
	struct host_suite_args a = { v, host, source, index };
	char why[200];
	/* Onto out as it is made: a host's suite holds its whole fingerprint. */
	return xw_put_junit(host_suite_doc, &a, out, why, sizeof why) ? -EIO : 0;
}

/* ---- a fleet junit.xml (rtconform merge): the hosts' suites in one ---- */

struct fleet_args {
	const struct report_totals *t;
	FILE *suites;
};

static void fleet_doc(struct xw *x, const void *arg)
{
	const struct fleet_args *a = arg;
	const struct junit_counts c = counts_of(a->t);
	junit_begin(x, "rtconform fleet", &c);
	char buf[65536];
	size_t n;
	rewind(a->suites);
	/* the host suites as report_junit_host_suite wrote them, defused */
	xw_raw(x, "\n");
	while (!x->failed && (n = fread(buf, 1, sizeof buf - 1, a->suites)) > 0) {
		buf[n] = '\0';
		xw_raw(x, buf);
	}
	if (ferror(a->suites))
		x->failed = true;
	junit_end(x);
}

int report_junit_fleet_put(const struct report_totals *t, FILE *suites, FILE *out)
{
	struct fleet_args a = { t, suites };
	char why[200];
	return xw_put_junit(fleet_doc, &a, out, why, sizeof why) ? -EIO : 0;
}
