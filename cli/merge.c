/* SPDX-License-Identifier: Apache-2.0 */
/* merge.c - `rtconform merge`: the results.json files of many hosts' runs
 * in one fleet report (across/merge.h). */
#include "cli/cli.h"
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/termsafe.h"
#include "reports/read/read.h"
#include "across/merge.h"

static const char merge_head[] =
	"usage: rtconform merge RESULTS.json... [-o DIR] [--force]\n"
	"\n"
	"Merge the results.json of runs on many hosts into one fleet report in DIR:\n"
	"fleet.html (requirements by hosts: each host's verdict and the figure of the\n"
	"limit that decided it, a row for each limit of a requirement of several, the\n"
	"spread across hosts, links to each host's report.html), junit.xml (one\n"
	"testsuite per host) and results.json (every host's results.json whole, with a\n"
	"summary of each). A host is named by its host.label, else its host name and\n"
	"id; a host seen twice is kept apart as NAME#2 with a warning. The inputs are\n"
	"read one at a time.\n";

static const char merge_tail[] =
	"exit status: 0 every host passed, 1 a limit failed on a host, 3 a requirement\n"
	"could not be measured on a host, 4 a limit was inconclusive on a host (3 wins\n"
	"over 1, 1 over 4), 2 usage error, an unreadable\n"
	"or malformed input, or an output that cannot be written (nothing is written)\n";

#define MERGE_GO_ON (-1)

static int parse_options(int argc, char **argv, struct out_set *out)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_merge, argc, argv)) != -1) {
		if (c == 'o') {
			if (out_option(out, OUT_DIR, optarg))
				return EXIT_USAGE;
		} else if (c == 'f') {
			out->force = true;
		} else if (c == 'h') {
			cli_usage(stdout, &cli_opts_merge, merge_head, merge_tail);
			return 0;
		} else {
			return cli_getopt_error("merge", c, argv);
		}
	}
	if (optind >= argc) {
		termsafe_println(stderr, "rtconform merge: give the results.json of each host (see "
			     "rtconform merge --help)");
		return EXIT_USAGE;
	}
	return MERGE_GO_ON;
}

/* Read each input in turn into the fleet. 0, or EXIT_USAGE after saying
 * why. */
static int add_inputs(struct merge *mg, char **inputs, int n)
{
	char err[900], note[1200];
	for (int i = 0; i < n; i++) {
		struct report_view v;
		if (report_view_read(inputs[i], &v, err, sizeof err) != 0) {
			termsafe_println(stderr, "rtconform merge: %s", err);
			return EXIT_USAGE;
		}
		int rc = merge_add(mg, &v, inputs[i], note, sizeof note, err, sizeof err);
		report_view_free(&v);
		if (rc) {
			termsafe_println(stderr, "rtconform merge: %s", err);
			return EXIT_USAGE;
		}
		if (note[0])
			termsafe_println(stderr, "rtconform merge: warning: %s", note);
	}
	return 0;
}

static void print_hosts(const struct merge *mg, const struct out_set *out)
{
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_host *fh = &mg->hosts[h];
		char counts[200];
		report_totals_text(&fh->totals, counts, sizeof counts);
		termsafe_println(stdout, "%s: %s (%s)", fh->name, fh->meaning, counts);
	}
	char counts[400];
	merge_counts_text(mg, counts, sizeof counts);
	termsafe_println(stdout, "%s; exit status %d", counts, merge_exit_status(mg));
	out_say(out, stdout);
}

int cmd_merge(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const enum out_kind kinds[] = { OUT_FLEET_HTML, OUT_FLEET_JUNIT, OUT_FLEET_JSON };
	struct out_set out = { .cmd = "merge", .cmdline = ctx->cmdline, .ev = &out_evidence_std,
			       .given[OUT_DIR] = "rtconform-fleet" };
	int rc = parse_options(argc, argv, &out);
	if (rc != MERGE_GO_ON)
		return rc;
	char **inputs = argv + optind;
	int n = argc - optind;
	/* No output may overwrite an input; the directory is ours (locked)
	 * until the fleet report is written, and holds no other kind of
	 * report unless --force. */
	struct out_file *in = calloc((size_t)n, sizeof *in);
	for (int i = 0; in && i < n; i++)
		in[i] = (struct out_file){ inputs[i], "the input" };
	if (!in)
		termsafe_println(stderr, "rtconform merge: %s", strerror(ENOMEM));
	rc = in ? out_prepare(&out, kinds, 3, in, (size_t)n, OUT_SET_FLEET) : EXIT_USAGE;
	free(in);
	if (rc) {
		out_end(&out, rc);
		return rc;
	}
	char err[900];
	struct merge mg;
	if (merge_begin(&mg, out.given[OUT_DIR], ctx->cmdline, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform merge: %s", err);
		rc = EXIT_USAGE;
	}
	if (!rc)
		rc = add_inputs(&mg, inputs, n);
	if (!rc && merge_finish(&mg, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform merge: %s", err);
		rc = EXIT_USAGE;
	}
	if (!rc && out_seal(&out, NULL, 0, true) != 0)
		rc = EXIT_USAGE;
	if (!rc) {
		print_hosts(&mg, &out);
		rc = merge_exit_status(&mg);
	}
	merge_free(&mg);
	fflush(stdout);
	out_end(&out, rc); /* refused: the directory it made goes, only if empty */
	return rc;
}
