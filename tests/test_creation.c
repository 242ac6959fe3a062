/* SPDX-License-Identifier: Apache-2.0 */
/* test_creation.c - the creation probes: thread-create, process-create, clone.
 *
 * Behaviour only, never absolute latencies: tiny counts, a limit any machine
 * meets. Checked for every probe, parameter value and policy (SCHED_OTHER,
 * SCHED_FIFO at the highest priority):
 *   - through runner_run, as `rtconform run` measures: a pass verdict, every
 *     metric with all its samples, min <= p50 <= max and max > 0, a batch
 *     figure for every run, and afterwards no child (live or zombie) of the
 *     test process, which is made a child subreaper so that an orphan left
 *     by a worker would come back to it and be seen;
 *   - the probe's run() called directly in a forked stand-in worker: when it
 *     returns, that process has no child and no thread of its own left;
 *   - a fork that really fails: a process under a uid of its own (root is
 *     exempt from RLIMIT_NPROC whatever its capabilities, so the test drops
 *     to an unused uid) with RLIMIT_NPROC too small for one more task gives
 *     an error verdict whose reason names EAGAIN, and leaves no child;
 *   - spawn and fork-exec without rtconform-nop name the path they looked at.
 */
#include <check.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/measure/probes/probes.h"
#include "harness/measure/rtenv.h"
#include "harness/runner.h"
#include "harness/stats.h"
#include "reports/report.h"
#include "test_util.h"

struct pcase {
	const char *probe, *param, *value;
};

static const struct pcase cases[] = {
	{ "thread-create", "detached", "no" },
	{ "thread-create", "detached", "yes" },
	{ "process-create", "method", "fork" },
	{ "process-create", "method", "vfork" },
	{ "process-create", "method", "spawn" },
	{ "process-create", "method", "fork-exec" },
	{ "clone", "flags", "process" },
	{ "clone", "flags", "thread" },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

#define ITERATIONS 12
#define RUNS 3

/* Loop index -> case and policy: even indices SCHED_OTHER, odd SCHED_FIFO. */
static const struct pcase *case_of(int i, enum sched_policy *pol)
{
	*pol = (i % 2) ? POLICY_FIFO : POLICY_OTHER;
	return &cases[i / 2];
}

static void make_req(struct requirement *q, const struct pcase *pc, enum sched_policy pol)
{
	memset(q, 0, sizeof *q);
	q->id = (char *)"CREATE";
	q->title = (char *)"creation probe under test";
	q->probe = (char *)pc->probe;
	q->params[0].name = (char *)pc->param;
	q->params[0].value = (char *)pc->value;
	q->nparams = 1;
	q->policy = pol;
	q->priority_max = pol != POLICY_OTHER;
	q->cpu = -1;
	q->iterations = ITERATIONS;
	q->runs = RUNS;
	q->warmup = 2;
	q->timeout_ns = 60ull * 1000000000ull;
	struct req_limit *l = &q->limits[q->nlimits++];
	ck_assert_int_eq(statistic_parse("max", &l->stat), 0);
	l->stat_text = (char *)"max";
	l->has_max = true;
	l->max.value = 60e9; /* 60 s: only a hang fails it */
	l->max.unit = QTY_NS;
}

/* Children of `parent` in /proc (any state); *zombies counts those in Z. */
static int children_of(pid_t parent, int *zombies)
{
	DIR *d = opendir("/proc");
	ck_assert_msg(d != NULL, "cannot open /proc: %s", strerror(errno));
	int n = 0;
	*zombies = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[300], buf[512];
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue; /* gone meanwhile */
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[len] = 0;
		/* "pid (comm) S ppid ...": comm may hold spaces and ')' */
		char *rp = strrchr(buf, ')');
		char state;
		int ppid;
		if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2)
			continue;
		if (ppid == parent) {
			n++;
			if (state == 'Z')
				(*zombies)++;
		}
	}
	closedir(d);
	return n;
}

