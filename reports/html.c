/* SPDX-License-Identifier: Apache-2.0 */
/* html.c - report.html, the audit report for people.
 *
 * One self-contained file: inline CSS and SVG, no script, nothing fetched
 * from anywhere (no src=, no external href=, no url() in the CSS), so it
 * opens the same on an air-gapped machine in ten years. Rendered from the
 * report view only, so the report `run` writes and the one `rtconform report`
 * rebuilds from results.json are the same bytes. Written with xmlTextWriter as
 * polyglot markup: valid HTML5 that is also well-formed XML, every string
 * escaped by the writer.
 *
 * Order: verdict summary first; then each requirement (facts, limits against
 * measured values, per duration metric a log-log histogram with the limits
 * drawn on it and a statistics table, the count metrics' table of per-run
 * counts, the per-run table); then the environment and the
 * command that reproduces the run.
 */
#include "reports/report.h"
#include "base/quote.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "reports/html_plot.h"
#include "reports/ival.h"
#include "reports/link.h"
#include "reports/page.h"
#include "reports/traceability.h"
#include "reports/xmlw.h"

/* ---- small pieces ------------------------------------------------------ */


/* The badge of a verdict; nlimits: the requirement's limits
 * (verdict_label_of), or 1 for one limit's own verdict. */
static void badge(struct xw *x, enum verdict v, size_t nlimits)
{
	xw_start(x, "span");
	xw_attrf(x, "class", "v v-%s", verdict_name(v));
	xw_text(x, verdict_label_of(v, nlimits));
	xw_full_end(x);
}

static void nl(struct xw *x)
{
	xw_raw(x, "\n");
}

static void th(struct xw *x, const char *text)
{
	xw_elem(x, "th", text);
}

static void td(struct xw *x, const char *text)
{
	xw_elem(x, "td", text);
}

static void td_num(struct xw *x, const char *text)
{
	xw_start(x, "td");
	xw_attr(x, "class", "num");
	xw_text(x, text);
	xw_full_end(x);
}

static const char *env(const struct report_view *v, const char *key)
{
	const char *s = fingerprint_get(&v->env, key);
	return s ? s : "unknown";
}

static void fmt_value(const struct rv_value *val, enum qty_unit unit, char *buf, size_t len)
{
	if (!val->have) {
		snprintf(buf, len, "-");
		return;
	}
	struct quantity q = { val->v, unit };
	units_fmt_qty(&q, buf, len);
	html_micro(buf, len);
}

/* A duration in its table's unit sc (units_fmt_ns_in), HTML spelling. */
static void fmt_ns_in(const struct rv_value *val, const struct units_scale *sc, char *buf,
		      size_t len)
{
	if (!val->have)
		snprintf(buf, len, "-");
	else
		units_fmt_ns_in(val->v, *sc, buf, len);
	html_micro(buf, len);
}

/* "â¤ 300 Âµs" / "â¥ 1 Âµs" / "in [1 Âµs, 300 Âµs]". */
static void bound_text(const struct rv_limit *l, char *buf, size_t len)
{
	char a[48] = "", b[48] = "";
	if (l->has_max)
		units_fmt_qty(&l->max, a, sizeof a);
	if (l->has_min)
		units_fmt_qty(&l->min, b, sizeof b);
	if (l->has_max && l->has_min)
		snprintf(buf, len, "in [%s, %s]", b, a);
	else if (l->has_max)
		snprintf(buf, len, "\xe2\x89\xa4 %s", a); /* ≤ */
	else if (l->has_min)
		snprintf(buf, len, "\xe2\x89\xa5 %s", b); /* ≥ */
	else
		snprintf(buf, len, "(no bound)");
	/* A limit judged on its confidence interval says at what level. */
	size_t used = strlen(buf);
	if (l->confidence > 0 && used < len)
		snprintf(buf + used, len - used, " at %g%%", l->confidence * 100);
	html_micro(buf, len);
}

static void exit_text(const struct report_view *v, int status, char *buf, size_t len)
{
	snprintf(buf, len, "exit status %d: %s", status, report_view_exit_meaning(v, status));
}

/* Why a statistic is absent: the same reasons the text report gives. */
static void absent_text(const struct rv_metric *m, int stat, char *buf, size_t len)
{
	struct statistic st;
	if (!m->count) {
		snprintf(buf, len, "n/a (no samples)");
		return;
	}
	if (statistic_parse(report_view_stats[stat], &st) != 0) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (st.kind == STAT_RUNS_MEAN_STDDEV)
		snprintf(buf, len, "n/a (needs 2 runs with samples)");
	else if (m->count < statistic_min_samples(&st))
		snprintf(buf, len, "n/a (needs %llu samples)",
			 (unsigned long long)statistic_min_samples(&st));
	else
		snprintf(buf, len, "n/a");
}

char *report_html_anchor(unsigned f, unsigned i, char *buf, size_t len)
{
	snprintf(buf, len, "r%u-%u", f + 1, i + 1);
	return buf;
}

/* ---- header and summary ------------------------------------------------ */

/* Which machine, for a lab that runs one OS on many boards: the label,
 * host name, hashed id, hardware and OS (the environment table has each). */
static void host_identity(struct xw *x, const struct report_view *v)
{
	char host[1600];
	fingerprint_host_summary(&v->env, host, sizeof host);
	xw_start(x, "p");
	xw_attr(x, "id", "host");
	xw_textf(x, "Host: %s", host);
	xw_full_end(x);
	nl(x);
}

