/* SPDX-License-Identifier: Apache-2.0 */
/* journal_read.c - a run read back from its journal (reports/journal.h):
 * the head's results.json with each finished requirement's record in its
 * place and the requirement cut short as its latest whole `now` record left
 * it, read as a results.json is (json_read.c) with its totals made anew.
 * Each file is read whole and every record parsed inside its bytes. A
 * record cut short at the end (a torn append) is dropped and counted; the
 * log's records must carry LOG numbers 1, 2, 3, ... up to what the now and
 * lost files count, so records missing anywhere are named and refused, as
 * is a damaged record with records after it, and each must be of the
 * requirement the run measures there (the head's selected ones in file
 * order), so that renumbered records are refused too; records the lost file says
 * the run could not write are named and their requirements said to be
 * measured with their records lost. Any other defect is an error naming
 * the record. */
#include "reports/read/read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "base/safeopen.h"
#include "base/utc.h"
#include "reports/journal.h"
#include "reports/json_schema.h"
#include "reports/read/json_split.h"

/* A log as large as the largest results.json the reader takes, and a head
 * and records beside it. */
#define MAX_JOURNAL_BYTES (512u * 1024u * 1024u)
/* A journal's bytes are budgeted as this many times as many bytes of an
 * indented results.json (read_budget_start): 24 times their size, more than
 * compact JSON's tree can take (see report_view_from_journal_bytes). */
#define JSON_TREE_RATIO 8u

struct jrec {
	enum journal_kind kind;
	uint64_t seq, log;
	size_t file, index, len;
	uint64_t ms; /* when it was written (ms since the epoch, UTC) */
	const char *payload; /* in the file's bytes */
};

/* The state of one read: the file, where in it, what became of it. */
struct jread {
	const char *name;   /* the file, for messages */
	char *err;
	size_t errlen;
	int rc;
};

