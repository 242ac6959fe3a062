/* SPDX-License-Identifier: Apache-2.0 */
/* validate.c - see validate.h. */
#include "requirements/validate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/units.h"

/* "a, b or c" into buf. */
static void join_values(const char *const *v, char *buf, size_t len)
{
	size_t n = 0, used = 0;
	while (v[n])
		n++;
	buf[0] = 0;
	for (size_t i = 0; i < n && used < len; i++) {
		const char *sep = i == 0 ? "" : (i + 1 == n ? " or " : ", ");
		used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, v[i]);
	}
}

static void probe_names(const struct probe_catalog *cat, char *buf, size_t len)
{
	const char *names[64];
	size_t n = 0;
	for (; n < cat->n && n < 63; n++)
		names[n] = cat->probes[n]->name;
	names[n] = NULL;
	join_values(names, buf, len);
}

static bool cpulist_ok(const char *s)
{
	cpu_set_t set;
	return strcmp(s, "all") == 0 || cpulist_parse(s, &set) == 0;
}

/* Check one parameter value of a probe (kind-aware). NULL when fine, else a
 * message in buf. */
static const char *validate_param_value(const struct probe_decl *p, size_t idx,
					const char *value, char *buf, size_t len)
{
	const struct probe_param *pp = &p->params[idx];
	char e[200], allowed[300];
	uint64_t u;
	switch (pp->kind) {
	case PARAM_ENUM:
		for (size_t i = 0; pp->values[i]; i++)
			if (strcmp(pp->values[i], value) == 0)
				return NULL;
		join_values(pp->values, allowed, sizeof allowed);
		snprintf(buf, len, "probe %s: parameter %s has no value '%s' (expected %s)",
			 p->name, pp->name, value, allowed);
		return buf;
	case PARAM_COUNT:
		if (units_count_parse(value, UINT64_C(1) << 40, &u, e, sizeof e) == 0)
			return NULL;
		snprintf(buf, len, "probe %s: parameter %s: %s", p->name, pp->name, e);
		return buf;
	case PARAM_DURATION:
		if (units_duration_parse_ns(value, false, &u, e, sizeof e) == 0)
			return NULL;
		snprintf(buf, len, "probe %s: parameter %s: %s", p->name, pp->name, e);
		return buf;
	case PARAM_CPULIST:
		if (cpulist_ok(value))
			return NULL;
		snprintf(buf, len, "probe %s: parameter %s: '%s' is not a CPU list "
			 "(expected all, or numbers and ranges below %d such as 0,2-3)", p->name, pp->name,
			 value, CPU_SETSIZE);
		return buf;
	}
	return NULL;
}

/* The number of a bound as written, without its unit ("3" of "3 us"). */
static int number_part(const char *text)
{
	int n = 0;
	while (text[n] && ((text[n] >= '0' && text[n] <= '9') || text[n] == '.'))
		n++;
	return n;
}

/* A bound's unit must fit the metric's kind: a count takes a bare number,
 * a duration a unit (the loader reads either). 1 when it does not. */
static size_t check_bound(const struct req_file *f, const struct requirement *r,
			  const struct probe_decl *p, const struct req_limit *l, const char *attr,
			  const char *text, const struct quantity *q, struct diag_list *d)
{
	const struct probe_metric *m = probe_decl_metric(p, (size_t)probe_decl_metric_index(p, l->metric));
	if (m->kind == METRIC_COUNT && q->unit != QTY_COUNT) {
		diag_add(d, f->path, l->line, "requirement %s: metric %s of probe %s is a count: "
			 "write %s=\"%.*s\" without a unit", r->id, m->name, p->name, attr,
			 number_part(text), text);
		return 1;
	}
	if (m->kind == METRIC_DURATION && q->unit == QTY_COUNT) {
		diag_add(d, f->path, l->line, "requirement %s: metric %s of probe %s is a duration: "
			 "give %s=\"%s\" a unit (ns, us, \xc2\xb5s, ms, s or cycles)", r->id, m->name,
			 p->name, attr, text);
		return 1;
	}
	return 0;
}

/* A limit names a metric of the probe, a statistic that applies to its
 * kind and bounds of that kind. */
