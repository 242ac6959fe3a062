/* SPDX-License-Identifier: Apache-2.0 */
/* text.c - the terminal / summary.txt verdict table and figures, the
 * per-result statistics and ASCII histogram of `rtconform probe`, and
 * junit.xml's short <system-out>; all rendered from the report view. */
#include "reports/report.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/explain.h"
#include "base/units.h"
#include "reports/ival.h"
#include "reports/link.h"
#include "reports/traceability.h"
#include "reports/trend.h"

/* Copy s into buf with control characters replaced: titles and reasons
 * come from files and errno texts, and an escape sequence in them must not
 * reach a terminal. UTF-8 passes through. */
static const char *printable(const char *s, char *buf, size_t len)
{
	size_t i = 0;
	if (!len)
		return "";
	for (; s && *s && i + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		buf[i++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	buf[i] = '\0';
	return buf;
}

static void limit_text(const struct rv_limit *l, char *buf, size_t len)
{
	report_limit_text(l->metric, l->statistic, l->has_min ? &l->min : NULL,
			  l->has_max ? &l->max : NULL, l->confidence, buf, len);
}

static void measured_text(const struct rv_limit *l, char *buf, size_t len)
{
	if (!l->measured.have) {
		snprintf(buf, len, "-");
		return;
	}
	struct quantity q = { .value = l->measured.v, .unit = rv_limit_unit(l) };
	units_fmt_qty(&q, buf, len);
}

struct row {
	char id[64], probe[48], policy[24], limit[200], measured[48];
	const char *verdict;
	enum verdict v;        /* of the verdict column, for its colour */
	const char *note_kind; /* "error", "skipped", "inconclusive" or NULL */
	const char *note;      /* the result's reason, printed under the row */
};

/* Rows of one result: one per limit, or one for a result without limits
 * or that was skipped (nothing was measured against any limit). */
static size_t result_rows(const struct rv_req *r, struct row *rows, size_t max)
{
	struct row base;
	memset(&base, 0, sizeof base);
	printable(r->id, base.id, sizeof base.id);
	printable(r->probe, base.probe, sizeof base.probe);
	snprintf(base.policy, sizeof base.policy, "%s", r->policy);
	if (r->verdict == VERDICT_ERROR) {
		base.note_kind = "error";
		base.note = r->reason ? r->reason : "could not be measured";
	} else if (r->verdict == VERDICT_SKIPPED && r->reason) {
		base.note_kind = "skipped";
		base.note = r->reason;
	}

	size_t nlim = r->nlimits;
	if (nlim == 0 || r->verdict == VERDICT_SKIPPED || max < nlim) {
		rows[0] = base;
		snprintf(rows[0].limit, sizeof rows[0].limit, "%s", nlim ? "-" : "(no limits)");
		snprintf(rows[0].measured, sizeof rows[0].measured, "-");
		rows[0].verdict = verdict_label_of(r->verdict, nlim);
		rows[0].v = r->verdict;
		return 1;
	}
	for (size_t i = 0; i < nlim; i++) {
		rows[i] = base;
		/* The reason goes once, under the last row of the result. */
		if (i + 1 < nlim)
			rows[i].note_kind = rows[i].note = NULL;
		limit_text(&r->limits[i], rows[i].limit, sizeof rows[i].limit);
		measured_text(&r->limits[i], rows[i].measured, sizeof rows[i].measured);
		rows[i].verdict = verdict_label(r->limits[i].verdict);
		rows[i].v = r->limits[i].verdict;
		/* A limit that could not be judged beside others that were (a
		 * failed requirement): why, under its own row. */
		if (r->verdict != VERDICT_ERROR && r->limits[i].verdict == VERDICT_ERROR) {
			rows[i].note_kind = "error";
			rows[i].note = r->limits[i].text ? r->limits[i].text
							 : "could not be evaluated";
		}
		/* One the samples could not decide: its interval and the samples
		 * that would decide it, under its own row. */
		if (r->limits[i].verdict == VERDICT_INCONCLUSIVE) {
			rows[i].note_kind = "inconclusive";
			rows[i].note = r->limits[i].text ? r->limits[i].text
							 : "not decided at its confidence";
		}
	}
	return nlim;
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

const char *report_verdict_sgr(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS: return "\033[32m";  /* green */
	case VERDICT_FAIL: return "\033[31m";  /* red */
	case VERDICT_ERROR: return "\033[33m"; /* yellow */
	case VERDICT_INCONCLUSIVE: return "\033[35m"; /* magenta */
	default: return "";
	}
}

/* sgr: the verdict's colour, "" for none. Last column: no padding to spoil. */
static void print_row(FILE *out, const size_t *w, const char *id, const char *probe,
		      const char *policy, const char *limit, const char *measured,
		      const char *verdict, const char *sgr)
{
	fprintf(out, "%-*s  %-*s  %-*s  %-*s  %*s  %s%s%s\n", (int)w[0], id, (int)w[1], probe,
		(int)w[2], policy, (int)w[3], limit, (int)w[4], measured, sgr, verdict,
		sgr[0] ? REPORT_SGR_RESET : "");
}

/* Column widths from every row, so the table lines up across files. */
static void column_widths(const struct report_view *v, struct row *rows, size_t *w)
{
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			if (v->files[f].reqs[i].not_selected)
				continue; /* folded into one line (not_selected_line) */
			size_t n = result_rows(&v->files[f].reqs[i], rows, REQ_MAX_LIMITS);
			for (size_t k = 0; k < n; k++) {
				w[0] = max_sz(w[0], strlen(rows[k].id));
				w[1] = max_sz(w[1], strlen(rows[k].probe));
				w[2] = max_sz(w[2], strlen(rows[k].policy));
				w[3] = max_sz(w[3], strlen(rows[k].limit));
				w[4] = max_sz(w[4], strlen(rows[k].measured));
			}
		}
}

/* At most this many ids in the line of the requirements --only left out:
 * a profile of 27 would make a line of 800 characters. */
#define NOT_SELECTED_SHOWN 5

/* The requirements of a file that `run --only` left out, in one line after
 * its rows rather than a SKIP row and a reason each, their count first:
 * "2 requirements not selected (--only TIMER-FIFO): SEM-RT, SEM-OTHER"; more
 * than NOT_SELECTED_SHOWN: "27 requirements not selected (--only X): A, B,
 * C, D, E, ... (see the reports)". Nothing when there are none. */
static void not_selected_line(const struct rv_file *vf, FILE *out)
{
	size_t n = 0;
	const char *why = NULL;
	char buf[256];
	for (size_t i = 0; i < vf->nreqs; i++)
		if (vf->reqs[i].not_selected) {
			if (!n++)
				why = vf->reqs[i].reason;
		}
	if (!n)
		return;
	fprintf(out, "%zu requirement%s %s:", n, n == 1 ? "" : "s",
		printable(why ? why : "not selected", buf, sizeof buf));
	for (size_t i = 0, k = 0; i < vf->nreqs && k < NOT_SELECTED_SHOWN; i++)
		if (vf->reqs[i].not_selected)
			fprintf(out, "%s %s", k++ ? "," : "", printable(vf->reqs[i].id, buf, sizeof buf));
	fprintf(out, "%s\n", n > NOT_SELECTED_SHOWN ? ", ... (see the reports)" : "");
}

/* One line per explained breach (rv_req.explain): "why: SEM-RT wakeup
 * 2.1 ms: 68% ksoftirqd/1 (...), 20% irq 11 virtio0, 12% unexplained (no
 * event tells)", the headline of `rtconform explain` (docs/explain.md). */
static void why_lines(const struct report_view *v, FILE *out)
{
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			const struct rv_req *r = &v->files[f].reqs[i];
			char h[1100], p[1300];
			if (!r->explain || r->not_selected)
				continue;
			explain_headline(r->explain, h, sizeof h);
			fprintf(out, "why: %s", printable(h, p, sizeof p));
			explain_steal_text(r->explain, h, sizeof h);
			fprintf(out, "%s%s", *h ? "; " : "", h);
			if (rv_trace_sample(r->trace_note, h, sizeof h))
				fprintf(out, "; the sample explained: %s", printable(h, p, sizeof p));
			fprintf(out, "\n");
		}
}

