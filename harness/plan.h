/* SPDX-License-Identifier: Apache-2.0 */
/* plan.h - how many samples a requirement's percentile limits will take,
 * what that many can establish, and how many they need: for `rtconform
 * validate` (and --plan) before a run, and for the progress line of a run
 * by time that says when it has enough.
 *
 * The arithmetic is base/orderstat.h's (exact order-statistic bounds); the
 * samples are the ones the runner will take (runner_counts, runner_duration,
 * probe_decl_metric_samples), and for a run by time the estimate of them
 * from the probe's pace (harness/estimate.h): an estimate, never a promise.
 *
 * The planning rule (docs/measurement.md, "Confidence bounds, planning and
 * what the maximum means"): enough samples are the fewest for which the
 * upper bound's rank counted from the top is within PLAN_FRAC of the
 * point estimate's (os_plan_samples): p99.9 at 95 % about 384,000.
 */
#ifndef RTC_PLAN_H
#define RTC_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/runner.h"
#include "requirements/model.h"

/* The level a limit's bounds are planned at when it names none, and how
 * near the bound must come to the estimate, in ranks from the top. */
#define PLAN_LEVEL_DEFAULT 0.95
#define PLAN_FRAC 0.10

/* The confidence level of limit l's bounds (0 < level < 1). The one place
 * that takes a limit's level: every plan and progress line asks it. */
double plan_limit_level(const struct req_limit *l);

/* What one percentile limit of a requirement will take and needs. */
struct plan_limit {
	double q, level;          /* the quantile (0.999) and the level (0.95) */
	bool by_time;             /* the requirement runs by time */
	bool known;               /* the samples are known (by count) or estimated */
	bool per_cpu;             /* the metric takes its samples on each measured CPU:
				   * the figures are those of one CPU */
	uint64_t iterations, runs; /* the runner's counts (runs: by count only) */
	uint64_t per_it;          /* samples an iteration */
	uint64_t samples;         /* what the setting takes (by time: the estimate) */
	uint64_t need;            /* os_plan_samples(q, level, PLAN_FRAC) of a max=,
				   * of 1 - q for a min= (its lower bound), the
				   * larger of both */
	uint64_t duration_ns;     /* by time: the setting */
	double run_s;             /* by time: the estimated seconds a run */
	uint64_t need_iterations; /* by count: iterations a run the plan needs at these
				   * runs; 0: more than REQ_MAX_ITERATIONS */
	double need_s;            /* by time: the seconds the plan needs (estimate) */
	bool reaches;             /* the setting takes at least `need` */
};

/* The plan of limit l of requirement r under options o (NULL: the file's
 * counts). False when l is not a percentile (the plan is of percentiles
 * only) or r's probe is not known. By time without a pace, known is false
 * and only need is set. */
bool plan_limit(const struct requirement *r, const struct req_limit *l,
		const struct run_options *o, struct plan_limit *out);

/* The samples a run by time must take for the plan of each of r's
 * percentile limits, in r's limit order: 0 for a limit that is not one. */
void plan_needs(const struct requirement *r, uint64_t need[REQ_MAX_LIMITS]);

/* n with a comma between thousands: "384,000". */
void plan_fmt_count(uint64_t n, char *buf, size_t len);

/* "1st", "2nd", "3rd", "4th", "11th", "21st"... */
void plan_fmt_ordinal(uint64_t k, char *buf, size_t len);

/* n rounded to three significant digits, as "about" a count says it. */
uint64_t plan_round3(uint64_t n);

/* What n samples establish of the q-quantile at level, one sentence:
 * "p99.9 with 10,000 samples: the estimate is the 11th largest sample, its
 *  95% upper bound the 4th largest; the bound comes within 10% of the
 *  estimate's rank at about 384,000 samples"
 * and "...; too few samples for an upper bound at 95%; ..." when there is
 * none. */
void plan_describe(uint64_t n, double q, double level, char *buf, size_t len);

/* The setting of a limit, one sentence: "10,000 samples (5 runs x 2,000
 * iterations)", "about 120,000 samples in 1 min (runs of 2,000 iterations
 * of about 0.5 s, from the probe's pace)", with " on each measured CPU"
 * for a per-CPU metric. */
void plan_setting_text(const struct plan_limit *p, char *buf, size_t len);

/* What the plan needs, and whether the setting reaches it:
 * "needs about 384,000 samples: iterations=\"76800\" at 5 runs (the file's
 *  2000 is short of the plan)" or "...: a duration of about 3.2 min (the
 *  file's 1 min reaches it)". */
void plan_need_text(const struct plan_limit *p, char *buf, size_t len);

#endif
