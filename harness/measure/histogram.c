/* SPDX-License-Identifier: Apache-2.0 */
/* histogram.c - see histogram.h for the bucket scheme and guarantees. */
#include "harness/measure/histogram.h"

#include <float.h>
#include <math.h>
#include <string.h>

static uint32_t nbuckets_for(unsigned bits)
{
	/* Highest index is that of 2^bits - 1: exponent e = bits-1-SUB_BITS,
	 * mantissa 2^(SUB_BITS+1) - 1. */
	if (bits <= HIST_SUB_BITS + 1)
		return 1u << bits;
	unsigned e = bits - 1 - HIST_SUB_BITS;
	return (e << HIST_SUB_BITS) + (2u * HIST_SUB_COUNT);
}

size_t hist_bytes(unsigned bits)
{
	if (bits < 8)
		bits = 8;
	if (bits > 64)
		bits = 64;
	return sizeof(struct hist) + (size_t)nbuckets_for(bits) * sizeof(uint64_t);
}

struct hist *hist_init(void *mem, unsigned bits)
{
	struct hist *h = mem;
	if (bits < 8)
		bits = 8;
	if (bits > 64)
		bits = 64;
	h->bits = bits;
	h->nbuckets = nbuckets_for(bits);
	h->highest = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	hist_reset(h);
	return h;
}

void hist_reset(struct hist *h)
{
	h->count = h->overflow = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->sum = h->sumsq = 0;
	memset(h->counts, 0, (size_t)h->nbuckets * sizeof(uint64_t));
}

uint64_t hist_bucket_lo(const struct hist *h, uint32_t i)
{
	(void)h;
	if (i < 2 * HIST_SUB_COUNT)
		return i;
	unsigned e = (i >> HIST_SUB_BITS) - 1;
	uint64_t mant = (i & (HIST_SUB_COUNT - 1)) + HIST_SUB_COUNT;
	return mant << e;
}

uint64_t hist_bucket_hi(const struct hist *h, uint32_t i)
{
	if (i < 2 * HIST_SUB_COUNT)
		return i;
	unsigned e = (i >> HIST_SUB_BITS) - 1;
	uint64_t hi = hist_bucket_lo(h, i) + ((UINT64_C(1) << e) - 1);
	return hi > h->highest ? h->highest : hi;
}

double hist_mean(const struct hist *h)
{
	if (!h->count)
		return 0.0;
	return (double)h->sum / (double)h->count;
}

double hist_stddev(const struct hist *h)
{
	if (h->count < 2)
		return 0.0;
	/* The textbook sumsq - sum^2/n cancels catastrophically in floating
	 * point when the spread is small against the values (1e6 samples of
	 * 1e12 gave 262 instead of 0). Take the squares about the integer part
	 * q of the mean instead, in exact integer arithmetic:
	 *   sum = q*n + r (0 <= r < n),
	 *   S = sum (x - q)^2 = sumsq - q*(sum + r),
	 *   sum (x - mean)^2 = S - r^2/n.
	 * S is a sum of squares no larger than sumsq, so the modular 128-bit
	 * arithmetic gives it exactly whenever sumsq itself is exact; only the
	 * small correction r^2/n (< n) and the final division are rounded. */
	uint64_t n = h->count;
	unsigned __int128 q = h->sum / n;
	uint64_t r = (uint64_t)(h->sum % n);
	unsigned __int128 s = h->sumsq - q * (h->sum + r);
	long double m2 = (long double)s - (long double)r * (long double)r / (long double)n;
	if (m2 < 0) /* rounding of the correction only */
		m2 = 0;
	return (double)sqrtl(m2 / ((long double)n - 1.0L));
}

/* The rank (1..count) of the q-th percentile of count samples, q in
 * (0, 100). */
static uint64_t pct_rank(uint64_t count, double q)
{
	/* q reaches us in binary (99.9 is 99.900000000000006), so the exact
	 * rank q*count/100 can come out a hair above an integer: p99.9 of 1000
	 * samples gave 999.0000000000001, ceil 1000, the max instead of the
	 * 999th sample. Snap to the integer when within a few ulps of it; a real
	 * fractional part that small would need a q with more significant
	 * digits than a double holds. */
	long double x = (long double)q * (long double)count / 100.0L;
	long double nearest = roundl(x);
	if (fabsl(x - nearest) <= 4.0L * DBL_EPSILON * nearest)
		x = nearest;
	long double r = ceill(x);
	return r < 1.0L ? 1 : r >= (long double)count ? count : (uint64_t)r;
}

/* The sample of rank `rank` (1..count) counted from the smallest: the
 * upper bound of its bucket, clamped to [min, max]; the max when it lies
 * among overflowed samples. */
static uint64_t value_at_rank(const struct hist *h, uint64_t rank)
{
	uint64_t seen = 0;
	for (uint32_t i = 0; i < h->nbuckets; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			uint64_t v = hist_bucket_hi(h, i);
			if (v > h->max)
				v = h->max;
			if (v < h->min)
				v = h->min;
			return v;
		}
	}
	return h->max; /* the rank lies among overflowed samples */
}

