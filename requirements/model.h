/* SPDX-License-Identifier: Apache-2.0 */
/* model.h - the requirement model: what a requirements file says, after
 * loading. Plain data; every string is owned by the struct that holds it and
 * freed by req_file_free(). Line numbers point into the source file for
 * diagnostics. Nothing here knows about probes: requirements/validate.c
 * checks a loaded file against a catalogue of probe declarations.
 */
#ifndef RTC_MODEL_H
#define RTC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sched.h>

#include "base/policy.h"
#include "base/probe_decl.h"
#include "base/statistic.h"
#include "base/units.h"

#define REQ_MAX_PARAMS 16
#define REQ_MAX_LIMITS 32
#define REQ_MAX_ITERATIONS 100000000ull /* 1e8 samples per run */
#define REQ_MAX_CLAUSES 16
#define REQ_CLAUSE_REF_MAX 128   /* characters of a clause's ref= */
#define REQ_CLAUSE_TITLE_MAX 256 /* ... of its title= */

/* The policies a requirement may ask for, by the kernel's numbers (their
 * names: policy_name, base/policy.h). */
enum sched_policy { POLICY_OTHER = SCHED_OTHER, POLICY_FIFO = SCHED_FIFO, POLICY_RR = SCHED_RR };

struct req_param {
	char *name;
	char *value;
	long line;
};

struct req_limit {
	char *metric;             /* NULL: the probe's first metric */
	struct statistic stat;
	char *stat_text;          /* as written */
	bool has_max, has_min;
	struct quantity max, min; /* inclusive bounds */
	char *max_text, *min_text;
	/* confidence="95%": judge a percentile on its confidence interval at
	 * this level (0.95), not on its point estimate; 0: none (the point
	 * estimate). Only on a percentile (STAT_PCT). confidence_text as
	 * written, NULL when absent (also when it came from <defaults>). */
	double confidence;
	char *confidence_text;
	long line;
	/* Added by rtconform, not written in the file: the "total <= 0" of a
	 * probe's violation metric (validate_implicit_limits); line is the
	 * requirement's. */
	bool implicit;
};

/* A background load (issue: timer wake-up under load). */
struct req_load {
	char *tool;  /* "stress-ng" */
	char *args;  /* split on whitespace, no shell */
	long line;
};

/* <trace/>: arm a kernel trace while the requirement is measured
 * (docs/measurement.md). The trip of a duration metric is `threshold`
 * when given, else the tightest time max= of the metric's limits. */
struct req_trace {
	bool wanted;              /* the element is there */
	char *metric;             /* only this metric; NULL: every duration metric */
	bool has_threshold;
	double threshold_ns;      /* > 0 when has_threshold */
	char *threshold_text;     /* as written, NULL when absent */
	long line;
};

/* <clause ref="POSIX.1-2017 XSH 2.8.4" title="Process Scheduling"/>: a
 * clause of a specification the requirement checks (docs/requirements.md,
 * "Clauses"); the reports trace each clause to the verdict and evidence of
 * the requirements that cite it. ref is unique within a requirement. */
struct req_clause {
	char *ref;
	char *title; /* NULL when absent */
	long line;
};

struct requirement {
	char *id;
	char *title;   /* may be NULL */
	char *source;  /* may be NULL */
	struct req_clause clauses[REQ_MAX_CLAUSES];
	size_t nclauses;
	char *probe;
	long probe_line;
	struct req_param params[REQ_MAX_PARAMS];
	size_t nparams;
	enum sched_policy policy;
	bool priority_max;    /* priority="max" */
	int priority;         /* when !priority_max; 0 for other */
	int cpu;              /* -1: not pinned */
	long sched_line;
	uint64_t iterations, runs, warmup; /* defaults applied */
	uint64_t timeout_ns;
	/* Run by time: keep doing runs of `iterations` until this much time
	 * has passed (runs is then not used); 0: `runs` runs. duration_line is
	 * the line of the element that set it. */
	uint64_t duration_ns;
	long duration_line;
	/* Keep the figures of every interval this long beside the totals
	 * (<run interval>); 0: the default, 1 min intervals for a run by time
	 * and none for a run by count (harness: runner_interval). */
	uint64_t interval_ns;
	struct req_limit limits[REQ_MAX_LIMITS];
	size_t nlimits;
	struct req_load *load; /* requirement's own, else the file's, else NULL (not owned when shared) */
	bool load_owned;
	struct req_trace trace;
	long line;
};

struct req_file {
	char *path;       /* as given on the command line, or "<built-in default>" */
	char *name;       /* <requirements name=...> */
	char *version;
	char *title;
	unsigned char sha256[32];
	struct req_load *load; /* file-wide load, or NULL */
	struct requirement *reqs;
	size_t nreqs;
};

/* Built-in defaults when a file says nothing. */
#define REQ_DEFAULT_ITERATIONS 2000u
#define REQ_DEFAULT_RUNS 10u
#define REQ_DEFAULT_WARMUP 100u
#define REQ_DEFAULT_TIMEOUT_NS (60ull * 1000000000ull)

#define LOAD_TOOL "stress-ng"
#define LOAD_MAX_ARGS 64
#define LOAD_MAX_ARGS_LEN 1024

/* NULL when a load element can be run, else why not, in buf: the tool is
 * not stress-ng, args are empty, too many or too long, or hold a character
 * a reader would take for shell syntax (quotes, ;, |, &, $, `, <, >,
 * parentheses, braces, backslash): there is no shell, so they would reach
 * stress-ng literally. */
const char *load_spec_problem(const struct req_load *l, char *buf, size_t len);

/* SCHED_* constant for a policy. */
int req_sched_policy(enum sched_policy p);

/* The priority to use: "max" -> sched_get_priority_max(policy); other: 0. */
int req_priority(const struct requirement *r);

/* The value of parameter `name`, or NULL. */
const char *req_param(const struct requirement *r, const char *name);

/* The trip of metric `metric` of r, in ns, when its trace is armed (by
 * <trace/> or `run --trace`): 0 when that metric is not traced. `first`
 * says the metric is the probe's first (the one a limit without metric=
 * means). Only time bounds count: a limit in cycles or a count has no
 * trip. The caller asks for duration metrics only. */
double req_trip_ns(const struct requirement *r, const char *metric, bool first);

void req_file_free(struct req_file *f);

#endif
