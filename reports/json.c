/* SPDX-License-Identifier: Apache-2.0 */
/* json.c - results.json, the archive of a run: the whole report view
 * (every requirement, its limits, all statistics, the histogram buckets,
 * verdicts, the environment), written with jansson, so that json_read.c
 * rebuilds the same view and every report renders again byte for byte.
 * Reals are printed with the fewest significant digits that read back as
 * the same double (0.035, not 0.035000000000000003); counts are integers. The schema is in docs/reports.md; "schema"
 * names its version, raised on any incompatible change.
 */
#include "reports/report.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "base/statistic.h"
#include "base/utc.h"
#include "harness/explain.h"
#include "reports/ival.h"
#include "reports/json_schema.h"
#include "reports/traceability.h"

/* jansson returns NULL on out of memory (and for a NaN real, or a string
 * that is not UTF-8, which the view never holds); the first failure sticks
 * so the building code reads as the document's shape. `why` says what
 * failed when it was not memory. */
struct jb {
	bool failed;
	char why[200];
	FILE *spill;  /* the view's ival_spill: spilled intervals' buckets */
};

static void set(struct jb *b, json_t *obj, const char *key, json_t *value)
{
	/* json_object_set_new takes value even when it fails; without an
	 * object it is ours to drop. */
	if (!obj)
		json_decref(value);
	if (!obj || !value || json_object_set_new(obj, key, value) != 0)
		b->failed = true;
}

static void push(struct jb *b, json_t *arr, json_t *value)
{
	if (!arr)
		json_decref(value);
	if (!arr || !value || json_array_append_new(arr, value) != 0)
		b->failed = true;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *value(const struct rv_value *v)
{
	return v->have ? num(v->v) : json_null();
}

/* jansson's integers are signed 64-bit: a count or bound above
 * RESULTS_MAX_INT cannot be written as the integer it is, and is refused
 * rather than written as another number. (Result memory's histograms end at
 * 2^42 units; counts are samples.) */
static json_t *juint(struct jb *b, uint64_t v, const char *what)
{
	if (v > RESULTS_MAX_INT) {
		if (!b->failed)
			snprintf(b->why, sizeof b->why,
				 "%s %llu is above %lld, the largest integer results.json holds",
				 what, (unsigned long long)v, (long long)RESULTS_MAX_INT);
		b->failed = true;
		return NULL;
	}
	return json_integer((json_int_t)v);
}

/* "2023-11-14T22:13:20Z", or null for 0 (unknown). */
static json_t *utc(int64_t t)
{
	char buf[32];
	if (!t || !utc_fmt(t, true, buf, sizeof buf))
		return json_null();
	return json_string(buf);
}

/* An interval's start: UTC to the millisecond, "2026-12-02T01:02:03.456Z"
 * (rv_fmt_utc_ms), or null when not known. */
static json_t *utc_ms(int64_t ms)
{
	char buf[40];
	rv_fmt_utc_ms(ms, buf, sizeof buf);
	return buf[0] ? json_string(buf) : json_null();
}

/* A count as the integer it is; null when absent. */
static json_t *count_value(struct jb *b, const struct rv_value *v, const char *what)
{
	if (!v->have)
		return json_null();
	if (!(v->v >= 0) || v->v != nearbyint(v->v) || v->v > (double)RESULTS_MAX_INT)
		return num(v->v); /* not a count: keep the number as it is */
	return juint(b, (uint64_t)v->v, what);
}

/* A count metric: its statistics (integers but the mean) and each run's
 * count. */
static json_t *count_metric(struct jb *b, const struct rv_metric *m)
{
	json_t *o = json_object();
	set(b, o, "name", json_string(m->name));
	set(b, o, "kind", json_string(probe_decl_metric_kind_name(m->kind)));
	json_t *st = json_object();
	for (int i = 0; i < RV_NCSTATS; i++)
		set(b, st, report_view_count_stats[i],
		    i == RVC_MEAN ? value(&m->counts[i]) : count_value(b, &m->counts[i], "a count"));
	set(b, o, "statistics", st);
	json_t *runs = json_array();
	for (size_t i = 0; i < m->nruns; i++)
		push(b, runs, juint(b, m->run_count[i], "a run's count"));
	set(b, o, "runs", runs);
	return o;
}

/* [[lo, hi, count], ...] */
static json_t *bucket_list(struct jb *b, const struct rv_bucket *bks, size_t n)
{
	json_t *buckets = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *bk = json_array();
		push(b, bk, juint(b, bks[i].lo, "a bucket bound"));
		push(b, bk, juint(b, bks[i].hi, "a bucket bound"));
		push(b, bk, juint(b, bks[i].count, "a bucket count"));
		push(b, buckets, bk);
	}
	return buckets;
}

