/* junit.c - junit.xml for CI gates, written with libxml2's xmlTextWriter.
 *
 * The shape is the intersection of the two schemas CI systems accept
 * (tests/schemas/junit.xsd encodes what both require):
 *  - <testsuites> takes name, tests, failures, errors, time. Neither schema
 *    allows `skipped` there, so skipped counts appear per suite only.
 *  - <testsuite> takes name, tests, failures, errors, skipped, time,
 *    timestamp, hostname, id, package; children in Jenkins' fixed order:
 *    <properties> (which Jenkins requires to be non-empty), then
 *    <testcase>s.
 *  - <testcase> takes name, classname, time; children in Jenkins' order
 *    skipped, error, failure, system-out. Jenkins' <skipped> is a plain
 *    string element (no attributes), so a skip reason is its text.
 *  - time is SUREFIRE_TIME in junit-10: digits and a point, never negative.
 *
 * Every string that comes from outside (titles, reasons, host names, the
 * command line) is cleaned to characters XML 1.0 allows and to valid UTF-8
 * before the writer sees it; the writer does the escaping.
 */
#include "reports/report.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "reports/junit_props.h"
#include "reports/xmlw.h"

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
	xw_start(x, "property");
	xw_attr(x, "name", name);
	xw_attr(x, "value", value);
	xw_end(x);
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

/* A number property, "%.3f". */
static void x_prop_num(struct xw *x, double v, const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));
static void x_prop_num(struct xw *x, double v, const char *namefmt, ...)
{
	char buf[64];
	va_list ap;
	num_fmt3(v, buf, sizeof buf);
	va_start(ap, namefmt);
	x_vprop(x, buf, namefmt, ap);
	va_end(ap);
}

static void x_prop_u64(struct xw *x, uint64_t v, const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));
static void x_prop_u64(struct xw *x, uint64_t v, const char *namefmt, ...)
{
	char buf[32];
	va_list ap;
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	va_start(ap, namefmt);
	x_vprop(x, buf, namefmt, ap);
	va_end(ap);
}

/* A count property: the whole number it is, else "%.3f" (a mean). */
static void x_prop_count(struct xw *x, double v, const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));
static void x_prop_count(struct xw *x, double v, const char *namefmt, ...)
{
	char buf[64];
	va_list ap;
	if (v >= 0 && v < 1e19 && v == nearbyint(v))
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	else
		num_fmt3(v, buf, sizeof buf);
	va_start(ap, namefmt);
	x_vprop(x, buf, namefmt, ap);
	va_end(ap);
}

static void fmt_utc(time_t t, char *buf, size_t len)
{
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		buf[0] = '\0';
}

/* ---- properties -------------------------------------------------------- */

static void env_properties(struct xw *x, const struct report_view *view,
			   const struct rv_file *f)
{
	/* The fingerprint, with the timebase and command filled in when it
	 * lacks them (see report_view_from_run). */
	for (size_t i = 0; i < view->env.n; i++)
		x_prop(x, view->env.e[i].value, "%s", view->env.e[i].key);

	/* What was measured against: an auditor needs the exact file. Also
	 * guarantees <properties> is never empty, as Jenkins requires. */
	x_prop(x, f->path, JP_REQ_PATH);
	if (f->version)
		x_prop(x, f->version, JP_REQ_VERSION);
	x_prop(x, f->sha256, JP_REQ_SHA256);
}

/* The statistics as properties, from the view (which computed them once,
 * by the same rule: a statistic too few samples allow is left out, since a
 * p99.9 of 500 samples is noise dressed as a number). */
