/* SPDX-License-Identifier: Apache-2.0 */
/* report.c - what every writer shares: totals, the exit status, and writing
 * a rendered report atomically, so a killed run never leaves half a report. */
#include "reports/report.h"
#include "base/safeopen.h"
#include "base/utf8.h"

#include <errno.h>
#include <signal.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void report_totals_add(struct report_totals *t, enum verdict v, size_t nlimits, double seconds)
{
	t->tests++;
	switch (v) {
	case VERDICT_PASS:
		t->passed++;
		t->no_limits += nlimits == 0;
		break;
	case VERDICT_FAIL:
		t->failures++;
		break;
	case VERDICT_ERROR:
		t->errors++;
		break;
	case VERDICT_SKIPPED:
		t->skipped++;
		break;
	case VERDICT_INCONCLUSIVE:
		t->inconclusive++;
		break;
	}
	/* A negative or NaN duration would make `time` invalid in the JUnit
	 * schemas; it can only come from a clock step, so count it as nothing
	 * rather than poison the sum. */
	if (seconds > 0)
		t->seconds += seconds;
}

void report_totals_text(const struct report_totals *t, char *buf, size_t len)
{
	char unjudged[64] = "", undecided[48] = "";
	if (t->no_limits)
		snprintf(unjudged, sizeof unjudged, ", %zu %s", t->no_limits,
			 "measured without limits");
	if (t->inconclusive)
		snprintf(undecided, sizeof undecided, ", %zu inconclusive", t->inconclusive);
	snprintf(buf, len, "%zu passed%s, %zu failed%s, %zu error%s, %zu skipped",
		 t->passed - t->no_limits, unjudged, t->failures, undecided, t->errors,
		 t->errors == 1 ? "" : "s", t->skipped);
}

static void add_file(const struct report_file *f, struct report_totals *t)
{
	for (size_t i = 0; i < f->nresults; i++) {
		const struct req_result *r = &f->results[i];
		report_totals_add(t, r->verdict, r->req ? r->req->nlimits : 0, r->seconds);
	}
}

void report_totals(const struct report_run *run, const struct report_file *only,
		   struct report_totals *t)
{
	memset(t, 0, sizeof *t);
	if (only) {
		add_file(only, t);
		return;
	}
	for (size_t i = 0; i < run->nfiles; i++)
		add_file(&run->files[i], t);
}

int report_exit_status(const struct report_run *run)
{
	struct report_totals t;
	report_totals(run, NULL, &t);
	return verdict_exit_status(t.failures, t.errors, t.inconclusive);
}

/* Split path into its directory (malloc'd, "." when there is none) and a
 * pointer to its last component. */
static char *dir_of(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		*base = path;
		return strdup(".");
	}
	*base = slash + 1;
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* A temporary report is named ".<name>.rtc<pid>.<random>" in the target's
 * directory: hidden, and saying which process made it. */
#define TMP_TAG ".rtc"

/* The writer's pid of a temporary file name of ours for report `base`:
 * exactly "." base TMP_TAG <digits> "." <6 letters or digits> (mkstemp's
 * six), or -1 for any other name. */
