/* SPDX-License-Identifier: Apache-2.0 */
/* explain.c - a breach's window decomposed (see explain.h and
 * docs/explain.md). Two passes over the trace: the first reads every line
 * (so a bad one is refused before anything is said) and finds the first
 * breach marker; the second replays the events up to the marker, keeping
 * for each CPU the task on it and the interrupts it is in, and for the
 * probe its CPU and whether it is runnable. Each stretch of time between
 * two events is given, within the window, to what the probe's CPU was
 * doing: the innermost interrupt if in one, else the task on it. */
#include "harness/explain.h"
#include "harness/explain_event.h"

#include "base/strhash.h"
#include "base/utf8.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES_MAX 16

struct frame {
	enum explain_kind kind;
	long id;
	char name[EXPLAIN_NAME_MAX];
	uint64_t serial;
};

struct cpu_state {
	bool known;  /* the task on it is known */
	long pid;
	int prio;
	char comm[EXPLAIN_COMM_MAX];
	uint64_t serial; /* of the task's stretch on the CPU */
	int depth;
	struct frame stack[FRAMES_MAX];
	bool in_idle;    /* in an idle state (power:cpu_idle), idle_state */
	long idle_state;
	uint64_t lost_pending;
	/* the last task a sched_wakeup put on this CPU's run queue, when */
	long woken_pid;
	int woken_prio;
	uint64_t woken_ns;
};

/* A stretch of the probe's CPU while its task was the idle task, kept
 * until the CPU's next event says whether the idle task really was on it
 * (a switch out of idle the trace does not have: docs/explain.md). */
struct idle_seg {
	uint64_t from, to, serial;
	bool runnable, waking;
};

#define IDLE_SEGS_MAX 64

/* A task's time on the probe's CPU in the window, [0] while the probe was
 * not runnable, [1] while it was; made into components once the probe's
 * priority is known (finish). */
struct task_acc {
	long pid;
	char comm[EXPLAIN_COMM_MAX];
	int prio;
	uint64_t ns[2], serial[3];
	unsigned count[3]; /* [2]: its stretches, whatever the probe was */
};

struct replay {
	struct explain *e;
	struct task_acc *task;
	size_t ntask, task_cap;
	/* where each task and component is in task[] and e->comp, by key
	 * (task_key, comp_key): a window of 100k tasks was a scan of every
	 * one for each stretch, quadratic (issue 38) */
	struct strhash task_at, comp_at;
	size_t mig_cap; /* of e->mig */
	struct cpu_state *cpu;
	size_t ncpu;
	size_t cap;
	uint64_t serial, last_ns;
	int probe_cpu;
	bool runnable; /* enqueued (sched_wakeup) or preempted, not yet on a CPU */
	bool waking;   /* sched_waking seen, sched_wakeup not yet: being woken */
	struct idle_seg seg[IDLE_SEGS_MAX]; /* of CPU seg_cpu, in time order */
	size_t nseg;
	int seg_cpu;
};

/* a + b, at most INT64_MAX (a count JSON can hold). */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	const uint64_t max = INT64_MAX;
	return a >= max || b >= max - a ? max : a + b;
}

static struct cpu_state *cpu_of(struct replay *r, int cpu)
{
	if (cpu < 0 || (size_t)cpu >= r->ncpu)
		return NULL;
	return &r->cpu[cpu];
}

/* The keys of the maps: the numbers first, each ended by a blank (none
 * holds one), then the name cut as the component or task keeps it, so
 * two keys are one only when every field is. */
#define KEY_MAX (EXPLAIN_COMM_MAX + 64)
static void comp_key(char *key, enum explain_kind kind, long id, const char *name,
		     enum explain_class cls)
{
	snprintf(key, KEY_MAX, "%d %d %ld %.*s", (int)kind, (int)cls, id, EXPLAIN_COMM_MAX - 1,
		 name);
}

static void task_key(char *key, long pid, const char *comm)
{
	snprintf(key, KEY_MAX, "%ld %.*s", pid, EXPLAIN_COMM_MAX - 1, comm);
}

/* The component of key (kind, id, name, class), added when new; NULL when
 * out of memory. */
