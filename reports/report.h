/* SPDX-License-Identifier: Apache-2.0 */
/* report.h - what report writers get, and the writers.
 *
 * A run produces one report_run: the requirement files in command-line
 * order, each with the results of its requirements, plus the environment.
 * It is turned into one report view (below), which every writer renders.
 * Writers never measure and never change results. Each report is written to
 * a temporary file in the target directory and renamed into place, so a
 * killed rtconform never leaves a truncated report.
 */
#ifndef RTC_REPORT_H
#define RTC_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <locale.h>
#include <stdio.h>
#include <time.h>

#include "harness/runner.h"
#include "harness/summary.h"
#include "harness/measure/timebase.h"
#include "host/fingerprint.h"
#include "host/readiness.h"
#include "base/numfmt.h"

struct report_file {
	const struct req_file *file;
	struct req_result *results; /* file->nreqs entries */
	size_t nresults;            /* results that exist (== nreqs, or fewer with --only) */
};

struct report_run {
	struct report_file *files;
	size_t nfiles;
	const struct timebase *tb;
	const struct fingerprint *env;
	const struct readiness *ready; /* `rtconform env`'s checks at the start; NULL: none */
	time_t started, ended;       /* UTC */
	const char *command_line;    /* exact command, shell-quoted */
};

/* Counts over every result. passed counts the verdicts pass (results.json's
 * totals, junit.xml's, the exit status); no_limits how many of them were
 * measured with no limits to judge, which what people read does not call
 * passed (report_totals_text). */
struct report_totals {
	size_t tests, passed, failures, errors, skipped;
	size_t inconclusive;           /* VERDICT_INCONCLUSIVE */
	size_t no_limits;
	double seconds;
};
void report_totals(const struct report_run *run, const struct report_file *only,
		   struct report_totals *t);
/* Count one result of verdict v with nlimits limits that took `seconds`
 * into t. */
void report_totals_add(struct report_totals *t, enum verdict v, size_t nlimits, double seconds);
/* The counts as people read them: "2 passed, 1 measured without limits, 0
 * failed, 1 inconclusive, 1 error, 0 skipped" (passed: those judged on
 * limits; "measured without limits" and "inconclusive" only when there is
 * one), the one wording of the summary line, the
 * HTML header, junit.xml's verdicts property and merge's host lines. */
void report_totals_text(const struct report_totals *t, char *buf, size_t len);


/* Exit status of a run: 3 if any error, else 1 if any failure, else 4 if
 * any inconclusive, else 0. */
int report_exit_status(const struct report_run *run);

/* "fifo:99", "rr:max" (not yet resolved), "other"; for a probe whose
 * measured tasks run under a policy of their own, that one ("deadline
 * 1ms/5ms/10ms", "rr:81": probe_decl.policy). */
void report_policy_text(const struct req_result *r, char *buf, size_t len);
/* A limit as every report words it: "per-op mean <= 50 us", "wakeup p99
 * in [1 us, 50 us] at 95%" (confidence > 0: judged on its interval at that
 * level), "per-op max (no bound)"; min and max NULL where the limit has no
 * such bound. */
void report_limit_text(const char *metric, const char *statistic, const struct quantity *min,
		       const struct quantity *max, double confidence, char *buf, size_t len);
/* The anchor of requirement i of file f in report.html ("r1-2"), which
 * junit.xml's link to it names too (report.html#r1-2). */
char *report_html_anchor(unsigned f, unsigned i, char *buf, size_t len);
/* The verdict table (id, probe, policy, each limit vs measured, verdict) of a
 * view, as `rtconform run` prints it on stdout and summary.txt begins. */
struct report_view;
void report_write_text(const struct report_view *v, FILE *out);
/* The same, with the closing line giving the exit status the run ends with
 * and its meaning, when that is not the verdicts' own (a report could not be
 * written); status < 0 or meaning NULL: the verdicts'. The VERDICT column
 * is in colour when `colour` (a terminal that did not ask for NO_COLOR:
 * the caller decides; files never get colour). */
