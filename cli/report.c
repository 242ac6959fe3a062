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

static const char *const kind_option[REPORT_NKINDS] = {
	[REPORT_JUNIT] = "--junit", [REPORT_SUMMARY] = "--summary",
	[REPORT_HTML] = "--html", [REPORT_JSON] = "--json",
};

/* An output option's getopt value is OUT_OPT + its report kind (the
 * shared rows of cli/options.h). */
enum { OUT_OPT = CLI_OUT_JUNIT };
_Static_assert(CLI_OUT_SUMMARY == OUT_OPT + REPORT_SUMMARY &&
	       CLI_OUT_HTML == OUT_OPT + REPORT_HTML && CLI_OUT_JSON == OUT_OPT + REPORT_JSON,
	       "cli_out_val follows enum report_kind");

/* --csv's, --lava's and --junit-skipped's getopt values. */
enum { CSV_OPT = CLI_OUT_CSV, LAVA_OPT = CLI_OUT_LAVA, JUNIT_SKIPPED_OPT = CLI_OUT_JUNIT_SKIPPED };

/* The outputs besides the four reports, and how junit.xml lists. */
struct extra_out {
	const char *csv, *lava;
	bool junit_skipped;
};

/* The outputs asked for into out[] and *csv; REPORT_GO_ON, or an exit
 * status. */