static int threads_of_self(void)
{
	DIR *d = opendir("/proc/self/task");
	ck_assert_msg(d != NULL, "cannot open /proc/self/task: %s", strerror(errno));
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void assert_no_children(const char *when)
{
	int zombies, n = children_of(getpid(), &zombies);
	ck_assert_msg(n == 0, "%s: %d children (%d zombies) of the test process remain",
		      when, n, zombies);
}

/* ---- through the runner ------------------------------------------------ */

START_TEST(runner_stats_ordered)
{
	enum sched_policy pol;
	const struct pcase *pc = case_of(_i, &pol);
	ck_assert_int_eq(runner_become_supervisor(), 0);

	struct requirement q;
	struct req_file f = { .path = "<test>", .name = "test" };
	struct run_options o = { .self_dir = RTC_BINARY_DIR };
	struct req_result r;
	make_req(&q, pc, pol);
	runner_run(&q, &f, &o, &r);
	ck_assert_msg(r.verdict == VERDICT_PASS, "%s %s=%s under %s: verdict %s: %s",
		      pc->probe, pc->param, pc->value, policy_name(pol),
		      verdict_name(r.verdict), r.reason);
	ck_assert_ptr_nonnull(r.res);
	ck_assert_uint_eq(r.res->runs_done, RUNS);

	struct statistic smin, sp50, smax;
	ck_assert_int_eq(statistic_parse("min", &smin), 0);
	ck_assert_int_eq(statistic_parse("p50", &sp50), 0);
	ck_assert_int_eq(statistic_parse("max", &smax), 0);
	ck_assert_uint_eq(r.res->nmetrics, probe_decl_nmetrics(&r.probe->decl));
	ck_assert_str_eq(r.probe->decl.metrics[0].name, "per-op");
	/* The harness's count metrics: one value per run. */
	for (unsigned i = (unsigned)r.probe->decl.nmetrics; i < r.res->nmetrics; i++) {
		const struct metric_data *m = result_metric_c(r.res, i);
		ck_assert_uint_eq(m->kind, METRIC_COUNT);
		ck_assert_uint_eq(m->hist.count, RUNS);
	}
	for (unsigned i = 0; i < r.probe->decl.nmetrics; i++) {
		const struct metric_data *m = result_metric_c(r.res, i);
		const char *mn = r.probe->decl.metrics[i].name;
		double vmin, vp50, vmax;
		if (m->kind == METRIC_COUNT) {
			/* unanswered-waits: one value a run, and on a working
			 * system 0 (rtconform's own limit, total <= 0) */
			ck_assert_str_eq(mn, "unanswered-waits");
			ck_assert_uint_eq(m->hist.count, RUNS);
			ck_assert_uint_eq(m->hist.max, 0);
			continue;
		}
		ck_assert_msg(m->hist.count == (uint64_t)ITERATIONS * RUNS,
			      "%s.%s: %llu samples, expected %d", pc->probe, mn,
			      (unsigned long long)m->hist.count, ITERATIONS * RUNS);
		ck_assert(stat_value(m, &smin, false, &vmin));
		ck_assert(stat_value(m, &sp50, false, &vp50));
		ck_assert(stat_value(m, &smax, false, &vmax));
		ck_assert_msg(vmax > 0, "%s.%s: max is 0", pc->probe, mn);
		ck_assert_msg(vmin <= vp50 && vp50 <= vmax, "%s.%s: min %g p50 %g max %g",
			      pc->probe, mn, vmin, vp50, vmax);
		for (unsigned k = 0; k < RUNS; k++)
			ck_assert_uint_eq(m->runs[k].count, ITERATIONS);
	}
	/* The batch figure needs every run bracketed by run_begin/run_end. */
	double bmean, bsd;
	ck_assert_uint_eq(summary_batch_ns(&r, &bmean, &bsd), RUNS);
	ck_assert_msg(bmean > 0, "%s: batch mean %g", pc->probe, bmean);
	for (unsigned k = 0; k < RUNS; k++) {
		ck_assert_uint_eq(r.res->runs[k].iterations, ITERATIONS);
		ck_assert(r.res->runs[k].t_end > r.res->runs[k].t_begin);
	}
	if (strcmp(pc->probe, "clone") == 0) {
		/* child-start includes the call's start, and a reaped child
		 * started before it was reaped. */
		const struct metric_data *op = result_metric_c(r.res, 0);
		const struct metric_data *call = result_metric_c(r.res, 1);
		const struct metric_data *start = result_metric_c(r.res, 2);
		ck_assert_str_eq(r.probe->decl.metrics[1].name, "call");
		ck_assert_str_eq(r.probe->decl.metrics[2].name, "child-start");
		ck_assert(call->hist.min <= op->hist.min);
		ck_assert(start->hist.max <= op->hist.max);
		ck_assert_msg(start->hist.min > 0, "child-start of 0: clock skew note '%s'",
			      r.res->note);
	}
	req_result_free(&r);
	assert_no_children("after runner_run");
}
END_TEST

/* ---- run() in a stand-in worker ----------------------------------------- */

struct direct_out {
	int rc;
	int children, zombies, threads;
	int setup_failed;
	char reason[600];
};

/* Where a stand-in worker under an unused uid finds rtconform-worker and
 * rtconform-nop: copies in a directory under /tmp that everyone may enter,
 * made once in main() and removed after the suite. The build tree may be
 * where only its owner can enter (a clone in a mode-0700 directory, as
 * mktemp -d makes), and the unused uid could not run them there. */
static char unpriv_dir[] = "/tmp/rtc-creation-XXXXXX";
static const char *const unpriv_files[] = { "rtconform-worker", "rtconform-nop" };

/* Copy RTC_BINARY_DIR/name into unpriv_dir, mode 0755. 0 or -errno. */
static int copy_helper(const char *name)
{
	char from[4096], to[4096], buf[65536];
	snprintf(from, sizeof from, "%s/%s", RTC_BINARY_DIR, name);
	snprintf(to, sizeof to, "%s/%s", unpriv_dir, name);
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (out < 0) {
		int e = errno;
		close(in);
		return -e;
	}
	ssize_t n;
	int rc = 0;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -EIO;
			break;
		}
	if (n < 0)
		rc = -errno;
	if (fchmod(out, 0755) != 0 && rc == 0)
		rc = -errno;
	close(in);
	if (close(out) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

static void unpriv_remove(void)
{
	char p[4096];
	for (size_t i = 0; i < sizeof unpriv_files / sizeof *unpriv_files; i++) {
		snprintf(p, sizeof p, "%s/%s", unpriv_dir, unpriv_files[i]);
		unlink(p);
	}
	rmdir(unpriv_dir);
}

/* An unused uid: no process runs under it, so RLIMIT_NPROC counts only ours. */
static uid_t unused_uid(void)
{
	for (uid_t u = 47000 + (uid_t)(getpid() % 1000); u < 60000; u += 7) {
		bool used = false;
		DIR *d = opendir("/proc");
		ck_assert_ptr_nonnull(d);
		struct dirent *e;
		while (!used && (e = readdir(d))) {
			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			char path[300], line[256];
			snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
			FILE *f = fopen(path, "r");
			if (!f)
				continue;
			while (fgets(line, sizeof line, f)) {
				unsigned r0, r1;
				if (sscanf(line, "Uid: %u %u", &r0, &r1) == 2) {
					used = r0 == u || r1 == u;
					break;
				}
			}
			fclose(f);
		}
		closedir(d);
		if (!used)
			return u;
	}
	ck_abort_msg("no unused uid found in 47000..60000");
	return 0;
}

/* In the calling (forked) process: become `uid` with RLIMIT_NPROC = nproc
 * tasks. Root must not stay root: the kernel never applies RLIMIT_NPROC to
 * uid 0. CAP_IPC_LOCK is kept (and nothing else) so that the worker can still
 * mlockall() its image, which is larger than the usual RLIMIT_MEMLOCK, and
 * raising that limit would need CAP_SYS_RESOURCE, which exempts from
 * RLIMIT_NPROC. Returns 0 or -errno. */
static int drop_to(uid_t uid, rlim_t nproc)
{
	struct rlimit np = { nproc, nproc };
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	memset(data, 0, sizeof data);
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].permitted = CAP_TO_MASK(CAP_IPC_LOCK);
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective = CAP_TO_MASK(CAP_IPC_LOCK);
	if (prctl(PR_SET_KEEPCAPS, 1) != 0 || setgroups(0, NULL) != 0 ||
	    setresgid(uid, uid, uid) != 0 || setresuid(uid, uid, uid) != 0 ||
	    syscall(SYS_capset, &hdr, data) != 0 || setrlimit(RLIMIT_NPROC, &np) != 0)
		return -errno;
	return 0;
}

/* Run probe case pc's run() in a forked child set up as the runner sets up
 * a worker; report what it returned and what it left behind. nproc > 0:
 * under an unused uid with that RLIMIT_NPROC. */
static void run_direct(const struct pcase *pc, enum sched_policy pol, rlim_t nproc,
		       struct direct_out *out)
{
	struct direct_out *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(sh, MAP_FAILED);
	memset(sh, 0, sizeof *sh);
	const struct probe *p = probe_find(pc->probe);
	ck_assert_ptr_nonnull(p);
	uid_t uid = nproc ? unused_uid() : 0;
	static volatile int stop;

	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char err[400];
		int rc;
		if (nproc && (rc = drop_to(uid, nproc)) != 0) {
			snprintf(sh->reason, sizeof sh->reason, "dropping to uid %u: %s",
				 (unsigned)uid, strerror(-rc));
			sh->setup_failed = 1;
			_exit(1);
		}
		struct probe_ctx c;
		memset(&c, 0, sizeof c);
		c.probe = p;
		for (size_t i = 0; i < p->decl.nparams; i++)
			c.values[i] = strcmp(p->decl.params[i].name, pc->param) == 0
				? pc->value : p->decl.params[i].def;
		c.iterations = 6;
		c.runs = 2;
		c.warmup = 1;
		c.policy = req_sched_policy(pol);
		c.priority = pol == POLICY_OTHER ? 0 : sched_get_priority_max(c.policy);
		c.cpu = -1;
		c.timeout_ns = 60ull * 1000000000ull;
		c.tb = timebase_get();
		c.self_dir = nproc ? unpriv_dir : RTC_BINARY_DIR;
		c.stop = &stop;
		size_t bytes;
		c.res = result_alloc_for(&p->decl, 0, &bytes);
		if (!c.res || !c.tb) {
			snprintf(sh->reason, sizeof sh->reason, "no result memory or timebase");
			sh->setup_failed = 1;
			_exit(1);
		}
		for (unsigned i = 0; i < p->decl.nmetrics; i++)
			c.m[i] = result_metric(c.res, i);
		if ((pol != POLICY_OTHER &&
		     (rc = rtenv_limit_rttime(c.timeout_ns, err, sizeof err)) != 0) ||
		    (rc = rtenv_lock_memory(64 * 1024, err, sizeof err)) != 0 ||
		    (rc = rtenv_set_policy(c.policy, c.priority, err, sizeof err)) != 0) {
			snprintf(sh->reason, sizeof sh->reason, "worker set-up: %s", err);
			sh->setup_failed = 1;
			_exit(1);
		}
		for (unsigned i = 0; i < p->decl.nmetrics; i++)
			probe_set_scale(&c, i, 1.0);
		sh->rc = p->run(&c);
		/* What the probe left: judged the moment run() returns. */
		sh->children = children_of(getpid(), &sh->zombies);
		sh->threads = threads_of_self();
		snprintf(sh->reason, sizeof sh->reason, "%s", c.res->reason);
		_exit(0);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	*out = *sh;
	munmap(sh, sizeof *sh);
	ck_assert_msg(!out->setup_failed, "%s", out->reason);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "stand-in worker ended with status %#x", (unsigned)status);
}

