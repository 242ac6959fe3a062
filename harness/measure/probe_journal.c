/* SPDX-License-Identifier: Apache-2.0 */
/* probe_journal.c - the worker's side of the journal's checkpoint: see
 * probe.h (probe_checkpoint) and runner_supervise.c (the supervisor's). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

void probe_checkpoint(struct probe_ctx *c)
{
	struct result_shm *res = c->res;
	uint64_t one = 1, got;
	if (res->ckpt.err)
		return; /* the journal failed once: measure on without pauses */
	if (write(res->ckpt.ask_fd, &one, sizeof one) != (ssize_t)sizeof one) {
		res->ckpt.err = errno ? errno : EIO;
		return;
	}
	/* Blocks until the supervisor answers: it dies only by taking the
	 * worker with it (the death signal), so the wait cannot outlive it. */
	ssize_t n;
	while ((n = read(res->ckpt.go_fd, &got, sizeof got)) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof got)
		res->ckpt.err = n < 0 ? errno : EIO;
	else
		res->ckpt.taken++;
}
