/* commands.c - the subcommands; see commands.h. Output to the user happens
 * here and in reports/, never in the measuring code. */
#include "cli/commands.h"

#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host/readiness.h"
#include "reports/report.h"
#include "requirements/loader.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/rtenv.h"
#include "harness/runinfo.h"
#include "harness/runner.h"
#include "harness/measure/timebase.h"
#include "base/units.h"
#include "requirements/validate.h"

#define DEFAULT_PROFILE_NAME "<built-in default profile>"

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1; /* a flag write only: the supervisor loop acts on it */
}

/* What `run` and `probe` need before the first worker: orphaned peers of
 * a worker come back to us to be reaped, and SIGINT/SIGTERM/SIGHUP only set
 * a flag the runner acts on (stop the worker, write the reports). */
static void become_supervisor(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	struct sigaction sa = { .sa_handler = on_interrupt };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void print_diags(const struct diag_list *d)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "%s\n", d->msgs[i]);
}

/* Load and fully check files (or the default profile when n == 0). Returns 0,
 * or EXIT_USAGE after printing every problem. */
static int load_all(char **paths, int n, struct req_file ***out, size_t *nout)
{
	struct diag_list d = { 0 };
	size_t count = n > 0 ? (size_t)n : 1;
	struct req_file **files = calloc(count, sizeof *files);
	if (!files) {
		fprintf(stderr, "rtconform: out of memory\n");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < count; i++) {
		if (n > 0)
			files[i] = req_load_file(paths[i], NULL, &d);
		else
			files[i] = req_load_memory(rtc_default_profile, rtc_default_profile_len,
						   DEFAULT_PROFILE_NAME, &d);
		if (files[i])
			validate_file(files[i], &probe_catalog, &d);
	}
	if (d.n) {
		print_diags(&d);
		diag_free(&d);
		for (size_t i = 0; i < count; i++)
			if (files[i])
				req_file_free(files[i]);
		free(files);
		return EXIT_USAGE;
	}
	*out = files;
	*nout = count;
	return 0;
}

static void free_files(struct req_file **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		req_file_free(files[i]);
	free(files);
}

/* ---------------------------------------------------------------- run */

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

struct progress_state {
	size_t index, total;
	bool tty;
};

