/* text.c - the terminal / summary.txt verdict table, and the per-result
 * statistics and ASCII histogram shared by JUnit's <system-out> and
 * `rtconform probe`. */
#include "reports/report.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "harness/stats.h"
#include "base/units.h"


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

/* "per-op mean <= 50 us", "wakeup p99 in [1 us, 50 us]". */
static void limit_text(const struct req_result *r, const struct req_limit *l,
		       char *buf, size_t len)
{
	char mbuf[32], st[32], a[48], b[48];
	const char *metric = l->metric ? l->metric : report_metric_name(r, 0, mbuf, sizeof mbuf);
	stat_name(&l->stat, st, sizeof st);
	if (l->has_max)
		fmt_qty(&l->max, a, sizeof a);
	if (l->has_min)
		fmt_qty(&l->min, b, sizeof b);
	if (l->has_max && l->has_min)
		snprintf(buf, len, "%s %s in [%s, %s]", metric, st, b, a);
	else if (l->has_max)
		snprintf(buf, len, "%s %s <= %s", metric, st, a);
	else if (l->has_min)
		snprintf(buf, len, "%s %s >= %s", metric, st, b);
	else
		snprintf(buf, len, "%s %s (no bound)", metric, st);
}

static void measured_text(const struct req_limit *l, const struct limit_outcome *o,
			  char *buf, size_t len)
{
	if (!o->evaluated) {
		snprintf(buf, len, "-");
		return;
	}
	bool cycles = limit_in_cycles(l);
	struct quantity q = { .value = o->measured, .unit = cycles ? QTY_CYCLES : QTY_NS };
	fmt_qty(&q, buf, len);
}

struct row {
	char id[64], probe[48], policy[24], limit[200], measured[48];
	const char *verdict;
	const char *note_kind; /* "error", "skipped" or NULL */
	const char *note;      /* the result's reason, printed under the row */
};



/* Rows of one result: one per limit, or one for a result without limits
 * or that was skipped (nothing was measured against any limit). */
