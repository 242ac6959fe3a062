/* SPDX-License-Identifier: Apache-2.0 */
/* compare.c - see compare.h: matching two report views and judging each
 * figure by the rule written there (and in docs/fleet.md). */
#include "across/compare.h"
#include "base/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/strindex.h"
#include "base/units.h"
#include "harness/verdict.h"

const char *cmp_outcome_name(enum cmp_outcome o)
{
	switch (o) {
	case CMP_SAME:
		return "same";
	case CMP_BETTER:
		return "better";
	case CMP_WORSE:
		return "WORSE";
	case CMP_INCONCLUSIVE:
		return "INCONCLUSIVE";
	case CMP_CHANGED:
		return "CHANGED";
	case CMP_NOT_COMPARED:
		break;
	}
	return "not compared";
}

const char *cmp_figure_outcome(const struct cmp_figure *f)
{
	if (f->outcome == CMP_INCONCLUSIVE && !f->may_be_worse)
		return "inconclusive (not worse)";
	return cmp_outcome_name(f->outcome);
}

int cmp_exit_status(const struct cmp_result *r)
{
	return r->verdicts_worse || r->worse ||
		       (r->inconclusive_worse && !r->opts.allow_inconclusive) ||
		       (r->missing && !r->opts.allow_missing) ||
		       (r->changed && !r->opts.allow_changed)
		       ? 1 : 0;
}

enum cmp_outcome cmp_verdict_change(enum verdict base, enum verdict cand)
{
	int b = verdict_rank(base), c = verdict_rank(cand);
	if (b < 0 || c < 0)
		return CMP_NOT_COMPARED;
	return c > b ? CMP_WORSE : c < b ? CMP_BETTER : CMP_SAME;
}

void cmp_result_free(struct cmp_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->f[i].note);
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->f);
	free(r->notes);
	memset(r, 0, sizeof *r);
}

/* The comparison under way: the result, the first error, its message. */
struct cmp {
	struct cmp_result *r;
	int rc;
	char *err;
	size_t errlen;
};

static void failf(struct cmp *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void failf(struct cmp *c, int rc, const char *fmt, ...)
{
	if (c->rc)
		return;
	va_list ap;
	va_start(ap, fmt);
	utf8_vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	c->rc = rc;
}

static char *vdup(const char *fmt, va_list ap)
{
	char *s;
	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

static void note(struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct cmp *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vdup(fmt, ap);
	va_end(ap);
	char **n = s ? realloc(c->r->notes, (c->r->nnotes + 1) * sizeof *n) : NULL;
	if (!n) {
		free(s);
		failf(c, -ENOMEM, "%s", strerror(ENOMEM));
		return;
	}
	c->r->notes = n;
	n[c->r->nnotes++] = s;
}

static struct cmp_figure *add_figure(struct cmp *c)
{
	struct cmp_result *r = c->r;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct cmp_figure *f = realloc(r->f, cap * sizeof *f);
		if (!f) {
			failf(c, -ENOMEM, "%s", strerror(ENOMEM));
			return NULL;
		}
		r->f = f;
		r->cap = cap;
	}
	struct cmp_figure *f = &r->f[r->n++];
	memset(f, 0, sizeof *f);
	return f;
}

static void fig_note(struct cmp *c, struct cmp_figure *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fig_note(struct cmp *c, struct cmp_figure *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vdup(fmt, ap);
	va_end(ap);
	if (!s) {
		failf(c, -ENOMEM, "%s", strerror(ENOMEM));
		return;
	}
	if (f->note) {
		char *j;
		if (asprintf(&j, "%s; %s", f->note, s) < 0)
			j = NULL;
		free(s);
		free(f->note);
		s = j;
		if (!s)
			failf(c, -ENOMEM, "%s", strerror(ENOMEM));
	}
	f->note = s;
}

/* ---- the values and their spread ---------------------------------------- */

/* Tail figures move with the tail's end, so their run-to-run noise is that
 * of each run's largest sample; the others move with the bulk, each run's
 * mean. */
static bool is_tail(const char *stat)
{
	struct statistic st;
	if (statistic_parse(stat, &st) != 0)
		return false;
	return st.kind == STAT_MAX || st.kind == STAT_STDDEV ||
	       (st.kind == STAT_PCT && st.pct >= 99.0);
}

/* A metric's per-run values for statistic stat, in the figure's unit (scale
 * from ns), into out (RTC_MAX_RUNS entries): each run's count of a count,
 * each run's largest sample for a tail statistic, each run's mean for the
 * others. Returns how many runs have one (older results.json kept no
 * per-run maxima). */
static size_t run_values(const struct rv_metric *m, const char *stat, double scale, double *out)
{
	size_t n = 0;
	bool tail = is_tail(stat);
	for (size_t k = 0; k < m->nruns && n < RTC_MAX_RUNS; k++) {
		if (m->kind == METRIC_COUNT)
			out[n++] = (double)m->run_count[k];
		else if (tail && m->run_max_ns && m->run_max_ns[k].have)
			out[n++] = m->run_max_ns[k].v * scale;
		else if (!tail && m->run_mean_ns && m->run_mean_ns[k].have)
			out[n++] = m->run_mean_ns[k].v * scale;
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (n > 0); sorts v. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* ---- the values of each side ------------------------------------------ */

static const struct rv_limit *find_limit(const struct rv_req *r, const char *metric,
					 const char *stat, enum qty_unit unit)
{
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		if (!strcmp(l->metric, metric) && !strcmp(l->statistic, stat) &&
		    rv_limit_unit(l) == unit)
			return l;
	}
	return NULL;
}

/* The value of statistic stat of metric m of requirement r in unit: the
 * judged value of a limit on it, else the view's statistic. */
static bool stat_of(const struct rv_req *r, const struct rv_metric *m, const char *stat,
		    enum qty_unit unit, double *out)
{
	const struct rv_limit *l = find_limit(r, m->name, stat, unit);
	if (l) {
		*out = l->measured.v;
		return l->measured.have;
	}
	const char *const *names = m->kind == METRIC_COUNT ? report_view_count_stats
							    : report_view_stats;
	int n = m->kind == METRIC_COUNT ? RV_NCSTATS : RV_NSTATS;
	const struct rv_value *vals = m->kind == METRIC_COUNT ? m->counts
				      : unit == QTY_CYCLES ? m->cycles : m->ns;
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], stat)) {
			*out = vals[i].v;
			return vals[i].have;
		}
	return false;
}

