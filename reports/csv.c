/* SPDX-License-Identifier: Apache-2.0 */
/* csv.c - the CSV export of a report view (csv.h; docs/reports.md, "CSV").
 *
 * Everything comes from the view, so `rtconform report results.json --csv`
 * makes the same bytes as the run did. Numbers are written in the C locale:
 * reals with the fewest digits that read back as the same double
 * (numfmt_fmt_shortest, as results.json: 28252.3625, not 28252.362499999999),
 * counts as integers. Text fields follow RFC 4180 (quoted when they hold a comma,
 * a semicolon, a quote or a line break, or were defused; quotes doubled),
 * lines end in LF, and no piece
 * of one is left that a spreadsheet would take for a formula
 * (report_csv_text_cell).
 */
#include "reports/csv.h"

#include "base/quote.h"
#include "base/strhash.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "reports/ival.h"

/* How much of an id and of a metric name goes into a file name: with the
 * dots, a "~N" and ".csv", and report_atomic_write's temporary name around
 * it, well inside NAME_MAX. */
#define CSV_ID_MAX 100
#define CSV_METRIC_MAX 60

/* ---- fields -------------------------------------------------------------- */

/* Close a memstream; true when everything written to it is in *data. */
static bool close_stream(FILE *f)
{
	bool good = !ferror(f);
	return fclose(f) == 0 && good;
}

/* Where a spreadsheet may begin a cell in a text field: at its start and
 * after every ',' or ';' (a spreadsheet set to split on either, whatever
 * the quoting) and line break (one that splits lines first). */
static bool cell_break(char c)
{
	return c == ',' || c == ';' || c == '\n' || c == '\r';
}

/* Walking a text field one character c at a time, with *start true at the
 * beginning of a piece: true when c would begin a formula (or is a tab or CR
 * a spreadsheet may strip before one), so it needs a ' before it. Blanks
 * and quotes in front count for nothing: a reader that trims them, or reads
 * a quoted piece, skips them. */
static bool formula_at(bool *start, char c)
{
	bool danger = *start && strchr("=+-@\t\r", c) != NULL;
	if (cell_break(c))
		*start = true;
	else if (c != ' ' && c != '"')
		*start = false;
	return danger;
}

/* A text field as report_csv_text_cell gives it, written to f. Numbers
 * the tool writes itself (put_real, put_count) never go through it: they
 * stay numbers ("-12.5"). Quoted (RFC 4180) when it holds a comma, a
 * semicolon, a quote or a line break, or a piece of it was defused: a
 * spreadsheet splitting on ',' or on ';' then reads it as one cell. */
