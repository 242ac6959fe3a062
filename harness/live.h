/* SPDX-License-Identifier: Apache-2.0 */
/* live.h - a requirement's figures so far, read by the supervisor from the
 * result memory while its worker still measures: what `rtconform run`
 * shows on a terminal (cli/progress.c), never what a report says.
 *
 * The worker does nothing for it but one relaxed store of each sample
 * (metric_data.last, probe.h); the histogram's count, min, max and sum it
 * keeps anyway. The supervisor reads those without any lock, so a snapshot
 * may mix a sample's count with the sum before it: a live figure can be off
 * by the few samples recorded while it is read, and is repaired by the next
 * snapshot. The report's figures are read after the worker ended.
 */
#ifndef RTC_LIVE_H
#define RTC_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/measure/probe.h"

/* Most lines of live figures (a machine with more CPUs than fit shows the
 * first ones and says how many more there are). */
#define LIVE_MAX_FIGS 16

/* One metric's figures so far, or one CPU's series of a per-CPU probe. */
struct live_fig {
	const char *name;  /* the metric's name (the probe's declaration) */
	int cpu;           /* the series' CPU; -1: the metric, all CPUs */
	bool count;        /* a count metric: one value per run, events, no unit */
	uint64_t n;        /* samples so far (runs, for a count metric) */
	double min, cur, mean, max; /* ns, or events for a count metric */
};

/* The live figures of the worker that fills res, for probe p: each metric
 * (probe's and harness's) in order, except that a per-CPU probe's metric 0,
 * which it merges only at its end, is shown as its series, one per CPU.
 * At most max figures into figs; returns how many there are in all (more
 * than max when some did not fit). A metric whose scale the probe has not
 * set yet counts as having no samples. */
size_t live_snapshot(const struct result_shm *res, const struct probe *p,
		     struct live_fig *figs, size_t max);

/* How much of recorded run `run` the worker of res has measured, from 0
 * to 1: the samples of metric 0 in that run (a per-CPU probe: of each
 * series it uses, the least) against the samples a run takes, which is
 * run 0's count once run 0 ended (a metric may take more than one sample
 * an iteration), else `iterations`. 0 for a count metric 0 (it records at
 * a run's end), or when nothing is known yet. */
double live_run_part(const struct result_shm *res, const struct probe *p, uint32_t run,
		     uint64_t iterations);

/* Samples so far of metric i (probe_decl_metric's numbering) of the
 * worker of res, for probe p: its histogram's count (and its negative
 * one's); a per-CPU probe's metric 0, merged only at its end, is the sum
 * of its series. 0 for a count metric, a metric past the result's, or
 * before the probe set its scale. */
uint64_t live_metric_samples(const struct result_shm *res, const struct probe *p, uint32_t i);
/* The samples of metric i on each measured CPU, for a metric a probe takes
 * on every CPU (probe_decl_metric_samples' per_cpu: metric 0 of a
 * per_cpu_series probe): the fewest any CPU's series has so far (0 before
 * any series); live_metric_samples for any other metric. */
uint64_t live_metric_samples_each_cpu(const struct result_shm *res, const struct probe *p,
				      uint32_t i);

/* Metric i's figures so far (probe_decl_metric's numbering) into f: a
 * per-CPU probe's metric 0 as its series merged (the least min, the
 * largest max, the mean over all samples). false for a metric past the
 * result's; f->n 0 before any sample. */
bool live_metric_fig(const struct result_shm *res, const struct probe *p, uint32_t i,
		     struct live_fig *f);
/* The live view's column heads, then one figure as a line of it, without
 * a newline, at most 78 columns for names up to 22 characters:
 *   "  metric                   samples        min        cur       mean        max"
 *   "  wakeup cpu 1                1200     2.1 us     3.0 us    2.95 us    14.2 us"
 *   "  page-faults               3 runs          0          0        0.0          0"
 * Before the first sample (or the probe's scale) the figures are "-". */
void live_header(char *buf, size_t len);
void live_format(const struct live_fig *f, char *buf, size_t len);

#endif
