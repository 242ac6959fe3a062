/* SPDX-License-Identifier: Apache-2.0 */
/* summary.h - a requirement's numbers, taken once from the worker's result
 * memory: every statistic of each metric and per-CPU series with its
 * confidence interval, the per-run and batch figures, the histograms'
 * buckets, the intervals as they close, and the figure each limit is judged
 * on. The judge (harness/verdict.h) judges the figures, the report view
 * (reports/report.h) copies the rest; nothing above the harness reads the
 * result memory itself. A results.json read back gives the same numbers
 * (reports/read/), and the same judge judges them there.
 *
 * Only numbers: the sentences people read are made in reports/.
 */
#ifndef RTC_SUMMARY_H
#define RTC_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/probe_decl.h"
#include "requirements/model.h"

/* Per-CPU series a result can hold (PROBE_MAX_SERIES). */
#define SUMMARY_MAX_SERIES 64

/* The statistics every report gives for each metric, in this order. */
#define RV_NSTATS 9
extern const char *const report_view_stats[RV_NSTATS];
enum { RV_MIN, RV_MEAN, RV_STDDEV, RV_MAX, RV_P50, RV_P90, RV_P99, RV_P99_9,
       RV_RUNS_MEAN_STDDEV }; /* indices into it */
/* The key statistics of a duration, those junit.xml keeps (with the count
 * and the overflow), in this order: indices into report_view_stats. */
#define RV_NKEY_STATS 5
extern const int report_view_key_stats[RV_NKEY_STATS];

struct rv_value {
	bool have; /* false: could not be computed (too few samples, ...) */
	double v;
};
/* v when `have` and a number, else absent. */
struct rv_value rv_value_of(bool have, double v);

struct rv_bucket {
	uint64_t lo, hi, count; /* inclusive bounds, in the metric's units */
};

/* The samples below zero of a signed metric (a timer that fired early):
 * their magnitudes' non-empty buckets, ascending by magnitude, and the
 * magnitudes above the histogram's `highest`. All 0 for a metric that is
 * not signed, that had none, or that was read from a report written before
 * they were kept (when the harness still folded them into 0). */
struct rv_neg {
	uint64_t overflow;
	struct rv_bucket *buckets;
	size_t nbuckets;
};
/* Samples below zero an rv_neg holds. */
uint64_t rv_neg_count(const struct rv_neg *n);

/* The confidence interval of a percentile statistic (harness/stats.h,
 * stat_bounds; base/orderstat.h): two-sided, equal tails, at `level`, from
 * the order statistics of the n samples, each bound mapped onto the
 * histogram (so a bound is a bucket's edge, clamped to the exact min and
 * max). have false: none (not a percentile, the point estimate is absent,
 * or the view was read from a results.json written before they were kept).
 * docs/reports.md, "Confidence intervals". */
#define RV_CI_LEVEL 0.95 /* unless a limit on the statistic asks another */
/* Samples above which a metric's percentiles get no interval: finding the
 * ranks takes time as the square root of the count (62 ms at 2^40, some
 * 12 days of a 1 MHz probe), which the reader spends again on each. */
#define RV_CI_MAX_SAMPLES ((uint64_t)1 << 40)
struct rv_ci {
	bool have;
	double level;              /* 0.5 < level < 1 */
	uint64_t n;                /* the samples the ranks are of: the count */
	uint64_t lo_rank, hi_rank; /* 1-based; 0 / n + 1: no bound on that side */
	bool has_lo, has_hi;       /* false: too few samples for that side */
	double lo_ns, hi_ns;       /* the bounds (only with has_lo / has_hi) */
	double coverage;           /* exact probability [X(lo), X(hi)] holds it */
	/* The bound lies in the point estimate's own bucket: the histogram's
	 * resolution limits it, not the sample count. */
	bool lo_bucket, hi_bucket;
};

/* The statistics every report gives for a count metric, in this order. */
#define RV_NCSTATS 4
extern const char *const report_view_count_stats[RV_NCSTATS];
enum { RVC_TOTAL, RVC_MIN, RVC_MEAN, RVC_MAX }; /* indices into it */

/* A metric: a duration (samples in a histogram, statistics in ns and
 * cycles) or a count (one value per run: run_count[k] is run k's count,
 * count the runs counted, counts[] its statistics; every field of a
 * duration's histogram and scales is 0 or absent). */
/* One interval of a requirement (harness/interval.h) of one duration
 * metric or per-CPU series: its own samples' count, statistics (by the
 * metric's rule: absent when too few) and histogram. */
