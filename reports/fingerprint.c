/* fingerprint.c - the machine a run measured on, as key/value pairs.
 *
 * Every value is a string a person can read in a report. Nothing here may
 * fail a run: a value that cannot be read says so ("unknown (reason)"),
 * because an auditor must see that it was looked for.
 */
#include "fingerprint.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <libxml/xmlversion.h>

#include "../harness/timebase.h"

#ifndef RTC_VERSION
#define RTC_VERSION "unknown"
#endif

static struct fp_entry *find(const struct fingerprint *fp, const char *key)
{
	for (size_t i = 0; i < fp->n; i++)
		if (strcmp(fp->e[i].key, key) == 0)
			return &fp->e[i];
	return NULL;
}

static void vadd(struct fingerprint *fp, const char *key, const char *fmt, va_list ap)
{
	char *value;
	if (vasprintf(&value, fmt, ap) < 0)
		return; /* out of memory: the report lacks one line, no more */

	/* A key appears once: reports turn keys into property names, and two
	 * properties with one name would leave a reader guessing. */
	struct fp_entry *e = find(fp, key);
	if (e) {
		free(e->value);
		e->value = value;
		return;
	}
	if (fp->n == fp->cap) {
		size_t cap = fp->cap ? fp->cap * 2 : 32;
		struct fp_entry *ne = realloc(fp->e, cap * sizeof *ne);
		if (!ne) {
			free(value);
			return;
		}
		fp->e = ne;
		fp->cap = cap;
	}
	char *k = strdup(key);
	if (!k) {
		free(value);
		return;
	}
	fp->e[fp->n].key = k;
	fp->e[fp->n].value = value;
	fp->n++;
}

void fingerprint_add(struct fingerprint *fp, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vadd(fp, key, fmt, ap);
	va_end(ap);
}

const char *fingerprint_get(const struct fingerprint *fp, const char *key)
{
	const struct fp_entry *e = find(fp, key);
	return e ? e->value : NULL;
}

void fingerprint_free(struct fingerprint *fp)
{
	for (size_t i = 0; i < fp->n; i++) {
		free(fp->e[i].key);
		free(fp->e[i].value);
	}
	free(fp->e);
	fp->e = NULL;
	fp->n = fp->cap = 0;
}

/* First line of a small file, trailing newline removed. Returns 0 or
 * -errno (an empty file is -ENODATA). */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	int ret = 0;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (ret)
		return ret;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Add key = first line of path, or "unknown (path: why)". */
static void add_file_value(struct fingerprint *fp, const char *key, const char *path)
{
	char buf[1024];
	int ret = read_line(path, buf, sizeof buf);
	if (ret)
		fingerprint_add(fp, key, "unknown (%s: %s)", path, strerror(-ret));
	else
		fingerprint_add(fp, key, "%s", buf);
}

/* The CPU model as /proc/cpuinfo names it; the field differs by
 * architecture (x86 "model name", arm64 often only "CPU part", some boards
 * "Hardware" or "Model"), so take the first that is present. */
static void add_cpu_model(struct fingerprint *fp)
{
	static const char *const keys[] = { "model name", "Model", "Hardware",
					    "cpu model", "Processor", "cpu" };
	char found[sizeof keys / sizeof keys[0]][256];
	memset(found, 0, sizeof found);

	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f) {
		fingerprint_add(fp, "host.cpu.model", "unknown (/proc/cpuinfo: %s)",
				strerror(errno));
		return;
	}
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *end = colon;
		while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		size_t klen = (size_t)(end - line);
		char *val = colon + 1;
		val += strspn(val, " \t");
		val[strcspn(val, "\n")] = '\0';
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			if (!found[i][0] && *val && strlen(keys[i]) == klen &&
			    strncmp(line, keys[i], klen) == 0)
				snprintf(found[i], sizeof found[i], "%s", val);
		}
	}
	fclose(f);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (found[i][0]) {
			fingerprint_add(fp, "host.cpu.model", "%s", found[i]);
			return;
		}
	}
	fingerprint_add(fp, "host.cpu.model", "unknown (no model field in /proc/cpuinfo)");
}

/* Preemption model. /sys/kernel/realtime exists only on PREEMPT_RT kernels
 * and is the one definite answer; otherwise the uname version string is
 * what the kernel build wrote there ("#1 SMP PREEMPT_DYNAMIC ..."). */
static void add_preempt(struct fingerprint *fp, const char *uname_version)
{
	char buf[32];
	if (read_line("/sys/kernel/realtime", buf, sizeof buf) == 0 && buf[0] == '1') {
		fingerprint_add(fp, "host.preempt", "PREEMPT_RT");
		return;
	}
	if (!uname_version) {
		fingerprint_add(fp, "host.preempt", "unknown (uname failed)");
		return;
	}
	if (strstr(uname_version, "PREEMPT_RT"))
		fingerprint_add(fp, "host.preempt", "PREEMPT_RT");
	else if (strstr(uname_version, "PREEMPT_DYNAMIC"))
		fingerprint_add(fp, "host.preempt", "PREEMPT_DYNAMIC");
	else if (strstr(uname_version, "PREEMPT"))
		fingerprint_add(fp, "host.preempt", "PREEMPT");
	else
		fingerprint_add(fp, "host.preempt", "none (no PREEMPT in kernel version)");
}

/* RT throttling caps how much of each period real-time tasks may use; it
 * is both a latency source and the harness's last line of defence against
 * a runaway worker, so the report states it. */
