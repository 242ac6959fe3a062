/* SPDX-License-Identifier: Apache-2.0 */
/* probe.c - `rtconform probe`: one ad-hoc measurement of a probe, statistics
 * and a histogram to stdout. The requirement is built from the options with
 * the rules a requirements file gets: policy and priority through the
 * loader's parsers, parameters and --duration through validate_file(). The
 * reports of -o DIR and the results.json of --json are rendered from a
 * report view by the writers `run` uses, so they are the same files. */
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/run_faults.h"
#include "base/termsafe.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/timebase.h"
#include "harness/runinfo.h"
#include "reports/report.h"
#include "requirements/loader.h"
#include "requirements/validate.h"

/* An ad-hoc look is shorter than a file's defaults (REQ_DEFAULT_ITERATIONS
 * x REQ_DEFAULT_RUNS); warm-up and timeout are a file's. */
#define PROBE_ITERATIONS 1000u
#define PROBE_RUNS 1u

static void print_usage(void)
{
	char head[400];
	snprintf(head, sizeof head,
		 "usage: rtconform probe NAME [OPTIONS]\n"
		 "\n"
		 "One ad-hoc measurement of a probe (see rtconform list), statistics and a\n"
		 "histogram to stdout. Defaults: policy other, %u iterations, %u run%s, timeout %llus.\n",
		 PROBE_ITERATIONS, PROBE_RUNS, PROBE_RUNS == 1 ? "" : "s",
		 REQ_DEFAULT_TIMEOUT_NS / 1000000000ull);
	cli_usage(stdout, &cli_opts_probe, head,
		  "No limits of yours are judged: a measured probe says \"measured, no limits\", not PASS,\n"
		  "and exits 0; 3 when it could not be measured, 2 on a usage error. A probe\n"
		  "with a violation count (sem-pingpong's unanswered-waits) has rtconform's own\n"
		  "limit on it, total <= 0: it says PASS, or FAIL and exits 1.\n");
}

/* Options kept as text until the probe name is known. */
struct probe_args {
	char *kv[REQ_MAX_PARAMS]; /* --param K=V, in order */
	size_t nkv;
	const char *prio;         /* --priority, NULL when not given */
	bool runs_given;          /* --runs, which --duration replaces */
	struct out_set out;       /* -o DIR */
	bool json;                /* --json: results.json on stdout */
};

/* parse_options() result when the command goes on. */
#define PROBE_CONTINUE (-1)

/* The option of getopt_long() code c that takes a value into req or a. */
static int take_option(int c, struct requirement *req, struct probe_args *a)
{
	char err[300];
	uint64_t u;
	switch (c) {
	case 'p':
		if (a->nkv >= REQ_MAX_PARAMS || !strchr(optarg, '=')) {
			termsafe_println(stderr, "rtconform probe: --param wants K=V, got '%s'", optarg);
			return EXIT_USAGE;
		}
		a->kv[a->nkv++] = optarg;
		return 0;
	case 'P':
		if (req_policy_parse(optarg, &req->policy, err, sizeof err) != 0) {
			termsafe_println(stderr, "rtconform probe: --policy: %s", err);
			return EXIT_USAGE;
		}
		return 0;
	case 'R': a->prio = optarg; return 0;
	case 'c':
		if (cli_parse_count("probe", "--cpu", optarg, 0, 4095, &u))
			return EXIT_USAGE;
		req->cpu = (int)u;
		return 0;
	case 'i':
		return cli_parse_count("probe", "--iterations", optarg, 1, REQ_MAX_ITERATIONS,
				       &req->iterations) ? EXIT_USAGE : 0;
	case 'r':
		a->runs_given = true;
		return cli_parse_count("probe", "--runs", optarg, 1, RTC_MAX_RUNS, &req->runs)
			       ? EXIT_USAGE : 0;
	case 'D':
		/* The grammar of a file's duration and run's --duration; whether
		 * the probe can run by time is validate_file()'s to say. */
		if (units_run_duration_parse(optarg, &req->duration_ns, err, sizeof err)) {
			termsafe_println(stderr, "rtconform probe: --duration: %s", err);
			return EXIT_USAGE;
		}
		return 0;
	case 'o': return out_option(&a->out, OUT_DIR, optarg);
	case 'J': a->json = true; return 0;
	case 'w':
		return cli_parse_count("probe", "--warmup", optarg, 0, REQ_MAX_ITERATIONS,
				       &req->warmup) ? EXIT_USAGE : 0;
	default: /* 't' */
		if (units_duration_parse_ns(optarg, false, &req->timeout_ns, err, sizeof err)) {
			termsafe_println(stderr, "rtconform probe: --timeout: %s", err);
			return EXIT_USAGE;
		}
		return 0;
	}
}

