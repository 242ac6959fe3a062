/* SPDX-License-Identifier: Apache-2.0 */
/* test_journal.c - the run's journal (reports/journal.h): the reader takes
 * a tear at any byte of the last record as a tear and reads nothing past
 * its bytes (run under the ASan build, each cut is its own allocation);
 * records missing or damaged with records after them are named and
 * refused; the writer keeps what a full file cannot take and writes it once
 * there is room, its lost file naming it meanwhile. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/crc32.h"
#include "cli/run_journal.h"
#include "reports/journal.h"
#include "reports/read/read.h"
#include "test_util.h"

#define PASS_JSON RTC_SOURCE_DIR "/tests/fixtures/results/pass.json"
/* A real run's journal: four selftest requirements A-D, every one passed,
 * its reports refused (summary.txt a directory) so that it was kept: log
 * records head 1, A 2, B 3, C 4, D 5, end 6; now.0 C's last run (LOG 3),
 * now.1 D's (LOG 4). */
#define FIXTURE RTC_SOURCE_DIR "/tests/fixtures/journal"

/* The fixture's log, its records found by their header lines. */
struct built {
	char *buf;
	size_t len;
	size_t at[8], end[8]; /* each record's first byte and the byte past it */
	size_t n;
};

static void build(struct built *b)
{
	memset(b, 0, sizeof *b);
	b->buf = tu_slurp(FIXTURE "/log", &b->len);
	size_t at = strlen(JOURNAL_MAGIC);
	ck_assert(memcmp(b->buf, JOURNAL_MAGIC, at) == 0);
	while (at < b->len) {
		char kind[8];
		unsigned long long seq, log, ms;
		size_t file, index, len;
		unsigned crc;
		int hlen = 0;
		ck_assert_int_eq(sscanf(b->buf + at, "rtcj %7s %llu %llu %zu %zu %zu %llu %8x%n", kind,
					&seq, &log, &file, &index, &len, &ms, &crc, &hlen),
				 8);
		ck_assert_uint_lt(b->n, 8);
		b->at[b->n] = at;
		ck_assert_int_eq(b->buf[at + (size_t)hlen], '\n');
		at += (size_t)hlen + 1 + len + 1;
		b->end[b->n++] = at;
	}
	ck_assert_uint_eq(b->n, 6);
	ck_assert_uint_eq(at, b->len);
}

/* A record appended to b (a now or lost file made by the test). */
static void add_record(struct built *b, const char *kind, uint64_t seq, uint64_t log,
		       size_t file, size_t index, const char *payload, size_t len)
{
	char head[JOURNAL_HEADER_MAX];
	int h = snprintf(head, sizeof head,
			 "%s %s %" PRIu64 " %" PRIu64 " %zu %zu %zu %" PRIu64 " ", JOURNAL_TAG, kind,
			 seq, log, file, index, len, (uint64_t)1796400000000u + seq);
	uint32_t crc = journal_crc(head, (size_t)h, payload, len);
	h += snprintf(head + h, sizeof head - (size_t)h, "%08" PRIx32 "\n", crc);
	b->buf = realloc(b->buf, b->len + (size_t)h + len + 1);
	ck_assert_ptr_nonnull(b->buf);
	memcpy(b->buf + b->len, head, (size_t)h);
	memcpy(b->buf + b->len + (size_t)h, payload, len);
	b->len += (size_t)h + len;
	b->buf[b->len++] = '\n';
}

/* One read of log bytes (copied into an allocation of their own size, so
 * that ASan sees a byte read past them) and now.0 / lost bytes. */
struct got {
	int rc;
	char err[2048];
	struct report_view v;
	struct journal_recovery out;
};

static void read_bytes(struct got *g, const char *log, size_t len, const char *now,
		       size_t nowlen, const char *note, size_t notelen)
{
	char *copy = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, log, len);
	struct journal_files jf = { .log_name = "t/journal/log", .log = copy, .log_len = len,
				    .now = { now, NULL }, .now_len = { nowlen, 0 },
				    .note = note, .note_len = notelen };
	g->err[0] = 0;
	g->rc = report_view_from_journal_bytes(&jf, "t/journal", &g->v, &g->out, g->err,
					       sizeof g->err);
	free(copy);
}

static enum verdict verdict_of(const struct got *g, size_t i)
{
	ck_assert_uint_ge(g->v.nfiles, 1);
	ck_assert_uint_gt(g->v.files[0].nreqs, i);
	return g->v.files[0].reqs[i].verdict;
}

