/* SPDX-License-Identifier: Apache-2.0 */
/* ipc_fd.c - descriptor-based mechanisms of sem-pingpong: a pipe per
 * direction carrying one byte, and an eventfd per direction. See ipc.h.
 * A process peer inherits the descriptors across fork; they close with the
 * processes, so nothing can be left behind.
 */
#include "harness/measure/probes/ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

static int write_all(int fd, const void *buf, size_t n)
{
	for (;;) {
		ssize_t w = write(fd, buf, n);
		if (w == (ssize_t)n)
			return 0;
		if (w >= 0)
			return -EIO; /* a short write of 1 or 8 bytes cannot happen */
		if (errno != EINTR)
			return -errno;
	}
}

static int read_all(int fd, void *buf, size_t n)
{
	for (;;) {
		ssize_t r = read(fd, buf, n);
		if (r == (ssize_t)n)
			return 0;
		if (r == 0)
			return -EPIPE; /* end of file: no writer is left */
		if (r > 0)
			return -EIO;
		if (errno != EINTR)
			return -errno;
	}
}

/* ----------------------------------------------------------------- pipe */

static int pipe_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	for (int d = 0; d < 2; d++)
		ch->u.pipe[d][0] = ch->u.pipe[d][1] = -1;
	for (int d = 0; d < 2; d++)
		if (pipe2(ch->u.pipe[d], O_CLOEXEC) != 0) {
			int e = errno;
			return probe_fail(c, e, "pipe2: %s (%s)", probe_errname(e), strerror(e));
		}
	return 0;
}

static int pipe_post(struct ipc_chan *ch, int dir)
{
	static const char byte = 'x';
	return write_all(ch->u.pipe[dir][1], &byte, 1);
}

static int pipe_wait(struct ipc_chan *ch, int dir)
{
	char byte;
	return read_all(ch->u.pipe[dir][0], &byte, 1);
}

static void pipe_close(struct ipc_chan *ch, struct probe_ctx *c)
{
	(void)c;
	for (int d = 0; d < 2; d++)
		for (int e = 0; e < 2; e++) {
			if (ch->u.pipe[d][e] >= 0)
				close(ch->u.pipe[d][e]);
			ch->u.pipe[d][e] = -1;
		}
}

const struct ipc_mech ipc_pipe = {
	.name = "pipe", .wait_call = "read",
	.open = pipe_open, .post = pipe_post, .wait = pipe_wait,
	.close = pipe_close,
};

/* -------------------------------------------------------------- eventfd */

static int efd_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	ch->u.efd[0] = ch->u.efd[1] = -1;
	for (int d = 0; d < 2; d++)
		if ((ch->u.efd[d] = eventfd(0, EFD_CLOEXEC)) < 0) {
			int e = errno;
			return probe_fail(c, e, "eventfd: %s (%s)", probe_errname(e), strerror(e));
		}
	return 0;
}

static int efd_post(struct ipc_chan *ch, int dir)
{
	uint64_t one = 1;
	return write_all(ch->u.efd[dir], &one, sizeof one);
}

static int efd_wait(struct ipc_chan *ch, int dir)
{
	uint64_t v;
	return read_all(ch->u.efd[dir], &v, sizeof v);
}

static void efd_close(struct ipc_chan *ch, struct probe_ctx *c)
{
	(void)c;
	for (int d = 0; d < 2; d++) {
		if (ch->u.efd[d] >= 0)
			close(ch->u.efd[d]);
		ch->u.efd[d] = -1;
	}
}

const struct ipc_mech ipc_eventfd = {
	.name = "eventfd", .wait_call = "read",
	.open = efd_open, .post = efd_post, .wait = efd_wait,
	.close = efd_close,
};
