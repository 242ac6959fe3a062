/* SPDX-License-Identifier: Apache-2.0 */
/* trace_steal.c - /proc/stat's per-CPU steal time (trace_steal.h). */
#include "harness/trace_steal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void steal_free(struct steal_snap *s)
{
	free(s->ns);
	memset(s, 0, sizeof *s);
}

/* One "cpuN u n s i w q sq st ..." line: N and st (ticks); false for any
 * other line. */
static bool cpu_line(const char *line, unsigned long *cpu, unsigned long long *steal)
{
	unsigned long long v[8];
	int used = 0;
	if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
		return false;
	if (sscanf(line + 3, "%lu %llu %llu %llu %llu %llu %llu %llu %llu%n", cpu, &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &used) != 9 || used <= 0)
		return false;
	*steal = v[7];
	return *cpu < STEAL_CPU_MAX;
}

int steal_read(const char *path, struct steal_snap *s)
{
	memset(s, 0, sizeof *s);
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen(path, "re");
	if (!f || hz <= 0) {
		if (f)
			fclose(f);
		return -1;
	}
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		unsigned long cpu;
		unsigned long long ticks;
		if (!cpu_line(line, &cpu, &ticks))
			continue;
		if (cpu >= s->n) {
			uint64_t *n = realloc(s->ns, (cpu + 1) * sizeof *n);
			if (!n) {
				fclose(f);
				steal_free(s);
				return -1;
			}
			for (size_t i = s->n; i <= cpu; i++)
				n[i] = UINT64_MAX;
			s->ns = n;
			s->n = cpu + 1;
		}
		s->ns[cpu] = ticks > UINT64_MAX / 1000000000u ? UINT64_MAX - 1
							      : ticks * 1000000000u / (uint64_t)hz;
	}
	fclose(f);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->mono_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	s->ok = s->n > 0;
	return s->ok ? 0 : -1;
}

bool steal_between(const struct steal_snap *a, const struct steal_snap *b, int cpu,
		   uint64_t *ns, uint64_t *span_ns)
{
	if (!a->ok || !b->ok || cpu < 0 || (size_t)cpu >= a->n || (size_t)cpu >= b->n)
		return false;
	uint64_t x = a->ns[cpu], y = b->ns[cpu];
	if (x == UINT64_MAX || y == UINT64_MAX || y < x || b->mono_ns < a->mono_ns)
		return false;
	*ns = y - x;
	*span_ns = b->mono_ns - a->mono_ns;
	return true;
}
