/* SPDX-License-Identifier: Apache-2.0 */
/* probe_journal.c - the worker's side of the journal's checkpoint: see
 * probe.h (probe_checkpoint) and runner_supervise.c (the supervisor's). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

/* The journal's whole pause, the worker's wait from its ask to the
 * supervisor's answer, is kept under 1 / PROBE_CKPT_SHARE (2 %) of the
 * measuring time: the next pause no sooner than that many times this one
 * from now, and no later than a second. */
#define PROBE_CKPT_SHARE 50u

void probe_checkpoint(struct probe_ctx *c)
{
	struct result_shm *res = c->res;
	uint64_t one = 1, got, t0 = tb_now();
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
	if (n != (ssize_t)sizeof got) {
		res->ckpt.err = n < 0 ? errno : EIO;
		return;
	}
	res->ckpt.taken++;
	/* Measured here, not by the supervisor, so that the wake-ups of both
	 * sides count too. */
	uint64_t now = tb_now(), wait = (now - t0) * PROBE_CKPT_SHARE;
	/* The worker slept through the pause: the RT-throttling guard counts
	 * it as rest, not as the busy time it rests for (probe_guard.c). */
	c->rt.since += now - t0;
	double ns_per_tick = c->tb ? c->tb->ns_per_tick : res->spec.tb.ns_per_tick;
	uint64_t second = ns_per_tick > 0 ? (uint64_t)(1e9 / ns_per_tick) : 0;
	res->ckpt.due = now + (wait < second ? wait : second);
}
