/* runner.c - one forked worker per requirement, under a watchdog. See runner.h.
 *
 * The supervisor maps the result memory (shared, anonymous: nothing in
 * /dev/shm to leak), forks the worker, then sleeps in poll() on a pidfd with
 * a 100 ms tick until the worker exits, the timeout passes, or an interrupt
 * arrives. The worker runs in its own process group so that it and every
 * peer it forked can be killed at once.
 */
#include "harness/runner.h"
#include "harness/stats.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/load.h"
#include "harness/measure/probes/probes.h"
#include "harness/measure/worker.h"
#include "harness/measure/rtenv.h"

struct result_shm *result_alloc(unsigned nmetrics, size_t *bytes)
{
	return result_alloc_series(nmetrics, 0, bytes);
}

/* The result memory as a memfd, so the exec'd worker can map it too; *fd
 * is left open for the caller (close-on-exec). */
static struct result_shm *result_alloc_fd(unsigned nmetrics, unsigned nseries, size_t *bytes,
					  int *fd);

struct result_shm *result_alloc_series(unsigned nmetrics, unsigned nseries, size_t *bytes)
{
	int fd;
	struct result_shm *r = result_alloc_fd(nmetrics, nseries, bytes, &fd);
	if (r)
		close(fd);
	return r;
}

static struct result_shm *result_alloc_fd(unsigned nmetrics, unsigned nseries, size_t *bytes,
					  int *fd)
{
	size_t stride = offsetof(struct metric_data, hist) + hist_bytes(HIST_DEFAULT_BITS);
	stride = (stride + 63) & ~(size_t)63;
	if (nseries > PROBE_MAX_SERIES)
		nseries = PROBE_MAX_SERIES;
	size_t total = sizeof(struct result_shm) + (size_t)(nmetrics + nseries) * stride;
	/* A memfd: anonymous (nothing in /dev/shm to leak), shareable across
	 * the worker's exec, gone when the last mapping and fd are. */
	*fd = memfd_create("rtconform-result", MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	if (ftruncate(*fd, (off_t)total) != 0) {
		int e = errno;
		close(*fd);
		errno = e;
		return NULL;
	}
	struct result_shm *r = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (r == MAP_FAILED) {
		int e = errno;
		close(*fd);
		errno = e;
		return NULL;
	}
	memset(r, 0, total); /* touch every page before any measurement */
	r->nmetrics = nmetrics;
	r->metric_stride = (uint32_t)stride;
	r->nseries_alloc = nseries;
	for (unsigned i = 0; i < nmetrics + nseries; i++) {
		struct metric_data *m = result_metric(r, i);
		m->ns_per_unit = 1.0;
		hist_init(&m->hist, HIST_DEFAULT_BITS);
	}
	*bytes = total;
	return r;
}

void runner_counts(const struct requirement *r, const struct run_options *o,
		   uint64_t *iterations, uint64_t *runs, uint64_t *warmup)
{
	*iterations = r->iterations;
	*runs = r->runs;
	*warmup = r->warmup;
	if (o && o->quick) {
		uint64_t full = *iterations;
		*iterations = *iterations / 10 ? *iterations / 10 : 1;
		*runs = *runs < 3 ? *runs : 3;
		*warmup = *warmup / 10;
		/* A smoke run still judges every limit: keep enough samples for
		 * the most demanding percentile, up to the file's own count. */
		uint64_t need = 1;
		for (size_t i = 0; i < r->nlimits; i++) {
			uint64_t n = stat_min_samples(&r->limits[i].stat);
			if (n > need)
				need = n;
		}
		uint64_t per_run = (need + *runs - 1) / *runs;
		if (*iterations < per_run)
			*iterations = per_run < full ? per_run : full;
	}
	if (o && o->iterations_override)
		*iterations = o->iterations_override;
	if (o && o->runs_override)
		*runs = o->runs_override;
	if (*runs > RTC_MAX_RUNS)
		*runs = RTC_MAX_RUNS;
}

static void result_init(struct req_result *out, const struct requirement *r,
			const struct req_file *f)
{
	memset(out, 0, sizeof *out);
	out->req = r;
	out->file = f;
	out->probe = probe_find(r->probe);
	out->policy = req_sched_policy(r->policy);
	out->priority = req_priority(r);
	out->started = time(NULL);
}

void req_result_error(struct req_result *out, const struct requirement *r,
		      const struct req_file *f, const char *fmt, ...)
{
	if (!out->req)
		result_init(out, r, f);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof out->reason, fmt, ap);
	va_end(ap);
	out->verdict = VERDICT_ERROR;
}

