/* SPDX-License-Identifier: Apache-2.0 */
/* sem_pingpong.c - wake-up ping-pong between two tasks over one of seven
 * mechanisms (the SPY memo's semaphore budget, docs/background.md, widened to
 * rt-tests' ptsematest / svsematest).
 *
 * A (the worker) and B (its peer: a forked process or a thread A creates)
 * share a two-way channel (ipc.h). B waits for A's post and posts back; A
 * posts and waits. One cycle = two posts, two wake-ups and, on one CPU, two
 * context switches.
 *
 * Metrics:
 *   per-op  each cycle timed on its own in A, recorded as cycle / 2 (the
 *           scale halves it, so no precision is lost): the SPY memo's figure;
 *   wakeup  from just before a post to the moment its waiter returns: the
 *           poster stores its clock in shared memory right before posting,
 *           the waiter subtracts it from its own clock on return. Both
 *           directions are recorded, A->B by B and B->A by A, into the same
 *           histogram: the ping-pong itself orders the two writers (each
 *           records only between its wait returning and its next post,
 *           while the other is blocked), so no lock is needed.
 *   unanswered-waits  waits that returned without the post that answers
 *           them (a violation metric: must be 0, docs/probes.md).
 *
 * Every hand-off is checked (issue 37): A numbers its posts to B 1, 2, ...
 * and stores the number in shared memory just before posting (before its
 * clock read); B stores the number it answers just before its post back
 * (its ready post answers 0). A wait was answered when, once it returned,
 * the number is the one its post carries: B's when A's number moved past
 * the last one B answered, A's when B's number is the one A just posted.
 * A wait that returned otherwise is counted, waited again (the post it
 * missed is still to come, or already pending, and the next wait consumes
 * it, so the two sides stay in step) and its round trip is not recorded:
 * its figures would be the broken primitive's, not a hand-off. A checks
 * after its clock read, outside the timed interval; B's check, a load and
 * a compare on the line it reads anyway, is inside A's interval, as B's
 * whole turn is (ci/bench ipc: within the noise).
 *
 * pairs=per-cpu (ptsematest -S): one pair per selected CPU (param cpus), A
 * and B of a pair both pinned to it, every pair measuring at once. Each A
 * is a thread of the worker; the worker's main thread only opens and
 * closes the runs, meeting the pairs at two barriers between runs (as
 * timer-wakeup does). A pair writes only its own memory: per-op into its
 * CPU's series (merged into per-op between runs, result_merge_series),
 * wakeup into a block of its own mapped before the peers (merged into
 * wakeup between runs and at the end), its hand-off numbers and counts in
 * its own shared line.
 */
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/measure/rtenv.h"
#include "harness/measure/probes/ipc.h"
#include "harness/measure/probes/probes.h"

/* The mechanisms, in the order of the parameter's values. Every one works
 * with both peers and every placement: each object lives in shared memory,
 * an inherited descriptor or a kernel key, so no combination is invalid
 * (pp_check only refuses a name with no implementation). */
static const struct ipc_mech *const pp_mechs[] = {
	&ipc_posix_sem, &ipc_named_sem, &ipc_sysv_sem, &ipc_futex,
	&ipc_mutex_cond, &ipc_pipe, &ipc_eventfd,
};

static const char *const mechanisms[] = {
	"posix-sem", "posix-named-sem", "sysv-sem", "futex", "mutex-cond", "pipe", "eventfd", NULL,
};
static const char *const peers[] = { "process", "thread", NULL };
static const char *const placements[] = { "same-cpu", "cross-cpu", "unpinned", NULL };
static const char *const pairings[] = { "one", "per-cpu", NULL };

enum { P_MECHANISM, P_PEER, P_PLACEMENT, P_PAIRS, P_CPUS };

static const struct probe_param params[] = {
	[P_MECHANISM] = { "mechanism",
	  "posix-sem: unnamed POSIX semaphores (sem_init); posix-named-sem: sem_open; "
	  "sysv-sem: semop on a two-semaphore set; futex: FUTEX_WAIT/FUTEX_WAKE on a word; "
	  "mutex-cond: pthread mutex + condition variable; pipe: one byte each way; "
	  "eventfd: one eventfd each way", PARAM_ENUM, mechanisms, "posix-sem" },
	[P_PEER] = { "peer", "process: B is forked (objects process-shared); thread: B is a "
		     "pthread of the worker with the same policy and priority",
		     PARAM_ENUM, peers, "process" },
	[P_PLACEMENT] = { "placement", "same-cpu: A and B pinned to one CPU (every wake-up switches "
			  "context); cross-cpu: pinned to two CPUs; unpinned: the scheduler decides",
			  PARAM_ENUM, placements, "same-cpu" },
	[P_PAIRS] = { "pairs", "one: one pair, placed by placement; per-cpu: one pair on every CPU "
		      "of cpus, both tasks of a pair pinned to it, all measuring at once, per-op "
		      "per CPU beside the merged figures (ptsematest -S)",
		      PARAM_ENUM, pairings, "one" },
	[P_CPUS] = { "cpus", "pairs=per-cpu: the CPUs with a pair, all (the CPUs rtconform may "
		     "use; the <sched cpu> one when given) or a list such as 0,2-3",
		     PARAM_CPULIST, NULL, "all" },
};

