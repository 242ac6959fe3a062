/* SPDX-License-Identifier: Apache-2.0 */
/* facts.h - the machine a run measures on, as typed values.
 *
 * host_facts_collect() is the one place in host/ that reads the machine
 * (uname, /proc, /sys, getrlimit, the affinity mask, systemd-detect-virt).
 * The fingerprint renders these facts as the text every report carries
 * (fingerprint.c), and the readiness checks judge them (readiness.c), so
 * rewording a rendered value cannot change a verdict.
 *
 * A fact that could not be read has `known` false and says why in `why`
 * ("/proc/cmdline: Permission denied"); the fingerprint shows it as
 * "unknown (why)". Where the kernel's own words are part of the record
 * (the command line, a CPU list, the THP setting), the text is kept as read,
 * next to the typed value a check needs.
 *
 * Plain data, no pointers: a test builds one by hand, a copy is a copy.
 */
#ifndef RTC_FACTS_H
#define RTC_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

#include "host/identity.h"

#define HOST_WHY_LEN 192
/* CPUs whose cpufreq governor is looked for: cpu0 .. cpu4095. */
#define HOST_MAX_CPUS 4096

/* uname(2); the four strings are "" when it failed. */
struct host_uname {
	bool known;
	char why[HOST_WHY_LEN];
	char nodename[65], release[65], version[65], machine[65];
};

/* The preemption model in force. */
enum host_preempt_model {
	HOST_PREEMPT_UNKNOWN,           /* uname failed: nothing to go by */
	HOST_PREEMPT_NONE,
	HOST_PREEMPT_VOLUNTARY,
	HOST_PREEMPT_NONE_OR_VOLUNTARY, /* not PREEMPT, and nothing says which */
	HOST_PREEMPT_FULL,
	HOST_PREEMPT_LAZY,
	HOST_PREEMPT_RT,
	HOST_PREEMPT_OTHER,             /* a dynamic mode this code has no name for: `word` */
};

/* Where the model was found. */
enum host_preempt_source {
	HOST_PREEMPT_FROM_NOTHING,         /* model unknown */
	HOST_PREEMPT_FROM_SYS_REALTIME,    /* /sys/kernel/realtime is 1 */
	HOST_PREEMPT_FROM_VERSION,         /* the uname version string */
	HOST_PREEMPT_FROM_DEBUGFS,         /* PREEMPT_DYNAMIC: /sys/kernel/debug/sched/preempt */
	HOST_PREEMPT_FROM_CMDLINE,         /* PREEMPT_DYNAMIC: preempt= on the command line */
	HOST_PREEMPT_FROM_DYNAMIC_KCONFIG, /* PREEMPT_DYNAMIC: the build's default, /boot/config */
	HOST_PREEMPT_FROM_DYNAMIC_DEFAULT, /* PREEMPT_DYNAMIC, none of the above visible: full */
	HOST_PREEMPT_FROM_KCONFIG,         /* /boot/config-<release> */
	HOST_PREEMPT_FROM_NO_MARKER,       /* no PREEMPT in the version string, no config */
};

struct host_preempt {
	enum host_preempt_model model;
	enum host_preempt_source source;
	/* The mode as debugfs or preempt= wrote it ("full", "lazy"), for the
	 * DEBUGFS and CMDLINE sources; "" otherwise. */
	char word[128];
};

/* Text as the kernel gave it: the command line, the CPU model line of
 * /proc/cpuinfo, the clocksource's name. */
struct host_line {
	bool known;
	char why[HOST_WHY_LEN];
	char text[4096];
};

struct host_count {
	bool known;
	char why[HOST_WHY_LEN];
	long n;
};

/* A CPU list as the kernel writes it ("0-3,6"). */
enum host_cpus_state {
	HOST_CPUS_UNKNOWN,     /* could not be read: why */
	HOST_CPUS_LIST,        /* list holds the CPUs */
	HOST_CPUS_EMPTY,       /* read, and no CPU is in it */
	HOST_CPUS_UNSUPPORTED, /* the kernel has no such list (nohz_full without NO_HZ_FULL) */
};

