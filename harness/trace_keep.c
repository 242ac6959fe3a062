/* SPDX-License-Identifier: Apache-2.0 */
/* trace_keep.c - keeping the trace of a requirement's worst breach, the
 * supervisor's side (the worker's is probe_trace_trip in
 * harness/measure/probe_trace.c); see trace.h (trace_keep_poll).
 *
 * The worker stops the instance at each breach larger than every sample
 * before it (at most PROBE_TRACE_MAX_SAVES times); the supervisor, on its
 * 100 ms tick, copies the stopped trace into a file of its own, empties the
 * instance's buffer and starts it again. So the trace kept is that of the
 * largest breach the budget reached; what came after (while a save was
 * pending or the budget was spent) is counted, never explained, and the
 * note says how the explained sample ranks against the max.
 */
#include "harness/trace.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/units.h"

/* Copy fd in (from its start) to fd out. 0 or -errno. */
static int copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(out, buf, (size_t)n) != n)
			return -(errno ? errno : EIO);
	return n < 0 ? -errno : 0;
}

/* Write text to the instance's file name (tracing_on, or trace with
 * O_TRUNC to empty the buffer). 0 or -errno. */
static int inst_write(const struct trace_job *t, const char *name, int flags, const char *text)
{
	char path[300];
	snprintf(path, sizeof path, "%s/%s", t->inst, name);
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int e = n == (ssize_t)strlen(text) ? 0 : errno ? errno : EIO;
	close(fd);
	return -e;
}

/* The stopped trace into a new file of ours, replacing the last one kept. */
static int keep_now(struct trace_job *t)
{
	char path[300];
	snprintf(path, sizeof path, "%s/trace", t->inst);
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	FILE *f = tmpfile();
	int rc = f ? copy_fd(in, fileno(f)) : -errno;
	close(in);
	if (rc || fflush(f) != 0) {
		rc = rc ? rc : -errno;
		if (f)
			fclose(f);
		return rc;
	}
	if (t->keep)
		fclose(t->keep);
	t->keep = f;
	return 0;
}

void trace_keep_poll(struct trace_job *t, struct result_shm *res)
{
	uint64_t kicks;
	if (t->kick_fd >= 0 && read(t->kick_fd, &kicks, sizeof kicks) < 0 && errno != EAGAIN)
		t->keep_err = errno;
	if (!t->inst[0] || t->keep_err ||
	    __atomic_load_n(&res->trace.saving, __ATOMIC_ACQUIRE) != 2)
		return;
	uint32_t saves = res->trace.saves;
	int rc = keep_now(t);
	if (rc) {
		/* no more saves: what is in the instance stays for trace_finish */
		t->keep_err = -rc;
		return;
	}
	t->kept = saves;
	if (saves >= PROBE_TRACE_MAX_SAVES)
		return; /* the budget is spent: nothing more to trace */
	rc = inst_write(t, "trace", O_TRUNC, "");
	if (!rc)
		rc = inst_write(t, "tracing_on", 0, "1");
	if (rc) {
		t->keep_err = -rc;
		return;
	}
	__atomic_store_n(&res->trace.saving, 0, __ATOMIC_RELEASE);
}

int trace_keep_take(struct trace_job *t, const struct result_shm *res, const char *path,
		    bool *taken)
{
	*taken = false;
	/* a breach stopped at and not yet saved is newer than the one kept */
	if (!t->keep || t->kept != res->trace.saves)
		return 0;
	*taken = true;
	char tmp[PATH_MAX + 8];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	int rc = lseek(fileno(t->keep), 0, SEEK_SET) == 0 ? copy_fd(fileno(t->keep), out) : -errno;
	if (close(out) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) != 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

void trace_keep_free(struct trace_job *t)
{
	if (t->keep)
		fclose(t->keep);
	t->keep = NULL;
	if (t->kick_fd >= 0)
		close(t->kick_fd);
	t->kick_fd = -1;
}

/* The n-th as words: "2nd", "11th", "23rd". */
static void ordinal(uint64_t n, char *buf, size_t len)
{
	const char *sfx = "th";
	if (n % 100 < 11 || n % 100 > 13)
		sfx = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
	snprintf(buf, len, "%llu%s", (unsigned long long)n, sfx);
}

void trace_rank_text(const struct result_shm *res, const struct trace_job *t, char *buf,
		     size_t len)
{
	const struct metric_data *m = result_metric_c(res, res->trace.metric);
	uint64_t later = res->trace.later, v = res->trace.value;
	/* the metric's own max (metric 0 is the sum of its series by now) */
	uint64_t top = m->hist.count ? m->hist.max : 0;
	if (res->trace.later_max > top)
		top = res->trace.later_max;
	char at[64] = "", mx[32], rank[24], sup[160] = "", others[64] = "";
	if (res->trace.index && res->trace.cpu >= 0)
		snprintf(at, sizeof at, " (sample %llu of the run on CPU %d)",
			 (unsigned long long)res->trace.index, (int)res->trace.cpu);
	else if (res->trace.index)
		snprintf(at, sizeof at, " (sample %llu of the run)",
			 (unsigned long long)res->trace.index);
	uint32_t saves = res->trace.saves;
	if (saves > 1)
		snprintf(sup, sizeof sup, "; the largest of %u breaches the trace stopped at (%u "
			 "superseded, at most %u)", saves, saves - 1, PROBE_TRACE_MAX_SAVES);
	if (v >= top) {
		snprintf(buf, len, "%s: the max itself%s", at, sup);
		return;
	}
	units_fmt_ns((double)top * m->ns_per_unit, mx, sizeof mx);
	char why[96];
	if (saves >= PROBE_TRACE_MAX_SAVES)
		snprintf(why, sizeof why, "after the trace budget (%u stops) was spent",
			 PROBE_TRACE_MAX_SAVES);
	else
		snprintf(why, sizeof why, "%s", t && t->keep_err
			 ? "after the trace could no longer be saved"
			 : "while the trace before it was being saved");
	if (!later) {
		snprintf(buf, len, "%s: below the max %s, which was not traced%s", at, mx, sup);
		return;
	}
	ordinal(later + 1, rank, sizeof rank);
	if (later > 1)
		snprintf(others, sizeof others, " and %llu other samples above it",
			 (unsigned long long)(later - 1));
	snprintf(buf, len, "%s: the %s largest breach; the max %s%s came %s, not traced%s", at,
		 rank, mx, others, why, sup);
}
