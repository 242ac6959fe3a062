/* SPDX-License-Identifier: Apache-2.0 */
/* layers: private to measure harness (the result memory's layout: above the
 * harness, a result's numbers are read in harness/summary.h) */
/* probe.h - what a probe is, and the helpers it records with.
 *
 * A probe is one `const struct probe` in harness/measure/probes/<name>.c,
 * listed once in harness/measure/probes/probes.h. It holds no global state:
 * everything it needs is in the probe_ctx the runner hands to run(), which
 * runs in a forked worker that already has mlockall, the requested policy
 * and affinity.
 *
 * run() owns its loop: for each of ctx->warmup iterations it does the work
 * unrecorded, then for each run r: probe_run_begin(ctx, r), ctx->iterations
 * timed samples recorded with probe_record() (durations) and events counted
 * with probe_add_count() (count metrics), probe_run_end(ctx). All memory it
 * uses must be allocated and touched before the first probe_run_begin().
 * It returns 0, or a negative errno after probe_fail() said why.
 *
 * A probe whose declaration says by_time can also run by time
 * (ctx->duration_ns != 0): then c->runs is UINT32_MAX until the first run
 * that ends after the deadline (duration after the first run began) lowers
 * it to the runs done, so the loop above ends; the check is made between
 * runs, never per sample. Such a probe must loop on `r < c->runs`, pass
 * its loop's r to probe_run_begin() and index per-run data only by c->run
 * (which probe_run_begin sets): once RTC_MAX_RUNS runs are recorded, the
 * recorded runs are merged two by two and each later recorded run holds
 * twice as many measured runs (see probe_by_time_slot).
 *
 * Around every run the harness counts page faults and involuntary context
 * switches of the worker (all its threads) and of the peer processes that
 * probe_peer_setup() registered, into the harness metrics after the
 * probe's own (base/probe_decl.h): read at the run's boundaries, never
 * inside it (docs/measurement.md says what is counted).
 */
#ifndef RTC_PROBE_H
#define RTC_PROBE_H

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/cpulist.h"
#include "base/probe_decl.h"
#include "harness/measure/histogram.h"
#include "harness/measure/timebase.h"

#define PROBE_MAX_CPUS 256
#define PROBE_MAX_SERIES 64
/* Most peer processes whose faults and switches a worker counts. */
#define PROBE_MAX_PEERS 16

struct probe_ctx;
struct result_shm;

/* A probe's parameter and metric tables in its declaration, with their
 * sizes: `PROBE_PARAMS(params), PROBE_METRICS(metrics),`. */
#define PROBE_PARAMS(p) .decl.params = (p), .decl.nparams = sizeof(p) / sizeof(p)[0]
#define PROBE_METRICS(m) .decl.metrics = (m), .decl.nmetrics = sizeof(m) / sizeof(m)[0]

struct probe {
	/* What the validator and `rtconform list` see (base/probe_decl.h). */
	struct probe_decl decl;
	/* Optional: NULL when the probe can run on this machine, else why not. */
	const char *(*supported)(char *buf, size_t len);
	/* Measure. Runs in the worker. */
	int (*run)(struct probe_ctx *ctx);
	/* Optional: release what a worker may have left behind (a named
	 * semaphore, a SysV set) after it crashed, timed out or was killed.
	 * Runs in the supervisor once the worker's process group is gone, from
	 * what run() recorded in res->cleanup. Must be idempotent. */
	void (*cleanup)(const struct result_shm *res);
	/* Optional: this probe records one histogram per CPU beside its merged
	 * metrics (timer wake-up); the runner then maps one series per allowed
	 * CPU (at most PROBE_MAX_SERIES) for metric 0. */
	bool per_cpu_series;
	/* The probe sleeps through most of a run (timer wake-ups), so it cannot
	 * run into RT throttling: the harness's throttling guard stays off. */
	bool mostly_sleeps;
};

/* Per-run figures of one metric: the run's largest sample is what tells
 * run-to-run noise of a maximum apart from a change (rtconform compare). */
struct run_stat {
	uint64_t count;          /* every sample of the run, below zero too */
	uint64_t max;            /* largest sample >= 0 of the run (0 without) */
	unsigned __int128 sum;   /* of the samples >= 0 */
	/* Samples below zero (a signed metric only): how many, the sum of
	 * their magnitudes and the least magnitude (the run's max when every
	 * sample was below zero). */
	uint64_t neg_count, neg_least;
	unsigned __int128 neg_sum;
};

