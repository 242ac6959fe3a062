/* SPDX-License-Identifier: Apache-2.0 */
/* facts.c - see facts.h. Reading the machine: every path and tool the
 * fingerprint and readiness rely on is named here and nowhere else.
 *
 * Nothing here may fail a run: a value that cannot be read is marked
 * unknown with the reason, because an auditor must see that it was looked
 * for.
 */
#include "host/facts.h"
#include "base/cpulist.h"
#include "base/rtperm.h"
#include "base/numfmt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static void set_why(char why[HOST_WHY_LEN], const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_why(char why[HOST_WHY_LEN], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, HOST_WHY_LEN, fmt, ap);
	va_end(ap);
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

/* line = first line of path, or unknown with "path: why". */
static void read_fact_line(struct host_line *line, const char *path)
{
	int ret = read_line(path, line->text, sizeof line->text);
	line->known = ret == 0;
	if (ret) {
		line->text[0] = '\0';
		set_why(line->why, "%s: %s", path, strerror(-ret));
	}
}

static void collect_uname(struct host_uname *u)
{
	struct utsname n;
	if (uname(&n) != 0) {
		u->known = false;
		set_why(u->why, "uname: %s", strerror(errno));
		return;
	}
	u->known = true;
	snprintf(u->nodename, sizeof u->nodename, "%s", n.nodename);
	snprintf(u->release, sizeof u->release, "%s", n.release);
	snprintf(u->version, sizeof u->version, "%s", n.version);
	snprintf(u->machine, sizeof u->machine, "%s", n.machine);
}

/* The CPU model as /proc/cpuinfo names it; the field differs by
 * architecture (x86 "model name", arm64 often only "CPU part", some boards
 * "Hardware" or "Model"), so take the first that is present. */
static void collect_cpu_model(struct host_line *model)
{
	static const char *const keys[] = { "model name", "Model", "Hardware",
					    "cpu model", "Processor", "cpu" };
	char found[sizeof keys / sizeof keys[0]][256];
	memset(found, 0, sizeof found);

	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f) {
		model->known = false;
		set_why(model->why, "/proc/cpuinfo: %s", strerror(errno));
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
			model->known = true;
			snprintf(model->text, sizeof model->text, "%s", found[i]);
			return;
		}
	}
	model->known = false;
	set_why(model->why, "no model field in /proc/cpuinfo");
}

bool host_cmdline_param(const struct host_facts *f, const char *key, char *out, size_t len)
{
	if (!f->cmdline.known)
		return false;
	char line[sizeof f->cmdline.text];
	snprintf(line, sizeof line, "%s", f->cmdline.text);
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

enum host_preempt_model host_preempt_model_of(const char *word)
{
	static const struct {
		const char *word;
		enum host_preempt_model model;
	} names[] = {
		{ "none", HOST_PREEMPT_NONE },	{ "voluntary", HOST_PREEMPT_VOLUNTARY },
		{ "full", HOST_PREEMPT_FULL },	{ "lazy", HOST_PREEMPT_LAZY },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(word, names[i].word) == 0)
			return names[i].model;
	return HOST_PREEMPT_OTHER;
}

static void set_preempt(struct host_preempt *p, enum host_preempt_model model,
			enum host_preempt_source source, const char *word)
{
	p->model = model;
	p->source = source;
	snprintf(p->word, sizeof p->word, "%s", word ? word : "");
}

/* A PREEMPT_DYNAMIC kernel picks its model at boot (preempt=), and
 * debugfs shows the one in force; without either, the build's default. */
static void collect_dynamic_preempt(struct host_facts *f)
{
	struct host_preempt *p = &f->preempt;
	char buf[128];
	/* debugfs: "none voluntary (full) lazy", the mode in brackets */
	if (read_line("/sys/kernel/debug/sched/preempt", buf, sizeof buf) == 0) {
		char *o = strchr(buf, '('), *c = o ? strchr(o, ')') : NULL;
		if (o && c) {
			*c = '\0';
			set_preempt(p, host_preempt_model_of(o + 1), HOST_PREEMPT_FROM_DEBUGFS, o + 1);
			return;
		}
	}
	if (host_cmdline_param(f, "preempt", buf, sizeof buf) && buf[0]) {
		set_preempt(p, host_preempt_model_of(buf), HOST_PREEMPT_FROM_CMDLINE, buf);
		return;
	}
	static const struct {
		const char *config;
		enum host_preempt_model model;
	} defaults[] = { { "PREEMPT", HOST_PREEMPT_FULL },
			 { "PREEMPT_VOLUNTARY", HOST_PREEMPT_VOLUNTARY },
			 { "PREEMPT_NONE", HOST_PREEMPT_NONE } };
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
		if (kconfig_has(f->uname.release, defaults[i].config) == 1) {
			set_preempt(p, defaults[i].model, HOST_PREEMPT_FROM_DYNAMIC_KCONFIG, NULL);
			return;
		}
	}
	/* PREEMPT_DYNAMIC kernels default to full. */
	set_preempt(p, HOST_PREEMPT_FULL, HOST_PREEMPT_FROM_DYNAMIC_DEFAULT, NULL);
}

