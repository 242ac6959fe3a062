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

/* ---- properties -------------------------------------------------------- */

/* The readiness tally, and each check that warns or fails, so that a CI
 * page shows the machine was unfit; every check with its remedy is in the
 * suite's <system-out>. */
static void ready_properties(struct xw *x, const struct report_view *view)
{
	size_t count[READY_NLEVELS];
	char tally[160];
	if (!view->ready_recorded)
		return;
	report_view_ready_counts(view, count);
	ready_count_text(count, tally, sizeof tally);
	x_prop(x, tally, JP_READY_TALLY);
	for (size_t i = 0; i < view->nready; i++) {
		const struct rv_check *c = &view->ready[i];
		char *value = NULL;
		if (c->level != READY_WARN && c->level != READY_FAIL)
			continue;
		if (asprintf(&value, "%s: %s", ready_level_name(c->level), c->finding) < 0) {
			x->failed = true;
			return;
		}
		x_prop(x, value, JP_READY, c->name);
		free(value);
	}
}

/* The environment keys junit.xml keeps as properties: which machine,
 * kernel and build. Generic viewers list every property before the first
 * test case, and the whole fingerprint (some 50 keys) with every readiness
 * check and remedy pushed it pages down; those are in the suite's
 * <system-out> and in results.json. */
static const char *const env_keys[] = { "host.label", "host.name", "host.kernel.release",
					"rtconform.version", "rtconform.commit" };

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
	ready_properties(x, view);

	/* What was measured against: an auditor needs the exact file. Also
	 * guarantees <properties> is never empty, as Jenkins requires. */
	x_prop(x, f->path, JP_REQ_PATH);
	if (f->version)
		x_prop(x, f->version, JP_REQ_VERSION);
	x_prop(x, f->sha256, JP_REQ_SHA256);
}

/* The suite's <system-out>: the whole environment fingerprint, one "key:
 * value" a line, and every readiness check with its remedy, for whoever
 * reads the CI page beyond the short set of properties. */
/* Written a field at a time, never gathered into one text first: a value
 * may be long (the whole fingerprint is here). Each piece is defused on
 * its own; no marker can span two, since every piece is set off by a
 * space, a colon or a newline, none of which a marker holds. */
static void suite_system_out(struct xw *x, const struct report_view *view)
{
	xw_start(x, "system-out");
	xw_text(x, "environment (as in results.json):\n");
	for (size_t i = 0; i < view->env.n; i++) {
		const char *line[] = { "  ", view->env.e[i].key, ": ", view->env.e[i].value, "\n" };
		for (size_t k = 0; k < sizeof line / sizeof line[0]; k++)
			xw_text(x, line[k]);
	}
	if (view->ready_recorded)
		xw_text(x, "readiness of the machine (rtconform env's checks, at the start of the "
			   "run):\n");
	for (size_t i = 0; i < view->nready; i++) {
		const struct rv_check *c = &view->ready[i];
		const char *line[] = { "  ", ready_level_name(c->level), " ", c->name, ": ",
				       c->finding, "\n" };
		for (size_t k = 0; k < sizeof line / sizeof line[0]; k++)
			xw_text(x, line[k]);
		if (c->remedy && c->level != READY_OK) {
			xw_text(x, "    remedy: ");
			xw_text(x, c->remedy);
			xw_text(x, "\n");
		}
	}
	xw_end(x);
}

/* A requirement's properties, lean: its identity, its verdict, one property
 * holding every limit and one per metric holding its key statistics.
 * Histograms, per-run figures, the batch figure and per-CPU series are in
 * results.json only; generic JUnit viewers list properties before the first
 * test case, so a few per requirement keep the file readable. At most
 * JUNIT_MAX_REQ_PROPS per requirement (docs/reports.md):
 * verdict, probe, policy, cpu, source, reason, note, load.command (8), one
 * per parameter, limits, runs, metrics (3), one per metric. */
