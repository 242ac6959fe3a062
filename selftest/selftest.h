/* SPDX-License-Identifier: Apache-2.0 */
/* selftest.h - `rtconform selftest`: known-answer tests of the tool's own
 * detection, run on the target with the installed programs, and the
 * validation record they leave (docs/qualification.md, "Selftest: the
 * validation record").
 *
 * cli/selftest.c is the command; selftest_run.c runs the cases and prints
 * the terminal's table, selftest_cases.c holds the table of cases and what
 * each expects, selftest_record.c writes the record (validation.json,
 * junit.xml, validation.html, MANIFEST.sha256), selftest_read.c reads it
 * back and verifies it. */
#ifndef RTC_SELFTEST_SELFTEST_H
#define RTC_SELFTEST_SELFTEST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "harness/verdict.h" /* enum rtc_exit */
#include "host/fingerprint.h"

/* The variable only selftest sets in the environment of the runs it
 * starts: the fault libraries act, and `run` takes the fault worker, only
 * when it is set; such a run records it (rtconform.injected_faults). */
#define SELFTEST_FAULTS_ENV "RTC_SELFTEST_FAULTS"
/* The fault libraries selftest preloads, in the helper directory. */
#define SELFTEST_LIB_SCHED "rtconform-fault-sched.so"
#define SELFTEST_LIB_CLOCK "rtconform-fault-clock.so"
#define SELFTEST_LIB_IPC "rtconform-fault-ipc.so"

enum st_verdict { ST_PASS, ST_FAIL, ST_NOT_RUN, ST_ERROR };
const char *st_verdict_name(enum st_verdict v);

/* What one case found. */
struct st_outcome {
	enum st_verdict verdict;
	char expected[600];   /* the known answer, in words and figures */
	char observed[1200];  /* what the run gave, the same way */
	char why[400];        /* not run / error: why */
	double seconds;
	char evidence[64];    /* the case's directory, relative to the record */
	unsigned attempt;     /* a case that may run again (the delay cases):
			       * its attempt, from 1; its run goes to run/
			       * (the first), run-2/, ... */
};

/* What every case is given. */
struct st_env {
	const char *self_dir; /* rtconform-worker and the fault libraries; NULL: unknown */
	const char *dir;      /* the record's directory (absolute) */
	char self[PATH_MAX];  /* this rtconform (/proc/self/exe) */
	bool root;            /* euid 0 */
	bool rt;              /* the worker gets real-time scheduling and locked
			       * memory: root, or CAP_SYS_NICE and CAP_IPC_LOCK
			       * on rtconform-worker (docs/privileges.md) */
	char rt_why[300];     /* when not: why */
};

/* Run every case with e (e->rt and e->rt_why worked out first), print the
 * table on stdout and write the record into e->dir (st_write_record).
 * SIGINT, SIGTERM and SIGHUP end the case running and skip the rest; the
 * record is still written. The exit status (st_tally; 3 when the record
 * could not be written). */
int st_selftest(struct st_env *e);

/* What a case needs to run. */
enum st_priv {
	ST_PRIV_NONE,
	ST_PRIV_RT,   /* real-time privileges for the worker (st_env.rt) */
	ST_PRIV_ROOT, /* root: it preloads a fault library (which a worker with
		       * file capabilities ignores: secure execution), runs
		       * rtconform-worker-faults, which has no capabilities, or
		       * a probe that needs root (must-fail's priority-wake
		       * reads its waiters' /proc/PID/task/TID/syscall, which a
		       * worker with file capabilities may not) */
};
const char *st_priv_name(enum st_priv p);

struct st_case {
	const char *id;
	const char *function; /* the function validated, in words */
	const char *injects;  /* what the case injects */
	enum st_priv priv;
	void (*run)(const struct st_env *e, const struct st_case *c, struct st_outcome *o);
};

