/* SPDX-License-Identifier: Apache-2.0 */
/* progress.c - what `rtconform run` says on stderr while it measures; see
 * struct cli_progress in cli.h. Nothing here goes into a report. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "base/termsafe.h"
#include "base/units.h"
#include "harness/live.h"
#include "harness/plan.h"
#include "reports/report.h"

/* A terminal that moves its cursor and shows colour: TERM set, and not
 * "dumb" (Emacs' shell, some CI consoles: escape sequences show there as
 * junk). */
static bool term_capable(int fd)
{
	const char *t = getenv("TERM");
	return isatty(fd) && t && t[0] && strcmp(t, "dumb") != 0;
}

bool cli_colour(int fd)
{
	const char *nc = getenv("NO_COLOR");
	return term_capable(fd) && !(nc && nc[0]);
}

int cli_progress_init(struct cli_progress *p, bool quiet)
{
	const char *iv = getenv("RTC_PROGRESS_INTERVAL");
	p->tty = term_capable(STDERR_FILENO); /* the live view, else the CI log's lines */
	p->quiet = quiet;
	p->colour = !quiet && cli_colour(STDERR_FILENO);
	p->interval = CLI_PROGRESS_INTERVAL_S;
	if (iv && iv[0]) {
		char err[200];
		uint64_t ns;
		/* A short one for tests (500ms), or what --duration takes (5min). */
		if (units_duration_parse_ns(iv, false, &ns, err, sizeof err) != 0 &&
		    units_run_duration_parse(iv, &ns, err, sizeof err) != 0) {
			char safe[64];
			termsafe_println(stderr, "rtconform run: RTC_PROGRESS_INTERVAL=\"%s\": not a "
					 "duration (expected a number then ns, us, \u00b5s, ms, s, "
					 "min or h, e.g. 500ms, 10s, 5min)",
					 termsafe_escape(iv, safe, sizeof safe));
			return EXIT_USAGE;
		}
		p->interval = (double)ns / 1e9;
	}
	return 0;
}

/* "12.0 s of 24 h" for a run by time, "3/10 runs" by count. */
static void how_far(const struct req_result *r, uint32_t runs_done, uint64_t runs_total,
		    double elapsed, char *buf, size_t len)
{
	if (r->duration_ns) {
		char d[32];
		units_fmt_ns((double)r->duration_ns, d, sizeof d);
		snprintf(buf, len, "%.1f s of %s", elapsed, d);
	} else {
		snprintf(buf, len, "%u/%llu runs done, %.1f s", runs_done,
			 (unsigned long long)runs_total, elapsed);
	}
}

double cli_progress_left(struct cli_progress *p, double done, double elapsed)
{
	if (!p->measuring || !(done > 0))
		return -1;
	/* measured / done x (1 - done), recomputed at every tick, would grow
	 * while samples are awaited (a rest between runs, a slow sample): the
	 * estimate is made only when `done` moves, then counted down. */
	if (done != p->est_done) {
		double measured = elapsed - p->measure_at;
		p->est_done = done;
		p->est_at = elapsed;
		p->est_left = measured > 0 ? measured / done * (1.0 - done) : 0;
	}
	double left = p->est_left - (elapsed - p->est_at);
	return left > 0 ? left : 0;
}

/* The terminal's size; 80 x 0 (rows unknown) when it does not say. */
static void term_size(size_t *cols, size_t *rows)
{
	struct winsize ws;
	*cols = 80;
	*rows = 0;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
	}
}

/* Append line to buf as a line of the live view: cleared first, cut to
 * fit the terminal (at a UTF-8 character's start), as a wrapped line
 * would spoil the cursor-up of the next draw. */
static void put_line(char *buf, size_t len, size_t *off, const char *line, size_t cols)
{
	size_t n = strlen(line);
	if (cols > 1 && n > cols - 1) {
		n = cols - 1;
		while (n && ((unsigned char)line[n] & 0xc0) == 0x80)
			n--;
	}
	if (*off < len)
		*off += (size_t)snprintf(buf + *off, len - *off, "\r\033[K%.*s\n", (int)n, line);
}

/* Redraw the live view: the status line, then the figures so far of the
 * running worker (when its result memory is there), over the last draw. */
