/* SPDX-License-Identifier: Apache-2.0 */
/* test_loader.c - requirements files in, model or diagnostics out.
 *
 * Valid fixtures check every value lands where it should; invalid fixtures
 * (one per kind of problem, tests/fixtures/invalid/) check the loader refuses
 * them with a diagnostic naming the file, the line and what is wrong, and that
 * hostile input (XXE, entity bombs, external DTDs, XInclude, binary data)
 * neither leaks nor hangs.
 */
#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "harness/measure/probes/probes.h"
#include "requirements/validate.h"
#include "requirements/loader.h"
#include "requirements/model.h"
#include "base/sha256.h"
#include "test_util.h"

#define FIXTURES RTC_SOURCE_DIR "/tests/fixtures/"

static struct diag_list diags;

static void setup(void)
{
	req_loader_init();
	memset(&diags, 0, sizeof diags);
}

static void teardown(void)
{
	diag_free(&diags);
	req_loader_cleanup();
}

static char *fixture(const char *rel)
{
	static char path[1024];
	snprintf(path, sizeof path, "%s%s", FIXTURES, rel);
	return path;
}

static const char *all_diags(void)
{
	static char buf[16384];
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < diags.n && o < sizeof buf - 1; i++)
		o += (size_t)snprintf(buf + o, sizeof buf - o, "%s\n", diags.msgs[i]);
	return buf;
}

/* Is there a diagnostic that starts with "<prefix>" and contains every one of
 * the words (NULL-terminated)? */
static bool has_diag_v(const char *prefix, va_list ap)
{
	const char *words[16];
	size_t nw = 0;
	const char *w;
	while ((w = va_arg(ap, const char *)) && nw < 16)
		words[nw++] = w;
	for (size_t i = 0; i < diags.n; i++) {
		const char *m = diags.msgs[i];
		if (strncmp(m, prefix, strlen(prefix)) != 0)
			continue;
		size_t k = 0;
		while (k < nw && strstr(m, words[k]))
			k++;
		if (k == nw)
			return true;
	}
	return false;
}

static bool has_diag(const char *prefix, ...)
{
	va_list ap;
	va_start(ap, prefix);
	bool r = has_diag_v(prefix, ap);
	va_end(ap);
	return r;
}

/* Load fixture `rel`; it must be refused, and some diagnostic must start with
 * "path:line: " (line > 0) or "path: " (line 0) and contain the words. */
#define assert_refused(rel, line, ...)                                                   \
	do {                                                                             \
		char prefix_[1100];                                                      \
		const char *path_ = fixture(rel);                                        \
		struct req_file *f_ = req_load_file(path_, NULL, &diags);                \
		ck_assert_msg(f_ == NULL, "%s was accepted", rel);                       \
		ck_assert_msg(diags.n > 0, "%s: refused without a diagnostic", rel);     \
		if ((line) > 0)                                                          \
			snprintf(prefix_, sizeof prefix_, "%s:%d: ", path_, (int)(line)); \
		else                                                                     \
			snprintf(prefix_, sizeof prefix_, "%s: ", path_);                \
		ck_assert_msg(has_diag(prefix_, __VA_ARGS__, (const char *)NULL),        \
			      "%s: no diagnostic '%s...' with the expected words; got:\n%s", \
			      rel, prefix_, all_diags());                                \
	} while (0)

/* ---- valid files ------------------------------------------------------ */

