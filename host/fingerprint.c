/* fingerprint.c - the machine a run measured on, as key/value pairs.
 *
 * Every value is a string a person can read in a report. Nothing here may
 * fail a run: a value that cannot be read says so ("unknown (reason)"),
 * because an auditor must see that it was looked for.
 */
#include "host/fingerprint.h"
#include "base/numfmt.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>




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

/* The value of key=... in /proc/cmdline ("" for a bare key), or NULL. */
static bool cmdline_param(const char *key, char *out, size_t len)
{
	char line[4096];
	if (read_line("/proc/cmdline", line, sizeof line))
		return false;
	size_t klen = strlen(key);
	char *save = NULL;
	for (char *tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (strcmp(tok, "--") == 0)
			break; /* the rest belongs to init */
		if (strncmp(tok, key, klen) == 0 && (tok[klen] == '=' || tok[klen] == '\0')) {
			snprintf(out, len, "%s", tok[klen] ? tok + klen + 1 : "");
			return true;
		}
	}
	return false;
}

/* CONFIG_<name>=y in the kernel's config under /boot? 1 yes, 0 no, -1 no
 * config to read. */
static int kconfig_has(const char *release, const char *name)
{
	char path[300], line[256], want[96];
	snprintf(path, sizeof path, "/boot/config-%s", release);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	snprintf(want, sizeof want, "CONFIG_%s=y", name);
	int found = 0;
	while (!found && fgets(line, sizeof line, f))
		found = strncmp(line, want, strlen(want)) == 0 &&
			(line[strlen(want)] == '\n' || line[strlen(want)] == '\0');
	fclose(f);
	return found;
}

/* Preemption model: "PREEMPT_RT", "PREEMPT" (full), "voluntary" or "none",
 * then how it was found. /sys/kernel/realtime exists only on PREEMPT_RT
 * kernels; a PREEMPT_DYNAMIC kernel picks its model at boot (preempt=), and
 * debugfs shows the one in force. The uname version string is what the
 * kernel build wrote ("#1 SMP PREEMPT_DYNAMIC ..."). */
