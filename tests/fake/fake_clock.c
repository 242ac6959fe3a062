/* SPDX-License-Identifier: Apache-2.0 */
/* fake_clock.c - an LD_PRELOAD library whose timer fires early, for tests.
 *
 * POSIX never lets an absolute clock_nanosleep return before its target,
 * so an early wake-up cannot be provoked on a working kernel. With this
 * library preloaded, an absolute sleep on CLOCK_MONOTONIC sleeps until
 * RTC_FAKE_EARLY_US microseconds before its target instead (the variable is
 * read once, when the library is loaded; unset, 0 or not a number: every
 * call is passed on unchanged). Reading the clock is left alone, so the
 * caller sees itself woken early. Every other sleep is passed on as it is.
 *
 * Only clock_nanosleep is wrapped: the timer-wakeup probe sleeps with it
 * alone (glibc's nanosleep does not call it through the symbol table).
 * Built as a MODULE library, with the tests only (tests/CMakeLists.txt).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);

static clock_nanosleep_fn real_clock_nanosleep;
static int64_t early_ns;

__attribute__((constructor)) static void fake_clock_init(void)
{
	real_clock_nanosleep = (clock_nanosleep_fn)dlsym(RTLD_NEXT, "clock_nanosleep");
	const char *s = getenv("RTC_FAKE_EARLY_US");
	char *end = NULL;
	long long us = s ? strtoll(s, &end, 10) : 0;
	if (s && end != s && *end == '\0' && us > 0 && us < 1000000000LL)
		early_ns = (int64_t)us * 1000;
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
	if (!real_clock_nanosleep)
		return ENOSYS;
	if (clock != CLOCK_MONOTONIC || !(flags & TIMER_ABSTIME) || !early_ns || !req)
		return real_clock_nanosleep(clock, flags, req, rem);
	int64_t t = (int64_t)req->tv_sec * 1000000000 + req->tv_nsec - early_ns;
	if (t < 0)
		t = 0;
	struct timespec sooner = { .tv_sec = (time_t)(t / 1000000000),
				   .tv_nsec = (long)(t % 1000000000) };
	return real_clock_nanosleep(clock, flags, &sooner, rem);
}