/* The table (selftest_cases.c). */
extern const struct st_case st_cases[];
extern const size_t st_ncases;
/* The case trace-worst (selftest_trace.c). */
void st_case_trace_worst(const struct st_env *e, const struct st_case *c, struct st_outcome *o);

/* ---- what the cases share (selftest_cases.c) ---- */

/* A known answer against what was observed: pass when equal, fail
 * otherwise; the expected and observed text appended to o. The one
 * comparison every case's verdict goes through (tests/test_selftest.c
 * shows each can fail). */
bool st_expect_u64(struct st_outcome *o, const char *what, uint64_t expected,
		   uint64_t observed);
/* observed >= bound. */
bool st_expect_min(struct st_outcome *o, const char *what, double bound, double observed,
		   const char *unit);
/* Two strings equal. */
bool st_expect_str(struct st_outcome *o, const char *what, const char *expected,
		   const char *observed);
/* A text found in another (a message). */
bool st_expect_has(struct st_outcome *o, const char *what, const char *needle,
		   const char *hay);
/* Append printf text to buf (of size len), "; " between entries. */
void st_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The case cannot be judged: error, with why. */
void st_error(struct st_outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- running a case (selftest_run.c) ---- */

/* Make the case's directory DIR/cases/ID (its path in path, o->evidence
 * set). 0, or -1 with o an error. */
int st_case_dir(const struct st_env *e, const struct st_case *c, struct st_outcome *o,
		char *path, size_t len);
/* Write text to path. 0, or -1 with o an error. */
int st_write_text(struct st_outcome *o, const char *path, const char *text);
/* Run argv (argv[0] a path) with our environment less every fault
 * variable (LD_PRELOAD, RTC_FAKE_*, RTC_SELFTEST_FAULTS), plus envs[]
 * ("K=V", NULL-terminated; NULL: none); stdout and stderr into log. Its
 * exit status, or -1 (killed, not started) with o an error. */
int st_spawn(struct st_outcome *o, char *const argv[], char *const envs[], const char *log);
/* `rtconform run` of requirements xml (written to the case's directory as
 * requirements.xml; "@NAME": shipped profile NAME) into the case's
 * directory's run/ (run-N/ for o->attempt N > 1), with envs[] as st_spawn; its results.json read back
 * into v (free with report_view_free). run's exit status, or -1 with o an
 * error (v then empty). */
struct report_view;
int st_run_xml(const struct st_env *e, const struct st_case *c, struct st_outcome *o,
	       const char *xml, char *const envs[], struct report_view *v);
/* A case whose known answer a loaded machine can spoil by itself (a
 * wake-up of its own more than 10 ms late cannot be told from an injected
 * delay): its judge says which mismatch that is, ST_TRY_MACHINE, and
 * st_run_attempts runs it again, at most ST_ATTEMPTS times, each run kept
 * (run/, run-2/, ...) and each earlier attempt named in the observed text.
 * Any other mismatch fails at once. */
enum st_try { ST_TRY_MATCH, ST_TRY_MACHINE, ST_TRY_MISMATCH };
#define ST_ATTEMPTS 3
typedef enum st_try (*st_judge)(struct st_outcome *o, const void *arg,
				const struct report_view *v, int rc);
void st_run_attempts(const struct st_env *e, const struct st_case *c, struct st_outcome *o,
		     const char *xml, char *const envs[], st_judge judge, const void *arg,
		     const char *machine);
struct rv_req;
struct rv_metric;
const struct rv_req *st_find_req(const struct report_view *v, const char *id);
const struct rv_metric *st_find_metric(const struct rv_req *r, const char *name);
/* The samples of metric m certainly above ns (whole buckets above it, and
 * the overflow), and those of a bucket that straddles ns (neither above
 * nor below for certain): a delay case's breach count. */
void st_count_above(const struct rv_metric *m, uint64_t ns, uint64_t *above,
		    uint64_t *straddle);
/* The samples metric m's histogram holds: its buckets' counts and the
 * overflow (stats-ramp: every sample, none past the range). */
uint64_t st_histogram_total(const struct rv_metric *m);
/* A helper of the helper directory (a fault library), malloc'd path; NULL
 * when it is not there. */
char *st_helper(const struct st_env *e, const char *name);

/* ---- the record (selftest_record.c) ---- */

struct st_record {
	const char *dir;
	time_t started, ended;
	const struct st_outcome *out; /* st_ncases entries */
	size_t counts[4];             /* by enum st_verdict */
	int status;                   /* the exit status */
};
/* rec->counts and rec->status from rec->out: the one rule of the exit
 * status (a case that did not match: 1; else an error: 3; else 0), for
 * selftest and for verify, which recomputes them from a record read back. */
void st_tally(struct st_record *rec);
/* Write validation.json, junit.xml, validation.html and MANIFEST.sha256
 * (of every file under dir) into rec->dir. Every file is tried, and the
 * manifest only when the others are written: no manifest vouches for an
 * incomplete record. 0, or -1 after saying why (each file that could not
 * be written, by name). */
int st_write_record(const struct st_record *rec);

/* What the record's three documents are rendered from: the record, the
 * host's fingerprint, the tool and the times as the record gives them
 * (selftest: this host, this rtconform; verify: as validation.json says). */
struct st_doc {
	const struct st_record *rec;
	struct fingerprint fp;
	const char *version, *commit;
	char started[32], ended[32];
};
enum st_file { ST_FILE_JSON, ST_FILE_JUNIT, ST_FILE_HTML, ST_NFILES };
extern const char *const st_file_names[ST_NFILES];
/* Document f of d rendered into a malloc'd buffer (its length in *len),
 * the same bytes selftest writes; NULL with why. */
char *st_render(const struct st_doc *d, enum st_file f, size_t *len, char *why, size_t whylen);

/* ---- the record read back (selftest_read.c) ---- */

/* The schema of validation.json. */
#define ST_SCHEMA "urn:rtconform:validation:1"
/* The most validation.json may be: a record's is a few tens of KiB. */
#define ST_RECORD_MAX (4u << 20)
/* What st_read_record read: the document d (d->rec pointing at rec,
 * rec->out at out, st_ncases entries, rec->counts and rec->status
 * recomputed by st_tally) and what the file says of its totals and exit
 * status (compared by the caller). */
struct st_read {
	struct st_doc d;
	struct st_record rec;
	struct st_outcome *out;
	long long totals[5]; /* cases, pass, fail, not-run, error */
	long long exit_status;
	char version[128], commit[128];
};
/* Read validation.json (text, len bytes; name: how messages name it) as
 * untrusted input: every field's type and size checked, the cases those
 * of this rtconform's selftest in its order. 0, or -1 with err naming the
 * field ("validation.json: cases[3].verdict: ..."). Free with
 * st_read_free either way. */
int st_read_record(const char *name, const char *text, size_t len, struct st_read *r,
		   char *err, size_t errlen);
void st_read_free(struct st_read *r);
/* The totals and exit status validation.json states against those its
 * cases give (st_tally): 0, or the number that differ, each said in err
 * (the first). */
size_t st_read_totals_differ(const struct st_read *r, char *err, size_t errlen);

/* ---- the record verified (selftest_read.c) ---- */

/* `rtconform verify`'s check of a record (a verify_record_fn of
 * evidence/verify.h). When the manifest lists validation.json, dir is a
 * selftest record: the file read back as untrusted input, its totals and exit status checked
 * against its cases, and validation.json, junit.xml and validation.html
 * rendered again from it and compared. Each of the three must be listed
 * (selftest writes them all): a record whose manifest leaves one out has
 * lost it. The number of problems; *record says whether dir is one. */
struct manifest;
size_t st_verify_record(const char *dir, const struct manifest *m, bool *record);

#endif
