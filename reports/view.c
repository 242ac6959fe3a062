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
#include "harness/interval.h"
#include "harness/stats.h"
#include "harness/verdict.h"
#include "reports/xmlw.h"

const char *const report_view_stats[RV_NSTATS] = { "min", "mean", "stddev", "max", "p50",
						   "p90", "p99", "p99.9", "runs-mean-stddev" };

const int report_view_key_stats[RV_NKEY_STATS] = { RV_MIN, RV_MEAN, RV_P50, RV_P99, RV_MAX };

const char *const report_view_series_stats[RV_NSERIES_STATS] = { "min", "mean", "max", "p99" };

const char *const report_view_count_stats[RV_NCSTATS] = { "total", "min", "mean", "max" };

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

/* A value is there when it could be computed and is a number. */
static struct rv_value value(bool have, double v)
{
	struct rv_value r = { .have = have && isfinite(v) };
	r.v = r.have ? v : 0.0;
	return r;
}

static double finite_or_0(double v)
{
	return isfinite(v) ? v : 0.0;
}

unsigned rv_req_batch_runs(const struct rv_req *r)
{
	unsigned n = 0;
	for (uint32_t k = 0; k < r->runs && r->batch_run_ns; k++)
		n += r->batch_run_ns[k].have;
	return n;
}

/* How far limit l lies past its bounds; +infinity without a measured value,
 * so that of equal verdicts the limit that could not be evaluated decides. */
static double rv_limit_excess(const struct rv_limit *l)
{
	if (!l->measured.have)
		return INFINITY;
	return limit_excess(l->measured.v, l->has_min, l->min.value, l->has_max, l->max.value);
}

size_t rv_req_deciding_limit(const struct rv_req *r)
{
	size_t best = SIZE_MAX;
	int best_rank = 0;
	double best_excess = 0;
	for (size_t i = 0; i < r->nlimits; i++) {
		int rank = limit_weight(r->limits[i].verdict);
		double e = rv_limit_excess(&r->limits[i]);
		if (best == SIZE_MAX || rank > best_rank || (rank == best_rank && e > best_excess)) {
			best = i;
			best_rank = rank;
			best_excess = e;
		}
	}
	return best;
}

uint64_t rv_neg_count(const struct rv_neg *n)
{
	uint64_t c = n->overflow;
	for (size_t i = 0; i < n->nbuckets; i++)
		c += n->buckets[i].count;
	return c;
}

static void rv_ival_list_free(struct rv_ival *list, size_t n);

/* ---- filling ----------------------------------------------------------- */

/* A count metric: its statistics and each completed run's count. */
static void fill_count(const struct req_result *r, const struct metric_data *m,
		       struct rv_metric *vm, bool *failed)
{
	vm->count = m->hist.count;
	for (int i = 0; i < RV_NCSTATS; i++) {
		struct statistic st;
		double val;
		if (statistic_parse(report_view_count_stats[i], &st) == 0 &&
		    stat_value(m, &st, false, &val))
			vm->counts[i] = value(true, val);
	}
	uint32_t runs = report_runs_done(r);
	if (!runs)
		return;
	vm->run_count = calloc(runs, sizeof *vm->run_count);
	if (!vm->run_count) {
		*failed = true;
		return;
	}
	vm->nruns = runs;
	for (uint32_t k = 0; k < runs; k++)
		if (!metric_run_count(m, k, &vm->run_count[k]))
			vm->run_count[k] = 0;
}

/* A histogram's non-empty buckets, ascending, into *out (*n of them).
 * False (and *failed) on out of memory. */
static bool fill_buckets(const struct hist *h, struct rv_bucket **out, size_t *n, bool *failed)
{
	uint32_t i = 0;
	uint64_t lo, hi, c;
	size_t want = 0;
	while (hist_next_bucket(h, &i, &lo, &hi, &c))
		want++;
	if (!want)
		return true;
	*out = calloc(want, sizeof **out);
	if (!*out) {
		*failed = true;
		return false;
	}
	i = 0;
	while (*n < want && hist_next_bucket(h, &i, &lo, &hi, &c))
		(*out)[(*n)++] = (struct rv_bucket){ lo, hi, c };
	return true;
}