static void result_properties(struct xw *x, const struct rv_req *r)
{
	const char *id = r->id;
	x_prop(x, verdict_name(r->verdict), JP_VERDICT, id);
	if (!r->measured)
		return;
	x_prop_u64(x, r->runs, JP_RUNS, id);
	if (r->batch_mean_ns.have && r->batch_stddev_ns.have) {
		x_prop_num(x, r->batch_mean_ns.v, JP_BATCH_MEAN, id);
		x_prop_num(x, r->batch_stddev_ns.v, JP_BATCH_STDDEV, id);
	}
	for (size_t mi = 0; mi < r->nmetrics; mi++) {
		const struct rv_metric *m = &r->metrics[mi];
		if (m->kind == METRIC_COUNT) {
			/* The mean per run is a real, "%.3f" like every one. */
			for (int i = 0; i < RV_NCSTATS; i++) {
				const char *st = report_view_count_stats[i];
				if (!m->counts[i].have)
					continue;
				if (i == RVC_MEAN)
					x_prop_num(x, m->counts[i].v, JP_M_COUNT_STAT, id, m->name, st);
				else
					x_prop_count(x, m->counts[i].v, JP_M_COUNT_STAT, id, m->name, st);
			}
			continue;
		}
		x_prop_u64(x, m->count, JP_M_COUNT, id, m->name);
		x_prop_u64(x, m->overflow, JP_M_OVERFLOW, id, m->name);
		for (int cycles = 0; cycles <= (m->cycles_per_unit != 0); cycles++)
			for (int i = 0; i < RV_NSTATS; i++) {
				const struct rv_value *val = cycles ? &m->cycles[i] : &m->ns[i];
				if (val->have)
					x_prop_num(x, val->v, JP_M_STAT, id, m->name,
						   report_view_stats[i], cycles ? "cycles" : "ns");
			}
	}
	/* Per-CPU series of metric 0 (timer-wakeup). */
	for (size_t si = 0; si < r->nseries && r->nmetrics; si++) {
		const struct rv_series *sr = &r->series[si];
		const char *m0 = r->metrics[0].name;
		x_prop_u64(x, sr->count, JP_S_COUNT, id, m0, sr->cpu);
		for (int i = 0; i < RV_NSERIES_STATS; i++)
			if (sr->ns[i].have)
				x_prop_num(x, sr->ns[i].v, JP_S_STAT, id, m0, sr->cpu,
					   report_view_series_stats[i]);
	}
}

/* What report.html and results.json need beyond the statistics above, so
 * that `rtconform report junit.xml` can rebuild them from this file alone
 * (numbers as "%.3f" prints them). docs/reports.md lists every name. */

/* A list "a;b;-" ("-": no value) or "lo:hi:count;..." built in memory. */
struct list {
	FILE *f;
	char *buf;
	size_t len;
	bool any;
};

static bool list_open(struct xw *x, struct list *l)
{
	memset(l, 0, sizeof *l);
	l->f = open_memstream(&l->buf, &l->len);
	if (!l->f)
		x->failed = true;
	return l->f != NULL;
}

static void list_sep(struct list *l)
{
	if (l->any)
		fputc(JP_LIST_SEP, l->f);
	l->any = true;
}

static void list_value(struct list *l, const struct rv_value *v)
{
	char buf[64];
	list_sep(l);
	if (v->have) {
		num_fmt3(v->v, buf, sizeof buf);
		fputs(buf, l->f);
	} else {
		fputs(JP_ABSENT, l->f);
	}
}

/* Writes the property (name from a format) and frees the list. */
static void list_close(struct xw *x, struct list *l, const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));
static void list_close(struct xw *x, struct list *l, const char *namefmt, ...)
{
	char *name = NULL;
	va_list ap;
	va_start(ap, namefmt);
	if (vasprintf(&name, namefmt, ap) < 0)
		name = NULL;
	va_end(ap);
	if (fclose(l->f) != 0 || !name)
		x->failed = true;
	else
		x_prop(x, l->buf, "%s", name);
	free(name);
	free(l->buf);
}

