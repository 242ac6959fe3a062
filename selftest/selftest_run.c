/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_run.c - what the cases of `rtconform selftest` share: the
 * comparison of a known answer with what was observed (the one place a
 * case's verdict is decided), a case's directory, and running this same
 * rtconform as a child with the case's environment; and every case run
 * in turn, the table printed and the record written (st_selftest; see
 * selftest.h, docs/qualification.md; cli/selftest.c is the command). */
#include "selftest/selftest.h"
#include "reports/read/read.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/stopsig.h"
#include "base/termsafe.h"
#include "evidence/manifest.h"
#include "host/facts.h"

extern char **environ;

const char *st_verdict_name(enum st_verdict v)
{
	static const char *const names[] = { "pass", "fail", "not-run", "error" };
	return (unsigned)v < 4 ? names[v] : "?";
}

const char *st_priv_name(enum st_priv p)
{
	static const char *const names[] = { "none", "real-time", "root" };
	return (unsigned)p < 3 ? names[p] : "?";
}

void st_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	if (used && used + 2 < len) {
		memcpy(buf + used, "; ", 3);
		used += 2;
	}
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* One known answer checked: both sides written down, a mismatch fails the
 * case (an error stays an error). */
static bool judge(struct st_outcome *o, bool match)
{
	if (!match && o->verdict == ST_PASS)
		o->verdict = ST_FAIL;
	return match;
}

bool st_expect_u64(struct st_outcome *o, const char *what, uint64_t expected,
		   uint64_t observed)
{
	st_append(o->expected, sizeof o->expected, "%s %llu", what, (unsigned long long)expected);
	st_append(o->observed, sizeof o->observed, "%s %llu", what, (unsigned long long)observed);
	return judge(o, expected == observed);
}

bool st_expect_min(struct st_outcome *o, const char *what, double bound, double observed,
		   const char *unit)
{
	st_append(o->expected, sizeof o->expected, "%s >= %.6g%s", what, bound, unit);
	st_append(o->observed, sizeof o->observed, "%s %.6g%s", what, observed, unit);
	return judge(o, observed >= bound);
}

bool st_expect_str(struct st_outcome *o, const char *what, const char *expected,
		   const char *observed)
{
	st_append(o->expected, sizeof o->expected, "%s %s", what, expected);
	st_append(o->observed, sizeof o->observed, "%s %s", what, observed ? observed : "(none)");
	return judge(o, observed && !strcmp(expected, observed));
}

/* The line of hay that holds at (its first line when at is NULL), at most
 * 240 bytes of it, quoted into out: what the record shows as observed. */
static void quote_line(char *out, size_t len, const char *hay, const char *at)
{
	const char *b = at ? at : hay, *e = b;
	while (b > hay && b[-1] != '\n')
		b--;
	while (*e && *e != '\n')
		e++;
	int n = e - b > 240 ? 240 : (int)(e - b);
	snprintf(out, len, "\"%.*s%s\"", n, b, e - b > 240 ? "..." : "");
}

bool st_expect_has(struct st_outcome *o, const char *what, const char *needle,
		   const char *hay)
{
	st_append(o->expected, sizeof o->expected, "%s says \"%s\"", what, needle);
	const char *at = hay ? strstr(hay, needle) : NULL;
	char line[260];
	if (!hay)
		st_append(o->observed, sizeof o->observed, "%s (none)", what);
	else {
		/* a line already quoted (two checks of one message) is not
		 * quoted again: each message shows once */
		quote_line(line, sizeof line, hay, at);
		bool again = strstr(o->observed, line) != NULL;
		st_append(o->observed, sizeof o->observed, "%s %s %s", what,
			  at ? "says it:" : "does not say it:", again ? "(the line quoted above)" : line);
	}
	return judge(o, at != NULL);
}

void st_error(struct st_outcome *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof o->why, fmt, ap);
	va_end(ap);
	o->verdict = ST_ERROR;
}

