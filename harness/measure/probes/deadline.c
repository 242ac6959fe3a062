/* SPDX-License-Identifier: Apache-2.0 */
/* deadline.c - does SCHED_DEADLINE keep its two promises?
 *
 * Admission: the kernel admits a reservation (runtime every period) only
 * while the reservations of a root domain add up to no more than its
 * bandwidth limit, sched_rt_runtime_us / sched_rt_period_us of each of its
 * CPUs (95% by default). Each run, trial threads ask for reservations one at
 * a time in two sets: one that fits with a margin (every request must be
 * admitted) and one that goes past the limit (the requests past it must be
 * refused). dl_admission_judge() counts the kernel's wrong answers
 * (`admission-errors`); requests too near the limit are not judged.
 *
 * Deadlines: `tasks` threads each hold a reservation (`runtime`,
 * `deadline`, `period`) and run periodic jobs: each job works for `work` of
 * its own CPU time, then sched_yield() ends it (a SCHED_DEADLINE task that
 * yields waits for its next period). A job's release is the start of the
 * period it started in, on the grid the run's release sets; it missed when
 * it completed after release + deadline (`misses`, dl_missed()), and its
 * response is completion - release (`response`). With work <= runtime and
 * admission honoured, EDF with CBS makes every deadline.
 *
 * work > runtime is the configuration that must miss: the kernel throttles
 * a job at its runtime until its next period, so the job completes after
 * its deadline (every job misses). The admission rule cannot be broken on
 * purpose (the kernel decides); its unit test feeds it made-up answers.
 *
 * Safety on a shared machine: every thread switches ITSELF to
 * SCHED_DEADLINE and back (or exits while running): switching a sleeping
 * thread out of SCHED_DEADLINE from another thread leaks its bandwidth in
 * the kernel's books on Linux 6.18 (later admissions are refused until the
 * root domain is rebuilt). Trial threads never run their reservations (they
 * sleep while holding one); the periodic tasks' reservations are bounded
 * (at most half a CPU in all) and every job's work is bounded in time.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "harness/measure/probes/deadline.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/rtenv.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

#define DL_MAX_TASKS 16u
#define DL_MIN_PERIOD_NS 1000000ull      /* 1 ms */
#define DL_MAX_PERIOD_NS 100000000ull    /* 100 ms */
#define DL_MIN_RUNTIME_NS 100000ull      /* 100 us */
#define DL_MIN_WORK_NS 10000ull          /* 10 us */
/* The periodic tasks reserve at most half a CPU in all. */
#define DL_MAX_BW 0.5
/* Longest a run (or the warm-up) may last, by its jobs' periods. */
#define DL_MAX_RUN_NS 5000000000ull      /* 5 s */
/* The trial reservations: period, the share of the over-limit set's
 * requests, and how long a released reservation takes to leave the
 * kernel's books (its zero-lag time, within a period). */
#define DL_TRIAL_PERIOD_NS 5000000ull    /* 5 ms */
#define DL_TRIAL_OVER_BW 0.9
#define DL_TRIAL_SETTLE_NS (3 * DL_TRIAL_PERIOD_NS)
#define DL_MAX_TRIALS 64u
#define DL_WAIT_NS 1000000000ull         /* 1 s beyond what a release needs */
#define DL_STACK_BYTES (128u * 1024u)
#define DL_PREFAULT_BYTES (32u * 1024u)

enum { P_TASKS, P_RUNTIME, P_DEADLINE, P_PERIOD, P_WORK };

static const struct probe_param params[] = {
	[P_TASKS] = { "tasks", "periodic SCHED_DEADLINE tasks (1 to 16)", PARAM_COUNT, NULL, "2" },
	[P_RUNTIME] = { "runtime", "each task's reserved runtime a period (at least 100us)",
			PARAM_DURATION, NULL, "1ms" },
	[P_DEADLINE] = { "deadline", "each job's relative deadline (runtime .. period)",
			 PARAM_DURATION, NULL, "5ms" },
	[P_PERIOD] = { "period", "each task's period (1ms .. 100ms); tasks x runtime / period "
			       "at most 0.5 CPU", PARAM_DURATION, NULL, "10ms" },
	[P_WORK] = { "work", "CPU time each job works before it yields (10us .. period, at "
			     "most 4 x runtime; above runtime must miss)", PARAM_DURATION, NULL,
		     "500us" },
};

enum { M_RESPONSE, M_MISSES, M_ADMISSION, M_CUT };