/* Each run's count of a count metric (or samples of a duration's). */
static void run_counts_property(struct xw *x, const char *id, const struct rv_metric *m)
{
	struct list l;
	if (list_open(x, &l)) {
		for (size_t i = 0; i < m->nruns; i++) {
			list_sep(&l);
			fprintf(l.f, "%llu", (unsigned long long)m->run_count[i]);
		}
		list_close(x, &l, JP_M_RUN_COUNTS, id, m->name);
	}
}

static void view_metric_properties(struct xw *x, const char *id, const struct rv_metric *m)
{
	char v[64];
	struct list l;
	x_prop(x, metric_kind_name(m->kind), JP_M_KIND, id, m->name);
	if (m->kind == METRIC_COUNT) {
		run_counts_property(x, id, m);
		return;
	}
	/* Scales with 17 digits: every bucket bound times the scale must give
	 * the same double after the round trip. */
	snprintf(v, sizeof v, "%.17g", m->ns_per_unit);
	x_prop(x, v, JP_M_NS_PER_UNIT, id, m->name);
	snprintf(v, sizeof v, "%.17g", m->cycles_per_unit);
	x_prop(x, v, JP_M_CYCLES_PER_UNIT, id, m->name);
	x_prop_u64(x, m->highest, JP_M_HIST_HIGHEST, id, m->name);
	if (list_open(x, &l)) {
		for (size_t i = 0; i < m->nbuckets; i++) {
			list_sep(&l);
			fprintf(l.f, "%llu%c%llu%c%llu", (unsigned long long)m->buckets[i].lo,
				JP_BUCKET_SEP, (unsigned long long)m->buckets[i].hi, JP_BUCKET_SEP,
				(unsigned long long)m->buckets[i].count);
		}
		list_close(x, &l, JP_M_HIST, id, m->name);
	}
	run_counts_property(x, id, m);
	if (list_open(x, &l)) {
		for (size_t i = 0; i < m->nruns; i++)
			list_value(&l, &m->run_mean_ns[i]);
		list_close(x, &l, JP_M_RUN_MEANS, id, m->name);
	}
}

static void limit_properties(struct xw *x, const char *id, size_t n, const struct rv_limit *l)
{
	const char *unit = l->cycles ? "cycles" : "ns";
	x_prop(x, l->metric, JP_LIMIT_METRIC, id, n);
	x_prop(x, l->statistic, JP_LIMIT_STATISTIC, id, n);
	if (l->count) {
		if (l->has_max)
			x_prop_count(x, l->max.value, JP_LIMIT_MAX_COUNT, id, n);
		if (l->has_min)
			x_prop_count(x, l->min.value, JP_LIMIT_MIN_COUNT, id, n);
		if (l->measured.have)
			x_prop_count(x, l->measured.v, JP_LIMIT_MEASURED_COUNT, id, n);
	} else {
		if (l->has_max)
			x_prop_num(x, l->max.value, JP_LIMIT_MAX, id, n, unit);
		if (l->has_min)
			x_prop_num(x, l->min.value, JP_LIMIT_MIN, id, n, unit);
		if (l->measured.have)
			x_prop_num(x, l->measured.v, JP_LIMIT_MEASURED, id, n, unit);
	}
	x_prop(x, verdict_name(l->verdict), JP_LIMIT_VERDICT, id, n);
	if (l->text)
		x_prop(x, l->text, JP_LIMIT_TEXT, id, n);
}

