/* SPDX-License-Identifier: Apache-2.0 */
/* test_csv.c - the CSV export (reports/csv.c) of the synthetic run of
 * report_fixture.h.
 *
 * Each histogram file has the header and one row per bucket of its metric in
 * the view, its bounds the buckets' times ns_per_unit, and its counts add up
 * to the metric's samples (overflow included, in a last row); index.csv
 * names every one; runs.csv has a line per run of every metric and of the
 * batch figure, when there is one. File names stay safe and distinct for any id; text fields
 * are quoted so a CSV reader gets them back; a view without buckets makes no
 * file; the same view read back from results.json makes the same bytes.
 */
#include "report_fixture.h"

#include "base/numfmt.h"
#include "reports/csv.h"

/* ---- a small RFC 4180 reader ------------------------------------------- */

#define MAX_FIELDS 20

struct row {
	char *f[MAX_FIELDS];
	int n;
};

/* The next record of *p into r (fields malloc'd), *p moved past it. False
 * at the end of the text. */
static bool next_row(const char **p, struct row *r)
{
	const char *s = *p;
	r->n = 0;
	if (!*s)
		return false;
	for (;;) {
		ck_assert_int_lt(r->n, MAX_FIELDS);
		size_t cap = strlen(s) + 1, n = 0;
		char *out = malloc(cap);
		ck_assert_ptr_nonnull(out);
		if (*s == '"') {
			for (s++;; s++) {
				ck_assert_msg(*s, "unterminated quoted field");
				if (*s == '"' && s[1] == '"')
					out[n++] = *s++;
				else if (*s == '"')
					break;
				else
					out[n++] = *s;
			}
			s++;
		} else {
			while (*s && *s != ',' && *s != '\n') {
				ck_assert_msg(*s != '"' && *s != '\r', "bare quote or CR in a field");
				out[n++] = *s++;
			}
		}
		out[n] = '\0';
		r->f[r->n++] = out;
		if (*s == ',') {
			s++;
			continue;
		}
		ck_assert_msg(*s == '\n', "a record must end in LF, not '%c'", *s);
		*p = s + 1;
		return true;
	}
}

static void free_row(struct row *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->f[i]);
	r->n = 0;
}

/* ---- the export --------------------------------------------------------- */

static void render(const struct report_view *v, struct report_csv *c)
{
	ck_assert_int_eq(report_csv_render(v, c), 0);
	ck_assert_uint_ge(c->nfiles, 4);
	ck_assert_str_eq(c->files[c->nfiles - 4].name, REPORT_CSV_RUNS);
	ck_assert_str_eq(c->files[c->nfiles - 3].name, REPORT_CSV_INTERVALS);
	ck_assert_str_eq(c->files[c->nfiles - 2].name, REPORT_CSV_CONFIDENCE);
	ck_assert_str_eq(c->files[c->nfiles - 1].name, REPORT_CSV_INDEX);
	for (size_t i = 0; i < c->nfiles; i++)
		ck_assert_uint_eq(strlen(c->files[i].data), c->files[i].len);
}

static const struct report_csv_file *file_named(const struct report_csv *c, const char *name)
{
	for (size_t i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i].name, name) == 0)
			return &c->files[i];
	ck_abort_msg("no CSV file %s", name);
	return NULL;
}

static const struct rv_req *req_of(const struct report_view *v, const char *id)
{
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++)
			if (strcmp(v->files[f].reqs[i].id, id) == 0)
				return &v->files[f].reqs[i];
	ck_abort_msg("no requirement %s", id);
	return NULL;
}

static const struct rv_metric *metric_of(const struct rv_req *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (strcmp(r->metrics[i].name, name) == 0)
			return &r->metrics[i];
	ck_abort_msg("%s has no metric %s", r->id, name);
	return NULL;
}

static void assert_real(const char *field, double want, const char *what)
{
	char buf[40];
	numfmt_fmt_shortest(want, buf, sizeof buf);
	ck_assert_msg(strcmp(field, buf) == 0, "%s: '%s', expected '%s'", what, field, buf);
}

/* Histogram file `name` holds metric m's buckets as the view has them, and
 * its counts add up to m's samples. */
