/* SPDX-License-Identifier: Apache-2.0 */
/* selftest.c - `rtconform selftest`: its options, and the record's
 * directory prepared as every output's (output/); selftest/selftest_run.c runs the cases and writes
 * the record (selftest/selftest.h, docs/qualification.md). */
#include "cli/cli.h"
#include "selftest/selftest.h"
#include "cli/options.h"
#include "output/output.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/termsafe.h"
#include "harness/measure/timebase.h"
#include "reports/report.h"

static const char selftest_head[] =
	"usage: rtconform selftest [-o DIR]\n"
	"\n"
	"Run known-answer tests of rtconform's own detection on this machine, with the\n"
	"programs installed here: each case injects one known fault (known samples, an\n"
	"invalid requirements file, a must-violate profile, page faults in the measured\n"
	"loop, a DEADLINE overrun, scheduling requests a C library layer ignores, a timer\n"
	"that wakes early, waits that return without their post, a delay every 10th\n"
	"operation of a measured loop, a growing delay under a kernel trace) and\n"
	"requires the exact expected outcome. The validation record goes to DIR:\n"
	"validation.json, junit.xml, validation.html, each case's evidence under\n"
	"cases/ID/, and MANIFEST.sha256 (rtconform verify DIR checks it).\n"
	"Cases that need root, or real-time privileges the worker does not have, are\n"
	"`not run` (and say why).\n";

static const char selftest_tail[] =
	"exit status: 0 every case that ran matched its known answer (cases not run for\n"
	"want of privilege are listed and counted, and leave 0), 1 a known answer did not\n"
	"match, 2 usage error or DIR not usable, 3 a case could not be run or judged\n"
	"(its error says why; an interrupted selftest: the cases after the signal; 1 wins\n"
	"over 3)\n";

static int parse_args(int argc, char **argv, char *dir, size_t len)
{
	dir[0] = 0;
	cli_getopt_begin();
	int ch;
	while ((ch = cli_getopt(&cli_opts_selftest, argc, argv)) != -1) {
		if (ch == 'h') {
			cli_usage(stdout, &cli_opts_selftest, selftest_head, selftest_tail);
			return -1;
		}
		if (ch != 'o')
			return cli_getopt_error("selftest", ch, argv);
		/* Never the default in its place, nor a shorter path than given. */
		if (!optarg[0] || strlen(optarg) >= len) {
			termsafe_println(stderr, "rtconform selftest: -o/--output: %s",
					 optarg[0] ? "path too long" : "empty value");
			return EXIT_USAGE;
		}
		snprintf(dir, len, "%s", optarg);
	}
	if (optind < argc) {
		termsafe_println(stderr, "rtconform selftest: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!dir[0]) {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(dir, len, "selftest-%Y%m%d-%H%M%S", &tm);
	}
	return 0;
}

int cmd_selftest(int argc, char **argv, const struct cli_ctx *ctx)
{
	char dir[PATH_MAX];
	int rc = parse_args(argc, argv, dir, sizeof dir);
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((rc = cli_need_helpers("selftest", ctx)) != 0)
		return rc;
	char tberr[200]; /* its runs inherit it: refused before any case */
	if (timebase_forced(tberr, sizeof tberr) < 0) {
		termsafe_println(stderr, "rtconform selftest: timebase: %s", tberr);
		return EXIT_USAGE;
	}
	struct st_env e = { .self_dir = ctx->self_dir, .root = geteuid() == 0 };
	ssize_t n = readlink("/proc/self/exe", e.self, sizeof e.self - 1);
	if (n <= 0) {
		termsafe_println(stderr, "rtconform selftest: cannot read /proc/self/exe: %s",
				 strerror(errno));
		return EXIT_NOT_MEASURED;
	}
	e.self[n] = 0;
	/* The record's directory checked, made and locked as every output's
	 * (out_prepare): a second selftest (or a run) into it at the same time
	 * is refused, not mixed in; refused, it removes the directory it made. */
	static const enum out_kind kinds[] = { OUT_ST_DIR };
	struct out_set out = { .cmd = "selftest", .cmdline = ctx->cmdline };
	out.given[OUT_ST_DIR] = dir;
	char *abs = NULL;
	if ((rc = out_prepare(&out, kinds, 1, NULL, 0, OUT_SET_ANY)) != 0 ||
	    !(abs = path_canonical(out.path[OUT_ST_DIR]))) {
		if (!rc)
			termsafe_println(stderr, "rtconform selftest: cannot resolve %s: %s", dir,
					 strerror(errno));
		rc = rc ? rc : EXIT_USAGE;
		out_end(&out, rc);
		return rc;
	}
	out_made_dirs_free(&out.made); /* it goes on: the record is written there */
	e.dir = abs;
	rc = st_selftest(&e);
	free(abs);
	out_end(&out, rc);
	return rc;
}
