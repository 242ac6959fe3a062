/* SPDX-License-Identifier: Apache-2.0 */
/* view.c - the report view filled from a finished run; see report.h.
 *
 * Everything the writers need is taken from the results here, once, so that
 * a view read back from results.json renders the same reports. Numbers keep
 * their full precision; strings are made valid UTF-8 (what results.json can
 * hold); a scale that is not a finite number (only a worker that scribbled
 * on its memory leaves one) becomes 0, which every writer already takes as
 * "no scale".
 */
#include "reports/report.h"
#include "base/sha256.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness/explain.h"
#include "harness/summary.h"
#include "harness/verdict.h"
#include "reports/xmlw.h"

/* ---- helpers ----------------------------------------------------------- */

enum qty_unit rv_limit_unit(const struct rv_limit *l)
{
	return l->count ? QTY_COUNT : l->cycles ? QTY_CYCLES : QTY_NS;
}

/* A valid UTF-8 copy; *failed on out of memory. NULL stays NULL. */
static char *dup_clean(const char *s, bool *failed)
{
	if (!s)
		return NULL;
	char *c = xmlw_clean_utf8(s);
	if (!c)
		*failed = true;
	return c;
}

/* A copy of a result's explanation for the view (explain_copy). */
static struct explain *rv_explain_dup(const struct explain *e, bool *failed)
{
	struct explain *c = malloc(sizeof *c);
	if (c && explain_copy(c, e) == 0)
		return c;
	free(c);
	*failed = true;
	return NULL;
}

unsigned rv_req_batch_runs(const struct rv_req *r)
{
	unsigned n = 0;
	for (uint32_t k = 0; k < r->runs && r->batch_run_ns; k++)
		n += r->batch_run_ns[k].have;
	return n;
}

size_t rv_req_deciding_limit(const struct rv_req *r)
{
	struct limit_standing s[REQ_MAX_LIMITS];
	size_t n = r->nlimits < REQ_MAX_LIMITS ? r->nlimits : REQ_MAX_LIMITS;
	for (size_t i = 0; i < n; i++) {
		const struct rv_limit *l = &r->limits[i];
		s[i] = limit_standing_of(limit_weight(l->verdict), l->measured.have, l->measured.v,
					 l->has_min, l->min.value, l->has_max, l->max.value);
	}
	return limit_deciding(s, n);
}

/* ---- filling ----------------------------------------------------------- */

static void fill_limits(const struct req_result *r, struct rv_req *vr, bool *failed)
{
	const struct requirement *q = r->req;
	size_t n = q ? q->nlimits : 0;
	if (n > REQ_MAX_LIMITS)
		n = REQ_MAX_LIMITS;
	if (!n)
		return;
	vr->limits = calloc(n, sizeof *vr->limits);
	if (!vr->limits) {
		*failed = true;
		return;
	}
	vr->nlimits = n;
	for (size_t i = 0; i < n; i++) {
		const struct req_limit *l = &q->limits[i];
		const struct limit_outcome *o = &r->limits[i];
		struct rv_limit *vl = &vr->limits[i];
		char mbuf[16], st[32];
		vl->metric = dup_clean(l->metric ? l->metric
					: summary_metric_name(r, 0, mbuf, sizeof mbuf), failed);
		statistic_name(&l->stat, st, sizeof st);
		vl->statistic = dup_clean(st, failed);
		vl->has_max = l->has_max;
		vl->has_min = l->has_min;
		vl->cycles = limit_in_cycles(l);
		vl->count = limit_unit(l) == QTY_COUNT;
		if (l->has_max)
			vl->max = l->max;
		if (l->has_min)
			vl->min = l->min;
		vl->measured = rv_value_of(o->evaluated, o->measured);
		vl->verdict = limit_verdict(r->verdict, o->evaluated, o->passed, o->undecided);
		vl->confidence = l->confidence;
		if (l->confidence > 0 && o->evaluated) {
			vl->lower = rv_value_of(o->has_lo, o->lo);
			vl->upper = rv_value_of(o->has_hi, o->hi);
			vl->need = o->need;
		}
		vl->text = o->text[0] ? dup_clean(o->text, failed) : NULL;
	}
}

