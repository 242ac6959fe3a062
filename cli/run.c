/* run.c - `rtconform run`: measure every requirement of the files, each in
 * its own worker, and write the four reports. */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/termsafe.h"
#include "harness/measure/timebase.h"
#include "harness/runinfo.h"
#include "reports/report.h"

static const char run_usage[] =
	"usage: rtconform run [OPTIONS] [FILE.xml ...]\n"
	"\n"
	"Measure every requirement of the files (no FILE: the built-in default profile),\n"
	"each in its own worker under mlockall and the requested policy, and write reports.\n"
	"\n"
	"  -o, --output DIR      report directory (default ./rtconform-results): junit.xml,\n"
	"                        summary.txt, report.html, results.json\n"
	"      --junit FILE      write the JUnit report here instead\n"
	"      --summary FILE    write the text summary here instead\n"
	"      --html FILE       write the HTML audit report here instead\n"
	"      --json FILE       write results.json here instead\n"
	"      --only ID[,ID...] run only these requirements\n"
	"      --quick           smoke run: iterations / 10, at most 3 runs\n"
	"      --iterations N    override every requirement's iterations\n"
	"      --runs N          override every requirement's runs (<= 1000)\n"
	"  -h, --help            this text\n"
	"\n"
	"exit status: 0 all passed, 1 a limit failed, 2 usage error or invalid input\n"
	"(nothing measured), 3 a requirement could not be measured (3 wins over 1)\n";

/* The four reports of a run: an explicit path, or a name in the -o dir. */
enum { OUT_JUNIT, OUT_SUMMARY, OUT_HTML, OUT_JSON, NOUT };
static const char *const out_names[NOUT] = { "junit.xml", "summary.txt", "report.html",
					     "results.json" };

/* What the options ask for. */
struct run_args {
	const char *outdir, *only;
	const char *explicit_path[NOUT];
	struct run_options ro;
};

/* parse_options() result when the command goes on. */
#define RUN_CONTINUE (-1)

static const char *const out_options[NOUT] = { "--junit", "--summary", "--html", "--json" };

/* An empty value is never what was meant: -o '' would write into /, and
 * --only '' would select nothing and pass. */
static int check_empty(const struct run_args *a)
{
	const char *what = NULL;
	if (a->outdir && !a->outdir[0])
		what = "-o/--output";
	for (int k = 0; k < NOUT; k++)
		if (a->explicit_path[k] && !a->explicit_path[k][0])
			what = out_options[k];
	if (a->only && !a->only[0])
		what = "--only";
	if (!what)
		return RUN_CONTINUE;
	term_println(stderr, "rtconform run: %s: empty value (see rtconform run --help)", what);
	return EXIT_USAGE;
}

static int parse_options(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "junit", required_argument, NULL, 'j' },
		{ "summary", required_argument, NULL, 's' },
		{ "html", required_argument, NULL, 'H' },
		{ "json", required_argument, NULL, 'J' },
		{ "only", required_argument, NULL, 'O' },
		{ "quick", no_argument, NULL, 'q' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "runs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	cli_getopt_begin();
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': a->outdir = optarg; break;
		case 'j': a->explicit_path[OUT_JUNIT] = optarg; break;
		case 's': a->explicit_path[OUT_SUMMARY] = optarg; break;
		case 'H': a->explicit_path[OUT_HTML] = optarg; break;
		case 'J': a->explicit_path[OUT_JSON] = optarg; break;
		case 'O': a->only = optarg; break;
		case 'q': a->ro.quick = true; break;
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
		case 'h': fputs(run_usage, stdout); return 0;
		default: return cli_getopt_error("run", c, argv);
		}
	}
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