/* The CRC-32 of a record is ISO-HDLC's (zlib's, which wrote the journals
 * before base/crc32.c did): its check value, whole and in two pieces as a
 * record is summed (header, then payload), and the empty input. A journal
 * written by an older rtconform still reads. */
START_TEST(crc32_known_answers)
{
	ck_assert_uint_eq(crc32_update(0, "123456789", 9), 0xCBF43926u);
	ck_assert_uint_eq(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u);
	ck_assert_uint_eq(journal_crc("1234", 4, "56789", 5), 0xCBF43926u);
	ck_assert_uint_eq(crc32_update(0, "", 0), 0);
	ck_assert_uint_eq(crc32_update(0, "a", 1), 0xE8B7BE43u);
	ck_assert_uint_eq(crc32_update(0, "The quick brown fox jumps over the lazy dog", 43),
			  0x414FA339u);
}
END_TEST

START_TEST(whole_journal_reads)
{
	struct built b;
	struct got g;
	build(&b);
	read_bytes(&g, b.buf, b.len, NULL, 0, NULL, 0);
	ck_assert_msg(g.rc == 0, "%s", g.err);
	ck_assert(g.out.complete);
	for (size_t i = 0; i < 4; i++)
		ck_assert_int_eq(verdict_of(&g, i), VERDICT_PASS);
	report_view_free(&g.v);
	free(b.buf);
}
END_TEST

/* A kill inside the last append (D's req record) leaves it cut at any
 * byte: each cut is a tear, dropped and said, and the record not read. */
START_TEST(torn_last_record_at_every_byte)
{
	struct built b;
	build(&b);
	size_t last = 4;
	for (size_t cut = b.at[last] + 1; cut < b.end[last]; cut++) {
		struct got g;
		read_bytes(&g, b.buf, cut, NULL, 0, NULL, 0);
		ck_assert_msg(g.rc == 0, "cut at %zu: %s", cut, g.err);
		char want[80];
		snprintf(want, sizeof want, "a record cut short at its end (%zu bytes) dropped",
			 cut - b.at[last]);
		ck_assert_msg(strstr(g.out.summary, want), "cut at %zu: %s", cut, g.out.summary);
		ck_assert_msg(strstr(g.out.summary, "3 of 4 requirements finished"), "%s",
			      g.out.summary);
		ck_assert(!g.out.complete);
		ck_assert_int_eq(verdict_of(&g, 2), VERDICT_PASS);
		ck_assert_int_eq(verdict_of(&g, 3), VERDICT_ERROR);
		report_view_free(&g.v);
	}
	/* cut inside the head, at every byte: no run to read */
	for (size_t cut = b.at[0] + 1; cut < b.end[0]; cut++) {
		struct got g;
		read_bytes(&g, b.buf, cut, NULL, 0, NULL, 0);
		ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "no run to read"), "cut at %zu: %d %s",
			      cut, g.rc, g.err);
	}
	free(b.buf);
}
END_TEST

/* One bit flipped anywhere in a record followed by whole records (B's,
 * record 3) is corruption, named with what follows, never a tear. */
START_TEST(flipped_bit_in_a_middle_record)
{
	struct built b;
	build(&b);
	char want[80];
	snprintf(want, sizeof want, "record 3 (at byte %zu) is corrupt", b.at[2]);
	for (size_t at = b.at[2]; at < b.end[2]; at++) {
		struct got g;
		b.buf[at] ^= (char)(1u << (at % 8));
		read_bytes(&g, b.buf, b.len, NULL, 0, NULL, 0);
		b.buf[at] ^= (char)(1u << (at % 8));
		ck_assert_msg(g.rc == -EINVAL && strstr(g.err, want) && strstr(g.err, " follow"),
			      "byte %zu: %d %s", at, g.rc, g.err);
	}
	free(b.buf);
}
END_TEST

/* Whole records cut out are named ("records 3-4 of 6 missing"); one
 * repeated is out of place. */