static void assert_histogram(const struct report_csv *c, const char *name,
			     const struct rv_metric *m)
{
	const char *p = file_named(c, name)->data;
	struct row r;
	ck_assert(next_row(&p, &r));
	ck_assert_int_eq(r.n, 3);
	ck_assert_str_eq(r.f[0], "lo_ns");
	ck_assert_str_eq(r.f[1], "hi_ns");
	ck_assert_str_eq(r.f[2], "count");
	free_row(&r);
	uint64_t sum = 0;
	size_t k = 0;
	while (next_row(&p, &r)) {
		ck_assert_int_eq(r.n, 3);
		if (k < m->nbuckets) {
			const struct rv_bucket *b = &m->buckets[k];
			assert_real(r.f[0], (double)b->lo * m->ns_per_unit, name);
			assert_real(r.f[1], (double)b->hi * m->ns_per_unit, name);
			ck_assert_uint_eq(strtoull(r.f[2], NULL, 10), b->count);
		} else {
			ck_assert_msg(k == m->nbuckets && m->overflow, "%s: a row too many", name);
			assert_real(r.f[0], ((double)m->highest + 1) * m->ns_per_unit, name);
			assert_real(r.f[1], m->ns[RV_MAX].v, name);
			ck_assert_uint_eq(strtoull(r.f[2], NULL, 10), m->overflow);
		}
		sum += strtoull(r.f[2], NULL, 10);
		k++;
		free_row(&r);
	}
	ck_assert_uint_eq(k, m->nbuckets + (m->overflow ? 1 : 0));
	ck_assert_uint_eq(sum, m->count);
}