/* status < 0: the verdicts' own exit status and its meaning. */
static void write_text(const struct report_view *v, FILE *out, int status, const char *meaning,
		       bool colour)
{
	/* One pass to size the columns, one to print: a run is small. */
	static const char *const head[6] = { "ID", "PROBE", "POLICY", "LIMIT", "MEASURED",
					     "VERDICT" };
	size_t w[5];
	for (int i = 0; i < 5; i++)
		w[i] = strlen(head[i]);
	struct row *rows = calloc(REQ_MAX_LIMITS, sizeof *rows);
	if (!rows) {
		fprintf(out, "(cannot print the verdict table: %s)\n", strerror(ENOMEM));
		return;
	}
	column_widths(v, rows, w);

	print_row(out, w, head[0], head[1], head[2], head[3], head[4], head[5], "");
	for (size_t f = 0; f < v->nfiles; f++) {
		const struct rv_file *vf = &v->files[f];
		/* Ids are unique within a file only: name the file when there
		 * is more than one. */
		if (v->nfiles > 1) {
			char name[256];
			fprintf(out, "[%s]\n", printable(vf->name, name, sizeof name));
		}
		for (size_t i = 0; i < vf->nreqs; i++) {
			if (vf->reqs[i].not_selected)
				continue;
			size_t n = result_rows(&vf->reqs[i], rows, REQ_MAX_LIMITS);
			for (size_t k = 0; k < n; k++) {
				print_row(out, w, rows[k].id, rows[k].probe, rows[k].policy,
					  rows[k].limit, rows[k].measured, rows[k].verdict,
					  colour ? report_verdict_sgr(rows[k].v) : "");
				if (rows[k].note) {
					char note[640];
					fprintf(out, "%-*s  %s: %s\n", (int)w[0], "",
						rows[k].note_kind,
						printable(rows[k].note, note, sizeof note));
				}
			}
		}
		not_selected_line(vf, out);
	}
	free(rows);
	why_lines(v, out);

	struct report_totals t;
	report_view_totals(v, &t);
	if (status < 0 || !meaning) {
		status = report_view_exit_status(v);
		meaning = report_view_exit_meaning(v, status);
	}
	char counts[200];
	report_totals_text(&t, counts, sizeof counts);
	fprintf(out, "%zu requirement%s: %s (%.3f s); exit status %d: %s\n", t.tests,
		t.tests == 1 ? "" : "s", counts, t.seconds, status, meaning);
}

