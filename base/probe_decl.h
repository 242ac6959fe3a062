/* SPDX-License-Identifier: Apache-2.0 */
/* probe_decl.h - what a probe declares about itself: its name, parameters
 * (with their kinds, allowed values and defaults), metrics and pace.
 *
 * Plain constant data with no behaviour beyond small functions of the
 * parameters' values (a check of a combination, the policy, the pace), so that the validator (requirements/) can check a
 * file against the probes without linking them, and the probes
 * (harness/measure/probes/) declare themselves without seeing the
 * requirements model. Also the bounds both sides must agree on.
 */
#ifndef RTC_PROBE_DECL_H
#define RTC_PROBE_DECL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most runs a requirement may ask for and a worker records. */
#define RTC_MAX_RUNS 1000u
/* Most parameters and metrics a probe may declare. */
#define PROBE_MAX_PARAMS 8
#define PROBE_MAX_METRICS 8
/* The count metrics the harness adds to every probe, after the probe's own
 * (probe_decl_harness_metrics below), and the most metrics a result can hold. */
#define PROBE_HARNESS_METRICS 3
#define RTC_MAX_METRICS (PROBE_MAX_METRICS + PROBE_HARNESS_METRICS)

enum param_kind {
	PARAM_ENUM,     /* one of values[] */
	PARAM_COUNT,    /* positive integer */
	PARAM_DURATION, /* duration with unit */
	PARAM_CPULIST,  /* "all" or "0,2-3" */
};

struct probe_param {
	const char *name;
	const char *help;
	enum param_kind kind;
	const char *const *values; /* PARAM_ENUM: NULL-terminated allowed values */
	const char *def;           /* default value as text */
};

/* What a metric's values are. A duration is one sample per timed
 * operation (scaled to ns, or cycles); a count is one value per run: how
 * many times something happened in that run (page faults, violations).
 * Duration is the zero value, so a table that says nothing declares one. */
enum metric_kind { METRIC_DURATION, METRIC_COUNT };

struct probe_metric {
	const char *name;  /* "per-op", "wakeup" */
	const char *help;
	enum metric_kind kind;
};

/* probe_decl.per_iteration[i] of a metric that takes one sample per
 * iteration on every CPU the requirement measures on (timer-wakeup's
 * merged wakeup): how many is known only when it runs. */
#define PROBE_PER_CPU 0xffffffffu

/* "duration", "count": how reports and `rtconform list` name a kind. */
const char *probe_decl_metric_kind_name(enum metric_kind k);
/* A probe_decl_metric_kind_name back; false when s is none. */
bool probe_decl_metric_kind_parse(const char *s, enum metric_kind *out);

/* The harness's own count metrics, in this order after a probe's metrics:
 * page-faults (minor + major), major-faults, involuntary-switches, counted
 * over each measured run in every task that takes part (see
 * docs/measurement.md). */
enum { HM_PAGE_FAULTS, HM_MAJOR_FAULTS, HM_INVOLUNTARY_SWITCHES };
extern const struct probe_metric probe_decl_harness_metrics[PROBE_HARNESS_METRICS];

/* What a probe's work takes, for the estimate of a requirement's run time
 * before it runs (`rtconform list --profiles`; harness/estimate.c is the
 * one rule that adds it up with the counts, the worker and the RT
 * throttling guard). Round figures of a current x86-64 machine: an
 * estimate tells a minute from an hour, not a second from two. */
struct probe_pace {
	/* Seconds of each iteration, the warm-up's too. */
	double iteration_s;
	/* Seconds of each run besides its iterations: all of it for a probe
	 * whose runs take a parameter's time whatever the iterations, and
	 * what a run sets up (tasks started, admission trials). */
	double run_s;
	/* The warm-up is one more run when the requirement's warmup > 0
	 * (the behaviour probes that play a match or take turns), rather than
	 * warmup iterations. */
	bool warmup_run;
};

/* A duration parameter's value in seconds, a count's as a number, for a
 * pace function: 0 for a value the validator refuses. */
double probe_decl_value_s(const char *v);
double probe_decl_value_count(const char *v);