START_TEST(full_file)
{
	struct req_file *f = req_load_file(fixture("valid/full.xml"), NULL, &diags);
	ck_assert_msg(f != NULL, "refused:\n%s", all_diags());
	ck_assert_uint_eq(diags.n, 0);
	ck_assert_str_eq(f->path, fixture("valid/full.xml"));
	ck_assert_str_eq(f->name, "full");
	ck_assert_str_eq(f->version, "2.1");
	ck_assert_str_eq(f->title, "Every element once"); /* whitespace collapsed */
	ck_assert_ptr_nonnull(f->load);
	ck_assert_str_eq(f->load->tool, "stress-ng");
	ck_assert_str_eq(f->load->args, "--cpu 4 --timeout 0");
	ck_assert_int_eq(f->load->line, 9);
	ck_assert_uint_eq(f->nreqs, 3);

	struct requirement *r = &f->reqs[0];
	ck_assert_str_eq(r->id, "SEM-RT");
	ck_assert_int_eq(r->line, 11);
	ck_assert_str_eq(r->title, "Semaphore at max priority");
	ck_assert_str_eq(r->source, "SPY memo: <= 50 us average");
	ck_assert_str_eq(r->probe, "sem-pingpong");
	ck_assert_int_eq(r->probe_line, 14);
	ck_assert_uint_eq(r->nparams, 2);
	ck_assert_str_eq(r->params[0].name, "mechanism");
	ck_assert_str_eq(r->params[0].value, "posix-sem");
	ck_assert_int_eq(r->params[0].line, 15);
	ck_assert_str_eq(req_param(r, "peer"), "process"); /* trimmed */
	ck_assert_ptr_null(req_param(r, "placement"));
	ck_assert_int_eq(r->policy, POLICY_FIFO);
	ck_assert(r->priority_max);
	ck_assert_int_eq(r->cpu, 1);
	ck_assert_int_eq(r->sched_line, 18);
	ck_assert_uint_eq(r->iterations, 100000); /* <run> overrides */
	ck_assert_uint_eq(r->runs, 4);            /* <defaults> */
	ck_assert_uint_eq(r->warmup, 0);          /* warmup may be 0 */
	ck_assert_uint_eq(r->timeout_ns, 90000000000ull);
	ck_assert_ptr_eq(r->load, f->load); /* the file's load, shared */
	ck_assert(!r->load_owned);

	ck_assert_uint_eq(r->nlimits, 5);
	struct req_limit *l = &r->limits[0];
	ck_assert_str_eq(l->metric, "per-op");
	ck_assert_int_eq(l->stat.kind, STAT_MEAN);
	ck_assert(l->has_max && !l->has_min);
	ck_assert_int_eq(l->max.unit, QTY_NS);
	ck_assert_double_eq(l->max.value, 50000);
	ck_assert_str_eq(l->max_text, "50us");
	ck_assert_str_eq(l->stat_text, "mean");
	ck_assert_int_eq(l->line, 20);
	l = &r->limits[1];
	ck_assert_ptr_null(l->metric);
	ck_assert_int_eq(l->stat.kind, STAT_MAX);
	ck_assert_double_eq(l->max.value, 300000); /* 300µs */
	l = &r->limits[2];
	ck_assert_int_eq(l->stat.kind, STAT_PCT);
	ck_assert_double_eq_tol(l->stat.pct, 99.9, 1e-9);
	ck_assert(l->has_max && l->has_min);
	ck_assert_double_eq(l->max.value, 1500000);
	ck_assert_double_eq(l->min.value, 2);
	l = &r->limits[3];
	ck_assert(!l->has_max && l->has_min);
	ck_assert_int_eq(l->min.unit, QTY_CYCLES);
	ck_assert_double_eq(l->min.value, 100);
	l = &r->limits[4];
	ck_assert_int_eq(l->stat.kind, STAT_RUNS_MEAN_STDDEV);
	ck_assert_double_eq(l->max.value, 5e8);

	r = &f->reqs[1];
	ck_assert_str_eq(r->id, "timer.wake_1");
	ck_assert_ptr_null(r->title);
	ck_assert_ptr_null(r->source);
	ck_assert_uint_eq(r->nparams, 0);
	ck_assert_int_eq(r->policy, POLICY_RR);
	ck_assert(!r->priority_max);
	ck_assert_int_eq(r->priority, 42);
	ck_assert_int_eq(r->cpu, -1);
	ck_assert_uint_eq(r->iterations, 600);
	ck_assert_uint_eq(r->runs, 2);
	ck_assert_uint_eq(r->warmup, 10);
	ck_assert_uint_eq(r->timeout_ns, 250000000);
	ck_assert(r->load_owned);
	ck_assert_ptr_ne(r->load, f->load);
	ck_assert_str_eq(r->load->args, "--vm 2");
	ck_assert_double_eq(r->limits[0].max.value, 1200);

	r = &f->reqs[2];
	ck_assert_str_eq(r->id, "3-other");
	ck_assert_int_eq(r->policy, POLICY_OTHER);
	ck_assert_int_eq(r->priority, 0);
	ck_assert_uint_eq(r->nlimits, 0);
	ck_assert_uint_eq(r->iterations, 5000);
	req_file_free(f);
}
END_TEST

START_TEST(builtin_defaults)
{
	struct req_file *f = req_load_file(fixture("valid/minimal.xml"), "minimal.xml", &diags);
	ck_assert_msg(f != NULL, "refused:\n%s", all_diags());
	ck_assert_str_eq(f->path, "minimal.xml"); /* the display name */
	ck_assert_ptr_null(f->version);
	ck_assert_ptr_null(f->title);
	ck_assert_ptr_null(f->load);
	ck_assert_uint_eq(f->nreqs, 1);
	struct requirement *r = &f->reqs[0];
	ck_assert_uint_eq(r->iterations, REQ_DEFAULT_ITERATIONS);
	ck_assert_uint_eq(r->runs, REQ_DEFAULT_RUNS);
	ck_assert_uint_eq(r->warmup, REQ_DEFAULT_WARMUP);
	ck_assert_uint_eq(r->timeout_ns, REQ_DEFAULT_TIMEOUT_NS);
	ck_assert_int_eq(r->policy, POLICY_OTHER);
	ck_assert(!r->priority_max);
	ck_assert_int_eq(r->priority, 0);
	ck_assert_int_eq(r->cpu, -1);
	ck_assert_ptr_null(r->load);
	ck_assert(!r->load_owned);
	req_file_free(f);
}
END_TEST