static void header(struct xw *x, const struct report_view *v)
{
	struct report_totals t;
	report_view_totals(v, &t);
	int status = report_view_exit_status(v);
	char buf[200], preempt[64];
	/* The model alone ("PREEMPT_RT"); how it was found is in the table. */
	snprintf(preempt, sizeof preempt, "%s", env(v, "host.preempt"));
	preempt[strcspn(preempt, " ")] = '\0';

	xw_start(x, "div");
	xw_attrf(x, "class", "banner b-%s", status == EXIT_PASS ? "pass" : status == EXIT_FAILED ? "fail"
		 : status == EXIT_INCONCLUSIVE ? "inconclusive" : "error");
	xw_attr(x, "id", "verdict");
	xw_textf(x, "%s \xe2\x80\x94 ", report_view_status_label(v));
	exit_text(v, status, buf, sizeof buf);
	xw_text(x, buf);
	xw_full_end(x);
	nl(x);
	/* A run `rtconform selftest` faulted (cli/run_faults.h) says so under
	 * its verdict, as summary.txt does: not only in the environment table
	 * at the bottom of the page. */
	const char *faults = fingerprint_get(&v->env, "rtconform.injected_faults");
	if (faults) {
		xw_start(x, "p");
		xw_attr(x, "id", "faults");
		xw_attr(x, "class", "banner b-error");
		xw_textf(x, "FAULTS INJECTED by selftest: %s", faults);
		xw_full_end(x);
		nl(x);
	}

	xw_start(x, "p");
	char counts[200];
	report_totals_text(&t, counts, sizeof counts);
	xw_textf(x, "%zu requirement%s: %s; measured on %s (%s, %s) from %s to %s.",
		 t.tests, t.tests == 1 ? "" : "s", counts, env(v, "host.name"),
		 env(v, "host.kernel.release"), preempt,
		 env(v, "rtconform.started"), env(v, "rtconform.ended"));
	xw_full_end(x);
	nl(x);
	host_identity(x, v);
}

/* The cells of a requirement that span its rows of the verdict table. */
static void summary_req_cells(struct xw *x, const struct rv_req *r, size_t f, size_t i,
			      size_t rows)
{
	char id[32];
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	xw_start(x, "a");
	xw_attrf(x, "href", "#%s", report_html_anchor((unsigned)f, (unsigned)i, id, sizeof id));
	xw_text(x, r->id);
	xw_full_end(x);
	if (r->title) {
		xw_raw(x, "<br/>");
		xw_start(x, "span");
		xw_attr(x, "class", "note");
		xw_text(x, r->title);
		xw_full_end(x);
	}
	xw_full_end(x);
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	badge(x, r->verdict, r->nlimits);
	xw_full_end(x);
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	xw_attr(x, "class", "nowrap");
	xw_text(x, r->probe);
	xw_full_end(x);
	xw_start(x, "td");
	xw_attrf(x, "rowspan", "%zu", rows);
	xw_attr(x, "class", "nowrap");
	xw_text(x, r->policy);
	xw_full_end(x);
}

/* Limit, measured value and limit verdict: of limit k, or dashes. */
static void summary_limit_cells(struct xw *x, const struct rv_req *r, size_t rows, size_t k)
{
	char buf[200];
	if (rows == r->nlimits && r->nlimits) {
		const struct rv_limit *l = &r->limits[k];
		char b[80];
		bound_text(l, b, sizeof b);
		snprintf(buf, sizeof buf, "%s %s %s", l->metric, l->statistic, b);
		xw_start(x, "td");
		xw_attr(x, "class", "nowrap limit");
		xw_text(x, buf);
		xw_full_end(x);
		fmt_value(&l->measured, rv_limit_unit(l), buf, sizeof buf);
		td_num(x, buf);
		xw_start(x, "td");
		badge(x, l->verdict, 1);
		xw_full_end(x);
	} else {
		td(x, r->nlimits ? "-" : "(no limits)");
		td_num(x, "-");
		td(x, "-");
	}
}

/* Why a requirement did not pass, under its rows. */
static void summary_note_row(struct xw *x, const struct rv_req *r)
{
	if (!r->reason || r->verdict == VERDICT_PASS)
		return;
	xw_start(x, "tr");
	xw_start(x, "td");
	xw_attr(x, "colspan", "7");
	xw_attr(x, "class", "note");
	xw_textf(x, "%s %s: ", r->id,
		 r->verdict == VERDICT_FAIL ? "failed"
		 : r->verdict == VERDICT_ERROR ? "could not be measured"
		 : r->verdict == VERDICT_INCONCLUSIVE ? "is inconclusive"
						      : "skipped");
	html_text_micro(x, r->reason);
	xw_full_end(x);
	xw_full_end(x);
	nl(x);
}

/* One row per limit (or one for a requirement without limits, or that was
 * skipped), like summary.txt; the requirement's cells span its rows. */
static void summary(struct xw *x, const struct report_view *v)
{
	xw_elem(x, "h2", "Verdicts");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "summary");
	/* thead: a printed table that runs on repeats its header */
	xw_start(x, "thead");
	xw_start(x, "tr");
	static const char *const head[] = { "Requirement", "Verdict", "Probe", "Policy",
					    "Limit", "Measured", "Limit verdict" };
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		th(x, head[i]);
	xw_full_end(x);
	xw_full_end(x); /* thead */
	nl(x);
	xw_start(x, "tbody");
	for (size_t f = 0; f < v->nfiles; f++) {
		const struct rv_file *vf = &v->files[f];
		if (v->nfiles > 1) {
			xw_start(x, "tr");
			xw_start(x, "th");
			xw_attr(x, "colspan", "7");
			xw_textf(x, "%s (%s)", vf->name, vf->path);
			xw_full_end(x);
			xw_full_end(x);
			nl(x);
		}
		for (size_t i = 0; i < vf->nreqs; i++) {
			const struct rv_req *r = &vf->reqs[i];
			size_t rows = r->nlimits && r->verdict != VERDICT_SKIPPED ? r->nlimits : 1;
			for (size_t k = 0; k < rows; k++) {
				xw_start(x, "tr");
				if (k == 0)
					summary_req_cells(x, r, f, i, rows);
				summary_limit_cells(x, r, rows, k);
				xw_full_end(x); /* tr */
				nl(x);
			}
			summary_note_row(x, r);
		}
	}
	xw_full_end(x); /* tbody */
	xw_full_end(x); /* table */
	nl(x);
}