/* A signed metric's samples below zero (nothing for another). */
static void fill_neg(const struct metric_data *m, struct rv_neg *out, bool *failed)
{
	const struct hist *neg = metric_neg_c(m);
	if (!neg || !neg->count)
		return;
	out->overflow = neg->overflow;
	fill_buckets(neg, &out->buckets, &out->nbuckets, failed);
}

/* The statistics of m's samples (count of them) in ns, and in cycles into
 * cycles when not NULL and m has them. The same rule as the properties: a
 * statistic the samples are too few for is absent, not a number. */
static void fill_stats(const struct metric_data *m, uint64_t count, struct rv_value *ns,
		       struct rv_value *cycles)
{
	for (int i = 0; i < RV_NSTATS; i++) {
		struct statistic st;
		double val;
		if (statistic_parse(report_view_stats[i], &st) != 0)
			continue;
		if (count < statistic_min_samples(&st))
			continue;
		if (stat_value(m, &st, false, &val))
			ns[i] = value(true, val);
		if (cycles && m->cycles_per_unit != 0 && stat_value(m, &st, true, &val))
			cycles[i] = value(true, val);
	}
}

/* The confidence interval of percentile st of m's `count` samples at
 * `level` (stat_bounds), in ns; nothing when st is not a percentile or the
 * bounds cannot be had. */
static void fill_ci(const struct metric_data *m, const struct statistic *st, uint64_t count,
		    double level, struct rv_ci *out)
{
	struct stat_bounds b;
	memset(out, 0, sizeof *out);
	if (st->kind != STAT_PCT || count > RV_CI_MAX_SAMPLES ||
	    !stat_bounds(m, st, level, false, &b) || b.n != count)
		return;
	if ((b.has_lo && !isfinite(b.lo)) || (b.has_hi && !isfinite(b.hi)) ||
	    !isfinite(b.coverage))
		return;
	*out = (struct rv_ci){
		.have = true, .level = level, .n = b.n,
		.lo_rank = b.lo_rank, .hi_rank = b.hi_rank,
		.has_lo = b.has_lo, .has_hi = b.has_hi,
		.lo_ns = b.has_lo ? b.lo : 0.0, .hi_ns = b.has_hi ? b.hi : 0.0,
		.coverage = b.coverage,
		.lo_bucket = b.has_lo && b.lo_bucket, .hi_bucket = b.has_hi && b.hi_bucket,
	};
}

/* The level of the interval of statistic `stat` of metric `metric`: the
 * confidence= of the first limit of vr on it that states one (the interval
 * it was judged on), else `level`. */
static double ci_level_of(const struct rv_req *vr, const char *metric, const char *stat,
			  double level)
{
	for (size_t i = 0; i < vr->nlimits; i++) {
		const struct rv_limit *l = &vr->limits[i];
		if (l->confidence > 0 && l->confidence < 1 && l->metric && l->statistic &&
		    strcmp(l->metric, metric) == 0 && strcmp(l->statistic, stat) == 0)
			return l->confidence;
	}
	return level;
}

/* Each reported percentile's interval (those ns[] has): at RV_CI_LEVEL,
 * or the level a limit on that statistic states. */
static void fill_cis(const struct metric_data *m, const struct rv_req *vr, struct rv_metric *vm)
{
	vm->ci_level = RV_CI_LEVEL;
	for (int i = 0; i < RV_NSTATS; i++) {
		struct statistic st;
		if (vm->ns[i].have && statistic_parse(report_view_stats[i], &st) == 0)
			fill_ci(m, &st, vm->count,
				ci_level_of(vr, vm->name ? vm->name : "", report_view_stats[i],
					    vm->ci_level), &vm->ci[i]);
	}
}

const struct rv_ci *rv_metric_ci(const struct rv_metric *m, int stat)
{
	if (stat < 0 || stat >= RV_NSTATS || !m->ci[stat].have)
		return NULL;
	return &m->ci[stat];
}

