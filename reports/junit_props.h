/* SPDX-License-Identifier: Apache-2.0 */
/* junit_props.h - the names of junit.xml's properties, for its writer
 * (junit.c). Internal to reports/. junit.xml is written for CI and never
 * read back: results.json is the archive every report renders from.
 *
 * Each name is a printf format; the arguments are, in order, the
 * requirement id (ID), then what the comment says. docs/reports.md lists the
 * properties and their values.
 *
 * junit.xml is lean (issue 41): per suite at most a screen of properties
 * (which machine and build, the verdicts, the readiness summary, the
 * requirements file, the report); per test case, at the head of its
 * <system-out> (neither CI schema lets a <testcase> hold properties), its
 * verdict, the deciding figure and limit, the cause and the link to
 * report.html. Everything else of a requirement, and the whole
 * environment, is in results.json and report.html.
 */
#ifndef RTC_JUNIT_PROPS_H
#define RTC_JUNIT_PROPS_H

/* The suite's verdicts as the run counted them: "passed=N failed=N
 * errors=N skipped=N". */
#define JP_VERDICTS "verdicts"
/* The machine's readiness: the tally ("6 ok, 4 notes, 2 warnings, 0
 * failures"), then "; warn: NAME, NAME; fail: NAME" for the checks that
 * warn or fail (every check, with its finding and remedy, is in
 * results.json and report.html). */
#define JP_READY_TALLY "readiness"

/* A host's suite of a fleet junit.xml (rtconform merge): the rtconform that
 * merged it, beside the host's own rtconform.version. */
#define JP_MERGE_VERSION "rtconform.merge.version"
#define JP_MERGE_COMMIT "rtconform.merge.commit"

/* The suite's requirements file, after the environment. */
#define JP_REQ_PATH "requirements.path"
#define JP_REQ_VERSION "requirements.version"
#define JP_REQ_SHA256 "requirements.sha256"

/* The report beside junit.xml, and the suite's property naming it. */
#define JUNIT_REPORT "report.html"
#define JP_REPORT "report"

/* A test case's lines, "KEY: value", at the head of its <system-out>. */
#define JP_CASE_VERDICT "verdict"
#define JP_CASE_FIGURE "figure" /* the deciding limit's metric and the judge's sentence */
#define JP_CASE_LIMIT "limit"   /* that limit's words (report_limit_text) */
#define JP_CASE_CAUSE "cause"   /* the reason of what did not pass */
#define JP_CASE_REPORT "report" /* ./report.html#ANCHOR */

#endif