enum { M_PER_OP, M_WAKEUP, M_UNANSWERED };

static const struct probe_metric metrics[] = {
	[M_PER_OP] = { "per-op", "one post plus the wake-up it causes: a cycle / 2 (SPY memo)",
	  METRIC_DURATION },
	[M_WAKEUP] = { "wakeup", "one-way: from just before a post until the waiter returns "
			"(what ptsematest and svsematest report)", METRIC_DURATION },
	[M_UNANSWERED] = { "unanswered-waits", "waits of either side that returned without the "
			   "other side's post (checked by sequence number; must be 0)",
			   METRIC_COUNT },
};

/* The probe's shared memory (anonymous, MAP_SHARED, made before the peer). */
struct pp_shared {
	struct ipc_chan ch;
	/* One line for everything the two sides hand over; each field is
	 * written by one side before a post and read by the other after the
	 * matching wait, which orders the accesses. */
	_Alignas(64) volatile uint64_t t_post[2]; /* poster's clock just before posting */
	/* The hand-off numbers: seq[IPC_TO_B] A's latest post, seq[IPC_TO_A]
	 * the one of A's that B answered last (its ready post: 0). */
	volatile uint64_t seq[2];
	volatile uint32_t run;         /* run B records into */
	volatile uint32_t measuring;   /* B records only while set (not in warm-up) */
	volatile uint32_t stop;        /* B leaves at its next wake-up */
	volatile uint32_t peer_failed; /* B could not go on (reason in res) */
	/* Waits that returned unanswered, per direction: the waiter's count
	 * (one writer each), written before its next post. */
	volatile uint64_t unanswered[2];
	/* Wake-ups whose waiter read the clock before the poster did (clocks
	 * of two CPUs out of step), per direction: each has one writer. */
	uint64_t behind[2];
	/* B's CPU as sched_getcpu read it at its ready post and at its stop
	 * (pairs=per-cpu checks both). */
	volatile int32_t b_cpu[2];
};

/* What A keeps of the hand-offs: how many unanswered waits it has added
 * to the runs' counts, the round trips not recorded, the first one. */
struct pp_check {
	uint64_t added, seen_b, skipped;
	uint64_t first_trip;      /* 1-based, in its run; 0: the ready post */
	uint32_t first_run;       /* UINT32_MAX: the warm-up */
	int first_dir;            /* -1: none yet */
};

struct pp_peer {
	const struct probe_ctx *c;
	struct pp_shared *sh;
	const struct ipc_mech *ops;
	struct metric_data *wake; /* where B records its wake-ups */
	int cpu;
};

static inline uint64_t since(uint64_t now, uint64_t then, uint64_t *behind)
{
	if (__builtin_expect(now >= then, 1))
		return now - then;
	/* Recorded as 0 rather than dropped, and counted in the note (describe). */
	(*behind)++;
	return 0;
}

static const struct ipc_mech *mech_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof pp_mechs / sizeof pp_mechs[0]; i++)
		if (strcmp(pp_mechs[i]->name, name) == 0)
			return pp_mechs[i];
	return NULL;
}

static const char *pp_check(const char *const *values, char *buf, size_t len)
{
	const struct ipc_mech *ops = mech_find(values[P_MECHANISM]);
	bool per_cpu = strcmp(values[P_PAIRS], "per-cpu") == 0;
	if (!ops)
		snprintf(buf, len, "mechanism %s has no implementation in this build",
			 values[P_MECHANISM]);
	else if (!per_cpu && strcmp(values[P_CPUS], "all") != 0)
		snprintf(buf, len, "probe sem-pingpong: parameter cpus=%s needs pairs=per-cpu "
			 "(one pair is placed by placement)", values[P_CPUS]);
	else if (per_cpu && strcmp(values[P_PLACEMENT], "same-cpu") != 0)
		snprintf(buf, len, "probe sem-pingpong: pairs=per-cpu pins both tasks of a pair to "
			 "its CPU: placement %s does not apply (leave it same-cpu)",
			 values[P_PLACEMENT]);
	else if (per_cpu && (ops == &ipc_named_sem || ops == &ipc_sysv_sem))
		snprintf(buf, len, "probe sem-pingpong: pairs=per-cpu cannot use mechanism %s: "
			 "a worker's cleanup record names the kernel objects of one pair only",
			 values[P_MECHANISM]);
	else
		return NULL;
	return buf;
}