static void draw_live(struct cli_progress *ps, const struct req_result *r, const char *status)
{
	char buf[(LIVE_MAX_FIGS + 4) * 200], line[160];
	struct live_fig figs[LIVE_MAX_FIGS];
	size_t off = 0, lines = 0, cols, rows;
	term_size(&cols, &rows);
	/* A block taller than the terminal cannot be redrawn in place. */
	size_t room = rows ? (rows > 4 ? rows - 4 : 0) : LIVE_MAX_FIGS;
	if (room > LIVE_MAX_FIGS)
		room = LIVE_MAX_FIGS;
	if (ps->drawn)
		off += (size_t)snprintf(buf, sizeof buf, "\033[%zuA", ps->drawn);
	put_line(buf, sizeof buf, &off, status, cols);
	lines++;
	size_t total = r->res && r->probe && room ? live_snapshot(r->res, r->probe, figs, room) : 0;
	if (total) {
		live_header(line, sizeof line);
		put_line(buf, sizeof buf, &off, line, cols);
		lines++;
	}
	for (size_t i = 0; i < total && i < room; i++, lines++) {
		live_format(&figs[i], line, sizeof line);
		put_line(buf, sizeof buf, &off, line, cols);
	}
	if (total > room) {
		snprintf(line, sizeof line, "  (%zu more not shown)", total - room);
		put_line(buf, sizeof buf, &off, line, cols);
		lines++;
	}
	if (off < sizeof buf)
		snprintf(buf + off, sizeof buf - off, "\033[J"); /* a shorter block than the last */
	fputs(buf, stderr);
	fflush(stderr);
	ps->drawn = lines;
}

void cli_progress_status(struct cli_progress *ps, const struct req_result *r, const char *id,
			 uint32_t state, uint32_t runs_done, uint64_t runs_total, double elapsed,
			 char *buf, size_t len)
{
	char far[96];
	int at = snprintf(buf, len, "[%zu/%zu] %s: ", ps->index, ps->total, id);
	if (at < 0 || (size_t)at >= len)
		return;
	buf += at;
	len -= (size_t)at;
	if (state < WS_MEASURING) {
		snprintf(buf, len, "%s, %.1f s", state == WS_WARMUP ? "warming up" : "starting",
			 elapsed);
		return;
	}
	double measured = elapsed - ps->measure_at;
	if (r->duration_ns) {
		how_far(r, runs_done, runs_total, measured, far, sizeof far);
		double left = (double)r->duration_ns / 1e9 - measured;
		if (state != WS_MEASURING || left < 0)
			snprintf(buf, len, "%s, finishing the last run", far);
		else
			snprintf(buf, len, "%s, ~%.1f s left", far, left);
		return;
	}
	how_far(r, runs_done, runs_total, elapsed, far, sizeof far);
	double part = runs_done < runs_total && r->res && r->probe
		? live_run_part(r->res, r->probe, runs_done, r->res->spec.iterations) : 0;
	double done = runs_total ? ((double)runs_done + part) / (double)runs_total : 0;
	double left = cli_progress_left(ps, done > 1 ? 1 : done, elapsed);
	if (left >= 0)
		snprintf(buf, len, "%s, ~%.1f s left", far, left);
	else
		snprintf(buf, len, "%s", far);
}

/* A run by time: say once of each percentile limit whose metric has
 * taken the samples its plan needs (harness/plan.h) that it has enough,
 * as a line of its own above the live view:
 * "[1/3] ID: 04:12:09: enough samples for p99.9 at 95% (388,000)". */
static void say_enough(struct cli_progress *ps, const struct req_result *r, const char *id)
{
	const struct requirement *q = r->req;
	if (!r->duration_ns || !q || !r->res || !r->probe)
		return;
	if (!ps->plan_set) {
		plan_needs(q, ps->plan_need);
		ps->plan_set = true;
	}
	for (size_t k = 0; k < q->nlimits && k < REQ_MAX_LIMITS; k++) {
		const struct req_limit *l = &q->limits[k];
		int mi = probe_decl_metric_index(&r->probe->decl, l->metric);
		/* The plan of a metric taken on every CPU is one CPU's
		 * (harness/plan.h, per_cpu): every CPU must have its samples. */
		if (!ps->plan_need[k] || (ps->plan_said >> k & 1u) || mi < 0 ||
		    live_metric_samples_each_cpu(r->res, r->probe, (uint32_t)mi) < ps->plan_need[k])
			continue;
		ps->plan_said |= 1u << k;
		char st[32], n[32], hour[16] = "?";
		time_t now = time(NULL);
		struct tm tm;
		if (localtime_r(&now, &tm))
			strftime(hour, sizeof hour, "%H:%M:%S", &tm);
		statistic_name(&l->stat, st, sizeof st);
		plan_fmt_count(plan_round3(ps->plan_need[k]), n, sizeof n);
		if (ps->tty && ps->drawn) /* the live view is drawn again below it */
			fprintf(stderr, "\033[%zuA\r\033[J", ps->drawn);
		ps->drawn = 0;
		fprintf(stderr, "[%zu/%zu] %s: %s: enough samples for %s at %g%% (%s)\n", ps->index,
			ps->total, id, hour, st, plan_limit_level(l) * 100, n);
		fflush(stderr);
	}
}