static void add_rt_throttling(struct fingerprint *fp)
{
	const char *rp = "/proc/sys/kernel/sched_rt_runtime_us";
	const char *pp = "/proc/sys/kernel/sched_rt_period_us";
	char rbuf[32], pbuf[32];
	int ret = read_line(rp, rbuf, sizeof rbuf);
	if (ret) {
		fingerprint_add(fp, "host.rt_throttling", "unknown (%s: %s)", rp, strerror(-ret));
		return;
	}
	ret = read_line(pp, pbuf, sizeof pbuf);
	if (ret) {
		fingerprint_add(fp, "host.rt_throttling", "unknown (%s: %s)", pp, strerror(-ret));
		return;
	}
	long runtime = strtol(rbuf, NULL, 10);
	if (runtime < 0)
		fingerprint_add(fp, "host.rt_throttling",
				"disabled (sched_rt_runtime_us=%s, sched_rt_period_us=%s)",
				rbuf, pbuf);
	else
		fingerprint_add(fp, "host.rt_throttling",
				"%s us per %s us (sched_rt_runtime_us/sched_rt_period_us)",
				rbuf, pbuf);
}

/* Kernel parameters that shape real-time behaviour (isolation, tick,
 * RCU callbacks, idle states, preemption model, TSC trust). Only these:
 * the whole command line can carry site secrets (datasource URLs, keys
 * handed to init), and reports are published as CI artifacts. */
static void add_rt_cmdline(struct fingerprint *fp)
{
	static const char *const keep[] = {
		"isolcpus", "nohz_full", "nohz", "rcu_nocbs", "rcu_nocb_poll", "irqaffinity",
		"kthread_cpus", "housekeeping", "preempt", "threadirqs", "skew_tick",
		"idle", "cpuidle.off", "intel_idle.max_cstate", "processor.max_cstate",
		"intel_pstate", "amd_pstate", "nosmt", "nosoftlockup", "nmi_watchdog",
		"tsc", "clocksource", "mitigations", "transparent_hugepage", "audit",
	};
	char line[4096];
	int ret = read_line("/proc/cmdline", line, sizeof line);
	if (ret) {
		fingerprint_add(fp, "host.kernel.cmdline_rt", "unknown (/proc/cmdline: %s)",
				strerror(-ret));
		return;
	}
	char out[2048] = "";
	size_t o = 0;
	char *save = NULL;
	for (char *tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (strcmp(tok, "--") == 0)
			break; /* the rest belongs to init, not the kernel */
		size_t klen = strcspn(tok, "=");
		for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
			if (strlen(keep[i]) == klen && strncmp(tok, keep[i], klen) == 0) {
				int n = snprintf(out + o, sizeof out - o, "%s%s", o ? " " : "", tok);
				if (n > 0 && (size_t)n < sizeof out - o)
					o += (size_t)n;
				break;
			}
		}
	}
	fingerprint_add(fp, "host.kernel.cmdline_rt", "%s", o ? out : "none");
}

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

void fingerprint_collect(struct fingerprint *fp, const struct timebase *tb)
{
	/* Values are text in reports that must read the same everywhere: a
	 * decimal comma from the user's locale would change "2.4 GHz". */
	locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;

	struct utsname u;
	bool have_uname = uname(&u) == 0;
	if (have_uname) {
		fingerprint_add(fp, "host.name", "%s", u.nodename);
		fingerprint_add(fp, "host.kernel.release", "%s", u.release);
		fingerprint_add(fp, "host.kernel.version", "%s", u.version);
		fingerprint_add(fp, "host.machine", "%s", u.machine);
	} else {
		const char *why = strerror(errno);
		fingerprint_add(fp, "host.name", "unknown (uname: %s)", why);
		fingerprint_add(fp, "host.kernel.release", "unknown (uname: %s)", why);
		fingerprint_add(fp, "host.kernel.version", "unknown (uname: %s)", why);
		fingerprint_add(fp, "host.machine", "unknown (uname: %s)", why);
	}
	add_cpu_model(fp);

	long online = sysconf(_SC_NPROCESSORS_ONLN);
	if (online > 0)
		fingerprint_add(fp, "host.cpu.count", "%ld", online);
	else
		fingerprint_add(fp, "host.cpu.count", "unknown (sysconf: %s)", strerror(errno));
	add_file_value(fp, "host.cpu.online", "/sys/devices/system/cpu/online");
	/* isolcpus and the frequency governor decide much of the jitter a
	 * run sees; an empty isolated list is a real answer, not an error. */
	{
		char buf[256];
		int ret = read_line("/sys/devices/system/cpu/isolated", buf, sizeof buf);
		if (ret == 0 || ret == -ENODATA)
			fingerprint_add(fp, "host.cpu.isolated", "%s",
					ret == 0 && buf[0] ? buf : "none");
		else
			fingerprint_add(fp, "host.cpu.isolated",
					"unknown (/sys/devices/system/cpu/isolated: %s)",
					strerror(-ret));
	}
	add_file_value(fp, "host.cpu.governor",
		       "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	add_preempt(fp, have_uname ? u.version : NULL);
	add_file_value(fp, "host.clocksource",
		       "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	add_rt_throttling(fp);
	add_rt_cmdline(fp);

	fingerprint_add(fp, "rtconform.version", "%s", RTC_VERSION);
	add_compiler(fp);
	fingerprint_add(fp, "rtconform.libxml2", "%s", LIBXML_DOTTED_VERSION);

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

	if (c_loc) {
		uselocale(old);
		freelocale(c_loc);
	}
}
