/* SPDX-License-Identifier: Apache-2.0 */
/* rtperm.c - see rtperm.h. */
#include "base/rtperm.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/quote.h"

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

void rtperm_task_read(struct rtperm_task *t)
{
	memset(t, 0, sizeof *t);
	t->ruid = (unsigned)getuid();
	t->euid = (unsigned)geteuid();
	int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	t->noroot = bits > 0 && (bits & 1); /* SECBIT_NOROOT is bit 0 */
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	int found = 0;
	unsigned nnp;
	while (f && fgets(line, sizeof line, f)) {
		found += sscanf(line, "CapInh: %llx", &t->inh) == 1;
		found += sscanf(line, "CapPrm: %llx", &t->prm) == 1;
		found += sscanf(line, "CapEff: %llx", &t->eff) == 1;
		found += sscanf(line, "CapBnd: %llx", &t->bnd) == 1;
		found += sscanf(line, "CapAmb: %llx", &t->amb) == 1;
		if (sscanf(line, "NoNewPrivs: %u", &nnp) == 1)
			t->no_new_privs = nnp != 0;
	}
	if (f)
		fclose(f);
	t->known = found == 5;
}

/* The layout of security.capability (linux/capability.h): a little-endian
 * word of revision and flags, then permitted and inheritable words (one
 * pair in version 1, two in versions 2 and 3), then in version 3 the root
 * uid the capabilities are for. */
#define FCAP_REVISION_MASK 0xff000000u
#define FCAP_REVISION_1 0x01000000u
#define FCAP_REVISION_2 0x02000000u
#define FCAP_REVISION_3 0x03000000u
#define FCAP_FLAG_EFFECTIVE 0x000001u

static uint32_t le32_at(const unsigned char *b, size_t word)
{
	b += 4 * word;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

int rtperm_fcaps_parse(const void *buf, size_t len, struct rtperm_fcaps *fc)
{
	const unsigned char *b = buf;
	memset(fc, 0, sizeof *fc);
	if (len < 4)
		return -1;
	uint32_t magic = le32_at(b, 0);
	size_t pairs;
	switch (magic & FCAP_REVISION_MASK) {
	case FCAP_REVISION_1: pairs = 1; if (len != 12) return -1; break;
	case FCAP_REVISION_2: pairs = 2; if (len != 20) return -1; break;
	case FCAP_REVISION_3: pairs = 2; if (len != 24) return -1; break;
	default: return -1;
	}
	for (size_t i = 0; i < pairs; i++) {
		fc->permitted |= (unsigned long long)le32_at(b, 1 + 2 * i) << (32 * i);
		fc->inheritable |= (unsigned long long)le32_at(b, 2 + 2 * i) << (32 * i);
	}
	if ((magic & FCAP_REVISION_MASK) == FCAP_REVISION_3)
		fc->rootid = le32_at(b, 5);
	fc->effective = magic & FCAP_FLAG_EFFECTIVE;
	fc->present = true;
	return 0;
}

int rtperm_fcaps_read(const char *path, struct rtperm_fcaps *fc, char *ignored, size_t ilen,
		      char *why, size_t wlen)
{
	unsigned char buf[64];
	memset(fc, 0, sizeof *fc);
	snprintf(ignored, ilen, "%s", "");
	ssize_t n = getxattr(path, "security.capability", buf, sizeof buf);
	if (n < 0) {
		if (errno == ENODATA || errno == ENOTSUP)
			return 0; /* no file capabilities (or a file system without them) */
		snprintf(why, wlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (rtperm_fcaps_parse(buf, (size_t)n, fc) != 0) {
		snprintf(ignored, ilen, "%s", "its security.capability attribute is malformed");
		return 0;
	}
	struct statvfs sv;
	if (statvfs(path, &sv) == 0 && (sv.f_flag & ST_NOSUID))
		snprintf(ignored, ilen, "%s", "its file system is mounted nosuid");
	else if (fc->rootid != 0)
		snprintf(ignored, ilen, "they are for the root of another user namespace "
			 "(uid %u)", fc->rootid);
	return 0;
}

void rtperm_setcap_line(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "setcap cap_ipc_lock,cap_sys_nice+ep");
	quote_shell_append(buf, len, path);
}
