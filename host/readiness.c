/* readiness.c - see readiness.h. Each check reads the fingerprint's text,
 * so what `env` judges is exactly what the reports record. */
#include "host/readiness.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

const char *ready_level_name(enum ready_level l)
{
	switch (l) {
	case READY_OK:
		return "ok";
	case READY_NOTE:
		return "note";
	case READY_WARN:
		return "warn";
	case READY_FAIL:
		return "fail";
	}
	return "?";
}

static void add(struct readiness *r, const char *name, enum ready_level level,
		const char *remedy, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void add(struct readiness *r, const char *name, enum ready_level level,
		const char *remedy, const char *fmt, ...)
{
	if (r->n >= READY_MAX_CHECKS)
		return;
	struct ready_check *c = &r->c[r->n++];
	snprintf(c->name, sizeof c->name, "%s", name);
	c->level = level;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->finding, sizeof c->finding, fmt, ap);
	va_end(ap);
	snprintf(c->remedy, sizeof c->remedy, "%s", remedy ? remedy : "");
}

static const char *get(const struct fingerprint *fp, const char *key)
{
	const char *v = fingerprint_get(fp, key);
	return v ? v : "unknown";
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* 0: the child could, else the errno it got, or -1 when it could not run. */
static int try_in_child(int what)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int rc = 0;
		if (what == 0) {
			/* The highest priority: what priority="max" (the default
			 * profile) asks for; an rtprio limit below it would pass a
			 * test at the lowest one and fail every real run. */
			struct sched_param sp = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };
			rc = sched_setscheduler(0, SCHED_FIFO, &sp) == 0 ? 0 : errno;
		} else {
			rc = mlockall(MCL_CURRENT | MCL_FUTURE) == 0 ? 0 : errno;
		}
		_exit(rc > 255 ? 255 : rc);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_privileges(const struct fingerprint *fp, bool live, struct readiness *r)
{
	const char *priv = get(fp, "host.privileges");
	const char *rtprio = get(fp, "host.limits.rtprio");
	const char *memlock = get(fp, "host.limits.memlock");
	bool root = starts(priv, "euid 0;");
	bool nice = strstr(priv, "CAP_SYS_NICE yes") != NULL;
	bool lock = strstr(priv, "CAP_IPC_LOCK yes") != NULL;

	/* Offline (from a recorded fingerprint): root, CAP_SYS_NICE, or an
	 * rtprio soft limit reaching the highest priority; "unknown" is not. */
	long soft = -1;
	if (starts(rtprio, "soft "))
		soft = strtol(rtprio + 5, NULL, 10);
	bool rtprio_max = soft >= sched_get_priority_max(SCHED_FIFO) ||
			  starts(rtprio, "soft unlimited");
	int fifo = live ? try_in_child(0) : (root || nice || rtprio_max) ? 0 : EPERM;
	if (fifo == 0)
		add(r, "sched_fifo", READY_OK, NULL, "real-time policies are allowed (%s; rtprio %s)",
		    priv, rtprio);
	else
		add(r, "sched_fifo", READY_FAIL,
		    "run as root, or grant CAP_SYS_NICE (setcap cap_sys_nice,cap_ipc_lock+ep "
		    "rtconform), or set an rtprio limit in /etc/security/limits.conf",
		    "no CAP_SYS_NICE and rtprio %s: fifo and rr requirements will error (%s)",
		    rtprio, fifo > 0 ? strerror(fifo) : "the test could not run");

	int ml = live ? try_in_child(1)
		      : (root || lock || starts(memlock, "soft unlimited")) ? 0 : EPERM;
	if (ml == 0)
		add(r, "mlockall", READY_OK, NULL, "memory can be locked (memlock %s)", memlock);
	else
		add(r, "mlockall", READY_FAIL,
		    "run as root, or grant CAP_IPC_LOCK, or set memlock unlimited in "
		    "/etc/security/limits.conf",
		    "mlockall refused (%s; memlock %s): every requirement will error",
		    ml > 0 ? strerror(ml) : "the test could not run", memlock);
}

static void check_governors(const struct fingerprint *fp, struct readiness *r)
{
	const char *gov = get(fp, "host.cpu.governor");
	if (!starts(gov, "cpu")) {
		add(r, "cpufreq", READY_NOTE,
		    "state in the qualification that the CPU frequency is not under the OS's control",
		    "no cpufreq governor: %s", gov);
		return;
	}
	/* "cpu0:performance cpu1:powersave": name every CPU that is not at
	 * performance, grouped by governor. */
	char *copy = strdup(gov);
	if (!copy)
		return;
	char bad[300] = "";
	size_t o = 0;
	int nbad = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(tok, ':');
		if (!colon || strcmp(colon + 1, "performance") == 0)
			continue;
		*colon = '\0';
		int n = snprintf(bad + o, sizeof bad - o, "%s%s on %s", o ? ", " : "", colon + 1, tok);
		if (n > 0 && (size_t)n < sizeof bad - o)
			o += (size_t)n;
		nbad++;
	}
	free(copy);
	if (nbad)
		add(r, "cpufreq", READY_WARN,
		    "set performance: cpupower frequency-set -g performance (or write performance "
		    "to /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)",
		    "cpufreq governor %s", bad);
	else
		add(r, "cpufreq", READY_OK, NULL, "every CPU runs the performance governor");
}