/* B's side, in a forked process or a thread. Returns 0 or -errno. */
static int peer_loop(const struct pp_peer *p)
{
	const struct probe_ctx *c = p->c;
	struct pp_shared *sh = p->sh;
	struct ipc_chan *ch = &sh->ch;
	const char *op = "post";
	uint64_t answered = 0; /* A's number B answered last */
	int rc;

	sh->seq[IPC_TO_A] = 0;
	sh->b_cpu[0] = sched_getcpu();
	if ((rc = p->ops->post(ch, IPC_TO_A)) != 0) /* ready */
		goto failed;
	for (;;) {
		op = "wait";
		if ((rc = p->ops->wait(ch, IPC_TO_B)) != 0)
			goto failed;
		uint64_t now = tb_now();
		uint64_t n = sh->seq[IPC_TO_B];
		if (__builtin_expect(n == answered, 0)) {
			/* No post of A's since the last one answered. */
			sh->unanswered[IPC_TO_B]++;
			continue;
		}
		answered = n;
		if (sh->stop) {
			sh->b_cpu[1] = sched_getcpu();
			return 0;
		}
		if (sh->measuring)
			metric_record(p->wake, sh->run,
				      since(now, sh->t_post[IPC_TO_B], &sh->behind[IPC_TO_B]));
		op = "post";
		sh->t_post[IPC_TO_A] = tb_now();
		sh->seq[IPC_TO_A] = n;
		if ((rc = p->ops->post(ch, IPC_TO_A)) != 0)
			goto failed;
	}
failed:
	probe_fail(c, rc, "peer: %s %s: %s (%s)", p->ops->name, op, probe_errname(rc),
		   strerror(-rc));
	sh->peer_failed = 1;
	p->ops->post(ch, IPC_TO_A); /* do not leave A waiting for the watchdog */
	return rc;
}

static void *peer_thread(void *arg)
{
	peer_loop(arg);
	return NULL;
}

/* B as a thread of the worker: its policy, priority and CPU in its
 * attributes, checked at the kernel before it runs (probe_start_thread). */
static int start_thread(const struct pp_peer *p, pthread_t *tid)
{
	const struct probe_ctx *c = p->c;
	cpu_set_t set;
	CPU_ZERO(&set);
	if (p->cpu >= 0)
		CPU_SET(p->cpu, &set);
	int rc = probe_start_thread(c, "the peer thread", tid, c->policy, c->priority,
				    p->cpu >= 0 ? &set : NULL, 256 * 1024, peer_thread, (void *)p);
	if (rc)
		return probe_fail(c, rc, "peer thread: pthread_create: %s (%s)", probe_errname(rc),
				  strerror(rc));
	return 0;
}

static int start_process(const struct pp_peer *p, pid_t *pid)
{
	*pid = fork();
	if (*pid < 0) {
		int e = errno;
		return probe_fail(p->c, e, "fork of the peer process: %s (%s)",
				  probe_errname(e), strerror(e));
	}
	if (*pid == 0) {
		/* mlockall, pinning, policy; death with the worker. */
		if (probe_peer_setup(p->c, "the peer process", p->cpu, p->c->priority) != 0) {
			p->sh->peer_failed = 1;
			p->ops->post(&p->sh->ch, IPC_TO_A);
			_exit(1);
		}
		_exit(peer_loop(p) == 0 ? 0 : 1);
	}
	return 0;
}

/* The first unanswered wait in words, into res->violation (the failed
 * limit quotes it). */
static void pp_first_words(struct probe_ctx *c, const struct ipc_mech *ops,
			   const struct pp_check *k, int pair_cpu)
{
	char where[120], pair[32] = "";
	if (pair_cpu >= 0)
		snprintf(pair, sizeof pair, "the pair of CPU %d, ", pair_cpu);
	bool peer = k->first_dir == IPC_TO_B;
	if (k->first_run == UINT32_MAX && k->first_trip == 0)
		snprintf(where, sizeof where, "the worker's first wait, for the peer's ready post");
	else if (k->first_run == UINT32_MAX)
		snprintf(where, sizeof where, "warm-up round trip %llu of %llu",
			 (unsigned long long)k->first_trip, (unsigned long long)c->warmup);
	else
		snprintf(where, sizeof where, "run %u, round trip %llu of %llu", k->first_run + 1,
			 (unsigned long long)k->first_trip, (unsigned long long)c->iterations);
	snprintf(c->res->violation, sizeof c->res->violation,
		 "%s%s: the %s's %s (%s) returned without the %s's post", pair, where,
		 peer ? "peer" : "worker", ops->wait_call, ops->name, peer ? "worker" : "peer");
}

/* The result's note: what a reader of the figures should know, appended to
 * what it says (a pair's, pairs=per-cpu: pair_cpu its CPU, else -1). After
 * the peer is gone, so that its count is whole. */