static void show_progress(const struct req_result *r, uint32_t runs_done, uint64_t runs_total,
			  double elapsed, void *arg)
{
	struct progress_state *ps = arg;
	if (!ps->tty)
		return;
	double left = runs_done ? elapsed / runs_done * (double)(runs_total - runs_done) : -1;
	if (left >= 0)
		fprintf(stderr, "\r\033[K[%zu/%zu] %s: %u/%llu runs done, %.1f s, ~%.1f s left",
			ps->index, ps->total, r->req->id, runs_done,
			(unsigned long long)runs_total, elapsed, left);
	else
		fprintf(stderr, "\r\033[K[%zu/%zu] %s: warming up, %.1f s", ps->index, ps->total,
			r->req->id, elapsed);
	fflush(stderr);
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
			fprintf(stderr, "rtconform run: --only: empty or overlong id in '%s'\n", only);
			return EXIT_USAGE;
		}
		memcpy(id, p, len);
		id[len] = 0;
		bool found = false;
		for (size_t f = 0; f < nfiles && !found; f++)
			for (size_t i = 0; i < files[f]->nreqs && !found; i++)
				found = strcmp(files[f]->reqs[i].id, id) == 0;
		if (!found) {
			fprintf(stderr, "rtconform run: --only: no requirement with id '%s'\n", id);
			return EXIT_USAGE;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static char *join_path(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *s = malloc(len);
	if (s)
		snprintf(s, len, "%s/%s", dir, name);
	return s;
}

static int parse_count_opt(const char *opt, const char *v, uint64_t max, uint64_t *out)
{
	char err[200];
	if (count_parse(v, max, out, err, sizeof err) != 0) {
		fprintf(stderr, "rtconform run: %s: %s\n", opt, err);
		return -1;
	}
	return 0;
}

/* The four reports of a run: an explicit path, or a name in the -o dir. */
enum { OUT_JUNIT, OUT_SUMMARY, OUT_HTML, OUT_JSON, NOUT };
static const char *const out_names[NOUT] = { "junit.xml", "summary.txt", "report.html",
					     "results.json" };

static int write_report(int which, const struct report_view *v, const char *path, char *err,
			size_t len)
{
	switch (which) {
	case OUT_JUNIT:
		return report_write_junit(v, path, err, len);
	case OUT_SUMMARY:
		return report_write_summary(v, path, err, len);
	case OUT_HTML:
		return report_write_html(v, path, err, len);
	default:
		return report_write_json(v, path, err, len);
	}
}

int cmd_run(int argc, char **argv, const char *self_dir, const char *cmdline)
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
	const char *outdir = "rtconform-results", *only = NULL;
	const char *explicit_path[NOUT] = { NULL };
	char *out_path[NOUT] = { NULL };
	struct run_options ro = { 0 };
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': outdir = optarg; break;
		case 'j': explicit_path[OUT_JUNIT] = optarg; break;
		case 's': explicit_path[OUT_SUMMARY] = optarg; break;
		case 'H': explicit_path[OUT_HTML] = optarg; break;
		case 'J': explicit_path[OUT_JSON] = optarg; break;
		case 'O': only = optarg; break;
		case 'q': ro.quick = true; break;
		case 'i':
			if (parse_count_opt("--iterations", optarg, REQ_MAX_ITERATIONS,
					    &ro.iterations_override))
				return EXIT_USAGE;
			break;
		case 'r':
			if (parse_count_opt("--runs", optarg, RTC_MAX_RUNS, &ro.runs_override))
				return EXIT_USAGE;
			break;
		case 'h': fputs(run_usage, stdout); return 0;
		case ':':
			fprintf(stderr, "rtconform run: option %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "rtconform run: unknown option '%s' (see rtconform run --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}

	struct req_file **files;
	size_t nfiles;
	int rc = load_all(argv + optind, argc - optind, &files, &nfiles);
	if (rc)
		return rc;
	if (only && (rc = check_only(only, files, nfiles)) != 0) {
		free_files(files, nfiles);
		return rc;
	}

	/* Find unwritable outputs before measuring anything. */
	char err[600];
	for (int k = 0; k < NOUT; k++) {
		out_path[k] = explicit_path[k] ? strdup(explicit_path[k])
					       : join_path(outdir, out_names[k]);
		if (!out_path[k]) {
			fprintf(stderr, "rtconform run: out of memory\n");
			rc = EXIT_USAGE;
			goto out;
		}
		if (report_check_writable(out_path[k], err, sizeof err) != 0) {
			fprintf(stderr, "rtconform run: %s\n", err);
			rc = EXIT_USAGE;
			goto out;
		}
	}

	struct timebase tb;
	if (timebase_init(&tb, err, sizeof err) != 0) {
		fprintf(stderr, "rtconform run: timebase: %s\n", err);
		rc = EXIT_NOT_MEASURED;
		goto out;
	}
	struct fingerprint fp = { 0 };
	runinfo_collect(&fp, &tb);

	become_supervisor();

	struct progress_state ps = { .tty = isatty(STDERR_FILENO) };
	ro.self_dir = self_dir;
	ro.interrupted = &interrupted;
	ro.progress = show_progress;
	ro.progress_arg = &ps;
	for (size_t f = 0; f < nfiles; f++)
		for (size_t i = 0; i < files[f]->nreqs; i++)
			ps.total += id_selected(only, files[f]->reqs[i].id);

	struct report_run run = { 0 };
	run.files = calloc(nfiles, sizeof *run.files);
	if (!run.files) {
		fprintf(stderr, "rtconform run: out of memory\n");
		fingerprint_free(&fp);
		rc = EXIT_NOT_MEASURED;
		goto out;
	}
	run.nfiles = nfiles;
	run.tb = &tb;
	run.env = &fp;
	run.started = time(NULL);
	run.command_line = cmdline;
	for (size_t f = 0; f < nfiles; f++) {
		struct report_file *rf = &run.files[f];
		rf->file = files[f];
		rf->results = calloc(files[f]->nreqs ? files[f]->nreqs : 1, sizeof *rf->results);
		if (!rf->results) {
			fprintf(stderr, "rtconform run: out of memory\n");
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
			ps.index++;
			if (interrupted)
				req_result_error(res, r, files[f], "interrupted before it ran");
			else
				runner_run(r, files[f], &ro, res);
			if (ps.tty)
				fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s (%.1f s)\n", ps.index, ps.total,
					r->id, verdict_name(res->verdict), res->seconds);
		}
	}
	run.ended = time(NULL);
	runinfo_add_run(&fp, cmdline, run.started, run.ended, files, nfiles);
	fingerprint_add(&fp, "rtconform.interrupted", "%s", interrupted ? "yes" : "no");

	/* One view of the results for the table below and every report. */
	struct report_view view;
	if (report_view_from_run(&run, &view) != 0) {
		fprintf(stderr, "rtconform run: out of memory building the reports\n");
		abort(); /* the results cannot be reported: never exit as if they were */
	}
	report_write_text(&view, stdout);
	rc = report_exit_status(&run);
	/* Every report is attempted: a full disk for one must not cost the
	 * others. A report that could not be written makes the run an error. */
	bool all_written = true;
	for (int k = 0; k < NOUT; k++) {
		if (write_report(k, &view, out_path[k], err, sizeof err) != 0) {
			fprintf(stderr, "rtconform run: %s\n", err);
			rc = EXIT_NOT_MEASURED;
			all_written = false;
		}
	}
	report_view_free(&view);
	if (all_written)
		printf("reports: %s, %s, %s, %s\n", out_path[OUT_JUNIT], out_path[OUT_SUMMARY],
		       out_path[OUT_HTML], out_path[OUT_JSON]);

	for (size_t f = 0; f < nfiles; f++) {
		for (size_t i = 0; i < run.files[f].nresults; i++)
			req_result_free(&run.files[f].results[i]);
		free(run.files[f].results);
	}
	free(run.files);
	fingerprint_free(&fp);
out:
	for (int k = 0; k < NOUT; k++)
		free(out_path[k]);
	free_files(files, nfiles);
	return rc;
}

