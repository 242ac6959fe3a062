/* SPDX-License-Identifier: Apache-2.0 */
/* main.c - rtconform's command line: program set-up and dispatch through the
 * command table, which also gives the usage text. Each subcommand lives in
 * its own file (see cli/cli.h).
 *
 * No setlocale(): the program stays in the C locale, so numbers print and
 * parse the same whatever the user's environment says. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/quote.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "base/termsafe.h"
#include "harness/runinfo.h"
#include "host/facts.h"
#include "requirements/loader.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv, const struct cli_ctx *ctx);
	const char *args; /* its arguments, for the usage text */
	const char *help; /* one line */
};

static const struct command commands[] = {
	{ "run", cmd_run, "[OPTIONS] [FILE|PROFILE...]",
	  "measure requirements (none: the built-in default profile)" },
	{ "validate", cmd_validate, "FILE|PROFILE...", "check requirement files, measure nothing" },
	{ "list", cmd_list, "[FILE | --profiles]",
	  "probes and their parameters, a file's requirements, or the shipped profiles" },
	{ "probe", cmd_probe, "NAME [OPTIONS]", "one ad-hoc measurement, statistics to stdout" },
	{ "env", cmd_env, "", "this machine's fingerprint and real-time readiness" },
	{ "report", cmd_report, "RESULTS.json [OPTIONS]",
	  "render the reports again from a run's results.json" },
	{ "compare", cmd_compare, "BASE.json CAND.json [-o DIR]",
	  "a candidate run's figures against a baseline's: regressions" },
	{ "explain", cmd_explain, "TRACE|DIR [--json]",
	  "where a breach's time went, from its saved trace (trace-<ID>.txt)" },
	{ "merge", cmd_merge, "RESULTS.json... -o DIR",
	  "one fleet report (fleet.html, junit.xml, results.json) of many hosts' runs" },
	{ "verify", cmd_verify, "DIR",
	  "check a run's directory against its MANIFEST.sha256 and its results.json" },
	{ "selftest", cmd_selftest, "[-o DIR]",
	  "known-answer tests of rtconform's own detection: a validation record" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Width of "name args" in the usage text's command list. */
#define USAGE_SYNOPSIS_WIDTH 30

static void print_usage(FILE *out)
{
	fputs("usage: rtconform COMMAND [OPTIONS]\n"
	      "\n"
	      "Measure real-time latency requirements declared in XML and report verdicts.\n"
	      "\n"
	      "commands:\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		const struct command *c = &commands[i];
		int len = fprintf(out, "  %s%s%s", c->name, c->args[0] ? " " : "", c->args);
		if (len >= USAGE_SYNOPSIS_WIDTH + 2) { /* too long: the help on a line of its own */
			fputc('\n', out);
			len = 0;
		}
		termsafe_println(out, "%*s%s", USAGE_SYNOPSIS_WIDTH + 2 - len, "", c->help);
	}
	fputs("\n"
	      "  rtconform COMMAND --help      options of a command\n"
	      "  rtconform --version\n"
	      "\n"
	      "exit status: 0 all passed, 1 a limit failed, 2 usage error or invalid input,\n"
	      "3 a requirement could not be measured, or a report or standard output could\n"
	      "not be written, 4 the samples could not decide a limit at its stated\n"
	      "confidence (3 wins over 1, 1 over 4)\n", out);
}

static void print_version(void)
{
#ifdef RTC_SANITIZED
	termsafe_println(stdout, "rtconform %s (commit %s; sanitizer build: memory is not locked; "
		     "not for qualification)", runinfo_version, runinfo_commit);
#else
	termsafe_println(stdout, "rtconform %s (commit %s)", runinfo_version, runinfo_commit);
#endif
}

static int unknown_command(const char *name)
{
	fprintf(stderr, "rtconform: unknown command '%s' (expected ", name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, "%s%s", i == 0 ? "" : i + 1 < NCOMMANDS ? ", " : " or ",
			commands[i].name);
	termsafe_println(stderr, "; see rtconform --help)");
	return EXIT_USAGE;
}

/* Shell-quote argv into one string, so reports can show the exact command. */
static char *quote_cmdline(int argc, char **argv)
{
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += quote_shell_room(argv[i]);
	char *s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++)
		quote_shell_append(s, len, argv[i]);
	return s;
}

int main(int argc, char **argv)
{
	cli_guard_std_fds();
	cli_catch_file_size_limit();
	static struct cli_layout layout;
	cli_find_layout(&layout);
	if (layout.helper_dir[0]) {
		/* The fingerprint and readiness report what the worker will be
		 * allowed, not rtconform's own privileges. */
		char worker[PATH_MAX + 32];
		snprintf(worker, sizeof worker, "%s/rtconform-worker", layout.helper_dir);
		host_facts_set_worker(worker);
	}
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	req_loader_init();
	atexit(req_loader_cleanup);
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		print_usage(stdout);
		return cli_close_stdout(NULL, 0);
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		print_version();
		return cli_close_stdout(NULL, 0);
	}
	/* What the build and the completion ask of the option tables
	 * (cli/options.h): not for people, so not in the usage text. */
	if (!strcmp(name, "--list-options"))
		return cli_close_stdout(NULL, cli_list_options(argc > 2 ? argv[2] : NULL));
	if (!strcmp(name, "--man-page"))
		return cli_close_stdout(NULL, cli_man_page(argc > 2 ? argv[2] : NULL));
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, commands[i].name) != 0)
			continue;
		char *cmdline = quote_cmdline(argc, argv);
		struct cli_ctx ctx = { .self_dir = layout.helper_dir[0] ? layout.helper_dir : NULL,
				       .helper_problem = layout.problem,
				       .profile_dir = layout.profile_dir, .cmdline = cmdline };
		int rc = commands[i].run(argc - 1, argv + 1, &ctx);
		free(cmdline);
		/* Standard output checked here, once for every command. */
		return cli_close_stdout(commands[i].name, rc);
	}
	return unknown_command(name);
}
