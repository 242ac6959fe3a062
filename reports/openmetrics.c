/* SPDX-License-Identifier: Apache-2.0 */
/* openmetrics.c - a run's live figures as Prometheus text (openmetrics.h;
 * docs/reports.md, "Live metrics"). */
#include "reports/openmetrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/utf8.h"
#include "reports/report.h"

const double openmetrics_bounds_ns[OM_NBOUNDS] = {
	1e2, 2e2, 5e2, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6,
	2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 2e8, 5e8, 1e9, 2e9, 5e9, 1e10,
};

/* ---- summaries ----------------------------------------------------------- */

/* le[k]: the samples of m at or above zero certainly at or below bound k,
 * m's units being ns_per_unit ns: those of the buckets that lie wholly at
 * or below it (a bucket across a bound counts only above it), and all of
 * them once the max is (the overflowed samples too). */
static void le_counts(const struct rv_metric *m, double ns_per_unit, uint64_t le[OM_NBOUNDS])
{
	double bound[OM_NBOUNDS];
	for (unsigned k = 0; k < OM_NBOUNDS; k++)
		bound[k] = openmetrics_bounds_ns[k] / ns_per_unit;
	uint64_t below = 0;
	unsigned k = 0;
	for (size_t i = 0; i < m->nbuckets; below += m->buckets[i++].count)
		for (; k < OM_NBOUNDS && (double)m->buckets[i].hi > bound[k]; k++)
			le[k] = below;
	for (; k < OM_NBOUNDS; k++)
		le[k] = below;
	for (k = 0; k < OM_NBOUNDS; k++)
		if (m->live_count && (double)m->live_max <= bound[k])
			le[k] = m->live_count;
}

static void summarise_duration(const struct rv_metric *m, struct om_metric *om)
{
	double npu = m->ns_per_unit;
	om->scaled = npu > 0.0 && isfinite(npu);
	if (!om->scaled)
		return;
	om->count = m->live_count;
	om->sum_s = m->live_sum * npu / 1e9;
	le_counts(m, npu, om->le);
	om->have_max = m->ns[RV_MAX].have;
	om->max = om->have_max ? m->ns[RV_MAX].v / 1e9 : 0.0;
	om->is_signed = m->live_signed;
	if (om->is_signed) {
		om->early = rv_neg_count(&m->neg);
		om->early_max_s = om->early ? (double)m->live_neg_max * npu / 1e9 : 0.0;
	}
}

/* Of the work r's worker was asked for, the part done: runs done of runs
 * asked, or by time the time spent of the duration. */
static double fraction_done(const struct req_result *r, const struct summary *s)
{
	double f = 0.0;
	if (s->spec_duration_ns)
		f = r->seconds / ((double)s->spec_duration_ns / 1e9);
	else if (s->spec_runs)
		f = (double)s->runs / (double)s->spec_runs;
	return f > 1.0 ? 1.0 : f < 0.0 ? 0.0 : f;
}

void openmetrics_summarise(const struct req_result *r, bool running, struct om_req *out)
{
	out->verdict = r->verdict;
	out->judged = true;
	struct summary sum = { 0 };
	if (running) {
		/* The verdict so far: its limits judged as the final one will be,
		 * on a copy (the checkpoint's says "incomplete"), and its
		 * numbers those the judge took. */
		struct req_result *cp = malloc(sizeof *cp);
		if (cp) {
			*cp = *r;
			memset(&cp->sum, 0, sizeof cp->sum);
			cp->verdict = VERDICT_PASS;
			verdict_judge(cp);
			out->verdict = cp->verdict;
			sum = cp->sum;
			free(cp);
		}
	} else {
		summary_of(r, &sum);
	}
	out->runs = sum.runs;
	out->fraction = running ? fraction_done(r, &sum) : 1.0;
	out->nmetrics = (unsigned)sum.nmetrics;
	for (unsigned i = 0; i < out->nmetrics; i++) {
		const struct rv_metric *m = &sum.metrics[i];
		struct om_metric *om = &out->metrics[i];
		memset(om, 0, sizeof *om);
		snprintf(om->name, sizeof om->name, "%s", m->name ? m->name : "?");
		om->kind = m->kind == METRIC_COUNT ? METRIC_COUNT : METRIC_DURATION;
		if (om->kind == METRIC_DURATION) {
			summarise_duration(m, om);
			continue;
		}
		om->scaled = true;
		om->count = m->live_count;
		om->total = m->live_total;
		om->have_max = m->live_count != 0;
		om->max = (double)m->live_max;
	}
	summary_free(&sum);
}

