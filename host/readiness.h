/* readiness.h - is this machine ready to qualify real-time requirements?
 *
 * `rtconform env` prints the fingerprint, then these checks, each with a
 * level, what was found, and what to do about it ("cpufreq governor
 * powersave on cpu1" / "set performance: cpupower frequency-set -g
 * performance"). Library code: fills a struct, prints nothing.
 */
#ifndef RTC_READINESS_H
#define RTC_READINESS_H

#include <stdbool.h>
#include <stddef.h>

#include "host/fingerprint.h"

enum ready_level {
	READY_OK,   /* nothing to do */
	READY_NOTE, /* fine for measuring, but a qualification should state it */
	READY_WARN, /* measurements will run, but latencies suffer or mislead */
	READY_FAIL, /* some requirements cannot be measured (error verdicts) */
};

#define READY_MAX_CHECKS 24

struct ready_check {
	char name[24];       /* "sched_fifo", "cpufreq", ... */
	enum ready_level level;
	char finding[400];
	char remedy[400];    /* "" when there is nothing to do */
};

struct readiness {
	struct ready_check c[READY_MAX_CHECKS];
	size_t n;
};

/* Judge a fingerprint from fingerprint_collect(). With `try_privileges`, a
 * forked child also tries SCHED_FIFO and mlockall, the only sure answer;
 * without, privileges are judged from host.privileges and host.limits.*. */
void readiness_check(const struct fingerprint *fp, bool try_privileges, struct readiness *out);

const char *ready_level_name(enum ready_level l);

#endif