static void describe(struct probe_ctx *c, const struct pp_shared *sh, const struct ipc_mech *ops,
		     const struct pp_check *k, int cpu_a, int cpu_b, int pair_cpu)
{
	uint64_t behind = sh->behind[0] + sh->behind[1];
	uint64_t after = sh->unanswered[IPC_TO_A] + sh->unanswered[IPC_TO_B] - k->added;
	size_t len = sizeof c->res->note;
	char *note = c->res->note;
	size_t used = strlen(note);
	if (used && used + 1 < len && (behind || k->skipped || after))
		note[used++] = ' ';
	if (behind)
		used += (size_t)snprintf(note + used, len - used, "%llu wakeups recorded as 0: the waiter's clock "
					 "read before the poster's (CPUs %d and %d out of step). ",
					 (unsigned long long)behind, cpu_a, cpu_b);
	if (k->skipped && used < len)
		used += (size_t)snprintf(note + used, len - used, "%llu round trips not recorded: "
					 "a wait in each returned without its post. ",
					 (unsigned long long)k->skipped);
	if (after && used < len)
		used += (size_t)snprintf(note + used, len - used, "%llu more unanswered waits after "
					 "the last run, for the peer's stop (in no run's count). ",
					 (unsigned long long)after);
	if (used && used < len && note[used - 1] == ' ')
		note[used - 1] = 0; /* the last sentence's space */
	if (k->first_dir >= 0 && !c->res->violation[0])
		pp_first_words(c, ops, k, pair_cpu);
}

/* The shared lines of n pairs, zeroed, and the scales of both metrics. 0
 * or -errno after probe_fail; munmap n * sizeof **shp bytes. */
static int pp_map(struct probe_ctx *c, bool thread, int n, struct pp_shared **shp)
{
	struct pp_shared *sh = mmap(NULL, (size_t)n * sizeof *sh, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		int e = errno;
		return probe_fail(c, e, "mmap of the shared channel: %s (%s)", probe_errname(e),
				  strerror(e));
	}
	memset(sh, 0, (size_t)n * sizeof *sh);
	for (int i = 0; i < n; i++) {
		sh[i].ch.pshared = !thread;
		sh[i].seq[IPC_TO_A] = UINT64_MAX; /* until B's ready post answers 0 */
	}
	probe_set_scale(c, M_PER_OP, 0.5);
	probe_set_scale(c, M_WAKEUP, 1.0);
	*shp = sh;
	return 0;
}

/* A round trip (or A's wait for B's ready post, n 0) whose waits were not
 * all answered: B counted one of its own since A last looked, or B's
 * number is not yet n. A waits again until B's answer to n came, counting
 * each return without it, and notes the first. Out of the loop's way:
 * runs only when a primitive broke its word. 0, -errno of a failed wait,
 * or 1: B failed (it said why). */
static __attribute__((noinline, cold)) int
pp_resync(struct pp_shared *sh, const struct ipc_mech *ops, uint64_t n, struct pp_check *k,
	  uint32_t run, uint64_t trip)
{
	int dir = -1;
	if (sh->unanswered[IPC_TO_B] != k->seen_b) {
		k->seen_b = sh->unanswered[IPC_TO_B];
		dir = IPC_TO_B; /* B waits first in a round trip */
	}
	while (sh->seq[IPC_TO_A] != n) {
		sh->unanswered[IPC_TO_A]++;
		if (dir < 0)
			dir = IPC_TO_A;
		int rc = ops->wait(&sh->ch, IPC_TO_A);
		if (rc)
			return rc;
		if (sh->peer_failed)
			return 1;
	}
	if (dir >= 0 && k->first_dir < 0) {
		k->first_dir = dir;
		k->first_run = run;
		k->first_trip = trip;
	}
	return 0;
}

/* Whether A must resync after its wait for B's answer to n. */
static inline bool pp_unanswered(const struct pp_shared *sh, uint64_t n, const struct pp_check *k)
{
	return __builtin_expect(sh->seq[IPC_TO_A] != n || sh->unanswered[IPC_TO_B] != k->seen_b, 0);
}

/* The unanswered waits since the last run's end into run c->run's count
 * (the first run's holds the ready wait's and the warm-up's). */
static void pp_count(struct probe_ctx *c, struct pp_shared *sh, struct pp_check *k)
{
	uint64_t total = sh->unanswered[IPC_TO_A] + sh->unanswered[IPC_TO_B];
	probe_add_count(c, M_UNANSWERED, total - k->added);
	k->added = total;
}