uint64_t hist_percentile(const struct hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q >= 100.0)
		return h->max;
	if (!(q > 0.0)) /* written so that NaN lands here too */
		return h->min;
	return value_at_rank(h, pct_rank(h->count, q));
}

bool hist_merge(struct hist *dst, const struct hist *src)
{
	if (dst->bits != src->bits)
		return false;
	if (!src->count)
		return true;
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (uint32_t i = 0; i < dst->nbuckets; i++)
		dst->counts[i] += src->counts[i];
	return true;
}

/* The lowest and highest non-empty bucket of h (h->count > overflow). */
static void occupied(const struct hist *h, uint32_t *lo, uint32_t *hi)
{
	*lo = 0;
	while (*lo < h->nbuckets && !h->counts[*lo])
		(*lo)++;
	*hi = h->nbuckets;
	while (*hi > *lo && !h->counts[*hi - 1])
		(*hi)--;
	(*hi)--;
}

bool hist_subtract(struct hist *dst, const struct hist *old)
{
	if (dst->bits != old->bits || old->count > dst->count)
		return false;
	bool max_rose = dst->max > old->max || !old->count;
	bool min_fell = dst->min < old->min || !old->count;
	dst->count -= old->count;
	dst->overflow -= old->overflow;
	dst->sum -= old->sum;
	dst->sumsq -= old->sumsq;
	for (uint32_t i = 0; i < dst->nbuckets; i++)
		dst->counts[i] -= old->counts[i];
	if (!dst->count) {
		dst->min = UINT64_MAX;
		dst->max = 0;
		return true;
	}
	if (dst->count == dst->overflow) { /* all above the buckets */
		if (!min_fell)
			dst->min = dst->highest + 1;
		return true;
	}
	uint32_t lo, hi;
	occupied(dst, &lo, &hi);
	uint64_t top = hist_bucket_hi(dst, hi), bottom = hist_bucket_lo(dst, lo);
	if (!max_rose && !dst->overflow && top < dst->max)
		dst->max = top;
	if (!min_fell && bottom > dst->min)
		dst->min = bottom;
	return true;
}

bool hist_next_bucket(const struct hist *h, uint32_t *i, uint64_t *lo,
		      uint64_t *hi, uint64_t *count)
{
	for (; *i < h->nbuckets; (*i)++) {
		if (h->counts[*i]) {
			*lo = hist_bucket_lo(h, *i);
			*hi = hist_bucket_hi(h, *i);
			*count = h->counts[*i];
			(*i)++;
			return true;
		}
	}
	return false;
}

/* ---- signed samples ---------------------------------------------------- */

static uint64_t neg_count(const struct hist *neg)
{
	return neg ? neg->count : 0;
}

int64_t hist_signed_min(const struct hist *pos, const struct hist *neg)
{
	if (neg_count(neg))
		return -(int64_t)neg->max;
	return pos->count ? (int64_t)pos->min : 0;
}

int64_t hist_signed_max(const struct hist *pos, const struct hist *neg)
{
	if (pos->count)
		return (int64_t)pos->max;
	return neg_count(neg) ? -(int64_t)neg->min : 0;
}

double hist_signed_mean(const struct hist *pos, const struct hist *neg)
{
	uint64_t n = pos->count + neg_count(neg);
	if (!n)
		return 0.0;
	__int128 sum = (__int128)pos->sum - (neg ? (__int128)neg->sum : 0);
	return (double)((long double)sum / (long double)n);
}

double hist_signed_stddev(const struct hist *pos, const struct hist *neg)
{
	uint64_t n = pos->count + neg_count(neg);
	if (n < 2)
		return 0.0;
	/* hist_stddev's exact shift, signed: with q the mean truncated toward
	 * zero and r = sum - q*n (|r| < n),
	 *   S = sum (x - q)^2 = sumsq - q*(2*sum - q*n) = sumsq - q*(sum + r),
	 *   sum (x - mean)^2 = S - r^2/n. */
	__int128 sum = (__int128)pos->sum - (neg ? (__int128)neg->sum : 0);
	__int128 sumsq = (__int128)(pos->sumsq + (neg ? neg->sumsq : 0));
	__int128 q = sum / (__int128)n;
	__int128 r = sum - q * (__int128)n;
	__int128 s = sumsq - q * (sum + r);
	long double m2 = (long double)s - (long double)r * (long double)r / (long double)n;
	if (m2 < 0)
		m2 = 0;
	return (double)sqrtl(m2 / ((long double)n - 1.0L));
}

/* The k-th largest magnitude (1..count) of a histogram of magnitudes, as
 * the value's upper bound: minus the lower bound of its bucket, clamped to
 * the exact [-max, -min]. Overflowed magnitudes are the largest: a rank
 * among them gives -(highest + 1), the least negative they can be (the
 * exact -max for the first). */
static int64_t neg_at_rank(const struct hist *neg, uint64_t k)
{
	if (k <= neg->overflow)
		return k == 1 ? -(int64_t)neg->max : -(int64_t)(neg->highest + 1);
	uint64_t seen = neg->overflow;
	for (uint32_t i = neg->nbuckets; i-- > 0;) {
		seen += neg->counts[i];
		if (seen >= k) {
			uint64_t mag = hist_bucket_lo(neg, i);
			if (mag < neg->min)
				mag = neg->min;
			if (mag > neg->max)
				mag = neg->max;
			return -(int64_t)mag;
		}
	}
	return -(int64_t)neg->min;
}

