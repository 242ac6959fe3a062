/* SPDX-License-Identifier: Apache-2.0 */
/* test_histogram.c - the histogram's bucket scheme and statistics on data
 * whose answers are known. Nothing here times anything.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/measure/histogram.h"
#include "test_util.h"

/* Deterministic generator (splitmix64) so that a failure reproduces. */
static uint64_t rng_state;
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A value spread over every magnitude below 2^bits (a uniform draw would
 * almost never land below 2^(bits-8)). */
static uint64_t rng_magnitude(unsigned bits)
{
	unsigned shift = (unsigned)(rng_next() % bits);
	uint64_t v = rng_next() >> (63 - shift);
	return bits < 64 ? v & ((UINT64_C(1) << bits) - 1) : v;
}

static struct hist *new_hist(unsigned bits)
{
	void *mem = calloc(1, hist_bytes(bits));
	ck_assert_ptr_nonnull(mem);
	return hist_init(mem, bits);
}

/* Check's ck_assert reports a checkpoint to the runner on every call; in
 * loops over hundreds of thousands of values that costs seconds, so the hot
 * loops test plainly and abort with a message on the first miss. */
#define EXPECT(cond, ...)                          \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The value's bucket holds it, and is at most 1/128 of its lower bound wide
 * (exactly one value wide below 256). */