START_TEST(shipped_profiles)
{
	static const char *profiles[] = { "default.xml", "spy-memo.xml" };
	for (size_t i = 0; i < 2; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/requirements/profiles/%s", RTC_SOURCE_DIR, profiles[i]);
		struct req_file *f = req_load_file(path, NULL, &diags);
		ck_assert_msg(f != NULL, "%s refused:\n%s", path, all_diags());
		ck_assert_uint_ge(f->nreqs, 2);
		ck_assert_str_eq(f->reqs[0].id, "SEM-RT");
		ck_assert_int_eq(f->reqs[0].policy, POLICY_FIFO);
		ck_assert(f->reqs[0].priority_max);
		ck_assert_double_eq(f->reqs[0].limits[0].max.value, 50000);
		ck_assert_double_eq(f->reqs[0].limits[1].max.value, 300000);
		req_file_free(f);
	}
}
END_TEST

START_TEST(builtin_profile_in_memory)
{
	struct req_file *f = req_load_memory(rtc_default_profile, rtc_default_profile_len,
					     "<built-in default>", &diags);
	ck_assert_msg(f != NULL, "refused:\n%s", all_diags());
	ck_assert_str_eq(f->path, "<built-in default>");
	ck_assert_str_eq(f->name, "default");
	unsigned char want[32];
	sha256(rtc_default_profile, rtc_default_profile_len, want);
	ck_assert_mem_eq(f->sha256, want, 32);
	req_file_free(f);
}
END_TEST

START_TEST(memory_diagnostics_use_display_name)
{
	static const char doc[] =
		"<requirements xmlns='urn:rtconform:requirements:1' name='m'>\n"
		"  <requirement id='X'><probe name='p'/>\n"
		"    <limit statistic='max' max='3 fortnights'/></requirement>\n"
		"</requirements>\n";
	ck_assert_ptr_null(req_load_memory(doc, sizeof doc - 1, "inline.xml", &diags));
	ck_assert_msg(has_diag("inline.xml:3: ", "fortnights", "expected ns", (const char *)NULL),
		      "%s", all_diags());
}
END_TEST

/* The digest is of the file's bytes, so an auditor can sha256sum the file. */
START_TEST(digest_of_file_bytes)
{
	static const unsigned char abc[32] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde,
		0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
		0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	unsigned char d[32];
	sha256("abc", 3, d); /* FIPS 180-4 example */
	ck_assert_mem_eq(d, abc, 32);

	const char *path = fixture("valid/minimal.xml");
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof buf, fp);
	fclose(fp);
	sha256(buf, n, d);
	struct req_file *f = req_load_file(path, NULL, &diags);
	ck_assert_ptr_nonnull(f);
	ck_assert_mem_eq(f->sha256, d, 32);
	req_file_free(f);
}
END_TEST

/* ---- invalid files: one per kind of problem --------------------------- */

START_TEST(malformed)
{
	assert_refused("invalid/malformed.xml", 5, "not well-formed XML", "mismatch", "probe");
}
END_TEST

START_TEST(wrong_namespace)
{
	assert_refused("invalid/wrong-namespace.xml", 2, "wrong namespace", "urn:example:not-rtconform",
		       "urn:rtconform:requirements:1");
}
END_TEST

START_TEST(unknown_element)
{
	assert_refused("invalid/unknown-element.xml", 5, "'priority'", "not expected");
}
END_TEST

START_TEST(bad_unit)
{
	assert_refused("invalid/bad-unit.xml", 5, "max=\"300 parsecs\"", "unknown unit 'parsecs'",
		       "expected ns, us, \xc2\xb5s, ms, s or cycles");
}
END_TEST

START_TEST(duplicate_id)
{
	assert_refused("invalid/duplicate-id.xml", 9, "duplicate requirement id 'SEM' (first at line 3)");
	ck_assert_uint_eq(diags.n, 1);
}
END_TEST

START_TEST(bad_priority)
{
	assert_refused("invalid/bad-priority.xml", 5,
		       "priority 100 is out of range for fifo (expected 1..99 or max)");
}
END_TEST

START_TEST(zero_iterations)
{
	assert_refused("invalid/zero-iterations.xml", 5, "iterations=\"0\"", "at least 1");
	assert_refused("invalid/mixed-units.xml", 6, "min=\"100cycles\" and max=\"1s\"",
		       "mix a duration and a cycle count");
}
END_TEST

START_TEST(overflow_iterations)
{
	assert_refused("invalid/overflow-iterations.xml", 3, "iterations=\"99999999999999999999\"",
		       "out of range", "1..100000000");
	/* no follow-on complaint about p99.99 judged on a number nobody wrote */
	ck_assert_msg(diags.n == 1, "%s", all_diags());
}
END_TEST

/* confidence= (docs/requirements.md, "Confidence"): a percentage strictly
 * between 50% and 100%, on a percentile only; each bad one is refused on
 * its own line with its value and why. */
