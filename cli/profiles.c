/* SPDX-License-Identifier: Apache-2.0 */
/* profiles.c - the shipped requirement profiles, by name: `rtconform run
 * spy-memo`, `rtconform validate creation`, `rtconform list --profiles`.
 *
 * The rule for an argument (one place; docs/install.md says the same): a file
 * of that name that exists is always that file; otherwise an argument with
 * no '/' that does not end in ".xml" is a profile name. "default" is the
 * built-in default profile (the text of default.xml, embedded at build
 * time), so it works even where no profile directory is installed; every
 * other name is NAME.xml in the profile directory cli/layout.c found. */
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/termsafe.h"
#include "harness/estimate.h"
#include "requirements/loader.h"

#define DEFAULT_PROFILE "default"
#define DEFAULT_PROFILE_DISPLAY "<built-in default profile>"

static bool ends_with_xml(const char *s)
{
	size_t n = strlen(s);
	return n >= 4 && !strcmp(s + n - 4, ".xml");
}

bool cli_is_profile_name(const char *arg)
{
	struct stat st;
	if (!arg[0] || strchr(arg, '/') || ends_with_xml(arg))
		return false;
	return stat(arg, &st) != 0 && errno == ENOENT;
}

/* A shipped profile's file: a visible NAME.xml with a NAME fit to type. */
static int is_profile_file(const struct dirent *e)
{
	const char *s = e->d_name;
	if (s[0] == '.' || !ends_with_xml(s) || !strcmp(s, DEFAULT_PROFILE ".xml"))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
	       strlen(s);
}

/* The names of the shipped profiles, "default" first, the rest sorted, into
 * *out (free with free_names). Returns the count. */
static size_t profile_names(const struct cli_ctx *ctx, char ***out)
{
	struct dirent **ents = NULL;
	int n = ctx->profile_dir && ctx->profile_dir[0] ?
			scandir(ctx->profile_dir, &ents, is_profile_file, alphasort) : 0;
	if (n < 0)
		n = 0;
	char **names = calloc((size_t)n + 1, sizeof *names);
	if (!names || !(names[0] = strdup(DEFAULT_PROFILE))) {
		termsafe_println(stderr, "rtconform: out of memory");
		exit(EXIT_USAGE);
	}
	for (int i = 0; i < n; i++) {
		names[i + 1] = strndup(ents[i]->d_name, strlen(ents[i]->d_name) - 4);
		free(ents[i]);
		if (!names[i + 1]) {
			termsafe_println(stderr, "rtconform: out of memory");
			exit(EXIT_USAGE);
		}
	}
	free(ents);
	*out = names;
	return (size_t)n + 1;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* "a, b, c" of the shipped names into buf. */
static void names_text(const struct cli_ctx *ctx, char *buf, size_t len)
{
	char **names;
	size_t n = profile_names(ctx, &names), used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	free_names(names, n);
}

struct req_file *cli_load_profile(const struct cli_ctx *ctx, const char *name,
				  struct diag_list *d)
{
	if (!strcmp(name, DEFAULT_PROFILE))
		return req_load_memory(rtc_default_profile, rtc_default_profile_len,
				       DEFAULT_PROFILE_DISPLAY, d);
	char *path = NULL;
	struct stat st;
	if (ctx->profile_dir && ctx->profile_dir[0] &&
	    asprintf(&path, "%s/%s.xml", ctx->profile_dir, name) < 0)
		path = NULL;
	if (path && stat(path, &st) == 0) {
		struct req_file *f = req_load_file(path, NULL, d);
		free(path);
		return f;
	}
	free(path);
	char known[2048];
	names_text(ctx, known, sizeof known);
	if (ctx->profile_dir && ctx->profile_dir[0])
		diag_add(d, name, 0, "no such file, and no shipped profile of that name "
			 "(shipped profiles, in %s: %s)", ctx->profile_dir, known);
	else
		diag_add(d, name, 0, "no such file, and no shipped profile of that name (no "
			 "profile directory was found for this rtconform; built in: %s)", known);
	return NULL;
}

int cli_list_profiles(const struct cli_ctx *ctx)
{
	char **names;
	size_t n = profile_names(ctx, &names);
	int rc = 0;
	/* The RT throttling guard's rests, as this machine's workers take them */
	struct estimate_guard guard;
	estimate_guard_of_machine(&guard);
	for (size_t i = 0; i < n; i++) {
		struct diag_list d = { 0 };
		struct req_file *f = cli_load_profile(ctx, names[i], &d);
		if (f) {
			/* Whole seconds: the estimate is no finer (harness/estimate.h). */
			double est = estimate_file_s(f, NULL, &guard);
			/* "1 requirement " keeps the columns of "2 requirements". */
			termsafe_println(stdout, "%-20s %3zu requirement%-1s  about %5.0f s (estimate)  %s",
				     names[i], f->nreqs, f->nreqs == 1 ? "" : "s",
				     est < 1 ? 1.0 : est, f->title ? f->title : "");
			req_file_free(f);
		} else {
			termsafe_println(stdout, "%-20s invalid: %s", names[i], d.n ? d.msgs[0] : "?");
			rc = EXIT_USAGE;
		}
		diag_free(&d);
	}
	free_names(names, n);
	putchar('\n');
	termsafe_println(stdout, "(default is built in; the others are in %s)",
		     ctx->profile_dir && ctx->profile_dir[0] ? ctx->profile_dir :
							       "no profile directory found");
	return rc;
}
