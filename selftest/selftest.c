/* SPDX-License-Identifier: Apache-2.0 */
/* selftest.c - every known-answer case of selftest_cases.c run with this
 * rtconform, the table printed and the validation record written
 * (selftest.h, docs/qualification.md); cli/selftest.c is the command. */
#include "selftest/selftest.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/termsafe.h"
#include "evidence/manifest.h"
#include "host/facts.h"

/* SIGINT, SIGTERM, SIGHUP: the case running ends as its child does (the
 * child, in our process group, got the signal too and writes its reports);
 * the cases after it are not run, and the record is still written. */
static volatile sig_atomic_t st_stop;

static void on_stop(int sig)
{
	st_stop = sig;
}

/* A reader of the table that went away (`selftest | head`): the write
 * fails with EPIPE, and the cases and the record go on. */
static void on_pipe(int sig)
{
	(void)sig;
}

static void catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A handler, not SIG_IGN: exec resets it, so the children keep the
	 * default. */
	sa.sa_handler = on_pipe;
	sigaction(SIGPIPE, &sa, NULL);
}

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
	if (st_stop) {
		st_error(o, "not run: selftest was interrupted (signal %d) before this case",
			 (int)st_stop);
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
	if (st_stop && o->verdict != ST_PASS) {
		/* its child was stopped too: not a known answer missed */
		st_error(o, "interrupted (signal %d) while it ran: its evidence is cut short",
			 (int)st_stop);
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
	catch_stop();
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
