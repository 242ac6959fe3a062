/* SPDX-License-Identifier: Apache-2.0 */
/* common.c - helpers the subcommands share; see cli.h. */
#include "cli/cli.h"
#include "base/stopsig.h"
#include "evidence/manifest.h"
#include "evidence/sign.h"
#include "reports/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/termsafe.h"
#include "base/units.h"
#include "harness/measure/probes/probes.h"
#include "requirements/loader.h"
#include "requirements/validate.h"
#include "reports/csv.h"
#include "reports/report.h"
#include "reports/traceability.h"

/* ---------------------------------------------------------------- files */

static void print_diags(const struct diag_list *d)
{
	for (size_t i = 0; i < d->n; i++)
		termsafe_println(stderr, "%s", d->msgs[i]);
}

int cli_load_all(const struct cli_ctx *ctx, char **args, int n, struct req_file ***out,
		 size_t *nout)
{
	struct diag_list d = { 0 };
	size_t count = n > 0 ? (size_t)n : 1;
	struct req_file **files = calloc(count, sizeof *files);
	if (!files) {
		termsafe_println(stderr, "rtconform: out of memory");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < count; i++) {
		if (n == 0)
			files[i] = cli_load_profile(ctx, "default", &d);
		else if (cli_is_profile_name(args[i]))
			files[i] = cli_load_profile(ctx, args[i], &d);
		else
			files[i] = req_load_file(args[i], NULL, &d);
		/* rtconform's own limits (a violation count must stay 0) only
		 * on a file that is valid as written. */
		if (files[i] && validate_file(files[i], &probe_catalog, &d) == 0)
			validate_implicit_limits(files[i], &probe_catalog, &d);
	}
	if (d.n) {
		print_diags(&d);
		diag_free(&d);
		for (size_t i = 0; i < count; i++)
			if (files[i])
				req_file_free(files[i]);
		free(files);
		return EXIT_USAGE;
	}
	*out = files;
	*nout = count;
	return 0;
}

void cli_free_files(struct req_file **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		req_file_free(files[i]);
	free(files);
}

/* -------------------------------------------------------------- options */

bool cli_wants_help(int argc, char **argv)
{
	return argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
}

void cli_getopt_begin(void)
{
	opterr = 0;
	optind = 1;
}

int cli_getopt_error(const char *cmd, int c, char **argv)
{
	if (c == ':')
		termsafe_println(stderr, "rtconform %s: option %s needs a value", cmd, argv[optind - 1]);
	else
		termsafe_println(stderr, "rtconform %s: unknown option '%s' (see rtconform %s --help)", cmd,
			argv[optind - 1], cmd);
	return EXIT_USAGE;
}

