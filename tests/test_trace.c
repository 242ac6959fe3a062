/* SPDX-License-Identifier: Apache-2.0 */
/* test_trace.c - trace on breach without a kernel: the worker's trip (one
 * marker, tracing stopped, every metric disarmed, what tripped recorded),
 * trips in a metric's units, the trip a requirement asks for, the trace
 * file's name, and which instances the stale-instance sweep removes (in a
 * directory standing in for tracefs's instances). tests/cli/trace.sh runs
 * it against tracefs. */
#include <check.h>

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/procid.h"
#include "harness/explain.h"
#include "harness/measure/probes/probes.h"
#include "harness/runner.h"
#include "harness/trace.h"
#include "requirements/loader.h"
#include "test_util.h"

/* Result memory of sem-pingpong with its trace files as two pipes. */
struct fixture {
	struct result_shm *res;
	size_t bytes;
	int marker[2], on[2];
};

static void fixture_open(struct fixture *x, bool armed)
{
	const struct probe *p = probe_find("sem-pingpong");
	ck_assert_ptr_nonnull(p);
	x->res = result_alloc_for(&p->decl, 0, &x->bytes);
	ck_assert_ptr_nonnull(x->res);
	ck_assert_int_eq(pipe2(x->marker, O_NONBLOCK), 0);
	ck_assert_int_eq(pipe2(x->on, O_NONBLOCK), 0);
	if (armed) {
		x->res->trace.marker_fd = x->marker[1];
		x->res->trace.on_fd = x->on[1];
	}
	snprintf(x->res->trace.id, sizeof x->res->trace.id, "REQ-1");
	probe_trace_attach(x->res, p);
}

static void fixture_close(struct fixture *x)
{
	probe_trace_attach(NULL, NULL);
	for (int i = 0; i < 2; i++) {
		close(x->marker[i]);
		close(x->on[i]);
	}
	req_result_free(&(struct req_result){ .res = x->res, .res_bytes = x->bytes });
}

static ssize_t drain(int fd, char *buf, size_t len)
{
	ssize_t n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = 0;
	return n;
}

START_TEST(first_breach_trips_once)
{
	struct fixture x;
	fixture_open(&x, true);
	struct metric_data *per_op = result_metric(x.res, 0), *wakeup = result_metric(x.res, 1);
	per_op->ns_per_unit = 0.5; /* half a tick per unit, as per-op records */
	per_op->trip_ns = 1000;
	wakeup->ns_per_unit = 1.0;
	wakeup->trip_ns = 5000;
	probe_trace_scale(x.res);
	ck_assert_uint_eq(per_op->trip, 2000);
	ck_assert_uint_eq(wakeup->trip, 5000);
	ck_assert_uint_eq(result_metric(x.res, 2)->trip, UINT64_MAX); /* a count: unarmed */

	char buf[512];
	metric_record(per_op, 0, 2000); /* exactly 1000 ns: not above */
	metric_record(wakeup, 0, 5000);
	ck_assert_int_lt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_uint_eq(x.res->trace.tripped, 0);

	metric_record(per_op, 2, 2001);
	ck_assert_int_gt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "rtconform breach: requirement REQ-1 metric per-op value 1001 ns "
			      "> 1000 ns run 3\n");
	ck_assert_int_eq(drain(x.on[0], buf, sizeof buf), 1);
	ck_assert_str_eq(buf, "0");
	ck_assert_uint_eq(x.res->trace.tripped, 1);
	ck_assert_uint_eq(x.res->trace.metric, 0);
	ck_assert_uint_eq(x.res->trace.run, 2);
	ck_assert_uint_eq(x.res->trace.value, 2001);
	ck_assert_uint_eq(x.res->trace.index, 1); /* per-op's first sample of run 3 */
	ck_assert_uint_eq(x.res->trace.saves, 1);
	ck_assert_uint_eq(x.res->trace.saving, 2); /* stopped: the supervisor's to save */
	/* per-op owns the trace: only a larger per-op sample comes back */
	ck_assert_uint_eq(per_op->trip, 2001);
	ck_assert_uint_eq(wakeup->trip, UINT64_MAX);
	ck_assert_uint_eq(per_op->hist.count, 2); /* the breaching sample is recorded too */

	/* The other metric is disarmed for good, a new run's rescale too. */
	probe_trace_scale(x.res);
	ck_assert_uint_eq(wakeup->trip, UINT64_MAX);
	ck_assert_uint_eq(per_op->trip, 2001);
	metric_record(wakeup, 2, 900000);
	ck_assert_int_lt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_uint_eq(x.res->trace.metric, 0);
	/* a larger per-op sample while the save is pending: counted, not traced */
	metric_record(per_op, 2, 3000);
	ck_assert_int_lt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_uint_eq(x.res->trace.later, 1);
	ck_assert_uint_eq(x.res->trace.later_max, 3000);
	fixture_close(&x);
}
END_TEST

