/* SPDX-License-Identifier: Apache-2.0 */
/* test_openmetrics.c - the live metrics' text (reports/openmetrics.h) of
 * results made by hand: every count per le, sum, count and max is known. */
#include <check.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/measure/probe.h"
#include "harness/runner.h"
#include "reports/openmetrics.h"
#include "test_util.h"

static const struct probe_metric om_metrics[] = {
	{ .name = "per-op", .help = "one operation" },
	{ .name = "wakeup", .help = "signed: a timer that fires early" },
};
static const struct probe om_probe = {
	.decl.name = "sem-pingpong",
	.decl.help = "synthetic",
	.decl.metrics = om_metrics,
	.decl.nmetrics = 2,
	.decl.signed_metrics = 2u, /* wakeup */
};

struct om_fx {
	struct req_file file;
	struct requirement req;
	struct req_result r;
};

/* Requirement "SEM" (limit: per-op max <= 1 ms), 2 of 4 runs done:
 *   per-op (1 ns a unit): 150 x3, 999, 1000, 1001, 2500 x2, 7000000
 *   wakeup (2 ns a unit): +300 units, -50 units, -10 units
 *   page-faults: 2, 5 (and 1 in a run not yet counted: see below). */
static struct om_fx *fx_make(void)
{
	struct om_fx *x = calloc(1, sizeof *x);
	ck_assert_ptr_nonnull(x);
	x->file.name = (char *)"suite";
	x->req.id = (char *)"SEM";
	x->req.probe = (char *)"sem-pingpong";
	struct req_limit *l = &x->req.limits[x->req.nlimits++];
	ck_assert_int_eq(statistic_parse("max", &l->stat), 0);
	l->metric = (char *)"per-op";
	l->has_max = true;
	l->max = (struct quantity){ 1e6, QTY_NS };
	x->r.req = &x->req;
	x->r.file = &x->file;
	x->r.probe = &om_probe;
	x->r.res = result_alloc_for(&om_probe.decl, 0, &x->r.res_bytes);
	ck_assert_ptr_nonnull(x->r.res);
	struct result_shm *res = x->r.res;
	static const uint64_t per_op[] = { 150, 150, 150, 999, 1000, 1001, 2500, 2500, 7000000 };
	for (size_t i = 0; i < sizeof per_op / sizeof per_op[0]; i++)
		metric_record(result_metric(res, 0), (uint32_t)(i % 2), per_op[i]);
	struct metric_data *w = result_metric(res, 1);
	w->ns_per_unit = 2.0;
	metric_record_signed(w, 0, 300);
	metric_record_signed(w, 0, -50);
	metric_record_signed(w, 1, -10);
	struct metric_data *pf = result_metric(res, 2 + HM_PAGE_FAULTS);
	const uint64_t faults[] = { 2, 5 };
	for (uint32_t k = 0; k < 2; k++) {
		pf->runs[k] = (struct run_stat){ .count = 1, .sum = faults[k] };
		hist_record(&pf->hist, faults[k]);
	}
	res->runs_done = 2;
	res->spec.runs = 4;
	/* As the checkpoint hands it over: an error until it ends. */
	x->r.verdict = VERDICT_ERROR;
	return x;
}

static void fx_free(struct om_fx *x)
{
	req_result_free(&x->r);
	free(x);
}

START_TEST(le_counts_are_exact_or_low)
{
	struct om_fx *x = fx_make();
	struct om_req q = { 0 };
	openmetrics_summarise(&x->r, true, &q);
	ck_assert_uint_eq(q.nmetrics, 2 + PROBE_HARNESS_METRICS);
	const struct om_metric *m = &q.metrics[0];
	ck_assert_str_eq(m->name, "per-op");
	ck_assert(m->scaled && !m->is_signed);
	/* Bounds 100 ns, 200, 500, 1 us, 2, 5, ... 10 s. 1000 and 1001 share
	 * the bucket [1000, 1003], across 1 us: counted from 2 us only; the
	 * bucket of 999 ([996, 999]) lies below it. */
	const uint64_t want[OM_NBOUNDS] = { 0, 3, 3, 4, 6, 8, 8, 8, 8, 8, 8, 8, 8,
					    8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };
	for (unsigned k = 0; k < OM_NBOUNDS; k++)
		ck_assert_msg(m->le[k] == want[k], "le %g: %llu, want %llu",
			      openmetrics_bounds_ns[k], (unsigned long long)m->le[k],
			      (unsigned long long)want[k]);
	ck_assert_uint_eq(m->count, 9);
	ck_assert_double_eq_tol(m->sum_s, 7008450e-9, 1e-15);
	ck_assert(m->have_max);
	ck_assert_double_eq(m->max, 0.007);
	fx_free(x);
}
END_TEST

