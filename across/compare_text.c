/* SPDX-License-Identifier: Apache-2.0 */
/* compare_text.c - the text reports of `rtconform compare` (compare.h):
 * the table (stdout and compare.txt) and junit.xml (one testcase per
 * figure). Rendered from the comparison alone; compare.html is
 * compare_html.c's. */
#include "across/compare.h"
#include "base/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "base/units.h"
#include "harness/verdict.h"
#include "reports/junit.h"
#include "reports/link.h"
#include "reports/xmlw.h"

/* "+26.0%", or the difference itself from a zero baseline. */
static void fmt_change(const struct cmp_figure *f, char *buf, size_t len)
{
	double d = f->cand - f->base;
	if (f->base != 0) {
		utf8_snprintf(buf, len, "%+.1f%%", 100.0 * d / fabs(f->base));
		return;
	}
	char v[48];
	units_fmt_qty(&(struct quantity){ fabs(d), f->unit }, v, sizeof v);
	utf8_snprintf(buf, len, "%s%s", d < 0 ? "-" : "+", v);
}

void cmp_row_text(const struct cmp_figure *f, struct cmp_row_text *t)
{
	if (f->verdict_row || f->changed_row) { /* the two verdicts; no tolerance here */
		utf8_snprintf(t->base, sizeof t->base, "%s", verdict_name(f->vbase));
		utf8_snprintf(t->cand, sizeof t->cand, "%s", verdict_name(f->vcand));
		strcpy(t->change, "-");
		strcpy(t->allowed, "-");
		strcpy(t->interval, "-");
		return;
	}
	if (f->missing_row) { /* the baseline's verdict; the candidate has none */
		utf8_snprintf(t->base, sizeof t->base, "%s", verdict_name(f->vbase));
		strcpy(t->cand, "missing");
		strcpy(t->change, "-");
		strcpy(t->allowed, "-");
		strcpy(t->interval, "-");
		return;
	}
	bool values = f->mc && (f->outcome != CMP_NOT_COMPARED || f->allowed > 0);
	if (!values) {
		strcpy(t->base, "-");
		strcpy(t->cand, "-");
		strcpy(t->change, "-");
		strcpy(t->allowed, "-");
		strcpy(t->interval, "-");
		return;
	}
	if (f->tested)
		utf8_snprintf(t->interval, sizeof t->interval, "x%.3g..x%.3g", f->iv.lo, f->iv.hi);
	else
		strcpy(t->interval, "-");
	units_fmt_qty(&(struct quantity){ f->base, f->unit }, t->base, sizeof t->base);
	units_fmt_qty(&(struct quantity){ f->cand, f->unit }, t->cand, sizeof t->cand);
	fmt_change(f, t->change, sizeof t->change);
	char a[60];
	units_fmt_qty(&(struct quantity){ f->allowed, f->unit }, a, sizeof a);
	utf8_snprintf(t->allowed, sizeof t->allowed, "%s%s", f->lower_is_worse ? "-" : "+", a);
}

void cmp_rule_text(const struct cmp_result *r, char *buf, size_t len)
{
	double t = r->opts.tolerance;
	utf8_snprintf(buf, len,
		 "Mean and max are the typical run's (the median over runs of each run's mean and "
		 "largest sample). Each figure is decided from the %g%% interval of the ratio "
		 "candidate / baseline of its per-run values (Welch's t on their logarithms, "
		 "trimmed for tail figures): the "
		 "same when it lies inside the tolerance (x%.3g..x%.3g, %g%%), worse when it lies "
		 "wholly above it, better when wholly below it, INCONCLUSIVE when it straddles an "
		 "end of it, which %s. (limited): a limit of the requirement is on that statistic. "
		 "A requirement's verdict is compared too, whatever its figures say: pass -> fail, "
		 "pass -> error and fail -> error are worse (a regression), and so are pass -> "
		 "inconclusive and inconclusive -> fail; the reverse better. A requirement whose "
		 "limits, parameters, policy, CPU, load or sample plan differ is CHANGED, its "
		 "verdicts not compared, which %s; docs/fleet.md.",
		 100.0 * (1.0 - r->opts.significance), 1.0 / (1.0 + t), 1.0 + t, 100.0 * t,
		 r->opts.allow_inconclusive ? "--allow-inconclusive lets pass"
					    : "fails the comparison as worse does unless its "
					      "one-sided bound at the same level rules worse out "
					      "(inconclusive (not worse): it passes)",
		 r->opts.allow_changed ? "--allow-changed lets pass"
				       : "fails the comparison unless --allow-changed");
}

