/* SPDX-License-Identifier: Apache-2.0 */
/* safeopen.h - the one way rtconform opens a file it reads that it did not
 * just write itself: a results.json, a journal, a manifest and the files it
 * lists, a signature and a public key, a saved trace, a validation.json, a
 * requirements file. Someone else may have put a FIFO there (a read would
 * block for ever), a device (it may never end) or a symbolic link (the
 * bytes of a file elsewhere, /etc/shadow quoted back): each is refused by
 * name before a byte is read.
 *
 * The rule (docs/failure-modes.md, "Files rtconform reads"): the path's last
 * component must be a regular file, not a symbolic link to one; links in
 * the directories above it are followed (the user named that path). The
 * file is opened with O_NOFOLLOW, O_NONBLOCK (a FIFO without a writer does
 * not hang the open), O_NOCTTY and O_CLOEXEC, checked with fstat (a file
 * swapped after an lstat is still caught), and then O_NONBLOCK is cleared.
 */
#ifndef RTC_SAFEOPEN_H
#define RTC_SAFEOPEN_H

#include <stddef.h>
#include <sys/types.h>

/* What a file of st_mode mode is, for the message refusing it: "a regular
 * file", or "not a regular file (a FIFO)", "... (a symbolic link)", "... (a
 * directory)", "... (a socket)", "... (a character device)", "... (a block
 * device)". */
const char *safeopen_kind(mode_t mode);

/* Open path to read it, as the header says. The descriptor (>= 0), its
 * size in *size when size is not NULL; or -errno with err (errlen bytes)
 * saying "PATH: why": -ELOOP a symbolic link, -EISDIR a directory,
 * -ENODEV a FIFO, socket or device (each named as safeopen_kind does), else
 * open's or fstat's errno (strerror). */
int safeopen_regular(const char *path, off_t *size, char *err, size_t errlen);

/* The reason an err of safeopen_regular or safeopen_read for path gives:
 * what follows its "PATH: " (err itself when it does not start so). */
const char *safeopen_why(const char *err, const char *path);

/* All of path read, opened by safeopen_regular, at most max bytes: refused
 * by its size before reading, and stopped should it grow past max while
 * read. 0 with a malloc'd *buf (NUL-terminated, *len bytes), or -errno with
 * err as safeopen_regular says, or -EFBIG ("PATH: N bytes, more than the
 * MAX a ... may be": *len is the size when it was known, else 0), -ENOMEM,
 * read's errno. what names the file's kind in that message ("a manifest"). */
int safeopen_read(const char *path, size_t max, const char *what, char **buf, size_t *len,
		  char *err, size_t errlen);

#endif