static void put_text(FILE *f, const char *s)
{
	bool quote = strpbrk(s, ",;\"\r\n") != NULL;
	bool start = true;
	for (const char *p = s; *p && !quote; p++)
		quote = formula_at(&start, *p);
	if (quote)
		fputc('"', f);
	start = true;
	for (const char *p = s; *p; p++) {
		if (formula_at(&start, *p))
			fputc('\'', f);
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	if (quote)
		fputc('"', f);
}

char *report_csv_text_cell(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	put_text(f, s);
	if (!close_stream(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static void put_real(FILE *f, double v)
{
	char buf[40];
	numfmt_fmt_shortest(v, buf, sizeof buf);
	fputs(buf, f);
}

/* A value that may be absent: an empty field then. */
static void put_value(FILE *f, const struct rv_value *v)
{
	if (v->have)
		put_real(f, v->v);
}

/* Entry k of a per-run list that a view read from a file may lack (NULL). */
static void put_nth(FILE *f, const struct rv_value *list, size_t k)
{
	if (list)
		put_value(f, &list[k]);
}

static void put_count(FILE *f, uint64_t v)
{
	fprintf(f, "%llu", (unsigned long long)v);
}

/* ---- file names ------------------------------------------------------------ */

/* The histogram files' names given out so far (compared ignoring case),
 * and for each "ID.METRIC" the suffix to try next. */
struct csv_names {
	struct strhash taken, next;
};

/* "ID.METRIC.csv" made safe, or, when a file already has that name
 * (compared ignoring case, so the files stay apart on a case-insensitive
 * file system too), "ID.METRIC~2.csv", "~3", ...: '~' is in no safe part,
 * so these never meet another requirement's name. Always two dots, so never
 * runs.csv, intervals.csv or index.csv. A leading '-' becomes '_' too: then no name is a
 * cell report_csv_text_cell would change (it holds no ',' or ';' and
 * starts with a letter, a digit or '_'), so index.csv names each file
 * exactly as it is called, and none looks like an option to a shell
 * command. malloc'd; NULL when out of memory. */
static char *hist_name(struct csv_names *ns, const char *id, const char *metric)
{
	char sid[CSV_ID_MAX + 1], smetric[CSV_METRIC_MAX + 1], base[CSV_ID_MAX + CSV_METRIC_MAX + 2];
	quote_fname_part(id, CSV_ID_MAX, sid);
	if (sid[0] == '-')
		sid[0] = '_';
	quote_fname_part(metric, CSV_METRIC_MAX, smetric);
	snprintf(base, sizeof base, "%s.%s", sid, smetric);
	/* Suffixes of one base from where the last one stopped: a file of
	 * thousands of one name then costs no scan of those before. */
	const size_t *next = strhash_get(&ns->next, base);
	for (size_t k = next ? *next : 1;; k++) {
		char *name;
		int n = k == 1 ? asprintf(&name, "%s.csv", base) : asprintf(&name, "%s~%zu.csv", base, k);
		if (n < 0)
			return NULL;
		if (!strhash_get(&ns->taken, name)) {
			if (strhash_put(&ns->taken, name, 0) || strhash_put(&ns->next, base, k + 1)) {
				free(name);
				return NULL;
			}
			return name;
		}
		free(name);
	}
}

/* ---- building ------------------------------------------------------------- */

struct csv_build {
	struct report_csv *c;
	struct csv_names names;
	size_t cap;
	FILE *runs, *index, *ivals;    /* runs.csv, index.csv, intervals.csv, built alongside */
	char *runs_data, *index_data, *ivals_data;
	size_t runs_len, index_len, ivals_len;
	bool failed;
};

/* Take name and a finished memstream's bytes into the set (freed on
 * failure). */
static void add_file(struct csv_build *b, char *name, char *data, size_t len)
{
	struct report_csv *c = b->c;
	if (!b->failed && name && data && c->nfiles == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct report_csv_file *f = realloc(c->files, cap * sizeof *f);
		if (f) {
			c->files = f;
			b->cap = cap;
		}
	}
	if (b->failed || !name || !data || c->nfiles == b->cap) {
		b->failed = true;
		free(name);
		free(data);
		return;
	}
	c->files[c->nfiles++] = (struct report_csv_file){ name, data, len };
}

/* One histogram to export: a metric's, or one CPU's series of metric 0. */
struct csv_hist {
	const char *metric;           /* the index's metric column and the name's part */
	const struct rv_bucket *buckets;
	size_t nbuckets;
	uint64_t count, overflow, highest;
	double ns_per_unit;
	const struct rv_value *max;   /* ns, for the overflow row */
	const struct rv_neg *neg;     /* samples below zero */
	const struct rv_value *min;   /* ns, for the underflow row */
};

/* Whether the buckets and the overflow account for every sample: false for
 * a view read from a results.json whose buckets do not add up to its
 * count. */
static bool buckets_complete(const struct csv_hist *h)
{
	uint64_t sum = h->overflow + rv_neg_count(h->neg);
	for (size_t i = 0; i < h->nbuckets; i++) {
		if (h->buckets[i].count > UINT64_MAX - sum)
			return false;
		sum += h->buckets[i].count;
	}
	return sum == h->count;
}

/* Samples below zero first, ascending in value: those beyond the range
 * from the min to just below -highest, then each magnitude bucket's bounds
 * negated. */
static void neg_rows(FILE *f, const struct csv_hist *h)
{
	const struct rv_neg *n = h->neg;
	if (n->overflow) {
		put_real(f, h->min->have ? h->min->v : -(double)UINT64_MAX * h->ns_per_unit);
		fputc(',', f);
		put_real(f, -((double)h->highest + 1.0) * h->ns_per_unit);
		fputc(',', f);
		put_count(f, n->overflow);
		fputc('\n', f);
	}
	for (size_t i = n->nbuckets; i-- > 0;) {
		put_real(f, -(double)n->buckets[i].hi * h->ns_per_unit);
		fputc(',', f);
		put_real(f, -(double)n->buckets[i].lo * h->ns_per_unit);
		fputc(',', f);
		put_count(f, n->buckets[i].count);
		fputc('\n', f);
	}
}

/* The histogram file of h, and its line in index.csv. Its bounds are the
 * buckets' (inclusive, in units) times ns_per_unit; samples above the
 * histogram's range get a last row from just above it to the max, so the
 * counts add up to the samples. */
static void add_histogram(struct csv_build *b, const struct rv_file *vf, const struct rv_req *r,
			  const struct csv_hist *h)
{
	if (!buckets_complete(h)) {
		b->c->no_histogram++;
		return;
	}
	char *data = NULL, *name = hist_name(&b->names, r->id, h->metric);
	size_t len = 0;
	FILE *f = name ? open_memstream(&data, &len) : NULL;
	if (!f) {
		add_file(b, name, NULL, 0);
		return;
	}
	fputs("lo_ns,hi_ns,count\n", f);
	neg_rows(f, h);
	for (size_t i = 0; i < h->nbuckets; i++) {
		const struct rv_bucket *k = &h->buckets[i];
		put_real(f, (double)k->lo * h->ns_per_unit);
		fputc(',', f);
		put_real(f, (double)k->hi * h->ns_per_unit);
		fputc(',', f);
		put_count(f, k->count);
		fputc('\n', f);
	}
	if (h->overflow) {
		put_real(f, ((double)h->highest + 1.0) * h->ns_per_unit);
		fputc(',', f);
		put_value(f, h->max);
		fputc(',', f);
		put_count(f, h->overflow);
		fputc('\n', f);
	}
	if (!close_stream(f)) {
		free(data);
		data = NULL;
	}
	FILE *x = b->index;
	put_text(x, name);
	fputc(',', x);
	put_text(x, vf->name);
	fputc(',', x);
	put_text(x, r->id);
	fputc(',', x);
	put_text(x, h->metric);
	fprintf(x, ",%llu,%llu\n", (unsigned long long)h->count, (unsigned long long)h->overflow);
	add_file(b, name, data, len);
}

/* Every histogram of a measured requirement: each duration metric's, then
 * each CPU's series of metric 0 as metric "<metric0>.cpu<N>" (a view from
 * an older results.json has series without buckets, which count as
 * histograms left out). */
static void add_histograms(struct csv_build *b, const struct rv_file *vf, const struct rv_req *r)
{
	for (size_t mi = 0; mi < r->nmetrics && !b->failed; mi++) {
		const struct rv_metric *m = &r->metrics[mi];
		if (m->kind != METRIC_DURATION)
			continue;
		struct csv_hist h = { m->name, m->buckets, m->nbuckets, m->count, m->overflow,
				      m->highest, m->ns_per_unit, &m->ns[RV_MAX], &m->neg,
				      &m->ns[RV_MIN] };
		add_histogram(b, vf, r, &h);
	}
	for (size_t si = 0; r->nmetrics && si < r->nseries && !b->failed; si++) {
		const struct rv_series *s = &r->series[si];
		char metric[96];
		snprintf(metric, sizeof metric, "%s.cpu%d", r->metrics[0].name, s->cpu);
		struct csv_hist h = { metric, s->buckets, s->nbuckets, s->count, s->overflow,
				      s->highest, r->metrics[0].ns_per_unit, &s->ns[RVS_MAX], &s->neg,
				      &s->ns[RVS_MIN] };
		if (!s->has_hist) { /* buckets not known: left out, counted */
			b->c->no_histogram++;
			continue;
		}
		add_histogram(b, vf, r, &h);
	}
}

/* The start of a runs.csv line: file, requirement, metric, kind, run. */
static void runs_line(FILE *f, const struct rv_file *vf, const struct rv_req *r,
		      const char *metric, const char *kind, size_t run)
{
	put_text(f, vf->name);
	fputc(',', f);
	put_text(f, r->id);
	fputc(',', f);
	put_text(f, metric);
	fprintf(f, ",%s,%zu,", kind, run + 1);
}

/* Requirement r's lines of runs.csv: the batch figure of each run (named
 * after the first metric, whose scale it has; none when no run has one),
 * then each metric's runs: a duration's samples, mean and max. */
static void add_runs(struct csv_build *b, const struct rv_file *vf, const struct rv_req *r)
{
	FILE *f = b->runs;
	bool batch = r->nmetrics && rv_req_batch_runs(r);
	for (size_t k = 0; batch && k < r->runs; k++) {
		runs_line(f, vf, r, r->metrics[0].name, "batch", k);
		fputc(',', f);
		put_nth(f, r->batch_run_ns, k);
		fputs(",,\n", f);
	}
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct rv_metric *m = &r->metrics[i];
		bool count = m->kind == METRIC_COUNT;
		for (size_t k = 0; m->run_count && k < m->nruns; k++) {
			runs_line(f, vf, r, m->name, count ? "count" : "duration", k);
			if (count) {
				fputs(",,", f);
				put_count(f, m->run_count[k]);
				fputc(',', f);
			} else {
				put_count(f, m->run_count[k]);
				fputc(',', f);
				put_nth(f, m->run_mean_ns, k);
				fputs(",,", f);
				put_nth(f, m->run_max_ns, k);
			}
			fputc('\n', f);
		}
	}
}

/* The statistics of intervals.csv, in its columns' order: indices into
 * report_view_stats. */
static const int ival_stats[] = { RV_MIN, RV_MEAN, RV_P50, RV_P90, RV_P99, RV_P99_9, RV_MAX };
#define IVALS_HEADER \
	"file,requirement,metric,cpu,interval,start,seconds,samples,overflow,min_ns,mean_ns," \
	"p50_ns,p90_ns,p99_ns,p99.9_ns,max_ns,beyond_limits\n"

/* The rows of one list of intervals: metric m's, or (cpu >= 0) a CPU's
 * series of it. beyond_limits counts the requirement's limits on m that
 * the interval's own statistics lie beyond (rv_ival_beyond). */
static void add_ival_rows(FILE *f, const struct rv_file *vf, const struct rv_req *r,
			  const struct rv_metric *m, int cpu, const struct rv_ival *iv, size_t n)
{
	char start[40];
	for (size_t k = 0; k < n; k++) {
		put_text(f, vf->name);
		fputc(',', f);
		put_text(f, r->id);
		fputc(',', f);
		put_text(f, m->name);
		fputc(',', f);
		if (cpu >= 0)
			fprintf(f, "%d", cpu);
		rv_fmt_utc_ms(iv[k].start_ms, start, sizeof start);
		fprintf(f, ",%zu,%s,", k + 1, start);
		put_real(f, iv[k].seconds);
		fprintf(f, ",%llu,%llu", (unsigned long long)iv[k].count,
			(unsigned long long)iv[k].overflow);
		for (size_t i = 0; i < sizeof ival_stats / sizeof ival_stats[0]; i++) {
			fputc(',', f);
			put_value(f, &iv[k].ns[ival_stats[i]]);
		}
		size_t beyond = 0;
		for (size_t i = 0; i < r->nlimits; i++)
			beyond += rv_ival_beyond(&r->limits[i], m, &iv[k]);
		fprintf(f, ",%zu\n", beyond);
	}
}

/* Requirement r's lines of intervals.csv: each duration metric's
 * intervals, then each CPU's. */
static void add_intervals(struct csv_build *b, const struct rv_file *vf, const struct rv_req *r)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].kind == METRIC_DURATION)
			add_ival_rows(b->ivals, vf, r, &r->metrics[i], -1, r->metrics[i].intervals,
				      r->metrics[i].nintervals);
	for (size_t s = 0; r->nmetrics && s < r->nseries; s++)
		add_ival_rows(b->ivals, vf, r, &r->metrics[0], r->series[s].cpu,
			      r->series[s].intervals, r->series[s].nintervals);
}

