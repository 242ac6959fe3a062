/* SPDX-License-Identifier: Apache-2.0 */
/* policy.c - see policy.h. */
#include "base/policy.h"

#include <sched.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* By the kernel's number: the word, the kernel's name. */
static const char *const names[][2] = {
	[SCHED_OTHER] = { "other", "SCHED_OTHER" }, [SCHED_FIFO] = { "fifo", "SCHED_FIFO" },
	[SCHED_RR] = { "rr", "SCHED_RR" },          [SCHED_BATCH] = { "batch", "SCHED_BATCH" },
	[SCHED_IDLE] = { "idle", "SCHED_IDLE" },    [SCHED_DEADLINE] = { "deadline", "SCHED_DEADLINE" },
};

static const char *name_of(int policy, int which, const char *none)
{
	const int n = (int)(sizeof names / sizeof names[0]);
	return policy >= 0 && policy < n && names[policy][which] ? names[policy][which] : none;
}

const char *policy_name(int policy)
{
	return name_of(policy, 0, "?");
}

const char *policy_kernel_name(int policy)
{
	return name_of(policy, 1, "an unknown policy");
}
