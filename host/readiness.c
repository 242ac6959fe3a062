/* SPDX-License-Identifier: Apache-2.0 */
/* readiness.c - see readiness.h. Each check judges typed facts, one check
 * a function; the findings quote the fingerprint's text for the same facts,
 * so what `env` says reads like what the reports record. */
#include "host/readiness.h"
#include "base/utf8.h"
#include "host/fingerprint.h"
#include "base/rtperm.h"
#include "base/cpulist.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
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

bool ready_level_parse(const char *name, enum ready_level *out)
{
	for (int l = READY_OK; l < READY_NLEVELS; l++)
		if (strcmp(name, ready_level_name((enum ready_level)l)) == 0) {
			*out = (enum ready_level)l;
			return true;
		}
	return false;
}

void ready_count_text(const size_t count[READY_NLEVELS], char *buf, size_t len)
{
	utf8_snprintf(buf, len, "%zu ok, %zu note%s, %zu warning%s, %zu failure%s", count[READY_OK],
		 count[READY_NOTE], count[READY_NOTE] == 1 ? "" : "s", count[READY_WARN],
		 count[READY_WARN] == 1 ? "" : "s", count[READY_FAIL],
		 count[READY_FAIL] == 1 ? "" : "s");
}

static void add(struct readiness *r, const char *name, enum ready_level level,
		const char *remedy, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void add(struct readiness *r, const char *name, enum ready_level level,
		const char *remedy, const char *fmt, ...)
{
	if (r->n >= READY_MAX_CHECKS)
		return;
	struct ready_check *c = &r->c[r->n++];
	utf8_snprintf(c->name, sizeof c->name, "%s", name);
	c->level = level;
	va_list ap;
	va_start(ap, fmt);
	utf8_vsnprintf(c->finding, sizeof c->finding, fmt, ap);
	va_end(ap);
	utf8_snprintf(c->remedy, sizeof c->remedy, "%s", remedy ? remedy : "");
}

/* The fingerprint's text for key, for a finding to quote: what a check
 * says reads like the report, while the verdict comes from the facts. */
static const char *text(const struct host_facts *f, const char *key, char buf[FP_HOST_VALUE_MAX])
{
	if (!fingerprint_host_value(f, key, buf, FP_HOST_VALUE_MAX))
		utf8_snprintf(buf, FP_HOST_VALUE_MAX, "unknown");
	return buf;
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

/* The checks judge what rtconform-worker will be allowed, since it is what
 * measures: its predicted capabilities when rtconform said which worker it
 * runs (privileges.worker), else this process's own (uid 0 counts as
 * both). */
static bool worker_sys_nice(const struct host_privileges *p)
{
	return p->worker.known ? p->worker.cap_sys_nice : p->euid == 0 || p->cap_sys_nice;
}

static bool worker_ipc_lock(const struct host_privileges *p)
{
	return p->worker.known ? p->worker.cap_ipc_lock : p->euid == 0 || p->cap_ipc_lock;
}

/* A live test runs in a child of this process, so it tells what the worker
 * may do only when the worker will have this process's capabilities. */
static bool live_tells(const struct host_privileges *p)
{
	return !p->worker.known || (p->worker.cap_sys_nice == p->cap_sys_nice &&
				    p->worker.cap_ipc_lock == p->cap_ipc_lock);
}

/* The fingerprint's words for the privileges judged. */
static const char *priv_text(const struct host_facts *f, char buf[FP_HOST_VALUE_MAX])
{
	if (f->privileges.worker.known) {
		char w[FP_HOST_VALUE_MAX];
		text(f, "host.privileges.worker", w);
		utf8_snprintf(buf, FP_HOST_VALUE_MAX, "worker: %.*s", FP_HOST_VALUE_MAX - 16, w);
		return buf;
	}
	return text(f, "host.privileges", buf);
}

/* How to give the worker a capability, naming the binary that needs it. */
static void grant_remedy(const struct host_privileges *p, const char *limit, char *buf,
			 size_t len)
{
	char setcap[700];
	rtperm_setcap_line(p->worker.path[0] ? p->worker.path : "rtconform-worker", setcap,
			   sizeof setcap);
	utf8_snprintf(buf, len, "run as root, or give the worker CAP_SYS_NICE and CAP_IPC_LOCK (%s; one on "
		 "rtconform itself is lost when it starts the worker), or set %s in "
		 "/etc/security/limits.conf", setcap, limit);
}

/* Offline (judging recorded facts): root, CAP_SYS_NICE, or an rtprio soft
 * limit reaching the highest priority; an unknown limit is not enough. */
static void check_sched_fifo(const struct host_facts *f, bool live, struct readiness *r)
{
	char priv[FP_HOST_VALUE_MAX], rtprio[FP_HOST_VALUE_MAX], remedy[sizeof r->c[0].remedy];
	const struct host_privileges *p = &f->privileges;
	int max = sched_get_priority_max(SCHED_FIFO);
	bool rtprio_max = f->rtprio.known && (f->rtprio.soft == RLIM_INFINITY ||
					      (max >= 0 && f->rtprio.soft >= (rlim_t)max));
	bool nice = worker_sys_nice(p);
	live = live && live_tells(p);
	int fifo = live ? try_in_child(0) : (nice || rtprio_max) ? 0 : EPERM;
	priv_text(f, priv);
	text(f, "host.limits.rtprio", rtprio);
	bool group_zero = p->rt_group_known && p->rt_group_runtime_us == 0;
	if (!live && group_zero)
		fifo = EPERM;
	const char *why = fifo > 0 ? strerror(fifo) : "the test could not run";
	if (fifo == 0)
		add(r, "sched_fifo", READY_OK, NULL, "real-time policies are allowed (%s; rtprio %s)",
		    priv, rtprio);
	else if (group_zero)
		add(r, "sched_fifo", READY_FAIL,
		    "give the cgroup real-time runtime (write e.g. 950000 to that file, within "
		    "its parent's), or run rtconform outside this cgroup",
		    "this process's cgroup has no real-time runtime (%s is 0, RT group "
		    "scheduling), which refuses real-time policies even to root: fifo and rr "
		    "requirements will error (%s)", p->rt_group_file, why);
	else if (nice || rtprio_max)
		add(r, "sched_fifo", READY_FAIL,
		    "look for a security module or seccomp filter that forbids sched_setscheduler",
		    "real-time policies are refused (%s) although %s: fifo and rr requirements "
		    "will error", why, priv);
	else {
		grant_remedy(p, "an rtprio limit", remedy, sizeof remedy);
		add(r, "sched_fifo", READY_FAIL, remedy,
		    "no CAP_SYS_NICE for the worker and rtprio %s: fifo and rr requirements "
		    "will error (%s)", rtprio, why);
	}
}

/* Live: what mlockall gave the worker itself when it was asked
 * (privileges.worker), since whether the memlock limit suffices depends on
 * the size of the process that locks, and rtconform (libxml2, ICU) is far
 * larger than the worker; else what it gives a child of this process.
 * Offline: root, CAP_IPC_LOCK, or an unlimited memlock soft limit. */
static void check_mlockall(const struct host_facts *f, bool live, struct readiness *r)
{
	char memlock[FP_HOST_VALUE_MAX], remedy[sizeof r->c[0].remedy];
	const struct host_privileges *p = &f->privileges;
	bool unlimited = f->memlock.known && f->memlock.soft == RLIM_INFINITY;
	int ml;
	if (live && p->worker.known && p->worker.mlock_tried)
		ml = p->worker.mlock_errno;
	else if (live && live_tells(p))
		ml = try_in_child(1);
	else
		ml = (worker_ipc_lock(p) || unlimited) ? 0 : EPERM;
	text(f, "host.limits.memlock", memlock);
	if (ml == 0) {
		add(r, "mlockall", READY_OK, NULL, "memory can be locked (memlock %s)", memlock);
	} else {
		grant_remedy(p, "memlock unlimited", remedy, sizeof remedy);
		add(r, "mlockall", READY_FAIL, remedy,
		    "mlockall refused (%s; memlock %s): every requirement will error",
		    ml > 0 ? strerror(ml) : "the test could not run", memlock);
	}
}

static void check_preempt(const struct host_facts *f, struct readiness *r)
{
	char pre[FP_HOST_VALUE_MAX];
	if (f->preempt.model == HOST_PREEMPT_RT)
		add(r, "preempt", READY_OK, NULL, "PREEMPT_RT kernel");
	else
		add(r, "preempt", READY_WARN,
		    "boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64) for bounded worst cases",
		    "the kernel is not PREEMPT_RT (%s): worst-case latencies are not bounded",
		    text(f, "host.preempt", pre));
}

static void check_rt_throttling(const struct host_facts *f, struct readiness *r)
{
	char thr[FP_HOST_VALUE_MAX];
	text(f, "host.rt_throttling", thr);
	if (!f->rt_throttling.known)
		add(r, "rt_throttling", READY_NOTE, "check /proc/sys/kernel/sched_rt_runtime_us",
		    "RT throttling: %s", thr);
	else if (f->rt_throttling.runtime_us < 0)
		add(r, "rt_throttling", READY_WARN,
		    "re-enable it (sysctl kernel.sched_rt_runtime_us=950000): without it a runaway "
		    "real-time task can hang the machine, and rtconform's watchdog relies on "
		    "RLIMIT_RTTIME alone",
		    "RT throttling is off (%s)", thr);
	else
		add(r, "rt_throttling", READY_NOTE,
		    "note it in the qualification: real-time tasks may use only this share of each "
		    "period; rtconform keeps it on as a watchdog",
		    "RT throttling on: %s", thr);
}

/* Every CPU that is not at performance is named, with its governor. */
static void check_governors(const struct host_facts *f, struct readiness *r)
{
	const struct host_governors *g = &f->governors;
	if (g->n == 0) {
		char gov[FP_HOST_VALUE_MAX];
		add(r, "cpufreq", READY_NOTE,
		    "state in the qualification that the CPU frequency is not under the OS's control",
		    "no cpufreq governor: %s", text(f, "host.cpu.governor", gov));
		return;
	}
	char bad[300] = "";
	size_t o = 0;
	int nbad = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (strcmp(g->cpu[i].name, "performance") == 0)
			continue;
		int n = utf8_snprintf(bad + o, sizeof bad - o, "%s%s on cpu%d", o ? ", " : "",
				 g->cpu[i].name, g->cpu[i].cpu);
		if (n > 0 && (size_t)n < sizeof bad - o)
			o += (size_t)n;
		nbad++;
	}
	if (nbad)
		add(r, "cpufreq", READY_WARN,
		    "set performance: cpupower frequency-set -g performance (or write performance "
		    "to /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)",
		    "cpufreq governor %s", bad);
	else
		add(r, "cpufreq", READY_OK, NULL, "every CPU runs the performance governor");
}

static void check_virtualization(const struct host_facts *f, struct readiness *r)
{
	char vm[FP_HOST_VALUE_MAX], evidence[512];
	if (host_virt_detected(&f->virt)) {
		fingerprint_virt_evidence(&f->virt, evidence, sizeof evidence);
		add(r, "virtualization", READY_WARN,
		    "qualify on the target hardware; latencies measured in a guest include the "
		    "hypervisor's scheduling and say little about the bare machine",
		    "runs in a virtual machine: %s (%s)", host_virt_kind(&f->virt), evidence);
	} else {
		add(r, "virtualization", READY_OK, NULL, "no virtual machine detected (%s)",
		    text(f, "host.virtual_machine", vm));
	}
}

/* Only a container systemd-detect-virt named is worth a line. */
static void check_container(const struct host_facts *f, struct readiness *r)
{
	const struct host_virt *v = &f->virt;
	char ct[FP_HOST_VALUE_MAX];
	if (v->container_ran && v->container[0] && strcmp(v->container, "none") != 0)
		add(r, "container", READY_NOTE,
		    "a container may restrict capabilities, limits and CPU sets; the checks above "
		    "show what this one allows",
		    "runs in a container: %s", text(f, "host.container", ct));
}

static void check_smt(const struct host_facts *f, struct readiness *r)
{
	char smt[FP_HOST_VALUE_MAX];
	text(f, "host.cpu.smt", smt);
	if (f->smt.state == HOST_SMT_ACTIVE)
		add(r, "smt", READY_WARN,
		    "boot with nosmt, or echo off > /sys/devices/system/cpu/smt/control, so a "
		    "sibling thread cannot steal the measuring core",
		    "SMT is active (%s)", smt);
	else
		add(r, "smt", READY_OK, NULL, "no SMT siblings active (%s)", smt);
}

/* An empty list and a kernel without the list both isolate nothing. */
static bool isolates_nothing(const struct host_cpus *c)
{
	return c->state == HOST_CPUS_EMPTY || c->state == HOST_CPUS_UNSUPPORTED;
}

static void check_isolation(const struct host_facts *f, struct readiness *r)
{
	char iso[FP_HOST_VALUE_MAX], nohz[FP_HOST_VALUE_MAX];
	if (isolates_nothing(&f->isolated) && isolates_nothing(&f->nohz_full))
		add(r, "isolation", READY_NOTE,
		    "for the best worst case, boot with isolcpus=, nohz_full= and rcu_nocbs= for "
		    "the measuring CPUs and pin requirements there (<sched cpu=\"N\"/>)",
		    "no isolated CPUs (isolcpus and nohz_full empty)");
	else
		add(r, "isolation", READY_OK, NULL, "isolated CPUs: %s; nohz_full: %s",
		    text(f, "host.cpu.isolated", iso), text(f, "host.cpu.nohz_full", nohz));
}

static void check_clocksource(const struct host_facts *f, struct readiness *r)
{
	char cs[FP_HOST_VALUE_MAX];
	if (f->clocksource.known && strcmp(f->clocksource.text, "tsc") == 0)
		add(r, "clocksource", READY_OK, NULL, "clocksource tsc");
	else
		add(r, "clocksource", READY_WARN,
		    "check dmesg for why the TSC was rejected; a slow clocksource adds to every "
		    "timed sleep and clock read",
		    "clocksource %s, not tsc", text(f, "host.clocksource", cs));
}

static void check_timebase(const struct ready_timebase *tb, struct readiness *r)
{
	if (!tb)
		return;
	const char *chk = tb->check ? tb->check : "";
	const char *sep = tb->check ? "; " : "";
	if (tb->check_failed)
		add(r, "timebase", READY_FAIL,
		    "run without what replaces the clock below rtconform (an LD_PRELOAD library "
		    "such as libfaketime, a sandbox): until the timebase agrees with the kernel "
		    "every requirement is an error",
		    "%s", tb->check_error && tb->check_error[0] ? tb->check_error : chk);
	else if (tb->invariant_tsc)
		add(r, "timebase", READY_OK, NULL, "samples are timed with the invariant TSC%s%s",
		    sep, chk);
	else
		add(r, "timebase", READY_NOTE,
		    "state the timebase in the qualification; its read overhead is in every report",
		    "samples are timed with %s (%s)%s%s", tb->name ? tb->name : "unknown",
		    tb->note && tb->note[0] ? tb->note : "no invariant TSC", sep, chk);
}

static void check_thp(const struct host_facts *f, struct readiness *r)
{
	char thp[FP_HOST_VALUE_MAX];
	text(f, "host.thp", thp);
	if (f->thp.known && f->thp.mode == HOST_THP_ALWAYS)
		add(r, "thp", READY_WARN,
		    "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled: khugepaged's "
		    "compaction can stall a real-time task",
		    "transparent huge pages: %s", thp);
	else
		add(r, "thp", READY_OK, NULL, "transparent huge pages: %s", thp);
}

/* ---- the checks that depend on where a run measures ------------------- */

/* The measuring CPUs, as a set and as the words a finding uses. */
struct measuring {
	cpu_set_t set;
	char list[160];  /* "1-3" */
	const char *whose;
};

/* A CPU list of the facts as a set; rcu_nocbs=all is every CPU. False
 * when the list is unknown or not a list. */
static bool cpus_of(const struct host_cpus *c, cpu_set_t *set)
{
	CPU_ZERO(set);
	if (c->state != HOST_CPUS_LIST)
		return c->state == HOST_CPUS_EMPTY || c->state == HOST_CPUS_UNSUPPORTED;
	if (strcmp(c->list, "all") == 0) {
		for (int i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, set);
		return true;
	}
	return cpulist_parse(c->list, set) == 0;
}

/* The measuring CPUs not in `in`, as a list into buf; false when none. */
static bool outside(const struct measuring *m, const cpu_set_t *in, char *buf, size_t len)
{
	cpu_set_t out;
	CPU_XOR(&out, &m->set, in);
	CPU_AND(&out, &out, &m->set);
	cpulist_format(&out, buf, len);
	return CPU_COUNT(&out) > 0;
}

static void check_smi(const struct host_facts *f, struct readiness *r)
{
	const struct host_smi *s = &f->rt.smi;
	char smi[FP_HOST_VALUE_MAX];
	text(f, "host.smi_count", smi);
	if (s->state == HOST_SMI_COUNTED && s->count == 0)
		add(r, "smi", READY_OK, NULL, "no SMI since boot (%s)", smi);
	else if (s->state == HOST_SMI_COUNTED)
		add(r, "smi", READY_NOTE,
		    "read the count before and after a run (rdmsr -p 0 0x34, or cyclictest --smi): "
		    "one that grows while measuring explains late wake-ups no kernel setting can "
		    "prevent; the firmware's power management, USB legacy and ECC reporting "
		    "settings are where SMIs come from",
		    "SMIs since boot: %s; each stops every CPU for as long as the firmware takes", smi);
	else if (s->state == HOST_SMI_UNREADABLE)
		add(r, "smi", READY_NOTE,
		    "modprobe msr and run rtconform env as root (CAP_SYS_RAWIO) to read MSR 0x34",
		    "the SMI count is %s", smi);
	else
		add(r, "smi", READY_NOTE,
		    "look for SMIs with hwlatdetect (rt-tests): gaps no interrupt explains; state "
		    "in the qualification that they were not counted",
		    "SMIs cannot be counted: %s", s->why);
}

/* Idle states deeper than READY_IDLE_LATENCY_US open to a measuring CPU:
 * "C6 (133 us) on 1-3". */
static void check_cpuidle(const struct host_facts *f, const struct measuring *m,
			  struct readiness *r)
{
	const struct host_cpuidle *c = &f->rt.cpuidle;
	char idle[FP_HOST_VALUE_MAX], deep[300] = "", on[64];
	text(f, "host.cpuidle", idle);
	size_t o = 0;
	for (size_t k = 0; k < c->nstates; k++) {
		if (c->state[k].latency_us <= READY_IDLE_LATENCY_US)
			continue;
		cpu_set_t open;
		CPU_ZERO(&open);
		for (int cpu = 0; cpu < c->ncpu && cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &m->set) && (c->enabled[cpu] >> k & 1u))
				CPU_SET(cpu, &open);
		if (!CPU_COUNT(&open))
			continue;
		cpulist_format(&open, on, sizeof on);
		int n = utf8_snprintf(deep + o, sizeof deep - o, "%s%s (%ld us) on %s", o ? ", " : "",
				      c->state[k].name, c->state[k].latency_us, on);
		if (n > 0 && (size_t)n < sizeof deep - o)
			o += (size_t)n;
	}
	if (o) {
		char remedy[sizeof r->c[0].remedy];
		utf8_snprintf(remedy, sizeof remedy,
			      "cpupower idle-set -D %d (disables every state whose exit latency is "
			      "above %d us), or write 1 to /sys/devices/system/cpu/cpuN/cpuidle/"
			      "stateK/disable for those CPUs and states; to keep it across boots, "
			      "boot with intel_idle.max_cstate=1 processor.max_cstate=1",
			      READY_IDLE_LATENCY_US, READY_IDLE_LATENCY_US);
		add(r, "cpuidle", READY_WARN, remedy,
		    "the measuring CPUs %s (%s) may enter idle states above %d us exit latency: "
		    "%s; a wake-up from one is that late", m->list, m->whose,
		    READY_IDLE_LATENCY_US, deep);
	} else {
		add(r, "cpuidle", READY_OK, NULL,
		    "no idle state above %d us exit latency is open to the measuring CPUs %s (%s)",
		    READY_IDLE_LATENCY_US, m->list, idle);
	}
}