void report_write_text_colour(const struct report_view *v, FILE *out, int status,
			      const char *meaning, bool colour);
/* The SGR sequence that colours verdict v on a terminal (pass green, fail
 * red, error yellow, inconclusive magenta; "" for skipped), and the one that ends it. */
const char *report_verdict_sgr(enum verdict v);
#define REPORT_SGR_RESET "\033[0m"

/* Statistics and ASCII histogram of one result, as `rtconform probe`
 * prints them. */
void report_write_result_detail(const struct req_result *r, FILE *out);
/* junit.xml's <system-out> of a requirement: what junit.xml keeps of it
 * (limits with the judge's sentences, the key statistics of each metric,
 * the note and the trace) and a line saying the histograms and per-run
 * figures are in results.json. */
struct rv_req;
void report_write_req_brief(const struct rv_req *r, FILE *out);

/* ---- the report view ----------------------------------------------------
 *
 * Everything a report shows, as plain data: junit.xml, summary.txt (and the
 * table `run` prints), report.html and results.json are rendered from a view
 * alone. `run` fills it once from the results (report_view_from_run) and
 * renders all four from it; `rtconform report` fills it from a results.json
 * (reports/read/read.h), which holds the whole view, so every report it
 * renders is the same bytes as the one `run` wrote. junit.xml keeps a part
 * of the view for CI and is never read back.
 *
 * Numbers are kept at full precision; each writer formats them its own way
 * (junit.xml "%.3f", the HTML and text as people read them, results.json
 * with the fewest digits that read back as the same double). Strings are
 * valid UTF-8 (a byte that is not becomes U+FFFD); the XML writers clean
 * them further to what XML 1.0 allows and the text writer replaces control
 * characters.
 */


struct rv_limit {
	char *metric;                  /* resolved: the probe's first when the file named none */
	char *statistic;               /* canonical name: "p99.9" */
	bool has_max, has_min;
	struct quantity max, min;      /* ns, cycles, or a count (no unit) */
	bool cycles;                   /* the bounds (and measured) are cycles */
	bool count;                    /* ... are a count: no unit */
	struct rv_value measured;
	/* confidence="95%": the level (0.95), 0 for a limit judged on its
	 * point estimate; then the interval it was judged on (lower, upper:
	 * absent on a side too few samples bound) and, for an inconclusive
	 * one, the samples that would decide it (0: none would). */
	double confidence;
	struct rv_value lower, upper;
	uint64_t need;
	enum verdict verdict;          /* of this limit alone */
	char *text;                    /* the judge's sentence, may be NULL */
};

/* The unit of a limit's bounds and measured value. */
enum qty_unit rv_limit_unit(const struct rv_limit *l);

struct rv_param {
	char *name, *value;
};


/* A clause of a specification a requirement checks (requirements/model.h,
 * struct req_clause): ref, and title or NULL. */
struct rv_clause {
	char *ref, *title;
};