START_TEST(bad_confidence)
{
	const char *rel = "invalid/bad-confidence.xml";
	assert_refused(rel, 3, "<defaults> confidence=\"0.95\"", "not a percentage");
	assert_refused(rel, 7, "confidence=\"95\"", "not a percentage", "95%");
	assert_refused(rel, 8, "confidence=\"100%\"", "strictly between 50% and 100%");
	assert_refused(rel, 9, "confidence=\"50%\"", "strictly between 50% and 100%");
	assert_refused(rel, 10, "confidence=\"ninety%\"", "not a percentage");
	assert_refused(rel, 11, "confidence=\"95%\" on statistic max",
		       "the observed max is not a quantile", "no confidence bound applies");
	assert_refused(rel, 12, "confidence=\"99%\" on statistic mean",
		       "the observed mean is not a quantile");
	assert_refused(rel, 13, "confidence=\"-95%\"", "not a percentage");
	assert_refused(rel, 14, "confidence=\"95.%\"", "not a percentage");
	/* more digits than a report gives: it would read 100% */
	assert_refused(rel, 15, "confidence=\"99.99999999%\"", "too many digits");
}
END_TEST

/* A limit's own confidence= wins; <defaults confidence=> is every other
 * percentile limit's; a limit on another statistic keeps none. */
START_TEST(confidence_levels)
{
	struct req_file *f = req_load_file(fixture("valid/confidence.xml"), NULL, &diags);
	ck_assert_msg(f != NULL, "refused:\n%s", all_diags());
	const struct requirement *r = &f->reqs[0];
	ck_assert_uint_eq(r->nlimits, 3);
	ck_assert_double_eq_tol(r->limits[0].confidence, 0.90, 1e-12);
	ck_assert_ptr_null(r->limits[0].confidence_text);
	ck_assert_double_eq_tol(r->limits[1].confidence, 0.999, 1e-12);
	ck_assert_str_eq(r->limits[1].confidence_text, "99.9%");
	ck_assert_double_eq(r->limits[2].confidence, 0);
	req_file_free(f);
	/* A file without confidence= judges on point estimates: 0. */
	f = req_load_file(fixture("valid/full.xml"), NULL, &diags);
	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; i < f->nreqs; i++)
		for (size_t k = 0; k < f->reqs[i].nlimits; k++)
			ck_assert_double_eq(f->reqs[i].limits[k].confidence, 0);
	req_file_free(f);
}
END_TEST

/* A percentile the planned samples are sure to be too few for is refused,
 * by validate_file, which knows the probe's samples an iteration; the
 * message says what would suffice (issue 24 review, C and E). */
START_TEST(percentile_samples)
{
	const char *path = fixture("invalid/percentile-samples.xml");
	struct req_file *f = req_load_file(path, NULL, &diags);
	ck_assert_msg(f, "the loader refused: %s", all_diags());
	ck_assert_uint_eq(validate_file(f, &probe_catalog, &diags), 1);
	char prefix[1100];
	snprintf(prefix, sizeof prefix, "%s:7: ", path);
	ck_assert_msg(has_diag(prefix, "requirement A: p99.9 needs at least 10000 samples, this "
			       "plan takes 1000 (iterations x runs): that limit would be an error "
			       "verdict; iterations=\"5000\" would suffice", (const char *)NULL),
		      "%s", all_diags());
	/* p99 needs 1000: exactly enough */
	ck_assert_msg(diags.n == 1, "%s", all_diags());
	req_file_free(f);
}
END_TEST

/* Load `body` as a requirements file and validate it: the problems. */
static size_t validate_text(const char *body, struct req_file **out)
{
	char doc[2048];
	snprintf(doc, sizeof doc, "<requirements xmlns=\"urn:rtconform:requirements:1\" "
		 "name=\"s\">\n%s</requirements>\n", body);
	*out = req_load_memory(doc, strlen(doc), "s.xml", &diags);
	ck_assert_msg(*out, "the loader refused: %s", all_diags());
	return validate_file(*out, &probe_catalog, &diags);
}

/* A probe's violation metric (sem-pingpong's unanswered-waits) gets
 * rtconform's own limit "total <= 0" in every requirement that sets none on
 * it; a limit of the file's own on it stands instead; a probe without one
 * gets nothing; a requirement with no room left is refused, naming it. */