/* {"highest": N, "buckets": [[lo, hi, count], ...]}, and "negative":
 * {"overflow": N, "buckets": [...]} (magnitudes) only when there are
 * samples below zero, so every other histogram reads as before. */
static json_t *histogram(struct jb *b, uint64_t highest, const struct rv_bucket *bks, size_t n,
			 const struct rv_neg *neg)
{
	json_t *h = json_object();
	set(b, h, "highest", juint(b, highest, "a histogram's highest value"));
	set(b, h, "buckets", bucket_list(b, bks, n));
	if (neg->nbuckets || neg->overflow) {
		json_t *o = json_object();
		set(b, o, "overflow", juint(b, neg->overflow, "an overflow count"));
		set(b, o, "buckets", bucket_list(b, neg->buckets, neg->nbuckets));
		set(b, h, "negative", o);
	}
	return h;
}

/* An interval's histogram, its buckets read back when they were spilled. */
static json_t *ival_histogram(struct jb *b, uint64_t highest, const struct rv_ival *iv)
{
	if (!iv->spilled)
		return histogram(b, highest, iv->buckets, iv->nbuckets, &iv->neg);
	struct rv_bucket *pos, *neg;
	int rc = rv_ival_unspill(iv, b->spill, &pos, &neg);
	if (rc) {
		b->failed = true;
		snprintf(b->why, sizeof b->why, "reading an interval's buckets back: %s",
			 strerror(-rc));
		return json_null();
	}
	struct rv_neg n = { .overflow = iv->neg.overflow, .buckets = neg,
			    .nbuckets = iv->neg.nbuckets };
	json_t *h = histogram(b, highest, pos, iv->nbuckets, &n);
	free(pos);
	free(neg);
	return h;
}

/* A metric's or a series' intervals (highest: its histograms'). */
static json_t *intervals(struct jb *b, const struct rv_ival *iv, size_t n, uint64_t highest)
{
	json_t *arr = json_array();
	for (size_t k = 0; k < n; k++) {
		json_t *o = json_object();
		set(b, o, "start", utc_ms(iv[k].start_ms));
		set(b, o, "seconds", num(iv[k].seconds));
		set(b, o, "count", juint(b, iv[k].count, "an interval's sample count"));
		set(b, o, "overflow", juint(b, iv[k].overflow, "an overflow count"));
		json_t *ns = json_object();
		for (int i = 0; i < RV_NSTATS; i++)
			set(b, ns, report_view_stats[i], value(&iv[k].ns[i]));
		set(b, o, "statistics_ns", ns);
		set(b, o, "histogram", ival_histogram(b, highest, &iv[k]));
		push(b, arr, o);
	}
	return arr;
}

/* One percentile's interval: {"lo_ns", "hi_ns" (null: no bound on that
 * side), "lo_rank", "hi_rank", "coverage", "lo_bucket_limited",
 * "hi_bucket_limited"}, led by its own "level" when it is not the
 * confidence object's; null without one. */
static json_t *ci_object(struct jb *b, const struct rv_ci *c, double level)
{
	if (!c->have)
		return json_null();
	json_t *o = json_object();
	if (c->level != level)
		set(b, o, "level", num(c->level));
	set(b, o, "lo_ns", c->has_lo ? num(c->lo_ns) : json_null());
	set(b, o, "hi_ns", c->has_hi ? num(c->hi_ns) : json_null());
	set(b, o, "lo_rank", juint(b, c->lo_rank, "a rank"));
	set(b, o, "hi_rank", juint(b, c->hi_rank, "a rank"));
	set(b, o, "coverage", num(c->coverage));
	set(b, o, "lo_bucket_limited", json_boolean(c->lo_bucket));
	set(b, o, "hi_bucket_limited", json_boolean(c->hi_bucket));
	return o;
}

/* A metric's "confidence": {"level", and per percentile its interval or
 * null}; nothing in a view that kept none (read from an older file). */