static void report_write_text_status(const struct report_view *v, FILE *out, int status,
				     const char *meaning)
{
	report_write_text_colour(v, out, status, meaning, false);
}

void report_write_text(const struct report_view *v, FILE *out)
{
	report_write_text_status(v, out, -1, NULL);
}

void report_write_text_colour(const struct report_view *v, FILE *out, int status,
			      const char *meaning, bool colour)
{
	locale_t old_loc = numfmt_c_enter();
	write_text(v, out, status, meaning, colour);
	numfmt_c_leave(old_loc);
}

/* A time for people, "n/a" when the view has none. */
static void fmt_value_ns(const struct rv_value *val, char *buf, size_t len)
{
	if (val->have)
		units_fmt_ns(val->v, buf, len);
	else
		snprintf(buf, len, "n/a");
}

/* " [745 ns, 750.5 ns] 95%": a percentile's confidence interval, "-" for
 * a side without a bound (too few samples for it); "" without one. The
 * bucket-limited marks are report.html's, results.json's and
 * confidence.csv's. */
/* A figure in its table's unit sc, or alone (sc NULL). */
static void fmt_ns_in(double ns, const struct units_scale *sc, char *buf, size_t len)
{
	if (sc)
		units_fmt_ns_in(ns, *sc, buf, len);
	else
		units_fmt_ns(ns, buf, len);
}

static void ci_text(const struct rv_ci *c, const struct units_scale *sc, char *buf, size_t len)
{
	char lo[32] = "-", hi[32] = "-";
	if (!c) {
		buf[0] = '\0';
		return;
	}
	if (c->has_lo)
		fmt_ns_in(c->lo_ns, sc, lo, sizeof lo);
	if (c->has_hi)
		fmt_ns_in(c->hi_ns, sc, hi, sizeof hi);
	snprintf(buf, len, " [%s, %s] %g%%", lo, hi, c->level * 100);
}

/* A count statistic for people: the number, "n/a" when absent. */
static void fmt_count(const struct rv_value *val, char *buf, size_t len)
{
	struct quantity q = { val->v, QTY_COUNT };
	if (val->have)
		units_fmt_qty(&q, buf, len);
	else
		snprintf(buf, len, "n/a");
}

/* The figures line of a count metric. */
static void count_line(FILE *out, const char *id, const struct rv_metric *m)
{
	char a[32], b[32], c[32];
	fmt_count(&m->counts[RVC_TOTAL], a, sizeof a);
	fmt_count(&m->counts[RVC_MAX], b, sizeof b);
	fmt_count(&m->counts[RVC_MEAN], c, sizeof c);
	uint64_t runs = m->nruns;
	fprintf(out, "  %s %s: total %s, max %s per run, mean %s per run (%llu run%s)\n", id,
		m->name, a, b, c, (unsigned long long)runs, runs == 1 ? "" : "s");
}

/* One line of figures of metric mi of a requirement. */
static void figure_line(FILE *out, const char *id, const struct rv_req *r, size_t mi)
{
	const struct rv_metric *m = &r->metrics[mi];
	char a[32], b[32], c[32], d[32], ci[80];
	if (m->kind == METRIC_COUNT) {
		count_line(out, id, m);
		return;
	}
	fmt_value_ns(&m->ns[RV_MIN], a, sizeof a);
	fmt_value_ns(&m->median_ns, b, sizeof b);
	fmt_value_ns(&m->ns[RV_MEAN], c, sizeof c);
	fmt_value_ns(&m->ns[RV_MAX], d, sizeof d);
	/* p50's interval when p50 is reported (the median is quoted from 1) */
	ci_text(rv_metric_ci(m, RV_P50), NULL, ci, sizeof ci);
	char seen[120];
	rv_max_observed(r, m, seen, sizeof seen);
	fprintf(out, "  %s %s: n=%llu min %s, p50 %s%s, mean %s, max %s (%s)", id, m->name,
		(unsigned long long)m->count, a, b, ci, c, d, m->ns[RV_MAX].have ? seen : "no samples");
	if (m->cycles_per_unit != 0 && m->cycles[RV_MIN].have) {
		units_fmt_qty(&(struct quantity){ m->cycles[RV_MIN].v, QTY_CYCLES }, a, sizeof a);
		fprintf(out, "; best %s", a);
	}
	if (m->overflow)
		fprintf(out, "; %llu beyond the histogram's range",
			(unsigned long long)m->overflow);
	if (mi == 0 && r->batch_mean_ns.have) {
		units_fmt_ns(r->batch_mean_ns.v, a, sizeof a);
		units_fmt_ns(r->batch_stddev_ns.v, b, sizeof b);
		fprintf(out, "; batch %s (%s)", a, b);
	}
	fputc('\n', out);
}

