/* SPDX-License-Identifier: Apache-2.0 */
/* runner_prepare.c - the prepare stage (runner_stages.h): the effective
 * counts and duration of a requirement, and the result memory it maps.
 * Nothing is forked or started here: a requirement that cannot be measured
 * on this machine is refused before any process exists.
 */
#include "harness/runner_stages.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/statistic.h"
#include "harness/measure/rtenv.h"
#include "harness/measure/worker.h"

/* Where a block's negative histogram begins: after its own histogram. */
static size_t neg_hist_offset(void)
{
	size_t off = offsetof(struct metric_data, hist) + hist_bytes(HIST_DEFAULT_BITS);
	return (off + 63) & ~(size_t)63;
}

/* The result memory as a memfd, so the exec'd worker can map it too; *fd
 * is left open for the caller (close-on-exec). signed_room: every block has
 * room for a negative histogram (a probe with a signed metric; only the
 * signed ones use it, see result_set_kinds). */
static struct result_shm *result_alloc_fd(unsigned nmetrics, unsigned nseries, bool signed_room,
					  size_t *bytes, int *fd)
{
	size_t stride = neg_hist_offset();
	if (signed_room)
		stride += (hist_bytes(HIST_DEFAULT_BITS) + 63) & ~(size_t)63;
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
	r->trace.marker_fd = r->trace.on_fd = -1; /* no trace until one is armed */
	r->trace.kick_fd = -1;
	r->trace.owner = UINT32_MAX;              /* no metric owns it yet */
	r->ckpt.ask_fd = r->ckpt.go_fd = -1;      /* no journal until one is asked */
	for (unsigned i = 0; i < nmetrics + nseries; i++) {
		struct metric_data *m = result_metric(r, i);
		m->ns_per_unit = 1.0;
		m->trip = UINT64_MAX;
		hist_init(&m->hist, HIST_DEFAULT_BITS);
	}
	*bytes = total;
	return r;
}

static bool decl_has_signed(const struct probe_decl *d)
{
	return d->signed_metrics != 0;
}

static void make_signed(struct metric_data *m)
{
	m->neg_off = (uint32_t)neg_hist_offset();
	hist_init(metric_neg(m), HIST_DEFAULT_BITS);
}

/* Each metric's kind, from the declaration (the probe's metrics, then the
 * harness's), and a negative histogram for each signed one (and for the
 * series when metric 0 is signed). The memory was made by result_alloc_fd
 * with signed_room = decl_has_signed(d). */
static void result_set_kinds(struct result_shm *r, const struct probe_decl *d)
{
	for (unsigned i = 0; i < r->nmetrics && i < probe_decl_nmetrics(d); i++) {
		result_metric(r, i)->kind = probe_decl_metric(d, i)->kind;
		if (i < 32 && (d->signed_metrics >> i & 1u))
			make_signed(result_metric(r, i));
	}
	if (d->signed_metrics & 1u)
		for (unsigned s = 0; s < r->nseries_alloc; s++)
			make_signed(result_series(r, s));
}

struct result_shm *result_alloc(unsigned nmetrics, size_t *bytes)
{
	return result_alloc_series(nmetrics, 0, bytes);
}

static struct result_shm *alloc_closed(unsigned nmetrics, unsigned nseries, bool signed_room,
				       size_t *bytes)
{
	int fd;
	struct result_shm *r = result_alloc_fd(nmetrics, nseries, signed_room, bytes, &fd);
	if (r)
		close(fd);
	return r;
}

struct result_shm *result_alloc_for(const struct probe_decl *d, unsigned nseries, size_t *bytes)
{
	struct result_shm *r = alloc_closed((unsigned)probe_decl_nmetrics(d), nseries,
					    decl_has_signed(d), bytes);
	if (r)
		result_set_kinds(r, d);
	return r;
}