/* The ready wait and the warm-up: hand-offs 1 .. warmup, checked, untimed. */
static int pp_warm(struct probe_ctx *c, struct pp_shared *sh, const struct ipc_mech *ops,
		   struct pp_check *k, const char **op)
{
	struct ipc_chan *ch = &sh->ch;
	int rc;
	*op = "wait";
	if ((rc = ops->wait(ch, IPC_TO_A)) != 0 || sh->peer_failed)
		return rc ? rc : 1;
	if (pp_unanswered(sh, 0, k) && (rc = pp_resync(sh, ops, 0, k, UINT32_MAX, 0)) != 0)
		return rc;
	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup; i++) {
		sh->seq[IPC_TO_B] = i + 1;
		sh->t_post[IPC_TO_B] = tb_now();
		*op = "post";
		if ((rc = ops->post(ch, IPC_TO_B)) != 0)
			return rc;
		*op = "wait";
		if ((rc = ops->wait(ch, IPC_TO_A)) != 0 || sh->peer_failed)
			return rc ? rc : 1;
		if (pp_unanswered(sh, i + 1, k) &&
		    (rc = pp_resync(sh, ops, i + 1, k, UINT32_MAX, i + 1)) != 0)
			return rc;
	}
	return 0;
}

/* The round trips of one run (recorded run c->run, measured run r): per-op
 * into op_m, the peer's wake-ups of the worker into wake. *n: the latest
 * hand-off number, *done the round trips made. Stops at the first failed
 * post or wait (its rc, *op which) or failure of the peer (sh->peer_failed
 * set): the caller's failure path says why. */
static int pp_trips(const struct probe_ctx *c, struct pp_shared *sh, const struct ipc_mech *ops,
		    struct pp_check *k, struct metric_data *op_m, struct metric_data *wake,
		    uint32_t r, uint64_t *n, uint64_t *done, const char **op)
{
	struct ipc_chan *ch = &sh->ch;
	const uint32_t run = c->run;
	uint64_t seq = *n, i;
	int rc = 0;
	for (i = 0; i < c->iterations; i++) {
		sh->seq[IPC_TO_B] = ++seq;
		uint64_t t0 = tb_now();
		sh->t_post[IPC_TO_B] = t0;
		if ((rc = ops->post(ch, IPC_TO_B)) != 0) {
			*op = "post";
			break;
		}
		rc = ops->wait(ch, IPC_TO_A);
		FAULT_DELAY(i);
		uint64_t t1 = tb_now();
		*op = "wait";
		if (rc != 0 || sh->peer_failed)
			break;
		if (pp_unanswered(sh, seq, k)) {
			if ((rc = pp_resync(sh, ops, seq, k, r, i + 1)) != 0)
				break;
			k->skipped++;
			continue;
		}
		metric_record(op_m, run, t1 - t0);
		metric_record(wake, run, since(t1, sh->t_post[IPC_TO_A], &sh->behind[IPC_TO_A]));
	}
	*n = seq;
	*done = i;
	return rc;
}

/* A's side, with the peer started: its ready post, the warm-up, then every
 * run. Returns 0, or -errno after probe_fail (or after the peer said why). */
static int pp_measure(struct probe_ctx *c, struct pp_shared *sh, const struct ipc_mech *ops,
		      struct pp_check *k)
{
	const char *op = "wait";
	uint64_t n = c->warmup; /* A's latest hand-off number */
	int rc;

	if ((rc = pp_warm(c, sh, ops, k, &op)) != 0)
		goto failed;
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		/* The peer learns the run before the run's counters start, so
		 * what it does on seeing it (a first touch) is not counted. */
		sh->run = probe_next_slot(c, r); /* by time: r's recorded run */
		sh->measuring = 1;
		probe_run_begin(c, r);
		uint64_t i;
		if ((rc = pp_trips(c, sh, ops, k, c->m[M_PER_OP], c->m[M_WAKEUP], r, &n, &i,
				   &op)) != 0 || sh->peer_failed)
			goto failed;
		sh->measuring = 0;
		pp_count(c, sh, k);
		probe_run_end(c, i); /* the run's time spans every round trip */
	}
	return 0;

failed:
	if (rc == 1 || (rc == 0 && sh->peer_failed)) /* B said why in res->reason */
		return -(c->res->err ? c->res->err : EIO);
	return probe_fail(c, rc, "%s %s: %s (%s)", ops->name, op, probe_errname(rc), strerror(-rc));
}
/* Tell B to leave and wait until it has (tid: a thread peer; else the
 * process pid). A process peer that did not end cleanly fails a
 * measurement that had succeeded: returns rc, or that failure. */