static const struct probe_metric metrics[] = {
	[M_RESPONSE] = { "response", "from a job's release (its period's start) to its "
				     "completion, every job", METRIC_DURATION },
	[M_MISSES] = { "misses", "jobs completed after release + deadline", METRIC_COUNT },
	[M_ADMISSION] = { "admission-errors", "trial reservations the kernel admitted past the "
					      "bandwidth limit or refused though they fit",
			  METRIC_COUNT },
	[M_CUT] = { "cut", "jobs stopped at their time bound (a few periods) before their work "
			   "was done", METRIC_COUNT },
};

struct dl_shared;

struct dl_task {
	struct dl_shared *sh;
	unsigned idx;
	pthread_t thread;
	int err;                  /* errno of its switch to SCHED_DEADLINE */
	uint64_t cut;             /* jobs stopped by the time bound */
};

enum trial_cmd { TRIAL_ADMIT = 1, TRIAL_REVERT, TRIAL_QUIT };

struct dl_trial {
	struct dl_shared *sh;
	pthread_t thread;
	_Alignas(64) uint32_t cmd_gen;  /* raised by the worker with each command */
	uint32_t done_gen;              /* set to cmd_gen by the thread when done */
	int cmd;                        /* enum trial_cmd */
	uint64_t runtime;               /* TRIAL_ADMIT: ns a DL_TRIAL_PERIOD_NS */
	int err;                        /* the command's errno */
	bool held;                      /* holds a reservation */
};

struct dl_job {
	uint64_t start, done; /* tb_clock_ns */
};

struct dl_shared {
	_Alignas(64) uint32_t go;       /* release generation of the tasks */
	_Alignas(64) uint32_t left;     /* tasks not done with the release */
	_Alignas(64) uint32_t ready;    /* tasks past their switch */
	volatile int quit;
	volatile int *stop;
	const struct probe_ctx *c;
	uint64_t runtime, deadline, period, work, job_bound; /* ns */
	uint64_t jobs, max_jobs;        /* of the current release; slots a task */
	unsigned ntasks, ntrials;
	struct dl_task *t;
	struct dl_trial *tr;
	struct dl_job *job;             /* ntasks x max_jobs */
	struct dl_capacity cap;
	double own;                     /* the tasks' reservations, CPUs */
	uint64_t next_release;          /* tb_clock_ns: the tasks' last deadline past */
	uint64_t cut_seen;              /* the tasks' cut jobs, as of the last release */
	/* For the note. */
	uint64_t judged, unjudged, trial_sets;
	double others_max;
	char dents[2][4096];            /* getdents64 buffers (no allocation) */
};

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void prefault_stack(void)
{
	volatile char pad[DL_PREFAULT_BYTES];
	for (size_t i = 0; i < sizeof pad; i += 4096)
		pad[i] = 0;
}

/* ------------------------------------------------------------ the rules */

void dl_capacity_set(struct dl_capacity *c, unsigned cpus, long rt_runtime_us,
		     long rt_period_us)
{
	c->cpus = cpus;
	c->unlimited = rt_runtime_us < 0 || rt_period_us <= 0;
	c->limit = c->unlimited ? 0.0 : (double)cpus * (double)rt_runtime_us / (double)rt_period_us;
	c->fit = c->limit - DL_FIT_MARGIN * cpus;
	c->over = c->limit + DL_OVER_MARGIN * cpus;
}

bool dl_admission_judged(const struct dl_capacity *c, double total)
{
	return c->unlimited || total <= c->fit || total > c->over;
}

unsigned dl_admission_judge(const struct dl_capacity *c, double held, double request,
			    bool admitted)
{
	double total = held + request;
	if (!dl_admission_judged(c, total))
		return 0;
	if (c->unlimited)
		return admitted ? 0 : 1;
	return admitted ? total > c->over : total <= c->fit;
}

uint64_t dl_release(uint64_t anchor, uint64_t period, uint64_t start)
{
	if (start <= anchor || period == 0)
		return anchor;
	return anchor + (start - anchor) / period * period;
}

/* ------------------------------------------------------ periodic tasks */

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One job: `work` of this thread's CPU time, cut short at the job's time
 * bound or a stop. Its start and completion go into *j. */
static void dl_job_run(struct dl_task *t, struct dl_job *j)
{
	struct dl_shared *sh = t->sh;
	uint64_t start = tb_clock_ns(), cpu0 = thread_cpu_ns();
	/* Bounded: job_bound is a few periods, and a stop cuts it short. */
	while (thread_cpu_ns() - cpu0 < sh->work) {
		if (tb_clock_ns() - start > sh->job_bound || *sh->stop) {
			t->cut++;
			break;
		}
	}
	j->start = start;
	j->done = tb_clock_ns();
}

