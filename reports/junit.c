/* junit.c - junit.xml for CI gates, written with libxml2's xmlTextWriter.
 *
 * The shape is the intersection of the two schemas CI systems accept
 * (../shared/schemas/junit/jenkins-junit.xsd and junit-10.xsd):
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
#include "base/sha256.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "harness/stats.h"
#include "reports/xmlw.h"

/* <property name="..." value="..."/>, the name built from a format. */
static void x_prop(struct xw *x, const char *value, const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));
static void x_prop(struct xw *x, const char *value, const char *namefmt, ...)
{
	if (x->failed)
		return;
	char *name;
	va_list ap;
	va_start(ap, namefmt);
	int rc = vasprintf(&name, namefmt, ap);
	va_end(ap);
	if (rc < 0) {
		x->failed = true;
		return;
	}
	xw_start(x, "property");
	xw_attr(x, "name", name);
	xw_attr(x, "value", value);
	xw_end(x);
	free(name);
}

/* ---- numbers ----------------------------------------------------------- */

/* Durations for `time`: SUREFIRE_TIME admits no sign, NaN or exponent. */
static double clean_seconds(double s)
{
	return isfinite(s) && s > 0 ? s : 0.0;
}

static const char *suite_name(const struct req_file *f)
{
	if (!f)
		return "rtconform";
	return f->name && *f->name ? f->name : (f->path ? f->path : "rtconform");
}

static void fmt_utc(time_t t, char *buf, size_t len)
{
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		buf[0] = '\0';
}

/* ---- properties -------------------------------------------------------- */

static void env_properties(struct xw *x, const struct report_view *view,
			   const struct req_file *f)
{
	/* The fingerprint, with the timebase and command filled in when it
	 * lacks them (see report_view_from_run). */
	for (size_t i = 0; i < view->env.n; i++)
		x_prop(x, view->env.e[i].value, "%s", view->env.e[i].key);

	/* What was measured against: an auditor needs the exact file. Also
	 * guarantees <properties> is never empty, as Jenkins requires. */
	x_prop(x, f && f->path ? f->path : "", "requirements.path");
	if (f && f->version)
		x_prop(x, f->version, "requirements.version");
	if (f) {
		char hex[65];
		sha256_hex(f->sha256, hex);
		x_prop(x, hex, "requirements.sha256");
	}
}

static void prop_num(struct xw *x, double v, const char *id, const char *name);

/* The statistics as properties, from the view (which computed them once,
 * by the same rule: a statistic too few samples allow is left out, since a
 * p99.9 of 500 samples is noise dressed as a number). */
static void result_properties(struct xw *x, const struct rv_req *r)
{
	const char *id = r->id;
	char v[64];
	x_prop(x, verdict_name(r->verdict), "%s.verdict", id);
	if (!r->measured)
		return;
	snprintf(v, sizeof v, "%u", (unsigned)r->runs);
	x_prop(x, v, "%s.runs", id);
	if (r->batch_mean_ns.have && r->batch_stddev_ns.have) {
		prop_num(x, r->batch_mean_ns.v, id, "batch.runs_mean_ns");
		prop_num(x, r->batch_stddev_ns.v, id, "batch.runs_stddev_ns");
	}
	char name[160];
	for (size_t mi = 0; mi < r->nmetrics; mi++) {
		const struct rv_metric *m = &r->metrics[mi];
		snprintf(v, sizeof v, "%llu", (unsigned long long)m->count);
		x_prop(x, v, "%s.%s.count", id, m->name);
		snprintf(v, sizeof v, "%llu", (unsigned long long)m->overflow);
		x_prop(x, v, "%s.%s.overflow", id, m->name);
		for (int cycles = 0; cycles <= (m->cycles_per_unit != 0); cycles++)
			for (int i = 0; i < RV_NSTATS; i++) {
				const struct rv_value *val = cycles ? &m->cycles[i] : &m->ns[i];
				if (!val->have)
					continue;
				snprintf(name, sizeof name, "%s.%s_%s", m->name, report_view_stats[i],
					 cycles ? "cycles" : "ns");
				prop_num(x, val->v, id, name);
			}
	}
	/* Per-CPU series of metric 0 (timer-wakeup). */
	for (size_t si = 0; si < r->nseries && r->nmetrics; si++) {
		const struct rv_series *sr = &r->series[si];
		snprintf(v, sizeof v, "%llu", (unsigned long long)sr->count);
		x_prop(x, v, "%s.%s.cpu%d.count", id, r->metrics[0].name, sr->cpu);
		for (int i = 0; i < RV_NSERIES_STATS; i++) {
			if (!sr->ns[i].have)
				continue;
			snprintf(name, sizeof name, "%s.cpu%d.%s_ns", r->metrics[0].name, sr->cpu,
				 report_view_series_stats[i]);
			prop_num(x, sr->ns[i].v, id, name);
		}
	}
}

