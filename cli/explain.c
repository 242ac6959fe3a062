/* SPDX-License-Identifier: Apache-2.0 */
/* explain.c - `rtconform explain TRACE [--json]`: a saved trace on breach
 * (trace-<ID>.txt) read and its breach explained (harness/explain.h,
 * docs/explain.md). */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/termsafe.h"
#include "harness/explain.h"

static const char explain_usage[] =
	"usage: rtconform explain TRACE [--json]\n"
	"\n"
	"Explain a breach from its saved trace (trace-<ID>.txt of a run with <trace/>\n"
	"or --trace): where the breaching sample's time went on the probe's CPU, in\n"
	"components (IRQs, softirqs, the timer interrupt, other tasks and how their\n"
	"priority compares with the probe's, idle, wake-up to run, what no event\n"
	"explains) that add up to the breach. A headline, then a table.\n"
	"\n"
	"  --json    the components as JSON on stdout instead\n"
	"\n"
	"exit status: 0 explained, 2 usage error, or a file that is not a trace of a\n"
	"breach (the message names the file and line)\n";

static int parse_options(int argc, char **argv, bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	cli_getopt_begin();
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'j') {
			*json = true;
		} else if (c == 'h') {
			fputs(explain_usage, stdout);
			return 0;
		} else {
			return cli_getopt_error("explain", c, argv);
		}
	}
	if (optind != argc - 1) {
		termsafe_println(stderr, "rtconform explain: give exactly one trace file "
				 "(see rtconform explain --help)");
		return EXIT_USAGE;
	}
	return -1;
}

static FILE *open_trace(const char *path)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	if (!f) {
		termsafe_println(stderr, "rtconform explain: %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		termsafe_println(stderr, "rtconform explain: %s: not a regular file", path);
		fclose(f);
		return NULL;
	}
	return f;
}

int cmd_explain(int argc, char **argv, const struct cli_ctx *ctx)
{
	(void)ctx;
	bool json = false;
	int rc = parse_options(argc, argv, &json);
	if (rc >= 0)
		return rc;
	const char *path = argv[optind];
	FILE *f = open_trace(path);
	if (!f)
		return EXIT_USAGE;
	struct explain e;
	char err[1024];
	rc = explain_read(f, path, &e, err, sizeof err);
	fclose(f);
	if (rc) {
		termsafe_println(stderr, "rtconform explain: %s", err);
		explain_free(&e);
		return EXIT_USAGE;
	}
	if (json) {
		char *s = explain_json(&e);
		if (s)
			printf("%s\n", s);
		else
			termsafe_println(stderr, "rtconform explain: out of memory");
		rc = s ? 0 : EXIT_USAGE;
		free(s);
	} else {
		explain_print(stdout, &e);
	}
	explain_free(&e);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		termsafe_println(stderr, "rtconform explain: cannot write to standard output: %s",
				 strerror(errno));
		return EXIT_USAGE;
	}
	return rc;
}