/* ---- the text ------------------------------------------------------------ */

struct om_out {
	FILE *o;
	const struct om_run *run;
	unsigned *dup;    /* per requirement: 0, or its place among those of its suite and id */
	bool started;     /* the current family's header is written */
};

/* A label value: \\, " and a newline escaped, and a byte that is not
 * well-formed UTF-8 (a host name may be any bytes) U+FFFD, which the
 * parsers would refuse the whole file for. */
static void put_escaped(FILE *o, const char *s)
{
	while (s && *s) {
		size_t n = utf8_decode((const unsigned char *)s, 4, NULL);
		if (!n)
			fputs("\xef\xbf\xbd", o);
		else if (*s == '\\' || *s == '"')
			fprintf(o, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", o);
		else
			fwrite(s, 1, n, o);
		s += n ? n : 1;
	}
}

static void label(FILE *o, bool *first, const char *k, const char *v)
{
	fprintf(o, "%s%s=\"", *first ? "{" : ",", k);
	put_escaped(o, v);
	fputc('"', o);
	*first = false;
}

/* A family's # HELP and # TYPE (and # UNIT of one in seconds), once,
 * before its first sample: a family without samples is left out. */
static void family(struct om_out *x, const char *name, const char *type, const char *help)
{
	if (x->started)
		return;
	x->started = true;
	fprintf(x->o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	size_t n = strlen(name);
	if (n > 8 && strcmp(name + n - 8, "_seconds") == 0)
		fprintf(x->o, "# UNIT %s seconds\n", name);
}

/* name{host="..."[,suite=..,requirement=..] (open: the caller adds labels
 * and closes it) for requirement i, or the run (i == SIZE_MAX). */
static void series(struct om_out *x, const char *name, size_t i)
{
	bool first = true;
	fputs(name, x->o);
	label(x->o, &first, "host", x->run->host);
	if (i == SIZE_MAX)
		return;
	const struct om_req *r = &x->run->reqs[i];
	if (x->dup[i]) {
		char suite[300];
		utf8_snprintf(suite, sizeof suite, "%s#%u", r->suite, x->dup[i]);
		label(x->o, &first, "suite", suite);
	} else {
		label(x->o, &first, "suite", r->suite);
	}
	label(x->o, &first, "requirement", r->id);
}

static void value(struct om_out *x, double v)
{
	char buf[40];
	numfmt_fmt_shortest(v, buf, sizeof buf);
	fprintf(x->o, "} %s\n", buf);
}

static void count_value(struct om_out *x, uint64_t v)
{
	fprintf(x->o, "} %llu\n", (unsigned long long)v);
}

/* One sample of the run's: name{host=...} v. */
static void run_sample(struct om_out *x, const char *name, const char *type, const char *help,
		       double v)
{
	x->started = false;
	family(x, name, type, help);
	series(x, name, SIZE_MAX);
	value(x, v);
}

static void run_families(struct om_out *x)
{
	const struct om_run *run = x->run;
	size_t done = 0;
	double work = 0.0;
	for (size_t i = 0; i < run->nreqs; i++) {
		done += run->reqs[i].state == OM_DONE;
		work += run->reqs[i].state == OM_DONE ? 1.0 : run->reqs[i].state == OM_RUNNING
			? run->reqs[i].fraction : 0.0;
	}
	x->started = false;
	family(x, "rtconform_run_info", "gauge",
	       "The run's host name and rtconform, by version and commit (1).");
	bool first = false;
	series(x, "rtconform_run_info", SIZE_MAX);
	if (run->hostname)
		label(x->o, &first, "hostname", run->hostname);
	label(x->o, &first, "version", run->version);
	label(x->o, &first, "commit", run->commit);
	value(x, 1);
	run_sample(x, "rtconform_run_start_time_seconds", "gauge",
		   "When the run started, seconds since the Unix epoch.", (double)run->started);
	run_sample(x, "rtconform_run_requirements", "gauge",
		   "Requirements the run measures (those --only selects).", (double)run->nreqs);
	run_sample(x, "rtconform_run_requirements_done", "gauge",
		   "Requirements the run has finished.", (double)done);
	run_sample(x, "rtconform_run_progress_ratio", "gauge",
		   "Part of the run's work done, 0 to 1.", run->nreqs ? work / (double)run->nreqs : 1.0);
	run_sample(x, "rtconform_run_finished", "gauge",
		   "1 once the run is over (the file then stays as it is), else 0.",
		   run->finished ? 1 : 0);
}

static const char *const state_names[] = { "pending", "running", "done" };

static void requirement_families(struct om_out *x)
{
	const struct om_run *run = x->run;
	x->started = false;
	for (size_t i = 0; i < run->nreqs; i++)
		for (int s = OM_PENDING; s <= OM_DONE; s++) {
			family(x, "rtconform_requirement_state", "gauge",
			       "1 for the requirement's state (pending, running, done), else 0.");
			bool first = false;
			series(x, "rtconform_requirement_state", i);
			label(x->o, &first, "probe", run->reqs[i].probe);
			label(x->o, &first, "state", state_names[s]);
			count_value(x, run->reqs[i].state == (enum om_state)s);
		}
	x->started = false;
	for (size_t i = 0; i < run->nreqs; i++)
		for (int v = VERDICT_PASS; v < VERDICT_COUNT; v++) {
			family(x, "rtconform_requirement_verdict", "gauge",
			       "1 for the requirement's verdict (so far while it runs), else 0; "
			       "all 0 until its first run ended.");
			bool first = false;
			series(x, "rtconform_requirement_verdict", i);
			label(x->o, &first, "verdict", verdict_name((enum verdict)v));
			count_value(x, run->reqs[i].judged && run->reqs[i].verdict == (enum verdict)v);
		}
	x->started = false;
	for (size_t i = 0; i < run->nreqs; i++) {
		if (run->reqs[i].state == OM_PENDING)
			continue;
		family(x, "rtconform_requirement_runs", "gauge",
		       "Runs of the requirement completed.");
		series(x, "rtconform_requirement_runs", i);
		count_value(x, run->reqs[i].runs);
	}
}

/* Each metric of each requirement that has begun, of kind `kind`, with a
 * sample of it (want: has_max, the histogram's, early): f(x, i, m). */
typedef void (*metric_fn)(struct om_out *x, size_t i, const struct om_metric *m);
enum om_want { OM_ANY, OM_HAS_MAX, OM_SIGNED, OM_EARLY };

static void each_metric(struct om_out *x, enum metric_kind kind, enum om_want want, metric_fn f)
{
	x->started = false;
	for (size_t i = 0; i < x->run->nreqs; i++) {
		const struct om_req *r = &x->run->reqs[i];
		for (unsigned k = 0; r->state != OM_PENDING && k < r->nmetrics; k++) {
			const struct om_metric *m = &r->metrics[k];
			bool wanted = want == OM_ANY || (want == OM_HAS_MAX && m->have_max) ||
				      (want == OM_SIGNED && m->is_signed) ||
				      (want == OM_EARLY && m->is_signed && m->early);
			if (m->kind == kind && m->scaled && wanted)
				f(x, i, m);
		}
	}
}

static void metric_series(struct om_out *x, const char *name, size_t i, const struct om_metric *m)
{
	bool first = false;
	series(x, name, i);
	label(x->o, &first, "metric", m->name);
}

static void latency_hist(struct om_out *x, size_t i, const struct om_metric *m)
{
	family(x, "rtconform_latency_seconds", "histogram",
	       "Samples of a duration metric at or above zero; a bucket counts the samples "
	       "certainly at or below its le.");
	for (unsigned k = 0; k <= OM_NBOUNDS; k++) {
		char le[24];
		if (k < OM_NBOUNDS)
			numfmt_fmt_shortest(openmetrics_bounds_ns[k] / 1e9, le, sizeof le);
		else
			snprintf(le, sizeof le, "+Inf");
		bool first = false;
		metric_series(x, "rtconform_latency_seconds_bucket", i, m);
		label(x->o, &first, "le", le);
		count_value(x, k < OM_NBOUNDS ? m->le[k] : m->count);
	}
	metric_series(x, "rtconform_latency_seconds_sum", i, m);
	value(x, m->sum_s);
	metric_series(x, "rtconform_latency_seconds_count", i, m);
	count_value(x, m->count);
}

/* A family's header and its series' name and labels for metric m of
 * requirement i: the value follows. */
static void series_of(struct om_out *x, const char *name, const char *type, const char *help,
		      size_t i, const struct om_metric *m)
{
	family(x, name, type, help);
	metric_series(x, name, i, m);
}

static void latency_max(struct om_out *x, size_t i, const struct om_metric *m)
{
	series_of(x, "rtconform_latency_max_seconds", "gauge",
		  "Largest sample of a duration metric so far (below zero when every sample is).",
		  i, m);
	value(x, m->max);
}

static void early_total(struct om_out *x, size_t i, const struct om_metric *m)
{
	series_of(x, "rtconform_latency_early_samples_total", "counter",
		  "Samples of a signed duration metric below zero (a timer that fired early).",
		  i, m);
	count_value(x, m->early);
}

static void early_max(struct om_out *x, size_t i, const struct om_metric *m)
{
	series_of(x, "rtconform_latency_early_max_seconds", "gauge",
		  "Largest magnitude of a signed duration metric's samples below zero.", i, m);
	value(x, m->early_max_s);
}

static void events_total(struct om_out *x, size_t i, const struct om_metric *m)
{
	series_of(x, "rtconform_events_total", "counter",
		  "Events of a count metric (page faults, switches, ...) over the runs so far.",
		  i, m);
	count_value(x, m->total);
}

static void events_run_max(struct om_out *x, size_t i, const struct om_metric *m)
{
	series_of(x, "rtconform_events_run_max", "gauge",
		  "Most events of a count metric in one run so far.", i, m);
	value(x, m->max);
}

/* dup[i]: 0 for the first requirement of its suite and id, else its place
 * (2, 3, ...) among them: the same file given twice keeps its series apart. */
static void number_duplicates(const struct om_run *run, unsigned *dup)
{
	for (size_t i = 0; i < run->nreqs; i++) {
		unsigned n = 1;
		for (size_t j = 0; j < i; j++)
			n += strcmp(run->reqs[j].suite, run->reqs[i].suite) == 0 &&
			     strcmp(run->reqs[j].id, run->reqs[i].id) == 0;
		dup[i] = n > 1 ? n : 0;
	}
}

char *openmetrics_render(const struct om_run *run, size_t *len)
{
	char *text = NULL;
	struct om_out x = { .run = run };
	x.dup = calloc(run->nreqs ? run->nreqs : 1, sizeof *x.dup);
	x.o = x.dup ? open_memstream(&text, len) : NULL;
	if (!x.o) {
		free(x.dup);
		return NULL;
	}
	number_duplicates(run, x.dup);
	run_families(&x);
	requirement_families(&x);
	each_metric(&x, METRIC_DURATION, OM_ANY, latency_hist);
	each_metric(&x, METRIC_DURATION, OM_HAS_MAX, latency_max);
	each_metric(&x, METRIC_DURATION, OM_SIGNED, early_total);
	each_metric(&x, METRIC_DURATION, OM_EARLY, early_max);
	each_metric(&x, METRIC_COUNT, OM_ANY, events_total);
	each_metric(&x, METRIC_COUNT, OM_HAS_MAX, events_run_max);
	fputs("# EOF\n", x.o);
	bool bad = ferror(x.o);
	free(x.dup);
	if (fclose(x.o) != 0 || bad) {
		free(text);
		return NULL;
	}
	return text;
}