/* ns to the figure's unit: cycles through the metric's scales. */
static double unit_scale(const struct rv_metric *m, enum qty_unit unit)
{
	if (unit != QTY_CYCLES)
		return 1.0;
	return m->ns_per_unit > 0 ? m->cycles_per_unit / m->ns_per_unit : 0.0;
}

/* The figure of each side: for mean and max of a duration, the typical
 * run's (the median over runs of each run's mean or largest sample), so
 * one run that met a burst of load does not decide; else the statistic of
 * all samples (or the judged value of a limit on it). */
static bool side_value(const struct rv_req *r, const struct rv_metric *m, const char *stat,
		       enum qty_unit unit, double *runs, size_t nruns, bool *typical, double *out)
{
	*typical = m->kind == METRIC_DURATION && nruns > 0 &&
		   (!strcmp(stat, "mean") || !strcmp(stat, "max"));
	if (!*typical)
		return stat_of(r, m, stat, unit, out);
	double *tmp = malloc(nruns * sizeof *tmp);
	if (!tmp)
		return stat_of(r, m, stat, unit, out);
	memcpy(tmp, runs, nruns * sizeof *tmp);
	*out = median(tmp, nruns);
	free(tmp);
	return true;
}

/* Whether every one of v[0..n) is x. */
static bool all_are(const double *v, size_t n, double x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] != x)
			return false;
	return true;
}

/* "x0.93..x1.12" of an interval's ends. */
static void ratio_text(const struct cmp_interval *iv, char *buf, size_t len)
{
	utf8_snprintf(buf, len, "x%.3g..x%.3g", iv->lo, iv->hi);
}

/* Decide figure f by the interval of its ratio, from its per-run values
 * vb (baseline) and vc (candidate). */
static void decide(struct cmp *c, struct cmp_figure *f, const double *vb, size_t nb,
		   const double *vc, size_t nc)
{
	double tol = c->r->opts.tolerance, level = 1.0 - c->r->opts.significance;
	int rc = cmp_ratio_interval(vb, nb, vc, nc, level, is_tail(f->statistic), &f->iv);
	if (rc) {
		failf(c, rc, "%s", strerror(-rc));
		return;
	}
	f->tested = f->iv.have;
	bool widened = cmp_interval_cover(&f->iv, f->base, f->cand);
	f->outcome = cmp_interval_outcome(&f->iv, tol, f->lower_is_worse);
	if (widened)
		fig_note(c, f, "the figure's own ratio lies outside the interval of its per-run %s; "
			 "the interval is widened to it", is_tail(f->statistic) ? "maxima" : "means");
	if (f->outcome != CMP_INCONCLUSIVE)
		return;
	f->may_be_worse = cmp_interval_may_be_worse(&f->iv, tol, f->lower_is_worse);
	if (!f->iv.have) {
		fig_note(c, f, nb == 1 && nc == 1
			 ? "one run a side, and they differ: one run shows nothing of the noise "
			   "between runs; measure 2 or more a side (3 or more to decide)"
			 : "the baseline's mean is 0: no ratio to it");
		return;
	}
	double blo, bhi;
	char iv[64];
	cmp_tolerance_band(&f->iv, tol, &blo, &bhi);
	ratio_text(&f->iv, iv, sizeof iv);
	char one[96] = "";
	if (!f->may_be_worse)
		utf8_snprintf(one, sizeof one, "; not worse: the one-sided %g%% bound, x%.3g, is "
			      "within it", 100.0 * level, f->lower_is_worse ? f->iv.lo1 : f->iv.hi1);
	fig_note(c, f, "the %g%% interval of the ratio, %s, straddles the tolerance (x%.3g..x%.3g, "
		 "%zu and %zu runs): more runs narrow it%s", 100.0 * level, iv, blo, bhi, nb, nc,
		 one);
}