static void *dl_task_main(void *arg)
{
	struct dl_task *t = arg;
	struct dl_shared *sh = t->sh;
	struct rtenv_attr a = { .size = sizeof a, .policy = SCHED_DEADLINE,
			     .runtime = sh->runtime, .deadline = sh->deadline,
			     .period = sh->period };
	uint32_t gen = 0;

	prefault_stack();
	t->err = rtenv_setattr(0, &a) == 0 ? 0 : errno;
	if (!t->err) {
		char task[48];
		struct rtenv_want w = { .policy = SCHED_DEADLINE, .runtime = a.runtime,
					.deadline = a.deadline, .period = a.period };
		snprintf(task, sizeof task, "SCHED_DEADLINE task %u", t->idx);
		if (probe_verify_attr(sh->c, task, &w, NULL) != 0)
			t->err = EPERM;
	}
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
	probe_futex(&sh->ready, FUTEX_WAKE, 1, NULL);
	if (t->err)
		return NULL;
	for (;;) {
		while (__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE) == gen)
			probe_futex(&sh->go, FUTEX_WAIT, gen, NULL);
		gen = __atomic_load_n(&sh->go, __ATOMIC_ACQUIRE);
		if (sh->quit)
			break; /* exits running: the kernel releases the reservation */
		struct dl_job *slot = &sh->job[(size_t)t->idx * sh->max_jobs];
		for (uint64_t k = 0; k < sh->jobs; k++) {
			dl_job_run(t, &slot[k]);
			if (k + 1 < sh->jobs)
				sched_yield(); /* the job is done: wait for the next period */
		}
		if (__atomic_sub_fetch(&sh->left, 1, __ATOMIC_ACQ_REL) == 0)
			probe_futex(&sh->left, FUTEX_WAKE, 1, NULL);
	}
	return NULL;
}

/* Release every task for `jobs` jobs and wait until all are done; judged
 * and recorded when `record`. 0 or -errno after probe_fail. */
static int dl_release_tasks(struct probe_ctx *c, struct dl_shared *sh, uint64_t jobs,
			    bool record)
{
	/* A task woken before its last deadline passed would go on with its
	 * old period grid instead of starting one at this release. */
	uint64_t now = tb_clock_ns();
	if (now < sh->next_release)
		sleep_ns(sh->next_release - now);
	sh->jobs = jobs;
	__atomic_store_n(&sh->left, sh->ntasks, __ATOMIC_RELEASE);
	uint64_t anchor = tb_clock_ns();
	__atomic_add_fetch(&sh->go, 1, __ATOMIC_ACQ_REL);
	probe_futex(&sh->go, FUTEX_WAKE, INT_MAX, NULL);
	uint64_t until = anchor + jobs * sh->job_bound + DL_WAIT_NS;
	for (uint32_t l; (l = __atomic_load_n(&sh->left, __ATOMIC_ACQUIRE)) != 0;)
		if (probe_wait_while(&sh->left, l, until) != 0)
			return probe_fail(c, ETIMEDOUT, "%u of %u SCHED_DEADLINE tasks had not "
					  "done their %llu jobs in time", l, sh->ntasks,
					  (unsigned long long)jobs);
	sh->next_release = tb_clock_ns() + sh->period + sh->deadline;
	/* Every task is done with the release: their cut jobs are whole. */
	uint64_t cut = 0;
	for (unsigned i = 0; i < sh->ntasks; i++)
		cut += sh->t[i].cut;
	uint64_t cut_now = cut - sh->cut_seen;
	sh->cut_seen = cut;
	if (!record)
		return 0;
	probe_add_count(c, M_CUT, cut_now);
	uint64_t misses = 0;
	for (unsigned i = 0; i < sh->ntasks; i++) {
		const struct dl_job *slot = &sh->job[(size_t)i * sh->max_jobs];
		for (uint64_t k = 0; k < jobs; k++) {
			uint64_t rel = dl_release(anchor, sh->period, slot[k].start);
			misses += dl_missed(rel, sh->deadline, slot[k].done);
			probe_record(c, M_RESPONSE, slot[k].done - rel);
		}
	}
	probe_add_count(c, M_MISSES, misses);
	return 0;
}

/* ---------------------------------------------------- admission trials */

