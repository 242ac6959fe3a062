/* SPDX-License-Identifier: Apache-2.0 */
/* runinfo.c - see runinfo.h. */
#include "harness/runinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/globals.h>
#include <libxml/xmlversion.h>

#include "base/numfmt.h"
#include "base/sha256.h"

static void add_compiler(struct fingerprint *fp)
{
#if defined(__clang__)
	fingerprint_add(fp, "rtconform.compiler", "%s", __VERSION__); /* "Clang 16.0.6 ..." */
#elif defined(__GNUC__)
	fingerprint_add(fp, "rtconform.compiler", "gcc %s", __VERSION__);
#else
	fingerprint_add(fp, "rtconform.compiler", "unknown (not gcc or clang)");
#endif
}

void runinfo_collect(struct fingerprint *fp, const struct timebase *tb)
{
	struct host_facts hf;
	host_facts_collect(&hf);
	runinfo_collect_facts(fp, &hf, tb);
}

void runinfo_readiness(const struct host_facts *hf, const struct timebase *tb,
		       bool try_privileges, struct readiness *out)
{
	struct ready_timebase rtb = { 0 };
	if (tb)
		rtb = (struct ready_timebase){ .name = tb->name, .invariant_tsc = tb->is_tsc,
					       .note = tb->reason };
	readiness_check(hf, tb ? &rtb : NULL, try_privileges, out);
}

void runinfo_collect_facts(struct fingerprint *fp, const struct host_facts *hf,
			   const struct timebase *tb)
{
	fingerprint_add_host(fp, hf);
	locale_t old = numfmt_c_enter();
	fingerprint_add(fp, "rtconform.version", "%s", runinfo_version);
	fingerprint_add(fp, "rtconform.commit", "%s", runinfo_commit);
#ifdef RTC_SANITIZED
	/* Sanitizers cannot lock memory: these figures must never pass for a
	 * qualification (see RTC_SANITIZE in CMakeLists.txt). */
	fingerprint_add(fp, "rtconform.build",
			"sanitizer (address,undefined): memory not locked, figures not for qualification");
#else
	fingerprint_add(fp, "rtconform.build", "standard");
#endif
	add_compiler(fp);
	/* Built against and running with: a distribution update can change
	 * the second without a rebuild. */
	int rv = atoi(xmlParserVersion); /* "20914" */
	fingerprint_add(fp, "rtconform.libxml2", "%s (running %d.%d.%d)", LIBXML_DOTTED_VERSION,
			rv / 10000, rv / 100 % 100, rv % 100);
	fingerprint_add(fp, "rtconform.jansson", "%s (running %s)", JANSSON_VERSION,
			jansson_version_str());

	if (tb) {
		fingerprint_add(fp, "timebase.name", "%s", tb->name ? tb->name : "unknown");
		fingerprint_add(fp, "timebase.freq_hz", "%.0f", tb->freq_hz);
		fingerprint_add(fp, "timebase.resolution_ns", "%.3f", tb->resolution_ns);
		fingerprint_add(fp, "timebase.read_overhead_min_ns", "%.3f", tb->read_min_ns);
		fingerprint_add(fp, "timebase.read_overhead_median_ns", "%.3f",
				tb->read_median_ns);
		if (tb->reason[0])
			fingerprint_add(fp, "timebase.note", "%s", tb->reason);
	}

	numfmt_c_leave(old);
}

static void add_utc(struct fingerprint *fp, const char *key, time_t t)
{
	struct tm tm;
	char buf[32];
	if (t && gmtime_r(&t, &tm) && strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm))
		fingerprint_add(fp, key, "%s", buf);
	else
		fingerprint_add(fp, key, "unknown");
}

void runinfo_add_run(struct fingerprint *fp, const char *command, time_t started,
			 time_t ended, struct req_file *const *files, size_t nfiles)
{
	if (command)
		fingerprint_add(fp, "rtconform.command", "%s", command);
	char *cwd = getcwd(NULL, 0);
	if (cwd)
		fingerprint_add(fp, "rtconform.cwd", "%s", cwd);
	else
		fingerprint_add(fp, "rtconform.cwd", "unknown (getcwd: %s)", strerror(errno));
	free(cwd);
	add_utc(fp, "rtconform.started", started);
	add_utc(fp, "rtconform.ended", ended);
	for (size_t i = 0; i < nfiles; i++) {
		char key[64], hex[65];
		const struct req_file *f = files[i];
		if (!f)
			continue;
		sha256_hex(f->sha256, hex);
		snprintf(key, sizeof key, "requirements.%zu.path", i + 1);
		fingerprint_add(fp, key, "%s", f->path ? f->path : "");
		snprintf(key, sizeof key, "requirements.%zu.sha256", i + 1);
		fingerprint_add(fp, key, "%s", hex);
	}
}