START_TEST(implicit_violation_limits)
{
	struct req_file *f;
	ck_assert_uint_eq(validate_text("<requirement id=\"A\"><probe name=\"sem-pingpong\"/>"
					 "<limit statistic=\"mean\" max=\"50us\"/></requirement>\n"
					 "<requirement id=\"B\"><probe name=\"sem-pingpong\"/>"
					 "<limit metric=\"unanswered-waits\" statistic=\"max\" max=\"3\"/>"
					 "</requirement>\n"
					 "<requirement id=\"C\"><probe name=\"selftest\"/></requirement>\n"
					 "<requirement id=\"D\"><probe name=\"sem-pingpong\"/>"
					 "</requirement>\n", &f), 0);
	ck_assert_uint_eq(validate_implicit_limits(f, &probe_catalog, &diags), 0);
	ck_assert_msg(diags.n == 0, "%s", all_diags());
	const struct requirement *a = &f->reqs[0], *b = &f->reqs[1], *c = &f->reqs[2];
	ck_assert_uint_eq(a->nlimits, 2);
	const struct req_limit *l = &a->limits[1];
	ck_assert_str_eq(l->metric, "unanswered-waits");
	ck_assert_int_eq(l->stat.kind, STAT_TOTAL);
	ck_assert_str_eq(l->stat_text, "total");
	ck_assert(l->has_max && !l->has_min && l->implicit);
	ck_assert_double_eq(l->max.value, 0);
	ck_assert_int_eq(l->max.unit, QTY_COUNT);
	ck_assert_int_eq(l->line, a->line);
	ck_assert(!a->limits[0].implicit);
	ck_assert_uint_eq(b->nlimits, 1); /* its own */
	ck_assert(!b->limits[0].implicit);
	ck_assert_uint_eq(c->nlimits, 0);
	ck_assert_uint_eq(f->reqs[3].nlimits, 1);
	ck_assert(f->reqs[3].limits[0].implicit);
	req_file_free(f); /* frees the added limit's strings too (ASan) */

	char body[1900] = "<requirement id=\"FULL\"><probe name=\"sem-pingpong\"/>";
	for (int i = 0; i < REQ_MAX_LIMITS; i++)
		strcat(body, "<limit statistic=\"max\" max=\"1s\"/>");
	strcat(body, "</requirement>\n");
	ck_assert_uint_eq(validate_text(body, &f), 0);
	ck_assert_uint_eq(validate_implicit_limits(f, &probe_catalog, &diags), 1);
	ck_assert_msg(has_diag("s.xml:2: ", "requirement FULL: 32 limits leave no room for "
			       "rtconform's own limit on unanswered-waits (total <= 0)",
			       (const char *)NULL), "%s", all_diags());
	ck_assert_uint_eq(f->reqs[0].nlimits, REQ_MAX_LIMITS);
	req_file_free(f);
}
END_TEST

/* sem-pingpong's wakeup takes two samples an iteration (a wake-up each
 * way), so 5000 x 1 gives the 10000 p99.9 needs; its per-op one. */
START_TEST(percentile_samples_per_iteration)
{
	struct req_file *f;
	ck_assert_uint_eq(validate_text("<requirement id=\"W\"><probe name=\"sem-pingpong\"/>"
					 "<run iterations=\"5000\" runs=\"1\"/>"
					 "<limit metric=\"wakeup\" statistic=\"p99.9\" max=\"1s\"/>"
					 "</requirement>\n", &f), 0);
	ck_assert_msg(diags.n == 0, "%s", all_diags());
	req_file_free(f);
	ck_assert_uint_eq(validate_text("<requirement id=\"W\"><probe name=\"sem-pingpong\"/>"
					 "<run iterations=\"4999\" runs=\"1\"/>\n"
					 "<limit metric=\"wakeup\" statistic=\"p99.9\" max=\"1s\"/>\n"
					 "<limit metric=\"per-op\" statistic=\"p99.9\" max=\"1s\"/>"
					 "</requirement>\n", &f), 2);
	ck_assert_msg(has_diag("s.xml:3: ", "requirement W: p99.9 needs at least 10000 samples, "
			       "this plan takes 9998 (iterations x runs x 2 samples of wakeup an "
			       "iteration)", "iterations=\"5000\" would suffice", (const char *)NULL),
		      "%s", all_diags());
	ck_assert_msg(has_diag("s.xml:4: ", "this plan takes 4999 (iterations x runs)",
			       "iterations=\"10000\" would suffice", (const char *)NULL),
		      "%s", all_diags());
	req_file_free(f);
}
END_TEST

/* timer-wakeup's wakeup takes one sample an iteration on each measured
 * CPU, a count only the run knows: validate does not refuse what a run on
 * enough CPUs measures, and warns how many it needs. */
START_TEST(percentile_samples_per_cpu)
{
	struct req_file *f;
	ck_assert_uint_eq(validate_text("<requirement id=\"T\"><probe name=\"timer-wakeup\"/>"
					 "<run iterations=\"3000\" runs=\"1\"/>\n"
					 "<limit metric=\"wakeup\" statistic=\"p99.9\" max=\"1s\"/>"
					 "</requirement>\n", &f), 0);
	ck_assert_msg(diags.n == 0, "%s", all_diags());
	ck_assert_uint_eq(validate_warnings(f, &probe_catalog, &diags), 1);
	ck_assert_msg(has_diag("s.xml:3: ", "warning: requirement T: p99.9 needs at least 10000 "
			       "samples, this plan takes 3000 on each measured CPU (iterations x "
			       "runs): unless it measures on 4 CPUs or more, that limit is an error "
			       "verdict; iterations=\"10000\" would suffice on one CPU",
			       (const char *)NULL), "%s", all_diags());
	req_file_free(f);
}
END_TEST

START_TEST(xxe)
{
	assert_refused("invalid/xxe.xml", 2, "DOCTYPE declarations are not allowed",
		       "no DTDs or entities");
	for (size_t i = 0; i < diags.n; i++)
		ck_assert_msg(!strstr(diags.msgs[i], "root:"), "/etc/passwd leaked: %s", diags.msgs[i]);
}
END_TEST

