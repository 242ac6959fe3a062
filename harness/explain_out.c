/* SPDX-License-Identifier: Apache-2.0 */
/* explain_out.c - an explained breach (explain.h) in words and as JSON:
 * the headline, the table of components and the machine-readable form
 * that `rtconform explain` prints and the reports may embed. */
#include "harness/explain.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "base/units.h"
#include "base/utf8.h"

const char *explain_kind_name(enum explain_kind k)
{
	static const char *const names[] = {
		[EXPLAIN_IRQ] = "irq",       [EXPLAIN_SOFTIRQ] = "softirq",
		[EXPLAIN_TIMER] = "timer",   [EXPLAIN_TASK] = "task",
		[EXPLAIN_IDLE] = "idle",     [EXPLAIN_WAKEUP] = "wakeup",
		[EXPLAIN_PROBE] = "probe",   [EXPLAIN_UNKNOWN] = "unexplained",
		[EXPLAIN_IDLE_EXIT] = "idle-exit",
	};
	return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

const char *explain_class_name(enum explain_class c)
{
	static const char *const names[] = {
		[EXPLAIN_CLASS_NONE] = "", [EXPLAIN_HIGHER] = "higher",
		[EXPLAIN_VIOLATION] = "violation", [EXPLAIN_WAITING] = "not-runnable",
		[EXPLAIN_UNCLASSED] = "unknown",
	};
	return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

void explain_prio_text(int prio, char *buf, size_t len)
{
	if (prio == EXPLAIN_PRIO_UNKNOWN)
		snprintf(buf, len, "prio ?");
	else if (prio < 0)
		snprintf(buf, len, "DL");
	else if (prio < 100)
		snprintf(buf, len, "RT %d", 99 - prio);
	else if (prio < 140)
		snprintf(buf, len, "nice %d", prio - 120);
	else
		snprintf(buf, len, "prio %d", prio);
}

void explain_task_name(const char *comm, long pid, char *buf, size_t len)
{
	static const char *const own[] = { "rtconform-worker" }; /* runner_prepare.c's */
	snprintf(buf, len, "%s", comm);
	if (strlen(comm) != EXPLAIN_COMM_CUT)
		return;
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (!strncmp(own[i], comm, EXPLAIN_COMM_CUT)) {
			snprintf(buf, len, "%s", own[i]);
			return;
		}
	char path[40], arg[256];
	snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
	FILE *f = pid > 0 ? fopen(path, "r") : NULL;
	size_t n = f ? fread(arg, 1, sizeof arg - 1, f) : 0;
	if (f)
		fclose(f);
	arg[n] = '\0'; /* argv[0] ends at its NUL */
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	if (strlen(base) > EXPLAIN_COMM_CUT && !strncmp(base, comm, EXPLAIN_COMM_CUT))
		snprintf(buf, len, "%s", base);
	else
		snprintf(buf, len, "%s (cut at 15 characters by the kernel)", comm);
}

static void task_label(const struct explain *e, const struct explain_component *c, char *buf,
		       size_t len)
{
	char p[32], name[320];
	explain_task_name(c->name, c->id, name, sizeof name);
	explain_prio_text(c->prio, p, sizeof p);
	const char *rel = "";
	switch (c->cls) {
	case EXPLAIN_HIGHER:
		rel = ", higher than the probe";
		break;
	case EXPLAIN_VIOLATION:
		rel = c->prio == e->probe_prio
			? ", same as the probe, which was runnable: a violation"
			: ", lower than the probe, which was runnable: a violation";
		break;
	case EXPLAIN_WAITING:
		rel = c->prio == e->probe_prio ? ", same as the probe, which was not runnable"
					       : ", lower than the probe, which was not runnable";
		break;
	default:
		rel = ", priority against the probe's not known";
		break;
	}
	snprintf(buf, len, "%s (pid %ld, %s%s)", name, c->id, p, rel);
}

void explain_label(const struct explain *e, const struct explain_component *c, char *buf,
		   size_t len)
{
	switch (c->kind) {
	case EXPLAIN_IRQ:
		snprintf(buf, len, "irq %ld %s", c->id, c->name);
		break;
	case EXPLAIN_SOFTIRQ:
		snprintf(buf, len, "softirq %s", c->name);
		break;
	case EXPLAIN_TIMER:
		snprintf(buf, len, "local timer interrupt");
		break;
	case EXPLAIN_TASK:
		task_label(e, c, buf, len);
		break;
	case EXPLAIN_IDLE:
		snprintf(buf, len, "idle (the probe not runnable)");
		break;
	case EXPLAIN_WAKEUP:
		snprintf(buf, len, "wake-up to run (the probe runnable, its CPU idle)");
		break;
	case EXPLAIN_PROBE:
		snprintf(buf, len, "the probe on its CPU (no other event)");
		break;
	case EXPLAIN_IDLE_EXIT:
		snprintf(buf, len, "exit from idle (the CPU in idle state %ld)", c->id);
		break;
	default:
		snprintf(buf, len, "unexplained (no event tells)");
		break;
	}
}

/* Whole percent of the window, rounded. */
static unsigned share(const struct explain *e, uint64_t ns)
{
	uint64_t w = e->end_ns - e->start_ns;
	return w ? (unsigned)((ns * 100 + w / 2) / w) : 0;
}

void explain_parts(const struct explain *e, char *buf, size_t len)
{
	int at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < e->ncomp && i < 3 && at >= 0 && (size_t)at < len; i++) {
		char l[200];
		explain_label(e, &e->comp[i], l, sizeof l);
		at += snprintf(buf + at, len - (size_t)at, "%s%u%% %s", i ? ", " : "",
			       share(e, e->comp[i].ns), l);
	}
	if (e->ncomp == 0 && len)
		snprintf(buf, len, "an empty window");
	if (e->lost_window && at >= 0 && (size_t)at < len)
		snprintf(buf + at, len - (size_t)at, " (incomplete: %" PRIu64 " events lost)",
			 e->lost_window);
}

void explain_headline(const struct explain *e, char *buf, size_t len)
{
	char v[32], parts[800];
	units_fmt_ns((double)e->value_ns, v, sizeof v);
	explain_parts(e, parts, sizeof parts);
	utf8_snprintf(buf, len, "%s %s %s: %s", e->id, e->metric, v, parts);
}

static void print_notes(FILE *out, const struct explain *e)
{
	char a[32], b[32];
	if (e->woken && e->ran) {
		units_fmt_ns((double)(e->end_ns - e->waking_ns), a, sizeof a);
		units_fmt_ns((double)(e->run_ns - e->waking_ns), b, sizeof b);
		fprintf(out, "wake-up: the probe was woken %s before the marker and switched in "
			"%s after that\n", a, b);
	} else if (e->woken) {
		units_fmt_ns((double)(e->end_ns - e->waking_ns), a, sizeof a);
		fprintf(out, "wake-up: the probe was woken %s before the marker; no switch to it "
			"follows in the trace\n", a);
	}
	for (size_t i = 0; i < e->nmig; i++) {
		units_fmt_ns((double)(e->end_ns - e->mig[i].ns), a, sizeof a);
		fprintf(out, "migration: the probe moved from CPU %d to CPU %d, %s before the marker\n",
			e->mig[i].from, e->mig[i].to, a);
	}
	const char *least = e->lost_unknown ? "at least " : "";
	if (e->lost)
		fprintf(out, "lost events: %s%" PRIu64 " in the trace\n", least, e->lost);
	if (e->lost_window)
		fprintf(out, "INCOMPLETE: %s%" PRIu64 " events were lost on the probe's CPU in the "
			"window: it cannot be fully explained\n", least, e->lost_window);
	if (e->switches_inferred)
		fprintf(out, "inferred: %lu switch%s out of idle on the probe's CPU that the trace "
			"does not have\n", e->switches_inferred,
			e->switches_inferred == 1 ? "" : "es");
}

void explain_steal_text(const struct explain *e, char *buf, size_t len)
{
	char a[32], b[32];
	if (!e->steal_known) {
		if (len)
			buf[0] = 0;
		return;
	}
	units_fmt_ns((double)e->steal_ns, a, sizeof a);
	units_fmt_ns((double)e->steal_span_ns, b, sizeof b);
	snprintf(buf, len, "steal: %s over the run's traced span of %s (CPU %d, /proc/stat)", a, b,
		 e->probe_cpu);
}

void explain_print(FILE *out, const struct explain *e)
{
	char h[1024], v[32], t[32], s[160], l[200], name[320];
	explain_headline(e, h, sizeof h);
	explain_task_name(e->probe_comm, e->probe_pid, name, sizeof name);
	termsafe_println(out, "%s", h);
	units_fmt_ns((double)e->value_ns, v, sizeof v);
	units_fmt_ns((double)e->trip_ns, t, sizeof t);
	explain_prio_text(e->probe_prio, l, sizeof l);
	termsafe_println(out, "breach: requirement %s, metric %s, %s > %s, run %lu (marker on line %zu)",
			 e->id, e->metric, v, t, e->run, e->marker_line);
	termsafe_println(out, "probe: %s (pid %ld, %s) on CPU %d; window: the %s before the marker",
			 name, e->probe_pid, l, e->probe_cpu, v);
	fprintf(out, "window: %" PRIu64 ".%09" PRIu64 " to %" PRIu64 ".%09" PRIu64
		" s of trace time\n", e->start_ns / 1000000000u, e->start_ns % 1000000000u,
		e->end_ns / 1000000000u, e->end_ns % 1000000000u);
	fprintf(out, "\n%10s  %5s  %5s  %s\n", "TIME", "SHARE", "COUNT", "COMPONENT");
	for (size_t i = 0; i < e->ncomp; i++) {
		const struct explain_component *c = &e->comp[i];
		units_fmt_ns((double)c->ns, t, sizeof t);
		explain_label(e, c, l, sizeof l);
		termsafe_println(out, "%10s  %4u%%  %5u  %s", t, share(e, c->ns), c->count, l);
	}
	units_fmt_ns((double)e->sum_ns, s, sizeof s);
	fprintf(out, "%10s  %4u%%         sum: %s the window (%s, tolerance %d ns)\n\n", s,
		share(e, e->sum_ns), e->adds_up ? "adds up to" : "DOES NOT add up to", v,
		EXPLAIN_TOLERANCE_NS);
	print_notes(out, e);
	explain_steal_text(e, s, sizeof s);
	if (*s)
		fprintf(out, "%s\n", s);
}

/* A JSON string of text from the trace, made valid UTF-8. */
static json_t *jstr(const char *s)
{
	char *v = utf8_valid_dup(s);
	json_t *j = v ? json_string(v) : NULL;
	free(v);
	return j ? j : json_null();
}

static json_t *component_json(const struct explain *e, const struct explain_component *c)
{
	char l[200], p[32];
	explain_label(e, c, l, sizeof l);
	json_t *o = json_pack("{s:s, s:o, s:I, s:f, s:I}", "kind", explain_kind_name(c->kind),
			      "label", jstr(l), "ns", (json_int_t)c->ns,
			      "share", explain_share(e, c->ns),
			      "count", (json_int_t)c->count);
	if (!o)
		return NULL;
	if (c->kind == EXPLAIN_IRQ || c->kind == EXPLAIN_SOFTIRQ) {
		json_object_set_new(o, c->kind == EXPLAIN_IRQ ? "irq" : "vec", json_integer(c->id));
		json_object_set_new(o, "name", jstr(c->name));
	} else if (c->kind == EXPLAIN_IDLE_EXIT) {
		json_object_set_new(o, "state", json_integer(c->id));
	} else if (c->kind == EXPLAIN_TASK) {
		explain_prio_text(c->prio, p, sizeof p);
		json_object_set_new(o, "comm", jstr(c->name));
		json_object_set_new(o, "pid", json_integer(c->id));
		json_object_set_new(o, "prio", c->prio == EXPLAIN_PRIO_UNKNOWN ? json_null()
									    : json_integer(c->prio));
		json_object_set_new(o, "priority", json_string(p));
		json_object_set_new(o, "class", json_string(explain_class_name(c->cls)));
	}
	return o;
}

static json_t *extras_json(const struct explain *e, json_t *o)
{
	json_t *mig = json_array();
	for (size_t i = 0; i < e->nmig; i++)
		json_array_append_new(mig, json_pack("{s:I, s:i, s:i}", "before_marker_ns",
						     (json_int_t)(e->end_ns - e->mig[i].ns),
						     "from", e->mig[i].from, "to", e->mig[i].to));
	json_object_set_new(o, "migrations", mig);
	json_object_set_new(o, "lost_events", json_integer((json_int_t)e->lost));
	json_object_set_new(o, "lost_events_unknown", json_boolean(e->lost_unknown));
	json_object_set_new(o, "lost_in_window", json_integer((json_int_t)e->lost_window));
	json_object_set_new(o, "complete", json_boolean(e->lost_window == 0));
	json_object_set_new(o, "switches_inferred",
			    json_integer((json_int_t)e->switches_inferred));
	if (e->steal_known)
		json_object_set_new(o, "steal", json_pack("{s:I, s:I}", "ns", (json_int_t)e->steal_ns,
							  "span_ns", (json_int_t)e->steal_span_ns));
	if (e->woken)
		json_object_set_new(o, "wakeup", json_pack("{s:I, s:o}", "before_marker_ns",
			(json_int_t)(e->end_ns - e->waking_ns), "to_run_ns",
			e->ran ? json_integer((json_int_t)(e->run_ns - e->waking_ns)) : json_null()));
	return o;
}

double explain_share(const struct explain *e, uint64_t ns)
{
	return e->end_ns > e->start_ns ? (double)ns / (double)(e->end_ns - e->start_ns) : 0.0;
}

void *explain_json_tree(const struct explain *e)
{
	char h[1024], p[32];
	explain_headline(e, h, sizeof h);
	explain_prio_text(e->probe_prio, p, sizeof p);
	json_t *comps = json_array();
	for (size_t i = 0; comps && i < e->ncomp; i++)
		json_array_append_new(comps, component_json(e, &e->comp[i]));
	json_t *o = json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:{s:I, s:o, s:i, s:s}, "
			      "s:{s:I, s:I, s:I}, s:o, s:I, s:b, s:I}",
			      "headline", jstr(h), "requirement", jstr(e->id), "metric", jstr(e->metric),
			      "value_ns", (json_int_t)e->value_ns, "trip_ns", (json_int_t)e->trip_ns,
			      "run", (json_int_t)e->run, "marker_line", (json_int_t)e->marker_line,
			      "probe", "pid", (json_int_t)e->probe_pid, "comm", jstr(e->probe_comm),
			      "cpu", e->probe_cpu, "priority", p,
			      "window", "start_ns", (json_int_t)e->start_ns, "end_ns",
			      (json_int_t)e->end_ns, "ns", (json_int_t)(e->end_ns - e->start_ns),
			      "components", comps, "sum_ns",
			      (json_int_t)e->sum_ns, "adds_up", e->adds_up, "tolerance_ns",
			      (json_int_t)EXPLAIN_TOLERANCE_NS);
	if (!o)
		return NULL;
	json_object_set_new(json_object_get(o, "probe"), "prio",
			    e->probe_prio == EXPLAIN_PRIO_UNKNOWN ? json_null()
								  : json_integer(e->probe_prio));
	return extras_json(e, o);
}

char *explain_json(const struct explain *e)
{
	json_t *o = explain_json_tree(e);
	if (!o)
		return NULL;
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(o);
	return s;
}
