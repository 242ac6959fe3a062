/* SPDX-License-Identifier: Apache-2.0 */
/* test_ipc.c - the sem-pingpong probe's IPC matrix.
 *
 * Behaviour only, never absolute latencies (tiny counts, limits any machine
 * meets). Checked:
 *   - every mechanism x peer x placement, under SCHED_OTHER and SCHED_FIFO,
 *     through runner_run as `rtconform run` measures: a pass verdict; per-op
 *     has one sample per cycle and wakeup two (A->B and B->A) in every run;
 *     the wake-ups of a cycle lie inside it, so the wakeup total is below
 *     the cycle total (wakeup mean < per-op mean) and no wake-up exceeds
 *     the longest cycle; afterwards no named semaphore in /dev/shm, no new
 *     SysV set, no child left. cross-cpu on a single allowed CPU is an
 *     error verdict that says so;
 *   - check(): no mechanism / peer / placement combination is invalid (each
 *     works: see docs/probes.md), an unknown mechanism is refused;
 *   - the supervisor's cleanup hook removes a SysV set and named semaphores
 *     recorded by a worker that died before removing them, and is
 *     idempotent.
 */
#include <check.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/measure/probes/ipc.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/rtenv.h"
#include "harness/runner.h"
#include "harness/stats.h"
#include "harness/measure/timebase.h"
#include "test_util.h"

static const char *const mechs[] = {
	"posix-sem", "posix-named-sem", "sysv-sem", "futex", "mutex-cond", "pipe", "eventfd",
};
static const char *const peers[] = { "process", "thread" };
static const char *const placements[] = { "same-cpu", "cross-cpu", "unpinned" };
#define NMECH 7
#define NPEER 2
#define NPLACE 3
#define NPOL 2
#define NCASES (NMECH * NPEER * NPLACE * NPOL)

#define ITERATIONS 40
#define RUNS 3

static void setup(void)
{
	static struct timebase tb; /* timebase_get() keeps pointing at it */
	char err[300];
	ck_assert_msg(timebase_init(&tb, err, sizeof err) == 0, "timebase: %s", err);
}

/* ---- leftovers ---------------------------------------------------------- */

/* Named semaphores of ours in /dev/shm (glibc names them sem.NAME), up to
 * max names of at most 63 characters. */
static int shm_sems(char (*names)[64], int max)
{
	DIR *d = opendir("/dev/shm");
	ck_assert_msg(d != NULL, "cannot open /dev/shm: %s", strerror(errno));
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max)
		if (strncmp(e->d_name, "sem.rtconform-", 14) == 0)
			snprintf(names[n++], 64, "%.63s", e->d_name);
	closedir(d);
	return n;
}

/* SysV semaphore ids present now (from /proc/sysvipc/sem), up to max. The
 * probe's sets have 6 semaphores (2 and the maker's stamp) and mode 0600. */
static int sysv_ids(int *ids, int max)
{
	FILE *f = fopen("/proc/sysvipc/sem", "r");
	ck_assert_msg(f != NULL, "cannot open /proc/sysvipc/sem: %s", strerror(errno));
	char line[512];
	int n = 0;
	if (!fgets(line, sizeof line, f)) { /* header */
		fclose(f);
		return 0;
	}
	while (n < max && fgets(line, sizeof line, f)) {
		long key;
		int id, nsems;
		unsigned perms;
		if (sscanf(line, "%ld %d %o %d", &key, &id, &perms, &nsems) == 4 &&
		    nsems == 6 && (perms & 0777) == 0600)
			ids[n++] = id;
	}
	fclose(f);
	return n;
}

static void assert_no_children(const char *what)
{
	int st;
	errno = 0;
	pid_t p = waitpid(-1, &st, WNOHANG);
	ck_assert_msg(p < 0 && errno == ECHILD, "%s: a child of the test process was left (%d)",
		      what, (int)p);
}

/* Leftovers of a run: named semaphores of ours and SysV sets of the probe's
 * shape that were not there before. Other rtconform runs on this machine
 * (other suites) make such objects for a moment; a leak stays, so only an
 * object still there after 3 s of re-checks counts. */
struct ipc_seen {
	int ids[256], nids;
	char names[64][64];
	int nnames;
};

static void ipc_snapshot(struct ipc_seen *s)
{
	s->nids = sysv_ids(s->ids, 256);
	s->nnames = shm_sems(s->names, 64);
}

