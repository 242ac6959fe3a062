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

/* Decode mountinfo's octal escapes (\040 space, \011 tab, \012 newline,
 * \134 backslash: proc_pid_mountinfo(5)) in place; anything else stays. */
static void unescape_octal(char *s)
{
	char *o = s;
	for (const char *i = s; *i;) {
		if (i[0] == '\\' && i[1] >= '0' && i[1] <= '3' && i[2] >= '0' && i[2] <= '7' &&
		    i[3] >= '0' && i[3] <= '7') {
			*o++ = (char)((i[1] - '0') << 6 | (i[2] - '0') << 3 | (i[3] - '0'));
			i += 4;
		} else {
			*o++ = *i++;
		}
	}
	*o = 0;
}

/* Is `list` (comma-separated) holding `word`? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p;) {
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == 0))
			return true;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return false;
}

/* The group of `cgroup` (/proc/self/cgroup: "1:cpu,cpuacct:/some/group")
 * in the hierarchy with the cpu controller, into grp. */
static bool cpu_group_of(const char *cgroup, char *grp, size_t len)
{
	for (const char *line = cgroup; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		const char *c1 = memchr(line, ':', n);
		const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line)) : NULL;
		char ctl[256];
		if (c2 && (size_t)(c2 - c1 - 1) < sizeof ctl) {
			memcpy(ctl, c1 + 1, (size_t)(c2 - c1 - 1));
			ctl[c2 - c1 - 1] = 0;
			if (has_word(ctl, "cpu")) {
				snprintf(grp, len, "%.*s", (int)(n - (size_t)(c2 + 1 - line)), c2 + 1);
				return true;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return false;
}

/* The part of group `grp` below a mount whose root is `root` ("" for the
 * mount itself), or NULL when grp is not at or below root. */
static const char *below_root(const char *grp, const char *root)
{
	size_t n = strlen(root);
	if (strcmp(root, "/") == 0)
		return strcmp(grp, "/") == 0 ? "" : grp;
	if (strncmp(grp, root, n) != 0 || (grp[n] != 0 && grp[n] != '/'))
		return NULL;
	return grp + n;
}

int rtperm_cgroup_file(const char *mountinfo, const char *cgroup, char *path, size_t len)
{
	char grp[512];
	if (!cpu_group_of(cgroup, grp, sizeof grp))
		return RTPERM_CG_NONE;
	int found = RTPERM_CG_NONE;
	char line[2048];
	for (const char *p = mountinfo; p && *p && found != RTPERM_CG_FOUND;) {
		const char *eol = strchr(p, '\n');
		snprintf(line, sizeof line, "%.*s", (int)(eol ? eol - p : (long)strlen(p)), p);
		p = eol ? eol + 1 : NULL;
		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE OPTS" */
		char root[512], mnt[512], fstype[32], opts[256];
		const char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %511s %511s", root, mnt) != 2 ||
		    sscanf(sep + 3, "%31s %*s %255s", fstype, opts) != 2 ||
		    strcmp(fstype, "cgroup") != 0 || !has_word(opts, "cpu"))
			continue;
		unescape_octal(root);
		unescape_octal(mnt);
		const char *rest = below_root(grp, root);
		if (!rest) {
			snprintf(path, len, "this process's cgroup %s is outside the root %s of the "
				 "cpu hierarchy mounted at %s: its cpu.rt_runtime_us cannot be "
				 "reached from here", grp, root, mnt);
			found = RTPERM_CG_UNREACHABLE;
			continue;
		}
		snprintf(path, len, "%s%s%s/cpu.rt_runtime_us", strcmp(mnt, "/") == 0 ? "" : mnt,
			 rest[0] && rest[0] != '/' ? "/" : "", rest);
		found = RTPERM_CG_FOUND;
	}
	return found;
}

/* All of a small /proc file as text (malloc'd), or NULL. */
static char *read_text(const char *file)
{
	FILE *f = fopen(file, "re");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);
	char chunk[4096];
	size_t n;
	while (m && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	if (!m || fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int rtperm_cgroup_runtime(long long *runtime_us, char *path, size_t len)
{
	char *mi = read_text("/proc/self/mountinfo"), *cg = read_text("/proc/self/cgroup");
	int where = mi && cg ? rtperm_cgroup_file(mi, cg, path, len) : RTPERM_CG_NONE;
	free(mi);
	free(cg);
	if (where != RTPERM_CG_FOUND)
		return where;
	FILE *f = fopen(path, "re");
	char buf[64];
	bool ok = f && fgets(buf, sizeof buf, f);
	if (f)
		fclose(f);
	char *end = buf;
	if (ok)
		*runtime_us = strtoll(buf, &end, 10);
	return ok && end != buf ? RTPERM_CG_FOUND : RTPERM_CG_NONE;
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