static void check_bucket_of(const struct hist *h, uint64_t v)
{
	unsigned i = hist_index_of(v);
	EXPECT(i < h->nbuckets, "value %llu: index %u of %u", (unsigned long long)v, i,
	       (unsigned)h->nbuckets);
	uint64_t lo = hist_bucket_lo(h, i), hi = hist_bucket_hi(h, i);
	EXPECT(lo <= v && v <= hi, "value %llu outside its bucket [%llu, %llu]",
	       (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
	if (v < 2 * HIST_SUB_COUNT)
		EXPECT(lo == v && hi == v, "small value %llu not exact", (unsigned long long)v);
	else
		EXPECT(hi - lo + 1 <= lo / HIST_SUB_COUNT, "bucket [%llu, %llu] wider than 1/128",
		       (unsigned long long)lo, (unsigned long long)hi);
}

static const unsigned test_bits[] = { 8, 9, 20, 42, 64 };

START_TEST(buckets_hold_their_values)
{
	unsigned bits = test_bits[_i];
	struct hist *h = new_hist(bits);
	uint64_t top = h->highest;

	/* Every small value, then both sides of every power of two, then random
	 * values of every magnitude. */
	for (uint64_t v = 0; v <= 70000 && v <= top; v++)
		check_bucket_of(h, v);
	for (unsigned k = 1; k < bits; k++) {
		uint64_t p = UINT64_C(1) << k;
		check_bucket_of(h, p - 1);
		check_bucket_of(h, p);
		check_bucket_of(h, p + 1);
	}
	check_bucket_of(h, top);
	ck_assert_uint_eq(hist_index_of(top), h->nbuckets - 1);
	rng_state = bits;
	for (int n = 0; n < 200000; n++)
		check_bucket_of(h, rng_magnitude(bits));
	free(h);
}
END_TEST

/* Buckets partition [0, highest] in increasing order with no gap or overlap,
 * and the index is monotonic in the value. */
START_TEST(buckets_partition_the_range)
{
	unsigned bits = test_bits[_i];
	struct hist *h = new_hist(bits);
	ck_assert_uint_eq(hist_bucket_lo(h, 0), 0);
	for (uint32_t i = 0; i + 1 < h->nbuckets; i++) {
		uint64_t lo = hist_bucket_lo(h, i), hi = hist_bucket_hi(h, i);
		EXPECT(lo <= hi, "bucket %u: lo > hi", i);
		EXPECT(hi + 1 == hist_bucket_lo(h, i + 1), "gap or overlap after bucket %u", i);
		EXPECT(hist_index_of(lo) == i && hist_index_of(hi) == i,
		       "bucket %u's bounds index elsewhere", i);
	}
	ck_assert_uint_eq(hist_bucket_hi(h, h->nbuckets - 1), h->highest);

	rng_state = 1000 + bits;
	enum { N = 50000 };
	uint64_t *v = malloc(N * sizeof *v);
	ck_assert_ptr_nonnull(v);
	for (int n = 0; n < N; n++)
		v[n] = rng_magnitude(bits);
	qsort(v, N, sizeof *v, cmp_u64);
	for (int n = 1; n < N; n++)
		EXPECT(hist_index_of(v[n - 1]) <= hist_index_of(v[n]), "index not monotonic at %llu",
		       (unsigned long long)v[n]);
	free(v);
	free(h);
}
END_TEST

START_TEST(small_values_are_exact)
{
	struct hist *h = new_hist(42);
	for (uint64_t v = 0; v < 256; v++) {
		ck_assert(hist_record(h, v));
		ck_assert(hist_record(h, v));
	}
	uint32_t i = 0;
	uint64_t lo, hi, c, expect = 0;
	while (hist_next_bucket(h, &i, &lo, &hi, &c)) {
		ck_assert_uint_eq(lo, expect);
		ck_assert_uint_eq(hi, expect);
		ck_assert_uint_eq(c, 2);
		expect++;
	}
	ck_assert_uint_eq(expect, 256);
	/* With exact buckets a percentile is the exact order statistic:
	 * rank ceil(q/100 * 512) of 0,0,1,1,...,255,255. */
	ck_assert_uint_eq(hist_percentile(h, 50), 127);
	ck_assert_uint_eq(hist_percentile(h, 25), 63);
	ck_assert_uint_eq(hist_percentile(h, 0.1), 0);
	ck_assert_uint_eq(hist_percentile(h, 99.9), 255);
	free(h);
}
END_TEST

START_TEST(moments_are_exact)
{
	struct hist *h = new_hist(42);
	for (uint64_t v = 1; v <= 1000; v++)
		hist_record(h, v);
	ck_assert_uint_eq(h->count, 1000);
	ck_assert_uint_eq(h->min, 1);
	ck_assert_uint_eq(h->max, 1000);
	ck_assert_double_eq(hist_mean(h), 500.5);
	/* Sample stddev of 1..n is sqrt(n(n+1)/12). */
	ck_assert_double_eq_tol(hist_stddev(h), sqrt(1000.0 * 1001.0 / 12.0), 1e-9);

	/* Constant data, large enough that sumsq - sum^2/n in floating point
	 * would leave hundreds of units of noise. */
	hist_reset(h);
	ck_assert_uint_eq(h->count, 0);
	for (int n = 0; n < 1000000; n++)
		hist_record(h, UINT64_C(1000000000000));
	ck_assert_double_eq(hist_stddev(h), 0.0);
	ck_assert_double_eq(hist_mean(h), 1e12);
	ck_assert_uint_eq(h->min, UINT64_C(1000000000000));
	ck_assert_uint_eq(h->max, UINT64_C(1000000000000));

	/* Two values a, b: mean (a+b)/2, sample stddev |a-b|/sqrt(2). */
	hist_reset(h);
	hist_record(h, 3000000000u);
	hist_record(h, 3000000002u);
	ck_assert_double_eq(hist_mean(h), 3000000001.0);
	ck_assert_double_eq_tol(hist_stddev(h), sqrt(2.0), 1e-12);

	/* Small spread on a large offset: 0/1 alternating has variance
	 * (n/4) / (n-1). */
	hist_reset(h);
	for (int n = 0; n < 100000; n++)
		hist_record(h, UINT64_C(3000000000) + (uint64_t)(n & 1));
	ck_assert_double_eq_tol(hist_stddev(h), sqrt(25000.0 / 99999.0), 1e-12);

	/* One sample: no spread to speak of. */
	hist_reset(h);
	hist_record(h, 7);
	ck_assert_double_eq(hist_stddev(h), 0.0);
	ck_assert_double_eq(hist_mean(h), 7.0);
	free(h);
}
END_TEST

START_TEST(percentiles_on_known_data)
{
	struct hist *h = new_hist(42);
	for (uint64_t v = 1; v <= 1000; v++)
		hist_record(h, v);
	uint64_t p50 = hist_percentile(h, 50), p99 = hist_percentile(h, 99);
	/* Conservative (never below the exact order statistic) and within 1 %. */
	ck_assert_uint_ge(p50, 500);
	ck_assert_uint_le(p50, 505);
	ck_assert_uint_ge(p99, 990);
	ck_assert_uint_le(p99, 999);
	ck_assert_uint_eq(hist_percentile(h, 100), 1000);
	ck_assert_uint_ge(hist_percentile(h, 0.01), 1);
	ck_assert_uint_eq(hist_percentile(h, 0.01), 1);
	/* 99.9 is not exact in binary; the rank must still be 999, not 1000
	 * (999 is the top of its bucket, so the answer is exact). */
	ck_assert_uint_eq(hist_percentile(h, 99.9), 999);

	/* 1..100 is all below 256, so every percentile is exact. */
	hist_reset(h);
	for (uint64_t v = 1; v <= 100; v++)
		hist_record(h, v);
	ck_assert_uint_eq(hist_percentile(h, 1), 1);
	ck_assert_uint_eq(hist_percentile(h, 50), 50);
	ck_assert_uint_eq(hist_percentile(h, 99), 99);
	ck_assert_uint_eq(hist_percentile(h, 99.5), 100);
	ck_assert_uint_eq(hist_percentile(h, 100), 100);
	free(h);
}
END_TEST

/* On random data every percentile lies between the exact order statistic
 * and one bucket width (< 0.79 %) above it. */
START_TEST(percentiles_are_bounded)
{
	static const double qs[] = { 0.1, 1, 10, 25, 50, 75, 90, 99, 99.5, 99.9, 99.99 };
	enum { N = 20000 };
	uint64_t *v = malloc(N * sizeof *v);
	ck_assert_ptr_nonnull(v);
	struct hist *h = new_hist(42);
	rng_state = 77;
	for (int n = 0; n < N; n++) {
		v[n] = 1 + rng_magnitude(40);
		hist_record(h, v[n]);
	}
	qsort(v, N, sizeof *v, cmp_u64);
	for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
		uint64_t rank = (uint64_t)ceil(qs[k] / 100.0 * N - 1e-9);
		uint64_t exact = v[rank - 1];
		uint64_t p = hist_percentile(h, qs[k]);
		ck_assert_uint_ge(p, exact);
		ck_assert_uint_le((p - exact) * HIST_SUB_COUNT, exact);
	}
	free(v);
	free(h);
}
END_TEST

/* The error bound: a value's p50 lies at most 1/128 (0.0079) above it,
 * for a single sample (clamped to [min, max]: exact) and beside a larger
 * sample (p50 is the bucket top, so the bucket width itself must obey it).
 * Checked at both edges of every bucket below 2^40, where the bound is
 * tightest (the low edge) and loosest, then at random values in between:
 * uniform draws (mostly near 2^40) alternating with draws spread over
 * every magnitude. Each check resets two 42-bit histograms, so the random
 * part is kept to 5,000 values: 100,000 took seconds under ASan. */
static void check_error_bound(struct hist *one, struct hist *two, uint64_t v)
{
	hist_reset(one);
	hist_record(one, v);
	uint64_t p = hist_percentile(one, 50);
	EXPECT(p >= v && (double)(p - v) <= 0.0079 * (double)v, "single %llu: p50 %llu",
	       (unsigned long long)v, (unsigned long long)p);
	hist_reset(two);
	hist_record(two, v);
	hist_record(two, UINT64_C(1) << 41);
	p = hist_percentile(two, 50);
	EXPECT(p == hist_bucket_hi(two, hist_index_of(v)), "%llu: p50 not the bucket top",
	       (unsigned long long)v);
	EXPECT(p >= v && (double)(p - v) <= 0.0079 * (double)v, "pair %llu: p50 %llu",
	       (unsigned long long)v, (unsigned long long)p);
}

START_TEST(error_bound_property)
{
	struct hist *one = new_hist(42), *two = new_hist(42);
	const uint64_t span = (UINT64_C(1) << 40) - 1;
	unsigned edges = 0;
	for (uint32_t i = 0; i < one->nbuckets && hist_bucket_lo(one, i) <= span; i++) {
		uint64_t lo = hist_bucket_lo(one, i), hi = hist_bucket_hi(one, i);
		if (lo >= 1)
			check_error_bound(one, two, lo), edges++;
		if (hi <= span && hi != lo)
			check_error_bound(one, two, hi), edges++;
	}
	/* values 1..255 (exact buckets), then both edges of the 128 buckets of
	 * each power of two from 2^8 to 2^39 */
	ck_assert_uint_eq(edges, 255 + 32 * 128 * 2);
	rng_state = 4242;
	for (int n = 0; n < 5000; n++)
		check_error_bound(one, two, 1 + (n & 1 ? rng_next() : rng_magnitude(40)) % span);
	free(one);
	free(two);
}
END_TEST

START_TEST(out_of_range_is_kept)
{
	struct hist *h = new_hist(20);
	ck_assert_uint_eq(h->highest, (UINT64_C(1) << 20) - 1);
	for (int n = 0; n < 9; n++)
		ck_assert(hist_record(h, 100));
	ck_assert(!hist_record(h, UINT64_C(1) << 30));
	ck_assert(hist_record(h, h->highest)); /* the edge is still in range */
	ck_assert_uint_eq(h->count, 11);
	ck_assert_uint_eq(h->overflow, 1);
	ck_assert_uint_eq(h->max, UINT64_C(1) << 30);
	ck_assert_uint_eq(h->min, 100);
	double mean = (900.0 + 1073741824.0 + 1048575.0) / 11.0;
	ck_assert_double_eq_tol(hist_mean(h), mean, 1e-6);
	ck_assert_double_gt(hist_stddev(h), 1e8);
	ck_assert_uint_eq(hist_percentile(h, 50), 100);
	/* Rank 11 lies among the overflowed samples: the exact max. */
	ck_assert_uint_eq(hist_percentile(h, 99), UINT64_C(1) << 30);
	ck_assert_uint_eq(hist_percentile(h, 100), UINT64_C(1) << 30);

	/* Nothing but overflow. */
	hist_reset(h);
	ck_assert_uint_eq(h->overflow, 0);
	hist_record(h, UINT64_C(1) << 30);
	hist_record(h, (UINT64_C(1) << 30) + 5);
	ck_assert_uint_eq(h->overflow, 2);
	ck_assert_uint_eq(hist_percentile(h, 50), (UINT64_C(1) << 30) + 5);
	ck_assert_uint_eq(h->min, UINT64_C(1) << 30);
	ck_assert_double_eq(hist_mean(h), 1073741826.5);
	uint32_t i = 0;
	uint64_t lo, hi, c;
	ck_assert(!hist_next_bucket(h, &i, &lo, &hi, &c));
	free(h);

	/* The widest histogram takes the largest value into a bucket. */
	h = new_hist(64);
	ck_assert(hist_record(h, UINT64_MAX));
	ck_assert_uint_eq(h->overflow, 0);
	ck_assert_uint_eq(hist_percentile(h, 50), UINT64_MAX);
	free(h);
}
END_TEST

START_TEST(merge_equals_recording_all)
{
	struct hist *a = new_hist(20), *b = new_hist(20), *all = new_hist(20);
	rng_state = 9;
	for (int n = 0; n < 30000; n++) {
		/* Some beyond 2^20 so that overflow merges too. */
		uint64_t v = rng_magnitude(22);
		hist_record(n % 3 ? a : b, v);
		hist_record(all, v);
	}
	ck_assert_uint_gt(all->overflow, 0);
	ck_assert(hist_merge(a, b));
	ck_assert_uint_eq(a->count, all->count);
	ck_assert_uint_eq(a->overflow, all->overflow);
	ck_assert_uint_eq(a->min, all->min);
	ck_assert_uint_eq(a->max, all->max);
	ck_assert(a->sum == all->sum);
	ck_assert(a->sumsq == all->sumsq);
	ck_assert_mem_eq(a->counts, all->counts, all->nbuckets * sizeof(uint64_t));
	ck_assert_uint_eq(hist_percentile(a, 99), hist_percentile(all, 99));

	/* Merging an empty histogram changes nothing; merging into an empty
	 * one copies (min included, which starts at UINT64_MAX). */
	struct hist *empty = new_hist(20);
	ck_assert(hist_merge(a, empty));
	ck_assert_mem_eq(a, all, hist_bytes(20));
	ck_assert(hist_merge(empty, all));
	ck_assert_mem_eq(empty, all, hist_bytes(20));
	free(a);
	free(b);
	free(all);
	free(empty);
}
END_TEST

START_TEST(merge_refuses_other_bits)
{
	struct hist *a = new_hist(20), *b = new_hist(21);
	hist_record(a, 5);
	hist_record(b, 6);
	void *before = malloc(hist_bytes(20));
	ck_assert_ptr_nonnull(before);
	memcpy(before, a, hist_bytes(20));
	ck_assert(!hist_merge(a, b));
	ck_assert_mem_eq(a, before, hist_bytes(20));
	ck_assert(!hist_merge(b, a));
	ck_assert_uint_eq(b->count, 1);
	free(before);
	free(a);
	free(b);
}
END_TEST

START_TEST(empty_gives_zeros)
{
	struct hist *h = new_hist(42);
	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(h->overflow, 0);
	ck_assert_uint_eq(h->min, UINT64_MAX);
	ck_assert_uint_eq(h->max, 0);
	ck_assert_double_eq(hist_mean(h), 0.0);
	ck_assert_double_eq(hist_stddev(h), 0.0);
	ck_assert_uint_eq(hist_percentile(h, 50), 0);
	ck_assert_uint_eq(hist_percentile(h, 99.9), 0);
	ck_assert_uint_eq(hist_percentile(h, 100), 0);
	uint32_t i = 0;
	uint64_t lo, hi, c;
	ck_assert(!hist_next_bucket(h, &i, &lo, &hi, &c));
	free(h);
}
END_TEST

START_TEST(bytes_grow_with_bits)
{
	/* Out-of-range widths are clamped to 8 and 64. */
	ck_assert_uint_eq(hist_bytes(0), hist_bytes(8));
	ck_assert_uint_eq(hist_bytes(65), hist_bytes(64));
	ck_assert_uint_eq(hist_bytes(8), sizeof(struct hist) + 256 * sizeof(uint64_t));
	for (unsigned b = 8; b < 64; b++) {
		/* Each further power of two costs one set of sub-buckets. */
		ck_assert_uint_eq(hist_bytes(b + 1) - hist_bytes(b), HIST_SUB_COUNT * sizeof(uint64_t));
	}
	for (unsigned b = 8; b <= 64; b++) {
		struct hist *h = new_hist(b);
		ck_assert_uint_eq(h->bits, b);
		ck_assert_uint_eq(hist_bytes(b), sizeof(struct hist) + h->nbuckets * sizeof(uint64_t));
		free(h);
	}
	/* Fixed memory: the default range fits in well under 64 KiB. */
	ck_assert_uint_lt(hist_bytes(HIST_DEFAULT_BITS), 64 * 1024);
}
END_TEST

START_TEST(iteration_sums_to_count)
{
	struct hist *h = new_hist(20);
	rng_state = 31;
	for (int n = 0; n < 50000; n++)
		hist_record(h, rng_magnitude(21));
	ck_assert_uint_gt(h->overflow, 0);
	uint32_t i = 0;
	uint64_t lo, hi, c, total = 0, prev_hi = 0;
	int buckets = 0;
	while (hist_next_bucket(h, &i, &lo, &hi, &c)) {
		ck_assert_uint_gt(c, 0);
		ck_assert_uint_le(lo, hi);
		if (buckets)
			ck_assert_uint_gt(lo, prev_hi);
		ck_assert_uint_eq(c, h->counts[hist_index_of(lo)]);
		prev_hi = hi;
		total += c;
		buckets++;
	}
	ck_assert_uint_eq(total, h->count - h->overflow);
	ck_assert_int_gt(buckets, 100);
	/* Once done it stays done. */
	ck_assert(!hist_next_bucket(h, &i, &lo, &hi, &c));
	free(h);
}
END_TEST

/* Samples below zero in a second histogram of magnitudes, with known
 * answers: -50 .. 49 (all small, so exact), then only negatives. */
START_TEST(signed_statistics_known)
{
	struct hist *pos = new_hist(HIST_DEFAULT_BITS), *neg = new_hist(HIST_DEFAULT_BITS);
	for (int v = -50; v <= 49; v++) {
		if (v < 0)
			hist_record(neg, (uint64_t)-v);
		else
			hist_record(pos, (uint64_t)v);
	}
	ck_assert_int_eq(hist_signed_min(pos, neg), -50);
	ck_assert_int_eq(hist_signed_max(pos, neg), 49);
	ck_assert_double_eq_tol(hist_signed_mean(pos, neg), -0.5, 1e-12);
	/* variance of 100 consecutive integers: (n^2 - 1)/12 * n/(n - 1) */
	ck_assert_double_eq_tol(hist_signed_stddev(pos, neg), sqrt(9999.0 / 12.0 * 100.0 / 99.0),
				1e-9);
	ck_assert_int_eq(hist_signed_percentile(pos, neg, 1), -50);
	ck_assert_int_eq(hist_signed_percentile(pos, neg, 10), -41);
	ck_assert_int_eq(hist_signed_percentile(pos, neg, 50), -1);
	ck_assert_int_eq(hist_signed_percentile(pos, neg, 51), 0);
	ck_assert_int_eq(hist_signed_percentile(pos, neg, 90), 39);
	ck_assert_int_eq(hist_signed_percentile(pos, neg, 100), 49);

	hist_reset(pos);
	hist_reset(neg);
	hist_record(neg, 10);
	hist_record(neg, 20);
	hist_record(neg, 30);
	ck_assert_int_eq(hist_signed_min(pos, neg), -30);
	ck_assert_int_eq(hist_signed_max(pos, neg), -10);
	ck_assert_double_eq_tol(hist_signed_mean(pos, neg), -20.0, 1e-12);
	ck_assert_double_eq_tol(hist_signed_stddev(pos, neg), 10.0, 1e-9);
	ck_assert_int_eq(hist_signed_percentile(pos, neg, 50), -20);
	/* Without samples below zero, the unsigned answers. */
	ck_assert_int_eq(hist_signed_percentile(neg, NULL, 50), 20);
	ck_assert_int_eq(hist_signed_min(neg, NULL), 10);
	free(pos);
	free(neg);
}
END_TEST

/* An interval is the difference of two states of one histogram: counts
 * and sums exact; the max exact when it rose in between, else its
 * bucket's upper bound (capped by the whole's max), the min likewise. */
START_TEST(subtract_is_the_interval)
{
	struct hist *h = new_hist(HIST_DEFAULT_BITS), *old = new_hist(HIST_DEFAULT_BITS);
	uint64_t first[] = { 5, 1000, 70000 }, second[] = { 300, 1001, 1002 };
	for (size_t i = 0; i < 3; i++)
		hist_record(h, first[i]);
	memcpy(old, h, hist_bytes(HIST_DEFAULT_BITS));
	for (size_t i = 0; i < 3; i++)
		hist_record(h, second[i]);
	ck_assert(hist_subtract(h, old));
	ck_assert_uint_eq(h->count, 3);
	ck_assert(h->sum == 300 + 1001 + 1002);
	/* the max fell inside the interval's span, not its own extreme: the
	 * upper bound of 1002's bucket (1000..1003), the min 300's bucket */
	ck_assert_uint_eq(h->max, 1003);
	ck_assert_uint_ge(h->max, 1002);
	ck_assert_uint_eq(h->min, 300);
	uint64_t n = 0;
	for (uint32_t i = 0; i < h->nbuckets; i++)
		n += h->counts[i];
	ck_assert_uint_eq(n, 3);

	/* a new max in the interval is exact */
	memcpy(old, h, hist_bytes(HIST_DEFAULT_BITS));
	hist_record(h, 123457);
	ck_assert(hist_subtract(h, old));
	ck_assert_uint_eq(h->max, 123457);
	ck_assert_uint_eq(h->count, 1);
	/* an earlier state with more samples is refused, nothing changed */
	ck_assert(!hist_subtract(old, h) || old->count == 2);
	free(h);
	free(old);
}
END_TEST

static Suite *histogram_suite(void)
{
	Suite *s = suite_create("histogram");
	TCase *tc = tu_tcase(s, "buckets", 10);
	int nbits = (int)(sizeof test_bits / sizeof test_bits[0]);
	tcase_add_loop_test(tc, buckets_hold_their_values, 0, nbits);
	tcase_add_loop_test(tc, buckets_partition_the_range, 0, nbits);
	tcase_add_test(tc, small_values_are_exact);
	tcase_add_test(tc, subtract_is_the_interval);
	tcase_add_test(tc, bytes_grow_with_bits);
	tcase_add_test(tc, iteration_sums_to_count);

	tc = tu_tcase(s, "statistics", 10);
	tcase_add_test(tc, moments_are_exact);
	tcase_add_test(tc, percentiles_on_known_data);
	tcase_add_test(tc, percentiles_are_bounded);
	tcase_add_test(tc, error_bound_property);
	tcase_add_test(tc, out_of_range_is_kept);
	tcase_add_test(tc, empty_gives_zeros);
	tcase_add_test(tc, signed_statistics_known);

	tc = tu_tcase(s, "merge", 10);
	tcase_add_test(tc, merge_equals_recording_all);
	tcase_add_test(tc, merge_refuses_other_bits);
	return s;
}

int main(void)
{
	return tu_run(histogram_suite());
}
