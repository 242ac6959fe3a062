/* SPDX-License-Identifier: Apache-2.0 */
/* worker.h - the measuring side of a requirement.
 *
 * The supervisor writes what the worker must do into the `spec` of the
 * result memory (harness/runner_prepare.c), forks, and the child execs the
 * slim rtconform-worker binary with the memory's file descriptor
 * (harness/runner_spawn.c). That binary links only the probes, histogram,
 * timebase and real-time set-up: no libxml2, ICU or jansson in the
 * measuring process, so fork, clone and spawn are timed from a process
 * image as small as the original test programs' (docs/background.md), and nothing else of rtconform's is
 * mapped beside the measurement.
 */
#ifndef RTC_WORKER_H
#define RTC_WORKER_H

#include "harness/measure/probe.h"

/* Fill res->spec from a probe context built by the supervisor. */
void worker_spec_store(struct result_shm *res, const struct probe_ctx *c);

/* Rebuild a probe context from res->spec (in the exec'd worker): looks up
 * the probe, adopts the supervisor's timebase. Returns 0, or -EINVAL with
 * a reason in res->reason. */
int worker_ctx_load(struct probe_ctx *c, struct result_shm *res);

/* Set up the real-time environment and run the probe; never returns. */
void worker_main(struct probe_ctx *c) __attribute__((noreturn));

#endif