START_TEST(direct_leaves_nothing)
{
	enum sched_policy pol;
	const struct pcase *pc = case_of(_i, &pol);
	struct direct_out out;
	run_direct(pc, pol, 0, &out);
	ck_assert_msg(out.rc == 0, "%s %s=%s under %s: run() returned %d: %s", pc->probe,
		      pc->param, pc->value, policy_name(pol), out.rc, out.reason);
	ck_assert_msg(out.children == 0, "%s %s=%s: %d children (%d zombies) left",
		      pc->probe, pc->param, pc->value, out.children, out.zombies);
	ck_assert_msg(out.threads == 1, "%s %s=%s: %d threads left", pc->probe, pc->param,
		      pc->value, out.threads);
}
END_TEST

/* ---- a fork that fails -------------------------------------------------- */

START_TEST(direct_nproc_eagain)
{
	const struct pcase *pc = &cases[_i];
	struct direct_out out;
	/* The stand-in worker is the only task of its uid: one more is over. */
	run_direct(pc, POLICY_OTHER, 1, &out);
	ck_assert_msg(out.rc == -EAGAIN, "%s %s=%s: run() returned %d (%s), expected -EAGAIN",
		      pc->probe, pc->param, pc->value, out.rc, out.reason);
	ck_assert_msg(strstr(out.reason, "EAGAIN") != NULL, "reason does not name EAGAIN: %s",
		      out.reason);
	ck_assert_msg(out.children == 0, "%d children left after the failure", out.children);
	ck_assert_int_eq(out.threads, 1);
}
END_TEST