/* The IRQs routed to a measuring CPU, "16 i801_smbus on 0-3, 24 eth0 on 1",
 * into buf (", ..." where cut); how many. */
static size_t irqs_on(const struct host_irqs *q, const struct measuring *m, char *buf,
		      size_t len)
{
	size_t hits = 0, o = 0;
	bool cut = false;
	buf[0] = '\0';
	for (size_t i = 0; i < q->n; i++) {
		cpu_set_t s;
		if (cpulist_parse(q->irq[i].cpus, &s) != 0)
			continue;
		CPU_AND(&s, &s, &m->set);
		if (!CPU_COUNT(&s) || (hits++, cut))
			continue;
		/* the device: the last word of what /proc/interrupts says */
		const char *dev = strrchr(q->irq[i].name, ' ');
		char one[256];
		int n = utf8_snprintf(one, sizeof one, "%s%d %s on %s", o ? ", " : "", q->irq[i].irq,
				      dev ? dev + 1 : q->irq[i].name, q->irq[i].cpus);
		if (n < 0 || o + (size_t)n + 6 > len) {
			cut = true;
			continue;
		}
		memcpy(buf + o, one, (size_t)n + 1);
		o += (size_t)n;
	}
	if (cut)
		utf8_snprintf(buf + o, len - o, ", ...");
	return hits;
}

