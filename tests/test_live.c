/* SPDX-License-Identifier: Apache-2.0 */
/* test_live.c - the live view of `rtconform run` on a terminal: the
 * figures the supervisor reads from a worker's result memory while it
 * measures (harness/live.c), their lines, and the estimate of the time
 * left (cli_progress_left), which must not grow while a run is awaited
 * and is paced on measured time only, and the status line above them;
 * the samples so far a run by time's plan counts (live_metric_samples). */
#include <check.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/cli.h"
#include "harness/live.h"
#include "harness/runner.h"
#include "probe_fixture.h"
#include "test_util.h"

/* A signed duration (metric 0, per-CPU series) and a count metric. */
static const struct probe_metric metrics[] = {
	{ "lat", "a signed duration", METRIC_DURATION },
	{ "violations", "a count", METRIC_COUNT },
};
static const struct probe plain = {
	.decl = { .name = "plain", .help = "test", .metrics = metrics, .nmetrics = 2,
		  .signed_metrics = 1u },
};
static const struct probe per_cpu = {
	.decl = { .name = "percpu", .help = "test", .metrics = metrics, .nmetrics = 2,
		  .signed_metrics = 1u },
	.per_cpu_series = true,
};

/* Known samples in, their figures out: samples, min, the latest, mean and
 * max, signed, in ns by the metric's scale; a count metric per run. */
START_TEST(snapshot_known_values)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&plain.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	struct probe_ctx c;
	ctx_for(&c, &plain, r);
	struct live_fig f[LIVE_MAX_FIGS];
	size_t n = live_snapshot(r, &plain, f, LIVE_MAX_FIGS);
	ck_assert_uint_eq(n, 2 + PROBE_HARNESS_METRICS);
	ck_assert_uint_eq(f[0].n, 0); /* no scale yet, no sample yet */
	result_metric(r, 0)->ns_per_unit = 2.0;
	probe_run_begin(&c, 0);
	metric_record_signed(c.m[0], c.run, 10);
	metric_record_signed(c.m[0], c.run, -3);
	metric_record_signed(c.m[0], c.run, 30);
	probe_add_count(&c, 1, 4);
	probe_run_end(&c, 3);
	probe_run_begin(&c, 1);
	metric_record_signed(c.m[0], c.run, 20);
	probe_run_end(&c, 1);
	n = live_snapshot(r, &plain, f, LIVE_MAX_FIGS);
	ck_assert_uint_eq(n, 2 + PROBE_HARNESS_METRICS);
	ck_assert_str_eq(f[0].name, "lat");
	ck_assert_int_eq(f[0].cpu, -1);
	ck_assert(!f[0].count);
	ck_assert_uint_eq(f[0].n, 4);
	ck_assert_double_eq(f[0].min, -6.0);
	ck_assert_double_eq(f[0].cur, 40.0);
	ck_assert_double_eq(f[0].mean, 28.5);
	ck_assert_double_eq(f[0].max, 60.0);
	ck_assert_str_eq(f[1].name, "violations");
	ck_assert(f[1].count);
	ck_assert_uint_eq(f[1].n, 2); /* one value per run: 4, then 0 */
	ck_assert_double_eq(f[1].min, 0.0);
	ck_assert_double_eq(f[1].cur, 0.0);
	ck_assert_double_eq(f[1].mean, 2.0);
	ck_assert_double_eq(f[1].max, 4.0);
	ck_assert_str_eq(f[2].name, "page-faults");
	ck_assert_uint_eq(f[2].n, 2);
	/* The samples a plan counts (live_metric_samples): a duration's,
	 * signed ones included; none of a count, none past the metrics. */
	ck_assert_uint_eq(live_metric_samples(r, &plain, 0), 4);
	ck_assert_uint_eq(live_metric_samples(r, &plain, 1), 0);
	ck_assert_uint_eq(live_metric_samples(r, &plain, 2 + PROBE_HARNESS_METRICS), 0);
	/* Room for fewer: those fit, the count says how many there are. */
	ck_assert_uint_eq(live_snapshot(r, &plain, f, 1), 2 + PROBE_HARNESS_METRICS);
	munmap(r, bytes);
}
END_TEST

/* A per-CPU probe's metric 0 is its series, one line per CPU it uses, as
 * soon as it has said which; before, the (empty) merged metric. */
