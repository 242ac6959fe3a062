/* SPDX-License-Identifier: Apache-2.0 */
/* options.c - every subcommand's option table, and what is made of it: the
 * getopt_long() arrays, the option lines of --help, the man page's OPTIONS
 * entries and the completion's listing (options.h; docs/cli-options.md). */
#include "cli/options.h"

#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/safeopen.h"
#include "base/termsafe.h"

/* A row of a command's own (file-scope compound literal: static storage). */
#define ROW(...) (&(const struct cli_opt){ __VA_ARGS__ })

/* ---- the output options every command with output options shares ---- */

const struct cli_opt cli_out_junit = { "junit", 0, "FILE", CLI_OUT_JUNIT };
const struct cli_opt cli_out_junit_skipped = { "junit-skipped", 0, NULL, CLI_OUT_JUNIT_SKIPPED };
const struct cli_opt cli_out_summary = { "summary", 0, "FILE", CLI_OUT_SUMMARY };
const struct cli_opt cli_out_html = { "html", 0, "FILE", CLI_OUT_HTML };
const struct cli_opt cli_out_json = { "json", 0, "FILE", CLI_OUT_JSON };
const struct cli_opt cli_out_csv = { "csv", 0, "DIR", CLI_OUT_CSV };
const struct cli_opt cli_out_lava = { "lava", 0, "FILE", CLI_OUT_LAVA };
const struct cli_opt cli_out_kcidb = { "kcidb", 0, "FILE", CLI_OUT_KCIDB };
const struct cli_opt cli_out_kcidb_origin = { "kcidb-origin", 0, "NAME", CLI_OUT_KCIDB_ORIGIN };
const struct cli_opt cli_out_metrics = { "metrics", 0, "FILE", CLI_OUT_METRICS };

/* ---- each command's own rows ---- */

/* run */
static const struct cli_opt *const run_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW),
	&cli_out_junit,
	&cli_out_junit_skipped,
	&cli_out_summary,
	&cli_out_html,
	&cli_out_json,
	&cli_out_csv,
	&cli_out_lava,
	&cli_out_kcidb,
	&cli_out_kcidb_origin,
	&cli_out_metrics,
	ROW("only", 0, "ID[,ID...]", 'O'),
	ROW("quick", 0, NULL, 'k'),
	ROW("iterations", 0, "N", 'i'),
	ROW("runs", 0, "N", 'r'),
	ROW("duration", 0, "D", 'D'),
	ROW("interval", 0, "D", 'I'),
	ROW("trace", 0, NULL, 't'),
	ROW("quiet", 'q', NULL, 'q'),
	ROW("host-label", 0, "NAME", 'L'),
	ROW("sign", 0, "KEY", 'G'),
	NULL,
};

/* validate */
static const struct cli_opt *const validate_rows[] = {
	ROW("plan", 0, NULL, 'p'),
	NULL,
};

/* probe */
static const struct cli_opt *const probe_rows[] = {
	ROW("param", 0, "K=V", 'p'),
	ROW("policy", 0, "fifo|rr|other", 'P'),
	ROW("priority", 0, "N|max", 'R'),
	ROW("cpu", 0, "N", 'c'),
	ROW("iterations", 0, "N", 'i'),
	ROW("runs", 0, "N", 'r'),
	ROW("warmup", 0, "N", 'w'),
	ROW("timeout", 0, "DURATION", 't'),
	ROW("duration", 0, "D", 'D'),
	ROW(CLI_OUT_OUTPUT_ROW),
	ROW("json", 0, NULL, 'J'),
	NULL,
};

/* report */
static const struct cli_opt *const report_rows[] = {
	&cli_out_html,
	&cli_out_json,
	&cli_out_junit,
	&cli_out_junit_skipped,
	&cli_out_summary,
	&cli_out_csv,
	&cli_out_lava,
	&cli_out_kcidb,
	&cli_out_kcidb_origin,
	NULL,
};

/* merge */
static const struct cli_opt *const merge_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW),
	ROW("force", 0, NULL, 'f'),
	NULL,
};

/* compare */
static const struct cli_opt *const compare_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW),
	ROW("tolerance", 0, "T", 't'),
	ROW("significance", 0, "A", 's'),
	ROW("allow-inconclusive", 0, NULL, 'i'),
	ROW("force", 0, NULL, 'f'),
	ROW("allow-missing", 0, NULL, 'm'),
	ROW("allow-changed", 0, NULL, 'c'),
	NULL,
};

/* explain */
static const struct cli_opt *const explain_rows[] = {
	ROW("json", 0, NULL, 'j'),
	NULL,
};

