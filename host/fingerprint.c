/* SPDX-License-Identifier: Apache-2.0 */
/* fingerprint.c - the machine a run measured on, as key/value pairs.
 *
 * Every value is a string a person can read in a report, rendered from the
 * typed facts of facts.c; nothing here reads the machine. A fact that could
 * not be read says so ("unknown (reason)"), because an auditor must see
 * that it was looked for.
 */
#include "host/fingerprint.h"
#include "base/utf8.h"
#include "base/numfmt.h"
#include "base/cpulist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct fp_entry *find(const struct fingerprint *fp, const char *key)
{
	const size_t *i = strhash_get(&fp->index, key);
	return i ? &fp->e[*i] : NULL;
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
	if (!k || strhash_put(&fp->index, key, fp->n)) {
		free(k);
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
	strhash_free(&fp->index);
}


/* ---- the host.* values, rendered from the facts ---------------------- */

static bool put(char *b, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool put(char *b, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	utf8_vsnprintf(b, n, fmt, ap);
	va_end(ap);
	return true;
}

static bool text_or_unknown(char *b, size_t n, bool known, const char *text, const char *why)
{
	return known ? put(b, n, "%s", text) : put(b, n, "unknown (%s)", why);
}

static bool v_name(const struct host_facts *f, char *b, size_t n)
{
	return text_or_unknown(b, n, f->uname.known, f->uname.nodename, f->uname.why);
}

static bool v_release(const struct host_facts *f, char *b, size_t n)
{
	return text_or_unknown(b, n, f->uname.known, f->uname.release, f->uname.why);
}

static bool v_version(const struct host_facts *f, char *b, size_t n)
{
	return text_or_unknown(b, n, f->uname.known, f->uname.version, f->uname.why);
}

static bool v_machine(const struct host_facts *f, char *b, size_t n)
{
	return text_or_unknown(b, n, f->uname.known, f->uname.machine, f->uname.why);
}

/* The model as the fingerprint names it: "PREEMPT" is full preemption. */
static const char *preempt_name(const struct host_preempt *p)
{
	switch (p->model) {
	case HOST_PREEMPT_NONE:
		return "none";
	case HOST_PREEMPT_VOLUNTARY:
		return "voluntary";
	case HOST_PREEMPT_NONE_OR_VOLUNTARY:
		return "none or voluntary";
	case HOST_PREEMPT_FULL:
		return "PREEMPT";
	case HOST_PREEMPT_LAZY:
		return "lazy";
	case HOST_PREEMPT_RT:
		return "PREEMPT_RT";
	case HOST_PREEMPT_OTHER:
		return p->word;
	case HOST_PREEMPT_UNKNOWN:
		break;
	}
	return "unknown";
}

/* The model first, then how it was found. */
static bool v_preempt(const struct host_facts *f, char *b, size_t n)
{
	const struct host_preempt *p = &f->preempt;
	const char *m = preempt_name(p), *release = f->uname.release;
	switch (p->source) {
	case HOST_PREEMPT_FROM_SYS_REALTIME:
		return put(b, n, "%s (/sys/kernel/realtime)", m);
	case HOST_PREEMPT_FROM_VERSION:
		return put(b, n, "%s (kernel version string)", m);
	case HOST_PREEMPT_FROM_DEBUGFS:
		return put(b, n, "%s (PREEMPT_DYNAMIC, /sys/kernel/debug/sched/preempt)", m);
	case HOST_PREEMPT_FROM_CMDLINE:
		return put(b, n, "%s (PREEMPT_DYNAMIC, preempt=%s on the kernel command line)", m,
			   p->word);
	case HOST_PREEMPT_FROM_DYNAMIC_KCONFIG:
		return put(b, n, "%s (PREEMPT_DYNAMIC, the build's default in /boot/config-%s)", m,
			   release);
	case HOST_PREEMPT_FROM_DYNAMIC_DEFAULT:
		return put(b, n, "%s (PREEMPT_DYNAMIC; the mode in force is not visible: no debugfs, "
			   "no preempt= parameter, no /boot/config; PREEMPT_DYNAMIC kernels "
			   "default to full)", m);
	case HOST_PREEMPT_FROM_KCONFIG:
		return put(b, n, "%s (/boot/config-%s)", m, release);
	case HOST_PREEMPT_FROM_NO_MARKER:
		return put(b, n, "%s (no PREEMPT in the kernel version string)", m);
	case HOST_PREEMPT_FROM_NOTHING:
		break;
	}
	return put(b, n, "unknown (uname failed)");
}

/* The whole kernel command line: an auditor must see every parameter the
 * kernel ran with (isolcpus, nohz_full, rcu_nocbs, idle=, mitigations,
 * ...), and a list of "relevant" ones would hide the one we did not think
 * of. It can carry site details (a datasource URL, a root device):
 * docs/reports.md says so, for whoever publishes the reports. */
static bool v_cmdline(const struct host_facts *f, char *b, size_t n)
{
	return text_or_unknown(b, n, f->cmdline.known, f->cmdline.text, f->cmdline.why);
}

static bool v_cpu_model(const struct host_facts *f, char *b, size_t n)
{
	return text_or_unknown(b, n, f->cpu_model.known, f->cpu_model.text, f->cpu_model.why);
}

static bool v_cpu_count(const struct host_facts *f, char *b, size_t n)
{
	if (!f->cpu_count.known)
		return put(b, n, "unknown (%s)", f->cpu_count.why);
	return put(b, n, "%ld", f->cpu_count.n);
}

/* A CPU list; `unsupported` names a kernel without the list. */
static bool cpus(const struct host_cpus *c, const char *unsupported, char *b, size_t n)
{
	switch (c->state) {
	case HOST_CPUS_LIST:
		return put(b, n, "%s", c->list);
	case HOST_CPUS_EMPTY:
		return put(b, n, "none");
	case HOST_CPUS_UNSUPPORTED:
		return put(b, n, "%s", unsupported);
	case HOST_CPUS_UNKNOWN:
		break;
	}
	return put(b, n, "unknown (%s)", c->why);
}

static bool v_online(const struct host_facts *f, char *b, size_t n)
{
	return cpus(&f->online, "none", b, n);
}

static bool v_allowed(const struct host_facts *f, char *b, size_t n)
{
	return cpus(&f->allowed, "none", b, n);
}

/* isolcpus and nohz_full decide much of the jitter a run sees; an empty
 * list is a real answer, not an error. */
static bool v_isolated(const struct host_facts *f, char *b, size_t n)
{
	return cpus(&f->isolated, "none", b, n);
}

static bool v_nohz_full(const struct host_facts *f, char *b, size_t n)
{
	return cpus(&f->nohz_full, "none (kernel built without NO_HZ_FULL)", b, n);
}

/* "2 nodes (0-1): node0 CPUs 0-7; node1 CPUs 8-15" */
static bool v_numa(const struct host_facts *f, char *b, size_t n)
{
	const struct host_numa *m = &f->numa;
	if (m->online.state != HOST_CPUS_LIST)
		return cpus(&m->online, "none (kernel built without NUMA)", b, n);
	size_t o = 0;
	put(b, n, "%zu node%s (%s)", m->n, m->n == 1 ? "" : "s", m->online.list);
	for (size_t i = 0; i < m->n && (o = strlen(b)) + 1 < n; i++)
		put(b + o, n - o, "%s node%d CPUs %s", i ? ";" : ":", m->node[i].node,
		    m->node[i].cpus[0] ? m->node[i].cpus : "none");
	return true;
}

static bool v_smt(const struct host_facts *f, char *b, size_t n)
{
	const struct host_smt *s = &f->smt;
	if (s->state == HOST_SMT_UNKNOWN)
		return put(b, n, "unknown (%s)", s->why);
	return put(b, n, "%s (control %s)", s->state == HOST_SMT_ACTIVE ? "active" : "inactive",
		   s->control_known ? s->control : "unknown");
}

/* "cpu0:performance cpu1:powersave", at most 2047 characters: on a machine
 * with hundreds of CPUs the list is cut where it reaches that. */
static bool v_governor(const struct host_facts *f, char *b, size_t n)
{
	const struct host_governors *g = &f->governors;
	if (g->n == 0)
		return put(b, n, "none (no cpufreq: /sys/devices/system/cpu/cpu*/cpufreq missing; "
			   "fixed frequency or frequency set by a hypervisor)");
	char out[2048] = "";
	size_t o = 0;
	for (size_t i = 0; i < g->n; i++) {
		int k = utf8_snprintf(out + o, sizeof out - o, "%scpu%d:%s", o ? " " : "", g->cpu[i].cpu,
				 g->cpu[i].name);
		if (k < 0 || (size_t)k >= sizeof out - o)
			break;
		o += (size_t)k;
	}
	return put(b, n, "%s", out);
}

static bool v_clocksource(const struct host_facts *f, char *b, size_t n)
{
	return text_or_unknown(b, n, f->clocksource.known, f->clocksource.text,
			       f->clocksource.why);
}

/* RT throttling caps how much of each period real-time tasks may use; it
 * is both a latency source and the harness's last line of defence against
 * a runaway worker, so the report states it. */
static bool v_rt_throttling(const struct host_facts *f, char *b, size_t n)
{
	const struct host_rt_throttling *t = &f->rt_throttling;
	if (!t->known)
		return put(b, n, "unknown (%s)", t->why);
	if (t->runtime_us < 0)
		return put(b, n, "disabled (sched_rt_runtime_us=%lld, sched_rt_period_us=%lld)",
			   t->runtime_us, t->period_us);
	return put(b, n, "%lld us per %lld us (sched_rt_runtime_us/sched_rt_period_us)",
		   t->runtime_us, t->period_us);
}

void fingerprint_virt_evidence(const struct host_virt *v, char *buf, size_t len)
{
	const char *answer = !v->detect_ran ? "not installed"
			     : v->detect_answer[0] ? v->detect_answer : "none";
	utf8_snprintf(buf, len,
		 "cpuinfo hypervisor flag: %s; dmi sys_vendor: %s%s%s; systemd-detect-virt --vm: %s",
		 v->hypervisor_flag ? "yes" : "no", v->dmi_known ? v->dmi_vendor : "unavailable",
		 v->dmi_product[0] ? ", product " : "", v->dmi_product, answer);
}

/* Virtual machine or bare metal, with the evidence. Any one piece saying
 * "virtual" is enough: latencies then include the hypervisor's. */
static bool v_virtual_machine(const struct host_facts *f, char *b, size_t n)
{
	char evidence[512];
	fingerprint_virt_evidence(&f->virt, evidence, sizeof evidence);
	if (host_virt_detected(&f->virt))
		return put(b, n, "yes: %s (%s)", host_virt_kind(&f->virt), evidence);
	return put(b, n, "no (%s)", evidence);
}

static bool v_container(const struct host_facts *f, char *b, size_t n)
{
	if (!f->virt.container_ran)
		return false;
	return put(b, n, "%s (systemd-detect-virt --container)",
		   f->virt.container[0] ? f->virt.container : "none");
}

static void fmt_limit(rlim_t v, char *buf, size_t len, bool bytes)
{
	if (v == RLIM_INFINITY)
		utf8_snprintf(buf, len, "unlimited");
	else if (bytes && v >= 1024 && v % 1024 == 0)
		utf8_snprintf(buf, len, "%llu KiB", (unsigned long long)v / 1024);
	else
		utf8_snprintf(buf, len, "%llu", (unsigned long long)v);
}

static bool rlimit(const struct host_rlimit *l, bool bytes, char *b, size_t n)
{
	char s[48], h[48];
	if (!l->known)
		return put(b, n, "unknown (%s)", l->why);
	fmt_limit(l->soft, s, sizeof s, bytes);
	fmt_limit(l->hard, h, sizeof h, bytes);
	return put(b, n, "soft %s, hard %s", s, h);
}

static bool v_memlock(const struct host_facts *f, char *b, size_t n)
{
	return rlimit(&f->memlock, true, b, n);
}

static bool v_rtprio(const struct host_facts *f, char *b, size_t n)
{
	return rlimit(&f->rtprio, false, b, n);
}

static bool v_privileges(const struct host_facts *f, char *b, size_t n)
{
	const struct host_privileges *p = &f->privileges;
	if (!p->caps_known)
		return put(b, n, "euid %u; capabilities unknown", p->euid);
	return put(b, n, "euid %u; CAP_SYS_NICE %s, CAP_IPC_LOCK %s", p->euid,
		   p->cap_sys_nice ? "yes" : "no", p->cap_ipc_lock ? "yes" : "no");
}

/* What the worker will have, and from where; no entry when rtconform did
 * not say which worker it runs (host_facts_set_worker). */
static bool v_worker_privileges(const struct host_facts *f, char *b, size_t n)
{
	const struct host_worker_privileges *w = &f->privileges.worker;
	if (!w->known)
		return w->why[0] ? put(b, n, "unknown (%s)", w->why) : false;
	char from[HOST_WHY_LEN + 700];
	switch (w->source) {
	case HOST_WORKER_ROOT:
		utf8_snprintf(from, sizeof from, "uid 0");
		break;
	case HOST_WORKER_FILE_CAPS:
		utf8_snprintf(from, sizeof from, "file capabilities on %s", w->path);
		break;
	case HOST_WORKER_AMBIENT:
		utf8_snprintf(from, sizeof from, "ambient capabilities of the caller");
		break;
	default:
		if (!w->file_caps)
			utf8_snprintf(from, sizeof from, "no file capabilities on %s", w->path);
		else if (w->file_caps_ignored[0])
			utf8_snprintf(from, sizeof from, "file capabilities on %s ignored: %s", w->path,
				 w->file_caps_ignored);
		else if (w->no_new_privs)
			utf8_snprintf(from, sizeof from, "file capabilities on %s not gained: "
				 "no_new_privs is set", w->path);
		else
			utf8_snprintf(from, sizeof from, "file capabilities on %s lack them", w->path);
	}
	return put(b, n, "CAP_SYS_NICE %s, CAP_IPC_LOCK %s (%s)", w->cap_sys_nice ? "yes" : "no",
		   w->cap_ipc_lock ? "yes" : "no", from);
}

static bool v_thp(const struct host_facts *f, char *b, size_t n)
{
	if (f->thp.known && f->thp.mode == HOST_THP_NOT_BUILT)
		return put(b, n, "not in this kernel (built without TRANSPARENT_HUGEPAGE)");
	return text_or_unknown(b, n, f->thp.known, f->thp.line, f->thp.why);
}

/* ---- what the real-time checks look at (host_rt_collect) ------------- */

static bool v_smi(const struct host_facts *f, char *b, size_t n)
{
	const struct host_smi *s = &f->rt.smi;
	if (s->state == HOST_SMI_COUNTED)
		return put(b, n, "%llu (MSR 0x34 on cpu0, since boot)", s->count);
	if (s->state == HOST_SMI_UNREADABLE)
		return put(b, n, "not readable: %s", s->why);
	return put(b, n, "no SMI count: %s", s->why);
}

/* "intel_idle, governor menu: POLL 0 us, C1 2 us, C6 133 us (disabled on 2-3)" */
static bool v_cpuidle(const struct host_facts *f, char *b, size_t n)
{
	const struct host_cpuidle *c = &f->rt.cpuidle;
	if (!c->known)
		return put(b, n, "none (%s)", c->why);
	size_t o = 0;
	put(b, n, "%s, governor %s%s", c->driver, c->governor, c->nstates ? ":" : ", no states");
	for (size_t k = 0; k < c->nstates && (o = strlen(b)) + 1 < n; k++) {
		cpu_set_t off;
		char list[64];
		CPU_ZERO(&off);
		for (int cpu = 0; cpu < c->ncpu && cpu < CPU_SETSIZE; cpu++)
			if (!(c->enabled[cpu] >> k & 1u))
				CPU_SET(cpu, &off);
		cpulist_format(&off, list, sizeof list);
		put(b + o, n - o, "%s %s %ld us%s%s%s", k ? "," : "", c->state[k].name,
		    c->state[k].latency_us, list[0] ? " (disabled on " : "", list,
		    list[0] ? ")" : "");
	}
	return true;
}

/* "16 IO-APIC 16-fasteoi i801_smbus: 0-3; 24 ...: 1", at most 2047
 * characters, as host.cpu.governor. */
static bool v_irq_affinity(const struct host_facts *f, char *b, size_t n)
{
	const struct host_irqs *q = &f->rt.irqs;
	if (!q->known)
		return put(b, n, "unknown (%s)", q->why);
	char out[2048] = "";
	size_t o = 0;
	for (size_t i = 0; i < q->n; i++) {
		int k = utf8_snprintf(out + o, sizeof out - o, "%s%d %s: %s%s", o ? "; " : "",
				      q->irq[i].irq, q->irq[i].name,
				      q->irq[i].cpus[0] ? q->irq[i].cpus : "unknown",
				      q->irq[i].effective ? "" : " (smp_affinity)");
		if (k < 0 || (size_t)k >= sizeof out - o)
			break;
		o += (size_t)k;
	}
	return put(b, n, "%s", q->n ? out : "no numbered IRQ");
}

static bool v_irqbalance(const struct host_facts *f, char *b, size_t n)
{
	int pid = f->rt.irqs.irqbalance_pid;
	return pid ? put(b, n, "running (pid %d)", pid) : put(b, n, "not running");
}

static bool v_rcu_nocbs(const struct host_facts *f, char *b, size_t n)
{
	return cpus(&f->rt.rcu_nocbs, "none", b, n);
}

static bool v_boost(const struct host_facts *f, char *b, size_t n)
{
	const struct host_boost *o = &f->rt.boost;
	if (o->state == HOST_BOOST_NO_CONTROL)
		return put(b, n, "unknown (no intel_pstate/no_turbo or cpufreq/boost in "
			   "/sys/devices/system/cpu)");
	return put(b, n, "%s (%s)", o->state == HOST_BOOST_ON ? "on" : "off", o->file);
}

/* ---- the host's identity (identity.h) --------------------------------- */

static bool id_text(const struct host_id_text *t, char *b, size_t n)
{
	return text_or_unknown(b, n, t->known, t->text, t->why);
}

/* DMI on machines that have it (or that have no device tree either, so
 * the report says neither was found); the device-tree model on boards
 * without DMI (or with both). */
static bool dmi_shown(const struct host_identity *id)
{
	return id->dmi_present || !id->devicetree_present;
}

static bool v_id(const struct host_facts *f, char *b, size_t n)
{
	return id_text(&f->identity.machine_id, b, n);
}

static bool v_dmi_vendor(const struct host_facts *f, char *b, size_t n)
{
	return dmi_shown(&f->identity) && id_text(&f->identity.dmi_vendor, b, n);
}

static bool v_dmi_product(const struct host_facts *f, char *b, size_t n)
{
	return dmi_shown(&f->identity) && id_text(&f->identity.dmi_product, b, n);
}

static bool v_dmi_board(const struct host_facts *f, char *b, size_t n)
{
	return dmi_shown(&f->identity) && id_text(&f->identity.dmi_board, b, n);
}

static bool v_dt_model(const struct host_facts *f, char *b, size_t n)
{
	const struct host_identity *id = &f->identity;
	return (id->devicetree_present || !id->dmi_present) && id_text(&id->devicetree_model, b, n);
}

static bool v_os(const struct host_facts *f, char *b, size_t n)
{
	return id_text(&f->identity.os_pretty, b, n);
}

static bool v_os_name(const struct host_facts *f, char *b, size_t n)
{
	return id_text(&f->identity.os_name, b, n);
}

static bool v_os_version(const struct host_facts *f, char *b, size_t n)
{
	return id_text(&f->identity.os_version, b, n);
}

/* The host.* keys in the order every report lists them. */
static const struct {
	const char *key;
	bool (*value)(const struct host_facts *f, char *b, size_t n);
} host_keys[] = {
	{ "host.name", v_name },
	{ "host.id", v_id },
	{ "host.dmi.vendor", v_dmi_vendor },
	{ "host.dmi.product", v_dmi_product },
	{ "host.dmi.board", v_dmi_board },
	{ "host.devicetree.model", v_dt_model },
	{ "host.os", v_os },
	{ "host.os.name", v_os_name },
	{ "host.os.version", v_os_version },
	{ "host.kernel.release", v_release },
	{ "host.kernel.version", v_version },
	{ "host.machine", v_machine },
	{ "host.preempt", v_preempt },
	{ "host.kernel.cmdline", v_cmdline },
	{ "host.cpu.model", v_cpu_model },
	{ "host.cpu.count", v_cpu_count },
	{ "host.cpu.online", v_online },
	{ "host.cpu.allowed", v_allowed },
	{ "host.cpu.smt", v_smt },
	{ "host.cpu.isolated", v_isolated },
	{ "host.cpu.nohz_full", v_nohz_full },
	{ "host.numa", v_numa },
	{ "host.cpu.governor", v_governor },
	{ "host.clocksource", v_clocksource },
	{ "host.rt_throttling", v_rt_throttling },
	{ "host.virtual_machine", v_virtual_machine },
	{ "host.container", v_container },
	{ "host.limits.memlock", v_memlock },
	{ "host.limits.rtprio", v_rtprio },
	{ "host.privileges", v_privileges },
	{ "host.privileges.worker", v_worker_privileges },
	{ "host.thp", v_thp },
	{ "host.smi_count", v_smi },
	{ "host.cpuidle", v_cpuidle },
	{ "host.irq_affinity", v_irq_affinity },
	{ "host.irqbalance", v_irqbalance },
	{ "host.rcu_nocbs", v_rcu_nocbs },
	{ "host.cpu.boost", v_boost },
};

bool fingerprint_host_value(const struct host_facts *f, const char *key, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof host_keys / sizeof host_keys[0]; i++)
		if (strcmp(host_keys[i].key, key) == 0)
			return host_keys[i].value(f, buf, len);
	return false;
}

void fingerprint_add_host(struct fingerprint *fp, const struct host_facts *f)
{
	/* Values are text in reports that must read the same everywhere. */
	locale_t old = numfmt_c_enter();
	char buf[FP_HOST_VALUE_MAX];
	for (size_t i = 0; i < sizeof host_keys / sizeof host_keys[0]; i++)
		if (host_keys[i].value(f, buf, sizeof buf))
			fingerprint_add(fp, host_keys[i].key, "%s", buf);
	numfmt_c_leave(old);
}


/* ---- telling hosts apart ----------------------------------------------- */

/* The keys that name a host: a lab's label, the host name, the hashed
 * machine id. Two reports are of one host when each of them is the same in
 * both (absent in both counts as the same). */
static const char *const host_identity_keys[] = { "host.label", "host.name", "host.id" };

bool fingerprint_same_host(const struct fingerprint *a, const struct fingerprint *b)
{
	for (size_t i = 0; i < sizeof host_identity_keys / sizeof host_identity_keys[0]; i++) {
		const char *x = fingerprint_get(a, host_identity_keys[i]);
		const char *y = fingerprint_get(b, host_identity_keys[i]);
		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
			return false;
	}
	return true;
}

/* A value worth showing in a one-line summary: present and read. */
static const char *known(const struct fingerprint *fp, const char *key)
{
	const char *v = fingerprint_get(fp, key);
	return v && v[0] && strncmp(v, "unknown", 7) != 0 ? v : NULL;
}

void fingerprint_host_title(const struct fingerprint *fp, char *buf, size_t len)
{
	const char *label = fingerprint_get(fp, "host.label");
	const char *name = fingerprint_get(fp, "host.name");
	const char *id = known(fp, "host.id");
	if (!name)
		name = "unnamed host";
	if (label && id)
		utf8_snprintf(buf, len, "%s (host %s, id %s)", label, name, id);
	else if (label)
		utf8_snprintf(buf, len, "%s (host %s)", label, name);
	else if (id)
		utf8_snprintf(buf, len, "%s (id %s)", name, id);
	else
		utf8_snprintf(buf, len, "%s", name);
}

void fingerprint_host_summary(const struct fingerprint *fp, char *buf, size_t len)
{
	char title[512], hw[512] = "";
	fingerprint_host_title(fp, title, sizeof title);
	const char *vendor = known(fp, "host.dmi.vendor"), *product = known(fp, "host.dmi.product");
	const char *board = known(fp, "host.dmi.board"), *dt = known(fp, "host.devicetree.model");
	if (vendor || product)
		utf8_snprintf(hw, sizeof hw, "%s%s%s%s%s", vendor ? vendor : "",
			 vendor && product ? " " : "", product ? product : "",
			 board && (!product || strcmp(board, product)) ? ", board " : "",
			 board && (!product || strcmp(board, product)) ? board : "");
	else if (dt)
		utf8_snprintf(hw, sizeof hw, "%s", dt);
	const char *os = known(fp, "host.os");
	utf8_snprintf(buf, len, "%s%s%s%s%s", title, hw[0] ? "; " : "", hw, os ? "; " : "",
		 os ? os : "");
}
