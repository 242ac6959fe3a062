/* SPDX-License-Identifier: Apache-2.0 */
/* test_fingerprint.c - the environment every report carries, and the
 * readiness checks `rtconform env` draws from it.
 *
 * Every field the audit issue lists is present and non-empty, with values
 * checked against what this machine says by other means (sysconf,
 * /proc/cmdline, getrlimit). The fingerprint's text and the readiness
 * checks are both taken from made-up facts, so each value, verdict and
 * remedy is known.
 */
#include <check.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/rtperm.h"
#include "harness/measure/timebase.h"
#include "harness/runinfo.h"
#include "host/facts.h"
#include "host/fingerprint.h"
#include "host/readiness.h"
#include "requirements/model.h"
#include "test_util.h"

static const struct timebase test_tb = {
	.name = "tsc", .is_tsc = true, .freq_hz = 2.5e9, .ns_per_tick = 0.4,
	.resolution_ns = 0.4, .read_min_ns = 8, .read_median_ns = 9.25,
};

static void collect_with_run(struct fingerprint *fp)
{
	struct req_file a = { .path = (char *)"a.xml" }, b = { .path = (char *)"dir/b.xml" };
	for (int i = 0; i < 32; i++) {
		a.sha256[i] = (unsigned char)i;
		b.sha256[i] = 0xff;
	}
	struct req_file *files[] = { &a, &b };
	runinfo_collect(fp, &test_tb);
	runinfo_add_run(fp, "rtconform run a.xml dir/b.xml", 1700000000, 1700000061, files, 2);
}

START_TEST(every_field_present)
{
	/* The list, in its order, as keys. */
	static const char *const keys[] = {
		"host.name",
		"host.kernel.release", "host.kernel.version",
		"host.preempt",
		"host.kernel.cmdline",
		"host.cpu.model", "host.cpu.count", "host.cpu.online", "host.cpu.smt",
		"host.cpu.isolated", "host.cpu.nohz_full",
		"host.clocksource",
		"host.numa", /* issue 40: the nodes and their CPUs */
		"host.cpu.governor",
		"host.rt_throttling",
		"host.virtual_machine",
		"host.limits.memlock", "host.limits.rtprio",
		"rtconform.version", "rtconform.build", "rtconform.compiler", "rtconform.libxml2",
		"timebase.name", "timebase.freq_hz",
		"rtconform.started", "rtconform.ended",
		"requirements.1.path", "requirements.1.sha256",
		"requirements.2.path", "requirements.2.sha256",
		"rtconform.command",
		/* and what else the reports rely on */
		"host.machine", "host.cpu.allowed", "host.privileges", "rtconform.jansson",
		"rtconform.cwd", "timebase.resolution_ns", "timebase.read_overhead_min_ns",
		"timebase.read_overhead_median_ns",
	};
	struct fingerprint fp = { 0 };
	collect_with_run(&fp);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *v = fingerprint_get(&fp, keys[i]);
		ck_assert_msg(v && *v, "no %s", keys[i]);
	}
	/* keys are unique and every value is printable text */
	for (size_t i = 0; i < fp.n; i++) {
		for (size_t j = i + 1; j < fp.n; j++)
			ck_assert_str_ne(fp.e[i].key, fp.e[j].key);
		for (const char *c = fp.e[i].value; *c; c++)
			ck_assert_msg((unsigned char)*c >= 0x20 || *c == '\t', "%s has a control char",
				      fp.e[i].key);
	}
	fingerprint_free(&fp);
}
END_TEST

START_TEST(values_match_the_machine)
{
	struct fingerprint fp = { 0 };
	collect_with_run(&fp);
	char buf[4096];

	snprintf(buf, sizeof buf, "%ld", sysconf(_SC_NPROCESSORS_CONF));
	ck_assert_str_eq(fingerprint_get(&fp, "host.cpu.count"), buf);

	/* the whole kernel command line, as the kernel gives it */
	FILE *f = fopen("/proc/cmdline", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	ck_assert_str_eq(fingerprint_get(&fp, "host.kernel.cmdline"), buf);

	/* limits in the same words getrlimit gives */
	struct rlimit rl;
	ck_assert_int_eq(getrlimit(RLIMIT_RTPRIO, &rl), 0);
	const char *rtprio = fingerprint_get(&fp, "host.limits.rtprio");
	if (rl.rlim_cur == RLIM_INFINITY)
		ck_assert(strncmp(rtprio, "soft unlimited", 14) == 0);
	else {
		snprintf(buf, sizeof buf, "soft %llu,", (unsigned long long)rl.rlim_cur);
		ck_assert_msg(strncmp(rtprio, buf, strlen(buf)) == 0, "%s vs %s", rtprio, buf);
	}
	/* privileges name the effective uid */
	snprintf(buf, sizeof buf, "euid %u;", (unsigned)geteuid());
	ck_assert(strncmp(fingerprint_get(&fp, "host.privileges"), buf, strlen(buf)) == 0);

	/* governors: "cpuN:name ..." or a sentence that says there are none */
	const char *gov = fingerprint_get(&fp, "host.cpu.governor");
	ck_assert(strncmp(gov, "cpu", 3) == 0 || strncmp(gov, "none (", 6) == 0);
	/* VM: yes or no, with the evidence */
	const char *vm = fingerprint_get(&fp, "host.virtual_machine");
	ck_assert(strncmp(vm, "yes: ", 5) == 0 || strncmp(vm, "no (", 4) == 0);
	ck_assert_ptr_nonnull(strstr(vm, "cpuinfo hypervisor flag"));
	/* preemption model first, then how it was found */
	const char *pre = fingerprint_get(&fp, "host.preempt");
	ck_assert_msg(strncmp(pre, "PREEMPT_RT", 10) == 0 || strncmp(pre, "PREEMPT", 7) == 0 ||
		      strncmp(pre, "voluntary", 9) == 0 || strncmp(pre, "none", 4) == 0,
		      "host.preempt: %s", pre);

	/* the run's own fields */
	ck_assert_str_eq(fingerprint_get(&fp, "rtconform.started"), "2023-11-14T22:13:20Z");
	ck_assert_str_eq(fingerprint_get(&fp, "rtconform.ended"), "2023-11-14T22:14:21Z");
	ck_assert_str_eq(fingerprint_get(&fp, "requirements.2.path"), "dir/b.xml");
	ck_assert_str_eq(fingerprint_get(&fp, "requirements.1.sha256"),
			 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
	const char *sha = fingerprint_get(&fp, "requirements.2.sha256");
	ck_assert_uint_eq(strlen(sha), 64);
	ck_assert_str_eq(fingerprint_get(&fp, "rtconform.command"), "rtconform run a.xml dir/b.xml");
	char *cwd = getcwd(NULL, 0);
	ck_assert_str_eq(fingerprint_get(&fp, "rtconform.cwd"), cwd);
	free(cwd);
	ck_assert_str_eq(fingerprint_get(&fp, "timebase.freq_hz"), "2500000000");
	ck_assert_str_eq(fingerprint_get(&fp, "timebase.read_overhead_median_ns"), "9.250");
	ck_assert_str_eq(fingerprint_get(&fp, "rtconform.version"), runinfo_version);
	fingerprint_free(&fp);
}
END_TEST

/* The facts the fingerprint came from agree with the machine too. */
START_TEST(facts_match_the_machine)
{
	/* a soft memlock limit below the hard one, so the two cannot be
	 * confused (this runs in Check's child process) */
	struct rlimit ml;
	ck_assert_int_eq(getrlimit(RLIMIT_MEMLOCK, &ml), 0);
	ml.rlim_cur = ml.rlim_max == RLIM_INFINITY ? 64 * 1024 : ml.rlim_max / 2;
	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &ml), 0);

	struct host_facts f;
	host_facts_collect(&f);
	ck_assert(f.cpu_count.known);
	ck_assert_int_eq(f.cpu_count.n, sysconf(_SC_NPROCESSORS_CONF));
	struct rlimit rl;
	ck_assert_int_eq(getrlimit(RLIMIT_RTPRIO, &rl), 0);
	ck_assert(f.rtprio.known);
	ck_assert_uint_eq(f.rtprio.soft, rl.rlim_cur);
	ck_assert_uint_eq(f.rtprio.hard, rl.rlim_max);
	ck_assert_int_eq(getrlimit(RLIMIT_MEMLOCK, &rl), 0);
	ck_assert_uint_eq(f.memlock.soft, rl.rlim_cur);
	ck_assert_uint_eq(f.memlock.hard, rl.rlim_max);
	ck_assert_uint_lt(f.memlock.soft, f.memlock.hard);
	ck_assert_uint_eq(f.privileges.euid, (unsigned)geteuid());
	ck_assert_int_eq(f.allowed.state, HOST_CPUS_LIST);
	/* a THP line that was read is classified by its bracketed mode */
	if (f.thp.known)
		ck_assert_int_eq(f.thp.mode, host_thp_mode_of(f.thp.line));

	/* rendering the same facts twice gives the same text */
	struct fingerprint a = { 0 }, b = { 0 };
	fingerprint_add_host(&a, &f);
	fingerprint_add_host(&b, &f);
	ck_assert_uint_eq(a.n, b.n);
	ck_assert_uint_ge(a.n, 21);
	for (size_t i = 0; i < a.n; i++) {
		ck_assert_str_eq(a.e[i].key, b.e[i].key);
		ck_assert_str_eq(a.e[i].value, b.e[i].value);
	}
	fingerprint_free(&a);
	fingerprint_free(&b);
}
END_TEST

/* ---- made-up facts ---------------------------------------------------- */

static void set_gov(struct host_governors *g, size_t i, int cpu, const char *name)
{
	g->cpu[i].cpu = cpu;
	snprintf(g->cpu[i].name, sizeof g->cpu[i].name, "%s", name);
	if (g->n <= i)
		g->n = i + 1;
}

static void set_cpus(struct host_cpus *c, enum host_cpus_state state, const char *list)
{
	c->state = state;
	snprintf(c->list, sizeof c->list, "%s", list);
}

/* The facts of an ideal machine, for a user without privileges but with
 * the limits that let real-time requirements run. */