static void check_irq_affinity(const struct host_facts *f, const struct measuring *m,
			       struct readiness *r)
{
	const struct host_irqs *q = &f->rt.irqs;
	char hit[240], online_list[160] = "", remedy[sizeof r->c[0].remedy];
	if (!q->known) {
		add(r, "irq_affinity", READY_NOTE,
		    "check /proc/irq/*/smp_affinity_list against the measuring CPUs by hand",
		    "where IRQs go is unknown (%s)", q->why);
		return;
	}
	size_t hits = irqs_on(q, m, hit, sizeof hit);
	if (!hits && !q->irqbalance_pid) {
		add(r, "irq_affinity", READY_OK, NULL,
		    "none of the %zu IRQs is routed to the measuring CPUs %s (%s); irqbalance is "
		    "not running", q->total, m->list, m->whose);
		return;
	}
	cpu_set_t online, others;
	if (cpus_of(&f->online, &online)) {
		CPU_XOR(&others, &online, &m->set);
		CPU_AND(&others, &others, &online);
		cpulist_format(&others, online_list, sizeof online_list);
	}
	utf8_snprintf(remedy, sizeof remedy,
		      "%s%s%s%s%s", hits ? "route them to the other CPUs: echo " : "",
		      hits ? (online_list[0] ? online_list : "<other CPUs>") : "",
		      hits ? " > /proc/irq/N/smp_affinity_list for each (or boot with irqaffinity= "
			     "naming those CPUs); pin the requirements (<sched cpu=\"N\"/>) to "
			     "CPUs no IRQ reaches" : "",
		      hits && q->irqbalance_pid ? "; " : "",
		      q->irqbalance_pid ? "stop irqbalance (systemctl disable --now irqbalance) "
					  "or ban the measuring CPUs from it "
					  "(IRQBALANCE_BANNED_CPULIST= in /etc/default/irqbalance): "
					  "it moves IRQs onto them at any time" : "");
	char bal[48] = "";
	if (q->irqbalance_pid)
		utf8_snprintf(bal, sizeof bal, "; irqbalance is running (pid %d)",
			      q->irqbalance_pid);
	if (hits)
		add(r, "irq_affinity", READY_WARN, remedy,
		    "%zu IRQ%s may interrupt the measuring CPUs %s (%s): %s%s", hits,
		    hits == 1 ? "" : "s", m->list, m->whose, hit, bal);
	else
		add(r, "irq_affinity", READY_WARN, remedy,
		    "no IRQ is routed to the measuring CPUs %s (%s) now%s", m->list, m->whose, bal);
}

