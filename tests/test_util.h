/* SPDX-License-Identifier: Apache-2.0 */
/* test_util.h - what the Check suites share: temporary trees, whole-file
 * reads, and running a suite with its timing in view. Header-only: each
 * suite is its own program. */
#ifndef RTC_TEST_UTIL_H
#define RTC_TEST_UTIL_H

#include <check.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>

/* Remove dir and everything below it (a test's mkdtemp tree). */
static inline void tu_rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char p[512];
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= sizeof p)
			continue; /* mkdtemp trees are shallow and short */
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			tu_rm_tree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

/* The whole file, NUL-terminated; *len (if given) its size. Fails the test
 * when it cannot be read. Caller frees. */
static inline char *tu_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		size_t got = fread(buf + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* ---- Running a suite, with its timing in view ----------------------------
 *
 * The suites must pass on machines a quarter as fast as the one they are
 * written on, sanitizer builds included. So every test case states its
 * per-test timeout (tu_tcase) instead of taking Check's default of 4 s, and
 * tu_run prints, per case, the slowest test against that timeout, and the
 * suite's whole time against ctest's limit (RTC_CTEST_TIMEOUT, given by
 * tests/CMakeLists.txt):
 *
 *   suite histogram: 21 tests, 0.45 s (ctest timeout 60 s)
 *     case statistics: 6 tests, slowest 0.210 s (error_bound_property) of 10 s
 *
 * A case whose slowest test takes more than 1/TU_MARGIN of its timeout gets
 * a warning: four times slower it would be within a factor of two of
 * being killed. Check's CK_TIMEOUT_MULTIPLIER is honoured and shown. */
#define TU_MARGIN 8.0

struct tu_case {
	const char *name;
	double timeout; /* per test, s, before CK_TIMEOUT_MULTIPLIER */
	unsigned ntests;
	double slowest; /* s */
	char slowest_test[96];
};
static struct tu_case tu_cases[16];
static unsigned tu_ncases;

/* A test case of suite s whose every test may take timeout_s seconds. */
static inline TCase *tu_tcase(Suite *s, const char *name, double timeout_s)
{
	TCase *tc = tcase_create(name);
	tcase_set_timeout(tc, timeout_s);
	suite_add_tcase(s, tc);
	if (tu_ncases < sizeof tu_cases / sizeof tu_cases[0])
		tu_cases[tu_ncases++] = (struct tu_case){ .name = name, .timeout = timeout_s };
	return tc;
}

static inline const xmlNode *tu_child(const xmlNode *n, const char *name)
{
	for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, name))
			return c;
	return NULL;
}

/* Text of n's child `name` into buf (empty when there is none). */
static inline const char *tu_child_text(const xmlNode *n, const char *name, char *buf, size_t len)
{
	const xmlNode *c = tu_child(n, name);
	xmlChar *t = c ? xmlNodeGetContent(c) : NULL;
	snprintf(buf, len, "%s", t ? (const char *)t : "");
	xmlFree(t);
	return buf;
}

/* Per-case test counts and slowest tests from Check's XML log; the suite's
 * title into title. */
static inline void tu_read_log(const char *path, char *title, size_t tlen)
{
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	const xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
	for (const xmlNode *su = root ? root->children : NULL; su; su = su->next) {
		if (su->type != XML_ELEMENT_NODE || strcmp((const char *)su->name, "suite"))
			continue;
		tu_child_text(su, "title", title, tlen);
		for (const xmlNode *t = su->children; t; t = t->next) {
			if (t->type != XML_ELEMENT_NODE || strcmp((const char *)t->name, "test"))
				continue;
			char tc[96], id[96], dur[32];
			tu_child_text(t, "description", tc, sizeof tc);
			tu_child_text(t, "id", id, sizeof id);
			double d = atof(tu_child_text(t, "duration", dur, sizeof dur));
			for (unsigned i = 0; i < tu_ncases; i++) {
				struct tu_case *c = &tu_cases[i];
				if (strcmp(c->name, tc))
					continue;
				c->ntests++;
				if (d >= c->slowest) {
					c->slowest = d;
					snprintf(c->slowest_test, sizeof c->slowest_test, "%s", id);
				}
			}
		}
	}
	xmlFreeDoc(doc);
}

/* Run every test of s (CK_ENV: CK_VERBOSITY, CK_RUN_CASE ... apply), print
 * the timing lines, free the runner; EXIT_SUCCESS when nothing failed. */
static inline int tu_run(Suite *s)
{
	char log[] = "/tmp/rtc-check-XXXXXX";
	int fd = mkstemp(log);
	if (fd >= 0)
		close(fd);
	SRunner *sr = srunner_create(s);
	if (fd >= 0)
		srunner_set_xml(sr, log);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	srunner_run_all(sr, CK_ENV);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	int failed = srunner_ntests_failed(sr);
	int ran = srunner_ntests_run(sr);
	srunner_free(sr); /* closes the XML log */

	char title[96] = "?";
	if (fd >= 0) {
		tu_read_log(log, title, sizeof title);
		unlink(log);
	}
	const char *m = getenv("CK_TIMEOUT_MULTIPLIER");
	double mult = m && atof(m) > 0 ? atof(m) : 1.0;
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
#ifdef RTC_CTEST_TIMEOUT
	printf("suite %s: %d tests, %.2f s (ctest timeout %d s)\n", title, ran, secs,
	       RTC_CTEST_TIMEOUT);
#else
	printf("suite %s: %d tests, %.2f s\n", title, ran, secs);
#endif
	for (unsigned i = 0; i < tu_ncases; i++) {
		const struct tu_case *c = &tu_cases[i];
		if (!c->ntests)
			continue; /* not run (CK_RUN_CASE) */
		double limit = c->timeout * mult;
		printf("  case %s: %u tests, slowest %.3f s (%s) of %g s%s\n", c->name, c->ntests,
		       c->slowest, c->slowest_test, limit, mult != 1.0 ? " (CK_TIMEOUT_MULTIPLIER)" : "");
		if (c->slowest * TU_MARGIN > limit)
			printf("  WARNING: case %s: %s took %.0f%% of its timeout; a machine 4x "
			       "slower would come within 2x of it\n",
			       c->name, c->slowest_test, 100.0 * c->slowest / limit);
	}
	fflush(stdout);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
