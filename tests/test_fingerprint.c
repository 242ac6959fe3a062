/* test_fingerprint.c - the environment every report carries, and the
 * readiness checks `rtconform env` draws from it.
 *
 * Every field the audit issue lists is present and non-empty, with values
 * checked against what this machine says by other means (sysconf,
 * /proc/cmdline, getrlimit). The readiness checks are judged on made-up
 * fingerprints, so each verdict and remedy is known.
 */
#include <check.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness/timebase.h"
#include "reports/fingerprint.h"
#include "reports/readiness.h"
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
	fingerprint_collect(fp, &test_tb);
	fingerprint_add_run(fp, "rtconform run a.xml dir/b.xml", 1700000000, 1700000061, files, 2);
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
	ck_assert_str_eq(fingerprint_get(&fp, "rtconform.version"), RTC_VERSION);
	fingerprint_free(&fp);
}
END_TEST

/* ---- readiness ------------------------------------------------------- */

static const struct ready_check *find(const struct readiness *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->c[i].name, name))
			return &r->c[i];
	return NULL;
}

/* A fingerprint of an ideal machine, then one thing changed at a time. */
static void ideal(struct fingerprint *fp)
{
	fingerprint_add(fp, "host.preempt", "PREEMPT_RT (/sys/kernel/realtime)");
	fingerprint_add(fp, "host.cpu.smt", "inactive (control off)");
	fingerprint_add(fp, "host.cpu.isolated", "1-3");
	fingerprint_add(fp, "host.cpu.nohz_full", "1-3");
	fingerprint_add(fp, "host.cpu.governor", "cpu0:performance cpu1:performance");
	fingerprint_add(fp, "host.clocksource", "tsc");
	fingerprint_add(fp, "host.rt_throttling", "950000 us per 1000000 us");
	fingerprint_add(fp, "host.virtual_machine", "no (cpuinfo hypervisor flag: no)");
	fingerprint_add(fp, "host.limits.memlock", "soft unlimited, hard unlimited");
	fingerprint_add(fp, "host.limits.rtprio", "soft 99, hard 99");
	fingerprint_add(fp, "host.privileges", "euid 1000; CAP_SYS_NICE no, CAP_IPC_LOCK no");
	fingerprint_add(fp, "host.thp", "always [madvise] never");
	fingerprint_add(fp, "timebase.name", "tsc");
}

START_TEST(readiness_of_an_ideal_machine)
{
	struct fingerprint fp = { 0 };
	struct readiness r;
	ideal(&fp);
	readiness_check(&fp, false, &r);
	static const char *const names[] = { "sched_fifo", "mlockall", "preempt", "cpufreq",
					     "virtualization", "smt", "isolation", "clocksource",
					     "timebase", "thp" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct ready_check *c = find(&r, names[i]);
		ck_assert_msg(c != NULL, "no check %s", names[i]);
		ck_assert_msg(c->level == READY_OK, "%s: %s %s", names[i], ready_level_name(c->level),
			      c->finding);
	}
	/* RT throttling on is always worth a line in a qualification */
	ck_assert_int_eq(find(&r, "rt_throttling")->level, READY_NOTE);
	ck_assert_ptr_nonnull(strstr(find(&r, "rt_throttling")->remedy, "qualification"));
	fingerprint_free(&fp);
}
END_TEST