static long temp_pid(const char *n, const char *base)
{
	size_t blen = strlen(base), tlen = strlen(TMP_TAG);
	if (n[0] != '.' || strncmp(n + 1, base, blen) != 0 ||
	    strncmp(n + 1 + blen, TMP_TAG, tlen) != 0)
		return -1;
	const char *p = n + 1 + blen + tlen;
	long pid = 0;
	int digits = 0;
	for (; *p >= '0' && *p <= '9' && digits < 10; p++, digits++)
		pid = pid * 10 + (*p - '0');
	if (!digits || *p++ != '.')
		return -1;
	for (int k = 0; k < 6; k++, p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return -1;
	return *p ? -1 : pid;
}

/* Remove the temporary files of `base` in dir that a writer killed before
 * its rename left: names of our own form only, regular files of our user
 * only, and only when their writer's pid no longer runs. */
static void remove_stale_temps(int dfd, const char *base)
{
	int rfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = rfd >= 0 ? fdopendir(rfd) : NULL;
	struct dirent *e;
	if (!d && rfd >= 0)
		close(rfd);
	while (d && (e = readdir(d))) {
		long pid = temp_pid(e->d_name, base);
		struct stat st;
		if (pid <= 0 || pid == (long)getpid() || !(kill((pid_t)pid, 0) != 0 && errno == ESRCH))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_uid == geteuid())
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
}

/* ---- a report's directory, opened without following a planted link ----
 *
 * rtconform often runs as root in directories others write (a lab's shared
 * -o). A symbolic link planted there on the way to an output (-o shared
 * --csv shared/csv, csv made a link to /etc) had the output written
 * through it, outside the directory and its manifest (issue 38). So a
 * report's directory is opened one component at a time from / or ".",
 * and a component that is a symbolic link is followed only when no other
 * user can have put it there: its directory may be written by no one but
 * us (and root), or it is sticky and the link is ours. The writes then go
 * relative to the directory opened (openat, renameat), so a link planted
 * after the check is never followed either. */

/* Whether a user other than us (or root) may add or replace entries of
 * the directory st is. */
static bool others_may_write(const struct stat *st)
{
	return (st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_uid != geteuid() && st->st_uid != 0);
}

/* Component name of directory fd (named dir in messages) opened: one more
 * step of report_open_dir. create: make it when missing (mkdirat). */
static int open_step(int fd, const char *dir, const char *name, bool last, bool create,
		     char *why, size_t whylen)
{
	const int flags = O_DIRECTORY | O_CLOEXEC | (last ? O_RDONLY : O_PATH);
	struct stat lst, pst;
	if (fstatat(fd, name, &lst, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT || !create)
			return -errno;
		if (mkdirat(fd, name, 0777) != 0 && errno != EEXIST) {
			int e = errno;
			snprintf(why, whylen, "cannot create directory '%s%s%s': %s",
				 strcmp(dir, ".") ? dir : "", strcmp(dir, ".") && strcmp(dir, "/") ?
				 "/" : "", name, strerror(e));
			return -e;
		}
		if (fstatat(fd, name, &lst, AT_SYMLINK_NOFOLLOW) != 0)
			return -errno;
	}
	bool link = S_ISLNK(lst.st_mode);
	if (link && fstat(fd, &pst) == 0 && others_may_write(&pst) &&
	    !((pst.st_mode & S_ISVTX) && lst.st_uid == geteuid() &&
	      (pst.st_uid == geteuid() || pst.st_uid == 0))) {
		snprintf(why, whylen, "'%s%s%s' is a symbolic link in %s, which others may write: "
			 "not followed (a link planted there would have the output written "
			 "somewhere else)", strcmp(dir, ".") ? dir : "", strcmp(dir, ".") &&
			 strcmp(dir, "/") ? "/" : "", name, dir);
		return -ELOOP;
	}
	int nfd = openat(fd, name, flags | (link ? 0 : O_NOFOLLOW));
	if (nfd < 0 && errno == EACCES && last) /* searchable, not readable */
		nfd = openat(fd, name, O_PATH | O_DIRECTORY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
	return nfd < 0 ? -errno : nfd;
}

/* The next component of a path being split (strtok_r's way), "." ones
 * passed over: the last one is the last real one ("out/." makes out). */
static char *next_part(char *s, char **save)
{
	char *c = strtok_r(s, "/", save);
	while (c && !strcmp(c, "."))
		c = strtok_r(NULL, "/", save);
	return c;
}

int report_open_dir(const char *dir, bool create, char *why, size_t whylen)
{
	why[0] = 0;
	const char *start = dir[0] == '/' ? "/" : ".";
	int fd = open(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == EACCES)
		fd = open(start, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* walked: the part opened so far, as spelled, for the messages */
	char *copy = strdup(dir), *save = NULL, *walked = strdup(dir[0] == '/' ? "/" : "");
	char *next = NULL;
	int rc = copy && walked ? 0 : -ENOMEM;
	for (char *c = copy ? next_part(copy, &save) : NULL; c && !rc; c = next) {
		next = next_part(NULL, &save);
		int nfd = open_step(fd, walked[0] ? walked : ".", c, !next, create && !next, why,
				    whylen);
		close(fd);
		fd = nfd;
		rc = nfd < 0 ? nfd : 0;
		char *w = NULL;
		if (!rc && asprintf(&w, "%s%s%s", walked, walked[0] && strcmp(walked, "/") ? "/" : "",
				    c) < 0)
			rc = -ENOMEM;
		free(walked);
		walked = w;
	}
	if (rc && fd >= 0)
		close(fd);
	free(copy);
	free(walked);
	return rc ? rc : fd;
}

/* A hidden temporary name of ours for report base (temp_pid's form) made
 * in directory dfd, O_EXCL: its fd (0666 less the umask), the name in
 * name; or -errno. */
static int make_temp(int dfd, const char *base, char *name, size_t len)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned long counter;
	for (int tries = 0; tries < 100; tries++) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		unsigned long v = (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20) ^
				  (++counter * 2654435761UL) ^ (unsigned long)getpid();
		char rnd[7];
		for (int k = 0; k < 6; k++, v /= 62)
			rnd[k] = digits[v % 62];
		rnd[6] = 0;
		if ((size_t)snprintf(name, len, ".%s" TMP_TAG "%ld.%s", base, (long)getpid(), rnd) >= len)
			return -ENAMETOOLONG;
		int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* The last component of st's temporary file and of its report. */
static const char *last_part(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

int report_stream_open(struct report_stream *st, const char *path)
{
	const char *base;
	memset(st, 0, sizeof *st);
	st->dirfd = -1;
	st->dir = dir_of(path, &base);
	if (!st->dir)
		return -ENOMEM;
	/* Same directory as the target, so rename() cannot cross a
	 * filesystem; hidden so a directory listing mid-write stays clean;
	 * opened once (report_open_dir) and written relative to it. */
	char why[PATH_MAX + 300], name[NAME_MAX + 1];
	int dfd = *base ? report_open_dir(st->dir, false, why, sizeof why) : -EISDIR;
	int fd = -1, ret = 0;
	if (dfd < 0) {
		free(st->dir);
		memset(st, 0, sizeof *st);
		st->dirfd = -1;
		return dfd;
	}
	remove_stale_temps(dfd, base);
	fd = make_temp(dfd, base, name, sizeof name);
	if (fd < 0)
		ret = fd;
	else if (asprintf(&st->tmp, "%s/%s", st->dir, name) < 0)
		st->tmp = NULL; /* undefined after a failed asprintf */
	if (!ret && (!st->tmp || !(st->path = strdup(path))))
		ret = -ENOMEM;
	else if (!ret && !(st->f = fdopen(fd, "w")))
		ret = -errno;
	if (ret) {
		if (fd >= 0) {
			close(fd);
			unlinkat(dfd, name, 0);
		}
		close(dfd);
		free(st->tmp);
		free(st->path);
		free(st->dir);
		memset(st, 0, sizeof *st);
		st->dirfd = -1;
		return ret;
	}
	st->dirfd = dfd;
	return 0;
}

void report_stream_abort(struct report_stream *st)
{
	if (st->f)
		fclose(st->f);
	if ((st->f || st->sealed) && st->tmp)
		unlinkat(st->dirfd, last_part(st->tmp), 0);
	if (st->dir && st->dirfd >= 0)
		close(st->dirfd);
	free(st->tmp);
	free(st->path);
	free(st->dir);
	memset(st, 0, sizeof *st);
	st->dirfd = -1;
}

int report_stream_seal(struct report_stream *st)
{
	if (!st->f)
		return -EBADF;
	int ret = 0;
	if (fflush(st->f) != 0 || ferror(st->f) || fsync(fileno(st->f)) < 0)
		ret = errno ? -errno : -EIO;
	if (fclose(st->f) != 0 && !ret)
		ret = -errno;
	st->f = NULL;
	st->sealed = true;
	if (ret)
		report_stream_abort(st);
	return ret;
}

int report_stream_publish(struct report_stream *st)
{
	if (!st->sealed)
		return -EBADF;
	int ret = renameat(st->dirfd, last_part(st->tmp), st->dirfd, last_part(st->path)) < 0
			  ? -errno : 0;
	if (!ret) {
		st->sealed = false; /* in place: nothing to remove */
		/* Make the rename itself durable; failing that is not worth
		 * losing a report that is already in place. */
		(void)fsync(st->dirfd);
	}
	report_stream_abort(st);
	return ret;
}

int report_stream_commit(struct report_stream *st)
{
	int ret = report_stream_seal(st);
	return ret ? ret : report_stream_publish(st);
}

int report_atomic_write(const char *path, const void *data, size_t len)
{
	struct report_stream st;
	int ret = report_stream_open(&st, path);
	if (ret)
		return ret;
	errno = 0;
	if (len && fwrite(data, 1, len, st.f) != len) {
		ret = errno ? -errno : -EIO;
		report_stream_abort(&st);
		return ret;
	}
	return report_stream_commit(&st);
}

/* A report written onto its temporary file as it is made (report_write),
 * never held whole in memory: a large run's report.html is larger than
 * its results.json. */
typedef int (*putter)(const struct report_view *v, FILE *f, char *why, size_t whylen);

/* The summary is small (some 1/40 of results.json): made in memory. */
static int summary_put(const struct report_view *v, FILE *f, char *why, size_t whylen)
{
	size_t len = 0;
	char *text = report_summary_render(v, &len, why, whylen);
	if (!text)
		return -1;
	size_t n = fwrite(text, 1, len, f);
	free(text);
	if (n != len) {
		snprintf(why, whylen, "%s", strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

static const struct {
	putter put;
	const char *what;
} kinds[REPORT_NKINDS] = {
	[REPORT_JUNIT] = { report_junit_put, "the XML" },
	[REPORT_SUMMARY] = { summary_put, "the summary" },
	[REPORT_HTML] = { report_html_put, "the HTML" },
	[REPORT_JSON] = { report_json_put, "the JSON" },
};

int report_render_write(char *(*render)(const struct report_view *v, size_t *len, char *why,
					size_t whylen),
			const char *what, const struct report_view *v, const char *path,
			char *err, size_t errlen)
{
	size_t len = 0;
	char why[256] = "";
	char *data = render(v, &len, why, sizeof why);
	if (!data) {
		snprintf(err, errlen, "cannot write '%s': building %s failed: %s", path, what,
			 why[0] ? why : strerror(ENOMEM));
		return -ENOMEM;
	}
	int ret = report_atomic_write(path, data, len);
	free(data);
	if (ret)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
	return ret;
}

const char *report_kind_file_name(enum report_kind kind)
{
	static const char *const names[REPORT_NKINDS] = {
		[REPORT_JUNIT] = "junit.xml", [REPORT_SUMMARY] = "summary.txt",
		[REPORT_HTML] = "report.html", [REPORT_JSON] = "results.json",
	};
	return (unsigned)kind < REPORT_NKINDS ? names[kind] : "?";
}

int report_write(enum report_kind kind, const struct report_view *v, const char *path,
		 char *err, size_t errlen)
{
	if ((unsigned)kind >= REPORT_NKINDS) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(EINVAL));
		return -EINVAL;
	}
	struct report_stream st;
	int ret = report_stream_open(&st, path);
	if (ret) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
		return ret;
	}
	char why[256] = "";
	errno = 0;
	if (kinds[kind].put(v, st.f, why, sizeof why) != 0) {
		report_stream_abort(&st);
		snprintf(err, errlen, "cannot write '%s': building %s failed: %s", path,
			 kinds[kind].what, why[0] ? why : strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = report_stream_commit(&st);
	if (ret)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
	return ret;
}

int report_write_junit(const struct report_view *v, const char *path, char *err, size_t errlen)
{
	return report_write(REPORT_JUNIT, v, path, err, errlen);
}

int report_write_json(const struct report_view *v, const char *path, char *err, size_t errlen)
{
	return report_write(REPORT_JSON, v, path, err, errlen);
}

int report_check_writable(const char *path, char *err, size_t errlen)
{
	const char *base;
	char *dir = dir_of(path, &base);
	struct stat st;
	int ret = 0, dfd = -1;
	char why[PATH_MAX + 300];

	if (!dir) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(EISDIR));
		goto cleanup;
	}
	/* One level only (create: the last component): -o results/ is
	 * convenient, but creating a whole chain would hide a typo in the
	 * parent path. No link planted in a directory others write is
	 * followed on the way (report_open_dir). */
	if ((dfd = report_open_dir(dir, true, why, sizeof why)) < 0) {
		ret = dfd;
		if (why[0])
			snprintf(err, errlen, "cannot write '%s': %s", path, why);
		else if (ret == -ENOENT)
			snprintf(err, errlen, "cannot write '%s': cannot create directory '%s': %s",
				 path, dir, strerror(-ret));
		else
			snprintf(err, errlen, "cannot write '%s': %s: %s", path, dir, strerror(-ret));
		goto cleanup;
	}
	/* Every later step names an output by its absolute path (the links
	 * between reports, the manifest, verify): a directory that has none
	 * within PATH_MAX (a relative -o deep below) is refused now, not after
	 * measuring. */
	char *real = realpath(dir, NULL);
	if (!real && errno == ENAMETOOLONG) {
		ret = -ENAMETOOLONG;
		snprintf(err, errlen, "cannot write '%s': the absolute path of '%s' is longer than "
			 "PATH_MAX (%d bytes), and rtconform names its outputs by it", path, dir,
			 PATH_MAX);
		goto cleanup;
	}
	free(real);
	/* A report is renamed into place: over a device, a FIFO or a symlink
	 * (/dev/null, /dev/stdout) it would replace it with a regular file. */
	if (*base && fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(err, errlen, "cannot write '%s': %s, which a report written there "
			 "would replace", path, safeopen_kind(st.st_mode));
		goto cleanup;
	}
	/* access(2) answers for the real uid and knows nothing of read-only
	 * mounts or full quotas; creating a file is the only honest test. */
	char probe[NAME_MAX + 1];
	int fd = make_temp(dfd, "rtconform-probe", probe, sizeof probe);
	if (fd < 0) {
		ret = fd;
		snprintf(err, errlen, "cannot write '%s': directory '%s': %s", path, dir,
			 strerror(-fd));
		goto cleanup;
	}
	close(fd);
	unlinkat(dfd, probe, 0);

cleanup:
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return ret;
}

/* The policy a probe's measured tasks run under when it is not the
 * worker's (probe_decl.policy), into buf; false when it is the worker's. */
static bool probe_policy_text(const struct req_result *r, char *buf, size_t len)
{
	const struct requirement *q = r->req;
	const struct probe_decl *d = summary_decl(r);
	if (!d || !d->policy || !q)
		return false;
	const char *values[PROBE_MAX_PARAMS] = { 0 };
	for (size_t i = 0; i < d->nparams && i < PROBE_MAX_PARAMS; i++) {
		const char *v = req_param(q, d->params[i].name);
		values[i] = v ? v : d->params[i].def;
	}
	int priority = r->policy == SCHED_FIFO || r->policy == SCHED_RR ? r->priority
		       : q->policy != POLICY_OTHER && !q->priority_max ? q->priority
		       : -1;
	return d->policy(values, priority, buf, len) != NULL;
}

void report_limit_text(const char *metric, const char *statistic, const struct quantity *min,
		       const struct quantity *max, double confidence, char *buf, size_t len)
{
	char a[48] = "", b[48] = "", at[24] = "";
	if (max)
		units_fmt_qty(max, a, sizeof a);
	if (min)
		units_fmt_qty(min, b, sizeof b);
	if (confidence > 0)
		snprintf(at, sizeof at, " at %g%%", confidence * 100);
	if (max && min)
		utf8_snprintf(buf, len, "%s %s in [%s, %s]%s", metric, statistic, b, a, at);
	else if (max || min)
		utf8_snprintf(buf, len, "%s %s %s %s%s", metric, statistic, max ? "<=" : ">=",
			      max ? a : b, at);
	else
		utf8_snprintf(buf, len, "%s %s (no bound)", metric, statistic);
}

void report_policy_text(const struct req_result *r, char *buf, size_t len)
{
	const struct requirement *q = r->req;
	/* What the reader judges by is the policy the measured tasks ran
	 * under, not that of the worker that set them up. */
	if (probe_policy_text(r, buf, len))
		return;
	if (r->policy == SCHED_FIFO || r->policy == SCHED_RR) {
		snprintf(buf, len, "%s:%d", policy_name(r->policy), r->priority);
		return;
	}
	/* A result made before the worker resolved its priority (an error)
	 * still shows what was asked for. */
	if (q && q->policy != POLICY_OTHER) {
		if (q->priority_max)
			snprintf(buf, len, "%s:max", policy_name(q->policy));
		else
			snprintf(buf, len, "%s:%d", policy_name(q->policy), q->priority);
		return;
	}
	snprintf(buf, len, "other");
}
