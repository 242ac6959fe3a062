/* SPDX-License-Identifier: Apache-2.0 */
/* merge.c - `rtconform merge`: host summaries, the streamed results.json
 * and junit.xml of a fleet report. See merge.h. */
#include "across/merge.h"
#include "base/utf8.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/strindex.h"
#include "harness/runinfo.h"
#include "reports/json_schema.h"
#include "reports/link.h"

/* The name a host goes by: host.label, else host.name with host.id,
 * else host.name, else "unknown host". */
static void merge_identity(const struct fingerprint *env, char *buf, size_t len)
{
	const char *label = fingerprint_get(env, "host.label");
	const char *name = fingerprint_get(env, "host.name");
	const char *id = fingerprint_get(env, "host.id");
	if (label && label[0])
		utf8_snprintf(buf, len, "%s", label);
	else if (name && id && id[0])
		utf8_snprintf(buf, len, "%s (id %s)", name, id);
	else
		utf8_snprintf(buf, len, "%s", name && name[0] ? name : "unknown host");
}

static char *dup_or_null(const char *s, bool *failed)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		*failed = true;
	return d;
}

static void req_summary(const struct rv_file *f, const struct rv_req *r, struct merge_req *out,
			bool *failed)
{
	out->file = dup_or_null(f->name, failed);
	out->id = dup_or_null(r->id, failed);
	out->title = dup_or_null(r->title, failed);
	out->verdict = r->verdict;
	out->decides = rv_req_deciding_limit(r);
	if (!r->nlimits)
		return;
	out->limits = calloc(r->nlimits, sizeof *out->limits);
	if (!out->limits) {
		*failed = true;
		return;
	}
	out->nlimits = r->nlimits;
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		struct merge_limit *o = &out->limits[i];
		o->metric = dup_or_null(l->metric, failed);
		o->statistic = dup_or_null(l->statistic, failed);
		o->unit = rv_limit_unit(l);
		o->has_max = l->has_max;
		o->has_min = l->has_min;
		o->max = l->max.value;
		o->min = l->min.value;
		o->measured = l->measured;
		o->verdict = l->verdict;
	}
}

/* The keys that tell hosts apart (fingerprint_same_host), kept per host. */
static int keep_identity(struct merge_host *h, const struct fingerprint *env)
{
	static const char *const keys[] = { "host.label", "host.name", "host.id" };
	size_t want = 0;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const char *val = fingerprint_get(env, keys[k]);
		if (val) {
			fingerprint_add(&h->keys, keys[k], "%s", val);
			want++;
		}
	}
	return h->keys.n == want ? 0 : -ENOMEM; /* fingerprint_add drops on ENOMEM */
}

static bool name_taken(const struct merge *mg, const char *name)
{
	for (size_t i = 0; i < mg->nhosts; i++)
		if (mg->hosts[i].name && strcmp(mg->hosts[i].name, name) == 0)
			return true;
	return false;
}

/* "<id>#<n>" with the least n >= from that no host goes by yet (a host may
 * be labelled "lab-a#2" itself), or id itself when from is 1 and it is free. */
static char *free_name(const struct merge *mg, const char *id, unsigned from)
{
	if (from == 1 && !name_taken(mg, id))
		return strdup(id);
	for (unsigned n = from > 1 ? from : 2;; n++) {
		char *name;
		if (asprintf(&name, "%s#%u", id, n) < 0)
			return NULL;
		if (!name_taken(mg, name))
			return name;
		free(name);
	}
}

/* Name h after its identity, "#<n>" for the n-th host of one name: the
 * same host measured twice (fingerprint_same_host), or another host that
 * goes by the same name; note says which. The name is never one another
 * host already goes by. */
static int name_host(struct merge *mg, struct merge_host *h, const struct report_view *v,
		     char *note, size_t notelen)
{
	char id[512];
	merge_identity(&v->env, id, sizeof id);
	const struct merge_host *first = NULL;
	h->seen = 1;
	if (keep_identity(h, &v->env))
		return -ENOMEM;
	for (size_t i = 0; i < mg->nhosts; i++)
		if (strcmp(mg->hosts[i].identity, id) == 0) {
			first = first ? first : &mg->hosts[i];
			h->seen++;
		}
	h->identity = strdup(id);
	h->name = free_name(mg, id, h->seen);
	if (first && fingerprint_same_host(&first->keys, &h->keys))
		utf8_snprintf(note, notelen, "%s: host %s was merged before from %s; kept apart as %s",
			 h->source, id, first->source, h->name ? h->name : id);
	else if (first)
		utf8_snprintf(note, notelen, "%s: another host goes by %s (from %s); kept apart as %s",
			 h->source, id, first->source, h->name ? h->name : id);
	else if (h->name && strcmp(h->name, id) != 0)
		utf8_snprintf(note, notelen, "%s: a host merged before was named %s; kept apart as %s",
			 h->source, id, h->name);
	return h->identity && h->name ? 0 : -ENOMEM;
}

