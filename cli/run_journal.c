/* SPDX-License-Identifier: Apache-2.0 */
/* run_journal.c - `rtconform run`'s journal (reports/journal.h): opened
 * before anything is measured, a record for each run of each requirement
 * and for each requirement finished, removed once the reports are written. */
#include "cli/run_journal.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "harness/runinfo.h"
#include "reports/xmlw.h"

int run_journal_open(struct run_journal *rj, const char *results_path)
{
	char err[1400];
	memset(rj, 0, sizeof *rj);
	char *copy = strdup(results_path);
	if (!copy) {
		termsafe_println(stderr, "rtconform run: out of memory");
		return EXIT_USAGE;
	}
	int rc = journal_open(&rj->j, dirname(copy), err, sizeof err);
	free(copy);
	if (rc) {
		termsafe_println(stderr, "rtconform run: %s", err);
		return EXIT_USAGE;
	}
	rj->on = true;
	return 0;
}

/* The journal's state, said on stderr when it changes: log records that
 * wait for room (the run goes on), and when they are written after all; a
 * now record that failed, once. */
static void say_failed(struct run_journal *rj)
{
	char what[200];
	bool waiting = journal_missing(&rj->j, what, sizeof what);
	if (waiting && !rj->told_wait)
		termsafe_println(stderr, "rtconform run: journal: %s: the run goes on; what the "
				 "journal cannot take waits in memory and is written once there "
				 "is room (its lost file names it meanwhile)", rj->j.why);
	else if (!waiting && rj->told_wait)
		termsafe_println(stderr, "rtconform run: journal: %s/%s: written after all: the "
				 "records that waited are in it, and it is whole", rj->j.path,
				 JOURNAL_LOG);
	rj->told_wait = waiting;
	if (rj->j.now_err && !rj->told_now) {
		termsafe_println(stderr, "rtconform run: journal: %s: the record of the requirement "
				 "being measured cannot be written (%s): the one before it stands, "
				 "and each run's is tried", rj->j.path, strerror(rj->j.now_err));
		rj->told_now = true;
	}
}

void run_journal_head(struct run_journal *rj, struct report_view *pending,
		      const struct report_run *run, struct req_file *const *files, size_t nfiles)
{
	if (!rj->on)
		return;
	/* The run as `report` renders it if nothing more is journaled: what
	 * the run's end adds to the environment, with the start for its end,
	 * and marked cut short. */
	struct fingerprint add = { 0 };
	runinfo_add_run(&add, run->command_line, run->started, run->started,
			(struct req_file **)files, nfiles);
	/* made valid UTF-8 as the view's own strings are (fill_env): a byte
	 * that is not (an -o or a file named so) made the head record fail
	 * to encode, and with it every record after (issue 38) */
	for (size_t i = 0; i < add.n; i++) {
		char *k = xmlw_clean_utf8(add.e[i].key), *v = xmlw_clean_utf8(add.e[i].value);
		if (k && v)
			fingerprint_add(&pending->env, k, "%s", v);
		free(k);
		free(v);
	}
	fingerprint_free(&add);
	fingerprint_add(&pending->env, "rtconform.interrupted", "yes");
	journal_head(&rj->j, pending);
	say_failed(rj);
}

void run_journal_checkpoint(const struct req_result *partial, void *arg)
{
	struct run_journal *rj = arg;
	journal_requirement(&rj->j, rj->file, rj->index, partial, false);
	say_failed(rj);
}

void run_journal_interval(const struct req_result *r, const struct interval_out *iv, void *arg)
{
	struct run_journal *rj = arg;
	if (rv_ivals_add(&rj->ivals, r, iv) != 0) {
		if (!rj->ivals_failed)
			termsafe_println(stderr, "rtconform run: out of memory keeping the intervals "
					 "of %s: its reports have its totals only", r->req->id);
		rj->ivals_failed = true;
		return;
	}
	if (rj->on) {
		journal_interval(&rj->j, rj->file, rj->index, &rj->ivals, r);
		say_failed(rj);
	}
	/* Kept for results.json, but on disk: a long run's memory stays flat. */
	if (!rj->spill)
		rj->spill = tmpfile();
	rv_ivals_spill_last(&rj->ivals, rj->spill);
}

void run_journal_give_intervals(struct run_journal *rj, struct report_view *view, size_t file)
{
	struct rv_file *vf = &view->files[file];
	if (vf->nreqs && !rj->ivals_failed)
		rv_ivals_move(&rj->ivals, &vf->reqs[vf->nreqs - 1]);
	rv_ivals_free(&rj->ivals);
	rj->ivals_failed = false;
}

void run_journal_finished(struct run_journal *rj, size_t file, size_t index,
			  const struct req_result *r)
{
	if (!rj->on)
		return;
	journal_requirement(&rj->j, file, index, r, true);
	say_failed(rj);
}

void run_journal_settle(struct run_journal *rj, bool measured_all, struct fingerprint *env)
{
	char what[200];
	if (!rj->on)
		return;
	if (measured_all)
		journal_end(&rj->j);
	journal_flush(&rj->j);
	say_failed(rj);
	if (!journal_missing(&rj->j, what, sizeof what))
		return;
	termsafe_println(stderr, "rtconform run: journal: %s never reached the journal: %s; the "
			 "reports written now hold them", what, rj->j.why);
	fingerprint_add(env, "rtconform.journal", "%s never reached the journal (%s); the "
			"reports hold them", what, strerror(rj->j.err ? rj->j.err : EIO));
}

void run_journal_close(struct run_journal *rj, bool all_written)
{
	char what[200];
	if (rj->spill)
		fclose(rj->spill);
	rj->spill = NULL;
	if (!rj->on)
		return;
	/* A report missing: the journal is what is left of the run, whole or
	 * with its lost file naming what never reached it. */
	bool keep = !all_written;
	bool missing = journal_missing(&rj->j, what, sizeof what);
	if (keep)
		termsafe_println(stderr, "rtconform run: the journal %s keeps %s%s%s: render the "
				 "reports with `rtconform report` of its directory once they can be "
				 "written", rj->j.path, missing ? "the run but " : "every figure",
				 missing ? what : "", missing ? ", which never reached it" : "");
	journal_close(&rj->j, !keep);
	rj->on = false;
}