/* Every id of --only must exist somewhere. */
static int check_only(const char *only, struct req_file **files, size_t nfiles)
{
	char id[256];
	for (const char *p = only; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 0 || len >= sizeof id) {
			term_println(stderr, "rtconform run: --only: empty or overlong id in '%s'", only);
			return EXIT_USAGE;
		}
		memcpy(id, p, len);
		id[len] = 0;
		bool found = false;
		for (size_t f = 0; f < nfiles && !found; f++)
			for (size_t i = 0; i < files[f]->nreqs && !found; i++)
				found = strcmp(files[f]->reqs[i].id, id) == 0;
		if (!found) {
			term_println(stderr, "rtconform run: --only: no requirement with id '%s'", id);
			return EXIT_USAGE;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* What an output is called in a message: its option, or its place in -o. */
static const char *out_label(const struct run_args *a, int k)
{
	return a->explicit_path[k] ? out_options[k] : out_names[k];
}

/* No report may overwrite a requirements file or another report. 0, or
 * EXIT_USAGE after saying which collide. */
static int check_collisions(const struct run_args *a, char *const out_path[NOUT],
			    struct req_file **files, size_t nfiles)
{
	char *canon[NOUT] = { NULL };
	int rc = 0;
	for (int k = 0; k < NOUT && !rc; k++) {
		canon[k] = cli_canonical_path(out_path[k]);
		for (size_t f = 0; canon[k] && f < nfiles && !rc; f++) {
			char *in = realpath(files[f]->path, NULL);
			if (in && strcmp(in, canon[k]) == 0) {
				term_println(stderr, "rtconform run: %s (%s) would overwrite the "
					     "requirements file %s", out_label(a, k), out_path[k],
					     files[f]->path);
				rc = EXIT_USAGE;
			}
			free(in);
		}
		for (int j = 0; j < k && canon[k] && !rc; j++)
			if (canon[j] && strcmp(canon[j], canon[k]) == 0) {
				term_println(stderr, "rtconform run: %s and %s are the same file (%s)",
					     out_label(a, j), out_label(a, k), out_path[k]);
				rc = EXIT_USAGE;
			}
	}
	for (int k = 0; k < NOUT; k++)
		free(canon[k]);
	return rc;
}

/* Each report's path, checked writable before anything is measured. 0, or
 * EXIT_USAGE after saying why; out_path[] is filled as far as it got. A
 * report directory this made is removed again when the run cannot go on. */
static int prepare_outputs(const struct run_args *a, char *out_path[NOUT],
			   struct req_file **files, size_t nfiles)
{
	char err[600];
	for (int k = 0; k < NOUT; k++) {
		out_path[k] = a->explicit_path[k] ? strdup(a->explicit_path[k])
						  : cli_join_path(a->outdir, out_names[k]);
		if (!out_path[k]) {
			term_println(stderr, "rtconform run: out of memory");
			return EXIT_USAGE;
		}
	}
	int rc = check_collisions(a, out_path, files, nfiles);
	struct stat st;
	bool dir_was_there = stat(a->outdir, &st) == 0;
	for (int k = 0; k < NOUT && !rc; k++) {
		if (report_check_writable(out_path[k], err, sizeof err) != 0) {
			term_println(stderr, "rtconform run: %s", err);
			rc = EXIT_USAGE;
		}
	}
	if (rc && !dir_was_there)
		rmdir(a->outdir); /* only if it is empty: nothing of anyone else's goes */
	return rc;
}

/* Measure the selected requirements of every file into run->files, in file
 * order; the others are listed as skipped. run->files is allocated. */
static void measure_all(struct report_run *run, struct req_file **files, size_t nfiles,
			const char *only, const struct run_options *ro, struct cli_progress *ps)
{
	for (size_t f = 0; f < nfiles; f++) {
		struct report_file *rf = &run->files[f];
		rf->file = files[f];
		rf->results = calloc(files[f]->nreqs ? files[f]->nreqs : 1, sizeof *rf->results);
		if (!rf->results) {
			term_println(stderr, "rtconform run: out of memory");
			abort(); /* nothing measured can be reported without it */
		}
		for (size_t i = 0; i < files[f]->nreqs; i++) {
			const struct requirement *r = &files[f]->reqs[i];
			struct req_result *res = &rf->results[rf->nresults++];
			if (!id_selected(only, r->id)) {
				/* Listed as skipped so a subset's report still shows the
				 * whole file, and says why these have no figures. */
				req_result_error(res, r, files[f], "not selected (--only %s)", only);
				res->verdict = VERDICT_SKIPPED;
				continue;
			}
			ps->index++;
			if (*ro->interrupted)
				req_result_error(res, r, files[f], "interrupted before it ran");
			else
				runner_run(r, files[f], ro, res);
			cli_progress_done(ps, r->id, res);
		}
	}
}

/* The text summary to stdout and the four reports. Returns the run's exit
 * status, EXIT_NOT_MEASURED when a report could not be written. */
static int write_reports(const struct report_run *run, char *out_path[NOUT])
{
	char err[600];
	/* One view of the results for the table below and every report. */
	struct report_view view;
	if (report_view_from_run(run, &view) != 0) {
		term_println(stderr, "rtconform run: out of memory building the reports");
		abort(); /* the results cannot be reported: never exit as if they were */
	}
	report_write_text(&view, stdout);
	int rc = report_exit_status(run);
	/* Every report is attempted: a full disk for one must not cost the
	 * others. A report that could not be written makes the run an error. */
	bool all_written = true;
	for (int k = 0; k < NOUT; k++) {
		if (report_write((enum report_kind)k, &view, out_path[k], err, sizeof err) != 0) {
			term_println(stderr, "rtconform run: %s", err);
			rc = EXIT_NOT_MEASURED;
			all_written = false;
		}
	}
	report_view_free(&view);
	if (all_written)
		term_println(stdout, "reports: %s, %s, %s, %s", out_path[OUT_JUNIT], out_path[OUT_SUMMARY],
		       out_path[OUT_HTML], out_path[OUT_JSON]);
	return rc;
}

static void free_results(struct report_run *run)
{
	for (size_t f = 0; f < run->nfiles; f++) {
		for (size_t i = 0; i < run->files[f].nresults; i++)
			req_result_free(&run->files[f].results[i]);
		free(run->files[f].results);
	}
	free(run->files);
}

/* Measure the loaded files and write the reports to out_path[]. */
static int run_files(struct req_file **files, size_t nfiles, struct run_args *a,
		     char *out_path[NOUT], const char *self_dir, const char *cmdline)
{
	char err[600];
	struct timebase tb;
	if (timebase_init(&tb, err, sizeof err) != 0) {
		term_println(stderr, "rtconform run: timebase: %s", err);
		return EXIT_NOT_MEASURED;
	}
	struct fingerprint fp = { 0 };
	runinfo_collect(&fp, &tb);

	struct cli_progress ps = { .tty = isatty(STDERR_FILENO) };
	struct run_options *ro = &a->ro;
	ro->interrupted = cli_become_supervisor();
	ro->self_dir = self_dir;
	ro->progress = cli_progress_show;
	ro->progress_arg = &ps;
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++)
			ps.total += id_selected(a->only, files[f]->reqs[i].id);

	struct report_run run = { 0 };
	run.files = calloc(nfiles, sizeof *run.files);
	if (!run.files) {
		term_println(stderr, "rtconform run: out of memory");
		fingerprint_free(&fp);
		return EXIT_NOT_MEASURED;
	}
	run.nfiles = nfiles;
	run.tb = &tb;
	run.env = &fp;
	run.started = time(NULL);
	run.command_line = cmdline;
	measure_all(&run, files, nfiles, a->only, ro, &ps);
	run.ended = time(NULL);
	runinfo_add_run(&fp, cmdline, run.started, run.ended, files, nfiles);
	fingerprint_add(&fp, "rtconform.interrupted", "%s", *ro->interrupted ? "yes" : "no");

	int rc = write_reports(&run, out_path);
	free_results(&run);
	fingerprint_free(&fp);
	return rc;
}

int cmd_run(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct run_args a = { .outdir = "rtconform-results" };
	int rc = parse_options(argc, argv, &a);
	if (rc != RUN_CONTINUE)
		return rc;

	struct req_file **files;
	size_t nfiles;
	rc = cli_load_all(argv + optind, argc - optind, &files, &nfiles);
	if (rc)
		return rc;
	if (a.only && (rc = check_only(a.only, files, nfiles)) != 0) {
		cli_free_files(files, nfiles);
		return rc;
	}

	/* Find unwritable outputs before measuring anything. */
	char *out_path[NOUT] = { NULL };
	rc = cli_need_helpers("run", ctx);
	if (rc == 0)
		rc = prepare_outputs(&a, out_path, files, nfiles);
	if (rc == 0)
		rc = run_files(files, nfiles, &a, out_path, ctx->self_dir,
			       ctx->cmdline ? ctx->cmdline : "rtconform run");
	for (int k = 0; k < NOUT; k++)
		free(out_path[k]);
	cli_free_files(files, nfiles);
	return rc;
}
