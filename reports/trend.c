/* SPDX-License-Identifier: Apache-2.0 */
/* trend.c - the trend of a run's interval maxima; see trend.h. */
#include "reports/trend.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sort a[0..n) ascending through scratch tmp, returning the pairs i < j
 * with a[i] > a[j] (strictly: equal values are no inversion). */
static uint64_t sort_count(double *a, double *tmp, size_t n)
{
	if (n < 2)
		return 0;
	size_t h = n / 2;
	uint64_t inv = sort_count(a, tmp, h) + sort_count(a + h, tmp, n - h);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n) {
		if (a[i] <= a[j]) {
			tmp[k++] = a[i++];
		} else {
			inv += h - i; /* a[i..h) all exceed a[j] */
			tmp[k++] = a[j++];
		}
	}
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof *a);
	return inv;
}

/* Of sorted a[0..n): n2 = sum u (u - 1) / 2 and v = sum u (u - 1) (2u + 5)
 * over the groups of u equal values. */
static void ties_of(const double *a, size_t n, double *n2, double *v)
{
	*n2 = *v = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && a[j] == a[i])
			j++;
		double u = (double)(j - i);
		*n2 += u * (u - 1) / 2;
		*v += u * (u - 1) * (2 * u + 5);
		i = j;
	}
}

/* Kendall's tau-b of max against time order, into t. */
static bool kendall(const double *max, size_t n, struct trend *t)
{
	t->tau = 0;
	t->z = 0;
	t->p = 1;
	t->tau_defined = false;
	if (n < 2)
		return true;
	double *a = malloc(2 * n * sizeof *a);
	if (!a)
		return false;
	memcpy(a, max, n * sizeof *a);
	uint64_t d = sort_count(a, a + n, n);
	double n2, vt;
	ties_of(a, n, &n2, &vt);
	free(a);
	double dn = (double)n, n0 = dn * (dn - 1) / 2;
	if (!(n0 - n2 > 0))
		return true; /* every maximum equal: no order at all */
	double s = n0 - n2 - 2 * (double)d;
	double var = (dn * (dn - 1) * (2 * dn + 5) - vt) / 18;
	t->tau_defined = true;
	t->tau = s / sqrt(n0 * (n0 - n2));
	if (var > 0) {
		t->z = s / sqrt(var);
		t->p = erfc(fabs(t->z) / sqrt(2.0));
	}
	return true;
}

bool trend_of(const double *start_s, const double *end_s, const double *max, size_t n,
	      struct trend *out)
{
	memset(out, 0, sizeof *out);
	if (!n)
		return false;
	out->n = n;
	double best = 0;
	for (size_t k = 0; k < n; k++)
		if (k == 0 || max[k] > best) {
			best = max[k];
			out->records++;
			out->last_record = k;
		}
	if (!kendall(max, n, out))
		return false;
	double span = end_s[n - 1] - start_s[0];
	out->late_record = n > 1 && span > 0 &&
			   end_s[out->last_record] - start_s[0] > 0.75 * span;
	out->rising = out->late_record || (out->tau_defined && out->tau > 0 &&
					   out->p < TREND_ALPHA);
	return true;
}

const char *trend_word(const struct trend *t)
{
	return t->rising ? "still rising" : "no rising trend";
}

void trend_text(const struct trend *t, const char *when, char *buf, size_t len)
{
	char tau[80], why[80] = "";
	if (t->tau_defined)
		snprintf(tau, sizeof tau, "Kendall's tau %.2f, p = %.2g", t->tau, t->p);
	else
		snprintf(tau, sizeof tau, "Kendall's tau undefined (%s)",
			 t->n < 2 ? "one interval" : "every interval's max equal");
	if (t->late_record)
		snprintf(why, sizeof why, " (the last record is in the last quarter of the run)");
	else if (t->rising)
		snprintf(why, sizeof why, " (a rising trend at p < %g)", TREND_ALPHA);
	snprintf(buf, len, "%zu record-setting interval%s of %zu, the last in interval %zu (at "
		 "%s); %s: %s%s", t->records, t->records == 1 ? "" : "s", t->n,
		 t->last_record + 1, when, tau, trend_word(t), why);
}