#define JUNIT_MAX_REQ_PROPS 40
_Static_assert(8 + REQ_MAX_PARAMS + 3 + RTC_MAX_METRICS <= JUNIT_MAX_REQ_PROPS,
	       "a requirement's junit.xml properties must stay within the documented bound");

/* A compound value built in memory: "key=value key=value" fields, and for a
 * list of them, entries separated by "; ". */
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

/* Starts a field: a blank before every one but the first. */
static void field_sep(struct list *l)
{
	if (l->any)
		fputc(JP_FIELD_SEP, l->f);
	l->any = true;
}

static void field_str(struct list *l, const char *key, const char *value)
{
	field_sep(l);
	fprintf(l->f, "%s=%s", key, value);
}

static void field_u64(struct list *l, const char *key, uint64_t v)
{
	field_sep(l);
	fprintf(l->f, "%s=%llu", key, (unsigned long long)v);
}

/* A duration or cycle count, "%.3f"; nothing when absent. */
static void field_num(struct list *l, const char *key, const char *unit, const struct rv_value *v)
{
	char buf[64];
	if (!v->have)
		return;
	numfmt_fmt3(v->v, buf, sizeof buf);
	field_sep(l);
	if (unit)
		fprintf(l->f, "%s_%s=%s", key, unit, buf);
	else
		fprintf(l->f, "%s=%s", key, buf);
}

/* A count: the whole number it is, else "%.3f" (a mean); nothing when
 * absent. */
static void field_count(struct list *l, const char *key, const struct rv_value *v)
{
	char buf[64];
	if (!v->have)
		return;
	if (v->v >= 0 && v->v < 1e19 && v->v == nearbyint(v->v))
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->v);
	else
		numfmt_fmt3(v->v, buf, sizeof buf);
	field_str(l, key, buf);
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

/* One limit of ID.limits: metric, statistic, bounds and measured value
 * (a duration's with its unit), verdict, then the judge's sentence, which
 * runs to the end of the entry (a ';' in it becomes ',': it ends entries). */
static void limit_entry(struct list *l, const struct rv_limit *lim)
{
	const char *unit = lim->count ? NULL : lim->cycles ? "cycles" : "ns";
	struct rv_value max = { lim->has_max, lim->max.value };
	struct rv_value min = { lim->has_min, lim->min.value };
	field_str(l, JP_K_METRIC, lim->metric);
	field_str(l, JP_K_STATISTIC, lim->statistic);
	if (lim->count) {
		field_count(l, JP_K_MAX, &max);
		field_count(l, JP_K_MIN, &min);
		field_count(l, JP_K_MEASURED, &lim->measured);
	} else {
		field_num(l, JP_K_MAX, unit, &max);
		field_num(l, JP_K_MIN, unit, &min);
		field_num(l, JP_K_MEASURED, unit, &lim->measured);
	}
	field_str(l, JP_K_VERDICT, verdict_name(lim->verdict));
	if (lim->text) {
		field_sep(l);
		fputs(JP_K_TEXT "=", l->f);
		for (const char *c = lim->text; *c; c++)
			fputc(*c == JP_ENTRY_SEP ? ',' : *c, l->f);
	}
}

static void limits_property(struct xw *x, const struct rv_req *r)
{
	struct list l;
	if (!r->nlimits || !list_open(x, &l))
		return;
	for (size_t i = 0; i < r->nlimits; i++) {
		if (i)
			fprintf(l.f, "%c ", JP_ENTRY_SEP);
		l.any = false;
		limit_entry(&l, &r->limits[i]);
	}
	list_close(x, &l, JP_LIMITS, r->id);
}

/* ID.M: a duration's count, min, mean, p50, p99 (and the bounds of its
 * confidence interval), max (ns) and overflow; a
 * count's total, min, mean and max over its runs. A statistic the samples
 * are too few for is left out, never written as a number. */