#define REPORT_GO_ON (-1)
static int parse_options(int argc, char **argv, const char *out[REPORT_NKINDS],
			 struct extra_out *x)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_report, argc, argv)) != -1) {
		if (c >= OUT_OPT && c < OUT_OPT + REPORT_NKINDS) {
			if (!optarg[0]) {
				termsafe_println(stderr, "rtconform report: %s: empty value",
					     kind_option[c - OUT_OPT]);
				return EXIT_USAGE;
			}
			out[c - OUT_OPT] = optarg;
		} else if (c == CSV_OPT || c == LAVA_OPT) {
			if (!optarg[0]) {
				termsafe_println(stderr, "rtconform report: %s: empty value",
					     c == CSV_OPT ? "--csv" : "--lava");
				return EXIT_USAGE;
			}
			*(c == CSV_OPT ? &x->csv : &x->lava) = optarg;
		} else if (c == JUNIT_SKIPPED_OPT) {
			x->junit_skipped = true;
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
 * own directory, where `run` would have written them (a results.json has
 * nothing to fill in, so the command says what to give). 0 or EXIT_USAGE. */
static int default_outputs(const char *jdir, const char *out[REPORT_NKINDS],
			   const struct extra_out *x, char *paths[REPORT_NKINDS])
{
	for (int k = 0; k < REPORT_NKINDS; k++)
		if (out[k])
			return 0;
	if (x->csv || x->lava)
		return 0;
	if (!jdir || !in_run_dir(jdir)) {
		termsafe_println(stderr, "rtconform report: nothing to write: give --html, --json, "
				 "--junit, --summary and/or --lava FILE, or --csv DIR%s",
				 jdir ? " (this journal is not in a run's directory, RUN/" JOURNAL_DIR
					": its reports have no place of their own)" : "");
		return EXIT_USAGE;
	}
	char *run_dir = run_dir_of(jdir);
	for (int k = 0; run_dir && k < REPORT_NKINDS; k++)
		out[k] = paths[k] = path_join(run_dir, report_kind_file_name((enum report_kind)k));
	free(run_dir);
	for (int k = 0; k < REPORT_NKINDS; k++)
		if (!out[k]) {
			termsafe_println(stderr, "rtconform report: out of memory");
			return EXIT_USAGE;
		}
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

/* No output may overwrite the input or another output; the directories
 * the checks may create are noted in made. */
static int check_outputs(const char *input, const char *const out[REPORT_NKINDS],
			 struct cli_made_dirs *made)
{
	char err[700];
	char *canon[REPORT_NKINDS] = { NULL };
	char *in = realpath(input, NULL);
	int rc = 0;
	for (int k = 0; k < REPORT_NKINDS && !rc; k++) {
		if (!out[k])
			continue;
		canon[k] = path_canonical(out[k]);
		if (canon[k] && in && strcmp(canon[k], in) == 0) {
			termsafe_println(stderr, "rtconform report: %s %s would overwrite the input",
				     kind_option[k], out[k]);
			rc = EXIT_USAGE;
		}
		for (int j = 0; j < k && !rc; j++)
			if (canon[j] && canon[k] && strcmp(canon[j], canon[k]) == 0) {
				termsafe_println(stderr, "rtconform report: %s and %s are the same file "
					     "(%s)", kind_option[j], kind_option[k], out[k]);
				rc = EXIT_USAGE;
			}
		if (!rc)
			cli_made_dirs_note_parent(made, out[k]);
		if (!rc && report_check_writable(out[k], err, sizeof err) != 0) {
			termsafe_println(stderr, "rtconform report: %s", err);
			rc = EXIT_USAGE;
		}
	}
	for (int k = 0; k < REPORT_NKINDS; k++)
		free(canon[k]);
	free(in);
	return rc;
}

/* --csv DIR (cli_check_csv_dir) and --lava FILE (cli_check_output_file)
 * beside the input and the other outputs. */
static int check_extra(const char *input, const char *const out[REPORT_NKINDS],
		       const struct extra_out *x, struct cli_made_dirs *made)
{
	struct cli_file f[REPORT_NKINDS + 1] = { { input, "the input" } };
	for (int k = 0; k < REPORT_NKINDS; k++)
		f[k + 1] = (struct cli_file){ out[k], kind_option[k] };
	int rc = 0;
	if (x->csv) {
		cli_made_dirs_note(made, x->csv);
		rc = cli_check_csv_dir("report", x->csv, f, REPORT_NKINDS + 1);
	}
	if (!rc && x->lava) {
		cli_made_dirs_note_parent(made, x->lava);
		rc = cli_check_output_file("report", "--lava", x->lava, f, REPORT_NKINDS + 1);
	}
	return rc;
}

/* A journal's run directory locked before it is read: a run still
 * measuring there holds it (and its journal is not a killed run's). */
static int lock_run(const char *jdir, struct cli_locks *locks, const struct cli_ctx *ctx)
{
	if (!jdir || !in_run_dir(jdir))
		return 0;
	char *run_dir = run_dir_of(jdir);
	int rc = run_dir ? cli_lock_dir(locks, "report", run_dir, ctx->cmdline) : EXIT_USAGE;
	free(run_dir);
	return rc;
}

static void report_done(char *jdir, char *input, char *paths[REPORT_NKINDS])
{
	free(jdir);
	free(input);
	for (int k = 0; k < REPORT_NKINDS; k++)
		free(paths[k]);
}

int cmd_report(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *out[REPORT_NKINDS] = { NULL };
	struct extra_out x = { NULL, NULL, false };
	int rc = parse_options(argc, argv, out, &x);
	if (rc != REPORT_GO_ON)
		return rc;
	/* The input first: one refused (a junit.xml) leaves nothing behind,
	 * not even a directory the output checks would create. */
	char err[700], *input = NULL, *paths[REPORT_NKINDS] = { NULL };
	char *jdir = journal_dir_of(argv[optind]);
	struct journal_recovery jrec = { .complete = true };
	struct report_view v;
	struct cli_locks locks = { .n = 0 };
	if ((rc = default_outputs(jdir, out, &x, paths)) != 0 ||
	    (rc = lock_run(jdir, &locks, ctx)) != 0 ||
	    (rc = read_input(argv[optind], jdir, &v, &jrec, &input)) != 0) {
		cli_unlock(&locks);
		report_done(jdir, input, paths);
		return rc;
	}
	v.junit_not_selected = x.junit_skipped;
	/* A directory the checks made is removed again when one refuses.
	 * Each output's directory is locked (cli_lock_outputs) until every
	 * output is written. */
	struct cli_made_dirs made = { .n = 0 };
	const char *lock_files[REPORT_NKINDS + 1] = { [REPORT_NKINDS] = x.lava };
	memcpy(lock_files, out, sizeof *out * REPORT_NKINDS);
	if ((rc = check_outputs(input, out, &made)) != 0 ||
	    (rc = check_extra(input, out, &x, &made)) != 0 ||
	    (rc = cli_lock_outputs(&locks, "report", lock_files, REPORT_NKINDS + 1, x.csv,
				   ctx->cmdline)) != 0) {
		cli_made_dirs_undo(&made);
		cli_unlock(&locks);
		report_view_free(&v);
		report_done(jdir, input, paths);
		return rc;
	}
	cli_made_dirs_free(&made);
	/* A killed run's reports, made now from its journal: what they are
	 * written as is the evidence the run never recorded. (A results.json
	 * says its own, which a report rendered again keeps.) */
	if (jdir && cli_view_outputs(&v, (char *const *)out, x.csv) != 0) {
		termsafe_println(stderr, "rtconform report: %s", strerror(ENOMEM));
		rc = EXIT_USAGE;
	}
	for (int k = 0; k < REPORT_NKINDS; k++)
		if (out[k] && report_write((enum report_kind)k, &v, out[k], err, sizeof err) != 0) {
			termsafe_println(stderr, "rtconform report: %s", err);
			rc = EXIT_USAGE;
		}
	if (x.csv && cli_write_csv("report", &v, x.csv, argv[optind]) != 0)
		rc = EXIT_USAGE;
	if (x.lava && report_write_lava(&v, x.lava, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform report: --lava: %s", err);
		rc = EXIT_USAGE;
	}
	int n = 0;
	for (int k = 0; !rc && k < REPORT_NKINDS; k++)
		if (out[k])
			termsafe_print(stdout, "%s%s", n++ ? ", " : "reports: ", out[k]);
	if (!rc && n)
		putchar('\n');
	if (!rc && x.csv)
		termsafe_println(stdout, "csv: %s", x.csv);
	if (!rc && x.lava)
		termsafe_println(stdout, "lava: %s", x.lava);
	fflush(stdout);
	cli_unlock(&locks);
	/* From a journal: the run's own exit status when every requirement
	 * finished, else 3 (measured in part). */
	if (!rc && jdir)
		rc = jrec.complete ? report_view_exit_status(&v) : EXIT_NOT_MEASURED;
	report_view_free(&v);
	report_done(jdir, input, paths);
	return rc;
}