static void add_preempt(struct fingerprint *fp, const char *release, const char *uname_version)
{
	char buf[128];
	if (read_line("/sys/kernel/realtime", buf, sizeof buf) == 0 && buf[0] == '1') {
		fingerprint_add(fp, "host.preempt", "PREEMPT_RT (/sys/kernel/realtime)");
		return;
	}
	if (!uname_version) {
		fingerprint_add(fp, "host.preempt", "unknown (uname failed)");
		return;
	}
	if (strstr(uname_version, "PREEMPT_RT")) {
		fingerprint_add(fp, "host.preempt", "PREEMPT_RT (kernel version string)");
		return;
	}
	if (strstr(uname_version, "PREEMPT_DYNAMIC")) {
		/* debugfs: "none voluntary (full) lazy", the mode in brackets */
		if (read_line("/sys/kernel/debug/sched/preempt", buf, sizeof buf) == 0) {
			char *o = strchr(buf, '('), *c = o ? strchr(o, ')') : NULL;
			if (o && c) {
				*c = '\0';
				fingerprint_add(fp, "host.preempt",
						"%s (PREEMPT_DYNAMIC, /sys/kernel/debug/sched/preempt)",
						strcmp(o + 1, "full") == 0 ? "PREEMPT" : o + 1);
				return;
			}
		}
		if (cmdline_param("preempt", buf, sizeof buf) && buf[0]) {
			fingerprint_add(fp, "host.preempt", "%s (PREEMPT_DYNAMIC, preempt=%s on the "
					"kernel command line)",
					strcmp(buf, "full") == 0 ? "PREEMPT" : buf, buf);
			return;
		}
		/* Without either, the build's default mode is in force. */
		const char *mode = NULL;
		if (release && kconfig_has(release, "PREEMPT") == 1)
			mode = "PREEMPT";
		else if (release && kconfig_has(release, "PREEMPT_VOLUNTARY") == 1)
			mode = "voluntary";
		else if (release && kconfig_has(release, "PREEMPT_NONE") == 1)
			mode = "none";
		if (mode)
			fingerprint_add(fp, "host.preempt",
					"%s (PREEMPT_DYNAMIC, the build's default in /boot/config-%s)",
					mode, release);
		else
			fingerprint_add(fp, "host.preempt",
					"PREEMPT (PREEMPT_DYNAMIC; the mode in force is not visible: "
					"no debugfs, no preempt= parameter, no /boot/config; "
					"PREEMPT_DYNAMIC kernels default to full)");
		return;
	}
	if (strstr(uname_version, "PREEMPT")) {
		fingerprint_add(fp, "host.preempt", "PREEMPT (kernel version string)");
		return;
	}
	if (release && kconfig_has(release, "PREEMPT_VOLUNTARY") == 1)
		fingerprint_add(fp, "host.preempt", "voluntary (/boot/config-%s)", release);
	else if (release && kconfig_has(release, "PREEMPT_NONE") == 1)
		fingerprint_add(fp, "host.preempt", "none (/boot/config-%s)", release);
	else
		fingerprint_add(fp, "host.preempt",
				"none or voluntary (no PREEMPT in the kernel version string)");
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

/* The whole kernel command line, as the issue asks: an auditor must see
 * every parameter the kernel ran with (isolcpus, nohz_full, rcu_nocbs, idle=,
 * mitigations, ...), and a list of "relevant" ones would hide the one we did
 * not think of. It can carry site details (a datasource URL, a root device):
 * docs/reports.md says so, for whoever publishes the reports. */
static void add_cmdline(struct fingerprint *fp)
{
	char line[4096];
	int ret = read_line("/proc/cmdline", line, sizeof line);
	if (ret)
		fingerprint_add(fp, "host.kernel.cmdline", "unknown (/proc/cmdline: %s)",
				strerror(-ret));
	else
		fingerprint_add(fp, "host.kernel.cmdline", "%s", line);
}

/* A sysfs CPU list ("0-3,6"); an empty file is a real answer. */
static void add_cpulist(struct fingerprint *fp, const char *key, const char *path,
			const char *missing)
{
	char buf[512];
	int ret = read_line(path, buf, sizeof buf);
	if (ret == 0 && buf[0] && strcmp(buf, "(null)") != 0)
		fingerprint_add(fp, key, "%s", buf);
	else if (ret == 0 || ret == -ENODATA)
		fingerprint_add(fp, key, "none");
	else if (ret == -ENOENT && missing)
		fingerprint_add(fp, key, "%s", missing);
	else
		fingerprint_add(fp, key, "unknown (%s: %s)", path, strerror(-ret));
}

/* The CPUs this process may run on (its affinity), as a list. */
static void add_allowed(struct fingerprint *fp)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		fingerprint_add(fp, "host.cpu.allowed", "unknown (sched_getaffinity: %s)",
				strerror(errno));
		return;
	}
	char out[512] = "";
	size_t o = 0;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
			e++;
		int n = e > c ? snprintf(out + o, sizeof out - o, "%s%d-%d", o ? "," : "", c, e)
			      : snprintf(out + o, sizeof out - o, "%s%d", o ? "," : "", c);
		if (n < 0 || (size_t)n >= sizeof out - o)
			break;
		o += (size_t)n;
		c = e;
	}
	fingerprint_add(fp, "host.cpu.allowed", "%s", o ? out : "none");
}

/* SMT: the kernel's control ("on", "off", "forceoff", "notsupported",
 * "notimplemented") and whether siblings are active. */
static void add_smt(struct fingerprint *fp)
{
	char control[64], active[16];
	int rc = read_line("/sys/devices/system/cpu/smt/control", control, sizeof control);
	int ra = read_line("/sys/devices/system/cpu/smt/active", active, sizeof active);
	if (rc && ra) {
		fingerprint_add(fp, "host.cpu.smt", "unknown (/sys/devices/system/cpu/smt: %s)",
				strerror(-rc));
		return;
	}
	bool on = ra == 0 && active[0] == '1';
	fingerprint_add(fp, "host.cpu.smt", "%s (control %s)", on ? "active" : "inactive",
			rc ? "unknown" : control);
}

