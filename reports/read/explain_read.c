/* SPDX-License-Identifier: Apache-2.0 */
/* explain_read.c - results.json's `explain` of a requirement read back
 * (explain_read.h). Every field the reports show is checked: the kinds and
 * classes are the ones rtconform writes, the counts bounded, the
 * components' ns add up to the window within the stated tolerance, each
 * share is its ns over the window, and the texts (headline, labels,
 * priorities) are the ones the fields make, so the reports rendered again
 * from it are the same bytes. */
#include "reports/read/explain_read.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/json_schema.h"

/* The largest pid the kernel gives (PID_MAX_LIMIT), the most CPUs and the
 * highest IRQ number accepted. */
#define PID_MAX 4194304
#define CPU_MAX 65535
#define IRQ_MAX 1048575
#define VEC_MAX 63
#define IDLE_STATE_MAX 4294967294LL

struct er {
	struct jfield *f; /* the results.json's reader */
	const char *at;   /* the explain's path */
};

#define failed(r) ((r)->f->rc != 0)

/* The fault at key (a path below the explain's) with what is wrong. */
static bool bad(struct er *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool bad(struct er *r, const char *key, const char *fmt, ...)
{
	char at[JF_AT_LEN], msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	jf_at_key(at, r->at, key);
	return jf_fail(r->f, -EINVAL, at, "%s", msg);
}

/* Member key of o, at path (below the explain's; its full path in at). */
static const json_t *get_at(struct er *r, const json_t *o, const char *key, const char *path,
			    char *at)
{
	jf_at_key(at, r->at, path);
	const json_t *j = json_object_get(o, key);
	if (!j)
		jf_fail(r->f, -EINVAL, at, "missing");
	return j;
}

static const json_t *get(struct er *r, const json_t *o, const char *key, const char *path)
{
	char at[JF_AT_LEN];
	return get_at(r, o, key, path, at);
}

/* An integer from lo to hi at path (of object o's key). */
static bool want_i(struct er *r, const json_t *o, const char *key, const char *path,
		   long long lo, long long hi, long long *out)
{
	char at[JF_AT_LEN];
	const json_t *j = get_at(r, o, key, path, at);
	return j && jf_int(r->f, j, at, lo, hi, out);
}

static bool want_u(struct er *r, const json_t *o, const char *key, const char *path,
		   uint64_t *out)
{
	long long v = 0;
	bool ok = want_i(r, o, key, path, 0, RESULTS_MAX_INT, &v);
	*out = (uint64_t)v;
	return ok;
}

static bool want_b(struct er *r, const json_t *o, const char *key, const char *path,
		   bool *out)
{
	char at[JF_AT_LEN];
	const json_t *j = get_at(r, o, key, path, at);
	*out = false;
	return j && jf_bool(r->f, j, at, out);
}

/* A string of at most len - 1 bytes into buf. */
static bool want_s(struct er *r, const json_t *o, const char *key, const char *path, char *buf,
		   size_t len)
{
	char at[JF_AT_LEN];
	const json_t *j = get_at(r, o, key, path, at);
	buf[0] = '\0';
	return j && jf_text(r->f, j, at, false, buf, len);
}

/* A text the fields make (a label, the headline): the file's must be it. */
static bool want_text(struct er *r, const json_t *o, const char *key, const char *path,
		      const char *made)
{
	const json_t *j = get(r, o, key, path);
	if (j && (!json_is_string(j) || strcmp(json_string_value(j), made) != 0))
		return bad(r, path, "'%.80s' is not what its fields say: '%.200s'",
			   json_is_string(j) ? json_string_value(j) : "(not a string)", made);
	return j != NULL;
}

/* A kernel priority: null (not known) or -1..139. */
static bool want_prio(struct er *r, const json_t *o, const char *path, int *out)
{
	const json_t *j = get(r, o, "prio", path);
	*out = EXPLAIN_PRIO_UNKNOWN;
	if (!j || json_is_null(j))
		return j != NULL;
	if (!json_is_integer(j) || json_integer_value(j) < -1 || json_integer_value(j) > 139)
		return bad(r, path, "expected null or an integer from -1 to 139 (a kernel priority)");
	*out = (int)json_integer_value(j);
	return true;
}

static bool kind_of(const char *s, enum explain_kind *k)
{
	for (int i = EXPLAIN_IRQ; i < EXPLAIN_NKINDS; i++)
		if (strcmp(s, explain_kind_name((enum explain_kind)i)) == 0) {
			*k = (enum explain_kind)i;
			return true;
		}
	return false;
}

static bool class_of(const char *s, enum explain_class *c)
{
	for (int i = EXPLAIN_HIGHER; i <= EXPLAIN_UNCLASSED; i++)
		if (strcmp(s, explain_class_name((enum explain_class)i)) == 0) {
			*c = (enum explain_class)i;
			return true;
		}
	return false;
}

static void comp_task(struct er *r, const json_t *o, const char *p, struct explain_component *c)
{
	char path[96], cls[32], prio[32];
	long long pid = 0;
	snprintf(path, sizeof path, "%s.comm", p);
	want_s(r, o, "comm", path, c->name, sizeof c->name);
	snprintf(path, sizeof path, "%s.pid", p);
	want_i(r, o, "pid", path, 0, PID_MAX, &pid);
	c->id = (long)pid;
	snprintf(path, sizeof path, "%s.prio", p);
	want_prio(r, o, path, &c->prio);
	explain_prio_text(c->prio, prio, sizeof prio);
	snprintf(path, sizeof path, "%s.priority", p);
	want_text(r, o, "priority", path, prio);
	snprintf(path, sizeof path, "%s.class", p);
	if (want_s(r, o, "class", path, cls, sizeof cls) && !class_of(cls, &c->cls))
		bad(r, path, "'%s' is not a class rtconform writes (higher, violation, "
		    "not-runnable, unknown)", cls);
}

/* Component i: its kind and what that kind has. */
static void one_comp(struct er *r, const json_t *o, size_t i, const struct explain *e,
		     struct explain_component *c)
{
	char p[64], path[96], kind[32];
	long long v = 0;
	snprintf(p, sizeof p, "components[%zu]", i);
	c->prio = EXPLAIN_PRIO_UNKNOWN;
	snprintf(path, sizeof path, "%s.kind", p);
	if (want_s(r, o, "kind", path, kind, sizeof kind) && !kind_of(kind, &c->kind))
		bad(r, path, "'%s' is not a kind rtconform writes (irq, softirq, timer, task, idle, "
		    "wakeup, probe, unexplained, idle-exit)", kind);
	if (failed(r))
		return;
	if (c->kind == EXPLAIN_IRQ || c->kind == EXPLAIN_SOFTIRQ) {
		bool irq = c->kind == EXPLAIN_IRQ;
		snprintf(path, sizeof path, "%s.%s", p, irq ? "irq" : "vec");
		want_i(r, o, irq ? "irq" : "vec", path, 0, irq ? IRQ_MAX : VEC_MAX, &v);
		c->id = (long)v;
		snprintf(path, sizeof path, "%s.name", p);
		want_s(r, o, "name", path, c->name, sizeof c->name);
	} else if (c->kind == EXPLAIN_TASK) {
		comp_task(r, o, p, c);
	} else if (c->kind == EXPLAIN_IDLE_EXIT) {
		snprintf(path, sizeof path, "%s.state", p);
		want_i(r, o, "state", path, 0, IDLE_STATE_MAX, &v);
		c->id = (long)v;
	}
	snprintf(path, sizeof path, "%s.ns", p);
	want_u(r, o, "ns", path, &c->ns);
	snprintf(path, sizeof path, "%s.count", p);
	want_i(r, o, "count", path, 0, UINT_MAX, &v);
	c->count = (unsigned)v;
	snprintf(path, sizeof path, "%s.share", p);
	const json_t *s = get(r, o, "share", path);
	double want = explain_share(e, c->ns);
	if (s && (!json_is_number(s) ||
		  !(fabs(json_number_value(s) - want) <= EXPLAIN_READ_SHARE_TOLERANCE)))
		bad(r, path, "%.17g is not its ns over the window's (%.6g)",
		    json_is_number(s) ? json_number_value(s) : NAN, want);
	char label[200];
	if (!failed(r)) {
		explain_label(e, c, label, sizeof label);
		snprintf(path, sizeof path, "%s.label", p);
		want_text(r, o, "label", path, label);
	}
}

/* A bounded array at key, its size in *n; NULL when absent or not one. */
static const json_t *bounded(struct er *r, const json_t *o, const char *key, size_t *n)
{
	const json_t *a = get(r, o, key, key);
	if (a && !json_is_array(a))
		bad(r, key, "expected an array");
	else if (a && json_array_size(a) > EXPLAIN_READ_MAX_ITEMS)
		bad(r, key, "%zu items, more than the %d an explanation holds",
		    json_array_size(a), EXPLAIN_READ_MAX_ITEMS);
	*n = a && !failed(r) ? json_array_size(a) : 0;
	return failed(r) ? NULL : a;
}

static void read_components(struct er *r, const json_t *o, struct explain *e)
{
	size_t n;
	const json_t *a = bounded(r, o, "components", &n);
	if (!a || !n)
		return;
	if (!(e->comp = calloc(n, sizeof *e->comp))) {
		bad(r, "components", "out of memory");
		return;
	}
	e->ncomp = n;
	uint64_t sum = 0;
	for (size_t i = 0; i < n && !failed(r); i++) {
		one_comp(r, json_array_get(a, i), i, e, &e->comp[i]);
		if (e->comp[i].ns > UINT64_MAX - sum)
			bad(r, "components", "the components' ns overflow");
		sum += e->comp[i].ns;
	}
	if (!failed(r) && sum != e->sum_ns)
		bad(r, "sum_ns", "%" PRIu64 " is not the components' sum, %" PRIu64, e->sum_ns, sum);
}

static void read_probe(struct er *r, const json_t *o, struct explain *e)
{
	const json_t *p = get(r, o, "probe", "probe");
	long long v = 0;
	char prio[32];
	if (p && !json_is_object(p)) {
		bad(r, "probe", "expected an object");
		return;
	}
	want_i(r, p, "pid", "probe.pid", 0, PID_MAX, &v);
	e->probe_pid = (long)v;
	want_s(r, p, "comm", "probe.comm", e->probe_comm, sizeof e->probe_comm);
	want_i(r, p, "cpu", "probe.cpu", 0, CPU_MAX, &v);
	e->probe_cpu = (int)v;
	want_prio(r, p, "probe.prio", &e->probe_prio);
	explain_prio_text(e->probe_prio, prio, sizeof prio);
	want_text(r, p, "priority", "probe.priority", prio);
}

static void read_window(struct er *r, const json_t *o, struct explain *e)
{
	const json_t *w = get(r, o, "window", "window");
	uint64_t ns = 0;
	if (w && !json_is_object(w)) {
		bad(r, "window", "expected an object");
		return;
	}
	want_u(r, w, "start_ns", "window.start_ns", &e->start_ns);
	want_u(r, w, "end_ns", "window.end_ns", &e->end_ns);
	if (!failed(r) && e->end_ns < e->start_ns)
		bad(r, "window.end_ns", "%" PRIu64 " is before the start, %" PRIu64, e->end_ns,
		    e->start_ns);
	if (want_u(r, w, "ns", "window.ns", &ns) && !failed(r) && ns != e->end_ns - e->start_ns)
		bad(r, "window.ns", "%" PRIu64 " is not end_ns - start_ns, %" PRIu64, ns,
		    e->end_ns - e->start_ns);
}

/* The sum check: the components add up to the window within the stated
 * tolerance, which is rtconform's. */
static void read_sum(struct er *r, const json_t *o, struct explain *e)
{
	long long tol = 0;
	uint64_t w = e->end_ns - e->start_ns;
	want_u(r, o, "sum_ns", "sum_ns", &e->sum_ns);
	want_b(r, o, "adds_up", "adds_up", &e->adds_up);
	want_i(r, o, "tolerance_ns", "tolerance_ns", EXPLAIN_TOLERANCE_NS, EXPLAIN_TOLERANCE_NS,
	       &tol);
	if (failed(r))
		return;
	if (!explain_adds_up(e->sum_ns, w))
		bad(r, "sum_ns", "%" PRIu64 " does not add up to the window's %" PRIu64 " ns within "
		    "%d ns", e->sum_ns, w, EXPLAIN_TOLERANCE_NS);
	else if (!e->adds_up)
		bad(r, "adds_up", "false, but sum_ns %" PRIu64 " adds up to the window's %" PRIu64
		    " ns within %d ns", e->sum_ns, w, EXPLAIN_TOLERANCE_NS);
}

static void read_migrations(struct er *r, const json_t *o, struct explain *e)
{
	size_t n;
	const json_t *a = bounded(r, o, "migrations", &n);
	if (!a || !n)
		return;
	if (!(e->mig = calloc(n, sizeof *e->mig))) {
		bad(r, "migrations", "out of memory");
		return;
	}
	e->nmig = n;
	for (size_t i = 0; i < n && !failed(r); i++) {
		const json_t *m = json_array_get(a, i);
		char p[96];
		long long v = 0;
		uint64_t before = 0;
		snprintf(p, sizeof p, "migrations[%zu].before_marker_ns", i);
		if (want_u(r, m, "before_marker_ns", p, &before) && before > e->end_ns)
			bad(r, p, "%" PRIu64 " is before the trace began", before);
		e->mig[i].ns = e->end_ns - before;
		snprintf(p, sizeof p, "migrations[%zu].from", i);
		want_i(r, m, "from", p, 0, CPU_MAX, &v);
		e->mig[i].from = (int)v;
		snprintf(p, sizeof p, "migrations[%zu].to", i);
		want_i(r, m, "to", p, 0, CPU_MAX, &v);
		e->mig[i].to = (int)v;
	}
}

static void read_lost(struct er *r, const json_t *o, struct explain *e)
{
	bool complete = false;
	want_u(r, o, "lost_events", "lost_events", &e->lost);
	want_b(r, o, "lost_events_unknown", "lost_events_unknown", &e->lost_unknown);
	want_u(r, o, "lost_in_window", "lost_in_window", &e->lost_window);
	want_b(r, o, "complete", "complete", &complete);
	uint64_t inferred = 0; /* absent in a results.json of an older rtconform */
	if (json_object_get(o, "switches_inferred") &&
	    want_u(r, o, "switches_inferred", "switches_inferred", &inferred) &&
	    inferred > ULONG_MAX)
		bad(r, "switches_inferred", "%" PRIu64 " is too large", inferred);
	e->switches_inferred = (unsigned long)inferred;
	if (failed(r))
		return;
	if (e->lost_window > e->lost)
		bad(r, "lost_in_window", "%" PRIu64 " is more than lost_events, %" PRIu64,
		    e->lost_window, e->lost);
	else if (complete != (e->lost_window == 0))
		bad(r, "complete", "%s, but lost_in_window is %" PRIu64,
		    complete ? "true" : "false", e->lost_window);
}

/* "wakeup": absent when the trace shows none. */
static void read_wakeup(struct er *r, const json_t *o, struct explain *e)
{
	const json_t *w = json_object_get(o, "wakeup");
	uint64_t before = 0, to_run = 0;
	if (!w)
		return;
	if (!json_is_object(w)) {
		bad(r, "wakeup", "expected an object");
		return;
	}
	if (want_u(r, w, "before_marker_ns", "wakeup.before_marker_ns", &before) &&
	    before > e->end_ns)
		bad(r, "wakeup.before_marker_ns", "%" PRIu64 " is before the trace began", before);
	e->woken = true;
	e->waking_ns = e->end_ns - before;
	const json_t *t = get(r, w, "to_run_ns", "wakeup.to_run_ns");
	if (!t || json_is_null(t))
		return;
	if (want_u(r, w, "to_run_ns", "wakeup.to_run_ns", &to_run) && to_run > before)
		bad(r, "wakeup.to_run_ns", "%" PRIu64 " is after the marker (woken %" PRIu64
		    " ns before it)", to_run, before);
	e->ran = true;
	e->run_ns = e->waking_ns + to_run;
}

/* "steal": absent unless a run took /proc/stat's steal time; ns at most
 * span_ns (a CPU cannot lose more time than passed). */
static void read_steal(struct er *r, const json_t *o, struct explain *e)
{
	const json_t *s = json_object_get(o, "steal");
	if (!s)
		return;
	if (!json_is_object(s)) {
		bad(r, "steal", "expected an object");
		return;
	}
	want_u(r, s, "ns", "steal.ns", &e->steal_ns);
	want_u(r, s, "span_ns", "steal.span_ns", &e->steal_span_ns);
	if (!failed(r) && e->steal_ns > e->steal_span_ns)
		bad(r, "steal.ns", "%" PRIu64 " is more than the span, %" PRIu64 " ns", e->steal_ns,
		    e->steal_span_ns);
	e->steal_known = !failed(r);
}

static void read_marker(struct er *r, const json_t *o, struct explain *e)
{
	uint64_t v = 0;
	want_s(r, o, "requirement", "requirement", e->id, sizeof e->id);
	want_s(r, o, "metric", "metric", e->metric, sizeof e->metric);
	want_u(r, o, "value_ns", "value_ns", &e->value_ns);
	want_u(r, o, "trip_ns", "trip_ns", &e->trip_ns);
	if (want_u(r, o, "run", "run", &v) && v > UINT32_MAX)
		bad(r, "run", "%" PRIu64 " is more than a run's number can be", v);
	e->run = (unsigned long)v;
	want_u(r, o, "marker_line", "marker_line", &v);
	e->marker_line = (size_t)v;
}

int explain_read_json(struct jfield *f, const json_t *j, const char *at, struct explain *e)
{
	struct er r = { .f = f, .at = at };
	memset(e, 0, sizeof *e);
	if (!json_is_object(j)) {
		bad(&r, "", "expected an object");
		return -1;
	}
	read_marker(&r, j, e);
	read_probe(&r, j, e);
	read_window(&r, j, e);
	read_sum(&r, j, e);
	read_components(&r, j, e);
	read_migrations(&r, j, e);
	read_lost(&r, j, e);
	read_wakeup(&r, j, e);
	read_steal(&r, j, e);
	if (!failed(&r)) {
		char h[1024];
		explain_headline(e, h, sizeof h);
		want_text(&r, j, "headline", "headline", h);
	}
	return failed(&r) ? -1 : 0;
}