static void metric_property(struct xw *x, const char *id, const struct rv_metric *m)
{
	struct list l;
	if (!list_open(x, &l))
		return;
	field_str(&l, JP_K_KIND, probe_decl_metric_kind_name(m->kind));
	if (m->kind == METRIC_COUNT) {
		field_u64(&l, JP_K_COUNT, m->count); /* the runs counted */
		for (int i = 0; i < RV_NCSTATS; i++) {
			/* a count, the mean per run too: whole when whole (never 0.000) */
			field_count(&l, report_view_count_stats[i], &m->counts[i]);
		}
	} else {
		field_u64(&l, JP_K_COUNT, m->count);
		for (int i = 0; i < RV_NKEY_STATS; i++) {
			int k = report_view_key_stats[i];
			field_num(&l, report_view_stats[k], "ns", &m->ns[k]);
			const struct rv_ci *c = k == RV_P99 ? rv_metric_ci(m, k) : NULL;
			if (c) { /* its interval, each side that has a bound */
				struct rv_value lo = { c->has_lo, c->lo_ns }, hi = { c->has_hi, c->hi_ns };
				field_num(&l, "p99_lo", "ns", &lo);
				field_num(&l, "p99_hi", "ns", &hi);
			}
		}
		field_u64(&l, JP_K_OVERFLOW, m->overflow);
	}
	list_close(x, &l, JP_METRIC, id, m->name);
}

static void req_properties(struct xw *x, const struct rv_req *r)
{
	const char *id = r->id;
	x_prop(x, verdict_name(r->verdict), JP_VERDICT, id);
	x_prop(x, r->probe, JP_PROBE, id);
	for (size_t i = 0; i < r->nparams; i++)
		x_prop(x, r->params[i].value, JP_PARAM, id, r->params[i].name);
	x_prop(x, r->policy, JP_POLICY, id);
	if (r->cpu >= 0)
		x_prop_u64(x, (uint64_t)r->cpu, JP_CPU, id);
	if (r->source)
		x_prop(x, r->source, JP_SOURCE, id);
	if (r->nclauses) {
		char refs[REQ_MAX_CLAUSES * (4 * REQ_CLAUSE_REF_MAX + 2)];
		report_clauses_text(r, refs, sizeof refs);
		x_prop(x, refs, JP_CLAUSES, id);
	}
	if (r->reason)
		x_prop(x, r->reason, JP_REASON, id);
	if (r->note)
		x_prop(x, r->note, JP_NOTE, id);
	if (r->load)
		x_prop(x, r->load, JP_LOAD, id);
	limits_property(x, r);
	if (!r->measured)
		return;
	x_prop_u64(x, r->runs, JP_RUNS, id);
	struct list l;
	if (list_open(x, &l)) {
		for (size_t i = 0; i < r->nmetrics; i++) {
			if (i)
				fputc(JP_METRIC_SEP, l.f);
			fputs(r->metrics[i].name, l.f);
		}
		list_close(x, &l, JP_METRICS, id);
	}
	for (size_t i = 0; i < r->nmetrics; i++)
		metric_property(x, id, &r->metrics[i]);
}

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

/* What junit.xml keeps of the requirement, for people reading the CI page
 * (the histograms and per-run figures are in results.json); even an error
 * keeps what the worker measured before it died. The saved trace is
 * attached when it is one a run writes and a regular file in trace_dir
 * (rv_req.trace_link; report_junit_system_out, reports/link.c;
 * docs/reports.md). */
static void system_out(struct xw *x, const struct rv_req *r, const char *trace_dir)
{
	char *detail = NULL;
	size_t dlen = 0;
	FILE *mem = open_memstream(&detail, &dlen);
	if (!mem) {
		x->failed = true;
		return;
	}
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
		     const char *host, const char *trace_dir)
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
	system_out(x, r, trace_dir);
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
	for (size_t i = 0; i < f->nreqs; i++)
		if (listed(view, &f->reqs[i]))
			req_properties(x, &f->reqs[i]);
	junit_props_end(x);

	for (size_t i = 0; i < f->nreqs; i++)
		if (listed(view, &f->reqs[i]))
			testcase(x, f, &f->reqs[i], NULL, view->trace_dir);
	suite_system_out(x, view);
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
					 v->trace_dir);
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
