/* SPDX-License-Identifier: Apache-2.0 */
/* overhead.c - what the instruments themselves cost (the basic overheads of
 * docs/background.md): an
 * empty loop, the clocks a program can read, the harness's own timestamp
 * (tb_now) and its own histogram record call.
 *
 * One sample times a batch of `batch` operations between two timebase
 * reads; it is recorded in ticks and scaled by 1/batch at report time, so
 * per-op keeps every digit and a sample is far above the clock's
 * resolution. Each operation's result is folded into an accumulator that
 * ends in a volatile sink, and the empty loop's body is an asm statement,
 * so the compiler can delete none of the work (objdump -d shows the loops
 * intact; see docs/probes.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"

static const char *const whats[] = {
	"empty-loop", "gettimeofday", "clock_gettime-monotonic", "clock_gettime-monotonic-raw",
	"clock_gettime-realtime", "clock_gettime-monotonic-coarse", "tsc", "histogram-record",
	NULL,
};

static const struct probe_param params[] = {
	{ "what", "operation timed: an empty loop iteration; gettimeofday(); clock_gettime() "
		  "of one clock; tsc: the harness's own timestamp read (tb_now, rdtsc; needs "
		  "the TSC timebase); histogram-record: the harness's own hist_record()",
	  PARAM_ENUM, whats, "clock_gettime-monotonic" },
	{ "batch", "operations per timed sample (at most 10000000)", PARAM_COUNT, NULL, "1000" },
};

static const struct probe_metric metrics[] = {
	{ "per-op", "one operation: a timed batch / batch (loop cost included, see empty-loop)",
	  METRIC_DURATION },
};

#define OV_MAX_BATCH 10000000u
/* Sample values the histogram-record variant records, cycled through: a
 * power of two so the index is a mask. */
#define OV_NVALS 4096u

struct ov_state {
	clockid_t clk;
	struct hist *h;
	const uint64_t *vals;
};

typedef uint64_t (*ov_fn)(const struct ov_state *s, uint64_t n);

/* Each variant is its own non-inlined function so that the timed loop is
 * one plain loop that objdump shows as such, and the choice of variant is
 * made once per batch, outside it. */
#if defined(__clang__) /* clang does not clone functions and has no noclone */
#define OV_FN static uint64_t __attribute__((noinline))
#else
#define OV_FN static uint64_t __attribute__((noinline, noclone))
#endif

OV_FN op_empty(const struct ov_state *s, uint64_t n)
{
	(void)s;
	/* The asm body is opaque: the loop runs n times, as in the original
	 * overhead programs. */
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
	return n;
}

OV_FN op_gettimeofday(const struct ov_state *s, uint64_t n)
{
	(void)s;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct timeval tv;
		gettimeofday(&tv, NULL);
		acc += (uint64_t)tv.tv_usec;
	}
	return acc;
}

OV_FN op_clock(const struct ov_state *s, uint64_t n)
{
	uint64_t acc = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct timespec ts;
		clock_gettime(s->clk, &ts);
		acc += (uint64_t)ts.tv_nsec;
	}
	return acc;
}

OV_FN op_tsc(const struct ov_state *s, uint64_t n)
{
	(void)s;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < n; i++)
		acc += tb_now();
	return acc;
}

OV_FN op_record(const struct ov_state *s, uint64_t n)
{
	uint64_t acc = 0;
	for (uint64_t i = 0; i < n; i++) {
		acc += hist_record(s->h, s->vals[i & (OV_NVALS - 1)]);
		/* In the harness each record stands alone between two clock
		 * reads; without this the compiler keeps the sums in registers
		 * across the batch and the figure flatters the call. */
		__asm__ __volatile__("" ::: "memory");
	}
	return acc;
}

static const char *ov_check(const char *const *values, char *buf, size_t len)
{
	uint64_t batch;
	char e[200];
	if (units_count_parse(values[1], OV_MAX_BATCH, &batch, e, sizeof e) != 0) {
		snprintf(buf, len, "overhead: batch %s: %s", values[1], e);
		return buf;
	}
	return NULL;
}