/* What report.html and results.json need beyond the statistics above, so
 * that `rtconform report junit.xml` can rebuild them from this file alone.
 * Written from the view, whose numbers are already what these texts parse
 * back to. docs/reports.md lists every name. */

static void prop_num(struct xw *x, double v, const char *id, const char *name)
{
	char buf[64];
	num_fmt3(v, buf, sizeof buf);
	x_prop(x, buf, "%s.%s", id, name);
}

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
		fputc(';', l->f);
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
		fputc('-', l->f);
	}
}

/* Writes the property and frees the list. */
static void list_close(struct xw *x, struct list *l, const char *id, const char *name)
{
	if (fclose(l->f) != 0)
		x->failed = true;
	else
		x_prop(x, l->buf, "%s.%s", id, name);
	free(l->buf);
}

static void view_metric_properties(struct xw *x, const char *id, const struct rv_metric *m)
{
	char v[64], name[96];
	struct list l;
	/* Scales with 17 digits: every bucket bound times the scale must give
	 * the same double after the round trip. */
	snprintf(v, sizeof v, "%.17g", m->ns_per_unit);
	x_prop(x, v, "%s.%s.ns_per_unit", id, m->name);
	snprintf(v, sizeof v, "%.17g", m->cycles_per_unit);
	x_prop(x, v, "%s.%s.cycles_per_unit", id, m->name);
	snprintf(v, sizeof v, "%llu", (unsigned long long)m->highest);
	x_prop(x, v, "%s.%s.hist_highest", id, m->name);
	if (list_open(x, &l)) {
		for (size_t i = 0; i < m->nbuckets; i++) {
			list_sep(&l);
			fprintf(l.f, "%llu:%llu:%llu", (unsigned long long)m->buckets[i].lo,
				(unsigned long long)m->buckets[i].hi,
				(unsigned long long)m->buckets[i].count);
		}
		snprintf(name, sizeof name, "%s.hist", m->name);
		list_close(x, &l, id, name);
	}
	if (list_open(x, &l)) {
		for (size_t i = 0; i < m->nruns; i++) {
			list_sep(&l);
			fprintf(l.f, "%llu", (unsigned long long)m->run_count[i]);
		}
		snprintf(name, sizeof name, "%s.run_counts", m->name);
		list_close(x, &l, id, name);
	}
	if (list_open(x, &l)) {
		for (size_t i = 0; i < m->nruns; i++)
			list_value(&l, &m->run_mean_ns[i]);
		snprintf(name, sizeof name, "%s.run_means_ns", m->name);
		list_close(x, &l, id, name);
	}
}

