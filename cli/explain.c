/* SPDX-License-Identifier: Apache-2.0 */
/* explain.c - `rtconform explain TRACE [--json]`: a saved trace on breach
 * (trace-<ID>.txt) read and its breach explained (harness/explain.h,
 * docs/explain.md). */
#include "cli/cli.h"
#include "cli/options.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/termsafe.h"
#include "harness/explain.h"
#include "harness/trace.h"

static const char explain_head[] =
	"usage: rtconform explain TRACE|DIR [--json]\n"
	"\n"
	"Explain a breach from its saved trace (trace-<ID>.txt of a run with <trace/>\n"
	"or --trace): where the breaching sample's time went on the probe's CPU, in\n"
	"components (IRQs, softirqs, the timer interrupt, other tasks and how their\n"
	"priority compares with the probe's, idle, wake-up to run, what no event\n"
	"explains) that add up to the breach. A headline, then a table. A run's\n"
	"output directory: every trace-<ID>.txt in it, in name order.\n";

static const char explain_tail[] =
	"exit status: 0 explained, 2 usage error, or a file that is not a trace of a\n"
	"breach (the message names the file and line), or a DIR without traces\n";

static int parse_options(int argc, char **argv, bool *json)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_explain, argc, argv)) != -1) {
		if (c == 'j') {
			*json = true;
		} else if (c == 'h') {
			cli_usage(stdout, &cli_opts_explain, explain_head, explain_tail);
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

/* The trace at path opened by safeopen_regular: a regular file, not
 * through a link (a planted trace-X.txt -> /etc/shadow is not quoted), a
 * FIFO or a device refused before it is read. NULL with why saying why
 * ("PATH: not a regular file (a symbolic link)"). */
static FILE *open_trace(const char *path, char *why, size_t whylen)
{
	int fd = safeopen_regular(path, NULL, why, whylen);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* A trace of a directory that could not be explained, as its element of
 * the --json array: {"file": path, "error": why}. */
static void print_error_json(const char *path, const char *why, const char *sep)
{
	json_t *o = json_pack("{s:s, s:s}", "file", path, "error", why);
	char *s = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	if (s)
		printf("%s%s", sep, s);
	else
		termsafe_println(stderr, "rtconform explain: out of memory");
	free(s);
	json_decref(o);
}

/* Explain the trace at path: its text, or (json) its JSON after `sep`.
 * A trace that cannot be explained is said on stderr, and with in_array
 * (one of a directory's, --json) is its {"file", "error"} element, so the
 * array stays JSON. 0, or EXIT_USAGE. */
static int explain_one(const char *path, bool json, const char *sep, bool in_array)
{
	char err[1024];
	struct explain e;
	FILE *f = open_trace(path, err, sizeof err);
	int rc = f ? explain_read(f, path, &e, err, sizeof err) : -1;
	if (f)
		fclose(f);
	if (rc) {
		termsafe_println(stderr, "rtconform explain: %s", err);
		if (f)
			explain_free(&e);
		if (json && in_array)
			print_error_json(path, err, sep);
		return EXIT_USAGE;
	}
	if (json) {
		char *s = explain_json(&e);
		if (s)
			printf("%s%s", sep, s);
		else
			termsafe_println(stderr, "rtconform explain: out of memory");
		if (!s && in_array)
			print_error_json(path, strerror(ENOMEM), sep);
		rc = s ? 0 : EXIT_USAGE;
		free(s);
	} else {
		explain_print(stdout, &e);
	}
	explain_free(&e);
	return rc;
}

static int only_traces(const struct dirent *d)
{
	return trace_name_is_ours(d->d_name);
}

/* Every trace a run saved in dir (trace_name_is_ours), in name order:
 * each one's text after a line naming it, or a JSON array of them. A
 * trace that cannot be explained is said and the others still are; in the
 * array it is {"file", "error"} in its place. */
static int explain_dir(const char *dir, bool json)
{
	struct dirent **names;
	int n = scandir(dir, &names, only_traces, alphasort);
	if (n < 0) {
		termsafe_println(stderr, "rtconform explain: %s: %s", dir, strerror(errno));
		return EXIT_USAGE;
	}
	int rc = n ? 0 : EXIT_USAGE;
	if (!n)
		termsafe_println(stderr, "rtconform explain: %s: no trace-<ID>.txt in it (the traces "
				 "a run saves beside its reports)", dir);
	if (json)
		fputs("[", stdout);
	for (int i = 0; i < n; i++) {
		char *path = path_join(dir, names[i]->d_name);
		if (!json && i)
			putchar('\n');
		if (!json)
			termsafe_println(stdout, "== %s", path ? path : "?");
		const char *sep = i ? ",\n" : "\n"; /* every trace has its element */
		if (!path) {
			termsafe_println(stderr, "rtconform explain: out of memory");
			if (json)
				print_error_json(names[i]->d_name, strerror(ENOMEM), sep);
		}
		if (!path || explain_one(path, json, sep, true) != 0)
			rc = EXIT_USAGE;
		free(path);
		free(names[i]);
	}
	free(names);
	if (json)
		fputs("\n]\n", stdout);
	return rc;
}

int cmd_explain(int argc, char **argv, const struct cli_ctx *ctx)
{
	(void)ctx;
	bool json = false;
	int rc = parse_options(argc, argv, &json);
	if (rc >= 0)
		return rc;
	const char *path = argv[optind];
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rc = explain_dir(path, json);
	else if ((rc = explain_one(path, json, "", false)) == 0 && json)
		putchar('\n');
	return rc; /* standard output is checked for every command (cli_close_stdout) */
}
