/* SPDX-License-Identifier: Apache-2.0 */
/* report.c - `rtconform report`: render the reports of a run again from the
 * results.json it wrote (a junit.xml is written for CI and never read back). */
#include "cli/cli.h"
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "reports/journal.h"
#include "reports/link.h"
#include "reports/read/read.h"
#include "reports/report.h"

static const char report_head[] =
	"usage: rtconform report RESULTS.json|DIR [OPTIONS]\n"
	"\n"
	"Render the reports of a run again from the results.json it wrote, alone: it\n"
	"holds every statistic, histogram bucket, limit and the environment, and each\n"
	"report is the same, byte for byte, as the one rtconform run wrote. junit.xml is\n"
	"written for CI and never read back: it is refused. The input is recognised by\n"
	"its content. At least one of the options; each does as rtconform run's does.\n"
	"\n"
	"DIR, a run's directory holding the journal/ of a run that was killed or could\n"
	"not write its reports (or the journal itself): every report rendered from the\n"
	"journal, into DIR without output options.\n";

static const char report_tail[] =
	"exit status: 0 written, 2 usage error, an unreadable, malformed or foreign\n"
	"input (a junit.xml), or an output that cannot be written; from a journal, the\n"
	"run's own status (0, 1, 3, 4) when every requirement finished, else 3\n";

/* An output option's getopt value is OUT_OPT + its report kind (the
 * shared rows of cli/options.h). */
enum { OUT_OPT = CLI_OUT_JUNIT };
_Static_assert(CLI_OUT_SUMMARY == OUT_OPT + REPORT_SUMMARY &&
	       CLI_OUT_HTML == OUT_OPT + REPORT_HTML && CLI_OUT_JSON == OUT_OPT + REPORT_JSON,
	       "cli_out_val follows enum report_kind");

/* The extras' getopt values and the output kinds they name. */
static const struct { int opt; enum out_kind kind; } extras[] = {
	{ CLI_OUT_CSV, OUT_CSV }, { CLI_OUT_LAVA, OUT_LAVA }, { CLI_OUT_KCIDB, OUT_KCIDB },
};

/* What the options say besides the outputs: how junit.xml lists, the
 * KCIDB origin. */
struct report_opts {
	bool junit_skipped;
	const char *kcidb_origin;
};

/* The extra output option c names, OUT_NKINDS when none. */
static enum out_kind extra_kind(int c)
{
	for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++)
		if (extras[i].opt == c)
			return extras[i].kind;
	return OUT_NKINDS;
}

/* The outputs asked for into out, the rest into *o; REPORT_GO_ON, or an
 * exit status. */
#define REPORT_GO_ON (-1)
static int parse_options(int argc, char **argv, struct out_set *out, struct report_opts *o)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_report, argc, argv)) != -1) {
		if (c >= OUT_OPT && c < OUT_OPT + REPORT_NKINDS) {
			if (out_option(out, (enum out_kind)(c - OUT_OPT), optarg))
				return EXIT_USAGE;
		} else if (extra_kind(c) != OUT_NKINDS) {
			if (out_option(out, extra_kind(c), optarg))
				return EXIT_USAGE;
		} else if (c == CLI_OUT_JUNIT_SKIPPED) {
			o->junit_skipped = true;
		} else if (c == CLI_OUT_KCIDB_ORIGIN) {
			if (cli_kcidb_origin("report", optarg, &o->kcidb_origin))
				return EXIT_USAGE;
		} else if (c == 'h') {
			cli_usage(stdout, &cli_opts_report, report_head, report_tail);
			return 0;
		} else {
			return cli_getopt_error("report", c, argv);
		}
	}
	if (optind != argc - 1) {
		termsafe_println(stderr, "rtconform report: give exactly one results.json "
			     "or journal (see rtconform report --help)");
		return EXIT_USAGE;
	}
	return REPORT_GO_ON;
}

/* The run's directory of journal directory jdir, malloc'd (NULL: out of
 * memory): where run wrote, or would have written, its reports. */
static char *run_dir_of(const char *jdir)
{
	char *copy = realpath(jdir, NULL);
	char *d = copy ? strdup(dirname(copy)) : NULL;
	free(copy);
	return d;
}

/* Whether journal directory jdir lies where a run keeps one (RUN/journal):
 * only then is its parent the run's directory. */
static bool in_run_dir(const char *jdir)
{
	char *real = realpath(jdir, NULL);
	const char *slash = real ? strrchr(real, '/') : NULL;
	bool is = slash && strcmp(slash + 1, JOURNAL_DIR) == 0;
	free(real);
	return is;
}

/* Without an output option: a journal's run gets its four reports in its
 * own directory, where `run` would have written them (*run_dir, malloc'd,
 * is then out's -o DIR; a results.json has nothing to fill in, so the
 * command says what to give). 0 or EXIT_USAGE. */
static int default_outputs(const char *jdir, struct out_set *out, char **run_dir)
{
	for (int k = 0; k < OUT_NKINDS; k++)
		if (out->given[k])
			return 0;
	if (!jdir || !in_run_dir(jdir)) {
		termsafe_println(stderr, "rtconform report: nothing to write: give --html, --json, "
				 "--junit, --summary and/or --lava FILE, or --csv DIR%s",
				 jdir ? " (this journal is not in a run's directory, RUN/" JOURNAL_DIR
					": its reports have no place of their own)" : "");
		return EXIT_USAGE;
	}
	if (!(*run_dir = run_dir_of(jdir))) {
		termsafe_println(stderr, "rtconform report: out of memory");
		return EXIT_USAGE;
	}
	out->given[OUT_DIR] = *run_dir;
	return 0;
}

