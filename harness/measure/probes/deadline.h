/* SPDX-License-Identifier: Apache-2.0 */
/* deadline.h - the rules the deadline probe counts by, apart from the
 * threads and system calls that produce the events, so a unit test can
 * feed them events of its own (tests/test_deadline.c).
 *
 * Bandwidths are in CPUs: a reservation of runtime R every period P is
 * R / P of one CPU; a machine's admission limit is a number of CPUs. */
#ifndef RTC_DEADLINE_H
#define RTC_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>

/* A total at most limit - DL_FIT_MARGIN x cpus must be admitted: the
 * margin leaves room for what the probe cannot see (the kernel's own
 * servers, since Linux 6.12 the fair-class server's 5% of every CPU) and
 * for the kernel's fixed-point rounding. */
#define DL_FIT_MARGIN 0.10
/* A total above limit + DL_OVER_MARGIN x cpus must be refused: what the
 * probe cannot see only adds to the kernel's total, so the margin is only
 * the rounding (the kernel keeps a bandwidth in 1/2^20 units). */
#define DL_OVER_MARGIN 0.01

/* The bandwidth admission control allows on the CPUs of a root domain. */
struct dl_capacity {
	unsigned cpus;   /* CPUs of the root domain */
	bool unlimited;  /* sched_rt_runtime_us = -1: the kernel admits everything */
	double limit;    /* cpus x sched_rt_runtime_us / sched_rt_period_us */
	double fit;      /* limit - DL_FIT_MARGIN x cpus */
	double over;     /* limit + DL_OVER_MARGIN x cpus */
};

/* The capacity of `cpus` CPUs under the kernel's RT bandwidth settings
 * (rt_runtime_us < 0: unlimited). */
void dl_capacity_set(struct dl_capacity *c, unsigned cpus, long rt_runtime_us,
		     long rt_period_us);

/* Whether a request that brings the reserved total to `total` CPUs is
 * judged: a total at most c->fit or above c->over (any total when
 * unlimited). Between the two it is too near the limit to judge. */
bool dl_admission_judged(const struct dl_capacity *c, double total);

/* One admission request: `held` CPUs of bandwidth were already reserved
 * (known to the probe), the request asked for `request` more, and the
 * kernel admitted it or not. Returns 1 when the answer was a mistake: a
 * request taking the total above c->over admitted, or one keeping it at or
 * below c->fit refused (any refusal when unlimited). A total between the
 * two is too near the limit to judge: 0. */
unsigned dl_admission_judge(const struct dl_capacity *c, double held, double request,
			    bool admitted);

/* The release of a job that started at `start`: the last point of the
 * period grid anchor, anchor + period, ... at or before start (anchor when
 * start is earlier). */
uint64_t dl_release(uint64_t anchor, uint64_t period, uint64_t start);

/* A job released at `release` with relative deadline `deadline` that
 * completed at `done` missed its deadline: done > release + deadline. */
static inline bool dl_missed(uint64_t release, uint64_t deadline, uint64_t done)
{
	return done > release + deadline;
}

#endif