struct host_cpus {
	enum host_cpus_state state;
	char why[HOST_WHY_LEN];
	char list[512];
};

enum host_smt_state {
	HOST_SMT_UNKNOWN, /* neither smt/control nor smt/active could be read: why */
	HOST_SMT_INACTIVE,
	HOST_SMT_ACTIVE,  /* sibling threads are running */
};

/* NUMA: the nodes online (/sys/devices/system/node/online; UNSUPPORTED: a
 * kernel without NUMA) and the CPUs of each, in node order. */
#define HOST_MAX_NODES 64
struct host_numa {
	struct host_cpus online;
	size_t n;
	struct host_numa_node {
		int node;
		char cpus[256]; /* its cpulist as the kernel wrote it; "" for none */
	} node[HOST_MAX_NODES];
};

struct host_smt {
	enum host_smt_state state;
	char why[HOST_WHY_LEN];
	bool control_known;
	char control[64]; /* "on", "off", "forceoff", "notsupported", "notimplemented" */
};

/* The cpufreq governor of one CPU ("performance", "powersave"); the kernel
 * caps a governor's name at 15 characters. */
struct host_governor {
	int cpu;
	char name[16];
};

/* Every CPU with a cpufreq governor, in CPU order; n == 0 without cpufreq. */
struct host_governors {
	size_t n;
	struct host_governor cpu[HOST_MAX_CPUS];
};

/* kernel.sched_rt_runtime_us and kernel.sched_rt_period_us. */
struct host_rt_throttling {
	bool known;
	char why[HOST_WHY_LEN];
	long long runtime_us; /* negative: throttling disabled */
	long long period_us;
};

/* The evidence for a virtual machine, and the container, if any. */
struct host_virt {
	bool hypervisor_flag;       /* "hypervisor" among the first CPU's flags */
	bool dmi_known;             /* /sys/class/dmi/id/sys_vendor was readable */
	char dmi_vendor[128];
	char dmi_product[128];      /* "" when unreadable */
	bool dmi_names_hypervisor;  /* vendor or product is a hypervisor maker's */
	bool detect_ran;            /* systemd-detect-virt --vm could run */
	bool detect_vm;             /* ... and exited 0 naming a hypervisor */
	char detect_answer[64];     /* what it printed ("kvm", "none"), "" if nothing */
	bool container_ran;         /* systemd-detect-virt --container could run */
	char container[64];         /* what it printed ("docker", "none"), "" if nothing */
};

/* One resource limit; RLIM_INFINITY is unlimited. */
struct host_rlimit {
	bool known;
	char why[HOST_WHY_LEN];
	rlim_t soft, hard;
};

/* Where the worker's capabilities come from. */
enum host_worker_source {
	HOST_WORKER_ROOT,      /* it runs as uid 0 */
	HOST_WORKER_FILE_CAPS, /* its own file capabilities (setcap on the worker) */
	HOST_WORKER_AMBIENT,   /* the caller's ambient set, kept across exec */
	HOST_WORKER_NONE,      /* none of these */
};

/* What rtconform-worker, exec'd by this process, will be allowed: the
 * capabilities execve() gives it (rtperm_exec_effective), which are not
 * this process's own (a capability set on rtconform is lost at the exec;
 * one set on the worker is gained by it). Limits pass unchanged. */
struct host_worker_privileges {
	bool known;                /* the worker's path was given and could be examined */
	char why[HOST_WHY_LEN];    /* when not known */
	char path[512];            /* the worker, as run */
	bool cap_sys_nice, cap_ipc_lock;
	enum host_worker_source source;
	bool file_caps;            /* the worker has file capabilities ... */
	char file_caps_ignored[128]; /* ... that the kernel will not honour, and why ("") */
	bool no_new_privs;         /* this process may not gain privileges by exec */
	/* mlockall(MCL_CURRENT | MCL_FUTURE) tried in the worker itself, the
	 * process that locks its memory when measuring: 0 or the errno. */
	bool mlock_tried;
	int mlock_errno;
};