static int ov_run(struct probe_ctx *c)
{
	const char *what = probe_value(c, "what");
	char e[200];
	uint64_t batch;
	int rc = 0;
	if (units_count_parse(probe_value(c, "batch"), OV_MAX_BATCH, &batch, e, sizeof e) != 0)
		return probe_fail(c, EINVAL, "batch: %s", e);

	struct ov_state st = { .clk = CLOCK_MONOTONIC };
	uint64_t *vals = NULL;
	void *hmem = NULL;
	ov_fn fn;
	if (strcmp(what, "empty-loop") == 0) {
		fn = op_empty;
	} else if (strcmp(what, "gettimeofday") == 0) {
		fn = op_gettimeofday;
	} else if (strncmp(what, "clock_gettime-", 14) == 0) {
		fn = op_clock;
		const char *which = what + 14;
		st.clk = !strcmp(which, "monotonic")        ? CLOCK_MONOTONIC
		       : !strcmp(which, "monotonic-raw")    ? CLOCK_MONOTONIC_RAW
		       : !strcmp(which, "realtime")         ? CLOCK_REALTIME
		       : !strcmp(which, "monotonic-coarse") ? CLOCK_MONOTONIC_COARSE
							    : (clockid_t)-1;
		struct timespec ts;
		if (st.clk == (clockid_t)-1)
			return probe_fail(c, EINVAL, "unknown clock in what=%s", what);
		if (clock_gettime(st.clk, &ts) != 0)
			return probe_fail(c, errno, "clock_gettime for what=%s: %s", what,
					  strerror(errno));
	} else if (strcmp(what, "tsc") == 0) {
		/* tb_now() is what every probe times with; measuring it under
		 * another timebase would not be the TSC. */
		if (!c->tb->is_tsc)
			return probe_fail(c, ENOTSUP,
					  "what=tsc is not supported here: the timebase is %s (%s)",
					  c->tb->name, c->tb->reason[0] ? c->tb->reason : "no TSC");
		fn = op_tsc;
	} else if (strcmp(what, "histogram-record") == 0) {
		fn = op_record;
		/* A scratch histogram shaped like every metric's, and sample
		 * values spread over two octaves (256 buckets), like the body
		 * of a latency distribution: recording one constant would keep
		 * a single counter hot and flatter the call. */
		hmem = malloc(hist_bytes(HIST_DEFAULT_BITS));
		vals = malloc(OV_NVALS * sizeof *vals);
		if (!hmem || !vals) {
			rc = probe_fail(c, ENOMEM, "cannot allocate the scratch histogram: %s",
					strerror(ENOMEM));
			goto cleanup;
		}
		st.h = hist_init(hmem, HIST_DEFAULT_BITS);
		uint64_t x = 0x2545f4914f6cdd1dull;
		for (unsigned i = 0; i < OV_NVALS; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			vals[i] = 2048 + (x % 6144);
		}
		st.vals = vals;
	} else {
		return probe_fail(c, EINVAL, "unknown what=%s", what);
	}

	probe_set_scale(c, 0, 1.0 / (double)batch);
	volatile uint64_t sink = 0;
	c->res->state = WS_WARMUP;
	for (uint64_t w = 0; w < c->warmup && !*c->stop; w++)
		sink += fn(&st, batch);
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t t0 = tb_now();
			/* Keep the compiler from moving the batch across a read. */
			__asm__ __volatile__("" ::: "memory");
			uint64_t acc = fn(&st, batch);
			__asm__ __volatile__("" ::: "memory");
			uint64_t t1 = tb_now();
			sink += acc;
			probe_record(c, 0, t1 - t0);
		}
		probe_run_end(c, i);
	}
	(void)sink;
cleanup:
	free(vals);
	free(hmem);
	return rc;
}

/* batch operations a sample, each of the cost of `what`: a clock read
 * 20-30 ns, the timestamp and a histogram record a few. */
static void ov_pace(const char *const *values, struct probe_pace *out)
{
	const char *what = values[0];
	double op = strcmp(what, "empty-loop") == 0 ? 1e-9
		    : strcmp(what, "tsc") == 0 || strcmp(what, "histogram-record") == 0 ? 3e-9
		    : strcmp(what, "clock_gettime-monotonic-coarse") == 0 ? 10e-9 : 30e-9;
	out->iteration_s = probe_decl_value_count(values[1]) * op;
}

const struct probe probe_overhead = {
	.decl.name = "overhead",
	.decl.pace = ov_pace,
	.decl.verifies = "nothing beyond the worker: it starts no task",
	.decl.help = "cost of an empty loop, the clocks, the harness's timestamp and histogram "
		"record; per-op = a timed batch / batch (basic overheads)",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	.decl.check = ov_check,
	.run = ov_run,
};
