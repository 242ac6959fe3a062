/* SPDX-License-Identifier: Apache-2.0 */
/* probe_counters.c - the harness metrics: page faults and involuntary
 * switches of the worker and of its registered peers, read at each run's
 * boundaries, and every count metric's run total closed as the run's
 * sample; see probe.h (probe_counters_begin). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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
	__atomic_store_n(&m->last, (int64_t)v, __ATOMIC_RELAXED); /* the live view's latest run */
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

