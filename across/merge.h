/* SPDX-License-Identifier: Apache-2.0 */
/* merge.h - `rtconform merge`: the runs of many hosts in one fleet report.
 *
 * The inputs are read one at a time: each host's report view is read from
 * its results.json, what the fleet report shows of it is kept (its verdicts,
 * each requirement's limits and which of them decided), its whole
 * results.json and its junit suite are streamed to temporary files beside
 * the outputs, and the view is freed before the next input is read. So a
 * merge holds at most one input's histograms, whatever the number of
 * hosts. merge_finish renders fleet.html from the summaries and renames the
 * three reports into place; until then nothing is in place, and merge_free
 * removes what was begun. docs/fleet.md describes the outputs.
 */
#ifndef RTC_MERGE_H
#define RTC_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/report.h"

/* One limit of a host's requirement: its statistic, bounds, what was
 * measured and its verdict. */
struct merge_limit {
	char *metric, *statistic;
	enum qty_unit unit;
	bool has_max, has_min;
	double max, min;
	struct rv_value measured;
	enum verdict verdict;
};

/* One requirement of a host, as the fleet report shows it. */
struct merge_req {
	char *file, *id, *title;  /* title NULL when absent */
	enum verdict verdict;
	struct merge_limit *limits; /* every limit, in the file's order */
	size_t nlimits;
	/* The limit that decides the verdict (rv_req_deciding_limit), whose
	 * figure the host's cell shows; SIZE_MAX without limits. */
	size_t decides;
};

struct merge_host {
	char *name;      /* identity as shown, "#2".. appended to a repeated one */
	char *identity;  /* identity without that suffix */
	char *source;    /* the input as given */
	char *link;      /* its report.html relative to the output directory; NULL: none */
	unsigned seen;   /* 1: first host of this name, 2: the second, ... */
	struct fingerprint keys; /* host.label, host.name, host.id as recorded */
	struct report_totals totals;
	int exit_status;
	/* The host's run measured without a limit to judge
	 * (report_view_no_limits), and what its exit status means as its own
	 * reports say it (report_view_exit_meaning). */
	bool no_limits;
	const char *meaning;
	struct merge_req *reqs;
	size_t nreqs;
};

struct merge {
	char *outdir;          /* canonical */
	char *json_path, *junit_path, *html_path;
	const char *command;   /* the merge's command line, may be NULL */
	struct merge_host *hosts;
	size_t nhosts, cap;
	struct report_stream json; /* results.json, streamed */
	FILE *suites;          /* the junit suites until the totals are known */
	struct report_totals totals; /* of the results: each host's verdict of each
				      * of its requirements */
	size_t nrequirements;  /* each (file, id) once, however many hosts have it
				* (merge_finish) */
	struct report_totals junit_totals; /* of the test cases junit.xml lists
					    * (report_junit_totals) */
};

/* The file names in the output directory. */
#define MERGE_HTML "fleet.html"
#define MERGE_JUNIT "junit.xml"
#define MERGE_JSON "results.json"

/* Begin a fleet report in outdir (which exists). 0, or -errno with err. */
int merge_begin(struct merge *mg, const char *outdir, const char *command, char *err,
		size_t errlen);
/* Add the view v read from source. A host whose name was added before (the
 * same host again, or another of that name) is kept under its name with
 * "#<n>" appended, and note says so (else note is ""). 0, or -errno with
 * err. */
int merge_add(struct merge *mg, const struct report_view *v, const char *source, char *note,
	      size_t notelen, char *err, size_t errlen);
/* Write fleet.html and put the three reports in place. 0, or -errno. */
int merge_finish(struct merge *mg, char *err, size_t errlen);
/* Free mg; reports not finished are removed. */
void merge_free(struct merge *mg);

/* The fleet's counts as every fleet report says them, once merge_finish
 * counted the requirements: "3 requirements on 2 hosts, 6 results: 2
 * passed, 2 failed, 2 errors, 0 skipped" (fleet.html, merge's last line). */
void merge_counts_text(const struct merge *mg, char *buf, size_t len);
/* 3 when a host has a requirement in error, else 1 when one failed, else 0. */
int merge_exit_status(const struct merge *mg);
/* The fleet's verdict as people read it: "FAIL" or "ERROR" of its exit
 * status; when it passed, VERDICT_LABEL_NO_LIMITS if no host that measured
 * anything had a limit to judge (each such host's own reports say so:
 * report_view_status_label), else "PASS". */
const char *merge_status_label(const struct merge *mg);

/* fleet.html of the hosts added (merge_html.c), written onto f as it is
 * made. 0, or -errno with why. */
int merge_html_put(const struct merge *mg, FILE *f, char *why, size_t whylen);

#endif
