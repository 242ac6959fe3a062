/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_tsc.c - invariant-TSC backend for x86-64 (CMake picks this file
 * or timebase_clock.c).
 *
 * The TSC is used only when /proc/cpuinfo lists both constant_tsc (fixed
 * rate) and nonstop_tsc (keeps counting in deep C-states); RTC_TIMEBASE=clock
 * in the environment forces the clock. The frequency is estimated from TSC
 * and CLOCK_MONOTONIC_RAW deltas over growing intervals (10, 20, 40 ...
 * 1280 ms) until two successive estimates agree within 0.1 %; if they never
 * do, the clock is used and the reason says why. So it is when the CPUs'
 * TSCs disagree by more than TB_TSC_MAX_SKEW_NS (each CPU's TSC offset
 * from the one clock, compared before anything is measured). The clock is
 * the kernel's, read with the system call itself (tb_kernel_ns), never the
 * C library's, which a preload or a sandbox can replace; the C library's
 * clocks are then checked against it (timebase_check.c), with the TSC's
 * rates published by the kernel and the CPU (timebase_tsc_rates.c).
 */
#include "harness/measure/timebase.h"
#include "harness/measure/timebase_impl.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool cpuinfo_has_invariant_tsc(char *why, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f) {
		snprintf(why, len, "cannot read /proc/cpuinfo: %s", strerror(errno));
		return false;
	}
	/* A flags line is a few thousand characters on current CPUs. */
	char line[8192];
	bool c = false, n = false, seen = false;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		seen = true;
		c = timebase_flag_listed(line, "constant_tsc");
		n = timebase_flag_listed(line, "nonstop_tsc");
		break;
	}
	fclose(f);
	if (!seen)
		snprintf(why, len, "no flags line in /proc/cpuinfo");
	else if (!c || !n)
		snprintf(why, len, "TSC is not invariant (constant_tsc %s, nonstop_tsc %s)",
			 c ? "yes" : "no", n ? "yes" : "no");
	return c && n;
}

/* A TSC value and a kernel clock value taken at (nearly) the same instant:
 * the clock read is bracketed by two TSC reads, and the tightest of a few
 * brackets wins, so a preemption or interrupt between the reads (which
 * would skew one estimate by microseconds) is thrown away. */
static void paired_read(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t a = tb_rdtsc();
		uint64_t c = tb_kernel_ns(CLOCK_MONOTONIC_RAW);
		uint64_t b = tb_rdtsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = c;
		}
	}
}

/* One estimate over roughly `ms` milliseconds. */
static double estimate_hz(unsigned ms)
{
	uint64_t t0 = 0, c0 = 0, t1 = 0, c1 = 0; /* paired_read always sets them; -O3 cannot see it */
	paired_read(&t0, &c0);
	struct timespec req = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&req, &req) != 0 && errno == EINTR)
		;
	paired_read(&t1, &c1);
	if (!c0 || c1 <= c0 || t1 <= t0) /* c0 0: the kernel refused the call */
		return 0.0;
	return (double)(t1 - t0) * 1e9 / (double)(c1 - c0);
}

/* Each CPU's TSC offset from the kernel's CLOCK_MONOTONIC_RAW (one clock for all CPUs)
 * at hz, in ns, on every CPU this process may use (at most max), taken
 * on each in turn; the caller's affinity is put back. A TSC that a
 * hypervisor or firmware set apart per CPU makes every figure taken across
 * two CPUs (a wake-up posted on one and seen on another, a thread that
 * migrated) wrong by the difference. Returns how many CPUs were read. */
static int tsc_cpu_offsets(double hz, double *off, int *cpus, int max)
{
	cpu_set_t mine, one;
	int n = 0;
	if (sched_getaffinity(0, sizeof mine, &mine) != 0)
		return 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++) {
		if (!CPU_ISSET(cpu, &mine))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one) != 0)
			continue;
		uint64_t tsc = 0, ns = 0;
		paired_read(&tsc, &ns);
		off[n] = (double)tsc * 1e9 / hz - (double)ns;
		cpus[n++] = cpu;
	}
	sched_setaffinity(0, sizeof mine, &mine);
	return n;
}

static uint64_t read_tsc(void)
{
	return tb_rdtsc();
}

void timebase_counter(struct tb_counter *c)
{
	memset(c, 0, sizeof *c);
	c->name = "the TSC";
	c->read = read_tsc;
	c->steady = cpuinfo_has_invariant_tsc(c->why, sizeof c->why);
}

/* The TSC's frequency, or 0 with why in tb->reason. */
static double calibrate(struct timebase *tb)
{
	double prev = 0.0, hz = estimate_hz(10);
	int rounds = 1;
	for (unsigned ms = 20; ms <= 1280; ms *= 2) {
		prev = hz;
		hz = estimate_hz(ms);
		rounds++;
		if (hz > 0 && prev > 0 && fabs(hz - prev) / hz < 0.001) {
			tb->calib_rounds = rounds;
			return hz; /* the later spans the longer interval: the more exact */
		}
	}
	snprintf(tb->reason, sizeof tb->reason,
		 "TSC calibration did not settle within 0.1%% in %d rounds "
		 "(last two: %.0f and %.0f Hz)", rounds, prev, hz);
	return 0.0;
}

int timebase_init(struct timebase *tb, char *err, size_t errlen)
{
	memset(tb, 0, sizeof *tb);
	int force = timebase_forced(err, errlen);
	if (force < 0)
		return force;
	if (force) {
		snprintf(tb->reason, sizeof tb->reason, "RTC_TIMEBASE=clock in the environment");
		goto clock;
	}
	if (!cpuinfo_has_invariant_tsc(tb->reason, sizeof tb->reason))
		goto clock;
	double hz = calibrate(tb);
	if (hz <= 0)
		goto clock;
	static double off[1024];
	static int cpus[1024];
	int cpu, n = tsc_cpu_offsets(hz, off, cpus, 1024);
	double skew;
	if (timebase_tsc_disagree(off, cpus, n, &skew, &cpu)) {
		snprintf(tb->reason, sizeof tb->reason,
			 "the TSCs of this process's CPUs disagree by %.0f ns (CPU %d the furthest "
			 "off): figures taken across CPUs would be off by that much", skew, cpu);
		goto clock;
	}
	tb_use_tsc = true;
	tb->name = "tsc";
	tb->is_tsc = true;
	tb->freq_hz = hz;
	tb->ns_per_tick = 1e9 / hz;
	timebase_measure_reads(tb);
	timebase_finish(tb);
	return 0;
clock:
	timebase_use_clock(tb);
	timebase_finish(tb);
	return 0;
}
