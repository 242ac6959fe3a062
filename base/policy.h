/* SPDX-License-Identifier: Apache-2.0 */
/* policy.h - the names of the kernel's scheduling policies, by the numbers
 * sched_setscheduler takes (SCHED_OTHER, SCHED_FIFO, ...): the word the
 * requirements file, the command line and every report write ("fifo"),
 * and the kernel's own name the worker's messages give ("SCHED_FIFO").
 * One table, in base/ because the worker may not link requirements/.
 */
#ifndef RTC_POLICY_H
#define RTC_POLICY_H

/* "other", "fifo", "rr", "batch", "idle" or "deadline"; "?" for another
 * number. */
const char *policy_name(int policy);

/* "SCHED_OTHER", "SCHED_FIFO", ... "SCHED_DEADLINE"; "an unknown policy"
 * for another number. */
const char *policy_kernel_name(int policy);

#endif
