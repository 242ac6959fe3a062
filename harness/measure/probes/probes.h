/* SPDX-License-Identifier: Apache-2.0 */
/* probes.h - the probe table. Adding a probe: one file in
 * harness/measure/probes/ exporting `const struct probe probe_<name>`
 * (with its pace, .decl.pace: unit.estimate fails without one), one line
 * in RTC_PROBES, and its row in docs/probes.md (a test compares that table
 * with `rtconform list`). */
#ifndef RTC_PROBES_H
#define RTC_PROBES_H

#include <stddef.h>

#include "harness/measure/probe.h"

#define RTC_PROBES(X) \
	X(sem_pingpong) \
	X(thread_create) \
	X(process_create) \
	X(clone) \
	X(selftest) \
	X(overhead) \
	X(coop_sched) \
	X(timer_wakeup) \
	X(priority_inherit) \
	X(priority_wake) \
	X(rt_migrate) \
	X(priority_preempt) \
	X(deadline) \
	X(rr_quantum) \
	X(timer_semantics) \
	/* (one line a probe, each ending in a backslash) */

#define RTC_DECLARE_PROBE(n) extern const struct probe probe_##n;
RTC_PROBES(RTC_DECLARE_PROBE)
#undef RTC_DECLARE_PROBE

/* Every probe, in RTC_PROBES order. */
extern const struct probe *const probe_table[];
extern const size_t probe_count;
/* The same probes' declarations, for the validator. */
extern const struct probe_catalog probe_catalog;

/* FAULT_DELAY(i): where `rtconform selftest` injects a known delay into a
 * measured loop (i: the iteration of the run, from 0), inside the timed
 * interval. Nothing at all in the normal worker; in rtconform-worker-faults
 * (built with RTC_FAULT_HOOKS) a busy wait of the spec's delay on every
 * K-th iteration (harness/measure/fault_spec.h, fault_hooks.c). */
#ifdef RTC_FAULT_HOOKS
void probe_fault_delay(uint64_t i);
#define FAULT_DELAY(i) probe_fault_delay(i)
#else
#define FAULT_DELAY(i) ((void)0)
#endif

/* The probe called `name`, or NULL. */
const struct probe *probe_find(const char *name);

#endif