/* What exit status 1 or 0 means here: every reason that applies, the
 * figures' first. */
static void status_meaning(const struct cmp_result *r, char *buf, size_t len)
{
	const char *why[4];
	size_t n = 0;
	if (r->worse)
		why[n++] = "a figure is worse than the baseline";
	else if (r->inconclusive_worse && !r->opts.allow_inconclusive)
		why[n++] = "a figure is inconclusive: the runs cannot tell whether it is worse";
	if (r->verdicts_worse)
		why[n++] = "a requirement's verdict is worse than the baseline's";
	if (r->missing && !r->opts.allow_missing)
		why[n++] = "a requirement the baseline measured is missing from the candidate";
	if (r->changed && !r->opts.allow_changed)
		why[n++] = "a requirement changed between the runs (its limits or how it is "
			   "measured; --allow-changed lets it pass)";
	if (!n) {
		const char *what[3];
		size_t k = 0;
		if (r->inconclusive_worse)
			what[k++] = "inconclusive figures";
		if (r->missing)
			what[k++] = "missing requirements";
		if (r->changed)
			what[k++] = "changed requirements";
		utf8_snprintf(buf, len, "no figure is worse than the baseline, nor any verdict%s%s%s%s"
			      "%s%s%s", k ? " (" : "", k ? what[0] : "", k > 1 ? " and " : "",
			      k > 1 ? what[1] : "", k > 2 ? " and " : "", k > 2 ? what[2] : "",
			      k ? " allowed)" : "");
		return;
	}
	size_t o = 0;
	for (size_t i = 0; i < n && o < len; i++) {
		int k = utf8_snprintf(buf + o, len - o, "%s%s", i ? ", and " : "", why[i]);
		o += k > 0 ? (size_t)k : 0;
	}
}

/* ", and N requirements missing from the candidate" when there are any
 * ("" else, so a run that left nothing out reads as before). */
static void missing_text(const struct cmp_result *r, char *buf, size_t len)
{
	buf[0] = 0;
	size_t o = 0;
	if (r->missing)
		o = (size_t)utf8_snprintf(buf, len, ", and %zu requirement%s missing from the "
					  "candidate%s", r->missing, r->missing == 1 ? "" : "s",
					  r->opts.allow_missing ? " (allowed)" : "");
	if (r->changed && o < len)
		utf8_snprintf(buf + o, len - o, ", and %zu requirement%s changed%s", r->changed,
			      r->changed == 1 ? "" : "s", r->opts.allow_changed ? " (allowed)" : "");
}

/* The closing line: the counts of figures and of verdicts, the rule's
 * settings, the exit status. */
static void totals_line(const struct cmp_result *r, FILE *out)
{
	int status = cmp_exit_status(r);
	size_t figures = r->n - r->verdicts_worse - r->verdicts_better - r->missing - r->changed;
	char meaning[600], missing[240];
	status_meaning(r, meaning, sizeof meaning);
	missing_text(r, missing, sizeof missing);
	size_t verdicts = r->verdicts_worse + r->verdicts_better + r->verdicts_same;
	char notworse[64] = "";
	if (r->inconclusive > r->inconclusive_worse)
		utf8_snprintf(notworse, sizeof notworse, " (%zu not worse)",
			      r->inconclusive - r->inconclusive_worse);
	fprintf(out, "%zu figure%s: %zu worse, %zu inconclusive%s, %zu better, %zu same, "
		     "%zu not compared, and %zu verdict%s: %zu worse, %zu better, %zu unchanged%s "
		     "(tolerance %g%%, interval %g%%%s); exit status %d: %s\n",
		figures, figures == 1 ? "" : "s", r->worse, r->inconclusive, notworse, r->better,
		r->same,
		r->not_compared, verdicts, verdicts == 1 ? "" : "s", r->verdicts_worse,
		r->verdicts_better, r->verdicts_same, missing, 100.0 * r->opts.tolerance,
		100.0 * (1.0 - r->opts.significance),
		r->opts.allow_inconclusive ? ", inconclusive allowed" : "",
		status, meaning);
}