static void *dl_trial_main(void *arg)
{
	struct dl_trial *tr = arg;
	struct rtenv_attr dl = { .size = sizeof dl, .policy = SCHED_DEADLINE,
			      .deadline = DL_TRIAL_PERIOD_NS, .period = DL_TRIAL_PERIOD_NS };
	struct rtenv_attr orig = { .size = sizeof orig };
	uint32_t gen = 0;

	prefault_stack();
	rtenv_getattr(0, &orig);
	orig.size = sizeof orig;
	for (;;) {
		while (__atomic_load_n(&tr->cmd_gen, __ATOMIC_ACQUIRE) == gen)
			probe_futex(&tr->cmd_gen, FUTEX_WAIT, gen, NULL);
		gen = __atomic_load_n(&tr->cmd_gen, __ATOMIC_ACQUIRE);
		int cmd = tr->cmd;
		if (cmd == TRIAL_QUIT)
			break; /* exits running: a reservation held is released */
		/* Both switches are made by the thread itself while it runs. */
		dl.runtime = tr->runtime;
		const struct rtenv_attr *to = cmd == TRIAL_ADMIT ? &dl : &orig;
		tr->err = rtenv_setattr(0, to) == 0 ? 0 : errno;
		if (!tr->err)
			tr->held = cmd == TRIAL_ADMIT;
		__atomic_store_n(&tr->done_gen, gen, __ATOMIC_RELEASE);
		probe_futex(&tr->done_gen, FUTEX_WAKE, 1, NULL);
	}
	return NULL;
}

/* Give trial thread tr a command and wait for it. 0 or -errno after
 * probe_fail. */
static int dl_trial_cmd(struct probe_ctx *c, struct dl_trial *tr, int cmd, uint64_t runtime)
{
	tr->cmd = cmd;
	tr->runtime = runtime;
	uint32_t before = __atomic_load_n(&tr->done_gen, __ATOMIC_ACQUIRE);
	uint32_t gen = __atomic_add_fetch(&tr->cmd_gen, 1, __ATOMIC_ACQ_REL);
	probe_futex(&tr->cmd_gen, FUTEX_WAKE, 1, NULL);
	if (probe_wait_while(&tr->done_gen, before, tb_clock_ns() + DL_WAIT_NS) != 0 ||
	    __atomic_load_n(&tr->done_gen, __ATOMIC_ACQUIRE) != gen)
		return probe_fail(c, ETIMEDOUT, "a SCHED_DEADLINE admission trial thread did not "
				  "answer within 1 s");
	return 0;
}

/* The reservations other programs hold: every thread of every other
 * process with policy SCHED_DEADLINE (sched_getattr), in CPUs. Read with
 * getdents64 into buffers made beforehand. */
static double dl_others(struct dl_shared *sh)
{
	double sum = 0;
	pid_t self = getpid();
	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0)
		return 0;
	for (long n; (n = syscall(SYS_getdents64, proc, sh->dents[0], sizeof sh->dents[0])) > 0;) {
		for (long off = 0; off < n;) {
			const char *d = sh->dents[0] + off;
			unsigned short reclen;
			memcpy(&reclen, d + 16, sizeof reclen);
			const char *name = d + 19; /* d_ino 8, d_off 8, d_reclen 2, d_type 1 */
			off += reclen;
			long pid = strtol(name, NULL, 10);
			if (pid <= 0 || pid == self)
				continue;
			char path[48];
			snprintf(path, sizeof path, "/proc/%ld/task", pid);
			int td = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (td < 0)
				continue; /* gone */
			for (long m; (m = syscall(SYS_getdents64, td, sh->dents[1],
						  sizeof sh->dents[1])) > 0;) {
				for (long o = 0; o < m;) {
					const char *e = sh->dents[1] + o;
					memcpy(&reclen, e + 16, sizeof reclen);
					o += reclen;
					struct rtenv_attr a = { .size = sizeof a };
					long tid = strtol(e + 19, NULL, 10);
					if (tid > 0 &&
					    rtenv_getattr((pid_t)tid, &a) == 0 &&
					    a.policy == SCHED_DEADLINE && a.period)
						sum += (double)a.runtime / (double)a.period;
				}
			}
			close(td);
		}
	}
	close(proc);
	return sum;
}

/* One set of `k` requests of `bw` CPUs each on top of `held`, judged one
 * by one, then every reservation given back. 0 or -errno after probe_fail. */
static int dl_trial_set(struct probe_ctx *c, struct dl_shared *sh, double held, unsigned k,
			double bw)
{
	uint64_t runtime = (uint64_t)(bw * DL_TRIAL_PERIOD_NS) / 1000 * 1000;
	double u = (double)runtime / DL_TRIAL_PERIOD_NS, got = 0;
	unsigned errors = 0;
	int rc = 0;
	for (unsigned i = 0; i < k && !rc; i++) {
		struct dl_trial *tr = &sh->tr[i];
		if ((rc = dl_trial_cmd(c, tr, TRIAL_ADMIT, runtime)) != 0)
			break;
		if (tr->err && tr->err != EBUSY) {
			rc = probe_fail(c, tr->err, "admission trial: sched_setattr(SCHED_DEADLINE, "
					"runtime %llu ns every %llu ns): %s (%s)",
					(unsigned long long)runtime, DL_TRIAL_PERIOD_NS,
					probe_errname(tr->err), strerror(tr->err));
			break;
		}
		bool admitted = tr->err == 0;
		unsigned e = dl_admission_judge(&sh->cap, held + got, u, admitted);
		if (dl_admission_judged(&sh->cap, held + got + u))
			sh->judged++;
		else
			sh->unjudged++;
		errors += e;
		if (admitted)
			got += u;
	}
	for (unsigned i = 0; i < k; i++)
		if (sh->tr[i].held) {
			int r = dl_trial_cmd(c, &sh->tr[i], TRIAL_REVERT, 0);
			if (!rc)
				rc = r;
		}
	sleep_ns(DL_TRIAL_SETTLE_NS);
	sh->trial_sets++;
	probe_add_count(c, M_ADMISSION, errors);
	return rc;
}