/* Two recorded runs as one (a run by time folds them; per-CPU series add
 * up into the merged metric). */
static inline struct run_stat run_stat_merge(struct run_stat a, struct run_stat z)
{
	uint64_t least = a.neg_least;
	if (z.neg_count && (!a.neg_count || z.neg_least < least))
		least = z.neg_least;
	return (struct run_stat){ .count = a.count + z.count,
				  .max = a.max > z.max ? a.max : z.max,
				  .sum = a.sum + z.sum,
				  .neg_count = a.neg_count + z.neg_count,
				  .neg_least = least,
				  .neg_sum = a.neg_sum + z.neg_sum };
}

/* One metric's results, in shared memory. Values recorded are in `units`;
 * ns_per_unit converts (e.g. ns_per_tick / 2 for per-op = cycle / 2).
 * cycles_per_unit is non-zero when units are TSC cycles (times a factor).
 * A count metric (kind METRIC_COUNT, set from the declaration when the
 * memory is made) has no units: during run r its events add up in
 * runs[r].sum, and the run's end records that sum as the run's one sample
 * (runs[r].count 1), so the histogram holds one value per run: its sum is
 * the total, its max the worst run, its mean the mean per run. */
struct metric_data {
	uint32_t kind;                /* enum metric_kind */
	double ns_per_unit;
	double cycles_per_unit;
	/* Trace on breach (harness/trace.c): a sample above `trip` (units)
	 * stops the requirement's kernel trace. trip_ns is what the supervisor
	 * asks for (0: not armed); probe_trace_scale() turns it into units
	 * once the scale is known. UINT64_MAX: unarmed, the one comparison in
	 * metric_record() never holds. */
	double trip_ns;
	uint64_t trip;
	/* The latest sample (its sign for a signed metric), for the live view
	 * of `rtconform run` on a terminal: the supervisor reads it, with the
	 * histogram's count, min, max and sum, while the worker runs
	 * (harness/live.c). One relaxed store per sample, next to `trip`,
	 * which every sample reads anyway: no lock, no syscall, no fence
	 * (docs/measurement.md states its cost). */
	int64_t last;
	struct run_stat runs[RTC_MAX_RUNS];
	/* A signed metric (and the series of a signed metric 0): bytes from
	 * this block to the histogram of its samples' magnitudes below zero,
	 * inside the block; 0: not signed. */
	uint32_t neg_off;
	struct hist hist; /* must be last: histogram counters follow */
};

/* The histogram of a signed metric's samples below zero, NULL when the
 * metric is not signed. */
static inline struct hist *metric_neg(struct metric_data *m)
{
	return m->neg_off ? (struct hist *)((char *)m + m->neg_off) : NULL;
}
static inline const struct hist *metric_neg_c(const struct metric_data *m)
{
	return m->neg_off ? (const struct hist *)((const char *)m + m->neg_off) : NULL;
}

enum worker_state {
	WS_NEW = 0, WS_SETUP, WS_WARMUP, WS_MEASURING, WS_DONE, WS_FAILED,
};

struct run_info {
	uint64_t t_begin, t_end; /* timebase ticks around the run */
	uint64_t iterations;     /* samples taken in this run */
};

/* Page faults and involuntary context switches of a task, as the kernel
 * counts them from the task's start. */
struct fault_counts {
	uint64_t minflt, majflt, nivcsw;
};

