/* SPDX-License-Identifier: Apache-2.0 */
/* timer_semantics.c - do timers keep POSIX's rules: never early, an expired
 * time fires at once, missed periods counted?
 *
 * The worker's own thread (already under the requirement's policy,
 * priority and CPU) waits for a periodic expiry `interval` apart on `clock`,
 * by one of three mechanisms (`kind`): clock_nanosleep with TIMER_ABSTIME to
 * the next expiry; a POSIX timer (timer_create, SIGEV_THREAD_ID to this
 * thread, the signal blocked and taken with sigwaitinfo, the count from
 * timer_getoverrun); a timerfd (its read returns the count). One iteration
 * is one wake-up; it reads the clock just before its wait and just after,
 * and ts_judge() (timer_semantics.h) says whether it woke early and
 * whether the count of expiries was right. Every `busy-every` wake-ups the
 * thread then spins on purpose past `busy-periods` + 1 expiries (to the
 * middle of a period), so the next wake-up must report busy-periods
 * overruns. After each wake-up, a second timer (or sleep) is armed to a
 * time 1 ms in the past and timed until it fires: `past-deadline`.
 *
 * judge=coarse reads the judge's clock from the coarse variant of `clock`
 * (CLOCK_MONOTONIC_COARSE, CLOCK_REALTIME_COARSE), which lags the armed
 * clock by up to a tick: the configuration that must violate. The wake-ups
 * it sees as early and the counts it sees as wrong are the judge's, not
 * the kernel's: it shows that a violation is seen and counted.
 *
 * Everything is created before the first run; the measured loop makes
 * system calls only. A busy stretch is at most 50 ms and at most about
 * half of the time (busy-every > 2 x (busy-periods + 1)), cut short by a
 * stop, so the thread mostly sleeps and never nears RT throttling.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/probes/timer_semantics.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define TS_MIN_INTERVAL_NS 10000ull          /* 10 us */
#define TS_MAX_INTERVAL_NS 1000000000ull     /* 1 s */
#define TS_MAX_BUSY_PERIODS 16u
#define TS_MAX_SPIN_NS 50000000ull           /* 50 ms */
#define TS_PAST_NS 1000000ull                /* past-deadline: 1 ms ago */
#define NS_PER_S 1000000000ull

static const char *const clocks[] = { "monotonic", "realtime", "boottime", NULL };
static const char *const kinds[] = { "nanosleep", "timer-signal", "timerfd", NULL };
static const char *const judges[] = { "armed", "coarse", NULL };

enum { P_CLOCK, P_INTERVAL, P_KIND, P_BUSY_EVERY, P_BUSY_PERIODS, P_JUDGE };
enum { K_NANOSLEEP, K_SIGNAL, K_TIMERFD };

static const struct probe_param params[] = {
	[P_CLOCK] = { "clock", "the clock the sleeps and timers are armed on",
		      PARAM_ENUM, clocks, "monotonic" },
	[P_INTERVAL] = { "interval", "the period (10us .. 1s)", PARAM_DURATION, NULL, "1ms" },
	[P_KIND] = { "kind", "nanosleep: clock_nanosleep(TIMER_ABSTIME) to each expiry; "
			     "timer-signal: a POSIX timer's signal (sigwaitinfo, timer_getoverrun); "
			     "timerfd: a timerfd's read and its count",
		     PARAM_ENUM, kinds, "nanosleep" },
	[P_BUSY_EVERY] = { "busy-every", "wake-ups between two busy stretches; more than "
					 "2 x (busy-periods + 1)", PARAM_COUNT, NULL, "10" },
	[P_BUSY_PERIODS] = { "busy-periods", "overruns each busy stretch causes on purpose "
					     "(1 .. 16; the spin lasts busy-periods + 1.5 "
					     "intervals, at most 50 ms)", PARAM_COUNT, NULL, "2" },
	[P_JUDGE] = { "judge", "armed: judge on the armed clock; coarse: on its coarse "
			       "variant, a tick behind (must violate; not with boottime)",
		      PARAM_ENUM, judges, "armed" },
};

enum { M_EARLY, M_PAST, M_OVERRUN, M_RESOLUTION, M_MISSED };

