/* SPDX-License-Identifier: Apache-2.0 */
/* policy.c - see policy.h. */
#include "base/policy.h"

#include <sched.h>
#include <stddef.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

static const struct {
	int policy;
	const char *name, *kernel;
} policies[] = {
	{ SCHED_OTHER, "other", "SCHED_OTHER" },  { SCHED_FIFO, "fifo", "SCHED_FIFO" },
	{ SCHED_RR, "rr", "SCHED_RR" },           { SCHED_BATCH, "batch", "SCHED_BATCH" },
	{ SCHED_IDLE, "idle", "SCHED_IDLE" },     { SCHED_DEADLINE, "deadline", "SCHED_DEADLINE" },
};

static size_t find(int policy)
{
	size_t i = 0;
	while (i < sizeof policies / sizeof policies[0] && policies[i].policy != policy)
		i++;
	return i;
}

const char *policy_name(int policy)
{
	size_t i = find(policy);
	return i < sizeof policies / sizeof policies[0] ? policies[i].name : "?";
}

const char *policy_kernel_name(int policy)
{
	size_t i = find(policy);
	return i < sizeof policies / sizeof policies[0] ? policies[i].kernel : "an unknown policy";
}