/* RCU callbacks run on every CPU not offloaded: rcu_nocbs= or nohz_full. */
static void check_rcu_nocbs(const struct host_facts *f, const struct measuring *m,
			    struct readiness *r)
{
	char nocbs[FP_HOST_VALUE_MAX], nohz[FP_HOST_VALUE_MAX], left[160];
	cpu_set_t off, nz;
	bool known = cpus_of(&f->rt.rcu_nocbs, &off) && cpus_of(&f->nohz_full, &nz);
	text(f, "host.rcu_nocbs", nocbs);
	text(f, "host.cpu.nohz_full", nohz);
	if (known)
		CPU_OR(&off, &off, &nz);
	if (known && !outside(m, &off, left, sizeof left))
		add(r, "rcu_nocbs", READY_OK, NULL,
		    "RCU callbacks are offloaded from the measuring CPUs %s (rcu_nocbs: %s; "
		    "nohz_full: %s)", m->list, nocbs, nohz);
	else
		add(r, "rcu_nocbs", READY_NOTE,
		    "boot with rcu_nocbs= naming the measuring CPUs (nohz_full= implies it) and "
		    "rcu_nocb_poll, so RCU callbacks run in kthreads kept off them",
		    "RCU callbacks run on the measuring CPUs %s (%s; rcu_nocbs: %s; nohz_full: %s)",
		    known ? left : m->list, m->whose, nocbs, nohz);
}