/* ---- a requirement ----------------------------------------------------- */

static void fact(struct xw *x, const char *name, const char *value, bool code)
{
	xw_start(x, "tr");
	th(x, name);
	xw_start(x, "td");
	if (code)
		xw_elem(x, "code", value);
	else
		html_text_micro(x, value);
	xw_full_end(x);
	xw_full_end(x);
	nl(x);
}

/* The kernel trace: what became of it and, when one was saved, a link to
 * it by name (it lies beside report.html). A trace that is not a name a run
 * gives its traces (a results.json from elsewhere may say anything), or
 * not a regular file there, is shown as text saying why, never linked
 * (rv_req.trace_link, report_view_find_traces). */
static void trace_fact(struct xw *x, const struct rv_req *r)
{
	if (!r->trace_note && !r->trace)
		return;
	xw_start(x, "tr");
	th(x, "Kernel trace");
	xw_start(x, "td");
	if (r->trace_note)
		html_text_micro(x, r->trace_note);
	if (r->trace) {
		xw_text(x, " ");
		const char *why = report_trace_why_not(r);
		if (r->trace_link == RV_TRACE_LINKED)
			report_file_link(x, r->trace, r->trace);
		else
			xw_textf(x, "trace file %s%s%s%s", r->trace, why ? " (not linked: " : "",
				 why ? why : "", why ? ")" : "");
	}
	xw_full_end(x);
	xw_full_end(x);
	nl(x);
}

/* The clauses of a specification the requirement checks, as the file
 * cites them: "ref (title)", one a line. */
static void clauses_fact(struct xw *x, const struct rv_req *r)
{
	if (!r->nclauses)
		return;
	xw_start(x, "tr");
	th(x, "Clauses");
	xw_start(x, "td");
	for (size_t k = 0; k < r->nclauses; k++) {
		if (k)
			xw_raw(x, "<br/>");
		xw_textf(x, "%s%s%s%s", r->clauses[k].ref, r->clauses[k].title ? " (" : "",
			 r->clauses[k].title ? r->clauses[k].title : "",
			 r->clauses[k].title ? ")" : "");
	}
	xw_full_end(x);
	xw_full_end(x);
	nl(x);
}

static void facts(struct xw *x, const struct rv_req *r)
{
	char buf[800], a[48], b[48];
	xw_start(x, "table");
	xw_attr(x, "class", "facts");
	nl(x);
	if (r->source)
		fact(x, "Source", r->source, false);
	clauses_fact(x, r);
	{
		size_t o = (size_t)snprintf(buf, sizeof buf, "%s", r->probe);
		for (size_t i = 0; i < r->nparams && o < sizeof buf; i++)
			o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s=%s",
					      i ? ", " : " (", r->params[i].name,
					      r->params[i].value);
		if (r->nparams && o < sizeof buf)
			snprintf(buf + o, sizeof buf - o, ")");
		fact(x, "Probe", buf, false);
	}
	if (r->cpu >= 0)
		snprintf(buf, sizeof buf, "%s, pinned to CPU %d", r->policy, r->cpu);
	else
		snprintf(buf, sizeof buf, "%s, not pinned", r->policy);
	fact(x, "Scheduling", buf, false);
	if (r->load)
		fact(x, "Background load", r->load, true);
	snprintf(buf, sizeof buf, "%u run%s completed in %.3f s", r->runs, r->runs == 1 ? "" : "s",
		 r->seconds);
	fact(x, "Runs", r->measured ? buf : "nothing measured", false);
	if (r->batch_mean_ns.have) {
		units_fmt_ns(r->batch_mean_ns.v, a, sizeof a);
		units_fmt_ns(r->batch_stddev_ns.v, b, sizeof b);
		snprintf(buf, sizeof buf,
			 "%s per operation, stddev %s over the runs (total time / iterations, "
			 "empty-loop overhead subtracted)", a, b);
		fact(x, "Batch figure", buf, false);
	}
	if (r->reason)
		fact(x, r->verdict == VERDICT_ERROR ? "Error"
			: r->verdict == VERDICT_SKIPPED ? "Skipped"
			: r->verdict == VERDICT_INCONCLUSIVE ? "Inconclusive" : "Failure",
		     r->reason, false);
	if (r->note)
		fact(x, "Probe note", r->note, false);
	trace_fact(x, r);
	xw_full_end(x);
	nl(x);
}

static void limits_table(struct xw *x, const struct rv_req *r)
{
	char buf[200];
	if (!r->nlimits)
		return;
	xw_elem(x, "h3", "Limits");
	nl(x);
	xw_start(x, "table");
	xw_start(x, "tr");
	static const char *const head[] = { "Metric", "Statistic", "Bound", "Measured",
					    "Verdict", "Judgement" };
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		th(x, head[i]);
	xw_full_end(x);
	nl(x);
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		xw_start(x, "tr");
		td(x, l->metric);
		td(x, l->statistic);
		bound_text(l, buf, sizeof buf);
		td_num(x, buf);
		fmt_value(&l->measured, rv_limit_unit(l), buf, sizeof buf);
		td_num(x, buf);
		xw_start(x, "td");
		badge(x, l->verdict, 1);
		xw_full_end(x);
		xw_start(x, "td");
		html_text_micro(x, l->text ? l->text : "");
		xw_full_end(x);
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
}