START_TEST(billion_laughs)
{
	assert_refused("invalid/billion-laughs.xml", 2, "DOCTYPE declarations are not allowed");
	ck_assert_uint_eq(diags.n, 1);
	ck_assert_ptr_null(strstr(diags.msgs[0], "lollol"));
}
END_TEST

START_TEST(external_dtd)
{
	/* the DOCTYPE starts on line 2; its SYSTEM id is on line 3 */
	assert_refused("invalid/external-dtd.xml", 2, "DOCTYPE declarations are not allowed");
}
END_TEST

START_TEST(xinclude)
{
	assert_refused("invalid/xinclude.xml", 5, "XInclude", "xi:include", "not allowed");
	for (size_t i = 0; i < diags.n; i++)
		ck_assert_msg(!strstr(diags.msgs[i], "root:"), "/etc/passwd leaked: %s", diags.msgs[i]);
}
END_TEST

START_TEST(empty_file)
{
	assert_refused("invalid/empty.xml", 0, "empty file");
}
END_TEST

START_TEST(binary_file)
{
	assert_refused("invalid/binary.xml", 5, "NUL byte", "binary");
}
END_TEST

START_TEST(invalid_utf8)
{
	assert_refused("invalid/invalid-utf8.xml", 3, "invalid UTF-8", "0xB5", "must be UTF-8");
}
END_TEST

