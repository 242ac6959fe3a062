/* SPDX-License-Identifier: Apache-2.0 */
/* junit.h - the one JUnit writer: every junit.xml rtconform writes (a run's
 * and report's, merge's fleet, compare's, selftest's record) is made of
 * these elements, in the shape both CI schemas accept (junit.c's head says
 * which attributes each takes, and why; tests/schemas/junit.xsd encodes
 * it). Values from outside are cleaned and defused by the writer
 * (xw_render_junit, reports/xmlw.h).
 *
 * A document: junit_begin, then per suite junit_suite_begin, its
 * junit_prop()s, junit_props_end, its test cases (junit_case_begin, at
 * most one of junit_skipped / junit_error / junit_failure, a system-out
 * (report_junit_system_out, reports/link.h), junit_case_end), and
 * junit_suite_end; then junit_end. */
#ifndef RTC_JUNIT_H
#define RTC_JUNIT_H

#include <stddef.h>

#include "reports/xmlw.h"

/* What a <testsuites> or <testsuite> counts. */
struct junit_counts {
	size_t tests, failures, errors, skipped;
	double seconds;
};

/* The XML declaration and <testsuites name tests failures errors time>
 * (neither schema takes `skipped` there). */
void junit_begin(struct xw *x, const char *name, const struct junit_counts *c);
/* </testsuites>, the document ended and flushed. */
void junit_end(struct xw *x);

/* A <testsuite>: name, its counts, timestamp and hostname (NULL: left
 * out), id and package; its <properties> opened (Jenkins wants at least
 * one: the caller writes them, then junit_props_end). */
struct junit_suite {
	const char *name;
	struct junit_counts c;
	const char *timestamp; /* "YYYY-mm-ddTHH:MM:SS", UTC without a zone */
	const char *hostname;
	size_t id;
	const char *package;
};
void junit_suite_begin(struct xw *x, const struct junit_suite *s);
/* <property name value/>; value NULL: "". */
void junit_prop(struct xw *x, const char *name, const char *value);
void junit_props_end(struct xw *x);
void junit_suite_end(struct xw *x);

/* <testcase name classname time> (time: seconds, never negative nor NaN). */
void junit_case_begin(struct xw *x, const char *name, const char *classname, double seconds);
/* A test case's verdict, when it did not pass: <skipped>reason</skipped>
 * (Jenkins' takes no attributes), <error type message/>, <failure type
 * message/> (the message once, in the attribute). */
void junit_skipped(struct xw *x, const char *reason);
void junit_error(struct xw *x, const char *type, const char *message);
void junit_failure(struct xw *x, const char *type, const char *message);
void junit_case_end(struct xw *x);

/* seconds as `time` takes them: SUREFIRE_TIME admits no sign, NaN or
 * exponent. */
double junit_seconds(double s);

#endif