/* Judge one figure by the rule of compare.h. */
static void judge(struct cmp *c, struct cmp_figure *f, const struct rv_req *rb,
		  const struct rv_req *rc)
{
	double vb[RTC_MAX_RUNS], vc[RTC_MAX_RUNS];
	size_t nb = run_values(f->mb, f->statistic, unit_scale(f->mb, f->unit), vb);
	size_t nc = run_values(f->mc, f->statistic, unit_scale(f->mc, f->unit), vc);
	bool tb, tc;
	bool hb = side_value(rb, f->mb, f->statistic, f->unit, vb, nb, &tb, &f->base);
	bool hc = side_value(rc, f->mc, f->statistic, f->unit, vc, nc, &tc, &f->cand);
	f->typical = tb && tc;
	if (tb != tc) /* one side has per-run figures, the other not: compare like with like */
		hb = stat_of(rb, f->mb, f->statistic, f->unit, &f->base) &&
		     stat_of(rc, f->mc, f->statistic, f->unit, &f->cand);
	if (!hb || !hc) {
		f->outcome = CMP_NOT_COMPARED;
		fig_note(c, f, "no value in the %s (too few samples for it)",
			 !hb && !hc ? "baseline or the candidate" : !hb ? "baseline" : "candidate");
		return;
	}
	f->runs_base = nb;
	f->runs_cand = nc;
	f->allowed = c->r->opts.tolerance * fabs(f->base);
	bool zero_count = f->mc->kind == METRIC_COUNT && (nb ? all_are(vb, nb, 0) : f->base == 0);
	if (zero_count) {
		/* an event that must never happen: its first occurrence is worse */
		bool none = nc ? all_are(vc, nc, 0) : f->cand == 0;
		f->outcome = none ? CMP_SAME : f->lower_is_worse ? CMP_BETTER : CMP_WORSE;
	} else if (!nb || !nc) {
		f->outcome = f->base == f->cand ? CMP_SAME : CMP_INCONCLUSIVE;
		f->may_be_worse = true;
		fig_note(c, f, "no per-run %s in the %s: a change cannot be tested",
			 is_tail(f->statistic) ? "maxima" : "figures", !nb ? "baseline" : "candidate");
	} else {
		decide(c, f, vb, nb, vc, nc);
	}
}

/* ---- matching ----------------------------------------------------------- */

/* A view's requirements by id, and its files by name (strindex.h: a
 * scan of one view for each requirement of the other was quadratic).
 * Entry i: file << 32 | requirement; a file's own entry, file << 32. */
struct vindex {
	const struct report_view *v;
	struct strindex_entry *reqs, *files;
	size_t nreqs;
};

static int vindex_build(struct vindex *x, const struct report_view *v)
{
	size_t n = 0;
	for (size_t i = 0; i < v->nfiles; i++)
		n += v->files[i].nreqs;
	*x = (struct vindex){ v, malloc((n ? n : 1) * sizeof *x->reqs),
			      malloc((v->nfiles ? v->nfiles : 1) * sizeof *x->files), n };
	if (!x->reqs || !x->files)
		return -ENOMEM;
	n = 0;
	for (size_t i = 0; i < v->nfiles; i++) {
		x->files[i] = (struct strindex_entry){ v->files[i].name, "", (uint64_t)i << 32 };
		for (size_t j = 0; j < v->files[i].nreqs; j++)
			x->reqs[n++] = (struct strindex_entry){ v->files[i].reqs[j].id, "",
								(uint64_t)i << 32 | j };
	}
	strindex_sort(x->reqs, x->nreqs);
	strindex_sort(x->files, v->nfiles);
	return 0;
}

static void vindex_free(struct vindex *x)
{
	free(x->reqs);
	free(x->files);
}

/* The requirement with that id anywhere in the view (the first in file
 * order), and how many there are. */
static const struct rv_req *find_req(const struct vindex *x, const char *id, size_t *count)
{
	size_t k = strindex_lower(x->reqs, x->nreqs, id, "", 0);
	*count = 0;
	while (k + *count < x->nreqs && strindex_is(&x->reqs[k + *count], id, ""))
		++*count;
	if (!*count)
		return NULL;
	uint64_t at = x->reqs[k].i;
	return &x->v->files[at >> 32].reqs[at & UINT32_MAX];
}

/* The text being built of what differs between the two sides. */
struct diffs {
	char *buf;
	size_t len, o;
};