/* Everything a worker reports, in shared memory made before the fork. */
struct result_shm {
	_Alignas(64) volatile uint32_t state; /* enum worker_state; the alignment
	                                       * keeps the metric blocks after
	                                       * this header aligned */
	volatile uint32_t runs_done;
	int err;                      /* positive errno of a failure, or 0 */
	char reason[512];             /* why it failed, filled by probe_fail() */
	char note[512];               /* informative remark from the probe */
	/* The first event a violation metric counted (probe_decl.
	 * violation_metrics), in the probe's words, written once between runs
	 * or after the last: "" for none. The failed limit's text quotes it
	 * (harness/verdict.c). */
	char violation[256];
	uint32_t nmetrics;
	uint32_t metric_stride;       /* bytes from one metric_data to the next */
	uint32_t nseries_alloc;       /* per-CPU series mapped after the metrics */
	uint32_t nseries;             /* series the probe used */
	int32_t series_cpu[PROBE_MAX_SERIES]; /* CPU of each used series */
	/* What the worker was asked to do, written by the supervisor before
	 * the fork (see worker.h). */
	struct {
		char probe[32];
		char values[PROBE_MAX_PARAMS][128];
		uint64_t iterations, runs, warmup, timeout_ns;
		uint64_t duration_ns; /* run by time; 0: by count */
		int32_t policy, priority, cpu, ncpus;
		int32_t allowed[PROBE_MAX_CPUS];
		char self_dir[1024];
		int32_t supervisor;  /* pid of the supervisor that forked the worker */
		struct timebase tb;  /* the supervisor's; tb.name points into tb_name */
		char tb_name[48];
	} spec;
	/* What cleanup() needs to find leftovers: ids and names, probe-defined. */
	struct {
		int64_t ids[4];
		char names[2][64];
	} cleanup;
	/* Peer processes of the measurement (probe_peer_setup): their faults
	 * and switches count with the worker's. A slot is claimed by raising
	 * n, then its pid written; 0 while not yet written. */
	struct {
		volatile uint32_t n;
		volatile int32_t pid[PROBE_MAX_PEERS];
		uint32_t lost; /* peer-runs not counted: the peer ended mid-run */
	} peers;
	/* Trace on breach: the tracefs instance's files the supervisor opened
	 * for the worker (inherited across exec and by its peers), and what
	 * tripped it. marker_fd < 0: no trace armed. */
	struct {
		int32_t marker_fd, on_fd; /* trace_marker, tracing_on */
		int32_t kick_fd;          /* an eventfd the supervisor waits on: a
					   * breach to save (-1: none, its tick) */
		char id[136];             /* the requirement, for the marker */
		volatile uint32_t tripped; /* 0, then 1 once: the first trip wins */
		uint32_t metric, run;     /* what tripped, in which run: the measured
					   * run (a run by time's own number, not
					   * the recorded run it is merged into) */
		/* A run by time: the measured run now running + 1, set by
		 * probe_run_begin; 0: a run by count (the recorded run is the
		 * measured one). The marker's and the note's run. */
		volatile uint32_t measured_run;
		uint64_t value;           /* the sample, units of that metric */
		int32_t write_err;        /* errno of a failed marker write, or 0 */
		/* Keeping the worst breach (docs/explain.md): the metric whose
		 * breaches are traced (UINT32_MAX until one trips: the first
		 * owns the trace); saving 0 while a breach may stop the
		 * instance, 1 while a worker thread stops it, 2 once stopped at
		 * its marker, until the supervisor has saved it and re-armed
		 * (trace_keep_poll, harness/trace.h); saves the breaches stopped
		 * at so far (at most PROBE_TRACE_MAX_SAVES; each one larger than
		 * the one before); index the sample's number in its run
		 * (1-based), counted on its CPU when it is a per-CPU series'
		 * (cpu that CPU, else -1). later:
		 * samples above the traced one that came when no trace could
		 * be taken (a save pending or the budget spent), later_max the
		 * largest of them (units); both start again at each new
		 * breach stopped at. */
		volatile uint32_t owner, saving;
		uint32_t saves;
		int32_t cpu;
		uint64_t index;
		volatile uint64_t later, later_max;
	} trace;
	/* The journal's checkpoint (probe_checkpoint): at the end of every
	 * run the worker signals ask_fd and waits on go_fd, both eventfds the
	 * supervisor made, so the supervisor reads a result memory nothing
	 * writes to. ask_fd < 0: no journal, no pause. */
	struct {
		int32_t ask_fd, go_fd;
		uint32_t taken;      /* checkpoints the supervisor answered */
		int32_t err;         /* errno of a failed signal or wait, or 0 */
		/* tb_now() before which a run's end asks for none: the
		 * worker keeps the journal's pauses to a share of the time
		 * measured (probe_checkpoint); 0: at the first run's end. */
		volatile uint64_t due;
	} ckpt;
	volatile uint32_t verified;   /* tasks checked at the kernel (probe_verify_self);
	                               * the report's note says how many */
	double loop_ticks;            /* empty-loop cost per iteration, ticks */
	struct run_info runs[RTC_MAX_RUNS];
	/* nmetrics metric_data blocks follow, metric_stride bytes apart */
};