static const struct probe_metric metrics[] = {
	[M_EARLY] = { "early", "wake-ups before the expiry waited for (read on the judge's "
			       "clock right after waking)", METRIC_COUNT },
	[M_PAST] = { "past-deadline", "an absolute sleep or timer armed 1 ms in the past: "
				      "from arming until it returned or fired", METRIC_DURATION },
	[M_OVERRUN] = { "overrun-errors", "wake-ups whose count of expiries disagreed with the "
					  "clock (nanosleep: a sleep to a passed time that "
					  "suspended the thread)", METRIC_COUNT },
	[M_RESOLUTION] = { "resolution", "clock_getres of the clock, one sample a run",
			   METRIC_DURATION },
	[M_MISSED] = { "missed", "periods that passed while the thread was away (the busy "
				 "stretches' and any the machine made it miss)", METRIC_COUNT },
};

struct ts_state {
	struct probe_ctx *c;
	clockid_t clock, judge;
	int kind;
	uint64_t interval, busy_every, busy_periods, res_ns;
	int tfd, tfd_past;             /* kind timerfd, else -1 */
	timer_t timer, timer_past;     /* kind timer-signal */
	int timers;                    /* how many of them exist */
	int sig_tick, sig_past;
	sigset_t set_tick, set_past;
	struct ts_account acc;
	/* Over the whole measurement (runs only), for the note. */
	uint64_t wakes, missed, busy, early, errors;
	uint64_t backwards; /* past-deadline reads where the clock went back */
};

