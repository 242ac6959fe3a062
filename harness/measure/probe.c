/* SPDX-License-Identifier: Apache-2.0 */
/* probe.c - the probe context every probe uses: parameter values, scales,
 * failure reasons; see probe.h. The other helpers are split by job:
 * probe_counters.c (the harness metrics), probe_bytime.c (runs by time),
 * probe_cpu.c (choosing CPUs), probe_guard.c (the RT throttling guard),
 * probe_trace.c (trace on breach), probe_task.c (tasks and peers). */
#include "harness/measure/probe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *probe_value(const struct probe_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->probe->decl.nparams && i < PROBE_MAX_PARAMS; i++)
		if (strcmp(c->probe->decl.params[i].name, name) == 0)
			return c->values[i];
	return NULL;
}

void probe_set_scale(struct probe_ctx *c, unsigned metric, double factor)
{
	struct metric_data *m = c->m[metric];
	m->ns_per_unit = c->tb->ns_per_tick * factor;
	m->cycles_per_unit = c->tb->is_tsc ? factor : 0.0;
}

int probe_fail(const struct probe_ctx *c, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* First failure wins: later ones are usually consequences. */
	if (!c->res->reason[0])
		vsnprintf(c->res->reason, sizeof c->res->reason, fmt, ap);
	va_end(ap);
	if (err < 0)
		err = -err;
	if (!c->res->err)
		c->res->err = err ? err : EIO;
	c->res->state = WS_FAILED;
	return -(err ? err : EIO);
}

const char *probe_errname(int err)
{
	const char *n = strerrorname_np(err < 0 ? -err : err);
	return n ? n : "unknown errno";
}

