/* SPDX-License-Identifier: Apache-2.0 */
/* merge.c - `rtconform merge`: the results.json files of many hosts' runs
 * in one fleet report (across/merge.h). */
#include "cli/cli.h"
#include "cli/options.h"
#include "evidence/manifest.h"

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

static int parse_options(int argc, char **argv, const char **outdir, bool *force)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_merge, argc, argv)) != -1) {
		if (c == 'o') {
			*outdir = optarg;
		} else if (c == 'f') {
			*force = true;
		} else if (c == 'h') {
			cli_usage(stdout, &cli_opts_merge, merge_head, merge_tail);
			return 0;
		} else {
			return cli_getopt_error("merge", c, argv);
		}
	}
	if (!(*outdir)[0]) {
		termsafe_println(stderr, "rtconform merge: -o/--output: empty value");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		termsafe_println(stderr, "rtconform merge: give the results.json of each host (see "
			     "rtconform merge --help)");
		return EXIT_USAGE;
	}
	return MERGE_GO_ON;
}

/* No output may overwrite an input, and the directory must take files. */
static int check_outputs(const char *outdir, char **inputs, int n)
{
	static const char *const names[] = { MERGE_HTML, MERGE_JUNIT, MERGE_JSON };
	char err[700];
	int rc = 0;
	for (size_t k = 0; k < sizeof names / sizeof names[0] && !rc; k++) {
		char *path = path_join(outdir, names[k]);
		char *out = path ? path_canonical(path) : NULL;
		if (!out) {
			termsafe_println(stderr, "rtconform merge: %s: cannot resolve the output %s",
				     outdir, names[k]);
			rc = EXIT_USAGE;
		}
		for (int i = 0; out && i < n && !rc; i++) {
			char *in = realpath(inputs[i], NULL);
			if (in && strcmp(in, out) == 0) {
				termsafe_println(stderr, "rtconform merge: the fleet's %s would overwrite "
					     "the input %s (choose another -o)", path, inputs[i]);
				rc = EXIT_USAGE;
			}
			free(in);
		}
		if (!rc && report_check_writable(path, err, sizeof err) != 0) {
			termsafe_println(stderr, "rtconform merge: %s", err);
			rc = EXIT_USAGE;
		}
		free(out);
		free(path);
	}
	return rc;
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

static void print_hosts(const struct merge *mg)
{
	for (size_t h = 0; h < mg->nhosts; h++) {
		const struct merge_host *fh = &mg->hosts[h];
		char counts[200];
		report_totals_text(&fh->totals, counts, sizeof counts);
		termsafe_println(stdout, "%s: %s (%s)", fh->name, fh->meaning, counts);
	}
	char counts[200];
	report_totals_text(&mg->totals, counts, sizeof counts);
	termsafe_println(stdout, "%zu host%s, %zu requirement%s: %s; exit status %d", mg->nhosts,
			 mg->nhosts == 1 ? "" : "s", mg->totals.tests,
			 mg->totals.tests == 1 ? "" : "s", counts, merge_exit_status(mg));
	termsafe_println(stdout, "reports: %s, %s, %s", mg->html_path, mg->junit_path, mg->json_path);
}

int cmd_merge(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *outdir = "rtconform-fleet";
	bool force = false;
	int rc = parse_options(argc, argv, &outdir, &force);
	if (rc != MERGE_GO_ON)
		return rc;
	char **inputs = argv + optind;
	int n = argc - optind;
	struct stat st;
	bool dir_was_there = stat(outdir, &st) == 0;
	/* The directory is ours (locked) until the fleet report is written,
	 * and holds no other kind of report unless --force. */
	struct cli_locks locks = { .n = 0 };
	if ((rc = check_outputs(outdir, inputs, n)) != 0 ||
	    (rc = cli_lock_dir(&locks, "merge", outdir, ctx->cmdline)) != 0 ||
	    (rc = cli_check_set("merge", outdir, CLI_SET_FLEET, force)) != 0) {
		cli_unlock(&locks);
		if (!dir_was_there)
			rmdir(outdir);
		return rc;
	}
	char err[900];
	struct merge mg;
	if (merge_begin(&mg, outdir, ctx->cmdline, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform merge: %s", err);
		rc = EXIT_USAGE;
	}
	if (!rc)
		rc = add_inputs(&mg, inputs, n);
	if (!rc && merge_finish(&mg, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform merge: %s", err);
		rc = EXIT_USAGE;
	}
	static const char *const written[] = { MERGE_HTML, MERGE_JUNIT, MERGE_JSON };
	if (!rc && manifest_write_set("merge", outdir, written, 3) != 0)
		rc = EXIT_USAGE;
	if (!rc) {
		print_hosts(&mg);
		rc = merge_exit_status(&mg);
	}
	merge_free(&mg);
	fflush(stdout);
	cli_unlock(&locks);
	/* Only if empty: nothing of anyone else's goes. */
	if (rc == EXIT_USAGE && !dir_was_there)
		rmdir(outdir);
	return rc;
}