/* confidence.csv: one row per reported percentile that has a confidence
 * interval, of each duration metric and each CPU's p99. */
#define CONF_HEADER \
	"file,requirement,metric,cpu,statistic,estimate_ns,level,samples,lo_ns,hi_ns," \
	"lo_rank,hi_rank,coverage,lo_bucket_limited,hi_bucket_limited\n"

static void conf_row(FILE *f, const struct rv_file *vf, const struct rv_req *r,
		     const char *metric, int cpu, const char *stat, const struct rv_value *est,
		     const struct rv_ci *c)
{
	put_text(f, vf->name);
	fputc(',', f);
	put_text(f, r->id);
	fputc(',', f);
	put_text(f, metric);
	fputc(',', f);
	if (cpu >= 0)
		fprintf(f, "%d", cpu);
	fprintf(f, ",%s,", stat);
	put_value(f, est);
	fputc(',', f);
	put_real(f, c->level);
	fprintf(f, ",%llu,", (unsigned long long)c->n);
	if (c->has_lo)
		put_real(f, c->lo_ns);
	fputc(',', f);
	if (c->has_hi)
		put_real(f, c->hi_ns);
	fprintf(f, ",%llu,%llu,", (unsigned long long)c->lo_rank, (unsigned long long)c->hi_rank);
	put_real(f, c->coverage);
	fprintf(f, ",%d,%d\n", c->lo_bucket, c->hi_bucket);
}

