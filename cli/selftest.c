/* SPDX-License-Identifier: Apache-2.0 */
/* selftest.c - `rtconform selftest`: its options, and the record's
 * directory made and locked; selftest/selftest_run.c runs the cases and writes
 * the record (selftest/selftest.h, docs/qualification.md). */
#include "cli/cli.h"
#include "selftest/selftest.h"
#include "cli/options.h"
#include "output/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Directory dir opened as every output's is (report_open_dir: no link
 * planted on the way followed), made (0755) when missing: its fd, or -1
 * after saying why. */
static int open_made_dir(const char *dir)
{
	char why[PATH_MAX + 300] = "", *copy = strdup(dir);
	size_t n = copy ? strlen(copy) : 0;
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = 0; /* "rec/": its last component is rec */
	char *slash = copy ? strrchr(copy, '/') : NULL;
	const char *base = slash ? slash + 1 : copy;
	int pfd = -ENOMEM, fd = -ENOMEM;
	if (copy && slash) {
		*slash = 0;
		pfd = report_open_dir(slash == copy ? "/" : copy, false, why, sizeof why);
	} else if (copy) {
		pfd = report_open_dir(".", false, why, sizeof why);
	}
	if (pfd >= 0 && mkdirat(pfd, base, 0755) != 0 && errno != EEXIST)
		fd = -errno;
	else if (pfd >= 0)
		fd = report_open_dir(dir, false, why, sizeof why);
	else
		fd = pfd;
	if (pfd >= 0)
		close(pfd);
	free(copy);
	if (fd < 0)
		termsafe_println(stderr, "rtconform selftest: %s: %s", dir,
				 fd == -ELOOP && why[0] ? why : strerror(-fd));
	return fd < 0 ? -1 : fd;
}

/* DIR new (made) or an empty directory only we may write, reached without
 * following a link planted on the way: 0 with *abs the directory checked
 * (malloc'd, as /proc names the fd opened), or EXIT_USAGE after saying
 * why. */
static int make_dir(const char *dir, char **abs)
{
	int fd = open_made_dir(dir);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0) {
			termsafe_println(stderr, "rtconform selftest: %s: %s", dir,
					 strerror(errno));
			close(fd);
		}
		return EXIT_USAGE;
	}
	/* One that another user may write is refused: the record's files and
	 * the cases' directories are made by name, and a name planted there
	 * (a link to a file of root's) would be followed. */
	struct stat st;
	if (fstat(dirfd(d), &st) != 0 || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		termsafe_println(stderr, "rtconform selftest: %s: %s: the record goes into a "
				 "directory only you can write (a new one is made so)", dir,
				 st.st_uid != geteuid() ? "owned by another user" :
				 "others may write it");
		closedir(d);
		return EXIT_USAGE;
	}
	struct dirent *de;
	bool empty = true;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", dirfd(d));
	*abs = empty ? realpath(proc, NULL) : NULL;
	closedir(d);
	if (!empty) {
		termsafe_println(stderr, "rtconform selftest: %s is not empty: the record goes into "
				 "a new or empty directory", dir);
		return EXIT_USAGE;
	}
	if (!*abs) {
		termsafe_println(stderr, "rtconform selftest: cannot resolve %s: %s", dir,
				 strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

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
	struct out_locks locks = { .n = 0 };
	struct out_made_dirs made = { .n = 0 };
	/* Locked like every output directory: a second selftest (or a run)
	 * into it at the same time is refused, not mixed in; refused, it
	 * removes the directory it made. */
	out_made_dirs_note(&made, dir);
	char *abs = NULL;
	if ((rc = make_dir(dir, &abs)) != 0 ||
	    (rc = out_lock_dir(&locks, "selftest", abs, ctx->cmdline)) != 0) {
		free(abs);
		out_made_dirs_end(&made, rc);
		return rc;
	}
	out_made_dirs_free(&made); /* it goes on: the record is written there */
	e.dir = abs;
	rc = st_selftest(&e);
	free(abs);
	out_unlock(&locks);
	return rc;
}