static void diff_add(struct diffs *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diff_add(struct diffs *d, const char *fmt, ...)
{
	if (d->o && d->o < d->len) {
		int k = utf8_snprintf(d->buf + d->o, d->len - d->o, ", ");
		d->o += k > 0 ? (size_t)k : 0;
	}
	va_list ap;
	va_start(ap, fmt);
	int k = utf8_vsnprintf(d->buf + d->o, d->o < d->len ? d->len - d->o : 0, fmt, ap);
	va_end(ap);
	d->o += k > 0 ? (size_t)k : 0;
}

/* A limit's bound as people read it: "3 us", "1200 cycles", "0". */
static void bound_text(const struct rv_limit *l, bool min, char *buf, size_t len)
{
	if (!(min ? l->has_min : l->has_max)) {
		utf8_snprintf(buf, len, "none");
		return;
	}
	struct quantity q = min ? l->min : l->max;
	units_fmt_qty(&q, buf, len);
}

static bool same_key(const struct rv_limit *a, const struct rv_limit *b)
{
	return !strcmp(a->metric, b->metric) && !strcmp(a->statistic, b->statistic) &&
	       rv_limit_unit(a) == rv_limit_unit(b);
}

/* Limit i of q's counterpart in r: of r's limits on the same metric,
 * statistic and unit, the one in the same place among them (a requirement
 * may hold two limits on one statistic, with and without confidence=);
 * NULL when r has fewer. */
static const struct rv_limit *same_limit(const struct rv_req *r, const struct rv_req *q,
					 size_t i)
{
	size_t k = 0;
	for (size_t j = 0; j < i; j++)
		k += same_key(&q->limits[j], &q->limits[i]);
	for (size_t j = 0; j < r->nlimits; j++)
		if (same_key(&r->limits[j], &q->limits[i]) && k-- == 0)
			return &r->limits[j];
	return NULL;
}

/* How limit lb (the baseline's) became lc (the candidate's; NULL: gone). */
static void limit_diff(struct diffs *d, const struct rv_limit *lb, const struct rv_limit *lc,
		       bool added)
{
	char x[48], y[48];
	if (!lc) {
		bound_text(lb, !lb->has_max, x, sizeof x);
		diff_add(d, "limit %s %s %s (%s %s)", lb->metric, lb->statistic,
			 added ? "added" : "removed", lb->has_max ? "max" : "min", x);
		return;
	}
	for (int min = 0; min < 2; min++) {
		bool hb = min ? lb->has_min : lb->has_max, hc = min ? lc->has_min : lc->has_max;
		double vb = min ? lb->min.value : lb->max.value, vc = min ? lc->min.value
									  : lc->max.value;
		if (hb == hc && (!hb || vb == vc))
			continue;
		bound_text(lb, min, x, sizeof x);
		bound_text(lc, min, y, sizeof y);
		diff_add(d, "limit %s %s%s %s -> %s", lb->metric, lb->statistic, min ? " min" : "", x,
			 y);
	}
	if (lb->confidence != lc->confidence) {
		utf8_snprintf(x, sizeof x, lb->confidence > 0 ? "%g%%" : "none",
			      100.0 * lb->confidence);
		utf8_snprintf(y, sizeof y, lc->confidence > 0 ? "%g%%" : "none",
			      100.0 * lc->confidence);
		diff_add(d, "limit %s %s confidence %s -> %s", lb->metric, lb->statistic, x, y);
	}
}

static void plan_diff(struct diffs *d, const struct rv_plan *b, const struct rv_plan *c)
{
	if (!b->have || !c->have)
		return; /* a file written before the plan was kept says nothing of it */
	const uint64_t vb[] = { b->iterations, b->runs, b->warmup };
	const uint64_t vc[] = { c->iterations, c->runs, c->warmup };
	static const char *const name[] = { "iterations", "runs", "warmup" };
	for (size_t i = 0; i < 3; i++)
		if (vb[i] != vc[i] && (i != 1 || (!b->duration_ns && !c->duration_ns)))
			diff_add(d, "%s %llu -> %llu", name[i], (unsigned long long)vb[i],
				 (unsigned long long)vc[i]);
	if (b->duration_ns != c->duration_ns) {
		char x[48], y[48];
		units_fmt_ns((double)b->duration_ns, x, sizeof x);
		units_fmt_ns((double)c->duration_ns, y, sizeof y);
		diff_add(d, "duration %s -> %s", b->duration_ns ? x : "none (runs by count)",
			 c->duration_ns ? y : "none (runs by count)");
	}
}

static const char *param_of(const struct rv_req *r, const char *name)
{
	for (size_t i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].name, name))
			return r->params[i].value;
	return NULL;
}

/* Whether two values of a parameter mean the same: the same text, the
 * same duration however written ("1ms", "1000us") or the same CPUs ("0-1",
 * "0,1"). A parameter's kind (base/probe_decl.h) is one of these or a
 * word or a whole number, whose text is its meaning; a word reads as
 * neither a duration nor a CPU list, and a number as a CPU list is itself. */
static bool param_same(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return true;
	char err[160];
	uint64_t na, nb;
	if (units_duration_parse_ns(a, true, &na, err, sizeof err) == 0 &&
	    units_duration_parse_ns(b, true, &nb, err, sizeof err) == 0)
		return na == nb;
	cpu_set_t sa, sb;
	if (cpulist_parse(a, &sa) == 0 && cpulist_parse(b, &sb) == 0)
		return CPU_EQUAL(&sa, &sb);
	return false;
}

/* The next word of a load's command from *p (words are split on white
 * space: a load's arguments hold no quotes, load_spec_problem), into
 * [*w, *w + *n); false at the end. */
static bool next_word(const char **p, const char **w, size_t *n)
{
	*p += strspn(*p, " \t");
	*w = *p;
	*n = strcspn(*p, " \t");
	*p += *n;
	return *n > 0;
}

/* Whether two loads as they were run (a resolved path, then arguments)
 * are the same load: the same tool (the path's last part: where a host
 * keeps stress-ng is the host's) and the same arguments, word by word. */
static bool load_same(const char *a, const char *b)
{
	const char *wa, *wb;
	size_t na, nb;
	for (bool first = true;; first = false) {
		bool ha = next_word(&a, &wa, &na), hb = next_word(&b, &wb, &nb);
		if (!ha || !hb)
			return ha == hb;
		if (first) {
			for (const char *s; (s = memchr(wa, '/', na)); na -= (size_t)(s + 1 - wa), wa = s + 1)
				;
			for (const char *s; (s = memchr(wb, '/', nb)); nb -= (size_t)(s + 1 - wb), wb = s + 1)
				;
		}
		if (na != nb || memcmp(wa, wb, na))
			return false;
	}
}

/* What the measurement itself changed by: parameters, policy and
 * priority, CPU, load, sample plan. */