char *cmp_render_text(const struct cmp_result *r, size_t *len)
{
	char *data = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&data, &n);
	if (!out)
		return NULL;
	locale_t old = numfmt_c_enter();
	char hb[400], hc[400];
	fingerprint_host_title(&r->base->env, hb, sizeof hb);
	fingerprint_host_title(&r->cand->env, hc, sizeof hc);
	termsafe_println(out, "baseline:  %s (%s)", r->base_path ? r->base_path : "-", hb);
	termsafe_println(out, "candidate: %s (%s)", r->cand_path ? r->cand_path : "-", hc);
	char rule[1200];
	cmp_rule_text(r, rule, sizeof rule);
	fprintf(out, "%s\n", rule);
	fprintf(out, "\n%-24s %-14s %-8s %14s %14s %9s %14s %16s  %s\n", "requirement", "metric",
		"stat", "baseline", "candidate", "change", "allowed", "interval", "outcome");
	for (size_t i = 0; i < r->n; i++) {
		const struct cmp_figure *f = &r->f[i];
		struct cmp_row_text t;
		char id[80], metric[64];
		cmp_row_text(f, &t);
		termsafe_escape(f->id, id, sizeof id);
		termsafe_escape(f->metric, metric, sizeof metric);
		fprintf(out, "%-24s %-14s %-8s %14s %14s %9s %14s %16s  %s%s\n", id, metric,
			f->statistic, t.base, t.cand, t.change, t.allowed, t.interval,
			cmp_figure_outcome(f), f->limited ? " (limited)" : "");
		if (f->note)
			termsafe_println(out, "%-24s   %s", "", f->note);
	}
	if (r->nnotes)
		fputc('\n', out);
	for (size_t i = 0; i < r->nnotes; i++)
		termsafe_println(out, "note: %s", r->notes[i]);
	fputc('\n', out);
	totals_line(r, out);
	numfmt_c_leave(old);
	if (fclose(out) != 0) {
		free(data);
		return NULL;
	}
	*len = n;
	return data;
}

/* ---- junit.xml ----------------------------------------------------------- */

/* The sentence of a figure: "mean 1.27 us -> 1.60 us (+26.0%), allowed +317 ns". */
void cmp_figure_sentence(const struct cmp_figure *f, char *buf, size_t len)
{
	struct cmp_row_text t;
	cmp_row_text(f, &t);
	if (f->verdict_row || f->changed_row)
		utf8_snprintf(buf, len, "verdict %s -> %s%s%s: %s", t.base, t.cand, f->note ? ", " : "",
			      f->note ? f->note : "", cmp_outcome_name(f->outcome));
	else if (f->missing_row)
		utf8_snprintf(buf, len, "%s: %s", f->note ? f->note : "missing from the candidate",
			      cmp_outcome_name(f->outcome));
	else if (f->metric[0] == '-')
		utf8_snprintf(buf, len, "%s", f->note ? f->note : cmp_outcome_name(f->outcome));
	else if (!f->mc) /* a metric only the baseline has */
		utf8_snprintf(buf, len, "%s: %s", f->note ? f->note : f->metric,
			      cmp_outcome_name(f->outcome));
	else if (f->outcome == CMP_NOT_COMPARED)
		utf8_snprintf(buf, len, "%s %s: %s", f->metric, f->statistic, f->note ? f->note : "");
	else
		utf8_snprintf(buf, len, "%s %s %s -> %s (%s), allowed %s, interval %s: %s", f->metric,
			 f->statistic, t.base, t.cand, t.change, t.allowed, t.interval,
			 cmp_figure_outcome(f));
}

/* A figure's testcase: a failure when it is worse, or inconclusive and
 * not allowed (a type of its own); skipped when not compared or allowed. */