START_TEST(a_bound_at_or_above_the_max_counts_every_sample)
{
	struct om_fx *x = fx_make();
	struct metric_data *m0 = result_metric(x->r.res, 0);
	hist_reset(&m0->hist);
	for (int i = 0; i < 5; i++)
		hist_record(&m0->hist, 1000); /* bucket [1000, 1003] across 1 us */
	struct om_req q = { 0 };
	openmetrics_summarise(&x->r, false, &q);
	ck_assert_uint_eq(q.metrics[0].le[2], 0); /* 500 ns */
	ck_assert_uint_eq(q.metrics[0].le[3], 5); /* 1 us: the max is at it */
	fx_free(x);
}
END_TEST

START_TEST(signed_and_count_metrics)
{
	struct om_fx *x = fx_make();
	struct om_req q = { 0 };
	openmetrics_summarise(&x->r, true, &q);
	const struct om_metric *w = &q.metrics[1], *pf = &q.metrics[2 + HM_PAGE_FAULTS];
	ck_assert(w->is_signed);
	ck_assert_uint_eq(w->count, 1); /* the samples at or above zero */
	ck_assert_uint_eq(w->early, 2);
	ck_assert_double_eq_tol(w->early_max_s, 100e-9, 1e-18);
	ck_assert_double_eq_tol(w->max, 600e-9, 1e-18);
	ck_assert_uint_eq(w->le[OM_NBOUNDS - 1], 1); /* no negative bound: early ones apart */
	ck_assert_uint_eq(w->le[2], 0);              /* 600 ns > 500 ns */
	ck_assert_uint_eq(w->le[3], 1);
	ck_assert_int_eq(pf->kind, METRIC_COUNT);
	ck_assert_str_eq(pf->name, "page-faults");
	ck_assert_uint_eq(pf->total, 7);
	ck_assert_uint_eq(pf->count, 2);
	ck_assert_double_eq(pf->max, 5);
	fx_free(x);
}
END_TEST

START_TEST(verdict_so_far_and_fraction)
{
	struct om_fx *x = fx_make();
	struct om_req q = { 0 };
	openmetrics_summarise(&x->r, true, &q);
	ck_assert(q.judged);
	ck_assert_int_eq(q.verdict, VERDICT_FAIL); /* 7 ms > 1 ms, already */
	ck_assert_uint_eq(q.runs, 2);
	ck_assert_double_eq(q.fraction, 0.5);
	ck_assert_int_eq(x->r.verdict, VERDICT_ERROR); /* the result is only read */
	openmetrics_summarise(&x->r, false, &q);
	ck_assert_int_eq(q.verdict, VERDICT_ERROR); /* finished: its own verdict */
	ck_assert_double_eq(q.fraction, 1.0);
	/* A run that stays below the limit passes so far. */
	hist_reset(&result_metric(x->r.res, 0)->hist);
	hist_record(&result_metric(x->r.res, 0)->hist, 5000);
	openmetrics_summarise(&x->r, true, &q);
	ck_assert_int_eq(q.verdict, VERDICT_PASS);
	fx_free(x);
}
END_TEST

static void expect_line(const char *text, const char *line)
{
	char *want;
	ck_assert_int_ge(asprintf(&want, "\n%s\n", line), 0);
	ck_assert_msg(strstr(text, want) != NULL, "no line\n%s\nin\n%s", line, text);
	free(want);
}

static void expect_no(const char *text, const char *part)
{
	ck_assert_msg(strstr(text, part) == NULL, "'%s' in\n%s", part, text);
}

/* Three requirements: SEM done (the fixture's, finished), A"B\ running
 * (the same figures, half done), and a second SEM of the same suite
 * pending. */