/* Marks of the interval cells: a side without a bound, a bound the
 * histogram's resolution sets. */
#define CI_NO_BOUND "\xe2\x80\x94"  /* — */
#define CI_BUCKET "\xe2\x80\xa0"    /* † */

/* One side of an interval as the cell shows it: "11.9 µs", "11.9 µs†",
 * or CI_NO_BOUND. */
static void ci_side(bool has, double v, bool bucket, const struct units_scale *sc, char *buf,
		    size_t len)
{
	if (!has) {
		snprintf(buf, len, CI_NO_BOUND);
		return;
	}
	struct rv_value val = { true, v };
	if (sc)
		fmt_ns_in(&val, sc, buf, len);
	else
		fmt_value(&val, QTY_NS, buf, len);
	if (bucket && strlen(buf) + sizeof CI_BUCKET <= len)
		strcat(buf, CI_BUCKET);
}

/* "95%", "99.9%" */
static void level_text(double level, char *buf, size_t len)
{
	snprintf(buf, len, "%g%%", level * 100);
}

/* The interval cell of a statistic: "[11.9 µs, 12.8 µs]" (and its level,
 * "99%", when it is not the column's, `level`), its title saying what the
 * marks mean and the ranks; empty without one. Sets *none / *bucket when
 * it shows a side without a bound / a resolution-set bound, for the note
 * under the table. */
static void ci_cell(struct xw *x, const struct rv_ci *c, const struct units_scale *sc,
		    const char *name, double level, bool *none, bool *bucket)
{
	char lo[64], hi[64], lv[16], title[400];
	if (!c) {
		td_num(x, "");
		return;
	}
	ci_side(c->has_lo, c->lo_ns, c->lo_bucket, sc, lo, sizeof lo);
	ci_side(c->has_hi, c->hi_ns, c->hi_bucket, sc, hi, sizeof hi);
	level_text(c->level, lv, sizeof lv);
	int n = snprintf(title, sizeof title, "%s confidence interval of %s from %llu samples: "
			 "ranks %llu to %llu, coverage %.4g%%", lv, name,
			 (unsigned long long)c->n, (unsigned long long)c->lo_rank,
			 (unsigned long long)c->hi_rank, c->coverage * 100);
	const char *notes[] = { !c->has_lo ? "; no lower bound: too few samples" : "",
				!c->has_hi ? "; no upper bound: too few samples" : "",
				c->lo_bucket ? "; the lower bound is the histogram's resolution "
					       "(bucket-limited)" : "",
				c->hi_bucket ? "; the upper bound is the histogram's resolution "
					       "(bucket-limited)" : "" };
	for (size_t k = 0; k < sizeof notes / sizeof notes[0] && n >= 0; k++)
		n += snprintf(title + n, n < (int)sizeof title ? sizeof title - (size_t)n : 0,
			      "%s", notes[k]);
	*none |= !c->has_lo || !c->has_hi;
	*bucket |= c->lo_bucket || c->hi_bucket;
	xw_start(x, "td");
	xw_attr(x, "class", "num");
	xw_attr(x, "title", title);
	xw_textf(x, "[%s, %s]%s%s", lo, hi, c->level != level ? " " : "",
		 c->level != level ? lv : "");
	xw_full_end(x);
}

/* The interval column's header: "95% confidence interval". */
static void ci_th(struct xw *x, const char *what, double level)
{
	char lv[16], buf[80];
	level_text(level, lv, sizeof lv);
	snprintf(buf, sizeof buf, "%s%s confidence interval", what, lv);
	th(x, buf);
}

/* What the interval column's marks mean, a note under the table (and
 * under the histogram beside it: not in the table, whose width the text
 * would set), when it used them. */
static void ci_note(struct xw *x, bool none, bool bucket)
{
	if (!none && !bucket)
		return;
	xw_start(x, "p");
	xw_attr(x, "class", "note");
	if (none)
		xw_text(x, CI_NO_BOUND " no bound on that side: too few samples for it at that "
			"level. ");
	if (bucket)
		xw_text(x, CI_BUCKET " bucket-limited: the bound lies in the estimate's own "
			"histogram bucket, so the histogram's resolution (at most 0.79 %), not the "
			"sample count, sets it.");
	xw_full_end(x);
	nl(x);
}

/* A row of the statistics table with a figure and empty cells after. */
static void stats_row(struct xw *x, const char *name, uint64_t v, int empty)
{
	char buf[32];
	xw_start(x, "tr");
	td(x, name);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	td_num(x, buf);
	for (int k = 0; k < empty; k++)
		td_num(x, "");
	xw_full_end(x);
	nl(x);
}

/* *none and *bucket: whether its interval column used those marks
 * (ci_note). */