static inline uint64_t ts_now(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static inline struct timespec ts_spec(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NS_PER_S), .tv_nsec = (long)(ns % NS_PER_S) };
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static inline long voluntary_switches(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

/* Arm the periodic timer (or set the first sleep target) at absolute time
 * `first`, or disarm it (first 0). 0 or an errno. */
static int ts_arm(struct ts_state *st, uint64_t first)
{
	struct itimerspec its = { .it_value = ts_spec(first),
				  .it_interval = ts_spec(first ? st->interval : 0) };
	if (st->kind == K_TIMERFD)
		return timerfd_settime(st->tfd, first ? TFD_TIMER_ABSTIME : 0, &its, NULL) ? errno : 0;
	if (st->kind == K_SIGNAL) {
		if (timer_settime(st->timer, first ? TIMER_ABSTIME : 0, &its, NULL))
			return errno;
		if (!first) {
			/* A tick still pending from this arming must not count
			 * for the next one. */
			struct timespec zero = { 0, 0 };
			while (sigtimedwait(&st->set_tick, NULL, &zero) > 0)
				;
		}
	}
	return 0;
}

/* Wait for the next expiry; fills w. 0, or an errno (EINTR: told to stop). */
static int ts_wait(struct ts_state *st, struct ts_wake *w)
{
	volatile int *stop = st->c->stop;
	*w = (struct ts_wake){ .before = ts_now(st->judge) };
	if (st->kind == K_NANOSLEEP) {
		struct timespec t = ts_spec(ts_expiry(&st->acc, st->acc.accounted + 1));
		long v0 = voluntary_switches();
		int rc;
		while ((rc = clock_nanosleep(st->clock, TIMER_ABSTIME, &t, NULL)) == EINTR)
			if (*stop)
				return EINTR;
		w->suspended = voluntary_switches() != v0;
		w->after = ts_now(st->judge);
		return rc;
	}
	if (st->kind == K_SIGNAL) {
		siginfo_t si;
		while (sigwaitinfo(&st->set_tick, &si) < 0)
			if (errno != EINTR || *stop)
				return errno;
		w->after = ts_now(st->judge);
		int over = timer_getoverrun(st->timer);
		if (over < 0)
			return errno;
		w->reported = 1 + (uint64_t)over;
		return 0;
	}
	uint64_t n;
	ssize_t got;
	while ((got = read(st->tfd, &n, sizeof n)) < 0)
		if (errno != EINTR || *stop)
			return errno;
	w->after = ts_now(st->judge);
	if (got != (ssize_t)sizeof n)
		return EIO;
	w->reported = n;
	return 0;
}

/* Arm a one-shot (or sleep) to 1 ms ago and time it until it fires, on
 * the armed clock. 0 or an errno. */
static int ts_past(struct ts_state *st, uint64_t *took, bool *back)
{
	uint64_t t0 = ts_now(st->clock);
	struct itimerspec its = { .it_value = ts_spec(t0 - TS_PAST_NS) };
	int rc = 0;
	if (st->kind == K_NANOSLEEP) {
		rc = clock_nanosleep(st->clock, TIMER_ABSTIME, &its.it_value, NULL);
	} else if (st->kind == K_SIGNAL) {
		if (timer_settime(st->timer_past, TIMER_ABSTIME, &its, NULL))
			return errno;
		while (sigwaitinfo(&st->set_past, NULL) < 0)
			if (errno != EINTR || *st->c->stop)
				return errno;
	} else {
		uint64_t n;
		if (timerfd_settime(st->tfd_past, TFD_TIMER_ABSTIME, &its, NULL))
			return errno;
		while (read(st->tfd_past, &n, sizeof n) < 0)
			if (errno != EINTR || *st->c->stop)
				return errno;
	}
	uint64_t t1 = ts_now(st->clock);
	/* A clock that went back (a realtime clock stepped) has no span to
	 * give: recorded as 0, and *back says so for the note's count. */
	*took = t1 > t0 ? t1 - t0 : 0;
	*back = t1 < t0;
	return rc;
}

/* Spin past busy-periods + 1 expiries after the last accounted one, to the
 * middle of the following period: the next wake-up then serves the first
 * of them and must report the others as overruns. Bounded (at most 50 ms,
 * checked before) and cut short by a stop. */
static void ts_spin(struct ts_state *st)
{
	uint64_t until = ts_expiry(&st->acc, st->acc.accounted) +
			 (st->busy_periods + 1) * st->interval + st->interval / 2;
	while (ts_now(st->clock) < until && !*st->c->stop)
		cpu_relax();
}

static const char *const step_names[] = { "clock_nanosleep", "sigwaitinfo", "timerfd read" };

/* n wake-ups from a fresh arming, recorded (a run) or not (the warm-up).
 * 0 or -errno after probe_fail. */
static int ts_series(struct ts_state *st, uint64_t n, bool record)
{
	struct probe_ctx *c = st->c;
	uint64_t first = ts_now(st->clock) + st->interval;
	int rc = ts_arm(st, first);
	if (rc)
		return probe_fail(c, rc, "arming the timer: %s", strerror(rc));
	st->acc = (struct ts_account){ .first = first, .interval = st->interval };
	for (uint64_t i = 0; i < n && !*c->stop; i++) {
		struct ts_wake w;
		uint64_t took = 0;
		bool back = false;
		if ((rc = ts_wait(st, &w)) != 0) {
			if (rc == EINTR && *c->stop)
				break;
			ts_arm(st, 0);
			return probe_fail(c, rc, "%s: %s", step_names[st->kind], strerror(rc));
		}
		struct ts_judgement j = ts_judge(&st->acc, &w);
		if ((rc = ts_past(st, &took, &back)) != 0) {
			if (rc == EINTR && *c->stop)
				break;
			ts_arm(st, 0);
			return probe_fail(c, rc, "past-deadline %s: %s", st->kind == K_NANOSLEEP ?
					  "clock_nanosleep" : "one-shot timer", strerror(rc));
		}
		if (record) {
			probe_add_count(c, M_EARLY, j.early);
			probe_add_count(c, M_OVERRUN, j.count_error);
			probe_record(c, M_PAST, took);
			st->backwards += back;
			st->wakes++;
			st->missed += j.missed;
			st->early += j.early;
			st->errors += j.count_error;
		}
		if ((i + 1) % st->busy_every == 0 && i + 1 < n) {
			st->busy += record;
			ts_spin(st);
		}
	}
	ts_arm(st, 0);
	return 0;
}

/* The timers of kind timer-signal: two POSIX timers on st->clock, each
 * signalling this thread with its own real-time signal, both blocked here
 * so that only sigwaitinfo takes them. 0 or -errno after probe_fail. */
static int ts_make_signal_timers(struct ts_state *st)
{
	st->sig_tick = SIGRTMIN;
	st->sig_past = SIGRTMIN + 1;
	sigemptyset(&st->set_tick);
	sigaddset(&st->set_tick, st->sig_tick);
	sigemptyset(&st->set_past);
	sigaddset(&st->set_past, st->sig_past);
	sigset_t both = st->set_tick;
	sigaddset(&both, st->sig_past);
	int rc = pthread_sigmask(SIG_BLOCK, &both, NULL);
	if (rc)
		return probe_fail(st->c, rc, "pthread_sigmask: %s", strerror(rc));
	pid_t self = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < 2; i++) {
		struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID,
				       .sigev_signo = i ? st->sig_past : st->sig_tick };
		ev.sigev_notify_thread_id = self;
		if (timer_create(st->clock, &ev, i ? &st->timer_past : &st->timer))
			return probe_fail(st->c, errno, "timer_create on the %s clock: %s",
					  probe_value(st->c, "clock"), strerror(errno));
		st->timers++;
	}
	return 0;
}