struct rv_ival {
	int64_t start_ms;              /* UTC, ms since the epoch */
	double seconds;                /* how long it lasted */
	uint64_t count, overflow;
	struct rv_value ns[RV_NSTATS];
	struct rv_bucket *buckets;     /* non-empty buckets, ascending */
	size_t nbuckets;
	struct rv_neg neg;
	/* Moved out of memory (rv_ivals_spill): buckets and neg.buckets are
	 * NULL, and their nbuckets and neg.nbuckets buckets lie at spill_at in
	 * the view's ival_spill, so a long run's memory does not grow with
	 * its intervals' histograms. */
	bool spilled;
	int64_t spill_at;
};

struct rv_metric {
	char *name;
	enum metric_kind kind;
	struct rv_value counts[RV_NCSTATS]; /* a count's total, min, mean, max */
	uint64_t count, overflow;
	uint64_t highest;              /* largest value a bucket holds, units */
	double ns_per_unit, cycles_per_unit; /* finite; cycles_per_unit 0: no cycles */
	struct rv_value ns[RV_NSTATS], cycles[RV_NSTATS];
	struct rv_bucket *buckets;     /* non-empty buckets, ascending */
	size_t nbuckets;
	struct rv_neg neg;             /* samples below zero (count includes them) */
	size_t nruns;                  /* runs completed */
	uint64_t *run_count;           /* samples of each run; a count's count of it */
	struct rv_value *run_mean_ns;  /* mean of each run (absent without samples);
					* NULL for a count */
	struct rv_value *run_max_ns;   /* largest sample of each run (absent without
					* samples, and in results.json written before
					* it was kept); NULL for a count */
	/* The median whatever the sample count (ns[] has p50 only from 20
	 * samples), as summary.txt quotes it; absent without samples. */
	struct rv_value median_ns;
	/* The confidence interval of each percentile of ns[] (ci[RV_P99]; the
	 * others are never had), and the level they default to (RV_CI_LEVEL;
	 * 0: none kept, a results.json written before they were). */
	double ci_level;
	struct rv_ci ci[RV_NSTATS];
	/* Its intervals in time order (a run by time, or --interval); none
	 * for a count, or a requirement that kept none. */
	struct rv_ival *intervals;
	size_t nintervals;
	/* Not archived (results.json does not hold them, so 0 in a view read
	 * back): of the samples at or above zero their number, their sum and
	 * the largest, and the largest magnitude below zero, in units, as the
	 * live metrics give them (reports/openmetrics.c); a count's events in
	 * live_total; live_signed: the metric keeps samples below zero. */
	uint64_t live_count, live_max, live_neg_max, live_total;
	double live_sum;
	bool live_signed;
};

/* One CPU's histogram of the first metric, for probes that keep one per CPU
 * (timer-wakeup): min, mean, max, p99 in ns. */
#define RV_NSERIES_STATS 4
extern const char *const report_view_series_stats[RV_NSERIES_STATS];
enum { RVS_MIN, RVS_MEAN, RVS_MAX, RVS_P99 }; /* indices into it */

struct rv_series {
	int cpu;
	uint64_t count;
	struct rv_value ns[RV_NSERIES_STATS];
	/* The confidence interval of its p99 (ns[RVS_P99]), as a metric's;
	 * ci_level 0: none kept. */
	double ci_level;
	struct rv_ci p99_ci;
	/* The CPU's histogram, in metrics[0]'s units and scale (the merged
	 * histogram is the sum of the series): non-empty buckets, ascending,
	 * and the samples above `highest`. has_hist false: not known (a view
	 * read from a results.json written before the series carried their
	 * buckets). */
	bool has_hist;
	uint64_t overflow, highest;
	struct rv_bucket *buckets;
	size_t nbuckets;
	struct rv_neg neg;             /* samples below zero (count includes them) */
	struct rv_ival *intervals;     /* as the metric's, of this CPU alone */
	size_t nintervals;
};

/* The confidence interval of statistic stat (an index into
 * report_view_stats) of metric m; NULL when it has none. */
const struct rv_ci *rv_metric_ci(const struct rv_metric *m, int stat);

/* Why a limit has no figure to judge (FIGURE_HAVE: it has one). */
enum figure_lack {
	FIGURE_HAVE,
	FIGURE_NO_METRIC,   /* the limit names no metric the result holds */
	FIGURE_WRONG_KIND,  /* a count's limit with a unit, or a duration's without */
	FIGURE_NO_VALUE,    /* the statistic cannot be computed from the samples */
	FIGURE_NO_INTERVAL, /* its confidence interval cannot be computed */
};

/* The figure one limit of a requirement is judged on, in the limit's unit
 * (ns, cycles, or a count). */
