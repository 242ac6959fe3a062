/* SPDX-License-Identifier: Apache-2.0 */
/* test_load.c - the background load: what a load element may say, and that
 * a started load runs, is checked, and is gone (every process of it, no
 * zombie) after load_stop, however it ended. Needs stress-ng (ci/deps
 * installs it); when it is missing the tests fail and say so.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/load.h"
#include "harness/runner.h"
#include "test_util.h"

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

/* Processes (zombies included) whose process group is pgid. */
static int group_size(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	ck_assert_msg(d != NULL, "cannot read /proc");
	while ((e = readdir(d))) {
		char path[300], buf[512];
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%.32s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[len] = 0;
		/* pid (comm) state ppid pgrp ...: comm may hold anything. */
		char *p = strrchr(buf, ')');
		char state;
		int ppid, pgrp;
		if (p && sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid)
			n++;
	}
	closedir(d);
	return n;
}

/* Every test process is a fresh fork of Check: orphans of the load must
 * come back to it, as they come back to rtconform's supervisor. */
static void become_subreaper(void)
{
	ck_assert_int_eq(runner_become_supervisor(), 0);
}

static void start_ok(struct load_proc *lp, const char *args)
{
	struct req_load l = { .tool = LOAD_TOOL, .args = (char *)args };
	char err[500] = "";
	int rc = load_start(&l, lp, err, sizeof err);
	ck_assert_msg(rc == 0, "load_start(%s): %d: %s", args, rc, err);
	ck_assert_int_gt(lp->pid, 0);
}

