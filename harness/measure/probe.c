/* SPDX-License-Identifier: Apache-2.0 */
/* probe.c - helpers every probe uses; see probe.h. */
#include "harness/measure/probe.h"

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

/* ---- the harness metrics: faults and switches around each run ---------- */

/* Read a small /proc file into buf (NUL-terminated) with plain system
 * calls: no stdio buffer is allocated at a run's boundary. false when it
 * cannot be read (the process is gone). */
static bool read_proc(pid_t pid, const char *what, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, what);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t used = 0;
	for (;;) {
		ssize_t n = read(fd, buf + used, len - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		if (used == len - 1)
			break;
	}
	close(fd);
	buf[used] = '\0';
	return used > 0;
}

static uint64_t parse_u64(const char *s, const char **end)
{
	uint64_t v = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	if (end)
		*end = s;
	return v;
}

/* A peer's counters: minflt and majflt of the whole process from
 * /proc/PID/stat (fields 10 and 12, after the command in parentheses),
 * nonvoluntary_ctxt_switches of its main thread from /proc/PID/status.
 * false when it is gone, or is no longer in the worker's process group
 * (its pid was reused). */
static bool read_peer(pid_t pid, pid_t pgrp, struct fault_counts *out)
{
	char buf[4096];
	if (!read_proc(pid, "stat", buf, sizeof buf))
		return false;
	const char *p = strrchr(buf, ')');
	if (!p)
		return false;
	p++;
	/* Fields from 3 on, one word each (the state a letter, tpgid may be
	 * -1): only 5, 10 and 12 are read. */
	uint64_t field[13] = { 0 };
	for (int i = 3; i <= 12 && *p; i++) {
		while (*p == ' ')
			p++;
		field[i] = parse_u64(p, NULL);
		while (*p && *p != ' ')
			p++;
	}
	if ((pid_t)field[5] != pgrp)
		return false;
	out->minflt = field[10];
	out->majflt = field[12];
	if (!read_proc(pid, "status", buf, sizeof buf))
		return false;
	const char *n = strstr(buf, "\nnonvoluntary_ctxt_switches:");
	if (!n)
		return false;
	out->nivcsw = parse_u64(n + strlen("\nnonvoluntary_ctxt_switches:"), NULL);
	return true;
}

static void read_self(struct fault_counts *out)
{
	struct rusage ru;
	memset(out, 0, sizeof *out);
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		out->minflt = (uint64_t)ru.ru_minflt;
		out->majflt = (uint64_t)ru.ru_majflt;
		out->nivcsw = (uint64_t)ru.ru_nivcsw;
	}
}

static uint32_t peers_registered(const struct result_shm *res)
{
	uint32_t n = __atomic_load_n(&res->peers.n, __ATOMIC_ACQUIRE);
	return n < PROBE_MAX_PEERS ? n : PROBE_MAX_PEERS;
}

/* Peers first, the worker last: the worker's own count then covers as
 * little of the reading as possible. */
void probe_counters_begin(struct probe_ctx *c)
{
	uint32_t n = peers_registered(c->res);
	pid_t pgrp = getpgrp();
	for (uint32_t i = 0; i < PROBE_MAX_PEERS; i++) {
		pid_t pid = i < n ? __atomic_load_n(&c->res->peers.pid[i], __ATOMIC_ACQUIRE) : 0;
		c->at_begin.peer_ok[i] = pid > 0 && read_peer(pid, pgrp, &c->at_begin.peer[i]);
	}
	for (unsigned i = 0; i < c->res->nmetrics && i < RTC_MAX_METRICS; i++)
		c->at_begin.count_sum[i] = result_metric(c->res, i)->runs[c->run].sum;
	/* Last: after the peer was forked the worker's private pages are
	 * copy-on-write, so a first write to one after this reading (this
	 * array, say) would be a page fault counted against the run. */
	read_self(&c->at_begin.self);
}

