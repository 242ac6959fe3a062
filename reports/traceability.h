/* SPDX-License-Identifier: Apache-2.0 */
/* traceability.h - the traceability matrix of a run: for each clause of a
 * specification that a requirement cites (<clause ref=...>,
 * requirements/model.h), the requirements that cite it, each with its
 * probe, verdict and evidence (the files of the run that support it).
 *
 * One function builds it from a view (report_traceability), and every
 * report shows what it gives: results.json's "traceability", report.html's
 * "Traceability" section, summary.txt's block. The reader of results.json
 * builds it again from the requirements it read and refuses a stored one
 * that differs (reports/read/json_read.c). docs/reports.md
 * ("Traceability") has the rules.
 */
#ifndef RTC_REPORT_TRACEABILITY_H
#define RTC_REPORT_TRACEABILITY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "reports/report.h"

/* Evidence paths a report names: at most this long. */
#define RV_EVIDENCE_PATH_MAX 512
/* At most this many per requirement: the four reports, the trace, the
 * CSV export's index. */
#define RV_EVIDENCE_MAX 6

/* A requirement as the matrix cites it: where it is in the view. */
struct rv_cite {
	size_t file, req; /* v->files[file].reqs[req] */
};

/* One clause: its ref, its title (the first a citing requirement gives;
 * NULL: none gives one), the requirements citing it in view order. The
 * strings point into the view. */
struct rv_trace_row {
	const char *ref, *title;
	struct rv_cite *cites;
	size_t ncites;
};

/* Rows ascending by ref (bytes, strcmp); untraced: the requirements that
 * cite no clause, in view order. */
struct rv_matrix {
	struct rv_trace_row *rows;
	size_t nrows;
	struct rv_cite *untraced;
	size_t nuntraced;
};

/* Build the matrix of v into m. 0 or -ENOMEM (m is then empty); free with
 * rv_matrix_free either way. */
int report_traceability(const struct report_view *v, struct rv_matrix *m);
void rv_matrix_free(struct rv_matrix *m);

/* True when some requirement of v cites a clause: the reports then show
 * the matrix (results.json always holds it). */
bool report_view_traced(const struct report_view *v);

/* The evidence of requirement r of v: the paths, relative to report.html's
 * directory, of the files of the run that support its verdict, in this
 * order: results.json, report.html, junit.xml, summary.txt as the run
 * wrote them there (v->outputs), its saved kernel trace when it has one
 * whose name is a run's (report_trace_ok), and, when it was measured and
 * the CSV export lies there, the export's index.csv (which names its
 * histogram files). Each path is written into out[k] (RV_EVIDENCE_PATH_MAX
 * bytes each); returns how many. trace (may be NULL): set to the index of
 * the trace among them, or -1. */
size_t report_evidence(const struct report_view *v, const struct rv_req *r,
		       char out[RV_EVIDENCE_MAX][RV_EVIDENCE_PATH_MAX], int *trace);

/* Whether p may be an output's path in v->outputs (and so a link of
 * report.html): relative, at most RV_EVIDENCE_PATH_MAX - 16 bytes, of
 * components that are neither empty, "." nor "..", with no byte below
 * 0x20, no DEL, valid UTF-8, no '\\' and no ':' (no scheme); a report's (dir false) is
 * one component; a directory may be "." (report.html's own). */
bool report_evidence_path_ok(const char *p, bool dir);

/* results.json's "traceability" of v: {"clauses": [{ref, title,
 * requirements: [{file, id, probe, verdict, evidence}]}], "untraced":
 * [{file, id, probe, verdict, evidence}]}. NULL out of memory. */
json_t *report_traceability_json(const struct report_view *v);

/* One entry of it: {file, id, probe, verdict, evidence} of requirement c
 * of v, as the matrix holds it (the reader compares a stored matrix entry
 * by entry, never holding a second whole tree). NULL out of memory. */
json_t *report_traceability_cite_json(const struct report_view *v, struct rv_cite c);

/* The clause refs of r joined by "; " into buf (junit.xml's ID.clauses). */
void report_clauses_text(const struct rv_req *r, char *buf, size_t len);

#endif
