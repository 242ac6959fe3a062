/* SPDX-License-Identifier: Apache-2.0 */
/* journal.c - the run's journal, written: see journal.h for the format. */
#include "reports/journal.h"
#include "base/crc32.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

static const char *const kind_names[JK_NKINDS] = {
	[JK_HEAD] = "head", [JK_REQ] = "req", [JK_NOW] = "now", [JK_END] = "end",
	[JK_IVAL] = "ival", [JK_LOST] = "lost",
};
static const char *const now_names[2] = { "now.0", "now.1" };

const char *journal_kind_name(enum journal_kind k)
{
	return (unsigned)k < JK_NKINDS ? kind_names[k] : "?";
}

int journal_kind_of(const char *name)
{
	for (int k = 0; k < JK_NKINDS; k++)
		if (strcmp(kind_names[k], name) == 0)
			return k;
	return -1;
}

uint32_t journal_crc(const char *header, size_t hlen, const char *payload, size_t len)
{
	return crc32_update(crc32_update(0, header, hlen), payload, len);
}

/* A failure, kept: what failed and on which file (the latest one). */
static int failed(struct journal *j, const char *file, int e)
{
	j->err = e ? e : EIO;
	snprintf(j->why, sizeof j->why, "%s/%s: %s", j->path, file, strerror(j->err));
	return -j->err;
}