static void metric_confidence(struct jb *b, json_t *o, const struct rv_metric *m)
{
	if (m->ci_level == 0)
		return;
	json_t *c = json_object();
	set(b, c, "level", num(m->ci_level));
	for (int i = 0; i < RV_NSTATS; i++) {
		struct statistic st;
		if (statistic_parse(report_view_stats[i], &st) == 0 && st.kind == STAT_PCT)
			set(b, c, report_view_stats[i], ci_object(b, &m->ci[i], m->ci_level));
	}
	set(b, o, "confidence", c);
}

static json_t *metric(struct jb *b, const struct rv_metric *m)
{
	if (m->kind == METRIC_COUNT)
		return count_metric(b, m);
	json_t *o = json_object();
	set(b, o, "name", json_string(m->name));
	set(b, o, "kind", json_string(probe_decl_metric_kind_name(m->kind)));
	set(b, o, "count", juint(b, m->count, "a sample count"));
	set(b, o, "overflow", juint(b, m->overflow, "an overflow count"));
	set(b, o, "ns_per_unit", num(m->ns_per_unit));
	set(b, o, "cycles_per_unit", num(m->cycles_per_unit));

	json_t *ns = json_object();
	for (int i = 0; i < RV_NSTATS; i++)
		set(b, ns, report_view_stats[i], value(&m->ns[i]));
	set(b, o, "statistics_ns", ns);
	if (m->cycles_per_unit > 0) {
		json_t *cy = json_object();
		for (int i = 0; i < RV_NSTATS; i++)
			set(b, cy, report_view_stats[i], value(&m->cycles[i]));
		set(b, o, "statistics_cycles", cy);
	} else {
		set(b, o, "statistics_cycles", json_null());
	}

	set(b, o, "median_ns", value(&m->median_ns));
	metric_confidence(b, o, m);

	set(b, o, "histogram", histogram(b, m->highest, m->buckets, m->nbuckets, &m->neg));

	json_t *runs = json_array();
	for (size_t i = 0; i < m->nruns; i++) {
		json_t *r = json_object();
		set(b, r, "samples", juint(b, m->run_count[i], "a run's sample count"));
		set(b, r, "mean_ns", m->run_mean_ns ? value(&m->run_mean_ns[i]) : json_null());
		set(b, r, "max_ns", m->run_max_ns ? value(&m->run_max_ns[i]) : json_null());
		push(b, runs, r);
	}
	set(b, o, "runs", runs);
	if (m->nintervals)
		set(b, o, "intervals", intervals(b, m->intervals, m->nintervals, m->highest));
	return o;
}

static json_t *limit(struct jb *b, const struct rv_limit *l)
{
	json_t *o = json_object();
	set(b, o, "metric", json_string(l->metric));
	set(b, o, "statistic", json_string(l->statistic));
	if (l->count) {
		/* A count has no unit; its bounds and value are integers when
		 * they are whole. */
		struct rv_value max = { l->has_max, l->max.value }, min = { l->has_min, l->min.value };
		set(b, o, "unit", json_null());
		set(b, o, "max", count_value(b, &max, "a bound"));
		set(b, o, "min", count_value(b, &min, "a bound"));
		set(b, o, "measured", count_value(b, &l->measured, "a count"));
	} else {
		set(b, o, "unit", json_string(l->cycles ? "cycles" : "ns"));
		set(b, o, "max", l->has_max ? num(l->max.value) : json_null());
		set(b, o, "min", l->has_min ? num(l->min.value) : json_null());
		set(b, o, "measured", value(&l->measured));
	}
	if (l->confidence > 0) {
		/* Only a limit with confidence= has these: a file without them
		 * is one judged on point estimates (docs/reports.md). */
		set(b, o, "confidence", num(l->confidence));
		set(b, o, "lower", value(&l->lower));
		set(b, o, "upper", value(&l->upper));
		set(b, o, "need", l->verdict == VERDICT_INCONCLUSIVE && l->need
					  ? json_integer((json_int_t)l->need) : json_null());
	}
	set(b, o, "verdict", json_string(verdict_name(l->verdict)));
	set(b, o, "text", str_or_null(l->text));
	return o;
}

/* A CPU's histogram: "overflow" and "histogram" as a duration metric has
 * them, or both null where the view does not know them (read from a
 * results.json written before the series carried their buckets). */
