/* SPDX-License-Identifier: Apache-2.0 */
/* junit_props.h - the names of junit.xml's properties, for its writer
 * (junit.c). Internal to reports/. junit.xml is written for CI and never
 * read back: results.json is the archive every report renders from.
 *
 * Each name is a printf format; the arguments are, in order, the
 * requirement id (ID), then what the comment says. docs/reports.md lists the
 * properties and their values.
 *
 * junit.xml is lean: per suite a short set (which machine and build, the
 * verdicts, the readiness that is amiss, the file; the whole environment
 * is the suite's <system-out>), per requirement a bounded set (its
 * identity, verdict, ID.limits, ID.runs, ID.metrics and one ID.M per
 * metric, whose values are "key=value" fields).
 */
#ifndef RTC_JUNIT_PROPS_H
#define RTC_JUNIT_PROPS_H

/* The suite's verdicts as the run counted them: "passed=N failed=N
 * errors=N skipped=N". */
#define JP_VERDICTS "verdicts"
/* The machine's readiness, after the environment: the tally ("6 ok, 4
 * notes, 2 warnings, 0 failures"), then each check NAME that warns or
 * fails, "LEVEL: finding" (every check, with its remedy, is in the
 * suite's <system-out>). */
#define JP_READY_TALLY "readiness"
#define JP_READY "readiness.%s"

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
#define JP_PARAM "%s.param.%s"               /* parameter name */
#define JP_POLICY "%s.policy"
#define JP_CPU "%s.cpu"
#define JP_SOURCE "%s.source"
/* The clauses it cites (<clause ref=...>), in file order, "; " between
 * them; only when it cites one. */
#define JP_CLAUSES "%s.clauses"
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
 * [p99_lo_ns=V] [p99_hi_ns=V] max_ns=V overflow=N" (a statistic too few
 * samples allow is left out, and so is a side of p99's 95 % confidence
 * interval that has no bound), or
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

/* What the worker reported. */
#define JP_RUNS "%s.runs"
#define JP_METRICS "%s.metrics"
#define JP_METRIC_SEP ','   /* between the names in JP_METRICS */

#endif