static size_t result_rows(const struct req_result *r, struct row *rows, size_t max)
{
	const struct requirement *q = r->req;
	struct row base;
	memset(&base, 0, sizeof base);
	printable(q && q->id ? q->id : "?", base.id, sizeof base.id);
	printable(q && q->probe ? q->probe : (r->probe ? r->probe->decl.name : "?"),
		  base.probe, sizeof base.probe);
	report_policy_text(r, base.policy, sizeof base.policy);
	if (r->verdict == VERDICT_ERROR) {
		base.note_kind = "error";
		base.note = r->reason[0] ? r->reason : "could not be measured";
	} else if (r->verdict == VERDICT_SKIPPED && r->reason[0]) {
		base.note_kind = "skipped";
		base.note = r->reason;
	}

	size_t nlim = q ? q->nlimits : 0;
	if (nlim > REQ_MAX_LIMITS)
		nlim = REQ_MAX_LIMITS;
	if (nlim == 0 || r->verdict == VERDICT_SKIPPED || max < nlim) {
		rows[0] = base;
		snprintf(rows[0].limit, sizeof rows[0].limit, "%s",
			 nlim ? "-" : "(no limits)");
		snprintf(rows[0].measured, sizeof rows[0].measured, "-");
		rows[0].verdict = verdict_label(r->verdict);
		return 1;
	}
	for (size_t i = 0; i < nlim; i++) {
		rows[i] = base;
		/* The reason goes once, under the last row of the result. */
		if (i + 1 < nlim)
			rows[i].note_kind = rows[i].note = NULL;
		limit_text(r, &q->limits[i], rows[i].limit, sizeof rows[i].limit);
		measured_text(&q->limits[i], &r->limits[i], rows[i].measured,
			      sizeof rows[i].measured);
		rows[i].verdict = verdict_label(limit_verdict(r->verdict, r->limits[i].evaluated,
								 r->limits[i].passed));
	}
	return nlim;
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void print_row(FILE *out, const size_t *w, const char *id, const char *probe,
		      const char *policy, const char *limit, const char *measured,
		      const char *verdict)
{
	fprintf(out, "%-*s  %-*s  %-*s  %-*s  %*s  %s\n", (int)w[0], id, (int)w[1], probe,
		(int)w[2], policy, (int)w[3], limit, (int)w[4], measured, verdict);
}


static void write_text(const struct report_run *run, FILE *out)
{
	/* Column widths first, from every row, so the table lines up across
	 * files. One pass to size, one to print: a run is small. */
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
	for (size_t f = 0; f < run->nfiles; f++) {
		const struct report_file *rf = &run->files[f];
		for (size_t i = 0; i < rf->nresults; i++) {
			size_t n = result_rows(&rf->results[i], rows, REQ_MAX_LIMITS);
			for (size_t k = 0; k < n; k++) {
				w[0] = max_sz(w[0], strlen(rows[k].id));
				w[1] = max_sz(w[1], strlen(rows[k].probe));
				w[2] = max_sz(w[2], strlen(rows[k].policy));
				w[3] = max_sz(w[3], strlen(rows[k].limit));
				w[4] = max_sz(w[4], strlen(rows[k].measured));
			}
		}
	}

	print_row(out, w, head[0], head[1], head[2], head[3], head[4], head[5]);
	for (size_t f = 0; f < run->nfiles; f++) {
		const struct report_file *rf = &run->files[f];
		/* Ids are unique within a file only: name the file when there
		 * is more than one. */
		if (run->nfiles > 1 && rf->file) {
			char name[256];
			printable(rf->file->name ? rf->file->name : rf->file->path, name,
				  sizeof name);
			fprintf(out, "[%s]\n", name);
		}
		for (size_t i = 0; i < rf->nresults; i++) {
			size_t n = result_rows(&rf->results[i], rows, REQ_MAX_LIMITS);
			for (size_t k = 0; k < n; k++) {
				print_row(out, w, rows[k].id, rows[k].probe, rows[k].policy,
					  rows[k].limit, rows[k].measured, rows[k].verdict);
				if (rows[k].note) {
					char note[640];
					fprintf(out, "%-*s  %s: %s\n", (int)w[0], "",
						rows[k].note_kind,
						printable(rows[k].note, note, sizeof note));
				}
			}
		}
	}
	free(rows);

	struct report_totals t;
	report_totals(run, NULL, &t);
	int status = report_exit_status(run);
	fprintf(out, "%zu requirement%s: %zu passed, %zu failed, %zu error%s, %zu skipped"
		     " (%.3f s); exit status %d: %s\n",
		t.tests, t.tests == 1 ? "" : "s", t.passed, t.failures, t.errors,
		t.errors == 1 ? "" : "s", t.skipped, t.seconds, status, verdict_exit_meaning(status));
}

void report_write_text(const struct report_run *run, FILE *out)
{
	locale_t old_loc = num_c_enter();
	write_text(run, out);
	num_c_leave(old_loc);
}

/* The figures behind the verdicts, one line per metric: what an engineer
 * quotes (best case, median, mean, worst case) and the seeds' batch figure,
 * so summary.txt stands on its own. */
static void write_figures(const struct report_run *run, FILE *out)
{
	locale_t old_loc = num_c_enter();
	fprintf(out, "\nfigures (min, p50, mean, max per sample; best in cycles on a TSC "
		     "timebase; batch = total / iterations minus the empty loop, "
		     "mean (stddev) over runs):\n");
	for (size_t f = 0; f < run->nfiles; f++) {
		const struct report_file *rf = &run->files[f];
		for (size_t i = 0; i < rf->nresults; i++) {
			const struct req_result *r = &rf->results[i];
			unsigned nm = report_nmetrics(r);
			char id[128];
			printable(r->req->id, id, sizeof id);
			if (r->load_cmd[0]) {
				char cmd[640];
				fprintf(out, "  %s measured under load: %s\n", id,
					printable(r->load_cmd, cmd, sizeof cmd));
			}
			for (unsigned mi = 0; mi < nm; mi++) {
				const struct metric_data *m = result_metric_c(r->res, mi);
				if (!m->hist.count)
					continue;
				char nbuf[64], a[32], b[32], c[32], d[32];
				const char *name = report_metric_name(r, mi, nbuf, sizeof nbuf);
				fmt_ns((double)m->hist.min * m->ns_per_unit, a, sizeof a);
				fmt_ns((double)hist_percentile(&m->hist, 50) * m->ns_per_unit, b, sizeof b);
				fmt_ns(hist_mean(&m->hist) * m->ns_per_unit, c, sizeof c);
				fmt_ns((double)m->hist.max * m->ns_per_unit, d, sizeof d);
				fprintf(out, "  %s %s: n=%llu min %s, p50 %s, mean %s, max %s", id, name,
					(unsigned long long)m->hist.count, a, b, c, d);
				if (m->cycles_per_unit != 0)
					fprintf(out, "; best %.0f cycles",
						(double)m->hist.min * m->cycles_per_unit);
				if (m->hist.overflow)
					fprintf(out, "; %llu beyond the histogram's range",
						(unsigned long long)m->hist.overflow);
				double bm, bs;
				if (mi == 0 && report_batch_ns(r, &bm, &bs)) {
					fmt_ns(bm, a, sizeof a);
					fmt_ns(bs, b, sizeof b);
					fprintf(out, "; batch %s (%s)", a, b);
				}
				fputc('\n', out);
			}
		}
	}
	num_c_leave(old_loc);
}

int report_write_summary(const struct report_run *run, const char *path,
			 char *err, size_t errlen)
{
	char *data = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&data, &len);
	if (!mem) {
		int e = errno;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		return -e;
	}
	report_write_text(run, mem);
	write_figures(run, mem);
	if (fclose(mem) != 0) {
		int e = errno ? errno : ENOMEM;
		free(data);
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		return -e;
	}
	int ret = report_atomic_write(path, data, len);
	free(data);
	if (ret)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
	return ret;
}