static void assert_clean(const char *what, const struct ipc_seen *before)
{
	struct ipc_seen now;
	const char *name = NULL;
	int id = -1;
	for (int tries = 0; tries < 15; tries++) {
		if (tries)
			usleep(200 * 1000);
		ipc_snapshot(&now);
		name = NULL;
		id = -1;
		for (int a = 0; a < now.nids && id < 0; a++) {
			bool seen = false;
			for (int b = 0; b < before->nids && !seen; b++)
				seen = now.ids[a] == before->ids[b];
			if (!seen)
				id = now.ids[a];
		}
		for (int a = 0; a < now.nnames && !name; a++) {
			bool seen = false;
			for (int b = 0; b < before->nnames && !seen; b++)
				seen = strcmp(now.names[a], before->names[b]) == 0;
			if (!seen)
				name = now.names[a];
		}
		if (!name && id < 0)
			return;
	}
	ck_assert_msg(!name, "%s: named semaphore /dev/shm/%s was left behind", what, name);
	ck_assert_msg(id < 0, "%s: SysV semaphore set %d was left behind", what, id);
}

/* ---- the matrix --------------------------------------------------------- */

static void make_req(struct requirement *q, const char *mech, const char *peer,
		     const char *place, enum sched_policy pol)
{
	memset(q, 0, sizeof *q);
	q->id = (char *)"IPC";
	q->probe = (char *)"sem-pingpong";
	q->params[0].name = (char *)"mechanism";
	q->params[0].value = (char *)mech;
	q->params[1].name = (char *)"peer";
	q->params[1].value = (char *)peer;
	q->params[2].name = (char *)"placement";
	q->params[2].value = (char *)place;
	q->nparams = 3;
	q->policy = pol;
	q->priority_max = pol != POLICY_OTHER;
	q->cpu = -1;
	q->iterations = ITERATIONS;
	q->runs = RUNS;
	q->warmup = 5;
	q->timeout_ns = 60ull * 1000000000ull;
	struct req_limit *l = &q->limits[q->nlimits++];
	ck_assert_int_eq(statistic_parse("max", &l->stat), 0);
	l->stat_text = (char *)"max";
	l->metric = (char *)"wakeup";
	l->has_max = true;
	l->max.value = 60e9; /* only a hang fails it */
	l->max.unit = QTY_NS;
}