static void series_histogram(struct jb *b, json_t *so, const struct rv_series *s)
{
	if (!s->has_hist) {
		set(b, so, "overflow", json_null());
		set(b, so, "histogram", json_null());
		return;
	}
	set(b, so, "overflow", juint(b, s->overflow, "a per-CPU overflow count"));
	set(b, so, "histogram", histogram(b, s->highest, s->buckets, s->nbuckets, &s->neg));
	if (s->nintervals)
		set(b, so, "intervals", intervals(b, s->intervals, s->nintervals, s->highest));
}

static json_t *requirement(struct jb *b, const struct rv_req *r)
{
	json_t *o = json_object();
	set(b, o, "id", json_string(r->id));
	set(b, o, "title", str_or_null(r->title));
	set(b, o, "source", str_or_null(r->source));
	json_t *clauses = json_array();
	for (size_t i = 0; i < r->nclauses; i++) {
		json_t *c = json_object();
		set(b, c, "ref", json_string(r->clauses[i].ref));
		set(b, c, "title", str_or_null(r->clauses[i].title));
		push(b, clauses, c);
	}
	set(b, o, "clauses", clauses);
	set(b, o, "probe", json_string(r->probe));
	json_t *params = json_object();
	for (size_t i = 0; i < r->nparams; i++)
		set(b, params, r->params[i].name, json_string(r->params[i].value));
	set(b, o, "params", params);
	set(b, o, "policy", json_string(r->policy));
	set(b, o, "cpu", r->cpu >= 0 ? json_integer(r->cpu) : json_null());
	set(b, o, "load", str_or_null(r->load));
	if (r->plan.have) { /* absent as in files written before it was kept */
		json_t *plan = json_object();
		set(b, plan, "iterations", juint(b, r->plan.iterations, "iterations"));
		set(b, plan, "runs", juint(b, r->plan.runs, "runs"));
		set(b, plan, "warmup", juint(b, r->plan.warmup, "warmup"));
		set(b, plan, "duration_ns", juint(b, r->plan.duration_ns, "a run duration"));
		set(b, o, "plan", plan);
	}
	set(b, o, "trace", str_or_null(r->trace));
	set(b, o, "trace_note", str_or_null(r->trace_note));
	if (r->explain) /* absent without one, as in files written before it was kept */
		set(b, o, "explain", explain_json_tree(r->explain));
	set(b, o, "verdict", json_string(verdict_name(r->verdict)));
	set(b, o, "selected", json_boolean(!r->not_selected));
	set(b, o, "reason", str_or_null(r->reason));
	set(b, o, "note", str_or_null(r->note));
	set(b, o, "seconds", num(r->seconds));
	set(b, o, "measured", json_boolean(r->measured));
	set(b, o, "runs", json_integer(r->runs));

	json_t *limits = json_array();
	for (size_t i = 0; i < r->nlimits; i++)
		push(b, limits, limit(b, &r->limits[i]));
	set(b, o, "limits", limits);

	json_t *batch = json_object();
	set(b, batch, "mean_ns", value(&r->batch_mean_ns));
	set(b, batch, "stddev_ns", value(&r->batch_stddev_ns));
	json_t *per = json_array();
	/* One per run; null for each when the view lacks them. */
	static const struct rv_value absent;
	for (uint32_t i = 0; i < r->runs; i++)
		push(b, per, value(r->batch_run_ns ? &r->batch_run_ns[i] : &absent));
	set(b, batch, "per_run_ns", per);
	set(b, o, "batch", batch);

	json_t *metrics = json_array();
	for (size_t i = 0; i < r->nmetrics; i++)
		push(b, metrics, metric(b, &r->metrics[i]));
	set(b, o, "metrics", metrics);

	json_t *series = json_array();
	for (size_t i = 0; i < r->nseries; i++) {
		json_t *so = json_object();
		set(b, so, "cpu", json_integer(r->series[i].cpu));
		set(b, so, "count", juint(b, r->series[i].count, "a per-CPU sample count"));
		for (int k = 0; k < RV_NSERIES_STATS; k++) {
			char key[32];
			snprintf(key, sizeof key, "%s_ns", report_view_series_stats[k]);
			set(b, so, key, value(&r->series[i].ns[k]));
		}
		const struct rv_series *sr = &r->series[i];
		if (sr->ci_level != 0) {
			json_t *c = json_object();
			set(b, c, "level", num(sr->ci_level));
			set(b, c, "p99", ci_object(b, &sr->p99_ci, sr->ci_level));
			set(b, so, "confidence", c);
		}
		series_histogram(b, so, sr);
		push(b, series, so);
	}
	set(b, o, "per_cpu", series);
	return o;
}