struct runner_out {
	enum verdict verdict;
	int setup_failed, children, zombies;
	char reason[600];
};

START_TEST(runner_nproc_error_verdict)
{
	const struct pcase *pc = &cases[_i];
	struct runner_out *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(sh, MAP_FAILED);
	memset(sh, 0, sizeof *sh);
	uid_t uid = unused_uid();
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* This process and the worker it forks are the uid's two tasks:
		 * the probe's first fork (or thread) is one too many. */
		int rc = drop_to(uid, 2);
		if (rc) {
			snprintf(sh->reason, sizeof sh->reason, "dropping to uid %u: %s",
				 (unsigned)uid, strerror(-rc));
			sh->setup_failed = 1;
			_exit(1);
		}
		runner_become_supervisor();
		struct requirement q;
		struct req_file f = { .path = "<test>", .name = "test" };
		struct run_options o = { .self_dir = unpriv_dir };
		struct req_result r;
		make_req(&q, pc, POLICY_OTHER);
		runner_run(&q, &f, &o, &r);
		sh->verdict = r.verdict;
		snprintf(sh->reason, sizeof sh->reason, "%s", r.reason);
		req_result_free(&r);
		sh->children = children_of(getpid(), &sh->zombies);
		_exit(0);
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!sh->setup_failed, "%s", sh->reason);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_msg(sh->verdict == VERDICT_ERROR, "%s %s=%s: verdict %s (%s), expected error",
		      pc->probe, pc->param, pc->value, verdict_name(sh->verdict), sh->reason);
	ck_assert_msg(strstr(sh->reason, "EAGAIN") != NULL, "reason does not name EAGAIN: %s",
		      sh->reason);
	ck_assert_msg(sh->children == 0, "%d children (%d zombies) left", sh->children,
		      sh->zombies);
	munmap(sh, sizeof *sh);
	assert_no_children("after the failed run");
}
END_TEST