/* Re-armed (the supervisor saved the trace: saving 0), the trace stops at
 * a sample larger than every one before, and only there; after
 * PROBE_TRACE_MAX_SAVES stops a rising ramp is counted, not traced. */
START_TEST(worst_breach_rearms)
{
	struct fixture x;
	fixture_open(&x, true);
	struct metric_data *per_op = result_metric(x.res, 0);
	per_op->ns_per_unit = 1.0;
	per_op->trip_ns = 1000;
	probe_trace_scale(x.res);
	char buf[512];
	metric_record(per_op, 0, 1500);
	ck_assert_int_gt(drain(x.marker[0], buf, sizeof buf), 0);
	metric_record(per_op, 0, 3000); /* pending: counted */
	x.res->trace.saving = 0;        /* saved and re-armed */
	metric_record(per_op, 0, 2500); /* above the traced, below the one counted */
	ck_assert_int_lt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_uint_eq(x.res->trace.later, 2);
	metric_record(per_op, 1, 1200); /* below the traced: nothing */
	ck_assert_uint_eq(x.res->trace.later, 2);
	metric_record(per_op, 1, 4000);
	ck_assert_int_gt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "rtconform breach: requirement REQ-1 metric per-op value 4000 ns "
			      "> 1000 ns run 2\n");
	ck_assert_uint_eq(x.res->trace.value, 4000);
	ck_assert_uint_eq(x.res->trace.run, 1);
	ck_assert_uint_eq(x.res->trace.index, 2);
	ck_assert_uint_eq(x.res->trace.saves, 2);
	ck_assert_uint_eq(x.res->trace.later, 0); /* none above it yet */
	/* a rising ramp, each sample saved at once: PROBE_TRACE_MAX_SAVES stops */
	for (uint64_t v = 5000; v < 5020; v++) {
		x.res->trace.saving = 0;
		metric_record(per_op, 1, v);
	}
	ck_assert_uint_eq(x.res->trace.saves, PROBE_TRACE_MAX_SAVES);
	ck_assert_uint_eq(x.res->trace.value, 5000 + PROBE_TRACE_MAX_SAVES - 3);
	ck_assert_uint_eq(x.res->trace.later, 20 - (PROBE_TRACE_MAX_SAVES - 2));
	ck_assert_uint_eq(x.res->trace.later_max, 5019);
	fixture_close(&x);
}
END_TEST

/* Result memory as made: nothing armed, no fd, no trip whatever the value. */
START_TEST(unarmed_never_trips)
{
	struct fixture x;
	fixture_open(&x, false);
	ck_assert_int_eq(x.res->trace.marker_fd, -1);
	for (unsigned i = 0; i < x.res->nmetrics; i++)
		ck_assert_uint_eq(result_metric(x.res, i)->trip, UINT64_MAX);
	metric_record(result_metric(x.res, 0), 0, UINT64_MAX - 1);
	char buf[64];
	ck_assert_int_lt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_uint_eq(x.res->trace.tripped, 0);
	fixture_close(&x);
}
END_TEST