/* The readiness checks, or null when the run recorded none (a view read
 * from an older report). */
static json_t *readiness(struct jb *b, const struct report_view *v)
{
	if (!v->ready_recorded)
		return json_null();
	json_t *arr = json_array();
	for (size_t i = 0; i < v->nready; i++) {
		const struct rv_check *c = &v->ready[i];
		json_t *o = json_object();
		set(b, o, "name", json_string(c->name));
		set(b, o, "level", json_string(ready_level_name(c->level)));
		set(b, o, "finding", json_string(c->finding));
		set(b, o, "remedy", str_or_null(c->remedy));
		push(b, arr, o);
	}
	return arr;
}

/* "outputs": what the run wrote (report.h, struct rv_outputs); left out
 * when none is known (a view of an older results.json, `probe`). */
static void set_outputs(struct jb *b, json_t *o, const struct rv_outputs *out)
{
	static const char *const kinds[REPORT_NKINDS] = {
		[REPORT_JUNIT] = "junit", [REPORT_SUMMARY] = "summary",
		[REPORT_HTML] = "html", [REPORT_JSON] = "json",
	};
	bool any = out->csv != NULL;
	for (int k = 0; k < REPORT_NKINDS; k++)
		any |= out->report[k] != NULL;
	if (!any)
		return;
	json_t *j = json_object();
	for (int k = 0; k < REPORT_NKINDS; k++)
		set(b, j, kinds[k], str_or_null(out->report[k]));
	set(b, j, "csv", str_or_null(out->csv));
	set(b, o, "outputs", j);
}

/* Everything before "files", in the order written. */
static json_t *document_head(struct jb *b, const struct report_view *v)
{
	struct report_totals t;
	report_view_totals(v, &t);
	json_t *o = json_object();
	set(b, o, "schema", json_string(RESULTS_SCHEMA));
	set(b, o, "rtconform_version", str_or_null(fingerprint_get(&v->env, "rtconform.version")));
	set(b, o, "command", str_or_null(fingerprint_get(&v->env, "rtconform.command")));
	set(b, o, "started", str_or_null(fingerprint_get(&v->env, "rtconform.started")));
	set(b, o, "ended", str_or_null(fingerprint_get(&v->env, "rtconform.ended")));
	set(b, o, "exit_status", json_integer(report_view_exit_status(v)));

	json_t *tot = json_object();
	set(b, tot, "tests", json_integer((json_int_t)t.tests));
	set(b, tot, "passed", json_integer((json_int_t)t.passed));
	set(b, tot, "failures", json_integer((json_int_t)t.failures));
	set(b, tot, "errors", json_integer((json_int_t)t.errors));
	set(b, tot, "skipped", json_integer((json_int_t)t.skipped));
	set(b, tot, "inconclusive", json_integer((json_int_t)t.inconclusive));
	set(b, tot, "seconds", num(t.seconds));
	set(b, o, "totals", tot);

	json_t *env = json_object();
	for (size_t i = 0; i < v->env.n; i++)
		set(b, env, v->env.e[i].key, json_string(v->env.e[i].value));
	set(b, o, "environment", env);
	set(b, o, "readiness", readiness(b, v));
	set_outputs(b, o, &v->outputs);
	return o;
}

/* A file's members before "requirements". */
static json_t *file_head(struct jb *b, const struct report_view *v, const struct rv_file *vf)
{
	json_t *fo = json_object();
	set(b, fo, "name", json_string(vf->name));
	set(b, fo, "path", json_string(vf->path));
	set(b, fo, "version", str_or_null(vf->version));
	set(b, fo, "sha256", json_string(vf->sha256));
	set(b, fo, "started", utc(vf->started));
	/* Which host measured it: a file moved into another results.json
	 * by hand still says where it came from, and the reader refuses
	 * the mix (json_read.c). */
	char host[400];
	fingerprint_host_title(&v->env, host, sizeof host);
	set(b, fo, "host", json_string(host));
	return fo;
}

/* A real as jansson writes one, but with the fewest digits that read back
 * as v: "0.035", "100.0" (a point or an exponent, so that it reads back as
 * a real), "1e-5" (no '+', no leading zeros in the exponent). */