static void view_properties(struct xw *x, const struct rv_req *r)
{
	const char *id = r->id;
	x_prop(x, r->probe, JP_PROBE, id);
	for (size_t i = 0; i < r->nparams; i++)
		x_prop(x, r->params[i].value, JP_PARAM, id, r->params[i].name);
	x_prop(x, r->policy, JP_POLICY, id);
	if (r->cpu >= 0)
		x_prop_u64(x, (uint64_t)r->cpu, JP_CPU, id);
	if (r->source)
		x_prop(x, r->source, JP_SOURCE, id);
	if (r->reason)
		x_prop(x, r->reason, JP_REASON, id);
	if (r->note)
		x_prop(x, r->note, JP_NOTE, id);
	if (r->load)
		x_prop(x, r->load, JP_LOAD, id);
	for (size_t i = 0; i < r->nlimits; i++)
		limit_properties(x, id, i + 1, &r->limits[i]);
	if (!r->measured)
		return;

	struct list l;
	if (list_open(x, &l)) {
		for (size_t i = 0; i < r->nmetrics; i++) {
			if (i)
				fputc(JP_METRIC_SEP, l.f);
			fputs(r->metrics[i].name, l.f);
		}
		list_close(x, &l, JP_METRICS, id);
	}
	if (list_open(x, &l)) {
		for (uint32_t i = 0; i < r->runs; i++)
			list_value(&l, &r->batch_run_ns[i]);
		list_close(x, &l, JP_BATCH_PER_RUN, id);
	}
	for (size_t i = 0; i < r->nmetrics; i++)
		view_metric_properties(x, id, &r->metrics[i]);
}

/* ---- test cases -------------------------------------------------------- */

/* Durations for `time`: SUREFIRE_TIME admits no sign, NaN or exponent. */
static double clean_seconds(double s)
{
	return isfinite(s) && s > 0 ? s : 0.0;
}

static void failure_element(struct xw *x, const struct rv_req *r)
{
	char *body = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&body, &blen);
	if (!mem)
		x->failed = true; /* the body would be missing: never a quiet gap */
	const char *message = NULL;
	for (size_t i = 0; i < r->nlimits; i++) {
		/* Of a failed requirement, the limits that were judged and missed. */
		if (r->limits[i].verdict != VERDICT_FAIL)
			continue;
		const char *text = r->limits[i].text ? r->limits[i].text : "";
		if (!message)
			message = text;
		if (mem)
			fprintf(mem, "%s\n", text);
	}
	if (mem && fclose(mem) != 0) {
		free(body);
		body = NULL;
		x->failed = true;
	}
	const char *reason = r->reason ? r->reason : "";
	if (!message)
		message = r->reason ? r->reason : "limits exceeded";

	xw_start(x, "failure");
	xw_attr(x, "type", "LatencyBudgetExceeded");
	xw_attr(x, "message", message);
	xw_text(x, body && *body ? body : reason);
	xw_end(x);
	free(body);
}

/* The saved trace as an attachment of the testcase: the line Jenkins'
 * JUnit Attachments plugin reads from system-out, on a line of its own,
 * with the absolute path (docs/reports.md). */
static void junit_attachment(const struct rv_req *r, FILE *mem)
{
	if (r->trace)
		fprintf(mem, "[[ATTACHMENT|%s]]\n", r->trace);
}

/* Statistics and histogram for people reading the CI page; even an error
 * keeps what the worker measured before it died. */
static void system_out(struct xw *x, const struct rv_req *r)
{
	char *detail = NULL;
	size_t dlen = 0;
	FILE *mem = open_memstream(&detail, &dlen);
	if (!mem) {
		x->failed = true;
		return;
	}
	report_write_req_detail(r, mem);
	junit_attachment(r, mem);
	if (fclose(mem) != 0) {
		x->failed = true;
	} else if (dlen) {
		xw_start(x, "system-out");
		xw_text(x, detail);
		xw_end(x);
	}
	free(detail);
}