/* verify */
static const struct cli_opt *const verify_rows[] = {
	ROW("pubkey", 0, "FILE", 'p'),
	ROW("gpg-key", 0, "KEY", 'g'),
	NULL,
};

/* selftest */
static const struct cli_opt *const selftest_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW),
	NULL,
};

/* list */
static const struct cli_opt *const list_rows[] = {
	ROW("profiles", 0, NULL, 'P'),
	NULL,
};

/* env */
static const struct cli_opt *const env_rows[] = { NULL };

/* ---- the commands' tables ---- */

const struct cli_cmd_opts cli_opts_run = { "run", run_rows };
const struct cli_cmd_opts cli_opts_validate = { "validate", validate_rows };
const struct cli_cmd_opts cli_opts_list = { "list", list_rows };
const struct cli_cmd_opts cli_opts_probe = { "probe", probe_rows };
const struct cli_cmd_opts cli_opts_env = { "env", env_rows };
const struct cli_cmd_opts cli_opts_report = { "report", report_rows };
const struct cli_cmd_opts cli_opts_compare = { "compare", compare_rows };
const struct cli_cmd_opts cli_opts_explain = { "explain", explain_rows };
const struct cli_cmd_opts cli_opts_merge = { "merge", merge_rows };
const struct cli_cmd_opts cli_opts_verify = { "verify", verify_rows };
const struct cli_cmd_opts cli_opts_selftest = { "selftest", selftest_rows };
const struct cli_cmd_opts *const cli_opts_all[] = {
	&cli_opts_run, &cli_opts_validate, &cli_opts_list, &cli_opts_probe, &cli_opts_env,
	&cli_opts_report, &cli_opts_compare, &cli_opts_explain, &cli_opts_merge,
	&cli_opts_verify, &cli_opts_selftest, NULL,
};

/* Every command's --help, the row cli_getopt and cli_usage add. */
static const struct cli_opt help_row = { "help", 'h', NULL, CLI_OPT_HELP };

/* ---- the words of each row (man/options.txt) ----
 *
 * The build embeds man/options.txt as rtc_options_text: a block per row,
 * "== CMD --NAME" (CMD "*": a shared row), its --help words (lines joined
 * with a blank), then after a line "--" its man page description. Read
 * once, cut in place; every row must have a block and every block a row
 * (cli_words_check). */
extern const char rtc_options_text[];

#define MAX_WORDS 96

struct words {
	const char *cmd, *name, *help, *man; /* man: NULL when none */
};

static struct words words[MAX_WORDS];
static size_t nwords;
static char *words_text;
static const char *words_problem; /* why the file cannot be read as blocks */

/* The block starting at line (after "== "), cut; the line after it. */
static char *words_block(char *line, struct words *w)
{
	char *end = strchr(line, '\n'), *sp = strstr(line, " --");
	if (!end || !sp || sp > end) {
		words_problem = "a block's first line is not \"== CMD --NAME\"";
		return NULL;
	}
	*sp = *end = '\0';
	w->cmd = line;
	w->name = sp + 3;
	w->help = end + 1;
	w->man = NULL;
	char *p = end + 1, *last = NULL;
	while (*p && strncmp(p, "== ", 3) != 0) {
		char *nl = p + strcspn(p, "\n");
		if (!w->man && nl - p == 2 && !strncmp(p, "--", 2)) {
			*p = '\0';
			w->man = nl + (*nl == '\n');
		} else if (nl > p) {
			last = nl;
		}
		p = nl + (*nl == '\n');
	}
	if (last) /* the blank lines after the block's last words */
		*last = '\0';
	for (char *c = (char *)w->help; *c; c++)
		if (*c == '\n')
			*c = ' ';
	size_t n = strlen(w->help);
	while (n && w->help[n - 1] == ' ')
		((char *)w->help)[--n] = '\0';
	return p;
}

static void words_load(void)
{
	if (words_text || words_problem)
		return;
	if (!(words_text = strdup(rtc_options_text))) {
		words_problem = "out of memory";
		return;
	}
	char *p = words_text;
	while (*p && strncmp(p, "== ", 3) != 0) /* the comments before the first */
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	while (p && *p && !words_problem) {
		if (nwords == MAX_WORDS) {
			words_problem = "more blocks than MAX_WORDS";
			break;
		}
		p = words_block(p + 3, &words[nwords++]);
	}
}

/* Row r's words in command cmd's table: its own block, else a shared one;
 * NULL when there is none. */
static const struct words *words_of(const char *cmd, const struct cli_opt *r)
{
	words_load();
	const struct words *shared = NULL;
	for (size_t i = 0; i < nwords; i++)
		if (!strcmp(words[i].name, r->name)) {
			if (!strcmp(words[i].cmd, cmd))
				return &words[i];
			if (!strcmp(words[i].cmd, "*"))
				shared = &words[i];
		}
	return shared;
}

