/* SPDX-License-Identifier: Apache-2.0 */
/* journal_read.c - a run read back from its journal (reports/journal.h):
 * the head's results.json with each finished requirement's record in its
 * place and the requirement cut short as its latest whole `now` record left
 * it, read as a results.json is (json_read.c) with its totals made anew. A
 * record cut short at the end (a torn append) is dropped and counted; any
 * other defect is an error naming the record. */
#include "reports/read/read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "reports/journal.h"
#include "reports/json_schema.h"
#include "reports/read/json_split.h"

/* A log as large as the largest results.json the reader takes, and a head
 * and records beside it. */
#define MAX_JOURNAL_BYTES (512u * 1024u * 1024u)

struct jrec {
	enum journal_kind kind;
	uint64_t seq;
	size_t file, index, len;
	uint64_t ms; /* when it was written (ms since the epoch, UTC) */
	char *payload;
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
	uint64_t seq, ms;
	size_t file, index, len;
	unsigned c;
	int end = 0;
	if (sscanf(line, "%7s %7s %" SCNu64 " %zu %zu %zu %" SCNu64 " %8x%n", tag, kind, &seq,
		   &file, &index, &len, &ms, &c, &end) != 8 || strcmp(tag, JOURNAL_TAG) != 0 ||
	    journal_kind_of(kind) < 0)
		return false;
	char again[JOURNAL_HEADER_MAX];
	int h = snprintf(again, sizeof again, "%s %s %" PRIu64 " %zu %zu %zu %" PRIu64 " ",
			 JOURNAL_TAG, kind, seq, file, index, len, ms);
	snprintf(again + h, sizeof again - (size_t)h, "%08x\n", c);
	if (strcmp(again, line) != 0)
		return false;
	*r = (struct jrec){ .kind = (enum journal_kind)journal_kind_of(kind), .seq = seq,
			    .file = file, .index = index, .len = len, .ms = ms };
	*crc = (uint32_t)c;
	*crc_at = (size_t)h;
	return true;
}

/* next_record's answers besides 1 (read) and 0 (nothing more). */
enum { REC_TORN = -1, REC_DAMAGED = -2 };

/* Whether another record's header line begins in what is left of f: a
 * record whose length runs past the end is torn only when it is the last
 * (a payload never holds a line that begins with the tag). */
static bool header_follows(FILE *f)
{
	static const char mark[] = "\n" JOURNAL_TAG " ";
	char buf[65536 + sizeof mark];
	size_t keep = 0, n;
	while ((n = fread(buf + keep, 1, sizeof buf - keep - 1, f)) > 0) {
		n += keep;
		buf[n] = 0;
		if (memmem(buf, n, mark, sizeof mark - 1))
			return true;
		keep = sizeof mark - 2; /* a mark cut by the chunk's end */
		memmove(buf, buf + n - keep, keep);
	}
	return false;
}

/* The record at f's position, at most `left` bytes: 1 read (r->payload
 * malloc'd), 0 nothing more, REC_TORN a record cut short at the end (what
 * a torn append or a power cut leaves: its header or payload runs past the
 * end, or it is the last record and its CRC fails), REC_DAMAGED a record
 * that is wrong with more after it, or a whole header line that is not
 * one: the journal was changed after it was written. */
