/* SPDX-License-Identifier: Apache-2.0 */
/* live.c - the figures so far of a running worker; see live.h. */
#include "harness/live.h"

#include <stdio.h>

#include "base/units.h"

/* The part of a histogram the live view needs, read once (volatile: the
 * worker changes it under us). A sample read between the worker's count
 * increment and its min store would show min UINT64_MAX: it is the max. */
static void copy_head(const struct hist *h, struct hist *out)
{
	const volatile struct hist *v = h;
	out->count = v->count;
	out->sum = v->sum;
	out->min = v->min;
	out->max = v->max;
	if (out->count && out->min > out->max)
		out->min = out->max;
}

/* Metric m's figures so far into f (name and cpu are the caller's). */
static void fig_of(const struct metric_data *m, struct live_fig *f)
{
	const volatile struct metric_data *vm = m;
	f->count = vm->kind == METRIC_COUNT;
	double scale = f->count ? 1.0 : vm->ns_per_unit;
	struct hist pos, neg;
	const struct hist *nh = metric_neg_c(m);
	copy_head(&m->hist, &pos);
	if (nh)
		copy_head(nh, &neg);
	f->n = pos.count + (nh ? neg.count : 0);
	if (!f->n || !(scale > 0)) {
		f->n = 0; /* nothing yet, or no scale to show it in */
		f->min = f->cur = f->mean = f->max = 0;
		return;
	}
	f->min = (double)hist_signed_min(&pos, nh ? &neg : NULL) * scale;
	f->max = (double)hist_signed_max(&pos, nh ? &neg : NULL) * scale;
	f->mean = hist_signed_mean(&pos, nh ? &neg : NULL) * scale;
	f->cur = (double)__atomic_load_n(&m->last, __ATOMIC_RELAXED) * scale;
}

size_t live_snapshot(const struct result_shm *res, const struct probe *p,
		     struct live_fig *figs, size_t max)
{
	size_t n = 0;
	uint32_t nm = res->nmetrics;
	/* The probe says how many series it uses once it knows its CPUs. */
	uint32_t ns = p->per_cpu_series ? __atomic_load_n(&res->nseries, __ATOMIC_RELAXED) : 0;
	if (ns > res->nseries_alloc)
		ns = res->nseries_alloc;
	for (uint32_t i = 0; i < nm; i++) {
		const struct probe_metric *pm = probe_decl_metric(&p->decl, i);
		const char *name = pm ? pm->name : "?";
		uint32_t lines = i == 0 && ns ? ns : 1;
		for (uint32_t s = 0; s < lines; s++, n++) {
			if (n >= max)
				continue; /* counted, not shown */
			figs[n] = (struct live_fig){ .name = name, .cpu = -1 };
			if (i == 0 && ns) {
				int32_t cpu = res->series_cpu[s];
				figs[n].cpu = cpu;
				fig_of(result_metric_c(res, nm + s), &figs[n]);
			} else {
				fig_of(result_metric_c(res, i), &figs[n]);
			}
		}
	}
	return n;
}

/* The samples of metric m so far (0: a count, or no scale yet). */
static uint64_t samples_of(const struct metric_data *m)
{
	struct live_fig f;
	fig_of(m, &f);
	return f.count ? 0 : f.n;
}

uint64_t live_metric_samples(const struct result_shm *res, const struct probe *p, uint32_t i)
{
	if (i >= res->nmetrics)
		return 0;
	uint32_t ns = p->per_cpu_series ? __atomic_load_n(&res->nseries, __ATOMIC_RELAXED) : 0;
	if (ns > res->nseries_alloc)
		ns = res->nseries_alloc;
	if (i != 0 || !ns)
		return samples_of(result_metric_c(res, i));
	uint64_t n = 0;
	for (uint32_t s = 0; s < ns; s++)
		n += samples_of(result_metric_c(res, res->nmetrics + s));
	return n;
}

uint64_t live_metric_samples_each_cpu(const struct result_shm *res, const struct probe *p,
				      uint32_t i)
{
	if (i >= res->nmetrics || i != 0 || !p->per_cpu_series)
		return live_metric_samples(res, p, i);
	uint32_t ns = __atomic_load_n(&res->nseries, __ATOMIC_RELAXED);
	if (ns > res->nseries_alloc)
		ns = res->nseries_alloc;
	uint64_t least = 0;
	for (uint32_t s = 0; s < ns; s++) {
		uint64_t n = samples_of(result_metric_c(res, res->nmetrics + s));
		if (s == 0 || n < least)
			least = n;
	}
	return least;
}