static void stats_table(struct xw *x, const struct rv_req *r, const struct rv_metric *m,
			bool *none, bool *bucket)
{
	/* Percentiles in rank order between min and max, then the moments. */
	static const int order[] = { 0, 4, 5, 6, 7, 3, 1, 2, 8 };
	bool cycles = m->cycles_per_unit > 0, ci = m->ci_level != 0;
	struct units_scale sc = rv_metric_scale(m); /* one unit for the table */
	char buf[64];
	xw_start(x, "table");
	xw_attr(x, "class", "stats");
	xw_start(x, "tr");
	th(x, "Statistic");
	th(x, "Time");
	if (ci)
		ci_th(x, "", m->ci_level);
	if (cycles)
		th(x, "Cycles");
	xw_full_end(x);
	nl(x);
	stats_row(x, "samples", m->count, ci + cycles);
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		int i = order[k];
		xw_start(x, "tr");
		if (i == RV_MAX && m->ns[i].have) {
			/* a sample statistic, not a bound on the worst case */
			char obs[120], seen[160];
			rv_max_observed(r, m, obs, sizeof obs);
			snprintf(seen, sizeof seen, "max: %s", obs);
			html_cell(x, "observed", seen); /* the one name that may wrap */
		} else {
			td(x, report_view_stats[i]);
		}
		if (m->ns[i].have)
			fmt_ns_in(&m->ns[i], &sc, buf, sizeof buf);
		else
			absent_text(m, i, buf, sizeof buf);
		td_num(x, buf);
		if (ci)
			ci_cell(x, rv_metric_ci(m, i), &sc, report_view_stats[i], m->ci_level, none,
				bucket);
		if (cycles) {
			if (m->cycles[i].have)
				snprintf(buf, sizeof buf, "%.0f", m->cycles[i].v); /* whole ticks */
			else
				snprintf(buf, sizeof buf, "-");
			td_num(x, buf);
		}
		xw_full_end(x);
		nl(x);
	}
	stats_row(x, "overflow", m->overflow, ci + cycles);
	xw_full_end(x);
	nl(x);
}

static void runs_table(struct xw *x, const struct rv_req *r)
{
	char buf[64];
	if (!r->runs)
		return;
	double big = 0;
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		for (size_t k = 0; m->kind != METRIC_COUNT && k < m->nruns; k++) {
			if (m->run_mean_ns && m->run_mean_ns[k].have)
				big = fmax(big, fabs(m->run_mean_ns[k].v));
			if (m->run_max_ns && m->run_max_ns[k].have)
				big = fmax(big, fabs(m->run_max_ns[k].v));
		}
	}
	for (uint32_t k = 0; k < r->runs && r->batch_run_ns; k++)
		if (r->batch_run_ns[k].have)
			big = fmax(big, fabs(r->batch_run_ns[k].v));
	struct units_scale sc = units_scale_of(big); /* one unit for the table */
	xw_elem(x, "h3", "Runs");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "runs");
	xw_start(x, "tr");
	th(x, "Run");
	for (size_t i = 0; i < r->nmetrics; i++) {
		if (r->metrics[i].kind == METRIC_COUNT)
			continue; /* in the counts table */
		snprintf(buf, sizeof buf, "%s samples", r->metrics[i].name);
		th(x, buf);
		snprintf(buf, sizeof buf, "%s mean", r->metrics[i].name);
		th(x, buf);
		snprintf(buf, sizeof buf, "%s max", r->metrics[i].name);
		th(x, buf);
	}
	/* A probe without a batch figure (timer-wakeup, the behaviour
	 * probes) would get a column of "-": none. */
	bool batch = rv_req_batch_runs(r) > 0;
	if (batch)
		th(x, "Batch (total / N)");
	xw_full_end(x);
	nl(x);
	for (uint32_t k = 0; k < r->runs; k++) {
		xw_start(x, "tr");
		snprintf(buf, sizeof buf, "%u", k + 1);
		td_num(x, buf);
		for (size_t i = 0; i < r->nmetrics; i++) {
			const struct rv_metric *m = &r->metrics[i];
			if (m->kind == METRIC_COUNT)
				continue;
			if (k < m->nruns) {
				snprintf(buf, sizeof buf, "%llu", (unsigned long long)m->run_count[k]);
				td_num(x, buf);
				fmt_ns_in(&m->run_mean_ns[k], &sc, buf, sizeof buf);
				td_num(x, buf);
				fmt_ns_in(&m->run_max_ns[k], &sc, buf, sizeof buf);
				td_num(x, buf);
			} else {
				for (int c = 0; c < 3; c++)
					td_num(x, "-");
			}
		}
		if (batch) {
			fmt_ns_in(&r->batch_run_ns[k], &sc, buf, sizeof buf);
			td_num(x, buf);
		}
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
}

/* One row of the counts table: a label, then each count metric's cell. */
static void counts_row(struct xw *x, const struct rv_req *r, const char *label, uint32_t run,
		       int stat)
{
	char buf[64];
	xw_start(x, "tr");
	td(x, label);
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		if (m->kind != METRIC_COUNT)
			continue;
		if (stat >= 0)
			fmt_value(&m->counts[stat], QTY_COUNT, buf, sizeof buf);
		else if (run < m->nruns)
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)m->run_count[run]);
		else
			snprintf(buf, sizeof buf, "-");
		td_num(x, buf);
	}
	xw_full_end(x);
	nl(x);
}

/* The count metrics (the harness's faults and switches, a probe's own
 * counts): one column each, a row per run, then their statistics. Counts
 * are few values, so a table shows them better than a histogram would. */
static void counts_table(struct xw *x, const struct rv_req *r)
{
	char buf[64];
	size_t n = 0;
	for (size_t i = 0; i < r->nmetrics; i++)
		n += r->metrics[i].kind == METRIC_COUNT;
	if (!n)
		return;
	xw_elem(x, "h3", "Counts per run");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "counts");
	xw_start(x, "tr");
	th(x, "Run");
	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].kind == METRIC_COUNT)
			th(x, r->metrics[i].name);
	xw_full_end(x);
	nl(x);
	for (uint32_t k = 0; k < r->runs; k++) {
		snprintf(buf, sizeof buf, "%u", k + 1);
		counts_row(x, r, buf, k, -1);
	}
	for (int i = 0; i < RV_NCSTATS; i++)
		counts_row(x, r, report_view_count_stats[i], 0, i);
	xw_full_end(x);
	nl(x);
}

