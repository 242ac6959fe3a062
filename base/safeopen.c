/* SPDX-License-Identifier: Apache-2.0 */
/* safeopen.c - see safeopen.h. */
#include "base/safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

const char *safeopen_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "not a regular file (a directory)";
	case S_IFIFO:
		return "not a regular file (a FIFO)";
	case S_IFSOCK:
		return "not a regular file (a socket)";
	case S_IFCHR:
		return "not a regular file (a character device)";
	case S_IFBLK:
		return "not a regular file (a block device)";
	case S_IFLNK:
		return "not a regular file (a symbolic link)";
	default:
		return "not a regular file";
	}
}

const char *safeopen_why(const char *err, const char *path)
{
	size_t n = strlen(path);
	return !strncmp(err, path, n) && err[n] == ':' && err[n + 1] == ' ' ? err + n + 2 : err;
}

/* The errno that refuses a file of mode mode. */
static int refusal(mode_t mode)
{
	return S_ISLNK(mode) ? ELOOP : S_ISDIR(mode) ? EISDIR : ENODEV;
}

/* Refuse path, which is not a regular file (mode): -errno with err. */
static int refuse(const char *path, mode_t mode, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", path, safeopen_kind(mode));
	return -refusal(mode);
}

/* Whether a file system of type t is one of the kernel's own (procfs,
 * sysfs, tracefs, debugfs ...): its "regular" files are no files: a read of
 * /proc/kmsg or tracing/trace_pipe blocks for ever, and they say size 0. */
static const char *pseudo_fs(unsigned long t)
{
	static const struct { unsigned long magic; const char *name; } fs[] = {
		{ PROC_SUPER_MAGIC, "procfs" }, { SYSFS_MAGIC, "sysfs" },
		{ TRACEFS_MAGIC, "tracefs" }, { DEBUGFS_MAGIC, "debugfs" },
		{ SECURITYFS_MAGIC, "securityfs" }, { CGROUP_SUPER_MAGIC, "cgroupfs" },
		{ CGROUP2_SUPER_MAGIC, "cgroup2fs" }, { BPF_FS_MAGIC, "bpffs" },
		{ PSTOREFS_MAGIC, "pstorefs" }, { EFIVARFS_MAGIC, "efivarfs" },
	};
	for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
		if (fs[i].magic == t)
			return fs[i].name;
	return NULL;
}

static int failed(const char *path, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", path, strerror(e));
	return -e;
}

/* The file pinned by pfd (an O_PATH descriptor of name in directory at,
 * never followed) opened for reading when it is a regular file of a real
 * file system. What is checked is the inode pfd holds, and what is opened
 * is that inode (through /proc/self/fd): a file swapped in between is
 * never opened, so a device's open (a tape rewinds) never runs. Without
 * /proc, name is opened again and must be the same inode. */
static int open_pinned(int at, const char *name, int pfd, const char *path, off_t *size,
		       char *err, size_t errlen)
{
	struct stat st, st2;
	struct statfs sf;
	if (fstat(pfd, &st) != 0)
		return failed(path, errno, err, errlen);
	if (!S_ISREG(st.st_mode))
		return refuse(path, st.st_mode, err, errlen);
	const char *fs = fstatfs(pfd, &sf) == 0 ? pseudo_fs((unsigned long)sf.f_type) : NULL;
	if (fs) {
		snprintf(err, errlen, "%s: not a regular file (a file of the kernel's %s: a read "
			 "may block or never end)", path, fs);
		return -ENODEV;
	}
	char proc[48];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
	const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	int fd = open(proc, flags);
	bool again = fd < 0 && errno == ENOENT;
	if (again)
		fd = openat(at, name, flags | O_NOFOLLOW);
	if (fd < 0)
		return failed(path, errno, err, errlen);
	if (fstat(fd, &st2) != 0) {
		int e = errno;
		close(fd);
		return failed(path, e, err, errlen);
	}
	if (st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		close(fd); /* only without /proc: another file put there since */
		snprintf(err, errlen, "%s: replaced while it was opened", path);
		return -EAGAIN;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
		int e = errno;
		close(fd);
		return failed(path, e, err, errlen);
	}
	if (size)
		*size = st2.st_size;
	return fd;
}

