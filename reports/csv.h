/* SPDX-License-Identifier: Apache-2.0 */
/* csv.h - the CSV export of a run, for spreadsheets and gnuplot.
 *
 * Rendered from the report view like every other report, but a directory of
 * files rather than one: for each duration metric of each measured
 * requirement a histogram (`lo_ns,hi_ns,count`, one row per non-empty
 * bucket), one `runs.csv` with the per-run figures of every requirement,
 * one `intervals.csv` with the statistics of every interval a requirement
 * kept (a run by time, --interval), one `confidence.csv` with the 95 %
 * confidence interval of every reported percentile, and an `index.csv` naming which
 * requirement and metric each histogram file holds. Names, columns and rules are in docs/reports.md ("CSV").
 */
#ifndef RTC_REPORT_CSV_H
#define RTC_REPORT_CSV_H

#include <stddef.h>

#include "reports/report.h"

/* The names of the three files every export has. */
#define REPORT_CSV_RUNS "runs.csv"
#define REPORT_CSV_INTERVALS "intervals.csv"
#define REPORT_CSV_INDEX "index.csv"
#define REPORT_CSV_CONFIDENCE "confidence.csv"

/* One file of the export: its name in the directory and its bytes. */
struct report_csv_file {
	char *name;
	char *data;
	size_t len;
};

struct report_csv {
	struct report_csv_file *files; /* histograms in view order, then runs.csv,
					* intervals.csv, confidence.csv, index.csv */
	size_t nfiles;
	/* Histograms whose view holds no buckets to account for their
	 * samples (per-CPU series of a results.json written before they
	 * carried buckets, buckets that do not add up to the count): no file
	 * is made for them, and they are not in index.csv. */
	size_t no_histogram;
};

/* The field a text value becomes (the file name, the id, the metric, the
 * histogram file's name in index.csv; numbers are written as they are):
 * RFC 4180, quoted only when it holds a ',', a '"', a CR or an LF, quotes
 * doubled; and neutralised for spreadsheets: wherever one could begin a
 * cell in it - at its start and after each ',', ';', CR or LF, blanks and
 * quotes there skipped - a '=', '+', '-', '@', tab or CR gets a ' in front
 * ("x;=1+1;y" becomes x;'=1+1;y), so that split on ',' or on ';', quoted
 * or not, no piece of it starts a formula. docs/reports.md ("CSV").
 * malloc'd; NULL out of memory. */
char *report_csv_text_cell(const char *s);

/* Render the export of view v into out. Returns 0 or -ENOMEM (out is then
 * empty). Free with report_csv_free either way. */
int report_csv_render(const struct report_view *v, struct report_csv *out);
void report_csv_free(struct report_csv *c);

/* The rule every report's path follows (report_check_writable), for the
 * export's directory: created if missing (one level, like -o), and a file
 * can be made in it. Returns 0 or -errno with a message naming it in err. */
int report_csv_check_dir(const char *dir, char *err, size_t errlen);

/* Render v and write each file into dir atomically (report_atomic_write),
 * histograms first and index.csv last; stops at the first file that cannot
 * be written. *no_histogram (may be NULL) gets report_csv.no_histogram.
 * Returns 0 or -errno with a message naming the file in err. */
int report_csv_write(const struct report_view *v, const char *dir, size_t *no_histogram,
		     char *err, size_t errlen);

#endif
