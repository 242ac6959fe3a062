/* SPDX-License-Identifier: Apache-2.0 */
/* readiness.h - is this machine ready to qualify real-time requirements?
 *
 * `rtconform env` prints the fingerprint, then these checks, each with a
 * level, what was found, and what to do about it ("cpufreq governor
 * powersave on cpu1" / "set performance: cpupower frequency-set -g
 * performance"). The checks judge the typed facts (host/facts.h), never the
 * fingerprint's text; a finding quotes that text so it reads like the
 * report. Library code: fills a struct, prints nothing.
 */
#ifndef RTC_READINESS_H
#define RTC_READINESS_H

#include <stdbool.h>
#include <sched.h>
#include <stddef.h>

#include "host/facts.h"

enum ready_level {
	READY_OK,   /* nothing to do */
	READY_NOTE, /* fine for measuring, but a qualification should state it */
	READY_WARN, /* measurements will run, but latencies suffer or mislead */
	READY_FAIL, /* some requirements cannot be measured (error verdicts) */
};
#define READY_NLEVELS 4

#define READY_MAX_CHECKS 24

struct ready_check {
	char name[24];       /* "sched_fifo", "cpufreq", ... */
	enum ready_level level;
	char finding[400];
	char remedy[900];    /* "" when there is nothing to do */
};

struct readiness {
	struct ready_check c[READY_MAX_CHECKS];
	size_t n;
};

/* The clock samples are timed with, as the caller knows it: host/ cannot
 * see the harness's timebase. */
struct ready_timebase {
	const char *name;   /* "tsc", "clock_gettime(CLOCK_MONOTONIC_RAW)"; NULL: "unknown" */
	bool invariant_tsc; /* samples are TSC cycles */
	const char *note;   /* why the TSC is not used; NULL or "" when there is none */
	const char *check;  /* its check against the kernel, in a line; NULL: not checked */
	bool check_failed;  /* it disagrees with the kernel: every requirement is an error */
	const char *check_error; /* then why, naming both rates */
};

/* Judge the facts from host_facts_collect(), and the timebase when tb is
 * not NULL (without one, no timebase check). With `try_privileges`, a
 * forked child also tries SCHED_FIFO and mlockall, the only sure answer
 * (for mlockall the worker's own try, privileges.worker, when the facts
 * hold it); without, privileges are judged from the euid, the capabilities
 * and the rtprio and memlock limits in the facts. */
void readiness_check(const struct host_facts *f, const struct ready_timebase *tb,
		     bool try_privileges, struct readiness *out);

/* The same, with the checks that depend on where a run measures (cpuidle,
 * irq_affinity, rcu_nocbs, measure_cpus) judging `measuring`, the union of
 * the CPUs the run's requirements measure on; NULL: the CPUs this process
 * may run on (facts' allowed), where an unpinned requirement measures. */
void readiness_check_on(const struct host_facts *f, const struct ready_timebase *tb,
			bool try_privileges, const cpu_set_t *measuring, struct readiness *out);

/* An idle state whose exit latency is above this many microseconds, open
 * to a measuring CPU, warns (cpuidle). */
#define READY_IDLE_LATENCY_US 10

const char *ready_level_name(enum ready_level l);
/* The level named name ("ok", "note", "warn", "fail"); false for another. */
bool ready_level_parse(const char *name, enum ready_level *out);
/* The closing count of the checks, count[] by level: "6 ok, 4 notes, 2
 * warnings, 0 failures". */
void ready_count_text(const size_t count[READY_NLEVELS], char *buf, size_t len);

#endif