/* Write j; false when it is NULL (a builder refused: a string that is not
 * UTF-8, or no memory) or could not be written. A fleet results.json with
 * a value missing is not JSON: the merge fails instead. */
static bool put_json(FILE *out, json_t *j)
{
	bool ok = j && json_dumpf(j, out, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER |
				  JSON_REAL_PRECISION(RESULTS_REAL_DIGITS)) == 0;
	json_decref(j);
	return ok;
}

static json_t *totals_json(const struct report_totals *t)
{
	return json_pack("{sI sI sI sI sI sI sf}", "tests", (json_int_t)t->tests, "passed",
			 (json_int_t)t->passed, "failures", (json_int_t)t->failures, "errors",
			 (json_int_t)t->errors, "skipped", (json_int_t)t->skipped, "inconclusive",
			 (json_int_t)t->inconclusive, "seconds", t->seconds);
}

static json_t *num_or_null(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

static json_t *limit_json(const struct merge_limit *l)
{
	return json_pack("{ss ss so so so so ss}", "metric", l->metric, "statistic", l->statistic,
			 "unit", l->unit == QTY_NS ? json_string("ns") : l->unit == QTY_CYCLES
					 ? json_string("cycles") : json_null(),
			 "max", num_or_null(l->has_max, l->max), "min", num_or_null(l->has_min, l->min),
			 "measured", num_or_null(l->measured.have, l->measured.v), "verdict",
			 verdict_name(l->verdict));
}

/* A requirement's verdict, the limit that decided it ("limit", null
 * without limits) and every limit. */
static json_t *req_json(const struct merge_req *r)
{
	json_t *limits = json_array();
	bool ok = limits != NULL;
	for (size_t i = 0; i < r->nlimits && ok; i++)
		ok = !json_array_append_new(limits, limit_json(&r->limits[i]));
	if (!ok) { /* a value refused: the summary would lack it */
		json_decref(limits);
		return NULL;
	}
	json_t *decided = r->decides < r->nlimits ? limit_json(&r->limits[r->decides]) : json_null();
	return json_pack("{ss ss so ss so so}", "file", r->file, "id", r->id, "title",
			 r->title ? json_string(r->title) : json_null(), "verdict",
			 verdict_name(r->verdict), "limit", decided, "limits", limits);
}

/* hosts[i]'s summary: what fleet.html shows of it, for tools. */
static json_t *host_json(const struct merge_host *h)
{
	json_t *identity = json_object(), *reqs = json_array();
	bool ok = identity && reqs;
	for (size_t k = 0; k < h->keys.n && ok; k++)
		ok = !json_object_set_new(identity, h->keys.e[k].key,
					  json_string(h->keys.e[k].value));
	for (size_t i = 0; i < h->nreqs && ok; i++)
		ok = !json_array_append_new(reqs, req_json(&h->reqs[i]));
	if (!ok) { /* a value refused: the summary would lack it */
		json_decref(identity);
		json_decref(reqs);
		return NULL;
	}
	return json_pack("{ss ss so ss so so sI so}", "host", h->name, "identity_of", h->identity,
			 "identity", identity, "source", h->source, "report",
			 h->link ? json_string(h->link) : json_null(), "totals",
			 totals_json(&h->totals), "exit_status", (json_int_t)h->exit_status,
			 "requirements", reqs);
}

static int summarize(struct merge *mg, struct merge_host *h, const struct report_view *v,
		     const char *source)
{
	bool failed = false;
	size_t n = 0;
	for (size_t f = 0; f < v->nfiles; f++)
		n += v->files[f].nreqs;
	h->reqs = calloc(n ? n : 1, sizeof *h->reqs);
	if (!h->reqs)
		return -ENOMEM;
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++)
			req_summary(&v->files[f], &v->files[f].reqs[i], &h->reqs[h->nreqs++],
				    &failed);
	report_view_totals(v, &h->totals);
	h->exit_status = report_view_exit_status(v);
	h->no_limits = report_view_no_limits(v);
	h->meaning = report_view_exit_meaning(v, h->exit_status);
	h->link = report_beside_link(mg->outdir, source, report_kind_file_name(REPORT_HTML),
				     &failed);
	mg->totals.tests += h->totals.tests;
	mg->totals.passed += h->totals.passed;
	mg->totals.no_limits += h->totals.no_limits;
	mg->totals.failures += h->totals.failures;
	mg->totals.errors += h->totals.errors;
	mg->totals.skipped += h->totals.skipped;
	mg->totals.inconclusive += h->totals.inconclusive;
	mg->totals.seconds += h->totals.seconds;
	struct report_totals jt;
	report_junit_totals(v, &jt);
	mg->junit_totals.tests += jt.tests;
	mg->junit_totals.failures += jt.failures;
	mg->junit_totals.errors += jt.errors;
	mg->junit_totals.seconds += jt.seconds;
	return failed ? -ENOMEM : 0;
}

