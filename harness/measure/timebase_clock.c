/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_clock.c - the clock_gettime(CLOCK_MONOTONIC_RAW) backend, built
 * where there is no TSC backend (CMake picks this file or timebase_tsc.c).
 * Ticks are nanoseconds. The clock is checked against the kernel's own
 * (timebase_check.c) and, on aarch64, the generic timer's counter
 * (CNTVCT_EL0, read with mrs) against the frequency firmware set in
 * CNTFRQ_EL0 and the rate the kernel publishes for it (perf_event). */
#include "harness/measure/timebase.h"
#include "harness/measure/timebase_impl.h"

#include <stdio.h>
#include <string.h>

#if defined(__aarch64__)
static uint64_t read_cntvct(void)
{
	uint64_t v;
	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

static uint64_t read_cntfrq(void)
{
	uint64_t v;
	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

void timebase_counter(struct tb_counter *c)
{
	memset(c, 0, sizeof *c);
	c->name = "the generic timer (CNTVCT_EL0)";
	c->read = read_cntvct;
	c->steady = true; /* the architecture fixes its rate */
}

unsigned timebase_published_rates(struct tb_check_row *rows, unsigned max)
{
	if (max < 2)
		return 0;
	struct tb_check_row *r = &rows[0];
	memset(r, 0, sizeof *r);
	snprintf(r->key, sizeof r->key, "cntfrq");
	snprintf(r->subject, sizeof r->subject, "the generic timer (CNTVCT_EL0)");
	snprintf(r->source, sizeof r->source, "the frequency firmware set in CNTFRQ_EL0");
	r->tolerance = TB_CHECK_TOLERANCE;
	uint64_t f = read_cntfrq();
	r->expected = (double)f;
	r->state = f ? TB_ROW_AGREES : TB_ROW_UNAVAILABLE;
	snprintf(r->note, sizeof r->note, f ? "CNTFRQ_EL0 %llu Hz" : "CNTFRQ_EL0 reads 0: "
		 "firmware did not set it", (unsigned long long)f);
	timebase_perf_rate(&rows[1], "the generic timer (CNTVCT_EL0)");
	return 2;
}
#else
void timebase_counter(struct tb_counter *c)
{
	memset(c, 0, sizeof *c);
	snprintf(c->why, sizeof c->why, "no hardware counter is read on this architecture (the "
		 "check reads x86-64's TSC and aarch64's generic timer)");
}

unsigned timebase_published_rates(struct tb_check_row *rows, unsigned max)
{
	(void)rows;
	(void)max;
	return 0;
}
#endif

int timebase_init(struct timebase *tb, char *err, size_t errlen)
{
	memset(tb, 0, sizeof *tb);
	int force = timebase_forced(err, errlen);
	if (force < 0)
		return force;
	snprintf(tb->reason, sizeof tb->reason, "no TSC backend on this architecture");
	timebase_use_clock(tb);
	timebase_finish(tb);
	return 0;
}
