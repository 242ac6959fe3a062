/* SPDX-License-Identifier: Apache-2.0 */
/* run.c - `rtconform run`: measure every requirement of the files, each in
 * its own worker, and write the four reports. */
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/run_faults.h"
#include "cli/run_journal.h"
#include "cli/run_metrics.h"
#include "evidence/sign.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/termsafe.h"
#include "harness/measure/timebase.h"
#include "harness/runinfo.h"
#include "harness/trace.h"
#include "harness/measure/probes/probes.h"
#include "host/identity.h"
#include "reports/link.h"
#include "reports/report.h"
#include "requirements/validate.h"

static const char run_head[] =
	"usage: rtconform run [OPTIONS] [FILE.xml | PROFILE ...]\n"
	"\n"
	"Measure every requirement of the files (no FILE: the built-in default profile),\n"
	"each in its own worker under mlockall and the requested policy, and write reports.\n"
	"PROFILE: a shipped profile's name (rtconform list --profiles).\n";

static const char run_tail[] =
	"exit status: 0 all passed, 1 a limit failed, 2 usage error or invalid input\n"
	"(nothing measured), 3 a requirement could not be measured, 4 the samples could\n"
	"not decide a limit at its stated confidence (3 wins over 1, 1 over 4)\n";

/* What the options ask for. */
struct run_args {
	const char *only;
	struct out_set out;      /* -o, the reports' options, --csv, --lava, --metrics */
	const char *sign;        /* --sign KEY, or NULL */
	struct sign_key sign_key;
	bool quiet;
	struct cli_progress ps;
	const char *host_label;  /* --host-label NAME, or NULL */
	bool junit_skipped;      /* --junit-skipped */
	const char *kcidb_origin; /* --kcidb-origin NAME, or NULL */
	char faults[1200];       /* what selftest injected (run_faults.h); "": none */
	struct run_options ro;
};

/* parse_options() result when the command goes on. */
#define RUN_CONTINUE (-1)

/* An empty --only would select nothing and pass. */
static int check_empty(const struct run_args *a)
{
	if (!a->only || a->only[0])
		return RUN_CONTINUE;
	termsafe_println(stderr, "rtconform run: --only: empty value (see rtconform run --help)");
	return EXIT_USAGE;
}

/* --duration's or --interval's (opt) value; 0, or -1 after saying why. */
static int parse_duration(const char *opt, const char *v, uint64_t *ns)
{
	char err[200], safe[64];
	if (units_run_duration_parse(v, ns, err, sizeof err) == 0)
		return 0;
	termsafe_println(stderr, "rtconform run: %s \"%s\": %s", opt,
		     termsafe_escape(v, safe, sizeof safe), err);
	return -1;
}

/* 0 when NAME may be a --host-label (host_label_problem), else -1 after
 * saying why. */
static int check_host_label(const char *name)
{
	const char *why = host_label_problem(name);
	if (!why)
		return 0;
	char safe[128];
	termsafe_println(stderr, "rtconform run: --host-label '%s': %s",
		     termsafe_escape(name, safe, sizeof safe), why);
	return -1;
}

/* --only given again adds its ids to the selection, as a user who writes
 * `--only A --only B` means A and B (docs/requirements.md). The joined
 * list lives as long as the command (static: one `run` a process). An
 * empty list stays empty, for check_empty to refuse. Returns 0, or -1
 * out of memory. */
static int add_only(struct run_args *a, const char *ids)
{
	static char *joined;
	if (!a->only || !a->only[0] || !ids[0]) {
		a->only = a->only && !a->only[0] ? a->only : ids;
		return 0;
	}
	size_t had = strlen(a->only), more = strlen(ids);
	char *j = malloc(had + more + 2);
	if (!j)
		return -1;
	memcpy(j, a->only, had);
	j[had] = ',';
	memcpy(j + had + 1, ids, more + 1);
	free(joined);
	joined = j;
	a->only = joined;
	return 0;
}

