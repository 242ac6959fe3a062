/* SPDX-License-Identifier: Apache-2.0 */
/* worker.c - see worker.h. */
#include "harness/measure/worker.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "harness/measure/probes/probes.h"
#include "harness/measure/rtenv.h"

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

void worker_spec_store(struct result_shm *res, const struct probe_ctx *c)
{
	memset(&res->spec, 0, sizeof res->spec);
	copy_str(res->spec.probe, sizeof res->spec.probe, c->probe->decl.name);
	for (size_t i = 0; i < c->probe->decl.nparams && i < PROBE_MAX_PARAMS; i++)
		copy_str(res->spec.values[i], sizeof res->spec.values[i], c->values[i]);
	res->spec.iterations = c->iterations;
	res->spec.runs = c->runs;
	res->spec.warmup = c->warmup;
	res->spec.timeout_ns = c->timeout_ns;
	res->spec.duration_ns = c->duration_ns;
	res->spec.policy = c->policy;
	res->spec.priority = c->priority;
	res->spec.cpu = c->cpu;
	res->spec.ncpus = c->ncpus;
	memcpy(res->spec.allowed, c->allowed, sizeof res->spec.allowed);
	copy_str(res->spec.self_dir, sizeof res->spec.self_dir, c->self_dir);
	res->spec.supervisor = (int32_t)getpid();
	res->spec.tb = *c->tb; /* reason and all: a probe may quote why no TSC */
	copy_str(res->spec.tb_name, sizeof res->spec.tb_name, c->tb->name);
	res->spec.tb.name = NULL; /* a pointer means nothing across exec */
}

static volatile int worker_stop;

static void worker_on_term(int sig)
{
	(void)sig;
	worker_stop = 1;
}

int worker_ctx_load(struct probe_ctx *c, struct result_shm *res)
{
	memset(c, 0, sizeof *c);
	res->spec.probe[sizeof res->spec.probe - 1] = 0;
	c->probe = probe_find(res->spec.probe);
	if (!c->probe) {
		snprintf(res->reason, sizeof res->reason,
			 "rtconform-worker has no probe '%s' (built from other sources?)",
			 res->spec.probe);
		return -EINVAL;
	}
	for (size_t i = 0; i < c->probe->decl.nparams && i < PROBE_MAX_PARAMS; i++) {
		res->spec.values[i][sizeof res->spec.values[i] - 1] = 0;
		c->values[i] = res->spec.values[i];
	}
	c->iterations = res->spec.iterations;
	c->runs = res->spec.runs;
	c->warmup = res->spec.warmup;
	c->timeout_ns = res->spec.timeout_ns;
	c->duration_ns = res->spec.duration_ns;
	if (c->duration_ns) /* until the deadline lowers it: see probe.h */
		c->runs = UINT32_MAX;
	c->policy = res->spec.policy;
	c->priority = res->spec.priority;
	c->cpu = res->spec.cpu;
	c->ncpus = res->spec.ncpus;
	memcpy(c->allowed, res->spec.allowed, sizeof c->allowed);
	res->spec.self_dir[sizeof res->spec.self_dir - 1] = 0;
	c->self_dir = res->spec.self_dir[0] ? res->spec.self_dir : NULL;

	/* The supervisor's calibration, not a new one: every worker of a run
	 * and every report use the same frequency. */
	static struct timebase tb;
	tb = res->spec.tb;
	res->spec.tb_name[sizeof res->spec.tb_name - 1] = 0;
	tb.name = res->spec.tb_name;
	tb.reason[sizeof tb.reason - 1] = 0;
	timebase_adopt(&tb);
	c->tb = timebase_get();
	c->res = res;
	for (unsigned i = 0; i < c->probe->decl.nmetrics && i < PROBE_MAX_METRICS; i++)
		c->m[i] = result_metric(res, i);
	return 0;
}

/* Cost of one iteration of an empty counted loop, in ticks: the original programs'
 * "loop overhead", subtracted from batch figures. */
static double empty_loop_ticks(uint64_t n)
{
	if (n < 1000)
		n = 1000;
	uint64_t t0 = tb_now();
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
	uint64_t t1 = tb_now();
	return (double)(t1 - t0) / (double)n;
}

