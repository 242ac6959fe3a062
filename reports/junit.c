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
#include "report.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "../harness/stats.h"

/* ---- XML 1.0 character cleaning ---------------------------------------- */

/* Decode one UTF-8 sequence at s (n bytes available). Returns its length
 * and sets *cp, or 0 for an invalid, overlong, surrogate or out-of-range
 * sequence. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* XML 1.0 section 2.2, Char. */
static bool xml_char_ok(uint32_t c)
{
	return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/* A copy of s holding only what XML 1.0 allows, each offending byte or
 * character replaced by U+FFFD so the reader sees that something was there.
 * NULL on out of memory. */
static char *xml_clean(const char *s)
{
	static const char repl[] = "\xef\xbf\xbd";
	size_t n = strlen(s);
	/* Worst case: every byte becomes a 3-byte replacement. */
	char *out = malloc(n * 3 + 1);
	if (!out)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	while (n) {
		uint32_t cp;
		size_t len = utf8_decode(p, n, &cp);
		if (len && xml_char_ok(cp)) {
			memcpy(out + o, p, len);
			o += len;
		} else {
			memcpy(out + o, repl, 3);
			o += 3;
			if (!len)
				len = 1; /* resynchronise on the next byte */
		}
		p += len;
		n -= len;
	}
	out[o] = '\0';
	return out;
}

/* ---- writer with a sticky error ---------------------------------------- */

/* Each libxml2 call can fail (out of memory); checking every one inline
 * would bury the document's shape, so the first failure is kept and later
 * calls do nothing. */
struct xw {
	xmlTextWriterPtr w;
	bool failed;
};

static void x_check(struct xw *x, int rc)
{
	if (rc < 0)
		x->failed = true;
}

static void x_start(struct xw *x, const char *name)
{
	if (!x->failed)
		x_check(x, xmlTextWriterStartElement(x->w, BAD_CAST name));
}

static void x_end(struct xw *x)
{
	if (!x->failed)
		x_check(x, xmlTextWriterEndElement(x->w));
}

static void x_attr(struct xw *x, const char *name, const char *value)
{
	if (x->failed)
		return;
	char *v = xml_clean(value ? value : "");
	if (!v) {
		x->failed = true;
		return;
	}
	x_check(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST v));
	free(v);
}

static void x_attrf(struct xw *x, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void x_attrf(struct xw *x, const char *name, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	x_attr(x, name, buf);
}

static void x_text(struct xw *x, const char *s)
{
	if (x->failed || !s || !*s)
		return;
	char *v = xml_clean(s);
	if (!v) {
		x->failed = true;
		return;
	}
	x_check(x, xmlTextWriterWriteString(x->w, BAD_CAST v));
	free(v);
}

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
	x_start(x, "property");
	x_attr(x, "name", name);
	x_attr(x, "value", value);
	x_end(x);
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

static void env_properties(struct xw *x, const struct report_run *run, const struct req_file *f)
{
	const struct fingerprint *fp = run->env;
	char v[64];
	if (fp)
		for (size_t i = 0; i < fp->n; i++)
			x_prop(x, fp->e[i].value, "%s", fp->e[i].key);

	/* The timebase belongs in every report; a fingerprint taken before
	 * the timebase was chosen lacks it, so fill in what is missing. */
	const struct timebase *tb = run->tb;
	if (tb && !(fp && fingerprint_get(fp, "timebase.name"))) {
		x_prop(x, tb->name ? tb->name : "unknown", "timebase.name");
		snprintf(v, sizeof v, "%.0f", tb->freq_hz);
		x_prop(x, v, "timebase.freq_hz");
		snprintf(v, sizeof v, "%.3f", tb->resolution_ns);
		x_prop(x, v, "timebase.resolution_ns");
		snprintf(v, sizeof v, "%.3f", tb->read_min_ns);
		x_prop(x, v, "timebase.read_overhead_min_ns");
		snprintf(v, sizeof v, "%.3f", tb->read_median_ns);
		x_prop(x, v, "timebase.read_overhead_median_ns");
	}
	if (run->command_line && !(fp && fingerprint_get(fp, "rtconform.command")))
		x_prop(x, run->command_line, "rtconform.command");

	/* What was measured against: an auditor needs the exact file. Also
	 * guarantees <properties> is never empty, as Jenkins requires. */
	x_prop(x, f && f->path ? f->path : "", "requirements.path");
	if (f && f->version)
		x_prop(x, f->version, "requirements.version");
	if (f) {
		char hex[65];
		for (int i = 0; i < 32; i++)
			snprintf(hex + 2 * i, 3, "%02x", f->sha256[i]);
		x_prop(x, hex, "requirements.sha256");
	}
}

static const char *const prop_stats[] = { "min", "mean", "stddev", "max", "p50", "p90",
					   "p99", "p99.9", "runs-mean-stddev" };

static void metric_properties(struct xw *x, const struct req_result *r, const char *id,
			      unsigned mi)
{
	const struct metric_data *m = result_metric_c(r->res, mi);
	char nbuf[16], v[64];
	const char *metric = report_metric_name(r, mi, nbuf, sizeof nbuf);

	snprintf(v, sizeof v, "%llu", (unsigned long long)m->hist.count);
	x_prop(x, v, "%s.%s.count", id, metric);
	snprintf(v, sizeof v, "%llu", (unsigned long long)m->hist.overflow);
	x_prop(x, v, "%s.%s.overflow", id, metric);

	for (int cycles = 0; cycles <= (m->cycles_per_unit != 0); cycles++) {
		for (size_t i = 0; i < sizeof prop_stats / sizeof prop_stats[0]; i++) {
			struct statistic st;
			double val;
			if (stat_parse(prop_stats[i], &st) != 0)
				continue;
			/* A p99.9 of 500 samples is noise dressed as a number;
			 * leave it out rather than let CI trend it. */
			if (m->hist.count < stat_min_samples(&st))
				continue;
			if (!stat_value(m, &st, cycles, &val))
				continue;
			snprintf(v, sizeof v, "%.3f", val);
			x_prop(x, v, "%s.%s.%s_%s", id, metric, prop_stats[i],
			       cycles ? "cycles" : "ns");
		}
	}
}

static void result_properties(struct xw *x, const struct req_result *r)
{
	const char *id = r->req && r->req->id ? r->req->id : "?";
	char v[64];
	x_prop(x, verdict_name(r->verdict), "%s.verdict", id);
	unsigned nm = report_nmetrics(r);
	if (!nm)
		return;
	snprintf(v, sizeof v, "%u", (unsigned)r->res->runs_done);
	x_prop(x, v, "%s.runs", id);
	double mean, sd;
	if (report_batch_ns(r, &mean, &sd)) {
		snprintf(v, sizeof v, "%.3f", mean);
		x_prop(x, v, "%s.batch.runs_mean_ns", id);
		snprintf(v, sizeof v, "%.3f", sd);
		x_prop(x, v, "%s.batch.runs_stddev_ns", id);
	}
	for (unsigned i = 0; i < nm; i++)
		metric_properties(x, r, id, i);
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

	x_start(x, "failure");
	x_attr(x, "type", "LatencyBudgetExceeded");
	x_attr(x, "message", message);
	x_text(x, body && *body ? body : r->reason);
	x_end(x);
	free(body);
}

static void testcase(struct xw *x, const struct report_file *rf, const struct req_result *r)
{
	const struct requirement *q = r->req;
	const char *id = q && q->id ? q->id : "?";
	const char *probe = q && q->probe ? q->probe : (r->probe ? r->probe->name : "?");
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

	x_start(x, "testcase");
	x_attr(x, "name", name);
	x_attr(x, "classname", classname);
	x_attrf(x, "time", "%.3f", clean_seconds(r->seconds));

	switch (r->verdict) {
	case VERDICT_SKIPPED:
		x_start(x, "skipped");
		x_text(x, r->reason);
		x_end(x);
		break;
	case VERDICT_ERROR:
		x_start(x, "error");
		x_attr(x, "type", "MeasurementError");
		x_attr(x, "message", r->reason[0] ? r->reason : "could not be measured");
		x_text(x, r->reason);
		x_end(x);
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
			x_start(x, "system-out");
			x_text(x, detail);
			x_end(x);
		}
	}
	free(detail);
	x_end(x); /* testcase */

cleanup:
	free(name);
	free(classname);
}