static void real_text(double v, char *buf, size_t len)
{
	numfmt_fmt_shortest(v, buf, len - 2);
	char *e = strchr(buf, 'e');
	if (!e) {
		if (!strchr(buf, '.'))
			strcat(buf, ".0");
		return;
	}
	char *d = e + 1, *from = d;
	if (*from == '+')
		from++;
	else if (*from == '-')
		d = ++from;
	while (from[0] == '0' && from[1])
		from++;
	memmove(d, from, strlen(from) + 1);
}

/* jansson writes every real with RESULTS_REAL_DIGITS digits (one setting
 * per document; 0.035 comes out 0.035000000000000003): its text onto m,
 * each real outside the strings rewritten by real_text, integers (no
 * point, no exponent) as they are, and each line after the first indented
 * by depth more (the text printed at that depth: no newline is inside a
 * string, jansson escapes it). Written as it is read, never copied. */
static void reals_onto(FILE *m, const char *in, int depth)
{
	const char *p = in;
	while (*p) {
		size_t k = 1;
		if (*p == '"') { /* a string, escapes and all */
			while (p[k] && p[k] != '"')
				k += p[k] == '\\' && p[k + 1] ? 2 : 1;
			k += p[k] == '"';
		} else if (*p == '-' || isdigit((unsigned char)*p)) {
			k = strspn(p, "-+.0123456789eE");
			char tok[64], buf[64];
			bool ok = false;
			if (k < sizeof tok) {
				memcpy(tok, p, k);
				tok[k] = '\0';
				double v = strpbrk(tok, ".eE") ? numfmt_parse(tok, &ok) : 0;
				if (ok) {
					real_text(v, buf, sizeof buf);
					fputs(buf, m);
				}
			}
			if (ok) {
				p += k;
				continue;
			}
		} else if (*p == '\n') {
			fputc('\n', m);
			fwrite("        ", 1, (size_t)depth, m); /* depth <= 4 */
			p++;
			continue;
		}
		fwrite(p, 1, k, m);
		p += k;
	}
}

/* ---- writing, one requirement at a time ----------------------------------
 *
 * The document is written in pieces, each built as a tree, printed and
 * freed before the next: a whole tree of a large run takes several times
 * its text (the reader does the same: reports/read/json_split.h). The
 * pieces are printed as jansson prints them at their depth (JSON_INDENT(1):
 * one space a level), so the text is the one a single json_dumps of the
 * whole document gave, byte for byte. */

#define DUMP_FLAGS                                                                           \
	(JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY |                            \
	 JSON_REAL_PRECISION(RESULTS_REAL_DIGITS))

/* val (consumed) onto m as it prints at a line indented by depth: each of
 * its lines after the first indented by depth more. */
static void put_value(struct jb *b, FILE *m, json_t *val, int depth)
{
	char *text = val && !b->failed ? json_dumps(val, DUMP_FLAGS) : NULL;
	json_decref(val);
	if (!text) {
		b->failed = true;
		return;
	}
	reals_onto(m, text, depth);
	free(text);
}

/* obj's members (obj consumed) onto m at depth, without its closing
 * brace, so that more members can follow: its text without the last line
 * ("\n}"). */
static void put_open_object(struct jb *b, FILE *m, json_t *obj, int depth)
{
	bool members = json_object_size(obj) > 0; /* "{}" has no last line */
	char *text = obj && !b->failed ? json_dumps(obj, DUMP_FLAGS) : NULL;
	json_decref(obj);
	size_t len = text ? strlen(text) : 0;
	if (!members || len < 2 || strcmp(text + len - 2, "\n}") != 0) {
		free(text);
		b->failed = true;
		return;
	}
	text[len - 2] = '\0';
	reals_onto(m, text, depth);
	free(text);
}

/* A write onto m that failed (a full disk) stops the document, with its
 * reason: the errno of the moment is often another call's by now (a full
 * disk read "Input/output error"), so what the buffer still holds is
 * flushed once more, which fails again for the same reason. */
static void check_written(struct jb *b, FILE *m)
{
	if (b->failed || !ferror(m))
		return;
	b->failed = true;
	/* errno may have been cleared since the write failed (a number's
	 * conversion): a flush tries the buffered bytes again and says why
	 * they cannot be written (a full disk is not an I/O error). */
	errno = 0;
	int e = fflush(m) != 0 ? errno : 0;
	snprintf(b->why, sizeof b->why, "%s", strerror(e ? e : EIO));
}