static void check_boost(const struct host_facts *f, struct readiness *r)
{
	const struct host_boost *b = &f->rt.boost;
	char boost[FP_HOST_VALUE_MAX], remedy[sizeof r->c[0].remedy];
	text(f, "host.cpu.boost", boost);
	if (b->state == HOST_BOOST_ON) {
		bool pstate = strstr(b->file, "no_turbo") != NULL;
		utf8_snprintf(remedy, sizeof remedy,
			      "echo %d > %s (or turn turbo off in the firmware), so the clock does "
			      "not change with temperature and load while measuring",
			      pstate ? 1 : 0, b->file);
		add(r, "boost", READY_WARN, remedy, "frequency boost is on (%s)", boost);
	} else if (b->state == HOST_BOOST_OFF) {
		add(r, "boost", READY_OK, NULL, "frequency boost is off (%s)", boost);
	} else {
		add(r, "boost", READY_NOTE,
		    "check the firmware's turbo setting and state it in the qualification",
		    "no frequency boost control: %s", boost);
	}
}

/* Measuring on a CPU that is not isolated while others are: a note. */
static void check_measure_cpus(const struct host_facts *f, const struct measuring *m,
			       struct readiness *r)
{
	cpu_set_t iso, nz;
	char left[160], iso_t[FP_HOST_VALUE_MAX], nohz[FP_HOST_VALUE_MAX];
	if (!cpus_of(&f->isolated, &iso) || !cpus_of(&f->nohz_full, &nz))
		return;
	CPU_OR(&iso, &iso, &nz);
	if (!CPU_COUNT(&iso))
		return; /* nothing is isolated: the isolation line says so */
	text(f, "host.cpu.isolated", iso_t);
	text(f, "host.cpu.nohz_full", nohz);
	if (outside(m, &iso, left, sizeof left))
		add(r, "measure_cpus", READY_NOTE,
		    "pin the requirements to the isolated CPUs (<sched cpu=\"N\"/>, or a probe's "
		    "cpus), or state in the qualification why they measure elsewhere",
		    "measures on CPUs %s (%s), not isolated, while others are (isolcpus: %s; "
		    "nohz_full: %s)", left, m->whose, iso_t, nohz);
	else
		add(r, "measure_cpus", READY_OK, NULL,
		    "measures on isolated CPUs %s (%s; isolcpus: %s; nohz_full: %s)", m->list,
		    m->whose, iso_t, nohz);
}