static struct explain_component *component(struct replay *r, enum explain_kind kind, long id,
					   const char *name, enum explain_class cls)
{
	struct explain *e = r->e;
	char key[KEY_MAX];
	comp_key(key, kind, id, name, cls);
	const size_t *at = strhash_get(&r->comp_at, key);
	if (at)
		return &e->comp[*at];
	if (strhash_put(&r->comp_at, key, e->ncomp))
		return NULL;
	if (e->ncomp == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct explain_component *n = realloc(e->comp, cap * sizeof *n);
		if (!n)
			return NULL;
		e->comp = n;
		r->cap = cap;
	}
	struct explain_component *c = &e->comp[e->ncomp++];
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->id = id;
	c->cls = cls;
	c->prio = EXPLAIN_PRIO_UNKNOWN;
	snprintf(c->name, sizeof c->name, "%s", name);
	return c;
}

/* Count a stretch (serial) once in count. */
static void count_stretch(unsigned *count, uint64_t *last, uint64_t serial)
{
	if (*count == 0 || *last != serial + 1) {
		(*count)++;
		*last = serial + 1;
	}
}

/* Give ns of the task on cs (in stretch serial) to its accumulator. */
static int attribute_task(struct replay *r, const struct cpu_state *cs, uint64_t ns,
			  uint64_t serial)
{
	struct task_acc *t = NULL;
	char key[KEY_MAX];
	task_key(key, cs->pid, cs->comm);
	const size_t *at = strhash_get(&r->task_at, key);
	if (at)
		t = &r->task[*at];
	if (!t) {
		if (strhash_put(&r->task_at, key, r->ntask))
			return -1;
		if (r->ntask == r->task_cap) {
			size_t cap = r->task_cap ? r->task_cap * 2 : 16;
			struct task_acc *n = realloc(r->task, cap * sizeof *n);
			if (!n)
				return -1;
			r->task = n;
			r->task_cap = cap;
		}
		t = &r->task[r->ntask++];
		memset(t, 0, sizeof *t);
		t->pid = cs->pid;
		t->prio = EXPLAIN_PRIO_UNKNOWN;
		snprintf(t->comm, sizeof t->comm, "%s", cs->comm);
	}
	if (cs->prio != EXPLAIN_PRIO_UNKNOWN)
		t->prio = cs->prio;
	int k = r->runnable ? 1 : 0;
	t->ns[k] += ns;
	count_stretch(&t->count[k], &t->serial[k], serial);
	count_stretch(&t->count[2], &t->serial[2], serial);
	return 0;
}

/* Give ns of the idle task on cs to its component: an idle state's exit,
 * wake-up to run (the probe being woken or runnable) or idle. */
static int attribute_idle(struct replay *r, const struct cpu_state *cs, const struct idle_seg *g)
{
	struct explain_component *c;
	if (cs->in_idle)
		c = component(r, EXPLAIN_IDLE_EXIT, cs->idle_state, "", EXPLAIN_CLASS_NONE);
	else
		c = component(r, g->runnable || g->waking ? EXPLAIN_WAKEUP : EXPLAIN_IDLE, 0, "",
			      EXPLAIN_CLASS_NONE);
	if (!c)
		return -1;
	c->ns += g->to - g->from;
	count_stretch(&c->count, &c->serial_, g->serial);
	return 0;
}

/* The idle stretches kept, given to the idle task after all. */
static int flush_idle(struct replay *r)
{
	struct cpu_state *cs = cpu_of(r, r->seg_cpu);
	for (size_t i = 0; i < r->nseg; i++)
		if (attribute_idle(r, cs, &r->seg[i]))
			return -1;
	r->nseg = 0;
	return 0;
}

/* An idle stretch of the probe's CPU, kept until that CPU's next event. */
static int defer_idle(struct replay *r, uint64_t from, uint64_t to, uint64_t serial)
{
	if (r->nseg && (r->seg_cpu != r->probe_cpu || r->nseg == IDLE_SEGS_MAX) && flush_idle(r))
		return -1;
	r->seg_cpu = r->probe_cpu;
	r->seg[r->nseg++] = (struct idle_seg){ from, to, serial, r->runnable, r->waking };
	return 0;
}