/* The live figure a limit is judged on, as far as the figures so far
 * tell: the min, mean or max so far for those statistics, the max so far
 * (an upper bound) for any other; false without one (no sample yet, a
 * limit in cycles, which the live view does not have). */
static bool live_limit_value(const struct req_result *r, const struct req_limit *l,
			     struct live_fig *f, double *v)
{
	int mi = probe_decl_metric_index(&r->probe->decl, l->metric);
	if (mi < 0 || limit_in_cycles(l) || !live_metric_fig(r->res, r->probe, (uint32_t)mi, f) ||
	    !f->n)
		return false;
	*v = l->stat.kind == STAT_MIN ? f->min : l->stat.kind == STAT_MEAN ? f->mean : f->max;
	return true;
}

/* ", per-op max so far 14.2 us (per-op max <= 50 us)": the live max of
 * the metric of the limit that decides as things stand (limit_deciding
 * over the figures so far: a max or min already past its bound fails,
 * else the least headroom), and that limit; of metric 0 without one; ""
 * before a sample. Without max, " (per-op max <= 50 us)" alone: the
 * terminal's live view shows the max below its status line, which must
 * fit the terminal's width. */
static void live_deciding(const struct req_result *r, bool with_max, char *buf, size_t len)
{
	const struct requirement *q = r->req;
	struct limit_standing st[REQ_MAX_LIMITS];
	struct live_fig f;
	size_t n = q && r->res && r->probe ? q->nlimits : 0;
	buf[0] = '\0';
	if (n > REQ_MAX_LIMITS)
		n = REQ_MAX_LIMITS;
	for (size_t i = 0; i < n; i++) {
		const struct req_limit *l = &q->limits[i];
		struct limit_bounds b = limit_bounds_of(l);
		double v;
		st[i] = (struct limit_standing){ -1, 0, false };
		if (!live_limit_value(r, l, &f, &v))
			continue;
		st[i] = limit_standing_of(limit_weight(VERDICT_PASS), true, v, b.has_min, b.min,
					  b.has_max, b.max);
		bool settled = l->stat.kind == STAT_MAX || l->stat.kind == STAT_MIN;
		if (settled && st[i].excess > 0)
			st[i].weight = limit_weight(VERDICT_FAIL);
	}
	size_t k = limit_deciding(st, n);
	char words[200] = "", max[48];
	if (k != SIZE_MAX && st[k].weight >= 0) {
		const struct req_limit *l = &q->limits[k];
		double v;
		char sname[32];
		live_limit_value(r, l, &f, &v);
		statistic_name(&l->stat, sname, sizeof sname);
		report_limit_text(f.name, sname, l->has_min ? &l->min : NULL,
				  l->has_max ? &l->max : NULL, l->confidence, words, sizeof words);
	} else if (!r->res || !r->probe || !live_metric_fig(r->res, r->probe, 0, &f) || !f.n) {
		return;
	}
	struct quantity m = { f.max, f.count ? QTY_COUNT : QTY_NS };
	units_fmt_qty(&m, max, sizeof max);
	if (with_max)
		snprintf(buf, len, ", %s max so far %s%s%s%s", f.name, max, words[0] ? " (" : "",
			 words, words[0] ? ")" : "");
	else if (words[0])
		snprintf(buf, len, " (%s)", words);
}