START_TEST(missing_records_are_named)
{
	struct built b;
	struct got g;
	build(&b);
	char *log = malloc(2 * b.len);
	ck_assert_ptr_nonnull(log);
	size_t len = b.at[2];
	memcpy(log, b.buf, len);
	memcpy(log + len, b.buf + b.end[2], b.len - b.end[2]);
	read_bytes(&g, log, len + b.len - b.end[2], NULL, 0, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "record 3 of 6 missing: record 4 (at byte"),
		      "%s", g.err);
	memcpy(log + len, b.buf + b.end[3], b.len - b.end[3]);
	read_bytes(&g, log, len + b.len - b.end[3], NULL, 0, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "records 3-4 of 6 missing"), "%s", g.err);
	memcpy(log, b.buf, b.end[1]);
	memcpy(log + b.end[1], b.buf + b.at[1], b.len - b.at[1]);
	read_bytes(&g, log, b.end[1] + b.len - b.at[1], NULL, 0, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "record 2 (req, at byte") &&
			      strstr(g.err, "out of place"), "%s", g.err);
	free(log);
	free(b.buf);
}
END_TEST

/* A now record that counts more log records than the log holds: records
 * cut from its end, refused; with a lost record naming them (the run could
 * not write them), read, the requirement said finished with its record lost. */
START_TEST(records_missing_at_the_end)
{
	struct built b, note = { .buf = NULL };
	struct got g;
	size_t nowlen;
	build(&b);
	char *now = tu_slurp(FIXTURE "/now.1", &nowlen); /* D's, LOG 4 */
	read_bytes(&g, b.buf, b.end[2], now, nowlen, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "record 4 of 4 missing at the end of the "
						       "log: now.0, written after them"),
		      "%s", g.err);
	const char *lost = "{\"from\":4,\"to\":4,\"error\":\"No space left on device\","
			   "\"finished\":[[0,2]],\"more\":0}";
	add_record(&note, "lost", 8, 4, 0, 0, lost, strlen(lost));
	char padded[JOURNAL_NOTE_BYTES];
	memset(padded, '\n', sizeof padded);
	memcpy(padded, note.buf, note.len);
	read_bytes(&g, b.buf, b.end[2], now, nowlen, padded, sizeof padded);
	ck_assert_msg(g.rc == 0, "%s", g.err);
	ck_assert_msg(strstr(g.out.summary, "record 4 of 4 never reached the journal (the run "
				"could not write them: No space left on device), with 1 finished "
				"requirement (C)"), "%s", g.out.summary);
	ck_assert_msg(strstr(g.out.summary, "D cut short"), "%s", g.out.summary);
	ck_assert(!g.out.complete);
	ck_assert_int_eq(verdict_of(&g, 2), VERDICT_ERROR);
	ck_assert_ptr_nonnull(g.v.files[0].reqs[2].reason);
	ck_assert_msg(strstr(g.v.files[0].reqs[2].reason, "finished, but its record never "
							   "reached the journal"),
		      "%s", g.v.files[0].reqs[2].reason);
	report_view_free(&g.v);
	/* a lost file that is damaged is said and not read: the gap stays */
	padded[note.len - 5] ^= 1;
	read_bytes(&g, b.buf, b.end[2], now, nowlen, padded, sizeof padded);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "missing at the end"), "%s", g.err);
	free(now);
	free(note.buf);
	free(b.buf);
}
END_TEST

/* The fixture's records picked (order: indices into b's records, ending at
 * a negative one) and written again as a forger would: LOG and SEQ made
 * consecutive, each CRC made right. */
static void forge(struct built *out, const struct built *b, const int *order)
{
	memset(out, 0, sizeof *out);
	out->len = strlen(JOURNAL_MAGIC);
	out->buf = strdup(JOURNAL_MAGIC);
	ck_assert_ptr_nonnull(out->buf);
	for (uint64_t n = 1; *order >= 0; order++, n++) {
		const char *p = b->buf + b->at[*order];
		char kind[8];
		unsigned long long seq, log, ms;
		size_t file, index, len;
		unsigned crc;
		int hlen = 0;
		ck_assert_int_eq(sscanf(p, "rtcj %7s %llu %llu %zu %zu %zu %llu %8x%n", kind, &seq, &log,
					&file, &index, &len, &ms, &crc, &hlen), 8);
		add_record(out, kind, n, n, file, index, p + hlen + 1, len);
	}
}

/* Records cut, moved or spliced with every number and CRC made right: each
 * record must be of the requirement the run measures there (the head's
 * selected ones in file order), so a run that lost a requirement's record
 * is never rendered as one that did not reach it. */