/* /sys/kernel/realtime exists only on PREEMPT_RT kernels; otherwise the
 * uname version string is what the kernel build wrote ("#1 SMP
 * PREEMPT_DYNAMIC ..."), and /boot/config-<release> tells the rest. Needs
 * uname and the command line collected. */
static void collect_preempt(struct host_facts *f)
{
	struct host_preempt *p = &f->preempt;
	const char *version = f->uname.version, *release = f->uname.release;
	char buf[128];
	if (read_line("/sys/kernel/realtime", buf, sizeof buf) == 0 && buf[0] == '1')
		set_preempt(p, HOST_PREEMPT_RT, HOST_PREEMPT_FROM_SYS_REALTIME, NULL);
	else if (!f->uname.known)
		set_preempt(p, HOST_PREEMPT_UNKNOWN, HOST_PREEMPT_FROM_NOTHING, NULL);
	else if (strstr(version, "PREEMPT_RT"))
		set_preempt(p, HOST_PREEMPT_RT, HOST_PREEMPT_FROM_VERSION, NULL);
	else if (strstr(version, "PREEMPT_DYNAMIC"))
		collect_dynamic_preempt(f);
	else if (strstr(version, "PREEMPT"))
		set_preempt(p, HOST_PREEMPT_FULL, HOST_PREEMPT_FROM_VERSION, NULL);
	else if (kconfig_has(release, "PREEMPT_VOLUNTARY") == 1)
		set_preempt(p, HOST_PREEMPT_VOLUNTARY, HOST_PREEMPT_FROM_KCONFIG, NULL);
	else if (kconfig_has(release, "PREEMPT_NONE") == 1)
		set_preempt(p, HOST_PREEMPT_NONE, HOST_PREEMPT_FROM_KCONFIG, NULL);
	else
		set_preempt(p, HOST_PREEMPT_NONE_OR_VOLUNTARY, HOST_PREEMPT_FROM_NO_MARKER, NULL);
}

/* A whole number, all of s. */
static bool parse_ll(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return false;
	*out = v;
	return true;
}

static void collect_rt_throttling(struct host_rt_throttling *t)
{
	static const char *const paths[2] = { "/proc/sys/kernel/sched_rt_runtime_us",
					      "/proc/sys/kernel/sched_rt_period_us" };
	long long *vals[2] = { &t->runtime_us, &t->period_us };
	t->known = false;
	for (int i = 0; i < 2; i++) {
		char buf[32];
		int ret = read_line(paths[i], buf, sizeof buf);
		if (ret) {
			set_why(t->why, "%s: %s", paths[i], strerror(-ret));
			return;
		}
		if (!parse_ll(buf, vals[i])) {
			set_why(t->why, "%s: not a number: %s", paths[i], buf);
			return;
		}
	}
	t->known = true;
}