static void ideal(struct host_facts *f)
{
	memset(f, 0, sizeof *f);
	f->uname = (struct host_uname){ .known = true, .nodename = "rt-1",
					.release = "6.1.0-rt", .version = "#1 SMP PREEMPT_RT",
					.machine = "x86_64" };
	f->preempt = (struct host_preempt){ HOST_PREEMPT_RT, HOST_PREEMPT_FROM_SYS_REALTIME, "" };
	f->cmdline.known = true;
	snprintf(f->cmdline.text, sizeof f->cmdline.text, "quiet isolcpus=1-3 nohz_full=1-3");
	f->cpu_model.known = true;
	snprintf(f->cpu_model.text, sizeof f->cpu_model.text, "Test CPU @ 2.40GHz");
	f->cpu_count = (struct host_count){ .known = true, .n = 4 };
	set_cpus(&f->online, HOST_CPUS_LIST, "0-3");
	set_cpus(&f->allowed, HOST_CPUS_LIST, "1-3");
	set_cpus(&f->isolated, HOST_CPUS_LIST, "1-3");
	set_cpus(&f->nohz_full, HOST_CPUS_LIST, "1-3");
	set_cpus(&f->numa.online, HOST_CPUS_LIST, "0-1");
	f->numa.n = 2;
	f->numa.node[0] = (struct host_numa_node){ 0, "0-1" };
	f->numa.node[1] = (struct host_numa_node){ 1, "2-3" };
	f->smt = (struct host_smt){ .state = HOST_SMT_INACTIVE, .control_known = true,
				    .control = "off" };
	for (int c = 0; c < 4; c++)
		set_gov(&f->governors, (size_t)c, c, "performance");
	f->clocksource.known = true;
	snprintf(f->clocksource.text, sizeof f->clocksource.text, "tsc");
	f->rt_throttling = (struct host_rt_throttling){ .known = true, .runtime_us = 950000,
							.period_us = 1000000 };
	f->virt = (struct host_virt){ .dmi_known = true, .dmi_vendor = "Acme",
				      .dmi_product = "RT-1", .detect_ran = true,
				      .detect_answer = "none" };
	f->memlock = (struct host_rlimit){ .known = true, .soft = RLIM_INFINITY,
					   .hard = RLIM_INFINITY };
	f->rtprio = (struct host_rlimit){ .known = true, .soft = 99, .hard = 99 };
	f->privileges = (struct host_privileges){ .euid = 1000, .caps_known = true };
	f->thp = (struct host_thp){ .known = true, .mode = HOST_THP_MADVISE,
				    .line = "always [madvise] never" };
	struct host_identity *id = &f->identity;
	id->dmi_present = true;
	id->dmi_vendor = (struct host_id_text){ .known = true, .text = "Acme" };
	id->dmi_product = (struct host_id_text){ .known = true, .text = "RT-1" };
	id->dmi_board = (struct host_id_text){ .known = true, .text = "RT-1 mainboard" };
	id->devicetree_model = (struct host_id_text){ .why = "/proc/device-tree/model: "
							     "No such file or directory" };
	id->os_name = (struct host_id_text){ .known = true, .text = "Debian GNU/Linux" };
	id->os_version = (struct host_id_text){ .known = true, .text = "12" };
	id->os_pretty = (struct host_id_text){ .known = true,
					       .text = "Debian GNU/Linux 12 (bookworm)" };
	id->machine_id = (struct host_id_text){ .known = true, .text = "00112233aabbccdd" };
	/* the real-time checks' facts: no SMI; C6 open on cpu0 alone, which
	 * does not measure; one IRQ, on cpu0; callbacks offloaded; no boost */
	struct host_rt *rt = &f->rt;
	rt->smi = (struct host_smi){ .state = HOST_SMI_COUNTED, .count = 0 };
	rt->cpuidle = (struct host_cpuidle){ .known = true, .driver = "intel_idle",
					     .governor = "menu", .nstates = 3, .ncpu = 4 };
	rt->cpuidle.state[0] = (struct host_idle_state){ "POLL", 0 };
	rt->cpuidle.state[1] = (struct host_idle_state){ "C1", 2 };
	rt->cpuidle.state[2] = (struct host_idle_state){ "C6", 133 };
	rt->cpuidle.enabled[0] = 7;
	for (int c = 1; c < 4; c++)
		rt->cpuidle.enabled[c] = 3;
	rt->irqs = (struct host_irqs){ .known = true, .n = 1, .total = 1 };
	rt->irqs.irq[0] = (struct host_irq){ 16, "IO-APIC 16-fasteoi i801_smbus", "0", true };
	set_cpus(&rt->rcu_nocbs, HOST_CPUS_LIST, "1-3");
	rt->boost = (struct host_boost){ HOST_BOOST_OFF,
					 "/sys/devices/system/cpu/intel_pstate/no_turbo" };
}

static const struct ready_check *find(const struct readiness *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->c[i].name, name))
			return &r->c[i];
	return NULL;
}

static const struct ready_timebase tsc_tb = { .name = "tsc", .invariant_tsc = true };

/* The text of one host.* key rendered from f. */
static const char *render(const struct host_facts *f, const char *key, char *buf, size_t len)
{
	struct fingerprint fp = { 0 };
	fingerprint_add_host(&fp, f);
	const char *v = fingerprint_get(&fp, key);
	snprintf(buf, len, "%s", v ? v : "(absent)");
	fingerprint_free(&fp);
	return buf;
}

/* CPU seconds to add n keys of a 200-byte common prefix (as a hostile
 * results.json's environment may hold), each looked up once more. */
static double add_keys(size_t n)
{
	struct fingerprint fp = { 0 };
	char key[256];
	clock_t t0 = clock();
	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof key, "%0200d%07zu", 0, i);
		fingerprint_add(&fp, key, "%zu", i);
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof key, "%0200d%07zu", 0, i);
		ck_assert_str_eq(fingerprint_get(&fp, key), (snprintf(key, sizeof key, "%zu", i), key));
	}
	ck_assert_uint_eq(fp.n, n);
	double t = (double)(clock() - t0) / CLOCKS_PER_SEC;
	fingerprint_free(&fp);
	return t;
}

/* A key is found by its hash, not a scan: 4 x the keys take about 4 x the
 * time (a scan took 16 x: 40,000 keys 6.8 s, 80,000 42 s). A ratio, with
 * room for a busy machine; each best of three. */
START_TEST(fingerprint_keys_found_in_constant_time)
{
	double small = 1e9, big = 1e9;
	for (int k = 0; k < 3; k++) {
		double a = add_keys(5000), b = add_keys(20000);
		small = a < small ? a : small;
		big = b < big ? b : big;
	}
	ck_assert_msg(big < 8 * small + 0.05, "5000 keys %.3f s, 20000 keys %.3f s", small, big);
	/* Adding a key again replaces its value in place. */
	struct fingerprint fp = { 0 };
	fingerprint_add(&fp, "a", "1");
	fingerprint_add(&fp, "b", "2");
	fingerprint_add(&fp, "a", "3");
	ck_assert_uint_eq(fp.n, 2);
	ck_assert_str_eq(fp.e[0].key, "a");
	ck_assert_str_eq(fp.e[0].value, "3");
	ck_assert_str_eq(fingerprint_get(&fp, "b"), "2");
	ck_assert_ptr_null(fingerprint_get(&fp, "A"));
	fingerprint_free(&fp);
}
END_TEST

START_TEST(fingerprint_of_made_up_facts)
{
	/* Every host.* key, in order, as the reports have always shown it. */
	static const char *const want[][2] = {
		{ "host.name", "rt-1" },
		{ "host.id", "00112233aabbccdd" },
		{ "host.dmi.vendor", "Acme" },
		{ "host.dmi.product", "RT-1" },
		{ "host.dmi.board", "RT-1 mainboard" },
		/* no host.devicetree.model: DMI and no device tree */
		{ "host.os", "Debian GNU/Linux 12 (bookworm)" },
		{ "host.os.name", "Debian GNU/Linux" },
		{ "host.os.version", "12" },
		{ "host.kernel.release", "6.1.0-rt" },
		{ "host.kernel.version", "#1 SMP PREEMPT_RT" },
		{ "host.machine", "x86_64" },
		{ "host.preempt", "PREEMPT_RT (/sys/kernel/realtime)" },
		{ "host.kernel.cmdline", "quiet isolcpus=1-3 nohz_full=1-3" },
		{ "host.cpu.model", "Test CPU @ 2.40GHz" },
		{ "host.cpu.count", "4" },
		{ "host.cpu.online", "0-3" },
		{ "host.cpu.allowed", "1-3" },
		{ "host.cpu.smt", "inactive (control off)" },
		{ "host.cpu.isolated", "1-3" },
		{ "host.cpu.nohz_full", "1-3" },
		{ "host.numa", "2 nodes (0-1): node0 CPUs 0-1; node1 CPUs 2-3" },
		{ "host.cpu.governor",
		  "cpu0:performance cpu1:performance cpu2:performance cpu3:performance" },
		{ "host.clocksource", "tsc" },
		{ "host.rt_throttling",
		  "950000 us per 1000000 us (sched_rt_runtime_us/sched_rt_period_us)" },
		{ "host.virtual_machine", "no (cpuinfo hypervisor flag: no; dmi sys_vendor: Acme, "
					  "product RT-1; systemd-detect-virt --vm: none)" },
		{ "host.limits.memlock", "soft unlimited, hard unlimited" },
		{ "host.limits.rtprio", "soft 99, hard 99" },
		{ "host.privileges", "euid 1000; CAP_SYS_NICE no, CAP_IPC_LOCK no" },
		{ "host.thp", "always [madvise] never" },
		{ "host.smi_count", "0 (MSR 0x34 on cpu0, since boot)" },
		{ "host.cpuidle", "intel_idle, governor menu: POLL 0 us, C1 2 us, C6 133 us "
				  "(disabled on 1-3)" },
		{ "host.irq_affinity", "16 IO-APIC 16-fasteoi i801_smbus: 0" },
		{ "host.irqbalance", "not running" },
		{ "host.rcu_nocbs", "1-3" },
		{ "host.cpu.boost", "off (/sys/devices/system/cpu/intel_pstate/no_turbo)" },
	};
	struct host_facts f;
	struct fingerprint fp = { 0 };
	ideal(&f);
	fingerprint_add_host(&fp, &f);
	/* no host.container: systemd-detect-virt --container did not run */
	ck_assert_uint_eq(fp.n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < fp.n; i++) {
		ck_assert_str_eq(fp.e[i].key, want[i][0]);
		ck_assert_str_eq(fp.e[i].value, want[i][1]);
	}
	fingerprint_free(&fp);
}
END_TEST