static int jfail(struct jread *jr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int jfail(struct jread *jr, const char *fmt, ...)
{
	if (jr->rc)
		return jr->rc;
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(jr->err, jr->errlen, "%s: ", jr->name);
	if (n >= 0 && (size_t)n < jr->errlen)
		vsnprintf(jr->err + n, jr->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	jr->rc = -EINVAL;
	return jr->rc;
}

/* The header line's fields, accepted only as journal.c writes them: the
 * line made anew from them must be the line read. */
static bool parse_header(const char *line, struct jrec *r, uint32_t *crc, size_t *crc_at)
{
	char tag[8], kind[8];
	uint64_t seq, log, ms;
	size_t file, index, len;
	unsigned c;
	if (sscanf(line, "%7s %7s %" SCNu64 " %" SCNu64 " %zu %zu %zu %" SCNu64 " %8x", tag, kind,
		   &seq, &log, &file, &index, &len, &ms, &c) != 9 ||
	    strcmp(tag, JOURNAL_TAG) != 0 || journal_kind_of(kind) < 0)
		return false;
	char again[JOURNAL_HEADER_MAX + 1];
	int h = snprintf(again, sizeof again,
			 "%s %s %" PRIu64 " %" PRIu64 " %zu %zu %zu %" PRIu64 " ", JOURNAL_TAG, kind,
			 seq, log, file, index, len, ms);
	if (h < 0 || (size_t)h >= sizeof again)
		return false;
	snprintf(again + h, sizeof again - (size_t)h, "%08x\n", c);
	if (strcmp(again, line) != 0)
		return false;
	*r = (struct jrec){ .kind = (enum journal_kind)journal_kind_of(kind), .seq = seq,
			    .log = log, .file = file, .index = index, .len = len, .ms = ms };
	*crc = (uint32_t)c;
	*crc_at = (size_t)h;
	return true;
}

/* parse_record's answers besides 1 (read) and 0 (nothing more). */
enum { REC_TORN = -1, REC_DAMAGED = -2, REC_SHORT = -3 };

/* The header line at p (n bytes there) parsed into r: its length with the
 * newline, or 0 when p holds no whole header line (why says what). */
static size_t header_at(const char *p, size_t n, struct jrec *r, uint32_t *crc, size_t *crc_at,
			const char **why)
{
	size_t scan = n < JOURNAL_HEADER_MAX ? n : JOURNAL_HEADER_MAX;
	const char *nl = memchr(p, '\n', scan);
	char line[JOURNAL_HEADER_MAX + 1];
	*why = "its header line is not one";
	if (!nl)
		return 0;
	size_t hlen = (size_t)(nl - p) + 1;
	memcpy(line, p, hlen);
	line[hlen] = 0;
	if (memchr(p, 0, hlen) || !parse_header(line, r, crc, crc_at))
		return 0;
	return hlen;
}

/* The record at p, n bytes to the end: 1 read (r->payload points into p,
 * *used its bytes), 0 nothing more, REC_TORN a record cut short at the end
 * (its header has no newline before the end, or it is the last record and
 * its newline or CRC fails), REC_SHORT one whose length runs past the end
 * (torn when no other record follows: the caller looks), REC_DAMAGED
 * anything else. why says what failed. Every byte read lies inside p[0, n). */
static int parse_record(const char *p, size_t n, struct jrec *r, size_t *used, const char **why)
{
	uint32_t crc;
	size_t crc_at;
	if (n == 0)
		return 0;
	size_t hlen = header_at(p, n, r, &crc, &crc_at, why);
	if (!hlen)
		return n < JOURNAL_HEADER_MAX && !memchr(p, '\n', n) ? REC_TORN : REC_DAMAGED;
	size_t rest = n - hlen;
	if (r->len >= rest) {
		*why = "its length runs past the end";
		return REC_SHORT;
	}
	bool last = rest - r->len == 1;
	if (p[hlen + r->len] != '\n') {
		*why = "no newline ends it";
		return last ? REC_TORN : REC_DAMAGED;
	}
	if (journal_crc(p, crc_at, p + hlen, r->len) != crc) {
		*why = "its CRC does not hold";
		return last ? REC_TORN : REC_DAMAGED;
	}
	r->payload = p + hlen;
	*used = hlen + r->len + 1;
	return 1;
}

/* The records whose header lines begin a line in p[0, n) (a payload never
 * holds one: JSON has no line that begins with the tag): how many, and the
 * lowest and highest LOG number among them. One pass. */
static size_t survey(const char *p, size_t n, uint64_t *lo, uint64_t *hi)
{
	static const char mark[] = "\n" JOURNAL_TAG " ";
	size_t count = 0, at = 0;
	*lo = UINT64_MAX;
	*hi = 0;
	while (at < n) {
		const char *m = memmem(p + at, n - at, mark, sizeof mark - 1);
		if (!m)
			break;
		size_t h = (size_t)(m - p) + 1;
		struct jrec r;
		uint32_t crc;
		size_t crc_at, hlen;
		const char *why;
		if ((hlen = header_at(p + h, n - h, &r, &crc, &crc_at, &why)) != 0) {
			count++;
			*lo = r.log < *lo ? r.log : *lo;
			*hi = r.log > *hi ? r.log : *hi;
			h += hlen - 1;
		}
		at = h;
	}
	return count;
}

/* What the log said: the head's document, the requirements finished. */
struct log_state {
	json_t *root;
	size_t finished;      /* req records */
	bool end;             /* the end record */
	uint64_t last_seq;
	uint64_t last_req_seq; /* the head's or the last req record's: a now
				* record after it is of the requirement then
				* being measured */
	uint64_t last_log;    /* the LOG number of the log's last whole record */
	size_t dropped;       /* bytes of a record cut short at the end */
	uint64_t written_ms;  /* the latest record's time (ms since the epoch) */
	json_t *ivals;        /* the ival records: [{seq, file, index, intervals}] */
	json_t *state;        /* "FILE:INDEX": the seq of the record in place */
	unsigned bad_now;     /* bit k: now.k is there but holds no whole record */
	uint64_t now_log;     /* the highest LOG of a whole now record (log
			       * records the run had made when it wrote it) */
	int now_log_file;     /* which now file holds it */
	bool bad_note;        /* the lost file holds no whole lost record */
	json_t *note;         /* the lost record's payload, checked; NULL: none */
	const char *unread;   /* journal_files.unread */
	uint64_t lost_from, lost_to; /* the log records it says never reached
				      * the log (0 0: none missing) */
	size_t lost_reqs;         /* of those the lost file names, how many
				   * have no record in the log */
	size_t at_file, at_index; /* the requirement the run measures next (the
				   * head's next selected one, in file order) */
	bool at_end;              /* none is left */
};

/* files[file].requirements[index] of the head, or NULL after saying why. */
static json_t *slot_of(struct jread *jr, json_t *root, const struct jrec *r)
{
	json_t *files = json_object_get(root, "files");
	json_t *reqs = json_object_get(json_array_get(files, r->file), "requirements");
	json_t *old = json_array_get(reqs, r->index);
	if (!old)
		jfail(jr, "record %" PRIu64 " (%s) names requirement %zu of file %zu, which the "
		      "run's head does not have", r->seq, journal_kind_name(r->kind), r->index,
		      r->file);
	return old;
}

static void state_key(char *key, size_t len, size_t file, size_t index)
{
	snprintf(key, len, "%zu:%zu", file, index);
}

/* Put record r (req or now) in its requirement's place in root. */
static int place(struct jread *jr, json_t *root, const struct jrec *r)
{
	json_t *old = slot_of(jr, root, r);
	if (!old)
		return jr->rc;
	json_error_t e;
	json_t *obj = json_loadb(r->payload, r->len, JSON_REJECT_DUPLICATES, &e);
	const char *id = json_string_value(json_object_get(obj, "id"));
	const char *was = json_string_value(json_object_get(old, "id"));
	if (!json_is_object(obj))
		jfail(jr, "record %" PRIu64 " (%s): not a requirement: %s", r->seq,
		      journal_kind_name(r->kind), obj ? "not an object" : e.text);
	else if (!id || !was || strcmp(id, was) != 0)
		jfail(jr, "record %" PRIu64 " (%s) is of requirement %s, but the head has %s there",
		      r->seq, journal_kind_name(r->kind), id ? id : "(no id)", was ? was : "(no id)");
	else
		json_array_set(json_object_get(json_array_get(json_object_get(root, "files"),
							      r->file), "requirements"),
			       r->index, obj);
	json_decref(obj);
	return jr->rc;
}

/* An ival record, kept until every requirement is in place. */
static int keep_ival(struct jread *jr, struct log_state *st, const struct jrec *r)
{
	json_error_t e;
	json_t *iv = json_loadb(r->payload, r->len, JSON_REJECT_DUPLICATES, &e);
	if (!json_is_object(iv) || !json_is_object(json_object_get(iv, "metrics")) ||
	    !json_is_object(json_object_get(iv, "per_cpu"))) {
		json_decref(iv);
		return jfail(jr, "record %" PRIu64 " (ival): not an interval: %s", r->seq,
			     iv ? "no metrics or per_cpu object" : e.text);
	}
	if (!slot_of(jr, st->root, r)) {
		json_decref(iv);
		return jr->rc;
	}
	json_array_append_new(st->ivals, json_pack("{sI sI sI so}", "seq", (json_int_t)r->seq,
						   "file", (json_int_t)r->file, "index",
						   (json_int_t)r->index, "intervals", iv));
	return 0;
}

/* The requirement files[file].requirements[index] of the head, NULL past
 * them. */
static json_t *req_at(json_t *root, size_t file, size_t index)
{
	return json_array_get(json_object_get(json_array_get(json_object_get(root, "files"),
							     file), "requirements"), index);
}

/* st->at_* moved to the first selected requirement at or after file:index
 * (the run measures the selected ones in file order, one after another),
 * or st->at_end. Each requirement is passed once over the whole log. */
static void seek_selected(struct log_state *st, size_t file, size_t index)
{
	size_t nfiles = json_array_size(json_object_get(st->root, "files"));
	for (; file < nfiles; file++, index = 0)
		for (json_t *r; (r = req_at(st->root, file, index)) != NULL; index++)
			if (json_is_true(json_object_get(r, "selected"))) {
				st->at_file = file;
				st->at_index = index;
				return;
			}
	st->at_end = true;
}

/* Whether record r is of the requirement the run was measuring then: a
 * req, ival or now record of any other one (a record of the one before it
 * cut out, records of another run spliced in) is said, naming the one the
 * run measures there. */
static int in_turn(struct jread *jr, const struct log_state *st, const struct jrec *r)
{
	if (!st->at_end && r->file == st->at_file && r->index == st->at_index)
		return 0;
	char what[80];
	if (r->kind == JK_NOW) /* its LOG is a count, not its place */
		snprintf(what, sizeof what, "the now record (record %" PRIu64 " of the run)", r->seq);
	else
		snprintf(what, sizeof what, "record %" PRIu64 " (%s)", r->log,
			 journal_kind_name(r->kind));
	if (st->at_end)
		return jfail(jr, "%s, of requirement %zu of file %zu, follows the records of every "
			     "requirement the run selected: the journal was changed after it was "
			     "written, and its run is not rendered", what, r->index, r->file);
	const char *id = json_string_value(json_object_get(req_at(st->root, st->at_file,
								  st->at_index), "id"));
	return jfail(jr, "%s is of requirement %zu of file %zu, but the run measures %s "
		     "(requirement %zu of file %zu) there: a record is missing or moved (the "
		     "journal was changed after it was written), and its run is not rendered",
		     what, r->index, r->file, id ? id : "(no id)", st->at_index, st->at_file);
}

/* One record of the log after the head: a finished requirement or the end. */
static int log_record(struct jread *jr, struct log_state *st, const struct jrec *r)
{
	if (r->seq <= st->last_seq || st->end || r->kind == JK_HEAD || r->kind == JK_NOW ||
	    r->kind == JK_LOST)
		return jfail(jr, "record %" PRIu64 " (%s) out of place (after record %" PRIu64 ")",
			     r->seq, journal_kind_name(r->kind), st->last_seq);
	st->last_seq = r->seq;
	if (r->kind == JK_END) {
		st->end = true;
		if (!st->at_end)
			return jfail(jr, "record %" PRIu64 " (end) says every requirement finished, "
				     "but %s (requirement %zu of file %zu) has no record: the journal "
				     "was changed after it was written, and its run is not rendered",
				     r->log, json_string_value(json_object_get(req_at(st->root,
				     st->at_file, st->at_index), "id")) ?: "(no id)", st->at_index,
				     st->at_file);
		return 0;
	}
	char key[48];
	state_key(key, sizeof key, r->file, r->index);
	if (r->kind == JK_REQ && json_object_get(st->state, key))
		return jfail(jr, "record %" PRIu64 " (req) is a second record of requirement %zu "
			     "of file %zu: a run journals each once", r->seq, r->index, r->file);
	if (in_turn(jr, st, r))
		return jr->rc;
	if (r->kind == JK_IVAL)
		return keep_ival(jr, st, r);
	st->finished++;
	st->last_req_seq = r->seq;
	json_object_set_new(st->state, key, json_integer((json_int_t)r->seq));
	seek_selected(st, r->file, r->index + 1);
	return place(jr, st->root, r);
}

/* The head record: the run's document before anything was measured. */
static int log_head(struct jread *jr, struct log_state *st, const struct jrec *r)
{
	json_error_t e;
	if (r->kind != JK_HEAD)
		return jfail(jr, "the first record is %s, not the run's head",
			     journal_kind_name(r->kind));
	st->root = json_loadb(r->payload, r->len, JSON_REJECT_DUPLICATES, &e);
	if (!json_is_object(st->root) || !json_is_array(json_object_get(st->root, "files")))
		return jfail(jr, "the head is not a results.json: %s",
			     st->root ? "no files" : e.text);
	st->last_seq = st->last_req_seq = r->seq;
	seek_selected(st, 0, 0);
	return 0;
}

/* A record damaged at byte at (want: the number it would have): named,
 * with the records that follow it. */
static int damaged(struct jread *jr, const char *buf, size_t size, size_t at, uint64_t want,
		   const char *why)
{
	uint64_t lo, hi;
	char after[160];
	if (survey(buf + at, size - at, &lo, &hi)) {
		journal_range_text(after, sizeof after, lo, hi, 0);
		strcat(after, lo == hi ? " follows it" : " follow it");
	} else {
		snprintf(after, sizeof after, "%zu bytes that hold no record follow it", size - at);
	}
	return jfail(jr, "record %" PRIu64 " (at byte %zu) is corrupt (%s) and %s: the journal "
		     "was changed after it was written, and its run is not rendered", want, at, why,
		     after);
}

/* A whole record r at byte at whose LOG number is not the next one: the
 * records between are missing (named, of the highest number the log has),
 * or it is repeated or moved. */
static int out_of_line(struct jread *jr, const char *buf, size_t size, size_t at,
		       const struct jrec *r, uint64_t want)
{
	if (r->log < want)
		return jfail(jr, "record %" PRIu64 " (%s, at byte %zu) is out of place: it follows "
			     "record %" PRIu64 " (a record repeated or moved), and the run is not "
			     "rendered", r->log, journal_kind_name(r->kind), at, want - 1);
	uint64_t lo, hi;
	char miss[120];
	survey(buf + at, size - at, &lo, &hi);
	journal_range_text(miss, sizeof miss, want, r->log - 1, hi > r->log ? hi : r->log);
	return jfail(jr, "%s missing: record %" PRIu64 " (at byte %zu) follows record %" PRIu64
		     ": records were cut out of the journal after it was written, and its run is "
		     "not rendered", miss, r->log, at, want - 1);
}

/* Read the log: magic, head, then records until the end of the file or a
 * record cut short (counted in st->dropped). Each record must carry the
 * next LOG number: a gap, or damage with more after it, refuses the log. */
static int read_log(struct jread *jr, const char *buf, size_t size, struct log_state *st)
{
	size_t mlen = strlen(JOURNAL_MAGIC);
	size_t slen = strlen(JOURNAL_MAGIC_STEM);
	bool got = size >= mlen;
	if (got && memcmp(buf, JOURNAL_MAGIC_STEM, slen) == 0 && buf[mlen - 1] == '\n' &&
	    memcmp(buf, JOURNAL_MAGIC, mlen) != 0)
		return jfail(jr, "a journal of format %.*s, which this rtconform does not read (it "
			     "reads format %d): render it with the rtconform that wrote it",
			     (int)(mlen - slen - 1), buf + slen, JOURNAL_VERSION);
	if (!got || memcmp(buf, JOURNAL_MAGIC, mlen) != 0)
		return jfail(jr, "not an rtconform journal (it does not begin \"%.*s\")",
			     (int)mlen - 1, JOURNAL_MAGIC);
	for (size_t at = mlen;;) {
		struct jrec r;
		size_t used = 0;
		const char *why = "";
		int rec = parse_record(buf + at, size - at, &r, &used, &why);
		uint64_t lo, hi;
		if (rec == REC_SHORT)
			rec = survey(buf + at, size - at, &lo, &hi) ? REC_DAMAGED : REC_TORN;
		if (rec == REC_DAMAGED)
			return damaged(jr, buf, size, at, st->last_log + 1, why);
		if (rec == REC_TORN)
			st->dropped = size - at;
		if (rec <= 0)
			break;
		if (r.log != st->last_log + 1)
			return out_of_line(jr, buf, size, at, &r, st->last_log + 1);
		st->last_log = r.log;
		if (r.ms > st->written_ms)
			st->written_ms = r.ms;
		int rc = st->root ? log_record(jr, st, &r) : log_head(jr, st, &r);
		if (rc)
			return rc;
		at += used;
	}
	if (!st->root && st->note)
		return jfail(jr, "no run to read: records %" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT
			     " never reached the journal (the run could not write them: %s), its head "
			     "among them: what it measured is in its own reports, if they were written",
			     json_integer_value(json_object_get(st->note, "from")),
			     json_integer_value(json_object_get(st->note, "to")),
			     json_string_value(json_object_get(st->note, "error")));
	if (!st->root && st->dropped)
		return jfail(jr, "no run to read: its head record is cut short or damaged (%zu "
			     "bytes after the first line)", st->dropped);
	if (!st->root)
		return jfail(jr, "no run to read: rtconform ended before the run began (nothing "
			     "was measured)");
	return 0;
}

/* One now file's bytes: its record when it holds one whole now record and
 * nothing else (1), else said in bad_now (a torn now file: the other one is
 * whole). The highest LOG number of a whole one is kept. */
static int now_record(struct log_state *st, int k, const char *buf, size_t n, struct jrec *r)
{
	size_t used = 0;
	const char *why;
	if (!buf)
		return 0; /* not made yet, or gone: the log holds the rest */
	if (parse_record(buf, n, r, &used, &why) != 1 || used != n || r->kind != JK_NOW) {
		st->bad_now |= 1u << k; /* said in the summary: the other one stands */
		return 0;
	}
	if (r->ms > st->written_ms)
		st->written_ms = r->ms;
	if (r->log > st->now_log) {
		st->now_log = r->log;
		st->now_log_file = k;
	}
	return 1;
}

/* The latest whole `now` record newer than the log's last record (the
 * requirement being measured when rtconform ended), put in its place; its
 * id in cut ("" without one). */
static int read_now(struct jread *jr, const struct journal_files *jf, struct log_state *st,
		    char *cut, size_t cutlen)
{
	struct jrec best = { .payload = NULL };
	cut[0] = 0;
	for (int k = 0; k < 2; k++) {
		struct jrec r;
		if (!now_record(st, k, jf->now[k], jf->now_len[k], &r))
			continue;
		char key[48];
		state_key(key, sizeof key, r.file, r.index);
		/* Of the requirement measured after the last one that finished
		 * (ival records may come after it), and not one that finished
		 * itself. */
		if (r.seq > st->last_req_seq && r.seq > best.seq && !json_object_get(st->state, key))
			best = r;
	}
	if (!best.payload)
		return 0;
	/* Of the requirement measured after the log's last when the log held
	 * every record the run had made as it wrote this one; one that counts
	 * more is check_end's (records cut from the end, or the lost file's,
	 * which may be of requirements after it). */
	if (best.log <= st->last_log && in_turn(jr, st, &best))
		return jr->rc;
	char key[48];
	state_key(key, sizeof key, best.file, best.index);
	json_object_set_new(st->state, key, json_integer((json_int_t)best.seq));
	int rc = place(jr, st->root, &best);
	json_t *obj = json_loadb(best.payload, best.len, 0, NULL);
	snprintf(cut, cutlen, "%s", json_string_value(json_object_get(obj, "id")) ?: "");
	json_decref(obj);
	return rc;
}

/* Whether a lost record's payload is as journal.c writes it. */
static bool note_ok(json_t *o)
{
	json_t *from = json_object_get(o, "from"), *to = json_object_get(o, "to");
	json_t *fin = json_object_get(o, "finished"), *more = json_object_get(o, "more");
	if (!json_is_integer(from) || !json_is_integer(to) || !json_is_array(fin) ||
	    !json_is_integer(more) || json_integer_value(more) < 0 ||
	    !json_is_string(json_object_get(o, "error")) || json_integer_value(from) < 1 ||
	    json_integer_value(to) < json_integer_value(from))
		return false;
	size_t i;
	json_t *pair;
	json_array_foreach(fin, i, pair)
		if (json_array_size(pair) != 2 || json_integer_value(json_array_get(pair, 0)) < 0 ||
		    json_integer_value(json_array_get(pair, 1)) < 0 ||
		    !json_is_integer(json_array_get(pair, 0)) ||
		    !json_is_integer(json_array_get(pair, 1)))
			return false;
	return true;
}

/* The lost file: nothing (newlines only, or none), a lost record (its
 * payload in st->note), or neither (said in the summary, not read). */
static void read_note(const struct journal_files *jf, struct log_state *st)
{
	const char *buf = jf->note;
	size_t n = jf->note_len, used = 0, i;
	struct jrec r;
	const char *why;
	for (i = 0; buf && i < n && buf[i] == '\n'; i++)
		;
	if (!buf || i == n)
		return;
	if (parse_record(buf, n, &r, &used, &why) == 1 && r.kind == JK_LOST) {
		for (i = used; i < n && buf[i] == '\n'; i++)
			;
		json_t *o = i == n ? json_loadb(r.payload, r.len, JSON_REJECT_DUPLICATES, NULL) : NULL;
		if (o && note_ok(o)) {
			st->note = o;
			return;
		}
		json_decref(o);
	}
	st->bad_note = true;
}

/* The log's end against what the now and lost files say the run had made:
 * records missing there are either the lost file's (the run could not
 * write them: st->lost_from..lost_to) or cut out (refused, named). */
static int check_end(struct jread *jr, struct log_state *st)
{
	uint64_t last = st->last_log, seen = st->now_log;
	uint64_t from = (uint64_t)json_integer_value(json_object_get(st->note, "from"));
	uint64_t to = (uint64_t)json_integer_value(json_object_get(st->note, "to"));
	char by[32];
	snprintf(by, sizeof by, "now.%d", st->now_log_file);
	if (st->note && to > seen) {
		seen = to;
		snprintf(by, sizeof by, "%s", JOURNAL_NOTE);
	}
	if (seen <= last)
		return 0;
	if (st->note && from <= last + 1 && to >= seen) {
		st->lost_from = last + 1;
		st->lost_to = to;
		return 0;
	}
	char miss[120];
	journal_range_text(miss, sizeof miss, last + 1, seen, seen);
	return jfail(jr, "%s missing at the end of the log: %s, written after them, counts %" PRIu64
		     " records: records were cut out of the journal after it was written, and its "
		     "run is not rendered", miss, by, seen);
}

/* Each finished requirement the lost record names, said to be measured
 * with its record lost (not "not measured"); their ids into ids. */
static void mark_lost(struct log_state *st, char *cut, char *ids, size_t idslen)
{
	const char *err = json_string_value(json_object_get(st->note, "error"));
	size_t i, shown = 0;
	json_t *pair;
	ids[0] = 0;
	json_array_foreach(json_object_get(st->note, "finished"), i, pair) {
		size_t f = (size_t)json_integer_value(json_array_get(pair, 0));
		size_t k = (size_t)json_integer_value(json_array_get(pair, 1));
		json_t *req = json_array_get(json_object_get(json_array_get(
			json_object_get(st->root, "files"), f), "requirements"), k);
		const char *id = json_string_value(json_object_get(req, "id"));
		char key[48];
		state_key(key, sizeof key, f, k);
		bool was_cut = id && cut[0] && strcmp(cut, id) == 0;
		/* One whose record is in the log was written after all (the lost
		 * file, rewritten after that, may not say so yet). */
		if (!json_is_object(req) || !id || (json_object_get(st->state, key) && !was_cut))
			continue;
		char reason[400];
		snprintf(reason, sizeof reason, "finished, but its record never reached the "
			 "journal (%s)%s", err, was_cut ? ": the figures are of the runs its last "
			 "checkpoint kept" : ": its figures are lost here (the run's own reports, "
			 "if they were written, hold them)");
		json_object_set_new(req, "reason", json_string(reason));
		if (was_cut)
			cut[0] = 0;
		st->lost_reqs++;
		size_t used = strlen(ids);
		if (shown++ < 8 && used + strlen(id) + 3 < idslen)
			snprintf(ids + used, idslen - used, "%s%s", used ? ", " : "", id);
	}
}

/* The element of array arr whose member key equals name (a string), or
 * whose "cpu" is the number name spells (per_cpu). */
static json_t *named(json_t *arr, const char *key, const char *name)
{
	size_t i;
	json_t *el;
	json_array_foreach(arr, i, el) {
		json_t *v = json_object_get(el, key);
		char buf[32];
		if (json_is_integer(v))
			snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		if ((json_is_string(v) && strcmp(json_string_value(v), name) == 0) ||
		    (json_is_integer(v) && strcmp(buf, name) == 0))
			return el;
	}
	return NULL;
}

/* Append each interval of group (name -> interval) to its metric or series. */
static void splice_group(json_t *arr, const char *key, json_t *group)
{
	const char *name;
	json_t *iv;
	json_object_foreach(group, name, iv) {
		json_t *el = named(arr, key, name);
		if (!json_is_object(el))
			continue; /* not measured in the state kept: the reader counts what is */
		json_t *list = json_object_get(el, "intervals");
		if (!json_is_array(list)) {
			list = json_array();
			json_object_set_new(el, "intervals", list);
		}
		json_array_append(list, iv);
	}
}

/* Each ival record in its requirement, when the requirement's record in
 * place was written after it (its samples are in that record's totals). */
static void splice_ivals(struct log_state *st)
{
	size_t i;
	json_t *rec;
	json_array_foreach(st->ivals, i, rec) {
		size_t file = (size_t)json_integer_value(json_object_get(rec, "file"));
		size_t index = (size_t)json_integer_value(json_object_get(rec, "index"));
		char key[48];
		state_key(key, sizeof key, file, index);
		json_int_t at = json_integer_value(json_object_get(st->state, key));
		if (at <= json_integer_value(json_object_get(rec, "seq")))
			continue;
		json_t *req = json_array_get(json_object_get(json_array_get(
			json_object_get(st->root, "files"), file), "requirements"), index);
		json_t *iv = json_object_get(rec, "intervals");
		splice_group(json_object_get(req, "metrics"), "name", json_object_get(iv, "metrics"));
		splice_group(json_object_get(req, "per_cpu"), "cpu", json_object_get(iv, "per_cpu"));
	}
}

/* How many requirements the run was to measure (selected ones). */
static size_t selected_count(json_t *root)
{
	size_t n = 0, i, k;
	json_t *f, *r;
	json_array_foreach(json_object_get(root, "files"), i, f)
		json_array_foreach(json_object_get(f, "requirements"), k, r)
			n += json_is_true(json_object_get(r, "selected"));
	return n;
}

/* The run's end and the journal's account of it, in the document. */
static void mark_recovered(json_t *root, const struct log_state *st, const char *jdir,
			   const char *cut, const char *lost_ids, struct journal_recovery *out)
{
	char when[32], drop[120] = "", cutting[200] = "", now[160] = "", lost[700] = "",
	     unread[240] = "";
	utc_fmt((int64_t)(st->written_ms / 1000u), true, when, sizeof when);
	if (cut[0])
		snprintf(cutting, sizeof cutting, "; %s cut short, with the runs it finished", cut);
	if (st->dropped)
		snprintf(drop, sizeof drop, "; a record cut short at its end (%zu bytes) dropped",
			 st->dropped);
	if (st->bad_now || st->bad_note)
		snprintf(now, sizeof now, "; %s%s%s%s%s cut short or damaged, not read",
			 st->bad_now & 1 ? "now.0" : "", st->bad_now == 3 ? " and " : "",
			 st->bad_now & 2 ? "now.1" : "",
			 st->bad_now && st->bad_note ? " and " : "", st->bad_note ? JOURNAL_NOTE : "");
	if (st->unread)
		snprintf(unread, sizeof unread, "; %s not read", st->unread);
	if (st->lost_to) {
		char range[120];
		json_int_t nfin = (json_int_t)st->lost_reqs +
				  json_integer_value(json_object_get(st->note, "more"));
		journal_range_text(range, sizeof range, st->lost_from, st->lost_to, st->lost_to);
		snprintf(lost, sizeof lost, "; %s never reached the journal (the run could not write "
			 "them: %s), with %" JSON_INTEGER_FORMAT " finished requirement%s%s%s%s",
			 range, json_string_value(json_object_get(st->note, "error")), nfin,
			 nfin == 1 ? "" : "s", lost_ids[0] ? " (" : "", lost_ids,
			 lost_ids[0] ? ")" : "");
	}
	/* Every requirement finished: the run is whole whether or not its end
	 * record made it to the disk. */
	size_t selected = selected_count(root);
	out->complete = st->finished >= selected && !cut[0] && !st->lost_to;
	snprintf(out->summary, sizeof out->summary,
		 "read from the journal %s, last written %s: %zu of %zu requirements finished%s%s%s%s%s%s",
		 jdir, when, st->finished, selected, cutting,
		 out->complete ? " (every one: the run ended before writing its reports)" : "", lost,
		 drop, now, unread);
	json_t *env = json_object_get(root, "environment");
	json_object_set_new(root, "ended", json_string(when));
	if (json_is_object(env)) {
		json_object_set_new(env, "rtconform.ended", json_string(when));
		json_object_set_new(env, "rtconform.interrupted",
				    json_string(out->complete ? "no" : "yes"));
		json_object_set_new(env, "rtconform.journal", json_string(out->summary));
	}
}

/* root (the recovered document) read as a results.json is. */
static int read_document(struct jread *jr, json_t *root, struct report_view *v)
{
	char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER |
					      JSON_REAL_PRECISION(RESULTS_REAL_DIGITS));
	FILE *m = text ? fmemopen(text, strlen(text), "r") : NULL;
	if (!m) {
		free(text);
		return jfail(jr, "%s", strerror(ENOMEM));
	}
	int rc = report_view_from_json_file(m, strlen(text), jr->name, true, v, jr->err,
					    jr->errlen);
	fclose(m);
	free(text);
	return rc;
}

int report_view_from_journal_bytes(const struct journal_files *jf, const char *jdir,
				   struct report_view *v, struct journal_recovery *out, char *err,
				   size_t errlen)
{
	char cut[200], ids[300];
	memset(v, 0, sizeof *v);
	memset(out, 0, sizeof *out);
	struct jread jr = { .name = jf->log_name, .err = err, .errlen = errlen };
	struct log_state st = { .root = NULL, .ivals = json_array(), .state = json_object(),
				.unread = jf->unread };
	if (jf->log_len > MAX_JOURNAL_BYTES) {
		jfail(&jr, "too large for a journal (limit %u MiB)", MAX_JOURNAL_BYTES >> 20);
	} else {
		/* The trees of the log, the now files and the lost file, within
		 * the reader's bound (READ_MEM_RATIO x the bytes given + a
		 * floor) for JSON_TREE_RATIO times their bytes: a record is
		 * compact JSON, whose tree takes up to about 20 times its
		 * text (a list of one-digit numbers: 2 bytes each, a 32-byte
		 * value and an 8-byte slot), and a run's records take 6 to 9
		 * times theirs (more than the 3x of an indented results.json,
		 * which refused a run of 8000 requirements). */
		size_t bytes = jf->log_len + jf->now_len[0] + jf->now_len[1] + jf->note_len;
		read_budget_start(bytes * JSON_TREE_RATIO);
		read_note(jf, &st);
		read_log(&jr, jf->log, jf->log_len, &st);
		if (!jr.rc)
			read_now(&jr, jf, &st, cut, sizeof cut);
		if (!jr.rc)
			check_end(&jr, &st);
		/* Past the bound, whatever failed failed for want of memory:
		 * that is what is said. */
		if (read_budget_stop()) {
			jr.rc = 0;
			jfail(&jr, "reading it needs more memory than a journal of %zu KiB may take "
			      "(its records hold more than a run writes)", jf->log_len >> 10);
		}
	}
	if (!jr.rc) {
		ids[0] = 0;
		if (st.lost_to)
			mark_lost(&st, cut, ids, sizeof ids);
		splice_ivals(&st);
		mark_recovered(st.root, &st, jdir, cut, ids, out);
		jr.rc = read_document(&jr, st.root, v);
	}
	json_decref(st.root);
	json_decref(st.ivals);
	json_decref(st.state);
	json_decref(st.note);
	return jr.rc;
}

/* File name of directory jdir read whole into *buf (NULL when it is not
 * there), at most max bytes: 0, or -errno / -EINVAL with err. */
static int slurp(const char *jdir, const char *name, size_t max, char **buf, size_t *len,
		 char *path, size_t pathlen, char *err, size_t errlen)
{
	size_t size;
	int rc;
	*buf = NULL;
	*len = 0;
	snprintf(path, pathlen, "%s/%s", jdir, name);
	/* Never a link (to another run's file, to a device) or a FIFO:
	 * read_open opens regular files only, and says what else it found. */
	FILE *f = read_open(path, &size, err, errlen, &rc);
	if (!f)
		return rc;
	if (size > max) {
		fclose(f);
		snprintf(err, errlen, "%s: too large for a journal's file (limit %zu MiB)", path,
			 max >> 20);
		return -EINVAL;
	}
	*buf = malloc(size ? size : 1);
	if (!*buf || fread(*buf, 1, size, f) != size) {
		rc = *buf ? -EIO : -ENOMEM;
		free(*buf);
		*buf = NULL;
		fclose(f);
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	fclose(f);
	*len = size;
	return 0;
}

int report_view_from_journal(const char *jdir, struct report_view *v,
			     struct journal_recovery *out, char *err, size_t errlen)
{
	char log[1400], other[1400], why[1600], unread[200] = "";
	char *bufs[4] = { NULL };
	static const char *const names[4] = { JOURNAL_LOG, "now.0", "now.1", JOURNAL_NOTE };
	struct journal_files jf = { .log_name = log };
	memset(v, 0, sizeof *v);
	memset(out, 0, sizeof *out);
	int rc = slurp(jdir, JOURNAL_LOG, MAX_JOURNAL_BYTES, &bufs[0], &jf.log_len, log,
		       sizeof log, err, errlen);
	/* The others may be missing (not made yet, or gone) or torn: the log
	 * holds the rest, and the summary says what was not read, and why
	 * when one is there but cannot be (a link, a FIFO, too large). */
	for (int k = 1; k < 4 && rc == 0; k++) {
		int e = slurp(jdir, names[k], MAX_JOURNAL_BYTES, &bufs[k], k < 3 ?
			      &jf.now_len[k - 1] : &jf.note_len, other, sizeof other, why,
			      sizeof why);
		size_t used = strlen(unread);
		if (e && e != -ENOENT)
			snprintf(unread + used, sizeof unread - used, "%s%s (%s)", used ? ", " : "",
				 names[k], safeopen_why(why, other));
	}
	jf.unread = unread[0] ? unread : NULL;
	if (rc == 0) {
		jf.log = bufs[0];
		jf.now[0] = bufs[1];
		jf.now[1] = bufs[2];
		jf.note = bufs[3];
		rc = report_view_from_journal_bytes(&jf, jdir, v, out, err, errlen);
	}
	for (int k = 0; k < 4; k++)
		free(bufs[k]);
	return rc;
}

char *journal_dir_of(const char *path)
{
	struct stat s;
	char buf[1400];
	if (stat(path, &s) != 0)
		return NULL;
	if (S_ISDIR(s.st_mode)) {
		snprintf(buf, sizeof buf, "%s/%s", path, JOURNAL_LOG);
		if (stat(buf, &s) == 0)
			return strdup(path); /* the journal directory itself */
		snprintf(buf, sizeof buf, "%s/%s/%s", path, JOURNAL_DIR, JOURNAL_LOG);
		if (stat(buf, &s) == 0) {
			snprintf(buf, sizeof buf, "%s/%s", path, JOURNAL_DIR);
			return strdup(buf); /* a run's directory */
		}
		return NULL;
	}
	/* A journal's log, named: recognised by its first line. Only a
	 * regular file is opened (read_open: a FIFO would block, a link is
	 * not followed): anything else is left to the results.json reader,
	 * which refuses it by name. */
	size_t size;
	int rc;
	FILE *f = S_ISREG(s.st_mode) ? read_open(path, &size, buf, sizeof buf, &rc) : NULL;
	char magic[sizeof JOURNAL_MAGIC_STEM] = "";
	size_t mlen = strlen(JOURNAL_MAGIC_STEM);
	/* Of any format: read_log says which it does not read. */
	bool is = f && fread(magic, 1, mlen, f) == mlen &&
		  memcmp(magic, JOURNAL_MAGIC_STEM, mlen) == 0;
	if (f)
		fclose(f);
	if (!is)
		return NULL;
	char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash)
		*slash = 0;
	else if (dir)
		strcpy(dir, ".");
	return dir;
}