struct host_privileges {
	unsigned euid;
	bool caps_known;     /* CapEff was found in /proc/self/status */
	bool cap_sys_nice;   /* real-time policies */
	bool cap_ipc_lock;   /* mlockall beyond RLIMIT_MEMLOCK */
	/* RT group scheduling: the real-time runtime of this process's cgroup
	 * (0 refuses real-time policies even to root), when the kernel has it. */
	bool rt_group_known;
	long long rt_group_runtime_us; /* -1: unlimited */
	char rt_group_file[256];       /* the cpu.rt_runtime_us read */
	struct host_worker_privileges worker;
};

/* ---- the checks real-time engineers run before they trust a figure ----
 * (host_rt_collect): SMIs, idle states, where IRQs go, irqbalance, RCU
 * callbacks, frequency boost. */

/* System management interrupts: the SMI count MSR (0x34, MSR_SMI_COUNT),
 * which only Intel CPUs have, as cyclictest --smi reads it. */
enum host_smi_state {
	HOST_SMI_UNREADABLE, /* an Intel CPU, but the MSR could not be read: why */
	HOST_SMI_COUNTED,    /* count: SMIs on cpu0 since boot */
	HOST_SMI_NO_MSR,     /* not an Intel CPU (AMD has no such MSR): why says whose */
};

struct host_smi {
	enum host_smi_state state;
	char why[HOST_WHY_LEN];
	unsigned long long count;
};

/* cpuidle: the driver and governor, the states (by index: the same on
 * every CPU) and which of them each CPU may enter. */
#define HOST_MAX_IDLE_STATES 16
struct host_cpuidle {
	bool known; /* the cpuidle driver could be read; else why */
	char why[HOST_WHY_LEN];
	char driver[32], governor[32]; /* "intel_idle", "menu"; "none" without a driver */
	size_t nstates;
	struct host_idle_state {
		char name[16];   /* "C6" */
		long latency_us; /* its exit latency, the most any CPU gives it */
	} state[HOST_MAX_IDLE_STATES];
	int ncpu; /* cpu0 .. cpu(ncpu-1) were looked at */
	/* bit k: cpuN has statek and it is not disabled */
	unsigned short enabled[HOST_MAX_CPUS];
};

/* The IRQs /proc/interrupts names, with the CPUs each is routed to. */
#define HOST_MAX_IRQS 512
struct host_irqs {
	bool known; /* /proc/interrupts could be read; else why */
	char why[HOST_WHY_LEN];
	size_t n, total; /* kept, and numbered IRQs in all (more than HOST_MAX_IRQS: cut) */
	struct host_irq {
		int irq;
		char name[64];      /* what /proc/interrupts says after the counts */
		char cpus[128];     /* effective_affinity_list, else smp_affinity_list */
		bool effective;     /* cpus is the effective affinity */
	} irq[HOST_MAX_IRQS];
	int irqbalance_pid; /* a process named irqbalance (/proc/N/comm), 0: none */
};

/* Frequency boost (turbo): on, off, or no control this code knows. */
enum host_boost_state {
	HOST_BOOST_NO_CONTROL,
	HOST_BOOST_ON,
	HOST_BOOST_OFF,
};

struct host_boost {
	enum host_boost_state state;
	char file[96]; /* the control read, under /sys/devices/system/cpu; "" for none */
};

struct host_rt {
	struct host_smi smi;
	struct host_cpuidle cpuidle;
	struct host_irqs irqs;
	/* rcu_nocbs= of the command line (LIST: the CPUs, "all" kept as
	 * written; EMPTY: absent or bare). nohz_full CPUs are offloaded too. */
	struct host_cpus rcu_nocbs;
	struct host_boost boost;
};