START_TEST(histograms_are_the_views_buckets)
{
	struct fx *x = fx_new();
	struct report_view v;
	struct report_csv c;
	fx_view(x, &v);
	/* Five samples above the histogram's range, as a run records them. */
	struct rv_metric *wk = (struct rv_metric *)metric_of(req_of(&v, "SEM-OK"), "wakeup");
	wk->overflow = 5;
	wk->count += 5;
	render(&v, &c);
	const char *want[] = { "SEM-RT.per-op.csv", "SEM-RT.wakeup.csv", "SEM-OK.per-op.csv",
			       "SEM-OK.wakeup.csv", "NOS.per-op.csv", "NOS.wakeup.csv",
			       "B-1.per-op.csv", "B-1.wakeup.csv" };
	size_t nwant = sizeof want / sizeof want[0];
	/* no count metric, TMR or SKP; B-1's two CPUs; runs.csv, intervals.csv,
	 * confidence.csv, index.csv */
	ck_assert_uint_eq(c.nfiles, nwant + 2 + 4);
	ck_assert_uint_eq(c.no_histogram, 0);
	for (size_t i = 0; i < nwant; i++) {
		ck_assert_str_eq(c.files[i].name, want[i]);
		char id[16], metric[16];
		ck_assert_int_eq(sscanf(want[i], "%15[^.].%15[^.]", id, metric), 2);
		const struct rv_metric *m = metric_of(req_of(&v, id), metric);
		assert_histogram(&c, want[i], m);
		if (strcmp(id, "NOS") != 0)
			ck_assert_uint_gt(m->nbuckets, 2);
	}
	ck_assert_uint_eq(metric_of(req_of(&v, "SEM-RT"), "per-op")->count, 4000);
	ck_assert_str_eq(file_named(&c, "NOS.per-op.csv")->data, "lo_ns,hi_ns,count\n");

	/* index.csv: one line per histogram file, in the same order. */
	const char *p = file_named(&c, REPORT_CSV_INDEX)->data;
	struct row r;
	ck_assert(next_row(&p, &r));
	ck_assert_int_eq(r.n, 6);
	ck_assert_str_eq(r.f[0], "csv");
	ck_assert_str_eq(r.f[5], "overflow");
	free_row(&r);
	for (size_t i = 0; i < nwant; i++) {
		ck_assert(next_row(&p, &r));
		ck_assert_str_eq(r.f[0], want[i]);
		ck_assert_str_eq(r.f[1], i < 6 ? "spy-memo" : "extra.xml");
		const struct rv_metric *m = metric_of(req_of(&v, r.f[2]), r.f[3]);
		ck_assert_uint_eq(strtoull(r.f[4], NULL, 10), m->count);
		ck_assert_uint_eq(strtoull(r.f[5], NULL, 10), m->overflow);
		free_row(&r);
	}
	/* then B-1's per-CPU series, as metric per-op.cpu<N> */
	const struct rv_req *b1 = req_of(&v, "B-1");
	ck_assert_uint_eq(b1->nseries, 2);
	for (size_t i = 0; i < b1->nseries; i++) {
		const struct rv_series *sr = &b1->series[i];
		char name[64], metric[32];
		snprintf(metric, sizeof metric, "per-op.cpu%d", sr->cpu);
		snprintf(name, sizeof name, "B-1.%s.csv", metric);
		ck_assert_str_eq(c.files[nwant + i].name, name);
		struct rv_metric as_metric = { .buckets = sr->buckets, .nbuckets = sr->nbuckets,
					       .count = sr->count, .overflow = sr->overflow,
					       .highest = sr->highest,
					       .ns_per_unit = b1->metrics[0].ns_per_unit };
		as_metric.ns[RV_MAX] = sr->ns[RVS_MAX];
		ck_assert_uint_gt(sr->count, 0);
		assert_histogram(&c, name, &as_metric);
		ck_assert(next_row(&p, &r));
		ck_assert_str_eq(r.f[0], name);
		ck_assert_str_eq(r.f[3], metric);
		ck_assert_uint_eq(strtoull(r.f[4], NULL, 10), sr->count);
		free_row(&r);
	}
	ck_assert(!next_row(&p, &r));
	report_csv_free(&c);
	ck_assert_ptr_null(c.files);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* runs.csv: the batch figure, each duration metric's samples, mean and max,
 * each count metric's count, a line per run, as the view has them; no batch line
 * for a requirement without a batch figure (timer-wakeup counts no
 * iterations), an empty field for a run without one; reals in the fewest
 * digits that read back. */
START_TEST(runs_are_the_views_runs)
{
	struct fx *x = fx_new();
	struct report_view v;
	struct report_csv c;
	fx_view(x, &v);
	struct rv_req *b1 = (struct rv_req *)req_of(&v, "B-1");
	struct rv_req *ok = (struct rv_req *)req_of(&v, "SEM-OK");
	for (uint32_t k = 0; k < b1->runs; k++)
		b1->batch_run_ns[k].have = false;
	ok->batch_run_ns[1].have = false;
	/* "%.17g" would give 28252.362499999999 */
	((struct rv_metric *)metric_of(req_of(&v, "SEM-RT"), "per-op"))->run_mean_ns[0].v =
		28252.3625;
	render(&v, &c);
	const char *p = file_named(&c, REPORT_CSV_RUNS)->data;
	struct row r;
	ck_assert(next_row(&p, &r));
	const char *head[] = { "file", "requirement", "metric", "kind", "run", "samples",
			       "mean_ns", "count", "max_ns" };
	ck_assert_int_eq(r.n, 9);
	for (int i = 0; i < 9; i++)
		ck_assert_str_eq(r.f[i], head[i]);
	free_row(&r);
	size_t lines = 0, want_lines = 0, sem_rt = 0, b1_batch = 0, ok_batch = 0, ok_empty = 0;
	bool shortest = false;
	size_t maxima = 0; /* duration lines with a max */
	while (next_row(&p, &r)) {
		ck_assert_int_eq(r.n, 9);
		const struct rv_req *q = req_of(&v, r.f[1]);
		ck_assert(q->measured);
		size_t k = strtoul(r.f[4], NULL, 10);
		ck_assert_uint_ge(k, 1);
		if (strcmp(r.f[3], "batch") == 0) {
			ck_assert_str_eq(r.f[2], q->metrics[0].name);
			ck_assert_uint_le(k, q->runs);
			ck_assert_str_eq(r.f[5], "");
			if (q->batch_run_ns[k - 1].have)
				assert_real(r.f[6], q->batch_run_ns[k - 1].v, "batch");
			else
				ck_assert_str_eq(r.f[6], "");
			ck_assert_str_eq(r.f[8], "");
			b1_batch += q == b1;
			ok_batch += q == ok;
			ok_empty += q == ok && !r.f[6][0];
		} else {
			const struct rv_metric *m = metric_of(q, r.f[2]);
			ck_assert_uint_le(k, m->nruns);
			bool count = m->kind == METRIC_COUNT;
			ck_assert_str_eq(r.f[3], count ? "count" : "duration");
			uint64_t n = strtoull(count ? r.f[7] : r.f[5], NULL, 10);
			ck_assert_uint_eq(n, m->run_count[k - 1]);
			if (!count && m->run_mean_ns[k - 1].have)
				assert_real(r.f[6], m->run_mean_ns[k - 1].v, "run mean");
			else
				ck_assert_str_eq(r.f[6], "");
			ck_assert_str_eq(count ? r.f[5] : r.f[7], "");
			if (!count && m->run_max_ns[k - 1].have)
				assert_real(r.f[8], m->run_max_ns[k - 1].v, "run max");
			else
				ck_assert_str_eq(r.f[8], "");
			maxima += !count && r.f[8][0];
		}
		if (strcmp(r.f[1], "SEM-RT") == 0 && strcmp(r.f[2], "page-faults") == 0)
			ck_assert_uint_eq(strtoull(r.f[7], NULL, 10), 2 * (k - 1));
		sem_rt += strcmp(r.f[1], "SEM-RT") == 0;
		shortest |= strcmp(r.f[6], "28252.3625") == 0;
		lines++;
		free_row(&r);
	}
	/* a line per run of the batch figure and of each metric */
	for (size_t f = 0; f < v.nfiles; f++)
		for (size_t i = 0; i < v.files[f].nreqs; i++) {
			const struct rv_req *q = &v.files[f].reqs[i];
			if (!q->measured)
				continue;
			want_lines += q->nmetrics && q != b1 ? q->runs : 0;
			for (size_t m = 0; m < q->nmetrics; m++)
				want_lines += q->metrics[m].nruns;
		}
	ck_assert_uint_eq(lines, want_lines);
	ck_assert_uint_eq(sem_rt, 4 * (1 + 5)); /* 4 runs: batch, 2 durations, 3 counts */
	ck_assert_uint_eq(b1_batch, 0);
	ck_assert_uint_eq(ok_batch, ok->runs);
	ck_assert_uint_eq(ok_empty, 1);
	ck_assert(shortest);
	ck_assert_uint_ge(maxima, 4); /* SEM-RT's per-op in each run at least */
	report_csv_free(&c);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* Ids from a results.json may be anything: names stay in the directory,
 * visible, distinct (also ignoring case), and the fields come back whole. */
START_TEST(hostile_ids)
{
	static const char evil[] = "../x/\"=cmd\",\n\t";
	struct fx *x = fx_new();
	x->reqs[0][0].id = (char *)evil;  /* SEM-RT */
	x->reqs[0][1].id = (char *)"_._x___cmd____"; /* SEM-OK: the same safe name */
	x->reqs[1][0].id = (char *)".";   /* B-1 */
	struct report_view v;
	struct report_csv c;
	fx_view(x, &v);
	struct rv_req *nos = (struct rv_req *)req_of(&v, "NOS");
	free(nos->id);
	nos->id = strdup("_._X___CMD____"); /* only case sets it apart */
	render(&v, &c);
	for (size_t i = 0; i < c.nfiles; i++) {
		const char *n = c.files[i].name;
		ck_assert_msg(n[0] != '.' && !strchr(n, '/') && strlen(n) < 200, "unsafe name %s", n);
		for (size_t j = 0; j < i; j++)
			ck_assert_msg(strcasecmp(n, c.files[j].name) != 0, "%s twice", n);
	}
	ck_assert_str_eq(c.files[0].name, "_._x___cmd____.per-op.csv");
	ck_assert_str_eq(c.files[2].name, "_._x___cmd____.per-op~2.csv");
	ck_assert_str_eq(c.files[4].name, "_._X___CMD____.per-op~3.csv");
	ck_assert_str_eq(c.files[6].name, "_.per-op.csv");
	/* index.csv gives the id back as it was. */
	const char *p = file_named(&c, REPORT_CSV_INDEX)->data;
	struct row r;
	ck_assert(next_row(&p, &r));
	free_row(&r);
	ck_assert(next_row(&p, &r));
	ck_assert_int_eq(r.n, 6);
	ck_assert_str_eq(r.f[0], "_._x___cmd____.per-op.csv");
	/* whole, but for the ' before the tab that begins a line of it */
	ck_assert_str_eq(r.f[2], "../x/\"=cmd\",\n'\t");
	free_row(&r);
	report_csv_free(&c);

	/* a field that a spreadsheet would take for a formula gets a ' */
	free(nos->id);
	nos->id = strdup("=SUM(A1)");
	render(&v, &c);
	ck_assert_ptr_nonnull(strstr(file_named(&c, REPORT_CSV_INDEX)->data, ",\"'=SUM(A1)\","));
	ck_assert_ptr_nonnull(strstr(file_named(&c, "_SUM_A1_.per-op.csv")->data, "lo_ns"));
	report_csv_free(&c);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* Whether a spreadsheet could begin a formula anywhere in s: at its start
 * or after a ',', ';', CR or LF, past blanks and quotes, a '=', '+', '-',
 * '@', tab or CR. Applied to the bytes as written (a reader that splits
 * naively) and to the field read back (one that splits it again). */
static bool formula_piece(const char *s, const char **where)
{
	bool start = true;
	for (const char *p = s; *p; p++) {
		if (start && strchr("=+-@\t\r", *p)) {
			*where = p;
			return true;
		}
		if (*p == ',' || *p == ';' || *p == '\n' || *p == '\r')
			start = true;
		else if (*p != ' ' && *p != '"')
			start = false;
	}
	return false;
}

/* Text that a spreadsheet splitting on ',' or ';' would read as a formula,
 * and what it becomes: quoted per RFC 4180 only when needed, a ' before
 * each piece that would start one, nothing else changed. */
START_TEST(text_cells_start_no_formula)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "SEM-RT.1", "SEM-RT.1" },         /* a '-' inside is no start */
		{ "a+b@c", "a+b@c" },
		{ "a;b", "\"a;b\"" },           /* a ';' alone: quoted, nothing defused */
		{ "=SUM(A1)", "\"'=SUM(A1)\"" },
		{ "-2+3", "\"'-2+3\"" },
		{ "+1", "\"'+1\"" },
		{ "@cmd", "\"'@cmd\"" },
		{ "\tx", "\"'\tx\"" },
		{ "x;=1+1;y", "\"x;'=1+1;y\"" },   /* quoted: one cell under ';' too */
		{ "x; @y", "\"x; '@y\"" },          /* blanks do not hide a start */
		{ "a,-2", "\"a,'-2\"" },
		{ "x;\"=1\"", "\"x;\"\"'=1\"\"\"" }, /* nor does a quote */
		{ "a\r=b", "\"a\r'=b\"" },
		{ "a\n+b", "\"a\n'+b\"" },
		{ "a\r\r", "\"a\r'\r\"" },         /* a CR at a start, then a start */
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *cell = report_csv_text_cell(cases[i].in);
		ck_assert_ptr_nonnull(cell);
		ck_assert_msg(strcmp(cell, cases[i].out) == 0, "'%s' became '%s', expected '%s'",
			      cases[i].in, cell, cases[i].out);
		/* read back as one field of a record */
		char *line;
		ck_assert_int_ge(asprintf(&line, "%s\n", cell), 0);
		const char *p = line, *where;
		struct row r;
		ck_assert(next_row(&p, &r));
		ck_assert_int_eq(r.n, 1);
		ck_assert_msg(!formula_piece(r.f[0], &where), "'%s' read back starts a formula at '%s'",
			      cases[i].in, where);
		ck_assert_msg(!formula_piece(cell, &where), "'%s' as written starts a formula at '%s'",
			      cases[i].in, where);
		free_row(&r);
		free(line);
		free(cell);
	}
}
END_TEST