static size_t validate_limit(const struct req_file *f, const struct requirement *r,
			     const struct probe_decl *p, const struct req_limit *l,
			     struct diag_list *d)
{
	char buf[600];
	int idx = probe_decl_metric_index(p, l->metric);
	if (idx < 0) {
		const char *names[RTC_MAX_METRICS + 1];
		size_t n = 0;
		for (; n < probe_decl_nmetrics(p) && n < RTC_MAX_METRICS; n++)
			names[n] = probe_decl_metric(p, n)->name;
		names[n] = NULL;
		join_values(names, buf, sizeof buf);
		diag_add(d, f->path, l->line,
			 "requirement %s: probe %s has no metric '%s' (expected %s)",
			 r->id, p->name, l->metric, buf);
		return 1;
	}
	const struct probe_metric *m = probe_decl_metric(p, (size_t)idx);
	size_t problems = 0;
	if (!statistic_fits(&l->stat, m->kind)) {
		diag_add(d, f->path, l->line, "requirement %s: metric %s of probe %s is a %s: "
			 "statistic %s does not apply (expected %s)", r->id, m->name, p->name,
			 probe_decl_metric_kind_name(m->kind), l->stat_text, statistic_list(m->kind));
		problems++;
	}
	if (l->has_max)
		problems += check_bound(f, r, p, l, "max", l->max_text, &l->max, d);
	if (l->has_min)
		problems += check_bound(f, r, p, l, "min", l->min_text, &l->min, d);
	/* By count the samples are known from the file and the probe: a
	 * percentile they are sure to be too few for is refused, not left to
	 * be an error verdict (docs/requirements.md, Statistics). */
	bool sure;
	if (!problems && validate_samples_short(l, p, r->iterations, r->runs, r->duration_ns, buf,
						sizeof buf, &sure) && sure) {
		diag_add(d, f->path, l->line, "requirement %s: %s", r->id, buf);
		problems++;
	}
	return problems;
}

/* <trace/> names a duration metric of the probe, if any, and has
 * something to trip on: a threshold, or a time max= on a metric it traces. */
static size_t validate_trace(const struct req_file *f, const struct requirement *r,
			     const struct probe_decl *p, struct diag_list *d)
{
	const struct req_trace *t = &r->trace;
	if (!t->wanted)
		return 0;
	if (t->metric) {
		int idx = probe_decl_metric_index(p, t->metric);
		const struct probe_metric *m = idx >= 0 ? probe_decl_metric(p, (size_t)idx) : NULL;
		if (!m || m->kind != METRIC_DURATION) {
			diag_add(d, f->path, t->line, "requirement %s: <trace> metric=\"%s\": probe "
				 "%s has no duration metric of that name (a trace trips on a "
				 "duration)", r->id, t->metric, p->name);
			return 1;
		}
	}
	for (size_t i = 0; i < p->nmetrics; i++)
		if (p->metrics[i].kind == METRIC_DURATION &&
		    req_trip_ns(r, p->metrics[i].name, i == 0) > 0)
			return 0;
	diag_add(d, f->path, t->line, "requirement %s: <trace> has nothing to trip on: give it "
		 "threshold=\"...\" (a duration), or a limit with a max= in time units on %s",
		 r->id, t->metric ? t->metric : "a duration metric");
	return 1;
}

const char *validate_by_time(const struct probe_decl *p, char *buf, size_t len)
{
	if (p->by_time)
		return NULL;
	snprintf(buf, len, "probe %s cannot run by time: it checks its rule a planned number "
		 "of times that must fit the timeout (give runs= instead of duration)", p->name);
	return buf;
}

static size_t validate_req(const struct req_file *f, const struct requirement *r,
			   const struct probe_catalog *cat, struct diag_list *d)
{
	size_t problems = 0;
	char buf[600];
	const struct probe_decl *p = probe_decl_catalog_find(cat, r->probe);
	if (!p) {
		probe_names(cat, buf, sizeof buf);
		diag_add(d, f->path, r->probe_line, "requirement %s: unknown probe '%s' (expected %s)",
			 r->id, r->probe, buf);
		return 1;
	}
	const char *values[PROBE_MAX_PARAMS] = { 0 };
	for (size_t i = 0; i < p->nparams && i < PROBE_MAX_PARAMS; i++)
		values[i] = p->params[i].def;
	for (size_t i = 0; i < r->nparams; i++) {
		const struct req_param *rp = &r->params[i];
		int idx = probe_decl_param_index(p, rp->name);
		if (idx < 0) {
			const char *names[PROBE_MAX_PARAMS + 1];
			size_t n = 0;
			for (; n < p->nparams && n < PROBE_MAX_PARAMS; n++)
				names[n] = p->params[n].name;
			names[n] = NULL;
			join_values(names, buf, sizeof buf);
			diag_add(d, f->path, rp->line,
				 "requirement %s: probe %s has no parameter '%s' (expected %s)",
				 r->id, p->name, rp->name, n ? buf : "none");
			problems++;
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(r->params[j].name, rp->name) == 0) {
				diag_add(d, f->path, rp->line,
					 "requirement %s: parameter %s given twice", r->id, rp->name);
				problems++;
			}
		char msg[400];
		if (validate_param_value(p, (size_t)idx, rp->value, msg, sizeof msg)) {
			diag_add(d, f->path, rp->line, "requirement %s: %s", r->id, msg);
			problems++;
			continue;
		}
		values[idx] = rp->value;
	}
	if (!problems && p->check) {
		const char *why = p->check(values, buf, sizeof buf);
		if (why) {
			diag_add(d, f->path, r->probe_line, "requirement %s: %s", r->id, why);
			problems++;
		}
	}
	if (r->duration_ns && validate_by_time(p, buf, sizeof buf)) {
		diag_add(d, f->path, r->duration_line, "requirement %s: duration: %s", r->id, buf);
		problems++;
	}
	for (size_t i = 0; i < r->nlimits; i++)
		problems += validate_limit(f, r, p, &r->limits[i], d);
	problems += validate_trace(f, r, p, d);
	/* A file-wide load is checked once, in validate_file. */
	if (r->load && r->load_owned && load_spec_problem(r->load, buf, sizeof buf)) {
		diag_add(d, f->path, r->load->line, "requirement %s: %s", r->id, buf);
		problems++;
	}
	return problems;
}