/* How many requests of `bw` the over-limit set makes: until the total
 * passes cap.over, and one more. */
static unsigned dl_over_count(const struct dl_capacity *cap, double held, double bw)
{
	double room = cap->over - held;
	return room < 0 ? 2u : (unsigned)(room / bw) + 2u;
}

/* This run's trials: a set that fits, then one past the limit (none when
 * the kernel does not limit). 0 or -errno after probe_fail. */
static int dl_trials(struct probe_ctx *c, struct dl_shared *sh)
{
	double others = dl_others(sh);
	if (others > sh->others_max)
		sh->others_max = others;
	double held = others + sh->own;
	unsigned k = sh->cap.cpus;
	double room = sh->cap.unlimited ? 0.5 * k : sh->cap.fit - held;
	int rc = 0;
	if (room > 0.01 * k) {
		double bw = room / k > DL_TRIAL_OVER_BW ? DL_TRIAL_OVER_BW : room / k;
		rc = dl_trial_set(c, sh, held, k, bw);
	}
	if (!rc && !sh->cap.unlimited) {
		unsigned n = dl_over_count(&sh->cap, held, DL_TRIAL_OVER_BW);
		rc = dl_trial_set(c, sh, held, n < sh->ntrials ? n : sh->ntrials, DL_TRIAL_OVER_BW);
	}
	return rc;
}

/* -------------------------------------------------------------- set-up */

