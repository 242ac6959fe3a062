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
 * With RTC_FAKE_BACK_US set, CLOCK_REALTIME is stepped back by that many
 * microseconds right after each absolute sleep on it whose time had
 * already passed, as an administrator or NTP stepping the clock at that
 * moment would: the next reading through clock_gettime is that much
 * further behind (what the timer-semantics probe must count, not hide).
 *
 * With RTC_FAKE_CLOCK_RATE set to a factor (0.5, 2: above 0, at most 1000,
 * not 1), every clock a sample or a timer is taken with (CLOCK_REALTIME,
 * _MONOTONIC, _MONOTONIC_RAW, their _COARSE kin, _BOOTTIME) runs at that
 * rate through clock_gettime, from its first reading on, as a preloaded
 * libfaketime (FAKETIME="+0 x0.5") makes it run: what the timebase's check
 * against the kernel must catch (selftest's clock-half and clock-double).
 * The kernel's own clock, read with the system call, is left alone. With
 * RTC_FAKE_CLOCK_ONLY set to a program's name (rtconform-worker), the rate
 * holds in that program alone, as libfaketime's FAKETIME_ONLY_CMDS does:
 * what the worker's own check must catch (selftest's clock-worker).
 *
 * Only clock_nanosleep is wrapped for the early wake-ups: the timer-wakeup probe sleeps with it
 * alone (glibc's nanosleep does not call it through the symbol table).
 * Built as a MODULE library for the tests (tests/CMakeLists.txt), and with
 * RTC_SELFTEST_GUARD as rtconform-fault-clock.so, shipped in the helper
 * directory for `rtconform selftest` (cmake/modules.cmake): that one does
 * nothing unless RTC_SELFTEST_FAULTS is set too, which selftest alone sets.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* program_invocation_short_name */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_nanosleep_fn real_clock_nanosleep;
static clock_gettime_fn real_clock_gettime;
static int64_t early_ns, back_ns;
static double rate = 1.0; /* RTC_FAKE_CLOCK_RATE */
static int64_t base[8];   /* each clock's first reading, ns (0: none yet) */
static int64_t behind;   /* how far CLOCK_REALTIME is stepped back, ns */
static int step_pending; /* step back at the next reading */

/* A whole number of microseconds from the environment, in ns; 0 unless
 * set to one above 0 and below 1000 s. */
static int64_t env_us(const char *name)
{
	const char *s = getenv(name);
	char *end = NULL;
	long long us = s ? strtoll(s, &end, 10) : 0;
	return s && end != s && *end == '\0' && us > 0 && us < 1000000000LL ? (int64_t)us * 1000 : 0;
}

/* A factor from the environment: above 0, at most 1000; else 1. */
static double env_rate(const char *name)
{
	const char *s = getenv(name);
	char *end = NULL;
	double r = s ? strtod(s, &end) : 1.0;
	return s && end != s && *end == '\0' && r > 0 && r <= 1000 ? r : 1.0;
}

__attribute__((constructor)) static void fake_clock_init(void)
{
	real_clock_nanosleep = (clock_nanosleep_fn)dlsym(RTLD_NEXT, "clock_nanosleep");
	real_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
	early_ns = env_us("RTC_FAKE_EARLY_US");
	back_ns = env_us("RTC_FAKE_BACK_US");
	rate = env_rate("RTC_FAKE_CLOCK_RATE");
	const char *only = getenv("RTC_FAKE_CLOCK_ONLY");
	if (only && *only && strcmp(only, program_invocation_short_name) != 0)
		rate = 1.0;
#ifdef RTC_SELFTEST_GUARD
	/* rtconform-fault-clock.so: inert outside `rtconform selftest`. */
	if (!getenv("RTC_SELFTEST_FAULTS")) {
		early_ns = back_ns = 0;
		rate = 1.0;
	}
#endif
}

/* ts of clock at `rate` from the clock's first reading on. */
static void scale(clockid_t clock, struct timespec *ts)
{
	if (rate == 1.0 || clock < 0 || clock >= 8 || clock == CLOCK_PROCESS_CPUTIME_ID ||
	    clock == CLOCK_THREAD_CPUTIME_ID)
		return;
	int64_t t = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec, zero = 0;
	__atomic_compare_exchange_n(&base[clock], &zero, t, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	int64_t b = __atomic_load_n(&base[clock], __ATOMIC_ACQUIRE);
	t = b + (int64_t)((double)(t - b) * rate);
	ts->tv_sec = (time_t)(t / 1000000000);
	ts->tv_nsec = (long)(t % 1000000000);
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	if (!real_clock_gettime)
		return ENOSYS;
	int rc = real_clock_gettime(clock, ts);
	if (!rc)
		scale(clock, ts);
	if (rc || clock != CLOCK_REALTIME || !back_ns)
		return rc;
	if (__atomic_exchange_n(&step_pending, 0, __ATOMIC_ACQ_REL))
		__atomic_add_fetch(&behind, back_ns, __ATOMIC_ACQ_REL);
	int64_t t = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec -
		    __atomic_load_n(&behind, __ATOMIC_ACQUIRE);
	ts->tv_sec = (time_t)(t / 1000000000);
	ts->tv_nsec = (long)(t % 1000000000);
	return 0;
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
	if (!real_clock_nanosleep)
		return ENOSYS;
	if (back_ns && clock == CLOCK_REALTIME && (flags & TIMER_ABSTIME) && req) {
		struct timespec now;
		real_clock_gettime(clock, &now);
		if (req->tv_sec < now.tv_sec || (req->tv_sec == now.tv_sec && req->tv_nsec <= now.tv_nsec))
			__atomic_store_n(&step_pending, 1, __ATOMIC_RELEASE);
	}
	if (clock != CLOCK_MONOTONIC || !(flags & TIMER_ABSTIME) || !early_ns || !req)
		return real_clock_nanosleep(clock, flags, req, rem);
	int64_t t = (int64_t)req->tv_sec * 1000000000 + req->tv_nsec - early_ns;
	if (t < 0)
		t = 0;
	struct timespec sooner = { .tv_sec = (time_t)(t / 1000000000),
				   .tv_nsec = (long)(t % 1000000000) };
	return real_clock_nanosleep(clock, flags, &sooner, rem);
}
