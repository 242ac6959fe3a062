#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Creation probes against a plain loop: for each operation, the median of
# `rtconform probe ... --iterations 2000` next to a plain C loop doing the
# same operation 2000 times (total / 2000), and their ratio. The loop runs
# under the same conditions the worker has (mlockall, the same policy and
# priority, children inheriting it), so the ratio is what the harness adds:
# per-sample timestamps, histogram recording, and the worker's larger
# process image (fork and clone copy the page tables of everything mapped).
# rtconform's own batch figure (total / N of the same run) is printed too:
# it is the like-for-like peer of the loop's total / N, the median is not.
# Prints figures; never fails on a speed target (target: ratio <= 1.10).
# Env: RTC (built rtconform), RTC_TOP (repo), BENCH_TMP (scratch dir).
set -euo pipefail
: "${RTC:?}" "${BENCH_TMP:?}"
N=2000
nop="$(dirname "$RTC")/rtconform-nop"
[ -x "$nop" ] || { echo "creation bench: $nop is missing (build the rtconform-nop target)"; exit 1; }

cat >"$BENCH_TMP/plain_create.c" <<'EOF'
/* The peer: N create-delete cycles of one kind, timed as one total. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *nothing(void *a) { return a; }
static int child(void *a) { (void)a; return 0; }

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void reap(pid_t p)
{
	int st;
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st)) {
		perror("create or reap");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: plain_create OP N fifo|other NOP\n");
		return 2;
	}
	const char *op = argv[1], *nop = argv[4];
	long n = atol(argv[2]);
	char *args[] = { "rtconform-nop", NULL }, *env[] = { NULL };
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
		perror("mlockall");
		return 1;
	}
	if (!strcmp(argv[3], "fifo")) {
		struct sched_param sp = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };
		if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
			perror("SCHED_FIFO");
			return 1;
		}
	}
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 128 * 1024);
	char *stack = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	memset(stack, 0, 65536);
	int tflags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_SYSVSEM | SIGCHLD;
	/* A few unmeasured cycles first, as the probe's warm-up. */
	for (int pass = 0; pass < 2; pass++) {
		long iters = pass ? n : 20;
		double t0 = now();
		for (long i = 0; i < iters; i++) {
			pid_t p = -1;
			pthread_t t;
			if (!strcmp(op, "thread-create")) {
				if (pthread_create(&t, &attr, nothing, NULL) || pthread_join(t, NULL))
					return 1;
				continue;
			} else if (!strcmp(op, "fork")) {
				if ((p = fork()) == 0)
					_exit(0);
			} else if (!strcmp(op, "vfork")) {
				if ((p = vfork()) == 0)
					_exit(0);
			} else if (!strcmp(op, "spawn")) {
				if (posix_spawn(&p, nop, NULL, NULL, args, env))
					p = -1;
			} else if (!strcmp(op, "fork-exec")) {
				if ((p = fork()) == 0) {
					execve(nop, args, env);
					_exit(127);
				}
			} else if (!strcmp(op, "clone")) {
				p = clone(child, stack + 65536, SIGCHLD, NULL);
			} else if (!strcmp(op, "clone-thread")) {
				p = clone(child, stack + 65536, tflags, NULL);
			} else {
				fprintf(stderr, "unknown op %s\n", op);
				return 2;
			}
			reap(p);
		}
		if (pass)
			printf("%.1f\n", (now() - t0) / (double)n);
	}
	return 0;
}
EOF
cc -O2 -Wall -o "$BENCH_TMP/plain_create" "$BENCH_TMP/plain_create.c" -lpthread

# A statistic line of `rtconform probe` ("  p50   56.02 us") in ns.
stat_ns() { # NAME FILE
  awk -v k="$1" '$1 == k {
      v = $2; u = $3
      if (u == "ns") m = 1; else if (u == "us") m = 1e3; else if (u == "ms") m = 1e6;
      else if (u == "s") m = 1e9; else m = -1
      if (m > 0) printf "%.1f", v * m; exit }' "$2"
}

printf '%-24s %-6s %12s %12s %12s %8s %8s\n' probe policy "rtc p50 ns" "rtc batch" "loop ns" p50/loop batch/loop
run() { # LABEL PLAIN_OP POLICY PROBE-ARGS...
  local label="$1" op="$2" pol="$3"; shift 3
  local out="$BENCH_TMP/probe.out"
  if ! "$RTC" probe "$@" --policy "$pol" --iterations "$N" --warmup 20 >"$out" 2>&1; then
    echo "$label $pol: rtconform probe failed:"; sed 's/^/    /' "$out"; return 0
  fi
  local p50 batch loop
  p50="$(stat_ns p50 "$out")"
  batch="$(awk '$1 == "batch" { v = $2; u = $3; m = (u == "ns") ? 1 : (u == "us") ? 1e3 : (u == "ms") ? 1e6 : 1e9; printf "%.1f", v * m; exit }' "$out")"
  loop="$("$BENCH_TMP/plain_create" "$op" "$N" "$pol" "$nop")"
  awk -v l="$label" -v p="$pol" -v a="$p50" -v b="$batch" -v c="$loop" \
    'BEGIN { printf "%-24s %-6s %12.1f %12.1f %12.1f %8.3f %8.3f\n", l, p, a, b, c, a / c, b / c }'
}
for pol in other fifo; do
  run thread-create thread-create "$pol" thread-create
  run fork fork "$pol" process-create --param method=fork
  run vfork vfork "$pol" process-create --param method=vfork
  run spawn spawn "$pol" process-create --param method=spawn
  run fork-exec fork-exec "$pol" process-create --param method=fork-exec
  run clone clone "$pol" clone --param flags=process
  run clone-thread clone-thread "$pol" clone --param flags=thread
done
echo "(ratios: rtconform / plain loop; the harness target is <= 1.10)"
