/* SPDX-License-Identifier: Apache-2.0 */
/* fault_spec.h - the delay `rtconform selftest` injects into a measured
 * loop, as RTC_SELFTEST_FAULTS gives it: "delay=DURATION,every=K" (a busy
 * wait of DURATION on every K-th measured iteration of a run, counted from
 * 1, never in the warm-up), and with ",grow=STEP" each delay STEP longer
 * than the one before (the n-th of the worker's, from 0: DURATION + n x
 * STEP, at most 1 s): a rising series of breaches, the last the largest. Only rtconform-worker-faults acts on it (the
 * probes' FAULT_DELAY, probes.h; fault_hooks.c); `rtconform run` parses it
 * to choose that worker and refuse a malformed one. docs/qualification.md. */
#ifndef RTC_FAULT_SPEC_H
#define RTC_FAULT_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAULT_SPEC_ENV "RTC_SELFTEST_FAULTS"
#define FAULT_DELAY_MAX_NS 1000000000ull /* 1 s */
#define FAULT_EVERY_MAX 1000000000ull

struct fault_spec {
	uint64_t delay_ns; /* 1 ns .. FAULT_DELAY_MAX_NS */
	uint64_t every;    /* 1 .. FAULT_EVERY_MAX */
	uint64_t grow_ns;  /* 0, or 1 ns .. FAULT_DELAY_MAX_NS */
};

/* True when s asks for a delay (it starts "delay="), whether well formed
 * or not. */
bool fault_spec_is_delay(const char *s);
/* Parse "delay=DURATION,every=K[,grow=STEP]" into f. 0, or -EINVAL / -ERANGE with why
 * in err. */
int fault_spec_parse(const char *s, struct fault_spec *f, char *err, size_t errlen);

#endif
