/* view.c - the report view filled from a finished run; see report.h.
 *
 * The rule that makes a re-rendered report equal the original: every value
 * here is what junit.xml's property text for it parses back to. So numbers
 * junit.xml prints "%.3f" are rounded the same way here (num_round3), and
 * strings are cleaned to XML 1.0 characters as the JUnit writer cleans them.
 */
#include "reports/report.h"
#include "base/sha256.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness/stats.h"
#include "reports/xmlw.h"

const char *const report_view_stats[RV_NSTATS] = { "min", "mean", "stddev", "max", "p50",
						   "p90", "p99", "p99.9", "runs-mean-stddev" };

const char *const report_view_series_stats[RV_NSERIES_STATS] = { "min", "mean", "max", "p99" };

/* ---- helpers ----------------------------------------------------------- */

/* A cleaned copy; *failed on out of memory. NULL stays NULL. */
static char *dup_clean(const char *s, bool *failed)
{
	if (!s)
		return NULL;
	char *c = xmlw_clean(s);
	if (!c)
		*failed = true;
	return c;
}

static struct rv_value round_value(bool have, double v)
{
	struct rv_value r = { .have = have && isfinite(v) };
	r.v = r.have ? num_round3(v) : 0.0;
	return r;
}

/* ---- filling ----------------------------------------------------------- */

static void fill_metric(const struct req_result *r, unsigned mi, struct rv_metric *vm,
			bool *failed)
{
	const struct metric_data *m = result_metric_c(r->res, mi);
	const struct hist *h = &m->hist;
	char nbuf[16];
	vm->name = dup_clean(report_metric_name(r, mi, nbuf, sizeof nbuf), failed);
	vm->count = h->count;
	vm->overflow = h->overflow;
	vm->highest = h->highest;
	vm->ns_per_unit = m->ns_per_unit;
	vm->cycles_per_unit = m->cycles_per_unit;

	for (int i = 0; i < RV_NSTATS; i++) {
		struct statistic st;
		double val;
		if (stat_parse(report_view_stats[i], &st) != 0)
			continue;
		/* The same rule as the properties: a statistic the samples are
		 * too few for is absent, not a number. */
		if (h->count < stat_min_samples(&st))
			continue;
		if (stat_value(m, &st, false, &val))
			vm->ns[i] = round_value(true, val);
		if (m->cycles_per_unit != 0 && stat_value(m, &st, true, &val))
			vm->cycles[i] = round_value(true, val);
	}

	uint32_t i = 0;
	uint64_t lo, hi, c;
	size_t n = 0;
	while (hist_next_bucket(h, &i, &lo, &hi, &c))
		n++;
	if (n) {
		vm->buckets = calloc(n, sizeof *vm->buckets);
		if (!vm->buckets) {
			*failed = true;
			return;
		}
		i = 0;
		while (vm->nbuckets < n && hist_next_bucket(h, &i, &lo, &hi, &c))
			vm->buckets[vm->nbuckets++] = (struct rv_bucket){ lo, hi, c };
	}

	uint32_t runs = report_runs_done(r);
	if (runs) {
		vm->run_count = calloc(runs, sizeof *vm->run_count);
		vm->run_mean_ns = calloc(runs, sizeof *vm->run_mean_ns);
		if (!vm->run_count || !vm->run_mean_ns) {
			*failed = true;
			return;
		}
		vm->nruns = runs;
		for (uint32_t k = 0; k < runs; k++) {
			vm->run_count[k] = m->runs[k].count;
			vm->run_mean_ns[k] = round_value(m->runs[k].count != 0,
							 metric_run_mean_ns(m, k));
		}
	}
}

/* The per-CPU series, by junit.xml's rule: a statistic the samples are too
 * few for is absent. */