/* What follows a trace's name where the reports neither link nor attach
 * it (a results.json from elsewhere: report_trace_why_not says why), into
 * buf. */
static const char *trace_remark(const struct rv_req *r, char *buf, size_t len)
{
	const char *why = report_trace_why_not(r);
	if (!why)
		return "";
	snprintf(buf, len, " (not linked or attached: %s)", why);
	return buf;
}

/* The figures' line on a requirement's trace, when one was asked for. */
static void summary_trace(FILE *out, const char *id, const struct rv_req *r)
{
	char buf[1300], remark[100];
	if (r->trace_note)
		fprintf(out, "  %s %s\n", id, printable(r->trace_note, buf, sizeof buf));
	if (r->trace)
		fprintf(out, "  %s trace file: %s%s\n", id, printable(r->trace, buf, sizeof buf),
			trace_remark(r, remark, sizeof remark));
}

/* "2026-12-02T01:05:11Z", the start of interval iv to the second; the
 * time of day alone ("01:05:11Z") when short and it is on the UTC date of
 * `first`. */
static void ival_time(const struct rv_ival *iv, const struct rv_ival *first, bool short_,
		      char *buf, size_t len)
{
	char a[40], b[40];
	rv_fmt_utc_ms(iv->start_ms, a, sizeof a);
	rv_fmt_utc_ms(first->start_ms, b, sizeof b);
	if (strlen(a) < 20) {
		snprintf(buf, len, "%s", "an unknown time");
		return;
	}
	a[19] = 'Z';
	a[20] = '\0';
	snprintf(buf, len, "%s", short_ && strncmp(a, b, 10) == 0 ? a + 11 : a);
}

/* The line of the trend of metric m's interval maxima (reports/trend.h),
 * when two or more intervals have one:
 * "  ID per-op interval maxima: 3 record-setting intervals of 5, the last in
 *  interval 4 (at 13:00:00Z); Kendall's tau 0.00, p = 1: still rising (...)". */
static void trend_line(FILE *out, const char *id, const struct rv_metric *m)
{
	struct trend t;
	size_t last;
	char when[40], buf[400];
	if (!rv_ivals_trend(m->intervals, m->nintervals, &t, &last))
		return;
	ival_time(&m->intervals[last], &m->intervals[0], true, when, sizeof when);
	trend_text(&t, when, buf, sizeof buf);
	fprintf(out, "  %s %s interval maxima: %s\n", id, m->name, buf);
}

/* The line of a requirement's intervals (of its first duration metric
 * that has them): how many of about what length from when, the worst max
 * and when, how many lay beyond each limit on the metric that they can be
 * judged by (rv_ival_beyond), and the interval the trace was taken in. */
static void interval_line(FILE *out, const char *id, const struct rv_req *r)
{
	const struct rv_metric *m = NULL;
	for (size_t i = 0; i < r->nmetrics && !m; i++)
		if (r->metrics[i].kind == METRIC_DURATION && r->metrics[i].nintervals)
			m = &r->metrics[i];
	if (!m)
		return;
	const struct rv_ival *iv = m->intervals;
	char len[24], when[40], v[32], lim[200];
	size_t worst = SIZE_MAX, judged = 0, beyond_any = 0;
	for (size_t k = 0; k < m->nintervals; k++)
		if (iv[k].ns[RV_MAX].have && (worst == SIZE_MAX || iv[k].ns[RV_MAX].v >
								   iv[worst].ns[RV_MAX].v))
			worst = k;
	rv_fmt_span(rv_ivals_length(iv, m->nintervals), len, sizeof len);
	ival_time(&iv[0], &iv[0], false, when, sizeof when);
	fprintf(out, "  %s %s intervals: %zu of about %s from %s", id, m->name, m->nintervals, len,
		when);
	if (worst != SIZE_MAX) {
		units_fmt_ns(iv[worst].ns[RV_MAX].v, v, sizeof v);
		ival_time(&iv[worst], &iv[0], true, when, sizeof when);
		fprintf(out, "; worst max %s at %s (interval %zu)", v, when, worst + 1);
	}
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		double b;
		if (strcmp(l->metric, m->name) != 0 || rv_stat_index(l->statistic) < 0 ||
		    !(rv_limit_bound_ns(l, m, true, &b) || rv_limit_bound_ns(l, m, false, &b)))
			continue;
		size_t n = 0;
		for (size_t k = 0; k < m->nintervals; k++)
			n += rv_ival_beyond(l, m, &iv[k]);
		judged++;
		if (!n)
			continue;
		beyond_any++;
		limit_text(l, lim, sizeof lim);
		fprintf(out, "; %zu beyond %s", n, lim);
	}
	if (judged && !beyond_any)
		fprintf(out, "; none beyond a limit");
	size_t t = rv_ival_traced(r, m, NULL);
	if (t != SIZE_MAX)
		fprintf(out, "; trace taken in interval %zu", t + 1);
	fputc('\n', out);
	trend_line(out, id, m);
}