bool live_metric_fig(const struct result_shm *res, const struct probe *p, uint32_t i,
		     struct live_fig *f)
{
	if (i >= res->nmetrics)
		return false;
	const struct probe_metric *pm = probe_decl_metric(&p->decl, i);
	*f = (struct live_fig){ .name = pm ? pm->name : "?", .cpu = -1 };
	uint32_t ns = p->per_cpu_series ? __atomic_load_n(&res->nseries, __ATOMIC_RELAXED) : 0;
	if (ns > res->nseries_alloc)
		ns = res->nseries_alloc;
	if (i != 0 || !ns) {
		fig_of(result_metric_c(res, i), f);
		return true;
	}
	double sum = 0;
	for (uint32_t s = 0; s < ns; s++) {
		struct live_fig one;
		fig_of(result_metric_c(res, res->nmetrics + s), &one);
		if (!one.n)
			continue;
		f->min = f->n ? (one.min < f->min ? one.min : f->min) : one.min;
		f->max = f->n ? (one.max > f->max ? one.max : f->max) : one.max;
		f->count = one.count;
		f->cur = one.cur;
		f->n += one.n;
		sum += one.mean * (double)one.n;
	}
	f->mean = f->n ? sum / (double)f->n : 0;
	return true;
}

/* Part of run `run` metric m has: its samples in it against run 0's (once
 * run 0 ended) or `iterations`, at most 1. */
static double part_of(const struct metric_data *m, uint32_t run, uint64_t iterations)
{
	uint64_t n = __atomic_load_n(&m->runs[run].count, __ATOMIC_RELAXED);
	uint64_t whole = iterations;
	if (run > 0) {
		uint64_t first = __atomic_load_n(&m->runs[0].count, __ATOMIC_RELAXED);
		if (first)
			whole = first;
	}
	if (!whole)
		return 0;
	return n >= whole ? 1.0 : (double)n / (double)whole;
}

double live_run_part(const struct result_shm *res, const struct probe *p, uint32_t run,
		     uint64_t iterations)
{
	if (run >= RTC_MAX_RUNS || !res->nmetrics)
		return 0;
	const struct metric_data *m0 = result_metric_c(res, 0);
	if (__atomic_load_n(&m0->kind, __ATOMIC_RELAXED) == METRIC_COUNT)
		return 0;
	uint32_t ns = p->per_cpu_series ? __atomic_load_n(&res->nseries, __ATOMIC_RELAXED) : 0;
	if (ns > res->nseries_alloc)
		ns = res->nseries_alloc;
	if (!ns)
		return part_of(m0, run, iterations);
	/* The merged metric 0 is made at a run's end: the series tell. */
	double least = 1.0;
	for (uint32_t s = 0; s < ns; s++) {
		double part = part_of(result_metric_c(res, res->nmetrics + s), run, iterations);
		if (part < least)
			least = part;
	}
	return least;
}

/* The columns of the live view, narrow enough for an 80-column terminal:
 * a line that wrapped would spoil the redraw, which counts lines. */
#define LIVE_ROW "  %-22s%10s%11s%11s%11s%11s"

void live_header(char *buf, size_t len)
{
	snprintf(buf, len, LIVE_ROW, "metric", "samples", "min", "cur", "mean", "max");
}

void live_format(const struct live_fig *f, char *buf, size_t len)
{
	char name[64], n[24], v[4][32];
	if (f->cpu >= 0)
		snprintf(name, sizeof name, "%s cpu %d", f->name, f->cpu);
	else
		snprintf(name, sizeof name, "%s", f->name);
	/* A count metric takes one sample per run: say so. */
	snprintf(n, sizeof n, "%llu%s", (unsigned long long)f->n, f->count ? " runs" : "");
	const double x[4] = { f->min, f->cur, f->mean, f->max };
	for (int i = 0; i < 4; i++) {
		if (!f->n)
			snprintf(v[i], sizeof v[i], "-");
		else if (f->count)
			snprintf(v[i], sizeof v[i], i == 2 ? "%.1f" : "%.0f", x[i]);
		else
			units_fmt_ns(x[i], v[i], sizeof v[i]);
	}
	snprintf(buf, len, LIVE_ROW, name, n, v[0], v[1], v[2], v[3]);
}