static void fill_series(const struct req_result *r, struct rv_req *vr, bool *failed)
{
	const struct result_shm *res = r->res;
	uint32_t n = res->nseries < res->nseries_alloc ? res->nseries : res->nseries_alloc;
	if (n > PROBE_MAX_SERIES)
		n = PROBE_MAX_SERIES;
	if (!n)
		return;
	vr->series = calloc(n, sizeof *vr->series);
	if (!vr->series) {
		*failed = true;
		return;
	}
	vr->nseries = n;
	for (uint32_t s = 0; s < n; s++) {
		const struct metric_data *m = result_metric_c(res, res->nmetrics + s);
		struct rv_series *vs = &vr->series[s];
		vs->cpu = res->series_cpu[s];
		vs->count = m->hist.count;
		for (int i = 0; i < RV_NSERIES_STATS; i++) {
			struct statistic st;
			double val;
			if (stat_parse(report_view_series_stats[i], &st) != 0 ||
			    m->hist.count < stat_min_samples(&st))
				continue;
			if (stat_value(m, &st, false, &val))
				vs->ns[i] = round_value(true, val);
		}
	}
}

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
					: report_metric_name(r, 0, mbuf, sizeof mbuf), failed);
		stat_name(&l->stat, st, sizeof st);
		vl->statistic = dup_clean(st, failed);
		vl->has_max = l->has_max;
		vl->has_min = l->has_min;
		vl->cycles = limit_in_cycles(l);
		if (l->has_max)
			vl->max = (struct quantity){ num_round3(l->max.value), l->max.unit };
		if (l->has_min)
			vl->min = (struct quantity){ num_round3(l->min.value), l->min.unit };
		vl->measured = round_value(o->evaluated, o->measured);
		vl->verdict = limit_verdict(r->verdict, o->evaluated, o->passed);
		vl->text = o->text[0] ? dup_clean(o->text, failed) : NULL;
	}
}

static void fill_params(const struct req_result *r, struct rv_req *vr, bool *failed)
{
	const struct requirement *q = r->req;
	const struct probe *p = r->probe;
	size_t n = p ? p->decl.nparams : (q ? q->nparams : 0);
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
			name = p->decl.params[i].name;
			value = q ? req_param(q, name) : NULL;
			if (!value)
				value = p->decl.params[i].def;
		} else {
			name = q->params[i].name;
			value = q->params[i].value;
		}
		vr->params[i].name = dup_clean(name, failed);
		vr->params[i].value = dup_clean(value ? value : "", failed);
		vr->nparams++;
	}
}

static void fill_req(const struct req_result *r, struct rv_req *vr, bool *failed)
{
	const struct requirement *q = r->req;
	char buf[64];
	vr->id = dup_clean(q && q->id ? q->id : "?", failed);
	vr->title = q && q->title && *q->title ? dup_clean(q->title, failed) : NULL;
	vr->source = q && q->source && *q->source ? dup_clean(q->source, failed) : NULL;
	vr->probe = dup_clean(q && q->probe ? q->probe : (r->probe ? r->probe->decl.name : "?"),
			      failed);
	report_policy_text(r, buf, sizeof buf);
	vr->policy = dup_clean(buf, failed);
	vr->cpu = q ? q->cpu : -1;
	vr->reason = r->reason[0] ? dup_clean(r->reason, failed) : NULL;
	/* The load as it was run (resolved path and arguments), which is what
	 * junit.xml records as ID.load.command. */
	vr->load = r->load_cmd[0] ? dup_clean(r->load_cmd, failed) : NULL;
	vr->verdict = r->verdict;
	vr->seconds = num_round3(isfinite(r->seconds) && r->seconds > 0 ? r->seconds : 0.0);
	fill_params(r, vr, failed);
	fill_limits(r, vr, failed);

	unsigned nm = report_nmetrics(r);
	if (!nm)
		return;
	vr->measured = true;
	/* Bounded copy: a worker that died mid-write may have left the note
	 * without its terminator. */
	char note[sizeof r->res->note + 1];
	snprintf(note, sizeof note, "%.*s", (int)sizeof r->res->note, r->res->note);
	vr->note = note[0] ? dup_clean(note, failed) : NULL;
	vr->runs = report_runs_done(r);
	double mean, sd;
	if (report_batch_ns(r, &mean, &sd)) {
		vr->batch_mean_ns = round_value(true, mean);
		vr->batch_stddev_ns = round_value(true, sd);
	}
	if (vr->runs) {
		vr->batch_run_ns = calloc(vr->runs, sizeof *vr->batch_run_ns);
		if (!vr->batch_run_ns) {
			*failed = true;
			return;
		}
		for (uint32_t k = 0; k < vr->runs; k++) {
			double x;
			bool have = report_batch_run_ns(r, k, &x);
			vr->batch_run_ns[k] = round_value(have, x);
		}
	}
	vr->metrics = calloc(nm, sizeof *vr->metrics);
	if (!vr->metrics) {
		*failed = true;
		return;
	}
	vr->nmetrics = nm;
	for (unsigned i = 0; i < nm; i++)
		fill_metric(r, i, &vr->metrics[i], failed);
	fill_series(r, vr, failed);
}

/* The environment as junit.xml lists it: the fingerprint, then what a
 * fingerprint taken before the timebase or without the command lacks. */
