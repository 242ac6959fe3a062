/* SPDX-License-Identifier: Apache-2.0 */
/* probe_fixture.h - a probe context over a result the test allocated, as
 * the worker sets one up, for the tests that record into it (test_probe.c,
 * test_live.c). */
#ifndef RTC_TEST_PROBE_FIXTURE_H
#define RTC_TEST_PROBE_FIXTURE_H

#include <string.h>
#include <unistd.h>

#include "harness/measure/probe.h"

static inline void ctx_for(struct probe_ctx *c, const struct probe *p, struct result_shm *r)
{
	memset(c, 0, sizeof *c);
	c->probe = p;
	c->res = r;
	c->worker = getpid();
	for (unsigned i = 0; i < p->decl.nmetrics; i++)
		c->m[i] = result_metric(r, i);
}

#endif