static void series_table(struct xw *x, const struct rv_req *r)
{
	char buf[64];
	bool none = false, bucket = false;
	double ci = 0; /* the column's level: the first interval's; 0: none to show */
	for (size_t i = 0; i < r->nseries && ci == 0; i++)
		ci = r->series[i].p99_ci.have ? r->series[i].ci_level : 0;
	xw_start(x, "table");
	xw_attr(x, "class", "series");
	xw_start(x, "tr");
	th(x, "CPU");
	th(x, "samples");
	for (int k = 0; k < RV_NSERIES_STATS; k++)
		th(x, report_view_series_stats[k]);
	if (ci != 0)
		ci_th(x, "p99 ", ci);
	xw_full_end(x);
	nl(x);
	for (size_t i = 0; i < r->nseries; i++) {
		const struct rv_series *s = &r->series[i];
		xw_start(x, "tr");
		snprintf(buf, sizeof buf, "%d", s->cpu);
		td_num(x, buf);
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)s->count);
		td_num(x, buf);
		for (int k = 0; k < RV_NSERIES_STATS; k++) {
			fmt_value(&s->ns[k], QTY_NS, buf, sizeof buf);
			td_num(x, buf);
		}
		if (ci != 0)
			ci_cell(x, s->p99_ci.have ? &s->p99_ci : NULL, NULL, "p99", ci, &none, &bucket);
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);
	ci_note(x, none, bucket);
}

/* The samples below zero of a signed metric (a timer that fired early):
 * the log-scaled plot has no place for them, so the caption says how many
 * there were and their range; the statistics table beside it has them in
 * min, mean and the percentiles. */
static void neg_caption(struct xw *x, const struct rv_metric *m)
{
	const struct rv_neg *n = &m->neg;
	uint64_t c = rv_neg_count(n);
	if (!c)
		return;
	double npu = m->ns_per_unit > 0 ? m->ns_per_unit : 1.0;
	char lo[48], hi[48];
	struct rv_value most = m->ns[RV_MIN];
	double least = n->nbuckets ? -(double)n->buckets[0].lo * npu : -(double)m->highest * npu;
	fmt_value(&most, QTY_NS, lo, sizeof lo);
	struct rv_value lv = { true, least };
	fmt_value(&lv, QTY_NS, hi, sizeof hi);
	xw_textf(x, " Not in the plot: %llu sample%s below zero (early), from %s to about %s.",
		 (unsigned long long)c, c == 1 ? "" : "s", lo, hi);
}

/* The first metric per CPU, for probes that keep it so (timer-wakeup): a
 * small histogram of each CPU beside the merged one above, then their
 * statistics. */
static void cpu_series(struct xw *x, const struct rv_req *r)
{
	char buf[160];
	if (!r->nseries || !r->nmetrics)
		return;
	xw_start(x, "div");
	xw_attr(x, "class", "per-cpu");
	snprintf(buf, sizeof buf, "Metric %s per CPU", r->metrics[0].name);
	xw_elem(x, "h3", buf);
	nl(x);
	html_cpu_plots(x, r);
	nl(x);
	html_time_cpu_plot(x, r);
	nl(x);
	series_table(x, r);
	xw_full_end(x);
	nl(x);
}

static void requirement(struct xw *x, const struct report_view *v, size_t f, size_t i)
{
	const struct rv_req *r = &v->files[f].reqs[i];
	char id[32], buf[160];
	xw_start(x, "div");
	xw_attr(x, "class", "req");
	xw_attr(x, "id", report_html_anchor((unsigned)f, (unsigned)i, id, sizeof id));
	nl(x);
	xw_start(x, "h2");
	badge(x, r->verdict, r->nlimits);
	xw_textf(x, " %s%s%s", r->id, r->title ? ": " : "", r->title ? r->title : "");
	xw_full_end(x);
	nl(x);
	if (v->nfiles > 1) {
		xw_start(x, "p");
		xw_attr(x, "class", "note");
		xw_textf(x, "from %s (%s)", v->files[f].name, v->files[f].path);
		xw_full_end(x);
		nl(x);
	}
	facts(x, r);
	html_why(x, r);
	limits_table(x, r);
	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct rv_metric *m = &r->metrics[k];
		if (m->kind == METRIC_COUNT)
			continue; /* in counts_table */
		snprintf(buf, sizeof buf, "Metric %s", m->name);
		xw_elem(x, "h3", buf);
		nl(x);
		xw_start(x, "div");
		xw_attr(x, "class", "metric");
		xw_start(x, "figure");
		html_histogram(x, r, m);
		xw_start(x, "figcaption");
		xw_textf(x, "%llu samples of %s %s. Log-log histogram: bars are the histogram's "
			    "buckets (at most 0.8 %% wide) joined per pixel; red bars may hold "
			    "samples beyond a bound that was not met; dashed lines are the limits "
			    "on this metric (green: met, red: not met).",
			 (unsigned long long)m->count, r->id, m->name);
		neg_caption(x, m);
		xw_full_end(x);
		xw_full_end(x); /* figure */
		bool none = false, bucket = false;
		stats_table(x, r, m, &none, &bucket);
		xw_full_end(x); /* div.metric */
		nl(x);
		ci_note(x, none, bucket);
		html_time_plot(x, r, m);
		nl(x);
		if (k == 0)
			cpu_series(x, r);
	}
	counts_table(x, r);
	runs_table(x, r);
	xw_full_end(x); /* div.req */
	nl(x);
}