void host_cpus_of_read(struct host_cpus *c, const char *path, int ret, const char *text,
		       bool missing_is_unsupported)
{
	const char *t = ret == 0 ? text + strspn(text, " \t") : "";
	size_t n = strlen(t);
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	/* "(null)": NO_HZ_FULL built, nohz_full= not given; padded to the
	 * CPU count's width, so it reads "          (null)" on 16 CPUs. */
	if (n && !(n == 6 && strncmp(t, "(null)", 6) == 0)) {
		snprintf(c->list, sizeof c->list, "%.*s", (int)n, t);
		c->state = HOST_CPUS_LIST;
		return;
	}
	c->list[0] = '\0';
	if (ret == 0 || ret == -ENODATA) {
		c->state = HOST_CPUS_EMPTY;
	} else if (ret == -ENOENT && missing_is_unsupported) {
		c->state = HOST_CPUS_UNSUPPORTED;
	} else {
		c->state = HOST_CPUS_UNKNOWN;
		set_why(c->why, "%s: %s", path, strerror(-ret));
	}
}

/* A sysfs CPU list ("0-3,6"); an empty file is a real answer. With
 * missing_is_unsupported, a file that does not exist means the kernel
 * lacks the feature. */
static void collect_cpulist(struct host_cpus *c, const char *path, bool missing_is_unsupported)
{
	char text[sizeof c->list];
	int ret = read_line(path, text, sizeof text);
	host_cpus_of_read(c, path, ret, text, missing_is_unsupported);
}

/* The CPUs this process may run on (its affinity), as a list. */
static void collect_allowed(struct host_cpus *a)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		a->state = HOST_CPUS_UNKNOWN;
		set_why(a->why, "sched_getaffinity: %s", strerror(errno));
		return;
	}
	cpulist_format(&set, a->list, sizeof a->list);
	size_t o = strlen(a->list);
	a->state = o ? HOST_CPUS_LIST : HOST_CPUS_EMPTY;
}

/* The NUMA nodes online and each one's CPUs. */
static void collect_numa(struct host_numa *n)
{
	collect_cpulist(&n->online, "/sys/devices/system/node/online", true);
	n->n = 0;
	for (int node = 0; node < HOST_MAX_NODES && n->online.state == HOST_CPUS_LIST; node++) {
		char path[96];
		struct host_numa_node *d = &n->node[n->n];
		snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", node);
		int ret = read_line(path, d->cpus, sizeof d->cpus);
		if (ret == -ENOENT)
			continue;
		if (ret)
			d->cpus[0] = '\0';
		d->node = node;
		n->n++;
	}
}

/* SMT: the kernel's control and whether siblings are active. */
static void collect_smt(struct host_smt *s)
{
	char active[16];
	int rc = read_line("/sys/devices/system/cpu/smt/control", s->control, sizeof s->control);
	int ra = read_line("/sys/devices/system/cpu/smt/active", active, sizeof active);
	s->control_known = rc == 0;
	if (rc)
		s->control[0] = '\0';
	if (rc && ra) {
		s->state = HOST_SMT_UNKNOWN;
		set_why(s->why, "/sys/devices/system/cpu/smt: %s", strerror(-rc));
		return;
	}
	s->state = ra == 0 && active[0] == '1' ? HOST_SMT_ACTIVE : HOST_SMT_INACTIVE;
}

/* The cpufreq governor of every configured CPU that has one. */
static void collect_governors(struct host_governors *g)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	g->n = 0;
	for (long c = 0; c < n && c < HOST_MAX_CPUS; c++) {
		char path[128];
		struct host_governor *gov = &g->cpu[g->n];
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor",
			 c);
		if (read_line(path, gov->name, sizeof gov->name))
			continue;
		gov->cpu = (int)c;
		g->n++;
	}
}

