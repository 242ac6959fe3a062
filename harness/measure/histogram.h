/* SPDX-License-Identifier: Apache-2.0 */
/* layers: private to measure harness (the result memory's layout: above the
 * harness, a result's numbers are read in harness/summary.h) */
/* histogram.h - fixed-memory log-linear histogram of unsigned integer samples.
 *
 * Bucket scheme (HdrHistogram's idea): values below 2^HIST_SUB_BITS are kept
 * exactly; above, every power of two is split into 2^HIST_SUB_BITS linear
 * sub-buckets, so a bucket is never wider than 1/128 of its lower bound
 * (relative error <= 0.79 %). Values above the trackable range are counted in
 * `overflow` and still enter min, max, sum and sum of squares: no sample is
 * ever lost, and min/max/mean/stddev are exact whatever the range.
 *
 * Memory: one block of hist_bytes(bits) bytes, given by the caller (it lives
 * in shared memory made before a worker is forked). hist_record() allocates
 * nothing, takes no lock and is O(1).
 *
 * Units are the caller's (timebase ticks, usually); reports scale them.
 */
#ifndef RTC_HISTOGRAM_H
#define RTC_HISTOGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7u
#define HIST_SUB_COUNT (1u << HIST_SUB_BITS)
#define HIST_DEFAULT_BITS 42u /* 2^42 ticks: over 20 minutes at 3 GHz */

struct hist {
	uint64_t count;    /* every recorded sample, overflow included */
	uint64_t overflow; /* samples > highest (not in any bucket) */
	uint64_t min;      /* UINT64_MAX while empty */
	uint64_t max;
	unsigned __int128 sum;
	unsigned __int128 sumsq;
	uint64_t highest;  /* largest value that lands in a bucket */
	uint32_t nbuckets;
	uint32_t bits;
	uint64_t counts[]; /* nbuckets counters */
};

/* Bytes needed for a histogram tracking values < 2^bits (8 <= bits <= 64). */
size_t hist_bytes(unsigned bits);

/* Initialise `mem` (hist_bytes(bits) bytes) and zero every counter (which
 * also touches every page). Returns the histogram (== mem). */
struct hist *hist_init(void *mem, unsigned bits);

/* Forget all samples, keep the configuration. */
void hist_reset(struct hist *h);

static inline unsigned hist_index_of(uint64_t v)
{
	unsigned msb = v ? 63u - (unsigned)__builtin_clzll(v) : 0u;
	unsigned e = msb > HIST_SUB_BITS ? msb - HIST_SUB_BITS : 0u;
	return (e << HIST_SUB_BITS) + (unsigned)(v >> e);
}

/* Record one sample. Returns false when it was beyond the trackable range
 * (it is then counted in `overflow`, and in min/max/sum/sumsq as always). */
static inline bool hist_record(struct hist *h, uint64_t v)
{
	h->count++;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (__builtin_expect(v > h->highest, 0)) {
		h->overflow++;
		return false;
	}
	h->counts[hist_index_of(v)]++;
	return true;
}

/* Lowest and highest value that land in bucket i (inclusive). */
uint64_t hist_bucket_lo(const struct hist *h, uint32_t i);
uint64_t hist_bucket_hi(const struct hist *h, uint32_t i);

/* Exact mean; 0 when empty. */
double hist_mean(const struct hist *h);
/* Exact sample standard deviation (n - 1); 0 with fewer than 2 samples. */
double hist_stddev(const struct hist *h);

/* The q-th percentile (0 < q <= 100): the smallest bucket upper bound at or
 * below which at least ceil(q/100 * count) samples lie, clamped to the exact
 * [min, max]. Conservative by at most one bucket width (<= 0.79 %). When the
 * rank falls among overflowed samples the exact max is returned. 0 if empty. */
uint64_t hist_percentile(const struct hist *h, double q);

/* Add src's samples to dst; both must have the same bits. Returns false (and
 * changes nothing) if they differ. */
bool hist_merge(struct hist *dst, const struct hist *src);

/* dst minus old, where old is an earlier state of dst (a histogram that has
 * only grown since): what was recorded between the two, as a histogram of
 * its own. Counts, overflow, sum and sum of squares are exact. min and max
 * are exact when they moved in between (the new extreme is one of those
 * samples); otherwise the bound of their bucket, never inside it: max the
 * highest non-empty bucket's upper bound (at most 0.79 % above the true
 * one), capped by dst's max, min likewise. False (nothing changed) when
 * the bits differ or old has more samples. */
bool hist_subtract(struct hist *dst, const struct hist *old);

/* Iterate non-empty buckets: start with *i = 0; returns false when done. */
bool hist_next_bucket(const struct hist *h, uint32_t *i, uint64_t *lo,
		      uint64_t *hi, uint64_t *count);

/* ---- signed samples -------------------------------------------------------
 *
 * A metric whose samples can be below zero (a timer that fires early) keeps
 * two histograms of the same bits: `pos` holds the samples >= 0 as they are,
 * `neg` the magnitudes of those < 0 (-v). Recording picks one with a single
 * sign test, so each stays O(1), lock- and allocation-free, and a metric that
 * is not signed records exactly as before. The statistics below are over
 * both; with neg NULL or empty they equal the unsigned ones above (the
 * callers use those then, so unsigned figures are the same bytes). */

/* Signed smallest and largest sample; 0 if both are empty. */
int64_t hist_signed_min(const struct hist *pos, const struct hist *neg);
int64_t hist_signed_max(const struct hist *pos, const struct hist *neg);
/* Exact mean and sample standard deviation (n - 1) of all samples. */
double hist_signed_mean(const struct hist *pos, const struct hist *neg);
double hist_signed_stddev(const struct hist *pos, const struct hist *neg);
/* The q-th percentile over both, by hist_percentile's rule: the rank is
 * ceil(q/100 * count) counted from the most negative sample; a rank among
 * the negative samples gives minus the lower bound of its magnitude's
 * bucket (the value's upper bound, conservative like the positive side),
 * clamped to the exact [min, max]. 0 if empty. */
int64_t hist_signed_percentile(const struct hist *pos, const struct hist *neg, double q);

/* The values the rank-th smallest sample (1..count, from the most negative)
 * over pos and neg (neg may be NULL) can have: its bucket's edges, clamped
 * to the exact min and max; among overflowed samples [highest + 1, max]
 * (or its negative mirror). *bucket names the bucket: two ranks in one
 * bucket get the same. False when rank is 0 or beyond the count. */
bool hist_rank_range(const struct hist *pos, const struct hist *neg, uint64_t rank, int64_t *lo,
		     int64_t *hi, int64_t *bucket);

/* Samples over pos and neg certainly at or below v: every sample when the
 * max is, else those of whole buckets whose every value is (a bucket that
 * straddles v counts as above it). */
uint64_t hist_count_at_or_below(const struct hist *pos, const struct hist *neg, int64_t v);
/* Samples over pos and neg that may be at or below v: every sample but
 * those certainly above it (of whole buckets whose every value is above v,
 * every one when the min is): a bucket that straddles v counts as at or
 * below. hist_count_at_or_below <= this; the two agree where no bucket
 * straddles v. */
uint64_t hist_count_maybe_at_or_below(const struct hist *pos, const struct hist *neg, int64_t v);

#endif
