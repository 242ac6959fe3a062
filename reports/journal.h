/* SPDX-License-Identifier: Apache-2.0 */
/* journal.h - what a run measured, kept on disk as it goes, so that a run
 * killed (SIGKILL, the OOM killer, a power cut, a CI timeout) or stopped by a
 * full disk loses nothing it finished: `rtconform report DIR` renders every
 * report from it (reports/read/journal_read.c).
 *
 * The journal is a directory `journal/` beside results.json:
 *
 *   log     "rtconform journal 2\n", then records appended in order: one
 *           `head` (results.json of the run as if nothing had been
 *           measured: environment, readiness, files, every requirement
 *           "not measured"), one `req` per requirement as it finished
 *           (its results.json object, verdict and all, without its
 *           intervals), one `ival` per interval as it closes (the
 *           interval of each duration metric and per-CPU series of the
 *           requirement being measured: `intervals` of results.json are
 *           these, in order), and one `end` once every requirement
 *           finished.
 *   now.0, now.1
 *           the requirement being measured, as it stands after its latest
 *           finished run (a `now` record: its results.json object with the
 *           error verdict of a requirement rtconform never finished,
 *           runner_checkpoint_result), written into the two files in turn
 *           so that one of them is whole whenever the other is torn.
 *
 * A record is a header line, its payload and a newline:
 *
 *   rtcj KIND SEQ FILE INDEX LENGTH TIME CRC\n PAYLOAD \n
 *
 * KIND head, req, now, ival or end; SEQ counts the records from 1 across
 * the three files; FILE and INDEX the requirement's place (file,
 * requirement, from 0; 0 0 for head and end); LENGTH the payload's bytes;
 * TIME when the record was written (CLOCK_REALTIME, ms since the epoch: a
 * recovered run's end is its last record's, never a file's mtime, which a
 * copy changes); CRC the CRC-32
 * (zlib's) of the header line up to CRC's space and of the payload, in 8 hex
 * digits. Every record is written and fdatasync()ed before the run goes on
 * (the worker waits at the end of a run: probe_checkpoint), so what the
 * journal says was finished is on the disk. Not every run's end waits: the
 * supervisor keeps the journal under 2 % of the measuring time
 * (runner_supervise.c), so runs shorter than 50 times a checkpoint are
 * journaled together (docs/failure-modes.md). A record cut short (the end of
 * a torn append, a torn now file) fails its length or CRC and is dropped,
 * never read.
 *
 * A run that ends and writes its reports removes its journal; one that
 * cannot write them keeps it and says so.
 */
#ifndef RTC_JOURNAL_H
#define RTC_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reports/report.h"

#define JOURNAL_DIR "journal"
#define JOURNAL_LOG "log"
#define JOURNAL_MAGIC_STEM "rtconform journal "
#define JOURNAL_VERSION 2
#define JOURNAL_MAGIC "rtconform journal 2\n"
#define JOURNAL_TAG "rtcj"
/* The longest header line (with its newline): tag, kind and seven numbers. */
#define JOURNAL_HEADER_MAX 160

enum journal_kind { JK_HEAD, JK_REQ, JK_NOW, JK_END, JK_IVAL, JK_NKINDS };

/* A record's kind as written ("head", ...), and back (-1: none). */
const char *journal_kind_name(enum journal_kind k);
int journal_kind_of(const char *name);

/* The CRC of a record: the header line's text before CRC and the payload. */
uint32_t journal_crc(const char *header, size_t hlen, const char *payload, size_t len);

struct journal {
	int dir_fd, log_fd, now_fd[2];
	uint64_t seq;         /* the last record's */
	char path[1100];      /* the journal directory, for messages */
	int err;              /* the first failure's errno; 0: every record is on disk */
	char why[1300];       /* what failed, naming the file */
};

/* Make the journal in directory `dir` (results.json's): refused with -EEXIST
 * when one is there (a run that did not finish: its evidence must not be
 * overwritten), err naming it and what to do. 0 or -errno with err. */
int journal_open(struct journal *j, const char *dir, char *err, size_t errlen);

/* The records. Each returns 0, or -errno once a write failed (j->err and
 * j->why say what; every later call does nothing and returns it too: a run
 * goes on measuring, and its reports hold everything at its end). */
int journal_head(struct journal *j, const struct report_view *pending);
/* r, requirement `index` of file `file`: a `req` record when final, else
 * the `now` record of the requirement being measured. */
int journal_requirement(struct journal *j, size_t file, size_t index,
			const struct req_result *r, bool final);
/* The interval that just closed (the last of each of acc's lists) of
 * result r: an `ival` record. */
int journal_interval(struct journal *j, size_t file, size_t index, const struct rv_ivals *acc,
		     const struct req_result *r);
int journal_end(struct journal *j);

/* Close the journal; with remove, delete it (the reports are written). */
void journal_close(struct journal *j, bool remove);

#endif