/* The figures behind the verdicts, one line per metric: what an engineer
 * quotes (best case, median, mean, worst case) and the batch figure of docs/background.md,
 * so summary.txt stands on its own. */
static void write_figures(const struct report_view *v, FILE *out)
{
	fprintf(out, "\nfigures (min, p50, mean, max per sample; best in cycles on a TSC "
		     "timebase; batch = total / iterations minus the empty loop, "
		     "mean (stddev) over runs; counts: total over the runs, worst run, "
		     "mean per run):\n");
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			const struct rv_req *r = &v->files[f].reqs[i];
			char id[128];
			printable(r->id, id, sizeof id);
			if (r->load) {
				char cmd[640];
				fprintf(out, "  %s measured under load: %s\n", id,
					printable(r->load, cmd, sizeof cmd));
			}
			summary_trace(out, id, r);
			for (size_t mi = 0; mi < r->nmetrics; mi++)
				if (r->metrics[mi].count || r->metrics[mi].nruns)
					figure_line(out, id, r, mi);
			interval_line(out, id, r);
		}
}

/* The machine's readiness checks as `rtconform env` prints them, every one
 * with its level, and a remedy under each that is not ok. */
static void write_readiness(const struct report_view *v, FILE *out)
{
	size_t count[READY_NLEVELS];
	char tally[160], a[64], b[1024];
	if (!v->ready_recorded) {
		fprintf(out, "\nreadiness of the machine: not recorded (a report from before "
			     "runs recorded it)\n");
		return;
	}
	report_view_ready_counts(v, count);
	ready_count_text(count, tally, sizeof tally);
	fprintf(out, "\nreadiness of the machine (rtconform env's checks, at the start of the "
		     "run): %s\n", tally);
	for (size_t i = 0; i < v->nready; i++) {
		const struct rv_check *c = &v->ready[i];
		fprintf(out, "  %-5s %-15s %s\n", ready_level_name(c->level),
			printable(c->name, a, sizeof a), printable(c->finding, b, sizeof b));
		if (c->remedy && c->level != READY_OK)
			fprintf(out, "  %-5s %-15s remedy: %s\n", "", "",
				printable(c->remedy, b, sizeof b));
	}
}

/* The traceability matrix (reports/traceability.h), when a requirement
 * cites a clause: each clause and the verdicts of the requirements citing
 * it, then those citing none. 0, or -ENOMEM. */
static int write_traceability(const struct report_view *v, FILE *out)
{
	struct rv_matrix m;
	char a[600], b[600];
	if (!report_view_traced(v))
		return 0;
	if (report_traceability(v, &m) != 0)
		return -ENOMEM;
	fprintf(out, "\ntraceability (clause -> requirements citing it: verdict; evidence in "
		     "results.json's \"traceability\"):\n");
	for (size_t i = 0; i < m.nrows; i++) {
		const struct rv_trace_row *row = &m.rows[i];
		fprintf(out, "  %s%s%s%s\n", printable(row->ref, a, sizeof a), row->title ? " (" : "",
			row->title ? printable(row->title, b, sizeof b) : "", row->title ? ")" : "");
		for (size_t k = 0; k < row->ncites; k++) {
			const struct rv_file *vf = &v->files[row->cites[k].file];
			const struct rv_req *r = &vf->reqs[row->cites[k].req];
			fprintf(out, "    -> %s%s%s: %s\n",
				v->nfiles > 1 ? printable(vf->name, b, sizeof b) : "",
				v->nfiles > 1 ? ": " : "", printable(r->id, a, sizeof a),
				verdict_label_of(r->verdict, r->nlimits));
		}
	}
	for (size_t k = 0; k < m.nuntraced; k++) {
		const struct rv_file *vf = &v->files[m.untraced[k].file];
		fprintf(out, "%s%s%s%s", k ? ", " : "  citing no clause: ",
			v->nfiles > 1 ? printable(vf->name, b, sizeof b) : "",
			v->nfiles > 1 ? ": " : "",
			printable(vf->reqs[m.untraced[k].req].id, a, sizeof a));
	}
	if (m.nuntraced)
		fputc('\n', out);
	rv_matrix_free(&m);
	return 0;
}

/* The build the run was measured with. */
static void write_build(const struct report_view *v, FILE *out)
{
	const char *ver = fingerprint_get(&v->env, "rtconform.version");
	const char *commit = fingerprint_get(&v->env, "rtconform.commit");
	char a[64], b[64];
	fprintf(out, "\nmeasured with rtconform %s (commit %s)\n",
		printable(ver ? ver : "unknown", a, sizeof a),
		printable(commit ? commit : "not recorded", b, sizeof b));
	/* A run `rtconform selftest` injected faults into (cli/run_faults.h). */
	const char *faults = fingerprint_get(&v->env, "rtconform.injected_faults");
	char f[1400];
	if (faults)
		fprintf(out, "FAULTS INJECTED by selftest: %s\n", printable(faults, f, sizeof f));
}