/* Clocks, counts and the kind's timers. 0 or -errno after probe_fail. */
static int ts_setup(struct probe_ctx *c, struct ts_state *st)
{
	static const clockid_t armed[] = { CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME };
	static const clockid_t coarse[] = { CLOCK_MONOTONIC_COARSE, CLOCK_REALTIME_COARSE, -1 };
	const char *clock_name = probe_value(c, "clock");
	int ci = 0, ki = 0;
	while (clocks[ci] && strcmp(clocks[ci], clock_name))
		ci++;
	while (kinds[ki] && strcmp(kinds[ki], probe_value(c, "kind")))
		ki++;
	char why[160];
	*st = (struct ts_state){ .c = c, .clock = armed[ci], .judge = armed[ci], .kind = ki,
				 .tfd = -1, .tfd_past = -1 };
	if (strcmp(probe_value(c, "judge"), "coarse") == 0)
		st->judge = coarse[ci];
	if (units_duration_parse_ns(probe_value(c, "interval"), false, &st->interval, why, sizeof why) ||
	    units_count_parse(probe_value(c, "busy-every"), UINT64_MAX, &st->busy_every, why, sizeof why) ||
	    units_count_parse(probe_value(c, "busy-periods"), UINT64_MAX, &st->busy_periods, why,
			sizeof why))
		return probe_fail(c, EINVAL, "timer-semantics: %s", why);
	struct timespec res;
	if (clock_getres(st->clock, &res) != 0)
		return probe_fail(c, errno, "clock_getres on the %s clock: %s", clock_name,
				  strerror(errno));
	st->res_ns = (uint64_t)res.tv_sec * NS_PER_S + (uint64_t)res.tv_nsec;
	/* The spin is about (busy-periods + 1) / busy-every of the periods on top. */
	long double need = ((long double)c->warmup + (long double)c->runs * c->iterations) *
			   st->interval * (1.0L + (st->busy_periods + 1.0L) / st->busy_every);
	if (c->timeout_ns && need >= (long double)c->timeout_ns) {
		char a[32], b[32];
		units_fmt_ns((double)need, a, sizeof a);
		units_fmt_ns((double)c->timeout_ns, b, sizeof b);
		return probe_fail(c, ETIME, "(warmup + runs x iterations) periods with their busy "
				  "stretches take about %s, not less than the timeout of %s: raise "
				  "<run timeout> or lower the counts", a, b);
	}
	if (st->kind == K_SIGNAL)
		return ts_make_signal_timers(st);
	if (st->kind == K_TIMERFD &&
	    ((st->tfd = timerfd_create(st->clock, TFD_CLOEXEC)) < 0 ||
	     (st->tfd_past = timerfd_create(st->clock, TFD_CLOEXEC)) < 0))
		return probe_fail(c, errno, "timerfd_create on the %s clock: %s", clock_name,
				  strerror(errno));
	return 0;
}

static void ts_teardown(struct ts_state *st)
{
	if (st->timers > 0)
		timer_delete(st->timer);
	if (st->timers > 1)
		timer_delete(st->timer_past);
	if (st->tfd >= 0)
		close(st->tfd);
	if (st->tfd_past >= 0)
		close(st->tfd_past);
}

static void ts_note(struct probe_ctx *c, const struct ts_state *st)
{
	char res[32], iv[32];
	units_fmt_ns((double)st->res_ns, res, sizeof res);
	units_fmt_ns((double)st->interval, iv, sizeof iv);
	snprintf(c->res->note, sizeof c->res->note,
		 "%s clock (resolution %s), %s, interval %s, judged on the %s clock: %llu "
		 "wake-ups, %llu early, %llu overrun errors; %llu periods missed, %llu busy "
		 "stretches of %llu overruns each.",
		 probe_value(c, "clock"), res, probe_value(c, "kind"), iv,
		 st->judge == st->clock ? "armed" : "coarse", (unsigned long long)st->wakes,
		 (unsigned long long)st->early, (unsigned long long)st->errors,
		 (unsigned long long)st->missed, (unsigned long long)st->busy,
		 (unsigned long long)st->busy_periods);
	size_t used = strlen(c->res->note);
	if (st->backwards && used + 2 < sizeof c->res->note)
		snprintf(c->res->note + used, sizeof c->res->note - used, " %llu past-deadline "
			 "figures recorded as 0: the clock went back while they were taken.",
			 (unsigned long long)st->backwards);
}