/* ----------------------------------------------------------- validate */

int cmd_validate(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: rtconform validate FILE...\n\n"
		     "Check requirement files against the schema and the probe table; measure\n"
		     "nothing. Prints one 'file:line: message' per problem.\n\n"
		     "exit status: 0 every file valid, 2 a problem was found");
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "rtconform validate: no file given (usage: rtconform validate FILE...)\n");
		return EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "rtconform validate: unknown option '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	struct req_file **files;
	size_t n;
	int rc = load_all(argv + 1, argc - 1, &files, &n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++)
		printf("%s: valid (%zu requirements)\n", files[i]->path, files[i]->nreqs);
	free_files(files, n);
	return 0;
}

/* --------------------------------------------------------------- list */

static void list_probes(void)
{
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];
		printf("%s\n    %s\n", p->decl.name, p->decl.help);
		for (size_t j = 0; j < p->decl.nparams; j++) {
			const struct probe_param *pp = &p->decl.params[j];
			printf("    param %-12s ", pp->name);
			if (pp->kind == PARAM_ENUM) {
				for (size_t k = 0; pp->values[k]; k++)
					printf("%s%s", k ? "|" : "", pp->values[k]);
			} else {
				printf("%s", pp->kind == PARAM_COUNT ? "<count>"
					     : pp->kind == PARAM_DURATION ? "<duration>"
									  : "<cpu list>");
			}
			printf(" (default %s): %s\n", pp->def, pp->help);
		}
		for (size_t j = 0; j < p->decl.nmetrics; j++)
			printf("    metric %-11s %s%s\n", p->decl.metrics[j].name, p->decl.metrics[j].help,
			       j == 0 ? " [default]" : "");
		char why[300];
		if (p->supported && p->supported(why, sizeof why))
			printf("    not available here: %s\n", why);
		printf("\n");
	}
}