static long read_long(const char *path, long fallback)
{
	char buf[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fallback;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return fallback;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* The parameters in ns, and whether the counts fit the bounds. 0 or -errno
 * after probe_fail. */
static int dl_shape(struct probe_ctx *c, struct dl_shared *sh)
{
	static const char *const names[] = { "runtime", "deadline", "period", "work" };
	uint64_t *ns[] = { &sh->runtime, &sh->deadline, &sh->period, &sh->work };
	uint64_t n;
	char why[160], a[32], b[32];
	if (units_count_parse(probe_value(c, "tasks"), DL_MAX_TASKS, &n, why, sizeof why))
		return probe_fail(c, EINVAL, "tasks: %s", why);
	sh->ntasks = (unsigned)n;
	for (unsigned i = 0; i < 4; i++)
		if (units_duration_parse_ns(probe_value(c, names[i]), false, ns[i], why, sizeof why))
			return probe_fail(c, EINVAL, "%s: %s", names[i], why);
	/* A job takes ceil(work / runtime) periods of its reservation; it is
	 * cut short two periods after that. */
	uint64_t periods = (sh->work + sh->runtime - 1) / sh->runtime;
	sh->job_bound = (periods + 2) * sh->period;
	sh->max_jobs = c->warmup > c->iterations ? c->warmup : c->iterations;
	long double run = (long double)sh->max_jobs * periods * sh->period;
	if (run > DL_MAX_RUN_NS) {
		units_fmt_ns((double)run, a, sizeof a);
		units_fmt_ns((double)DL_MAX_RUN_NS, b, sizeof b);
		return probe_fail(c, E2BIG, "a run (or the warm-up) of %llu jobs would last %s, "
				  "over %s: lower the iterations (or warm-up) or the period",
				  (unsigned long long)sh->max_jobs, a, b);
	}
	/* Each run also makes its admission trials (a few periods of theirs). */
	long double all = ((long double)c->warmup + (long double)c->runs * c->iterations) *
			  periods * sh->period + c->runs * 4.0L * DL_TRIAL_SETTLE_NS;
	if (c->timeout_ns && all >= (long double)c->timeout_ns) {
		units_fmt_ns((double)all, a, sizeof a);
		units_fmt_ns((double)c->timeout_ns, b, sizeof b);
		return probe_fail(c, ETIME, "(warmup + runs x iterations) jobs take at least %s, "
				  "not less than the timeout of %s: raise <run timeout> or lower "
				  "the counts", a, b);
	}
	sh->own = sh->ntasks * (double)sh->runtime / (double)sh->period;
	return 0;
}

/* The CPUs of the root domain (the worker's, which must be every online
 * CPU) and the kernel's bandwidth limit into sh->cap. 0 or -errno after
 * probe_fail. */
static int dl_capacity(struct probe_ctx *c, struct dl_shared *sh)
{
	cpu_set_t mine;
	if (c->cpu >= 0)
		return probe_fail(c, EINVAL, "SCHED_DEADLINE refuses a task whose CPU affinity "
				  "does not span its whole root domain: remove <sched cpu> (the "
				  "worker is pinned to CPU %d)", c->cpu);
	if (sched_getaffinity(0, sizeof mine, &mine) != 0)
		return probe_fail(c, errno, "sched_getaffinity: %s", strerror(errno));
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = (unsigned)CPU_COUNT(&mine);
	if (online > 0 && n < (unsigned)online)
		return probe_fail(c, EINVAL, "SCHED_DEADLINE refuses a task whose CPU affinity "
				  "does not span its whole root domain: the worker may use %u of "
				  "the %ld online CPUs (run rtconform on all of them)", n, online);
	long rt = read_long("/proc/sys/kernel/sched_rt_runtime_us", 950000);
	long per = read_long("/proc/sys/kernel/sched_rt_period_us", 1000000);
	dl_capacity_set(&sh->cap, n, rt, per);
	/* The most requests a set makes: the over-limit set with nothing
	 * held by others. */
	unsigned most = dl_over_count(&sh->cap, sh->own, DL_TRIAL_OVER_BW);
	sh->ntrials = most > n ? most : n;
	if (sh->ntrials > DL_MAX_TRIALS)
		return probe_fail(c, E2BIG, "the admission trials on %u CPUs would need %u "
				  "threads, over %u", n, sh->ntrials, DL_MAX_TRIALS);
	if (!sh->cap.unlimited && sh->own > sh->cap.fit)
		return probe_fail(c, EINVAL, "the tasks reserve %.2f CPUs, more than %.2f (the "
				  "kernel's limit %.2f less the margin)", sh->own, sh->cap.fit,
				  sh->cap.limit);
	return 0;
}

/* Zeroed memory aligned for the futex words' cache lines. */
static void *dl_zalloc(size_t size)
{
	size = (size + 63) / 64 * 64;
	void *p = aligned_alloc(64, size);
	if (p)
		memset(p, 0, size);
	return p;
}

/* A task or trial thread under the worker's own policy, checked at the
 * kernel before it runs; it switches itself to SCHED_DEADLINE later. */
static int dl_thread(struct probe_ctx *c, const char *task, pthread_t *th,
		     void *(*fn)(void *), void *arg)
{
	int rc = probe_start_thread(c, task, th, c->policy, c->priority, NULL, DL_STACK_BYTES,
				    fn, arg);
	return rc ? probe_fail(c, rc, "pthread_create: %s", strerror(rc)) : 0;
}

/* Why a task's switch to SCHED_DEADLINE failed, as an error. */
static int dl_refused(struct probe_ctx *c, const struct dl_shared *sh, unsigned i, int err)
{
	const char *why;
	switch (err) {
	case EPERM:
		why = "no privilege (it needs root or CAP_SYS_NICE), or a CPU affinity "
		      "that does not span the root domain, or a cgroup that forbids it";
		break;
	case EBUSY:
		why = "admission control: the SCHED_DEADLINE bandwidth is taken by other "
		      "reservations";
		break;
	case EINVAL:
		why = "parameters outside the kernel's limits "
		      "(/proc/sys/kernel/sched_deadline_period_*_us), or no SCHED_DEADLINE";
		break;
	case ENOSYS:
		why = "no sched_setattr system call in this kernel";
		break;
	default:
		why = strerror(err);
	}
	return probe_fail(c, err, "SCHED_DEADLINE refused for task %u (runtime %llu ns, "
			  "deadline %llu ns, period %llu ns): %s: %s", i,
			  (unsigned long long)sh->runtime, (unsigned long long)sh->deadline,
			  (unsigned long long)sh->period, probe_errname(err), why);
}

/* Start the tasks (each switches itself to SCHED_DEADLINE) and the trial
 * threads; *made counts those started. 0 or -errno after probe_fail. */
static int dl_start(struct probe_ctx *c, struct dl_shared *sh, unsigned *tasks,
		    unsigned *trials)
{
	int rc = 0;
	for (unsigned i = 0; i < sh->ntasks && !rc; i++) {
		sh->t[i] = (struct dl_task){ .sh = sh, .idx = i };
		if ((rc = dl_thread(c, "a SCHED_DEADLINE task", &sh->t[i].thread, dl_task_main, &sh->t[i])) == 0)
			++*tasks;
	}
	for (uint32_t r; (r = __atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE)) < *tasks;)
		if (probe_wait_while(&sh->ready, r, tb_clock_ns() + DL_WAIT_NS) != 0)
			return rc ? rc : probe_fail(c, ETIMEDOUT, "SCHED_DEADLINE tasks did not "
						    "start within 1 s");
	for (unsigned i = 0; i < *tasks && !rc; i++)
		if (sh->t[i].err)
			rc = dl_refused(c, sh, i, sh->t[i].err);
	for (unsigned i = 0; i < sh->ntrials && !rc; i++) {
		sh->tr[i].sh = sh;
		if ((rc = dl_thread(c, "an admission trial thread", &sh->tr[i].thread, dl_trial_main, &sh->tr[i])) == 0)
			++*trials;
	}
	return rc;
}

/* Tell every thread to leave (each exits while it runs) and join them. */
static void dl_quit(struct dl_shared *sh, unsigned tasks, unsigned trials)
{
	sh->quit = 1;
	__atomic_add_fetch(&sh->go, 1, __ATOMIC_ACQ_REL);
	probe_futex(&sh->go, FUTEX_WAKE, INT_MAX, NULL);
	for (unsigned i = 0; i < trials; i++) {
		sh->tr[i].cmd = TRIAL_QUIT;
		__atomic_add_fetch(&sh->tr[i].cmd_gen, 1, __ATOMIC_ACQ_REL);
		probe_futex(&sh->tr[i].cmd_gen, FUTEX_WAKE, 1, NULL);
	}
	for (unsigned i = 0; i < tasks; i++)
		pthread_join(sh->t[i].thread, NULL);
	for (unsigned i = 0; i < trials; i++)
		pthread_join(sh->tr[i].thread, NULL);
}

/* -------------------------------------------------------------- running */

/* The warm-up, then every run: admission trials, then `iterations` jobs of
 * every task. */
static int dl_measure(struct probe_ctx *c, struct dl_shared *sh)
{
	int rc = 0;
	c->res->state = WS_WARMUP;
	if (c->warmup)
		rc = dl_release_tasks(c, sh, c->warmup, false);
	for (uint32_t r = 0; r < c->runs && !rc && !*c->stop; r++) {
		probe_run_begin(c, r);
		rc = dl_trials(c, sh);
		if (!rc && !*c->stop)
			rc = dl_release_tasks(c, sh, c->iterations, true);
		/* 0: a run's time / jobs is no figure of this probe. */
		probe_run_end(c, 0);
	}
	return rc;
}

static void dl_note(struct probe_ctx *c, const struct dl_shared *sh)
{
	char rt[32], dl[32], per[32], work[32];
	uint64_t cut = 0;
	for (unsigned i = 0; i < sh->ntasks; i++)
		cut += sh->t[i].cut;
	units_fmt_ns((double)sh->runtime, rt, sizeof rt);
	units_fmt_ns((double)sh->deadline, dl, sizeof dl);
	units_fmt_ns((double)sh->period, per, sizeof per);
	units_fmt_ns((double)sh->work, work, sizeof work);
	char limit[48];
	if (sh->cap.unlimited)
		snprintf(limit, sizeof limit, "no admission limit (sched_rt_runtime_us -1)");
	else
		snprintf(limit, sizeof limit, "limit %.2f CPUs", sh->cap.limit);
	char *note = c->res->note;
	size_t len = sizeof c->res->note;
	int used = snprintf(note, len, "%u tasks: runtime %s, deadline %s, period %s, work %s "
			    "(%.2f CPUs reserved); %u CPUs, %s; ", sh->ntasks, rt, dl, per, work,
			    sh->own, sh->cap.cpus, limit);
	if (used > 0 && (size_t)used < len)
		snprintf(note + used, len - (size_t)used, "%llu admission requests judged, %llu "
			 "too near the limit; others held up to %.2f CPUs; %llu jobs cut at "
			 "their time bound.", (unsigned long long)sh->judged,
			 (unsigned long long)sh->unjudged, sh->others_max, (unsigned long long)cut);
}

static int dl_run(struct probe_ctx *c)
{
	struct dl_shared *sh = dl_zalloc(sizeof *sh);
	if (!sh)
		return probe_fail(c, ENOMEM, "deadline: %s", strerror(ENOMEM));
	sh->stop = c->stop;
	sh->c = c;
	int rc = dl_shape(c, sh);
	if (!rc)
		rc = dl_capacity(c, sh);
	if (!rc && (!(sh->t = dl_zalloc(sh->ntasks * sizeof *sh->t)) ||
		    !(sh->tr = dl_zalloc(sh->ntrials * sizeof *sh->tr)) ||
		    !(sh->job = dl_zalloc(sh->ntasks * sh->max_jobs * sizeof *sh->job))))
		rc = probe_fail(c, ENOMEM, "deadline: %s", strerror(ENOMEM));
	/* Responses are CLOCK_MONOTONIC_RAW ns (the clock the kernel's periods
	 * run on, unslewed), not timebase ticks: no cycle figures. */
	c->m[M_RESPONSE]->ns_per_unit = 1.0;
	c->m[M_RESPONSE]->cycles_per_unit = 0.0;
	unsigned tasks = 0, trials = 0;
	if (!rc)
		rc = dl_start(c, sh, &tasks, &trials);
	if (!rc)
		rc = dl_measure(c, sh);
	dl_quit(sh, tasks, trials);
	if (!rc)
		dl_note(c, sh);
	free(sh->job);
	free(sh->tr);
	free(sh->t);
	free(sh);
	return rc;
}

/* The parameters' bounds and how they relate (runtime <= deadline <=
 * period, work <= period and 4 x runtime, at most half a CPU reserved). */
static const char *dl_check(const char *const *values, char *buf, size_t len)
{
	static const char *const names[] = { "runtime", "deadline", "period", "work" };
	uint64_t ns[4], n;
	char err[160];
	for (unsigned i = 0; i < 4; i++)
		if (units_duration_parse_ns(values[P_RUNTIME + i], false, &ns[i], err, sizeof err)) {
			snprintf(buf, len, "probe deadline: %s: %s", names[i], err);
			return buf;
		}
	uint64_t rt = ns[0], dl = ns[1], per = ns[2], work = ns[3];
	const char *const *v = values;
	if (units_count_parse(v[P_TASKS], UINT64_MAX, &n, err, sizeof err) || n > DL_MAX_TASKS)
		snprintf(buf, len, "probe deadline: tasks %s is outside 1 .. 16", v[P_TASKS]);
	else if (per < DL_MIN_PERIOD_NS || per > DL_MAX_PERIOD_NS)
		snprintf(buf, len, "probe deadline: period %s is outside 1ms .. 100ms", v[P_PERIOD]);
	else if (rt < DL_MIN_RUNTIME_NS || rt > dl || dl > per)
		snprintf(buf, len, "probe deadline: runtime %s, deadline %s, period %s: need "
			 "100us <= runtime <= deadline <= period", v[P_RUNTIME], v[P_DEADLINE],
			 v[P_PERIOD]);
	else if (work < DL_MIN_WORK_NS || work > per || work > 4 * rt)
		snprintf(buf, len, "probe deadline: work %s is outside 10us .. the period and "
			 "4 x the runtime", v[P_WORK]);
	else if ((double)n * (double)rt / (double)per > DL_MAX_BW + 1e-9)
		snprintf(buf, len, "probe deadline: tasks %s x runtime %s / period %s reserve "
			 "more than 0.5 CPU", v[P_TASKS], v[P_RUNTIME], v[P_PERIOD]);
	else
		return NULL;
	return buf;
}

/* The tasks measured are SCHED_DEADLINE: runtime/deadline/period, as the
 * file gives them (the worker that sets them up is at the <sched> policy). */
static const char *dl_policy(const char *const *values, int priority, char *buf, size_t len)
{
	(void)priority;
	snprintf(buf, len, "deadline %s/%s/%s", values[P_RUNTIME], values[P_DEADLINE],
		 values[P_PERIOD]);
	return buf;
}

/* One job a period; a job whose work exceeds its runtime is throttled to
 * the next period for each runtime it used up, and its yield waits for
 * one more: work 2 ms of runtime 1 ms takes three periods. Each run's
 * admission trials settle for a few trial periods. */
static void dl_pace(const char *const *values, struct probe_pace *out)
{
	double runtime = probe_decl_value_s(values[P_RUNTIME]);
	double work = probe_decl_value_s(values[P_WORK]);
	double periods = work > runtime && runtime > 0 ? (double)(uint64_t)(work / runtime) + 1 : 1;
	out->iteration_s = periods * probe_decl_value_s(values[P_PERIOD]);
	out->run_s = 4.0 * DL_TRIAL_SETTLE_NS / 1e9;
}

const struct probe probe_deadline = {
	.decl.name = "deadline",
	.decl.pace = dl_pace,
	.decl.verifies = "each task and admission-trial thread under the worker's policy when it "
		"starts, and each task's SCHED_DEADLINE runtime, deadline and period once "
		"it switched (sched_getattr)",
	.decl.help = "SCHED_DEADLINE: admission control refuses what exceeds the bandwidth "
		"limit and admits what fits; periodic jobs within their runtime meet their "
		"deadlines; iterations = jobs per task per run",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.check = dl_check,
	.decl.policy = dl_policy,
	.run = dl_run,
	.mostly_sleeps = true,
};