/* Give [from, to) of the trace to what the probe's CPU was doing. */
static int attribute(struct replay *r, uint64_t from, uint64_t to)
{
	struct explain *e = r->e;
	from = from > e->start_ns ? from : e->start_ns;
	to = to < e->end_ns ? to : e->end_ns;
	if (from >= to)
		return 0;
	struct cpu_state *cs = cpu_of(r, r->probe_cpu);
	struct explain_component *c;
	uint64_t serial = 0;
	if (cs && cs->depth > 0) {
		const struct frame *f = &cs->stack[cs->depth - 1];
		c = component(r, f->kind, f->id, f->name, EXPLAIN_CLASS_NONE);
		serial = f->serial;
	} else if (!cs || !cs->known) {
		c = component(r, EXPLAIN_UNKNOWN, 0, "", EXPLAIN_CLASS_NONE);
		serial = cs ? cs->serial : 0;
	} else {
		serial = cs->serial;
		if (cs->pid == e->probe_pid)
			c = component(r, EXPLAIN_PROBE, cs->pid, "", EXPLAIN_CLASS_NONE);
		else if (cs->pid == 0)
			return defer_idle(r, from, to, serial);
		else
			return attribute_task(r, cs, to - from, serial);
	}
	if (!c)
		return -1;
	c->ns += to - from;
	count_stretch(&c->count, &c->serial_, serial);
	return 0;
}

/* The kept idle stretches of the CPU of ev, an event of that CPU: when ev's
 * header names a task, not the idle task, the switch to it is not in the
 * trace (this kernel left it out); it ran from the later of the CPU's last
 * event and its wake-up onto the CPU, and that time is its, not idle's. */
static int resolve_idle(struct replay *r, const struct xev *ev)
{
	if (!r->nseg || ev->cpu != r->seg_cpu)
		return 0;
	struct cpu_state *cs = cpu_of(r, r->seg_cpu);
	if (ev->pid == 0 || !cs || cs->depth > 0 || cs->pid != 0)
		return flush_idle(r);
	struct cpu_state t = *cs;
	t.pid = ev->pid;
	snprintf(t.comm, sizeof t.comm, "%s", ev->comm);
	t.prio = ev->type == XE_SWITCH ? ev->prev_prio
		 : cs->woken_pid == ev->pid ? cs->woken_prio : EXPLAIN_PRIO_UNKNOWN;
	uint64_t since = cs->woken_pid == ev->pid ? cs->woken_ns : 0;
	t.serial = ++r->serial;
	bool runnable = r->runnable, waking = r->waking, any = false;
	for (size_t i = 0; i < r->nseg; i++) {
		struct idle_seg g = r->seg[i];
		if (g.from < since) { /* before its wake-up: the idle task's */
			struct idle_seg head = g;
			head.to = g.to < since ? g.to : since;
			g.from = head.to;
			if (attribute_idle(r, cs, &head))
				return -1;
		}
		if (g.from >= g.to)
			continue;
		any = true;
		r->runnable = g.runnable;
		r->waking = g.waking;
		int rc = 0;
		if (ev->pid == r->e->probe_pid) {
			struct explain_component *c =
				component(r, EXPLAIN_PROBE, ev->pid, "", EXPLAIN_CLASS_NONE);
			if (c) {
				c->ns += g.to - g.from;
				count_stretch(&c->count, &c->serial_, t.serial);
			}
			rc = c ? 0 : -1;
		} else {
			rc = attribute_task(r, &t, g.to - g.from, t.serial);
		}
		r->runnable = runnable;
		r->waking = waking;
		if (rc)
			return -1;
	}
	r->e->switches_inferred += any;
	r->nseg = 0;
	t.in_idle = false;
	*cs = t; /* the task is current: its stretch goes on */
	return 0;
}

/* The task on the CPU is the event's (its header names the current task,
 * also in an interrupt). */
static void learn_current(struct replay *r, struct cpu_state *cs, const struct xev *ev)
{
	if (cs->known && cs->pid == ev->pid)
		return;
	cs->known = true;
	cs->pid = ev->pid;
	cs->in_idle = cs->in_idle && ev->pid == 0;
	cs->prio = ev->pid == r->e->probe_pid ? r->e->probe_prio : EXPLAIN_PRIO_UNKNOWN;
	snprintf(cs->comm, sizeof cs->comm, "%s", ev->comm);
	cs->serial = ++r->serial;
}