int cmd_list(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: rtconform list [FILE]\n\n"
		     "Without FILE: every probe with its parameters (allowed values, defaults)\n"
		     "and metrics. With FILE: the file's requirements (id, probe, policy, counts,\n"
		     "limits).");
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "rtconform list: at most one file (usage: rtconform list [FILE])\n");
		return EXIT_USAGE;
	}
	if (argc == 1) {
		list_probes();
		return 0;
	}
	struct req_file **files;
	size_t n;
	int rc = load_all(argv + 1, 1, &files, &n);
	if (rc)
		return rc;
	const struct req_file *f = files[0];
	printf("%s: %s%s%s\n", f->path, f->name ? f->name : "", f->title ? " - " : "",
	       f->title ? f->title : "");
	for (size_t i = 0; i < f->nreqs; i++) {
		const struct requirement *r = &f->reqs[i];
		printf("%-16s %-14s %s", r->id, r->probe, policy_name(r->policy));
		if (r->policy != POLICY_OTHER) {
			if (r->priority_max)
				printf(":max");
			else
				printf(":%d", r->priority);
		}
		printf("  %llux%llu", (unsigned long long)r->iterations, (unsigned long long)r->runs);
		for (size_t j = 0; j < r->nparams; j++)
			printf(" %s=%s", r->params[j].name, r->params[j].value);
		printf("\n");
		for (size_t j = 0; j < r->nlimits; j++) {
			const struct req_limit *l = &r->limits[j];
			printf("%16s limit %s %s%s%s%s%s\n", "", l->metric ? l->metric : "(default)",
			       l->stat_text, l->has_min ? " >= " : "", l->has_min ? l->min_text : "",
			       l->has_max ? " <= " : "", l->has_max ? l->max_text : "");
		}
	}
	free_files(files, n);
	return 0;
}

/* -------------------------------------------------------------- probe */

static const char probe_usage[] =
	"usage: rtconform probe NAME [--param K=V]... [--policy fifo|rr|other]\n"
	"                       [--priority N|max] [--cpu N] [--iterations N] [--runs N]\n"
	"                       [--warmup N] [--timeout DURATION]\n"
	"\n"
	"One ad-hoc measurement of a probe (see rtconform list), statistics and a\n"
	"histogram to stdout. Defaults: policy other, 1000 iterations, 1 run, timeout 60s.\n";

