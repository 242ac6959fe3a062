/* SPDX-License-Identifier: Apache-2.0 */
/* procid.c - a process's namespace, liveness and start time; see procid.h. */
#include "base/procid.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t procid_pidns(void)
{
	char self[32];
	ssize_t n = readlink("/proc/self", self, sizeof self - 1);
	if (n <= 0)
		return 0;
	self[n] = 0;
	char *end;
	long pid = strtol(self, &end, 10);
	struct stat st;
	if (*end || pid != (long)getpid() || stat("/proc/self/ns/pid", &st) != 0)
		return 0;
	return (uint64_t)st.st_ino;
}

enum procid_state procid_state(pid_t pid, unsigned long long *start)
{
	if (pid <= 0)
		return PROCID_UNKNOWN;
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return PROCID_GONE;
	char path[40], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? PROCID_GONE : PROCID_UNKNOWN;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	/* "pid (comm) S ppid ...": the name may hold anything, ')' too, so
	 * the fields are counted from its last ')': state is field 3. */
	const char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return PROCID_UNKNOWN;
	if (p[2] == 'Z' || p[2] == 'X')
		return PROCID_GONE;
	/* after the loop, p is the space before field 22 */
	for (int field = 3; field <= 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return PROCID_UNKNOWN;
	}
	char *end;
	errno = 0;
	unsigned long long t = strtoull(p + 1, &end, 10);
	if (errno || end == p + 1 || (*end != ' ' && *end != '\n' && *end))
		return PROCID_UNKNOWN;
	if (start)
		*start = t;
	return PROCID_ALIVE;
}