/* Which machine: the lab's label, host name, hashed id, hardware, OS. */
static void write_host(const struct report_view *v, FILE *out)
{
	char host[1600], shown[2048];
	fingerprint_host_summary(&v->env, host, sizeof host);
	fprintf(out, "host: %s\n", printable(host, shown, sizeof shown));
}

char *report_summary_render(const struct report_view *v, size_t *len, char *why, size_t whylen)
{
	char *data = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&data, &n);
	if (!mem) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	locale_t old_loc = numfmt_c_enter();
	write_text(v, mem, -1, NULL, false); /* a file: never colour */
	write_host(v, mem);
	write_readiness(v, mem);
	write_figures(v, mem);
	int e = write_traceability(v, mem);
	write_build(v, mem);
	numfmt_c_leave(old_loc);
	if (fclose(mem) != 0 || e) {
		snprintf(why, whylen, "%s", strerror(e ? -e : errno ? errno : ENOMEM));
		free(data);
		return NULL;
	}
	*len = n;
	return data;
}

/* ---- per-result detail ------------------------------------------------ */

#define HIST_ROWS 30
#define BAR_WIDTH 40

static void stat_line(FILE *out, const struct rv_metric *m, const struct units_scale *sc, int i)
{
	const char *name = report_view_stats[i];
	struct statistic st;
	if (statistic_parse(name, &st) != 0)
		return;
	if (m->ns[i].have) {
		char buf[48], ci[80];
		units_fmt_ns_in(m->ns[i].v, *sc, buf, sizeof buf);
		ci_text(rv_metric_ci(m, i), sc, ci, sizeof ci);
		fprintf(out, "  %-18s %s%s\n", name, buf, ci);
	} else if (!m->count) {
		fprintf(out, "  %-18s n/a (no samples)\n", name);
	} else if (st.kind == STAT_RUNS_MEAN_STDDEV) {
		fprintf(out, "  %-18s n/a (needs 2 runs with samples)\n", name);
	} else {
		fprintf(out, "  %-18s n/a (needs %llu samples)\n", name,
			(unsigned long long)statistic_min_samples(&st));
	}
}

struct hist_group {
	double lo, hi; /* ns */
	uint64_t count;
};

/* Fold neighbouring non-empty buckets into at most `rows` groups, appended
 * to g at *ng: empty ranges cost no rows, so a lone outlier keeps a row of
 * its own instead of vanishing into a wide linear bin. neg: the buckets are
 * magnitudes of samples below zero, walked from the largest so the groups
 * still ascend in value. */
static void group_buckets(const struct rv_bucket *b, size_t n, bool neg, double npu,
			  uint32_t rows, struct hist_group *g, uint32_t *ng)
{
	size_t per = (n + rows - 1) / rows;
	for (size_t j = 0; j < n; j++) {
		const struct rv_bucket *k = neg ? &b[n - 1 - j] : &b[j];
		double lo = neg ? -(double)k->hi * npu : (double)k->lo * npu;
		double hi = neg ? -(double)k->lo * npu : (double)k->hi * npu;
		if (j % per == 0)
			g[(*ng)++] = (struct hist_group){ lo, hi, 0 };
		g[*ng - 1].hi = hi;
		g[*ng - 1].count += k->count;
	}
}

/* One row: range, log-scaled bar, count and the cumulative share. */
static void write_hist_row(FILE *out, const char *range, uint64_t count, double lmax,
			   uint64_t *cum, uint64_t total)
{
	*cum += count;
	int len = 0;
	if (count && lmax > 0) {
		len = (int)lround(BAR_WIDTH * log10(1.0 + (double)count) / lmax);
		if (len < 1)
			len = 1;
	}
	char bar[BAR_WIDTH + 1];
	memset(bar, '#', (size_t)len);
	bar[len] = '\0';
	char pct[32];
	units_fmt_pct(total ? (double)*cum / (double)total : 0.0, pct, sizeof pct);
	fprintf(out, "  %s |%-*s| %llu (%s cum)\n", range, BAR_WIDTH, bar,
		(unsigned long long)count, pct);
}

/* Samples below zero (a signed metric) come first: those beyond the range
 * ("underflow"), then their groups, then the rest as ever. */
