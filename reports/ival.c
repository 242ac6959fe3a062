/* SPDX-License-Identifier: Apache-2.0 */
/* ival.c - the rules the reports share for a requirement's intervals; see
 * ival.h. */
#include "reports/ival.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/units.h"
#include "base/utc.h"
#include "harness/plan.h"
#include "reports/trend.h"

void rv_fmt_utc_ms(int64_t ms, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (ms <= 0 || !utc_fmt(ms / 1000, false, buf, len))
		return;
	size_t n = strlen(buf);
	snprintf(buf + n, len - n, ".%03dZ", (int)(ms % 1000));
}

void rv_fmt_span(double seconds, char *buf, size_t len)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = { { "d", 86400 }, { "h", 3600 }, { "min", 60 }, { "s", 1 } };
	size_t i = 0;
	while (i + 1 < sizeof units / sizeof units[0] && seconds < units[i].s)
		i++;
	double v = seconds / units[i].s;
	snprintf(buf, len, v >= 10 ? "%.0f %s" : "%.2g %s", v, units[i].unit);
}

double rv_ivals_length(const struct rv_ival *iv, size_t n)
{
	if (!n)
		return 0;
	if (n == 1)
		return iv[0].seconds;
	double s = iv[0].seconds;
	for (size_t i = 1; i + 1 < n; i++)
		s = fmin(s, iv[i].seconds);
	return s;
}

double rv_metric_span_s(const struct rv_req *r, const struct rv_metric *m)
{
	if (!m->nintervals)
		return r->seconds;
	double s = 0;
	for (size_t k = 0; k < m->nintervals; k++)
		s += m->intervals[k].seconds;
	return s;
}

struct units_scale rv_metric_scale(const struct rv_metric *m)
{
	double big = 0, npu = m->ns_per_unit > 0 ? m->ns_per_unit : 1.0;
	for (int i = 0; i < RV_NSTATS; i++)
		if (m->ns[i].have && fabs(m->ns[i].v) > big)
			big = fabs(m->ns[i].v);
	if (m->nbuckets && (double)m->buckets[m->nbuckets - 1].hi * npu > big)
		big = (double)m->buckets[m->nbuckets - 1].hi * npu;
	if ((m->overflow || m->neg.overflow) && (double)m->highest * npu > big)
		big = (double)m->highest * npu;
	return units_scale_of(big);
}

void rv_max_observed(const struct rv_req *r, const struct rv_metric *m, char *buf, size_t len)
{
	char n[32], t[24];
	plan_fmt_count(m->count, n, sizeof n);
	rv_fmt_span(rv_metric_span_s(r, m), t, sizeof t);
	snprintf(buf, len, "largest observed in %s sample%s over %s", n, m->count == 1 ? "" : "s",
		 t);
}

bool rv_ivals_trend(const struct rv_ival *iv, size_t n, struct trend *t, size_t *last)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		m += iv[k].ns[RV_MAX].have;
	if (m < 2)
		return false;
	double *a = malloc(3 * m * sizeof *a);
	size_t *at = malloc(m * sizeof *at);
	bool ok = a && at;
	if (ok) {
		double *start = a, *end = a + m, *max = a + 2 * m;
		size_t j = 0;
		for (size_t k = 0; k < n; k++) {
			if (!iv[k].ns[RV_MAX].have)
				continue;
			/* seconds from the first interval: ms since the epoch would
			 * lose the fraction of a short interval in a double's sum */
			start[j] = (double)(iv[k].start_ms - iv[0].start_ms) / 1000.0;
			end[j] = start[j] + iv[k].seconds;
			max[j] = iv[k].ns[RV_MAX].v;
			at[j++] = k;
		}
		ok = trend_of(start, end, max, m, t);
		if (ok)
			*last = at[t->last_record];
	}
	free(a);
	free(at);
	return ok;
}

int rv_stat_index(const char *s)
{
	for (int i = 0; i < RV_NSTATS; i++)
		if (strcmp(report_view_stats[i], s) == 0)
			return i;
	return -1;
}

bool rv_limit_bound_ns(const struct rv_limit *l, const struct rv_metric *m, bool upper,
		       double *ns)
{
	if (upper ? !l->has_max : !l->has_min)
		return false;
	const struct quantity *q = upper ? &l->max : &l->min;
	double v = q->value;
	if (q->unit == QTY_COUNT)
		return false;
	if (q->unit == QTY_CYCLES) {
		if (!(m->cycles_per_unit > 0))
			return false;
		v = q->value * m->ns_per_unit / m->cycles_per_unit;
	}
	if (!(v > 0) || !isfinite(v))
		return false;
	*ns = v;
	return true;
}