static void collect_rlimit(struct host_rlimit *l, int res)
{
	struct rlimit rl;
	l->known = getrlimit(res, &rl) == 0;
	if (!l->known) {
		set_why(l->why, "getrlimit: %s", strerror(errno));
		return;
	}
	l->soft = rl.rlim_cur;
	l->hard = rl.rlim_max;
}

/* Effective capabilities that decide whether real-time requirements can
 * run: CAP_SYS_NICE (real-time policies) and CAP_IPC_LOCK (mlockall). */
static void collect_privileges(struct host_privileges *p)
{
	unsigned long long eff = 0;
	p->euid = (unsigned)geteuid();
	p->caps_known = rtperm_caps(&eff);
	p->cap_sys_nice = p->caps_known && (eff >> RTPERM_CAP_SYS_NICE & 1u);
	p->cap_ipc_lock = p->caps_known && (eff >> RTPERM_CAP_IPC_LOCK & 1u);
	p->rt_group_known = rtperm_cgroup_runtime(&p->rt_group_runtime_us, p->rt_group_file,
						  sizeof p->rt_group_file) == RTPERM_CG_FOUND;
}

enum host_thp_mode host_thp_mode_of(const char *line)
{
	if (strstr(line, "[always]"))
		return HOST_THP_ALWAYS;
	if (strstr(line, "[madvise]"))
		return HOST_THP_MADVISE;
	if (strstr(line, "[never]"))
		return HOST_THP_NEVER;
	return HOST_THP_UNRECOGNISED;
}

void host_thp_of_read(struct host_thp *t, const char *path, int ret, const char *line,
		      bool mm_present)
{
	t->known = ret == 0 || (ret == -ENOENT && mm_present);
	t->mode = HOST_THP_UNRECOGNISED;
	t->line[0] = '\0';
	if (ret == 0) {
		snprintf(t->line, sizeof t->line, "%s", line);
		t->mode = host_thp_mode_of(t->line);
	} else if (t->known) {
		t->mode = HOST_THP_NOT_BUILT;
	} else {
		set_why(t->why, "%s: %s", path, strerror(-ret));
	}
}

/* A kernel without TRANSPARENT_HUGEPAGE (Debian's PREEMPT_RT builds) has
 * /sys/kernel/mm but no transparent_hugepage in it. */