/* {"summary": ..., "results": <the host's whole results.json>} */
static int stream_host(struct merge *mg, const struct merge_host *h, const struct report_view *v,
		       char *err, size_t errlen)
{
	char why[256] = "";
	FILE *o = mg->json.f;
	fputs(mg->nhosts ? ",\n{\"summary\": " : "\n{\"summary\": ", o);
	if (!put_json(o, host_json(h))) {
		utf8_snprintf(err, errlen, "%s: cannot build its summary in the fleet's results.json",
			      h->source);
		return -EINVAL;
	}
	fputs(",\n\"results\": ", o);
	if (report_json_put(v, o, why, sizeof why) != 0) {
		if (ferror(o)) /* the disk, not the host's file */
			utf8_snprintf(err, errlen, "writing the fleet report: %s", why);
		else
			utf8_snprintf(err, errlen, "%s: cannot render its results.json again: %s",
				      h->source, why);
		return ferror(o) ? -EIO : -ENOMEM;
	}
	fputs("}", o);
	int rc = report_junit_host_suite(v, h->name, h->source, mg->nhosts, mg->suites);
	if (ferror(o) || ferror(mg->suites) || rc) {
		utf8_snprintf(err, errlen, "writing the fleet report: %s",
			 strerror(rc ? -rc : errno ? errno : EIO));
		return rc ? rc : -EIO;
	}
	return 0;
}

