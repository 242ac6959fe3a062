/* SPDX-License-Identifier: Apache-2.0 */
/* lava.c - results for LAVA, in the form the Linaro test definitions hand
 * to lava-test-case: one line per test case, "<name> <result>" with an
 * optional "<measurement> <units>".
 *
 * For each requirement, in file order: a line per limit
 *   <ID>-<metric>-<statistic> <pass|fail|skip> [<value> <unit>]
 * then the requirement's own line
 *   <ID> <pass|fail|skip>
 * The first line, "# rtconform <version> (commit <commit>)", names the
 * build that measured (the run's rtconform.version and rtconform.commit).
 * LAVA knows pass, fail, skip and unknown; a requirement that could not be
 * measured (error) is fail, never pass, and the reason is a line of its own
 * beginning "# " (the test definition prints those to the job's log and
 * gives them to nobody), with every control character of it (C0, DEL, C1,
 * U+2028, U+2029) and invalid UTF-8 escaped as base/termsafe.h does
 * ("\x1b", "\u0085"), so it stays one line and drives no terminal. A
 * duration is in us (four decimals), a cycle count in cycles, a count in
 * count: always the same unit for the same line, so LAVA's charts of a
 * test case over many jobs compare like with like. A limit whose
 * statistic could not be computed has no value, and in a requirement
 * judged on its other limits its reason follows it on a "# " line. Names keep letters,
 * digits, '.', '_' and '-'; anything else (a space, which would split the
 * line) is '_'; an empty part (id, file name, metric, statistic) is "_"
 * and a '-' a part begins with is '_', so no name is empty or begins with
 * '-'. With more than one requirements file each name begins
 * "<file name>." so that ids repeated across files stay apart. A limit in
 * cycles has "-cycles" after its statistic; a name that would repeat one
 * given out before in the run gets "-2", "-3", ...: every line is one test
 * case.
 */
#include "reports/report.h"
#include "base/strhash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"

/* A part of a name (file name, id, metric, statistic) with every
 * character LAVA would choke on made '_'; an empty part is "_" and a '-'
 * it begins with is '_', so no name is empty (run.sh would take its
 * result for the name) or begins with '-' (an option to whatever is
 * handed it). */
static void put_name(FILE *out, const char *name)
{
	bool first = true;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p >= 0x80 && *p < 0xc0)
			continue; /* one '_' for a UTF-8 character, at its first byte */
		bool keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
			    (*p == '-' && !first);
		fputc(keep ? *p : '_', out);
		first = false;
	}
	if (first)
		fputc('_', out);
}

/* The LAVA result of a verdict: error is fail, and so is inconclusive
 * (LAVA has no word for "not decided"; the comment line before it says
 * which it was: docs/reports.md). */
static const char *lava_result(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS:
		return "pass";
	case VERDICT_SKIPPED:
		return "skip";
	case VERDICT_FAIL:
	case VERDICT_ERROR:
	case VERDICT_INCONCLUSIVE:
		break;
	}
	return "fail";
}

/* The names given out so far in one render (every line's name is unique),
 * and for each base name the suffix to try next. */
struct names {
	char **v;
	size_t n, cap;
	struct strhash used, next;
};

/* The first of name-k, name-(k+1), ... (name itself for k 1) that no line
 * has, malloc'd, with *k its suffix; NULL when out of memory. */
static char *first_free(const struct names *ns, const char *base, size_t *k)
{
	for (;; ++*k) {
		char *name;
		if (*k == 1)
			name = strdup(base);
		else if (asprintf(&name, "%s-%zu", base, *k) < 0)
			name = NULL;
		if (!name || !strhash_get(&ns->used, name))
			return name;
		free(name);
	}
}

/* base (which it takes) if no line has it yet, else base-2, base-3, ...;
 * kept in ns, which owns it. NULL when out of memory. Suffixes of one base
 * go on from where the last one stopped: thousands of lines of one name
 * cost no scan of those before. */
static const char *name_unique(struct names *ns, char *base)
{
	if (base && ns->n == ns->cap) {
		char **v = reallocarray(ns->v, ns->cap * 2 + 16, sizeof *v);
		if (v) {
			ns->v = v;
			ns->cap = ns->cap * 2 + 16;
		}
	}
	if (!base || ns->n == ns->cap) {
		free(base);
		return NULL;
	}
	const size_t *next = strhash_get(&ns->next, base);
	size_t k = next ? *next : 1;
	char *name = first_free(ns, base, &k);
	if (name && (strhash_put(&ns->used, name, 0) || strhash_put(&ns->next, base, k + 1))) {
		free(name);
		name = NULL;
	}
	free(base);
	return name ? (ns->v[ns->n++] = name) : NULL;
}

/* The requirement's name, "<file>.<ID>" when several files, else "<ID>";
 * with l, the limit's: "-<metric>-<statistic>", "-cycles" after it for a
 * limit in cycles, so the name says its unit. Malloc'd, NULL on ENOMEM. */