int cli_parse_count(const char *cmd, const char *opt, const char *v, uint64_t min,
		    uint64_t max, uint64_t *out)
{
	char err[200];
	if (units_count_parse_range(v, min, max, out, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform %s: %s: %s", cmd, opt, err);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------- workers, progress */

volatile sig_atomic_t *cli_become_supervisor(void)
{
	runner_become_supervisor();
	/* No SA_RESTART: a write blocked on a reader that stopped reading
	 * returns EINTR, so a signal ends it. */
	return stop_catch(false);
}

void cli_catch_file_size_limit(void)
{
	/* RLIMIT_FSIZE (ulimit -f, a CI job's or a unit's LimitFSIZE=): a
	 * write past it would end rtconform with SIGXFSZ, its journal's
	 * record torn and nothing said; caught, the write fails with EFBIG,
	 * which every writer handles as it does a full disk. */
	stop_catch_file_size();
}

static bool stdout_was_closed;

void cli_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* Held by /dev/null, so no report file is opened as fd 1 and
		 * written to by the table; a closed stdout is still reported:
		 * it is held read-only, so every write to it fails with EBADF
		 * as it would closed, and cli_close_stdout says so. */
		int n = open("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY);
		if (n >= 0 && n != fd) {
			dup2(n, fd);
			close(n);
		}
		if (fd == STDOUT_FILENO)
			stdout_was_closed = true;
	}
}

int cli_write_stdout(const char *buf, size_t len, volatile sig_atomic_t *stop,
		     sig_atomic_t seen)
{
	if (stdout_was_closed)
		return -EBADF;
	fflush(stdout); /* nothing of stdio's may come after this */
	/* The interrupting signals are held except while ppoll() waits, so
	 * one that comes at any moment ends the wait, and no write can block:
	 * it follows POLLOUT and writes at most PIPE_BUF bytes, which a pipe
	 * that polls writable takes at once. */
	sigset_t hold, old;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigprocmask(SIG_BLOCK, &hold, &old);
	int rc = 0;
	while (len && !rc) {
		struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
		if (stop && *stop != seen) {
			rc = -EINTR;
		} else if (ppoll(&p, 1, NULL, &old) < 0) {
			rc = errno == EINTR ? 0 : -errno; /* EINTR: look at the flag */
		} else {
			ssize_t n = write(STDOUT_FILENO, buf, len < PIPE_BUF ? len : PIPE_BUF);
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				rc = -errno;
			if (n > 0) {
				buf += n;
				len -= (size_t)n;
			}
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int cli_close_stdout(const char *cmd, int rc)
{
	bool failed = ferror(stdout);
	errno = 0;
	int closed = fclose(stdout), e = errno;
	if (!failed && closed == 0)
		return rc;
	/* A write that failed earlier (a command's own fflush) left only the
	 * stream's error flag: its errno is known when stdout was closed. */
	if (!(closed != 0 && e) && stdout_was_closed) {
		e = EBADF;
		closed = -1;
	}
	termsafe_println(stderr, "rtconform%s%s: standard output: %s: what this command printed "
			 "there is lost or cut short", cmd ? " " : "", cmd ? cmd : "",
			 closed != 0 && e ? strerror(e) : "a write failed");
	return rc == EXIT_USAGE ? rc : EXIT_NOT_MEASURED;
}

int cli_need_helpers(const char *cmd, const struct cli_ctx *ctx)
{
	if (ctx->self_dir)
		return 0;
	termsafe_println(stderr, "rtconform %s: %s", cmd,
		     ctx->helper_problem ? ctx->helper_problem : "cannot locate rtconform-worker");
	return EXIT_NOT_MEASURED;
}

int cli_kcidb_origin(const char *cmd, const char *v, const char **origin)
{
	if (!report_kcidb_origin_ok(v)) {
		termsafe_println(stderr, "rtconform %s: --kcidb-origin: '%s' is not a KCIDB origin "
				 "(a-z, 0-9 and '_', not empty: the name KernelCI gave the lab)",
				 cmd, v);
		return EXIT_USAGE;
	}
	*origin = v;
	return 0;
}

int cli_view_outputs(struct report_view *v, char *const *path, const char *csv_dir)
{
	if (!path[REPORT_HTML]) /* no report.html: nothing to link from */
		return 0;
	/* one that cannot be resolved now (its directory removed meanwhile)
	 * links nothing; only memory is a failure of the run's */
	char *html = path_canonical(path[REPORT_HTML]);
	if (!html)
		return errno == ENOMEM ? -ENOMEM : 0;
	char *slash = strrchr(html, '/');
	int e = 0;
	if (slash)
		*slash = '\0';
	const char *dir = slash && slash != html ? html : "/";
	for (int k = 0; k < REPORT_NKINDS && !e; k++) {
		char *c = path[k] ? path_canonical(path[k]) : NULL;
		const char *rel = c ? path_below(c, dir) : NULL;
		if (rel && report_evidence_path_ok(rel, false) &&
		    !(v->outputs.report[k] = strdup(rel)))
			e = -ENOMEM;
		free(c);
	}
	char *c = csv_dir && !e ? path_canonical(csv_dir) : NULL;
	const char *rel = c ? path_below(c, dir) : NULL;
	if (rel && !*rel)
		rel = ".";
	if (rel && report_evidence_path_ok(rel, true) && !(v->outputs.csv = strdup(rel)))
		e = -ENOMEM;
	free(c);
	free(html);
	return e;
}