bool rv_ival_beyond(const struct rv_limit *l, const struct rv_metric *m, const struct rv_ival *iv)
{
	if (!l->metric || strcmp(l->metric, m->name) != 0)
		return false;
	int k = rv_stat_index(l->statistic);
	if (k < 0 || !iv->ns[k].have)
		return false;
	double v = iv->ns[k].v, b;
	if (rv_limit_bound_ns(l, m, true, &b) && v > b)
		return true;
	return rv_limit_bound_ns(l, m, false, &b) && v < b;
}

size_t rv_ival_breach(const struct rv_req *r, const struct rv_metric *m, const struct rv_ival *iv)
{
	for (size_t i = 0; i < r->nlimits; i++)
		if (rv_ival_beyond(&r->limits[i], m, iv))
			return i;
	return SIZE_MAX;
}

bool rv_ival_stat_beyond(const struct rv_req *r, const struct rv_metric *m,
			 const struct rv_ival *iv, int stat)
{
	for (size_t i = 0; i < r->nlimits; i++)
		if (rv_stat_index(r->limits[i].statistic) == stat &&
		    rv_ival_beyond(&r->limits[i], m, iv))
			return true;
	return false;
}

/* The metric, sample and trip a trace note names: "trace: tripped by
 * METRIC VALUE UNIT > TRIP UNIT in run N" (harness/trace.c writes it so). */
static bool trace_trip(const char *note, char *metric, size_t mlen, double *value_ns,
		       double *trip_ns)
{
	static const char head[] = "trace: tripped by ";
	char name[64], v[32], vu[16], t[32], tu[16], text[64];
	unsigned run;
	if (!note || strncmp(note, head, sizeof head - 1) != 0)
		return false;
	if (sscanf(note + sizeof head - 1, "%63s %31s %15s > %31s %15s in run %u", name, v, vu, t,
		   tu, &run) != 6)
		return false;
	struct quantity q, qv;
	char err[160];
	snprintf(text, sizeof text, "%s %s", t, tu);
	if (units_qty_parse(text, false, &q, err, sizeof err) != 0 || q.unit != QTY_NS)
		return false;
	snprintf(text, sizeof text, "%s %s", v, vu);
	if (units_qty_parse(text, false, &qv, err, sizeof err) != 0 || qv.unit != QTY_NS)
		qv.value = q.value;
	snprintf(metric, mlen, "%s", name);
	*trip_ns = q.value;
	*value_ns = qv.value;
	return true;
}

bool rv_trace_sample(const char *note, char *buf, size_t len)
{
	char metric[64];
	double v, trip;
	const char *run = note ? strstr(note, " in run ") : NULL;
	if (!trace_trip(note, metric, sizeof metric, &v, &trip) || !run)
		return false;
	run += 1;
	/* up to the explanation or the marker's failure, which follow "; " */
	size_t n = strlen(run);
	static const char *const ends[] = { "; explained: ", "; not explained: ",
					    "; the marker could not be written: " };
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		const char *e = strstr(run, ends[i]);
		if (e && (size_t)(e - run) < n)
			n = (size_t)(e - run);
	}
	/* a note of a run before the worst breach was kept has no rank: nothing */
	unsigned k;
	int used = 0;
	if (sscanf(run, "in run %u%n", &k, &used) != 1 || used <= 0)
		return false;
	const char *tail = run + used;
	if (strncmp(tail, " (sample ", 9) != 0 && strncmp(tail, ": ", 2) != 0)
		return false;
	snprintf(buf, len, "%s %.*s", metric, (int)n, run);
	return true;
}

/* The note gives the sample to 4 significant digits (units_fmt_ns). */
#define NOTE_ROUNDING 1e-3

size_t rv_ival_traced(const struct rv_req *r, const struct rv_metric *m, double *trip_ns)
{
	char metric[64];
	double trip, value;
	if (trip_ns)
		*trip_ns = 0;
	if (!r->trace || !trace_trip(r->trace_note, metric, sizeof metric, &value, &trip) ||
	    strcmp(metric, m->name) != 0)
		return SIZE_MAX;
	if (trip_ns)
		*trip_ns = trip;
	/* the trace is of the largest breach its budget reached: the first
	 * interval holding a sample that large (none before held a larger) */
	double at_least = value * (1 - NOTE_ROUNDING);
	for (size_t i = 0; i < m->nintervals; i++)
		if (m->intervals[i].ns[RV_MAX].have && m->intervals[i].ns[RV_MAX].v > trip &&
		    m->intervals[i].ns[RV_MAX].v >= at_least)
			return i;
	return SIZE_MAX;
}