void readiness_check(const struct fingerprint *fp, bool try_privileges, struct readiness *r)
{
	memset(r, 0, sizeof *r);
	check_privileges(fp, try_privileges, r);

	const char *pre = get(fp, "host.preempt");
	if (starts(pre, "PREEMPT_RT"))
		add(r, "preempt", READY_OK, NULL, "PREEMPT_RT kernel");
	else
		add(r, "preempt", READY_WARN,
		    "boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64) for bounded worst cases",
		    "the kernel is not PREEMPT_RT (%s): worst-case latencies are not bounded", pre);

	const char *thr = get(fp, "host.rt_throttling");
	if (starts(thr, "disabled"))
		add(r, "rt_throttling", READY_WARN,
		    "re-enable it (sysctl kernel.sched_rt_runtime_us=950000): without it a runaway "
		    "real-time task can hang the machine, and rtconform's watchdog relies on "
		    "RLIMIT_RTTIME alone",
		    "RT throttling is off (%s)", thr);
	else if (starts(thr, "unknown"))
		add(r, "rt_throttling", READY_NOTE, "check /proc/sys/kernel/sched_rt_runtime_us",
		    "RT throttling: %s", thr);
	else
		add(r, "rt_throttling", READY_NOTE,
		    "note it in the qualification: real-time tasks may use only this share of each "
		    "period; rtconform keeps it on as a watchdog",
		    "RT throttling on: %s", thr);

	check_governors(fp, r);

	const char *vm = get(fp, "host.virtual_machine");
	if (starts(vm, "yes"))
		add(r, "virtualization", READY_WARN,
		    "qualify on the target hardware; latencies measured in a guest include the "
		    "hypervisor's scheduling and say little about the bare machine",
		    "runs in a virtual machine: %s", vm + 5);
	else
		add(r, "virtualization", READY_OK, NULL, "no virtual machine detected (%s)", vm);

	const char *ct = fingerprint_get(fp, "host.container");
	if (ct && !starts(ct, "none"))
		add(r, "container", READY_NOTE,
		    "a container may restrict capabilities, limits and CPU sets; the checks above "
		    "show what this one allows",
		    "runs in a container: %s", ct);

	const char *smt = get(fp, "host.cpu.smt");
	if (starts(smt, "active"))
		add(r, "smt", READY_WARN,
		    "boot with nosmt, or echo off > /sys/devices/system/cpu/smt/control, so a "
		    "sibling thread cannot steal the measuring core",
		    "SMT is active (%s)", smt);
	else
		add(r, "smt", READY_OK, NULL, "no SMT siblings active (%s)", smt);

	const char *iso = get(fp, "host.cpu.isolated"), *nohz = get(fp, "host.cpu.nohz_full");
	if (starts(iso, "none") && starts(nohz, "none"))
		add(r, "isolation", READY_NOTE,
		    "for the best worst case, boot with isolcpus=, nohz_full= and rcu_nocbs= for "
		    "the measuring CPUs and pin requirements there (<sched cpu=\"N\"/>)",
		    "no isolated CPUs (isolcpus and nohz_full empty)");
	else
		add(r, "isolation", READY_OK, NULL, "isolated CPUs: %s; nohz_full: %s", iso, nohz);

	const char *cs = get(fp, "host.clocksource");
	if (strcmp(cs, "tsc") == 0)
		add(r, "clocksource", READY_OK, NULL, "clocksource tsc");
	else
		add(r, "clocksource", READY_WARN,
		    "check dmesg for why the TSC was rejected; a slow clocksource adds to every "
		    "timed sleep and clock read",
		    "clocksource %s, not tsc", cs);

	const char *tb = fingerprint_get(fp, "timebase.name");
	if (tb && strcmp(tb, "tsc") == 0)
		add(r, "timebase", READY_OK, NULL, "samples are timed with the invariant TSC");
	else if (tb)
		add(r, "timebase", READY_NOTE,
		    "state the timebase in the qualification; its read overhead is in every report",
		    "samples are timed with %s (%s)", tb,
		    fingerprint_get(fp, "timebase.note") ? fingerprint_get(fp, "timebase.note")
							  : "no invariant TSC");

	const char *thp = get(fp, "host.thp");
	if (strstr(thp, "[always]"))
		add(r, "thp", READY_WARN,
		    "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled: khugepaged's "
		    "compaction can stall a real-time task",
		    "transparent huge pages: %s", thp);
	else
		add(r, "thp", READY_OK, NULL, "transparent huge pages: %s", thp);
}
