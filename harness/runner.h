/* SPDX-License-Identifier: Apache-2.0 */
/* runner.h - run requirements, one forked worker each, under a watchdog.
 *
 * The supervisor (the caller) never measures: it maps the result memory,
 * forks a worker that sets up the real-time environment and runs the probe,
 * and waits on a pidfd with the requirement's timeout. A timeout, a crash, a
 * refused privilege or an interrupt is an `error` verdict with its reason.
 */
#ifndef RTC_RUNNER_H
#define RTC_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "requirements/model.h"
#include "harness/summary.h"
#include "harness/verdict.h"

struct trace_names;
struct interval_out;
/* The result memory's layout (harness/measure/probe.h) is the harness's:
 * those above it read a result's numbers in its summary. */
struct result_shm;
struct probe;
struct probe_decl;


struct limit_outcome {
	bool evaluated;     /* false: the statistic could not be computed */
	bool passed;
	/* With confidence (req_limit.confidence > 0): the interval straddles
	 * a bound (passed is then false), and the interval itself; `need`
	 * the samples that would decide it as the samples now lie (0: no
	 * number would). */
	bool undecided;
	bool has_lo, has_hi;
	double lo, hi;      /* as measured */
	uint64_t need;
	double measured;    /* ns, or cycles for a cycles limit */
	bool on_max;        /* limit_judged's: the deciding bound, the relation, */
	enum limit_relation rel; /* why it has no figure */
	enum figure_lack lack;
	char text[448];     /* "max 412.3 us > 300 us (n=100000)" */
};

struct req_result {
	const struct requirement *req;
	const struct req_file *file;
	const struct probe *probe;
	enum verdict verdict;
	char reason[600];         /* error or failure summary */
	struct result_shm *res;   /* worker's results (mapping owned here), may be NULL */
	size_t res_bytes;
	int policy, priority;     /* as requested (SCHED_*) */
	double seconds;           /* wall time of the requirement */
	uint64_t duration_ns;     /* ran by time for this long; 0: by count */
	time_t started;           /* UTC */
	struct limit_outcome limits[REQ_MAX_LIMITS];
	/* Its numbers as the judge took them (verdict_judge), freed by
	 * req_result_free; filled false: never judged (summary_of fills a
	 * copy from the result memory). */
	struct summary sum;
	char load_cmd[600];       /* background load's exact command, "" without one */
	char trace_file[1200];    /* the saved trace-<ID>.txt's name (in run_options.trace_dir),
				   * "" without one */
	char trace_note[600];     /* what became of the trace ("trace: ..."), "" if none asked */
	struct explain *explain;  /* the saved trace's breach explained (harness/explain.h),
				   * NULL: none; freed by req_result_free */
	bool not_selected;        /* left out by the caller (run --only): skipped, never run */
};

struct run_options {
	uint64_t iterations_override, runs_override; /* 0: file's values */
	bool trace;                 /* arm a trace for every requirement (run --trace) */
	const char *trace_dir;      /* where trace-<ID>.txt goes (NULL: the current one) */
	struct trace_names *trace_names; /* the names the run's traces took; may be NULL */
	bool quick;                 /* iterations / 10 (at least 1), runs 3 */
	uint64_t duration_override; /* run every requirement by time; 0: file's */
	const char *self_dir;       /* where rtconform and rtconform-nop live */
	const char *worker_name;    /* the worker program there; NULL: rtconform-worker
				     * (selftest's delay runs: rtconform-worker-faults) */
	volatile sig_atomic_t *interrupted; /* set by SIGINT/SIGTERM handler */
	/* Called from the supervisor while a worker runs (progress display);
	 * may be NULL. */
	void (*progress)(const struct req_result *r, uint32_t runs_done,
			 uint64_t runs_total, double elapsed_s, void *arg);
	void *progress_arg;
	/* The journal (reports/journal.h); may be NULL. Called from the
	 * supervisor at the end of every run of a requirement while the worker
	 * waits for it (probe_checkpoint), with the requirement as its reports
	 * would show it if rtconform ended there (runner_checkpoint_result;
	 * its result memory is the worker's: read it, never free it). The
	 * time it takes is added to the watchdog's timeout. */
	void (*checkpoint)(const struct req_result *partial, void *arg);
	void *checkpoint_arg;
	/* Intervals (harness/interval.h): their length for every requirement
	 * (--interval); 0: the default, INTERVAL_DEFAULT_NS for a run by time
	 * and none for a run by count. interval, may be NULL, is called from
	 * the supervisor with each interval as it closes (r's result memory is
	 * the worker's, read only; iv's blocks live until the next call). */
	uint64_t interval_ns;
	void (*interval)(const struct req_result *r, const struct interval_out *iv, void *arg);
	void *interval_arg;
};

/* How long requirement r's intervals are under o; 0: it keeps none. */
uint64_t runner_interval(const struct requirement *r, const struct run_options *o);

/* Make the calling process a child subreaper (PR_SET_CHILD_SUBREAPER), as
 * whoever calls runner_run() must be first: peers a worker forked, and
 * children of a background load, that outlive their parent come back to it,
 * so supervise can reap every process of a requirement. Inherited by no
 * child. Returns 0, or -errno. */
int runner_become_supervisor(void);

/* Effective counts for a requirement under the options. */
void runner_counts(const struct requirement *r, const struct run_options *o,
		   uint64_t *iterations, uint64_t *runs, uint64_t *warmup);

/* How long a requirement runs by time under the options (--duration wins
 * over the file's); 0: it runs by count. */
uint64_t runner_duration(const struct requirement *r, const struct run_options *o);

/* Run one requirement; fills out (which the caller later frees with
 * req_result_free). Never fails as a function: problems become verdicts. */
void runner_run(const struct requirement *r, const struct req_file *f,
		const struct run_options *o, struct req_result *out);

/* What the journal keeps of a requirement measured as far as out->res
 * says, `runs` asked for: a copy of out (sharing its result memory) with
 * the error verdict of a requirement rtconform never finished, saying how
 * far it got; the figures of its finished runs stand. */
void runner_checkpoint_result(const struct req_result *out, uint64_t runs, struct req_result *cp);

/* An error verdict without running (interrupted, unsupported, ...). */
void req_result_error(struct req_result *out, const struct requirement *r,
		      const struct req_file *f, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

void req_result_free(struct req_result *r);

/* Map and initialise result memory for a probe (nmetrics histograms).
 * Returns NULL with errno set on failure. Exposed for tests. */
struct result_shm *result_alloc(unsigned nmetrics, size_t *bytes);
/* The same with nseries per-CPU series after the metrics. */
struct result_shm *result_alloc_series(unsigned nmetrics, unsigned nseries, size_t *bytes);
/* Result memory as a requirement of probe d gets it: d's metrics and the
 * harness's (probe_decl_nmetrics), each of its kind, and nseries series. */
struct result_shm *result_alloc_for(const struct probe_decl *d, unsigned nseries, size_t *bytes);

#endif