static void add_delta(struct fault_counts *sum, const struct fault_counts *now,
		      const struct fault_counts *then)
{
	sum->minflt += now->minflt - then->minflt;
	sum->majflt += now->majflt - then->majflt;
	sum->nivcsw += now->nivcsw - then->nivcsw;
}

/* The run's count of a count metric becomes its one sample of the run:
 * what its recorded run's sum grew by since the run began (a recorded run
 * of a run by time may hold several measured runs). */
static void count_close(struct probe_ctx *c, unsigned metric, uint64_t extra)
{
	struct metric_data *m = result_metric(c->res, metric);
	struct run_stat *rs = &m->runs[c->run];
	rs->sum += extra;
	rs->count++;
	uint64_t v = (uint64_t)(rs->sum - c->at_begin.count_sum[metric]);
	if (v > rs->max)
		rs->max = v;
	hist_record(&m->hist, v);
}

/* The worker last in, first out (see probe_counters_begin). */
void probe_counters_end(struct probe_ctx *c)
{
	struct fault_counts now, sum = { 0 };
	read_self(&now);
	add_delta(&sum, &now, &c->at_begin.self);
	pid_t pgrp = getpgrp();
	for (uint32_t i = 0; i < PROBE_MAX_PEERS; i++) {
		if (!c->at_begin.peer_ok[i])
			continue;
		pid_t pid = __atomic_load_n(&c->res->peers.pid[i], __ATOMIC_ACQUIRE);
		if (read_peer(pid, pgrp, &now))
			add_delta(&sum, &now, &c->at_begin.peer[i]);
		else
			c->res->peers.lost++;
	}
	const struct probe_decl *d = &c->probe->decl;
	for (size_t i = 0; i < d->nmetrics && i < PROBE_MAX_METRICS; i++)
		if (d->metrics[i].kind == METRIC_COUNT)
			count_close(c, (unsigned)i, 0);
	/* Result memory made for the probe's own metrics only (a test's)
	 * has no room for the harness's. */
	if (c->res->nmetrics < d->nmetrics + PROBE_HARNESS_METRICS)
		return;
	const uint64_t v[PROBE_HARNESS_METRICS] = {
		[HM_PAGE_FAULTS] = sum.minflt + sum.majflt,
		[HM_MAJOR_FAULTS] = sum.majflt,
		[HM_INVOLUNTARY_SWITCHES] = sum.nivcsw,
	};
	for (unsigned k = 0; k < PROBE_HARNESS_METRICS; k++)
		count_close(c, (unsigned)d->nmetrics + k, v[k]);
}

void probe_counters_note(struct probe_ctx *c)
{
	uint32_t lost = c->res->peers.lost;
	char *n = c->res->note;
	size_t len = sizeof c->res->note, used = strlen(n);
	if (lost && used + 2 < len)
		snprintf(n + used, len - used, "%sa peer process ended during a run %u time%s: "
			 "its page faults and switches in that run are not counted.",
			 used ? " " : "", lost, lost == 1 ? "" : "s");
}

/* ---- runs by time ------------------------------------------------------ */

_Static_assert(RTC_MAX_RUNS % 2 == 0, "recorded runs are merged two by two");

/* Recorded runs 2k and 2k+1 become k, for every metric block (the series
 * too) and the run times; the upper half is cleared. */
static void by_time_fold(struct probe_ctx *c)
{
	struct result_shm *res = c->res;
	unsigned blocks = res->nmetrics + res->nseries_alloc;
	for (unsigned b = 0; b < blocks; b++) {
		struct run_stat *rs = result_metric(res, b)->runs;
		for (uint32_t k = 0; k < RTC_MAX_RUNS / 2; k++) {
			rs[k] = run_stat_merge(rs[2 * k], rs[2 * k + 1]);
		}
		memset(rs + RTC_MAX_RUNS / 2, 0, sizeof *rs * (RTC_MAX_RUNS / 2));
	}
	for (uint32_t k = 0; k < RTC_MAX_RUNS / 2; k++) {
		struct run_info a = res->runs[2 * k], z = res->runs[2 * k + 1];
		res->runs[k] = (struct run_info){
			.t_begin = a.t_begin,
			.t_end = a.t_begin + (a.t_end - a.t_begin) + (z.t_end - z.t_begin),
			.iterations = a.iterations + z.iterations,
		};
	}
	memset(res->runs + RTC_MAX_RUNS / 2, 0, sizeof res->runs[0] * (RTC_MAX_RUNS / 2));
	c->by_time.shift++;
}