static int open_file(struct journal *j, const char *name, int flags)
{
	int fd = openat(j->dir_fd, name, flags | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		failed(j, name, errno);
	return fd;
}

void journal_range_text(char *buf, size_t len, uint64_t from, uint64_t to, uint64_t of)
{
	int n = from == to ? snprintf(buf, len, "record %" PRIu64, from)
			   : snprintf(buf, len, "records %" PRIu64 "-%" PRIu64, from, to);
	if (of && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " of %" PRIu64, of);
}

/* The journal's files in directory fd, then the directory itself (in
 * j->parent_fd: no path is walked again). */
static void remove_journal(const struct journal *j, int fd)
{
	unlinkat(fd, JOURNAL_LOG, 0);
	unlinkat(fd, now_names[0], 0);
	unlinkat(fd, now_names[1], 0);
	unlinkat(fd, JOURNAL_NOTE, 0);
	unlinkat(j->parent_fd, JOURNAL_DIR, AT_REMOVEDIR);
}

/* A journal a run left before it wrote its head (killed in its first
 * moments), or while it removed it (killed after its reports, between the
 * log's removal and the directory's), holds nothing to read: it is
 * removed, not kept as evidence. A log of more than its first line is
 * left for the reader to judge. */
static void remove_if_empty(const struct journal *j)
{
	struct stat s;
	int fd = openat(j->parent_fd, JOURNAL_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	int rc = fstatat(fd, JOURNAL_LOG, &s, AT_SYMLINK_NOFOLLOW);
	bool gone = rc != 0 && errno == ENOENT;
	if (gone || (rc == 0 && S_ISREG(s.st_mode) && (size_t)s.st_size <= strlen(JOURNAL_MAGIC)))
		remove_journal(j, fd);
	close(fd);
}

/* The journal directory just made in j->parent_fd, opened: never through
 * a link, and refused unless it is still ours and only ours to write (in
 * a directory others write, one could have removed it and put a link or
 * a directory of theirs in its place between the two calls). */
static int open_made(struct journal *j)
{
	struct stat st;
	j->dir_fd = openat(j->parent_fd, JOURNAL_DIR,
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (j->dir_fd < 0)
		return failed(j, ".", errno);
	if (fstat(j->dir_fd, &st) == 0 && st.st_uid == geteuid() &&
	    !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	close(j->dir_fd); /* not ours: nothing in it is removed */
	j->dir_fd = -1;
	j->err = EPERM;
	snprintf(j->why, sizeof j->why, "%s: replaced by another user's directory between its "
		 "making and its opening: not used", j->path);
	return -EPERM;
}

static int write_all(int fd, struct iovec *iov, int n, off_t at);

int journal_open(struct journal *j, const char *dir, char *err, size_t errlen)
{
	memset(j, 0, sizeof *j);
	j->parent_fd = j->dir_fd = j->log_fd = j->now_fd[0] = j->now_fd[1] = j->note_fd = -1;
	j->now_whole = -1;
	snprintf(j->path, sizeof j->path, "%s/%s", dir, JOURNAL_DIR);
	/* results.json's directory, opened as every output's is: no link
	 * planted on the way is followed, and the journal is made and opened
	 * relative to it (issue 38). */
	char why[PATH_MAX + 300];
	int pfd = report_open_dir(dir, false, why, sizeof why);
	if (pfd < 0) {
		snprintf(err, errlen, "%s: cannot make the journal: %s", j->path,
			 why[0] ? why : strerror(-pfd));
		return pfd;
	}
	j->parent_fd = pfd;
	remove_if_empty(j);
	if (mkdirat(pfd, JOURNAL_DIR, 0755) != 0) {
		int e = errno;
		if (e == EEXIST)
			snprintf(err, errlen, "%s: the journal of a run that did not finish: render "
				 "its reports with `rtconform report %s`, or remove %s to run here",
				 j->path, dir, j->path);
		else
			snprintf(err, errlen, "%s: cannot make the journal: %s", j->path, strerror(e));
		journal_close(j, false);
		return -e;
	}
	fsync(pfd); /* the entry made, on the disk too */
	if (open_made(j) == 0 &&
	    (j->log_fd = open_file(j, JOURNAL_LOG, O_WRONLY | O_APPEND)) >= 0 &&
	    (j->now_fd[0] = open_file(j, now_names[0], O_RDWR)) >= 0 &&
	    (j->now_fd[1] = open_file(j, now_names[1], O_RDWR)) >= 0 &&
	    (j->note_fd = open_file(j, JOURNAL_NOTE, O_RDWR)) >= 0) {
		size_t n = strlen(JOURNAL_MAGIC);
		char blank[JOURNAL_NOTE_BYTES];
		memset(blank, '\n', sizeof blank);
		/* every byte, or the reason the rest was refused (a short write
		 * sets no errno: an earlier call's ENOENT was named for EFBIG) */
		struct iovec m = { (void *)JOURNAL_MAGIC, n }, b = { blank, sizeof blank };
		int e = write_all(j->log_fd, &m, 1, -1);
		if (e || fsync(j->log_fd) != 0)
			failed(j, JOURNAL_LOG, e ? e : errno);
		else if ((e = write_all(j->note_fd, &b, 1, 0)) != 0 || fsync(j->note_fd) != 0)
			failed(j, JOURNAL_NOTE, e ? e : errno);
		else if (fsync(j->dir_fd) != 0)
			failed(j, ".", errno);
		j->log_end = (off_t)n;
	}
	if (!j->err)
		return 0;
	snprintf(err, errlen, "%s", j->why);
	int e = j->err;
	journal_close(j, j->dir_fd >= 0); /* one replaced stays as it is */
	return -e;
}

/* Every byte of iov written, at `at` (pwritev) or appended (at < 0). */
static int write_all(int fd, struct iovec *iov, int n, off_t at)
{
	while (n > 0) {
		ssize_t w = at >= 0 ? pwritev(fd, iov, n, at) : writev(fd, iov, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		if (at >= 0)
			at += w;
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/* A record's header line into head (JOURNAL_HEADER_MAX): its length. */
static int header_of(char *head, enum journal_kind kind, uint64_t seq, uint64_t log, size_t file,
		     size_t index, const char *payload, size_t len)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	uint64_t ms = (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
	int h = snprintf(head, JOURNAL_HEADER_MAX,
			 "%s %s %" PRIu64 " %" PRIu64 " %zu %zu %zu %" PRIu64 " ", JOURNAL_TAG,
			 journal_kind_name(kind), seq, log, file, index, len, ms);
	uint32_t crc = journal_crc(head, (size_t)h, payload, len);
	return h + snprintf(head + h, JOURNAL_HEADER_MAX - (size_t)h, "%08" PRIx32 "\n", crc);
}

/* The lost record's payload naming the first n finished requirements that
 * wait, into text (size bytes): its length, 0 when it does not fit. */
static size_t note_payload(const struct journal *j, size_t n, char *text, size_t size)
{
	json_t *fin = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(fin, json_pack("[II]", (json_int_t)j->pend.finished[i].file,
						     (json_int_t)j->pend.finished[i].index));
	json_t *o = json_pack("{sI sI ss so sI}", "from", (json_int_t)(j->written + 1), "to",
			      (json_int_t)j->made, "error", strerror(j->err ? j->err : EIO),
			      "finished", fin, "more", (json_int_t)(j->pend.nfinished - n));
	size_t len = o ? json_dumpb(o, text, size, JSON_COMPACT) : 0;
	json_decref(o);
	return len <= size ? len : 0;
}

/* The lost file written over in place (no new room needed): the log
 * records made and not on the disk, or newlines when there are none. The
 * list of finished requirements is shortened until the record fits (the
 * rest counted in "more"). */
static void note_write(struct journal *j)
{
	char buf[JOURNAL_NOTE_BYTES], head[JOURNAL_HEADER_MAX], text[JOURNAL_NOTE_BYTES];
	bool lost = j->made > j->written;
	if (j->note_fd < 0 || (!lost && !j->note_dirty))
		return;
	memset(buf, '\n', sizeof buf);
	for (size_t n = j->pend.nlisted; lost;) {
		size_t len = note_payload(j, n, text, sizeof text - JOURNAL_HEADER_MAX - 1);
		if (len) {
			int h = header_of(head, JK_LOST, j->seq, j->made, 0, 0, text, len);
			memcpy(buf, head, (size_t)h);
			memcpy(buf + h, text, len);
			break;
		}
		if (n == 0)
			return; /* out of memory: the now records still count what waits */
		n = n * 3 / 4;
	}
	if (pwrite(j->note_fd, buf, sizeof buf, 0) == (ssize_t)sizeof buf &&
	    fdatasync(j->note_fd) == 0)
		j->note_dirty = lost;
}

/* The finished requirements whose records are now in the log forgotten:
 * what is left are those from gave_up on, never to be written. */
static void forget_written(struct journal *j)
{
	struct journal_pending *p = &j->pend;
	size_t keep = 0;
	for (size_t i = 0; i < p->nlisted; i++)
		if (j->gave_up && p->finished[i].log >= j->gave_up)
			p->finished[keep++] = p->finished[i];
	p->nlisted = keep;
	p->nfinished = j->gave_up ? p->nlost : 0;
	if (!j->gave_up)
		j->err = 0;
}

/* iov appended to the log and on the disk: 0, or the errno with the log cut
 * back to its last whole record (a failed write may have put part of it). */
static int append(struct journal *j, struct iovec *iov, int n)
{
	size_t total = 0;
	for (int i = 0; i < n; i++)
		total += iov[i].iov_len;
	int e = write_all(j->log_fd, iov, n, -1);
	if (!e && fdatasync(j->log_fd) != 0)
		e = errno ? errno : EIO;
	if (!e) {
		j->log_end += (off_t)total;
		return 0;
	}
	if (ftruncate(j->log_fd, j->log_end) != 0) {
		/* The log's end stays torn, which the reader drops; a record
		 * appended after it would make that damage: none is. Every
		 * record not yet written is lost. */
		j->gave_up = j->written + 1;
		j->pend.len = 0;
		j->pend.nlost = j->pend.nfinished;
	}
	return e;
}

/* The waiting log records appended, on the disk before it returns; on a
 * failure they wait on. */
static int flush(struct journal *j)
{
	if (j->pend.len) {
		struct iovec iov = { j->pend.buf, j->pend.len };
		int e = append(j, &iov, 1);
		if (e) {
			failed(j, JOURNAL_LOG, e);
			note_write(j);
			return -j->err;
		}
		j->written = j->pend.kept;
		j->pend.len = 0;
	}
	forget_written(j);
	note_write(j);
	return j->gave_up ? -j->err : 0;
}

/* Log record `log` kept to wait with the others, or, when it cannot be
 * (past the bound, out of memory), counted as lost: after it no record is
 * kept either, since the log would have a gap. */
static void keep(struct journal *j, uint64_t log, enum journal_kind kind, size_t file,
		 size_t index, const struct iovec *rec)
{
	struct journal_pending *p = &j->pend;
	size_t need = p->len + rec[0].iov_len + rec[1].iov_len + 1;
	if (!j->gave_up && need > p->cap && need <= JOURNAL_PENDING_MAX) {
		size_t cap = need * 2 > JOURNAL_PENDING_MAX ? need : need * 2;
		char *grown = realloc(p->buf, cap);
		if (grown) {
			p->buf = grown;
			p->cap = cap;
		}
	}
	if (!j->gave_up && need > p->cap) {
		j->gave_up = log;
		failed(j, JOURNAL_LOG, j->err ? j->err : ENOMEM);
	}
	if (kind == JK_REQ) {
		p->nfinished++;
		p->nlost += j->gave_up != 0;
		if (p->nlisted < JOURNAL_NOTE_REQS)
			p->finished[p->nlisted++] = (struct journal_lost_req){
				.log = log, .file = (uint32_t)file, .index = (uint32_t)index };
	}
	if (j->gave_up)
		return;
	memcpy(p->buf + p->len, rec[0].iov_base, rec[0].iov_len);
	memcpy(p->buf + p->len + rec[0].iov_len, rec[1].iov_base, rec[1].iov_len);
	p->buf[need - 1] = '\n';
	p->len = need;
	p->kept = log;
}

/* A log record made: appended at once when nothing waits (a record of any
 * size), else, or when that fails, kept to be written after those that
 * wait (keep), which are written first. */
static int put_log(struct journal *j, enum journal_kind kind, size_t file, size_t index,
		   const char *head, size_t h, const char *payload, size_t len)
{
	uint64_t log = ++j->made;
	struct iovec rec[3] = { { (void *)head, h }, { (void *)payload, len }, { "\n", 1 } };
	if (!j->gave_up && !j->pend.len) {
		struct iovec iov[3] = { rec[0], rec[1], rec[2] };
		int e = append(j, iov, 3);
		if (!e) {
			j->written = log;
			return 0;
		}
		failed(j, JOURNAL_LOG, e);
		keep(j, log, kind, file, index, rec);
		note_write(j);
		return -j->err;
	}
	keep(j, log, kind, file, index, rec);
	return flush(j);
}

/* A now record written over the now file that does not hold the latest
 * whole one; a failure is kept in now_err and not retried: the next run's
 * record takes its place. */
static int put_now(struct journal *j, const char *head, size_t h, const char *payload,
		   size_t len)
{
	int k = j->now_whole == 0 ? 1 : 0;
	struct iovec iov[3] = { { (void *)head, h }, { (void *)payload, len }, { "\n", 1 } };
	int e = write_all(j->now_fd[k], iov, 3, 0);
	if (!e && ftruncate(j->now_fd[k], (off_t)(h + len + 1)) != 0)
		e = errno;
	if (!e && fdatasync(j->now_fd[k]) != 0)
		e = errno ? errno : EIO;
	j->now_err = e;
	if (e) {
		if (j->now_whole == k)
			j->now_whole = -1;
		return -e;
	}
	j->now_whole = k;
	return j->err ? -j->err : 0;
}

/* One record: a log record (appended, after those that wait), or a now
 * record; on the disk before it returns, or kept. */
static int put_record(struct journal *j, enum journal_kind kind, size_t file, size_t index,
		      const char *payload, size_t len)
{
	char head[JOURNAL_HEADER_MAX];
	bool now = kind == JK_NOW;
	uint64_t seq = ++j->seq;
	int h = header_of(head, kind, seq, now ? j->made : j->made + 1, file, index, payload, len);
	if (now && j->pend.len)
		flush(j); /* room again, perhaps: what waits goes first */
	if (now)
		return put_now(j, head, (size_t)h, payload, len);
	return put_log(j, kind, file, index, head, (size_t)h, payload, len);
}

/* A record that could not be made (out of memory): a log record is counted
 * as lost, so that the reader names it. */
static int lose(struct journal *j, enum journal_kind kind, size_t file, size_t index)
{
	if (kind == JK_NOW) {
		j->now_err = ENOMEM;
		return -ENOMEM;
	}
	failed(j, JOURNAL_LOG, ENOMEM);
	if (!j->gave_up)
		j->gave_up = j->made + 1;
	return put_log(j, kind, file, index, "", 0, "", 0);
}

int journal_head(struct journal *j, const struct report_view *pending)
{
	char why[200];
	size_t len;
	char *text = report_json_render(pending, &len, why, sizeof why);
	if (!text)
		return lose(j, JK_HEAD, 0, 0);
	int rc = put_record(j, JK_HEAD, 0, 0, text, len);
	free(text);
	return rc;
}

int journal_requirement(struct journal *j, size_t file, size_t index,
			const struct req_result *r, bool final)
{
	struct rv_req vr;
	char why[200];
	size_t len = 0;
	char *text = NULL;
	if (report_view_req_from_result(r, &vr) == 0)
		text = report_json_requirement(&vr, &len, why, sizeof why);
	report_view_req_free(&vr);
	if (!text)
		return lose(j, final ? JK_REQ : JK_NOW, file, index);
	int rc = put_record(j, final ? JK_REQ : JK_NOW, file, index, text, len);
	free(text);
	return rc;
}

int journal_interval(struct journal *j, size_t file, size_t index, const struct rv_ivals *acc,
		     const struct req_result *r)
{
	char why[200];
	size_t len = 0;
	char *text = report_json_ivals_last(acc, r, &len, why, sizeof why);
	if (!text)
		return lose(j, JK_IVAL, file, index);
	int rc = put_record(j, JK_IVAL, file, index, text, len);
	free(text);
	return rc;
}

int journal_end(struct journal *j)
{
	return put_record(j, JK_END, 0, 0, "", 0);
}

int journal_flush(struct journal *j)
{
	return j->log_fd >= 0 ? flush(j) : -EBADF;
}

bool journal_missing(const struct journal *j, char *buf, size_t len)
{
	if (j->made <= j->written)
		return false;
	char range[96];
	journal_range_text(range, sizeof range, j->written + 1, j->made, j->made);
	snprintf(buf, len, "%s (%zu finished requirement%s among them)", range,
		 j->pend.nfinished, j->pend.nfinished == 1 ? "" : "s");
	return true;
}

void journal_close(struct journal *j, bool remove)
{
	int *fds[] = { &j->log_fd, &j->now_fd[0], &j->now_fd[1], &j->note_fd };
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	if (remove && j->dir_fd >= 0)
		remove_journal(j, j->dir_fd);
	if (j->dir_fd >= 0)
		close(j->dir_fd);
	if (j->parent_fd >= 0)
		close(j->parent_fd);
	j->dir_fd = j->parent_fd = -1;
	free(j->pend.buf);
	j->pend.buf = NULL;
	j->pend.len = j->pend.cap = 0;
}