static int ts_run(struct probe_ctx *c)
{
	struct ts_state st;
	int rc = ts_setup(c, &st);
	/* Both durations are nanoseconds of a clock, not timebase ticks. */
	c->m[M_PAST]->ns_per_unit = c->m[M_RESOLUTION]->ns_per_unit = 1.0;
	c->m[M_PAST]->cycles_per_unit = c->m[M_RESOLUTION]->cycles_per_unit = 0.0;
	c->res->state = WS_WARMUP;
	if (!rc && c->warmup)
		rc = ts_series(&st, c->warmup, false);
	for (uint32_t r = 0; r < c->runs && !rc && !*c->stop; r++) {
		probe_run_begin(c, r);
		probe_record(c, M_RESOLUTION, st.res_ns);
		uint64_t missed = st.missed;
		rc = ts_series(&st, c->iterations, true);
		/* The run's missed periods, counted in the series as today. */
		probe_add_count(c, M_MISSED, st.missed - missed);
		/* 0: a run's time / wake-ups is only the period. */
		probe_run_end(c, 0);
	}
	if (!rc)
		ts_note(c, &st);
	ts_teardown(&st);
	return rc;
}

struct ts_judgement ts_judge(struct ts_account *a, const struct ts_wake *w)
{
	struct ts_judgement j = { .early = w->after < ts_expiry(a, a->accounted + 1) };
	uint64_t lo = ts_due(a, w->before), hi = ts_due(a, w->after);
	uint64_t old = a->accounted, now;
	if (w->reported == 0) {
		j.count_error = w->suspended && lo > old;
		now = hi;
	} else {
		now = old + w->reported;
		j.count_error = now < lo || now > hi;
		now = now < lo ? lo : now > hi ? hi : now;
	}
	if (now > old) {
		a->accounted = now;
		j.missed = now - old - 1;
	}
	return j;
}

static const char *ts_check(const char *const *values, char *buf, size_t len)
{
	uint64_t ns, every, k;
	char err[160];
	if (units_duration_parse_ns(values[P_INTERVAL], false, &ns, err, sizeof err) != 0) {
		snprintf(buf, len, "probe timer-semantics: interval: %s", err);
		return buf;
	}
	if (ns < TS_MIN_INTERVAL_NS || ns > TS_MAX_INTERVAL_NS) {
		snprintf(buf, len, "probe timer-semantics: interval %s is outside 10us .. 1s",
			 values[P_INTERVAL]);
		return buf;
	}
	if (units_count_parse(values[P_BUSY_PERIODS], UINT64_MAX, &k, err, sizeof err) != 0 ||
	    k > TS_MAX_BUSY_PERIODS) {
		snprintf(buf, len, "probe timer-semantics: busy-periods %s is outside 1 .. %u",
			 values[P_BUSY_PERIODS], TS_MAX_BUSY_PERIODS);
		return buf;
	}
	if (units_count_parse(values[P_BUSY_EVERY], UINT64_MAX, &every, err, sizeof err) != 0 ||
	    every <= 2 * (k + 1)) {
		snprintf(buf, len, "probe timer-semantics: busy-every %s must be more than "
			 "2 x (busy-periods + 1) = %llu (a busy stretch at most about half the "
			 "time)", values[P_BUSY_EVERY], (unsigned long long)(2 * (k + 1)));
		return buf;
	}
	if ((2 * k + 3) * ns > 2 * TS_MAX_SPIN_NS) {
		snprintf(buf, len, "probe timer-semantics: a busy stretch of (busy-periods + 1.5) "
			 "x interval = (%llu + 1.5) x %s is over 50ms", (unsigned long long)k,
			 values[P_INTERVAL]);
		return buf;
	}
	if (strcmp(values[P_JUDGE], "coarse") == 0 && strcmp(values[P_CLOCK], "boottime") == 0) {
		snprintf(buf, len, "probe timer-semantics: judge coarse: the boottime clock has no "
			 "coarse variant (use monotonic or realtime)");
		return buf;
	}
	return NULL;
}

/* One expiry an interval. */
static void ts_pace(const char *const *values, struct probe_pace *out)
{
	out->iteration_s = probe_decl_value_s(values[P_INTERVAL]);
}

const struct probe probe_timer_semantics = {
	.decl.name = "timer-semantics",
	.decl.pace = ts_pace,
	.decl.verifies = "nothing beyond the worker: its timers signal the worker's own thread",
	.decl.help = "POSIX timer rules: no early expiry, an expired absolute time fires at "
		"once, overruns counted right (nanosleep, timer signal, timerfd); "
		"iterations = wake-ups per run",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.check = ts_check,
	.run = ts_run,
	.mostly_sleeps = true,
};