/* ---- traceability ------------------------------------------------------ */

/* A requirement's name linked to its section. */
static void req_link(struct xw *x, const struct report_view *v, struct rv_cite c)
{
	char id[32];
	xw_start(x, "a");
	xw_attrf(x, "href", "#%s", report_html_anchor((unsigned)c.file, (unsigned)c.req, id, sizeof id));
	if (v->nfiles > 1)
		xw_textf(x, "%s: %s", v->files[c.file].name, v->files[c.file].reqs[c.req].id);
	else
		xw_text(x, v->files[c.file].reqs[c.req].id);
	xw_full_end(x);
}

/* The evidence of a requirement (report_evidence), each a link relative to
 * this page; the trace only when it lies here (rv_req.trace_link). */
static void evidence_cell(struct xw *x, const struct report_view *v, const struct rv_req *r)
{
	char ev[RV_EVIDENCE_MAX][RV_EVIDENCE_PATH_MAX];
	int trace;
	size_t n = report_evidence(v, r, ev, &trace);
	xw_start(x, "td");
	for (size_t k = 0; k < n; k++) {
		if (k)
			xw_text(x, ", ");
		if ((int)k == trace && r->trace_link != RV_TRACE_LINKED)
			xw_textf(x, "%s (not linked)", ev[k]);
		else
			report_file_link(x, ev[k], ev[k]);
	}
	if (!n)
		xw_text(x, "-");
	xw_full_end(x);
}

static void trace_row(struct xw *x, const struct report_view *v, const struct rv_trace_row *row)
{
	for (size_t k = 0; k < row->ncites; k++) {
		const struct rv_req *r = &v->files[row->cites[k].file].reqs[row->cites[k].req];
		xw_start(x, "tr");
		if (k == 0) {
			xw_start(x, "td");
			xw_attrf(x, "rowspan", "%zu", row->ncites);
			xw_attr(x, "class", "nowrap");
			xw_text(x, row->ref);
			xw_full_end(x);
			xw_start(x, "td");
			xw_attrf(x, "rowspan", "%zu", row->ncites);
			xw_text(x, row->title ? row->title : "-");
			xw_full_end(x);
		}
		xw_start(x, "td");
		req_link(x, v, row->cites[k]);
		xw_full_end(x);
		xw_start(x, "td");
		xw_attr(x, "class", "nowrap");
		xw_text(x, r->probe);
		xw_full_end(x);
		xw_start(x, "td");
		badge(x, r->verdict, r->nlimits);
		xw_full_end(x);
		evidence_cell(x, v, r);
		xw_full_end(x); /* tr */
		nl(x);
	}
}

/* The traceability matrix (reports/traceability.h), when a requirement
 * cites a clause: clause, title, requirement, probe, verdict, evidence;
 * then the requirements that cite none. */
static void traceability(struct xw *x, const struct report_view *v)
{
	struct rv_matrix m;
	if (!report_view_traced(v))
		return;
	if (report_traceability(v, &m) != 0) {
		x->failed = true; /* out of memory: never a quiet gap */
		return;
	}
	xw_elem(x, "h2", "Traceability");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "summary trace");
	xw_start(x, "thead");
	xw_start(x, "tr");
	static const char *const head[] = { "Clause", "Title", "Requirement", "Probe",
					    "Verdict", "Evidence" };
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		th(x, head[i]);
	xw_full_end(x);
	xw_full_end(x); /* thead */
	nl(x);
	xw_start(x, "tbody");
	for (size_t i = 0; i < m.nrows; i++)
		trace_row(x, v, &m.rows[i]);
	xw_full_end(x); /* tbody */
	xw_full_end(x); /* table */
	nl(x);
	if (m.nuntraced) {
		xw_start(x, "p");
		xw_attr(x, "class", "note");
		xw_textf(x, "Cite no clause (%zu): ", m.nuntraced);
		for (size_t k = 0; k < m.nuntraced; k++) {
			if (k)
				xw_text(x, ", ");
			req_link(x, v, m.untraced[k]);
		}
		xw_text(x, ".");
		xw_full_end(x);
		nl(x);
	}
	rv_matrix_free(&m);
}

/* ---- readiness ---------------------------------------------------------- */

/* The rows of the readiness checks of level `min` and above. */
static void readiness_rows(struct xw *x, const struct report_view *v, enum ready_level min)
{
	xw_start(x, "table");
	xw_attr(x, "class", "ready");
	xw_start(x, "tr");
	static const char *const head[] = { "Level", "Check", "Finding", "Remedy" };
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		th(x, head[i]);
	xw_full_end(x);
	nl(x);
	for (size_t i = 0; i < v->nready; i++) {
		const struct rv_check *c = &v->ready[i];
		if (c->level < min)
			continue;
		xw_start(x, "tr");
		xw_start(x, "td");
		xw_start(x, "span");
		xw_attrf(x, "class", "v r-%s", ready_level_name(c->level));
		xw_text(x, ready_level_name(c->level));
		xw_full_end(x);
		xw_full_end(x);
		td(x, c->name);
		xw_start(x, "td");
		html_text_micro(x, c->finding);
		xw_full_end(x);
		xw_start(x, "td");
		html_text_micro(x, c->level != READY_OK && c->remedy ? c->remedy : "");
		xw_full_end(x);
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x); /* table */
	nl(x);
}

/* Above the verdicts when a check warns or fails: those checks alone, so
 * the verdict table still starts on the first printed page; every check
 * is in the full section near the environment. */