struct rv_req {
	char *id, *title, *source;     /* title, source: NULL when absent */
	struct rv_clause *clauses;     /* in the order the file gives them */
	size_t nclauses;
	char *probe, *policy;          /* policy "fifo:99", "other", "deadline 1ms/5ms/10ms" */
	int cpu;                       /* -1: not pinned */
	char *reason, *note, *load;    /* NULL when absent */
	/* Trace on breach: the saved trace's name (trace-<ID>.txt, in the
	 * directory of the run's report.html) and what became of the trace
	 * ("trace: tripped by ...", "trace: not available: ..."); NULL when
	 * none was saved / none was asked for. Read from a results.json, trace
	 * may be anything: it is linked and attached only when report_trace_ok
	 * (reports/link.h) accepts it. */
	char *trace, *trace_note;
	/* The saved trace's breach explained (harness/explain.h): where the
	 * breaching sample's time went; NULL when none was. results.json's
	 * `explain`, report.html's "why" block, summary.txt's and the
	 * terminal's line, junit.xml's top cause (docs/explain.md). */
	struct explain *explain;
	/* Whether the reports link and attach trace: set by
	 * report_view_find_traces (reports/link.h) once the directory the
	 * traces lie in is known; until then (RV_TRACE_UNCHECKED) nothing is
	 * linked or attached. */
	enum rv_trace_link {
		RV_TRACE_UNCHECKED,
		RV_TRACE_LINKED,    /* a name of ours, a regular file there */
		RV_TRACE_NOT_OURS,  /* not a name a run gives (report_trace_ok) */
		RV_TRACE_NO_FILE,   /* ours, but no regular file of that name there */
	} trace_link;
	struct rv_param *params;       /* effective values, defaults applied */
	size_t nparams;
	/* The sample plan it was measured by (requirements/model.h, defaults
	 * applied): results.json's "plan"; have false in a view of a file
	 * written before it was kept. duration_ns 0: runs by count. */
	struct rv_plan {
		bool have;
		uint64_t iterations, runs, warmup, duration_ns;
	} plan;
	enum verdict verdict;
	/* Left out by `run --only`: skipped, never run. The terminal table
	 * folds these into one line, junit.xml leaves them out unless asked
	 * (report_view.junit_not_selected). */
	bool not_selected;
	double seconds;
	bool measured;                 /* there are metrics (the worker reported) */
	uint32_t runs;                 /* runs completed */
	struct rv_value batch_mean_ns, batch_stddev_ns;
	struct rv_value *batch_run_ns; /* runs entries */
	struct rv_limit *limits;
	size_t nlimits;
	struct rv_metric *metrics;
	size_t nmetrics;
	struct rv_series *series;      /* per CPU, of metrics[0] */
	size_t nseries;
};


/* The runs with a batch figure: 0 for a probe that has none (timer-wakeup
 * counts no iterations). */
unsigned rv_req_batch_runs(const struct rv_req *r);

/* The limit that decides r's verdict (the one a fleet report shows, and
 * compare quotes for a verdict that changed): of the limits whose verdict
 * weighs most (limit_weight: fail, then error, then pass, as
 * verdict_of_limits combines them), one that has no
 * measured value (could not be evaluated), else the one furthest past its
 * bound (limit_excess): for a failed requirement the failing limit missed
 * by the most relative to its bound, for a passed one the limit nearest its
 * bound. The first of equals; SIZE_MAX for a requirement without limits.
 * docs/fleet.md, "Fleet reports". */
size_t rv_req_deciding_limit(const struct rv_req *r);

struct rv_file {
	char *name, *path, *version, *sha256; /* version may be NULL */
	int64_t started;               /* UTC seconds its first requirement started
					* (else the run's); 0: unknown */
	struct rv_req *reqs;
	size_t nreqs;
};

/* One readiness check of the machine (host/readiness.h), as `rtconform env`
 * prints it. */
struct rv_check {
	char *name;                    /* "sched_fifo", "preempt", ... */
	enum ready_level level;
	char *finding;
	char *remedy;                  /* NULL: nothing to do */
};

/* The files `run` wrote that a requirement's evidence names
 * (reports/traceability.h): each report's path relative to the directory
 * of report.html (the traces' directory), and the CSV export's directory
 * relative to it; NULL for one not written, or written outside that
 * directory (a relative link to it could not be made). Archived in
 * results.json's "outputs"; all NULL in a view of a results.json written
 * before it was kept. Each is report_evidence_path_ok. */
enum report_kind { REPORT_JUNIT, REPORT_SUMMARY, REPORT_HTML, REPORT_JSON, REPORT_NKINDS };
struct rv_outputs {
	char *report[REPORT_NKINDS];
	char *csv;
};