static void view_properties(struct xw *x, const struct rv_req *r)
{
	const char *id = r->id;
	char v[64];
	x_prop(x, r->probe, "%s.probe", id);
	for (size_t i = 0; i < r->nparams; i++)
		x_prop(x, r->params[i].value, "%s.param.%s", id, r->params[i].name);
	x_prop(x, r->policy, "%s.policy", id);
	if (r->cpu >= 0) {
		snprintf(v, sizeof v, "%d", r->cpu);
		x_prop(x, v, "%s.cpu", id);
	}
	if (r->source)
		x_prop(x, r->source, "%s.source", id);
	if (r->reason)
		x_prop(x, r->reason, "%s.reason", id);
	if (r->note)
		x_prop(x, r->note, "%s.note", id);
	if (r->load)
		x_prop(x, r->load, "%s.load.command", id);

	for (size_t i = 0; i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		const char *unit = l->cycles ? "cycles" : "ns";
		char name[64];
		x_prop(x, l->metric, "%s.limit.%zu.metric", id, i + 1);
		x_prop(x, l->statistic, "%s.limit.%zu.statistic", id, i + 1);
		if (l->has_max) {
			snprintf(name, sizeof name, "limit.%zu.max_%s", i + 1, unit);
			prop_num(x, l->max.value, id, name);
		}
		if (l->has_min) {
			snprintf(name, sizeof name, "limit.%zu.min_%s", i + 1, unit);
			prop_num(x, l->min.value, id, name);
		}
		if (l->measured.have) {
			snprintf(name, sizeof name, "limit.%zu.measured_%s", i + 1, unit);
			prop_num(x, l->measured.v, id, name);
		}
		x_prop(x, verdict_name(l->verdict), "%s.limit.%zu.verdict", id, i + 1);
		if (l->text)
			x_prop(x, l->text, "%s.limit.%zu.text", id, i + 1);
	}
	if (!r->measured)
		return;

	struct list l;
	if (list_open(x, &l)) {
		for (size_t i = 0; i < r->nmetrics; i++) {
			if (i)
				fputc(',', l.f);
			fputs(r->metrics[i].name, l.f);
		}
		list_close(x, &l, id, "metrics");
	}
	if (list_open(x, &l)) {
		for (uint32_t i = 0; i < r->runs; i++)
			list_value(&l, &r->batch_run_ns[i]);
		list_close(x, &l, id, "batch.per_run_ns");
	}
	for (size_t i = 0; i < r->nmetrics; i++)
		view_metric_properties(x, id, &r->metrics[i]);
}

/* ---- test cases -------------------------------------------------------- */

static void failure_element(struct xw *x, const struct req_result *r)
{
	const struct requirement *q = r->req;
	size_t nlim = q ? q->nlimits : 0;
	if (nlim > REQ_MAX_LIMITS)
		nlim = REQ_MAX_LIMITS;
	char *body = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&body, &blen);
	if (!mem)
		x->failed = true; /* the body would be missing: never a quiet gap */
	const char *message = NULL;
	for (size_t i = 0; i < nlim; i++) {
		const struct limit_outcome *o = &r->limits[i];
		if (!o->evaluated || o->passed)
			continue;
		if (!message)
			message = o->text;
		if (mem)
			fprintf(mem, "%s\n", o->text);
	}
	if (mem && fclose(mem) != 0) {
		free(body);
		body = NULL;
		x->failed = true;
	}
	if (!message)
		message = r->reason[0] ? r->reason : "limits exceeded";

	xw_start(x, "failure");
	xw_attr(x, "type", "LatencyBudgetExceeded");
	xw_attr(x, "message", message);
	xw_text(x, body && *body ? body : r->reason);
	xw_end(x);
	free(body);
}

static void testcase(struct xw *x, const struct report_file *rf, const struct req_result *r)
{
	const struct requirement *q = r->req;
	const char *id = q && q->id ? q->id : "?";
	const char *probe = q && q->probe ? q->probe : (r->probe ? r->probe->decl.name : "?");
	char *name = NULL, *classname = NULL;
	if (q && q->title && *q->title) {
		if (asprintf(&name, "%s: %s", id, q->title) < 0)
			name = NULL;
	} else {
		name = strdup(id);
	}
	if (asprintf(&classname, "%s.%s", suite_name(rf->file), probe) < 0)
		classname = NULL;
	if (!name || !classname) {
		x->failed = true;
		goto cleanup;
	}

	xw_start(x, "testcase");
	xw_attr(x, "name", name);
	xw_attr(x, "classname", classname);
	xw_attrf(x, "time", "%.3f", clean_seconds(r->seconds));

	switch (r->verdict) {
	case VERDICT_SKIPPED:
		xw_start(x, "skipped");
		xw_text(x, r->reason);
		xw_end(x);
		break;
	case VERDICT_ERROR:
		xw_start(x, "error");
		xw_attr(x, "type", "MeasurementError");
		xw_attr(x, "message", r->reason[0] ? r->reason : "could not be measured");
		xw_text(x, r->reason);
		xw_end(x);
		break;
	case VERDICT_FAIL:
		failure_element(x, r);
		break;
	case VERDICT_PASS:
		break;
	}

	/* Statistics and histogram for people reading the CI page; even an
	 * error keeps what the worker measured before it died. */
	char *detail = NULL;
	size_t dlen = 0;
	FILE *mem = open_memstream(&detail, &dlen);
	if (!mem) {
		x->failed = true;
	} else {
		report_write_result_detail(r, mem);
		if (fclose(mem) != 0)
			x->failed = true;
		else if (dlen) {
			xw_start(x, "system-out");
			xw_text(x, detail);
			xw_end(x);
		}
	}
	free(detail);
	xw_end(x); /* testcase */

cleanup:
	free(name);
	free(classname);
}

