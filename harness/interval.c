/* SPDX-License-Identifier: Apache-2.0 */
/* interval.c - see interval.h. */
#include "harness/interval.h"
#include "harness/runner_stages.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *block_of(const struct result_shm *res, unsigned i)
{
	return (const char *)result_metric_c(res, i);
}

int interval_cap_init(struct interval_cap *c, const struct result_shm *res, uint64_t every_ns)
{
	memset(c, 0, sizeof *c);
	c->start_mono = -1;
	if (!every_ns)
		return 0;
	c->nblocks = res->nmetrics + res->nseries_alloc;
	c->stride = res->metric_stride;
	size_t bytes = (size_t)c->nblocks * c->stride;
	c->snap = malloc(bytes);
	c->diff = malloc(bytes);
	if (!c->snap || !c->diff) {
		interval_cap_free(c);
		return -ENOMEM;
	}
	memcpy(c->snap, block_of(res, 0), bytes); /* empty: nothing measured yet */
	c->every_ns = every_ns;
	return 0;
}

/* The first interval begins where the first run did: res->runs[0].t_begin
 * on the worker's timebase, so many ticks before now. */
static void first_start(struct interval_cap *c, const struct result_shm *res)
{
	const struct timebase *tb = &res->spec.tb;
	uint64_t now = tb_now(), t0 = res->runs[0].t_begin;
	double ago = now > t0 && t0 ? (double)(now - t0) * tb->ns_per_tick / 1e9 : 0;
	c->start_mono = c->first_mono = runner_now_s() - ago;
	c->start_ms = c->first_ms = wall_ms() - llround(ago * 1000.0);
}

/* Every block of the interval: the result memory now minus the copy. */
static void cut(struct interval_cap *c, const struct result_shm *res)
{
	memcpy(c->diff, block_of(res, 0), (size_t)c->nblocks * c->stride);
	for (unsigned i = 0; i < c->nblocks; i++) {
		struct metric_data *d = (struct metric_data *)(c->diff + (size_t)i * c->stride);
		const struct metric_data *s = (const void *)(c->snap + (size_t)i * c->stride);
		hist_subtract(&d->hist, &s->hist);
		if (metric_neg(d))
			hist_subtract(metric_neg(d), metric_neg_c(s));
	}
	memcpy(c->snap, block_of(res, 0), (size_t)c->nblocks * c->stride);
}

/* Whether any block gained a sample since the copy. */
static bool grew(const struct interval_cap *c, const struct result_shm *res)
{
	for (unsigned i = 0; i < c->nblocks; i++) {
		const struct metric_data *m = result_metric_c(res, i);
		const struct metric_data *s = (const void *)(c->snap + (size_t)i * c->stride);
		if (m->hist.count != s->hist.count ||
		    (metric_neg_c(m) && metric_neg_c(m)->count != metric_neg_c(s)->count))
			return true;
	}
	return false;
}

bool interval_cap_tick(struct interval_cap *c, const struct result_shm *res, bool last,
		       struct interval_out *out)
{
	if (!c->every_ns)
		return false;
	if (c->start_mono < 0) {
		if (!grew(c, res))
			return false;
		first_start(c, res);
	}
	double now = runner_now_s(), took = now - c->start_mono;
	if (last ? !grew(c, res) : took * 1e9 < (double)c->every_ns)
		return false;
	cut(c, res);
	*out = (struct interval_out){ .index = c->closed++, .start_ms = c->start_ms,
				      .seconds = took, .nmetrics = res->nmetrics,
				      .nseries = res->nseries < res->nseries_alloc ? res->nseries
										 : res->nseries_alloc,
				      .stride = c->stride, .blocks = c->diff };
	/* From the first start, not step by step: rounding each step would
	 * drift by up to a millisecond an interval. */
	c->start_mono = now;
	c->start_ms = c->first_ms + llround((now - c->first_mono) * 1000.0);
	return true;
}

void interval_cap_free(struct interval_cap *c)
{
	free(c->snap);
	free(c->diff);
	c->snap = c->diff = NULL;
	c->every_ns = 0;
}