static void push(struct replay *r, struct cpu_state *cs, enum explain_kind k, const struct xev *ev)
{
	if (cs->depth == FRAMES_MAX)
		return; /* deeper than any kernel nests: entries without exits */
	struct frame *f = &cs->stack[cs->depth++];
	f->kind = k;
	f->id = k == EXPLAIN_TIMER ? 0 : ev->id;
	snprintf(f->name, sizeof f->name, "%s", k == EXPLAIN_TIMER ? "" : ev->name);
	f->serial = ++r->serial;
}

/* The exit of the innermost frame of kind k (and id): popped with what is
 * inside it; none (its entry was before the trace): nothing. */
static void pop(struct cpu_state *cs, enum explain_kind k, const struct xev *ev)
{
	for (int i = cs->depth - 1; i >= 0; i--)
		if (cs->stack[i].kind == k && (k == EXPLAIN_TIMER || cs->stack[i].id == ev->id)) {
			cs->depth = i;
			return;
		}
}

static void on_switch(struct replay *r, struct cpu_state *cs, const struct xev *ev)
{
	struct explain *e = r->e;
	if (ev->prev_pid == e->probe_pid) {
		e->probe_prio = ev->prev_prio;
		r->probe_cpu = ev->cpu;
		r->runnable = ev->prev_runnable;
		r->waking = false;
	}
	if (ev->pid2 == e->probe_pid) {
		e->probe_prio = ev->prio2;
		r->probe_cpu = ev->cpu;
		r->runnable = r->waking = false;
		if (e->woken && !e->ran) {
			e->ran = true;
			e->run_ns = ev->ns;
		}
	}
	cs->known = true;
	cs->pid = ev->pid2;
	cs->prio = ev->prio2;
	snprintf(cs->comm, sizeof cs->comm, "%s", ev->name);
	cs->serial = ++r->serial;
	cs->depth = 0; /* no switch happens inside an interrupt */
	cs->in_idle = false; /* a switch is out of any idle state */
}

/* sched_waking, sched_wakeup, sched_migrate_task of any task. */
static int on_task_event(struct replay *r, const struct xev *ev)
{
	struct explain *e = r->e;
	if (ev->pid2 != e->probe_pid)
		return 0;
	e->probe_prio = ev->prio2;
	if (ev->type == XE_MIGRATE) {
		if (ev->ns >= e->start_ns) {
			if (e->nmig == r->mig_cap) { /* doubled: linear in the migrations */
				size_t cap = r->mig_cap ? 2 * r->mig_cap : 16;
				struct explain_migration *m = realloc(e->mig, cap * sizeof *m);
				if (!m)
					return -1;
				e->mig = m;
				r->mig_cap = cap;
			}
			e->mig[e->nmig++] = (struct explain_migration){ ev->ns, ev->cpu3, ev->cpu2 };
		}
		r->probe_cpu = ev->cpu2;
		return 0;
	}
	if (!(r->runnable || r->waking) || !e->woken || e->ran) {
		e->woken = true;
		e->ran = false;
		e->waking_ns = ev->ns;
	}
	/* sched_waking: the waker begins; sched_wakeup: the probe is on its
	 * run queue, from when a task below it holding the CPU is a violation */
	if (ev->type == XE_WAKING && !r->runnable)
		r->waking = true;
	else if (ev->type == XE_WAKEUP) {
		r->runnable = true;
		r->waking = false;
	}
	if (ev->cpu2 >= 0)
		r->probe_cpu = ev->cpu2;
	return 0;
}

static void on_lost(struct replay *r, struct cpu_state *cs, const struct xev *ev)
{
	cs->lost_pending = add_sat(cs->lost_pending, ev->lost);
	cs->known = false; /* the switches lost may have changed it */
	cs->depth = 0;
	cs->serial = ++r->serial;
}

/* Events lost on cpu before this event (at ev->ns) fall in the window when
 * the probe is there and the window has begun. */
static void settle_lost(struct replay *r, struct cpu_state *cs, int cpu, uint64_t ns)
{
	if (!cs->lost_pending)
		return;
	if (cpu == r->probe_cpu && ns >= r->e->start_ns)
		r->e->lost_window = add_sat(r->e->lost_window, cs->lost_pending);
	cs->lost_pending = 0;
}

