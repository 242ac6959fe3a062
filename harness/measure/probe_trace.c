/* SPDX-License-Identifier: Apache-2.0 */
/* probe_trace.c - trace on breach, the worker's side (harness/trace.c and
 * trace_keep.c have the rest): each metric's trip in its units, and the
 * marker written and the instance stopped at each new worst sample above
 * it, within the budget; see probe.h (probe_trace_trip). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <stdbool.h>
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

/* Whether block i (a metric, or a per-CPU series of metric 0) records
 * samples of metric `owner`. */
static bool of_metric(const struct result_shm *res, unsigned i, uint32_t owner)
{
	return (i < res->nmetrics ? i : 0) == owner;
}

/* Once a metric owns the trace, only its samples above the one traced
 * (trace.value) come to probe_trace_trip; every other metric is disarmed. */
static void trips_after(struct result_shm *res, uint32_t owner, uint64_t v)
{
	for (unsigned i = 0; i < res->nmetrics + res->nseries_alloc; i++)
		__atomic_store_n(&result_metric(res, i)->trip,
				 of_metric(res, i, owner) ? v : UINT64_MAX, __ATOMIC_RELAXED);
}

void probe_trace_scale(struct result_shm *res)
{
	if (__atomic_load_n(&res->trace.tripped, __ATOMIC_ACQUIRE) != 0) {
		trips_after(res, res->trace.owner, res->trace.value);
		return;
	}
	for (unsigned i = 0; i < res->nmetrics + res->nseries_alloc; i++) {
		struct metric_data *m = result_metric(res, i);
		double ns = trip_ns_of(res, i);
		double units = m->ns_per_unit > 0 ? ns / m->ns_per_unit : 0;
		if (!(ns > 0) || !(units < 1.8e19))
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

/* A sample above the one traced that no trace was taken of. */
static void count_later(struct result_shm *r, uint64_t v)
{
	__atomic_fetch_add(&r->trace.later, 1, __ATOMIC_RELAXED);
	uint64_t was = __atomic_load_n(&r->trace.later_max, __ATOMIC_RELAXED);
	while (v > was && !__atomic_compare_exchange_n(&r->trace.later_max, &was, v, true,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* "rtconform breach: requirement ID metric NAME value V ns > T ns run R" */
static void write_marker(struct result_shm *r, const struct metric_data *m, unsigned idx,
			 uint64_t v, double trip_ns)
{
	const char *name = "?";
	if (trace_probe && idx < probe_decl_nmetrics(&trace_probe->decl))
		name = probe_decl_metric(&trace_probe->decl, idx)->name;
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

void probe_trace_trip(struct metric_data *m, uint32_t run, uint64_t v)
{
	struct result_shm *r = trace_res;
	if (!r || r->trace.marker_fd < 0)
		return;
	unsigned blk = (unsigned)(((char *)m - ((char *)r + sizeof *r)) / r->metric_stride);
	uint32_t idx = blk < r->nmetrics ? blk : 0; /* a per-CPU series: metric 0 */
	/* The first metric to trip owns the trace; another's samples no more
	 * come here. */
	uint32_t owner = UINT32_MAX;
	if (!__atomic_compare_exchange_n(&r->trace.owner, &owner, idx, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE) && owner != idx) {
		__atomic_store_n(&m->trip, UINT64_MAX, __ATOMIC_RELAXED);
		return;
	}
	uint32_t idle = 0;
	if (v <= __atomic_load_n(&r->trace.later_max, __ATOMIC_RELAXED) ||
	    r->trace.saves >= PROBE_TRACE_MAX_SAVES ||
	    !__atomic_compare_exchange_n(&r->trace.saving, &idle, 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED)) {
		count_later(r, v);
		return;
	}
	/* This thread stops the trace at v: the largest sample so far. */
	r->trace.metric = idx;
	/* The run measured: in a run by time, its own number, not the
	 * recorded run (`run`) it is merged into (docs/measurement.md). */
	uint32_t measured = __atomic_load_n(&r->trace.measured_run, __ATOMIC_RELAXED);
	r->trace.run = measured ? measured - 1u : run;
	r->trace.value = v;
	r->trace.index = m->runs[run].count + 1;
	r->trace.cpu = blk < r->nmetrics ? -1 : r->series_cpu[blk - r->nmetrics];
	r->trace.saves++;
	__atomic_store_n(&r->trace.later, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&r->trace.later_max, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&r->trace.tripped, 1, __ATOMIC_RELEASE);
	trips_after(r, idx, v);
	write_marker(r, m, idx, v, trip_ns_of(r, blk));
	/* stopped at the marker: the supervisor may save it now */
	__atomic_store_n(&r->trace.saving, 2, __ATOMIC_RELEASE);
	uint64_t one = 1;
	if (r->trace.kick_fd >= 0 && write(r->trace.kick_fd, &one, sizeof one) < 0 &&
	    !r->trace.write_err)
		r->trace.write_err = errno;
}