/* ---- rtconform-nop missing ---------------------------------------------- */

START_TEST(missing_nop_names_path)
{
	/* _i: 0 spawn, 1 fork-exec; a directory without rtconform-nop. */
	const struct pcase *pc = &cases[4 + _i];
	struct requirement q;
	struct req_file f = { .path = "<test>", .name = "test" };
	/* rtconform-worker is there, rtconform-nop is not */
	char dir[] = "/tmp/rtc-nonop-XXXXXX", link[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(link, sizeof link, "%s/rtconform-worker", dir);
	ck_assert_int_eq(symlink(RTC_BINARY_DIR "/rtconform-worker", link), 0);
	struct run_options o = { .self_dir = dir };
	struct req_result r;
	char want[96];
	snprintf(want, sizeof want, "%s/rtconform-nop", dir);
	make_req(&q, pc, POLICY_OTHER);
	runner_run(&q, &f, &o, &r);
	unlink(link);
	rmdir(dir);
	ck_assert_int_eq(r.verdict, VERDICT_ERROR);
	ck_assert_msg(strstr(r.reason, want) != NULL,
		      "reason does not name the path: %s", r.reason);
	req_result_free(&r);

	o.self_dir = NULL; /* never guessed from PATH */
	runner_run(&q, &f, &o, &r);
	ck_assert_int_eq(r.verdict, VERDICT_ERROR);
	ck_assert_msg(strstr(r.reason, "rtconform-nop") != NULL, "reason: %s", r.reason);
	req_result_free(&r);
}
END_TEST

static Suite *creation_suite(void)
{
	Suite *s = suite_create("creation");
	TCase *tc = tu_tcase(s, "runner", 120);
	tcase_add_loop_test(tc, runner_stats_ordered, 0, 2 * NCASES);
	tcase_add_loop_test(tc, runner_nproc_error_verdict, 0, NCASES);
	tcase_add_loop_test(tc, missing_nop_names_path, 0, 2);
	tc = tu_tcase(s, "direct", 120);
	tcase_add_loop_test(tc, direct_leaves_nothing, 0, 2 * NCASES);
	tcase_add_loop_test(tc, direct_nproc_eagain, 0, NCASES);
	return s;
}

int main(void)
{
	char err[300];
	struct timebase tb;
	/* Once, before Check forks each test: the workers inherit it. */
	if (timebase_init(&tb, err, sizeof err) != 0) {
		fprintf(stderr, "timebase: %s\n", err);
		return EXIT_FAILURE;
	}
	if (!mkdtemp(unpriv_dir) || chmod(unpriv_dir, 0755) != 0) {
		fprintf(stderr, "%s: %s\n", unpriv_dir, strerror(errno));
		return EXIT_FAILURE;
	}
	for (size_t i = 0; i < sizeof unpriv_files / sizeof *unpriv_files; i++) {
		int rc = copy_helper(unpriv_files[i]);
		if (rc) {
			fprintf(stderr, "copying %s to %s: %s\n", unpriv_files[i], unpriv_dir,
				strerror(-rc));
			unpriv_remove();
			return EXIT_FAILURE;
		}
	}
	int status = tu_run(creation_suite());
	unpriv_remove();
	return status;
}