static void fill_params(const struct req_result *r, struct rv_req *vr, bool *failed)
{
	const struct requirement *q = r->req;
	const struct probe_decl *p = summary_decl(r);
	size_t n = p ? p->nparams : (q ? q->nparams : 0);
	if (!n)
		return;
	vr->params = calloc(n, sizeof *vr->params);
	if (!vr->params) {
		*failed = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name, *value;
		if (p) {
			/* What was measured: defaults applied, in the probe's order. */
			name = p->params[i].name;
			value = q ? req_param(q, name) : NULL;
			if (!value)
				value = p->params[i].def;
		} else {
			name = q->params[i].name;
			value = q->params[i].value;
		}
		vr->params[i].name = dup_clean(name, failed);
		vr->params[i].value = dup_clean(value ? value : "", failed);
		vr->nparams++;
	}
}

/* The clauses the requirement cites, in its file's order. */
static void fill_clauses(const struct requirement *q, struct rv_req *vr, bool *failed)
{
	if (!q || !q->nclauses)
		return;
	vr->clauses = calloc(q->nclauses, sizeof *vr->clauses);
	if (!vr->clauses) {
		*failed = true;
		return;
	}
	vr->nclauses = q->nclauses;
	for (size_t i = 0; i < q->nclauses; i++) {
		vr->clauses[i].ref = dup_clean(q->clauses[i].ref, failed);
		vr->clauses[i].title = q->clauses[i].title
					       ? dup_clean(q->clauses[i].title, failed) : NULL;
	}
}

/* The summary's numbers (harness/summary.h) moved into vr, and the
 * probe's note with what the premise check confirmed. */
static void fill_numbers(struct summary *sum, struct rv_req *vr, bool *failed)
{
	if (!sum->measured) {
		summary_free(sum);
		return;
	}
	vr->measured = true;
	char note[sizeof sum->note + 120];
	int used = snprintf(note, sizeof note, "%s", sum->note);
	/* How many tasks the premise check confirmed (probe_verify_self). */
	uint32_t v = sum->verified;
	if (v && used >= 0 && (size_t)used < sizeof note)
		snprintf(note + used, sizeof note - (size_t)used, "%schecked at the kernel before "
			 "measuring: %u task%s' policy, priority and CPUs.", used ? " " : "", v,
			 v == 1 ? "" : "s");
	vr->note = note[0] ? dup_clean(note, failed) : NULL;
	vr->runs = sum->runs;
	vr->batch_mean_ns = sum->batch_mean_ns;
	vr->batch_stddev_ns = sum->batch_stddev_ns;
	vr->batch_run_ns = sum->batch_run_ns;
	vr->metrics = sum->metrics;
	vr->nmetrics = sum->nmetrics;
	vr->series = sum->series;
	vr->nseries = sum->nseries;
}

static void fill_req(const struct req_result *r, struct rv_req *vr, bool *failed)
{
	const struct requirement *q = r->req;
	char buf[64];
	vr->id = dup_clean(q && q->id ? q->id : "?", failed);
	vr->title = q && q->title && *q->title ? dup_clean(q->title, failed) : NULL;
	vr->source = q && q->source && *q->source ? dup_clean(q->source, failed) : NULL;
	fill_clauses(q, vr, failed);
	vr->probe = dup_clean(q && q->probe ? q->probe : (summary_decl(r) ? summary_decl(r)->name : "?"),
			      failed);
	report_policy_text(r, buf, sizeof buf);
	vr->policy = dup_clean(buf, failed);
	vr->cpu = q ? q->cpu : -1;
	if (q)
		vr->plan = (struct rv_plan){ true, q->iterations, q->runs, q->warmup,
					     q->duration_ns };
	vr->reason = r->reason[0] ? dup_clean(r->reason, failed) : NULL;
	/* The load as it was run (resolved path and arguments), which is what
	 * junit.xml records as ID.load.command. */
	vr->load = r->load_cmd[0] ? dup_clean(r->load_cmd, failed) : NULL;
	vr->trace = r->trace_file[0] ? dup_clean(r->trace_file, failed) : NULL;
	vr->trace_note = r->trace_note[0] ? dup_clean(r->trace_note, failed) : NULL;
	vr->explain = r->explain ? rv_explain_dup(r->explain, failed) : NULL;
	vr->verdict = r->verdict;
	vr->not_selected = r->not_selected;
	/* A negative or NaN duration can only come from a clock step; it
	 * would make `time` invalid in the JUnit schemas. */
	vr->seconds = isfinite(r->seconds) && r->seconds > 0 ? r->seconds : 0.0;
	fill_params(r, vr, failed);
	fill_limits(r, vr, failed);

	struct summary sum;
	if (summary_of(r, &sum) != 0)
		*failed = true;
	fill_numbers(&sum, vr, failed);
}