int safeopen_regular(const char *path, off_t *size, char *err, size_t errlen)
{
	/* O_PATH opens nothing: a device's driver is not called, a FIFO not
	 * waited for, a symbolic link is pinned itself (O_NOFOLLOW) */
	int pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return failed(path, errno, err, errlen);
	int fd = open_pinned(AT_FDCWD, path, pfd, path, size, err, errlen);
	close(pfd);
	return fd;
}

/* The directory fd of name below at (not followed: O_PATH | O_NOFOLLOW |
 * O_DIRECTORY), or -errno saying what name is instead. */
static int walk_dir(int at, const char *name, const char *path, char *err, size_t errlen)
{
	if (!strcmp(name, "..")) {
		snprintf(err, errlen, "%s: leads out of its directory (..)", path);
		return -EXDEV;
	}
	int fd = openat(at, name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	int e = errno;
	struct stat st;
	if ((e == ENOTDIR || e == ELOOP) && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		snprintf(err, errlen, "%s: its directory %s is %s", path, name,
			 S_ISLNK(st.st_mode) ? "a symbolic link" : safeopen_kind(st.st_mode));
		return S_ISLNK(st.st_mode) ? -ELOOP : -ENOTDIR;
	}
	return failed(path, e, err, errlen);
}

int safeopen_below(const char *dir, const char *rel, off_t *size, char *err, size_t errlen)
{
	char path[4096 + 256], comp[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	if (strlen(rel) >= sizeof comp)
		return failed(path, ENAMETOOLONG, err, errlen);
	int at = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (at < 0)
		return failed(dir, errno, err, errlen);
	const char *c = rel;
	for (const char *slash; at >= 0 && (slash = strchr(c, '/')) != NULL; c = slash + 1) {
		snprintf(comp, sizeof comp, "%.*s", (int)(slash - c), c);
		if (!comp[0] || !strcmp(comp, "."))
			continue;
		int next = walk_dir(at, comp, path, err, errlen);
		close(at);
		at = next;
	}
	if (at < 0)
		return at;
	int fd = !strcmp(c, "..") ? -1 : openat(at, c, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = !strcmp(c, "..") ? EXDEV : errno;
		close(at);
		return failed(path, e, err, errlen);
	}
	int r = open_pinned(at, c, fd, path, size, err, errlen);
	close(fd);
	close(at);
	return r;
}

/* Read all of fd (size bytes when opened) into a buffer of at most max
 * bytes. 0, -EFBIG (grew past max), -ENOMEM or read's -errno. */
static int read_fd(int fd, size_t size, size_t max, char **bufp, size_t *lenp)
{
	/* +1: reaching the end takes one more read, which finds it */
	size_t cap = size + 1 > max + 1 ? max + 1 : size + 1, len = 0;
	char *buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb = ncap > cap ? realloc(buf, ncap + 1) : NULL;
			if (!nb) {
				free(buf);
				return ncap > cap ? -ENOMEM : -EFBIG;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			return -e;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	if (len > max) {
		free(buf);
		return -EFBIG;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int safeopen_read(const char *path, size_t max, const char *what, char **buf, size_t *len,
		  char *err, size_t errlen)
{
	off_t size = 0;
	*buf = NULL;
	*len = 0;
	int fd = safeopen_regular(path, &size, err, errlen);
	if (fd < 0)
		return fd;
	int e = (uint64_t)size > (uint64_t)max ? -EFBIG : read_fd(fd, (size_t)size, max, buf, len);
	close(fd);
	if (e == -EFBIG) {
		*len = (uint64_t)size > (uint64_t)max ? (size_t)size : 0;
		if (*len)
			snprintf(err, errlen, "%s: %zu bytes, more than the %zu %s may be", path,
				 *len, max, what);
		else
			snprintf(err, errlen, "%s: grew past the %zu bytes %s may be while read",
				 path, max, what);
	} else if (e) {
		snprintf(err, errlen, "%s: %s", path, strerror(-e));
	}
	return e;
}