/* Every independent problem is reported, each at its own line. */
START_TEST(all_problems_reported)
{
	assert_refused("invalid/many-errors.xml", 4, "timeout=\"0s\"", "greater than zero");
	static const struct {
		int line;
		const char *words;
	} want[] = {
		{ 8, "duplicate parameter 'peer' (first at line 7)" },
		{ 10, "unknown scheduling policy 'deadline' (expected other, fifo or rr)" },
		{ 10, "cpu '-2' is not a CPU number" },
		{ 11, "runs=\"1001\": out of range (expected 1..1000)" },
		{ 11, "warmup=\"-5\": negative numbers are not allowed (expected 0..100000000)" },
		{ 12, "unknown statistic 'median' (expected min, mean, stddev, max, pNN such as p99 or p99.9, runs-mean-stddev, or total (of a count))" },
		{ 13, "needs max= or min=" },
		{ 14, "min=\"2ms\" is greater than max=\"1ms\"" },
		{ 15, "max=\"1e3us\": exponents are not allowed" },
		{ 19, "priority max is not allowed for other" },
		{ 20, "max=\"10ps\": unknown unit 'ps' (expected ns, us, \xc2\xb5s, ms, s or cycles)" },
		{ 24, "policy rr needs a priority (expected 1..99 or max)" },
		{ 25, "max=\"-5us\": a sign is not allowed" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char prefix[1100];
		snprintf(prefix, sizeof prefix, "%s:%d: ", fixture("invalid/many-errors.xml"), want[i].line);
		ck_assert_msg(has_diag(prefix, want[i].words, (const char *)NULL),
			      "missing '%s%s' in:\n%s", prefix, want[i].words, all_diags());
	}
	ck_assert_uint_eq(diags.n, 1 + sizeof want / sizeof want[0]);
}
END_TEST

START_TEST(missing_file)
{
	ck_assert_ptr_null(req_load_file(fixture("invalid/no-such-file.xml"), NULL, &diags));
	ck_assert(has_diag(fixture("invalid/no-such-file.xml"), "cannot open", (const char *)NULL));
}
END_TEST

START_TEST(directory)
{
	ck_assert_ptr_null(req_load_file(FIXTURES "invalid", NULL, &diags));
	ck_assert(has_diag(FIXTURES "invalid: ", "directory", (const char *)NULL));
}
END_TEST

/* A 17 MiB file is refused from its size, before anything is read. */
START_TEST(too_large)
{
	char path[] = "/tmp/rtconform-test-large-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 17 * 1024 * 1024), 0); /* sparse */
	close(fd);
	struct req_file *f = req_load_file(path, "large.xml", &diags);
	unlink(path);
	ck_assert_ptr_null(f);
	ck_assert_msg(has_diag("large.xml: ", "too large (17825792 bytes, limit 16 MiB)",
			       (const char *)NULL), "%s", all_diags());
}
END_TEST

START_TEST(entity_reference_without_doctype)
{
	static const char doc[] =
		"<requirements xmlns='urn:rtconform:requirements:1' name='m'>\n"
		"  <title>&ent;</title>\n"
		"  <requirement id='X'><probe name='p'/></requirement>\n"
		"</requirements>\n";
	ck_assert_ptr_null(req_load_memory(doc, sizeof doc - 1, "ent.xml", &diags));
	ck_assert_msg(has_diag("ent.xml:2: ", "not well-formed XML", "ent", (const char *)NULL),
		      "%s", all_diags());
}
END_TEST

/* The five predefined entities and character references are plain XML. */
START_TEST(predefined_entities_ok)
{
	static const char doc[] =
		"<requirements xmlns='urn:rtconform:requirements:1' name='m'>\n"
		"  <title>&lt;&amp;&gt;&quot;&apos; &#181;s</title>\n"
		"  <requirement id='X'><probe name='p'/></requirement>\n"
		"</requirements>\n";
	struct req_file *f = req_load_memory(doc, sizeof doc - 1, "ok.xml", &diags);
	ck_assert_msg(f != NULL, "%s", all_diags());
	ck_assert_str_eq(f->title, "<&>\"' \xc2\xb5s");
	req_file_free(f);
}
END_TEST

START_TEST(utf8_bom_ok)
{
	static const char doc[] =
		"\xef\xbb\xbf<?xml version='1.0' encoding='UTF-8'?>\n"
		"<requirements xmlns='urn:rtconform:requirements:1' name='bom'>\n"
		"  <requirement id='X'><probe name='p'/></requirement>\n"
		"</requirements>\n";
	struct req_file *f = req_load_memory(doc, sizeof doc - 1, "bom.xml", &diags);
	ck_assert_msg(f != NULL, "%s", all_diags());
	ck_assert_int_eq(f->reqs[0].line, 3);
	req_file_free(f);
}
END_TEST

/* <clause ref title>: loaded in order, the title optional, whitespace in
 * ref collapsed; a ref twice in one requirement refused on the second's
 * line naming the first's (another requirement may cite it again). */
START_TEST(clauses_loaded)
{
	static const char doc[] =
		"<requirements xmlns='urn:rtconform:requirements:1' name='c'>\n"
		"  <requirement id='A'><title>t</title>\n"
		"    <clause ref='POSIX.1-2017  XSH 2.8.4' title='Process Scheduling'/>\n"
		"    <clause ref='POSIX.1-2017 XSH clock_nanosleep'/>\n"
		"    <clause ref='T' title=' two&#10;lines   and&#9;blanks '/>\n"
		"    <probe name='p'/></requirement>\n"
		"  <requirement id='B'><clause ref='POSIX.1-2017 XSH 2.8.4'/><probe name='p'/>"
		"</requirement>\n"
		"  <requirement id='C'><probe name='p'/></requirement>\n"
		"</requirements>\n";
	struct req_file *f = req_load_memory(doc, sizeof doc - 1, "c.xml", &diags);
	ck_assert_msg(f != NULL, "%s", all_diags());
	ck_assert_uint_eq(f->reqs[0].nclauses, 3);
	ck_assert_str_eq(f->reqs[0].clauses[0].ref, "POSIX.1-2017 XSH 2.8.4");
	ck_assert_str_eq(f->reqs[0].clauses[0].title, "Process Scheduling");
	ck_assert_int_eq(f->reqs[0].clauses[0].line, 3);
	ck_assert_str_eq(f->reqs[0].clauses[1].ref, "POSIX.1-2017 XSH clock_nanosleep");
	ck_assert_ptr_null(f->reqs[0].clauses[1].title);
	/* collapsed as the schema's xs:token judged it: results.json's reader
	 * refuses a control character in it */
	ck_assert_str_eq(f->reqs[0].clauses[2].title, "two lines and blanks");
	ck_assert_uint_eq(f->reqs[1].nclauses, 1);
	ck_assert_uint_eq(f->reqs[2].nclauses, 0);
	req_file_free(f);
}
END_TEST

static void clause_refused(const char *clauses, int line, const char *words)
{
	char doc[8192];
	snprintf(doc, sizeof doc,
		 "<requirements xmlns='urn:rtconform:requirements:1' name='c'>\n"
		 "  <requirement id='A'>\n%s"
		 "    <probe name='p'/></requirement>\n"
		 "</requirements>\n", clauses);
	diag_free(&diags);
	memset(&diags, 0, sizeof diags);
	ck_assert_msg(req_load_memory(doc, strlen(doc), "c.xml", &diags) == NULL,
		      "accepted: %s", clauses);
	char prefix[32];
	snprintf(prefix, sizeof prefix, "c.xml:%d: ", line);
	ck_assert_msg(has_diag(prefix, words, (const char *)NULL), "no '%s%s' for %s; got:\n%s",
		      prefix, words, clauses, all_diags());
}

START_TEST(clauses_refused)
{
	clause_refused("    <clause ref='X 1'/>\n    <clause ref='Y'/>\n    <clause ref='X  1'/>\n",
		       5, "duplicate clause 'X 1' (first at line 3)");
	clause_refused("    <clause title='no ref'/>\n", 3, "ref");
	clause_refused("    <clause ref='  '/>\n", 3, "ref");
	clause_refused("    <clause ref='X&#127;1'/>\n", 3, "ref holds a control character");
	clause_refused("    <clause ref='X' title='a&#127;'/>\n", 3,
		       "title holds a control character");
	char many[4096] = "", big[400];
	for (int i = 0; i < 17; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many),
			 "    <clause ref='R%d'/>\n", i);
	clause_refused(many, 19, "clause");
	memset(big, 'x', 129);
	snprintf(big + 129, sizeof big - 129, "'/>\n");
	char one[512];
	snprintf(one, sizeof one, "    <clause ref='%s", big);
	clause_refused(one, 3, "ref");
	/* after the probe: the schema's order */
	diag_free(&diags);
	memset(&diags, 0, sizeof diags);
	static const char late[] =
		"<requirements xmlns='urn:rtconform:requirements:1' name='c'>\n"
		"  <requirement id='A'><probe name='p'/><clause ref='X'/></requirement>\n"
		"</requirements>\n";
	ck_assert_ptr_null(req_load_memory(late, sizeof late - 1, "c.xml", &diags));
}
END_TEST