static inline struct metric_data *result_metric(struct result_shm *r, unsigned i)
{
	return (struct metric_data *)((char *)r + sizeof *r + (size_t)i * r->metric_stride);
}
/* Series i (0 <= i < nseries_alloc) of metric 0: the metric blocks after
 * the nmetrics main ones. */
static inline struct metric_data *result_series(struct result_shm *r, unsigned i)
{
	return result_metric(r, r->nmetrics + i);
}

static inline const struct metric_data *result_metric_c(const struct result_shm *r, unsigned i)
{
	return (const struct metric_data *)((const char *)r + sizeof *r +
					    (size_t)i * r->metric_stride);
}

struct probe_ctx {
	const struct probe *probe;
	const char *values[PROBE_MAX_PARAMS]; /* params' values, defaults applied */
	uint64_t iterations, runs, warmup;
	int policy;      /* SCHED_OTHER / SCHED_FIFO / SCHED_RR as applied */
	int priority;    /* as applied */
	int cpu;         /* CPU the worker is pinned to, -1 if not pinned */
	int ncpus;       /* CPUs the supervisor may use, in allowed[] */
	int allowed[PROBE_MAX_CPUS];
	uint64_t timeout_ns; /* the watchdog timeout: the requirement's, plus
			      * duration_ns in a run by time */
	uint64_t duration_ns; /* run by time for this long; 0: c->runs runs */
	const struct timebase *tb;
	const char *self_dir; /* directory of the rtconform binary (rtconform-nop is there) */
	volatile int *stop;   /* set when the worker should stop early */
	pid_t supervisor;     /* the worker's parent, which it must not outlive */
	pid_t worker;         /* the worker's pid: the parent of its peers */
	struct result_shm *res;
	struct metric_data *m[PROBE_MAX_METRICS];
	uint32_t run;         /* current run */
	/* The counters of the harness metrics at the current run's start:
	 * the worker's, and each registered peer's (peer_ok: read then). */
	struct {
		struct fault_counts self, peer[PROBE_MAX_PEERS];
		bool peer_ok[PROBE_MAX_PEERS];
		unsigned __int128 count_sum[RTC_MAX_METRICS]; /* count metrics' run sums */
		uint64_t t;          /* tb_now() at the run's start */
	} at_begin;
	/* A run by time (duration_ns != 0), kept by probe_run_begin/_end. */
	struct {
		uint64_t deadline;   /* tb_now() after which no run starts */
		uint64_t raw;        /* the index of the run being measured */
		uint32_t shift;      /* recorded run = measured run >> shift */
		bool reached;        /* the deadline passed: the runs ended by time */
	} by_time;
	/* Guard against the kernel's RT throttling, set up by the runner for a
	 * real-time worker (see probe_rt_guard_init); all 0 when off. */
	struct {
		uint64_t budget;      /* busy ticks allowed between rests */
		uint64_t runtime;     /* the RT runtime of a period, ticks */
		struct timespec rest; /* twice the throttled part of a period */
		uint64_t since;       /* tb_now() after the last rest */
		uint64_t longest_run; /* ticks */
		unsigned rests;
	} rt;
};

/* The kernel's RT throttling (sched_rt_runtime_us per sched_rt_period_us,
 * left on: the watchdog relies on it) stops every real-time task of a CPU
 * for the rest of a period once they have used up the runtime. A probe that
 * keeps its CPU busy for longer would measure the throttle (a stall of about
 * 50 ms), not the operation. So for real-time policies probe_run_begin()
 * rests between runs (never inside one: that would distort the batch
 * figure) whenever the busy stretch since the last rest plus the longest run
 * so far could pass half the runtime (half leaves room for the unknown phase
 * of the kernel's period). Called by worker_main() before run(). */
void probe_rt_guard_init(struct probe_ctx *c);
/* The guard's rule, for the worker and for the estimate of a run's time
 * (harness/estimate.c), which rests as the worker will:
 * probe_rt_guarded: whether it guards probe p under policy (SCHED_*): a
 * real-time policy and a probe that does not mostly sleep.
 * probe_rt_guard_plan: its budget (busy ns allowed between rests: half
 * the RT runtime) and rest (twice the throttled part of a period, ns) for
 * sched_rt_runtime_us and sched_rt_period_us; false when throttling is off
 * (runtime -1, or not below the period): no guard. probe_rt_guard_plan_machine
 * reads the two of this machine.
 * probe_rt_guard_due: whether it rests before a run, busy ns since the
 * last rest and the longest run so far. */
