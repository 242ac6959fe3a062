/* SPDX-License-Identifier: Apache-2.0 */
/* options.h - every subcommand's options, written once (cli/options.c).
 *
 * A command's option table is a list of rows; each row is one option: its
 * long name, short letter, the name of its value, what getopt_long()
 * returns for it, and its words (man/options.txt). From the table come the struct option[]
 * and short-options string the command passes to getopt_long()
 * (cli_getopt), the option lines of its --help (cli_usage), the entries of
 * the man page's OPTIONS section (`rtconform --man-page`, run by the build
 * on man/rtconform.1) and what the bash completion offers (`rtconform
 * --list-options CMD`). docs/cli-options.md says which words go where.
 */
#ifndef RTC_CLI_OPTIONS_H
#define RTC_CLI_OPTIONS_H

#include <stdio.h>

/* A row; its words (--help's, the man page's) are its block in
 * man/options.txt, which the build embeds: "== CMD --NAME" (CMD "*" for the
 * shared rows, cli_out_*). */
struct cli_opt {
	const char *name; /* the long option, without "--" */
	char letter;      /* the short option, 0 when none */
	const char *arg;  /* its value's name (DIR, FILE, N, a|b|c), NULL for a flag */
	int val;          /* what getopt_long() returns for it */
};

/* What getopt_long() returns for the output options, the rows every
 * command with output options shares (cli_out_*); past any letter. */
enum cli_out_val {
	CLI_OUT_OUTPUT = 'o',
	/* the four reports in enum report_kind's order (reports/report.h) */
	CLI_OUT_JUNIT = 0x100,
	CLI_OUT_SUMMARY,
	CLI_OUT_HTML,
	CLI_OUT_JSON,
	CLI_OUT_JUNIT_SKIPPED,
	CLI_OUT_CSV,
	CLI_OUT_LAVA,
	CLI_OUT_METRICS,
	CLI_OUT_KCIDB,
	CLI_OUT_KCIDB_ORIGIN,
};

/* The shared rows of the output options. -o/--output's words are each
 * command's own (a run's directory, a fleet's, a comparison's): its row
 * starts with CLI_OUT_OUTPUT_ROW. */
extern const struct cli_opt cli_out_junit, cli_out_junit_skipped, cli_out_summary,
	cli_out_html, cli_out_json, cli_out_csv, cli_out_lava, cli_out_kcidb, cli_out_kcidb_origin,
	cli_out_metrics;
#define CLI_OUT_OUTPUT_ROW "output", 'o', "DIR", CLI_OUT_OUTPUT

/* A command's table: its rows, NULL-terminated (-h/--help is every
 * command's and is added by cli_getopt and cli_usage). */
struct cli_cmd_opts {
	const char *cmd;
	const struct cli_opt *const *rows;
};

/* The tables, in the order of rtconform --help. */
extern const struct cli_cmd_opts cli_opts_run, cli_opts_validate, cli_opts_list, cli_opts_probe,
	cli_opts_env, cli_opts_report, cli_opts_compare, cli_opts_explain, cli_opts_merge,
	cli_opts_verify, cli_opts_selftest;
extern const struct cli_cmd_opts *const cli_opts_all[];

/* What getopt_long() returns for -h/--help. */
#define CLI_OPT_HELP 'h'

/* getopt_long() over argv with the table's options (and --help), getopt's
 * own messages off: call cli_getopt_begin() first. A missing value is
 * ':', an unknown option '?' (cli_getopt_error words them). */
int cli_getopt(const struct cli_cmd_opts *t, int argc, char **argv);

/* A command's --help on out: head (its synopsis and what it does), the
 * option lines of its table, then tail (its exit status; NULL: none). */
void cli_usage(FILE *out, const struct cli_cmd_opts *t, const char *head, const char *tail);

/* `rtconform --list-options CMD`: a line per option, "--NAME<TAB>-L<TAB>ARG"
 * (empty fields for none), for the completion. 0, or 2 for no such command. */
int cli_list_options(const char *cmd);

/* Every row of every table has words in man/options.txt and every block
 * there is of a row: 0, or the number of faults after naming each on err. */
int cli_words_check(FILE *err);

/* `rtconform --man-page PAGE`: the man page source PAGE on stdout, each
 * line `.\" rtconform-options CMD` replaced by CMD's OPTIONS entries. 0, or
 * 2 after saying why (a file that cannot be read, an unknown command, a
 * fault cli_words_check finds). */
int cli_man_page(const char *page);

#endif