static void testsuite(struct xw *x, const struct report_run *run,
		      const struct report_view *view, size_t index)
{
	const struct report_file *rf = &run->files[index];
	struct report_totals t;
	report_totals(run, rf, &t);

	/* The suite started when its first requirement did. */
	time_t started = 0;
	for (size_t i = 0; i < rf->nresults; i++)
		if (rf->results[i].started && (!started || rf->results[i].started < started))
			started = rf->results[i].started;
	if (!started)
		started = run->started;

	xw_start(x, "testsuite");
	xw_attr(x, "name", suite_name(rf->file));
	xw_attrf(x, "tests", "%zu", t.tests);
	xw_attrf(x, "failures", "%zu", t.failures);
	xw_attrf(x, "errors", "%zu", t.errors);
	xw_attrf(x, "skipped", "%zu", t.skipped);
	xw_attrf(x, "time", "%.3f", clean_seconds(t.seconds));
	if (started) {
		char ts[32];
		fmt_utc(started, ts, sizeof ts);
		if (ts[0])
			xw_attr(x, "timestamp", ts);
	}
	const char *host = run->env ? fingerprint_get(run->env, "host.name") : NULL;
	if (host)
		xw_attr(x, "hostname", host);
	xw_attrf(x, "id", "%zu", index);
	xw_attr(x, "package", suite_name(rf->file));

	xw_start(x, "properties");
	env_properties(x, view, rf->file);
	for (size_t i = 0; i < rf->nresults; i++) {
		result_properties(x, &view->files[index].reqs[i]);
		view_properties(x, &view->files[index].reqs[i]);
	}
	xw_end(x);

	for (size_t i = 0; i < rf->nresults; i++)
		testcase(x, rf, &rf->results[i]);
	xw_end(x); /* testsuite */
}

static void document(struct xw *x, const struct report_run *run,
		     const struct report_view *view)
{
	struct report_totals t;
	report_totals(run, NULL, &t);

	xw_check(x, xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL));
	xw_start(x, "testsuites");
	xw_attr(x, "name", "rtconform");
	xw_attrf(x, "tests", "%zu", t.tests);
	xw_attrf(x, "failures", "%zu", t.failures);
	xw_attrf(x, "errors", "%zu", t.errors);
	xw_attrf(x, "time", "%.3f", clean_seconds(t.seconds));
	for (size_t i = 0; i < run->nfiles; i++)
		testsuite(x, run, view, i);
	xw_end(x);
	if (!x->failed)
		xw_check(x, xmlTextWriterEndDocument(x->w));
	if (!x->failed)
		xw_check(x, xmlTextWriterFlush(x->w));
}

int report_write_junit(const struct report_run *run, const char *path,
		       char *err, size_t errlen)
{
	struct report_view view;
	if (report_view_from_run(run, &view) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	int ret = report_write_junit_view(run, &view, path, err, errlen);
	report_view_free(&view);
	return ret;
}

int report_write_junit_view(const struct report_run *run, const struct report_view *v,
			    const char *path, char *err, size_t errlen)
{
	int ret = 0;
	struct xw x = { 0 };
	xmlBufferPtr buf = xmlBufferCreate();

	/* "%.3f" must give a point, never the user's decimal comma. */
	locale_t old = num_c_enter();

	if (!buf || !(x.w = xmlNewTextWriterMemory(buf, 0))) {
		ret = -ENOMEM;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(ENOMEM));
		goto cleanup;
	}
	xmlTextWriterSetIndent(x.w, 1);
	xmlTextWriterSetIndentString(x.w, BAD_CAST "  ");
	document(&x, run, v);
	if (x.failed) {
		ret = -ENOMEM;
		snprintf(err, errlen, "cannot write '%s': building the XML failed (out of memory?)",
			 path);
		goto cleanup;
	}
	ret = report_atomic_write(path, xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
	if (ret)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-ret));

cleanup:
	if (x.w)
		xmlFreeTextWriter(x.w);
	if (buf)
		xmlBufferFree(buf);
	num_c_leave(old);
	return ret;
}