int st_case_dir(const struct st_env *e, const struct st_case *c, struct st_outcome *o,
		char *path, size_t len)
{
	snprintf(o->evidence, sizeof o->evidence, "cases/%s", c->id);
	snprintf(path, len, "%s/cases", e->dir);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		goto fail;
	snprintf(path, len, "%s/%s", e->dir, o->evidence);
	if (mkdir(path, 0755) == 0 || (errno == EEXIST && o->attempt > 1))
		return 0;
fail:
	st_error(o, "cannot make %s: %s", path, strerror(errno));
	return -1;
}

int st_write_text(struct st_outcome *o, const char *path, const char *text)
{
	/* fclose() once, whatever it says: a close that fails (a full disk
	 * found at the flush) has freed the stream all the same, and a
	 * second fclose() of it was a double free (issue 38). */
	FILE *f = fopen(path, "w");
	int e = f ? 0 : errno;
	if (f && fputs(text, f) < 0)
		e = errno;
	if (f && fclose(f) != 0 && !e)
		e = errno;
	if (!e)
		return 0;
	st_error(o, "cannot write %s: %s", path, strerror(e));
	return -1;
}

/* The variables a case's child must not inherit from selftest's caller:
 * the faults are the case's alone. */
static bool inherited_fault(const char *kv)
{
	static const char *const drop[] = { "LD_PRELOAD=", "RTC_FAKE_", SELFTEST_FAULTS_ENV "=" };
	for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
		if (!strncmp(kv, drop[i], strlen(drop[i])))
			return true;
	return false;
}

/* The child's environment: ours without any fault variable, then envs[]
 * (NULL-terminated "K=V"). malloc'd array of borrowed strings. */
static char **child_env(char *const envs[])
{
	size_t n = 0, k = 0;
	while (environ[n])
		n++;
	while (envs && envs[k])
		k++;
	char **out = calloc(n + k + 1, sizeof *out);
	if (!out)
		return NULL;
	size_t j = 0;
	for (size_t i = 0; i < n; i++)
		if (!inherited_fault(environ[i]))
			out[j++] = environ[i];
	for (size_t i = 0; i < k; i++)
		out[j++] = envs[i];
	return out;
}

