/* sem_pingpong.c - semaphore ping-pong between two processes (seed 004).
 *
 * A (the worker) and B (its peer) share two semaphores, sem_a and sem_b, in
 * shared memory made before B is forked. B waits on sem_b and posts sem_a;
 * A posts sem_b and waits on sem_a. One cycle = two semaphore operations and
 * two context switches; each cycle is timed on its own in A and recorded as
 * `per-op` = cycle / 2 (the scale does the halving, so no precision is lost).
 */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../rtenv.h"
#include "probes.h"

static const char *const mechanisms[] = { "posix-sem", NULL };
static const char *const peers[] = { "process", NULL };
static const char *const placements[] = { "same-cpu", "cross-cpu", NULL };

static const struct probe_param params[] = {
	{ "mechanism", "synchronisation primitive: unnamed process-shared POSIX semaphore",
	  PARAM_ENUM, mechanisms, "posix-sem" },
	{ "peer", "what the other side is: a forked process", PARAM_ENUM, peers, "process" },
	{ "placement", "same-cpu: both on one CPU (every operation switches context); "
		       "cross-cpu: on two CPUs", PARAM_ENUM, placements, "same-cpu" },
};

static const struct probe_metric metrics[] = {
	{ "per-op", "one semaphore operation plus the context switch it causes (cycle / 2)" },
};

struct pp_shared {
	sem_t a, b;
	volatile int stop;
	volatile int peer_failed;
};

static int wait_sem(sem_t *s)
{
	while (sem_wait(s) != 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

static void peer_main(struct probe_ctx *c, struct pp_shared *sh, int cpu)
{
	if (probe_peer_setup(c, cpu) != 0) {
		sh->peer_failed = 1;
		sem_post(&sh->a);
		_exit(1);
	}
	sem_post(&sh->a); /* ready */
	for (;;) {
		if (wait_sem(&sh->b) != 0 || sh->stop)
			break;
		sem_post(&sh->a);
	}
	_exit(0);
}

static int pp_run(struct probe_ctx *c)
{
	int cpu_a, cpu_b, rc = 0;
	char err[400];
	const char *placement = probe_value(c, "placement");
	if (probe_pick_cpus(c, placement, &cpu_a, &cpu_b) != 0)
		return probe_fail(c, ENODEV, "placement %s needs two CPUs, %d allowed",
				  placement, c->ncpus);
	if ((rc = rtenv_pin(cpu_a, err, sizeof err)) != 0)
		return probe_fail(c, rc, "%s", err);

	struct pp_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return probe_fail(c, errno, "mmap of the shared semaphores: %s", strerror(errno));
	memset(sh, 0, sizeof *sh);
	if (sem_init(&sh->a, 1, 0) != 0 || sem_init(&sh->b, 1, 0) != 0) {
		rc = probe_fail(c, errno, "sem_init: %s", strerror(errno));
		goto cleanup;
	}
	probe_set_scale(c, 0, 0.5);

	pid_t pid = fork();
	if (pid < 0) {
		rc = probe_fail(c, errno, "fork of the peer process: %s", strerror(errno));
		goto cleanup;
	}
	if (pid == 0)
		peer_main(c, sh, cpu_b);

	if ((rc = wait_sem(&sh->a)) != 0 || sh->peer_failed) {
		rc = rc ? probe_fail(c, -rc, "sem_wait: %s", strerror(-rc)) : -EPERM;
		goto reap;
	}
	c->res->state = WS_WARMUP;
	for (uint64_t i = 0; i < c->warmup; i++) {
		sem_post(&sh->b);
		if ((rc = wait_sem(&sh->a)) != 0)
			goto wait_failed;
	}
	for (uint32_t r = 0; r < c->runs && !*c->stop; r++) {
		probe_run_begin(c, r);
		uint64_t i;
		for (i = 0; i < c->iterations; i++) {
			uint64_t t0 = tb_now();
			sem_post(&sh->b);
			if ((rc = wait_sem(&sh->a)) != 0)
				goto wait_failed;
			uint64_t t1 = tb_now();
			probe_record(c, 0, t1 - t0);
		}
		probe_run_end(c, i);
	}
	goto reap;

wait_failed:
	rc = probe_fail(c, -rc, "sem_wait: %s", strerror(-rc));
reap:
	sh->stop = 1;
	sem_post(&sh->b);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
cleanup:
	munmap(sh, sizeof *sh);
	return rc;
}

const struct probe probe_sem_pingpong = {
	.name = "sem-pingpong",
	.help = "semaphore ping-pong between two processes; per-op = cycle / 2 (seed 004)",
	.params = params,
	.nparams = sizeof params / sizeof params[0],
	.metrics = metrics,
	.nmetrics = sizeof metrics / sizeof metrics[0],
	.run = pp_run,
};
