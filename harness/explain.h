/* SPDX-License-Identifier: Apache-2.0 */
/* explain.h - a saved trace on breach (trace-<ID>.txt, harness/trace.h)
 * read back and its breach explained: where the breaching sample's time
 * went on the probe's CPU (docs/explain.md).
 *
 * Pure: it reads the text tracefs printed (given as a FILE *), and knows
 * nothing of tracefs, of a run or of the requirements. The trace is
 * untrusted input: every line that is neither a comment, a lost-events
 * line nor an event line of tracefs's form is an error naming the line; an
 * event it does not know is skipped; a known event whose fields cannot be
 * read is an error naming the line and the value.
 *
 * The breach window is [marker time - value, marker time]: the marker is
 * written by the thread that recorded the sample just after it took it,
 * so its time stands for the sample's end (an approximation: the window is
 * late by the microseconds between the sample's end and the write).
 * Every nanosecond of the window goes to exactly one component, so the
 * components add up to the window (explain.sum_ns).
 */
#ifndef RTC_EXPLAIN_H
#define RTC_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A task name as the trace prints it, at most this many bytes (the kernel's
 * is 15; a longer one is refused as not tracefs's). */
#define EXPLAIN_COMM_MAX 64
/* An IRQ's or softirq vector's name, at most this many bytes. */
#define EXPLAIN_NAME_MAX 64
/* A requirement id or metric name in the marker. */
#define EXPLAIN_ID_MAX 256
/* The longest line read; a longer one is an error. */
#define EXPLAIN_LINE_MAX 4096
/* The components' sum may differ from the window by this much and still
 * be said to add up (they add up exactly by construction; the check
 * guards that). */
#define EXPLAIN_TOLERANCE_NS 1000
/* Kernel priority not known. */
#define EXPLAIN_PRIO_UNKNOWN (-1000)

enum explain_kind {
	EXPLAIN_IRQ,      /* a hardware IRQ handler (irq number, name) */
	EXPLAIN_SOFTIRQ,  /* a softirq (vector, name) */
	EXPLAIN_TIMER,    /* the local timer interrupt */
	EXPLAIN_TASK,     /* another task on the probe's CPU */
	EXPLAIN_IDLE,     /* the CPU idle, the probe not runnable */
	EXPLAIN_WAKEUP,   /* the probe runnable, the CPU idle or switching */
	EXPLAIN_PROBE,    /* the probe on its CPU, no other event */
	EXPLAIN_UNKNOWN,  /* nothing known: no event of the CPU yet */
	EXPLAIN_IDLE_EXIT, /* the CPU in an idle state (power:cpu_idle), the idle
			      task current: exit from idle (id: the state) */
	EXPLAIN_NKINDS
};

/* A task's priority against the probe's (EXPLAIN_TASK only). Kernel
 * priorities: a lower number is a higher priority. */
enum explain_class {
	EXPLAIN_CLASS_NONE,
	EXPLAIN_HIGHER,    /* above the probe: a legitimate preemption */
	EXPLAIN_VIOLATION, /* same or lower, while the probe was runnable */
	EXPLAIN_WAITING,   /* same or lower, while the probe was not runnable */
	EXPLAIN_UNCLASSED, /* the task's or the probe's priority is not known */
};

struct explain_component {
	enum explain_kind kind;
	enum explain_class cls;
	char name[EXPLAIN_COMM_MAX]; /* IRQ or vector name, task comm */
	long id;                     /* irq number, softirq vector, pid */
	int prio;                    /* a task's kernel priority */
	uint64_t ns;                 /* its time in the window */
	unsigned count;              /* how many times it began, or was on when
					the window began: a task's runs on the
					CPU (an interrupt inside one does not
					split it), an interrupt's entries */
	uint64_t serial_;            /* internal: the stretch counted last */
};

struct explain_migration {
	uint64_t ns; /* trace time */
	int from, to;
};