/* The cpufreq governor of every online CPU: "cpu0:performance cpu1:..." */
static void add_governors(struct fingerprint *fp)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char out[2048] = "";
	size_t o = 0;
	int seen = 0;
	for (long c = 0; c < n && c < 4096; c++) {
		char path[128], gov[64];
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor",
			 c);
		if (read_line(path, gov, sizeof gov))
			continue;
		int k = snprintf(out + o, sizeof out - o, "%scpu%ld:%s", o ? " " : "", c, gov);
		if (k < 0 || (size_t)k >= sizeof out - o)
			break;
		o += (size_t)k;
		seen++;
	}
	if (seen)
		fingerprint_add(fp, "host.cpu.governor", "%s", out);
	else
		fingerprint_add(fp, "host.cpu.governor",
				"none (no cpufreq: /sys/devices/system/cpu/cpu*/cpufreq missing; "
				"fixed frequency or frequency set by a hypervisor)");
}

/* Run argv (an absolute path) with stdout to a pipe, and give back its
 * first line. Bounded: at most 2 s, then killed. Returns the exit status,
 * or -1 when it could not run. */
static int run_first_line(char *const argv[], char *out, size_t len)
{
	int pfd[2];
	out[0] = '\0';
	if (access(argv[0], X_OK) != 0 || pipe2(pfd, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	char *const envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL };
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc != 0) {
		close(pfd[0]);
		return -1;
	}
	size_t o = 0;
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		if (poll(&p, 1, 2000) <= 0) {
			kill(pid, SIGKILL);
			break;
		}
		ssize_t r = read(pfd[0], out + o, len - 1 - o);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		o += (size_t)r;
		if (o >= len - 1)
			break;
	}
	out[o] = '\0';
	out[strcspn(out, "\n")] = '\0';
	close(pfd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool cpuinfo_has_flag(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	size_t n = strlen(flag);
	while (!found && fgets(line, sizeof line, f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		for (char *p = strstr(line, flag); p; p = strstr(p + 1, flag))
			if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
				found = true;
		break; /* the first CPU's flags stand for all */
	}
	fclose(f);
	return found;
}

/* Virtual machine or bare metal, with the evidence: the CPU's hypervisor
 * flag, the DMI vendor, and systemd-detect-virt --vm where installed. Any
 * one saying "virtual" is enough: latencies then include the hypervisor's. */
static void add_virt(struct fingerprint *fp)
{
	bool flag = cpuinfo_has_flag("hypervisor");
	char vendor[128] = "", product[128] = "", sdv[64] = "", cont[64] = "";
	bool have_vendor = read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof vendor) == 0;
	read_line("/sys/class/dmi/id/product_name", product, sizeof product);
	static const char *const vm_vendors[] = { "QEMU", "KVM", "VMware", "innotek", "Xen",
						  "Microsoft Corporation", "Amazon EC2", "Google",
						  "Parallels", "Bochs", "OpenStack", "DigitalOcean" };
	bool vendor_vm = false;
	for (size_t i = 0; have_vendor && i < sizeof vm_vendors / sizeof vm_vendors[0]; i++)
		vendor_vm |= strstr(vendor, vm_vendors[i]) != NULL ||
			     strstr(product, vm_vendors[i]) != NULL;
	const char *sdv_path = access("/usr/bin/systemd-detect-virt", X_OK) == 0
				       ? "/usr/bin/systemd-detect-virt"
				       : "/bin/systemd-detect-virt";
	char *const vm_argv[] = { (char *)sdv_path, "--vm", NULL };
	char *const ct_argv[] = { (char *)sdv_path, "--container", NULL };
	int sdv_rc = run_first_line(vm_argv, sdv, sizeof sdv);
	bool sdv_vm = sdv_rc == 0 && sdv[0] && strcmp(sdv, "none") != 0;
	int ct_rc = run_first_line(ct_argv, cont, sizeof cont);

	char evidence[512];
	snprintf(evidence, sizeof evidence,
		 "cpuinfo hypervisor flag: %s; dmi sys_vendor: %s%s%s; systemd-detect-virt --vm: %s",
		 flag ? "yes" : "no", have_vendor ? vendor : "unavailable",
		 product[0] ? ", product " : "", product,
		 sdv_rc < 0 ? "not installed" : sdv[0] ? sdv : "none");
	if (flag || vendor_vm || sdv_vm)
		fingerprint_add(fp, "host.virtual_machine", "yes: %s (%s)",
				sdv_vm ? sdv : vendor_vm ? vendor : "hypervisor", evidence);
	else
		fingerprint_add(fp, "host.virtual_machine", "no (%s)", evidence);
	if (ct_rc >= 0)
		fingerprint_add(fp, "host.container", "%s (systemd-detect-virt --container)",
				cont[0] ? cont : "none");
}

static void fmt_limit(rlim_t v, char *buf, size_t len, bool bytes)
{
	if (v == RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else if (bytes && v >= 1024 && v % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)v / 1024);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

static void add_rlimit(struct fingerprint *fp, const char *key, int res, bool bytes)
{
	struct rlimit rl;
	char s[48], h[48];
	if (getrlimit(res, &rl) != 0) {
		fingerprint_add(fp, key, "unknown (getrlimit: %s)", strerror(errno));
		return;
	}
	fmt_limit(rl.rlim_cur, s, sizeof s, bytes);
	fmt_limit(rl.rlim_max, h, sizeof h, bytes);
	fingerprint_add(fp, key, "soft %s, hard %s", s, h);
}

/* Effective capabilities that decide whether real-time requirements can
 * run: CAP_SYS_NICE (real-time policies) and CAP_IPC_LOCK (mlockall). */
static void add_privileges(struct fingerprint *fp)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long eff = 0;
	bool found = false;
	char line[256];
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			found = true;
			break;
		}
	if (f)
		fclose(f);
	if (!found) {
		fingerprint_add(fp, "host.privileges", "euid %u; capabilities unknown",
				(unsigned)geteuid());
		return;
	}
	fingerprint_add(fp, "host.privileges", "euid %u; CAP_SYS_NICE %s, CAP_IPC_LOCK %s",
			(unsigned)geteuid(), eff & (1ull << 23) ? "yes" : "no",
			eff & (1ull << 14) ? "yes" : "no");
}