START_TEST(matrix)
{
	int i = _i;
	enum sched_policy pol = (i % NPOL) ? POLICY_FIFO : POLICY_OTHER;
	i /= NPOL;
	const char *place = placements[i % NPLACE];
	i /= NPLACE;
	const char *peer = peers[i % NPEER];
	const char *mech = mechs[i / NPEER];
	ck_assert_int_eq(runner_become_supervisor(), 0);

	struct ipc_seen before;
	ipc_snapshot(&before);

	struct requirement q;
	struct req_file f = { .path = "<test>", .name = "test" };
	struct run_options o = { .self_dir = RTC_BINARY_DIR };
	struct req_result r;
	make_req(&q, mech, peer, place, pol);
	runner_run(&q, &f, &o, &r);
	char what[160];
	snprintf(what, sizeof what, "%s peer=%s %s under %s", mech, peer, place, policy_name(pol));

	if (strcmp(place, "cross-cpu") == 0 && rtenv_allowed_list((int[2]){ 0 }, 2) < 2) {
		ck_assert_msg(r.verdict == VERDICT_ERROR && strstr(r.reason, "needs two CPUs"),
			      "%s on one CPU: verdict %s: %s", what, verdict_name(r.verdict),
			      r.reason);
	} else {
		ck_assert_msg(r.verdict == VERDICT_PASS, "%s: verdict %s: %s", what,
			      verdict_name(r.verdict), r.reason);
		ck_assert_uint_eq(r.res->runs_done, RUNS);
		ck_assert_str_eq(r.probe->decl.metrics[0].name, "per-op");
		ck_assert_str_eq(r.probe->decl.metrics[1].name, "wakeup");
		const struct metric_data *op = result_metric_c(r.res, 0);
		const struct metric_data *wk = result_metric_c(r.res, 1);
		ck_assert_msg(op->hist.count == ITERATIONS * RUNS, "%s: %llu per-op samples", what,
			      (unsigned long long)op->hist.count);
		ck_assert_msg(wk->hist.count == 2 * ITERATIONS * RUNS, "%s: %llu wakeup samples",
			      what, (unsigned long long)wk->hist.count);
		for (unsigned k = 0; k < RUNS; k++) {
			ck_assert_uint_eq(op->runs[k].count, ITERATIONS);
			ck_assert_uint_eq(wk->runs[k].count, 2 * ITERATIONS);
			ck_assert_uint_eq(r.res->runs[k].iterations, ITERATIONS);
		}
		/* per-op is recorded in whole cycles (the scale halves it) and
		 * wakeup in ticks: both in the same unit here. */
		ck_assert_msg(op->ns_per_unit > 0 && wk->ns_per_unit > 0 &&
				      op->ns_per_unit < wk->ns_per_unit,
			      "%s: per-op scale %g, wakeup scale %g", what, op->ns_per_unit,
			      wk->ns_per_unit);
		ck_assert_msg(op->hist.min > 0, "%s: a cycle of 0 ticks", what);
		ck_assert_msg(wk->hist.max > 0, "%s: every wake-up took 0 ticks", what);
		ck_assert_msg(wk->hist.max < op->hist.max,
			      "%s: a wake-up of %llu ticks, longer than the longest cycle (%llu)",
			      what, (unsigned long long)wk->hist.max,
			      (unsigned long long)op->hist.max);
		ck_assert_msg(wk->hist.sum < op->hist.sum,
			      "%s: wake-ups total %llu ticks, cycles %llu: wake-ups must lie "
			      "inside their cycles", what, (unsigned long long)wk->hist.sum,
			      (unsigned long long)op->hist.sum);
		double mean_op = (double)op->hist.sum / (double)op->hist.count * op->ns_per_unit;
		double mean_wk = (double)wk->hist.sum / (double)wk->hist.count * wk->ns_per_unit;
		ck_assert_msg(mean_wk > 0 && mean_wk < mean_op && mean_op < 1e8,
			      "%s: wakeup mean %.1f ns, per-op mean %.1f ns", what, mean_wk, mean_op);
	}
	req_result_free(&r);

	assert_clean(what, &before);
	assert_no_children(what);
}
END_TEST

/* ---- check() ------------------------------------------------------------ */

START_TEST(check_accepts_every_combination)
{
	const struct probe *p = probe_find("sem-pingpong");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(p->decl.check);
	ck_assert_int_eq(probe_decl_param_index(&p->decl, "mechanism"), 0);
	ck_assert_int_eq(probe_decl_param_index(&p->decl, "peer"), 1);
	ck_assert_int_eq(probe_decl_param_index(&p->decl, "placement"), 2);
	/* The parameter table and the tested list agree. */
	size_t n = 0;
	while (p->decl.params[0].values[n])
		n++;
	ck_assert_uint_eq(n, NMECH);
	char buf[300];
	for (int m = 0; m < NMECH; m++)
		for (int e = 0; e < NPEER; e++)
			for (int l = 0; l < NPLACE; l++) {
				const char *v[5] = { mechs[m], peers[e], placements[l], "one", "all" };
				const char *why = p->decl.check(v, buf, sizeof buf);
				ck_assert_msg(why == NULL, "%s/%s/%s refused: %s", v[0], v[1], v[2],
					      why);
			}
}
END_TEST

START_TEST(check_refuses_unknown_mechanism)
{
	const struct probe *p = probe_find("sem-pingpong");
	char buf[300];
	const char *v[5] = { "carrier-pigeon", "process", "same-cpu", "one", "all" };
	const char *why = p->decl.check(v, buf, sizeof buf);
	ck_assert_ptr_nonnull(why);
	ck_assert_msg(strstr(why, "carrier-pigeon") != NULL, "message: %s", why);
}
END_TEST

/* pairs=per-cpu (ptsematest -S) refuses what it cannot do: a CPU list
 * without it, another placement, a mechanism with one cleanup record. */
