/* SPDX-License-Identifier: Apache-2.0 */
/* fault_hooks.c - the delay of FAULT_DELAY (probes.h), compiled into
 * rtconform-worker-faults only (with RTC_FAULT_HOOKS; cmake/modules.cmake):
 * the normal worker has neither this file nor the calls to it.
 *
 * The spec is read once, before main (the worker's environment is
 * rtconform's: only `rtconform selftest` sets RTC_SELFTEST_FAULTS, and
 * `run` starts this worker only then). Unset or malformed: no delay (run
 * refused a malformed one before starting any worker). In the measured
 * loop: a compare, and on every K-th iteration a busy wait (each one a
 * step longer with grow=) on
 * CLOCK_MONOTONIC_RAW (no call that could block, allocate or lock). */
#include "harness/measure/probes/probes.h"

#include <stdlib.h>

#include "harness/measure/fault_spec.h"
#include "harness/measure/timebase.h"

static uint64_t fault_delay_ns, fault_every, fault_grow_ns, fault_n;

__attribute__((constructor)) static void fault_hooks_init(void)
{
	struct fault_spec f;
	char err[200];
	if (fault_spec_parse(getenv(FAULT_SPEC_ENV), &f, err, sizeof err) == 0) {
		fault_delay_ns = f.delay_ns;
		fault_every = f.every;
		fault_grow_ns = f.grow_ns;
	}
}

void probe_fault_delay(uint64_t i)
{
	if (!fault_every || (i + 1) % fault_every != 0)
		return;
	/* growing: the n-th delay is n steps longer, at most 1 s */
	uint64_t d = fault_delay_ns + fault_n++ * fault_grow_ns;
	uint64_t end = tb_clock_ns() + (d < FAULT_DELAY_MAX_NS ? d : FAULT_DELAY_MAX_NS);
	while (tb_clock_ns() < end)
		;
}