/* The environment as junit.xml lists it: the fingerprint, then what a
 * fingerprint taken before the timebase or without the command lacks. */
static void fill_env(const struct report_run *run, struct fingerprint *env)
{
	const struct fingerprint *fp = run->env;
	if (fp)
		for (size_t i = 0; i < fp->n; i++) {
			char *v = xmlw_clean_utf8(fp->e[i].value);
			char *k = xmlw_clean_utf8(fp->e[i].key);
			if (k && v)
				fingerprint_add(env, k, "%s", v);
			free(k);
			free(v);
		}
	const struct timebase *tb = run->tb;
	if (tb && !(fp && fingerprint_get(fp, "timebase.name"))) {
		char v[64];
		char *name = xmlw_clean_utf8(tb->name ? tb->name : "unknown");
		fingerprint_add(env, "timebase.name", "%s", name ? name : "unknown");
		free(name);
		snprintf(v, sizeof v, "%.0f", tb->freq_hz);
		fingerprint_add(env, "timebase.freq_hz", "%s", v);
		numfmt_fmt3(tb->resolution_ns, v, sizeof v);
		fingerprint_add(env, "timebase.resolution_ns", "%s", v);
		numfmt_fmt3(tb->read_min_ns, v, sizeof v);
		fingerprint_add(env, "timebase.read_overhead_min_ns", "%s", v);
		numfmt_fmt3(tb->read_median_ns, v, sizeof v);
		fingerprint_add(env, "timebase.read_overhead_median_ns", "%s", v);
	}
	if (run->command_line && !(fp && fingerprint_get(fp, "rtconform.command"))) {
		char *c = xmlw_clean_utf8(run->command_line);
		if (c)
			fingerprint_add(env, "rtconform.command", "%s", c);
		free(c);
	}
}

static const char *file_name(const struct req_file *f)
{
	if (!f)
		return "rtconform";
	return f->name && *f->name ? f->name : (f->path ? f->path : "rtconform");
}

/* A file's name, path, version and digest, and room for its requirements
 * (`started` is set as they are added). */
static int fill_file(const struct req_file *file, struct rv_file *vf)
{
	bool failed = false;
	vf->name = dup_clean(file_name(file), &failed);
	vf->path = dup_clean(file && file->path ? file->path : "", &failed);
	vf->version = file && file->version ? dup_clean(file->version, &failed) : NULL;
	char hex[65] = "";
	if (file)
		sha256_hex(file->sha256, hex);
	vf->sha256 = dup_clean(hex, &failed);
	size_t n = file ? file->nreqs : 0;
	if (n && !(vf->reqs = calloc(n, sizeof *vf->reqs)))
		failed = true;
	return failed ? -ENOMEM : 0;
}

int report_view_begin(struct report_view *v, struct req_file *const *files, size_t nfiles)
{
	memset(v, 0, sizeof *v);
	if (nfiles && !(v->files = calloc(nfiles, sizeof *v->files)))
		return -ENOMEM;
	for (size_t f = 0; f < nfiles; f++) {
		v->nfiles++;
		if (fill_file(files[f], &v->files[f]) != 0) {
			report_view_free(v);
			return -ENOMEM;
		}
	}
	return 0;
}

int report_view_add(struct report_view *v, size_t file, const struct req_result *r)
{
	struct rv_file *vf = &v->files[file];
	bool failed = false;
	struct rv_req *vr = &vf->reqs[vf->nreqs++];
	fill_req(r, vr, &failed);
	/* The suite's start: when its first requirement started. */
	if (r->started && (!vf->started || (int64_t)r->started < vf->started))
		vf->started = (int64_t)r->started;
	return failed ? -ENOMEM : 0;
}

/* Add a readiness check to v (strings copied, made valid UTF-8; remedy NULL
 * or "" for none) and mark the checks recorded. 0 or -ENOMEM. */
static int report_view_add_check(struct report_view *v, const char *name,
				 enum ready_level level, const char *finding, const char *remedy)
{
	struct rv_check *c = realloc(v->ready, (v->nready + 1) * sizeof *c);
	if (!c)
		return -ENOMEM;
	v->ready = c;
	v->ready_recorded = true;
	bool failed = false;
	c = &v->ready[v->nready++];
	c->name = dup_clean(name, &failed);
	c->level = level;
	c->finding = dup_clean(finding, &failed);
	c->remedy = remedy && *remedy ? dup_clean(remedy, &failed) : NULL;
	return failed ? -ENOMEM : 0;
}