struct explain {
	/* the marker */
	char id[EXPLAIN_ID_MAX], metric[EXPLAIN_ID_MAX];
	uint64_t value_ns, trip_ns;
	unsigned long run;
	size_t marker_line;
	/* the probe: the marker's task and CPU */
	long probe_pid;
	char probe_comm[EXPLAIN_COMM_MAX];
	int probe_cpu, probe_prio;
	/* the window, trace time in ns */
	uint64_t start_ns, end_ns;
	/* what the window is made of, largest first */
	struct explain_component *comp;
	size_t ncomp;
	uint64_t sum_ns;
	bool adds_up; /* |sum - window| <= EXPLAIN_TOLERANCE_NS */
	/* the probe's last wake-up before the marker (woken: one was seen) */
	bool woken, ran;
	uint64_t waking_ns, run_ns;
	struct explain_migration *mig; /* the probe's, inside the window */
	size_t nmig;
	/* lost events: in all, and on a CPU of the probe's at or after the
	 * window's start (then the window cannot be fully explained); a LOST
	 * line without a count counts one, and lost_unknown says "at least" */
	uint64_t lost, lost_window;
	bool lost_unknown;
	/* switches out of idle on the probe's CPU in the window that the trace
	 * does not have, inferred from a task's event where the idle task was
	 * thought current (docs/explain.md, "Switches the trace leaves out") */
	unsigned long switches_inferred;
	/* The steal time of the probe's CPU (/proc/stat) over the run's traced
	 * span, from arming the trace to saving it (steal_span_ns): set by a
	 * run, never by the trace alone (steal_known false) */
	bool steal_known;
	uint64_t steal_ns, steal_span_ns;
	size_t lines, events;
};

/* Read the trace in f (its name for messages) and explain its first
 * breach marker into e. 0, or -1 with err holding "NAME:LINE: why" (or
 * "NAME: why" when no line is to blame). Free e with explain_free either
 * way. */
int explain_read(FILE *f, const char *name, struct explain *e, char *err, size_t errlen);
void explain_free(struct explain *e);
/* A deep copy of src into dst (names made valid UTF-8, cut at a character
 * boundary to fit): what a report keeps. 0 or -ENOMEM (dst then empty). */
int explain_copy(struct explain *dst, const struct explain *src);

/* Whether components summing to sum_ns add up to a window of window_ns:
 * within EXPLAIN_TOLERANCE_NS. */
bool explain_adds_up(uint64_t sum_ns, uint64_t window_ns);

/* Text for people and machines (explain_out.c). */
const char *explain_kind_name(enum explain_kind k);   /* "irq", "softirq", ... */
const char *explain_class_name(enum explain_class c); /* "higher", "violation", ... */
/* "RT 1", "DL", "nice 0", "prio N" or "prio ?" for a kernel priority. */
void explain_prio_text(int prio, char *buf, size_t len);
/* A component in words: "irq 11 virtio0", "ksoftirqd/1 (RT 1, lower than
 * the probe, which was runnable)", "unexplained", ... */
/* The name to show of task pid whose comm the trace has. The kernel cuts a
 * comm at EXPLAIN_COMM_CUT bytes, so one of exactly that length is made
 * whole where it can be: rtconform's own worker by its name, another task
 * from /proc/PID/cmdline while it lives (argv[0]'s base name, when that
 * begins with the comm); else it is said to be cut. */
#define EXPLAIN_COMM_CUT 15
void explain_task_name(const char *comm, long pid, char *buf, size_t len);
void explain_label(const struct explain *e, const struct explain_component *c, char *buf,
		   size_t len);
/* The three largest parts: "68% ksoftirqd/1 (...), 20% irq 11 virtio0,
 * 12% unexplained (no event tells)", then " (incomplete: N events lost)"
 * when events were lost in the window. */
void explain_parts(const struct explain *e, char *buf, size_t len);
/* "SEM-RT wakeup 2.1 ms: 68% ksoftirqd/1 (RT 1, lower than the probe, ...),
 * 20% irq 11 virtio0, 12% unexplained" (the three largest parts). */
void explain_headline(const struct explain *e, char *buf, size_t len);
/* "steal: 12 ms over the run's traced span of 2.5 s (CPU 1, /proc/stat)",
 * or "" when the steal time is not known. */
void explain_steal_text(const struct explain *e, char *buf, size_t len);
/* The whole explanation as text: headline, table, sum check, wake-up,
 * migrations, lost events. Escaped for a terminal. */
void explain_print(FILE *out, const struct explain *e);
/* The explanation as JSON text (malloc'd, NULL when out of memory). */
char *explain_json(const struct explain *e);
/* The same object as a jansson tree (a json_t *, NULL when out of memory;
 * void * so this header needs no jansson): results.json's `explain` of a
 * requirement (reports/json.c), read back by reports/read/explain_read.c. */
void *explain_json_tree(const struct explain *e);
/* A component's share of e's window: ns / window (0 for an empty one). */
double explain_share(const struct explain *e, uint64_t ns);

#endif