static int parse_options(int argc, char **argv, struct requirement *req, struct probe_args *a)
{
	int c, rc;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_probe, argc, argv)) != -1) {
		if (c == 'h') {
			print_usage();
			return 0;
		}
		if (c == ':' || c == '?')
			return cli_getopt_error("probe", c, argv);
		if ((rc = take_option(c, req, a)) != 0)
			return rc;
	}
	if (req->duration_ns && a->runs_given) {
		termsafe_println(stderr, "rtconform probe: --runs and --duration: give one, not both");
		return EXIT_USAGE;
	}
	return PROBE_CONTINUE;
}

/* The probe named on the command line, its priority and parameters, checked
 * as a requirements file's would be. 0, or EXIT_USAGE after saying why. */
static int complete_requirement(int argc, char **argv, struct requirement *req,
				struct probe_args *a, struct req_file *file)
{
	char err[300];
	if (optind != argc - 1) {
		termsafe_println(stderr, "rtconform probe: give exactly one probe name (see rtconform list)");
		return EXIT_USAGE;
	}
	req->probe = argv[optind];
	if (!probe_find(req->probe)) {
		termsafe_println(stderr, "rtconform probe: unknown probe '%s' (see rtconform list)",
			req->probe);
		return EXIT_USAGE;
	}
	if (a->prio && req->policy == POLICY_OTHER) {
		termsafe_println(stderr, "rtconform probe: --priority needs --policy fifo or rr");
		return EXIT_USAGE;
	}
	/* Unlike a file, the command line may leave the priority out: the
	 * highest of a real-time policy. */
	const char *prio = a->prio || req->policy == POLICY_OTHER ? a->prio : "max";
	if (req_priority_parse(prio, req, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform probe: --priority: %s", err);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < a->nkv; i++) {
		char *eq = strchr(a->kv[i], '=');
		*eq = 0;
		req->params[i].name = a->kv[i];
		req->params[i].value = eq + 1;
	}
	req->nparams = a->nkv;
	/* The same checks as a requirements file gets: names, values, the
	 * probe's own combination rules, parameters given twice. */
	struct diag_list d = { 0 };
	if (validate_file(file, &probe_catalog, &d) ||
	    validate_implicit_limits(file, &probe_catalog, &d)) {
		for (size_t i = 0; i < d.n; i++)
			termsafe_println(stderr, "rtconform probe: %s", d.msgs[i]);
		diag_free(&d);
		return EXIT_USAGE;
	}
	return 0;
}

/* What the reports say of the machine and the command, as run records it:
 * the facts and readiness checks are taken before measuring. */
struct probe_env {
	struct fingerprint fp;
	struct readiness rd;
	time_t started;
};

static void env_begin(struct probe_env *e, const struct timebase *tb)
{
	struct host_facts hf;
	memset(e, 0, sizeof *e);
	host_facts_collect(&hf);
	runinfo_collect_facts(&e->fp, &hf, tb);
	runinfo_readiness(&hf, tb, true, &e->rd);
	e->started = time(NULL);
}

/* The view of the one result: the command line is its requirements file,
 * so no file is recorded (rtconform.command holds the options). */
static int build_view(struct report_view *view, struct req_file *file,
		      const struct req_result *res, const struct timebase *tb,
		      struct probe_env *e, const char *cmdline, bool interrupted)
{
	struct req_file *files[1] = { file };
	struct report_run run = { .tb = tb, .env = &e->fp, .ready = &e->rd,
				  .command_line = cmdline, .started = e->started };
	run.ended = time(NULL);
	runinfo_add_run(&e->fp, cmdline, run.started, run.ended, files, 0);
	fingerprint_add(&e->fp, "rtconform.interrupted", "%s", interrupted ? "yes" : "no");
	if (report_view_begin(view, files, 1) != 0 || report_view_add(view, 0, res) != 0 ||
	    report_view_finish(view, &run) != 0) {
		termsafe_println(stderr, "rtconform probe: out of memory building the reports");
		return EXIT_NOT_MEASURED;
	}
	return 0;
}

/* The four reports into path[] (every one attempted) and -o DIR's
 * manifest, then --json's results.json on stdout: the same bytes as the file. 0, or
 * EXIT_NOT_MEASURED after saying why. */
static int write_outputs(const struct report_view *view, const struct out_set *out, bool json,
			 volatile sig_atomic_t *interrupted)
{
	char err[600];
	int rc = out_write_view(out, view, NULL) ? EXIT_NOT_MEASURED : 0;
	/* -o DIR's MANIFEST.sha256, last, as run's (verify checks it) */
	if (out_seal_view(out, view, rc == 0) != 0)
		rc = EXIT_NOT_MEASURED;
	if (!json)
		return rc;
	size_t len = 0;
	err[0] = 0;
	char *text = report_json_render(view, &len, err, sizeof err);
	bool rendered = text != NULL;
	int e = rendered ? cli_write_stdout(text, len, interrupted, *interrupted) : -ENOMEM;
	free(text);
	if (e) {
		termsafe_println(stderr, "rtconform probe: --json: %s",
			     rendered || !err[0] ? strerror(-e) : err);
		rc = EXIT_NOT_MEASURED;
	}
	return rc;
}

/* The statistics and histogram of what was measured, on stdout. */
static void print_detail(const struct requirement *req, const struct req_result *res,
			 const struct timebase *tb)
{
	termsafe_print(stdout, "probe %s, policy %s", req->probe, policy_name(req->policy));
	if (req->policy != POLICY_OTHER)
		printf(" priority %d", res->priority);
	termsafe_println(stdout, ", timebase %s (%.3f MHz)", tb->name, tb->freq_hz / 1e6);
	/* Interrupted (Ctrl-C) or timed out after some samples: the figures
	 * taken until then (the detail says ERROR and why), as -o's reports
	 * have them, rather than the reason alone. */
	const struct result_shm *shm = res->res;
	bool figures = shm && shm->nmetrics && result_metric_c(shm, 0)->hist.count;
	if (res->verdict == VERDICT_ERROR && !figures)
		termsafe_println(stdout, "error: %s", res->reason);
	else
		report_write_result_detail(res, stdout);
}

/* What the command line asks of the outputs. */
struct probe_out {
	const struct out_set *out; /* -o DIR's reports; none without -o */
	char faults[1200];         /* what selftest injected (run_faults.h); "": none */
	bool json;
	const char *cmdline;
};

/* Run the requirement in a worker and print what it measured; write the
 * reports asked for. */
static int measure(const struct requirement *req, struct req_file *file,
		   const char *self_dir, struct probe_out *o)
{
	char err[300];
	struct timebase tb;
	if (timebase_init(&tb, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform probe: timebase: %s", err);
		return EXIT_NOT_MEASURED;
	}
	if (o->faults[0])
		termsafe_println(stderr, "rtconform probe: FAULTS INJECTED by selftest: %s",
				 o->faults);
	char *const *path = o->out->path;
	bool reports = path[0] || o->json;
	struct probe_env env;
	if (reports) {
		env_begin(&env, &tb);
		if (o->faults[0])
			fingerprint_add(&env.fp, RUN_FAULTS_KEY, "%s", o->faults);
	}
	struct cli_progress ps;
	cli_progress_init_live(&ps); /* run's live view, on a terminal only */
	struct run_options ro = { .self_dir = self_dir, .progress = cli_progress_show,
				  .progress_arg = &ps };
	ro.interrupted = cli_become_supervisor();
	struct req_result res;
	runner_run(req, file, &ro, &res);
	cli_progress_clear(&ps); /* the statistics take its place */
	/* No limits of the user's; a probe with a violation metric carries
	 * rtconform's own (validate_implicit_limits), which can fail. */
	int rc = verdict_exit_status(res.verdict == VERDICT_FAIL, res.verdict == VERDICT_ERROR,
				     res.verdict == VERDICT_INCONCLUSIVE);
	if (!o->json)
		print_detail(req, &res, &tb);
	else if (res.verdict == VERDICT_ERROR)
		/* stdout holds the JSON alone; a person still sees why */
		termsafe_println(stderr, "rtconform probe: error: %s", res.reason);
	if (reports) {
		struct report_view view;
		int wrc = build_view(&view, file, &res, &tb, &env, o->cmdline, *ro.interrupted);
		if (!wrc && path[0] && cli_view_outputs(&view, path, NULL) != 0) {
			termsafe_println(stderr, "rtconform probe: out of memory building the reports");
			wrc = EXIT_NOT_MEASURED;
		}
		if (!wrc)
			wrc = write_outputs(&view, o->out, o->json, ro.interrupted);
		if (!wrc && path[0] && !o->json)
			out_say(o->out, stdout);
		rc = wrc ? wrc : rc;
		report_view_free(&view);
		fingerprint_free(&env.fp);
	}
	req_result_free(&res);
	return rc;
}

/* cmd_probe once the requirement is complete. */
static int probe_measure(struct requirement *req, struct req_file *file, struct probe_args *a,
			 const struct cli_ctx *ctx)
{
	int rc;
	if (cli_need_helpers("probe", ctx))
		return EXIT_NOT_MEASURED;
	struct probe_out o = { .json = a->json, .out = &a->out,
			       .cmdline = ctx->cmdline ? ctx->cmdline : "rtconform probe" };
	/* The fault libraries work in probe's worker as in run's (the fault
	 * worker it never takes): its reports say so as run's do. A malformed
	 * delay is refused before anything is made. */
	const char *fault_worker;
	if ((rc = run_faults("probe", &fault_worker, o.faults, sizeof o.faults)) != 0)
		return rc;
	char tberr[200];
	if (timebase_forced(tberr, sizeof tberr) < 0) { /* before any output is made */
		termsafe_println(stderr, "rtconform probe: timebase: %s", tberr);
		return EXIT_USAGE;
	}
	/* -o DIR's reports checked before anything is measured, the
	 * directory made (one level) and locked as `run -o` does */
	static const enum out_kind kinds[] = { OUT_JUNIT, OUT_SUMMARY, OUT_HTML, OUT_JSON };
	a->out.cmdline = ctx->cmdline;
	if (a->out.given[OUT_DIR])
		rc = out_prepare(&a->out, kinds, REPORT_NKINDS, NULL, 0, OUT_SET_ANY);
	if (!rc)
		rc = measure(req, file, ctx->self_dir, &o);
	fflush(stdout);
	out_end(&a->out, rc);
	return rc;
}

int cmd_probe(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct requirement req = {
		.id = "probe",
		.title = "ad-hoc measurement",
		.policy = POLICY_OTHER,
		.cpu = -1,
		.iterations = PROBE_ITERATIONS,
		.runs = PROBE_RUNS,
		.warmup = REQ_DEFAULT_WARMUP,
		.timeout_ns = REQ_DEFAULT_TIMEOUT_NS,
	};
	struct probe_args a = { .nkv = 0, .out = { .cmd = "probe", .ev = &out_evidence_std } };
	int rc = parse_options(argc, argv, &req, &a);
	if (rc != PROBE_CONTINUE)
		return rc;
	struct req_file file = { .path = "<command line>", .name = "probe", .reqs = &req,
				 .nreqs = 1 };
	rc = complete_requirement(argc, argv, &req, &a, &file);
	if (rc == 0)
		rc = probe_measure(&req, &file, &a, ctx);
	validate_implicit_limits_free(&file); /* rtconform's own: the rest is argv's */
	return rc;
}