bool report_view_ready_counts(const struct report_view *v, size_t count[READY_NLEVELS])
{
	memset(count, 0, READY_NLEVELS * sizeof *count);
	for (size_t i = 0; i < v->nready; i++)
		if ((unsigned)v->ready[i].level < READY_NLEVELS)
			count[v->ready[i].level]++;
	return count[READY_WARN] || count[READY_FAIL];
}

/* The checks as the run took them; a run without any records none. */
static int fill_ready(const struct readiness *rd, struct report_view *v)
{
	for (size_t i = 0; rd && i < rd->n; i++) {
		const struct ready_check *c = &rd->c[i];
		if (report_view_add_check(v, c->name, c->level, c->finding, c->remedy) != 0)
			return -ENOMEM;
	}
	return 0;
}

int report_view_finish(struct report_view *v, const struct report_run *run)
{
	fill_env(run, &v->env);
	if (fill_ready(run->ready, v) != 0)
		return -ENOMEM;
	for (size_t f = 0; f < v->nfiles; f++)
		if (!v->files[f].started) /* none started: the run's start */
			v->files[f].started = (int64_t)run->started;
	return 0;
}

int report_view_from_run(const struct report_run *run, struct report_view *v)
{
	struct req_file *files[run->nfiles ? run->nfiles : 1];
	for (size_t f = 0; f < run->nfiles; f++)
		files[f] = (struct req_file *)run->files[f].file;
	if (report_view_begin(v, files, run->nfiles) != 0)
		return -ENOMEM;
	for (size_t f = 0; f < run->nfiles; f++)
		for (size_t i = 0; i < run->files[f].nresults; i++)
			if (report_view_add(v, f, &run->files[f].results[i]) != 0)
				goto nomem;
	if (report_view_finish(v, run) == 0)
		return 0;
nomem:
	report_view_free(v);
	return -ENOMEM;
}

int report_view_req_from_result(const struct req_result *r, struct rv_req *out)
{
	bool failed = false;
	memset(out, 0, sizeof *out);
	fill_req(r, out, &failed);
	return failed ? -ENOMEM : 0;
}

/* ---- freeing and totals ------------------------------------------------ */

void report_view_req_free(struct rv_req *r)
{
	free(r->id);
	free(r->title);
	free(r->source);
	for (size_t i = 0; i < r->nclauses; i++) {
		free(r->clauses[i].ref);
		free(r->clauses[i].title);
	}
	free(r->clauses);
	free(r->probe);
	free(r->policy);
	free(r->reason);
	free(r->note);
	free(r->load);
	free(r->trace);
	free(r->trace_note);
	if (r->explain)
		explain_free(r->explain);
	free(r->explain);
	r->explain = NULL;
	for (size_t i = 0; i < r->nparams; i++) {
		free(r->params[i].name);
		free(r->params[i].value);
	}
	free(r->params);
	free(r->batch_run_ns);
	for (size_t i = 0; i < r->nlimits; i++) {
		free(r->limits[i].metric);
		free(r->limits[i].statistic);
		free(r->limits[i].text);
	}
	free(r->limits);
	summary_metrics_free(r->metrics, r->nmetrics);
	summary_series_free(r->series, r->nseries);
	memset(r, 0, sizeof *r);
}

/* ---- intervals --------------------------------------------------------- */

/* n buckets onto f (none: nothing, and bk may be NULL). */
static bool spill_write(FILE *f, const struct rv_bucket *bk, size_t n)
{
	return !n || fwrite(bk, sizeof *bk, n, f) == n;
}

void rv_ivals_spill_last(struct rv_ivals *acc, FILE *spill)
{
	for (size_t b = 0; spill && b < sizeof acc->list / sizeof acc->list[0]; b++) {
		if (!acc->n[b])
			continue;
		struct rv_ival *iv = &acc->list[b][acc->n[b] - 1];
		if (iv->spilled || fseeko(spill, 0, SEEK_END) != 0)
			continue;
		off_t at = ftello(spill);
		if (at < 0 || !spill_write(spill, iv->buckets, iv->nbuckets) ||
		    !spill_write(spill, iv->neg.buckets, iv->neg.nbuckets) || fflush(spill) != 0)
			continue; /* kept in memory: nothing is lost */
		free(iv->buckets);
		free(iv->neg.buckets);
		iv->buckets = iv->neg.buckets = NULL;
		iv->spilled = true;
		iv->spill_at = (int64_t)at;
	}
}