void readiness_check(const struct host_facts *f, const struct ready_timebase *tb,
		     bool try_privileges, struct readiness *r)
{
	readiness_check_on(f, tb, try_privileges, NULL, r);
}

void readiness_check_on(const struct host_facts *f, const struct ready_timebase *tb,
			bool try_privileges, const cpu_set_t *measuring, struct readiness *r)
{
	memset(r, 0, sizeof *r);
	struct measuring m = { .whose = measuring ? "the run's requirements"
						  : "this process's affinity" };
	if (measuring)
		m.set = *measuring;
	else if (!cpus_of(&f->allowed, &m.set))
		CPU_ZERO(&m.set);
	cpulist_format(&m.set, m.list, sizeof m.list);
	if (!m.list[0])
		utf8_snprintf(m.list, sizeof m.list, "unknown");
	check_sched_fifo(f, try_privileges, r);
	check_mlockall(f, try_privileges, r);
	check_preempt(f, r);
	check_rt_throttling(f, r);
	check_governors(f, r);
	check_virtualization(f, r);
	check_container(f, r);
	check_smt(f, r);
	check_isolation(f, r);
	check_clocksource(f, r);
	check_timebase(tb, r);
	check_thp(f, r);
	check_smi(f, r);
	check_cpuidle(f, &m, r);
	check_irq_affinity(f, &m, r);
	check_rcu_nocbs(f, &m, r);
	check_boost(f, r);
	check_measure_cpus(f, &m, r);
}