bool probe_rt_guarded(const struct probe *p, int policy);
bool probe_rt_guard_plan(long runtime_us, long period_us, uint64_t *budget_ns, uint64_t *rest_ns);
bool probe_rt_guard_plan_machine(uint64_t *budget_ns, uint64_t *rest_ns);
static inline bool probe_rt_guard_due(uint64_t busy, uint64_t longest_run, uint64_t budget)
{
	return busy + longest_run > budget;
}
/* Sleep out a throttling period when the next run could run into one. */
void probe_rt_guard_rest(struct probe_ctx *c);
/* Append to res->note what the guard did or saw (rests, over-long runs). */
void probe_rt_guard_note(struct probe_ctx *c);

/* The most breaches one requirement's trace stops at (each larger than the
 * last): a rising ramp would otherwise stop it at every sample. */
#define PROBE_TRACE_MAX_SAVES 8u

/* A sample above an armed trip (probe_trace.c). The first owns the trace
 * for its metric (every other metric is disarmed). A sample larger than
 * every one before, while no save is pending and the budget lasts, writes
 * the trace marker, stops the instance and notes itself in the result
 * memory for the supervisor to save and re-arm; its metric's trip becomes
 * the sample, so only a larger one comes here again. Any other sample here
 * (above the one traced) is counted in trace.later. Out of line, never on
 * the fast path: a few atomics and, at a new worst, two write(2)s. No
 * allocation, no stdio, no locks. */
void probe_trace_trip(struct metric_data *m, uint32_t run, uint64_t v)
	__attribute__((noinline, cold));

/* One sample into a metric's histogram and its run's sums. Trace on
 * breach costs one comparison per sample (trip is UINT64_MAX unarmed). */
static inline void metric_record(struct metric_data *m, uint32_t run, uint64_t v)
{
	if (__builtin_expect(v > m->trip, 0))
		probe_trace_trip(m, run, v);
	__atomic_store_n(&m->last, (int64_t)v, __ATOMIC_RELAXED);
	hist_record(&m->hist, v);
	m->runs[run].count++;
	m->runs[run].sum += v;
	if (v > m->runs[run].max)
		m->runs[run].max = v;
}

/* A sample below zero of a signed metric: its magnitude into the
 * negative histogram and the run's negative sums. Never trips a trace (a
 * trip is a maximum exceeded). */
static inline void metric_record_neg(struct metric_data *m, uint32_t run, uint64_t mag)
{
	struct run_stat *rs = &m->runs[run];
	__atomic_store_n(&m->last, -(int64_t)mag, __ATOMIC_RELAXED);
	hist_record(metric_neg(m), mag);
	if (!rs->neg_count || mag < rs->neg_least)
		rs->neg_least = mag;
	rs->count++;
	rs->neg_count++;
	rs->neg_sum += mag;
}

/* One sample of a signed metric (m->neg_off != 0). The one sign test
 * replaces the clamp a probe would otherwise need. */
static inline void metric_record_signed(struct metric_data *m, uint32_t run, int64_t v)
{
	if (__builtin_expect(v < 0, 0))
		metric_record_neg(m, run, -(uint64_t)v);
	else
		metric_record(m, run, (uint64_t)v);
}

/* Record into series s (per-CPU histogram) during run c->run. */
static inline void probe_record_series(struct probe_ctx *c, unsigned s, uint64_t v)
{
	metric_record(result_series(c->res, s), c->run, v);
}
/* The same for the series of a signed metric 0. */
static inline void probe_record_series_signed(struct probe_ctx *c, unsigned s, int64_t v)
{
	metric_record_signed(result_series(c->res, s), c->run, v);
}

/* The value of a parameter by name (defaults applied), or NULL. */
const char *probe_value(const struct probe_ctx *c, const char *name);

/* Set every metric's scale: ns_per_unit = timebase ns_per_tick * factor
 * (and cycles when the timebase is the TSC). Most probes call it once. */
void probe_set_scale(struct probe_ctx *c, unsigned metric, double factor);

/* The worker's and its peers' counters at the start of run c->run; called
 * by probe_run_begin just before the run's first timestamp. */
void probe_counters_begin(struct probe_ctx *c);
/* Just after the run's last timestamp: the harness metrics of the run
 * (counters now minus at the start), and every count metric's run total
 * recorded as the run's sample. */
void probe_counters_end(struct probe_ctx *c);
/* Append to res->note how often a peer's counts of a run were lost. */
void probe_counters_note(struct probe_ctx *c);

