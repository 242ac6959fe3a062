/* rtperm.c - see rtperm.h. */
#include "base/rtperm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rtperm_caps(unsigned long long *eff)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool found = false;
	while (f && !found && fgets(line, sizeof line, f))
		found = sscanf(line, "CapEff: %llx", eff) == 1;
	if (f)
		fclose(f);
	return found;
}

bool rtperm_has_cap(int cap)
{
	unsigned long long eff = 0;
	return rtperm_caps(&eff) && (eff >> cap & 1u);
}

/* The mount point of the cgroup v1 hierarchy that has the cpu controller,
 * from /proc/self/mountinfo ("... - cgroup cgroup rw,cpu,cpuacct"). */
static bool cpu_mount(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024];
	bool found = false;
	while (f && !found && fgets(line, sizeof line, f)) {
		char mnt[512], fstype[32], opts[256];
		const char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1 ||
		    sscanf(sep + 3, "%31s %*s %255s", fstype, opts) != 2 ||
		    strcmp(fstype, "cgroup") != 0)
			continue;
		for (char *tok = strtok(opts, ","); tok && !found; tok = strtok(NULL, ","))
			found = strcmp(tok, "cpu") == 0;
		if (found)
			snprintf(out, len, "%s", mnt);
	}
	if (f)
		fclose(f);
	return found;
}

/* This process's cgroup path in the hierarchy with the cpu controller,
 * from /proc/self/cgroup ("1:cpu,cpuacct:/some/group"). */
static bool cpu_cgroup(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[1024];
	bool found = false;
	while (f && !found && fgets(line, sizeof line, f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = 0;
		c2[1 + strcspn(c2 + 1, "\n")] = 0;
		for (char *tok = strtok(c1 + 1, ","); tok && !found; tok = strtok(NULL, ","))
			found = strcmp(tok, "cpu") == 0;
		if (found)
			snprintf(out, len, "%s", c2 + 1);
	}
	if (f)
		fclose(f);
	return found;
}

bool rtperm_cgroup_runtime(long long *runtime_us, char *path, size_t len)
{
	char mnt[512], grp[512];
	if (!cpu_mount(mnt, sizeof mnt) || !cpu_cgroup(grp, sizeof grp))
		return false;
	snprintf(path, len, "%s%s%s/cpu.rt_runtime_us", mnt, grp[0] == '/' ? "" : "/",
		 strcmp(grp, "/") == 0 ? "" : grp);
	FILE *f = fopen(path, "re");
	char buf[64];
	bool ok = f && fgets(buf, sizeof buf, f);
	if (f)
		fclose(f);
	if (!ok)
		return false;
	char *end;
	*runtime_us = strtoll(buf, &end, 10);
	return end != buf;
}