int rv_ival_unspill(const struct rv_ival *iv, FILE *spill, struct rv_bucket **pos,
		    struct rv_bucket **neg)
{
	*pos = calloc(iv->nbuckets + 1, sizeof **pos);
	*neg = calloc(iv->neg.nbuckets + 1, sizeof **neg);
	int rc = 0;
	if (!*pos || !*neg)
		rc = -ENOMEM;
	else if (!spill || fseeko(spill, (off_t)iv->spill_at, SEEK_SET) != 0 ||
		 fread(*pos, sizeof **pos, iv->nbuckets, spill) != iv->nbuckets ||
		 fread(*neg, sizeof **neg, iv->neg.nbuckets, spill) != iv->neg.nbuckets)
		rc = -EIO;
	if (rc) {
		free(*pos);
		free(*neg);
		*pos = *neg = NULL;
	}
	return rc;
}

void rv_ivals_move(struct rv_ivals *acc, struct rv_req *vr)
{
	for (unsigned b = 0; b < acc->nmetrics && b < vr->nmetrics; b++) {
		vr->metrics[b].intervals = acc->list[b];
		vr->metrics[b].nintervals = acc->n[b];
		acc->list[b] = NULL;
		acc->n[b] = 0;
	}
	for (unsigned s = 0; s < acc->nseries; s++) {
		unsigned b = acc->nmetrics + s;
		for (size_t k = 0; k < vr->nseries; k++)
			if (vr->series[k].cpu == acc->cpu[s] && !vr->series[k].intervals) {
				vr->series[k].intervals = acc->list[b];
				vr->series[k].nintervals = acc->n[b];
				acc->list[b] = NULL;
				acc->n[b] = 0;
			}
	}
	rv_ivals_free(acc);
}

void report_view_free(struct report_view *v)
{
	for (size_t f = 0; f < v->nfiles; f++) {
		struct rv_file *vf = &v->files[f];
		for (size_t i = 0; i < vf->nreqs; i++)
			report_view_req_free(&vf->reqs[i]);
		free(vf->reqs);
		free(vf->name);
		free(vf->path);
		free(vf->version);
		free(vf->sha256);
	}
	free(v->files);
	for (int k = 0; k < REPORT_NKINDS; k++)
		free(v->outputs.report[k]);
	free(v->outputs.csv);
	free(v->trace_dir);
	fingerprint_free(&v->env);
	for (size_t i = 0; i < v->nready; i++) {
		free(v->ready[i].name);
		free(v->ready[i].finding);
		free(v->ready[i].remedy);
	}
	free(v->ready);
	memset(v, 0, sizeof *v);
}

static void add_file(const struct rv_file *f, struct report_totals *t)
{
	for (size_t i = 0; i < f->nreqs; i++)
		report_totals_add(t, f->reqs[i].verdict, f->reqs[i].nlimits, f->reqs[i].seconds);
}

void report_view_file_totals(const struct rv_file *f, struct report_totals *t)
{
	memset(t, 0, sizeof *t);
	add_file(f, t);
}

void report_view_totals(const struct report_view *v, struct report_totals *t)
{
	memset(t, 0, sizeof *t);
	for (size_t f = 0; f < v->nfiles; f++)
		add_file(&v->files[f], t);
}

int report_view_exit_status(const struct report_view *v)
{
	struct report_totals t;
	report_view_totals(v, &t);
	return verdict_exit_status(t.failures, t.errors, t.inconclusive);
}

bool report_view_no_limits(const struct report_view *v)
{
	bool ran = false;
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			const struct rv_req *r = &v->files[f].reqs[i];
			if (r->verdict == VERDICT_SKIPPED)
				continue;
			if (r->verdict != VERDICT_PASS || r->nlimits)
				return false;
			ran = true;
		}
	return ran;
}

const char *report_view_status_label(const struct report_view *v)
{
	int status = report_view_exit_status(v);
	if (status == EXIT_PASS)
		return report_view_no_limits(v) ? VERDICT_LABEL_NO_LIMITS : "PASS";
	return status == EXIT_FAILED ? "FAIL" : status == EXIT_INCONCLUSIVE ? "INCONCLUSIVE" : "ERROR";
}

const char *report_view_exit_meaning(const struct report_view *v, int status)
{
	if (status == EXIT_PASS && report_view_no_limits(v))
		return "every requirement was measured; none had limits to judge";
	struct report_totals t;
	report_view_totals(v, &t);
	if (status == EXIT_PASS && t.no_limits)
		return "every requirement with limits passed; the others were measured without "
		       "limits to judge";
	return verdict_exit_meaning(status);
}