static char *render_three(struct om_fx *x, bool finished)
{
	struct om_req q[3] = { { 0 } };
	openmetrics_summarise(&x->r, false, &q[0]);
	openmetrics_summarise(&x->r, true, &q[1]);
	q[0].suite = q[1].suite = q[2].suite = "suite";
	q[0].id = q[2].id = "SEM";
	q[1].id = "A\"B\\";
	q[0].probe = q[1].probe = q[2].probe = "sem-pingpong";
	q[0].state = OM_DONE;
	q[1].state = OM_RUNNING;
	q[2].state = OM_PENDING;
	struct om_run run = { .host = "board-7", .hostname = "raspberrypi", .version = "1.2",
			      .commit = "abc",
			      .started = 1700000000, .finished = finished, .reqs = q, .nreqs = 3 };
	size_t len = 0;
	char *text = openmetrics_render(&run, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(strlen(text), len);
	return text;
}

START_TEST(text_has_the_figures)
{
	struct om_fx *x = fx_make();
	char *t = render_three(x, false);
	const char *s = "{host=\"board-7\",suite=\"suite\",requirement=\"SEM\"";
	char line[400];
	expect_line(t, "# TYPE rtconform_latency_seconds histogram");
	snprintf(line, sizeof line, "rtconform_latency_seconds_bucket%s,metric=\"per-op\","
		 "le=\"1e-06\"} 4", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_latency_seconds_bucket%s,metric=\"per-op\","
		 "le=\"2e-06\"} 6", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_latency_seconds_bucket%s,metric=\"per-op\","
		 "le=\"+Inf\"} 9", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_latency_seconds_sum%s,metric=\"per-op\"} 0.00700845", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_latency_seconds_count%s,metric=\"per-op\"} 9", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_latency_max_seconds%s,metric=\"per-op\"} 0.007", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_latency_early_samples_total%s,metric=\"wakeup\"} 2", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_latency_early_max_seconds%s,metric=\"wakeup\"} 1e-07", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_events_total%s,metric=\"page-faults\"} 7", s);
	expect_line(t, line);
	snprintf(line, sizeof line, "rtconform_events_run_max%s,metric=\"page-faults\"} 5", s);
	expect_line(t, line);
	/* Counters are named with their _total (the 0.0.4 parsers' form). */
	expect_line(t, "# TYPE rtconform_events_total counter");
	/* no bound below zero, ever */
	expect_no(t, "le=\"-");
	free(t);
	fx_free(x);
}
END_TEST

START_TEST(text_has_states_verdicts_and_progress)
{
	struct om_fx *x = fx_make();
	char *t = render_three(x, false);
	expect_line(t, "rtconform_run_info{host=\"board-7\",hostname=\"raspberrypi\",version=\"1.2\","
		       "commit=\"abc\"} 1");
	expect_line(t, "rtconform_run_requirements{host=\"board-7\"} 3");
	expect_line(t, "rtconform_run_requirements_done{host=\"board-7\"} 1");
	expect_line(t, "rtconform_run_progress_ratio{host=\"board-7\"} 0.5"); /* (1 + .5) / 3 */
	expect_line(t, "rtconform_run_finished{host=\"board-7\"} 0");
	/* the label value escaped; its verdict so far */
	expect_line(t, "rtconform_requirement_verdict{host=\"board-7\",suite=\"suite\","
		       "requirement=\"A\\\"B\\\\\",verdict=\"fail\"} 1");
	expect_line(t, "rtconform_requirement_state{host=\"board-7\",suite=\"suite\","
		       "requirement=\"A\\\"B\\\\\",probe=\"sem-pingpong\",state=\"running\"} 1");
	expect_line(t, "rtconform_requirement_verdict{host=\"board-7\",suite=\"suite\","
		       "requirement=\"SEM\",verdict=\"error\"} 1");
	/* the second SEM of the suite is kept apart; pending: no verdict, no figures */
	expect_line(t, "rtconform_requirement_state{host=\"board-7\",suite=\"suite#2\","
		       "requirement=\"SEM\",probe=\"sem-pingpong\",state=\"pending\"} 1");
	expect_line(t, "rtconform_requirement_verdict{host=\"board-7\",suite=\"suite#2\","
		       "requirement=\"SEM\",verdict=\"pass\"} 0");
	expect_no(t, "suite=\"suite#2\",requirement=\"SEM\",metric=");
	expect_no(t, "rtconform_requirement_runs{host=\"board-7\",suite=\"suite#2\"");
	size_t n = strlen(t);
	ck_assert(n > 6 && strcmp(t + n - 6, "# EOF\n") == 0);
	free(t);
	t = render_three(x, true);
	expect_line(t, "rtconform_run_finished{host=\"board-7\"} 1");
	free(t);
	fx_free(x);
}
END_TEST

START_TEST(label_values_are_utf8)
{
	struct om_req q = { .suite = "s\xc3\xa9", .id = "R\nX", .probe = "p" };
	struct om_run run = { .host = "b\xff" "7", .version = "1", .commit = "c",
			      .reqs = &q, .nreqs = 1 };
	size_t len = 0;
	char *t = openmetrics_render(&run, &len);
	ck_assert_ptr_nonnull(t);
	/* a byte that is not UTF-8 becomes U+FFFD, good UTF-8 stays, \n is escaped */
	expect_line(t, "rtconform_requirement_state{host=\"b\xef\xbf\xbd" "7\",suite=\"s\xc3\xa9\","
		       "requirement=\"R\\nX\",probe=\"p\",state=\"running\"} 0");
	expect_line(t, "rtconform_run_progress_ratio{host=\"b\xef\xbf\xbd" "7\"} 0");
	free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("openmetrics");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, le_counts_are_exact_or_low);
	tcase_add_test(tc, a_bound_at_or_above_the_max_counts_every_sample);
	tcase_add_test(tc, signed_and_count_metrics);
	tcase_add_test(tc, verdict_so_far_and_fraction);
	tcase_add_test(tc, text_has_the_figures);
	tcase_add_test(tc, text_has_states_verdicts_and_progress);
	tcase_add_test(tc, label_values_are_utf8);
	return tu_run(s);
}