int st_spawn(struct st_outcome *o, char *const argv[], char *const envs[], const char *log)
{
	char **env = child_env(envs);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!env || fd < 0) {
		st_error(o, "cannot start %s: %s", argv[0], env ? strerror(errno) : "out of memory");
		free(env);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execve(argv[0], argv, env);
		dprintf(2, "selftest: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	free(env);
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		st_error(o, "cannot run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	if (!WIFEXITED(st)) {
		st_error(o, "%s ended by signal %d (its output: %s)", argv[0], WTERMSIG(st), log);
		return -1;
	}
	return WEXITSTATUS(st);
}

int st_run_xml(const struct st_env *e, const struct st_case *c, struct st_outcome *o,
	       const char *xml, char *const envs[], struct report_view *v)
{
	char dir[PATH_MAX], req[PATH_MAX + 32], run[PATH_MAX + 32], log[PATH_MAX + 32];
	char json[PATH_MAX + 64], err[600];
	memset(v, 0, sizeof *v);
	if (st_case_dir(e, c, o, dir, sizeof dir) != 0)
		return -1;
	snprintf(req, sizeof req, "%s/requirements.xml", dir);
	if (o->attempt > 1) {
		snprintf(run, sizeof run, "%s/run-%u", dir, o->attempt);
		snprintf(log, sizeof log, "%s/output-%u.txt", dir, o->attempt);
	} else {
		snprintf(run, sizeof run, "%s/run", dir);
		snprintf(log, sizeof log, "%s/output.txt", dir);
	}
	if (xml[0] == '@') /* a shipped profile by name */
		snprintf(req, sizeof req, "%s", xml + 1);
	else if (st_write_text(o, req, xml) != 0)
		return -1;
	char *argv[] = { (char *)e->self, "run", "-o", run, req, NULL };
	int rc = st_spawn(o, argv, envs, log);
	if (rc < 0)
		return -1;
	snprintf(json, sizeof json, "%s/results.json", run);
	if (report_view_from_json(json, v, err, sizeof err) != 0) {
		st_error(o, "run exited %d without a readable results.json (%s); see %s",
			 rc, err, log);
		return -1;
	}
	return rc;
}

void st_run_attempts(const struct st_env *e, const struct st_case *c, struct st_outcome *o,
		     const char *xml, char *const envs[], st_judge judge, const void *arg,
		     const char *machine)
{
	char earlier[600] = "";
	for (o->attempt = 1; o->attempt <= ST_ATTEMPTS; o->attempt++) {
		struct report_view v;
		o->verdict = ST_PASS;
		o->expected[0] = o->observed[0] = 0;
		int rc = st_run_xml(e, c, o, xml, envs, &v);
		if (rc < 0)
			return;
		enum st_try got = judge(o, arg, &v, rc);
		report_view_free(&v);
		if (got != ST_TRY_MACHINE || o->attempt == ST_ATTEMPTS)
			break;
		char run[16] = "run/";
		if (o->attempt > 1)
			snprintf(run, sizeof run, "run-%u/", o->attempt);
		st_append(earlier, sizeof earlier, "attempt %u (%s): %s; run again", o->attempt, run,
			  machine);
	}
	if (earlier[0])
		st_append(o->observed, sizeof o->observed, "%s", earlier);
}

const struct rv_req *st_find_req(const struct report_view *v, const char *id)
{
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++)
			if (!strcmp(v->files[f].reqs[i].id, id))
				return &v->files[f].reqs[i];
	return NULL;
}

const struct rv_metric *st_find_metric(const struct rv_req *r, const char *name)
{
	for (size_t i = 0; r && i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

char *st_helper(const struct st_env *e, const char *name)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/%s", e->self_dir ? e->self_dir : ".", name);
	return access(path, R_OK) == 0 ? strdup(path) : NULL;
}

/* ---- every case (st_selftest) ---- */

/* SIGINT, SIGTERM, SIGHUP (stop_catch): the case running ends as its child
 * does (the child, in our process group, got the signal too and writes its
 * reports); the cases after it are not run, and the record is still written.
 * A reader of the table that went away (`selftest | head`): the write fails
 * with EPIPE, and the cases and the record go on. */

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
	snprintf(path, sizeof path, "%s/rtconform-worker", e->self_dir);
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
	if (stop_signal()) {
		st_error(o, "not run: selftest was interrupted (signal %d) before this case",
			 stop_signal());
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
	if (stop_signal() && o->verdict != ST_PASS) {
		/* its child was stopped too: not a known answer missed */
		st_error(o, "interrupted (signal %d) while it ran: its evidence is cut short",
			 stop_signal());
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

int st_selftest(struct st_env *e)
{
	worker_rt(e);
	struct st_outcome *out = calloc(st_ncases, sizeof *out);
	if (!out)
		return EXIT_NOT_MEASURED;
	struct st_record rec = { .dir = e->dir, .out = out, .started = time(NULL) };
	stop_catch(true);
	termsafe_println(stdout, "%-24s %-8s %s", "CASE", "VERDICT", "FUNCTION VALIDATED");
	for (size_t i = 0; i < st_ncases; i++) {
		run_case(e, &st_cases[i], &out[i]);
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
			 written ? "record in " : "NO RECORD: it could not be written into ", e->dir,
			 written ? "" : " (see the errors above)");
	if (!written)
		termsafe_println(stderr, "rtconform selftest: the validation record in %s is "
				 "incomplete: no %s vouches for it; exit status 3", e->dir,
				 MANIFEST_NAME);
	free(out);
	return rec.status;
}