static void junit_case(struct xw *x, const struct cmp_result *r, const struct cmp_figure *f)
{
	char sentence[1200];
	cmp_figure_sentence(f, sentence, sizeof sentence);
	char *name = NULL, *classname = NULL;
	int n;
	if (f->verdict_row || f->changed_row)
		n = asprintf(&name, "%s verdict", f->id);
	else if (f->metric[0] == '-')
		n = asprintf(&name, "%s", f->id);
	else if (!f->mc)
		n = asprintf(&name, "%s %s", f->id, f->metric);
	else
		n = asprintf(&name, "%s %s %s%s", f->id, f->metric, f->statistic,
			     f->unit == QTY_CYCLES ? " (cycles)" : "");
	if (n < 0)
		name = NULL;
	if (!name || asprintf(&classname, "compare.%s",
			      f->file && f->file[0] ? f->file : "rtconform") < 0) {
		free(name);
		x->failed = true;
		return;
	}
	junit_case_begin(x, name, classname, 0);
	free(name);
	free(classname);
	/* an inconclusive figure that cannot be worse passes, as a same one does */
	bool inconclusive = f->outcome == CMP_INCONCLUSIVE && f->may_be_worse;
	bool changed = f->outcome == CMP_CHANGED;
	if (f->outcome == CMP_WORSE || (inconclusive && !r->opts.allow_inconclusive) ||
	    (changed && !r->opts.allow_changed)) {
		junit_failure(x, inconclusive ? "Inconclusive" : changed ? "Changed" : "Regression",
			      sentence);
	} else if (f->outcome == CMP_NOT_COMPARED || inconclusive || changed) {
		junit_skipped(x, sentence);
	}
	report_junit_system_out(x, f->note && f->outcome != CMP_NOT_COMPARED ? f->note : sentence,
				NULL, NULL);
	junit_case_end(x);
}

static void junit_document(struct xw *x, const void *arg)
{
	const struct cmp_result *r = arg;
	char hb[400], hc[400], tol[32], sig[32];
	fingerprint_host_title(&r->base->env, hb, sizeof hb);
	fingerprint_host_title(&r->cand->env, hc, sizeof hc);
	utf8_snprintf(tol, sizeof tol, "%g", r->opts.tolerance);
	utf8_snprintf(sig, sizeof sig, "%g", r->opts.significance);
	size_t allowed = r->opts.allow_inconclusive ? r->inconclusive_worse : 0;
	size_t missing = r->opts.allow_missing ? 0 : r->missing;
	size_t changed = r->opts.allow_changed ? 0 : r->changed;
	size_t failures = r->verdicts_worse + r->worse + r->inconclusive_worse - allowed + missing +
			  changed;
	const struct junit_counts c = { r->n, failures, 0,
					r->not_compared + allowed + r->missing - missing + r->changed -
						changed, 0 };
	junit_begin(x, "rtconform compare", &c);
	const struct junit_suite suite = { "compare", c, NULL, NULL, 0, "compare" };
	junit_suite_begin(x, &suite);
	junit_prop(x, "compare.baseline", r->base_path);
	junit_prop(x, "compare.baseline.host", hb);
	junit_prop(x, "compare.candidate", r->cand_path);
	junit_prop(x, "compare.candidate.host", hc);
	junit_prop(x, "compare.tolerance", tol);
	junit_prop(x, "compare.test", "interval of the candidate/baseline ratio of the per-run "
		   "values: Welch's t on their logarithms (Yuen's trimmed t for tail figures), "
		   "at 1 - significance");
	junit_prop(x, "compare.significance", sig);
	junit_prop(x, "compare.inconclusive", r->opts.allow_inconclusive ? "allowed" : "fails");
	junit_prop(x, "compare.changed", r->opts.allow_changed ? "allowed" : "fails");
	junit_prop(x, "rtconform.version", fingerprint_get(&r->cand->env, "rtconform.version"));
	for (size_t i = 0; i < r->nnotes; i++) {
		char name[48];
		utf8_snprintf(name, sizeof name, "compare.note.%zu", i + 1);
		junit_prop(x, name, r->notes[i]);
	}
	junit_props_end(x);
	for (size_t i = 0; i < r->n; i++)
		junit_case(x, r, &r->f[i]);
	junit_suite_end(x);
	junit_end(x);
}

/* A junit.xml: no text of the inputs (ids, notes) becomes an attachment
 * marker (xw_render_junit). */
char *cmp_render_junit(const struct cmp_result *r, size_t *len)
{
	return xw_render_junit(junit_document, r, len, NULL, 0);
}