static int next_record(FILE *f, size_t left, struct jrec *r)
{
	char line[JOURNAL_HEADER_MAX + 1];
	uint32_t crc;
	size_t crc_at;
	int c = fgetc(f);
	if (c == EOF)
		return 0;
	ungetc(c, f);
	if (!fgets(line, sizeof line, f))
		return REC_TORN;
	size_t hlen = strlen(line);
	if (!strchr(line, '\n'))
		return hlen >= left ? REC_TORN : REC_DAMAGED;
	if (!parse_header(line, r, &crc, &crc_at))
		return REC_DAMAGED;
	if (r->len > left - hlen || left - hlen - r->len < 1)
		return header_follows(f) ? REC_DAMAGED : REC_TORN;
	bool last = left - hlen - r->len == 1;
	r->payload = malloc(r->len + 1);
	if (!r->payload || fread(r->payload, 1, r->len, f) != r->len || fgetc(f) != '\n' ||
	    journal_crc(line, crc_at, r->payload, r->len) != crc) {
		free(r->payload);
		r->payload = NULL;
		return last ? REC_TORN : REC_DAMAGED;
	}
	r->payload[r->len] = 0;
	return 1;
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
	size_t dropped;       /* bytes of a record cut short at the end */
	uint64_t written_ms;  /* the latest record's time (ms since the epoch) */
	json_t *ivals;        /* the ival records: [{seq, file, index, intervals}] */
	json_t *state;        /* "FILE:INDEX": the seq of the record in place */
	unsigned bad_now;     /* bit k: now.k is there but holds no whole record */
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

/* One record of the log after the head: a finished requirement or the end. */
static int log_record(struct jread *jr, struct log_state *st, const struct jrec *r)
{
	if (r->seq <= st->last_seq || st->end || r->kind == JK_HEAD || r->kind == JK_NOW)
		return jfail(jr, "record %" PRIu64 " (%s) out of place (after record %" PRIu64 ")",
			     r->seq, journal_kind_name(r->kind), st->last_seq);
	st->last_seq = r->seq;
	if (r->kind == JK_END) {
		st->end = true;
		return 0;
	}
	if (r->kind == JK_IVAL)
		return keep_ival(jr, st, r);
	char key[48];
	state_key(key, sizeof key, r->file, r->index);
	if (json_object_get(st->state, key))
		return jfail(jr, "record %" PRIu64 " (req) is a second record of requirement %zu "
			     "of file %zu: a run journals each once", r->seq, r->index, r->file);
	st->finished++;
	st->last_req_seq = r->seq;
	json_object_set_new(st->state, key, json_integer((json_int_t)r->seq));
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
	return 0;
}

/* Read the log: magic, head, then records until the end of the file or a
 * record cut short (counted in st->dropped). */
static int read_log(struct jread *jr, FILE *f, size_t size, struct log_state *st)
{
	char magic[sizeof JOURNAL_MAGIC];
	size_t mlen = strlen(JOURNAL_MAGIC);
	size_t slen = strlen(JOURNAL_MAGIC_STEM);
	bool got = fread(magic, 1, mlen, f) == mlen;
	if (got && memcmp(magic, JOURNAL_MAGIC_STEM, slen) == 0 && magic[mlen - 1] == '\n' &&
	    memcmp(magic, JOURNAL_MAGIC, mlen) != 0)
		return jfail(jr, "a journal of format %.*s, which this rtconform does not read (it "
			     "reads format %d): render it with the rtconform that wrote it",
			     (int)(mlen - slen - 1), magic + slen, JOURNAL_VERSION);
	if (!got || memcmp(magic, JOURNAL_MAGIC, mlen) != 0)
		return jfail(jr, "not an rtconform journal (it does not begin \"%.*s\")",
			     (int)mlen - 1, JOURNAL_MAGIC);
	for (;;) {
		long at = ftell(f);
		struct jrec r;
		int got = next_record(f, size - (size_t)at, &r);
		if (got == REC_DAMAGED)
			return jfail(jr, "the record at byte %ld is damaged (its header, newline or "
				     "CRC is wrong) and more follows it: the journal was changed "
				     "after it was written", at);
		if (got == REC_TORN)
			st->dropped = size - (size_t)at;
		if (got <= 0)
			break;
		if (r.ms > st->written_ms)
			st->written_ms = r.ms;
		int rc = st->root ? log_record(jr, st, &r) : log_head(jr, st, &r);
		free(r.payload);
		if (rc)
			return rc;
	}
	if (!st->root && st->dropped)
		return jfail(jr, "no run to read: its head record is cut short or damaged (%zu "
			     "bytes after the first line)", st->dropped);
	if (!st->root)
		return jfail(jr, "no run to read: rtconform ended before the run began (nothing "
			     "was measured)");
	return 0;
}

/* The latest whole `now` record newer than the log's last record (the
 * requirement being measured when rtconform ended), put in its place; its
 * id in cut ("" without one). A now file cut short is skipped: the other
 * one is whole. */
static int read_now(struct jread *jr, const char *jdir, struct log_state *st, char *cut,
		    size_t cutlen)
{
	struct jrec best = { .payload = NULL };
	cut[0] = 0;
	for (int k = 0; k < 2; k++) {
		char path[1400];
		size_t size;
		int rc;
		snprintf(path, sizeof path, "%s/now.%d", jdir, k);
		FILE *f = read_open(path, &size, jr->err, jr->errlen, &rc);
		if (!f)
			continue; /* not made yet, or gone: the log holds the rest */
		struct jrec r;
		int got = size <= MAX_JOURNAL_BYTES ? next_record(f, size, &r) : REC_DAMAGED;
		if (got < 0)
			st->bad_now |= 1u << k; /* said in the summary: the other one stands */
		if (got == 1 && r.ms > st->written_ms)
			st->written_ms = r.ms;
		if (got == 1) {
			char key[48];
			state_key(key, sizeof key, r.file, r.index);
			/* Of the requirement measured after the last one that
			 * finished (ival records may come after it), and not
			 * one that finished itself. */
			if (r.kind == JK_NOW && r.seq > st->last_req_seq && r.seq > best.seq &&
			    !json_object_get(st->state, key)) {
				free(best.payload);
				best = r;
			} else {
				free(r.payload);
			}
		}
		fclose(f);
	}
	jr->err[0] = 0;
	if (!best.payload)
		return 0;
	char key[48];
	state_key(key, sizeof key, best.file, best.index);
	json_object_set_new(st->state, key, json_integer((json_int_t)best.seq));
	int rc = place(jr, st->root, &best);
	json_t *obj = json_loadb(best.payload, best.len, 0, NULL);
	snprintf(cut, cutlen, "%s", json_string_value(json_object_get(obj, "id")) ?: "");
	json_decref(obj);
	free(best.payload);
	return rc;
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
			   const char *cut, struct journal_recovery *out)
{
	char when[32], drop[120] = "", cutting[200] = "", now[120] = "";
	struct tm tm;
	time_t written = (time_t)(st->written_ms / 1000u);
	gmtime_r(&written, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (cut[0])
		snprintf(cutting, sizeof cutting, "; %s cut short, with the runs it finished", cut);
	if (st->dropped)
		snprintf(drop, sizeof drop, "; a record cut short at its end (%zu bytes) dropped",
			 st->dropped);
	if (st->bad_now)
		snprintf(now, sizeof now, "; %s%s%s cut short or damaged, not read",
			 st->bad_now & 1 ? "now.0" : "", st->bad_now == 3 ? " and " : "",
			 st->bad_now & 2 ? "now.1" : "");
	/* Every requirement finished: the run is whole whether or not its end
	 * record made it to the disk. */
	size_t selected = selected_count(root);
	out->complete = st->finished >= selected && !cut[0];
	snprintf(out->summary, sizeof out->summary,
		 "read from the journal %s, last written %s: %zu of %zu requirements finished%s%s%s%s",
		 jdir, when, st->finished, selected, cutting,
		 out->complete ? " (every one: the run ended before writing its reports)" : "", drop,
		 now);
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

int report_view_from_journal(const char *jdir, struct report_view *v,
			     struct journal_recovery *out, char *err, size_t errlen)
{
	char log[1400], cut[200];
	size_t size;
	int rc;
	memset(v, 0, sizeof *v);
	memset(out, 0, sizeof *out);
	snprintf(log, sizeof log, "%s/%s", jdir, JOURNAL_LOG);
	struct jread jr = { .name = log, .err = err, .errlen = errlen };
	FILE *f = read_open(log, &size, err, errlen, &rc);
	if (!f)
		return rc;
	struct log_state st = { .root = NULL, .ivals = json_array(), .state = json_object() };
	if (size > MAX_JOURNAL_BYTES) {
		jfail(&jr, "too large for a journal (limit %u MiB)", MAX_JOURNAL_BYTES >> 20);
	} else {
		/* The trees of the log and of a now file, within the reader's
		 * bound for files of that size (the now files are not larger
		 * than a requirement's record). */
		read_budget_start(size * 2);
		read_log(&jr, f, size, &st);
		if (!jr.rc)
			read_now(&jr, jdir, &st, cut, sizeof cut);
		if (read_budget_stop() && !jr.rc)
			jfail(&jr, "reading it needs more memory than a journal of %zu KiB may take "
			      "(its records hold more than a run writes)", size >> 10);
	}
	fclose(f);
	if (!jr.rc) {
		splice_ivals(&st);
		mark_recovered(st.root, &st, jdir, cut, out);
		jr.rc = read_document(&jr, st.root, v);
	}
	json_decref(st.root);
	json_decref(st.ivals);
	json_decref(st.state);
	return jr.rc;
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
