/* probe.c - helpers every probe uses; see probe.h. */
#include "harness/measure/probe.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "harness/measure/rtenv.h"

const char *probe_value(const struct probe_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->probe->decl.nparams && i < PROBE_MAX_PARAMS; i++)
		if (strcmp(c->probe->decl.params[i].name, name) == 0)
			return c->values[i];
	return NULL;
}

void probe_set_scale(struct probe_ctx *c, unsigned metric, double factor)
{
	struct metric_data *m = c->m[metric];
	m->ns_per_unit = c->tb->ns_per_tick * factor;
	m->cycles_per_unit = c->tb->is_tsc ? factor : 0.0;
}

int probe_fail(const struct probe_ctx *c, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* First failure wins: later ones are usually consequences. */
	if (!c->res->reason[0])
		vsnprintf(c->res->reason, sizeof c->res->reason, fmt, ap);
	va_end(ap);
	if (err < 0)
		err = -err;
	if (!c->res->err)
		c->res->err = err ? err : EIO;
	c->res->state = WS_FAILED;
	return -(err ? err : EIO);
}

int probe_peer_setup(const struct probe_ctx *c, int cpu)
{
	char err[400];
	int rc;
	/* The peer must not outlive the worker, and must run under exactly the
	 * same conditions (memory locks are not inherited across fork). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (c->worker > 0 && getppid() != c->worker)
		_exit(1); /* the worker died before the signal was armed */
	if ((rc = rtenv_lock_memory(64 * 1024, err, sizeof err)) != 0)
		return probe_fail(c, rc, "peer: %s", err);
	if ((rc = rtenv_pin(cpu, err, sizeof err)) != 0)
		return probe_fail(c, rc, "peer: %s", err);
	if ((rc = rtenv_set_policy(c->policy, c->priority, err, sizeof err)) != 0)
		return probe_fail(c, rc, "peer: %s", err);
	return 0;
}

int probe_pick_cpus(const struct probe_ctx *c, const char *placement, int *a, int *b)
{
	*a = *b = -1;
	if (!placement || strcmp(placement, "unpinned") == 0)
		return 0;
	int base = c->cpu >= 0 ? c->cpu : (c->ncpus > 0 ? c->allowed[0] : 0);
	if (strcmp(placement, "same-cpu") == 0) {
		*a = *b = base;
		return 0;
	}
	if (strcmp(placement, "cross-cpu") == 0) {
		for (int i = 0; i < c->ncpus; i++) {
			if (c->allowed[i] == base) {
				if (c->ncpus < 2)
					break;
				*a = base;
				*b = c->allowed[(i + 1) % c->ncpus];
				return 0;
			}
		}
		if (c->ncpus >= 2) {
			*a = base;
			*b = c->allowed[0] == base ? c->allowed[1] : c->allowed[0];
			return 0;
		}
		return -ENODEV;
	}
	return -EINVAL;
}

const char *probe_errname(int err)
{
	const char *n = strerrorname_np(err < 0 ? -err : err);
	return n ? n : "unknown errno";
}

void probe_reap_children(void)
{
	for (;;) {
		pid_t w = waitpid(-1, NULL, __WALL);
		if (w < 0 && errno != EINTR)
			return; /* ECHILD: none left */
	}
}

static long read_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

void probe_rt_guard_init(struct probe_ctx *c)
{
	memset(&c->rt, 0, sizeof c->rt);
	if (c->policy == SCHED_OTHER || !c->tb || c->probe->mostly_sleeps)
		return;
	long runtime = read_long("/proc/sys/kernel/sched_rt_runtime_us");
	long period = read_long("/proc/sys/kernel/sched_rt_period_us");
	if (runtime < 0 || period <= runtime) /* -1: throttling off */
		return;
	c->rt.runtime = (uint64_t)((double)runtime * 1e3 / c->tb->ns_per_tick);
	c->rt.budget = c->rt.runtime / 2;
	uint64_t rest_ns = 2u * (uint64_t)(period - runtime) * 1000u;
	c->rt.rest.tv_sec = (time_t)(rest_ns / 1000000000u);
	c->rt.rest.tv_nsec = (long)(rest_ns % 1000000000u);
	c->rt.since = tb_now();
}

void probe_rt_guard_rest(struct probe_ctx *c)
{
	if (tb_now() - c->rt.since + c->rt.longest_run <= c->rt.budget)
		return;
	struct timespec left = c->rt.rest;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left) == EINTR)
		;
	c->rt.rests++;
	c->rt.since = tb_now();
}

void probe_rt_guard_note(struct probe_ctx *c)
{
	char *n = c->res->note;
	size_t len = sizeof c->res->note, used = strlen(n);
	double ms = c->tb ? c->tb->ns_per_tick / 1e6 : 0;
	if (c->rt.rests && used + 2 < len)
		used += (size_t)snprintf(n + used, len - used,
					 "%srested %ld ms %u time%s between runs to stay under the "
					 "kernel's RT throttling.", used ? " " : "",
					 (long)(c->rt.rest.tv_sec * 1000 + c->rt.rest.tv_nsec / 1000000),
					 c->rt.rests, c->rt.rests == 1 ? "" : "s");
	if (c->rt.runtime && c->rt.longest_run > c->rt.runtime && used + 2 < len)
		snprintf(n + used, len - used,
			 "%sa run took %.0f ms, over the RT runtime (%.0f ms): throttling may "
			 "have stopped it; use shorter runs.", used ? " " : "",
			 (double)c->rt.longest_run * ms, (double)c->rt.runtime * ms);
}