/* Hostile ids: every histogram file is named in index.csv exactly as it is
 * called (the name is one no neutralising changes), no name starts with
 * '-', every text cell of index.csv and runs.csv starts no formula, and
 * the numbers the tool writes, negative ones too, stay numbers. */
START_TEST(hostile_ids_index_agrees)
{
	static const char *const ids[] = { "-2+3", "x;=1+1;y", "@a", "+1" };
	struct fx *x = fx_new();
	x->reqs[0][0].id = (char *)ids[0]; /* SEM-RT */
	x->reqs[0][1].id = (char *)ids[1]; /* SEM-OK */
	x->reqs[1][0].id = (char *)ids[2]; /* B-1 */
	struct report_view v;
	struct report_csv c;
	fx_view(x, &v);
	struct rv_req *nos = (struct rv_req *)req_of(&v, "NOS");
	free(nos->id);
	nos->id = strdup(ids[3]);
	/* two samples below zero: "-12.5"-like bounds the tool writes */
	struct rv_metric *m = (struct rv_metric *)metric_of(req_of(&v, "-2+3"), "per-op");
	static struct rv_bucket below = { 10, 12, 2 };
	m->neg.buckets = &below;
	m->neg.nbuckets = 1;
	m->count += 2;
	render(&v, &c);
	ck_assert_str_eq(c.files[0].name, "_2_3.per-op.csv");
	const char *p = file_named(&c, REPORT_CSV_INDEX)->data, *where;
	struct row r;
	size_t listed = 0;
	ck_assert(next_row(&p, &r));
	free_row(&r);
	while (next_row(&p, &r)) {
		file_named(&c, r.f[0]); /* aborts when there is no such file */
		for (int k = 0; k < r.n; k++)
			ck_assert_msg(!formula_piece(r.f[k], &where), "index.csv: '%s' starts a "
				      "formula at '%s'", r.f[k], where);
		listed++;
		free_row(&r);
	}
	/* all but runs.csv, intervals.csv, confidence.csv, index.csv */
	ck_assert_uint_eq(listed, c.nfiles - 4);
	for (size_t i = 0; i + 4 < c.nfiles; i++)
		ck_assert_msg(c.files[i].name[0] != '-', "%s", c.files[i].name);
	p = file_named(&c, REPORT_CSV_RUNS)->data;
	while (next_row(&p, &r)) {
		for (int k = 0; k < 3; k++) /* file, requirement, metric */
			ck_assert_msg(!formula_piece(r.f[k], &where), "runs.csv: '%s' starts a "
				      "formula at '%s'", r.f[k], where);
		free_row(&r);
	}
	/* the bounds below zero: numbers, as the tool wrote them */
	ck_assert_ptr_nonnull(strstr(c.files[0].data, "lo_ns,hi_ns,count\n-"));
	ck_assert_ptr_null(strchr(c.files[0].data, '\''));
	m->neg.buckets = NULL;
	m->neg.nbuckets = 0;
	report_csv_free(&c);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* A view whose metric has samples but no buckets (a junit.xml that keeps no
 * histogram) gets no file for it rather than one whose counts do not add
 * up; the rest is written. */
START_TEST(no_buckets_no_file)
{
	struct fx *x = fx_new();
	struct report_view v;
	struct report_csv c;
	fx_view(x, &v);
	struct rv_metric *m = (struct rv_metric *)metric_of(req_of(&v, "SEM-RT"), "per-op");
	m->nbuckets = 0;
	render(&v, &c);
	ck_assert_uint_eq(c.no_histogram, 1);
	ck_assert_uint_eq(c.nfiles, 7 + 2 + 4);
	ck_assert_str_eq(c.files[0].name, "SEM-RT.wakeup.csv");
	ck_assert_ptr_null(strstr(file_named(&c, REPORT_CSV_INDEX)->data, "SEM-RT.per-op"));
	report_csv_free(&c);
	/* one bucket short is as incomplete */
	m->nbuckets = 1;
	render(&v, &c);
	ck_assert_uint_eq(c.no_histogram, 1);
	report_csv_free(&c);
	/* per-CPU series without their buckets (an older results.json): left
	 * out and counted, whatever their sample counts say */
	struct rv_req *b1 = (struct rv_req *)req_of(&v, "B-1");
	for (size_t i = 0; i < b1->nseries; i++)
		b1->series[i].has_hist = false;
	render(&v, &c);
	ck_assert_uint_eq(c.no_histogram, 1 + b1->nseries);
	ck_assert_ptr_null(strstr(file_named(&c, REPORT_CSV_INDEX)->data, "cpu"));
	report_csv_free(&c);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* Written into a directory: every file, atomically, the rendered bytes; the
 * same again from the results.json of the view; an unwritable directory is
 * refused naming it. */
/* Interval k of a handmade list: from FX_T0 + k s lasting 1.25 s, mean
 * 400.5 ns, k samples above the histogram's range. */
static void csv_ival(struct rv_ival *iv, int k, double max, double p99)
{
	fx_ival(iv, FX_T0 + 1000LL * k, 1.25, max, p99, 400.5);
	iv->overflow = (uint64_t)k;
}

/* intervals.csv: a header alone without intervals; then one row per
 * interval of each duration metric (cpu empty) and of each CPU's series,
 * numbered from 1, its start as results.json has it, its statistics (empty
 * where absent) and how many limits it lies beyond (SEM-RT: max <= 800 ns). */
START_TEST(intervals_are_the_views)
{
	static const char header[] =
		"file,requirement,metric,cpu,interval,start,seconds,samples,overflow,min_ns,"
		"mean_ns,p50_ns,p90_ns,p99_ns,p99.9_ns,max_ns,beyond_limits\n";
	struct fx *x = fx_new();
	struct report_view v;
	struct report_csv c;
	fx_view(x, &v);
	render(&v, &c);
	ck_assert_str_eq(file_named(&c, REPORT_CSV_INTERVALS)->data, header);
	report_csv_free(&c);
	struct rv_metric *m = &v.files[0].reqs[0].metrics[0];
	m->intervals = calloc(2, sizeof *m->intervals);
	m->nintervals = 2;
	csv_ival(&m->intervals[0], 0, 700, 600);
	csv_ival(&m->intervals[1], 1, 900, 0);
	struct rv_series *se = &v.files[1].reqs[0].series[1];
	se->intervals = calloc(1, sizeof *se->intervals);
	se->nintervals = 1;
	csv_ival(&se->intervals[0], 2, 800, 0);
	render(&v, &c);
	const char *p = file_named(&c, REPORT_CSV_INTERVALS)->data;
	ck_assert(strncmp(p, header, sizeof header - 1) == 0);
	p += sizeof header - 1;
	static const char *const want[][17] = {
		{ "spy-memo", "SEM-RT", "per-op", "", "1", "2025-12-02T01:00:00.000Z", "1.25",
		  "100", "0", "100", "400.5", "", "", "600", "", "700", "0" },
		{ "spy-memo", "SEM-RT", "per-op", "", "2", "2025-12-02T01:00:01.000Z", "1.25",
		  "100", "1", "100", "400.5", "", "", "", "", "900", "1" },
		{ "extra.xml", "B-1", "per-op", "3", "1", "2025-12-02T01:00:02.000Z", "1.25", "100",
		  "2", "100", "400.5", "", "", "", "", "800", "0" },
	};
	struct row r;
	for (size_t k = 0; k < 3; k++) {
		ck_assert_msg(next_row(&p, &r), "row %zu missing", k + 1);
		ck_assert_int_eq(r.n, 17);
		for (int i = 0; i < 17; i++)
			ck_assert_msg(strcmp(r.f[i], want[k][i]) == 0, "row %zu field %d: '%s', "
				      "expected '%s'", k + 1, i, r.f[i], want[k][i]);
		free_row(&r);
	}
	ck_assert(!next_row(&p, &r));
	report_csv_free(&c);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

/* confidence.csv: a row per reported percentile with an interval (the
 * fixture's per-op of SEM-RT and SEM-OK have 4000 samples: p50, p90, p99;
 * B-1's 20: p50; wakeup's 10 none), each the view's figures; a side
 * without a bound is an empty field. */
START_TEST(confidence_is_the_views)
{
	static const char header[] =
		"file,requirement,metric,cpu,statistic,estimate_ns,level,samples,lo_ns,hi_ns,"
		"lo_rank,hi_rank,coverage,lo_bucket_limited,hi_bucket_limited\n";
	struct fx *x = fx_new();
	struct report_view v;
	struct report_csv c;
	fx_view(x, &v);
	struct rv_metric *m = (struct rv_metric *)metric_of(req_of(&v, "SEM-RT"), "per-op");
	ck_assert(m->ci[RV_P99].have);
	m->ci[RV_P99].has_hi = false; /* as with too few samples for that side */
	render(&v, &c);
	const char *p = file_named(&c, REPORT_CSV_CONFIDENCE)->data;
	ck_assert(strncmp(p, header, sizeof header - 1) == 0);
	p += sizeof header - 1;
	struct row r;
	size_t rows = 0;
	while (next_row(&p, &r)) {
		ck_assert_int_eq(r.n, 15);
		const struct rv_metric *rm = metric_of(req_of(&v, r.f[1]), r.f[2]);
		int k = strcmp(r.f[4], "p50") == 0 ? RV_P50 : strcmp(r.f[4], "p90") == 0 ? RV_P90
			: RV_P99;
		const struct rv_ci *ci = &rm->ci[k];
		ck_assert_msg(ci->have && !r.f[3][0], "%s %s %s", r.f[1], r.f[2], r.f[4]);
		assert_real(r.f[5], rm->ns[k].v, "estimate_ns");
		assert_real(r.f[6], 0.95, "level");
		ck_assert_uint_eq(strtoull(r.f[7], NULL, 10), rm->count);
		assert_real(r.f[8], ci->lo_ns, "lo_ns");
		if (ci->has_hi)
			assert_real(r.f[9], ci->hi_ns, "hi_ns");
		else
			ck_assert_str_eq(r.f[9], "");
		ck_assert_uint_eq(strtoull(r.f[10], NULL, 10), ci->lo_rank);
		ck_assert_uint_eq(strtoull(r.f[11], NULL, 10), ci->hi_rank);
		assert_real(r.f[12], ci->coverage, "coverage");
		ck_assert_str_eq(r.f[13], ci->lo_bucket ? "1" : "0");
		ck_assert_str_eq(r.f[14], ci->hi_bucket ? "1" : "0");
		rows++;
		free_row(&r);
	}
	/* per-op of SEM-RT and SEM-OK: p50, p90, p99; B-1's 20 samples: p50 */
	ck_assert_uint_eq(rows, 3 + 3 + 1);
	report_csv_free(&c);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

START_TEST(write_and_rerender)
{
	struct fx *x = fx_new();
	struct report_view v, back;
	struct report_csv c;
	char dir[128], dir2[128], json[128], path[300], err[700] = "";
	fx_view(x, &v);
	fx_path(x, "csv", dir, sizeof dir);
	ck_assert_int_eq(report_csv_check_dir(dir, err, sizeof err), 0);
	ck_assert_int_eq(report_csv_write(&v, dir, NULL, err, sizeof err), 0);
	fx_write(x, REPORT_JSON, "results.json", json, sizeof json);
	ck_assert_msg(report_view_from_json(json, &back, err, sizeof err) == 0, "%s", err);
	fx_path(x, "csv2/", dir2, sizeof dir2);
	ck_assert_int_eq(report_csv_check_dir(dir2, err, sizeof err), 0);
	size_t missing = 99;
	ck_assert_int_eq(report_csv_write(&back, dir2, &missing, err, sizeof err), 0);
	ck_assert_uint_eq(missing, 0);
	render(&v, &c);
	for (size_t i = 0; i < c.nfiles; i++) {
		size_t len;
		snprintf(path, sizeof path, "%s/%s", dir, c.files[i].name);
		char *got = tu_slurp(path, &len);
		fx_same_bytes(got, len, c.files[i].data, c.files[i].len, path);
		free(got);
		snprintf(path, sizeof path, "%s%s", dir2, c.files[i].name);
		got = tu_slurp(path, &len);
		fx_same_bytes(got, len, c.files[i].data, c.files[i].len, path);
		free(got);
	}
	report_csv_free(&c);

	ck_assert_int_ne(report_csv_check_dir("/proc/rtc-no/csv", err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "/proc/rtc-no/csv"));
	ck_assert_int_ne(report_csv_write(&v, "/proc/rtc-no", NULL, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "cannot write '/proc/rtc-no/SEM-RT.per-op.csv'"));
	snprintf(path, sizeof path, "%s/a/b", x->dir);
	ck_assert_int_ne(report_csv_check_dir(path, err, sizeof err), 0); /* one level only */
	ck_assert_ptr_nonnull(strstr(err, "cannot create directory"));
	report_view_free(&back);
	report_view_free(&v);
	fx_free(x);
}
END_TEST

static Suite *csv_suite(void)
{
	Suite *s = suite_create("csv");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, histograms_are_the_views_buckets);
	tcase_add_test(tc, runs_are_the_views_runs);
	tcase_add_test(tc, hostile_ids);
	tcase_add_test(tc, text_cells_start_no_formula);
	tcase_add_test(tc, hostile_ids_index_agrees);
	tcase_add_test(tc, no_buckets_no_file);
	tcase_add_test(tc, write_and_rerender);
	tcase_add_test(tc, intervals_are_the_views);
	tcase_add_test(tc, confidence_is_the_views);
	return s;
}

int main(void)
{
	return tu_run(csv_suite());
}