START_TEST(records_out_of_turn_are_refused)
{
	struct built b, f, now = { .buf = NULL };
	struct got g;
	build(&b);
	static const int cut_a[] = { 0, 2, 3, 4, 5, -1 }, swapped[] = { 0, 1, 3, 2, 4, 5, -1 },
			 end_early[] = { 0, 1, 2, 3, 5, -1 }, to_b[] = { 0, 1, 2, -1 },
			 to_c[] = { 0, 1, 2, 3, -1 };
	forge(&f, &b, cut_a);
	read_bytes(&g, f.buf, f.len, NULL, 0, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "record 2 (req) is of requirement 1 of file "
						       "0, but the run measures"), "%s", g.err);
	free(f.buf);
	forge(&f, &b, swapped);
	read_bytes(&g, f.buf, f.len, NULL, 0, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "record 3 (req) is of requirement 2 of file "
						       "0, but the run measures"), "%s", g.err);
	free(f.buf);
	forge(&f, &b, end_early);
	read_bytes(&g, f.buf, f.len, NULL, 0, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "record 5 (end) says every requirement "
						       "finished, but"), "%s", g.err);
	free(f.buf);
	/* the requirement being measured: a now record of D while C has none */
	size_t nowlen;
	char *d = tu_slurp(FIXTURE "/now.1", &nowlen);
	const char *pl = strchr(d, '\n') + 1;
	add_record(&now, "now", 4, 3, 0, 3, pl, nowlen - (size_t)(pl - d) - 1);
	forge(&f, &b, to_b);
	read_bytes(&g, f.buf, f.len, now.buf, now.len, NULL, 0);
	ck_assert_msg(g.rc == -EINVAL && strstr(g.err, "the now record (record 4 of the run) is of "
						       "requirement 3 of file 0, but the run "
						       "measures"), "%s", g.err);
	free(f.buf);
	free(now.buf);
	/* as the run left it: D cut short after C */
	now.buf = NULL;
	now.len = 0;
	add_record(&now, "now", 5, 4, 0, 3, pl, nowlen - (size_t)(pl - d) - 1);
	forge(&f, &b, to_c);
	read_bytes(&g, f.buf, f.len, now.buf, now.len, NULL, 0);
	ck_assert_msg(g.rc == 0, "%s", g.err);
	ck_assert_int_eq(verdict_of(&g, 2), VERDICT_PASS);
	ck_assert_int_eq(verdict_of(&g, 3), VERDICT_ERROR);
	report_view_free(&g.v);
	/* a lost file naming C, whose record is in the log (written after
	 * all): C stays as measured, and is not counted among the lost */
	struct built note = { .buf = NULL };
	const char *lost = "{\"from\":4,\"to\":5,\"error\":\"No space left on device\","
			   "\"finished\":[[0,2]],\"more\":0}";
	add_record(&note, "lost", 6, 5, 0, 0, lost, strlen(lost));
	read_bytes(&g, f.buf, f.len, now.buf, now.len, note.buf, note.len);
	ck_assert_msg(g.rc == 0, "%s", g.err);
	ck_assert_int_eq(verdict_of(&g, 2), VERDICT_PASS);
	ck_assert_ptr_null(g.v.files[0].reqs[2].reason);
	ck_assert_msg(strstr(g.out.summary, "with 0 finished requirements"), "%s", g.out.summary);
	report_view_free(&g.v);
	free(note.buf);
	free(f.buf);
	free(now.buf);
	free(d);
	free(b.buf);
}
END_TEST

/* The fixture's journal files copied into dir/journal, each of names[]
 * (NULL-ended) replaced by a symbolic link to the fixture's own file or,
 * with fifo, by a FIFO. */