static void testcase(struct xw *x, const struct rv_file *f, const struct rv_req *r)
{
	char *name = NULL, *classname = NULL;
	if (r->title) {
		if (asprintf(&name, "%s: %s", r->id, r->title) < 0)
			name = NULL;
	} else {
		name = strdup(r->id);
	}
	if (asprintf(&classname, "%s.%s", f->name, r->probe) < 0)
		classname = NULL;
	if (!name || !classname) {
		x->failed = true;
		goto cleanup;
	}

	xw_start(x, "testcase");
	xw_attr(x, "name", name);
	xw_attr(x, "classname", classname);
	xw_attrf(x, "time", "%.3f", clean_seconds(r->seconds));

	const char *reason = r->reason ? r->reason : "";
	switch (r->verdict) {
	case VERDICT_SKIPPED:
		xw_start(x, "skipped");
		xw_text(x, reason);
		xw_end(x);
		break;
	case VERDICT_ERROR:
		xw_start(x, "error");
		xw_attr(x, "type", "MeasurementError");
		xw_attr(x, "message", r->reason ? r->reason : "could not be measured");
		xw_text(x, reason);
		xw_end(x);
		break;
	case VERDICT_FAIL:
		failure_element(x, r);
		break;
	case VERDICT_PASS:
		break;
	}
	system_out(x, r);
	xw_end(x); /* testcase */

cleanup:
	free(name);
	free(classname);
}

static void testsuite(struct xw *x, const struct report_view *view, size_t index)
{
	const struct rv_file *f = &view->files[index];
	struct report_totals t;
	report_view_file_totals(f, &t);

	xw_start(x, "testsuite");
	xw_attr(x, "name", f->name);
	xw_attrf(x, "tests", "%zu", t.tests);
	xw_attrf(x, "failures", "%zu", t.failures);
	xw_attrf(x, "errors", "%zu", t.errors);
	xw_attrf(x, "skipped", "%zu", t.skipped);
	xw_attrf(x, "time", "%.3f", clean_seconds(t.seconds));
	if (f->started) {
		char ts[32];
		fmt_utc((time_t)f->started, ts, sizeof ts);
		if (ts[0])
			xw_attr(x, "timestamp", ts);
	}
	const char *host = fingerprint_get(&view->env, "host.name");
	if (host)
		xw_attr(x, "hostname", host);
	xw_attrf(x, "id", "%zu", index);
	xw_attr(x, "package", f->name);

	xw_start(x, "properties");
	env_properties(x, view, f);
	for (size_t i = 0; i < f->nreqs; i++) {
		result_properties(x, &f->reqs[i]);
		view_properties(x, &f->reqs[i]);
	}
	xw_end(x);

	for (size_t i = 0; i < f->nreqs; i++)
		testcase(x, f, &f->reqs[i]);
	xw_end(x); /* testsuite */
}

static void document(struct xw *x, const struct report_view *view)
{
	struct report_totals t;
	report_view_totals(view, &t);

	xw_check(x, xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL));
	xw_start(x, "testsuites");
	xw_attr(x, "name", "rtconform");
	xw_attrf(x, "tests", "%zu", t.tests);
	xw_attrf(x, "failures", "%zu", t.failures);
	xw_attrf(x, "errors", "%zu", t.errors);
	xw_attrf(x, "time", "%.3f", clean_seconds(t.seconds));
	for (size_t i = 0; i < view->nfiles; i++)
		testsuite(x, view, i);
	xw_end(x);
	if (!x->failed)
		xw_check(x, xmlTextWriterEndDocument(x->w));
	if (!x->failed)
		xw_check(x, xmlTextWriterFlush(x->w));
}

char *report_junit_render(const struct report_view *v, size_t *len, char *why, size_t whylen)
{
	struct xw x = { 0 };
	char *out = NULL;
	xmlBufferPtr buf = xmlBufferCreate();
	/* "%.3f" must give a point, never the user's decimal comma. */
	locale_t old = num_c_enter();

	if (buf && (x.w = xmlNewTextWriterMemory(buf, 0))) {
		xmlTextWriterSetIndent(x.w, 1);
		xmlTextWriterSetIndentString(x.w, BAD_CAST "  ");
		document(&x, v);
		if (!x.failed)
			out = xmlw_buffer_copy(buf, len);
	}
	if (!out)
		snprintf(why, whylen, "%s", strerror(ENOMEM));
	if (x.w)
		xmlFreeTextWriter(x.w);
	if (buf)
		xmlBufferFree(buf);
	num_c_leave(old);
	return out;
}