static void fill_metric(const struct req_result *r, const struct rv_req *vr, unsigned mi,
			struct rv_metric *vm, bool *failed)
{
	const struct metric_data *m = result_metric_c(r->res, mi);
	const struct hist *h = &m->hist;
	char nbuf[16];
	vm->name = dup_clean(report_metric_name(r, mi, nbuf, sizeof nbuf), failed);
	if (m->kind == METRIC_COUNT) {
		vm->kind = METRIC_COUNT;
		fill_count(r, m, vm, failed);
		return;
	}
	vm->count = metric_samples(m);
	vm->overflow = h->overflow;
	vm->highest = h->highest;
	vm->ns_per_unit = finite_or_0(m->ns_per_unit);
	vm->cycles_per_unit = finite_or_0(m->cycles_per_unit);
	if (vm->count)
		vm->median_ns = value(true, metric_median(m) * vm->ns_per_unit);

	fill_stats(m, vm->count, vm->ns, vm->cycles);
	fill_cis(m, vr, vm);

	if (!fill_buckets(h, &vm->buckets, &vm->nbuckets, failed))
		return;
	fill_neg(m, &vm->neg, failed);

	uint32_t runs = report_runs_done(r);
	if (runs) {
		vm->run_count = calloc(runs, sizeof *vm->run_count);
		vm->run_mean_ns = calloc(runs, sizeof *vm->run_mean_ns);
		vm->run_max_ns = calloc(runs, sizeof *vm->run_max_ns);
		if (!vm->run_count || !vm->run_mean_ns || !vm->run_max_ns) {
			*failed = true;
			return;
		}
		vm->nruns = runs;
		for (uint32_t k = 0; k < runs; k++) {
			vm->run_count[k] = m->runs[k].count;
			vm->run_mean_ns[k] = value(m->runs[k].count != 0,
							 metric_run_mean_ns(m, k));
			double mx = 0;
			bool have = metric_run_max_ns(m, k, &mx);
			vm->run_max_ns[k] = value(have, mx);
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
		vs->ci_level = RV_CI_LEVEL;
		vs->count = metric_samples(m);
		vs->overflow = m->hist.overflow;
		vs->highest = m->hist.highest;
		vs->has_hist = fill_buckets(&m->hist, &vs->buckets, &vs->nbuckets, failed);
		fill_neg(m, &vs->neg, failed);
		for (int i = 0; i < RV_NSERIES_STATS; i++) {
			struct statistic st;
			double val;
			if (statistic_parse(report_view_series_stats[i], &st) != 0 ||
			    vs->count < statistic_min_samples(&st))
				continue;
			if (stat_value(m, &st, false, &val))
				vs->ns[i] = value(true, val);
			if (i == RVS_P99 && vs->ns[i].have)
				fill_ci(m, &st, vs->count,
					ci_level_of(vr, vr->metrics[0].name ? vr->metrics[0].name : "",
						    "p99", vs->ci_level), &vs->p99_ci);
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
		vl->measured = value(o->evaluated, o->measured);
		vl->verdict = limit_verdict(r->verdict, o->evaluated, o->passed, o->undecided);
		vl->confidence = l->confidence;
		if (l->confidence > 0 && o->evaluated) {
			vl->lower = value(o->has_lo, o->lo);
			vl->upper = value(o->has_hi, o->hi);
			vl->need = o->need;
		}
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

static void fill_req(const struct req_result *r, struct rv_req *vr, bool *failed)
{
	const struct requirement *q = r->req;
	char buf[64];
	vr->id = dup_clean(q && q->id ? q->id : "?", failed);
	vr->title = q && q->title && *q->title ? dup_clean(q->title, failed) : NULL;
	vr->source = q && q->source && *q->source ? dup_clean(q->source, failed) : NULL;
	fill_clauses(q, vr, failed);
	vr->probe = dup_clean(q && q->probe ? q->probe : (r->probe ? r->probe->decl.name : "?"),
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

	unsigned nm = report_nmetrics(r);
	if (!nm)
		return;
	vr->measured = true;
	/* Bounded copy: a worker that died mid-write may have left the note
	 * without its terminator. */
	char note[sizeof r->res->note + 120];
	int used = snprintf(note, sizeof note, "%.*s", (int)sizeof r->res->note, r->res->note);
	/* How many tasks the premise check confirmed (probe_verify_self). */
	uint32_t v = r->res->verified;
	if (v && used >= 0 && (size_t)used < sizeof note)
		snprintf(note + used, sizeof note - (size_t)used, "%schecked at the kernel before "
			 "measuring: %u task%s' policy, priority and CPUs.", used ? " " : "", v,
			 v == 1 ? "" : "s");
	vr->note = note[0] ? dup_clean(note, failed) : NULL;
	vr->runs = report_runs_done(r);
	double mean, sd;
	if (report_batch_ns(r, &mean, &sd)) {
		vr->batch_mean_ns = value(true, mean);
		vr->batch_stddev_ns = value(true, sd);
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
			vr->batch_run_ns[k] = value(have, x);
		}
	}
	vr->metrics = calloc(nm, sizeof *vr->metrics);
	if (!vr->metrics) {
		*failed = true;
		return;
	}
	vr->nmetrics = nm;
	for (unsigned i = 0; i < nm; i++)
		fill_metric(r, vr, i, &vr->metrics[i], failed);
	fill_series(r, vr, failed);
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
	for (size_t i = 0; i < r->nmetrics; i++) {
		struct rv_metric *m = &r->metrics[i];
		rv_ival_list_free(m->intervals, m->nintervals);
		free(m->name);
		free(m->buckets);
		free(m->neg.buckets);
		free(m->run_count);
		free(m->run_mean_ns);
		free(m->run_max_ns);
	}
	free(r->metrics);
	for (size_t i = 0; i < r->nseries; i++) {
		rv_ival_list_free(r->series[i].intervals, r->series[i].nintervals);
		free(r->series[i].buckets);
		free(r->series[i].neg.buckets);
	}
	free(r->series);
	memset(r, 0, sizeof *r);
}

/* ---- intervals --------------------------------------------------------- */

static void rv_ival_list_free(struct rv_ival *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].buckets);
		free(list[i].neg.buckets);
	}
	free(list);
}

/* Block m (an interval's samples of one metric or series) as an rv_ival. */
static void fill_ival(const struct metric_data *m, const struct interval_out *iv,
		      struct rv_ival *out, bool *failed)
{
	memset(out, 0, sizeof *out);
	out->start_ms = iv->start_ms;
	out->seconds = iv->seconds;
	out->count = metric_samples(m);
	out->overflow = m->hist.overflow;
	fill_stats(m, out->count, out->ns, NULL);
	if (fill_buckets(&m->hist, &out->buckets, &out->nbuckets, failed))
		fill_neg(m, &out->neg, failed);
}

int rv_ivals_add(struct rv_ivals *acc, const struct req_result *r, const struct interval_out *iv)
{
	bool failed = false;
	acc->nmetrics = iv->nmetrics < RTC_MAX_METRICS ? iv->nmetrics : RTC_MAX_METRICS;
	acc->nseries = iv->nseries < PROBE_MAX_SERIES ? iv->nseries : PROBE_MAX_SERIES;
	for (unsigned b = 0; b < acc->nmetrics + acc->nseries && !failed; b++) {
		const struct metric_data *m = interval_block(iv, b < acc->nmetrics ? b
						      : iv->nmetrics + (b - acc->nmetrics));
		if (m->kind == METRIC_COUNT)
			continue;
		struct rv_ival *grown = realloc(acc->list[b], (acc->n[b] + 1) * sizeof *grown);
		if (!grown)
			return -ENOMEM;
		acc->list[b] = grown;
		fill_ival(m, iv, &grown[acc->n[b]++], &failed);
		if (b >= acc->nmetrics)
			acc->cpu[b - acc->nmetrics] = r->res->series_cpu[b - acc->nmetrics];
	}
	return failed ? -ENOMEM : 0;
}

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

void rv_ivals_free(struct rv_ivals *acc)
{
	for (size_t b = 0; b < sizeof acc->list / sizeof acc->list[0]; b++)
		rv_ival_list_free(acc->list[b], acc->n[b]);
	memset(acc, 0, sizeof *acc);
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
