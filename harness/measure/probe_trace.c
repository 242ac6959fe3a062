/* SPDX-License-Identifier: Apache-2.0 */
/* probe_trace.c - trace on breach, the worker's side (harness/trace.c has
 * the rest): each metric's trip in its units, and the one write of the
 * marker when a sample passes it; see probe.h (probe_trace_trip). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

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
	/* The run measured: in a run by time, its own number, not the
	 * recorded run (`run`) it is merged into (docs/measurement.md). */
	uint32_t measured = __atomic_load_n(&r->trace.measured_run, __ATOMIC_RELAXED);
	r->trace.run = measured ? measured - 1u : run;
	r->trace.value = v;
	const char *name = "?";
	if (trace_probe && idx < probe_decl_nmetrics(&trace_probe->decl))
		name = probe_decl_metric(&trace_probe->decl, idx)->name;
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
	put_u64(buf, sizeof buf, &at, (uint64_t)r->trace.run + 1u);
	put_str(buf, sizeof buf, &at, "\n");
	if (write(r->trace.marker_fd, buf, at) < 0)
		r->trace.write_err = errno;
	if (write(r->trace.on_fd, "0", 1) < 0 && !r->trace.write_err)
		r->trace.write_err = errno;
}