START_TEST(utf16_refused)
{
	static const char doc[] = "\xff\xfe<\0r\0/\0>\0";
	ck_assert_ptr_null(req_load_memory(doc, sizeof doc - 1, "u16.xml", &diags));
	ck_assert(has_diag("u16.xml: ", "UTF-16", "must be UTF-8", (const char *)NULL));
}
END_TEST

/* libxml2 stores element lines in 16 bits; diagnostics must not stop at
 * line 65535 (generated files can be that long). */
START_TEST(lines_past_65535)
{
	static const char head[] = "<requirements xmlns='urn:rtconform:requirements:1' name='m'>";
	static const char tail[] =
		"<requirement id='A'><probe name='p'/><limit statistic='max' max='5ps'/></requirement>\n"
		"<requirement id='A'><probe name='p'/><bogus/></requirement>\n"
		"</requirements>\n";
	size_t blank = 70000, len = sizeof head - 1 + blank + sizeof tail - 1;
	char *doc = malloc(len);
	ck_assert_ptr_nonnull(doc);
	memcpy(doc, head, sizeof head - 1);
	memset(doc + sizeof head - 1, '\n', blank);
	memcpy(doc + sizeof head - 1 + blank, tail, sizeof tail - 1);

	ck_assert_ptr_null(req_load_memory(doc, len, "long.xml", &diags));
	ck_assert_msg(has_diag("long.xml:70002: ", "'bogus'", "not expected", (const char *)NULL),
		      "%s", all_diags());

	/* the same without the schema error reaches the semantic checks */
	char *bogus = strstr(doc + blank, "<bogus/>");
	memset(bogus, ' ', strlen("<bogus/>"));
	diag_free(&diags);
	ck_assert_ptr_null(req_load_memory(doc, len, "long.xml", &diags));
	ck_assert_msg(has_diag("long.xml:70001: ", "max=\"5ps\"", "unknown unit", (const char *)NULL),
		      "%s", all_diags());
	ck_assert_msg(has_diag("long.xml:70002: ", "duplicate requirement id 'A' (first at line 70001)",
			       (const char *)NULL), "%s", all_diags());
	free(doc);
}
END_TEST

static Suite *loader_suite(void)
{
	Suite *s = suite_create("loader");
	TCase *tc = tu_tcase(s, "valid", 10);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, full_file);
	tcase_add_test(tc, clauses_loaded);
	tcase_add_test(tc, clauses_refused);
	tcase_add_test(tc, builtin_defaults);
	tcase_add_test(tc, shipped_profiles);
	tcase_add_test(tc, builtin_profile_in_memory);
	tcase_add_test(tc, digest_of_file_bytes);
	tcase_add_test(tc, predefined_entities_ok);
	tcase_add_test(tc, utf8_bom_ok);

	tc = tu_tcase(s, "invalid", 10);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, malformed);
	tcase_add_test(tc, wrong_namespace);
	tcase_add_test(tc, unknown_element);
	tcase_add_test(tc, bad_unit);
	tcase_add_test(tc, duplicate_id);
	tcase_add_test(tc, bad_priority);
	tcase_add_test(tc, zero_iterations);
	tcase_add_test(tc, overflow_iterations);
	tcase_add_test(tc, bad_confidence);
	tcase_add_test(tc, confidence_levels);
	tcase_add_test(tc, percentile_samples);
	tcase_add_test(tc, percentile_samples_per_iteration);
	tcase_add_test(tc, implicit_violation_limits);
	tcase_add_test(tc, percentile_samples_per_cpu);
	tcase_add_test(tc, all_problems_reported);
	tcase_add_test(tc, memory_diagnostics_use_display_name);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, directory);
	tcase_add_test(tc, lines_past_65535);

	tc = tu_tcase(s, "hostile", 10);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, xxe);
	tcase_add_test(tc, billion_laughs);
	tcase_add_test(tc, external_dtd);
	tcase_add_test(tc, xinclude);
	tcase_add_test(tc, entity_reference_without_doctype);
	tcase_add_test(tc, empty_file);
	tcase_add_test(tc, binary_file);
	tcase_add_test(tc, invalid_utf8);
	tcase_add_test(tc, utf16_refused);
	tcase_add_test(tc, too_large);
	return s;
}

int main(void)
{
	return tu_run(loader_suite());
}