START_TEST(fingerprint_names_each_preemption_source)
{
	static const struct {
		enum host_preempt_model model;
		enum host_preempt_source source;
		const char *word, *want;
	} cases[] = {
		{ HOST_PREEMPT_UNKNOWN, HOST_PREEMPT_FROM_NOTHING, "", "unknown (uname failed)" },
		{ HOST_PREEMPT_RT, HOST_PREEMPT_FROM_VERSION, "", "PREEMPT_RT (kernel version string)" },
		{ HOST_PREEMPT_FULL, HOST_PREEMPT_FROM_VERSION, "", "PREEMPT (kernel version string)" },
		{ HOST_PREEMPT_FULL, HOST_PREEMPT_FROM_DEBUGFS, "full",
		  "PREEMPT (PREEMPT_DYNAMIC, /sys/kernel/debug/sched/preempt)" },
		{ HOST_PREEMPT_LAZY, HOST_PREEMPT_FROM_DEBUGFS, "lazy",
		  "lazy (PREEMPT_DYNAMIC, /sys/kernel/debug/sched/preempt)" },
		{ HOST_PREEMPT_FULL, HOST_PREEMPT_FROM_CMDLINE, "full",
		  "PREEMPT (PREEMPT_DYNAMIC, preempt=full on the kernel command line)" },
		{ HOST_PREEMPT_OTHER, HOST_PREEMPT_FROM_CMDLINE, "odd",
		  "odd (PREEMPT_DYNAMIC, preempt=odd on the kernel command line)" },
		{ HOST_PREEMPT_VOLUNTARY, HOST_PREEMPT_FROM_DYNAMIC_KCONFIG, "",
		  "voluntary (PREEMPT_DYNAMIC, the build's default in /boot/config-6.1.0-rt)" },
		{ HOST_PREEMPT_FULL, HOST_PREEMPT_FROM_DYNAMIC_DEFAULT, "",
		  "PREEMPT (PREEMPT_DYNAMIC; the mode in force is not visible: no debugfs, no "
		  "preempt= parameter, no /boot/config; PREEMPT_DYNAMIC kernels default to full)" },
		{ HOST_PREEMPT_NONE, HOST_PREEMPT_FROM_KCONFIG, "", "none (/boot/config-6.1.0-rt)" },
		{ HOST_PREEMPT_NONE_OR_VOLUNTARY, HOST_PREEMPT_FROM_NO_MARKER, "",
		  "none or voluntary (no PREEMPT in the kernel version string)" },
	};
	struct host_facts f;
	char buf[FP_HOST_VALUE_MAX];
	ideal(&f);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		f.preempt.model = cases[i].model;
		f.preempt.source = cases[i].source;
		snprintf(f.preempt.word, sizeof f.preempt.word, "%s", cases[i].word);
		ck_assert_str_eq(render(&f, "host.preempt", buf, sizeof buf), cases[i].want);
	}
}
END_TEST

