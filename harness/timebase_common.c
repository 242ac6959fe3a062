/* timebase_common.c - what both backends share: read-overhead measurement. */
#include "timebase.h"
#include "timebase_impl.h"

#include <stdlib.h>

static const struct timebase *current;

const struct timebase *timebase_get(void)
{
	return current;
}

void timebase_set_current(const struct timebase *tb)
{
	current = tb;
}

double tb_ticks_to_ns(double ticks)
{
	return current ? ticks * current->ns_per_tick : ticks;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void timebase_measure_reads(struct timebase *tb)
{
	enum { N = 2001 };
	static uint64_t d[N];
	uint64_t res = UINT64_MAX;
	for (int i = 0; i < N; i++) {
		uint64_t a = tb_now();
		uint64_t b = tb_now();
		d[i] = b - a;
		if (b > a && b - a < res)
			res = b - a;
	}
	qsort(d, N, sizeof d[0], cmp_u64);
	tb->read_min_ns = (double)d[0] * tb->ns_per_tick;
	tb->read_median_ns = (double)d[N / 2] * tb->ns_per_tick;
	tb->resolution_ns = res == UINT64_MAX ? tb->ns_per_tick
					      : (double)res * tb->ns_per_tick;
	if (tb->is_tsc)
		tb->resolution_ns = tb->ns_per_tick; /* one cycle */
}