int cmd_probe(int argc, char **argv, const char *self_dir)
{
	static const struct option opts[] = {
		{ "param", required_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, 'P' },
		{ "priority", required_argument, NULL, 'R' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "runs", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct requirement req;
	memset(&req, 0, sizeof req);
	req.id = "probe";
	req.title = "ad-hoc measurement";
	req.cpu = -1;
	req.iterations = 1000;
	req.runs = 1;
	req.warmup = 100;
	req.timeout_ns = REQ_DEFAULT_TIMEOUT_NS;
	char *kv[REQ_MAX_PARAMS];
	size_t nkv = 0;
	const char *prio = NULL;
	char err[300];
	int c, rc = EXIT_USAGE;
	uint64_t u;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (nkv >= REQ_MAX_PARAMS || !strchr(optarg, '=')) {
				fprintf(stderr, "rtconform probe: --param wants K=V, got '%s'\n", optarg);
				goto out;
			}
			kv[nkv++] = optarg;
			break;
		case 'P':
			if (!strcmp(optarg, "fifo"))
				req.policy = POLICY_FIFO;
			else if (!strcmp(optarg, "rr"))
				req.policy = POLICY_RR;
			else if (!strcmp(optarg, "other"))
				req.policy = POLICY_OTHER;
			else {
				fprintf(stderr, "rtconform probe: --policy '%s' (expected fifo, rr or other)\n",
					optarg);
				goto out;
			}
			break;
		case 'R': prio = optarg; break;
		case 'c':
			if (count_parse_range(optarg, 0, 4095, &u, err, sizeof err) != 0) {
				fprintf(stderr, "rtconform probe: --cpu: %s\n", err);
				goto out;
			}
			req.cpu = (int)u;
			break;
		case 'i':
			if (count_parse(optarg, REQ_MAX_ITERATIONS, &req.iterations, err, sizeof err)) {
				fprintf(stderr, "rtconform probe: --iterations: %s\n", err);
				goto out;
			}
			break;
		case 'r':
			if (count_parse(optarg, RTC_MAX_RUNS, &req.runs, err, sizeof err)) {
				fprintf(stderr, "rtconform probe: --runs: %s\n", err);
				goto out;
			}
			break;
		case 'w':
			if (count_parse_range(optarg, 0, REQ_MAX_ITERATIONS, &req.warmup, err,
					      sizeof err)) {
				fprintf(stderr, "rtconform probe: --warmup: %s\n", err);
				goto out;
			}
			break;
		case 't':
			if (duration_parse_ns(optarg, false, &req.timeout_ns, err, sizeof err)) {
				fprintf(stderr, "rtconform probe: --timeout: %s\n", err);
				goto out;
			}
			break;
		case 'h': fputs(probe_usage, stdout); return 0;
		case ':':
			fprintf(stderr, "rtconform probe: option %s needs a value\n", argv[optind - 1]);
			goto out;
		default:
			fprintf(stderr, "rtconform probe: unknown option '%s' (see rtconform probe --help)\n",
				argv[optind - 1]);
			goto out;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "rtconform probe: give exactly one probe name (see rtconform list)\n");
		goto out;
	}
	req.probe = argv[optind];
	const struct probe *p = probe_find(req.probe);
	if (!p) {
		fprintf(stderr, "rtconform probe: unknown probe '%s' (see rtconform list)\n", req.probe);
		goto out;
	}
	if (prio) {
		if (req.policy == POLICY_OTHER) {
			fprintf(stderr, "rtconform probe: --priority needs --policy fifo or rr\n");
			goto out;
		}
		if (!strcmp(prio, "max")) {
			req.priority_max = true;
		} else {
			int pol = req_sched_policy(req.policy);
			if (count_parse(prio, 1000, &u, err, sizeof err) ||
			    (int)u < sched_get_priority_min(pol) || (int)u > sched_get_priority_max(pol)) {
				fprintf(stderr, "rtconform probe: --priority '%s' (expected %d..%d or max)\n",
					prio, sched_get_priority_min(pol), sched_get_priority_max(pol));
				goto out;
			}
			req.priority = (int)u;
		}
	} else if (req.policy != POLICY_OTHER) {
		req.priority_max = true;
	}
	for (size_t i = 0; i < nkv; i++) {
		char *eq = strchr(kv[i], '=');
		*eq = 0;
		req.params[i].name = kv[i];
		req.params[i].value = eq + 1;
	}
	req.nparams = nkv;
	/* The same checks as a requirements file gets: names, values, the
	 * probe's own combination rules, parameters given twice. */
	struct req_file file = { .path = "<command line>", .name = "probe", .reqs = &req,
				 .nreqs = 1 };
	struct diag_list d = { 0 };
	if (validate_file(&file, &probe_catalog, &d)) {
		for (size_t i = 0; i < d.n; i++)
			fprintf(stderr, "rtconform probe: %s\n", d.msgs[i]);
		diag_free(&d);
		goto out;
	}

	struct timebase tb;
	if (timebase_init(&tb, err, sizeof err) != 0) {
		fprintf(stderr, "rtconform probe: timebase: %s\n", err);
		rc = EXIT_NOT_MEASURED;
		goto out;
	}
	become_supervisor();
	struct run_options ro = { .self_dir = self_dir, .interrupted = &interrupted };
	struct req_result res;
	runner_run(&req, &file, &ro, &res);
	printf("probe %s, policy %s", p->decl.name, policy_name(req.policy));
	if (req.policy != POLICY_OTHER)
		printf(" priority %d", res.priority);
	printf(", timebase %s (%.3f MHz)\n", tb.name, tb.freq_hz / 1e6);
	if (res.verdict == VERDICT_ERROR) {
		printf("error: %s\n", res.reason);
		rc = EXIT_NOT_MEASURED;
	} else {
		report_write_result_detail(&res, stdout);
		rc = EXIT_PASS;
	}
	req_result_free(&res);
out:
	return rc;
}

/* ---------------------------------------------------------------- env */