static void readiness_alarm(struct xw *x, const struct report_view *v)
{
	size_t count[READY_NLEVELS];
	char tally[160];
	report_view_ready_counts(v, count);
	ready_count_text(count, tally, sizeof tally);
	xw_start(x, "div");
	xw_attr(x, "id", "readiness-alarm");
	xw_elem(x, "h2", "Readiness warnings");
	nl(x);
	xw_start(x, "p");
	xw_textf(x, "The checks of rtconform env at the start of the run: %s. These qualify "
		    "every figure below; every check is listed under ", tally);
	xw_start(x, "a");
	xw_attr(x, "href", "#readiness");
	xw_text(x, "Readiness of the machine");
	xw_full_end(x);
	xw_text(x, ".");
	xw_full_end(x);
	nl(x);
	readiness_rows(x, v, READY_WARN);
	xw_full_end(x); /* div */
	nl(x);
}

/* Every readiness check, after the requirements. */
static void readiness(struct xw *x, const struct report_view *v)
{
	size_t count[READY_NLEVELS];
	char tally[160];
	report_view_ready_counts(v, count);
	xw_start(x, "div");
	xw_attr(x, "class", "req");
	xw_attr(x, "id", "readiness");
	xw_elem(x, "h2", "Readiness of the machine");
	nl(x);
	if (!v->ready_recorded) {
		xw_elem(x, "p", "Not recorded: this report comes from a run of an rtconform that "
				"did not record the readiness checks.");
		xw_full_end(x);
		nl(x);
		return;
	}
	ready_count_text(count, tally, sizeof tally);
	xw_start(x, "p");
	xw_textf(x, "The checks of rtconform env at the start of the run: %s.", tally);
	xw_full_end(x);
	nl(x);
	readiness_rows(x, v, READY_OK);
	xw_full_end(x); /* div */
	nl(x);
}

/* ---- environment and reproduction -------------------------------------- */

static void environment(struct xw *x, const struct report_view *v)
{
	xw_start(x, "div");
	xw_attr(x, "class", "req");
	xw_attr(x, "id", "environment");
	xw_elem(x, "h2", "Environment");
	nl(x);
	xw_start(x, "table");
	xw_attr(x, "class", "env");
	nl(x);
	for (size_t i = 0; i < v->env.n; i++) {
		xw_start(x, "tr");
		td(x, v->env.e[i].key);
		xw_start(x, "td");
		html_text_micro(x, v->env.e[i].value); /* "950000 µs per 1000000 µs" */
		xw_full_end(x);
		xw_full_end(x);
		nl(x);
	}
	xw_full_end(x);
	nl(x);

	xw_elem(x, "h2", "Reproduce");
	nl(x);
	xw_elem(x, "p", "On the machine above, from the same directory, with the same files "
			"(their SHA-256 below):");
	nl(x);
	xw_start(x, "pre");
	const char *cwd = fingerprint_get(&v->env, "rtconform.cwd");
	if (cwd && cwd[0] == '/') {
		/* Quoted as the command line is, so pasting it runs nothing a
		 * directory's name holds ("$(...)", quotes, ;). */
		size_t len = strlen("cd") + quote_shell_room(cwd) + 1;
		char *cd = malloc(len);
		if (cd) {
			snprintf(cd, len, "cd");
			quote_shell_append(cd, len, cwd);
			xw_textf(x, "%s\n", cd);
		}
		free(cd);
	} else if (cwd) {
		xw_textf(x, "# the directory is not known: %s\n", cwd);
	}
	xw_text(x, env(v, "rtconform.command"));
	xw_full_end(x);
	nl(x);
	xw_elem(x, "p", "Requirements files (sha256sum -c checks them):");
	xw_start(x, "pre");
	for (size_t f = 0; f < v->nfiles; f++) {
		const struct rv_file *vf = &v->files[f];
		/* "<built-in default profile>" is no file to check: say what it
		 * is instead of giving sha256sum a line it cannot use. */
		if (vf->path[0] == '<')
			xw_textf(x, "# %s %s, SHA-256 %s: built into rtconform %s\n", vf->path,
				 vf->name, vf->sha256, env(v, "rtconform.version"));
		else
			xw_textf(x, "%s  %s\n", vf->sha256, vf->path);
	}
	xw_full_end(x);
	nl(x);
	xw_full_end(x); /* div */
	nl(x);
}

/* ---- the document ------------------------------------------------------ */

static void document(struct xw *x, const struct report_view *v)
{
	char title[300];
	snprintf(title, sizeof title, "rtconform report: %s on %s", report_view_status_label(v),
		 env(v, "host.name"));
	page_begin(x, title, "rtconform real-time conformance report");
	size_t count[READY_NLEVELS];
	bool alarm = report_view_ready_counts(v, count);
	header(x, v);
	if (alarm)
		readiness_alarm(x, v);
	summary(x, v);
	traceability(x, v);
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++)
			requirement(x, v, f, i);
	readiness(x, v);
	environment(x, v);
	page_end(x, env(v, "rtconform.version"), fingerprint_get(&v->env, "rtconform.commit"),
		 ". This report is rendered from the run's data alone; rtconform report "
		 "results.json --html FILE renders the same report from results.json.");
}

static void html_doc(struct xw *x, const void *v)
{
	document(x, v);
}

char *report_html_render(const struct report_view *v, size_t *len, char *why, size_t whylen)
{
	return xw_render(html_doc, v, false, len, why, whylen);
}

int report_html_put(const struct report_view *v, FILE *f, char *why, size_t whylen)
{
	return xw_put(html_doc, v, false, f, why, whylen);
}
