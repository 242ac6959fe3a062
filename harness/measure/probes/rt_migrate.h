/* SPDX-License-Identifier: Apache-2.0 */
/* rt_migrate.h - the rule the rt-migrate probe judges each release by, apart
 * from the threads that produce the times, so a unit test can feed it
 * times of its own (tests/test_rt_migrate.c). */
#ifndef RTC_RT_MIGRATE_H
#define RTC_RT_MIGRATE_H

#include <stdint.h>

/* Tasks of one release in priority order (index 0 the highest), each with
 * the time it started (first ran after the release) and the time it ended
 * its busy interval, on one timebase. Task j is a violation when it started
 * while a higher-priority task had not started yet AND at least `ncpus`
 * higher-priority tasks were still unfinished then: j took a CPU that one
 * of the ncpus highest-priority runnable tasks was owed. (Fewer unfinished
 * higher tasks leave every one of them a CPU of its own, so which of them
 * got through its wake-up first is no question of priority.) When
 * `violated` is not NULL, violated[j] is raised for each violation.
 * Returns how many of the n tasks violated the rule. */
unsigned rt_migrate_judge(const uint64_t *start, const uint64_t *end, unsigned n,
			  unsigned ncpus, uint64_t *violated);

#endif
