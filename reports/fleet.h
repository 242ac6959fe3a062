/* SPDX-License-Identifier: Apache-2.0 */
/* fleet.h - `rtconform merge`: the runs of many hosts in one fleet report.
 *
 * The inputs are read one at a time: each host's report view is read from
 * its results.json, what the fleet report shows of it is kept (its verdicts
 * and the figure each requirement's first limit judges), its whole
 * results.json and its junit suite are streamed to temporary files beside
 * the outputs, and the view is freed before the next input is read. So a
 * merge holds at most one input's histograms, whatever the number of
 * hosts. fleet_finish renders fleet.html from the summaries and renames the
 * three reports into place; until then nothing is in place, and fleet_free
 * removes what was begun. docs/fleet.md describes the outputs.
 */
#ifndef RTC_FLEET_H
#define RTC_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/report.h"

/* The value of a fleet results.json's "schema". */
#define FLEET_SCHEMA "urn:rtconform:fleet:1"

/* One requirement of a host, as the fleet report shows it. */
struct fleet_req {
	char *file, *id, *title;  /* title NULL when absent */
	enum verdict verdict;
	/* The limited figure: the first limit's statistic and what was
	 * measured; has_limit false for a requirement without limits. */
	bool has_limit;
	char *metric, *statistic;
	enum qty_unit unit;
	bool has_max, has_min;
	double max, min;
	struct rv_value measured;
	enum verdict limit_verdict;
};

struct fleet_host {
	char *name;      /* identity as shown, "#2".. appended to a repeated one */
	char *identity;  /* identity without that suffix */
	char *source;    /* the input as given */
	char *link;      /* its report.html relative to the output directory; NULL: none */
	unsigned seen;   /* 1: first host of this name, 2: the second, ... */
	struct fingerprint keys; /* host.label, host.name, host.id as recorded */
	struct report_totals totals;
	int exit_status;
	struct fleet_req *reqs;
	size_t nreqs;
};

struct fleet {
	char *outdir;          /* canonical */
	char *json_path, *junit_path, *html_path;
	const char *command;   /* the merge's command line, may be NULL */
	struct fleet_host *hosts;
	size_t nhosts, cap;
	struct report_stream json; /* results.json, streamed */
	FILE *suites;          /* the junit suites until the totals are known */
	struct report_totals totals;
};

/* The file names in the output directory. */
#define FLEET_HTML "fleet.html"
#define FLEET_JUNIT "junit.xml"
#define FLEET_JSON "results.json"

/* Begin a fleet report in outdir (which exists). 0, or -errno with err. */
int fleet_begin(struct fleet *fl, const char *outdir, const char *command, char *err,
		size_t errlen);
/* Add the view v read from source. A host whose name was added before (the
 * same host again, or another of that name) is kept under its name with
 * "#<n>" appended, and note says so (else note is ""). 0, or -errno with
 * err. */
int fleet_add(struct fleet *fl, const struct report_view *v, const char *source, char *note,
	      size_t notelen, char *err, size_t errlen);
/* Write fleet.html and put the three reports in place. 0, or -errno. */
int fleet_finish(struct fleet *fl, char *err, size_t errlen);
/* Free fl; reports not finished are removed. */
void fleet_free(struct fleet *fl);

/* 3 when a host has a requirement in error, else 1 when one failed, else 0. */
int fleet_exit_status(const struct fleet *fl);

/* fleet.html of the hosts added (fleet_html.c). NULL with why on failure. */
char *fleet_html_render(const struct fleet *fl, size_t *len, char *why, size_t whylen);

#endif