static int parse_options(int argc, char **argv, struct run_args *a)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_run, argc, argv)) != -1) {
		switch (c) {
		case CLI_OUT_OUTPUT: if (out_option(&a->out, OUT_DIR, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_JUNIT: if (out_option(&a->out, OUT_JUNIT, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_JUNIT_SKIPPED: a->junit_skipped = true; break;
		case CLI_OUT_SUMMARY: if (out_option(&a->out, OUT_SUMMARY, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_HTML: if (out_option(&a->out, OUT_HTML, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_JSON: if (out_option(&a->out, OUT_JSON, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_CSV: if (out_option(&a->out, OUT_CSV, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_LAVA: if (out_option(&a->out, OUT_LAVA, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_KCIDB: if (out_option(&a->out, OUT_KCIDB, optarg)) return EXIT_USAGE; break;
		case CLI_OUT_KCIDB_ORIGIN:
			if (cli_kcidb_origin("run", optarg, &a->kcidb_origin)) return EXIT_USAGE;
			break;
		case CLI_OUT_METRICS: if (out_option(&a->out, OUT_METRICS, optarg)) return EXIT_USAGE; break;
		case 'O':
			if (add_only(a, optarg)) {
				termsafe_println(stderr, "rtconform run: --only: out of memory");
				return EXIT_USAGE;
			}
			break;
		case 'k': a->ro.quick = true; break;
		case 't': a->ro.trace = true; break;
		case 'i':
			if (cli_parse_count("run", "--iterations", optarg, 1, REQ_MAX_ITERATIONS,
					    &a->ro.iterations_override))
				return EXIT_USAGE;
			break;
		case 'r':
			if (cli_parse_count("run", "--runs", optarg, 1, RTC_MAX_RUNS,
					    &a->ro.runs_override))
				return EXIT_USAGE;
			break;
		case 'D':
			if (parse_duration("--duration", optarg, &a->ro.duration_override))
				return EXIT_USAGE;
			break;
		case 'I':
			if (parse_duration("--interval", optarg, &a->ro.interval_ns))
				return EXIT_USAGE;
			break;
		case 'q': a->quiet = true; break;
		case 'G':
			if (sign_prepare("run", optarg, &a->sign_key))
				return EXIT_USAGE;
			a->sign = optarg;
			break;
		case 'L':
			if (check_host_label(optarg))
				return EXIT_USAGE;
			a->host_label = optarg;
			break;
		case 'h': cli_usage(stdout, &cli_opts_run, run_head, run_tail); return 0;
		default: return cli_getopt_error("run", c, argv);
		}
	}
	if (a->ro.duration_override && a->ro.runs_override) {
		termsafe_println(stderr, "rtconform run: --runs and --duration: give one, not both");
		return EXIT_USAGE;
	}
	if (cli_progress_init(&a->ps, a->quiet) != 0)
		return EXIT_USAGE;
	return check_empty(a);
}

static bool id_selected(const char *only, const char *id)
{
	if (!only)
		return true;
	size_t n = strlen(id);
	for (const char *p = only; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && strncmp(p, id, n) == 0)
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

/* Edits (insert, delete, replace one character, case ignored) that turn a
 * into b; stops counting at 3, which is more than a near id is allowed. */
static size_t id_distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), row[257];
	if (na > 256 || nb > 256)
		return 3;
	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t diag = row[0], best = row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t up = row[j];
			bool same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			size_t v = diag + !same;
			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			diag = up;
			if (v < best)
				best = v;
		}
		if (best >= 3)
			return 3;
	}
	return row[nb] < 3 ? row[nb] : 3;
}

/* The id of the files nearest to `id`, the one a typo or the wrong case
 * meant: the same but for case, else at most 2 edits away (the first of
 * the nearest, in file order); NULL when none is that near. */
static const char *near_id(const char *id, struct req_file **files, size_t nfiles)
{
	const char *best = NULL;
	size_t bestd = 3;
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++) {
			const char *cand = files[f]->reqs[i].id;
			size_t d = strcasecmp(cand, id) == 0 ? 0 : id_distance(id, cand);
			if (d < bestd) {
				best = cand;
				bestd = d;
			}
		}
	return best;
}

/* Every id of --only must exist somewhere. */
static int check_only(const char *only, struct req_file **files, size_t nfiles)
{
	char id[256];
	for (const char *p = only; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 0 || len >= sizeof id) {
			termsafe_println(stderr, "rtconform run: --only: empty or overlong id in '%s'", only);
			return EXIT_USAGE;
		}
		memcpy(id, p, len);
		id[len] = 0;
		bool found = false;
		for (size_t f = 0; f < nfiles && !found; f++)
			for (size_t i = 0; i < files[f]->nreqs && !found; i++)
				found = strcmp(files[f]->reqs[i].id, id) == 0;
		if (!found) {
			/* Ids are matched exactly (they are case-sensitive in the
			 * file); a near one is named, never taken in its place. */
			const char *near = near_id(id, files, nfiles);
			if (near)
				termsafe_println(stderr, "rtconform run: --only: no requirement with id "
						 "'%s'; did you mean %s?", id, near);
			else
				termsafe_println(stderr, "rtconform run: --only: no requirement with "
						 "id '%s'", id);
			return EXIT_USAGE;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* --duration needs every selected requirement's probe to run by time. 0,
 * or EXIT_USAGE after naming each that cannot. */
static int check_duration(const struct run_args *a, struct req_file **files, size_t nfiles)
{
	int rc = 0;
	char why[300];
	for (size_t f = 0; f < nfiles && a->ro.duration_override; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++) {
			const struct requirement *r = &files[f]->reqs[i];
			const struct probe *p = probe_find(r->probe);
			if (!id_selected(a->only, r->id) || !p ||
			    !validate_by_time(&p->decl, why, sizeof why))
				continue;
			termsafe_println(stderr, "rtconform run: --duration: %s:%ld: requirement %s: %s "
				     "(leave it out with --only)", files[f]->path, r->line, r->id, why);
			rc = EXIT_USAGE;
		}
	return rc;
}

/* Each output's path, checked before anything is measured and its
 * directory locked (output/output.h), held in a->out until the run ends. */
static int prepare_outputs(struct run_args *a, struct req_file **files, size_t nfiles)
{
	static const enum out_kind kinds[] = { OUT_JUNIT, OUT_SUMMARY, OUT_HTML, OUT_JSON,
					       OUT_CSV, OUT_LAVA, OUT_KCIDB, OUT_METRICS };
	struct out_file *in = calloc(nfiles ? nfiles : 1, sizeof *in);
	if (!in) {
		termsafe_println(stderr, "rtconform run: out of memory");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < nfiles; i++)
		in[i] = (struct out_file){ files[i]->path, "the requirements file" };
	int rc = out_prepare(&a->out, kinds, sizeof kinds / sizeof kinds[0], in, nfiles,
			     OUT_SET_ANY);
	free(in);
	return rc;
}

static void out_of_memory(void)
{
	termsafe_println(stderr, "rtconform run: out of memory building the reports");
	abort(); /* the results cannot be reported: never exit as if they were */
}

/* Requirement r of file f before it is measured: skipped when --only left
 * it out (listed so a subset's report still shows the whole file, and says
 * why these have no figures), else an error saying why. False when it is
 * not selected. */
static bool unmeasured(struct req_result *res, const struct requirement *r,
		       const struct req_file *f, const char *only, const char *why)
{
	if (id_selected(only, r->id)) {
		req_result_error(res, r, f, "%s", why);
		return true;
	}
	req_result_error(res, r, f, "not selected (--only %s)", only);
	res->verdict = VERDICT_SKIPPED;
	res->not_selected = true;
	return false;
}

/* The journal's head: the run as its reports would be had nothing been
 * measured, which is what `rtconform report` of its directory starts from. */
static void head_of_journal(struct run_journal *rj, struct req_file **files, size_t nfiles,
			    const char *only, const struct report_run *run)
{
	struct report_view pv;
	struct req_result *res = calloc(1, sizeof *res);
	if (!res || report_view_begin(&pv, files, nfiles) != 0)
		out_of_memory();
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++) {
			memset(res, 0, sizeof *res);
			unmeasured(res, &files[f]->reqs[i], files[f], only,
				   "not measured: rtconform ended (killed, or the machine stopped) "
				   "before this requirement began; read from the run's journal");
			if (report_view_add(&pv, f, res) != 0)
				out_of_memory();
		}
	if (report_view_finish(&pv, run) != 0)
		out_of_memory();
	run_journal_head(rj, &pv, run, files, nfiles);
	report_view_free(&pv);
	free(res);
}

/* Measure the selected requirements of every file, in file order, into the
 * view; the others are listed as skipped. Each result goes into the view as
 * soon as it is there and its result memory is released, so a finished
 * requirement costs only what the reports keep of it; each goes into the
 * journal first, and each of its runs as it ends (ro->checkpoint). */
static void measure_all(struct report_view *view, struct req_file **files, size_t nfiles,
			const char *only, const struct run_options *ro, struct cli_progress *ps,
			struct run_journal *rj, struct run_metrics *rm)
{
	struct req_result *res = calloc(1, sizeof *res);
	if (!res)
		out_of_memory();
	for (size_t f = 0; f < nfiles; f++) {
		for (size_t i = 0; i < files[f]->nreqs; i++) {
			const struct requirement *r = &files[f]->reqs[i];
			if (unmeasured(res, r, files[f], only, "interrupted before it ran")) {
				ps->index++;
				rj->file = f;
				rj->index = i;
				if (!*ro->interrupted)
					runner_run(r, files[f], ro, res);
				run_journal_finished(rj, f, i, res);
				run_metrics_finished(rm, res);
				cli_progress_done(ps, r->id, res);
			}
			if (report_view_add(view, f, res) != 0)
				out_of_memory();
			run_journal_give_intervals(rj, view, f);
			req_result_free(res);
			memset(res, 0, sizeof *res);
		}
	}
	free(res);
}

/* Write the table (and the reports' paths) to standard output, whole, as
 * the last thing a run does: a reader that stops reading (| head) or an
 * output that fails (closed, full) cannot cost a report, and a signal ends a
 * write that blocks. 0, or EXIT_NOT_MEASURED after saying why on stderr. */
static int print_table(const struct report_view *view, int rc, bool all_written,
		       const struct out_set *out, volatile sig_atomic_t *interrupted,
		       sig_atomic_t seen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		out_of_memory();
	report_write_text_colour(view, m, rc,
				 all_written ? NULL : "a report could not be written (see above)",
				 cli_colour(STDOUT_FILENO));
	if (all_written)
		out_say(out, m);
	if (fclose(m) != 0)
		out_of_memory();
	int e = cli_write_stdout(text, len, interrupted, seen);
	free(text);
	if (!e)
		return 0;
	termsafe_println(stderr, "rtconform run: standard output: %s; the reports are written%s",
		     e == -EINTR ? "interrupted while blocked" : strerror(-e),
		     all_written ? "" : " as far as said above");
	return EXIT_NOT_MEASURED;
}

/* The four reports, the CSV export of --csv, the LAVA results of --lava
 * and the KCIDB submission of --kcidb from the view, then the table on stdout. Returns the run's exit status:
 * EXIT_NOT_MEASURED also when a report, the export, the LAVA results or
 * standard output could not be written. */
static int write_reports(const struct report_view *view, const struct out_set *out,
			 sig_atomic_t seen, volatile sig_atomic_t *interrupted, bool *written)
{
	int rc = report_view_exit_status(view);
	/* A report that could not be written makes the run an error. */
	*written = out_write_view(out, view, "the run") == 0;
	if (!*written)
		rc = EXIT_NOT_MEASURED;
	int prc = print_table(view, rc, *written, out, interrupted, seen);
	return prc ? prc : rc;
}

/* MANIFEST.sha256 in the -o directory, last, listing every file this run
 * wrote there (out_seal): the reports, the traces, the CSV export when
 * --csv is in it; a report written elsewhere (--junit /elsewhere) is not
 * listed. When a report could not be written, no manifest vouches for the
 * directory: an earlier run's is removed. With --sign, the manifest is
 * signed. 0, or EXIT_NOT_MEASURED after saying why. */
static int write_manifest(const struct run_args *a, const struct report_view *v, bool written)
{
	return out_seal_view(&a->out, v, written) != 0 ? EXIT_NOT_MEASURED : 0;
}

/* Each limit of a selected requirement whose statistic the counts this
 * run measures with may give too few samples (the options can lower the
 * file's: --iterations, --runs, --duration), one line each on stderr
 * before anything is measured, so a figure that will be missing is no
 * surprise after the run. */
/* Intervals past a week of minutes per metric (1 s intervals for a day,
 * say) make a results.json of hundreds of MB, past what report, compare and
 * merge read (256 MiB); said before measuring, with the remedy. */
static void warn_many_intervals(const struct requirement *r, const struct run_options *ro)
{
	uint64_t every = runner_interval(r, ro), dur = runner_duration(r, ro);
	if (!every || !dur || dur / every <= 7 * 24 * 60)
		return;
	termsafe_println(stderr, "rtconform run: warning: requirement %s keeps %llu intervals of "
			 "each metric: its results.json may pass 256 MiB, the most report, compare "
			 "and merge read; a longer --interval keeps it smaller", r->id,
			 (unsigned long long)(dur / every));
}

static void warn_short_plans(struct req_file **files, size_t nfiles, const char *only,
			     const struct run_options *ro)
{
	char why[400];
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++) {
			const struct requirement *r = &files[f]->reqs[i];
			uint64_t it, runs, warmup;
			if (!id_selected(only, r->id))
				continue;
			runner_counts(r, ro, &it, &runs, &warmup);
			warn_many_intervals(r, ro);
			const struct probe_decl *p = probe_decl_catalog_find(&probe_catalog,
									     r->probe);
			for (size_t k = 0; k < r->nlimits; k++) {
				bool sure;
				if (validate_samples_short(&r->limits[k], p, it, runs,
							   runner_duration(r, ro), why, sizeof why,
							   &sure))
					termsafe_println(stderr, "rtconform run: warning: requirement "
							 "%s: %s", r->id, why);
			}
		}
}

/* The readiness checks that warn or fail, one line each on stderr before
 * anything is measured: figures from a virtual machine or a kernel without
 * PREEMPT_RT look bad for a reason the terminal must show, not only the
 * reports. --quiet keeps stderr empty (every report still has them). */
static void say_readiness(const struct readiness *rd)
{
	for (size_t i = 0; i < rd->n; i++) {
		const struct ready_check *c = &rd->c[i];
		if (c->level == READY_WARN || c->level == READY_FAIL)
			termsafe_println(stderr, "rtconform run: readiness %s: %s: %s",
					 ready_level_name(c->level), c->name, c->finding);
	}
}

/* run_options.checkpoint: the journal's, then --metrics'. */
struct run_live {
	struct run_journal *rj;
	struct run_metrics *rm;
};
static void checkpoint_all(const struct req_result *partial, void *arg)
{
	struct run_live *live = arg;
	run_journal_checkpoint(partial, live->rj);
	run_metrics_checkpoint(live->rm, partial);
}

/* Measure the loaded files and write the reports to a->out's paths. */
static int run_files(struct req_file **files, size_t nfiles, struct run_args *a,
		     const char *self_dir, const char *cmdline, struct run_journal *rj)
{
	char *const *out_path = a->out.path;
	char err[600];
	struct timebase tb;
	if (timebase_init(&tb, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform run: timebase: %s", err);
		return EXIT_NOT_MEASURED;
	}
	/* The machine as `rtconform env` judges it, taken once: every report
	 * carries the checks beside the fingerprint. */
	struct host_facts hf;
	host_facts_collect(&hf);
	struct fingerprint fp = { 0 };
	/* The lab's name for the machine comes first: it is what people look for. */
	if (a->host_label)
		fingerprint_add(&fp, "host.label", "%s", a->host_label);
	runinfo_collect_facts(&fp, &hf, &tb);
	if (a->faults[0]) {
		fingerprint_add(&fp, RUN_FAULTS_KEY, "%s", a->faults);
		termsafe_println(stderr, "rtconform run: FAULTS INJECTED by selftest: %s", a->faults);
	}
	/* The checks that depend on where a run measures judge the CPUs the
	 * selected requirements measure on, together. */
	cpu_set_t allowed, measuring;
	CPU_ZERO(&measuring);
	if (hf.allowed.state != HOST_CPUS_LIST || cpulist_parse(hf.allowed.list, &allowed) != 0)
		CPU_ZERO(&allowed);
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++)
			if (id_selected(a->only, files[f]->reqs[i].id))
				runinfo_measuring_cpus(&files[f]->reqs[i], &allowed, &measuring);
	struct readiness rd;
	runinfo_readiness_on(&hf, &tb, true, &measuring, &rd);

	struct cli_progress ps = a->ps;
	struct run_options *ro = &a->ro;
	/* Traces go beside report.html, which links them by name, as
	 * results.json names them; junit.xml attaches them by their absolute
	 * paths (report_view.trace_dir). */
	char *trace_dir = strdup(out_path[REPORT_HTML]);
	if (!trace_dir)
		out_of_memory();
	ro->trace_dir = dirname(trace_dir);
	struct trace_names trace_names = { 0 };
	ro->trace_names = &trace_names;
	ro->interrupted = cli_become_supervisor();
	ro->self_dir = self_dir;
	ro->progress = cli_progress_show;
	ro->progress_arg = &ps;
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++)
			ps.total += id_selected(a->only, files[f]->reqs[i].id);
	if (!a->quiet) {
		say_readiness(&rd);
		warn_short_plans(files, nfiles, a->only, ro);
	}

	struct report_view view;
	if (report_view_begin(&view, files, nfiles) != 0)
		out_of_memory();
	struct report_run run = { .tb = &tb, .env = &fp, .ready = &rd, .command_line = cmdline };
	run.started = time(NULL);
	head_of_journal(rj, files, nfiles, a->only, &run);
	struct run_metrics rm;
	run_metrics_begin(&rm, out_path[OUT_METRICS], files, nfiles, id_selected, a->only, &fp,
			  run.started);
	struct run_live live = { rj, &rm };
	ro->checkpoint = checkpoint_all;
	ro->checkpoint_arg = &live;
	ro->interval = run_journal_interval;
	ro->interval_arg = rj;
	measure_all(&view, files, nfiles, a->only, ro, &ps, rj, &rm);
	/* The directory exists (checked before measuring); the traces saved
	 * there are regular files, linked and attached (when it cannot be
	 * resolved to an absolute path, only linked). */
	if (report_view_find_traces(&view, ro->trace_dir) != 0)
		out_of_memory();
	sig_atomic_t seen = *ro->interrupted; /* see cli_write_stdout */
	run.ended = time(NULL);
	runinfo_add_run(&fp, cmdline, run.started, run.ended, files, nfiles);
	fingerprint_add(&fp, "rtconform.interrupted", "%s", *ro->interrupted ? "yes" : "no");
	run_journal_settle(rj, !seen, &fp);
	if (report_view_finish(&view, &run) != 0)
		out_of_memory();
	view.junit_not_selected = a->junit_skipped;
	view.kcidb_origin = a->kcidb_origin;
	if (cli_view_outputs(&view, out_path, out_path[OUT_CSV]) != 0)
		out_of_memory();
	view.ival_spill = rj->spill;

	bool written = false;
	int rc = write_reports(&view, &a->out, seen, ro->interrupted, &written);
	run_journal_close(rj, written);
	int mrc = write_manifest(a, &view, written);
	if (mrc && rc != EXIT_USAGE)
		rc = mrc;
	run_metrics_end(&rm);
	report_view_free(&view);
	fingerprint_free(&fp);
	trace_names_free(&trace_names);
	ro->trace_names = NULL;
	free(trace_dir);
	return rc;
}

int cmd_run(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct run_args a = { .out = { .cmd = "run", .cmdline = ctx->cmdline,
				       .ev = &out_evidence_std,
				       .given[OUT_DIR] = "rtconform-results" } };
	int rc = parse_options(argc, argv, &a);
	if (rc != RUN_CONTINUE)
		return rc;
	if ((rc = run_faults("run", &a.ro.worker_name, a.faults, sizeof a.faults)) != 0)
		return rc;
	char tberr[200];
	if (timebase_forced(tberr, sizeof tberr) < 0) { /* before any output is made */
		termsafe_println(stderr, "rtconform run: timebase: %s", tberr);
		return EXIT_USAGE;
	}

	struct req_file **files;
	size_t nfiles;
	rc = cli_load_all(ctx, argv + optind, argc - optind, &files, &nfiles);
	if (rc)
		return rc;
	if ((a.only && (rc = check_only(a.only, files, nfiles)) != 0) ||
	    (rc = check_duration(&a, files, nfiles)) != 0) {
		cli_free_files(files, nfiles);
		return rc;
	}

	/* Find unwritable outputs before measuring anything; then lock each
	 * output's directory, held until every report is written: a second
	 * run into it is refused before it measures. */
	a.out.sign = a.sign ? &a.sign_key : NULL;
	rc = cli_need_helpers("run", ctx);
	if (rc == 0)
		rc = prepare_outputs(&a, files, nfiles);
	/* The journal after the lock: a second run into the directory is
	 * refused by the lock, never by the first run's journal. */
	struct run_journal rj = { .on = false };
	if (rc == 0)
		rc = run_journal_open(&rj, a.out.path[OUT_JSON]);
	if (rc == 0)
		rc = run_files(files, nfiles, &a, ctx->self_dir,
			       ctx->cmdline ? ctx->cmdline : "rtconform run", &rj);
	if (rj.on) /* ended before measuring: nothing to keep */
		run_journal_close(&rj, true);
	out_end(&a.out, rc);
	cli_free_files(files, nfiles);
	return rc;
}