static const char *help_of(const char *cmd, const struct cli_opt *r)
{
	const struct words *w = words_of(cmd, r);
	return w ? w->help : "(no words: man/options.txt has no block for this option)";
}

/* Whether block w is of a row: its command's, or with "*" any command's. */
static bool words_used(const struct words *w)
{
	if (!strcmp(w->cmd, "*") && !strcmp(w->name, help_row.name))
		return true;
	for (size_t i = 0; cli_opts_all[i]; i++)
		for (const struct cli_opt *const *r = cli_opts_all[i]->rows; *r; r++)
			if (!strcmp((*r)->name, w->name) &&
			    (!strcmp(w->cmd, "*") || !strcmp(w->cmd, cli_opts_all[i]->cmd)))
				return true;
	return false;
}

int cli_words_check(FILE *err)
{
	int bad = 0;
	words_load();
	if (words_problem) {
		fprintf(err, "rtconform: man/options.txt: %s\n", words_problem);
		return 1;
	}
	for (size_t i = 0; cli_opts_all[i]; i++)
		for (const struct cli_opt *const *r = cli_opts_all[i]->rows; *r; r++)
			if (!words_of(cli_opts_all[i]->cmd, *r) && ++bad)
				fprintf(err, "rtconform: man/options.txt: no block for %s --%s\n",
					cli_opts_all[i]->cmd, (*r)->name);
	for (size_t i = 0; i < nwords; i++)
		if (!words_used(&words[i]) && ++bad)
			fprintf(err, "rtconform: man/options.txt: block '%s --%s' is of no option of %s\n",
				words[i].cmd, words[i].name,
				strcmp(words[i].cmd, "*") ? words[i].cmd : "any command");
	return bad;
}

/* ---- getopt_long() ---- */

#define MAX_ROWS 40

int cli_getopt(const struct cli_cmd_opts *t, int argc, char **argv)
{
	static const struct cli_cmd_opts *built;
	static struct option opts[MAX_ROWS + 2];
	static char shorts[2 * MAX_ROWS + 4];
	if (built != t) {
		size_t n = 0, s = 0;
		shorts[s++] = ':'; /* a missing value is ':', not '?' */
		for (const struct cli_opt *const *r = t->rows; *r && n < MAX_ROWS; r++, n++) {
			opts[n] = (struct option){ (*r)->name,
						   (*r)->arg ? required_argument : no_argument,
						   NULL, (*r)->val };
			if ((*r)->letter) {
				shorts[s++] = (*r)->letter;
				if ((*r)->arg)
					shorts[s++] = ':';
			}
		}
		opts[n++] = (struct option){ help_row.name, no_argument, NULL, help_row.val };
		opts[n] = (struct option){ 0 };
		shorts[s++] = help_row.letter;
		shorts[s] = '\0';
		built = t;
	}
	return getopt_long(argc, argv, shorts, opts, NULL);
}

/* ---- --help ---- */

/* Where an option's words start in --help, and the line's width. */
#define HELP_COL 24
#define HELP_WIDTH 80

/* "-o, --output DIR" or "    --quick" of row r into buf. */
static int opt_synopsis(const struct cli_opt *r, char *buf, size_t len)
{
	char lead[8] = "    ";
	if (r->letter)
		snprintf(lead, sizeof lead, "-%c, ", r->letter);
	return snprintf(buf, len, "%s--%s%s%s", lead, r->name, r->arg ? " " : "",
			r->arg ? r->arg : "");
}

/* words wrapped from column col to HELP_WIDTH, each line indented to col
 * after the first (which starts at col already). */
static void print_wrapped(FILE *out, const char *words, int col)
{
	int at = col;
	for (const char *p = words; *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (!n)
			break;
		if (at > col && at + 1 + (int)n > HELP_WIDTH) {
			fprintf(out, "\n%*s", col, "");
			at = col;
		}
		at += fprintf(out, "%s%.*s", at > col ? " " : "", (int)n, p);
		p += n;
	}
	fputc('\n', out);
}

static void usage_row(FILE *out, const char *cmd, const struct cli_opt *r)
{
	char syn[128];
	int n = opt_synopsis(r, syn, sizeof syn);
	if (n + 2 >= HELP_COL) /* too long: the words on a line of their own */
		fprintf(out, "  %s\n%*s", syn, HELP_COL, "");
	else
		fprintf(out, "  %-*s", HELP_COL - 2, syn);
	print_wrapped(out, help_of(cmd, r), HELP_COL);
}