/* ---- per-result detail ------------------------------------------------ */

#define HIST_ROWS 30
#define BAR_WIDTH 40

static void stat_line(FILE *out, const struct metric_data *m, const char *name)
{
	struct statistic st;
	double v;
	if (stat_parse(name, &st) != 0)
		return;
	if (stat_value(m, &st, false, &v)) {
		char buf[48];
		fmt_ns(v, buf, sizeof buf);
		fprintf(out, "  %-18s %s\n", name, buf);
	} else if (!m->hist.count) {
		fprintf(out, "  %-18s n/a (no samples)\n", name);
	} else if (st.kind == STAT_RUNS_MEAN_STDDEV) {
		fprintf(out, "  %-18s n/a (needs 2 runs with samples)\n", name);
	} else {
		fprintf(out, "  %-18s n/a (needs %llu samples)\n", name,
			(unsigned long long)stat_min_samples(&st));
	}
}

struct hist_group {
	uint64_t lo, hi, count;
};

static void write_histogram(FILE *out, const struct metric_data *m)
{
	const struct hist *h = &m->hist;
	double npu = m->ns_per_unit > 0 ? m->ns_per_unit : 1.0;
	uint32_t i = 0, k = 0;
	uint64_t lo, hi, c;

	uint32_t nonempty = 0;
	while (hist_next_bucket(h, &i, &lo, &hi, &c))
		nonempty++;
	if (!nonempty && !h->overflow) {
		fprintf(out, "  histogram: no samples\n");
		return;
	}

	/* Fold neighbouring non-empty buckets into at most HIST_ROWS rows:
	 * empty ranges cost no rows, so a lone outlier keeps a row of its
	 * own instead of vanishing into a wide linear bin. */
	struct hist_group g[HIST_ROWS];
	uint32_t per = (nonempty + HIST_ROWS - 1) / HIST_ROWS;
	uint32_t ng = 0;
	uint64_t cmax = h->overflow;
	i = 0;
	while (hist_next_bucket(h, &i, &lo, &hi, &c)) {
		if (k % per == 0) {
			g[ng].lo = lo;
			g[ng].count = 0;
			ng++;
		}
		g[ng - 1].hi = hi;
		g[ng - 1].count += c;
		if (g[ng - 1].count > cmax)
			cmax = g[ng - 1].count;
		k++;
	}

	/* Log-scaled bars: a tail of single outliers beside a million typical
	 * samples must still show as a mark, or the picture lies about it. */
	double lmax = log10(1.0 + (double)cmax);
	uint64_t cum = 0;
	fprintf(out, "  histogram (ns, log-scaled bars, %llu samples):\n",
		(unsigned long long)h->count);
	for (uint32_t r = 0; r <= ng; r++) {
		uint64_t count;
		char range[64];
		if (r < ng) {
			count = g[r].count;
			snprintf(range, sizeof range, "%13.1f .. %13.1f", (double)g[r].lo * npu,
				 (double)g[r].hi * npu);
		} else {
			if (!h->overflow)
				break;
			count = h->overflow;
			snprintf(range, sizeof range, "%13s  > %13.1f", "overflow",
				 (double)h->highest * npu);
		}
		cum += count;
		int len = 0;
		if (count && lmax > 0) {
			len = (int)lround(BAR_WIDTH * log10(1.0 + (double)count) / lmax);
			if (len < 1)
				len = 1;
		}
		char bar[BAR_WIDTH + 1];
		memset(bar, '#', (size_t)len);
		bar[len] = '\0';
		fprintf(out, "  %s |%-*s| %llu (%.3f%% cum)\n", range, BAR_WIDTH, bar,
			(unsigned long long)count,
			h->count ? 100.0 * (double)cum / (double)h->count : 0.0);
	}
}