uint32_t probe_by_time_slot(struct probe_ctx *c, uint32_t r)
{
	if (r == 0) {
		double ticks = (double)c->duration_ns / c->tb->ns_per_tick;
		c->by_time.deadline = tb_now() + (uint64_t)ticks;
	}
	c->by_time.raw = r;
	while ((r >> c->by_time.shift) >= RTC_MAX_RUNS)
		by_time_fold(c);
	return r >> c->by_time.shift;
}

void probe_by_time_check(struct probe_ctx *c)
{
	if (tb_now() < c->by_time.deadline)
		return;
	c->runs = c->by_time.raw + 1;
	c->by_time.reached = true;
}

void probe_by_time_note(struct probe_ctx *c)
{
	if (!c->duration_ns)
		return;
	char *n = c->res->note;
	size_t len = sizeof c->res->note, used = strlen(n);
	uint64_t measured = c->by_time.reached ? c->runs : c->by_time.raw + 1;
	if (used + 2 < len)
		snprintf(n + used, len - used, "%sran by time: %llu runs measured, recorded as "
			 "%u runs of up to %llu each.", used ? " " : "", (unsigned long long)measured,
			 c->res->runs_done, 1ull << c->by_time.shift);
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

int probe_cpus(const struct probe_ctx *c, const char *param, int *cpus, int max)
{
	const char *list = probe_value(c, param);
	int n = 0;
	if (!list || strcmp(list, "all") == 0) {
		if (c->cpu >= 0) {
			cpus[0] = c->cpu;
			return 1;
		}
		for (int i = 0; i < c->ncpus; i++) {
			if (n == max)
				return probe_fail(c, E2BIG, "%d CPUs allowed, at most %d can be "
					  "measured at once: give a %s list", c->ncpus, max,
					  param);
			cpus[n++] = c->allowed[i];
		}
		if (!n)
			return probe_fail(c, ENODEV, "no CPU is allowed to this process");
		return n;
	}
	cpu_set_t set;
	if (cpulist_parse(list, &set) != 0)
		return probe_fail(c, EINVAL, "%s '%s' is not a CPU list below %d", param, list,
				  CPU_SETSIZE);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		bool allowed = false;
		for (int i = 0; i < c->ncpus && !allowed; i++)
			allowed = c->allowed[i] == cpu;
		if (!allowed)
			return probe_fail(c, EINVAL, "%s '%s': CPU %d is not online or not "
					  "allowed to rtconform (%d CPUs allowed)", param, list, cpu,
					  c->ncpus);
		if (n == max)
			return probe_fail(c, E2BIG, "%s '%s' selects more than %d CPUs", param, list, max);
		cpus[n++] = cpu;
	}
	return n;
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

long probe_futex(uint32_t *w, int op, uint32_t val, const struct timespec *timeout)
{
	return syscall(SYS_futex, w, op | FUTEX_PRIVATE_FLAG, val, timeout, NULL, 0);
}

int probe_wait_while(uint32_t *w, uint32_t val, uint64_t deadline)
{
	while (__atomic_load_n(w, __ATOMIC_ACQUIRE) == val) {
		uint64_t now = tb_clock_ns();
		if (now >= deadline)
			return ETIMEDOUT;
		uint64_t left = deadline - now;
		struct timespec ts = { .tv_sec = (time_t)(left / 1000000000u),
				       .tv_nsec = (long)(left % 1000000000u) };
		probe_futex(w, FUTEX_WAIT, val, &ts);
	}
	return 0;
}

/* ---- trace on breach: the worker's side (harness/trace.c has the rest) -- */

static struct result_shm *trace_res;
static const struct probe *trace_probe;

void probe_trace_attach(struct result_shm *res, const struct probe *p)
{
	trace_res = res;
	trace_probe = p;
}

/* Metric i's trip in ns: a per-CPU series (after the metrics) records
 * samples of metric 0 and trips with it. */
static double trip_ns_of(struct result_shm *res, unsigned i)
{
	return result_metric(res, i < res->nmetrics ? i : 0)->trip_ns;
}

void probe_trace_scale(struct result_shm *res)
{
	bool off = __atomic_load_n(&res->trace.tripped, __ATOMIC_ACQUIRE) != 0;
	for (unsigned i = 0; i < res->nmetrics + res->nseries_alloc; i++) {
		struct metric_data *m = result_metric(res, i);
		double ns = trip_ns_of(res, i);
		double units = m->ns_per_unit > 0 ? ns / m->ns_per_unit : 0;
		if (off || !(ns > 0) || !(units < 1.8e19))
			m->trip = UINT64_MAX;
		else
			m->trip = (uint64_t)units;
	}
}

/* Append s to buf at *at (bounded, no terminator needed: write(2) takes
 * a length). */
static void put_str(char *buf, size_t len, size_t *at, const char *s)
{
	while (*s && *at < len)
		buf[(*at)++] = *s++;
}

static void put_u64(char *buf, size_t len, size_t *at, uint64_t v)
{
	char d[24];
	int n = 0;
	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n && *at < len)
		buf[(*at)++] = d[--n];
}

