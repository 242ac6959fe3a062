/* stats.c - the value of a statistic of one measured metric; see stats.h. */
#include "harness/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/measure/probe.h"

/* Sample stddev of the means of the runs that recorded anything, in units.
 * Two passes over the means: they are close together by nature, so the
 * single-pass formula would cancel. false with fewer than two such runs. */
static bool runs_mean_stddev(const struct metric_data *m, double *out)
{
	long double total = 0;
	uint32_t n = 0;
	for (uint32_t r = 0; r < RTC_MAX_RUNS; r++) {
		if (m->runs[r].count) {
			total += (long double)m->runs[r].sum / (long double)m->runs[r].count;
			n++;
		}
	}
	if (n < 2)
		return false;
	long double mean = total / n, ss = 0;
	for (uint32_t r = 0; r < RTC_MAX_RUNS; r++) {
		if (m->runs[r].count) {
			long double d = (long double)m->runs[r].sum / (long double)m->runs[r].count - mean;
			ss += d * d;
		}
	}
	*out = (double)sqrtl(ss / (n - 1));
	return true;
}

/* A count metric's statistics: its histogram holds one value per run (see
 * struct metric_data), unscaled. */
static bool count_value(const struct hist *h, const struct statistic *st, double *out)
{
	switch (st->kind) {
	case STAT_TOTAL:
		*out = (double)h->sum;
		return true;
	case STAT_MIN:
		*out = (double)h->min;
		return true;
	case STAT_MAX:
		*out = (double)h->max;
		return true;
	case STAT_MEAN:
		*out = hist_mean(h);
		return true;
	default:
		return false;
	}
}

bool stat_value(const struct metric_data *m, const struct statistic *st,
		bool want_cycles, double *out)
{
	if (!m || !st || !out)
		return false;
	const struct hist *h = &m->hist;
	if (h->count == 0 || h->count < stat_min_samples(st))
		return false;
	if (m->kind == METRIC_COUNT)
		return !want_cycles && count_value(h, st, out);
	if (!stat_fits(st, METRIC_DURATION))
		return false;
	double scale = want_cycles ? m->cycles_per_unit : m->ns_per_unit;
	/* A zero or nonsense scale would turn every value into 0 and pass every
	 * max= limit: refuse it instead. */
	if (!(scale > 0.0) || !isfinite(scale))
		return false;
	double v;
	switch (st->kind) {
	case STAT_MIN:
		v = (double)h->min;
		break;
	case STAT_MAX:
		v = (double)h->max;
		break;
	case STAT_MEAN:
		v = hist_mean(h);
		break;
	case STAT_STDDEV:
		v = hist_stddev(h);
		break;
	case STAT_PCT:
		v = (double)hist_percentile(h, st->pct);
		break;
	case STAT_RUNS_MEAN_STDDEV:
		if (!runs_mean_stddev(m, &v))
			return false;
		break;
	default:
		return false;
	}
	*out = v * scale;
	return true;
}

bool metric_run_count(const struct metric_data *m, uint32_t run, uint64_t *out)
{
	if (!m || m->kind != METRIC_COUNT || run >= RTC_MAX_RUNS || m->runs[run].count == 0)
		return false;
	*out = (uint64_t)m->runs[run].sum;
	return true;
}

double metric_run_mean_ns(const struct metric_data *m, uint32_t run)
{
	if (!m || run >= RTC_MAX_RUNS || m->runs[run].count == 0)
		return 0.0;
	const struct run_stat *r = &m->runs[run];
	return (double)((long double)r->sum / (long double)r->count) * m->ns_per_unit;
}

bool metric_run_max_ns(const struct metric_data *m, uint32_t run, double *out)
{
	if (!m || m->kind == METRIC_COUNT || run >= RTC_MAX_RUNS || m->runs[run].count == 0)
		return false;
	*out = (double)m->runs[run].max * m->ns_per_unit;
	return true;
}