static void journal_copy(const char *dir, const char *const *names, bool fifo)
{
	static const char *const files[] = { "log", "now.0", "now.1", "lost", NULL };
	char path[400], from[400];
	snprintf(path, sizeof path, "%s/journal", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	for (const char *const *f = files; *f; f++) {
		bool odd = false;
		for (const char *const *n = names; *n; n++)
			odd |= strcmp(*n, *f) == 0;
		snprintf(path, sizeof path, "%s/journal/%s", dir, *f);
		snprintf(from, sizeof from, "%s/%s", FIXTURE, *f);
		if (odd && fifo) {
			ck_assert_int_eq(mkfifo(path, 0644), 0);
		} else if (odd) {
			ck_assert_int_eq(symlink(from, path), 0);
		} else {
			size_t n;
			char *text = tu_slurp(from, &n);
			FILE *o = fopen(path, "wb");
			ck_assert_ptr_nonnull(o);
			ck_assert_uint_eq(fwrite(text, 1, n, o), n);
			fclose(o);
			free(text);
		}
	}
}

/* A journal's files are regular files the run made: a link in the place of
 * the log is refused (never followed: it could be another run's), one in the
 * place of a now or lost file, or a FIFO, is not read and said so. */
START_TEST(links_and_fifos_are_not_read)
{
	static const char *const log[] = { "log", NULL }, *const now1[] = { "now.1", NULL },
				 *const odd[] = { "now.0", "lost", NULL };
	char err[2048], jdir[400];
	struct report_view v;
	struct journal_recovery out;
	for (int c = 0; c < 3; c++) {
		char dir[] = "/tmp/rtc-journal-XXXXXX";
		ck_assert_ptr_nonnull(mkdtemp(dir));
		journal_copy(dir, c == 0 ? log : c == 1 ? now1 : odd, c == 2);
		snprintf(jdir, sizeof jdir, "%s/journal", dir);
		int rc = report_view_from_journal(jdir, &v, &out, err, sizeof err);
		if (c == 0) {
			ck_assert_msg(rc == -ELOOP && strstr(err, "/journal/log: not a regular file (a "
								  "symbolic link)"), "%s", err);
		} else {
			ck_assert_msg(rc == 0, "%s", err);
			ck_assert_msg(strstr(out.summary, c == 1 ? "; now.1 (not a regular file (a "
							       "symbolic link)) not read"
								 : "; now.0 (not a regular file (a FIFO)), "
								   "lost (not a regular file (a FIFO)) not "
								   "read"), "%s", out.summary);
			report_view_free(&v);
		}
		tu_rm_tree(dir);
	}
}
END_TEST

/* The writer on a file that cannot grow (RLIMIT_FSIZE, as a full disk): the
 * record waits, the log is cut back to its last whole record, the lost file
 * names it; once the file may grow, it is written and the journal is whole. */
START_TEST(writer_keeps_what_a_full_file_cannot_take)
{
	char dir[] = "/tmp/rtc-journal-XXXXXX", log[300], err[1400];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	signal(SIGXFSZ, SIG_IGN);
	struct report_view v;
	ck_assert_int_eq(report_view_read(PASS_JSON, &v, err, sizeof err), 0);
	struct journal j;
	ck_assert_msg(journal_open(&j, dir, err, sizeof err) == 0, "%s", err);
	/* a head of no requirement: the end record follows it alone */
	size_t nreqs = v.files[0].nreqs;
	v.files[0].nreqs = 0;
	ck_assert_int_eq(journal_head(&j, &v), 0);
	v.files[0].nreqs = nreqs;
	snprintf(log, sizeof log, "%s/journal/log", dir);
	struct stat st;
	ck_assert_int_eq(stat(log, &st), 0);
	off_t whole = st.st_size;
	struct rlimit was, small = { .rlim_cur = (rlim_t)whole + 10, .rlim_max = RLIM_INFINITY };
	getrlimit(RLIMIT_FSIZE, &was);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	ck_assert_int_eq(journal_end(&j), -EFBIG);
	char what[200];
	ck_assert(journal_missing(&j, what, sizeof what));
	ck_assert_str_eq(what, "record 2 of 2 (0 finished requirements among them)");
	ck_assert_int_eq(stat(log, &st), 0);
	ck_assert_int_eq(st.st_size, whole); /* the 10 bytes that went in, cut back */
	/* read as it stands: the lost file names the record */
	char jdir[320];
	snprintf(jdir, sizeof jdir, "%s/journal", dir);
	struct journal_recovery out;
	struct report_view got;
	ck_assert_msg(report_view_from_journal(jdir, &got, &out, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(strstr(out.summary, "record 2 of 2 never reached the journal (the run could "
					  "not write them: File too large)"), "%s", out.summary);
	report_view_free(&got);
	/* room again */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &was), 0);
	ck_assert_int_eq(journal_flush(&j), 0);
	ck_assert(!journal_missing(&j, what, sizeof what));
	ck_assert_int_eq(journal_end(&j), 0);
	ck_assert_msg(report_view_from_journal(jdir, &got, &out, err, sizeof err) != 0 &&
			      strstr(err, "record 3 (end) out of place (after record 2)"),
		      "%s", err); /* the end written, and a second one after it */
	journal_close(&j, false);
	char lost[320];
	snprintf(lost, sizeof lost, "%s/journal/%s", dir, JOURNAL_NOTE);
	size_t n;
	char *text = tu_slurp(lost, &n);
	ck_assert_uint_eq(n, JOURNAL_NOTE_BYTES);
	ck_assert_uint_eq(strspn(text, "\n"), n); /* nothing lost: newlines again */
	free(text);
	report_view_free(&v);
	tu_rm_tree(dir);
}
END_TEST

/* A run whose journal never takes what waits: at its end, stderr and the
 * run's environment (results.json's rtconform.journal) say what never
 * reached it; with room, nothing is said. */
START_TEST(run_says_what_never_reached_the_journal)
{
	char dir[] = "/tmp/rtc-journal-XXXXXX", results[300], err[1400];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	signal(SIGXFSZ, SIG_IGN);
	struct report_view v;
	ck_assert_int_eq(report_view_read(PASS_JSON, &v, err, sizeof err), 0);
	snprintf(results, sizeof results, "%s/results.json", dir);
	struct run_journal rj;
	ck_assert_int_eq(run_journal_open(&rj, results), 0);
	ck_assert_int_eq(journal_head(&rj.j, &v), 0);
	struct rlimit was, small = { .rlim_cur = 64, .rlim_max = RLIM_INFINITY };
	getrlimit(RLIMIT_FSIZE, &was);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	struct fingerprint env = { 0 };
	run_journal_settle(&rj, true, &env);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &was), 0);
	const char *said = fingerprint_get(&env, "rtconform.journal");
	ck_assert_ptr_nonnull(said);
	ck_assert_str_eq(said, "record 2 of 2 (0 finished requirements among them) never reached "
			       "the journal (File too large); the reports hold them");
	run_journal_close(&rj, true);
	fingerprint_free(&env);
	/* with room: nothing said */
	ck_assert_int_eq(run_journal_open(&rj, results), 0);
	ck_assert_int_eq(journal_head(&rj.j, &v), 0);
	struct fingerprint env2 = { 0 };
	run_journal_settle(&rj, true, &env2);
	ck_assert_ptr_null(fingerprint_get(&env2, "rtconform.journal"));
	run_journal_close(&rj, true);
	fingerprint_free(&env2);
	report_view_free(&v);
	tu_rm_tree(dir);
}
END_TEST

