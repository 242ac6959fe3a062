/* SPDX-License-Identifier: Apache-2.0 */
/* load.c - background load beside a measurement; see load.h. */
#include "harness/load.h"
#include "base/quote.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void load_init(struct load_proc *lp)
{
	memset(lp, 0, sizeof *lp);
	lp->out_fd = -1;
}

/* The tool's absolute path from PATH into path, as a shell would find it
 * (empty PATH entries, which mean the current directory, are skipped: a
 * load run as root should not come from wherever rtconform was started).
 * Returns 0 or -ENOENT. */
static int find_in_path(const char *tool, char *path, size_t len)
{
	const char *env = getenv("PATH");
	if (!env)
		env = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = env; *p;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n && p[0] == '/' && (size_t)snprintf(path, len, "%.*s/%s", (int)n, p, tool) < len) {
			struct stat st;
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
				return 0;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return -ENOENT;
}

/* The last bytes the load wrote, on one line, into buf. */
static void output_tail(const struct load_proc *lp, char *buf, size_t len)
{
	buf[0] = 0;
	if (lp->out_fd < 0 || len < 2)
		return;
	struct stat st;
	if (fstat(lp->out_fd, &st) != 0 || st.st_size <= 0)
		return;
	size_t want = len - 1;
	off_t off = st.st_size > (off_t)want ? st.st_size - (off_t)want : 0;
	ssize_t n = pread(lp->out_fd, buf, want, off);
	if (n <= 0) {
		buf[0] = 0;
		return;
	}
	buf[n] = 0;
	/* Lines become " | ", other control bytes '?': the text ends up in a
	 * one-line reason. */
	for (ssize_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)buf[i];
		if (ch == '\n' || ch == '\r' || ch == '\t')
			buf[i] = ' ';
		else if (ch < 0x20 || ch == 0x7f)
			buf[i] = '?';
	}
	/* Trim trailing blanks. */
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = 0;
}

static void describe_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status 0x%x", status);
}