static void testsuite(struct xw *x, const struct report_run *run, size_t index)
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

	x_start(x, "testsuite");
	x_attr(x, "name", suite_name(rf->file));
	x_attrf(x, "tests", "%zu", t.tests);
	x_attrf(x, "failures", "%zu", t.failures);
	x_attrf(x, "errors", "%zu", t.errors);
	x_attrf(x, "skipped", "%zu", t.skipped);
	x_attrf(x, "time", "%.3f", clean_seconds(t.seconds));
	if (started) {
		char ts[32];
		fmt_utc(started, ts, sizeof ts);
		if (ts[0])
			x_attr(x, "timestamp", ts);
	}
	const char *host = run->env ? fingerprint_get(run->env, "host.name") : NULL;
	if (host)
		x_attr(x, "hostname", host);
	x_attrf(x, "id", "%zu", index);
	x_attr(x, "package", suite_name(rf->file));

	x_start(x, "properties");
	env_properties(x, run, rf->file);
	for (size_t i = 0; i < rf->nresults; i++)
		result_properties(x, &rf->results[i]);
	x_end(x);

	for (size_t i = 0; i < rf->nresults; i++)
		testcase(x, rf, &rf->results[i]);
	x_end(x); /* testsuite */
}

static void document(struct xw *x, const struct report_run *run)
{
	struct report_totals t;
	report_totals(run, NULL, &t);

	x_check(x, xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL));
	x_start(x, "testsuites");
	x_attr(x, "name", "rtconform");
	x_attrf(x, "tests", "%zu", t.tests);
	x_attrf(x, "failures", "%zu", t.failures);
	x_attrf(x, "errors", "%zu", t.errors);
	x_attrf(x, "time", "%.3f", clean_seconds(t.seconds));
	for (size_t i = 0; i < run->nfiles; i++)
		testsuite(x, run, i);
	x_end(x);
	if (!x->failed)
		x_check(x, xmlTextWriterEndDocument(x->w));
	if (!x->failed)
		x_check(x, xmlTextWriterFlush(x->w));
}

int report_write_junit(const struct report_run *run, const char *path,
		       char *err, size_t errlen)
{
	int ret = 0;
	struct xw x = { 0 };
	xmlBufferPtr buf = xmlBufferCreate();

	/* "%.3f" must give a point, never the user's decimal comma. */
	locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;

	if (!buf || !(x.w = xmlNewTextWriterMemory(buf, 0))) {
		ret = -ENOMEM;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(ENOMEM));
		goto cleanup;
	}
	xmlTextWriterSetIndent(x.w, 1);
	xmlTextWriterSetIndentString(x.w, BAD_CAST "  ");
	document(&x, run);
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
	if (c_loc) {
		uselocale(old);
		freelocale(c_loc);
	}
	return ret;
}