/* The worker's own premise: the policy, priority and CPUs it asked for
 * (pinned: its CPU; else every CPU the supervisor may use), from the
 * kernel. 0 or -errno after probe_fail. */
static int worker_verify(struct probe_ctx *c)
{
	cpu_set_t want;
	CPU_ZERO(&want);
	if (c->cpu >= 0)
		CPU_SET(c->cpu, &want);
	for (int i = 0; c->cpu < 0 && i < c->ncpus; i++)
		CPU_SET(c->allowed[i], &want);
	/* Past PROBE_MAX_CPUS the supervisor's list is cut short: the CPUs
	 * are then left out of the comparison, not judged on a partial list. */
	bool whole = c->cpu >= 0 || c->ncpus < PROBE_MAX_CPUS;
	return probe_verify_self(c, "the worker", c->policy, c->priority, whole ? &want : NULL);
}

void worker_main(struct probe_ctx *c)
{
	char err[480];
	int rc;
	struct result_shm *res = c->res;

	c->stop = &worker_stop;
	c->worker = getpid();
	setpgid(0, 0);
	/* Die with the supervisor. The death signal is armed again here
	 * because exec clears it for a binary with file capabilities; and a
	 * supervisor that died before it was armed is seen as a new parent, so
	 * the worker never runs, let alone at a real-time priority, without
	 * one. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (res->spec.supervisor > 0 && getppid() != (pid_t)res->spec.supervisor)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, worker_on_term);
	res->state = WS_SETUP;
	probe_trace_attach(res, c->probe);

	if (c->policy != SCHED_OTHER &&
	    (rc = rtenv_limit_rttime(c->timeout_ns - c->duration_ns, err, sizeof err)) != 0)
		goto fail;
	if ((rc = rtenv_lock_memory(256 * 1024, err, sizeof err)) != 0)
		goto fail;
	if ((rc = rtenv_pin(c->cpu, err, sizeof err)) != 0)
		goto fail;
	/* The supervisor checked the timebase in its own process; this one
	 * was exec'd with a C library, preloads and environment of its own,
	 * which may lie to it alone: the same check here, on the CPU it
	 * measures on and before its real-time policy. */
	if (!timebase_recheck(err, sizeof err)) {
		/* Cut short, the reason still starts with both rates. */
		snprintf(res->reason, sizeof res->reason, "%.440s; found in the measuring "
			 "process (rtconform-worker) alone", err);
		res->err = EPROTO;
		res->state = WS_FAILED;
		_exit(1);
	}
	if ((rc = rtenv_set_policy(c->policy, c->priority, err, sizeof err)) != 0)
		goto fail;
	if ((rc = worker_verify(c)) != 0) {
		res->state = WS_FAILED;
		_exit(1);
	}
	res->loop_ticks = empty_loop_ticks(c->iterations);
	for (unsigned i = 0; i < c->probe->decl.nmetrics && i < PROBE_MAX_METRICS; i++)
		if (c->probe->decl.metrics[i].kind == METRIC_DURATION)
			probe_set_scale(c, i, 1.0);

	probe_rt_guard_init(c);
	rc = c->probe->run(c);
	probe_rt_guard_note(c);
	probe_counters_note(c);
	probe_by_time_note(c);
	if (rc == 0 && (c->duration_ns ? c->by_time.reached : res->runs_done == c->runs)) {
		res->state = WS_DONE;
		_exit(0);
	}
	if (rc == 0 && !res->reason[0] && c->duration_ns)
		snprintf(res->reason, sizeof res->reason, "stopped after %u recorded runs, "
			 "before its duration was up", res->runs_done);
	else if (rc == 0 && !res->reason[0])
		snprintf(res->reason, sizeof res->reason, "stopped after %u of %llu runs",
			 res->runs_done, (unsigned long long)c->runs);
	res->state = WS_FAILED;
	_exit(1);
fail:
	snprintf(res->reason, sizeof res->reason, "%s", err);
	res->err = -rc;
	res->state = WS_FAILED;
	_exit(1);
}
