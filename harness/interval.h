/* SPDX-License-Identifier: Apache-2.0 */
/* layers: private to measure harness (the result memory's layout: above the
 * harness, a result's numbers are read in harness/summary.h) */
/* interval.h - a requirement's samples cut into intervals of time.
 *
 * The worker records into one histogram per metric (and per CPU series) for
 * the whole requirement; the supervisor, at the end of each run while the
 * worker waits (probe_checkpoint), keeps a copy of every block as it stood
 * when the current interval began, and once the interval has lasted its
 * length, the difference of the two is the interval's own histogram
 * (hist_subtract): exact counts, so the intervals add up to the total.
 * An interval ends at the end of a run, so it lasts at least its length
 * (`seconds` says how long); the last one ends with the requirement, cut
 * short or not. Nothing of this runs in the worker.
 */
#ifndef RTC_INTERVAL_H
#define RTC_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/measure/probe.h"

/* The default interval of a run by time. */
#define INTERVAL_DEFAULT_NS (60ull * 1000000000ull)

struct interval_cap {
	uint64_t every_ns;       /* the interval's length; 0: no intervals */
	unsigned nblocks;        /* the result memory's metric blocks and series */
	size_t stride;           /* bytes of a block */
	char *snap;              /* every block at the current interval's start */
	char *diff;              /* every block: the closed interval's samples */
	double start_mono;       /* monotonic seconds; < 0 before the first run ended */
	int64_t start_ms;        /* the same moment, UTC, ms since the epoch */
	double first_mono;       /* the first interval's start: every start is */
	int64_t first_ms;        /* first_ms plus the monotonic time since, rounded */
	uint32_t closed;         /* intervals closed */
};

/* One closed interval: block i (metric i, then series i - nmetrics) of its
 * samples is interval_block(out, i). */
struct interval_out {
	uint32_t index;          /* from 0 */
	int64_t start_ms;        /* UTC, ms since the epoch */
	double seconds;
	unsigned nmetrics, nseries;
	size_t stride;
	const char *blocks;
};

static inline const struct metric_data *interval_block(const struct interval_out *o, unsigned i)
{
	return (const struct metric_data *)(o->blocks + (size_t)i * o->stride);
}

/* Set c up for res (made, not yet measuring) with intervals of every_ns (0:
 * none, and every other call does nothing). 0, or -ENOMEM (no intervals). */
int interval_cap_init(struct interval_cap *c, const struct result_shm *res, uint64_t every_ns);
/* At the end of a run (the worker waiting) or, with last, once the worker
 * is gone: close the interval when it has lasted its length (or is the
 * last and holds a sample), filling out. True when one closed. */
bool interval_cap_tick(struct interval_cap *c, const struct result_shm *res, bool last,
		       struct interval_out *out);
void interval_cap_free(struct interval_cap *c);

#endif