static char *base_name(const struct report_view *v, const struct rv_file *f,
		       const struct rv_req *r, const struct rv_limit *l)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		return NULL;
	if (v->nfiles > 1) {
		put_name(out, f->name);
		fputc('.', out);
	}
	put_name(out, r->id);
	if (l) {
		fputc('-', out);
		put_name(out, l->metric);
		fputc('-', out);
		put_name(out, l->statistic);
		if (rv_limit_unit(l) == QTY_CYCLES)
			fputs("-cycles", out);
	}
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static void limit_line(FILE *out, const char *name, const struct rv_limit *l)
{
	fprintf(out, "%s %s", name, lava_result(l->verdict));
	if (l->measured.have) {
		/* us to 0.1 ns: the instruments' own overheads are a few ns. */
		enum qty_unit u = rv_limit_unit(l);
		if (u == QTY_NS)
			fprintf(out, " %.4f us", l->measured.v / 1000.0);
		else
			fprintf(out, " %.3f %s", l->measured.v, u == QTY_CYCLES ? "cycles" : "count");
	}
	fputc('\n', out);
}

/* s on the current line, escaped as everything rtconform prints for a
 * person (base/termsafe.h: C0, DEL, C1, U+2028, U+2029, invalid UTF-8),
 * so a "# " line never ends early and hands the rest to lava-test-case,
 * and drives neither the terminal nor the job log's viewer. false when
 * out of memory. */
static bool put_on_line(FILE *out, const char *s)
{
	char *safe = termsafe_escape_dup(s);
	if (safe)
		fputs(safe, out);
	free(safe);
	return safe != NULL;
}

/* A requirement's lines: a line per limit, "# <name>: <verdict>: <reason>"
 * on one line for an error or a skip, then its own. */
static int req_lines(FILE *out, struct names *ns, const struct report_view *v,
		     const struct rv_file *f, const struct rv_req *r)
{
	const char *name = name_unique(ns, base_name(v, f, r, NULL));
	if (!name)
		return -ENOMEM;
	for (size_t k = 0; k < r->nlimits; k++) {
		const char *ln = name_unique(ns, base_name(v, f, r, &r->limits[k]));
		if (!ln)
			return -ENOMEM;
		limit_line(out, ln, &r->limits[k]);
		/* A limit that could not be judged in a requirement judged on
		 * the others: why, beside it. */
		const struct rv_limit *l = &r->limits[k];
		if (r->verdict != VERDICT_ERROR && (l->verdict == VERDICT_ERROR ||
						    l->verdict == VERDICT_INCONCLUSIVE) && l->text) {
			fprintf(out, "# %s: %s: ", ln, verdict_name(l->verdict));
			if (!put_on_line(out, l->text))
				return -ENOMEM;
			fputc('\n', out);
		}
	}
	if (r->reason && (r->verdict == VERDICT_ERROR || r->verdict == VERDICT_SKIPPED)) {
		fprintf(out, "# %s: %s: ", name, verdict_name(r->verdict));
		if (!put_on_line(out, r->reason))
			return -ENOMEM;
		fputc('\n', out);
	}
	fprintf(out, "%s %s\n", name, lava_result(r->verdict));
	return 0;
}

/* "# rtconform <version> (commit <commit>)": the build that measured. */
static int build_line(FILE *out, const struct report_view *v)
{
	const char *ver = fingerprint_get(&v->env, "rtconform.version");
	const char *commit = fingerprint_get(&v->env, "rtconform.commit");
	fputs("# rtconform ", out);
	bool ok = put_on_line(out, ver ? ver : "unknown");
	fputs(" (commit ", out);
	ok = put_on_line(out, commit ? commit : "not recorded") && ok;
	fputs(")\n", out);
	return ok ? 0 : -ENOMEM;
}

/* The LAVA lines of v (report.h), malloc'd, for report_render_write. */
static char *report_lava_render(const struct report_view *v, size_t *len, char *why,
				size_t whylen)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);
	if (!out) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	struct names ns = {0};
	int rc = 0;
	locale_t old = numfmt_c_enter();
	rc = build_line(out, v);
	for (size_t fi = 0; fi < v->nfiles && !rc; fi++)
		for (size_t i = 0; i < v->files[fi].nreqs && !rc; i++)
			rc = req_lines(out, &ns, v, &v->files[fi], &v->files[fi].reqs[i]);
	numfmt_c_leave(old);
	for (size_t i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
	strhash_free(&ns.used);
	strhash_free(&ns.next);
	if (fclose(out) != 0 || rc) {
		free(text);
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return NULL;
	}
	return text;
}

int report_write_lava(const struct report_view *v, const char *path, char *err, size_t errlen)
{
	return report_render_write(report_lava_render, "the LAVA results", v, path, err, errlen);
}
