/* SPDX-License-Identifier: Apache-2.0 */
/* explain_event.h - one line of a tracefs text trace, read
 * (explain_parse.c), for the decomposition of explain.c; internal to
 * those two files. */
#ifndef RTC_EXPLAIN_EVENT_H
#define RTC_EXPLAIN_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/explain.h"

/* The highest CPU number a trace may name. */
#define EXPLAIN_CPU_MAX 16383

enum xev_type {
	XE_SKIP,       /* a comment, a blank line, an event not used */
	XE_LOST,       /* CPU:N [LOST n EVENTS] */
	XE_SWITCH,
	XE_WAKING,     /* sched_waking */
	XE_WAKEUP,     /* sched_wakeup, sched_wakeup_new */
	XE_MIGRATE,
	XE_IRQ_IN, XE_IRQ_OUT,
	XE_SOFT_IN, XE_SOFT_OUT,
	XE_TIMER_IN, XE_TIMER_OUT,
	XE_IDLE,       /* power:cpu_idle: id the state entered, -1 its exit */
	XE_OTHER,      /* an event line of another event (its header is used) */
	XE_MARKER,     /* rtconform's breach marker */
};

struct xev {
	enum xev_type type;
	uint64_t ns;  /* trace time */
	int cpu;
	long pid;     /* the header's task: the one current on cpu */
	char comm[EXPLAIN_COMM_MAX];
	/* sched_switch: prev_* (prev's comm is the header's), next_* in
	 * pid2/name/prio2; waking, wakeup, migrate: the task in pid2, name,
	 * prio2, its target or destination CPU in cpu2 (orig_cpu in cpu3) */
	long prev_pid, pid2;
	int prev_prio, prio2, cpu2, cpu3;
	bool prev_runnable;
	char name[EXPLAIN_COMM_MAX]; /* also an IRQ's or vector's name */
	long id;                     /* irq number, softirq vector */
	uint64_t lost;               /* XE_LOST: how many (0: not said) */
	bool lost_counted;
	/* XE_MARKER */
	char id_text[EXPLAIN_ID_MAX], metric[EXPLAIN_ID_MAX];
	uint64_t value_ns, trip_ns;
	unsigned long run;
};

/* Read one line (without its newline) into ev. 0 when read (ev->type says
 * what it is, XE_SKIP for nothing to use), -1 with why in err (the value
 * at fault quoted, escaped for a terminal). */
int explain_parse_line(const char *line, struct xev *ev, char *err, size_t errlen);

#endif
