/* SPDX-License-Identifier: Apache-2.0 */
/* timer_semantics.h - the rules the timer-semantics probe judges each
 * wake-up by, apart from the clocks and timers that produce the readings,
 * so a unit test can feed it readings of its own
 * (tests/test_timer_semantics.c).
 *
 * A periodic timer (or a thread sleeping to absolute times one interval
 * apart) has expiries at first, first + interval, first + 2 x interval, ...
 * on the clock it is armed on. Expiry n (n >= 1) is at
 * first + (n - 1) x interval. Every time is in nanoseconds of that clock.
 */
#ifndef RTC_TIMER_SEMANTICS_H
#define RTC_TIMER_SEMANTICS_H

#include <stdbool.h>
#include <stdint.h>

struct ts_account {
	uint64_t first;      /* expiry 1 */
	uint64_t interval;   /* > 0 */
	uint64_t accounted;  /* expiries accounted for by the wake-ups so far */
};

/* One wake-up, as the thread saw it. */
struct ts_wake {
	uint64_t before;   /* clock read just before the wait was called */
	uint64_t after;    /* clock read just after it returned */
	/* Expiries the kernel reported with this wake-up: 1 + timer_getoverrun
	 * for a POSIX timer's signal, the count a timerfd read returned. 0 for
	 * an absolute sleep (clock_nanosleep reports no count). */
	uint64_t reported;
	/* An absolute sleep only: the thread was suspended in it (it gave up
	 * its CPU: a voluntary context switch). */
	bool suspended;
};

struct ts_judgement {
	bool early;        /* woke before the expiry it was waiting for */
	bool count_error;  /* the overrun rule was broken (below) */
	uint64_t missed;   /* expiries passed by this wake-up beyond the one it served */
};

/* Expiries due by time t: those at or before t. */
static inline uint64_t ts_due(const struct ts_account *a, uint64_t t)
{
	return t < a->first ? 0 : (t - a->first) / a->interval + 1;
}

/* The time of expiry n (n >= 1). */
static inline uint64_t ts_expiry(const struct ts_account *a, uint64_t n)
{
	return a->first + (n - 1) * a->interval;
}

/* Judge one wake-up and account for the expiries it served.
 *
 * early: `after` < the expiry the thread waited for (the first expiry not
 * yet accounted for): it woke before the time it asked for.
 *
 * A timer's wake-up (reported > 0): the kernel counts the expiries at the
 * moment it delivers the notification, inside the wait, so between
 * `before` and `after`. Its count must lie within the expiries not yet
 * accounted for that were due by `before` and those due by `after`:
 *   due(before) - accounted <= reported <= due(after) - accounted.
 * Anything else is a count error. The bounds are clock readings, not
 * estimates, so a busy stretch ending right at an expiry or a late wake-up
 * cannot make a correct count look wrong. The expiries accounted for then
 * become accounted + reported, kept within [due(before), due(after)] so
 * one wrong count is not counted again at every later wake-up.
 *
 * An absolute sleep (reported == 0) to the first unaccounted expiry: POSIX
 * says a sleep to a time already past returns at once and the thread is
 * not suspended. A count error is a sleep whose target was already due at
 * `before` that suspended the thread. The thread then accounts for every
 * expiry due by `after` (the periods it missed are skipped, as a periodic
 * thread does).
 *
 * missed: the expiries accounted for by this wake-up minus one. */
struct ts_judgement ts_judge(struct ts_account *a, const struct ts_wake *w);

#endif