START_TEST(readiness_finds_each_problem)
{
	static const struct {
		const char *key, *value, *check;
		enum ready_level level;
		const char *finding, *remedy;
	} cases[] = {
		{ "host.cpu.governor", "cpu0:performance cpu1:powersave", "cpufreq", READY_WARN,
		  "powersave on cpu1", "performance" },
		{ "host.rt_throttling", "disabled (sched_rt_runtime_us=-1, sched_rt_period_us=1000000)",
		  "rt_throttling", READY_WARN, "off", "sched_rt_runtime_us" },
		{ "host.privileges", "euid 1000; CAP_SYS_NICE no, CAP_IPC_LOCK no", "sched_fifo",
		  READY_OK, "allowed", "" }, /* rtprio 99 suffices */
		{ "host.limits.rtprio", "soft 0, hard 0", "sched_fifo", READY_FAIL,
		  "no CAP_SYS_NICE", "CAP_SYS_NICE" },
		/* a limit below the highest priority fails priority="max" */
		{ "host.limits.rtprio", "soft 50, hard 50", "sched_fifo", READY_FAIL,
		  "no CAP_SYS_NICE", "CAP_SYS_NICE" },
		{ "host.limits.rtprio", "unknown (no getrlimit)", "sched_fifo", READY_FAIL,
		  "no CAP_SYS_NICE", "CAP_SYS_NICE" },
		{ "host.limits.memlock", "soft 8192 KiB, hard 8192 KiB", "mlockall", READY_FAIL,
		  "mlockall refused", "memlock" },
		{ "host.preempt", "PREEMPT (PREEMPT_DYNAMIC)", "preempt", READY_WARN, "not PREEMPT_RT",
		  "PREEMPT_RT" },
		{ "host.virtual_machine", "yes: kvm (systemd-detect-virt --vm: kvm)", "virtualization",
		  READY_WARN, "kvm", "target hardware" },
		{ "host.cpu.smt", "active (control on)", "smt", READY_WARN, "SMT", "nosmt" },
		{ "host.cpu.isolated", "none", "isolation", READY_OK, "", "" }, /* nohz_full left */
		{ "host.cpu.nohz_full", "none", "isolation", READY_NOTE, "no isolated CPUs",
		  "isolcpus" },
		{ "host.clocksource", "hpet", "clocksource", READY_WARN, "hpet", "TSC" },
		{ "host.thp", "[always] madvise never", "thp", READY_WARN, "[always]", "madvise" },
		{ "timebase.name", "clock_gettime(CLOCK_MONOTONIC_RAW)", "timebase", READY_NOTE,
		  "clock_gettime", "" },
		{ "host.cpu.governor", "none (no cpufreq)", "cpufreq", READY_NOTE, "no cpufreq", "" },
		{ "host.container", "docker (systemd-detect-virt --container)", "container",
		  READY_NOTE, "docker", "" },
	};
	/* Each case changes the ideal machine cumulatively, so a later case
	 * sees the earlier changes: the order above is chosen for that. */
	struct fingerprint fp = { 0 };
	ideal(&fp);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct readiness r;
		fingerprint_add(&fp, cases[i].key, "%s", cases[i].value);
		readiness_check(&fp, false, &r);
		const struct ready_check *c = find(&r, cases[i].check);
		ck_assert_msg(c != NULL, "case %zu: no check %s", i, cases[i].check);
		ck_assert_msg(c->level == cases[i].level, "case %zu (%s): level %s, want %s: %s", i,
			      cases[i].check, ready_level_name(c->level),
			      ready_level_name(cases[i].level), c->finding);
		ck_assert_msg(strstr(c->finding, cases[i].finding), "case %zu: finding '%s'", i,
			      c->finding);
		ck_assert_msg(strstr(c->remedy, cases[i].remedy), "case %zu: remedy '%s'", i,
			      c->remedy);
		if (c->level != READY_OK)
			ck_assert_msg(c->remedy[0], "case %zu: %s without a remedy", i, c->name);
	}
	fingerprint_free(&fp);
}
END_TEST

START_TEST(readiness_live_privileges)
{
	/* The forked tries agree with what the process may do. */
	struct fingerprint fp = { 0 };
	struct readiness r;
	fingerprint_collect(&fp, NULL);
	readiness_check(&fp, true, &r);
	const struct ready_check *c = find(&r, "sched_fifo");
	ck_assert_ptr_nonnull(c);
	if (geteuid() == 0)
		ck_assert_msg(c->level == READY_OK || strstr(c->finding, "Operation not permitted"),
			      "%s", c->finding);
	ck_assert_ptr_nonnull(find(&r, "mlockall"));
	ck_assert_uint_ge(r.n, 10);
	fingerprint_free(&fp);
}
END_TEST

static Suite *fingerprint_suite(void)
{
	Suite *s = suite_create("fingerprint");
	TCase *tc = tu_tcase(s, "core", 60);
	tcase_add_test(tc, every_field_present);
	tcase_add_test(tc, values_match_the_machine);
	tcase_add_test(tc, readiness_of_an_ideal_machine);
	tcase_add_test(tc, readiness_finds_each_problem);
	tcase_add_test(tc, readiness_live_privileges);
	return s;
}

int main(void)
{
	return tu_run(fingerprint_suite());
}
