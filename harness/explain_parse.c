/* SPDX-License-Identifier: Apache-2.0 */
/* explain_parse.c - one line of tracefs's text output read into a struct
 * xev (explain_event.h). The form, as tracefs prints it:
 *
 *       comm-pid     [cpu] flags  sec.usec: event: fields
 *
 * where comm may hold '-' and spaces (the pid is the digits after the last
 * '-' before the CPU), a "(tgid)" column may come before the CPU (the
 * record-tgid option), the flags column may be missing (the irq-info
 * option off) and the time may have 1 to 9 decimals. Lines beginning with
 * '#' are comments; "CPU:N [LOST n EVENTS]" says events were lost there.
 * The fields of the events used are read by name; a comm in them ends
 * where the next field's name begins, so a comm with spaces reads whole. */
#include "harness/explain_event.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/termsafe.h"

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The text s[0..n) escaped into buf, cut at 60 bytes, for a message. */
static const char *shown(const char *s, size_t n, char *buf, size_t len)
{
	char raw[64];
	size_t k = n < sizeof raw - 4 ? n : sizeof raw - 4;
	memcpy(raw, s, k);
	strcpy(raw + k, n > k ? "..." : "");
	return termsafe_escape(raw, buf, len);
}

/* A decimal number (optionally negative) at s, up to a space or the end;
 * *end after it. False when there is none or it is out of range. */
static bool read_long(const char *s, long lo, long hi, long *out, const char **end)
{
	bool neg = *s == '-';
	const char *p = s + neg;
	if (!isdigit((unsigned char)*p))
		return false;
	long v = 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (hi > -lo ? hi : -lo) / 10)
			return false;
		v = v * 10 + (*p - '0');
	}
	if (*p && *p != ' ')
		return false;
	v = neg ? -v : v;
	if (v < lo || v > hi)
		return false;
	*out = v;
	if (end)
		*end = p;
	return true;
}

/* Where field key ("pid=") begins in fields: at the start or after a
 * space; NULL when absent. */
static const char *find_key(const char *fields, const char *key)
{
	for (const char *p = fields; (p = strstr(p, key)); p++)
		if (p == fields || p[-1] == ' ')
			return p;
	return NULL;
}

/* The value of field key as text up to the next space (with until, up to
 * where field `until` begins, for a comm; with until "", the rest of the
 * line), into buf. */
static int text_field(const char *fields, const char *key, const char *until, char *buf,
		      size_t len, char *err, size_t elen)
{
	const char *p = find_key(fields, key);
	if (!p)
		return fail(err, elen, "no %.*s field", (int)strlen(key) - 1, key);
	p += strlen(key);
	const char *e = until && *until ? find_key(p, until) : NULL;
	size_t n = e ? (size_t)(e - p) : strcspn(p, until ? "" : " ");
	if (e && n) /* the space before `until` */
		n--;
	if (n >= len) {
		char sb[256];
		return fail(err, elen, "%.*s '%s' is longer than %zu bytes", (int)strlen(key) - 1, key,
			    shown(p, n, sb, sizeof sb), len - 1);
	}
	memcpy(buf, p, n);
	buf[n] = 0;
	return 0;
}

static int num_field(const char *fields, const char *key, long lo, long hi, long *out,
		     char *err, size_t elen)
{
	const char *p = find_key(fields, key);
	int klen = (int)strlen(key) - 1; /* the name without its '=' */
	if (!p)
		return fail(err, elen, "no %.*s field", klen, key);
	p += strlen(key);
	if (!read_long(p, lo, hi, out, NULL)) {
		char sb[256];
		return fail(err, elen, "%.*s '%s' is not a number in %ld..%ld", klen, key,
			    shown(p, strcspn(p, " "), sb, sizeof sb), lo, hi);
	}
	return 0;
}

#define PRIO_LO (-1L)
#define PRIO_HI 139L