static void measurement_diff(struct diffs *d, const struct rv_req *b, const struct rv_req *c)
{
	for (size_t i = 0; i < b->nparams; i++) {
		const char *v = param_of(c, b->params[i].name);
		if (!v || !param_same(b->params[i].value, v))
			diff_add(d, "%s %s -> %s", b->params[i].name, b->params[i].value,
				 v ? v : "(none)");
	}
	for (size_t i = 0; i < c->nparams; i++)
		if (!param_of(b, c->params[i].name))
			diff_add(d, "%s (none) -> %s", c->params[i].name, c->params[i].value);
	if (strcmp(b->policy, c->policy))
		diff_add(d, "policy %s -> %s", b->policy, c->policy);
	if (b->cpu != c->cpu) {
		char x[24] = "not pinned", y[24] = "not pinned";
		if (b->cpu >= 0)
			utf8_snprintf(x, sizeof x, "%d", b->cpu);
		if (c->cpu >= 0)
			utf8_snprintf(y, sizeof y, "%d", c->cpu);
		diff_add(d, "cpu %s -> %s", x, y);
	}
	if ((b->load == NULL) != (c->load == NULL) || (b->load && !load_same(b->load, c->load)))
		diff_add(d, "background load %s -> %s", b->load ? b->load : "none",
			 c->load ? c->load : "none");
	plan_diff(d, &b->plan, &c->plan);
}

/* What changed between the two sides' requirement ("" when nothing):
 * into meas what the measurement changed by, into all that and the
 * limits. */
static void req_changes(const struct rv_req *b, const struct rv_req *c, char *meas, char *all,
			size_t len)
{
	struct diffs dm = { meas, len, 0 }, da = { all, len, 0 };
	meas[0] = all[0] = '\0';
	for (size_t i = 0; i < b->nlimits; i++)
		limit_diff(&da, &b->limits[i], same_limit(c, b, i), false);
	for (size_t i = 0; i < c->nlimits; i++)
		if (!same_limit(b, c, i))
			limit_diff(&da, &c->limits[i], NULL, true);
	measurement_diff(&dm, b, c);
	if (meas[0])
		diff_add(&da, "%s", meas);
	for (struct diffs *d = &dm; d; d = d == &dm ? &da : NULL)
		if (d->o >= len && len > 4)
			memcpy(d->buf + len - 4, "...", 4);
}

static struct cmp_figure *find_figure(struct cmp_result *r, size_t from, const char *stat,
				      enum qty_unit unit)
{
	for (size_t i = from; i < r->n; i++)
		if (!strcmp(r->f[i].statistic, stat) && r->f[i].unit == unit)
			return &r->f[i];
	return NULL;
}

static struct cmp_figure *new_figure(struct cmp *c, const struct rv_file *fc,
				     const struct rv_req *rc, const struct rv_metric *mb,
				     const struct rv_metric *mc, const char *stat,
				     enum qty_unit unit)
{
	struct cmp_figure *f = add_figure(c);
	if (f)
		*f = (struct cmp_figure){ .id = rc->id, .file = fc->name, .metric = mc->name,
					  .statistic = stat, .unit = unit, .mb = mb, .mc = mc,
					  .req = rc };
	return f;
}

/* The figures of one metric both measured: a duration's mean and max, and
 * every statistic a candidate limit is on. */
static void metric_figures(struct cmp *c, const struct rv_file *fc, const struct rv_req *rb,
			   const struct rv_req *rc, const struct rv_metric *mb,
			   const struct rv_metric *mc)
{
	size_t first = c->r->n;
	if (mc->kind == METRIC_DURATION) {
		new_figure(c, fc, rc, mb, mc, "mean", QTY_NS);
		new_figure(c, fc, rc, mb, mc, "max", QTY_NS);
	}
	for (size_t i = 0; i < rc->nlimits && !c->rc; i++) {
		const struct rv_limit *l = &rc->limits[i];
		if (strcmp(l->metric, mc->name))
			continue;
		enum qty_unit unit = rv_limit_unit(l);
		for (size_t j = 0; j < rb->nlimits; j++) {
			const struct rv_limit *lb = &rb->limits[j];
			if (!strcmp(lb->metric, l->metric) && !strcmp(lb->statistic, l->statistic) &&
			    rv_limit_unit(lb) != unit)
				failf(c, -EINVAL, "%s: the limit on %s %s is in %s in the baseline and "
				      "in %s in the candidate: the figures cannot be compared",
				      rc->id, l->metric, l->statistic,
				      rv_limit_unit(lb) == QTY_CYCLES ? "cycles" : "ns",
				      unit == QTY_CYCLES ? "cycles" : "ns");
		}
		struct cmp_figure *f = find_figure(c->r, first, l->statistic, unit);
		if (!f)
			f = new_figure(c, fc, rc, mb, mc, l->statistic, unit);
		if (f) {
			f->limited = true;
			f->lower_is_worse = l->has_min && !l->has_max;
		}
	}
}