struct probe_decl {
	const char *name;
	const char *help;
	const struct probe_param *params;
	size_t nparams;
	const struct probe_metric *metrics;
	size_t nmetrics;
	/* The probe can run by time (<run duration>): its runs are alike and
	 * independent, so it may do as many as fit in the time (see
	 * harness/measure/probe.h). Behaviour probes that plan their runs
	 * ahead to fit the timeout leave it false. */
	bool by_time;
	/* What the probe checks at the kernel before it measures, besides the
	 * worker's own policy, priority and CPUs (every probe's): the tasks it
	 * starts and what of each (probe_start_thread, probe_peer_setup), for
	 * `rtconform list` and docs/probes.md. */
	const char *verifies;
	/* Bit i set: metric i is a duration whose samples can be below zero
	 * (a timer that fires early). Recorded with metric_record_signed()
	 * into two histograms (harness/measure/histogram.h); every statistic
	 * of it is signed. */
	uint32_t signed_metrics;
	/* Bit i set: metric i is a count of events the system under test
	 * must never produce, whatever the user's budget (a wait that returned
	 * without the post that answers it: sem-pingpong's unanswered-waits).
	 * Every requirement of the probe gets the limit "total <= 0" on it
	 * unless it sets one of its own (validate_implicit_limits), so a count
	 * above 0 fails the requirement as a conformance violation, and the
	 * verdict's reason quotes the probe's words on the first one
	 * (result_shm.violation). */
	uint32_t violation_metrics;
	/* Optional, one per metric of `metrics`: how many samples duration
	 * metric i takes an iteration: 0 or 1 one (also for every metric
	 * when NULL), N more (a round trip timed both ways), PROBE_PER_CPU
	 * one on each measured CPU. A count has one value a run whatever
	 * this says. What "enough samples for a percentile" counts
	 * (probe_decl_metric_samples). */
	const unsigned *per_iteration;
	/* Optional: reject a combination of parameter values that cannot work
	 * (values[i] is params[i]'s value, defaults applied). Return NULL if fine,
	 * else a sentence saying why, written into buf. */
	const char *(*check)(const char *const *values, char *buf, size_t len);
	/* Optional, for a probe whose measured tasks do not run under the
	 * worker's policy (the requirement's <sched>): the policy they run
	 * under, as the reports' POLICY column names it ("deadline
	 * 1ms/5ms/10ms", "rr:81"), from the parameters (values[i] is
	 * params[i]'s, defaults applied) and the worker's priority (-1: not
	 * resolved), into buf; returns buf. NULL: the tasks run under the
	 * worker's policy. */
	const char *(*policy)(const char *const *values, int priority, char *buf, size_t len);
	/* Required: the probe's pace (above) under parameter values values[]
	 * (params[i]'s, defaults applied), into *out, which is zeroed first.
	 * The pace belongs with the probe: unit.estimate fails for a probe of
	 * the table without one, or whose pace of its defaults is 0. */
	void (*pace)(const char *const *values, struct probe_pace *out);
};

/* The probes a requirements file may name, in the order `rtconform list`
 * shows them. */
struct probe_catalog {
	const struct probe_decl *const *probes;
	size_t n;
};

/* The probe of a catalogue called `name`, or NULL. */
const struct probe_decl *probe_decl_catalog_find(const struct probe_catalog *c, const char *name);

/* Index of a parameter of a declaration by name, or -1. */
int probe_decl_param_index(const struct probe_decl *p, const char *name);

/* A probe's metrics as a result holds them: its own (p->metrics), then the
 * harness's. probe_decl_nmetrics counts both; probe_decl_metric gives metric i of
 * them, NULL past the end; probe_decl_metric_index finds one by name (NULL: the
 * probe's first), or -1. */
size_t probe_decl_nmetrics(const struct probe_decl *p);
const struct probe_metric *probe_decl_metric(const struct probe_decl *p, size_t i);
int probe_decl_metric_index(const struct probe_decl *p, const char *name);

/* The samples metric i of p (probe_decl_metric's numbering) takes in runs
 * of `iterations` (per_iteration; a count one a run): the one count the
 * "enough samples for a percentile" rule uses (validate_samples_short).
 * For a PROBE_PER_CPU metric that is on each measured CPU, and *per_cpu
 * is set: the least it takes, on one CPU. p NULL: one an iteration.
 * *per_it: the samples an iteration (1 for a count). Saturates at
 * UINT64_MAX. */
uint64_t probe_decl_metric_samples(const struct probe_decl *p, size_t i, uint64_t iterations,
				   uint64_t runs, bool *per_cpu, uint64_t *per_it);

#endif