/* Replay one event: its stretch first, then its effect. */
static int replay_event(struct replay *r, const struct xev *ev)
{
	uint64_t ns = ev->ns > r->last_ns ? ev->ns : r->last_ns; /* never backwards */
	struct cpu_state *cs = cpu_of(r, ev->cpu);
	if (ev->type == XE_LOST) {
		on_lost(r, cs, ev);
		return 0;
	}
	settle_lost(r, cs, ev->cpu, ns);
	if (ev->type == XE_SWITCH && cs->known && cs->pid == ev->prev_pid &&
	    cs->prio == EXPLAIN_PRIO_UNKNOWN)
		cs->prio = ev->prev_prio; /* for the stretch that ends here */
	if (attribute(r, r->last_ns, ns) || resolve_idle(r, ev))
		return -1;
	r->last_ns = ns;
	learn_current(r, cs, ev);
	if (ev->pid == r->e->probe_pid) { /* the probe is on this CPU, running */
		r->probe_cpu = ev->cpu;
		r->runnable = r->waking = false;
	}
	switch (ev->type) {
	case XE_SWITCH:
		on_switch(r, cs, ev);
		break;
	case XE_WAKEUP: {
		struct cpu_state *to = cpu_of(r, ev->cpu2);
		if (to) {
			to->woken_pid = ev->pid2;
			to->woken_prio = ev->prio2;
			to->woken_ns = ns;
		}
		return on_task_event(r, ev);
	}
	case XE_WAKING: case XE_MIGRATE:
		return on_task_event(r, ev);
	case XE_IRQ_IN:
		push(r, cs, EXPLAIN_IRQ, ev);
		break;
	case XE_SOFT_IN:
		push(r, cs, EXPLAIN_SOFTIRQ, ev);
		break;
	case XE_TIMER_IN:
		push(r, cs, EXPLAIN_TIMER, ev);
		break;
	case XE_IRQ_OUT:
		pop(cs, EXPLAIN_IRQ, ev);
		break;
	case XE_SOFT_OUT:
		pop(cs, EXPLAIN_SOFTIRQ, ev);
		break;
	case XE_TIMER_OUT:
		pop(cs, EXPLAIN_TIMER, ev);
		break;
	case XE_IDLE:
		if (cs->in_idle != (ev->id >= 0))
			cs->serial = ++r->serial; /* a stretch of its own */
		cs->in_idle = ev->id >= 0;
		cs->idle_state = ev->id;
		break;
	default:
		break;
	}
	return 0;
}

/* ---- reading the file ---- */

struct reader {
	FILE *f;
	const char *name;
	char *line; /* EXPLAIN_LINE_MAX + 1 bytes */
	size_t lineno;
	char *err;
	size_t errlen;
};

/* The next line into rd->line (no newline): 1, 0 at the end, -1 error. A
 * line is read up to EXPLAIN_LINE_MAX bytes, no further: a file of one
 * endless line costs no more memory than a short one. */
static int next_line(struct reader *rd)
{
	if (!rd->line && !(rd->line = malloc(EXPLAIN_LINE_MAX + 1))) {
		snprintf(rd->err, rd->errlen, "%s: out of memory", rd->name);
		return -1;
	}
	size_t n = 0;
	bool nul = false;
	int c;
	while ((c = getc(rd->f)) != EOF && c != '\n') {
		if (n == EXPLAIN_LINE_MAX) {
			snprintf(rd->err, rd->errlen, "%s:%zu: line longer than %d bytes: not a "
				 "trace line", rd->name, rd->lineno + 1, EXPLAIN_LINE_MAX);
			return -1;
		}
		nul |= c == 0;
		rd->line[n++] = (char)c;
	}
	if (ferror(rd->f)) {
		snprintf(rd->err, rd->errlen, "%s: cannot read after line %zu", rd->name, rd->lineno);
		return -1;
	}
	if (c == EOF && n == 0)
		return 0;
	rd->lineno++;
	if (n > 0 && rd->line[n - 1] == '\r')
		n--;
	rd->line[n] = 0;
	if (nul) {
		snprintf(rd->err, rd->errlen, "%s:%zu: a NUL byte: not a text trace", rd->name,
			 rd->lineno);
		return -1;
	}
	return 1;
}