static void add_confidence(struct csv_build *b, const struct report_view *v)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	if (!f) {
		b->failed = true;
		return;
	}
	fputs(CONF_HEADER, f);
	for (size_t fi = 0; fi < v->nfiles; fi++)
		for (size_t ri = 0; ri < v->files[fi].nreqs; ri++) {
			const struct rv_file *vf = &v->files[fi];
			const struct rv_req *r = &vf->reqs[ri];
			for (size_t i = 0; i < r->nmetrics; i++)
				for (int k = 0; k < RV_NSTATS; k++)
					if (rv_metric_ci(&r->metrics[i], k))
						conf_row(f, vf, r, r->metrics[i].name, -1,
							 report_view_stats[k], &r->metrics[i].ns[k],
							 &r->metrics[i].ci[k]);
			for (size_t s = 0; r->nmetrics && s < r->nseries; s++)
				if (r->series[s].p99_ci.have)
					conf_row(f, vf, r, r->metrics[0].name, r->series[s].cpu, "p99",
						 &r->series[s].ns[RVS_P99], &r->series[s].p99_ci);
		}
	bool ok = close_stream(f);
	if (!ok)
		free(data);
	add_file(b, strdup(REPORT_CSV_CONFIDENCE), ok ? data : NULL, len);
}

int report_csv_render(const struct report_view *v, struct report_csv *out)
{
	memset(out, 0, sizeof *out);
	struct csv_build b = { .c = out };
	strhash_init(&b.names.taken, true);
	strhash_init(&b.names.next, true);
	b.runs = open_memstream(&b.runs_data, &b.runs_len);
	b.index = open_memstream(&b.index_data, &b.index_len);
	b.ivals = open_memstream(&b.ivals_data, &b.ivals_len);
	b.failed = !b.runs || !b.index || !b.ivals;
	if (!b.failed) {
		fputs("file,requirement,metric,kind,run,samples,mean_ns,count,max_ns\n", b.runs);
		fputs("csv,file,requirement,metric,samples,overflow\n", b.index);
		fputs(IVALS_HEADER, b.ivals);
	}
	for (size_t fi = 0; fi < v->nfiles && !b.failed; fi++) {
		const struct rv_file *vf = &v->files[fi];
		for (size_t ri = 0; ri < vf->nreqs && !b.failed; ri++) {
			const struct rv_req *r = &vf->reqs[ri];
			if (!r->measured)
				continue;
			add_histograms(&b, vf, r);
			add_runs(&b, vf, r);
			add_intervals(&b, vf, r);
		}
	}
	bool runs_ok = b.runs && close_stream(b.runs);
	bool index_ok = b.index && close_stream(b.index);
	bool ivals_ok = b.ivals && close_stream(b.ivals);
	add_file(&b, strdup(REPORT_CSV_RUNS), runs_ok ? b.runs_data : NULL, b.runs_len);
	add_file(&b, strdup(REPORT_CSV_INTERVALS), ivals_ok ? b.ivals_data : NULL, b.ivals_len);
	add_confidence(&b, v);
	add_file(&b, strdup(REPORT_CSV_INDEX), index_ok ? b.index_data : NULL, b.index_len);
	if (!runs_ok)
		free(b.runs_data);
	if (!ivals_ok)
		free(b.ivals_data);
	if (!index_ok)
		free(b.index_data);
	strhash_free(&b.names.taken);
	strhash_free(&b.names.next);
	if (b.failed) {
		report_csv_free(out);
		return -ENOMEM;
	}
	return 0;
}