void probe_trace_trip(struct metric_data *m, uint32_t run, uint64_t v)
{
	struct result_shm *r = trace_res;
	if (!r || r->trace.marker_fd < 0)
		return;
	/* First trip wins; a peer tripping at the same moment only disarms. */
	bool first = __atomic_exchange_n(&r->trace.tripped, 1, __ATOMIC_ACQ_REL) == 0;
	for (unsigned i = 0; i < r->nmetrics + r->nseries_alloc; i++)
		result_metric(r, i)->trip = UINT64_MAX;
	if (!first)
		return;
	unsigned idx = (unsigned)(((char *)m - ((char *)r + sizeof *r)) / r->metric_stride);
	double trip_ns = trip_ns_of(r, idx);
	if (idx >= r->nmetrics)
		idx = 0; /* a per-CPU series: a sample of metric 0 */
	r->trace.metric = idx;
	r->trace.run = run;
	r->trace.value = v;
	const char *name = "?";
	if (trace_probe && idx < decl_nmetrics(&trace_probe->decl))
		name = decl_metric(&trace_probe->decl, idx)->name;
	/* "rtconform breach: requirement ID metric NAME value V ns > T ns run R" */
	char buf[320];
	size_t at = 0;
	put_str(buf, sizeof buf, &at, "rtconform breach: requirement ");
	put_str(buf, sizeof buf, &at, r->trace.id);
	put_str(buf, sizeof buf, &at, " metric ");
	put_str(buf, sizeof buf, &at, name);
	put_str(buf, sizeof buf, &at, " value ");
	put_u64(buf, sizeof buf, &at, (uint64_t)((double)v * m->ns_per_unit + 0.5));
	put_str(buf, sizeof buf, &at, " ns > ");
	put_u64(buf, sizeof buf, &at, (uint64_t)(trip_ns + 0.5));
	put_str(buf, sizeof buf, &at, " ns run ");
	put_u64(buf, sizeof buf, &at, run + 1u);
	put_str(buf, sizeof buf, &at, "\n");
	if (write(r->trace.marker_fd, buf, at) < 0)
		r->trace.write_err = errno;
	if (write(r->trace.on_fd, "0", 1) < 0 && !r->trace.write_err)
		r->trace.write_err = errno;
}