START_TEST(fingerprint_says_what_is_unknown)
{
	struct host_facts f;
	char buf[FP_HOST_VALUE_MAX];
	ideal(&f);
	f.uname = (struct host_uname){ .known = false, .why = "uname: Bad address" };
	f.cmdline.known = false;
	snprintf(f.cmdline.why, sizeof f.cmdline.why, "/proc/cmdline: Permission denied");
	f.cpu_count = (struct host_count){ .known = false, .why = "sysconf: Invalid argument" };
	f.online = (struct host_cpus){ .state = HOST_CPUS_UNKNOWN, .why = "online: EIO" };
	set_cpus(&f.isolated, HOST_CPUS_EMPTY, "");
	set_cpus(&f.nohz_full, HOST_CPUS_UNSUPPORTED, "");
	set_cpus(&f.numa.online, HOST_CPUS_UNSUPPORTED, "");
	f.smt = (struct host_smt){ .state = HOST_SMT_ACTIVE, .control_known = false };
	f.governors.n = 0;
	f.rt_throttling = (struct host_rt_throttling){ .known = true, .runtime_us = -1,
						       .period_us = 1000000 };
	f.memlock = (struct host_rlimit){ .known = true, .soft = 8u << 20, .hard = 1000 };
	f.rtprio = (struct host_rlimit){ .known = false, .why = "getrlimit: Invalid argument" };
	f.privileges = (struct host_privileges){ .euid = 0, .caps_known = false };
	f.thp = (struct host_thp){ .known = false, .why = "thp: No such file or directory" };
	static const char *const want[][2] = {
		{ "host.name", "unknown (uname: Bad address)" },
		{ "host.kernel.version", "unknown (uname: Bad address)" },
		{ "host.kernel.cmdline", "unknown (/proc/cmdline: Permission denied)" },
		{ "host.cpu.count", "unknown (sysconf: Invalid argument)" },
		{ "host.cpu.online", "unknown (online: EIO)" },
		{ "host.cpu.isolated", "none" },
		{ "host.cpu.nohz_full", "none (kernel built without NO_HZ_FULL)" },
		{ "host.numa", "none (kernel built without NUMA)" },
		{ "host.cpu.smt", "active (control unknown)" },
		{ "host.cpu.governor", "none (no cpufreq: /sys/devices/system/cpu/cpu*/cpufreq "
				       "missing; fixed frequency or frequency set by a hypervisor)" },
		{ "host.rt_throttling",
		  "disabled (sched_rt_runtime_us=-1, sched_rt_period_us=1000000)" },
		{ "host.limits.memlock", "soft 8192 KiB, hard 1000" },
		{ "host.limits.rtprio", "unknown (getrlimit: Invalid argument)" },
		{ "host.privileges", "euid 0; capabilities unknown" },
		{ "host.thp", "unknown (thp: No such file or directory)" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_str_eq(render(&f, want[i][0], buf, sizeof buf), want[i][1]);

	f.smt = (struct host_smt){ .state = HOST_SMT_UNKNOWN, .why = "smt: No such file" };
	ck_assert_str_eq(render(&f, "host.cpu.smt", buf, sizeof buf), "unknown (smt: No such file)");
	f.rt_throttling = (struct host_rt_throttling){ .known = false, .why = "rt: EACCES" };
	ck_assert_str_eq(render(&f, "host.rt_throttling", buf, sizeof buf), "unknown (rt: EACCES)");
}
END_TEST

START_TEST(fingerprint_names_the_virtual_machine)
{
	struct host_facts f;
	char buf[FP_HOST_VALUE_MAX];
	ideal(&f);
	/* the DMI vendor names the hypervisor when systemd-detect-virt does not */
	f.virt = (struct host_virt){ .dmi_known = true, .dmi_vendor = "QEMU",
				     .dmi_names_hypervisor = true, .detect_ran = false };
	ck_assert_str_eq(render(&f, "host.virtual_machine", buf, sizeof buf),
			 "yes: QEMU (cpuinfo hypervisor flag: no; dmi sys_vendor: QEMU; "
			 "systemd-detect-virt --vm: not installed)");
	ck_assert_str_eq(render(&f, "host.container", buf, sizeof buf), "(absent)");
	/* systemd-detect-virt's answer wins over the vendor */
	f.virt.detect_ran = f.virt.detect_vm = true;
	snprintf(f.virt.detect_answer, sizeof f.virt.detect_answer, "kvm");
	f.virt.hypervisor_flag = true;
	ck_assert_str_eq(render(&f, "host.virtual_machine", buf, sizeof buf),
			 "yes: kvm (cpuinfo hypervisor flag: yes; dmi sys_vendor: QEMU; "
			 "systemd-detect-virt --vm: kvm)");
	/* the CPU flag alone */
	f.virt = (struct host_virt){ .hypervisor_flag = true, .detect_ran = true,
				     .container_ran = true };
	ck_assert_str_eq(render(&f, "host.virtual_machine", buf, sizeof buf),
			 "yes: hypervisor (cpuinfo hypervisor flag: yes; dmi sys_vendor: "
			 "unavailable; systemd-detect-virt --vm: none)");
	ck_assert_str_eq(render(&f, "host.container", buf, sizeof buf),
			 "none (systemd-detect-virt --container)");
	snprintf(f.virt.container, sizeof f.virt.container, "docker");
	ck_assert_str_eq(render(&f, "host.container", buf, sizeof buf),
			 "docker (systemd-detect-virt --container)");
}
END_TEST

/* On a machine with hundreds of CPUs the governor list is cut at 2047
 * characters, mid-word; readiness still judges every CPU, so a cut
 * "cpu113:perf" is not taken for a governor named "perf". */
START_TEST(governors_of_many_cpus)
{
	struct host_facts f;
	char buf[FP_HOST_VALUE_MAX];
	struct readiness r;
	ideal(&f);
	for (int c = 0; c < 400; c++)
		set_gov(&f.governors, (size_t)c, c, "performance");
	render(&f, "host.cpu.governor", buf, sizeof buf);
	ck_assert_uint_eq(strlen(buf), 2047);
	ck_assert(strncmp(buf, "cpu0:performance cpu1:performance ", 34) == 0);
	ck_assert_ptr_null(strstr(buf, "cpu399"));
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_int_eq(find(&r, "cpufreq")->level, READY_OK);

	/* and a CPU past the cut is still named */
	set_gov(&f.governors, 399, 399, "powersave");
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_int_eq(find(&r, "cpufreq")->level, READY_WARN);
	ck_assert_str_eq(find(&r, "cpufreq")->finding, "cpufreq governor powersave on cpu399");
}
END_TEST

START_TEST(cmdline_params_and_words)
{
	struct host_facts f;
	char v[64];
	ideal(&f);
	snprintf(f.cmdline.text, sizeof f.cmdline.text,
		 "ro preempt=full\tnosmt isolcpus=2 -- preempt=none init-arg");
	ck_assert(host_cmdline_param(&f, "preempt", v, sizeof v));
	ck_assert_str_eq(v, "full");
	ck_assert(host_cmdline_param(&f, "nosmt", v, sizeof v));
	ck_assert_str_eq(v, "");
	ck_assert(!host_cmdline_param(&f, "isol", v, sizeof v)); /* a prefix is not a key */
	ck_assert(!host_cmdline_param(&f, "init-arg", v, sizeof v)); /* after "--": init's */
	f.cmdline.known = false;
	ck_assert(!host_cmdline_param(&f, "preempt", v, sizeof v));

	ck_assert_int_eq(host_preempt_model_of("full"), HOST_PREEMPT_FULL);
	ck_assert_int_eq(host_preempt_model_of("voluntary"), HOST_PREEMPT_VOLUNTARY);
	ck_assert_int_eq(host_preempt_model_of("none"), HOST_PREEMPT_NONE);
	ck_assert_int_eq(host_preempt_model_of("lazy"), HOST_PREEMPT_LAZY);
	ck_assert_int_eq(host_preempt_model_of("Full"), HOST_PREEMPT_OTHER);
	ck_assert_int_eq(host_thp_mode_of("[always] madvise never"), HOST_THP_ALWAYS);
	ck_assert_int_eq(host_thp_mode_of("always [madvise] never"), HOST_THP_MADVISE);
	ck_assert_int_eq(host_thp_mode_of("always madvise [never]"), HOST_THP_NEVER);
	ck_assert_int_eq(host_thp_mode_of("always madvise never"), HOST_THP_UNRECOGNISED);
}
END_TEST

/* What the kernel writes, as host_facts_collect() reads it: the lists of a
 * PREEMPT_RT guest with 16 CPUs booted without nohz_full (issue 40), and
 * the THP setting of a kernel built without it. */
START_TEST(kernel_text_read_into_facts)
{
	struct host_facts f;
	struct readiness r;
	char buf[FP_HOST_VALUE_MAX];
	const char *nohz = "/sys/devices/system/cpu/nohz_full";
	ideal(&f);
	host_cpus_of_read(&f.isolated, "isolated", 0, "", false);
	host_cpus_of_read(&f.nohz_full, nohz, 0, "          (null)", true);
	ck_assert_int_eq(f.nohz_full.state, HOST_CPUS_EMPTY);
	ck_assert_str_eq(render(&f, "host.cpu.nohz_full", buf, sizeof buf), "none");
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_int_eq(find(&r, "isolation")->level, READY_NOTE);
	host_cpus_of_read(&f.nohz_full, nohz, 0, "(null)", true);
	ck_assert_int_eq(f.nohz_full.state, HOST_CPUS_EMPTY);
	host_cpus_of_read(&f.nohz_full, nohz, 0, " 2-3 ", true);
	ck_assert_int_eq(f.nohz_full.state, HOST_CPUS_LIST);
	ck_assert_str_eq(f.nohz_full.list, "2-3");
	host_cpus_of_read(&f.nohz_full, nohz, -ENOENT, "", true);
	ck_assert_int_eq(f.nohz_full.state, HOST_CPUS_UNSUPPORTED);
	host_cpus_of_read(&f.isolated, "isolated", -EACCES, "", false);
	ck_assert_int_eq(f.isolated.state, HOST_CPUS_UNKNOWN);
	ck_assert_str_eq(f.isolated.why, "isolated: Permission denied");

	const char *thp = "/sys/kernel/mm/transparent_hugepage/enabled";
	host_thp_of_read(&f.thp, thp, -ENOENT, "", true);
	ck_assert(f.thp.known);
	ck_assert_int_eq(f.thp.mode, HOST_THP_NOT_BUILT);
	ck_assert_str_eq(render(&f, "host.thp", buf, sizeof buf),
			 "not in this kernel (built without TRANSPARENT_HUGEPAGE)");
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_int_eq(find(&r, "thp")->level, READY_OK);
	ck_assert_ptr_null(strstr(find(&r, "thp")->finding, "unknown"));
	/* no /sys/kernel/mm at all (sysfs not mounted): unknown, and why */
	host_thp_of_read(&f.thp, thp, -ENOENT, "", false);
	ck_assert(!f.thp.known);
	ck_assert_str_eq(f.thp.why, "/sys/kernel/mm/transparent_hugepage/enabled: "
				    "No such file or directory");
	host_thp_of_read(&f.thp, thp, 0, "always madvise [never]", true);
	ck_assert_int_eq(f.thp.mode, HOST_THP_NEVER);
	ck_assert_str_eq(f.thp.line, "always madvise [never]");
}
END_TEST

/* ---- readiness ------------------------------------------------------- */

START_TEST(readiness_of_an_ideal_machine)
{
	struct host_facts f;
	struct readiness r;
	ideal(&f);
	readiness_check(&f, &tsc_tb, false, &r);
	static const char *const names[] = { "sched_fifo", "mlockall", "preempt", "cpufreq",
					     "virtualization", "smt", "isolation", "clocksource",
					     "timebase", "thp", "smi", "cpuidle", "irq_affinity",
					     "rcu_nocbs", "boost", "measure_cpus" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct ready_check *c = find(&r, names[i]);
		ck_assert_msg(c != NULL, "no check %s", names[i]);
		ck_assert_msg(c->level == READY_OK, "%s: %s %s", names[i], ready_level_name(c->level),
			      c->finding);
	}
	/* RT throttling on is always worth a line in a qualification */
	ck_assert_int_eq(find(&r, "rt_throttling")->level, READY_NOTE);
	ck_assert_ptr_nonnull(strstr(find(&r, "rt_throttling")->remedy, "qualification"));
	/* no container, no line about one */
	ck_assert_ptr_null(find(&r, "container"));
	ck_assert_uint_eq(r.n, 17);
	/* findings quote the fingerprint's words */
	ck_assert_str_eq(find(&r, "sched_fifo")->finding,
			 "real-time policies are allowed (euid 1000; CAP_SYS_NICE no, "
			 "CAP_IPC_LOCK no; rtprio soft 99, hard 99)");
	/* without a timebase there is no timebase check */
	readiness_check(&f, NULL, false, &r);
	ck_assert_ptr_null(find(&r, "timebase"));
	ck_assert_uint_eq(r.n, 16);
}
END_TEST

/* One change to the ideal machine each, named by what it does. */
#define CHANGE(name, ...)                                                                   \
	static void name(struct host_facts *f, struct ready_timebase *tb)                    \
	{                                                                                    \
		(void)f;                                                                     \
		(void)tb;                                                                    \
		__VA_ARGS__;                                                                 \
	}
CHANGE(gov_powersave, set_gov(&f->governors, 1, 1, "powersave"))
CHANGE(no_cpufreq, f->governors.n = 0)
CHANGE(throttling_off, f->rt_throttling.runtime_us = -1)
CHANGE(throttling_unknown, f->rt_throttling.known = false;
       snprintf(f->rt_throttling.why, HOST_WHY_LEN, "sched_rt_runtime_us: EACCES"))
CHANGE(rtprio_0, f->rtprio.soft = 0)
CHANGE(rtprio_50, f->rtprio.soft = 50)
CHANGE(rtprio_unknown, f->rtprio.known = false)
CHANGE(rtprio_unlimited, f->rtprio.soft = RLIM_INFINITY; f->rtprio.hard = RLIM_INFINITY)
CHANGE(rtprio_0_sys_nice, f->rtprio.soft = 0; f->privileges.cap_sys_nice = true)
CHANGE(rtprio_0_root, f->rtprio.soft = 0; f->privileges.euid = 0)
CHANGE(root_rt_group_0, f->privileges.euid = 0; f->privileges.rt_group_known = true;
       f->privileges.rt_group_runtime_us = 0;
       snprintf(f->privileges.rt_group_file, 256, "/sys/fs/cgroup/cpu/box/cpu.rt_runtime_us"))
CHANGE(root_rt_group_950ms, f->privileges.euid = 0; f->privileges.rt_group_known = true;
       f->privileges.rt_group_runtime_us = 950000)
/* The worker's own privileges decide, when rtconform said which worker it
 * runs: capabilities on the worker count, those on rtconform do not. */
#define WORKER_PATH "/opt/rt/libexec/rtconform-worker"
static void set_worker(struct host_facts *f, bool caps)
{
	struct host_worker_privileges *w = &f->privileges.worker;
	*w = (struct host_worker_privileges){ .known = true, .cap_sys_nice = caps,
					      .cap_ipc_lock = caps, .file_caps = caps,
					      .source = caps ? HOST_WORKER_FILE_CAPS
							     : HOST_WORKER_NONE };
	snprintf(w->path, sizeof w->path, "%s", WORKER_PATH);
}
CHANGE(rtprio_0_worker_caps, f->rtprio.soft = 0; set_worker(f, true))
CHANGE(rtprio_0_caps_on_rtconform_only, f->rtprio.soft = 0; f->privileges.cap_sys_nice = true;
       set_worker(f, false))
CHANGE(rtprio_0_root_worker_without, f->rtprio.soft = 0; f->privileges.euid = 0;
       set_worker(f, false))
CHANGE(memlock_8m_worker_caps, f->memlock.soft = 8u << 20; set_worker(f, true))
CHANGE(memlock_8m_caps_on_rtconform_only, f->memlock.soft = 8u << 20;
       f->privileges.cap_ipc_lock = true; set_worker(f, false))
CHANGE(memlock_8m, f->memlock.soft = f->memlock.hard = 8u << 20)
CHANGE(memlock_unknown, f->memlock.known = false)
CHANGE(memlock_8m_ipc_lock, f->memlock.soft = 8u << 20; f->privileges.cap_ipc_lock = true)
CHANGE(memlock_8m_root, f->memlock.soft = 8u << 20; f->privileges.euid = 0)
CHANGE(preempt_full, f->preempt = (struct host_preempt){ HOST_PREEMPT_FULL,
							 HOST_PREEMPT_FROM_DYNAMIC_DEFAULT, "" })
CHANGE(vm_kvm, f->virt.detect_vm = true; snprintf(f->virt.detect_answer, 64, "kvm"))
CHANGE(vm_flag, f->virt.hypervisor_flag = true)
CHANGE(vm_dmi, f->virt.dmi_names_hypervisor = true)
CHANGE(docker, f->virt.container_ran = true; snprintf(f->virt.container, 64, "docker"))
CHANGE(container_none, f->virt.container_ran = true; snprintf(f->virt.container, 64, "none"))
CHANGE(container_silent, f->virt.container_ran = true)
CHANGE(smt_active, f->smt.state = HOST_SMT_ACTIVE; snprintf(f->smt.control, 64, "on"))
CHANGE(smt_unknown, f->smt.state = HOST_SMT_UNKNOWN)
CHANGE(no_isolcpus, set_cpus(&f->isolated, HOST_CPUS_EMPTY, ""))
CHANGE(no_isolation, set_cpus(&f->isolated, HOST_CPUS_EMPTY, "");
       set_cpus(&f->nohz_full, HOST_CPUS_UNSUPPORTED, ""))
CHANGE(isolation_unknown, f->isolated.state = HOST_CPUS_UNKNOWN;
       set_cpus(&f->nohz_full, HOST_CPUS_EMPTY, ""))
CHANGE(hpet, snprintf(f->clocksource.text, sizeof f->clocksource.text, "hpet"))
CHANGE(clocksource_unknown, f->clocksource.known = false)
CHANGE(thp_always, f->thp.mode = HOST_THP_ALWAYS;
       snprintf(f->thp.line, sizeof f->thp.line, "[always] madvise never"))
CHANGE(thp_unknown, f->thp.known = false)
CHANGE(smi_3, f->rt.smi.count = 3)
CHANGE(smi_unreadable, f->rt.smi.state = HOST_SMI_UNREADABLE;
       snprintf(f->rt.smi.why, HOST_WHY_LEN, "/dev/cpu/0/msr: Permission denied"))
CHANGE(smi_amd, f->rt.smi.state = HOST_SMI_NO_MSR;
       snprintf(f->rt.smi.why, HOST_WHY_LEN, "AuthenticAMD: AMD CPUs have no SMI count MSR"))
CHANGE(c6_on_cpu2, f->rt.cpuidle.enabled[2] = 7)
CHANGE(c6_on_all, set_cpus(&f->allowed, HOST_CPUS_LIST, "0-3"))
CHANGE(c1_slow_on_cpu1, f->rt.cpuidle.state[1].latency_us = 11)
CHANGE(no_cpuidle, f->rt.cpuidle = (struct host_cpuidle){ .why = "current_driver: ENOENT" })
CHANGE(irq_on_cpu2, snprintf(f->rt.irqs.irq[0].cpus, 128, "2"))
CHANGE(irq_on_all, snprintf(f->rt.irqs.irq[0].cpus, 128, "0-3"))
CHANGE(irqbalance, f->rt.irqs.irqbalance_pid = 812)
CHANGE(irqs_unknown, f->rt.irqs.known = false;
       snprintf(f->rt.irqs.why, HOST_WHY_LEN, "/proc/interrupts: Permission denied"))
CHANGE(no_rcu_nocbs, set_cpus(&f->rt.rcu_nocbs, HOST_CPUS_EMPTY, "");
       set_cpus(&f->nohz_full, HOST_CPUS_EMPTY, ""))
CHANGE(rcu_nocbs_by_nohz_full, set_cpus(&f->rt.rcu_nocbs, HOST_CPUS_EMPTY, ""))
CHANGE(rcu_nocbs_2_3, set_cpus(&f->rt.rcu_nocbs, HOST_CPUS_LIST, "2-3");
       set_cpus(&f->nohz_full, HOST_CPUS_EMPTY, ""))
CHANGE(rcu_nocbs_all, set_cpus(&f->rt.rcu_nocbs, HOST_CPUS_LIST, "all");
       set_cpus(&f->nohz_full, HOST_CPUS_EMPTY, ""))
CHANGE(turbo_on, f->rt.boost.state = HOST_BOOST_ON)
CHANGE(boost_on, f->rt.boost = (struct host_boost){ HOST_BOOST_ON,
						    "/sys/devices/system/cpu/cpufreq/boost" })
CHANGE(no_boost_control, f->rt.boost = (struct host_boost){ HOST_BOOST_NO_CONTROL, "" })
CHANGE(measure_on_cpu0, set_cpus(&f->allowed, HOST_CPUS_LIST, "0-3"))
CHANGE(measure_nohz_only, set_cpus(&f->isolated, HOST_CPUS_EMPTY, "");
       set_cpus(&f->allowed, HOST_CPUS_LIST, "2-3"))
CHANGE(tb_clock_gettime, *tb = (struct ready_timebase){ .name = "clock_gettime(CLOCK_MONOTONIC_RAW)" })
CHANGE(tb_clock_gettime_note, *tb = (struct ready_timebase){ .name = "clock_gettime(x)",
							    .note = "no constant_tsc" })

START_TEST(readiness_finds_each_problem)
{
	/* level -1: the check is absent */
	static const struct {
		void (*change)(struct host_facts *, struct ready_timebase *);
		const char *check;
		int level;
		const char *finding, *remedy;
	} cases[] = {
		{ gov_powersave, "cpufreq", READY_WARN, "governor powersave on cpu1", "performance" },
		{ no_cpufreq, "cpufreq", READY_NOTE, "no cpufreq governor: none (", "qualification" },
		{ throttling_off, "rt_throttling", READY_WARN, "off (disabled (", "=950000" },
		{ throttling_unknown, "rt_throttling", READY_NOTE, "unknown (", "sched_rt_runtime_us" },
		{ rtprio_0, "sched_fifo", READY_FAIL, "no CAP_SYS_NICE for the worker and rtprio soft 0",
		  "CAP_SYS_NICE" },
		/* a limit below the highest priority fails priority="max" */
		{ rtprio_50, "sched_fifo", READY_FAIL, "rtprio soft 50", "CAP_SYS_NICE" },
		{ rtprio_unknown, "sched_fifo", READY_FAIL, "rtprio unknown (", "CAP_SYS_NICE" },
		{ rtprio_unlimited, "sched_fifo", READY_OK, "soft unlimited", "" },
		{ rtprio_0_sys_nice, "sched_fifo", READY_OK, "CAP_SYS_NICE yes", "" },
		{ rtprio_0_root, "sched_fifo", READY_OK, "euid 0;", "" },
		/* root in a cgroup without RT runtime: the cgroup is named, not a
		 * capability root already has */
		{ root_rt_group_0, "sched_fifo", READY_FAIL,
		  "cgroup has no real-time runtime (/sys/fs/cgroup/cpu/box/cpu.rt_runtime_us is 0",
		  "give the cgroup real-time runtime" },
		{ root_rt_group_950ms, "sched_fifo", READY_OK, "euid 0;", "" },
		{ rtprio_0_worker_caps, "sched_fifo", READY_OK,
		  "worker: CAP_SYS_NICE yes, CAP_IPC_LOCK yes (file capabilities on " WORKER_PATH ")",
		  "" },
		{ rtprio_0_caps_on_rtconform_only, "sched_fifo", READY_FAIL,
		  "no CAP_SYS_NICE for the worker", "setcap cap_ipc_lock,cap_sys_nice+ep " WORKER_PATH
		  "; one on rtconform itself is lost" },
		/* root whose bounding set lacks the capability */
		{ rtprio_0_root_worker_without, "sched_fifo", READY_FAIL,
		  "no CAP_SYS_NICE for the worker", "setcap" },
		{ memlock_8m_worker_caps, "mlockall", READY_OK, "8192 KiB", "" },
		{ memlock_8m_caps_on_rtconform_only, "mlockall", READY_FAIL, "mlockall refused",
		  "setcap cap_ipc_lock,cap_sys_nice+ep " WORKER_PATH },
		{ memlock_8m, "mlockall", READY_FAIL, "memlock soft 8192 KiB", "memlock" },
		{ memlock_unknown, "mlockall", READY_FAIL, "mlockall refused", "CAP_IPC_LOCK" },
		{ memlock_8m_ipc_lock, "mlockall", READY_OK, "8192 KiB", "" },
		{ memlock_8m_root, "mlockall", READY_OK, "8192 KiB", "" },
		{ preempt_full, "preempt", READY_WARN, "not PREEMPT_RT (PREEMPT (PREEMPT_DYNAMIC;",
		  "PREEMPT_RT" },
		{ vm_kvm, "virtualization", READY_WARN, "machine: kvm (cpuinfo", "target hardware" },
		{ vm_flag, "virtualization", READY_WARN, "machine: hypervisor (cpuinfo hypervisor "
							 "flag: yes", "target hardware" },
		{ vm_dmi, "virtualization", READY_WARN, "machine: Acme (", "target hardware" },
		{ docker, "container", READY_NOTE, "docker (systemd-detect-virt", "restrict" },
		{ container_none, "container", -1, "", "" },
		{ container_silent, "container", -1, "", "" },
		{ smt_active, "smt", READY_WARN, "SMT is active (active (control on))", "nosmt" },
		{ smt_unknown, "smt", READY_OK, "unknown (", "" },
		{ no_isolcpus, "isolation", READY_OK, "isolated CPUs: none; nohz_full: 1-3", "" },
		{ no_isolation, "isolation", READY_NOTE, "no isolated CPUs", "isolcpus" },
		{ isolation_unknown, "isolation", READY_OK, "isolated CPUs: unknown (", "" },
		{ hpet, "clocksource", READY_WARN, "clocksource hpet, not tsc", "TSC" },
		{ clocksource_unknown, "clocksource", READY_WARN, "clocksource unknown (", "TSC" },
		{ thp_always, "thp", READY_WARN, "[always]", "madvise" },
		{ thp_unknown, "thp", READY_OK, "unknown (", "" },
		{ tb_clock_gettime, "timebase", READY_NOTE,
		  "timed with clock_gettime(CLOCK_MONOTONIC_RAW) (no invariant TSC)", "timebase" },
		{ tb_clock_gettime_note, "timebase", READY_NOTE, "(no constant_tsc)", "timebase" },
		{ smi_3, "smi", READY_NOTE, "SMIs since boot: 3 (MSR 0x34 on cpu0", "rdmsr -p 0 0x34" },
		{ smi_unreadable, "smi", READY_NOTE,
		  "the SMI count is not readable: /dev/cpu/0/msr: Permission denied", "modprobe msr" },
		{ smi_amd, "smi", READY_NOTE, "cannot be counted: AuthenticAMD: AMD CPUs have no SMI "
					      "count MSR", "hwlatdetect" },
		{ c6_on_cpu2, "cpuidle", READY_WARN, "the measuring CPUs 1-3 (this process's "
		  "affinity) may enter idle states above 10 us exit latency: C6 (133 us) on 2",
		  "cpupower idle-set -D 10" },
		{ c6_on_all, "cpuidle", READY_WARN, "C6 (133 us) on 0;", "stateK/disable" },
		{ c1_slow_on_cpu1, "cpuidle", READY_WARN, "C1 (11 us) on 1-3;", "max_cstate=1" },
		{ no_cpuidle, "cpuidle", READY_OK, "(none (current_driver: ENOENT))", "" },
		{ irq_on_cpu2, "irq_affinity", READY_WARN, "1 IRQ may interrupt the measuring CPUs "
		  "1-3 (this process's affinity): 16 i801_smbus on 2",
		  "echo 0 > /proc/irq/N/smp_affinity_list" },
		{ irq_on_all, "irq_affinity", READY_WARN, "16 i801_smbus on 0-3", "irqaffinity=" },
		{ irqbalance, "irq_affinity", READY_WARN,
		  "no IRQ is routed to the measuring CPUs 1-3 (this process's affinity) now; "
		  "irqbalance is running (pid 812)", "IRQBALANCE_BANNED_CPULIST" },
		{ irqs_unknown, "irq_affinity", READY_NOTE, "unknown (/proc/interrupts: Permission",
		  "smp_affinity_list" },
		{ no_rcu_nocbs, "rcu_nocbs", READY_NOTE,
		  "RCU callbacks run on the measuring CPUs 1-3 (this process's affinity; rcu_nocbs: "
		  "none; nohz_full: none)", "rcu_nocbs=" },
		{ rcu_nocbs_by_nohz_full, "rcu_nocbs", READY_OK, "rcu_nocbs: none; nohz_full: 1-3",
		  "" },
		{ rcu_nocbs_2_3, "rcu_nocbs", READY_NOTE, "on the measuring CPUs 1 (", "rcu_nocb_poll" },
		{ rcu_nocbs_all, "rcu_nocbs", READY_OK, "offloaded from the measuring CPUs 1-3", "" },
		{ turbo_on, "boost", READY_WARN, "frequency boost is on (on (/sys/devices/system/cpu/"
		  "intel_pstate/no_turbo))", "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo" },
		{ boost_on, "boost", READY_WARN, "is on (on (",
		  "echo 0 > /sys/devices/system/cpu/cpufreq/boost" },
		{ no_boost_control, "boost", READY_NOTE, "no frequency boost control: unknown (",
		  "firmware" },
		{ measure_on_cpu0, "measure_cpus", READY_NOTE,
		  "measures on CPUs 0 (this process's affinity), not isolated, while others are "
		  "(isolcpus: 1-3; nohz_full: 1-3)", "<sched cpu=" },
		{ measure_nohz_only, "measure_cpus", READY_OK,
		  "isolated CPUs 2-3 (this process's affinity; isolcpus: none; nohz_full: 1-3)", "" },
		{ no_isolation, "measure_cpus", -1, "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct host_facts f;
		struct ready_timebase tb = tsc_tb;
		struct readiness r;
		ideal(&f);
		cases[i].change(&f, &tb);
		readiness_check(&f, &tb, false, &r);
		const struct ready_check *c = find(&r, cases[i].check);
		if (cases[i].level < 0) {
			ck_assert_msg(c == NULL, "case %zu: %s: %s", i, cases[i].check, c->finding);
			continue;
		}
		ck_assert_msg(c != NULL, "case %zu: no check %s", i, cases[i].check);
		ck_assert_msg((int)c->level == cases[i].level, "case %zu (%s): level %s: %s", i,
			      cases[i].check, ready_level_name(c->level), c->finding);
		ck_assert_msg(strstr(c->finding, cases[i].finding), "case %zu: finding '%s'", i,
			      c->finding);
		ck_assert_msg(strstr(c->remedy, cases[i].remedy), "case %zu: remedy '%s'", i,
			      c->remedy);
		if (c->level != READY_OK)
			ck_assert_msg(c->remedy[0], "case %zu: %s without a remedy", i, c->name);
	}
}
END_TEST

/* A run's checks judge the CPUs its requirements measure on, not those
 * rtconform may use: C6 and IRQ 16 on cpu0 matter only to a run there. */
START_TEST(readiness_judges_the_measuring_cpus)
{
	struct host_facts f;
	struct readiness r;
	cpu_set_t on;
	ideal(&f);
	CPU_ZERO(&on);
	CPU_SET(0, &on);
	readiness_check_on(&f, &tsc_tb, false, &on, &r);
	ck_assert_int_eq(find(&r, "cpuidle")->level, READY_WARN);
	ck_assert_ptr_nonnull(strstr(find(&r, "cpuidle")->finding,
				     "CPUs 0 (the run's requirements) may enter"));
	ck_assert_int_eq(find(&r, "irq_affinity")->level, READY_WARN);
	/* the other CPUs are where the IRQs should go */
	ck_assert_ptr_nonnull(strstr(find(&r, "irq_affinity")->remedy, "echo 1-3 > /proc/irq/N"));
	ck_assert_int_eq(find(&r, "rcu_nocbs")->level, READY_NOTE);
	ck_assert_int_eq(find(&r, "measure_cpus")->level, READY_NOTE);
	ck_assert_ptr_nonnull(strstr(find(&r, "measure_cpus")->finding,
				     "measures on CPUs 0 (the run's requirements), not isolated"));
	CPU_ZERO(&on);
	CPU_SET(2, &on);
	readiness_check_on(&f, &tsc_tb, false, &on, &r);
	static const char *const fine[] = { "cpuidle", "irq_affinity", "rcu_nocbs", "measure_cpus" };
	for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
		ck_assert_msg(find(&r, fine[i])->level == READY_OK, "%s: %s", fine[i],
			      find(&r, fine[i])->finding);
	ck_assert_ptr_nonnull(strstr(find(&r, "measure_cpus")->finding, "isolated CPUs 2 ("));
	/* without a set: this process's affinity, as readiness_check */
	struct readiness plain;
	readiness_check_on(&f, &tsc_tb, false, NULL, &r);
	readiness_check(&f, &tsc_tb, false, &plain);
	ck_assert_mem_eq(&r, &plain, sizeof r);
}
END_TEST

/* Where a requirement measures: its probe's cpus list, else its pinned
 * CPU, else (cpus "all" or unpinned) the CPUs rtconform may use. */
START_TEST(measuring_cpus_of_requirements)
{
	cpu_set_t allowed, set;
	cpulist_parse("1-3", &allowed);
	struct requirement listed = { .cpu = 1, .nparams = 1 }, pinned = { .cpu = 0 },
			   all = { .cpu = -1, .nparams = 1 }, unpinned = { .cpu = -1 };
	listed.params[0] = (struct req_param){ (char *)"cpus", (char *)"2-3", 1 };
	all.params[0] = (struct req_param){ (char *)"cpus", (char *)"all", 1 };
	char list[64];
	CPU_ZERO(&set);
	runinfo_measuring_cpus(&listed, &allowed, &set);
	cpulist_format(&set, list, sizeof list);
	ck_assert_str_eq(list, "2-3");
	runinfo_measuring_cpus(&pinned, &allowed, &set);
	cpulist_format(&set, list, sizeof list);
	ck_assert_str_eq(list, "0,2-3");
	CPU_ZERO(&set);
	runinfo_measuring_cpus(&all, &allowed, &set);
	cpulist_format(&set, list, sizeof list);
	ck_assert_str_eq(list, "1-3");
	CPU_ZERO(&set);
	runinfo_measuring_cpus(&unpinned, &allowed, &set);
	cpulist_format(&set, list, sizeof list);
	ck_assert_str_eq(list, "1-3");
	CPU_ZERO(&set);
	cpulist_format(&set, list, sizeof list);
	ck_assert_str_eq(list, "");
	/* cut at a whole entry */
	cpulist_parse("0,2,4,6", &set);
	cpulist_format(&set, list, 6);
	ck_assert_str_eq(list, "0,2,4");
}
END_TEST

/* ---- the real-time checks' facts, from a made-up /proc, /sys and /dev */

static void put_file(const char *root, const char *path, const char *text)
{
	char full[4200];
	snprintf(full, sizeof full, "%s%s", root, path);
	for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	FILE *f = fopen(full, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* An Intel machine with 2 CPUs: SMI count 7 (bits above 31 are not the
 * count), C6 disabled on cpu1, IRQ 16 on 0-1 routed to 1, irqbalance
 * running, cpufreq boost on. */
static void intel_tree(const char *root)
{
	put_file(root, "/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
	unsigned char msr[0x34 + 8] = { 0 };
	unsigned long long v = 7ull | 1ull << 40;
	memcpy(msr + 0x34, &v, sizeof v);
	char path[4200];
	put_file(root, "/dev/cpu/0/msr", "");
	snprintf(path, sizeof path, "%s/dev/cpu/0/msr", root);
	FILE *f = fopen(path, "w");
	fwrite(msr, 1, sizeof msr, f);
	fclose(f);
	const char *cpu = "/sys/devices/system/cpu";
	snprintf(path, sizeof path, "%s/cpuidle/current_driver", cpu);
	put_file(root, path, "intel_idle\n");
	snprintf(path, sizeof path, "%s/cpuidle/current_governor_ro", cpu);
	put_file(root, path, "menu\n");
	static const char *const names[] = { "POLL", "C1", "C6" }, *const lat[] = { "0", "2", "133" };
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 3; k++) {
			char file[4200];
			snprintf(file, sizeof file, "%s/cpu%d/cpuidle/state%d/name", cpu, c, k);
			put_file(root, file, names[k]);
			snprintf(file, sizeof file, "%s/cpu%d/cpuidle/state%d/latency", cpu, c, k);
			put_file(root, file, lat[k]);
			snprintf(file, sizeof file, "%s/cpu%d/cpuidle/state%d/disable", cpu, c, k);
			put_file(root, file, c == 1 && k == 2 ? "1\n" : "0\n");
		}
	put_file(root, "/proc/interrupts",
		 "           CPU0       CPU1\n"
		 "   0:         41          0   IO-APIC   2-edge      timer\n"
		 "  16:          0       1234   IO-APIC  16-fasteoi   i801_smbus\n"
		 " LOC:     100000      99999   Local timer interrupts\n");
	put_file(root, "/proc/irq/0/smp_affinity_list", "0\n");
	put_file(root, "/proc/irq/16/smp_affinity_list", "0-1\n");
	put_file(root, "/proc/irq/16/effective_affinity_list", "1\n");
	put_file(root, "/proc/812/comm", "irqbalance\n");
	put_file(root, "/proc/1/comm", "init\n");
	snprintf(path, sizeof path, "%s/cpufreq/boost", cpu);
	put_file(root, path, "1\n");
}

START_TEST(rt_facts_from_a_made_up_tree)
{
	char root[] = "/tmp/rtc-rt-facts-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	intel_tree(root);
	struct host_facts f;
	memset(&f, 0, sizeof f);
	f.cmdline.known = true;
	snprintf(f.cmdline.text, sizeof f.cmdline.text, "quiet rcu_nocbs=1 nohz_full=1");
	host_rt_collect(&f, root);
	const struct host_rt *rt = &f.rt;
	ck_assert_int_eq(rt->smi.state, HOST_SMI_COUNTED);
	ck_assert_uint_eq(rt->smi.count, 7);
	ck_assert(rt->cpuidle.known);
	ck_assert_str_eq(rt->cpuidle.driver, "intel_idle");
	ck_assert_str_eq(rt->cpuidle.governor, "menu");
	ck_assert_int_eq(rt->cpuidle.ncpu, 2);
	ck_assert_uint_eq(rt->cpuidle.nstates, 3);
	ck_assert_str_eq(rt->cpuidle.state[2].name, "C6");
	ck_assert_int_eq(rt->cpuidle.state[2].latency_us, 133);
	ck_assert_uint_eq(rt->cpuidle.enabled[0], 7);
	ck_assert_uint_eq(rt->cpuidle.enabled[1], 3);
	ck_assert(rt->irqs.known);
	ck_assert_uint_eq(rt->irqs.n, 2); /* LOC is per CPU: no /proc/irq entry */
	ck_assert_uint_eq(rt->irqs.total, 2);
	ck_assert_int_eq(rt->irqs.irq[1].irq, 16);
	ck_assert_str_eq(rt->irqs.irq[1].name, "IO-APIC 16-fasteoi i801_smbus");
	ck_assert_str_eq(rt->irqs.irq[1].cpus, "1");
	ck_assert(rt->irqs.irq[1].effective);
	ck_assert_str_eq(rt->irqs.irq[0].cpus, "0");
	ck_assert(!rt->irqs.irq[0].effective);
	ck_assert_int_eq(rt->irqs.irqbalance_pid, 812);
	ck_assert_int_eq(rt->rcu_nocbs.state, HOST_CPUS_LIST);
	ck_assert_str_eq(rt->rcu_nocbs.list, "1");
	ck_assert_int_eq(rt->boost.state, HOST_BOOST_ON);
	ck_assert_str_eq(rt->boost.file, "/sys/devices/system/cpu/cpufreq/boost");
	char buf[FP_HOST_VALUE_MAX];
	ck_assert_str_eq(render(&f, "host.smi_count", buf, sizeof buf),
			 "7 (MSR 0x34 on cpu0, since boot)");
	ck_assert_str_eq(render(&f, "host.cpuidle", buf, sizeof buf),
			 "intel_idle, governor menu: POLL 0 us, C1 2 us, C6 133 us (disabled on 1)");
	ck_assert_str_eq(render(&f, "host.irq_affinity", buf, sizeof buf),
			 "0 IO-APIC 2-edge timer: 0 (smp_affinity); 16 IO-APIC 16-fasteoi i801_smbus: 1");
	ck_assert_str_eq(render(&f, "host.irqbalance", buf, sizeof buf), "running (pid 812)");
	ck_assert_str_eq(render(&f, "host.cpu.boost", buf, sizeof buf),
			 "on (/sys/devices/system/cpu/cpufreq/boost)");

	/* intel_pstate's no_turbo comes first, and 1 is off */
	put_file(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	/* no msr module, no cpuidle driver, no /proc/interrupts, no irqbalance */
	char path[4200];
	snprintf(path, sizeof path, "%s/dev/cpu/0/msr", root);
	unlink(path);
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpuidle/current_driver", root);
	unlink(path);
	snprintf(path, sizeof path, "%s/proc/interrupts", root);
	unlink(path);
	put_file(root, "/proc/812/comm", "sshd\n");
	snprintf(f.cmdline.text, sizeof f.cmdline.text, "quiet -- rcu_nocbs=1");
	host_rt_collect(&f, root);
	ck_assert_int_eq(rt->smi.state, HOST_SMI_UNREADABLE);
	ck_assert_str_eq(rt->smi.why, "/dev/cpu/0/msr: No such file or directory (modprobe msr)");
	ck_assert(!rt->cpuidle.known);
	ck_assert_ptr_nonnull(strstr(rt->cpuidle.why, "current_driver: No such file"));
	ck_assert(!rt->irqs.known);
	ck_assert_int_eq(rt->irqs.irqbalance_pid, 0);
	ck_assert_int_eq(rt->rcu_nocbs.state, HOST_CPUS_EMPTY); /* after "--": init's */
	ck_assert_int_eq(rt->boost.state, HOST_BOOST_OFF);
	ck_assert_str_eq(rt->boost.file, "/sys/devices/system/cpu/intel_pstate/no_turbo");
	ck_assert_str_eq(render(&f, "host.smi_count", buf, sizeof buf),
			 "not readable: /dev/cpu/0/msr: No such file or directory (modprobe msr)");
	ck_assert_str_eq(render(&f, "host.cpuidle", buf, sizeof buf),
			 "none (/sys/devices/system/cpu/cpuidle/current_driver: No such file or "
			 "directory)");
	ck_assert_str_eq(render(&f, "host.irq_affinity", buf, sizeof buf),
			 "unknown (/proc/interrupts: No such file or directory)");
	ck_assert_str_eq(render(&f, "host.irqbalance", buf, sizeof buf), "not running");
	ck_assert_str_eq(render(&f, "host.rcu_nocbs", buf, sizeof buf), "none");

	/* AMD: no such MSR, said so; no boost control at all */
	put_file(root, "/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n");
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/intel_pstate/no_turbo", root);
	unlink(path);
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpufreq/boost", root);
	unlink(path);
	f.cmdline.known = false;
	host_rt_collect(&f, root);
	ck_assert_int_eq(rt->smi.state, HOST_SMI_NO_MSR);
	ck_assert_str_eq(rt->smi.why, "AuthenticAMD: AMD CPUs have no SMI count MSR");
	ck_assert_int_eq(rt->boost.state, HOST_BOOST_NO_CONTROL);
	ck_assert_int_eq(rt->rcu_nocbs.state, HOST_CPUS_UNKNOWN);
	ck_assert_str_eq(render(&f, "host.cpu.boost", buf, sizeof buf),
			 "unknown (no intel_pstate/no_turbo or cpufreq/boost in "
			 "/sys/devices/system/cpu)");
	ck_assert_str_eq(render(&f, "host.smi_count", buf, sizeof buf),
			 "no SMI count: AuthenticAMD: AMD CPUs have no SMI count MSR");
	tu_rm_tree(root);
}
END_TEST

/* The verdicts come from the typed facts, not from the words the
 * fingerprint shows: facts whose kept text says the opposite of their
 * typed value are judged by the typed value. */
START_TEST(readiness_ignores_the_text)
{
	struct host_facts f;
	struct readiness r;
	char buf[FP_HOST_VALUE_MAX];
	ideal(&f);

	/* THP: the line reads "[always]", the mode is madvise: ok */
	snprintf(f.thp.line, sizeof f.thp.line, "[always] madvise never");
	ck_assert_str_eq(render(&f, "host.thp", buf, sizeof buf), "[always] madvise never");
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_int_eq(find(&r, "thp")->level, READY_OK);
	/* and the other way round: the mode is always, the line does not say so */
	f.thp.mode = HOST_THP_ALWAYS;
	snprintf(f.thp.line, sizeof f.thp.line, "always [madvise] never");
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_int_eq(find(&r, "thp")->level, READY_WARN);

	/* a preemption word that starts like PREEMPT_RT is not a PREEMPT_RT kernel */
	f.preempt = (struct host_preempt){ HOST_PREEMPT_OTHER, HOST_PREEMPT_FROM_CMDLINE,
					   "PREEMPT_RT" };
	render(&f, "host.preempt", buf, sizeof buf);
	ck_assert(strncmp(buf, "PREEMPT_RT (", 12) == 0);
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_int_eq(find(&r, "preempt")->level, READY_WARN);

	/* the timebase: a name of "tsc" without an invariant TSC is noted */
	struct ready_timebase tb = { .name = "tsc", .invariant_tsc = false };
	readiness_check(&f, &tb, false, &r);
	ck_assert_int_eq(find(&r, "timebase")->level, READY_NOTE);

	/* rewording a rendered value afterwards changes nothing either: the
	 * checks never see the fingerprint */
	struct readiness before;
	readiness_check(&f, &tsc_tb, false, &before);
	struct fingerprint fp = { 0 };
	fingerprint_add_host(&fp, &f);
	fingerprint_add(&fp, "host.thp", "always [madvise] never");
	fingerprint_add(&fp, "host.preempt", "PREEMPT_RT (/sys/kernel/realtime)");
	readiness_check(&f, &tsc_tb, false, &r);
	ck_assert_mem_eq(&r, &before, sizeof r);
	fingerprint_free(&fp);
}
END_TEST

START_TEST(readiness_live_privileges)
{
	/* The forked tries agree with what the process may do. */
	struct host_facts f;
	struct readiness r;
	host_facts_collect(&f);
	readiness_check(&f, NULL, true, &r);
	const struct ready_check *c = find(&r, "sched_fifo");
	ck_assert_ptr_nonnull(c);
	if (geteuid() == 0)
		ck_assert_msg(c->level == READY_OK || strstr(c->finding, "Operation not permitted"),
			      "%s", c->finding);
	ck_assert_ptr_nonnull(find(&r, "mlockall"));
	ck_assert_uint_ge(r.n, 10);
}
END_TEST

/* Tried live, mlockall is the worker's own answer when it gave one: a
 * memlock limit the worker fits in is ok although no capability allows
 * more, and the worker's refusal is the finding. */
START_TEST(readiness_mlockall_by_the_worker)
{
	struct host_facts f;
	struct readiness r;
	ideal(&f);
	f.memlock.soft = f.memlock.hard = 8u << 20;
	set_worker(&f, false);
	f.privileges.worker.mlock_tried = true;
	readiness_check(&f, NULL, true, &r);
	const struct ready_check *c = find(&r, "mlockall");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(c->level == READY_OK, "%s", c->finding);
	f.privileges.worker.mlock_errno = ENOMEM;
	readiness_check(&f, NULL, true, &r);
	c = find(&r, "mlockall");
	ck_assert_msg(c->level == READY_FAIL && strstr(c->finding, strerror(ENOMEM)), "%s",
		      c->finding);
	ck_assert_msg(strstr(c->remedy, "setcap cap_ipc_lock,cap_sys_nice+ep " WORKER_PATH), "%s",
		      c->remedy);
}
END_TEST

/* host.privileges.worker says what the worker will have and from where. */
START_TEST(fingerprint_of_worker_privileges)
{
	static const struct {
		bool known, caps, file_caps, nnp;
		enum host_worker_source source;
		const char *ignored, *why, *want;
	} cases[] = {
		{ true, true, true, false, HOST_WORKER_FILE_CAPS, "", "",
		  "CAP_SYS_NICE yes, CAP_IPC_LOCK yes (file capabilities on " WORKER_PATH ")" },
		{ true, true, false, false, HOST_WORKER_ROOT, "", "",
		  "CAP_SYS_NICE yes, CAP_IPC_LOCK yes (uid 0)" },
		{ true, true, false, false, HOST_WORKER_AMBIENT, "", "",
		  "CAP_SYS_NICE yes, CAP_IPC_LOCK yes (ambient capabilities of the caller)" },
		{ true, false, false, false, HOST_WORKER_NONE, "", "",
		  "CAP_SYS_NICE no, CAP_IPC_LOCK no (no file capabilities on " WORKER_PATH ")" },
		{ true, false, true, false, HOST_WORKER_NONE, "its file system is mounted nosuid", "",
		  "CAP_SYS_NICE no, CAP_IPC_LOCK no (file capabilities on " WORKER_PATH
		  " ignored: its file system is mounted nosuid)" },
		{ true, false, true, true, HOST_WORKER_NONE, "", "",
		  "(file capabilities on " WORKER_PATH " not gained: no_new_privs is set)" },
		{ true, false, true, false, HOST_WORKER_NONE, "", "",
		  "(file capabilities on " WORKER_PATH " lack them)" },
		{ false, false, false, false, HOST_WORKER_NONE, "", "x: could not run",
		  "unknown (x: could not run)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct host_facts f;
		ideal(&f);
		struct host_worker_privileges *w = &f.privileges.worker;
		*w = (struct host_worker_privileges){ .known = cases[i].known,
			.cap_sys_nice = cases[i].caps, .cap_ipc_lock = cases[i].caps,
			.file_caps = cases[i].file_caps, .no_new_privs = cases[i].nnp,
			.source = cases[i].source };
		snprintf(w->path, sizeof w->path, "%s", WORKER_PATH);
		snprintf(w->file_caps_ignored, sizeof w->file_caps_ignored, "%s", cases[i].ignored);
		snprintf(w->why, sizeof w->why, "%s", cases[i].why);
		char buf[FP_HOST_VALUE_MAX];
		ck_assert_msg(fingerprint_host_value(&f, "host.privileges.worker", buf, sizeof buf),
			      "case %zu: no value", i);
		ck_assert_msg(strstr(buf, cases[i].want), "case %zu: '%s'", i, buf);
	}
	/* Not told which worker: no entry at all. */
	struct host_facts f;
	char buf[FP_HOST_VALUE_MAX];
	ideal(&f);
	ck_assert(!fingerprint_host_value(&f, "host.privileges.worker", buf, sizeof buf));
}
END_TEST

/* security.capability as the kernel stores it, each version, and what is
 * not one. */
START_TEST(file_capabilities_parse)
{
	/* version 2, effective, permitted cap_ipc_lock (14) + cap_sys_nice (23) */
	static const unsigned char v2[20] = { 0x01, 0, 0, 0x02, 0x00, 0x40, 0x80, 0x00 };
	/* version 3 for the root of a namespace at uid 100000, not effective,
	 * inheritable bit 33 (second word) */
	static const unsigned char v3[24] = { 0, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0, 0,
					      0, 0, 0, 0, 0x02, 0, 0, 0, 0xa0, 0x86, 0x01, 0 };
	static const unsigned char v1[12] = { 0x01, 0, 0, 0x01, 0x00, 0x00, 0x80, 0x00 };
	struct rtperm_fcaps fc;
	ck_assert_int_eq(rtperm_fcaps_parse(v2, sizeof v2, &fc), 0);
	ck_assert(fc.present && fc.effective);
	ck_assert_uint_eq(fc.permitted, 1ull << 14 | 1ull << 23);
	ck_assert_uint_eq(fc.inheritable, 0);
	ck_assert_int_eq(rtperm_fcaps_parse(v3, sizeof v3, &fc), 0);
	ck_assert(fc.present && !fc.effective);
	ck_assert_uint_eq(fc.inheritable, 1ull << 33);
	ck_assert_uint_eq(fc.rootid, 100000);
	ck_assert_int_eq(rtperm_fcaps_parse(v1, sizeof v1, &fc), 0);
	ck_assert_uint_eq(fc.permitted, 1ull << 23);
	/* wrong size for the version, unknown version, too short */
	ck_assert_int_eq(rtperm_fcaps_parse(v2, 12, &fc), -1);
	ck_assert(!fc.present);
	ck_assert_int_eq(rtperm_fcaps_parse(v1, sizeof v1 - 1, &fc), -1);
	static const unsigned char v9[20] = { 0, 0, 0, 0x09 };
	ck_assert_int_eq(rtperm_fcaps_parse(v9, sizeof v9, &fc), -1);
	ck_assert_int_eq(rtperm_fcaps_parse(v2, 3, &fc), -1);
	char line[200];
	rtperm_setcap_line("/opt/my dir/rtconform-worker", line, sizeof line);
	ck_assert_str_eq(line, "setcap cap_ipc_lock,cap_sys_nice+ep '/opt/my dir/rtconform-worker'");
}
END_TEST

/* The build's worker, asked what it gets: as this test runs (root, or not),
 * and a worker that is not there is unknown with the reason. */
START_TEST(worker_privileges_of_the_build)
{
	struct host_worker_privileges w;
	host_worker_privileges_collect(&w, RTC_BINARY_DIR "/rtconform-worker");
	ck_assert_msg(w.known, "%s", w.why);
	bool root = geteuid() == 0;
	ck_assert_int_eq(w.cap_sys_nice, root);
	if (root)
		ck_assert_int_eq(w.source, HOST_WORKER_ROOT);
	host_worker_privileges_collect(&w, RTC_BINARY_DIR "/no-such-worker");
	ck_assert(!w.known);
	ck_assert_msg(strstr(w.why, "no-such-worker"), "%s", w.why);
}
END_TEST

static Suite *fingerprint_suite(void)
{
	Suite *s = suite_create("fingerprint");
	TCase *tc = tu_tcase(s, "core", 60);
	tcase_add_test(tc, every_field_present);
	tcase_add_test(tc, values_match_the_machine);
	tcase_add_test(tc, facts_match_the_machine);
	tcase_add_test(tc, fingerprint_of_made_up_facts);
	tcase_add_test(tc, fingerprint_keys_found_in_constant_time);
	tcase_add_test(tc, fingerprint_names_each_preemption_source);
	tcase_add_test(tc, fingerprint_says_what_is_unknown);
	tcase_add_test(tc, fingerprint_names_the_virtual_machine);
	tcase_add_test(tc, governors_of_many_cpus);
	tcase_add_test(tc, cmdline_params_and_words);
	tcase_add_test(tc, kernel_text_read_into_facts);
	tcase_add_test(tc, readiness_of_an_ideal_machine);
	tcase_add_test(tc, readiness_finds_each_problem);
	tcase_add_test(tc, readiness_ignores_the_text);
	tcase_add_test(tc, readiness_judges_the_measuring_cpus);
	tcase_add_test(tc, measuring_cpus_of_requirements);
	tcase_add_test(tc, rt_facts_from_a_made_up_tree);
	tcase_add_test(tc, readiness_live_privileges);
	tcase_add_test(tc, readiness_mlockall_by_the_worker);
	tcase_add_test(tc, fingerprint_of_worker_privileges);
	tcase_add_test(tc, file_capabilities_parse);
	tcase_add_test(tc, worker_privileges_of_the_build);
	return s;
}

int main(void)
{
	return tu_run(fingerprint_suite());
}
