/* SPDX-License-Identifier: Apache-2.0 */
/* validate.h - check a loaded requirements file against the probes it may
 * name (a catalogue of probe declarations the caller passes in): known
 * probe, known parameters with allowed values, combinations the probe
 * accepts, limits on metrics the probe has, a runnable load. Appends
 * "file:line: message" diagnostics naming what was expected; returns the
 * number of problems. */
#ifndef RTC_VALIDATE_H
#define RTC_VALIDATE_H

#include "base/diag.h"
#include "base/probe_decl.h"
#include "requirements/model.h"

size_t validate_file(const struct req_file *f, const struct probe_catalog *cat,
		     struct diag_list *d);

/* Whether limit l of a requirement of probe p (NULL, or a metric p has
 * not: one sample an iteration) can get the samples its statistic needs (10 / (1 - q) for
 * pQ, statistic_min_samples) from a requirement measured with these
 * counts: NULL when it can or cannot be told short, else a sentence
 * ("p99.999 needs at least 1000000 samples, ...", with the iterations that
 * would suffice) in buf. The samples are probe_metric_samples'. By count
 * (duration_ns 0) they are known, and *sure is set, unless the metric
 * takes one per measured CPU (PROBE_PER_CPU: on one CPU it is short, on
 * enough it is not, which only the run knows); by time they are known
 * only when it runs, so it is short when one run of `iterations` is,
 * saying how many runs must fit. validate_file refuses what is sure to be
 * short; validate_warnings and run warn of the rest. */
const char *validate_samples_short(const struct req_limit *l, const struct probe_decl *p,
				   uint64_t iterations, uint64_t runs, uint64_t duration_ns,
				   char *buf, size_t len, bool *sure);

/* What may make a valid file's verdicts errors though nothing is wrong
 * with it, as "file:line: warning: requirement ID: ..." lines appended to
 * d: a limit whose statistic the planned samples may be too few for
 * (validate_samples_short when not sure; what is sure to be short was
 * refused by validate_file). Returns how many. */
size_t validate_warnings(const struct req_file *f, const struct probe_catalog *cat,
			 struct diag_list *d);

/* Give every requirement of f whose probe declares violation metrics
 * (probe_decl.violation_metrics) the limit "total <= 0" on each of them it
 * sets no limit on itself (req_limit.implicit), so such a count fails the
 * requirement whatever else its limits say. For a file validate_file
 * accepted. Returns 0, or the number of requirements with no room left for
 * one (REQ_MAX_LIMITS), each with a diagnostic in d. */
size_t validate_implicit_limits(struct req_file *f, const struct probe_catalog *cat,
				struct diag_list *d);
/* Remove and free the limits validate_implicit_limits added, for a caller
 * that does not free f with req_file_free (rtconform probe's requirement
 * lives on its stack). */
void validate_implicit_limits_free(struct req_file *f);

/* Whether requirements of probe p may run by time (<run duration>,
 * --duration): NULL when they may, else why not, in buf. */
const char *validate_by_time(const struct probe_decl *p, char *buf, size_t len);

#endif