struct report_view {
	struct rv_file *files;
	size_t nfiles;
	struct rv_outputs outputs;
	struct fingerprint env;        /* environment, in junit.xml's order */
	/* The readiness checks taken at the start of the run, in their order;
	 * ready_recorded false: the report predates them ("not recorded"). */
	bool ready_recorded;
	struct rv_check *ready;
	size_t nready;
	/* Not part of the archive (results.json does not hold it): the
	 * absolute directory this command finds the traces in, which
	 * junit.xml's attachment lines name them by; NULL: none is attached.
	 * Set with each trace's trace_link by report_view_find_traces: `run`
	 * gives the directory it saved them in (report.html's), the reader
	 * that of the results.json it read. Freed with the view. */
	char *trace_dir;
	/* Not part of the archive either: junit.xml lists the requirements
	 * left out by --only (rv_req.not_selected) as skipped test cases
	 * (run and report --junit-skipped); false: it leaves them out. */
	bool junit_not_selected;
	/* Not part of the archive either: the KCIDB origin the submission's
	 * ids begin with (run and report --kcidb-origin); NULL:
	 * REPORT_KCIDB_ORIGIN. Not owned. */
	const char *kcidb_origin;
	/* Not part of the archive either: where `run` moved its intervals'
	 * buckets (rv_ival.spilled), read back as results.json is written;
	 * NULL: every interval keeps its buckets in memory. Not owned. */
	FILE *ival_spill;
};

/* How many checks of v are at each level; true when one is a warning or a
 * failure (the reports then show the checks before the verdicts). */
bool report_view_ready_counts(const struct report_view *v, size_t count[READY_NLEVELS]);

/* Fill v from a finished run. Returns 0 or -ENOMEM (v is then empty). */
int report_view_from_run(const struct report_run *run, struct report_view *v);

/* The same, one result at a time, so that a run keeps of a finished
 * requirement only what the reports show (its non-empty buckets, not its
 * result memory): begin with the run's files (each gets room for all its
 * requirements), add each result to its file in order as it finishes, and
 * finish once the run's environment is complete (run->files is not read).
 * Each returns 0 or -ENOMEM; on failure free v with report_view_free. */
int report_view_begin(struct report_view *v, struct req_file *const *files, size_t nfiles);
int report_view_add(struct report_view *v, size_t file, const struct req_result *r);
int report_view_finish(struct report_view *v, const struct report_run *run);
/* The view of one result alone (for `rtconform probe`'s detail). Returns 0
 * or -ENOMEM; free with report_view_req_free either way. */
int report_view_req_from_result(const struct req_result *r, struct rv_req *out);
void report_view_req_free(struct rv_req *r);

void report_view_free(struct report_view *v);

/* Move the buckets of acc's latest interval of each list to the end of
 * spill (rv_ival.spilled); an interval that cannot be written keeps them. */
void rv_ivals_spill_last(struct rv_ivals *acc, FILE *spill);
/* Read the buckets of a spilled interval back (malloc'd into *pos and *neg,
 * iv's counts of each). 0 or -errno. */
int rv_ival_unspill(const struct rv_ival *iv, FILE *spill, struct rv_bucket **pos,
		    struct rv_bucket **neg);
/* Move acc's lists into vr (the view of the same result); acc is empty after. */
void rv_ivals_move(struct rv_ivals *acc, struct rv_req *vr);

/* What the reader (reports/read/read.h) says when its input holds the results of more than
 * one host (host/fingerprint.h: fingerprint_same_host): a view, and every
 * report rendered from it, is of one host, and attributing one host's
 * figures to another's fingerprint is the mistake this prevents. */
#define REPORT_ONE_HOST_HINT \
	"a report is of one host's run; a fleet report of several hosts is made with " \
	"rtconform merge"