static void write_metric(FILE *out, const struct req_result *r, unsigned mi)
{
	const struct metric_data *m = result_metric_c(r->res, mi);
	const struct hist *h = &m->hist;
	char nbuf[16];
	fprintf(out, "metric %s:\n", report_metric_name(r, mi, nbuf, sizeof nbuf));
	fprintf(out, "  %-18s %llu\n", "n", (unsigned long long)h->count);
	static const char *const names[] = { "min", "mean", "stddev", "p50", "p90", "p99",
					     "p99.9", "max", "runs-mean-stddev" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		stat_line(out, m, names[i]);
	fprintf(out, "  %-18s %llu%s\n", "overflow", (unsigned long long)h->overflow,
		h->overflow ? " (above the histogram's range; still in min, max and mean)" : "");
	if (m->cycles_per_unit != 0 && h->count) {
		fprintf(out, "  %-18s %.1f / %.1f / %.1f cycles\n", "min/mean/max",
			(double)h->min * m->cycles_per_unit, hist_mean(h) * m->cycles_per_unit,
			(double)h->max * m->cycles_per_unit);
	}
	if (mi == 0) {
		double mean, sd;
		unsigned n = report_batch_ns(r, &mean, &sd);
		if (n) {
			char a[48], b[48];
			fmt_ns(mean, a, sizeof a);
			fmt_ns(sd, b, sizeof b);
			fprintf(out, "  %-18s %s (stddev %s over %u run%s; total/N, loop overhead subtracted)\n",
				"batch", a, b, n, n == 1 ? "" : "s");
		}
	}
	write_histogram(out, m);
}

/* One line per CPU of a per-CPU series (timer-wakeup). */
static void write_series(FILE *out, const struct req_result *r)
{
	const struct result_shm *res = r->res;
	uint32_t n = res->nseries < res->nseries_alloc ? res->nseries : res->nseries_alloc;
	char nbuf[16];
	if (n)
		fprintf(out, "metric %s per CPU:\n", report_metric_name(r, 0, nbuf, sizeof nbuf));
	for (uint32_t s = 0; s < n && s < PROBE_MAX_SERIES; s++) {
		const struct metric_data *m = result_metric_c(res, res->nmetrics + s);
		const struct hist *h = &m->hist;
		char a[32] = "-", b[32] = "-", c[32] = "-", d[32] = "n/a";
		if (h->count) {
			fmt_ns((double)h->min * m->ns_per_unit, a, sizeof a);
			fmt_ns(hist_mean(h) * m->ns_per_unit, b, sizeof b);
			fmt_ns((double)h->max * m->ns_per_unit, c, sizeof c);
		}
		if (h->count >= 1000)
			fmt_ns((double)hist_percentile(h, 99.0) * m->ns_per_unit, d, sizeof d);
		fprintf(out, "  cpu%-3d n %-10llu min %-10s mean %-10s p99 %-10s max %s\n",
			res->series_cpu[s], (unsigned long long)h->count, a, b, d, c);
	}
}

static void write_detail(const struct req_result *r, FILE *out)
{
	const struct requirement *q = r->req;
	char buf[640], pol[24];
	report_policy_text(r, pol, sizeof pol);
	if (q) {
		fprintf(out, "%s", printable(q->id, buf, sizeof buf));
		if (q->title)
			fprintf(out, ": %s", printable(q->title, buf, sizeof buf));
		fputc('\n', out);
	}
	fprintf(out, "probe %s, policy %s, verdict %s\n",
		printable(q && q->probe ? q->probe : (r->probe ? r->probe->decl.name : "?"), buf,
			  sizeof buf),
		pol, verdict_label(r->verdict));
	if (r->reason[0])
		fprintf(out, "reason: %s\n", printable(r->reason, buf, sizeof buf));
	if (r->load_cmd[0])
		fprintf(out, "load: %s\n", printable(r->load_cmd, buf, sizeof buf));
	unsigned nm = report_nmetrics(r);
	if (!nm) {
		fprintf(out, "no measurements\n");
		return;
	}
	uint32_t runs = report_runs_done(r);
	fprintf(out, "runs completed: %u\n", runs);
	/* Bounded copy: a worker that died mid-write may have left the note
	 * without its terminator. */
	char note[sizeof r->res->note + 1];
	snprintf(note, sizeof note, "%.*s", (int)sizeof r->res->note, r->res->note);
	if (note[0])
		fprintf(out, "note: %s\n", printable(note, buf, sizeof buf));
	for (unsigned i = 0; i < nm; i++)
		write_metric(out, r, i);
	write_series(out, r);
}

void report_write_result_detail(const struct req_result *r, FILE *out)
{
	locale_t old_loc = num_c_enter();
	write_detail(r, out);
	num_c_leave(old_loc);
}