static void put_requirements(struct jb *b, FILE *m, const struct rv_file *vf)
{
	fputs(",\n   \"requirements\": ", m);
	if (!vf->nreqs) {
		fputs("[]", m);
		return;
	}
	fputc('[', m);
	for (size_t i = 0; i < vf->nreqs && !b->failed; i++) {
		fputs(i ? ",\n    " : "\n    ", m);
		put_value(b, m, requirement(b, &vf->reqs[i]), 4);
		check_written(b, m);
	}
	fputs("\n   ]", m);
}

static void put_document(struct jb *b, FILE *m, const struct report_view *v)
{
	put_open_object(b, m, document_head(b, v), 0);
	check_written(b, m);
	fputs(",\n \"files\": ", m);
	if (!v->nfiles)
		fputs("[]", m);
	else
		fputc('[', m);
	for (size_t f = 0; f < v->nfiles && !b->failed; f++) {
		fputs(f ? ",\n  " : "\n  ", m);
		put_open_object(b, m, file_head(b, v, &v->files[f]), 2);
		put_requirements(b, m, &v->files[f]);
		fputs("\n  }", m);
	}
	if (v->nfiles)
		fputs("\n ]", m);
	/* Last: it is built from every requirement (traceability.h); only
	 * when one cites a clause, as report.html's section. */
	if (report_view_traced(v)) {
		fputs(",\n \"traceability\": ", m);
		put_value(b, m, b->failed ? NULL : report_traceability_json(v), 1);
	}
	/* json_dumps leaves out the final newline a text file should have. */
	fputs("\n}\n", m);
}

int report_json_put(const struct report_view *v, FILE *out, char *why, size_t whylen)
{
	struct jb b = { .failed = false, .why = "", .spill = v->ival_spill };
	put_document(&b, out, v);
	if (b.failed || ferror(out)) {
		snprintf(why, whylen, "%s", b.why[0] ? b.why : strerror(ferror(out) && errno ? errno
										       : ENOMEM));
		return -1;
	}
	return 0;
}

/* o (consumed) on one line, malloc'd with its length in *len; NULL with
 * why when b failed or out of memory. The journal's records. */
static char *compact(struct jb *b, json_t *o, size_t *len, char *why, size_t whylen)
{
	char *text = !b->failed ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
						  JSON_REAL_PRECISION(RESULTS_REAL_DIGITS))
				: NULL;
	json_decref(o);
	if (!text) {
		snprintf(why, whylen, "%s", b->why[0] ? b->why : strerror(ENOMEM));
		return NULL;
	}
	*len = strlen(text);
	return text;
}

char *report_json_ivals_last(const struct rv_ivals *acc, const struct req_result *r, size_t *len,
			     char *why, size_t whylen)
{
	struct jb b = { .failed = false, .why = "" };
	json_t *o = json_object(), *ms = json_object(), *cpus = json_object();
	for (unsigned k = 0; k < acc->nmetrics + acc->nseries; k++) {
		if (!acc->n[k])
			continue;
		uint64_t highest = acc->highest[k];
		json_t *one = intervals(&b, &acc->list[k][acc->n[k] - 1], 1, highest);
		json_t *iv = json_incref(json_array_get(one, 0));
		json_decref(one);
		char name[32];
		if (k < acc->nmetrics) {
			char nbuf[16];
			set(&b, ms, summary_metric_name(r, k, nbuf, sizeof nbuf), iv);
		} else {
			snprintf(name, sizeof name, "%d", acc->cpu[k - acc->nmetrics]);
			set(&b, cpus, name, iv);
		}
	}
	set(&b, o, "metrics", ms);
	set(&b, o, "per_cpu", cpus);
	return compact(&b, o, len, why, whylen);
}

char *report_json_requirement(const struct rv_req *r, size_t *len, char *why, size_t whylen)
{
	struct jb b = { .failed = false, .why = "" };
	json_t *o = requirement(&b, r);
	return compact(&b, o, len, why, whylen);
}

char *report_json_render(const struct report_view *v, size_t *len, char *why, size_t whylen)
{
	char *out = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&out, &n);
	if (!m) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return NULL;
	}
	int rc = report_json_put(v, m, why, whylen);
	if (fclose(m) != 0 || rc != 0) {
		if (!rc)
			snprintf(why, whylen, "%s", strerror(ENOMEM));
		free(out);
		return NULL;
	}
	*len = n;
	return out;
}