/* "iterations x runs", "iterations x runs x 2 samples of wakeup an
 * iteration" ...: how the samples of metric m are counted. */
static void samples_how(const struct probe_metric *m, bool per_cpu, uint64_t per_it, char *buf,
			size_t len)
{
	if (m && m->kind == METRIC_COUNT)
		snprintf(buf, len, "runs: a count has one value a run");
	else if (!per_cpu && per_it > 1)
		snprintf(buf, len, "iterations x runs x %llu samples of %s an iteration",
			 (unsigned long long)per_it, m->name);
	else
		snprintf(buf, len, "iterations x runs");
}

/* By count: what iterations would suffice with these runs, or that runs
 * must grow too (the iterations cap, REQ_MAX_ITERATIONS). */
static void samples_fix(const struct probe_metric *m, bool per_cpu, uint64_t per_it,
			uint64_t need, uint64_t runs, char *buf, size_t len)
{
	if (m && m->kind == METRIC_COUNT) {
		snprintf(buf, len, "; runs=\"%llu\" would suffice", (unsigned long long)need);
		return;
	}
	uint64_t per_run = runs * per_it;
	uint64_t it = per_run ? (need + per_run - 1) / per_run : need;
	if (it <= REQ_MAX_ITERATIONS)
		snprintf(buf, len, "; iterations=\"%llu\" would suffice%s",
			 (unsigned long long)it, per_cpu ? " on one CPU" : "");
	else
		snprintf(buf, len, "; more runs would, as iterations are at most %llu",
			 (unsigned long long)REQ_MAX_ITERATIONS);
}

const char *validate_samples_short(const struct req_limit *l, const struct probe_decl *p,
				   uint64_t iterations, uint64_t runs, uint64_t duration_ns,
				   char *buf, size_t len, bool *sure)
{
	uint64_t need = statistic_min_samples(&l->stat);
	const char *st = l->stat_text ? l->stat_text : "the statistic";
	*sure = false;
	if (need <= 1)
		return NULL;
	int mi = p ? probe_decl_metric_index(p, l->metric) : -1;
	const struct probe_decl *pd = mi >= 0 ? p : NULL;
	const struct probe_metric *m = pd ? probe_decl_metric(pd, (size_t)mi) : NULL;
	bool per_cpu;
	uint64_t per_it;
	char how[120], fix[120];
	if (!duration_ns) {
		uint64_t planned = probe_decl_metric_samples(pd, (size_t)(mi < 0 ? 0 : mi),
							     iterations, runs, &per_cpu, &per_it);
		if (planned >= need)
			return NULL;
		*sure = !per_cpu;
		samples_how(m, per_cpu, per_it, how, sizeof how);
		samples_fix(m, per_cpu, per_it, need, runs, fix, sizeof fix);
		if (per_cpu)
			snprintf(buf, len, "%s needs at least %llu samples, this plan takes %llu on "
				 "each measured CPU (%s): unless it measures on %llu CPUs or more, "
				 "that limit is an error verdict%s", st, (unsigned long long)need,
				 (unsigned long long)planned, how,
				 (unsigned long long)((need + planned - 1) / planned), fix);
		else
			snprintf(buf, len, "%s needs at least %llu samples, this plan takes %llu "
				 "(%s): that limit would be an error verdict%s", st,
				 (unsigned long long)need, (unsigned long long)planned, how, fix);
		return buf;
	}
	uint64_t one = probe_decl_metric_samples(pd, (size_t)(mi < 0 ? 0 : mi), iterations, 1,
						 &per_cpu, &per_it);
	if (one >= need)
		return NULL;
	char d[32];
	units_fmt_ns((double)duration_ns, d, sizeof d);
	uint64_t nruns = one ? (need + one - 1) / one : need;
	char alone[80] = "";
	uint64_t it = (need + per_it - 1) / per_it;
	if (it <= REQ_MAX_ITERATIONS && !(m && m->kind == METRIC_COUNT))
		snprintf(alone, sizeof alone, " (iterations=\"%llu\" would make one run enough%s)",
			 (unsigned long long)it, per_cpu ? " on one CPU" : "");
	snprintf(buf, len, "%s needs at least %llu samples; this plan runs by time (%s) in runs "
		 "of %llu iterations, so %llu runs must fit in %s or that limit is an error "
		 "verdict%s", st, (unsigned long long)need, d, (unsigned long long)iterations,
		 (unsigned long long)nruns, d, alone);
	return buf;
}