/* Transparent huge pages: the bracketed mode of .../transparent_hugepage/enabled. */
enum host_thp_mode {
	HOST_THP_UNRECOGNISED, /* read, but no mode this code knows is selected */
	HOST_THP_ALWAYS,
	HOST_THP_MADVISE,
	HOST_THP_NEVER,
	HOST_THP_NOT_BUILT,    /* the kernel has no THP (no transparent_hugepage in /sys/kernel/mm) */
};

struct host_thp {
	bool known;
	char why[HOST_WHY_LEN];
	enum host_thp_mode mode;
	char line[128]; /* as the kernel wrote it: "always [madvise] never"; "" when NOT_BUILT */
};

struct host_facts {
	struct host_uname uname;
	struct host_preempt preempt;
	struct host_line cmdline;     /* /proc/cmdline, whole */
	struct host_line cpu_model;   /* from /proc/cpuinfo */
	struct host_count cpu_count;  /* CPUs configured */
	struct host_cpus online, allowed, isolated, nohz_full;
	struct host_numa numa;
	struct host_smt smt;
	struct host_governors governors;
	struct host_line clocksource; /* the current one, "tsc" */
	struct host_rt_throttling rt_throttling;
	struct host_virt virt;
	struct host_rlimit memlock, rtprio;
	struct host_privileges privileges;
	struct host_thp thp;
	struct host_identity identity; /* hardware and OS names, hashed machine id */
	struct host_rt rt;             /* host_rt_collect */
};

/* Read this machine into f. Never fails: what cannot be read is marked so. */
void host_facts_collect(struct host_facts *f);

/* The worker program whose privileges host_facts_collect() predicts
 * (privileges.worker), set once by the command before anything is
 * collected; NULL or never set: privileges.worker is not known, and the
 * readiness checks judge this process's own privileges. */
void host_facts_set_worker(const char *path);

/* Predict the privileges of `path` exec'd by this process into w. */
void host_worker_privileges_collect(struct host_worker_privileges *w, const char *path);

/* The checks' facts of f->rt, read under root ("" for this machine, a
 * made-up tree in tests: root "/tmp/x" reads /tmp/x/proc/interrupts);
 * rcu_nocbs comes from f->cmdline, which must be collected. */
void host_rt_collect(struct host_facts *f, const char *root);

/* The value of key=... on the kernel command line in f ("" for a bare
 * key), up to the "--" that ends the kernel's part. False when absent or
 * when the command line is unknown. */
bool host_cmdline_param(const struct host_facts *f, const char *key, char *out, size_t len);

/* Any evidence says this is a virtual machine. */
bool host_virt_detected(const struct host_virt *v);

/* Which hypervisor, from the strongest evidence: systemd-detect-virt's
 * answer, else the DMI vendor, else "hypervisor". */
const char *host_virt_kind(const struct host_virt *v);

/* The mode a preemption word names ("full" -> HOST_PREEMPT_FULL), or
 * HOST_PREEMPT_OTHER. */
enum host_preempt_model host_preempt_model_of(const char *word);

/* The bracketed mode of a THP setting line ("always [madvise] never"). */
enum host_thp_mode host_thp_mode_of(const char *line);

/* c from reading the CPU list at path: ret is 0 or -errno, text the line
 * read. Blanks around the list are dropped; "(null)" (nohz_full on a
 * NO_HZ_FULL kernel booted without it, padded to the CPU count's width) is
 * an empty list. A missing file is UNSUPPORTED with missing_is_unsupported,
 * else UNKNOWN. */
void host_cpus_of_read(struct host_cpus *c, const char *path, int ret, const char *text,
		       bool missing_is_unsupported);

/* t from reading the THP setting at path (ret 0 or -errno, line as read):
 * a missing file where /sys/kernel/mm exists (mm_present) is a kernel
 * built without THP, known; otherwise unknown with the reason. */
void host_thp_of_read(struct host_thp *t, const char *path, int ret, const char *line,
		      bool mm_present);

#endif