static void collect_thp(struct host_thp *t)
{
	const char *path = "/sys/kernel/mm/transparent_hugepage/enabled";
	char line[sizeof t->line];
	int ret = read_line(path, line, sizeof line);
	host_thp_of_read(t, path, ret, line, access("/sys/kernel/mm", F_OK) == 0);
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

/* The DMI vendor or product of a machine a hypervisor makes. */
static bool dmi_names_hypervisor(const char *vendor, const char *product)
{
	static const char *const vm_vendors[] = { "QEMU", "KVM", "VMware", "innotek", "Xen",
						  "Microsoft Corporation", "Amazon EC2", "Google",
						  "Parallels", "Bochs", "OpenStack", "DigitalOcean" };
	for (size_t i = 0; i < sizeof vm_vendors / sizeof vm_vendors[0]; i++)
		if (strstr(vendor, vm_vendors[i]) || strstr(product, vm_vendors[i]))
			return true;
	return false;
}

/* Three kinds of evidence for a virtual machine: the CPU's hypervisor flag,
 * the DMI vendor, and systemd-detect-virt --vm where installed; and the
 * container systemd-detect-virt --container names. */
static void collect_virt(struct host_virt *v)
{
	v->hypervisor_flag = cpuinfo_has_flag("hypervisor");
	v->dmi_known = read_line("/sys/class/dmi/id/sys_vendor", v->dmi_vendor,
				 sizeof v->dmi_vendor) == 0;
	if (!v->dmi_known)
		v->dmi_vendor[0] = '\0';
	if (read_line("/sys/class/dmi/id/product_name", v->dmi_product, sizeof v->dmi_product))
		v->dmi_product[0] = '\0';
	v->dmi_names_hypervisor = v->dmi_known && dmi_names_hypervisor(v->dmi_vendor,
								      v->dmi_product);

	const char *sdv = access("/usr/bin/systemd-detect-virt", X_OK) == 0
				  ? "/usr/bin/systemd-detect-virt"
				  : "/bin/systemd-detect-virt";
	char *const vm_argv[] = { (char *)sdv, "--vm", NULL };
	char *const ct_argv[] = { (char *)sdv, "--container", NULL };
	int rc = run_first_line(vm_argv, v->detect_answer, sizeof v->detect_answer);
	v->detect_ran = rc >= 0;
	v->detect_vm = rc == 0 && v->detect_answer[0] && strcmp(v->detect_answer, "none") != 0;
	v->container_ran = run_first_line(ct_argv, v->container, sizeof v->container) >= 0;
}

bool host_virt_detected(const struct host_virt *v)
{
	return v->hypervisor_flag || v->dmi_names_hypervisor || v->detect_vm;
}

const char *host_virt_kind(const struct host_virt *v)
{
	return v->detect_vm ? v->detect_answer : v->dmi_names_hypervisor ? v->dmi_vendor
									  : "hypervisor";
}

/* The worker set by host_facts_set_worker(), "" when none. */
static char worker_path[512];

void host_facts_set_worker(const char *path)
{
	snprintf(worker_path, sizeof worker_path, "%s", path ? path : "");
}

/* Where the worker's capabilities come from, given what it got (eff) and
 * what the caller and the worker's file are. */
static enum host_worker_source worker_source(const struct rtperm_task *t, bool honoured,
					     const struct rtperm_fcaps *fc, unsigned long long eff)
{
	unsigned long long wanted = 1ull << RTPERM_CAP_SYS_NICE | 1ull << RTPERM_CAP_IPC_LOCK;
	if (!t->noroot && t->euid == 0 && (eff & wanted))
		return HOST_WORKER_ROOT;
	if (honoured && (eff & wanted & fc->permitted))
		return HOST_WORKER_FILE_CAPS;
	if (eff & wanted & t->amb)
		return HOST_WORKER_AMBIENT;
	return HOST_WORKER_NONE;
}

void host_worker_privileges_collect(struct host_worker_privileges *w, const char *path)
{
	memset(w, 0, sizeof *w);
	snprintf(w->path, sizeof w->path, "%s", path);
	struct rtperm_task t;
	rtperm_task_read(&t);
	struct rtperm_fcaps fc;
	char why[HOST_WHY_LEN], line[64];
	if (rtperm_fcaps_read(path, &fc, w->file_caps_ignored, sizeof w->file_caps_ignored, why,
			      sizeof why) != 0) {
		set_why(w->why, "%s", why);
		return;
	}
	/* What the kernel gives the worker, asked of the worker itself:
	 * "<effective capabilities> <mlockall's errno, 0 when it locked>". */
	char *const argv[] = { w->path, "--capabilities", NULL };
	unsigned long long eff;
	char *end, *mend = NULL;
	int rc = run_first_line(argv, line, sizeof line);
	eff = strtoull(line, &end, 16);
	long ml = *end == ' ' ? strtol(end + 1, &mend, 10) : -1;
	if (rc != 0 || end == line || !mend || mend == end + 1 || *mend || ml < 0 || ml > 4095) {
		set_why(w->why, "%s --capabilities %s", path,
			rc < 0 ? "could not run" : "did not say");
		return;
	}
	w->known = true;
	w->file_caps = fc.present;
	w->no_new_privs = t.no_new_privs;
	w->cap_sys_nice = eff >> RTPERM_CAP_SYS_NICE & 1u;
	w->cap_ipc_lock = eff >> RTPERM_CAP_IPC_LOCK & 1u;
	w->source = worker_source(&t, fc.present && !w->file_caps_ignored[0], &fc, eff);
	w->mlock_tried = true;
	w->mlock_errno = (int)ml;
}

/* ---- the checks real-time engineers run (host_rt_collect) ------------ */

/* root + path into buf, for the facts a test reads from a made-up tree. */
static const char *rooted(char *buf, size_t len, const char *root, const char *path)
{
	snprintf(buf, len, "%s%s", root, path);
	return buf;
}

/* The value of the first "key : value" line of /proc/cpuinfo under root. */
static bool cpuinfo_field(const char *root, const char *key, char *out, size_t len)
{
	char path[4200], line[512];
	FILE *f = fopen(rooted(path, sizeof path, root, "/proc/cpuinfo"), "re");
	if (!f)
		return false;
	bool found = false;
	size_t klen = strlen(key);
	while (!found && fgets(line, sizeof line, f)) {
		if (strncmp(line, key, klen) != 0 || !strchr(line, ':'))
			continue;
		const char *v = strchr(line, ':') + 1;
		v += strspn(v, " \t");
		snprintf(out, len, "%.*s", (int)strcspn(v, "\n"), v);
		found = true;
	}
	fclose(f);
	return found;
}

/* MSR_SMI_COUNT (0x34) of cpu0, as cyclictest --smi reads it: Intel only. */
static void collect_smi(struct host_smi *s, const char *root)
{
	char vendor[64] = "", path[4200];
	if (!cpuinfo_field(root, "vendor_id", vendor, sizeof vendor) ||
	    strcmp(vendor, "GenuineIntel") != 0) {
		s->state = HOST_SMI_NO_MSR;
		if (!vendor[0])
			set_why(s->why, "no vendor_id in /proc/cpuinfo: not an x86 CPU, no SMI count");
		else if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
			set_why(s->why, "%s: AMD CPUs have no SMI count MSR", vendor);
		else
			set_why(s->why, "%s: only Intel CPUs have the SMI count MSR", vendor);
		return;
	}
	s->state = HOST_SMI_UNREADABLE;
	int fd = open(rooted(path, sizeof path, root, "/dev/cpu/0/msr"), O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		set_why(s->why, "/dev/cpu/0/msr: %s%s", strerror(e),
			e == ENOENT ? " (modprobe msr)"
			: e == EACCES || e == EPERM ? " (needs root, CAP_SYS_RAWIO)" : "");
		return;
	}
	unsigned long long v;
	ssize_t r = pread(fd, &v, sizeof v, 0x34);
	int e = errno;
	close(fd);
	if (r != (ssize_t)sizeof v) {
		set_why(s->why, "/dev/cpu/0/msr: MSR 0x34: %s", r < 0 ? strerror(e) : "short read");
		return;
	}
	s->state = HOST_SMI_COUNTED;
	s->count = v & 0xffffffffu; /* bits 31:0 hold the count */
}

/* The idle states of one CPU: name, exit latency, disable. */
static void collect_idle_cpu(struct host_cpuidle *c, const char *root, int cpu)
{
	for (size_t k = 0; k < HOST_MAX_IDLE_STATES; k++) {
		char path[4300], name[16], lat[32], dis[8];
		long long us = 0;
		snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d/cpuidle/state%zu/name",
			 root, cpu, k);
		if (read_line(path, name, sizeof name))
			break;
		char *leaf = strrchr(path, '/') + 1;
		snprintf(leaf, 8, "latency");
		if (read_line(path, lat, sizeof lat) || !parse_ll(lat, &us))
			us = 0;
		struct host_idle_state *st = &c->state[k];
		if (k >= c->nstates) {
			c->nstates = k + 1;
			snprintf(st->name, sizeof st->name, "%s", name);
			st->latency_us = (long)us;
		} else if (us > st->latency_us) {
			st->latency_us = (long)us;
		}
		snprintf(leaf, 8, "disable");
		/* unreadable: it may be entered */
		if (read_line(path, dis, sizeof dis) || dis[0] != '1')
			c->enabled[cpu] |= (unsigned short)(1u << k);
	}
}