static void __attribute__((noreturn)) child_exec(const char *path, char *const *argv,
						 int out_fd, int err_pipe, pid_t parent)
{
	/* Own group: one kill() reaches all of it, and the terminal's ^C
	 * reaches rtconform only. */
	setpgid(0, 0);
	/* If rtconform dies without stopping it, stress-ng gets SIGTERM and
	 * stops its stressors itself. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0 && devnull != STDIN_FILENO) {
		dup2(devnull, STDIN_FILENO);
		close(devnull);
	}
	dup2(out_fd, STDOUT_FILENO);
	dup2(out_fd, STDERR_FILENO);
	execv(path, argv);
	int e = errno;
	ssize_t w = write(err_pipe, &e, sizeof e);
	(void)w;
	_exit(127);
}

int load_start(const struct req_load *l, struct load_proc *lp, char *err, size_t len)
{
	char path[4096], why[300];
	char *argv[LOAD_MAX_ARGS + 2];
	int ret = 0, pipefd[2] = { -1, -1 };
	char *words = NULL;

	load_init(lp);
	if (load_spec_problem(l, why, sizeof why)) {
		snprintf(err, len, "%s", why);
		return -EINVAL;
	}
	words = strdup(l->args ? l->args : "");
	if (!words) {
		snprintf(err, len, "starting the load: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	int argc = 1;
	for (char *save = NULL, *w = strtok_r(words, " \t\r\n", &save);
	     w && argc <= LOAD_MAX_ARGS; w = strtok_r(NULL, " \t\r\n", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	bool found = find_in_path(LOAD_TOOL, path, sizeof path) == 0;
	/* The command as run, or as it would have been run. */
	argv[0] = found ? path : (char *)LOAD_TOOL;
	for (int i = 0; i < argc; i++)
		quote_shell_append(lp->cmd, sizeof lp->cmd, argv[i]);
	if (!found) {
		const char *env = getenv("PATH");
		snprintf(err, len, "the load needs %s, which is not installed (not found in "
			 "PATH=%.200s): install it (apt-get install stress-ng)", LOAD_TOOL,
			 env ? env : "(unset)");
		free(words);
		return -ENOENT;
	}

	lp->out_fd = memfd_create("rtconform-load", MFD_CLOEXEC);
	if (lp->out_fd < 0) {
		ret = -errno;
		snprintf(err, len, "starting the load: memfd_create: %s", strerror(-ret));
		goto cleanup;
	}
	/* Tells the parent whether exec worked: closed by a successful exec,
	 * written with errno by a failed one. */
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		ret = -errno;
		snprintf(err, len, "starting the load: pipe: %s", strerror(-ret));
		goto cleanup;
	}
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		ret = -errno;
		snprintf(err, len, "starting the load: fork: %s", strerror(-ret));
		goto cleanup;
	}
	if (pid == 0)
		child_exec(path, argv, lp->out_fd, pipefd[1], parent);
	setpgid(pid, pid); /* also in the child: whichever runs first wins */
	lp->pid = pid;
	close(pipefd[1]);
	pipefd[1] = -1;
	int e = 0;
	ssize_t n;
	while ((n = read(pipefd[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof e) {
		ret = -e;
		snprintf(err, len, "starting the load: cannot run %s: %s", path, strerror(e));
		while (waitpid(pid, &lp->status, 0) < 0 && errno == EINTR)
			;
		lp->reaped = true;
		lp->pid = 0;
	}

cleanup:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (ret && lp->out_fd >= 0) {
		close(lp->out_fd);
		lp->out_fd = -1;
	}
	free(words);
	return ret;
}

bool load_running(struct load_proc *lp)
{
	if (!lp->pid || lp->reaped)
		return false;
	pid_t w;
	while ((w = waitpid(lp->pid, &lp->status, WNOHANG)) < 0 && errno == EINTR)
		;
	if (w == lp->pid || (w < 0 && errno == ECHILD)) {
		lp->reaped = true;
		return false;
	}
	return true;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L };
	/* An interrupt cuts a settle short; the caller's loop acts on it. */
	nanosleep(&ts, NULL);
}

int load_check(struct load_proc *lp, unsigned settle_ms, char *err, size_t len)
{
	if (!lp->pid) {
		snprintf(err, len, "the load was not started");
		return -ECHILD;
	}
	sleep_ms(settle_ms);
	if (load_running(lp))
		return 0;
	char st[80], tail[240];
	describe_status(lp->status, st, sizeof st);
	output_tail(lp, tail, sizeof tail);
	snprintf(err, len, "the load ended within %u ms of its start (%s)%s%s", settle_ms, st,
		 tail[0] ? "; its output: " : "", tail);
	return -ECHILD;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reap what we can of the group; true once no process of it is left. A
 * zombie still counts for kill(), so only reaping makes a group vanish. */
static bool group_gone(struct load_proc *lp, pid_t pgid)
{
	int status;
	pid_t w;
	while ((w = waitpid(-pgid, &status, WNOHANG)) > 0)
		if (w == lp->pid) {
			lp->status = status;
			lp->reaped = true;
		}
	return kill(-pgid, 0) != 0 && errno == ESRCH;
}

static bool wait_gone(struct load_proc *lp, pid_t pgid, double seconds)
{
	double end = mono_s() + seconds;
	for (;;) {
		if (group_gone(lp, pgid))
			return true;
		if (mono_s() >= end)
			return false;
		sleep_ms(10);
	}
}

int load_stop(struct load_proc *lp, char *err, size_t len)
{
	int ret = 0;
	if (err && len)
		err[0] = 0;
	if (lp->pid) {
		pid_t pgid = lp->pid;
		bool ended_early = !load_running(lp);
		int early_status = lp->status;
		kill(-pgid, SIGTERM);
		if (!wait_gone(lp, pgid, LOAD_TERM_GRACE_MS / 1000.0)) {
			kill(-pgid, SIGKILL);
			/* SIGKILL cannot be refused, but a process in
			 * uninterruptible sleep dies only when it wakes. */
			if (!wait_gone(lp, pgid, 10.0)) {
				ret = -EBUSY;
				if (err)
					snprintf(err, len, "the load (process group %d) was still "
						 "there 12 s after SIGTERM and SIGKILL", (int)pgid);
			}
		}
		/* A group that would not die matters more than an early end. */
		if (ended_early && ret != -EBUSY) {
			char st[80], tail[240];
			describe_status(early_status, st, sizeof st);
			output_tail(lp, tail, sizeof tail);
			ret = -ECHILD;
			if (err)
				snprintf(err, len, "the load ended before the measurement did (%s), "
					 "so the measurement was not under load throughout%s%s", st,
					 tail[0] ? "; its output: " : "", tail);
		}
	}
	if (lp->out_fd >= 0)
		close(lp->out_fd);
	lp->out_fd = -1;
	lp->pid = 0;
	return ret;
}
