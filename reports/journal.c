/* SPDX-License-Identifier: Apache-2.0 */
/* journal.c - the run's journal, written: see journal.h for the format. */
#include "reports/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static const char *const kind_names[JK_NKINDS] = {
	[JK_HEAD] = "head", [JK_REQ] = "req", [JK_NOW] = "now", [JK_END] = "end",
	[JK_IVAL] = "ival",
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
	uLong c = crc32(0L, Z_NULL, 0);
	c = crc32_z(c, (const Bytef *)header, hlen);
	c = crc32_z(c, (const Bytef *)payload, len);
	return (uint32_t)c;
}

/* The first failure, kept: what failed and on which file. */
static int failed(struct journal *j, const char *file, int e)
{
	if (!j->err) {
		j->err = e ? e : EIO;
		snprintf(j->why, sizeof j->why, "%s/%s: %s", j->path, file, strerror(j->err));
	}
	return -j->err;
}

static int open_file(struct journal *j, const char *name, int flags)
{
	int fd = openat(j->dir_fd, name, flags | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		failed(j, name, errno);
	return fd;
}

/* The directory that holds path's last component, fsync()ed so that the
 * entry made in it is on the disk too. */
static void sync_parent(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* The journal's files in directory fd, then the directory path itself. */
static void remove_journal(int fd, const char *path)
{
	unlinkat(fd, JOURNAL_LOG, 0);
	unlinkat(fd, now_names[0], 0);
	unlinkat(fd, now_names[1], 0);
	rmdir(path);
}

/* A journal a run left before it wrote its head (killed in its first
 * moments), or while it removed it (killed after its reports, between the
 * log's removal and the directory's), holds nothing to read: it is
 * removed, not kept as evidence. A log of more than its first line is
 * left for the reader to judge. */
static void remove_if_empty(const struct journal *j)
{
	char log[sizeof j->path + 8];
	struct stat s;
	snprintf(log, sizeof log, "%s/%s", j->path, JOURNAL_LOG);
	int rc = lstat(log, &s);
	bool gone = rc != 0 && errno == ENOENT;
	if (!gone && (rc != 0 || !S_ISREG(s.st_mode) || (size_t)s.st_size > strlen(JOURNAL_MAGIC)))
		return;
	int fd = open(j->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	remove_journal(fd, j->path);
	close(fd);
}

int journal_open(struct journal *j, const char *dir, char *err, size_t errlen)
{
	memset(j, 0, sizeof *j);
	j->dir_fd = j->log_fd = j->now_fd[0] = j->now_fd[1] = -1;
	snprintf(j->path, sizeof j->path, "%s/%s", dir, JOURNAL_DIR);
	remove_if_empty(j);
	if (mkdir(j->path, 0755) != 0) {
		int e = errno;
		if (e == EEXIST)
			snprintf(err, errlen, "%s: the journal of a run that did not finish: render "
				 "its reports with `rtconform report %s`, or remove %s to run here",
				 j->path, dir, j->path);
		else
			snprintf(err, errlen, "%s: cannot make the journal: %s", j->path, strerror(e));
		return -e;
	}
	sync_parent(dir);
	j->dir_fd = open(j->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (j->dir_fd < 0)
		failed(j, ".", errno);
	else if ((j->log_fd = open_file(j, JOURNAL_LOG, O_WRONLY | O_APPEND)) >= 0 &&
		 (j->now_fd[0] = open_file(j, now_names[0], O_RDWR)) >= 0 &&
		 (j->now_fd[1] = open_file(j, now_names[1], O_RDWR)) >= 0) {
		size_t n = strlen(JOURNAL_MAGIC);
		if (write(j->log_fd, JOURNAL_MAGIC, n) != (ssize_t)n || fsync(j->log_fd) != 0)
			failed(j, JOURNAL_LOG, errno);
		else if (fsync(j->dir_fd) != 0)
			failed(j, ".", errno);
	}
	if (!j->err)
		return 0;
	snprintf(err, errlen, "%s", j->why);
	int e = j->err;
	journal_close(j, true);
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

/* One record: appended to the log, or (JK_NOW) written over the older of
 * the two now files; on the disk before it returns. */
static int put_record(struct journal *j, enum journal_kind kind, size_t file, size_t index,
		      const char *payload, size_t len)
{
	if (j->err)
		return -j->err;
	char head[JOURNAL_HEADER_MAX];
	uint64_t seq = j->seq + 1;
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	uint64_t ms = (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
	int h = snprintf(head, sizeof head, "%s %s %" PRIu64 " %zu %zu %zu %" PRIu64 " ",
			 JOURNAL_TAG, journal_kind_name(kind), seq, file, index, len, ms);
	uint32_t crc = journal_crc(head, (size_t)h, payload, len);
	h += snprintf(head + h, sizeof head - (size_t)h, "%08" PRIx32 "\n", crc);
	struct iovec iov[3] = { { head, (size_t)h }, { (void *)payload, len }, { "\n", 1 } };
	bool now = kind == JK_NOW;
	int fd = now ? j->now_fd[seq & 1] : j->log_fd;
	const char *name = now ? now_names[seq & 1] : JOURNAL_LOG;
	int e = write_all(fd, iov, 3, now ? 0 : -1);
	if (!e && now && ftruncate(fd, (off_t)((size_t)h + len + 1)) != 0)
		e = errno;
	if (!e && fdatasync(fd) != 0)
		e = errno;
	if (e)
		return failed(j, name, e);
	j->seq = seq;
	return 0;
}

int journal_head(struct journal *j, const struct report_view *pending)
{
	char why[200];
	size_t len;
	if (j->err)
		return -j->err;
	char *text = report_json_render(pending, &len, why, sizeof why);
	if (!text)
		return failed(j, JOURNAL_LOG, ENOMEM);
	int rc = put_record(j, JK_HEAD, 0, 0, text, len);
	free(text);
	return rc;
}

int journal_requirement(struct journal *j, size_t file, size_t index,
			const struct req_result *r, bool final)
{
	if (j->err)
		return -j->err;
	struct rv_req vr;
	char why[200];
	size_t len = 0;
	char *text = NULL;
	if (report_view_req_from_result(r, &vr) == 0)
		text = report_json_requirement(&vr, &len, why, sizeof why);
	report_view_req_free(&vr);
	if (!text)
		return failed(j, final ? JOURNAL_LOG : now_names[(j->seq + 1) & 1], ENOMEM);
	int rc = put_record(j, final ? JK_REQ : JK_NOW, file, index, text, len);
	free(text);
	return rc;
}

int journal_interval(struct journal *j, size_t file, size_t index, const struct rv_ivals *acc,
		     const struct req_result *r)
{
	if (j->err)
		return -j->err;
	char why[200];
	size_t len = 0;
	char *text = report_json_ivals_last(acc, r, &len, why, sizeof why);
	if (!text)
		return failed(j, JOURNAL_LOG, ENOMEM);
	int rc = put_record(j, JK_IVAL, file, index, text, len);
	free(text);
	return rc;
}

int journal_end(struct journal *j)
{
	return put_record(j, JK_END, 0, 0, "", 0);
}

void journal_close(struct journal *j, bool remove)
{
	int *fds[] = { &j->log_fd, &j->now_fd[0], &j->now_fd[1] };
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	if (remove && j->dir_fd >= 0)
		remove_journal(j->dir_fd, j->path);
	else if (remove && j->path[0])
		rmdir(j->path); /* made, but never opened */
	if (j->dir_fd >= 0)
		close(j->dir_fd);
	j->dir_fd = -1;
}