static void assert_all_gone(pid_t pgid)
{
	ck_assert_int_eq(group_size(pgid), 0);
	errno = 0;
	ck_assert_int_eq(kill(-pgid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	/* Nothing left to reap either: no zombie of it. */
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

/* ---- what a load element may say -------------------------------------- */

static const struct {
	const char *tool, *args, *expect;
} bad_specs[] = {
	{ "stress", "--cpu 1", "load tool 'stress' is not supported (expected stress-ng)" },
	{ "/usr/bin/stress-ng", "--cpu 1", "not supported" },
	{ "", "--cpu 1", "not supported" },
	{ "stress-ng", "", "empty" },
	{ "stress-ng", " \t ", "empty" },
	{ NULL, "--cpu 1", "not supported" },
	{ "stress-ng", "--cpu 1; rm -rf /", "';' is not allowed" },
	{ "stress-ng", "--cpu $(nproc)", "'$' is not allowed" },
	{ "stress-ng", "--cpu 1 | cat", "'|' is not allowed" },
	{ "stress-ng", "--cpu 1 && true", "'&' is not allowed" },
	{ "stress-ng", "--cpu '1'", "''' is not allowed" },
	{ "stress-ng", "--cpu \"1\"", "without a shell" },
	{ "stress-ng", "--cpu `nproc`", "'`' is not allowed" },
	{ "stress-ng", "--cpu 1 > /tmp/x", "'>' is not allowed" },
	{ "stress-ng", "--temp-path ~", "'~' is not allowed" },
	{ "stress-ng", "--cpu 1\x01", "control character" },
};

START_TEST(spec_rejected)
{
	struct req_load l = { .tool = (char *)bad_specs[_i].tool, .args = (char *)bad_specs[_i].args };
	char buf[400];
	const char *why = load_spec_problem(&l, buf, sizeof buf);
	ck_assert_msg(why != NULL, "accepted tool '%s' args '%s'", bad_specs[_i].tool,
		      bad_specs[_i].args);
	ck_assert_msg(strstr(why, bad_specs[_i].expect), "'%s' lacks '%s'", why,
		      bad_specs[_i].expect);
}
END_TEST

START_TEST(spec_limits)
{
	char args[2 * LOAD_MAX_ARGS + 8], buf[400];
	size_t n = 0;
	for (int i = 0; i < LOAD_MAX_ARGS + 1; i++) {
		args[n++] = 'x';
		args[n++] = ' ';
	}
	args[n] = 0;
	struct req_load l = { .tool = "stress-ng", .args = args };
	ck_assert_ptr_nonnull(load_spec_problem(&l, buf, sizeof buf));
	args[2 * LOAD_MAX_ARGS] = 0; /* exactly LOAD_MAX_ARGS words */
	ck_assert_ptr_null(load_spec_problem(&l, buf, sizeof buf));
}
END_TEST

START_TEST(spec_accepted)
{
	static const char *const ok[] = { "--cpu 2 --io 1 --vm 1 --vm-bytes 256M",
					  "--cpu 1\t--timeout 10s\n--metrics-brief",
					  "--vm 1 --vm-bytes 50% --taskset 0-1,3" };
	char buf[400];
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct req_load l = { .tool = "stress-ng", .args = (char *)ok[i] };
		const char *why = load_spec_problem(&l, buf, sizeof buf);
		ck_assert_msg(why == NULL, "'%s' refused: %s", ok[i], why);
	}
}
END_TEST

/* ---- running it -------------------------------------------------------- */

START_TEST(runs_then_gone)
{
	become_subreaper();
	struct load_proc lp;
	char err[500];
	start_ok(&lp, "--cpu 1  --io\t1");
	pid_t pgid = lp.pid;
	/* The exact command: the resolved path, then the args as split. */
	ck_assert_msg(lp.cmd[0] == '/', "command '%s' is not an absolute path", lp.cmd);
	const char *tail = "/stress-ng --cpu 1 --io 1";
	ck_assert_msg(strlen(lp.cmd) >= strlen(tail) &&
		      !strcmp(lp.cmd + strlen(lp.cmd) - strlen(tail), tail),
		      "command '%s' does not end in '%s'", lp.cmd, tail);
	ck_assert_msg(load_check(&lp, LOAD_SETTLE_MS, err, sizeof err) == 0, "%s", err);
	ck_assert(load_running(&lp));
	/* stress-ng and its stressors, all in the load's own group. */
	ck_assert_int_eq(getpgid(pgid), pgid);
	double end = mono_s() + 5;
	while (group_size(pgid) < 3 && mono_s() < end)
		sleep_s(0.05);
	ck_assert_int_ge(group_size(pgid), 3);
	ck_assert_msg(load_stop(&lp, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(lp.pid, 0);
	assert_all_gone(pgid);
	/* Stopping twice does nothing. */
	ck_assert_int_eq(load_stop(&lp, err, sizeof err), 0);
}
END_TEST

START_TEST(missing_tool_says_so)
{
	struct load_proc lp;
	struct req_load l = { .tool = "stress-ng", .args = "--cpu 1" };
	char err[500] = "";
	ck_assert_int_eq(setenv("PATH", "/nonexistent-rtconform-test", 1), 0);
	ck_assert_int_eq(load_start(&l, &lp, err, sizeof err), -ENOENT);
	ck_assert_msg(strstr(err, "stress-ng, which is not installed"), "%s", err);
	ck_assert_msg(strstr(err, "apt-get install stress-ng"), "%s", err);
	ck_assert_msg(strstr(err, "PATH=/nonexistent-rtconform-test"), "%s", err);
	ck_assert_int_eq(lp.pid, 0);
	ck_assert_str_eq(lp.cmd, "stress-ng --cpu 1");
	ck_assert_int_eq(load_stop(&lp, NULL, 0), 0);
}
END_TEST

START_TEST(unsupported_tool_not_started)
{
	struct load_proc lp;
	struct req_load l = { .tool = "sh", .args = "-c reboot" };
	char err[500] = "";
	ck_assert_int_eq(load_start(&l, &lp, err, sizeof err), -EINVAL);
	ck_assert_msg(strstr(err, "not supported"), "%s", err);
	ck_assert_int_eq(lp.pid, 0);
}
END_TEST

START_TEST(bad_option_fails_the_check)
{
	become_subreaper();
	struct load_proc lp;
	char err[500] = "";
	start_ok(&lp, "--no-such-option-rtconform-test");
	pid_t pgid = lp.pid;
	ck_assert_int_eq(load_check(&lp, LOAD_SETTLE_MS, err, sizeof err), -ECHILD);
	ck_assert_msg(strstr(err, "ended within 300 ms"), "%s", err);
	/* Its own words come along, so the user sees what it disliked. */
	ck_assert_msg(strstr(err, "no-such-option-rtconform-test"), "%s", err);
	load_stop(&lp, NULL, 0);
	assert_all_gone(pgid);
}
END_TEST

START_TEST(ending_early_is_reported)
{
	become_subreaper();
	struct load_proc lp;
	char err[500] = "";
	start_ok(&lp, "--cpu 1 --timeout 1s");
	pid_t pgid = lp.pid;
	ck_assert_msg(load_check(&lp, LOAD_SETTLE_MS, err, sizeof err) == 0, "%s", err);
	double end = mono_s() + 10;
	while (load_running(&lp) && mono_s() < end)
		sleep_s(0.1);
	ck_assert(!load_running(&lp));
	ck_assert_int_eq(load_stop(&lp, err, sizeof err), -ECHILD);
	ck_assert_msg(strstr(err, "ended before the measurement did"), "%s", err);
	assert_all_gone(pgid);
}
END_TEST

START_TEST(sigkill_after_grace)
{
	become_subreaper();
	struct load_proc lp;
	char err[500] = "";
	start_ok(&lp, "--cpu 1");
	pid_t pgid = lp.pid;
	ck_assert_msg(load_check(&lp, LOAD_SETTLE_MS, err, sizeof err) == 0, "%s", err);
	double end = mono_s() + 5;
	while (group_size(pgid) < 2 && mono_s() < end)
		sleep_s(0.05);
	/* A stopped group cannot act on SIGTERM: only the SIGKILL that
	 * follows the grace period ends it. */
	ck_assert_int_eq(kill(-pgid, SIGSTOP), 0);
	double t0 = mono_s();
	ck_assert_msg(load_stop(&lp, err, sizeof err) == 0, "%s", err);
	double took = mono_s() - t0;
	ck_assert_msg(took >= LOAD_TERM_GRACE_MS / 1000.0 - 0.05 && took < 10,
		      "stop took %.2f s", took);
	assert_all_gone(pgid);
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tu_tcase(s, "spec", 10);
	tcase_add_loop_test(tc, spec_rejected, 0, (int)(sizeof bad_specs / sizeof bad_specs[0]));
	tcase_add_test(tc, spec_limits);
	tcase_add_test(tc, spec_accepted);

	tc = tu_tcase(s, "run", 60);
	tcase_add_test(tc, runs_then_gone);
	tcase_add_test(tc, missing_tool_says_so);
	tcase_add_test(tc, unsupported_tool_not_started);
	tcase_add_test(tc, bad_option_fails_the_check);
	tcase_add_test(tc, ending_early_is_reported);
	tcase_add_test(tc, sigkill_after_grace);
	return s;
}

int main(void)
{
	return tu_run(load_suite());
}