START_TEST(check_pairs)
{
	const struct probe *p = probe_find("sem-pingpong");
	char buf[300];
	static const char *const cases[][6] = {
		{ "posix-sem", "process", "same-cpu", "per-cpu", "0-1", NULL },
		{ "eventfd", "thread", "same-cpu", "per-cpu", "all", NULL },
		{ "posix-sem", "process", "same-cpu", "one", "0", "cpus=0 needs pairs=per-cpu" },
		{ "futex", "thread", "cross-cpu", "per-cpu", "all", "placement cross-cpu does not apply" },
		{ "sysv-sem", "process", "same-cpu", "per-cpu", "all", "cannot use mechanism sysv-sem" },
		{ "posix-named-sem", "thread", "same-cpu", "per-cpu", "all",
		  "cannot use mechanism posix-named-sem" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *why = p->decl.check(cases[i], buf, sizeof buf);
		if (!cases[i][5])
			ck_assert_msg(!why, "case %zu refused: %s", i, why);
		else
			ck_assert_msg(why && strstr(why, cases[i][5]), "case %zu: %s", i,
				      why ? why : "accepted");
	}
}
END_TEST

/* One pair per CPU this machine lets rtconform use, all at once: a per-op
 * series per CPU, on that CPU, whose counts add up to the merged per-op;
 * wakeup has both directions of every pair; the note says each pair's
 * tasks were read back on their CPU. */
START_TEST(pairs_per_cpu)
{
	const char *peer = peers[_i];
	ck_assert_int_eq(runner_become_supervisor(), 0);
	int allowed[64];
	int ncpu = rtenv_allowed_list(allowed, 64);
	struct requirement q;
	struct req_file f = { .path = "<test>", .name = "test" };
	struct run_options o = { .self_dir = RTC_BINARY_DIR };
	struct req_result r;
	make_req(&q, "posix-sem", peer, "same-cpu", POLICY_OTHER);
	q.params[3].name = (char *)"pairs";
	q.params[3].value = (char *)"per-cpu";
	q.nparams = 4;
	runner_run(&q, &f, &o, &r);
	ck_assert_msg(r.verdict == VERDICT_PASS, "%s: verdict %s: %s", peer,
		      verdict_name(r.verdict), r.reason);
	ck_assert_int_eq((int)r.res->nseries, ncpu);
	const struct metric_data *op = result_metric_c(r.res, 0);
	const struct metric_data *wk = result_metric_c(r.res, 1);
	uint64_t sum = 0, run_sum[RUNS] = { 0 };
	for (int s = 0; s < ncpu; s++) {
		const struct metric_data *m = result_metric_c(r.res, r.res->nmetrics + (unsigned)s);
		ck_assert_int_eq(r.res->series_cpu[s], allowed[s]);
		ck_assert_uint_eq(m->hist.count, ITERATIONS * RUNS);
		ck_assert(m->ns_per_unit == op->ns_per_unit);
		sum += m->hist.count;
		for (unsigned k = 0; k < RUNS; k++)
			run_sum[k] += m->runs[k].count;
	}
	ck_assert_uint_eq(op->hist.count, sum);
	for (unsigned k = 0; k < RUNS; k++) {
		ck_assert_uint_eq(op->runs[k].count, run_sum[k]);
		ck_assert_uint_eq(wk->runs[k].count, 2 * run_sum[k]);
	}
	ck_assert_uint_eq(wk->hist.count, 2 * sum);
	ck_assert_msg(strstr(r.res->note, "each on its CPU (worker and peer read back with "
				"sched_getcpu"), "note: %s", r.res->note);
	req_result_free(&r);
	assert_no_children(peer);
}
END_TEST

/* ---- the cleanup hook --------------------------------------------------- */

/* A recorded key that is not of rtconform's form (a worker killed between
 * recording a key and its semget) names a set the cleanup must not touch. */
START_TEST(cleanup_leaves_foreign_sets)
{
	const struct probe *p = probe_find("sem-pingpong");
	size_t bytes;
	struct result_shm *res = result_alloc_for(&p->decl, 0, &bytes);
	ck_assert_ptr_nonnull(res);
	key_t key = (key_t)(0x5a000000 | (getpid() & 0xffffff));
	int id = semget(key, 2, IPC_CREAT | IPC_EXCL | 0600);
	ck_assert_msg(id >= 0, "semget: %s", strerror(errno));
	res->cleanup.ids[IPC_CLEANUP_SYSV_KEY] = key;
	p->cleanup(res);
	ck_assert_msg(semget(key, 0, 0) == id, "a set under a foreign key was removed");
	semctl(id, 0, IPC_RMID);
	munmap(res, bytes);
}
END_TEST

START_TEST(cleanup_removes_leftovers)
{
	const struct probe *p = probe_find("sem-pingpong");
	ck_assert_ptr_nonnull(p->cleanup);
	size_t bytes;
	struct result_shm *res = result_alloc_for(&p->decl, 0, &bytes);
	ck_assert_ptr_nonnull(res);

	/* A set under a recorded key whose id the worker never recorded (it
	 * found the key taken by another program) is not the worker's: left. */
	key_t key = (key_t)((0x1b5u << 22) | ((unsigned)getpid() & 0x3fffffu));
	int other = semget(key, 6, IPC_CREAT | IPC_EXCL | 0600);
	ck_assert_msg(other >= 0, "semget: %s", strerror(errno));
	res->cleanup.ids[IPC_CLEANUP_SYSV_KEY] = key;
	p->cleanup(res);
	ck_assert_msg(semget(key, 0, 0) == other, "another program's set was removed");
	semctl(other, 0, IPC_RMID);

	/* What a worker killed mid-run leaves: a set under its recorded key
	 * (rtconform's form: its tag 0x1b5 in bits 22-30, a number from the
	 * worker's pid below) with its recorded id, made (mode 0200) before
	 * its stamp was written, and two named semaphores not yet unlinked. */
	int id = semget(key, 6, IPC_CREAT | IPC_EXCL | 0200);
	ck_assert_msg(id >= 0, "semget: %s", strerror(errno));
	res->cleanup.ids[IPC_CLEANUP_SYSV_KEY] = key;
	res->cleanup.ids[IPC_CLEANUP_SYSV_ID] = id;
	for (int d = 0; d < 2; d++) {
		snprintf(res->cleanup.names[d], sizeof res->cleanup.names[d],
			 "/rtconform-%d-test%d", (int)getpid(), d);
		sem_t *s = sem_open(res->cleanup.names[d], O_CREAT | O_EXCL, 0600, 0);
		ck_assert_msg(s != SEM_FAILED, "sem_open: %s", strerror(errno));
		sem_close(s);
	}

	p->cleanup(res);
	errno = 0;
	ck_assert_msg(semget(key, 0, 0) < 0 && errno == ENOENT, "the SysV set survived cleanup");
	for (int d = 0; d < 2; d++) {
		errno = 0;
		sem_t *s = sem_open(res->cleanup.names[d], 0);
		ck_assert_msg(s == SEM_FAILED && errno == ENOENT, "%s survived cleanup",
			      res->cleanup.names[d]);
	}
	p->cleanup(res); /* idempotent: nothing left, nothing happens */

	/* A zeroed record (a worker that never opened anything) names
	 * nothing: IPC_PRIVATE is never touched. */
	memset(&res->cleanup, 0, sizeof res->cleanup);
	p->cleanup(res);
	munmap(res, bytes);
}
END_TEST

START_TEST(cleanup_ignores_foreign_names)
{
	/* Only names of the probe's own form are unlinked, whatever a torn
	 * record says. */
	const struct probe *p = probe_find("sem-pingpong");
	size_t bytes;
	struct result_shm *res = result_alloc_for(&p->decl, 0, &bytes);
	char name[64];
	snprintf(name, sizeof name, "/not-rtconform-%d", (int)getpid());
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	ck_assert_msg(s != SEM_FAILED, "sem_open: %s", strerror(errno));
	sem_close(s);
	snprintf(res->cleanup.names[0], sizeof res->cleanup.names[0], "%s", name);
	p->cleanup(res);
	s = sem_open(name, 0);
	ck_assert_msg(s != SEM_FAILED, "cleanup removed a semaphore that is not the probe's");
	sem_close(s);
	sem_unlink(name);
	munmap(res, bytes);
}
END_TEST

static Suite *ipc_suite(void)
{
	Suite *s = suite_create("ipc");
	TCase *tc = tu_tcase(s, "matrix", 60);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, matrix, 0, NCASES);
	tc = tu_tcase(s, "check", 10);
	tcase_add_test(tc, check_accepts_every_combination);
	tcase_add_test(tc, check_refuses_unknown_mechanism);
	tcase_add_test(tc, check_pairs);
	tc = tu_tcase(s, "pairs", 60);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, pairs_per_cpu, 0, NPEER);
	tc = tu_tcase(s, "cleanup", 10);
	tcase_add_test(tc, cleanup_removes_leftovers);
	tcase_add_test(tc, cleanup_leaves_foreign_sets);
	tcase_add_test(tc, cleanup_ignores_foreign_names);
	return s;
}

int main(void)
{
	return tu_run(ipc_suite());
}