START_TEST(snapshot_per_cpu_series)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&per_cpu.decl, 4, &bytes);
	ck_assert_ptr_nonnull(r);
	struct live_fig f[LIVE_MAX_FIGS];
	ck_assert_uint_eq(live_snapshot(r, &per_cpu, f, LIVE_MAX_FIGS), 2 + PROBE_HARNESS_METRICS);
	ck_assert_int_eq(f[0].cpu, -1);
	r->nseries = 2;
	r->series_cpu[0] = 3;
	r->series_cpu[1] = 5;
	for (unsigned s = 0; s < 2; s++)
		result_series(r, s)->ns_per_unit = 1.0;
	metric_record_signed(result_series(r, 1), 0, 7);
	metric_record_signed(result_series(r, 1), 0, -2);
	size_t n = live_snapshot(r, &per_cpu, f, LIVE_MAX_FIGS);
	ck_assert_uint_eq(n, 3 + PROBE_HARNESS_METRICS);
	ck_assert_str_eq(f[0].name, "lat");
	ck_assert_int_eq(f[0].cpu, 3);
	ck_assert_uint_eq(f[0].n, 0);
	ck_assert_int_eq(f[1].cpu, 5);
	ck_assert_uint_eq(f[1].n, 2);
	ck_assert_double_eq(f[1].min, -2.0);
	ck_assert_double_eq(f[1].cur, -2.0);
	ck_assert_double_eq(f[1].mean, 2.5);
	ck_assert_double_eq(f[1].max, 7.0);
	ck_assert_str_eq(f[2].name, "violations");
	ck_assert_int_eq(f[2].cpu, -1);
	/* metric 0, merged only at the end, counts its series' samples */
	metric_record_signed(result_series(r, 0), 0, 4);
	ck_assert_uint_eq(live_metric_samples(r, &per_cpu, 0), 3);
	munmap(r, bytes);
}
END_TEST

/* Read between the worker's count increment and its min store, a
 * histogram shows one sample and min UINT64_MAX: the view shows max. */
START_TEST(snapshot_mid_record)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&plain.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	struct metric_data *m = result_metric(r, 0);
	m->ns_per_unit = 1.0;
	m->hist.count = 1;
	m->hist.sum = 9;
	m->hist.max = 9;
	struct live_fig f[LIVE_MAX_FIGS];
	live_snapshot(r, &plain, f, LIVE_MAX_FIGS);
	ck_assert_uint_eq(f[0].n, 1);
	ck_assert_double_eq(f[0].min, 9.0);
	munmap(r, bytes);
}
END_TEST

START_TEST(format_lines)
{
	char b[200];
	live_header(b, sizeof b);
	ck_assert_str_eq(b, "  metric                   samples        min        cur       mean"
			    "        max");
	struct live_fig f = { .name = "wakeup", .cpu = 1, .n = 1200, .min = 2100,
			      .cur = 3000, .mean = 2950, .max = 14200 };
	live_format(&f, b, sizeof b);
	ck_assert_str_eq(b, "  wakeup cpu 1                1200     2.1 us       3 us    2.95 us"
			    "    14.2 us");
	ck_assert_uint_le(strlen(b), 79);
	f = (struct live_fig){ .name = "involuntary-switches", .cpu = -1, .count = true, .n = 3,
			       .min = 0, .cur = 1, .mean = 2.0 / 3, .max = 5 };
	live_format(&f, b, sizeof b);
	ck_assert_str_eq(b, "  involuntary-switches      3 runs          0          1        0.7"
			    "          5");
	ck_assert_uint_le(strlen(b), 79);
	f = (struct live_fig){ .name = "per-op", .cpu = -1 };
	live_format(&f, b, sizeof b);
	ck_assert_str_eq(b, "  per-op                         0          -          -          -"
			    "          -");
}
END_TEST

/* 10 runs, measuring since 2 s (warm-up before): after 1 run, 2 s later,
 * 18 s left; then counted down while the next samples are awaited, never
 * up, never below 0; the next move of `done` estimates again. Nothing
 * before the worker measures. */
START_TEST(estimate_does_not_grow_while_waiting)
{
	struct cli_progress p;
	memset(&p, 0, sizeof p);
	ck_assert_double_eq(cli_progress_left(&p, 0.1, 1.0), -1.0);
	p.measuring = true;
	p.measure_at = 2.0;
	ck_assert_double_eq(cli_progress_left(&p, 0.0, 2.5), -1.0);
	ck_assert_double_eq(cli_progress_left(&p, 0.1, 4.0), 18.0);
	double last = 18.0;
	for (double t = 4.1; t < 30.0; t += 0.1) {
		double left = cli_progress_left(&p, 0.1, t);
		ck_assert_msg(left <= last, "the estimate grew from %.2f to %.2f at %.1f s", last,
			      left, t);
		ck_assert(left >= 0.0);
		last = left;
	}
	ck_assert_double_eq(last, 0.0);
	ck_assert_double_eq(cli_progress_left(&p, 0.5, 32.0), 30.0);
	ck_assert_double_eq(cli_progress_left(&p, 0.5, 33.0), 29.0);
}
END_TEST

/* Review 24: warmup 2000, 4 runs of 300 timer wake-ups (1 ms): one run
 * ends 0.3 s after a 2 s warm-up; ~0.9 s are left, not 2.3 / 1 x 3. */