static int int_field(const char *f, const char *key, long lo, long hi, int *out, char *err,
		     size_t elen)
{
	long v;
	if (num_field(f, key, lo, hi, &v, err, elen))
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_switch(const char *f, struct xev *ev, char *err, size_t elen)
{
	char state[16];
	if (num_field(f, "prev_pid=", 0, 1L << 30, &ev->prev_pid, err, elen) ||
	    int_field(f, "prev_prio=", PRIO_LO, PRIO_HI, &ev->prev_prio, err, elen) ||
	    text_field(f, "prev_state=", NULL, state, sizeof state, err, elen) ||
	    text_field(f, "next_comm=", "next_pid=", ev->name, sizeof ev->name, err, elen) ||
	    num_field(f, "next_pid=", 0, 1L << 30, &ev->pid2, err, elen) ||
	    int_field(f, "next_prio=", PRIO_LO, PRIO_HI, &ev->prio2, err, elen))
		return -1;
	ev->prev_runnable = state[0] == 'R';
	ev->type = XE_SWITCH;
	return 0;
}

static int parse_task_event(const char *f, struct xev *ev, enum xev_type t, char *err,
			    size_t elen)
{
	if (text_field(f, "comm=", "pid=", ev->name, sizeof ev->name, err, elen) ||
	    num_field(f, "pid=", 0, 1L << 30, &ev->pid2, err, elen) ||
	    int_field(f, "prio=", PRIO_LO, PRIO_HI, &ev->prio2, err, elen))
		return -1;
	ev->cpu2 = ev->cpu3 = -1;
	const char *cpu_key = t == XE_MIGRATE ? "dest_cpu=" : "target_cpu=";
	if (find_key(f, cpu_key) &&
	    int_field(f, cpu_key, 0, EXPLAIN_CPU_MAX, &ev->cpu2, err, elen))
		return -1;
	if (t == XE_MIGRATE && int_field(f, "orig_cpu=", 0, EXPLAIN_CPU_MAX, &ev->cpu3, err, elen))
		return -1;
	if (t == XE_MIGRATE && ev->cpu2 < 0)
		return fail(err, elen, "no dest_cpu field");
	ev->type = t;
	return 0;
}

static int parse_irq(const char *f, struct xev *ev, enum xev_type t, char *err, size_t elen)
{
	if (num_field(f, "irq=", 0, 1L << 30, &ev->id, err, elen))
		return -1;
	ev->name[0] = 0;
	if (t == XE_IRQ_IN && text_field(f, "name=", "", ev->name, sizeof ev->name, err, elen))
		return -1;
	ev->type = t;
	return 0;
}

static int parse_softirq(const char *f, struct xev *ev, enum xev_type t, char *err, size_t elen)
{
	if (num_field(f, "vec=", 0, 1L << 20, &ev->id, err, elen))
		return -1;
	const char *a = strstr(f, "[action=");
	if (a) {
		a += strlen("[action=");
		size_t n = strcspn(a, "]");
		if (n >= sizeof ev->name || !a[n]) {
			char sb[256];
			return fail(err, elen, "softirq action '%s' has no ']' within %zu bytes",
				    shown(a, n, sb, sizeof sb), sizeof ev->name - 1);
		}
		memcpy(ev->name, a, n);
		ev->name[n] = 0;
	} else {
		snprintf(ev->name, sizeof ev->name, "vec %ld", ev->id);
	}
	ev->type = t;
	return 0;
}

static int parse_timer(const char *f, struct xev *ev, enum xev_type t, char *err, size_t elen)
{
	if (find_key(f, "vector=") && num_field(f, "vector=", 0, 1L << 20, &ev->id, err, elen))
		return -1;
	ev->type = t;
	return 0;
}

/* The marker's number after `key` (" value "), then `after` (" ns > ")
 * must follow. */
static int marker_num(const char **p, const char *key, const char *after, uint64_t *out,
		      char *err, size_t elen)
{
	char sb[256];
	if (strncmp(*p, key, strlen(key)) != 0)
		return fail(err, elen, "breach marker: '%s' where '%s' was expected",
			    shown(*p, strlen(*p), sb, sizeof sb), key + 1);
	*p += strlen(key);
	const char *s = *p;
	uint64_t v = 0;
	while (isdigit((unsigned char)**p)) {
		if (v > UINT64_MAX / 10 / 1000)
			return fail(err, elen, "breach marker: %s'%s' is too large", key + 1,
				    shown(s, strspn(s, "0123456789"), sb, sizeof sb));
		v = v * 10 + (uint64_t)(*(*p)++ - '0');
	}
	if (*p == s || strncmp(*p, after, strlen(after)) != 0)
		return fail(err, elen, "breach marker: %s'%s' is not a number followed by '%s'",
			    key + 1, shown(s, strcspn(s, " "), sb, sizeof sb), after);
	*out = v;
	return 0;
}

/* "rtconform breach: requirement ID metric NAME value V ns > T ns run R" */
static int parse_marker(const char *f, struct xev *ev, char *err, size_t elen)
{
	char sb[256];
	const char *p = f + strlen("rtconform breach: ");
	if (strncmp(p, "requirement ", 12) != 0)
		return fail(err, elen, "breach marker: no 'requirement' in '%s'",
			    shown(f, strlen(f), sb, sizeof sb));
	p += 12;
	const char *m = strstr(p, " metric "), *v = m ? strstr(m + 8, " value ") : NULL;
	if (!m || !v || m == p || v == m + 8)
		return fail(err, elen, "breach marker: no 'ID metric NAME value' in '%s'",
			    shown(f, strlen(f), sb, sizeof sb));
	if ((size_t)(m - p) >= sizeof ev->id_text || (size_t)(v - m - 8) >= sizeof ev->metric)
		return fail(err, elen, "breach marker: requirement id or metric longer than %zu bytes",
			    sizeof ev->id_text - 1);
	memcpy(ev->id_text, p, (size_t)(m - p));
	ev->id_text[m - p] = 0;
	memcpy(ev->metric, m + 8, (size_t)(v - m - 8));
	ev->metric[v - m - 8] = 0;
	uint64_t run;
	p = v;
	if (marker_num(&p, " value ", " ns > ", &ev->value_ns, err, elen) ||
	    marker_num(&p, " ns > ", " ns run ", &ev->trip_ns, err, elen))
		return -1;
	p += strlen(" ns");
	if (marker_num(&p, " run ", "", &run, err, elen))
		return -1;
	if (p[strspn(p, " ")])
		return fail(err, elen, "breach marker: '%s' after the run number",
			    shown(p, strlen(p), sb, sizeof sb));
	if (ev->value_ns == 0)
		return fail(err, elen, "breach marker: value 0 ns: no breach to explain");
	ev->run = (unsigned long)run;
	ev->type = XE_MARKER;
	return 0;
}

static const struct {
	const char *name;
	enum xev_type type;
} events[] = {
	{ "sched_switch", XE_SWITCH },        { "sched_waking", XE_WAKING },
	{ "sched_wakeup", XE_WAKEUP },        { "sched_wakeup_new", XE_WAKEUP },
	{ "sched_migrate_task", XE_MIGRATE }, { "irq_handler_entry", XE_IRQ_IN },
	{ "irq_handler_exit", XE_IRQ_OUT },   { "softirq_entry", XE_SOFT_IN },
	{ "softirq_exit", XE_SOFT_OUT },      { "local_timer_entry", XE_TIMER_IN },
	{ "local_timer_exit", XE_TIMER_OUT }, { "cpu_idle", XE_IDLE },
};

/* power:cpu_idle: "state=N cpu_id=C"; state 4294967295 (PWR_EVENT_EXIT,
 * -1 as a u32) is the exit from the idle state. */
static int parse_idle(const char *f, struct xev *ev, char *err, size_t elen)
{
	long v;
	if (num_field(f, "state=", 0, 4294967295L, &v, err, elen))
		return -1;
	ev->id = v == 4294967295L ? -1 : v;
	ev->type = XE_IDLE;
	return 0;
}

static int parse_event(const char *name, size_t nlen, const char *f, struct xev *ev,
		       char *err, size_t elen)
{
	if (nlen == strlen("tracing_mark_write") && !strncmp(name, "tracing_mark_write", nlen)) {
		if (!strncmp(f, "rtconform breach: ", 18))
			return parse_marker(f, ev, err, elen);
		ev->type = XE_OTHER;
		return 0;
	}
	enum xev_type t = XE_OTHER;
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		if (strlen(events[i].name) == nlen && !strncmp(name, events[i].name, nlen))
			t = events[i].type;
	switch (t) {
	case XE_SWITCH:
		return parse_switch(f, ev, err, elen);
	case XE_WAKING: case XE_WAKEUP: case XE_MIGRATE:
		return parse_task_event(f, ev, t, err, elen);
	case XE_IRQ_IN: case XE_IRQ_OUT:
		return parse_irq(f, ev, t, err, elen);
	case XE_SOFT_IN: case XE_SOFT_OUT:
		return parse_softirq(f, ev, t, err, elen);
	case XE_TIMER_IN: case XE_TIMER_OUT:
		return parse_timer(f, ev, t, err, elen);
	case XE_IDLE:
		return parse_idle(f, ev, err, elen);
	default:
		ev->type = XE_OTHER;
		return 0;
	}
}

/* "CPU:N [LOST n EVENTS]" (or "[LOST EVENTS]"). */
static int parse_lost(const char *line, struct xev *ev, char *err, size_t elen)
{
	char sb[256];
	long cpu, n = 0;
	const char *p;
	if (!read_long(line + 4, 0, EXPLAIN_CPU_MAX, &cpu, &p) || strncmp(p, " [LOST ", 7))
		return fail(err, elen, "not a lost-events line: '%s'",
			    shown(line, strlen(line), sb, sizeof sb));
	p += 7;
	ev->lost_counted = isdigit((unsigned char)*p);
	if (ev->lost_counted && !read_long(p, 0, 1L << 62, &n, &p))
		return fail(err, elen, "lost-events count '%s' is not a number",
			    shown(p, strcspn(p, " "), sb, sizeof sb));
	if (ev->lost_counted && *p == ' ')
		p++;
	if (strncmp(p, "EVENTS]", 7) || p[7 + strspn(p + 7, " ")])
		return fail(err, elen, "not a lost-events line: '%s'",
			    shown(line, strlen(line), sb, sizeof sb));
	ev->type = XE_LOST;
	ev->cpu = (int)cpu;
	ev->lost = ev->lost_counted ? (uint64_t)n : 1; /* at least one */
	return 0;
}

/* The time "sec.frac:" at *p in ns; *p after the ':'. */
static int parse_time(const char **p, uint64_t *ns, char *err, size_t elen)
{
	char sb[256];
	const char *s = *p, *q = s;
	uint64_t sec = 0, frac = 0;
	int digits = 0;
	while (isdigit((unsigned char)*q) && q - s < 10) /* 10^10 s of ns fit in 64 bits */
		sec = sec * 10 + (uint64_t)(*q++ - '0');
	if (q == s || *q != '.')
		goto bad;
	for (q++; isdigit((unsigned char)*q) && digits < 9; q++, digits++)
		frac = frac * 10 + (uint64_t)(*q - '0');
	if (!digits || *q != ':')
		goto bad;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	*p = q + 1;
	return 0;
bad:
	return fail(err, elen, "timestamp '%s' is not seconds.fraction followed by ':'",
		    shown(s, strcspn(s, " "), sb, sizeof sb));
}

/* Whether the word at p is a time, "digits.digits:". */
static bool is_time(const char *p)
{
	size_t a = strspn(p, "0123456789");
	if (!a || p[a] != '.')
		return false;
	size_t b = strspn(p + a + 1, "0123456789");
	return b && p[a + 1 + b] == ':';
}

/* "comm-pid   [cpu]": the CPU column is the first " [digits]"; the pid
 * the digits after the last '-' before it. */
static int parse_task_cpu(const char *line, struct xev *ev, const char **rest, char *err,
			  size_t elen)
{
	char sb[256];
	const char *b = line;
	for (; (b = strstr(b, " [")); b++) {
		size_t d = strspn(b + 2, "0123456789");
		if (d && b[2 + d] == ']')
			break;
	}
	if (!b)
		return fail(err, elen, "not a trace line (no [CPU] column): '%s'",
			    shown(line, strlen(line), sb, sizeof sb));
	const char *e = b;
	while (e > line && e[-1] == ' ')
		e--;
	if (e > line && e[-1] == ')') { /* "(tgid)" of the record-tgid option */
		const char *o = e - 1;
		while (o > line && o[-1] != '(')
			o--;
		if (o > line && strspn(o, "0123456789- ") == (size_t)(e - 1 - o))
			for (e = o - 1; e > line && e[-1] == ' '; e--)
				;
	}
	const char *dash = e;
	while (dash > line && isdigit((unsigned char)dash[-1]))
		dash--;
	if (dash == e || dash == line || dash[-1] != '-')
		return fail(err, elen, "not a trace line (no task-PID before the CPU): '%s'",
			    shown(line, strlen(line), sb, sizeof sb));
	long pid, cpu;
	if (!read_long(dash, 0, 1L << 30, &pid, NULL))
		return fail(err, elen, "pid '%s' is out of range",
			    shown(dash, (size_t)(e - dash), sb, sizeof sb));
	const char *c = line + strspn(line, " ");
	size_t clen = (size_t)(dash - 1 - c);
	if (dash - 1 < c)
		clen = 0;
	if (clen >= sizeof ev->comm)
		return fail(err, elen, "task name '%s' is longer than %zu bytes",
			    shown(c, clen, sb, sizeof sb), sizeof ev->comm - 1);
	memcpy(ev->comm, c, clen);
	ev->comm[clen] = 0;
	size_t nd = strspn(b + 2, "0123456789");
	cpu = 0;
	for (size_t i = 0; i < nd && i < 7; i++)
		cpu = cpu * 10 + (b[2 + i] - '0');
	if (nd > 6 || cpu > EXPLAIN_CPU_MAX)
		return fail(err, elen, "CPU '%s' is above %d",
			    shown(b + 2, strspn(b + 2, "0123456789"), sb, sizeof sb), EXPLAIN_CPU_MAX);
	ev->pid = pid;
	ev->cpu = (int)cpu;
	*rest = strchr(b, ']') + 1;
	return 0;
}

int explain_parse_line(const char *line, struct xev *ev, char *err, size_t elen)
{
	memset(ev, 0, offsetof(struct xev, id_text));
	ev->type = XE_SKIP;
	const char *s = line + strspn(line, " \t");
	if (!*s || *s == '#')
		return 0;
	if (!strncmp(s, "CPU:", 4))
		return parse_lost(s, ev, err, elen);
	const char *p = line;
	if (parse_task_cpu(line, ev, &p, err, elen))
		return -1;
	p += strspn(p, " ");
	if (!is_time(p)) { /* the flags column */
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	if (parse_time(&p, &ev->ns, err, elen))
		return -1;
	p += strspn(p, " ");
	size_t nlen = strcspn(p, ": ");
	if (!nlen || p[nlen] != ':') {
		char sb[256];
		return fail(err, elen, "no 'event:' after the time: '%s'",
			    shown(p, strlen(p), sb, sizeof sb));
	}
	const char *f = p + nlen + 1;
	f += strspn(f, " ");
	return parse_event(p, nlen, f, ev, err, elen);
}