static int pp_stop_peer(struct probe_ctx *c, struct pp_shared *sh, const struct ipc_mech *ops,
			const pthread_t *tid, pid_t pid, int rc)
{
	sh->stop = 1;
	sh->seq[IPC_TO_B]++; /* a post B must see as new */
	ops->post(&sh->ch, IPC_TO_B);
	if (tid) {
		pthread_join(*tid, NULL);
		return rc;
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (rc == 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		rc = probe_fail(c, ECHILD, "peer process %s %d",
				WIFSIGNALED(st) ? "killed by signal" : "exited with status",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	return rc;
}

/* ---- pairs=per-cpu ------------------------------------------------------ */

/* Between runs every pair's A meets the main thread at `done`; there the
 * run is closed and the next opened (or quit decided), then `go`. */
struct pp_stages {
	/* 1 once the barriers are made for the A threads (quit: none is):
	 * a futex word, which a layer that fakes semaphore waits leaves alone
	 * (tests/cli/handoff.sh). */
	uint32_t gate;
	pthread_barrier_t done, go;
	volatile int quit;
	int failed; /* set (atomically) by the first pair that failed */
};

struct pp_pair {
	struct probe_ctx *c;
	struct pp_stages *st;
	struct pp_shared *sh;
	const struct ipc_mech *ops;
	struct pp_peer peer;    /* B: its CPU, and wake its block */
	struct pp_check k;
	struct metric_data *op_m; /* the CPU's series of per-op */
	uint64_t done;          /* round trips of the last run */
	uint32_t r;             /* measured run, set by the main thread */
	int a_cpu[2];           /* A's sched_getcpu at its start and end */
	bool opened, started;
	pthread_t a, tid;
	pid_t pid;
};

/* A pair's failure, said once for every pair (the first one's). */
static void pp_pair_failed(struct pp_pair *p, int rc, const char *op)
{
	if (__atomic_exchange_n(&p->st->failed, 1, __ATOMIC_ACQ_REL))
		return;
	if (rc != 1 && !p->sh->peer_failed) /* else B said why */
		probe_fail(p->c, rc, "the pair of CPU %d: %s %s: %s (%s)", p->peer.cpu,
			   p->ops->name, op, probe_errname(rc), strerror(-rc));
}

static void *pp_pair_main(void *arg)
{
	struct pp_pair *p = arg;
	const char *op = "wait";
	uint64_t n = p->c->warmup;
	probe_wait_while(&p->st->gate, 0, UINT64_MAX);
	if (p->st->quit)
		return NULL;
	p->a_cpu[0] = sched_getcpu();
	int rc = pp_warm(p->c, p->sh, p->ops, &p->k, &op);
	for (;;) {
		if (rc || p->sh->peer_failed)
			pp_pair_failed(p, rc ? rc : 1, op);
		pthread_barrier_wait(&p->st->done);
		pthread_barrier_wait(&p->st->go);
		if (p->st->quit)
			break;
		if (rc || p->sh->peer_failed)
			continue; /* in step with the others until told to quit */
		rc = pp_trips(p->c, p->sh, p->ops, &p->k, p->op_m, p->peer.wake, p->r, &n,
			      &p->done, &op);
	}
	p->a_cpu[1] = sched_getcpu();
	return NULL;
}

/* wakeup made anew from the pairs' blocks (histograms and every run's
 * figures), while none records. */
static void pp_merge_wakeup(struct probe_ctx *c, const struct pp_pair *pr, int n)
{
	struct metric_data *m = c->m[M_WAKEUP];
	hist_reset(&m->hist);
	memset(m->runs, 0, sizeof m->runs);
	for (int i = 0; i < n; i++) {
		hist_merge(&m->hist, &pr[i].peer.wake->hist);
		for (uint32_t r = 0; r < RTC_MAX_RUNS; r++)
			m->runs[r] = run_stat_merge(m->runs[r], pr[i].peer.wake->runs[r]);
	}
}

/* The main thread's part: stages are warm-up, run 0, run 1, ... */
static void pp_stages(struct probe_ctx *c, struct pp_stages *st, struct pp_pair *pr, int n)
{
	for (uint32_t r = 0;; r++) {
		pthread_barrier_wait(&st->done);
		if (r > 0) {
			uint64_t fewest = UINT64_MAX;
			for (int i = 0; i < n; i++) {
				pr[i].sh->measuring = 0;
				pp_count(c, pr[i].sh, &pr[i].k);
				fewest = pr[i].done < fewest ? pr[i].done : fewest;
			}
			result_merge_series(c->res);
			pp_merge_wakeup(c, pr, n);
			probe_run_end(c, fewest); /* each pair's round trips, at least */
		}
		if (r == c->runs || *c->stop || st->failed) {
			st->quit = 1;
		} else {
			for (int i = 0; i < n; i++) {
				pr[i].sh->run = probe_next_slot(c, r);
				pr[i].sh->measuring = 1;
				pr[i].r = r;
			}
			probe_run_begin(c, r);
		}
		pthread_barrier_wait(&st->go);
		if (st->quit)
			break;
	}
}

/* Pair i's channel and B (started by the main thread: a fork from it has
 * one thread to copy), its series and its wake-up block in wake. */
static int pp_pair_open(struct probe_ctx *c, struct pp_pair *p, int cpu, unsigned i,
			struct metric_data *wake, bool thread)
{
	struct metric_data *s = result_series(c->res, i);
	s->ns_per_unit = c->m[M_PER_OP]->ns_per_unit;
	s->cycles_per_unit = c->m[M_PER_OP]->cycles_per_unit;
	c->res->series_cpu[i] = cpu;
	wake->kind = c->m[M_WAKEUP]->kind;
	wake->ns_per_unit = c->m[M_WAKEUP]->ns_per_unit;
	wake->cycles_per_unit = c->m[M_WAKEUP]->cycles_per_unit;
	wake->trip = UINT64_MAX;
	hist_init(&wake->hist, HIST_DEFAULT_BITS);
	p->op_m = s;
	p->k.first_dir = -1;
	p->peer = (struct pp_peer){ .c = c, .sh = p->sh, .ops = p->ops, .wake = wake, .cpu = cpu };
	p->opened = true; /* close() releases a partial open too */
	int rc = p->ops->open(&p->sh->ch, c);
	if (rc)
		return rc;
	if ((rc = thread ? start_thread(&p->peer, &p->tid) : start_process(&p->peer, &p->pid)) == 0)
		p->started = true;
	return rc;
}

/* After the pairs ended: B of each stopped, then both tasks' CPUs as
 * sched_getcpu read them checked, then the note. */
static int pp_pairs_close(struct probe_ctx *c, struct pp_pair *pr, int n, bool thread, int rc)
{
	for (int i = 0; i < n; i++)
		if (pr[i].started)
			rc = pp_stop_peer(c, pr[i].sh, pr[i].ops, thread ? &pr[i].tid : NULL,
					  pr[i].pid, rc);
	for (int i = 0; i < n && rc == 0; i++) {
		const int *seen[2] = { pr[i].a_cpu, (const int *)pr[i].sh->b_cpu };
		for (int t = 0; t < 4 && rc == 0; t++)
			if (seen[t / 2][t % 2] != pr[i].peer.cpu)
				rc = probe_fail(c, EPERM, "the pair of CPU %d: its %s ran on CPU %d "
						"(sched_getcpu at its %s)", pr[i].peer.cpu,
						t < 2 ? "worker thread" : "peer", seen[t / 2][t % 2],
						t % 2 ? "end" : "start");
	}
	if (rc == 0)
		snprintf(c->res->note, sizeof c->res->note, "%d pairs, each on its CPU (worker "
			 "and peer read back with sched_getcpu at start and end)", n);
	for (int i = 0; i < n && rc == 0; i++)
		describe(c, pr[i].sh, pr[i].ops, &pr[i].k, pr[i].peer.cpu, pr[i].peer.cpu,
			 pr[i].peer.cpu);
	for (int i = 0; i < n; i++)
		if (pr[i].opened)
			pr[i].ops->close(&pr[i].sh->ch, c);
	return rc;
}

/* The pairs' A threads, each on its CPU under the worker's policy and
 * priority, then the runs. */
static int pp_pairs_measure(struct probe_ctx *c, struct pp_stages *st, struct pp_pair *pr, int n)
{
	int made = 0, rc = 0;
	for (; made < n; made++) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(pr[made].peer.cpu, &one);
		char task[48];
		snprintf(task, sizeof task, "the worker thread of CPU %d's pair", pr[made].peer.cpu);
		if ((rc = probe_start_thread(c, task, &pr[made].a, c->policy, c->priority, &one,
					     256 * 1024, pp_pair_main, &pr[made])) != 0) {
			rc = probe_fail(c, rc, "%s: pthread_create: %s", task, strerror(rc));
			break;
		}
	}
	int brc = 0;
	if (!rc && (brc = pthread_barrier_init(&st->done, NULL, (unsigned)n + 1)) == 0 &&
	    (brc = pthread_barrier_init(&st->go, NULL, (unsigned)n + 1)) != 0)
		pthread_barrier_destroy(&st->done);
	if (brc)
		rc = probe_fail(c, brc, "pthread_barrier_init: %s", strerror(brc));
	st->quit = rc != 0; /* the ones made leave at once */
	__atomic_store_n(&st->gate, 1, __ATOMIC_RELEASE);
	probe_futex(&st->gate, FUTEX_WAKE, INT_MAX, NULL);
	if (!rc)
		pp_stages(c, st, pr, n);
	for (int i = 0; i < made; i++)
		pthread_join(pr[i].a, NULL);
	pp_merge_wakeup(c, pr, n);
	if (!rc) {
		pthread_barrier_destroy(&st->done);
		pthread_barrier_destroy(&st->go);
	}
	return rc ? rc : (st->failed ? -(c->res->err ? c->res->err : EIO) : 0);
}

static int pp_run_pairs(struct probe_ctx *c, const struct ipc_mech *ops, bool thread)
{
	struct result_shm *res = c->res;
	int cpus[PROBE_MAX_SERIES], rc;
	int max = res->nseries_alloc < PROBE_MAX_SERIES ? (int)res->nseries_alloc : PROBE_MAX_SERIES;
	if (!thread && max > PROBE_MAX_PEERS)
		max = PROBE_MAX_PEERS; /* the peer processes whose counts are kept */
	int n = probe_cpus(c, "cpus", cpus, max);
	if (n < 0)
		return n;
	struct pp_shared *sh;
	if ((rc = pp_map(c, thread, n, &sh)) != 0)
		return rc;
	size_t wbytes = (size_t)n * res->metric_stride;
	char *wmem = mmap(NULL, wbytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct pp_pair *pr = calloc((size_t)n, sizeof *pr);
	struct pp_stages st = { 0 };
	if (wmem == MAP_FAILED || !pr) {
		rc = probe_fail(c, ENOMEM, "allocating %d pairs: %s", n, strerror(ENOMEM));
		goto unmap;
	}
	res->nseries = (uint32_t)n;
	for (int i = 0; i < n && !rc; i++) {
		pr[i] = (struct pp_pair){ .c = c, .st = &st, .sh = &sh[i], .ops = ops, .pid = -1 };
		rc = pp_pair_open(c, &pr[i], cpus[i], (unsigned)i,
				  (struct metric_data *)(wmem + (size_t)i * res->metric_stride), thread);
	}
	if (rc == 0)
		rc = pp_pairs_measure(c, &st, pr, n);
	rc = pp_pairs_close(c, pr, n, thread, rc);
unmap:
	free(pr);
	if (wmem != MAP_FAILED)
		munmap(wmem, wbytes);
	munmap(sh, (size_t)n * sizeof *sh);
	return rc;
}

static int pp_run(struct probe_ctx *c)
{
	const char *mname = probe_value(c, "mechanism");
	const char *placement = probe_value(c, "placement");
	bool thread = strcmp(probe_value(c, "peer"), "thread") == 0;
	const struct ipc_mech *ops = mech_find(mname);
	struct pp_shared *sh = NULL;
	int cpu_a, cpu_b, rc = 0;
	char err[400];
	pthread_t tid = 0;
	pid_t pid = -1;

	if (!ops)
		return probe_fail(c, EINVAL, "mechanism %s has no implementation", mname);
	if (strcmp(probe_value(c, "pairs"), "per-cpu") == 0)
		return pp_run_pairs(c, ops, thread);
	if (probe_pick_cpus(c, placement, &cpu_a, &cpu_b) != 0)
		return probe_fail(c, ENODEV, "placement %s needs two CPUs, %d allowed",
				  placement, c->ncpus);
	if ((rc = rtenv_pin(cpu_a, err, sizeof err)) != 0)
		return probe_fail(c, rc, "%s", err);
	if ((rc = pp_map(c, thread, 1, &sh)) != 0)
		return rc;

	if ((rc = ops->open(&sh->ch, c)) != 0)
		goto close;
	struct pp_peer peer = { .c = c, .sh = sh, .ops = ops, .wake = c->m[M_WAKEUP], .cpu = cpu_b };
	if ((rc = thread ? start_thread(&peer, &tid) : start_process(&peer, &pid)) != 0)
		goto close;
	struct pp_check k = { .first_dir = -1 };
	rc = pp_measure(c, sh, ops, &k);
	if ((rc = pp_stop_peer(c, sh, ops, thread ? &tid : NULL, pid, rc)) == 0)
		describe(c, sh, ops, &k, cpu_a, cpu_b, -1);
close:
	ops->close(&sh->ch, c);
	munmap(sh, sizeof *sh);
	return rc;
}

/* One round trip of the ping-pong: 5-7 us here, either policy. */
static void sp_pace(const char *const *values, struct probe_pace *out)
{
	(void)values;
	out->iteration_s = 6e-6;
}

const struct probe probe_sem_pingpong = {
	.decl.name = "sem-pingpong",
	.decl.pace = sp_pace,
	.decl.verifies = "the peer (thread or process): the worker's policy and priority, and its "
		"CPU when placed; pairs=per-cpu: each pair's worker thread and peer, both on the "
		"pair's CPU",
	.decl.help = "wake-up ping-pong between two tasks over a semaphore, futex, mutex + condition "
		"variable, pipe or eventfd; per-op = cycle / 2 (SPY memo), wakeup = one-way post "
		"to return (ptsematest, svsematest)",
	PROBE_PARAMS(params),
	PROBE_METRICS(metrics),
	.decl.by_time = true,
	/* An iteration is a round trip: a wake-up each way. */
	.decl.per_iteration = (const unsigned[]){ [M_PER_OP] = 1, [M_WAKEUP] = 2,
						  [M_UNANSWERED] = 1 },
	.decl.violation_metrics = 1u << M_UNANSWERED,
	.decl.check = pp_check,
	.run = pp_run,
	.cleanup = ipc_sem_cleanup,
	.per_cpu_series = true, /* pairs=per-cpu: per-op's */
};