/* timer-wakeup records into per-CPU series: they trip with metric 0. */
START_TEST(series_trip_with_metric_0)
{
	const struct probe *p = probe_find("timer-wakeup");
	ck_assert_ptr_nonnull(p);
	size_t bytes;
	struct result_shm *res = result_alloc_for(&p->decl, 2, &bytes);
	ck_assert_ptr_nonnull(res);
	int fds[2][2];
	ck_assert_int_eq(pipe2(fds[0], O_NONBLOCK), 0);
	ck_assert_int_eq(pipe2(fds[1], O_NONBLOCK), 0);
	res->trace.marker_fd = fds[0][1];
	res->trace.on_fd = fds[1][1];
	snprintf(res->trace.id, sizeof res->trace.id, "TW");
	probe_trace_attach(res, p);
	result_metric(res, 0)->trip_ns = 100000;
	probe_trace_scale(res);
	ck_assert_uint_eq(result_series(res, 1)->trip, 100000);
	metric_record(result_series(res, 1), 0, 150000);
	char buf[256];
	ck_assert_int_gt(drain(fds[0][0], buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "rtconform breach: requirement TW metric wakeup value 150000 ns > "
			      "100000 ns run 1\n");
	ck_assert_uint_eq(res->trace.metric, 0);
	ck_assert_int_eq(res->trace.cpu, res->series_cpu[1]);
	ck_assert_uint_eq(res->trace.index, 1);
	/* metric 0 owns the trace: its every series, and it, trip above the sample */
	ck_assert_uint_eq(result_series(res, 0)->trip, 150000);
	ck_assert_uint_eq(result_metric(res, 0)->trip, 150000);
	ck_assert_uint_eq(result_metric(res, 1)->trip, UINT64_MAX);
	probe_trace_attach(NULL, NULL);
	for (int i = 0; i < 2; i++) {
		close(fds[i][0]);
		close(fds[i][1]);
	}
	req_result_free(&(struct req_result){ .res = res, .res_bytes = bytes });
}
END_TEST

/* A run by time: the marker (and the note's run) names the measured run,
 * not the recorded run it is merged into (issue 27 item 5); a run by
 * count names its run as before. */
START_TEST(by_time_marker_names_the_measured_run)
{
	struct fixture x;
	fixture_open(&x, true);
	struct probe_ctx c;
	memset(&c, 0, sizeof c);
	c.probe = probe_find("sem-pingpong");
	c.res = x.res;
	c.worker = getpid();
	c.m[0] = result_metric(x.res, 0);
	c.m[1] = result_metric(x.res, 1);
	if (!timebase_get()) {
		struct timebase tb;
		char err[200];
		ck_assert_msg(timebase_init(&tb, err, sizeof err) == 0, "timebase: %s", err);
	}
	c.tb = timebase_get();
	ck_assert_ptr_nonnull(c.tb);
	c.m[0]->ns_per_unit = 1.0;
	c.m[0]->trip_ns = 1000;
	c.duration_ns = 3600ull * 1000000000ull; /* never reached here */
	c.runs = UINT32_MAX;
	const uint32_t last = 2 * RTC_MAX_RUNS + 2;
	for (uint32_t k = 0; k <= last; k++) {
		probe_run_begin(&c, k);
		if (k == last)
			probe_record(&c, 0, 5000);
		probe_run_end(&c, 1);
	}
	ck_assert_uint_eq(c.run, last >> 2); /* recorded run 500 (4 measured runs each) */
	char buf[256];
	ck_assert_int_gt(drain(x.marker[0], buf, sizeof buf), 0);
	char want[200];
	snprintf(want, sizeof want, "rtconform breach: requirement REQ-1 metric per-op value "
		 "5000 ns > 1000 ns run %u\n", last + 1);
	ck_assert_str_eq(buf, want);
	ck_assert_uint_eq(x.res->trace.run, last);
	fixture_close(&x);

	/* by count: the run given */
	fixture_open(&x, true);
	result_metric(x.res, 0)->ns_per_unit = 1.0;
	result_metric(x.res, 0)->trip_ns = 1000;
	probe_trace_scale(x.res);
	metric_record(result_metric(x.res, 0), 6, 5000);
	ck_assert_int_gt(drain(x.marker[0], buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "rtconform breach: requirement REQ-1 metric per-op value 5000 ns > "
			      "1000 ns run 7\n");
	fixture_close(&x);
}
END_TEST

/* /proc/stat's steal time: each CPU's 8th number, in USER_HZ ticks, as
 * ns; between two readings of the same CPU, never backwards, never of a
 * CPU a reading lacks. */
START_TEST(steal_of_a_cpu)
{
	char a[] = "/tmp/rtc-steal-a-XXXXXX", b[] = "/tmp/rtc-steal-b-XXXXXX";
	int fa = mkstemp(a), fb = mkstemp(b);
	ck_assert(fa >= 0 && fb >= 0);
	long hz = sysconf(_SC_CLK_TCK);
	dprintf(fa, "cpu  10 0 0 0 0 0 0 7 0 0\ncpu0 1 2 3 4 5 6 7 100 0 0\n"
		    "cpu1 1 2 3 4 5 6 7 200 0 0\nintr 1 2 3\n");
	dprintf(fb, "cpu  10 0 0 0 0 0 0 9 0 0\ncpu0 1 2 3 4 5 6 7 100 0 0\n"
		    "cpu1 1 2 3 4 5 6 7 %ld 0 0\n", 200 + hz / 2);
	close(fa);
	close(fb);
	struct steal_snap s0, s1;
	ck_assert_int_eq(steal_read(a, &s0), 0);
	ck_assert_int_eq(steal_read(b, &s1), 0);
	ck_assert_uint_eq(s0.n, 2);
	uint64_t ns = 0, span = 0;
	ck_assert(steal_between(&s0, &s1, 1, &ns, &span));
	ck_assert_uint_eq(ns, (uint64_t)(hz / 2) * 1000000000u / (uint64_t)hz);
	ck_assert(steal_between(&s0, &s1, 0, &ns, &span));
	ck_assert_uint_eq(ns, 0);
	ck_assert(!steal_between(&s0, &s1, 2, &ns, &span)); /* no such CPU */
	ck_assert(!steal_between(&s1, &s0, 1, &ns, &span)); /* backwards */
	steal_free(&s0);
	steal_free(&s1);
	ck_assert_int_eq(steal_read("/nonexistent/stat", &s0), -1);
	ck_assert(!steal_between(&s0, &s0, 0, &ns, &span));
	unlink(a);
	unlink(b);
}
END_TEST

static struct req_file *load(const char *reqbody, struct diag_list *d)
{
	char doc[2048];
	int n = snprintf(doc, sizeof doc,
			 "<requirements xmlns=\"urn:rtconform:requirements:1\" name=\"t\">\n"
			 "<requirement id=\"R\"><probe name=\"sem-pingpong\"/>\n%s\n"
			 "</requirement></requirements>\n", reqbody);
	return req_load_memory(doc, (size_t)n, "t.xml", d);
}

START_TEST(trip_of_a_requirement)
{
	struct diag_list d = { 0 };
	/* The tightest time max= of the metric's limits; a limit without
	 * metric= is the first metric's; cycles and counts have no trip. */
	struct req_file *f = load("<limit statistic=\"mean\" max=\"50us\"/>"
				  "<limit metric=\"per-op\" statistic=\"max\" max=\"300us\"/>"
				  "<limit metric=\"wakeup\" statistic=\"max\" max=\"100 cycles\"/>"
				  "<trace/>", &d);
	ck_assert_ptr_nonnull(f);
	const struct requirement *r = &f->reqs[0];
	ck_assert(r->trace.wanted);
	ck_assert(req_trip_ns(r, "per-op", true) == 50000.0);
	ck_assert(req_trip_ns(r, "per-op", false) == 300000.0);
	ck_assert(req_trip_ns(r, "wakeup", false) == 0.0);
	req_file_free(f);

	f = load("<limit statistic=\"mean\" max=\"50us\"/><trace metric=\"wakeup\" "
		 "threshold=\"2.5us\"/>", &d);
	ck_assert_ptr_nonnull(f);
	r = &f->reqs[0];
	ck_assert(req_trip_ns(r, "wakeup", false) == 2500.0);
	ck_assert(req_trip_ns(r, "per-op", true) == 0.0); /* only the named metric */
	req_file_free(f);
	ck_assert_uint_eq(d.n, 0);

	f = load("<trace threshold=\"soon\"/>", &d);
	ck_assert_ptr_null(f);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_ptr_nonnull(strstr(d.msgs[0], "t.xml:3: <trace> threshold=\"soon\""));
	diag_free(&d);
}
END_TEST

START_TEST(file_names)
{
	char buf[64];
	trace_file_name("SEM-RT.1", 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-SEM-RT.1.txt");
	trace_file_name("../a b/c", 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-_._a_b_c.txt");
	trace_file_name("a-very-long-requirement-identifier-that-goes-on", 1, buf, 24);
	ck_assert_str_eq(buf, "trace-a-very-long-r.txt");
	trace_file_name("SEM-RT.1", 2, buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-SEM-RT.1~2.txt");
	trace_file_name("a-very-long-requirement-identifier-that-goes-on", 12, buf, 24);
	ck_assert_str_eq(buf, "trace-a-very-lon~12.txt");
}
END_TEST

/* Two requirements of one run never share a trace file: the same id in two
 * files, ids that become one name, names that differ only in case. */
START_TEST(names_distinct_in_a_run)
{
	struct trace_names tn = { 0 };
	char buf[64];
	trace_name_claim(&tn, "X.1", buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-X.1.txt");
	trace_name_claim(&tn, "X.1", buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-X.1~2.txt");
	trace_name_claim(&tn, "x.1", buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-x.1~3.txt");
	trace_name_claim(&tn, "a b", buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-a_b.txt");
	trace_name_claim(&tn, "a/b", buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-a_b~2.txt");
	trace_names_free(&tn);
	ck_assert_uint_eq(tn.n, 0);
	trace_name_claim(NULL, "X.1", buf, sizeof buf);
	ck_assert_str_eq(buf, "trace-X.1.txt");
}
END_TEST

START_TEST(instance_names)
{
	struct trace_owner o;
	ck_assert(trace_instance_parse("rtconform-123-4567-4026531836-2", &o));
	ck_assert_int_eq(o.pid, 123);
	ck_assert(o.start == 4567 && o.pidns == 4026531836ull);
	ck_assert_uint_eq(o.serial, 2);
	static const char *const bad[] = {
		"rtconform-123-0",                /* the old form: owner unknown */
		"rtconform-123-4567-4026531836",  /* a field short */
		"rtconform-123-4567-40265-2-9",   /* a field more */
		"rtconform-0-4567-4026531836-2",  /* no pid 0 */
		"rtconform--1-4567-40265-2", "rtconform-+1-4567-40265-2",
		"rtconform-1-4567-40265-2x", "rtconform-1- 4567-40265-2",
		"rtconform-99999999999-1-1-1",    /* above any pid */
		"rtconform-1-123456789012345678901-1-1", "xrtconform-1-1-1-1", "",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!trace_instance_parse(bad[i], &o), "%s parsed", bad[i]);
}
END_TEST

/* A process's state as the kernel says: we run, with /proc's start time;
 * a zombie and a reaped child are gone. */
START_TEST(process_identity)
{
	ck_assert_uint_ne(procid_pidns(), 0);
	unsigned long long start = 0, again = 0;
	ck_assert_int_eq(procid_state(getpid(), &start), PROCID_ALIVE);
	ck_assert_int_eq(procid_state(getpid(), &again), PROCID_ALIVE);
	ck_assert(start > 0 && start == again);
	pid_t z = fork();
	if (z == 0)
		_exit(0);
	ck_assert_int_gt(z, 0);
	siginfo_t si;
	ck_assert_int_eq(waitid(P_PID, (id_t)z, &si, WEXITED | WNOWAIT), 0); /* a zombie now */
	ck_assert_int_eq(procid_state(z, NULL), PROCID_GONE);
	ck_assert_int_eq(waitpid(z, NULL, 0), z);
	ck_assert_int_eq(procid_state(z, NULL), PROCID_GONE);
}
END_TEST

static void make_dir(const char *root, const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", root, name);
	ck_assert_msg(mkdir(path, 0700) == 0, "%s: %s", path, strerror(errno));
}

static bool dir_exists(const char *root, const char *name)
{
	char path[1024];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", root, name);
	return stat(path, &st) == 0;
}

/* The sweep removes what it proves dead and nothing else: an instance of
 * a gone pid or of a pid now another process's, of our namespace; never
 * one of another namespace, of a live owner, of an unknown form. */
START_TEST(sweep_removes_only_the_provably_dead)
{
	char root[] = "/tmp/rtc-trace-sweep-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	unsigned long long ns = procid_pidns(), me = 0, parent = 0;
	ck_assert_uint_ne(ns, 0);
	ck_assert_int_eq(procid_state(getpid(), &me), PROCID_ALIVE);
	ck_assert_int_eq(procid_state(getppid(), &parent), PROCID_ALIVE);
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(dead, NULL, 0), dead);

	char kept[6][96], gone[2][96];
	snprintf(kept[0], sizeof kept[0], "rtconform-%d-%llu-%llu-0", (int)getpid(), me, ns);
	snprintf(kept[1], sizeof kept[1], "rtconform-%d-%llu-%llu-3", (int)getppid(), parent, ns);
	snprintf(kept[2], sizeof kept[2], "rtconform-%d-%llu-%llu-0", (int)dead, me, ns + 1);
	snprintf(kept[3], sizeof kept[3], "rtconform-%d-0", (int)dead); /* the old form */
	snprintf(kept[4], sizeof kept[4], "rtconform-%d-%llu-%llu-0-x", (int)dead, me, ns);
	snprintf(kept[5], sizeof kept[5], "someone-else-%d", (int)dead);
	snprintf(gone[0], sizeof gone[0], "rtconform-%d-%llu-%llu-1", (int)dead, me, ns);
	snprintf(gone[1], sizeof gone[1], "rtconform-%d-%llu-%llu-1", (int)getpid(), me + 1, ns);
	for (int i = 0; i < 6; i++)
		make_dir(root, kept[i]);
	for (int i = 0; i < 2; i++)
		make_dir(root, gone[i]);

	/* five rtconform instances may be in use; someone-else's is not counted */
	ck_assert_uint_eq(trace_sweep(root), 5);
	for (int i = 0; i < 6; i++)
		ck_assert_msg(dir_exists(root, kept[i]), "%s was removed", kept[i]);
	for (int i = 0; i < 2; i++)
		ck_assert_msg(!dir_exists(root, gone[i]), "%s was kept", gone[i]);
	ck_assert_uint_eq(trace_sweep(root), 5); /* nothing more to remove */
	tu_rm_tree(root);
	ck_assert_uint_eq(trace_sweep(root), 0); /* no directory, nothing in use */
}
END_TEST

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* The supervisor's side of keeping the worst breach, on a stand-in
 * instance: each stop at a new worst breach is saved and the instance
 * emptied and started again; trace_finish saves the last breach kept,
 * not what the re-armed buffer holds after it, and names its rank. */
START_TEST(finish_keeps_the_worst)
{
	struct fixture x;
	fixture_open(&x, true);
	struct metric_data *per_op = result_metric(x.res, 0);
	per_op->ns_per_unit = 1.0;
	per_op->trip_ns = 1000;
	probe_trace_scale(x.res);
	const struct probe *p = probe_find("sem-pingpong");
	char root[] = "/tmp/rtc-trace-keep-XXXXXX", out[600], file[TRACE_NAME_MAX], note[1024];
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(out, sizeof out, "%s/out", root);
	ck_assert_int_eq(mkdir(out, 0700), 0);
	struct trace_job t;
	trace_job_init(&t);
	snprintf(t.root, sizeof t.root, "%s", root);
	snprintf(t.inst, sizeof t.inst, "%s/inst", root);
	ck_assert_int_eq(mkdir(t.inst, 0700), 0);
	put_file(t.inst, "tracing_on", "0");

	trace_keep_poll(&t, x.res); /* nothing stopped: nothing kept */
	ck_assert_ptr_null(t.keep);
	metric_record(per_op, 0, 1500);
	put_file(t.inst, "trace", "breach 1500\n");
	trace_keep_poll(&t, x.res);
	ck_assert_uint_eq(t.kept, 1);
	ck_assert_uint_eq(x.res->trace.saving, 0); /* re-armed */
	char path[1100];
	snprintf(path, sizeof path, "%s/trace", t.inst);
	char *text = tu_slurp(path, NULL);
	ck_assert_str_eq(text, ""); /* the buffer emptied */
	free(text);
	snprintf(path, sizeof path, "%s/tracing_on", t.inst);
	text = tu_slurp(path, NULL);
	ck_assert_str_eq(text, "1");
	free(text);
	metric_record(per_op, 0, 1200); /* below: not stopped at */
	metric_record(per_op, 1, 8190);
	put_file(t.inst, "trace", "breach 8190\n");
	trace_keep_poll(&t, x.res);
	ck_assert_uint_eq(t.kept, 2);
	put_file(t.inst, "trace", "after the worst\n"); /* the re-armed buffer */
	metric_record(per_op, 1, 3000);
	trace_finish(&t, x.res, p, "W", out, NULL, file, sizeof file, note, sizeof note,
		     &(struct explain *){ NULL });
	snprintf(path, sizeof path, "%s/trace-W.txt", out);
	text = tu_slurp(path, NULL);
	ck_assert_str_eq(text, "breach 8190\n");
	free(text);
	ck_assert_msg(strstr(note, "trace: tripped by per-op 8.19 us > 1 us in run 2 (sample 1 "
			      "of the run): the max itself; the largest of 2 breaches the trace stopped at "
			      "(1 superseded, at most 8)"), "%s", note);
	tu_rm_tree(root);
	fixture_close(&x);
}
END_TEST

/* How the sample explained ranks against the max, when the max came while
 * no trace could be taken. */
START_TEST(rank_names_a_max_not_traced)
{
	struct fixture x;
	fixture_open(&x, true);
	struct metric_data *per_op = result_metric(x.res, 0);
	per_op->ns_per_unit = 1000.0; /* a unit a microsecond */
	per_op->trip_ns = 100000;
	probe_trace_scale(x.res);
	metric_record(per_op, 0, 323); /* stopped at, not yet saved */
	metric_record(per_op, 0, 900);
	metric_record(per_op, 0, 8190);
	char buf[400];
	trace_rank_text(x.res, NULL, buf, sizeof buf);
	ck_assert_str_eq(buf, " (sample 1 of the run): the 3rd largest breach; the max 8.19 ms and 1 "
			      "other samples above it came while the trace before it was being "
			      "saved, not traced");
	fixture_close(&x);
}
END_TEST

/* trace_finish on a stand-in instance (a plain directory, no tracefs):
 * the trace is copied; an output directory that cannot be written is named
 * as the cause; an instance that cannot be read is not blamed on the output
 * directory, and a root that is not tracefs is said to be unmounted. */
START_TEST(finish_names_the_true_cause)
{
	struct fixture x;
	fixture_open(&x, false);
	x.res->trace.tripped = 1;
	result_metric(x.res, 0)->ns_per_unit = 1.0;
	result_metric(x.res, 0)->trip_ns = 1000;
	x.res->trace.value = 2000;
	const struct probe *p = probe_find("sem-pingpong");
	char root[] = "/tmp/rtc-trace-finish-XXXXXX", out[600], file[TRACE_NAME_MAX], note[1024];
	struct explain *ex = NULL;
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(out, sizeof out, "%s/out", root);
	ck_assert_int_eq(mkdir(out, 0700), 0);

	struct trace_job t;
	trace_job_init(&t);
	snprintf(t.root, sizeof t.root, "%s", root);
	snprintf(t.inst, sizeof t.inst, "%s/inst", root);
	ck_assert_int_eq(mkdir(t.inst, 0700), 0);
	char path[1024];
	snprintf(path, sizeof path, "%s/trace", t.inst);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("the trace\n", f);
	fclose(f);
	trace_finish(&t, x.res, p, "R.1", out, NULL, file, sizeof file, note, sizeof note, &ex);
	ck_assert_ptr_null(ex); /* not explained: none kept */
	ck_assert_str_eq(file, "trace-R.1.txt");
	ck_assert_msg(strncmp(note, "trace: tripped by per-op 2 us > 1 us in run 1", 45) == 0,
		      "%s", note);
	/* what is saved is explained (docs/explain.md), or it is said why not */
	ck_assert_str_eq(note, "trace: tripped by per-op 2 us > 1 us in run 1: the max itself; not "
			       "explained: trace-R.1.txt:1: not a trace line (no [CPU] column): "
			       "'the trace'");
	snprintf(path, sizeof path, "%s/trace-R.1.txt", out);
	char *saved = tu_slurp(path, NULL);
	ck_assert_str_eq(saved, "the trace\n");
	free(saved);

	/* the output directory is gone: it is named */
	trace_job_init(&t);
	snprintf(t.root, sizeof t.root, "%s", root);
	snprintf(t.inst, sizeof t.inst, "%s/inst", root);
	trace_finish(&t, x.res, p, "R.2", "/nonexistent/rtc", NULL, file, sizeof file, note,
		     sizeof note, &ex);
	ck_assert_ptr_null(ex);
	ck_assert_str_eq(file, "");
	ck_assert_msg(strstr(note, "but /nonexistent/rtc/trace-R.2.txt could not be written: "
				   "No such file or directory"), "%s", note);

	/* the instance is out of reach and the root is no tracefs */
	trace_job_init(&t);
	snprintf(t.root, sizeof t.root, "%s", root);
	snprintf(t.inst, sizeof t.inst, "%s/gone", root);
	trace_finish(&t, x.res, p, "R.3", out, NULL, file, sizeof file, note, sizeof note, &ex);
	ck_assert_ptr_null(ex);
	ck_assert_str_eq(file, "");
	ck_assert_msg(strstr(note, "but the trace could not be saved: tracefs is no longer "
				   "mounted at /tmp/rtc-trace-finish-"), "%s", note);
	ck_assert_ptr_null(strstr(note, "could not be written"));

	/* a trace with its marker: the note ends in its largest parts */
	trace_job_init(&t);
	snprintf(t.root, sizeof t.root, "%s", root);
	snprintf(t.inst, sizeof t.inst, "%s/inst", root);
	snprintf(path, sizeof path, "%s/trace", t.inst);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# tracer: nop\n"
	      "  w-7  [001] ...1. 10.000100: tracing_mark_write: rtconform breach: requirement "
	      "R.4 metric per-op value 2000 ns > 1000 ns run 1\n", f);
	fclose(f);
	trace_finish(&t, x.res, p, "R.4", out, NULL, file, sizeof file, note, sizeof note, &ex);
	ck_assert_str_eq(file, "trace-R.4.txt");
	ck_assert_str_eq(note, "trace: tripped by per-op 2 us > 1 us in run 1: the max itself; explained: 100% "
			       "unexplained (no event tells)");
	/* and the explanation is kept for the reports (results.json's explain) */
	ck_assert_ptr_nonnull(ex);
	ck_assert_str_eq(ex->id, "R.4");
	ck_assert_uint_eq(ex->end_ns - ex->start_ns, 2000);
	ck_assert_uint_eq(ex->ncomp, 1);
	ck_assert_int_eq(ex->comp[0].kind, EXPLAIN_UNKNOWN);
	explain_free(ex);
	free(ex);
	tu_rm_tree(root);
	fixture_close(&x);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tu_tcase(s, "trace", 10);
	tcase_add_test(tc, first_breach_trips_once);
	tcase_add_test(tc, worst_breach_rearms);
	tcase_add_test(tc, finish_keeps_the_worst);
	tcase_add_test(tc, rank_names_a_max_not_traced);
	tcase_add_test(tc, names_distinct_in_a_run);
	tcase_add_test(tc, unarmed_never_trips);
	tcase_add_test(tc, series_trip_with_metric_0);
	tcase_add_test(tc, by_time_marker_names_the_measured_run);
	tcase_add_test(tc, steal_of_a_cpu);
	tcase_add_test(tc, trip_of_a_requirement);
	tcase_add_test(tc, file_names);
	tcase_add_test(tc, instance_names);
	tcase_add_test(tc, process_identity);
	tcase_add_test(tc, sweep_removes_only_the_provably_dead);
	tcase_add_test(tc, finish_names_the_true_cause);
	return tu_run(s);
}