/* A row for a requirement without figures to compare. */
static void req_row(struct cmp *c, const struct rv_file *fc, const struct rv_req *r,
		    enum cmp_outcome o, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void req_row(struct cmp *c, const struct rv_file *fc, const struct rv_req *r,
		    enum cmp_outcome o, const char *fmt, ...)
{
	struct cmp_figure *f = add_figure(c);
	if (!f)
		return;
	*f = (struct cmp_figure){ .id = r->id, .file = fc->name, .metric = "-",
				  .statistic = "-", .outcome = o };
	va_list ap;
	va_start(ap, fmt);
	f->note = vdup(fmt, ap);
	va_end(ap);
	if (!f->note)
		failf(c, -ENOMEM, "%s", strerror(ENOMEM));
}

/* A row for requirement id the baseline measured that the candidate did
 * not (skipped it, or has no such requirement): a regression unless
 * --allow-missing. file: where it is (the candidate's file, else the
 * baseline's). */
static void missing_row(struct cmp *c, const char *file, const struct rv_req *rb,
			const char *how)
{
	struct cmp_figure *f = add_figure(c);
	if (!f)
		return;
	*f = (struct cmp_figure){ .id = rb->id, .file = file, .metric = "-", .statistic = "verdict",
				  .missing_row = true, .vbase = rb->verdict,
				  .vcand = VERDICT_SKIPPED,
				  .outcome = c->r->opts.allow_missing ? CMP_NOT_COMPARED
								      : CMP_WORSE };
	fig_note(c, f, "measured in the baseline (%s), %s%s", verdict_name(rb->verdict), how,
		 c->r->opts.allow_missing ? " (--allow-missing)" : "");
}

/* Why the worse side w (of a verdict row: the candidate when the verdict
 * got worse, the baseline when it got better) has its verdict: what it
 * could not measure, or the limit that decided (rv_req_deciding_limit). */
static void verdict_note(struct cmp *c, struct cmp_figure *f, const struct rv_req *w,
			 const char *side)
{
	size_t k = rv_req_deciding_limit(w);
	const struct rv_limit *l = k < w->nlimits ? &w->limits[k] : NULL;
	const char *why = w->reason ? w->reason : verdict_name(w->verdict);
	if (!w->measured)
		fig_note(c, f, "not measured in the %s: %s", side, why);
	else if (w->verdict == VERDICT_ERROR || !l)
		fig_note(c, f, "the %s could not be judged: %s", side, why);
	else
		fig_note(c, f, "the %s %s %s %s", side,
			 w->verdict == VERDICT_INCONCLUSIVE ? "could not decide" : "failed", l->metric,
			 l->text ? l->text : l->statistic);
}

/* A row when the requirement's verdict changed (cmp_verdict_change), with
 * why; the unchanged are counted. Returns whether there is a row. */
static bool verdict_row(struct cmp *c, const struct rv_file *fc, const struct rv_req *rb,
			const struct rv_req *rc)
{
	enum cmp_outcome o = cmp_verdict_change(rb->verdict, rc->verdict);
	c->r->verdicts_same += o == CMP_SAME;
	if (o != CMP_WORSE && o != CMP_BETTER)
		return false;
	struct cmp_figure *f = add_figure(c);
	if (!f)
		return false;
	*f = (struct cmp_figure){ .id = rc->id, .file = fc->name, .metric = "-",
				  .statistic = "verdict", .outcome = o, .verdict_row = true,
				  .vbase = rb->verdict, .vcand = rc->verdict };
	if (o == CMP_WORSE)
		verdict_note(c, f, rc, "candidate");
	else
		verdict_note(c, f, rb, "baseline");
	return true;
}

/* A row for a requirement that changed between the two sides (its
 * limits, or how it is measured: what), whose verdicts are therefore not
 * compared: CMP_CHANGED, a regression unless --allow-changed. Returns
 * true (a row). */
static bool changed_row(struct cmp *c, const struct rv_file *fc, const struct rv_req *rb,
			const struct rv_req *rc, const char *what)
{
	struct cmp_figure *f = add_figure(c);
	if (!f)
		return false;
	*f = (struct cmp_figure){ .id = rc->id, .file = fc->name, .metric = "-",
				  .statistic = "verdict", .outcome = CMP_CHANGED,
				  .changed_row = true, .vbase = rb->verdict, .vcand = rc->verdict };
	fig_note(c, f, "the requirement changed: %s; its verdicts are not compared%s", what,
		 c->r->opts.allow_changed ? " (--allow-changed)" : "");
	return true;
}

/* Mark the figure of the limit that decided a changed verdict (the worse
 * side's), among the requirement's figures from `first`: compare.html
 * draws its histograms even when the figure itself is the same. */
static void mark_deciding(struct cmp *c, size_t first, const struct cmp_figure *v,
			  const struct rv_req *rb, const struct rv_req *rc)
{
	const struct rv_req *w = v->outcome == CMP_WORSE ? rc : rb;
	size_t k = rv_req_deciding_limit(w);
	if (k >= w->nlimits)
		return;
	const struct rv_limit *l = &w->limits[k];
	for (size_t i = first; i < c->r->n; i++) {
		struct cmp_figure *f = &c->r->f[i];
		if (!strcmp(f->metric, l->metric) && !strcmp(f->statistic, l->statistic) &&
		    f->unit == rv_limit_unit(l)) {
			f->decides = true;
			f->vbase = v->vbase;
			f->vcand = v->vcand;
		}
	}
}

static const struct rv_metric *find_metric(const struct rv_req *r, const char *name)
{
	for (size_t j = 0; j < r->nmetrics; j++)
		if (!strcmp(r->metrics[j].name, name))
			return &r->metrics[j];
	return NULL;
}

/* A row for metric mb the baseline measured and the candidate's
 * requirement does not have: as a requirement missing from the candidate
 * (missing_row), what the baseline measured must not vanish without a
 * regression, unless --allow-missing. */
static void metric_missing_row(struct cmp *c, const struct rv_file *fc, const struct rv_req *rc,
			       const struct rv_metric *mb)
{
	bool allow = c->r->opts.allow_missing;
	req_row(c, fc, rc, allow ? CMP_NOT_COMPARED : CMP_WORSE, "metric %s: measured in the "
		"baseline, not in the candidate%s", mb->name, allow ? " (--allow-missing)" : "");
	if (!c->rc)
		c->r->f[c->r->n - 1].metric = mb->name;
}

/* Compare one requirement both runs have: its verdict, then its figures.
 * Returns whether both measured it. */
static bool compare_req(struct cmp *c, const struct rv_req *rb, const struct rv_file *fc,
			const struct rv_req *rc)
{
	if (strcmp(rb->probe, rc->probe)) {
		failf(c, -EINVAL, "%s: measured by probe %s in the baseline and by %s in the "
		      "candidate: not the same measurement", rc->id, rb->probe, rc->probe);
		return false;
	}
	char meas[600], all[600];
	req_changes(rb, rc, meas, all, sizeof meas);
	size_t vrow = c->r->n;
	bool changed = all[0] ? changed_row(c, fc, rb, rc, all) : verdict_row(c, fc, rb, rc);
	if (!rb->measured) {
		if (!changed)
			req_row(c, fc, rc, CMP_NOT_COMPARED, "not measured in the baseline (%s)",
				verdict_name(rb->verdict));
		return false;
	}
	if (rc->verdict == VERDICT_SKIPPED) {
		char how[600];
		utf8_snprintf(how, sizeof how, "skipped in the candidate%s%s",
			      rc->reason ? ": " : "", rc->reason ? rc->reason : "");
		missing_row(c, fc->name, rb, how);
		return false;
	}
	if (all[0] && rc->verdict == VERDICT_ERROR)
		/* A changed requirement's verdicts are not compared, but one the
		 * candidate could not measure or judge is lost all the same:
		 * --allow-changed must not let it through. */
		req_row(c, fc, rc, CMP_WORSE, "%s in the candidate%s%s (the requirement changed, "
			"but must still be measured and judged)",
			rc->measured ? "could not be judged" : "not measured", rc->reason ? ": " : "",
			rc->reason ? rc->reason : "");
	if (!rc->measured) {
		/* An error after an error: no verdict changed, but the
		 * candidate measured nothing the baseline did. */
		if (!changed)
			req_row(c, fc, rc, CMP_WORSE, "not measured in the candidate%s%s",
				rc->reason ? ": " : "", rc->reason ? rc->reason : "");
		return false;
	}
	size_t first = c->r->n;
	for (size_t i = 0; i < rb->nmetrics && !c->rc; i++) {
		const struct rv_metric *mb = &rb->metrics[i], *mc = find_metric(rc, mb->name);
		if (mc && mc->kind != mb->kind)
			failf(c, -EINVAL, "%s: metric %s is a %s in the baseline and a %s in the "
			      "candidate", rc->id, mb->name,
			      mb->kind == METRIC_COUNT ? "count" : "duration",
			      mc->kind == METRIC_COUNT ? "count" : "duration");
		else if (mc)
			metric_figures(c, fc, rb, rc, mb, mc);
	}
	for (size_t i = first; i < c->r->n && !c->rc; i++) {
		judge(c, &c->r->f[i], rb, rc);
		if (meas[0])
			fig_note(c, &c->r->f[i], "measured differently: %s", meas);
	}
	for (size_t i = 0; i < rb->nmetrics && !c->rc; i++)
		if (!find_metric(rc, rb->metrics[i].name))
			metric_missing_row(c, fc, rc, &rb->metrics[i]);
	for (size_t j = 0; j < rc->nmetrics; j++)
		if (!find_metric(rb, rc->metrics[j].name))
			note(c, "%s: metric %s is new in the candidate (the baseline has none), not "
			     "compared", rc->id, rc->metrics[j].name);
	if (changed && !all[0] && !c->rc)
		mark_deciding(c, first, &c->r->f[vrow], rb, rc);
	return true;
}

/* A side without a plan where the other has one (an older results.json,
 * or one stripped of it) hides a change of its sample plan: say so, once
 * a side. */
static void plan_notes(struct cmp *c, const struct report_view *b, const struct report_view *v)
{
	size_t lack[2] = { 0, 0 }, have[2] = { 0, 0 };
	for (int side = 0; side < 2; side++) {
		const struct report_view *x = side ? v : b;
		for (size_t i = 0; i < x->nfiles; i++)
			for (size_t j = 0; j < x->files[i].nreqs; j++) {
				const struct rv_req *r = &x->files[i].reqs[j];
				lack[side] += r->measured && !r->plan.have;
				have[side] += r->measured && r->plan.have;
			}
	}
	for (int side = 0; side < 2; side++) {
		size_t n = lack[side];
		if (n && have[!side])
			note(c, "the %s records no sample plan for %zu requirement%s (a results.json "
			     "written before it was kept): a change of iterations, runs, warm-up or "
			     "duration cannot be seen there", side ? "candidate" : "baseline", n,
			     n == 1 ? "" : "s");
	}
}

/* Run-level remarks: what differs between the runs that the reader of the
 * table should know (other hosts, other requirements files, other builds),
 * and the requirements only one side has. */
static void run_notes(struct cmp *c, const struct vindex *bx, const struct vindex *vx)
{
	const struct report_view *b = bx->v, *v = vx->v;
	char hb[400], hc[400];
	fingerprint_host_title(&b->env, hb, sizeof hb);
	fingerprint_host_title(&v->env, hc, sizeof hc);
	if (!fingerprint_same_host(&b->env, &v->env))
		note(c, "other hosts: the baseline is of %s, the candidate of %s", hb, hc);
	const char *vb = fingerprint_get(&b->env, "rtconform.version");
	const char *vc = fingerprint_get(&v->env, "rtconform.version");
	if (vb && vc && strcmp(vb, vc))
		note(c, "rtconform %s measured the baseline, %s the candidate", vb, vc);
	/* A run selftest faulted (cli/run_faults.h) says so in every report:
	 * a comparison with it too, or a delayed baseline would hide a
	 * candidate's regression without a word. */
	for (int side = 0; side < 2; side++) {
		const char *f = fingerprint_get(side ? &v->env : &b->env,
						"rtconform.injected_faults");
		if (f)
			note(c, "FAULTS INJECTED by selftest into the %s: %s: its figures are not "
			     "the machine's own", side ? "candidate" : "baseline", f);
	}
	for (size_t i = 0; i < v->nfiles; i++) {
		const char *name = v->files[i].name;
		for (size_t k = strindex_lower(bx->files, b->nfiles, name, "", 0);
		     k < b->nfiles && strindex_is(&bx->files[k], name, ""); k++) {
			const struct rv_file *fb = &b->files[bx->files[k].i >> 32];
			if (strcmp(v->files[i].sha256, fb->sha256))
				note(c, "requirements file %s differs (sha256 %.12s... in the baseline, "
				     "%.12s... in the candidate); a CHANGED row says what changed in a "
				     "requirement",
				     name, fb->sha256, v->files[i].sha256);
		}
	}
	plan_notes(c, b, v);
	/* Only in the baseline: missing when it measured it (a row, not a
	 * note); only in the candidate: new. */
	for (int side = 0; side < 2; side++) {
		const struct report_view *x = side ? v : b;
		const struct vindex *y = side ? bx : vx;
		for (size_t i = 0; i < x->nfiles; i++)
			for (size_t j = 0; j < x->files[i].nreqs; j++) {
				size_t n;
				const struct rv_req *r = &x->files[i].reqs[j];
				if (find_req(y, r->id, &n))
					continue;
				if (side)
					note(c, "%s: new in the candidate (the baseline has no such "
					     "requirement), not compared", r->id);
				else if (r->measured)
					missing_row(c, x->files[i].name, r, "not in the candidate");
				else
					note(c, "%s: only in the baseline, which did not measure it "
					     "(%s), not compared", r->id, verdict_name(r->verdict));
			}
	}
}

/* An id twice in one run cannot be matched. */
static void check_unique(struct cmp *c, const struct vindex *x, const char *which)
{
	const struct report_view *v = x->v;
	for (size_t i = 0; i < v->nfiles && !c->rc; i++)
		for (size_t j = 0; j < v->files[i].nreqs && !c->rc; j++) {
			size_t n;
			find_req(x, v->files[i].reqs[j].id, &n);
			if (n > 1)
				failf(c, -EINVAL, "requirement id %s appears %zu times in the %s: "
				      "requirements are matched by id", v->files[i].reqs[j].id, n, which);
		}
}

int cmp_views(const struct report_view *base, const struct report_view *cand,
	      const struct cmp_opts *opts, struct cmp_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->opts = *opts;
	out->base = base;
	out->cand = cand;
	struct cmp c = { .r = out, .err = err, .errlen = errlen };
	struct vindex bx, cx;
	if (vindex_build(&bx, base) | vindex_build(&cx, cand))
		failf(&c, -ENOMEM, "%s", strerror(ENOMEM));
	check_unique(&c, &bx, "baseline");
	check_unique(&c, &cx, "candidate");
	size_t both = 0;
	for (size_t i = 0; i < cand->nfiles && !c.rc; i++)
		for (size_t j = 0; j < cand->files[i].nreqs && !c.rc; j++) {
			const struct rv_req *rc = &cand->files[i].reqs[j];
			size_t n;
			const struct rv_req *rb = find_req(&bx, rc->id, &n);
			if (rb)
				both += compare_req(&c, rb, &cand->files[i], rc);
		}
	if (!c.rc)
		run_notes(&c, &bx, &cx);
	vindex_free(&bx);
	vindex_free(&cx);
	if (!c.rc && both == 0)
		failf(&c, -EINVAL, "no requirement was measured in both runs: nothing to compare "
		      "(are they runs of the same requirements?)");
	for (size_t i = 0; i < out->n; i++) {
		enum cmp_outcome o = out->f[i].outcome;
		if (out->f[i].missing_row) {
			out->missing++;
			continue;
		}
		if (out->f[i].changed_row) {
			out->changed++;
			continue;
		}
		if (out->f[i].verdict_row) {
			out->verdicts_worse += o == CMP_WORSE;
			out->verdicts_better += o == CMP_BETTER;
			continue;
		}
		out->worse += o == CMP_WORSE;
		out->inconclusive += o == CMP_INCONCLUSIVE;
		out->inconclusive_worse += o == CMP_INCONCLUSIVE && out->f[i].may_be_worse;
		out->better += o == CMP_BETTER;
		out->same += o == CMP_SAME;
		out->not_compared += o == CMP_NOT_COMPARED;
	}
	return c.rc;
}