static void write_histogram(FILE *out, const struct rv_metric *m, const struct units_scale *sc)
{
	double npu = m->ns_per_unit > 0 ? m->ns_per_unit : 1.0;
	const struct rv_neg *neg = &m->neg;
	if (!m->nbuckets && !m->overflow && !neg->nbuckets && !neg->overflow) {
		fprintf(out, "  histogram: no samples\n");
		return;
	}
	struct hist_group g[HIST_ROWS];
	uint32_t ng = 0, rows = neg->nbuckets ? HIST_ROWS / 2 : HIST_ROWS;
	group_buckets(neg->buckets, neg->nbuckets, true, npu, rows, g, &ng);
	group_buckets(m->buckets, m->nbuckets, false, npu, HIST_ROWS - ng, g, &ng);
	uint64_t cmax = m->overflow > neg->overflow ? m->overflow : neg->overflow;
	for (uint32_t r = 0; r < ng; r++)
		if (g[r].count > cmax)
			cmax = g[r].count;

	/* Log-scaled bars: a tail of single outliers beside a million typical
	 * samples must still show as a mark, or the picture lies about it. */
	double lmax = log10(1.0 + (double)cmax);
	uint64_t cum = 0;
	char range[96], a[32], b[32];
	fprintf(out, "  histogram (%s, log-scaled bars, %llu samples):\n", sc->name,
		(unsigned long long)m->count);
	if (neg->overflow) {
		units_fmt_ns_in(-(double)m->highest * npu, *sc, a, sizeof a);
		snprintf(range, sizeof range, "%13s  < %13s", "underflow", a);
		write_hist_row(out, range, neg->overflow, lmax, &cum, m->count);
	}
	for (uint32_t r = 0; r < ng; r++) {
		units_fmt_ns_in(g[r].lo, *sc, a, sizeof a);
		units_fmt_ns_in(g[r].hi, *sc, b, sizeof b);
		snprintf(range, sizeof range, "%13s .. %13s", a, b);
		write_hist_row(out, range, g[r].count, lmax, &cum, m->count);
	}
	if (m->overflow) {
		units_fmt_ns_in((double)m->highest * npu, *sc, a, sizeof a);
		snprintf(range, sizeof range, "%13s  > %13s", "overflow", a);
		write_hist_row(out, range, m->overflow, lmax, &cum, m->count);
	}
}

/* A count metric: its statistics and each run's count. */
static void write_count_metric(FILE *out, const struct rv_metric *m)
{
	char buf[48];
	fprintf(out, "metric %s (count):\n", m->name);
	for (int i = 0; i < RV_NCSTATS; i++) {
		fmt_count(&m->counts[i], buf, sizeof buf);
		fprintf(out, "  %-18s %s%s\n", report_view_count_stats[i], buf,
			m->counts[i].have ? "" : " (no runs)");
	}
	fprintf(out, "  %-18s", "per run");
	for (size_t k = 0; k < m->nruns; k++)
		fprintf(out, " %llu", (unsigned long long)m->run_count[k]);
	fputs(m->nruns ? "\n" : " none\n", out);
}

static void write_metric(FILE *out, const struct rv_req *r, size_t mi)
{
	/* Percentiles in rank order after the moments, max last. */
	static const int order[] = { RV_MIN, RV_MEAN, RV_STDDEV, RV_P50, RV_P90, RV_P99,
				     RV_P99_9, RV_MAX, RV_RUNS_MEAN_STDDEV };
	const struct rv_metric *m = &r->metrics[mi];
	if (m->kind == METRIC_COUNT) {
		write_count_metric(out, m);
		return;
	}
	struct units_scale sc = rv_metric_scale(m);
	fprintf(out, "metric %s:\n", m->name);
	fprintf(out, "  %-18s %llu\n", "n", (unsigned long long)m->count);
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		stat_line(out, m, &sc, order[i]);
	fprintf(out, "  %-18s %llu%s\n", "overflow", (unsigned long long)m->overflow,
		m->overflow ? " (above the histogram's range; still in min, max and mean)" : "");
	const struct rv_value *cy = m->cycles;
	if (m->count && cy[RV_MIN].have && cy[RV_MEAN].have && cy[RV_MAX].have)
		fprintf(out, "  %-18s %.0f / %.0f / %.0f cycles\n", "min/mean/max",
			cy[RV_MIN].v, cy[RV_MEAN].v, cy[RV_MAX].v);
	unsigned n = rv_req_batch_runs(r);
	if (mi == 0 && n && r->batch_mean_ns.have) {
		char a[48], b[48];
		units_fmt_ns_in(r->batch_mean_ns.v, sc, a, sizeof a);
		units_fmt_ns_in(r->batch_stddev_ns.v, sc, b, sizeof b);
		fprintf(out, "  %-18s %s (stddev %s over %u run%s; total/N, loop overhead subtracted)\n",
			"batch", a, b, n, n == 1 ? "" : "s");
	}
	write_histogram(out, m, &sc);
}

/* One line per CPU of a per-CPU series (timer-wakeup). */
static void write_series(FILE *out, const struct rv_req *r)
{
	if (r->nseries)
		fprintf(out, "metric %s per CPU:\n", r->metrics[0].name);
	for (size_t s = 0; s < r->nseries; s++) {
		const struct rv_series *sr = &r->series[s];
		char a[32] = "-", b[32] = "-", c[32] = "-", d[32] = "n/a";
		if (sr->ns[RVS_MIN].have)
			units_fmt_ns(sr->ns[RVS_MIN].v, a, sizeof a);
		if (sr->ns[RVS_MEAN].have)
			units_fmt_ns(sr->ns[RVS_MEAN].v, b, sizeof b);
		if (sr->ns[RVS_MAX].have)
			units_fmt_ns(sr->ns[RVS_MAX].v, c, sizeof c);
		if (sr->ns[RVS_P99].have)
			units_fmt_ns(sr->ns[RVS_P99].v, d, sizeof d);
		char ci[80];
		ci_text(sr->p99_ci.have ? &sr->p99_ci : NULL, NULL, ci, sizeof ci);
		fprintf(out, "  cpu%-3d n %-10llu min %-10s mean %-10s p99 %-10s max %s%s%s\n",
			sr->cpu, (unsigned long long)sr->count, a, b, d, c, ci[0] ? "; p99" : "", ci);
	}
}