static void fill_env(const struct report_run *run, struct fingerprint *env)
{
	const struct fingerprint *fp = run->env;
	if (fp)
		for (size_t i = 0; i < fp->n; i++) {
			char *v = xmlw_clean(fp->e[i].value), *k = xmlw_clean(fp->e[i].key);
			if (k && v)
				fingerprint_add(env, k, "%s", v);
			free(k);
			free(v);
		}
	const struct timebase *tb = run->tb;
	if (tb && !(fp && fingerprint_get(fp, "timebase.name"))) {
		char v[64];
		char *name = xmlw_clean(tb->name ? tb->name : "unknown");
		fingerprint_add(env, "timebase.name", "%s", name ? name : "unknown");
		free(name);
		snprintf(v, sizeof v, "%.0f", tb->freq_hz);
		fingerprint_add(env, "timebase.freq_hz", "%s", v);
		num_fmt3(tb->resolution_ns, v, sizeof v);
		fingerprint_add(env, "timebase.resolution_ns", "%s", v);
		num_fmt3(tb->read_min_ns, v, sizeof v);
		fingerprint_add(env, "timebase.read_overhead_min_ns", "%s", v);
		num_fmt3(tb->read_median_ns, v, sizeof v);
		fingerprint_add(env, "timebase.read_overhead_median_ns", "%s", v);
	}
	if (run->command_line && !(fp && fingerprint_get(fp, "rtconform.command"))) {
		char *c = xmlw_clean(run->command_line);
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

int report_view_from_run(const struct report_run *run, struct report_view *v)
{
	bool failed = false;
	memset(v, 0, sizeof *v);
	fill_env(run, &v->env);
	if (run->nfiles) {
		v->files = calloc(run->nfiles, sizeof *v->files);
		if (!v->files)
			goto nomem;
	}
	for (size_t f = 0; f < run->nfiles; f++) {
		const struct report_file *rf = &run->files[f];
		struct rv_file *vf = &v->files[f];
		v->nfiles++;
		vf->name = dup_clean(file_name(rf->file), &failed);
		vf->path = dup_clean(rf->file && rf->file->path ? rf->file->path : "", &failed);
		vf->version = rf->file && rf->file->version ? dup_clean(rf->file->version, &failed)
							    : NULL;
		char hex[65] = "";
		if (rf->file)
			sha256_hex(rf->file->sha256, hex);
		vf->sha256 = dup_clean(hex, &failed);
		if (rf->nresults) {
			vf->reqs = calloc(rf->nresults, sizeof *vf->reqs);
			if (!vf->reqs)
				goto nomem;
		}
		for (size_t i = 0; i < rf->nresults; i++) {
			vf->nreqs++;
			fill_req(&rf->results[i], &vf->reqs[i], &failed);
		}
	}
	if (!failed)
		return 0;
nomem:
	report_view_free(v);
	return -ENOMEM;
}

/* ---- freeing and totals ------------------------------------------------ */

static void free_req(struct rv_req *r)
{
	free(r->id);
	free(r->title);
	free(r->source);
	free(r->probe);
	free(r->policy);
	free(r->reason);
	free(r->note);
	free(r->load);
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
	for (size_t i = 0; i < r->nmetrics; i++) {
		struct rv_metric *m = &r->metrics[i];
		free(m->name);
		free(m->buckets);
		free(m->run_count);
		free(m->run_mean_ns);
	}
	free(r->metrics);
	free(r->series);
}

void report_view_free(struct report_view *v)
{
	for (size_t f = 0; f < v->nfiles; f++) {
		struct rv_file *vf = &v->files[f];
		for (size_t i = 0; i < vf->nreqs; i++)
			free_req(&vf->reqs[i]);
		free(vf->reqs);
		free(vf->name);
		free(vf->path);
		free(vf->version);
		free(vf->sha256);
	}
	free(v->files);
	fingerprint_free(&v->env);
	memset(v, 0, sizeof *v);
}

void report_view_totals(const struct report_view *v, struct report_totals *t)
{
	memset(t, 0, sizeof *t);
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			const struct rv_req *r = &v->files[f].reqs[i];
			report_totals_add(t, r->verdict, r->seconds);
		}
	/* a sum of 0.001 s steps, printed as one */
	t->seconds = num_round3(t->seconds);
}

int report_view_exit_status(const struct report_view *v)
{
	struct report_totals t;
	report_view_totals(v, &t);
	return verdict_exit_status(t.failures, t.errors);
}
