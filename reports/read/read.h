/* SPDX-License-Identifier: Apache-2.0 */
/* read.h - a run read back: results.json into the report view
 * (reports/report.h), for `rtconform report`, `compare` and `merge`.
 *
 * A module of its own (reports/read/, module `read`) above the writers:
 * reports/ renders a view and never reads a file back, and the layers test
 * holds it to that. junit.xml is written for CI and never read back.
 */
#ifndef RTC_READ_H
#define RTC_READ_H

#include <stddef.h>
#include <stdio.h>

#include "reports/report.h"

/* The reader (json_read.c, read.c). Each returns 0, or -errno / -EINVAL
 * with a message in err naming the file and what in it could not be read
 * (v is then empty).
 *
 * results.json: strict, every field checked for presence and type; gives
 * back the exact view results.json was written from. */
int report_view_from_json(const char *path, struct report_view *v,
			  char *err, size_t errlen);
/* The same from f, size bytes (name in messages); with derive, results.json's
 * totals and exit status are not checked but made anew from the verdicts
 * (a run read back from its journal, whose head was written before any
 * verdict). f stays open. */
int report_view_from_json_file(FILE *f, size_t size, const char *name, bool derive,
			       struct report_view *v, char *err, size_t errlen);
/* A run read back from its journal (reports/journal.h): what the journal
 * said of it. */
struct journal_recovery {
	bool complete;        /* every requirement finished (its end record) */
	char summary[1600];   /* how far the run got, as the environment's
			       * rtconform.journal says it */
};
/* The journal directory path names, malloc'd: path itself when it holds a
 * journal's log, path/journal when path is a run's directory with one, the
 * directory of a journal's log named; NULL when path names no journal. */
char *journal_dir_of(const char *path);
/* The view of the run whose journal is in directory jdir: its head with
 * every finished requirement in place and the one cut short as its latest
 * whole checkpoint left it; rtconform.interrupted "yes" (unless every
 * requirement finished), rtconform.ended when the journal was last
 * written, rtconform.journal the summary. 0, or -errno / -EINVAL with err
 * naming the file and the record. */
int report_view_from_journal(const char *jdir, struct report_view *v,
			     struct journal_recovery *out, char *err, size_t errlen);
/* The journal's files as bytes (NULL: the file is not there), log_name
 * naming the log in messages. */
struct journal_files {
	const char *log_name;
	const char *log, *now[2], *note;
	size_t log_len, now_len[2], note_len;
	const char *unread; /* now or lost files there but not read, and why
			     * ("now.1 (not a regular file (a FIFO))"); NULL: none */
};
/* The same from the files' bytes (the fuzzer's way in): every byte read
 * lies inside them, and the work is linear in their length. */
int report_view_from_journal_bytes(const struct journal_files *jf, const char *jdir,
				   struct report_view *v, struct journal_recovery *out, char *err,
				   size_t errlen);
/* The same for an input the user names: an XML file (a junit.xml or an
 * HTML page, written and never read back) is refused with REPORT_XML_REFUSED,
 * anything else that is not a JSON object as not a results.json. */
int report_view_read(const char *path, struct report_view *v, char *err, size_t errlen);
/* Whose results.json path is, by its "schema", without reading it whole
 * (a fleet's holds every host's run): the first member of the object, as
 * both writers put it (json.c, across/merge.c), found in the file's first
 * READ_SCHEMA_PEEK bytes. READ_NONE: there is no such file; READ_OTHER: a
 * file whose schema is not found there or is none of rtconform's (another
 * program's, a version this rtconform does not know, or unreadable). */
enum read_kind { READ_NONE, READ_RUN, READ_FLEET, READ_OTHER };
#define READ_SCHEMA_PEEK 4096
enum read_kind read_results_kind(const char *path);
/* path opened for reading (its size in *size) by safeopen_regular
 * (base/safeopen.h): only a regular file, never through a symbolic link in
 * its last component, a FIFO never blocking. Else NULL, *rc -errno and err
 * "PATH: not a regular file (a FIFO)" or the like. */
