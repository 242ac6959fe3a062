/* SPDX-License-Identifier: Apache-2.0 */
/* selftest.c - `rtconform selftest`: run every known-answer case of
 * selftest_cases.c with this rtconform, print the table and write the
 * validation record (selftest.h, docs/qualification.md). */
#include "cli/selftest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/termsafe.h"
#include "cli/manifest.h"
#include "harness/measure/timebase.h"
#include "host/facts.h"
#include "reports/report.h"

static const char selftest_usage[] =
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
	"`not run` (and say why).\n"
	"\n"
	"  -o, --output DIR   the record's directory, new or empty\n"
	"                     (default selftest-YYYYmmdd-HHMMSS here)\n"
	"  -h, --help         this text\n"
	"\n"
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
	static const struct option opts[] = { { "output", required_argument, NULL, 'o' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	dir[0] = 0;
	cli_getopt_begin();
	int ch;
	while ((ch = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(selftest_usage, stdout);
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

/* SIGINT, SIGTERM, SIGHUP (cli_catch_stop): the case running ends as its
 * child does (the child, in our process group, got the signal too and
 * writes its reports); the cases after it are not run, and the record is
 * still written. A reader of the table that went away (`selftest | head`):
 * the write fails with EPIPE, and the cases and the record go on. */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether the normal worker gets real-time scheduling and locked memory,
 * as `rtconform env` judges it (host.privileges.worker). */
static void worker_rt(struct st_env *e)
{
	struct host_worker_privileges w;
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/rtconform-worker", e->ctx->self_dir);
	host_worker_privileges_collect(&w, path);
	e->rt = e->root || (w.known && w.cap_sys_nice && w.cap_ipc_lock);
	snprintf(e->rt_why, sizeof e->rt_why, "%s", !w.known ? w.why :
		 "run selftest as root, or give rtconform-worker CAP_SYS_NICE and CAP_IPC_LOCK "
		 "(docs/privileges.md)");
}

static void run_case(const struct st_env *e, const struct st_case *c, struct st_outcome *o)
{
	memset(o, 0, sizeof *o);
	o->verdict = ST_PASS;
	if (cli_stop_signal()) {
		st_error(o, "not run: selftest was interrupted (signal %d) before this case",
			 cli_stop_signal());
		return;
	}
	if (c->priv == ST_PRIV_ROOT && !e->root) {
		o->verdict = ST_NOT_RUN;
		snprintf(o->why, sizeof o->why, "needs root: it preloads a fault library (which a "
			 "worker with file capabilities ignores), measures at a real-time priority "
			 "in rtconform-worker-faults (which has no capabilities)");
		return;
	}
	if (c->priv == ST_PRIV_RT && !e->rt) {
		o->verdict = ST_NOT_RUN;
		snprintf(o->why, sizeof o->why, "needs real-time privileges for the worker: %s",
			 e->rt_why);
		return;
	}
	double t0 = now_s();
	c->run(e, c, o);
	o->seconds = now_s() - t0;
	if (cli_stop_signal() && o->verdict != ST_PASS) {
		/* its child was stopped too: not a known answer missed */
		st_error(o, "interrupted (signal %d) while it ran: its evidence is cut short",
			 cli_stop_signal());
	}
	if (o->verdict == ST_PASS && !o->expected[0]) {
		/* A case that compared nothing cannot pass. */
		st_error(o, "the case compared no known answer");
	}
}

static void print_case(const struct st_case *c, const struct st_outcome *o)
{
	termsafe_println(stdout, "%-24s %-8s %s", c->id, st_verdict_name(o->verdict), c->function);
	if (o->expected[0])
		termsafe_println(stdout, "    expected: %s", o->expected);
	if (o->observed[0])
		termsafe_println(stdout, "    observed: %s", o->observed);
	if (o->why[0])
		termsafe_println(stdout, "    %s: %s", o->verdict == ST_NOT_RUN ? "not run" : "why",
				 o->why);
	fflush(stdout);
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
	struct st_env e = { .ctx = ctx, .root = geteuid() == 0 };
	worker_rt(&e);
	ssize_t n = readlink("/proc/self/exe", e.self, sizeof e.self - 1);
	if (n <= 0) {
		termsafe_println(stderr, "rtconform selftest: cannot read /proc/self/exe: %s",
				 strerror(errno));
		return EXIT_NOT_MEASURED;
	}
	e.self[n] = 0;
	struct cli_locks locks = { .n = 0 };
	struct cli_made_dirs made = { .n = 0 };
	/* Locked like every output directory: a second selftest (or a run)
	 * into it at the same time is refused, not mixed in; refused, it
	 * removes the directory it made. */
	cli_made_dirs_note(&made, dir);
	char *abs = NULL;
	if ((rc = make_dir(dir, &abs)) != 0 ||
	    (rc = cli_lock_dir(&locks, "selftest", abs, ctx->cmdline)) != 0) {
		free(abs);
		cli_made_dirs_end(&made, rc);
		return rc;
	}
	cli_made_dirs_free(&made); /* it goes on: the record is written there */
	e.dir = abs;
	struct st_outcome *out = calloc(st_ncases, sizeof *out);
	if (!out) {
		free(abs);
		cli_unlock(&locks);
		return EXIT_NOT_MEASURED;
	}
	struct st_record rec = { .dir = abs, .out = out, .started = time(NULL) };
	cli_catch_stop(true);
	termsafe_println(stdout, "%-24s %-8s %s", "CASE", "VERDICT", "FUNCTION VALIDATED");
	for (size_t i = 0; i < st_ncases; i++) {
		run_case(&e, &st_cases[i], &out[i]);
		print_case(&st_cases[i], &out[i]);
	}
	rec.ended = time(NULL);
	st_tally(&rec);
	/* A record that could not be written (a full disk) is said, and makes
	 * the selftest an error whatever the cases found (3 wins over 1, as a
	 * run's report that cannot be written): no record, no validation. */
	bool written = st_write_record(&rec) == 0;
	if (!written)
		rec.status = EXIT_NOT_MEASURED;
	termsafe_println(stdout, "selftest: %zu cases: %zu matched, %zu did not match, %zu not run, "
			 "%zu errors; %s%s%s", st_ncases, rec.counts[ST_PASS],
			 rec.counts[ST_FAIL], rec.counts[ST_NOT_RUN], rec.counts[ST_ERROR],
			 written ? "record in " : "NO RECORD: it could not be written into ", abs,
			 written ? "" : " (see the errors above)");
	if (!written)
		termsafe_println(stderr, "rtconform selftest: the validation record in %s is "
				 "incomplete: no %s vouches for it; exit status 3", abs,
				 MANIFEST_NAME);
	free(out);
	free(abs);
	cli_unlock(&locks);
	return rec.status;
}