size_t validate_warnings(const struct req_file *f, const struct probe_catalog *cat,
			 struct diag_list *d)
{
	size_t n = 0;
	char buf[400];
	bool sure;
	for (size_t i = 0; i < f->nreqs; i++) {
		const struct requirement *r = &f->reqs[i];
		for (size_t k = 0; k < r->nlimits; k++) {
			const struct req_limit *l = &r->limits[k];
			/* What is sure to be short was refused (validate_limit). */
			if (!validate_samples_short(l, probe_decl_catalog_find(cat, r->probe),
						    r->iterations,
						    r->runs, r->duration_ns, buf, sizeof buf, &sure) ||
			    sure)
				continue;
			diag_add(d, f->path, l->line, "warning: requirement %s: %s", r->id, buf);
			n++;
		}
	}
	return n;
}

size_t validate_file(const struct req_file *f, const struct probe_catalog *cat,
		     struct diag_list *d)
{
	size_t problems = 0;
	char buf[400];
	if (f->load && load_spec_problem(f->load, buf, sizeof buf)) {
		diag_add(d, f->path, f->load->line, "%s", buf);
		problems++;
	}
	for (size_t i = 0; i < f->nreqs; i++)
		problems += validate_req(f, &f->reqs[i], cat, d);
	return problems;
}

/* Whether r sets a limit of its own on metric `name` (index idx of p; a
 * limit naming no metric is on the probe's first). */
static bool has_limit_on(const struct requirement *r, const char *name, size_t idx)
{
	for (size_t i = 0; i < r->nlimits; i++)
		if (r->limits[i].metric ? strcmp(r->limits[i].metric, name) == 0 : idx == 0)
			return true;
	return false;
}

/* The limit "total <= 0" on metric name, into l. false: out of memory. */
static bool implicit_limit(struct req_limit *l, const char *name, long line)
{
	*l = (struct req_limit){ .metric = strdup(name), .stat_text = strdup("total"),
				 .max_text = strdup("0"), .has_max = true,
				 .max = { 0, QTY_COUNT }, .line = line, .implicit = true };
	l->stat.kind = STAT_TOTAL;
	if (l->metric && l->stat_text && l->max_text)
		return true;
	free(l->metric);
	free(l->stat_text);
	free(l->max_text);
	*l = (struct req_limit){ 0 };
	return false;
}

void validate_implicit_limits_free(struct req_file *f)
{
	for (size_t i = 0; i < f->nreqs; i++) {
		struct requirement *r = &f->reqs[i];
		while (r->nlimits && r->limits[r->nlimits - 1].implicit) {
			struct req_limit *l = &r->limits[--r->nlimits];
			free(l->metric);
			free(l->stat_text);
			free(l->max_text);
			*l = (struct req_limit){ 0 };
		}
	}
}

size_t validate_implicit_limits(struct req_file *f, const struct probe_catalog *cat,
				struct diag_list *d)
{
	size_t problems = 0;
	for (size_t i = 0; i < f->nreqs; i++) {
		struct requirement *r = &f->reqs[i];
		const struct probe_decl *p = probe_decl_catalog_find(cat, r->probe);
		for (size_t m = 0; p && m < p->nmetrics && m < 32; m++) {
			const char *name = p->metrics[m].name;
			if (!(p->violation_metrics & (1u << m)) || has_limit_on(r, name, m))
				continue;
			if (r->nlimits == REQ_MAX_LIMITS) {
				diag_add(d, f->path, r->line, "requirement %s: %d limits leave no room "
					 "for rtconform's own limit on %s (total <= 0): write it "
					 "yourself or remove a limit", r->id, REQ_MAX_LIMITS, name);
				problems++;
				break;
			}
			if (implicit_limit(&r->limits[r->nlimits], name, r->line)) {
				r->nlimits++;
				continue;
			}
			diag_add(d, f->path, r->line, "requirement %s: out of memory", r->id);
			problems++;
			break;
		}
	}
	return problems;
}