FILE *read_open(const char *path, size_t *size, char *err, size_t errlen, int *rc);
/* The numbers a results.json may hold (json_read.c refuses any other, naming
 * the field and the value), so that no scale, axis, ratio or sum of the
 * reports can overflow, divide by zero or run away. docs/reports.md gives
 * the reasons; in short:
 * - every real is 0 or of a magnitude from READ_REAL_MIN to READ_REAL_MAX:
 *   a sample's value (a 64-bit count of units) times the largest scale
 *   stays below 2e25 ns, a mean or standard deviation of such values above
 *   1e-34 ns; products and ratios of two such reals are finite;
 * - ns_per_unit is from READ_SCALE_MIN to READ_SCALE_MAX, cycles_per_unit
 *   0 (no cycles: not the TSC) or in that range: the harness makes them
 *   ns per tick (1 for the clock, 1e9 / the TSC's Hz: 0.01 at 100 GHz,
 *   1000 at 1 MHz) times a factor from 1 down to 1 / 2^40 (coop-sched's
 *   largest block; overhead's batch is at most 1e7), so 9e-15 .. 1000;
 * - arrays hold no more than the harness can write: a histogram at most
 *   READ_MAX_BUCKETS buckets, a requirement at most RTC_MAX_RUNS runs,
 *   REQ_MAX_LIMITS limits, RTC_MAX_METRICS metrics, REQ_MAX_PARAMS params
 *   and READ_MAX_SERIES per-CPU series. */
#define READ_REAL_MIN 1e-40
#define READ_REAL_MAX 1e40
#define READ_SCALE_MIN 1e-15
#define READ_SCALE_MAX 1e6
/* A histogram of 64-bit values has (64 - 8) * 128 + 256 = 7424 buckets
 * (harness/measure/histogram.c); per-CPU series: one per CPU of the host. */
#define READ_MAX_BUCKETS 8192u
#define READ_MAX_SERIES 4096u
/* A run writes some 50 environment keys (host.*, rtconform.*, timebase.*,
 * two per requirements file) and at most READY_MAX_CHECKS (24) readiness
 * checks; far more is no run's, and each entry costs every writer. */
#define READ_MAX_ENTRIES 4096u
/* Intervals of one metric: a week (--duration's most) of 1 s intervals. */
#define READ_MAX_INTERVALS (7u * 24u * 3600u)
/* A count (a count metric's statistics, a count limit's bounds and measure)
 * is held as a double, exact up to 2^53; the writers give it back as the
 * integer it is, so a larger one would come back as another number. */
#define READ_MAX_COUNT 9007199254740992.0

/* The memory reading a results.json may take (jansson's trees of it and
 * the view built from them, counted as the allocator's chunks):
 * READ_MEM_RATIO times the file's size plus READ_MEM_FLOOR. The text is
 * parsed one requirement at a time (json_split.h), so a results.json as
 * rtconform writes it, indented or compact, takes less than its size (125
 * MB: a peak RSS of 67 MB for `report --summary`); a file of tiny elements
 * ({} or [1,2,3] by the million, 25 to 70 times its size as a tree) is
 * refused as soon as it passes the budget, before it can take the
 * machine's memory. With the process's own few MiB, and the reports
 * written onto their files as they are made, a peak RSS within 4 x the
 * file + 24 MiB (cli.untrusted_size). */
#define READ_MEM_RATIO 3u
#define READ_MEM_FLOOR ((size_t)16 << 20)

/* What checking a results.json's confidence intervals may cost: each
 * interval's ranks and coverage are computed again (os_quantile_bounds), in
 * time that grows as the square root of its sample count (4 ms for 1e9
 * samples, 62 ms for 2^40, 5 s for 2^53 on a 2-core VM). An interval of
 * more than RV_CI_MAX_SAMPLES samples is no run's, and a file whose
 * intervals add up to more than READ_CI_WORK units of sqrt(samples) (about
 * 10 s there; a week of 1 kHz wake-ups on 64 CPUs is 1/40 of it) is
 * refused rather than read for minutes. read_ci_work_set sets another
 * limit (tests; 0: READ_CI_WORK). */
#define READ_CI_WORK ((double)(1u << 26))
void read_ci_work_set(double units);

#define REPORT_XML_REFUSED \
	"XML, not a results.json: junit.xml and report.html are written for people and CI, " \
	"never read back; render from the run's results.json"

#endif