void cli_progress_show(const struct req_result *r, uint32_t runs_done, uint64_t runs_total,
		       double elapsed, void *arg)
{
	struct cli_progress *ps = arg;
	char id[256], far[96], status[512], dec[320];
	if (ps->quiet)
		return;
	/* No result memory yet: the worker is being started. */
	uint32_t state = r->res ? r->res->state : WS_NEW;
	if (state >= WS_MEASURING && !ps->measuring) {
		ps->measuring = true;
		ps->measure_at = elapsed;
	}
	termsafe_escape(r->req->id, id, sizeof id); /* our own \r and ESC only */
	if (state >= WS_MEASURING)
		say_enough(ps, r, id);
	if (!ps->tty) {
		/* A line now and then, so a CI log shows the run is alive. */
		if (elapsed < ps->last_line + ps->interval)
			return;
		ps->last_line = elapsed;
		how_far(r, runs_done, runs_total, elapsed, far, sizeof far);
		if (state >= WS_MEASURING)
			live_deciding(r, true, dec, sizeof dec);
		else
			dec[0] = '\0';
		fprintf(stderr, "[%zu/%zu] %s: running, %s%s\n", ps->index, ps->total, id, far, dec);
		fflush(stderr);
		return;
	}
	if (ps->drawn && elapsed < ps->last_draw + CLI_LIVE_REFRESH_S)
		return;
	ps->last_draw = elapsed;
	cli_progress_status(ps, r, id, state, runs_done, runs_total, elapsed, status, sizeof status);
	if (state >= WS_MEASURING) { /* the limit that decides so far, as the CI log's line */
		live_deciding(r, false, dec, sizeof dec);
		size_t at = strlen(status);
		snprintf(status + at, sizeof status - at, "%s", dec);
	}
	draw_live(ps, r, status);
}

/* The figure a reader wants first: of a judged requirement the limit
 * that decides it (req_deciding_limit: the failing one, else the
 * tightest), its metric and the judge's sentence; the reason of anything
 * else. */
static void key_figure(const struct req_result *res, char *buf, size_t len)
{
	size_t k = req_deciding_limit(res);
	if ((res->verdict == VERDICT_FAIL || res->verdict == VERDICT_PASS) && k != SIZE_MAX &&
	    res->limits[k].text[0]) {
		const struct probe_metric *m = NULL;
		if (res->probe) {
			int mi = probe_decl_metric_index(&res->probe->decl, res->req->limits[k].metric);
			m = mi >= 0 ? probe_decl_metric(&res->probe->decl, (uint32_t)mi) : NULL;
		}
		snprintf(buf, len, "%s%s%s", m ? m->name : "", m ? " " : "", res->limits[k].text);
	} else {
		snprintf(buf, len, "%s", res->verdict != VERDICT_PASS && res->reason[0] ? res->reason
											: "-");
	}
}

/* Ready for the next requirement: nothing drawn, nothing measured. */
static void progress_reset(struct cli_progress *p)
{
	p->last_line = p->last_draw = 0;
	p->drawn = 0;
	p->measuring = false;
	p->est_done = 0;
	p->plan_set = false;
	p->plan_said = 0;
}

void cli_progress_init_live(struct cli_progress *p)
{
	memset(p, 0, sizeof *p);
	p->index = p->total = 1;
	p->tty = term_capable(STDERR_FILENO);
	p->quiet = !p->tty;
	p->colour = p->tty && cli_colour(STDERR_FILENO);
	p->interval = CLI_PROGRESS_INTERVAL_S;
}

void cli_progress_clear(struct cli_progress *p)
{
	if (!p->quiet && p->drawn) {
		fprintf(stderr, "\033[%zuA\r\033[J", p->drawn);
		fflush(stderr);
	}
	progress_reset(p);
}

void cli_progress_done(struct cli_progress *p, const char *id, const struct req_result *res)
{
	char safe[256], key[700], fig[700], up[32] = "\r\033[K";
	size_t drawn = p->drawn;
	progress_reset(p);
	if (p->quiet)
		return;
	if (drawn) /* the verdict replaces the live view */
		snprintf(up, sizeof up, "\033[%zuA\r\033[J", drawn);
	termsafe_escape(id, safe, sizeof safe);
	key_figure(res, key, sizeof key);
	termsafe_escape(key, fig, sizeof fig);
	const char *on = p->colour ? report_verdict_sgr(res->verdict) : "";
	/* Measured with no limits: said as the table says it, never "pass". */
	bool unjudged = res->verdict == VERDICT_PASS && (!res->req || !res->req->nlimits);
	fprintf(stderr, "%s[%zu/%zu] %s: %s%s%s%s%s (%.1f s)\n", p->tty ? up : "", p->index,
		p->total, safe, on, unjudged ? VERDICT_LABEL_NO_LIMITS : verdict_name(res->verdict),
		on[0] ? REPORT_SGR_RESET : "", unjudged ? "" : ", ", unjudged ? "" : fig,
		res->seconds);
	fflush(stderr);
}
