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

#include "base/cpulist.h"
#include "base/numfmt.h"
#include "base/sha256.h"
#include "base/utc.h"

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
	runinfo_readiness_on(hf, tb, try_privileges, NULL, out);
}

void runinfo_readiness_on(const struct host_facts *hf, const struct timebase *tb,
			  bool try_privileges, const cpu_set_t *measuring, struct readiness *out)
{
	struct ready_timebase rtb = { 0 };
	char check[sizeof tb->check.error + 32];
	if (tb) {
		timebase_check_summary(&tb->check, check, sizeof check);
		rtb = (struct ready_timebase){ .name = tb->name, .invariant_tsc = tb->is_tsc,
					       .note = tb->reason,
					       .check = tb->check.done ? check : NULL,
					       .check_failed = tb->check.failed,
					       .check_error = tb->check.error };
	}
	readiness_check_on(hf, tb ? &rtb : NULL, try_privileges, measuring, out);
}

void runinfo_measuring_cpus(const struct requirement *r, const cpu_set_t *allowed,
			    cpu_set_t *set)
{
	cpu_set_t own;
	for (size_t i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].name, "cpus") == 0 && strcmp(r->params[i].value, "all") != 0 &&
		    cpulist_parse(r->params[i].value, &own) == 0) {
			CPU_OR(set, set, &own);
			return;
		}
	if (r->cpu >= 0 && r->cpu < CPU_SETSIZE)
		CPU_SET(r->cpu, set);
	else
		CPU_OR(set, set, allowed);
}

/* The timebase's check against the kernel: its outcome, how the kernel's
 * clock was read, the tolerance, and a key per comparison (what, against
 * what, both figures, or why it could not be made). */
static void add_check(struct fingerprint *fp, const struct tb_check *chk)
{
	char line[sizeof chk->error + 32];
	timebase_check_summary(chk, line, sizeof line);
	fingerprint_add(fp, "timebase.check", "%s", line);
	if (!chk->done)
		return;
	fingerprint_add(fp, "timebase.check.kernel_clock", "%s", chk->kernel);
	fingerprint_add(fp, "timebase.check.tolerance",
			"%g%% against the kernel's clock and the rates it or the hypervisor "
			"publish, %g%% against CPUID's nominal ones; plus the reads' own %.4f%% "
			"over %.1f ms", TB_CHECK_TOLERANCE * 100, TB_CHECK_TOLERANCE_NOMINAL * 100,
			chk->slack * 100, chk->span_ns / 1e6);
	for (unsigned i = 0; i < chk->nrows && i < TB_CHECK_MAX_ROWS; i++) {
		const struct tb_check_row *r = &chk->row[i];
		char key[64], m[48], e[48];
		snprintf(key, sizeof key, "timebase.check.%s", r->key);
		if (r->state == TB_ROW_UNAVAILABLE) {
			fingerprint_add(fp, key, "not available: %s", r->note);
			continue;
		}
		if (r->is_rate) {
			snprintf(m, sizeof m, "%.0f Hz", r->measured);
			snprintf(e, sizeof e, "%.0f Hz", r->expected);
		} else {
			snprintf(m, sizeof m, "%.6f s per s", r->measured);
			snprintf(e, sizeof e, "%.6f s per s", r->expected);
		}
		fingerprint_add(fp, key, "%s: %s: %s by the kernel's clock; %s: %s (ratio %.6f, "
				"tolerance %g%%)%s%s", r->state == TB_ROW_AGREES ? "agrees" : "DISAGREES",
				r->subject, m, r->source, e, r->ratio, r->tolerance * 100,
				r->note[0] ? "; " : "", r->note);
	}
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
		add_check(fp, &tb->check);
	}

	numfmt_c_leave(old);
}

static void add_utc(struct fingerprint *fp, const char *key, time_t t)
{
	char buf[32];
	if (t && utc_fmt(t, true, buf, sizeof buf))
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