/* Where the trip handler finds the result memory and the probe (metric
 * names for the marker): set once in the worker before run(), inherited by
 * its threads and forked peers. */
void probe_trace_attach(struct result_shm *res, const struct probe *p);
/* Each armed metric's trip in its units (trip_ns / ns_per_unit, rounded
 * down, so v > trip exactly when v's time exceeds trip_ns); per-CPU series
 * trip with metric 0; unarmed ones and every metric once tripped get
 * UINT64_MAX. Run at each run's start,
 * after the probe set its scales. */
void probe_trace_scale(struct result_shm *res);
/* In a run by time, the recorded run that measured run r goes into
 * (r >> shift): the first call sets the deadline, and a call that would
 * pass RTC_MAX_RUNS merges the recorded runs two by two first (sums,
 * counts, times and iterations add; shift grows by one). Between runs
 * only; allocates nothing. */
uint32_t probe_by_time_slot(struct probe_ctx *c, uint32_t r);
/* The recorded run measured run r will go into, without folding anything
 * yet: what probe_run_begin(c, r) will set c->run to. For a probe that must
 * tell a peer the run before the run's counters start. */
static inline uint32_t probe_next_slot(const struct probe_ctx *c, uint32_t r)
{
	uint32_t shift = c->by_time.shift;
	if (!c->duration_ns)
		return r;
	while ((r >> shift) >= RTC_MAX_RUNS)
		shift++;
	return r >> shift;
}
/* After a run by time: the deadline passed, so c->runs becomes the runs
 * measured and the probe's loop ends. */
void probe_by_time_check(struct probe_ctx *c);
/* Append to res->note how a run by time went (runs, how they are
 * recorded). */
void probe_by_time_note(struct probe_ctx *c);

static inline void probe_run_begin(struct probe_ctx *c, uint32_t run)
{
	if (c->rt.budget)
		probe_rt_guard_rest(c);
	if (c->res->trace.marker_fd >= 0)
		probe_trace_scale(c->res);
	c->run = c->duration_ns ? probe_by_time_slot(c, run) : run;
	if (c->duration_ns)
		__atomic_store_n(&c->res->trace.measured_run, run + 1u, __ATOMIC_RELAXED);
	c->res->state = WS_MEASURING;
	/* Written once before the counters start too: after a peer's fork the
	 * worker's own pages are copy-on-write, and a first store to one
	 * inside the run would be a page fault counted against it. */
	c->at_begin.t = 0;
	probe_counters_begin(c);
	c->at_begin.t = tb_now();
}

static inline void probe_record(struct probe_ctx *c, unsigned metric, uint64_t v)
{
	metric_record(c->m[metric], c->run, v);
}

/* Count n events of count metric `metric` in the current run. */
static inline void probe_add_count(struct probe_ctx *c, unsigned metric, uint64_t n)
{
	c->m[metric]->runs[c->run].sum += n;
}

/* Between runs, with a journal (res->ckpt.ask_fd >= 0): tell the
 * supervisor that run c->run ended and wait until it has journaled the
 * result memory (probe_journal.c). Two syscalls and a wait, after the
 * run's last timestamp and before the next run's first: never inside a
 * run. A failed signal or wait is noted in res->ckpt.err and the run goes
 * on unjournaled. */
void probe_checkpoint(struct probe_ctx *c) __attribute__((noinline));

/* Ends run c->run: iterations is the number of samples the run took. A
 * recorded run that holds several measured runs (by time) spans their
 * summed time: t_end - t_begin is the time measured, not the rests. */
static inline void probe_run_end(struct probe_ctx *c, uint64_t iterations)
{
	uint64_t now = tb_now(), took = now - c->at_begin.t;
	struct run_info *ri = &c->res->runs[c->run];
	if (!c->duration_ns || (c->by_time.raw & ((1ull << c->by_time.shift) - 1)) == 0) {
		ri->t_begin = c->at_begin.t;
		ri->t_end = now;
	} else {
		ri->t_end += took;
	}
	ri->iterations += iterations;
	probe_counters_end(c);
	if (took > c->rt.longest_run)
		c->rt.longest_run = took;
	__atomic_store_n(&c->res->runs_done, c->run + 1, __ATOMIC_RELEASE);
	if (c->duration_ns)
		probe_by_time_check(c);
	if (c->res->ckpt.ask_fd >= 0 && now >= c->res->ckpt.due)
		probe_checkpoint(c);
}