void req_result_free(struct req_result *r)
{
	if (r->res)
		munmap(r->res, r->res_bytes);
	r->res = NULL;
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Kill the worker's process group and reap everything of it we can. */
static void reap_group(pid_t pgid)
{
	kill(-pgid, SIGKILL);
	/* We are a child subreaper (set in main), so orphaned peers come back
	 * to us; reap those of this group without blocking forever. */
	for (int tries = 0; tries < 200; tries++) {
		pid_t p = waitpid(-pgid, NULL, WNOHANG);
		if (p < 0 && errno == ECHILD)
			return;
		if (p == 0) {
			struct timespec ts = { 0, 5 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void runner_run(const struct requirement *r, const struct req_file *f,
		const struct run_options *o, struct req_result *out)
{
	result_init(out, r, f);
	const struct probe *p = out->probe;
	double t_start = now_s();
	if (!p) {
		req_result_error(out, r, f, "unknown probe '%s'", r->probe);
		return;
	}
	char why[300];
	if (p->supported && p->supported(why, sizeof why)) {
		req_result_error(out, r, f, "probe %s cannot run here: %s", p->decl.name, why);
		return;
	}

	struct probe_ctx c;
	memset(&c, 0, sizeof c);
	c.probe = p;
	runner_counts(r, o, &c.iterations, &c.runs, &c.warmup);
	c.policy = out->policy;
	c.priority = out->priority;
	c.cpu = r->cpu;
	c.tb = timebase_get();
	c.self_dir = o ? o->self_dir : NULL;
	c.timeout_ns = r->timeout_ns;
	c.ncpus = rtenv_allowed_list(c.allowed, PROBE_MAX_CPUS);
	for (size_t i = 0; i < p->decl.nparams && i < PROBE_MAX_PARAMS; i++) {
		const char *v = req_param(r, p->decl.params[i].name);
		c.values[i] = v ? v : p->decl.params[i].def;
	}
	if (!c.tb) {
		req_result_error(out, r, f, "internal error: no timebase");
		return;
	}

	int res_fd = -1;
	out->res = result_alloc_fd((unsigned)p->decl.nmetrics,
				   p->per_cpu_series ? (unsigned)c.ncpus : 0, &out->res_bytes, &res_fd);
	if (!out->res) {
		req_result_error(out, r, f, "cannot map result memory: %s", strerror(errno));
		return;
	}
	c.res = out->res;
	for (unsigned i = 0; i < p->decl.nmetrics; i++)
		c.m[i] = result_metric(out->res, i);
	worker_spec_store(out->res, &c);
	/* The slim worker binary beside rtconform (see worker.h); library
	 * callers that give no self_dir measure in the forked process itself. */
	char worker_path[1200] = "";
	if (c.self_dir)
		snprintf(worker_path, sizeof worker_path, "%s/rtconform-worker", c.self_dir);

	/* The background load runs from before the warm-up until the worker is
	 * gone, whatever becomes of the worker. */
	struct load_proc lp;
	load_init(&lp);
	if (r->load) {
		char lerr[600];
		int lrc = load_start(r->load, &lp, lerr, sizeof lerr);
		snprintf(out->load_cmd, sizeof out->load_cmd, "%s", lp.cmd);
		if (lrc == 0)
			lrc = load_check(&lp, LOAD_SETTLE_MS, lerr, sizeof lerr);
		if (lrc != 0) {
			load_stop(&lp, NULL, 0);
			close(res_fd);
			req_result_error(out, r, f, "background load: %s", lerr);
			return;
		}
	}

	/* The watchdog times the worker only, not the load's start-up check. */
	double deadline = now_s() + (double)r->timeout_ns / 1e9;
	fflush(NULL); /* the worker must not inherit unflushed output */
	pid_t pid = fork();
	if (pid < 0) {
		req_result_error(out, r, f, "cannot fork the worker: %s", strerror(errno));
		load_stop(&lp, NULL, 0);
		close(res_fd);
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (!worker_path[0])
			worker_main(&c);
		char fdarg[16];
		snprintf(fdarg, sizeof fdarg, "%d", res_fd);
		int fl = fcntl(res_fd, F_GETFD);
		if (fl >= 0)
			fcntl(res_fd, F_SETFD, fl & ~FD_CLOEXEC);
		char *const args[] = { worker_path, fdarg, NULL };
		execv(worker_path, args);
		snprintf(out->res->reason, sizeof out->res->reason,
			 "cannot run the worker %.400s: %s (it is built beside rtconform)",
			 worker_path, strerror(errno));
		out->res->state = WS_FAILED;
		_exit(127);
	}
	close(res_fd);
	setpgid(pid, pid); /* also done in the child: whichever runs first wins */

	int pfd = pidfd_open_(pid);
	int status = 0;
	bool exited = false, timed_out = false, interrupted = false;
	while (!exited) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid) {
			exited = true;
			break;
		}
		if (o && o->interrupted && *o->interrupted) {
			interrupted = true;
			break;
		}
		double now = now_s();
		if (now >= deadline) {
			timed_out = true;
			break;
		}
		if (o && o->progress)
			o->progress(out, out->res->runs_done, c.runs, now - t_start, o->progress_arg);
		int ms = (int)((deadline - now) * 1000.0) + 1;
		if (ms > 100)
			ms = 100;
		if (pfd >= 0) {
			struct pollfd pf = { .fd = pfd, .events = POLLIN };
			poll(&pf, 1, ms);
		} else {
			struct timespec ts = { 0, (long)ms * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	if (!exited) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (pfd >= 0)
		close(pfd);
	reap_group(pid);
	if (p->cleanup)
		p->cleanup(out->res);
	char load_err[600] = "";
	int load_rc = load_stop(&lp, load_err, sizeof load_err);
	out->seconds = now_s() - t_start;

	struct result_shm *res = out->res;
	uint32_t done = res->runs_done;
	if (interrupted) {
		req_result_error(out, r, f, "interrupted (after %u of %llu runs)", done,
				 (unsigned long long)c.runs);
	} else if (timed_out) {
		req_result_error(out, r, f,
				 "timed out after %.1f s (timeout %.1f s; %u of %llu runs done); "
				 "the worker was killed",
				 out->seconds, (double)r->timeout_ns / 1e9, done,
				 (unsigned long long)c.runs);
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *extra = sig == SIGXCPU || (sig == SIGKILL && c.policy != SCHED_OTHER)
			? " (a real-time worker that runs past its timeout without blocking "
			  "is stopped by RLIMIT_RTTIME)"
			: "";
		req_result_error(out, r, f, "worker killed by signal %d (%s)%s after %u of %llu runs%s%s",
				 sig, strsignal(sig), extra, done, (unsigned long long)c.runs,
				 res->reason[0] ? ": " : "", res->reason);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || res->state != WS_DONE) {
		if (res->reason[0])
			req_result_error(out, r, f, "%s", res->reason);
		else
			req_result_error(out, r, f,
					 "worker exited with status %d after %u of %llu runs "
					 "without finishing or saying why",
					 WIFEXITED(status) ? WEXITSTATUS(status) : -1, done,
					 (unsigned long long)c.runs);
	} else if (load_rc == -ECHILD) {
		/* Figures taken partly without the load would pass for loaded ones. */
		req_result_error(out, r, f, "background load ended during the measurement: %s",
				 load_err);
	} else {
		verdict_judge(out);
	}
	if (load_rc == -EBUSY && out->verdict != VERDICT_ERROR)
		req_result_error(out, r, f, "background load could not be stopped: %s", load_err);
}