/* The input read: a journal (a killed run's, reports/journal.h) or a
 * results.json. 0 or EXIT_USAGE after saying why; for a journal the
 * recovery's account in *jrec and its log's path in *input. */
static int read_input(const char *arg, const char *jdir, struct report_view *v,
		      struct journal_recovery *jrec, char **input)
{
	char err[2000];
	int rc;
	*input = jdir ? path_join(jdir, JOURNAL_LOG) : strdup(arg);
	if (!*input)
		rc = -ENOMEM, snprintf(err, sizeof err, "%s", strerror(ENOMEM));
	else if (!jdir)
		rc = report_view_read(arg, v, err, sizeof err);
	else if ((rc = report_view_from_journal(jdir, v, jrec, err, sizeof err)) == 0) {
		/* The run's traces lie in its directory, beside report.html. */
		char *run_dir = run_dir_of(jdir);
		char *abs = run_dir ? realpath(run_dir, NULL) : NULL;
		rc = report_view_find_traces(v, abs);
		free(run_dir);
		free(abs);
		if (rc)
			snprintf(err, sizeof err, "%s: %s", jdir, strerror(-rc));
		else
			termsafe_println(stderr, "rtconform report: %s", jrec->summary);
	}
	if (!rc)
		return 0;
	termsafe_println(stderr, "rtconform report: %s", err);
	return EXIT_USAGE;
}

/* A journal's run directory locked before it is read: a run still
 * measuring there holds it (and its journal is not a killed run's). */
static int lock_run(const char *jdir, struct out_set *out)
{
	if (!jdir || !in_run_dir(jdir))
		return 0;
	char *run_dir = run_dir_of(jdir);
	int rc = run_dir ? out_lock_dir(&out->locks, "report", run_dir, out->cmdline) : EXIT_USAGE;
	free(run_dir);
	return rc;
}

static void report_done(struct out_set *out, int rc, char *jdir, char *input, char *run_dir)
{
	out_end(out, rc);
	free(jdir);
	free(input);
	free(run_dir);
}

/* The outputs written from v and the manifest of a run's directory, then
 * their names on stdout. 0, or
 * EXIT_USAGE after saying what could not be written. */
static int write_outputs(const struct out_set *out, const struct report_view *v,
			 const char *source)
{
	/* DIR's MANIFEST.sha256 last, as run's: a killed run's reports
	 * rendered from its journal into its directory are vouched for */
	bool written = out_write_view(out, v, source) == 0;
	if (out_seal_view(out, v, written) != 0 || !written)
		return EXIT_USAGE;
	out_say(out, stdout);
	fflush(stdout);
	return 0;
}

int cmd_report(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const enum out_kind kinds[] = { OUT_JUNIT, OUT_SUMMARY, OUT_HTML, OUT_JSON,
					       OUT_CSV, OUT_LAVA, OUT_KCIDB };
	struct out_set out = { .cmd = "report", .cmdline = ctx->cmdline, .ev = &out_evidence_std };
	struct report_opts o = { 0 };
	int rc = parse_options(argc, argv, &out, &o);
	if (rc != REPORT_GO_ON)
		return rc;
	/* The input first: one refused (a junit.xml) leaves nothing behind,
	 * not even a directory the output checks would create. */
	char *input = NULL, *run_dir = NULL;
	char *jdir = journal_dir_of(argv[optind]);
	struct journal_recovery jrec = { .complete = true };
	struct report_view v;
	if ((rc = default_outputs(jdir, &out, &run_dir)) != 0 || (rc = lock_run(jdir, &out)) != 0 ||
	    (rc = read_input(argv[optind], jdir, &v, &jrec, &input)) != 0) {
		report_done(&out, rc, jdir, input, run_dir);
		return rc;
	}
	v.junit_not_selected = o.junit_skipped;
	v.kcidb_origin = o.kcidb_origin;
	/* No output may overwrite the input or another output; each output's
	 * directory is locked until every output is written; a directory the
	 * checks made is removed again when one refuses. */
	const struct out_file in[1] = { { input, "the input" } };
	if ((rc = out_prepare(&out, kinds, sizeof kinds / sizeof kinds[0], in, 1,
			      OUT_SET_ANY)) != 0) {
		report_view_free(&v);
		report_done(&out, rc, jdir, input, run_dir);
		return rc;
	}
	out_made_dirs_free(&out.made); /* checked: what they made stays */
	/* A killed run's reports, made now from its journal: what they are
	 * written as is the evidence the run never recorded. (A results.json
	 * says its own, which a report rendered again keeps.) */
	if (jdir && cli_view_outputs(&v, out.path, out.path[OUT_CSV]) != 0) {
		termsafe_println(stderr, "rtconform report: %s", strerror(ENOMEM));
		rc = EXIT_USAGE;
	}
	if (!rc)
		rc = write_outputs(&out, &v, argv[optind]);
	/* From a journal: the run's own exit status when every requirement
	 * finished, else 3 (measured in part). */
	if (!rc && jdir)
		rc = jrec.complete ? report_view_exit_status(&v) : EXIT_NOT_MEASURED;
	report_view_free(&v);
	report_done(&out, rc, jdir, input, run_dir);
	return rc;
}