/* What became of the requirement's trace, and where it is. */
static void write_trace(const struct rv_req *r, FILE *out)
{
	char buf[1300], remark[100];
	if (r->trace_note)
		fprintf(out, "%s\n", printable(r->trace_note, buf, sizeof buf));
	if (r->trace)
		fprintf(out, "trace file: %s%s\n", printable(r->trace, buf, sizeof buf),
			trace_remark(r, remark, sizeof remark));
}

/* The requirement's identity, verdict, reason, load and trace: the head of
 * its detail and of its <system-out>. */
static void write_head(const struct rv_req *r, FILE *out)
{
	char buf[640];
	fprintf(out, "%s", printable(r->id, buf, sizeof buf));
	if (r->title)
		fprintf(out, ": %s", printable(r->title, buf, sizeof buf));
	fputc('\n', out);
	fprintf(out, "probe %s, policy %s, verdict %s\n", printable(r->probe, buf, sizeof buf),
		r->policy, verdict_label_of(r->verdict, r->nlimits));
	if (r->reason)
		fprintf(out, "reason: %s\n", printable(r->reason, buf, sizeof buf));
	if (r->load)
		fprintf(out, "load: %s\n", printable(r->load, buf, sizeof buf));
	write_trace(r, out);
}

/* Runs and note of a measured requirement. */
static void write_runs(const struct rv_req *r, FILE *out)
{
	char buf[640];
	fprintf(out, "runs completed: %u\n", r->runs);
	if (r->note)
		fprintf(out, "note: %s\n", printable(r->note, buf, sizeof buf));
}

static void write_detail(const struct rv_req *r, FILE *out)
{
	write_head(r, out);
	if (!r->measured) {
		fprintf(out, "no measurements\n");
		return;
	}
	write_runs(r, out);
	for (size_t i = 0; i < r->nmetrics; i++)
		write_metric(out, r, i);
	write_series(out, r);
}

void report_write_result_detail(const struct req_result *r, FILE *out)
{
	struct rv_req vr;
	locale_t old_loc = numfmt_c_enter();
	if (report_view_req_from_result(r, &vr) != 0)
		fprintf(out, "(cannot print the statistics: %s)\n", strerror(ENOMEM));
	else
		write_detail(&vr, out);
	numfmt_c_leave(old_loc);
	report_view_req_free(&vr);
}

/* ---- junit.xml's <system-out> ------------------------------------------ */

/* "limit per-op mean <= 50 us: PASS, mean 1.369 us <= 50 us (n=3000)": the
 * judge's sentence, or the measured value when it has none. */
static void brief_limits(const struct rv_req *r, FILE *out)
{
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct rv_limit *l = &r->limits[i];
		char lim[200], got[48], text[640];
		limit_text(l, lim, sizeof lim);
		measured_text(l, got, sizeof got);
		fprintf(out, "limit %s: %s, %s%s\n", lim, verdict_label(l->verdict),
			l->text ? "" : "measured ",
			l->text ? printable(l->text, text, sizeof text) : got);
	}
}

/* One line of the key statistics of a metric, those junit.xml's property
 * of the metric holds. */
static void brief_metric(const struct rv_metric *m, FILE *out)
{
	char buf[48];
	if (m->kind == METRIC_COUNT) {
		fprintf(out, "metric %s (count): %llu run%s", m->name, (unsigned long long)m->count,
			m->count == 1 ? "" : "s");
		for (int i = 0; i < RV_NCSTATS; i++) {
			fmt_count(&m->counts[i], buf, sizeof buf);
			fprintf(out, ", %s %s", report_view_count_stats[i], buf);
		}
		fputc('\n', out);
		return;
	}
	fprintf(out, "metric %s: n %llu", m->name, (unsigned long long)m->count);
	for (int i = 0; i < RV_NKEY_STATS; i++) {
		int k = report_view_key_stats[i];
		fmt_value_ns(&m->ns[k], buf, sizeof buf);
		fprintf(out, ", %s %s", report_view_stats[k], buf);
	}
	fprintf(out, ", overflow %llu\n", (unsigned long long)m->overflow);
}

void report_write_req_brief(const struct rv_req *r, FILE *out)
{
	locale_t old_loc = numfmt_c_enter();
	write_head(r, out);
	brief_limits(r, out);
	if (r->measured) {
		write_runs(r, out);
		for (size_t i = 0; i < r->nmetrics; i++)
			brief_metric(&r->metrics[i], out);
		fprintf(out, "histograms and per-run figures: in results.json\n");
	}
	numfmt_c_leave(old_loc);
}