void fingerprint_collect(struct fingerprint *fp)
{
	/* Values are text in reports that must read the same everywhere: a
	 * decimal comma from the user's locale would change "2.4 GHz". */
	locale_t old = num_c_enter();

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
	add_preempt(fp, have_uname ? u.release : NULL, have_uname ? u.version : NULL);
	add_cmdline(fp);
	add_cpu_model(fp);
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	if (conf > 0)
		fingerprint_add(fp, "host.cpu.count", "%ld", conf);
	else
		fingerprint_add(fp, "host.cpu.count", "unknown (sysconf: %s)", strerror(errno));
	add_cpulist(fp, "host.cpu.online", "/sys/devices/system/cpu/online", NULL);
	add_allowed(fp);
	add_smt(fp);
	/* isolcpus and nohz_full decide much of the jitter a run sees; an
	 * empty list is a real answer, not an error. */
	add_cpulist(fp, "host.cpu.isolated", "/sys/devices/system/cpu/isolated", NULL);
	add_cpulist(fp, "host.cpu.nohz_full", "/sys/devices/system/cpu/nohz_full",
		    "none (kernel built without NO_HZ_FULL)");
	add_governors(fp);
	add_file_value(fp, "host.clocksource",
		       "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	add_rt_throttling(fp);
	add_virt(fp);
	add_rlimit(fp, "host.limits.memlock", RLIMIT_MEMLOCK, true);
	add_rlimit(fp, "host.limits.rtprio", RLIMIT_RTPRIO, false);
	add_privileges(fp);
	add_file_value(fp, "host.thp", "/sys/kernel/mm/transparent_hugepage/enabled");

	num_c_leave(old);
}