struct limit_figure {
	enum figure_lack lack;
	int metric;             /* its metric's index; -1: none */
	enum metric_kind kind;  /* that metric's kind */
	bool no_cycles;         /* cycles were asked of a metric without them */
	uint64_t n;             /* the samples (a count: the runs) it is of */
	double value;           /* the statistic (lack FIGURE_HAVE or NO_INTERVAL) */
	/* With confidence= on a duration's percentile: judged on the interval
	 * (has_lo / has_hi false: no bound on that side), and the samples that
	 * would decide it were the interval to straddle a bound (0: none). */
	bool interval;
	bool has_lo, has_hi;
	double lo, hi;
	uint64_t need;
};

/* A requirement's numbers. Every array is malloc'd; free with summary_free. */
struct summary {
	bool filled;                   /* summary_fill has run */
	bool measured;                 /* the worker reported metrics */
	uint32_t runs;                 /* runs completed */
	uint64_t spec_runs, spec_duration_ns; /* asked of the worker (0: by time, by count) */
	unsigned batch_runs;           /* the runs with a batch figure */
	struct rv_value batch_mean_ns, batch_stddev_ns;
	struct rv_value *batch_run_ns; /* runs entries */
	struct rv_metric *metrics;
	size_t nmetrics;
	struct rv_series *series;      /* per CPU, of metrics[0] */
	size_t nseries;
	char note[512];                /* the probe's remark, "" for none */
	uint32_t verified;             /* tasks checked at the kernel before measuring */
	char violation[256];           /* the probe's words on a first violation, "" for none */
	size_t nlimits;
	struct limit_figure limits[REQ_MAX_LIMITS];
};

struct req_result;
/* Fill s from r: its result memory (nothing measured without one), its
 * requirement's limits and its probe's metric names. Safe on a running
 * worker's memory (the runs so far). 0, or -ENOMEM (s then holds part:
 * free it). */
int summary_fill(const struct req_result *r, struct summary *s);
/* r's numbers into s: a copy of those the judge took (r->sum), else
 * summary_fill's. 0 or -ENOMEM. */
int summary_of(const struct req_result *r, struct summary *s);
void summary_free(struct summary *s);
void summary_metrics_free(struct rv_metric *m, size_t n);
void summary_series_free(struct rv_series *s, size_t n);
void summary_ival_list_free(struct rv_ival *list, size_t n);

/* The batch figure of the original programs (docs/background.md) of a
 * result (total time / N, loop overhead subtracted), beside the per-sample
 * statistics: for each run, (t_end - t_begin) / iterations ticks minus
 * res->loop_ticks, scaled by metric 0's ns_per_unit. Gives the mean and the
 * sample stddev (0 with one run) over the runs that took samples. Returns
 * how many runs that was; 0 (and 0s) when there is nothing to compute from. */
unsigned summary_batch_ns(const struct req_result *r, double *mean_ns, double *stddev_ns);
/* The batch figure of run `run` alone; false when that run took no samples. */
bool summary_batch_run_ns(const struct req_result *r, uint32_t run, double *ns);
/* Runs a result completed (0 without result memory), at most RTC_MAX_RUNS. */
uint32_t summary_runs_done(const struct req_result *r);
/* The declaration of r's probe (its name, parameters, metrics); NULL when
 * the probe is unknown. */
const struct probe_decl *summary_decl(const struct req_result *r);
/* Metrics a result holds (0 without result memory). */
unsigned summary_nmetrics(const struct req_result *r);
/* Name of metric i of a result: the probe's ("per-op") or the harness's
 * ("page-faults"), or "m<i>" when the probe or that metric is unknown.
 * Returns a pointer to the declaration's string or to buf. */
const char *summary_metric_name(const struct req_result *r, unsigned i, char *buf, size_t len);

/* A requirement's intervals as they close (run): one list per duration
 * metric and per-CPU series of the result memory, moved into its view's
 * metrics and series once it is added (rv_ivals_move, reports/report.h). */
struct rv_ivals {
	unsigned nmetrics, nseries;
	struct rv_ival *list[RTC_MAX_METRICS + SUMMARY_MAX_SERIES];
	size_t n[RTC_MAX_METRICS + SUMMARY_MAX_SERIES];
	int cpu[SUMMARY_MAX_SERIES];
	uint64_t highest[RTC_MAX_METRICS + SUMMARY_MAX_SERIES]; /* of each list's block */
};
struct interval_out;
/* Add interval iv of result r (its count metrics keep none). 0 or -ENOMEM. */
int rv_ivals_add(struct rv_ivals *acc, const struct req_result *r, const struct interval_out *iv);
void rv_ivals_free(struct rv_ivals *acc);

#endif