int64_t hist_signed_percentile(const struct hist *pos, const struct hist *neg, double q)
{
	uint64_t nn = neg_count(neg), n = pos->count + nn;
	if (!n)
		return 0;
	if (q >= 100.0)
		return hist_signed_max(pos, neg);
	if (!(q > 0.0))
		return hist_signed_min(pos, neg);
	uint64_t rank = pct_rank(n, q);
	if (rank <= nn) /* the rank-th smallest value is the rank-th largest magnitude */
		return neg_at_rank(neg, rank);
	return (int64_t)value_at_rank(pos, rank - nn);
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The bucket of the k-th smallest sample (1..pos->count) of pos: its value
 * range, clamped to the exact [min, max]; *id the bucket (nbuckets: among
 * the overflowed samples, [highest + 1, max]). */
static void pos_range(const struct hist *h, uint64_t k, int64_t *lo, int64_t *hi, int64_t *id)
{
	uint64_t seen = 0, l = h->highest + 1, u = h->max;
	*id = h->nbuckets;
	for (uint32_t i = 0; i < h->nbuckets; i++) {
		seen += h->counts[i];
		if (seen >= k) {
			l = hist_bucket_lo(h, i);
			u = hist_bucket_hi(h, i);
			*id = i;
			break;
		}
	}
	*lo = (int64_t)clamp_u64(l, h->min, h->max);
	*hi = (int64_t)clamp_u64(u, h->min, h->max);
}

/* The bucket of the k-th largest magnitude of neg, as values: minus its
 * magnitudes' range; *id below zero (-1 - nbuckets: the overflowed ones). */
static void neg_range(const struct hist *neg, uint64_t k, int64_t *lo, int64_t *hi, int64_t *id)
{
	uint64_t l = neg->highest + 1, u = neg->max, seen = neg->overflow;
	*id = -1 - (int64_t)neg->nbuckets;
	if (k > neg->overflow) {
		for (uint32_t i = neg->nbuckets; i-- > 0;) {
			seen += neg->counts[i];
			if (seen >= k) {
				l = hist_bucket_lo(neg, i);
				u = hist_bucket_hi(neg, i);
				*id = -1 - (int64_t)i;
				break;
			}
		}
	}
	*lo = -(int64_t)clamp_u64(u, neg->min, neg->max);
	*hi = -(int64_t)clamp_u64(l, neg->min, neg->max);
}

bool hist_rank_range(const struct hist *pos, const struct hist *neg, uint64_t rank, int64_t *lo,
		     int64_t *hi, int64_t *bucket)
{
	uint64_t nn = neg_count(neg);
	if (rank == 0 || rank > pos->count + nn)
		return false;
	if (rank <= nn)
		neg_range(neg, rank, lo, hi, bucket);
	else
		pos_range(pos, rank - nn, lo, hi, bucket);
	return true;
}

uint64_t hist_count_at_or_below(const struct hist *pos, const struct hist *neg, int64_t v)
{
	uint64_t nn = neg_count(neg), n = pos->count + nn, seen = 0;
	if (!n || hist_signed_max(pos, neg) <= v)
		return n;
	if (v >= 0) {
		for (uint32_t i = 0; i < pos->nbuckets; i++)
			if (pos->counts[i] && hist_bucket_hi(pos, i) <= (uint64_t)v)
				seen += pos->counts[i];
		return nn + seen;
	}
	/* Below zero: magnitudes of at least -v, whole buckets only. */
	uint64_t mag = (uint64_t)(-(v + 1)) + 1;
	if (neg->highest + 1 >= mag)
		seen += neg->overflow;
	for (uint32_t i = 0; i < neg->nbuckets; i++)
		if (neg->counts[i] && hist_bucket_lo(neg, i) >= mag)
			seen += neg->counts[i];
	return seen;
}

uint64_t hist_count_maybe_at_or_below(const struct hist *pos, const struct hist *neg, int64_t v)
{
	uint64_t nn = neg_count(neg), n = pos->count + nn, above = 0;
	if (!n || hist_signed_min(pos, neg) > v)
		return 0;
	if (v >= 0) {
		for (uint32_t i = 0; i < pos->nbuckets; i++)
			if (pos->counts[i] && hist_bucket_lo(pos, i) > (uint64_t)v)
				above += pos->counts[i];
		if (pos->highest + 1 > (uint64_t)v)
			above += pos->overflow;
		return n - above;
	}
	/* Below zero: every sample at or above zero is above v, and the
	 * magnitudes of whole buckets below -v. */
	uint64_t mag = (uint64_t)(-(v + 1)) + 1;
	above = pos->count;
	for (uint32_t i = 0; i < neg->nbuckets; i++)
		if (neg->counts[i] && hist_bucket_hi(neg, i) < mag)
			above += neg->counts[i];
	return n - above;
}