void report_csv_free(struct report_csv *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		free(c->files[i].name);
		free(c->files[i].data);
	}
	free(c->files);
	memset(c, 0, sizeof *c);
}

/* ---- writing -------------------------------------------------------------- */

/* "dir/name" (one slash), malloc'd; NULL when out of memory. */
static char *in_dir(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *s;
	if (asprintf(&s, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name) < 0)
		return NULL;
	return s;
}

int report_csv_check_dir(const char *dir, char *err, size_t errlen)
{
	char *probe = in_dir(dir, REPORT_CSV_RUNS);
	if (!probe) {
		snprintf(err, errlen, "%s: %s", dir, strerror(ENOMEM));
		return -ENOMEM;
	}
	int ret = report_check_writable(probe, err, errlen);
	free(probe);
	return ret;
}

int report_csv_write(const struct report_view *v, const char *dir, size_t *no_histogram,
		     char *err, size_t errlen)
{
	struct report_csv c;
	if (report_csv_render(v, &c) != 0) {
		snprintf(err, errlen, "cannot write the CSV files in '%s': building them failed: %s",
			 dir, strerror(ENOMEM));
		return -ENOMEM;
	}
	if (no_histogram)
		*no_histogram = c.no_histogram;
	int ret = 0;
	for (size_t i = 0; i < c.nfiles && !ret; i++) {
		char *path = in_dir(dir, c.files[i].name);
		ret = path ? report_atomic_write(path, c.files[i].data, c.files[i].len) : -ENOMEM;
		if (ret)
			snprintf(err, errlen, "cannot write '%s': %s", path ? path : c.files[i].name,
				 strerror(-ret));
		free(path);
	}
	report_csv_free(&c);
	return ret;
}
