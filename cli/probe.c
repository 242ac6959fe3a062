/* SPDX-License-Identifier: Apache-2.0 */
/* probe.c - `rtconform probe`: one ad-hoc measurement of a probe, statistics
 * and a histogram to stdout. The requirement is built from the options with
 * the rules a requirements file gets: policy and priority through the
 * loader's parsers, parameters through validate_file(). */
#include "cli/cli.h"
#include "base/termsafe.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/timebase.h"
#include "reports/report.h"
#include "requirements/loader.h"
#include "requirements/validate.h"

/* An ad-hoc look is shorter than a file's defaults (REQ_DEFAULT_ITERATIONS
 * x REQ_DEFAULT_RUNS); warm-up and timeout are a file's. */
#define PROBE_ITERATIONS 1000u
#define PROBE_RUNS 1u

static void print_usage(void)
{
	printf("usage: rtconform probe NAME [--param K=V]... [--policy fifo|rr|other]\n"
	       "                       [--priority N|max] [--cpu N] [--iterations N] [--runs N]\n"
	       "                       [--warmup N] [--timeout DURATION]\n"
	       "\n"
	       "One ad-hoc measurement of a probe (see rtconform list), statistics and a\n"
	       "histogram to stdout. Defaults: policy other, %u iterations, %u run%s, timeout %llus.\n",
	       PROBE_ITERATIONS, PROBE_RUNS, PROBE_RUNS == 1 ? "" : "s",
	       REQ_DEFAULT_TIMEOUT_NS / 1000000000ull);
}

/* Options kept as text until the probe name is known. */
struct probe_args {
	char *kv[REQ_MAX_PARAMS]; /* --param K=V, in order */
	size_t nkv;
	const char *prio;         /* --priority, NULL when not given */
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
		return cli_parse_count("probe", "--runs", optarg, 1, RTC_MAX_RUNS, &req->runs)
			       ? EXIT_USAGE : 0;
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
	int c, rc;
	cli_getopt_begin();
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h') {
			print_usage();
			return 0;
		}
		if (c == ':' || c == '?')
			return cli_getopt_error("probe", c, argv);
		if ((rc = take_option(c, req, a)) != 0)
			return rc;
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
	if (validate_file(file, &probe_catalog, &d)) {
		for (size_t i = 0; i < d.n; i++)
			termsafe_println(stderr, "rtconform probe: %s", d.msgs[i]);
		diag_free(&d);
		return EXIT_USAGE;
	}
	return 0;
}

/* Run the requirement in a worker and print what it measured. */
static int measure(const struct requirement *req, const struct req_file *file,
		   const char *self_dir)
{
	char err[300];
	struct timebase tb;
	if (timebase_init(&tb, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform probe: timebase: %s", err);
		return EXIT_NOT_MEASURED;
	}
	struct run_options ro = { .self_dir = self_dir };
	ro.interrupted = cli_become_supervisor();
	struct req_result res;
	runner_run(req, file, &ro, &res);
	termsafe_print(stdout, "probe %s, policy %s", req->probe, policy_name(req->policy));
	if (req->policy != POLICY_OTHER)
		printf(" priority %d", res.priority);
	termsafe_println(stdout, ", timebase %s (%.3f MHz)", tb.name, tb.freq_hz / 1e6);
	int rc = EXIT_PASS;
	if (res.verdict == VERDICT_ERROR) {
		termsafe_println(stdout, "error: %s", res.reason);
		rc = EXIT_NOT_MEASURED;
	} else {
		report_write_result_detail(&res, stdout);
	}
	req_result_free(&res);
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
	struct probe_args a = { .nkv = 0 };
	int rc = parse_options(argc, argv, &req, &a);
	if (rc != PROBE_CONTINUE)
		return rc;
	struct req_file file = { .path = "<command line>", .name = "probe", .reqs = &req,
				 .nreqs = 1 };
	rc = complete_requirement(argc, argv, &req, &a, &file);
	if (rc)
		return rc;
	if (cli_need_helpers("probe", ctx))
		return EXIT_NOT_MEASURED;
	return measure(&req, &file, ctx->self_dir);
}
