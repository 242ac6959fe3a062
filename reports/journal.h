/* SPDX-License-Identifier: Apache-2.0 */
/* journal.h - what a run measured, kept on disk as it goes, so that a run
 * killed (SIGKILL, the OOM killer, a power cut, a CI timeout) or stopped by a
 * full disk loses nothing it finished: `rtconform report DIR` renders every
 * report from it (reports/read/journal_read.c).
 *
 * The journal is a directory `journal/` beside results.json:
 *
 *   log     "rtconform journal 3\n", then records appended in order: one
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
 *   lost    JOURNAL_NOTE_BYTES written at the start (newlines: nothing
 *           lost), so that it can be written over in place on a full
 *           disk: while log records wait in memory for room (a write
 *           failed), a `lost` record naming them (JSON: "from", "to",
 *           "error", "finished": [[file, index], ...], "more"), then the
 *           newlines again once they are written.
 *
 * A record is a header line, its payload and a newline:
 *
 *   rtcj KIND SEQ LOG FILE INDEX LENGTH TIME CRC\n PAYLOAD \n
 *
 * KIND head, req, now, ival, end or lost; SEQ counts the records from 1
 * across the files; LOG numbers the log's records from 1 (the head) without
 * a gap, and in a now or lost record is the number of log records the run
 * had made (written or waiting) when it was written, so that records lost
 * anywhere in the log, at its end too, are found and named; FILE and INDEX
 * the requirement's place (file, requirement, from 0; 0 0 for head, end and
 * lost); LENGTH the payload's bytes;
 * TIME when the record was made (CLOCK_REALTIME, ms since the epoch: a
 * recovered run's end is its last record's, never a file's mtime, which a
 * copy changes); CRC the CRC-32
 * (base/crc32.h: zlib's) of the header line up to CRC's space and of the payload, in 8 hex
 * digits. Every record is written and fdatasync()ed before the run goes on
 * (the worker waits at the end of a run: probe_checkpoint), so what the
 * journal says was finished is on the disk. Not every run's end waits: the
 * supervisor keeps the journal under 2 % of the measuring time
 * (runner_supervise.c), so runs shorter than 50 times a checkpoint are
 * journaled together (docs/failure-modes.md). A record cut short (the end of
 * a torn append, a torn now file) fails its length or CRC and is dropped,
 * never read; a record damaged or missing with records after it is no tear:
 * the reader refuses the journal, naming the records.
 *
 * A log record that cannot be written (ENOSPC, EIO, ...) is not lost: the
 * log is cut back to its last whole record, the record waits in memory (up
 * to JOURNAL_PENDING_MAX bytes; past that the records are counted, not
 * kept) and is written before the next record (a now record too) and at
 * the run's end (journal_flush), in order, so the log never holds a gap.
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
#define JOURNAL_NOTE "lost"
#define JOURNAL_MAGIC_STEM "rtconform journal "
#define JOURNAL_VERSION 3
#define JOURNAL_MAGIC "rtconform journal 3\n"
#define JOURNAL_TAG "rtcj"
/* The longest header line (with its newline): tag, kind and eight numbers. */
#define JOURNAL_HEADER_MAX 180
/* The lost file's size: its record and the newlines after it. */
#define JOURNAL_NOTE_BYTES 4096
/* The most bytes of log records kept in memory while the log cannot take
 * them. */
#define JOURNAL_PENDING_MAX (64u * 1024u * 1024u)
/* The finished requirements a lost record names (the rest are counted). */
#define JOURNAL_NOTE_REQS 256

enum journal_kind { JK_HEAD, JK_REQ, JK_NOW, JK_END, JK_IVAL, JK_LOST, JK_NKINDS };

/* A record's kind as written ("head", ...), and back (-1: none). */
const char *journal_kind_name(enum journal_kind k);
int journal_kind_of(const char *name);

/* The CRC of a record: the header line's text before CRC and the payload. */
uint32_t journal_crc(const char *header, size_t hlen, const char *payload, size_t len);

/* A finished requirement whose req record waits or is lost. */
struct journal_lost_req {
	uint64_t log;         /* its record's LOG number */
	uint32_t file, index; /* the requirement's place */
};

/* Log records the log could not take yet, in order. */
struct journal_pending {
	char *buf;            /* whole records (header, payload, newline) */
	size_t len, cap;
	uint64_t kept;        /* the LOG number of the last one in buf */
	size_t nfinished;     /* req records among the waiting and lost ones */
	size_t nlisted;       /* of those, the ones in finished[] */
	size_t nlost;         /* req records from gave_up on (never written) */
	struct journal_lost_req finished[JOURNAL_NOTE_REQS]; /* the first ones */
};

struct journal {
	int parent_fd;        /* results.json's directory (report_open_dir) */
	int dir_fd, log_fd, now_fd[2], note_fd;
	uint64_t seq;         /* the last record's */
	uint64_t made;        /* log records made: written, waiting or lost */
	uint64_t written;     /* log records on the disk */
	uint64_t gave_up;     /* 0, or the first record not kept (over the bound) */
	off_t log_end;        /* the log's bytes that hold whole records */
	struct journal_pending pend;
	char path[1100];      /* the journal directory, for messages */
	int err;              /* the latest failure's errno while records wait; 0:
			       * every log record made is on disk */
	char why[1300];       /* what failed, naming the file */
	int now_err;          /* the latest now file's failure (the other holds the
			       * previous run), 0 once one is written again */
	int now_whole;        /* the now file with the latest whole record, -1 none */
	bool note_dirty;      /* the lost file names records */
};

/* Make the journal in directory `dir` (results.json's): refused with -EEXIST
 * when one is there (a run that did not finish: its evidence must not be
 * overwritten), err naming it and what to do. 0 or -errno with err. */
int journal_open(struct journal *j, const char *dir, char *err, size_t errlen);

/* The records. Each returns 0, or -errno while log records wait for room
 * (j->err and j->why say what; the record made is kept with them and written
 * by a later call or journal_flush, so a run goes on measuring). */
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
/* Write the log records that wait, if any: 0 when none is left. */
int journal_flush(struct journal *j);
/* What the log lacks, "records 5-9 of 9 (2 requirements finished in them)",
 * into buf; false when it lacks nothing. */
bool journal_missing(const struct journal *j, char *buf, size_t len);
/* "record 5" or "records 5-9", then " of N" when of is not 0: how the
 * writer's and the reader's messages name records. */
void journal_range_text(char *buf, size_t len, uint64_t from, uint64_t to, uint64_t of);

/* Close the journal; with remove, delete it (the reports are written). */
void journal_close(struct journal *j, bool remove);

#endif
