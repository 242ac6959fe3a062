/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_check.c - the timebase checked against the kernel, before
 * anything is measured (timebase.h, struct tb_check; docs/measurement.md,
 * "The timebase against the kernel").
 *
 * A C library clock that runs at half speed (a preloaded libfaketime, a
 * sandbox's clock) halves every figure timed with it, and every TSC rate
 * calibrated against it. So the one clock the check trusts is the kernel's,
 * read with the clock_gettime system call made by the syscall instruction
 * itself: no C library function, vDSO or preloaded wrapper stands between
 * (Debian's libfaketime does not wrap syscall(2), but a build with
 * INTERCEPT_SYSCALL does). Over one window of that clock (at least
 * CHECK_SPAN_NS, longer until the reads' own uncertainty is a twentieth of
 * the tolerance) the C library's CLOCK_MONOTONIC_RAW and CLOCK_MONOTONIC
 * must keep its pace, the TSC its calibrated rate, and the hardware counter
 * each rate the kernel, the CPU or the firmware publish for it.
 */
#include "harness/measure/timebase.h"
#include "harness/measure/timebase_impl.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CHECK_SPAN_NS 50000000.0   /* 50 ms: the shortest window */
#define CHECK_SPAN_MAX_NS 1.6e9    /* the longest, when the reads are slow */
#define CHECK_TRIES 8              /* brackets per end; the tightest wins */

uint64_t tb_kernel_ns(clockid_t clock)
{
	struct timespec ts = { 0, 0 };
	long rc;
#if defined(__x86_64__)
	__asm__ __volatile__("syscall"
			     : "=a"(rc)
			     : "0"((long)SYS_clock_gettime), "D"((long)clock), "S"(&ts)
			     : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_clock_gettime;
	register long x0 __asm__("x0") = clock;
	register long x1 __asm__("x1") = (long)&ts;
	__asm__ __volatile__("svc 0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	rc = x0;
#else
	rc = syscall(SYS_clock_gettime, clock, &ts) == 0 ? 0 : -errno;
#endif
	if (rc != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t libc_ns(clockid_t clock)
{
	struct timespec ts = { 0, 0 };
	if (clock_gettime(clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Every clock and counter read at (nearly) one instant of the kernel's
 * CLOCK_MONOTONIC_RAW: all of them between two kernel reads, the tightest
 * bracket of CHECK_TRIES kept, so that a preemption between the reads is
 * thrown away and what is left is bounded by the bracket (gap). */
struct snap {
	double k_raw, k_mono, libc_raw, libc_mono, ticks, count, gap;
	double k_real, libc_real, k_boot, libc_boot; /* each pair read side by side */
	bool ok;
};

static void take_snap(struct snap *s, const struct tb_counter *cnt)
{
	s->ok = false;
	s->gap = INFINITY;
	for (int i = 0; i < CHECK_TRIES; i++) {
		uint64_t k0 = tb_kernel_ns(CLOCK_MONOTONIC_RAW);
		uint64_t km = tb_kernel_ns(CLOCK_MONOTONIC);
		uint64_t lr = libc_ns(CLOCK_MONOTONIC_RAW);
		uint64_t lm = libc_ns(CLOCK_MONOTONIC);
		uint64_t kr = tb_kernel_ns(CLOCK_REALTIME), lre = libc_ns(CLOCK_REALTIME);
		uint64_t kb = tb_kernel_ns(CLOCK_BOOTTIME), lb = libc_ns(CLOCK_BOOTTIME);
		uint64_t t = tb_now();
		uint64_t c = cnt->read ? cnt->read() : 0;
		uint64_t k1 = tb_kernel_ns(CLOCK_MONOTONIC_RAW);
		if (!k0 || !km || k1 < k0 || (double)(k1 - k0) >= s->gap)
			continue;
		*s = (struct snap){ .k_raw = (double)k0 + (double)(k1 - k0) / 2.0,
				    .k_mono = (double)km, .libc_raw = (double)lr,
				    .libc_mono = (double)lm, .ticks = (double)t, .count = (double)c,
				    .gap = (double)(k1 - k0), .k_real = (double)kr,
				    .libc_real = (double)lre, .k_boot = (double)kb,
				    .libc_boot = (double)lb, .ok = true };
	}
}

/* Sleep until the kernel's clock reads at least `until` (ns): a sleep a
 * preload shortens or lengthens only changes how often this loops. */
static void sleep_until_kernel(double until)
{
	for (;;) {
		uint64_t now = tb_kernel_ns(CLOCK_MONOTONIC_RAW);
		if (!now || (double)now >= until)
			return;
		double left = until - (double)now;
		struct timespec req = { .tv_sec = (time_t)(left / 1e9),
					.tv_nsec = (long)fmod(left, 1e9) };
		nanosleep(&req, NULL);
	}
}

void timebase_perf_rate(struct tb_check_row *r, const char *counter)
{
	memset(r, 0, sizeof *r);
	snprintf(r->key, sizeof r->key, "perf");
	snprintf(r->subject, sizeof r->subject, "%s", counter);
	snprintf(r->source, sizeof r->source,
		 "the rate the kernel publishes for it (perf_event mmap page time_mult/time_shift)");
	r->tolerance = TB_CHECK_TOLERANCE;
	r->state = TB_ROW_UNAVAILABLE;
	/* A software event of this process alone, counting nothing: what an
	 * unprivileged user may open under perf_event_paranoid 2. */
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof attr,
					.config = PERF_COUNT_SW_DUMMY, .disabled = 1,
					.exclude_kernel = 1, .exclude_hv = 1 };
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
		int paranoid = 0;
		bool known = f && fscanf(f, "%d", &paranoid) == 1;
		if (f)
			fclose(f);
		if (known)
			snprintf(r->note, sizeof r->note,
				 "perf_event_open: %s (kernel.perf_event_paranoid %d)", strerror(e),
				 paranoid);
		else
			snprintf(r->note, sizeof r->note, "perf_event_open: %s", strerror(e));
		return;
	}
	long page = sysconf(_SC_PAGESIZE);
	volatile struct perf_event_mmap_page *p =
		mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(r->note, sizeof r->note, "mmap of the perf_event page: %s", strerror(errno));
		return;
	}
	uint32_t seq, mult, shift;
	bool cap;
	do { /* the page's own sequence lock */
		seq = p->lock;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		cap = p->cap_user_time;
		mult = p->time_mult;
		shift = p->time_shift;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} while (p->lock != seq || (seq & 1));
	munmap((void *)p, (size_t)page);
	if (!cap || !mult || shift > 63) {
		snprintf(r->note, sizeof r->note,
			 "the perf_event page has cap_user_time %d, time_mult %u: the kernel "
			 "publishes no rate (its sched_clock is not this counter's, or not stable)",
			 cap, mult);
		return;
	}
	/* ns = cycles * time_mult >> time_shift */
	r->expected = 1e9 * ldexp(1.0, (int)shift) / (double)mult;
	r->state = TB_ROW_AGREES;
	snprintf(r->note, sizeof r->note, "time_mult %u, time_shift %u", mult, shift);
}

static struct tb_check_row *add_row(struct tb_check *chk, const char *key, const char *subject,
				    const char *source)
{
	if (chk->nrows >= TB_CHECK_MAX_ROWS)
		return NULL;
	struct tb_check_row *r = &chk->row[chk->nrows++];
	memset(r, 0, sizeof *r);
	snprintf(r->key, sizeof r->key, "%s", key);
	snprintf(r->subject, sizeof r->subject, "%s", subject);
	snprintf(r->source, sizeof r->source, "%s", source);
	r->state = TB_ROW_AGREES; /* measured: judged later */
	r->tolerance = TB_CHECK_TOLERANCE;
	return r;
}

#define KERNEL_SOURCE "the kernel's (clock_gettime system call)"

static double snap_at(const struct snap *s, size_t offset)
{
	double v;
	memcpy(&v, (const char *)s + offset, sizeof v);
	return v;
}

/* The rows of one window a .. b. */
static void fill_rows(struct timebase *tb, const struct tb_counter *cnt, const struct snap *a,
		      const struct snap *b)
{
	struct tb_check *chk = &tb->check;
	double span = b->k_raw - a->k_raw;
	struct tb_check_row *r;
	r = add_row(chk, "libc_monotonic_raw", "the C library's clock (CLOCK_MONOTONIC_RAW)",
		    KERNEL_SOURCE);
	r->measured = (b->libc_raw - a->libc_raw) / span;
	r->expected = 1.0;
	r = add_row(chk, "libc_monotonic", "the C library's clock (CLOCK_MONOTONIC)",
		    KERNEL_SOURCE);
	r->measured = (b->libc_mono - a->libc_mono) / (b->k_mono - a->k_mono);
	r->expected = 1.0;
	/* The probes arm sleeps and timers on these too (timer-semantics'
	 * clock=realtime|boottime): each against the kernel's same clock, read
	 * beside it, so that a step of the clock itself (an administrator,
	 * NTP) moves both alike; where the kernel's own clock left
	 * CLOCK_MONOTONIC_RAW's pace over the window (stepped, a suspend), the
	 * row is not compared. */
	static const struct {
		const char *key, *subject;
		size_t libc, kernel; /* offsets into struct snap */
	} other[] = {
		{ "libc_realtime", "the C library's clock (CLOCK_REALTIME)",
		  offsetof(struct snap, libc_real), offsetof(struct snap, k_real) },
		{ "libc_boottime", "the C library's clock (CLOCK_BOOTTIME)",
		  offsetof(struct snap, libc_boot), offsetof(struct snap, k_boot) },
	};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		double dl = snap_at(b, other[i].libc) - snap_at(a, other[i].libc);
		double dk = snap_at(b, other[i].kernel) - snap_at(a, other[i].kernel);
		r = add_row(chk, other[i].key, other[i].subject, KERNEL_SOURCE);
		if (!r)
			break;
		r->expected = 1.0;
		if (fabs(dk / span - 1.0) > TB_CHECK_TOLERANCE) {
			r->state = TB_ROW_UNAVAILABLE;
			snprintf(r->note, sizeof r->note, "not compared: the kernel's own clock ran "
				 "at %.6f of CLOCK_MONOTONIC_RAW over the window (stepped, or a "
				 "suspend)", dk / span);
			continue;
		}
		r->measured = dl / dk;
	}
	/* The clock timebase reads the C library's CLOCK_MONOTONIC_RAW, the
	 * first row; the TSC has a rate of its own. */
	if (tb->is_tsc) {
		r = add_row(chk, "tsc_calibrated", "the TSC", "its calibrated rate");
		r->is_rate = true;
		r->measured = (b->ticks - a->ticks) * 1e9 / span;
		r->expected = tb->freq_hz;
	}
	struct tb_check_row pub[TB_CHECK_MAX_ROWS];
	unsigned n = cnt->read ? timebase_published_rates(pub, TB_CHECK_MAX_ROWS) : 0;
	for (unsigned i = 0; i < n && chk->nrows < TB_CHECK_MAX_ROWS; i++) {
		r = &chk->row[chk->nrows++];
		*r = pub[i];
		r->is_rate = true;
		if (r->state == TB_ROW_UNAVAILABLE)
			continue;
		if (!cnt->steady) {
			r->state = TB_ROW_UNAVAILABLE;
			snprintf(r->note, sizeof r->note, "not compared: %s", cnt->why);
			continue;
		}
		r->measured = (b->count - a->count) * 1e9 / span;
	}
	if (!cnt->read && chk->nrows < TB_CHECK_MAX_ROWS) {
		r = add_row(chk, "counter", "a hardware counter", "a published rate");
		r->state = TB_ROW_UNAVAILABLE;
		snprintf(r->note, sizeof r->note, "%s", cnt->why);
	}
}

void timebase_check_run(struct timebase *tb)
{
	timebase_check_window(tb, CHECK_SPAN_NS, CHECK_SPAN_MAX_NS);
}

void timebase_check_window(struct timebase *tb, double min_span_ns, double max_span_ns)
{
	struct tb_check *chk = &tb->check;
	memset(chk, 0, sizeof *chk);
	chk->done = true;
#if defined(__x86_64__)
	snprintf(chk->kernel, sizeof chk->kernel,
		 "clock_gettime system call (the syscall instruction), CLOCK_MONOTONIC_RAW");
#elif defined(__aarch64__)
	snprintf(chk->kernel, sizeof chk->kernel,
		 "clock_gettime system call (svc 0), CLOCK_MONOTONIC_RAW");
#else
	snprintf(chk->kernel, sizeof chk->kernel,
		 "clock_gettime system call (syscall(2): no inline call on this architecture), "
		 "CLOCK_MONOTONIC_RAW");
#endif
	struct tb_counter cnt;
	timebase_counter(&cnt);
	struct snap a, b;
	take_snap(&a, &cnt);
	double want = min_span_ns;
	b = a;
	while (a.ok) {
		sleep_until_kernel(a.k_raw + want);
		take_snap(&b, &cnt);
		if (!b.ok)
			break;
		chk->span_ns = b.k_raw - a.k_raw;
		chk->slack = (a.gap + b.gap) / 2.0 / chk->span_ns;
		if (chk->slack <= TB_CHECK_TOLERANCE / 20.0 || want * 2.0 > max_span_ns)
			break;
		want *= 2.0;
	}
	if (a.ok && b.ok && chk->span_ns > 0)
		fill_rows(tb, &cnt, &a, &b);
	else
		chk->span_ns = 0;
	timebase_check_judge(chk);
}

bool timebase_recheck(char *err, size_t len)
{
	const struct timebase *cur = timebase_get();
	if (!cur) {
		snprintf(err, len, "timebase check: no timebase was adopted: nothing can be "
			 "checked against the kernel, so nothing is measured");
		return false;
	}
	/* A copy: the supervisor's check stays what the reports show. */
	static struct timebase tb;
	tb = *cur;
	timebase_check_window(&tb, TB_RECHECK_SPAN_NS, TB_RECHECK_SPAN_MAX_NS);
	if (!tb.check.failed)
		return true;
	/* Its rows are this process's, in no report: point at none. */
	static const char rows[] = ": timebase.check.*";
	char *keys = strstr(tb.check.error, ": timebase.check.*)");
	if (keys)
		memmove(keys, keys + sizeof rows - 1, strlen(keys + sizeof rows - 1) + 1);
	snprintf(err, len, "%s", tb.check.error);
	return false;
}

/* "2445.402 MHz", or "1.000 s per s" for a clock. */
static void fmt_rate(const struct tb_check_row *r, double v, char *buf, size_t len)
{
	if (r->is_rate)
		snprintf(buf, len, "%.3f MHz", v / 1e6);
	else
		snprintf(buf, len, "%.6f s per s", v);
}

static void disagreement(const struct tb_check *chk, const struct tb_check_row *r, char *buf,
			 size_t len)
{
	char m[48], e[48];
	fmt_rate(r, r->measured, m, sizeof m);
	fmt_rate(r, r->expected, e, sizeof e);
	if (r->is_rate)
		snprintf(buf, len,
			 "timebase check: %s runs at %s by the kernel's clock (clock_gettime system "
			 "call), %.3f of %s, %s (tolerance %g%%); every figure would be off by that "
			 "factor", r->subject, m, r->ratio, r->source, e, r->tolerance * 100);
	else
		snprintf(buf, len,
			 "timebase check: %s runs at %.3f of %s: %s against %s over %.1f ms "
			 "(tolerance %g%%); every figure would be off by that factor", r->subject,
			 r->ratio, r->source, m, e, chk->span_ns / 1e6, r->tolerance * 100);
}

void timebase_check_judge(struct tb_check *chk)
{
	chk->failed = false;
	chk->error[0] = 0;
	if (chk->span_ns <= 0) {
		chk->failed = true;
		snprintf(chk->error, sizeof chk->error,
			 "timebase check: the kernel's clock cannot be read with the clock_gettime "
			 "system call (a sandbox refuses it?): the timebase cannot be checked "
			 "against the kernel, so nothing is measured");
		return;
	}
	unsigned bad = 0;
	const struct tb_check_row *first = NULL;
	for (unsigned i = 0; i < chk->nrows; i++) {
		struct tb_check_row *r = &chk->row[i];
		if (r->state == TB_ROW_UNAVAILABLE)
			continue;
		r->ratio = r->expected > 0 ? r->measured / r->expected : NAN;
		bool agrees = isfinite(r->ratio) && fabs(r->ratio - 1.0) <= r->tolerance + chk->slack;
		r->state = agrees ? TB_ROW_AGREES : TB_ROW_DISAGREES;
		if (!agrees && !bad++)
			first = r;
	}
	if (!first)
		return;
	chk->failed = true;
	disagreement(chk, first, chk->error, sizeof chk->error);
	size_t used = strlen(chk->error);
	if (bad > 1 && used < sizeof chk->error)
		snprintf(chk->error + used, sizeof chk->error - used,
			 " (and %u more comparison%s: timebase.check.*)", bad - 1,
			 bad > 2 ? "s disagree" : " disagrees");
}

void timebase_check_summary(const struct tb_check *chk, char *buf, size_t len)
{
	if (!chk->done) {
		snprintf(buf, len, "not checked");
		return;
	}
	if (chk->failed) {
		snprintf(buf, len, "FAILED: %s", chk->error);
		return;
	}
	unsigned agree = 0, absent = 0;
	for (unsigned i = 0; i < chk->nrows; i++) {
		agree += chk->row[i].state == TB_ROW_AGREES;
		absent += chk->row[i].state == TB_ROW_UNAVAILABLE;
	}
	snprintf(buf, len,
		 "agrees with the kernel's clock: %u comparisons within tolerance over %.1f ms; "
		 "%u sources not available", agree, chk->span_ns / 1e6, absent);
}