/* Totals and exit status of a view, as report_totals gives for a run. */
void report_view_totals(const struct report_view *v, struct report_totals *t);
void report_view_file_totals(const struct rv_file *f, struct report_totals *t);
int report_view_exit_status(const struct report_view *v);
/* True when v passed with no limit to judge: no requirement that ran had
 * one (an ad-hoc `rtconform probe`, a file without limits). Its reports
 * then say so (verdict_label_of's rule for the whole run) instead of PASS. */
bool report_view_no_limits(const struct report_view *v);
/* The run's verdict as people read it: "PASS", "FAIL" or "ERROR" of its
 * exit status, or VERDICT_LABEL_NO_LIMITS when report_view_no_limits. */
const char *report_view_status_label(const struct report_view *v);
/* The meaning of exit status `status` of v (verdict_exit_meaning), said of
 * a run that measured without limits when report_view_no_limits, and
 * without calling those passed when only some had none. */
const char *report_view_exit_meaning(const struct report_view *v, int status);

/* ---- the writers ---------------------------------------------------------
 *
 * Each renders a view into a malloc'd, NUL-terminated buffer (*len bytes),
 * or returns NULL with the reason in why (out of memory; for results.json
 * also a count beyond what it can hold). report_write renders one and writes
 * it atomically; the named forms are report_write for one kind. They return
 * 0 or -errno with a message naming path in err.
 */
/* enum report_kind: with the view (struct rv_outputs) above. */

/* A report's file name in a report directory (-o DIR of run and probe):
 * junit.xml, summary.txt, report.html, results.json. */
const char *report_kind_file_name(enum report_kind kind);

char *report_junit_render(const struct report_view *v, size_t *len, char *why, size_t whylen);
char *report_summary_render(const struct report_view *v, size_t *len, char *why,
			    size_t whylen);
char *report_html_render(const struct report_view *v, size_t *len, char *why, size_t whylen);
char *report_json_render(const struct report_view *v, size_t *len, char *why, size_t whylen);
/* results.json onto out as report_json_render gives it, built and printed
 * one requirement at a time (a whole tree of a large run takes several
 * times its text). 0, or -1 with why. */
int report_json_put(const struct report_view *v, FILE *out, char *why, size_t whylen);
/* One requirement's object as results.json's files[].requirements[] holds
 * it, on one line (compact), malloc'd with its length in *len; NULL with
 * why. The journal's records (reports/journal.h). */
char *report_json_requirement(const struct rv_req *r, size_t *len, char *why, size_t whylen);
/* The journal's record of an interval: the last interval of each list of
 * acc (of result r), as {"metrics": {NAME: interval}, "per_cpu": {CPU:
 * interval}} with each interval as results.json's intervals[] hold it. */
char *report_json_ivals_last(const struct rv_ivals *acc, const struct req_result *r, size_t *len,
			     char *why, size_t whylen);
/* report.html and junit.xml the same way, written onto f as they are made. */
int report_html_put(const struct report_view *v, FILE *f, char *why, size_t whylen);
int report_junit_put(const struct report_view *v, FILE *f, char *why, size_t whylen);

/* The counts of the test cases junit.xml lists of v: every requirement
 * but those `run --only` left out, unless v->junit_not_selected. An
 * inconclusive one is a <failure> there, so it counts in failures
 * (inconclusive stays 0). */
void report_junit_totals(const struct report_view *v, struct report_totals *t);

/* One <testsuite> of a fleet junit.xml (rtconform merge, across/merge.c):
 * every requirement of v junit.xml lists (report_junit_totals), the suite named `host`, each testcase's classname
 * "<host>.<file>.<probe>" so CI viewers keep the hosts apart; properties
 * the input (`source`) and the host's identity; `index` its id among the
 * suites. Written to out as a fragment. 0, -ENOMEM or -EIO. */
int report_junit_host_suite(const struct report_view *v, const char *host, const char *source,
			    size_t index, FILE *out);