static void collect_cpuidle(struct host_cpuidle *c, const char *root)
{
	char path[4200];
	const char *drv = "/sys/devices/system/cpu/cpuidle/current_driver";
	int ret = read_line(rooted(path, sizeof path, root, drv), c->driver, sizeof c->driver);
	if (ret) {
		set_why(c->why, "%s: %s", drv, strerror(-ret));
		return;
	}
	c->known = true;
	if (read_line(rooted(path, sizeof path, root,
			     "/sys/devices/system/cpu/cpuidle/current_governor"),
		      c->governor, sizeof c->governor) &&
	    read_line(rooted(path, sizeof path, root,
			     "/sys/devices/system/cpu/cpuidle/current_governor_ro"),
		      c->governor, sizeof c->governor))
		snprintf(c->governor, sizeof c->governor, "unknown");
	for (int cpu = 0; cpu < HOST_MAX_CPUS; cpu++) {
		snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d", root, cpu);
		if (access(path, F_OK) != 0)
			break;
		c->ncpu = cpu + 1;
		collect_idle_cpu(c, root, cpu);
	}
}

/* One line of /proc/interrupts: "  16:  0  3  IO-APIC 16-fasteoi i801_smbus".
 * Only numbered IRQs have /proc/irq/N; LOC, NMI and the like are per CPU. */