static int line_error(struct reader *rd, const char *why)
{
	char msg[512];
	snprintf(msg, sizeof msg, "%s", why);
	snprintf(rd->err, rd->errlen, "%s:%zu: %s", rd->name, rd->lineno, msg);
	return -1;
}

/* Pass 1: every line read, the first marker's event in *marker, the
 * highest CPU any event names in *maxcpu. */
static int first_pass(struct reader *rd, struct xev *ev, struct xev *marker, int *maxcpu,
		      struct explain *e)
{
	char why[400];
	int rc;
	bool found = false;
	while ((rc = next_line(rd)) > 0) {
		if (explain_parse_line(rd->line, ev, why, sizeof why))
			return line_error(rd, why);
		if (ev->type == XE_SKIP)
			continue;
		e->events += ev->type != XE_LOST;
		if (ev->type == XE_LOST)
			e->lost = add_sat(e->lost, ev->lost);
		if (ev->type == XE_LOST && !ev->lost_counted)
			e->lost_unknown = true;
		int hi = ev->cpu > ev->cpu2 ? ev->cpu : ev->cpu2;
		*maxcpu = hi > *maxcpu ? hi : *maxcpu;
		if (ev->type == XE_MARKER && !found) {
			*marker = *ev;
			e->marker_line = rd->lineno;
			found = true;
		}
	}
	if (rc < 0)
		return -1;
	e->lines = rd->lineno;
	if (!found) {
		snprintf(rd->err, rd->errlen,
			 "%s:%zu: no breach marker ('rtconform breach: ...') in its %zu lines: "
			 "not a trace of a breach", rd->name, rd->lineno, rd->lineno);
		return -1;
	}
	return 0;
}

static void take_marker(struct explain *e, const struct xev *m)
{
	snprintf(e->id, sizeof e->id, "%s", m->id_text);
	snprintf(e->metric, sizeof e->metric, "%s", m->metric);
	e->value_ns = m->value_ns;
	e->trip_ns = m->trip_ns;
	e->run = m->run;
	e->probe_pid = m->pid;
	snprintf(e->probe_comm, sizeof e->probe_comm, "%s", m->comm);
	e->probe_cpu = m->cpu;
	e->probe_prio = EXPLAIN_PRIO_UNKNOWN;
	e->end_ns = m->ns;
	e->start_ns = m->ns > m->value_ns ? m->ns - m->value_ns : 0;
}

/* Pass 2: the events up to the marker replayed. */
static int second_pass(struct reader *rd, struct replay *r, struct xev *ev)
{
	char why[400];
	int rc;
	rd->lineno = 0;
	while ((rc = next_line(rd)) > 0 && rd->lineno <= r->e->marker_line) {
		if (explain_parse_line(rd->line, ev, why, sizeof why))
			return line_error(rd, why);
		if (ev->type == XE_SKIP)
			continue;
		if (rd->lineno == r->e->marker_line)
			break;
		if (replay_event(r, ev)) {
			snprintf(rd->err, rd->errlen, "%s: out of memory", rd->name);
			return -1;
		}
	}
	if (rc < 0)
		return -1;
	/* the stretch up to the marker, on the CPU the marker's task is on */
	struct cpu_state *cs = cpu_of(r, r->e->probe_cpu);
	settle_lost(r, cs, r->e->probe_cpu, r->e->end_ns);
	if (attribute(r, r->last_ns, r->e->end_ns) || resolve_idle(r, ev) || flush_idle(r)) {
		snprintf(rd->err, rd->errlen, "%s: out of memory", rd->name);
		return -1;
	}
	return 0;
}

/* ---- the components classified, merged and sorted ---- */

/* The task's components: one above the probe (or of a priority not
 * known), else its time while the probe was runnable (a violation) and
 * while it was not. */