struct result_shm *result_alloc_series(unsigned nmetrics, unsigned nseries, size_t *bytes)
{
	return alloc_closed(nmetrics, nseries, false, bytes);
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
			uint64_t n = statistic_min_samples(&r->limits[i].stat);
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

uint64_t runner_interval(const struct requirement *r, const struct run_options *o)
{
	if (o && o->interval_ns)
		return o->interval_ns;
	if (r->interval_ns)
		return r->interval_ns;
	return runner_duration(r, o) ? INTERVAL_DEFAULT_NS : 0;
}

uint64_t runner_duration(const struct requirement *r, const struct run_options *o)
{
	return o && o->duration_override ? o->duration_override : r->duration_ns;
}

/* The probe context the worker will rebuild from the spec: counts, policy,
 * CPUs, timebase and every parameter's value (the file's or the default). */
static void fill_ctx(struct probe_ctx *c, const struct probe *p, const struct requirement *r,
		     const struct run_options *o, const struct req_result *out)
{
	memset(c, 0, sizeof *c);
	c->probe = p;
	runner_counts(r, o, &c->iterations, &c->runs, &c->warmup);
	c->policy = out->policy;
	c->priority = out->priority;
	c->cpu = r->cpu;
	c->tb = timebase_get();
	c->self_dir = o ? o->self_dir : NULL;
	c->duration_ns = runner_duration(r, o);
	c->timeout_ns = r->timeout_ns + c->duration_ns; /* the watchdog's */
	c->ncpus = rtenv_allowed_list(c->allowed, PROBE_MAX_CPUS);
	for (size_t i = 0; i < p->decl.nparams && i < PROBE_MAX_PARAMS; i++) {
		const char *v = req_param(r, p->decl.params[i].name);
		c->values[i] = v ? v : p->decl.params[i].def;
	}
}

/* The journal's two eventfds (probe_checkpoint). Without them the worker
 * measures as it would without a journal: the requirement's end is still
 * journaled, only its runs are not one by one. */
static void ckpt_open(struct runner_job *j, struct result_shm *res)
{
	j->ckpt_ask = eventfd(0, EFD_CLOEXEC);
	j->ckpt_go = eventfd(0, EFD_CLOEXEC);
	if (j->ckpt_ask < 0 || j->ckpt_go < 0) {
		runner_ckpt_close(j);
		return;
	}
	res->ckpt.ask_fd = j->ckpt_ask;
	res->ckpt.go_fd = j->ckpt_go;
}

int runner_prepare(const struct requirement *r, const struct req_file *f,
		   const struct run_options *o, struct req_result *out, struct runner_job *j)
{
	memset(j, 0, sizeof *j);
	j->res_fd = -1;
	j->ckpt_ask = j->ckpt_go = -1;
	j->pid = -1;
	load_init(&j->load);
	trace_job_init(&j->trace);
	runner_result_init(out, r, f);
	const struct probe *p = out->probe;
	j->t_start = runner_now_s();
	if (!p) {
		req_result_error(out, r, f, "unknown probe '%s'", r->probe);
		return -1;
	}
	char why[300];
	if (p->supported && p->supported(why, sizeof why)) {
		req_result_error(out, r, f, "probe %s cannot run here: %s", p->decl.name, why);
		return -1;
	}

	struct probe_ctx *c = &j->c;
	fill_ctx(c, p, r, o, out);
	out->duration_ns = c->duration_ns;
	if (!c->tb) {
		req_result_error(out, r, f, "internal error: no timebase");
		return -1;
	}
	/* A timebase the kernel contradicts (timebase_check.c) would time every
	 * figure wrong by its factor: nothing is measured with it. */
	if (!c->tb->check.done || c->tb->check.failed) {
		req_result_error(out, r, f, "%s", c->tb->check.done ? c->tb->check.error
				 : "internal error: the timebase was never checked against the kernel");
		return -1;
	}

	out->res = result_alloc_fd((unsigned)probe_decl_nmetrics(&p->decl),
				   p->per_cpu_series ? (unsigned)c->ncpus : 0,
				   decl_has_signed(&p->decl), &out->res_bytes, &j->res_fd);
	if (!out->res) {
		j->res_fd = -1;
		req_result_error(out, r, f, "cannot map result memory: %s", strerror(errno));
		return -1;
	}
	result_set_kinds(out->res, &p->decl);
	c->res = out->res;
	for (unsigned i = 0; i < p->decl.nmetrics && i < PROBE_MAX_METRICS; i++)
		c->m[i] = result_metric(out->res, i);
	worker_spec_store(out->res, c);
	if (interval_cap_init(&j->ivc, out->res, runner_interval(r, o)) != 0) {
		req_result_error(out, r, f, "cannot keep intervals: %s", strerror(ENOMEM));
		return -1;
	}
	/* Checkpoints at the ends of runs: for the journal, for the intervals. */
	if (o && (o->checkpoint || j->ivc.every_ns))
		ckpt_open(j, out->res);
	/* The slim worker binary beside rtconform (see worker.h); library
	 * callers that give no self_dir measure in the forked process itself. */
	if (c->self_dir)
		snprintf(j->worker_path, sizeof j->worker_path, "%s/%s", c->self_dir,
			 o && o->worker_name ? o->worker_name : "rtconform-worker");
	return 0;
}