static void collect_irq_line(struct host_irqs *q, const char *root, const char *line)
{
	const char *p = line + strspn(line, " ");
	char *end;
	long irq = strtol(p, &end, 10);
	if (end == p || *end != ':' || irq < 0)
		return;
	q->total++;
	if (q->n >= HOST_MAX_IRQS)
		return;
	struct host_irq *e = &q->irq[q->n++];
	e->irq = (int)irq;
	for (p = end + 1;; p += strspn(p, "0123456789")) {
		p += strspn(p, " \t");
		if (*p < '0' || *p > '9')
			break;
	}
	size_t o = 0; /* the rest, blanks squeezed */
	for (; *p && *p != '\n' && o + 1 < sizeof e->name; p++)
		if (!(*p == ' ' || *p == '\t') || (o && e->name[o - 1] != ' '))
			e->name[o++] = *p == '\t' ? ' ' : *p;
	e->name[o] = '\0';
	char path[4200];
	snprintf(path, sizeof path, "%s/proc/irq/%ld/effective_affinity_list", root, irq);
	e->effective = read_line(path, e->cpus, sizeof e->cpus) == 0 && e->cpus[0];
	snprintf(path, sizeof path, "%s/proc/irq/%ld/smp_affinity_list", root, irq);
	if (!e->effective && read_line(path, e->cpus, sizeof e->cpus))
		e->cpus[0] = '\0';
}

/* A process named irqbalance: its pid, or 0. */
static int irqbalance_pid(const char *root)
{
	char path[4200], comm[32];
	DIR *d = opendir(rooted(path, sizeof path, root, "/proc"));
	if (!d)
		return 0;
	int pid = 0;
	for (struct dirent *de; !pid && (de = readdir(d));) {
		long long n;
		if (!parse_ll(de->d_name, &n) || n <= 0)
			continue;
		snprintf(path, sizeof path, "%s/proc/%s/comm", root, de->d_name);
		if (read_line(path, comm, sizeof comm) == 0 && strcmp(comm, "irqbalance") == 0)
			pid = (int)n;
	}
	closedir(d);
	return pid;
}

static void collect_irqs(struct host_irqs *q, const char *root)
{
	char path[4200];
	q->irqbalance_pid = irqbalance_pid(root);
	FILE *f = fopen(rooted(path, sizeof path, root, "/proc/interrupts"), "re");
	if (!f) {
		set_why(q->why, "/proc/interrupts: %s", strerror(errno));
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0)
		collect_irq_line(q, root, line);
	free(line);
	fclose(f);
	q->known = true;
}