static int task_components(struct replay *r, const struct task_acc *t)
{
	const struct explain *e = r->e;
	enum explain_class cls = EXPLAIN_UNCLASSED;
	if (t->prio != EXPLAIN_PRIO_UNKNOWN && e->probe_prio != EXPLAIN_PRIO_UNKNOWN)
		cls = t->prio < e->probe_prio ? EXPLAIN_HIGHER : EXPLAIN_VIOLATION;
	for (int k = cls == EXPLAIN_VIOLATION ? 1 : 2; k >= 0; k--) {
		uint64_t ns = k == 2 ? t->ns[0] + t->ns[1] : t->ns[k];
		if (!ns)
			continue;
		struct explain_component *c =
			component(r, EXPLAIN_TASK, t->pid, t->comm,
				  k == 2 ? cls : k == 1 ? EXPLAIN_VIOLATION : EXPLAIN_WAITING);
		if (!c)
			return -1;
		c->prio = t->prio;
		c->ns = ns;
		c->count = t->count[k];
		if (k == 2)
			break;
	}
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct explain_component *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int finish(struct replay *r)
{
	struct explain *e = r->e;
	for (size_t i = 0; i < r->ntask; i++)
		if (task_components(r, &r->task[i]))
			return -1;
	if (e->ncomp)
		qsort(e->comp, e->ncomp, sizeof *e->comp, by_time);
	e->sum_ns = 0;
	for (size_t i = 0; i < e->ncomp; i++)
		e->sum_ns += e->comp[i].ns;
	e->adds_up = explain_adds_up(e->sum_ns, e->end_ns - e->start_ns);
	return 0;
}

bool explain_adds_up(uint64_t sum_ns, uint64_t window_ns)
{
	uint64_t d = sum_ns > window_ns ? sum_ns - window_ns : window_ns - sum_ns;
	return d <= EXPLAIN_TOLERANCE_NS;
}

int explain_read(FILE *f, const char *name, struct explain *e, char *err, size_t errlen)
{
	memset(e, 0, sizeof *e);
	struct reader rd = { .f = f, .name = name, .err = err, .errlen = errlen };
	struct xev *ev = malloc(sizeof *ev), *marker = malloc(sizeof *marker);
	struct replay r = { .e = e };
	int maxcpu = 0, rc = -1;
	if (!ev || !marker) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	if (first_pass(&rd, ev, marker, &maxcpu, e))
		goto out;
	take_marker(e, marker);
	r.ncpu = (size_t)maxcpu + 1;
	r.cpu = calloc(r.ncpu, sizeof *r.cpu);
	r.probe_cpu = e->probe_cpu;
	if (!r.cpu) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	if (fseek(f, 0, SEEK_SET) != 0) {
		snprintf(err, errlen, "%s: cannot read it again (not a regular file?)", name);
		goto out;
	}
	clearerr(f);
	if (second_pass(&rd, &r, ev))
		goto out;
	if (finish(&r)) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	rc = 0;
out:
	strhash_free(&r.task_at);
	strhash_free(&r.comp_at);
	free(r.task);
	free(rd.line);
	free(ev);
	free(marker);
	free(r.cpu);
	return rc;
}

void explain_free(struct explain *e)
{
	free(e->comp);
	free(e->mig);
	e->comp = NULL;
	e->mig = NULL;
	e->ncomp = e->nmig = 0;
}

/* A name made valid UTF-8, cut at a character boundary into n bytes. */
static void clean_name(char *dst, size_t n, const char *src)
{
	char *v = utf8_valid_dup(src);
	utf8_snprintf(dst, n, "%s", v ? v : "");
	free(v);
}

int explain_copy(struct explain *dst, const struct explain *src)
{
	*dst = *src;
	dst->comp = NULL;
	dst->mig = NULL;
	dst->ncomp = dst->nmig = 0;
	if (src->ncomp && !(dst->comp = calloc(src->ncomp, sizeof *dst->comp)))
		return -ENOMEM;
	if (src->nmig && !(dst->mig = calloc(src->nmig, sizeof *dst->mig))) {
		explain_free(dst);
		return -ENOMEM;
	}
	dst->ncomp = src->ncomp;
	dst->nmig = src->nmig;
	for (size_t i = 0; i < src->ncomp; i++) {
		dst->comp[i] = src->comp[i];
		clean_name(dst->comp[i].name, sizeof dst->comp[i].name, src->comp[i].name);
	}
	if (src->nmig)
		memcpy(dst->mig, src->mig, src->nmig * sizeof *dst->mig);
	clean_name(dst->id, sizeof dst->id, src->id);
	clean_name(dst->metric, sizeof dst->metric, src->metric);
	clean_name(dst->probe_comm, sizeof dst->probe_comm, src->probe_comm);
	return 0;
}