void cli_usage(FILE *out, const struct cli_cmd_opts *t, const char *head, const char *tail)
{
	fputs(head, out);
	fputc('\n', out);
	for (const struct cli_opt *const *r = t->rows; *r; r++)
		usage_row(out, t->cmd, *r);
	usage_row(out, t->cmd, &help_row);
	if (tail) {
		fputc('\n', out);
		fputs(tail, out);
	}
}

/* ---- the completion's listing ---- */

static const struct cli_cmd_opts *find_cmd(const char *cmd)
{
	for (size_t i = 0; cli_opts_all[i]; i++)
		if (!strcmp(cli_opts_all[i]->cmd, cmd))
			return cli_opts_all[i];
	return NULL;
}

static void list_row(const struct cli_opt *r)
{
	printf("--%s\t", r->name);
	if (r->letter)
		printf("-%c", r->letter);
	printf("\t%s\n", r->arg ? r->arg : "");
}

int cli_list_options(const char *cmd)
{
	const struct cli_cmd_opts *t = cmd ? find_cmd(cmd) : NULL;
	if (!t) {
		termsafe_println(stderr, "rtconform --list-options: no command '%s'", cmd ? cmd : "");
		return 2;
	}
	for (const struct cli_opt *const *r = t->rows; *r; r++)
		list_row(*r);
	list_row(&help_row);
	return 0;
}

/* ---- the man page's OPTIONS entries ---- */

/* s with every '-' as troff's minus, "\-". */
static void man_minus(const char *s, FILE *out)
{
	for (; *s; s++)
		fputs(*s == '-' ? "\\-" : (char[]){ *s, 0 }, out);
}

/* An option's value in troff: a lower-case word (a choice: fifo, max) in
 * bold, any other word (DIR, K, ID) in italic, the rest roman. */
static void man_arg(const char *arg, FILE *out)
{
	for (const char *p = arg; *p;) {
		size_t n = 0;
		bool lower = true;
		while (isalnum((unsigned char)p[n])) {
			lower = lower && !isupper((unsigned char)p[n]);
			n++;
		}
		if (n) {
			fprintf(out, "\\f%c%.*s\\fR", lower ? 'B' : 'I', (int)n, p);
			p += n;
		} else {
			man_minus((char[]){ *p++, 0 }, out);
		}
	}
}

static void man_entry(const char *cmd, const struct cli_opt *r, FILE *out)
{
	fputs(".TP\n", out);
	fputs(r->letter || r->arg ? ".BR " : ".B ", out);
	if (r->letter)
		fprintf(out, "\\-%c \", \" ", r->letter);
	fputs("\\-\\-", out);
	man_minus(r->name, out);
	if (r->arg) {
		fputs(" \" ", out);
		man_arg(r->arg, out);
		fputc('"', out);
	}
	fputc('\n', out);
	const struct words *w = words_of(cmd, r);
	if (w && w->man) {
		fprintf(out, "%s\n", w->man);
		return;
	}
	/* help's words as a sentence */
	const char *help = help_of(cmd, r);
	fputc(toupper((unsigned char)help[0]), out);
	man_minus(help + 1, out);
	fputs(".\n", out);
}

#define MAN_MARK ".\\\" rtconform-options "

int cli_man_page(const char *page)
{
	char *text, err[600];
	size_t len;
	if (!page || safeopen_read(page, 1 << 20, "a man page", &text, &len, err, sizeof err)) {
		termsafe_println(stderr, "rtconform --man-page: %s", page ? err : "no page given");
		return 2;
	}
	/* a row without words, or words of no row, makes no page */
	int rc = cli_words_check(stderr) ? 2 : 0;
	for (char *line = text; !rc && *line;) {
		size_t n = strcspn(line, "\n");
		char *next = line + n + (line[n] == '\n');
		line[n] = '\0';
		if (strncmp(line, MAN_MARK, strlen(MAN_MARK)) != 0) {
			puts(line);
		} else {
			const char *cmd = line + strlen(MAN_MARK);
			const struct cli_cmd_opts *t = find_cmd(cmd);
			if (!t) {
				termsafe_println(stderr, "rtconform --man-page: %s: no command '%s'", page,
						 cmd);
				rc = 2;
			}
			for (const struct cli_opt *const *r = t ? t->rows : NULL; r && *r; r++)
				man_entry(cmd, *r, stdout);
		}
		line = next;
	}
	free(text);
	return rc;
}

#ifdef RTC_MAN_TOOL
/* The page's maker alone, for a build whose rtconform cannot run where it
 * is built (a cross build: cmake/docs-install.cmake). */
int main(int argc, char **argv)
{
	return argc == 3 && !strcmp(argv[1], "--man-page") ? cli_man_page(argv[2]) : 2;
}
#endif