/* A probe that keeps one series per CPU (probe.per_cpu_series): metric 0
 * made anew as the sum of the series used (histograms, negative ones too,
 * and every recorded run's figures). Idempotent: the probe calls it
 * between runs, while no thread records, so the merged figure holds every
 * finished run; the supervisor calls it once the worker is gone, so it
 * also holds the recorded part of a run an interrupt cut short. */
void result_merge_series(struct result_shm *res);

/* The CPUs a cpulist parameter (PARAM_CPULIST) selects, in increasing
 * order, into cpus[] (at most max). "all": every CPU allowed to the
 * worker, or only the <sched cpu> one when the worker is pinned. A list
 * must name only allowed CPUs. Returns how many, or -errno after
 * probe_fail. */
int probe_cpus(const struct probe_ctx *c, const char *param, int *cpus, int max);

/* Start a thread running fn(arg) under `policy` and `priority` from its
 * first instruction (explicit scheduling attributes, never inherited), on
 * the CPUs of `cpus` (NULL: the creator's, as the kernel has them now),
 * with a stack of stack_bytes. Before fn runs, the thread reads back from
 * the kernel what it runs under (probe_verify_self) and the creator waits
 * for that answer: a task that runs otherwise than asked never reaches fn.
 * `task` names it in messages ("the high thread"). Returns 0, or the
 * positive errno of the pthread call that failed (the caller says what the
 * thread was for), or EPERM / ETIMEDOUT after probe_fail said which task
 * did not run as asked or did not start. */
int probe_start_thread(const struct probe_ctx *c, const char *task, pthread_t *tid,
		       int policy, int priority, const cpu_set_t *cpus, size_t stack_bytes,
		       void *(*fn)(void *), void *arg);

/* The premise check of a task, for the calling thread: its policy and
 * priority and, with cpus, its CPU affinity as the kernel reports them
 * (rtenv_verify), never as a library does. A mismatch is probe_fail naming
 * the task, what it asked for and what it got, and -EPERM; a match counts
 * in res->verified. probe_start_thread, probe_peer_setup and the worker
 * call it; a probe calls it itself only for a setting it makes on its own
 * (a SCHED_DEADLINE switch: probe_verify_attr). */
int probe_verify_self(const struct probe_ctx *c, const char *task, int policy, int priority,
		      const cpu_set_t *cpus);
struct rtenv_want;
int probe_verify_attr(const struct probe_ctx *c, const char *task,
		      const struct rtenv_want *want, const cpu_set_t *cpus);

/* futex(2) on a word private to the worker's process. */
long probe_futex(uint32_t *w, int op, uint32_t val, const struct timespec *timeout);

/* Sleep while *w == val, at most until `deadline` (tb_clock_ns). Returns 0,
 * or ETIMEDOUT. */
int probe_wait_while(uint32_t *w, uint32_t val, uint64_t deadline);

/* Record why the probe failed (printf-style) and return -err. Safe to call
 * from any process of the probe that shares ctx->res. */
int probe_fail(const struct probe_ctx *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Name of an errno value ("EAGAIN"), for failure reasons a reader can grep. */
const char *probe_errname(int err);

/* Wait for every child of the calling process until none is left, so no
 * child and no zombie outlives a probe (children made by a probe exit at
 * once; this only collects what a failed waitpid() left behind). */
void probe_reap_children(void);

/* Put the calling process (a probe's peer, named `task` in messages) under
 * the worker's real-time set-up: mlockall, the worker's policy at
 * `priority`, death signal when the worker dies (a peer whose worker died
 * before that exits at once), and check at the kernel that they took
 * (probe_verify_self). cpu >= 0 pins it. Registers the peer in res->peers,
 * so its page faults and involuntary switches count with the worker's from
 * the next run's start on. Returns 0 or -errno after probe_fail. */
int probe_peer_setup(const struct probe_ctx *c, const char *task, int cpu, int priority);

/* Two CPUs for a placement: same-cpu gives (base, base); cross-cpu gives
 * base and the next online CPU allowed; unpinned gives (-1, -1). base is the
 * worker's cpu, or the first allowed CPU. Returns 0 or -errno (e.g. -ENODEV
 * for cross-cpu on one CPU). */
int probe_pick_cpus(const struct probe_ctx *c, const char *placement, int *a, int *b);

#endif