int cmd_env(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: rtconform env\n\n"
		     "Print this machine's fingerprint (what every report records), then\n"
		     "real-time readiness checks, each with its level and a remedy:\n"
		     "  ok    nothing to do\n"
		     "  note  fine for measuring; a qualification should state it\n"
		     "  warn  requirements run, but latencies suffer or mislead\n"
		     "  fail  some requirements cannot be measured (they will be errors)\n\n"
		     "exit status: 0 (the checks inform; they never fail the command)");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "rtconform env: unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	struct timebase tb;
	char err[300];
	struct fingerprint fp = { 0 };
	runinfo_collect(&fp, timebase_init(&tb, err, sizeof err) == 0 ? &tb : NULL);
	for (size_t i = 0; i < fp.n; i++)
		printf("%-36s %s\n", fp.e[i].key, fp.e[i].value);

	struct readiness rd;
	readiness_check(&fp, true, &rd);
	size_t count[4] = { 0 };
	printf("\nreadiness:\n");
	for (size_t i = 0; i < rd.n; i++) {
		const struct ready_check *c = &rd.c[i];
		count[c->level]++;
		printf("  %-5s %-15s %s\n", ready_level_name(c->level), c->name, c->finding);
		if (c->remedy[0] && c->level != READY_OK)
			printf("  %-5s %-15s remedy: %s\n", "", "", c->remedy);
	}
	printf("readiness: %zu ok, %zu note%s, %zu warning%s, %zu failure%s\n", count[READY_OK],
	       count[READY_NOTE], count[READY_NOTE] == 1 ? "" : "s", count[READY_WARN],
	       count[READY_WARN] == 1 ? "" : "s", count[READY_FAIL],
	       count[READY_FAIL] == 1 ? "" : "s");
	fingerprint_free(&fp);
	return 0;
}

/* ------------------------------------------------------------- report */

static const char report_usage[] =
	"usage: rtconform report RESULTS.json|JUNIT.xml [--html FILE] [--json FILE]\n"
	"                        [--junit FILE] [--summary FILE]\n"
	"\n"
	"Render the reports of a run again from the results.json it wrote, alone: it\n"
	"holds every statistic, histogram bucket, limit and the environment, and each\n"
	"report is the same, byte for byte, as the one rtconform run wrote. A junit.xml\n"
	"of rtconform run also works (its numbers are rounded to 0.001). The input is\n"
	"recognised by its content. At least one of the options.\n"
	"\n"
	"exit status: 0 written, 2 usage error, an unreadable, malformed or foreign\n"
	"input, or an output that cannot be written\n";

int cmd_report(int argc, char **argv)
{
	/* An output option's value is OUT_OPT + its report kind. */
	enum { OUT_OPT = 256 };
	static const struct option opts[] = {
		{ "html", required_argument, NULL, OUT_OPT + REPORT_HTML },
		{ "json", required_argument, NULL, OUT_OPT + REPORT_JSON },
		{ "junit", required_argument, NULL, OUT_OPT + REPORT_JUNIT },
		{ "summary", required_argument, NULL, OUT_OPT + REPORT_SUMMARY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out[REPORT_NKINDS] = { NULL };
	int c, nout = 0;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case OUT_OPT + REPORT_HTML: case OUT_OPT + REPORT_JSON:
		case OUT_OPT + REPORT_JUNIT: case OUT_OPT + REPORT_SUMMARY:
			nout += !out[c - OUT_OPT];
			out[c - OUT_OPT] = optarg;
			break;
		case 'h': fputs(report_usage, stdout); return 0;
		case ':':
			fprintf(stderr, "rtconform report: option %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "rtconform report: unknown option '%s' (see rtconform report --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "rtconform report: give exactly one results.json or junit.xml (see rtconform report --help)\n");
		return EXIT_USAGE;
	}
	if (!nout) {
		fprintf(stderr, "rtconform report: nothing to write: give --html, --json, --junit and/or --summary FILE\n");
		return EXIT_USAGE;
	}
	char err[700];
	for (int k = 0; k < REPORT_NKINDS; k++)
		if (out[k] && report_check_writable(out[k], err, sizeof err) != 0) {
			fprintf(stderr, "rtconform report: %s\n", err);
			return EXIT_USAGE;
		}
	struct report_view v;
	if (report_view_read(argv[optind], &v, err, sizeof err) != 0) {
		fprintf(stderr, "rtconform report: %s\n", err);
		return EXIT_USAGE;
	}
	int rc = 0;
	for (int k = 0; k < REPORT_NKINDS; k++)
		if (out[k] && report_write((enum report_kind)k, &v, out[k], err, sizeof err) != 0) {
			fprintf(stderr, "rtconform report: %s\n", err);
			rc = EXIT_USAGE;
		}
	for (int k = 0, n = 0; !rc && k < REPORT_NKINDS; k++)
		if (out[k] && ++n)
			printf("%s%s%s", n > 1 ? ", " : "reports: ", out[k], n == nout ? "\n" : "");
	report_view_free(&v);
	return rc;
}