/* The fleet junit.xml onto out: <testsuites name="rtconform fleet"> with
 * the totals t (report_junit_totals summed over the hosts) around the
 * suites report_junit_host_suite wrote into the file suites. 0 or -EIO. */
int report_junit_fleet_put(const struct report_totals *t, FILE *suites, FILE *out);

/* LAVA's test results (reports/lava.c), in the Linaro test-definitions
 * form a test's steps hand to lava-test-case: for each requirement a line
 * "<ID>-<metric>-<statistic> <pass|fail|skip> [<value> <unit>]" per limit,
 * then "<ID> <pass|fail|skip>"; an error is fail, and its reason a line
 * beginning "# ". docs/fleet.md has the rules. */
int report_write_lava(const struct report_view *v, const char *path, char *err, size_t errlen);

/* A KCIDB submission (reports/kcidb.c; KernelCI's I/O schema v5.3, in
 * tests/schemas/kcidb/): the running kernel as its checkout and build, a
 * test object per requirement (id "<origin>:<run>:<ID>", path
 * "rtconform.<file>.<ID>", status from the verdict, the deciding figure).
 * docs/reports.md, "KCIDB", has the mapping. */
int report_write_kcidb(const struct report_view *v, const char *path, char *err, size_t errlen);
/* The origin a submission names unless --kcidb-origin gives another, and
 * whether s is one KCIDB takes (letters a-z, digits, '_'; not empty). */
#define REPORT_KCIDB_ORIGIN "rtconform"
bool report_kcidb_origin_ok(const char *s);

int report_write(enum report_kind kind, const struct report_view *v, const char *path,
		 char *err, size_t errlen);
int report_write_junit(const struct report_view *v, const char *path, char *err, size_t errlen);
int report_write_json(const struct report_view *v, const char *path, char *err, size_t errlen);

/* Write `len` bytes to path atomically (temp file in the same directory,
 * fsync, rename). Returns 0 or -errno. */
int report_atomic_write(const char *path, const void *data, size_t len);
/* Render with render() and write atomically to path; on failure err says
 * "cannot write 'PATH': ..." (building WHAT failed, or why the write
 * failed) and a negative errno is returned. Every report file is written
 * through it. */
int report_render_write(char *(*render)(const struct report_view *v, size_t *len, char *why,
					size_t whylen),
			const char *what, const struct report_view *v, const char *path,
			char *err, size_t errlen);

/* The same for a report written piece by piece (rtconform merge streams
 * its inputs through): open gives a stdio stream on a hidden temporary file
 * beside path; commit flushes, syncs and renames it into place; abort
 * removes it. Each returns 0 or -errno; after commit or abort (or a failed
 * open) st holds nothing. */
struct report_stream {
	FILE *f;
	char *tmp, *path, *dir;
	int dirfd; /* dir, opened (no planted link followed): written relative to it */
	bool sealed; /* written and synced, not yet in place */
};
int report_stream_open(struct report_stream *st, const char *path);
int report_stream_commit(struct report_stream *st);
void report_stream_abort(struct report_stream *st);
/* commit in two steps, for reports that land together or not at all:
 * seal each (written, synced, closed; on failure removed), then publish
 * each (renamed into place). abort removes a sealed one not published. */
int report_stream_seal(struct report_stream *st);
int report_stream_publish(struct report_stream *st);

/* Directory dir opened as every output's is, one component at a time, a
 * symbolic link followed only where no other user can have planted it (its
 * directory written by us and root alone, or sticky and the link ours);
 * create: its last component made when missing (one level). The fd, to
 * write relative to, or -errno; -ELOOP with why naming the link refused
 * (why "" otherwise). */
int report_open_dir(const char *dir, bool create, char *why, size_t whylen);

/* Probe that path's directory exists (creating one level for -o) and is
 * writable, before anything is measured. */
int report_check_writable(const char *path, char *err, size_t errlen);

#endif