/* The journal's directory is opened as every output's (report_open_dir):
 * results.json's directory reached through a link planted in a directory
 * others may write is refused naming the link, and nothing is made where
 * the link points (issue 38: the journal was made through it). */
START_TEST(journal_not_made_through_a_planted_link)
{
	char dir[] = "/tmp/rtc-journal-XXXXXX", shared[320], target[320], via[330], err[1400];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(shared, sizeof shared, "%s/shared", dir);
	snprintf(target, sizeof target, "%s/elsewhere", dir);
	snprintf(via, sizeof via, "%s/out", shared);
	ck_assert_int_eq(mkdir(shared, 0777), 0);
	ck_assert_int_eq(chmod(shared, 0777), 0); /* others write it, not sticky */
	ck_assert_int_eq(mkdir(target, 0755), 0);
	ck_assert_int_eq(symlink(target, via), 0);
	struct journal j;
	ck_assert_int_eq(journal_open(&j, via, err, sizeof err), -ELOOP);
	ck_assert_msg(strstr(err, "is a symbolic link in") && strstr(err, "not followed"), "%s",
		      err);
	char made[340];
	snprintf(made, sizeof made, "%s/%s", target, JOURNAL_DIR);
	struct stat st;
	ck_assert_int_eq(lstat(made, &st), -1);
	/* the same directory reached without the link: made */
	ck_assert_msg(journal_open(&j, target, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(lstat(made, &st), 0);
	journal_close(&j, true);
	ck_assert_int_eq(lstat(made, &st), -1);
	tu_rm_tree(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tu_tcase(s, "reader", 120);
	tcase_add_test(tc, crc32_known_answers);
	tcase_add_test(tc, whole_journal_reads);
	tcase_add_test(tc, torn_last_record_at_every_byte);
	tcase_add_test(tc, flipped_bit_in_a_middle_record);
	tcase_add_test(tc, missing_records_are_named);
	tcase_add_test(tc, records_missing_at_the_end);
	tcase_add_test(tc, records_out_of_turn_are_refused);
	tcase_add_test(tc, links_and_fifos_are_not_read);
	tc = tu_tcase(s, "writer", 10);
	tcase_add_test(tc, writer_keeps_what_a_full_file_cannot_take);
	tcase_add_test(tc, run_says_what_never_reached_the_journal);
	tcase_add_test(tc, journal_not_made_through_a_planted_link);
	return tu_run(s);
}