int merge_add(struct merge *mg, const struct report_view *v, const char *source, char *note,
	      size_t notelen, char *err, size_t errlen)
{
	note[0] = 0;
	if (mg->nhosts == mg->cap) {
		size_t cap = mg->cap ? mg->cap * 2 : 16;
		struct merge_host *n = realloc(mg->hosts, cap * sizeof *n);
		if (!n) {
			utf8_snprintf(err, errlen, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		mg->hosts = n;
		mg->cap = cap;
	}
	struct merge_host *h = &mg->hosts[mg->nhosts];
	memset(h, 0, sizeof *h);
	/* As text: a path is any bytes, the reports hold UTF-8. */
	int rc = (h->source = utf8_valid_dup(source)) ? 0 : -ENOMEM;
	if (!rc)
		rc = name_host(mg, h, v, note, notelen);
	if (!rc)
		rc = summarize(mg, h, v, source);
	if (rc)
		utf8_snprintf(err, errlen, "%s", strerror(ENOMEM));
	if (!rc)
		rc = stream_host(mg, h, v, err, errlen);
	mg->nhosts++; /* even when it failed: merge_free frees what it holds */
	return rc;
}

int merge_exit_status(const struct merge *mg)
{
	return verdict_exit_status(mg->totals.failures, mg->totals.errors, mg->totals.inconclusive);
}

const char *merge_status_label(const struct merge *mg)
{
	int status = merge_exit_status(mg);
	if (status != EXIT_PASS)
		return status == EXIT_FAILED ? "FAIL"
		       : status == EXIT_INCONCLUSIVE ? "INCONCLUSIVE" : "ERROR";
	bool no_limits = false;
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_host *fh = &mg->hosts[h];
		if (fh->no_limits)
			no_limits = true;
		else if (fh->totals.tests > fh->totals.skipped)
			return "PASS"; /* a host judged limits */
	}
	return no_limits ? VERDICT_LABEL_NO_LIMITS : "PASS";
}

static char *path_in(const char *dir, const char *name)
{
	char *p = NULL;
	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* The fleet results.json up to its hosts. The command line is any bytes
 * (paths): written as UTF-8, a byte that is not as U+FFFD. */
static int begin_json(struct merge *mg, char *err, size_t errlen)
{
	FILE *o = mg->json.f;
	char *command = mg->command ? utf8_valid_dup(mg->command) : NULL;
	fputs("{\"schema\": \"" RESULTS_FLEET_SCHEMA "\",\n\"rtconform_version\": ", o);
	bool ok = put_json(o, json_string(runinfo_version));
	fputs(",\n\"rtconform_commit\": ", o);
	ok = put_json(o, json_string(runinfo_commit)) && ok;
	fputs(",\n\"command\": ", o);
	ok = put_json(o, command ? json_string(command) : json_null()) && ok;
	fputs(",\n\"hosts\": [", o);
	free(command);
	if (!ok || (mg->command && !command)) {
		utf8_snprintf(err, errlen, "cannot write '%s': building the JSON failed",
			      mg->json_path);
		return -EINVAL;
	}
	return 0;
}

int merge_begin(struct merge *mg, const char *outdir, const char *command, char *err,
		size_t errlen)
{
	memset(mg, 0, sizeof *mg);
	mg->command = command;
	mg->outdir = realpath(outdir, NULL);
	if (!mg->outdir) {
		int e = errno;
		utf8_snprintf(err, errlen, "%s: %s", outdir, strerror(e));
		return -e;
	}
	mg->json_path = path_in(mg->outdir, MERGE_JSON);
	mg->junit_path = path_in(mg->outdir, MERGE_JUNIT);
	mg->html_path = path_in(mg->outdir, MERGE_HTML);
	int rc = mg->json_path && mg->junit_path && mg->html_path ? 0 : -ENOMEM;
	if (!rc)
		rc = report_stream_open(&mg->json, mg->json_path);
	if (!rc && !(mg->suites = tmpfile()))
		rc = -errno;
	if (rc) {
		utf8_snprintf(err, errlen, "cannot write in '%s': %s", outdir, strerror(-rc));
		return rc;
	}
	return begin_json(mg, err, errlen);
}

/* The identities seen more than once, with every source of each. */
static json_t *duplicates_json(const struct merge *mg)
{
	json_t *out = json_array();
	bool ok = out != NULL;
	for (size_t i = 0; i < mg->nhosts && ok; i++) {
		const struct merge_host *h = &mg->hosts[i];
		if (h->seen != 2)
			continue; /* listed once, at its second host */
		json_t *sources = json_array();
		ok = sources != NULL;
		for (size_t j = 0; j < mg->nhosts && ok; j++)
			if (strcmp(mg->hosts[j].identity, h->identity) == 0)
				ok = !json_array_append_new(sources, json_string(mg->hosts[j].source));
		if (!ok) {
			json_decref(sources);
			break;
		}
		ok = !json_array_append_new(out, json_pack("{ss so}", "host", h->identity,
							   "sources", sources));
	}
	if (!ok) { /* a value refused: the list would lack it */
		json_decref(out);
		return NULL;
	}
	return out;
}

static int finish_json(struct merge *mg)
{
	FILE *o = mg->json.f;
	fputs("],\n\"duplicates\": ", o);
	bool ok = put_json(o, duplicates_json(mg));
	fputs(",\n\"totals\": ", o);
	json_t *t = totals_json(&mg->totals);
	if (t && (json_object_set_new(t, "hosts", json_integer((json_int_t)mg->nhosts)) ||
		  json_object_set_new(t, "requirements",
				      json_integer((json_int_t)mg->nrequirements)))) {
		json_decref(t);
		t = NULL;
	}
	if (!put_json(o, t) || !ok)
		return -EINVAL;
	fprintf(o, ",\n\"exit_status\": %d}\n", merge_exit_status(mg));
	return report_stream_seal(&mg->json);
}

static int finish_junit(struct merge *mg, struct report_stream *st)
{
	int rc = report_stream_open(st, mg->junit_path);
	if (rc)
		return rc;
	if ((rc = report_junit_fleet_put(&mg->junit_totals, mg->suites, st->f)) != 0) {
		report_stream_abort(st);
		return rc;
	}
	return report_stream_seal(st);
}

static int html_sealed(struct merge *mg, struct report_stream *st, char *why, size_t whylen)
{
	int rc = report_stream_open(st, mg->html_path);
	if (rc) {
		utf8_snprintf(why, whylen, "%s", strerror(-rc));
		return rc;
	}
	rc = merge_html_put(mg, st->f, why, whylen);
	if (rc) {
		report_stream_abort(st);
		return rc;
	}
	return report_stream_seal(st);
}

/* The three reports land together or not at all: each is written and
 * synced beside its place first, and only then are they renamed into it
 * (a failure while building results.json left junit.xml in place). */
/* mg->nrequirements: the hosts' requirements, each (file, id) once however
 * many hosts measured it (fleet.html's rows). 0 or -ENOMEM. */
static int count_requirements(struct merge *mg)
{
	size_t total = 0, k = 0;
	for (size_t h = 0; h < mg->nhosts; h++)
		total += mg->hosts[h].nreqs;
	struct strindex_entry *e = malloc((total ? total : 1) * sizeof *e);
	if (!e)
		return -ENOMEM;
	for (size_t h = 0; h < mg->nhosts; h++)
		for (size_t i = 0; i < mg->hosts[h].nreqs; i++)
			e[k++] = (struct strindex_entry){ mg->hosts[h].reqs[i].file,
							  mg->hosts[h].reqs[i].id, 0 };
	strindex_sort(e, total);
	mg->nrequirements = 0;
	for (k = 0; k < total; k++)
		mg->nrequirements += !k || !strindex_is(&e[k - 1], e[k].a, e[k].b);
	free(e);
	return 0;
}

void merge_counts_text(const struct merge *mg, char *buf, size_t len)
{
	char counts[200];
	report_totals_text(&mg->totals, counts, sizeof counts);
	snprintf(buf, len, "%zu requirement%s on %zu host%s, %zu result%s: %s", mg->nrequirements,
		 mg->nrequirements == 1 ? "" : "s", mg->nhosts, mg->nhosts == 1 ? "" : "s",
		 mg->totals.tests, mg->totals.tests == 1 ? "" : "s", counts);
}

int merge_finish(struct merge *mg, char *err, size_t errlen)
{
	char why[256] = "";
	if (count_requirements(mg) != 0) {
		utf8_snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	struct report_stream junit = { 0 }, page = { 0 };
	const char *what = mg->junit_path;
	int rc = finish_junit(mg, &junit);
	if (!rc) {
		what = mg->json_path;
		rc = finish_json(mg);
	}
	if (!rc) {
		what = mg->html_path;
		rc = html_sealed(mg, &page, why, sizeof why);
	}
	struct {
		struct report_stream *st;
		const char *path;
	} order[] = { { &junit, mg->junit_path }, { &mg->json, mg->json_path },
		      { &page, mg->html_path } };
	for (size_t i = 0; i < sizeof order / sizeof order[0] && !rc; i++) {
		what = order[i].path;
		rc = report_stream_publish(order[i].st);
	}
	report_stream_abort(&junit);
	report_stream_abort(&page);
	report_stream_abort(&mg->json);
	if (rc)
		utf8_snprintf(err, errlen, "cannot write '%s': %s", what,
			      why[0] ? why : strerror(-rc));
	return rc;
}

void merge_free(struct merge *mg)
{
	report_stream_abort(&mg->json);
	if (mg->suites)
		fclose(mg->suites);
	for (size_t i = 0; i < mg->nhosts; i++) {
		struct merge_host *h = &mg->hosts[i];
		for (size_t k = 0; k < h->nreqs; k++) {
			struct merge_req *r = &h->reqs[k];
			free(r->file);
			free(r->id);
			free(r->title);
			for (size_t i = 0; i < r->nlimits; i++) {
				free(r->limits[i].metric);
				free(r->limits[i].statistic);
			}
			free(r->limits);
		}
		free(h->reqs);
		fingerprint_free(&h->keys);
		free(h->name);
		free(h->identity);
		free(h->source);
		free(h->link);
	}
	free(mg->hosts);
	free(mg->outdir);
	free(mg->json_path);
	free(mg->junit_path);
	free(mg->html_path);
	memset(mg, 0, sizeof *mg);
}
