/* SPDX-License-Identifier: Apache-2.0 */
/* junit_props.h - the names of junit.xml's properties, written once for the
 * writer (junit.c) and the reader (junit_read.c). Internal to reports/.
 *
 * Each name is a printf format; the arguments are, in order, the
 * requirement id (ID), then what the comment says. docs/reports.md lists the
 * properties and their values.
 *
 * junit.xml is lean: per requirement a bounded set (its identity, verdict,
 * ID.limits, ID.runs, ID.metrics and one ID.M per metric, whose values are
 * "key=value" fields). The names marked "older files" are those rtconform
 * 0.1 wrote, one property per statistic plus histograms and per-run lists;
 * the reader still reads them.
 */
#ifndef RTC_JUNIT_PROPS_H
#define RTC_JUNIT_PROPS_H

/* The machine's readiness checks (check NAME), after the environment:
 * "LEVEL: finding", then the remedy when there is one. Suites of files
 * written before they were recorded have none. */
#define JP_READY_PREFIX "readiness."
#define JP_READY JP_READY_PREFIX "%s"
#define JP_READY_REMEDY_SUFFIX ".remedy"
#define JP_READY_REMEDY JP_READY JP_READY_REMEDY_SUFFIX

/* A host's suite of a fleet junit.xml (rtconform merge): the rtconform that
 * merged it, beside the host's own rtconform.version. */
#define JP_MERGE_VERSION "rtconform.merge.version"
#define JP_MERGE_COMMIT "rtconform.merge.commit"

/* The suite's requirements file, after the environment. */
#define JP_REQ_PATH "requirements.path"
#define JP_REQ_VERSION "requirements.version"
#define JP_REQ_SHA256 "requirements.sha256"

/* A requirement. */
#define JP_VERDICT "%s.verdict"
#define JP_PROBE "%s.probe"
#define JP_PARAM_PREFIX "%s.param."
#define JP_PARAM JP_PARAM_PREFIX "%s"          /* parameter name */
#define JP_POLICY "%s.policy"
#define JP_CPU "%s.cpu"
#define JP_SOURCE "%s.source"
#define JP_REASON "%s.reason"
#define JP_NOTE "%s.note"
#define JP_LOAD "%s.load.command"

/* Every limit, in file order: entries separated by JP_ENTRY_SEP and a blank,
 * each "metric=M statistic=S [max_UNIT=V] [min_UNIT=V] [measured_UNIT=V]
 * verdict=V [text=...]", UNIT "ns" or "cycles" (a limit on a count has no
 * unit and no suffix: "max=0"); text, the judge's sentence, runs to the end
 * of its entry. */
#define JP_LIMITS "%s.limits"
/* Metric M: "kind=duration count=N min_ns=V mean_ns=V p50_ns=V p99_ns=V
 * max_ns=V overflow=N" (a statistic too few samples allow is left out), or
 * "kind=count count=RUNS total=N min=N mean=V max=N" over the runs counted. */
#define JP_METRIC "%s.%s"                        /* M */

/* Keys of those fields. */
#define JP_K_METRIC "metric"
#define JP_K_STATISTIC "statistic"
#define JP_K_MAX "max"
#define JP_K_MIN "min"
#define JP_K_MEASURED "measured"
#define JP_K_VERDICT "verdict"
#define JP_K_TEXT "text"
#define JP_K_KIND "kind"
#define JP_K_COUNT "count"
#define JP_K_OVERFLOW "overflow"
#define JP_FIELD_SEP ' '    /* between fields */
#define JP_ENTRY_SEP ';'    /* between the entries of JP_LIMITS */

/* Older files: limit N (from 1); UNIT is "ns" or "cycles". A limit on a
 * count has no unit, and its bounds and value no suffix. */
#define JP_LIMIT_METRIC "%s.limit.%zu.metric"
#define JP_LIMIT_STATISTIC "%s.limit.%zu.statistic"
#define JP_LIMIT_MAX "%s.limit.%zu.max_%s"       /* N, UNIT */
#define JP_LIMIT_MIN "%s.limit.%zu.min_%s"       /* N, UNIT */
#define JP_LIMIT_MEASURED "%s.limit.%zu.measured_%s" /* N, UNIT */
#define JP_LIMIT_MAX_COUNT "%s.limit.%zu.max"    /* N */
#define JP_LIMIT_MIN_COUNT "%s.limit.%zu.min"    /* N */
#define JP_LIMIT_MEASURED_COUNT "%s.limit.%zu.measured" /* N */
#define JP_LIMIT_VERDICT "%s.limit.%zu.verdict"
#define JP_LIMIT_TEXT "%s.limit.%zu.text"

/* What the worker reported. */
#define JP_RUNS "%s.runs"
#define JP_METRICS "%s.metrics"
/* Older files: */
#define JP_BATCH_MEAN "%s.batch.runs_mean_ns"
#define JP_BATCH_STDDEV "%s.batch.runs_stddev_ns"
#define JP_BATCH_PER_RUN "%s.batch.per_run_ns"

/* Older files: metric M, its kind, "duration" or "count" (absent in older files: a
 * duration). A count metric has its statistics (JP_M_COUNT_STAT: total,
 * min, mean, max) and JP_M_RUN_COUNTS (each run's count) only. */
#define JP_M_KIND "%s.%s.kind"
#define JP_M_COUNT_STAT "%s.%s.%s"               /* M, statistic */
#define JP_M_COUNT "%s.%s.count"
#define JP_M_OVERFLOW "%s.%s.overflow"
#define JP_M_STAT "%s.%s.%s_%s"                  /* M, statistic, "ns" | "cycles" */
#define JP_M_NS_PER_UNIT "%s.%s.ns_per_unit"
#define JP_M_CYCLES_PER_UNIT "%s.%s.cycles_per_unit"
#define JP_M_HIST_HIGHEST "%s.%s.hist_highest"
#define JP_M_HIST "%s.%s.hist"
#define JP_M_RUN_COUNTS "%s.%s.run_counts"     /* samples of each run; a count's counts */
#define JP_M_RUN_MEANS "%s.%s.run_means_ns"

/* Older files: per-CPU series of the first metric M on CPU C. */
#define JP_S_PREFIX "%s.%s.cpu"                  /* M */
#define JP_S_COUNT_SUFFIX ".count"
#define JP_S_COUNT JP_S_PREFIX "%d" JP_S_COUNT_SUFFIX /* M, C */
#define JP_S_STAT JP_S_PREFIX "%d.%s_ns"         /* M, C, statistic */

/* Separators of the list values. */
#define JP_LIST_SEP ';'     /* items of a list */
#define JP_METRIC_SEP ','   /* names in JP_METRICS */
#define JP_BUCKET_SEP ':'   /* lo:hi:count of a bucket in JP_M_HIST */
#define JP_ABSENT "-"       /* a list item without a value */

#endif
