/* SPDX-License-Identifier: Apache-2.0 */
/* safeopen.c - see safeopen.h. */
#include "base/safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int safeopen_regular(const char *path, off_t *size, char *err, size_t errlen)
{
	struct stat st;
	/* What is there is named before it is opened: a device is never
	 * opened at all (an open may act: a tape rewinds), a socket cannot
	 * be. The fstat below catches a file swapped in since. */
	if (lstat(path, &st) != 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode))
		return refuse(path, st.st_mode, err, errlen);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if ((e == ELOOP || e == ENXIO) && lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
			return refuse(path, st.st_mode, err, errlen);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(path, st.st_mode, err, errlen);
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (size)
		*size = st.st_size;
	return fd;
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