START_TEST(estimate_paced_on_measured_time)
{
	struct cli_progress p;
	memset(&p, 0, sizeof p);
	p.measuring = true;
	p.measure_at = 2.0;
	ck_assert_double_eq_tol(cli_progress_left(&p, 0.25, 2.3), 0.9, 1e-9);
}
END_TEST

/* The part of a run done: samples of the run against the iterations, then
 * against run 0's count (two samples an iteration here); a per-CPU
 * probe's least series; a count metric 0 says nothing. */
START_TEST(run_part_from_samples)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&plain.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	struct metric_data *m = result_metric(r, 0);
	ck_assert_double_eq(live_run_part(r, &plain, 0, 100), 0.0);
	for (int i = 0; i < 25; i++)
		metric_record_signed(m, 0, 5);
	ck_assert_double_eq(live_run_part(r, &plain, 0, 100), 0.25);
	for (int i = 0; i < 175; i++)
		metric_record_signed(m, 0, 5);
	ck_assert_double_eq(live_run_part(r, &plain, 0, 100), 1.0); /* at most 1 */
	for (int i = 0; i < 50; i++)
		metric_record_signed(m, 1, 5);
	ck_assert_double_eq(live_run_part(r, &plain, 1, 100), 0.25); /* 50 of 200 */
	ck_assert_double_eq(live_run_part(r, &plain, RTC_MAX_RUNS, 100), 0.0);
	munmap(r, bytes);

	r = result_alloc_for(&per_cpu.decl, 2, &bytes);
	ck_assert_ptr_nonnull(r);
	r->nseries = 2;
	for (int i = 0; i < 80; i++)
		metric_record_signed(result_series(r, 0), 0, 1);
	for (int i = 0; i < 40; i++)
		metric_record_signed(result_series(r, 1), 0, 1);
	ck_assert_double_eq(live_run_part(r, &per_cpu, 0, 100), 0.4);
	result_metric(r, 0)->kind = METRIC_COUNT;
	ck_assert_double_eq(live_run_part(r, &per_cpu, 0, 100), 0.0);
	munmap(r, bytes);
}
END_TEST

/* The status line: "starting", "warming up" only in warm-up; measuring by
 * count, runs="1": how far and a time left from the samples, no "warming
 * up"; a run by time gives its time left on the time measured, and once
 * past its duration it is finishing, never warming up. */
START_TEST(status_says_what_the_worker_does)
{
	size_t bytes;
	struct result_shm *r = result_alloc_for(&plain.decl, 0, &bytes);
	ck_assert_ptr_nonnull(r);
	struct requirement q = { .id = "W" };
	struct req_result rr = { .req = &q, .res = r, .probe = &plain };
	struct cli_progress p;
	memset(&p, 0, sizeof p);
	p.index = p.total = 1;
	char b[256];
	r->spec.iterations = 100;
	cli_progress_status(&p, &rr, "W", WS_SETUP, 0, 1, 0.2, b, sizeof b);
	ck_assert_str_eq(b, "[1/1] W: starting, 0.2 s");
	cli_progress_status(&p, &rr, "W", WS_WARMUP, 0, 1, 1.0, b, sizeof b);
	ck_assert_str_eq(b, "[1/1] W: warming up, 1.0 s");
	p.measuring = true;
	p.measure_at = 2.0;
	for (int i = 0; i < 25; i++)
		metric_record_signed(result_metric(r, 0), 0, 5);
	cli_progress_status(&p, &rr, "W", WS_MEASURING, 0, 1, 3.0, b, sizeof b);
	ck_assert_str_eq(b, "[1/1] W: 0/1 runs done, 3.0 s, ~3.0 s left");
	rr.duration_ns = 5000000000ull;
	cli_progress_status(&p, &rr, "W", WS_MEASURING, 3, 1, 4.0, b, sizeof b);
	ck_assert_str_eq(b, "[1/1] W: 2.0 s of 5 s, ~3.0 s left");
	cli_progress_status(&p, &rr, "W", WS_MEASURING, 9, 1, 7.5, b, sizeof b);
	ck_assert_str_eq(b, "[1/1] W: 5.5 s of 5 s, finishing the last run");
	munmap(r, bytes);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tu_tcase(s, "live", 10);
	tcase_add_test(tc, snapshot_known_values);
	tcase_add_test(tc, snapshot_per_cpu_series);
	tcase_add_test(tc, snapshot_mid_record);
	tcase_add_test(tc, format_lines);
	tcase_add_test(tc, estimate_does_not_grow_while_waiting);
	tcase_add_test(tc, estimate_paced_on_measured_time);
	tcase_add_test(tc, run_part_from_samples);
	tcase_add_test(tc, status_says_what_the_worker_does);
	return tu_run(s);
}
