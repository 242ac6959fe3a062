/* SPDX-License-Identifier: Apache-2.0 */
/* run_journal.h - `rtconform run`'s journal (run_journal.c). */
#ifndef RTC_RUN_JOURNAL_H
#define RTC_RUN_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "reports/journal.h"

struct run_journal {
	struct journal j;
	size_t file, index;  /* the requirement being measured (the checkpoints') */
	bool on;
	bool told_wait;        /* stderr said log records wait for room */
	bool told_now;         /* stderr said a now record failed */
	struct rv_ivals ivals; /* its intervals so far */
	FILE *spill;           /* their buckets, out of memory (rv_ivals_spill_last) */
	bool ivals_failed;     /* out of memory: a requirement's intervals are lost */
};

/* Make the journal beside results_path. 0, or EXIT_USAGE after saying why
 * (one is there already: a run that did not finish). */
int run_journal_open(struct run_journal *rj, const char *results_path);
/* The head record: `pending` is the run's view with every requirement
 * unmeasured (the environment gets what the run's end would add). */
void run_journal_head(struct run_journal *rj, struct report_view *pending,
		      const struct report_run *run, struct req_file *const *files, size_t nfiles);
/* run_options.checkpoint: the requirement rj->file, rj->index so far. */
void run_journal_checkpoint(const struct req_result *partial, void *arg);
/* run_options.interval: an interval of requirement rj->file, rj->index
 * closed: kept for its view, and journaled. */
void run_journal_interval(const struct req_result *r, const struct interval_out *iv, void *arg);
/* The intervals kept of the requirement just added to its file in view. */
void run_journal_give_intervals(struct run_journal *rj, struct report_view *view, size_t file);
/* A requirement finished (measured, or an error without measuring). */
void run_journal_finished(struct run_journal *rj, size_t file, size_t index,
			  const struct req_result *r);
/* Before the reports: an end record when every requirement was measured,
 * and the records that wait written; those that still cannot be are said
 * on stderr and in env (rtconform.journal), the run's environment. */
void run_journal_settle(struct run_journal *rj, bool measured_all, struct fingerprint *env);
/* The end: the journal removed when every report was written, else kept
 * and named on stderr. */
void run_journal_close(struct run_journal *rj, bool all_written);

#endif