/* The first boost control present: intel_pstate's no_turbo (0 is on),
 * then cpufreq's boost (acpi-cpufreq, amd-pstate; 1 is on). */
static void collect_boost(struct host_boost *b, const char *root)
{
	static const struct {
		const char *file;
		char on;
	} ctl[] = {
		{ "/sys/devices/system/cpu/intel_pstate/no_turbo", '0' },
		{ "/sys/devices/system/cpu/cpufreq/boost", '1' },
		{ "/sys/devices/system/cpu/cpufreq/policy0/boost", '1' },
	};
	char path[4200], v[8];
	for (size_t i = 0; i < sizeof ctl / sizeof ctl[0]; i++) {
		if (read_line(rooted(path, sizeof path, root, ctl[i].file), v, sizeof v) ||
		    (v[0] != '0' && v[0] != '1'))
			continue;
		b->state = v[0] == ctl[i].on ? HOST_BOOST_ON : HOST_BOOST_OFF;
		snprintf(b->file, sizeof b->file, "%s", ctl[i].file);
		return;
	}
	b->state = HOST_BOOST_NO_CONTROL;
}

void host_rt_collect(struct host_facts *f, const char *root)
{
	struct host_rt *rt = &f->rt;
	memset(rt, 0, sizeof *rt);
	collect_smi(&rt->smi, root);
	collect_cpuidle(&rt->cpuidle, root);
	collect_irqs(&rt->irqs, root);
	collect_boost(&rt->boost, root);
	char v[sizeof rt->rcu_nocbs.list];
	if (!f->cmdline.known) {
		rt->rcu_nocbs.state = HOST_CPUS_UNKNOWN;
		set_why(rt->rcu_nocbs.why, "the kernel command line is unknown");
	} else if (host_cmdline_param(f, "rcu_nocbs", v, sizeof v) && v[0]) {
		rt->rcu_nocbs.state = HOST_CPUS_LIST;
		snprintf(rt->rcu_nocbs.list, sizeof rt->rcu_nocbs.list, "%s", v);
	} else {
		rt->rcu_nocbs.state = HOST_CPUS_EMPTY;
	}
}

void host_facts_collect(struct host_facts *f)
{
	/* strerror() text goes into the reasons: keep it the C locale's, the
	 * same on every machine. */
	locale_t old = numfmt_c_enter();
	memset(f, 0, sizeof *f);

	collect_uname(&f->uname);
	read_fact_line(&f->cmdline, "/proc/cmdline");
	collect_preempt(f);
	collect_cpu_model(&f->cpu_model);
	f->cpu_count.n = sysconf(_SC_NPROCESSORS_CONF);
	f->cpu_count.known = f->cpu_count.n > 0;
	if (!f->cpu_count.known)
		set_why(f->cpu_count.why, "sysconf: %s", strerror(errno));
	collect_cpulist(&f->online, "/sys/devices/system/cpu/online", false);
	collect_allowed(&f->allowed);
	collect_smt(&f->smt);
	collect_cpulist(&f->isolated, "/sys/devices/system/cpu/isolated", false);
	collect_cpulist(&f->nohz_full, "/sys/devices/system/cpu/nohz_full", true);
	collect_numa(&f->numa);
	collect_governors(&f->governors);
	read_fact_line(&f->clocksource,
		       "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	collect_rt_throttling(&f->rt_throttling);
	collect_virt(&f->virt);
	collect_rlimit(&f->memlock, RLIMIT_MEMLOCK);
	collect_rlimit(&f->rtprio, RLIMIT_RTPRIO);
	collect_privileges(&f->privileges);
	if (worker_path[0])
		host_worker_privileges_collect(&f->privileges.worker, worker_path);
	collect_thp(&f->thp);
	host_identity_collect(&f->identity, "");
	host_rt_collect(f, "");

	numfmt_c_leave(old);
}
