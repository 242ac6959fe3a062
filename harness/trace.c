/* SPDX-License-Identifier: Apache-2.0 */
/* trace.c - trace on breach, the supervisor's side; see trace.h.
 *
 * Everything written goes to the requirement's own instance; the top-level
 * files (tracing_on, current_tracer, set_event, buffer_size_kb) are never
 * opened for writing. tracefs is mounted at /sys/kernel/tracing only when
 * no mount is found, marked as rtconform's (TRACE_MOUNT_SOURCE), and
 * unmounted by the run that finds, with the lock held, that no instance
 * an rtconform may still use is left: the instances are the reference
 * count, and one a killed run left is swept (trace_sweep) by the next run
 * that arms a trace or ends one, which then unmounts in its place.
 */
#include "harness/trace.h"

#include "base/procid.h"
#include "base/quote.h"
#include "base/safeopen.h"
#include "base/utf8.h"
#include "harness/explain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/magic.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define TRACEFS_MOUNT "/sys/kernel/tracing"

/* The events an instance records, those this kernel has. */
static const char *const trace_events[] = {
	"sched/sched_waking", "sched/sched_wakeup", "sched/sched_wakeup_new",
	"sched/sched_switch", "sched/sched_migrate_task",
	"irq/irq_handler_entry", "irq/irq_handler_exit",
	"irq/softirq_entry", "irq/softirq_exit",
	"irq_vectors/local_timer_entry", "irq_vectors/local_timer_exit",
	"timer/hrtimer_expire_entry", "timer/hrtimer_expire_exit",
	"power/cpu_idle", /* exit from idle (docs/explain.md) */
};

void trace_job_init(struct trace_job *t)
{
	memset(t, 0, sizeof *t);
	t->marker_fd = t->on_fd = t->kick_fd = -1;
}

void trace_file_name(const char *id, unsigned k, char *buf, size_t len)
{
	char tail[16], part[PATH_MAX];
	if (k > 1)
		snprintf(tail, sizeof tail, "~%u.txt", k);
	else
		snprintf(tail, sizeof tail, ".txt");
	size_t room = len > strlen("trace-") + strlen(tail) + 1 ?
		len - strlen("trace-") - strlen(tail) - 1 : 0;
	quote_fname_part(id, room < sizeof part ? room : sizeof part - 1, part);
	snprintf(buf, len, "trace-%s%s", part, tail);
}

static bool name_taken(const struct trace_names *tn, const char *name)
{
	for (size_t i = 0; i < tn->n; i++)
		if (strcasecmp(tn->names[i], name) == 0)
			return true;
	return false;
}

void trace_name_claim(struct trace_names *tn, const char *id, char *buf, size_t len)
{
	unsigned k = 1;
	trace_file_name(id, k, buf, len);
	if (!tn)
		return;
	while (name_taken(tn, buf))
		trace_file_name(id, ++k, buf, len);
	if (tn->n == tn->cap) {
		size_t cap = tn->cap ? tn->cap * 2 : 8;
		char **names = realloc(tn->names, cap * sizeof *names);
		if (!names)
			return; /* not remembered: a later trace may share the name */
		tn->names = names;
		tn->cap = cap;
	}
	char *copy = strdup(buf);
	if (copy)
		tn->names[tn->n++] = copy;
}

bool trace_name_is_ours(const char *name)
{
	static const char head[] = "trace-", tail[] = ".txt";
	const size_t hl = sizeof head - 1, tl = sizeof tail - 1;
	size_t n = strlen(name);
	if (n >= TRACE_NAME_MAX || n < hl + tl || strncmp(name, head, hl) != 0 ||
	    strcmp(name + n - tl, tail) != 0)
		return false;
	char part[TRACE_NAME_MAX], again[TRACE_NAME_MAX];
	memcpy(part, name + hl, n - hl - tl);
	part[n - hl - tl] = 0;
	unsigned long k = 1;
	char *tilde = strrchr(part, '~');
	if (tilde) { /* ~<k>, k >= 2 in decimal without a leading 0 */
		char *end;
		if (tilde[1] < '1' || tilde[1] > '9')
			return false;
		k = strtoul(tilde + 1, &end, 10);
		if (*end || k < 2 || k > UINT_MAX)
			return false;
		*tilde = 0;
	}
	/* The id part as trace_file_name leaves one is its own safe form, so
	 * the name comes back byte for byte exactly when a run could make it. */
	trace_file_name(part, (unsigned)k, again, sizeof again);
	return strcmp(again, name) == 0;
}

void trace_names_free(struct trace_names *tn)
{
	for (size_t i = 0; i < tn->n; i++)
		free(tn->names[i]);
	free(tn->names);
	memset(tn, 0, sizeof *tn);
}

/* Write text to path (a tracefs control file). 0 or -errno. */
static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int e = n < 0 ? errno : 0;
	close(fd);
	return -e;
}

static const char *privilege_hint(int err)
{
	return err == EACCES || err == EPERM ? " (tracing needs root or CAP_SYS_ADMIN)" : "";
}

/* Take the lock every rtconform holds while it decides to mount or
 * unmount tracefs and while it makes or removes its instance. A holder
 * holds it for milliseconds; one that was stopped is waited for
 * TRACE_LOCK_WAIT_MS and then given up on. The fd, or -errno. */
static int lock_tracefs(void)
{
	int fd = open(TRACE_LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited += 10) {
		int e = errno;
		if ((e != EWOULDBLOCK && e != EINTR) || waited >= TRACE_LOCK_WAIT_MS) {
			close(fd);
			return -e;
		}
		usleep(10000);
	}
	return fd;
}

static void unlock_tracefs(int fd)
{
	if (fd >= 0)
		close(fd); /* the lock goes with the last descriptor */
}

/* Whether the mount on top at TRACEFS_MOUNT is one an rtconform made:
 * tracefs with the source TRACE_MOUNT_SOURCE (/proc/self/mountinfo: the
 * mount point is field 5, the source follows " - " and the type). A mount
 * anyone else made, or none, is not ours to unmount. */
static bool mount_is_ours(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	char *line = NULL, point[256], type[64], source[64];
	size_t cap = 0;
	bool ours = false;
	while (getline(&line, &cap, f) > 0) { /* a whole line, however long */
		const char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %255s", point) != 1 ||
		    strcmp(point, TRACEFS_MOUNT) != 0)
			continue;
		/* a later line is mounted later, over the earlier ones */
		ours = sscanf(dash, " - %63s %63s", type, source) == 2 &&
		       strcmp(type, "tracefs") == 0 && strcmp(source, TRACE_MOUNT_SOURCE) == 0;
	}
	free(line);
	fclose(f);
	return ours;
}

/* Where tracefs is: mounted at /sys/kernel/tracing, or mounted there
 * now, marked as rtconform's (mount_is_ours). Called with the lock held.
 * /sys/kernel/debug/tracing is not looked at: reading it can trigger an
 * automount, a change to the machine nobody asked for. 0, or -1 with why
 * in buf. */
static int find_root(struct trace_job *t, char *why, size_t len)
{
	char path[128];
	snprintf(path, sizeof path, "%s/instances", TRACEFS_MOUNT);
	if (access(path, F_OK) == 0) {
		snprintf(t->root, sizeof t->root, "%s", TRACEFS_MOUNT);
		return 0;
	}
	if (errno == EACCES) {
		snprintf(why, len, TRACEFS_MOUNT " is not accessible: %s%s", strerror(errno),
			 privilege_hint(errno));
		return -1;
	}
	if (mount(TRACE_MOUNT_SOURCE, TRACEFS_MOUNT, "tracefs",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
		int e = errno;
		snprintf(why, len, "tracefs is not mounted and mounting it at " TRACEFS_MOUNT
			 " failed: %s%s", strerror(e), e == ENODEV ? " (no tracefs in this kernel)"
								 : privilege_hint(e));
		return -1;
	}
	snprintf(t->root, sizeof t->root, "%s", TRACEFS_MOUNT);
	if (access(path, F_OK) != 0) {
		snprintf(why, len, "tracefs at " TRACEFS_MOUNT " has no instances directory "
			 "(kernel without trace instances)");
		return -1;
	}
	return 0;
}

/* Read a decimal number of 1 to 20 digits at *p, and the '-' after it
 * unless last; false when there is none. */
static bool take_num(const char **p, unsigned long long *v, bool last)
{
	const char *s = *p;
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == 0 || n > 20 || (last ? s[n] != 0 : s[n] != '-'))
		return false;
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	*p = s + n + !last;
	return errno == 0 && end == s + n;
}

bool trace_instance_parse(const char *name, struct trace_owner *o)
{
	static const char head[] = TRACE_INSTANCE_PREFIX;
	if (strncmp(name, head, sizeof head - 1) != 0)
		return false;
	const char *p = name + sizeof head - 1;
	unsigned long long pid, serial;
	if (!take_num(&p, &pid, false) || !take_num(&p, &o->start, false) ||
	    !take_num(&p, &o->pidns, false) || !take_num(&p, &serial, true) || pid == 0 ||
	    pid > INT_MAX || serial > UINT_MAX)
		return false;
	o->pid = (pid_t)pid;
	o->serial = (unsigned)serial;
	return true;
}

/* Is the instance of o provably unused: made in our PID namespace (ns,
 * known) by a process that is gone, or whose pid now names a process that
 * started at another time? */
static bool owner_dead(const struct trace_owner *o, uint64_t ns)
{
	if (ns == 0 || o->pidns != ns)
		return false;
	unsigned long long start;
	switch (procid_state(o->pid, &start)) {
	case PROCID_GONE:
		return true;
	case PROCID_ALIVE:
		return start != o->start;
	default:
		return false;
	}
}

unsigned trace_sweep(const char *instances)
{
	DIR *d = opendir(instances);
	if (!d)
		return 0;
	uint64_t ns = procid_pidns();
	unsigned kept = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		struct trace_owner o;
		if (strncmp(e->d_name, "rtconform", 9) != 0)
			continue; /* not an rtconform's: never touched, never counted */
		if (trace_instance_parse(e->d_name, &o) && owner_dead(&o, ns) &&
		    unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0)
			continue;
		kept++;
	}
	closedir(d);
	return kept;
}

/* With the lock held (lock_fd, or -1 when it could not be had): remove
 * the instance, and unmount tracefs when an rtconform mounted it and no
 * rtconform instance that may still be in use is left. */
static void release_locked(struct trace_job *t, int lock_fd)
{
	if (t->inst[0]) {
		/* Stop it first: an instance still recording may be busy. */
		char path[300];
		snprintf(path, sizeof path, "%s/tracing_on", t->inst);
		put(path, "0");
		for (int tries = 0; rmdir(t->inst) != 0 && errno == EBUSY && tries < 50; tries++)
			usleep(10000);
		t->inst[0] = 0;
	}
	if (t->root[0] && lock_fd >= 0) {
		char path[128];
		snprintf(path, sizeof path, "%s/instances", t->root);
		/* Not detached: a mount someone holds a file open on stays. */
		if (trace_sweep(path) == 0 && mount_is_ours())
			umount2(t->root, UMOUNT_NOFOLLOW);
	}
	t->root[0] = 0;
}

/* Enable what the kernel has of trace_events in the instance; how many. */
static unsigned enable_events(const struct trace_job *t)
{
	char path[300];
	unsigned n = 0;
	for (size_t i = 0; i < sizeof trace_events / sizeof trace_events[0]; i++) {
		snprintf(path, sizeof path, "%s/events/%s/enable", t->inst, trace_events[i]);
		n += put(path, "1") == 0;
	}
	return n;
}

/* Each traced duration metric's trip; false when none has one. */
static bool set_trips(const struct requirement *r, const struct probe *p,
		      struct result_shm *res)
{
	bool any = false;
	for (unsigned i = 0; i < p->decl.nmetrics && i < res->nmetrics; i++) {
		if (p->decl.metrics[i].kind != METRIC_DURATION)
			continue;
		double ns = req_trip_ns(r, p->decl.metrics[i].name, i == 0);
		result_metric(res, i)->trip_ns = ns;
		any |= ns > 0;
	}
	return any;
}

/* Make and set up the instance; 0, or -1 with why in buf. */
static int make_instance(struct trace_job *t, char *why, size_t len)
{
	static unsigned serial;
	char path[300];
	unsigned long long start = 0;
	procid_state(getpid(), &start); /* 0 when unknown: never proved dead */
	snprintf(t->inst, sizeof t->inst, "%s/instances/" TRACE_INSTANCE_PREFIX "%d-%llu-%llu-%u",
		 t->root, (int)getpid(), start, (unsigned long long)procid_pidns(), serial++);
	if (mkdir(t->inst, 0700) != 0) {
		int e = errno;
		snprintf(why, len, "cannot create the tracefs instance %s: %s%s", t->inst,
			 strerror(e), privilege_hint(e));
		t->inst[0] = 0;
		return -1;
	}
	char kb[32];
	snprintf(kb, sizeof kb, "%u", TRACE_BUFFER_KB);
	snprintf(path, sizeof path, "%s/buffer_size_kb", t->inst);
	int rc = put(path, kb);
	if (rc) {
		snprintf(why, len, "cannot size the trace buffer of %s: %s", t->inst, strerror(-rc));
		return -1;
	}
	if (!enable_events(t)) {
		snprintf(why, len, "no scheduler, IRQ or timer trace event could be enabled in %s",
			 t->inst);
		return -1;
	}
	snprintf(path, sizeof path, "%s/trace_marker", t->inst);
	t->marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof path, "%s/tracing_on", t->inst);
	t->on_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (t->marker_fd < 0 || t->on_fd < 0) {
		snprintf(why, len, "cannot open the trace marker of %s: %s", t->inst,
			 strerror(errno));
		return -1;
	}
	if (write(t->on_fd, "1", 1) != 1) {
		snprintf(why, len, "cannot start tracing in %s: %s", t->inst, strerror(errno));
		return -1;
	}
	return 0;
}

void trace_abandon(struct trace_job *t)
{
	steal_free(&t->steal0);
	trace_keep_free(t);
	trace_close_fds(t);
	if (!t->root[0])
		return; /* tracefs never found: nothing of ours in it */
	int lock = lock_tracefs();
	release_locked(t, lock);
	unlock_tracefs(lock);
}

bool trace_arm(struct trace_job *t, const struct requirement *r, const struct probe *p,
	       struct result_shm *res, bool all, char *note, size_t len)
{
	char why[400];
	note[0] = 0;
	if (!r->trace.wanted && !all)
		return false;
	if (!set_trips(r, p, res)) {
		snprintf(note, len, "trace: not armed: no duration metric has a threshold or a "
			 "max= limit in time units");
		return false;
	}
	int rc = -1, lock = lock_tracefs();
	if (lock < 0) {
		snprintf(why, sizeof why, "cannot lock " TRACE_LOCK_FILE ": %s%s",
			 strerror(-lock), -lock == EWOULDBLOCK ? " (another rtconform holds it)"
							       : privilege_hint(-lock));
	} else if ((rc = find_root(t, why, sizeof why)) == 0) {
		char path[128];
		snprintf(path, sizeof path, "%s/instances", t->root);
		trace_sweep(path);
		rc = make_instance(t, why, sizeof why);
	}
	if (rc != 0) {
		trace_close_fds(t);
		release_locked(t, lock);
		unlock_tracefs(lock);
		for (unsigned i = 0; i < res->nmetrics; i++)
			result_metric(res, i)->trip_ns = 0;
		snprintf(note, len, "trace: not available: %s", why);
		return false;
	}
	unlock_tracefs(lock);
	res->trace.marker_fd = t->marker_fd;
	res->trace.on_fd = t->on_fd;
	/* without one, a breach waits for the supervisor's 100 ms tick */
	t->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	res->trace.kick_fd = t->kick_fd;
	snprintf(res->trace.id, sizeof res->trace.id, "%s", r->id);
	steal_read("/proc/stat", &t->steal0); /* not there: no steal shown */
	return true;
}

void trace_close_fds(struct trace_job *t)
{
	if (t->marker_fd >= 0)
		close(t->marker_fd);
	if (t->on_fd >= 0)
		close(t->on_fd);
	t->marker_fd = t->on_fd = -1;
}

/* Copy the instance's trace to path via a temporary file. 0 or -errno;
 * *reading tells whether reading the instance failed (else writing). */
static int save(const struct trace_job *t, const char *path, bool *reading)
{
	char src[300], tmp[PATH_MAX + TRACE_NAME_MAX + 8];
	snprintf(src, sizeof src, "%s/trace", t->inst);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	*reading = true;
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	*reading = false;
	/* A new file of our own, never through a name planted in the output
	 * directory (a link there to a file of root's would be written
	 * through): O_EXCL, and one left by a killed run is removed first
	 * (unlink removes a link, never its target). */
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int out = open(tmp, flags, 0644);
	if (out < 0 && errno == EEXIST && unlink(tmp) == 0)
		out = open(tmp, flags, 0644);
	if (out < 0) {
		int e = errno;
		close(in);
		return -e;
	}
	char buf[65536];
	ssize_t n;
	int e = 0;
	while ((n = read(in, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(out, buf, (size_t)n) != n)
			e = errno ? errno : EIO;
	if (n < 0) {
		e = errno;
		*reading = true;
	}
	if (close(out) != 0 && !e)
		e = errno;
	close(in);
	if (!e && rename(tmp, path) != 0)
		e = errno;
	if (e)
		unlink(tmp);
	return -e;
}

/* Why the instance's trace could not be read (err): what the kernel says
 * of the mount and the instance now, not a bare ENOENT. */
static void lost_cause(const struct trace_job *t, int err, char *buf, size_t len)
{
	struct statfs sf;
	if (statfs(t->root, &sf) != 0 || sf.f_type != TRACEFS_MAGIC)
		snprintf(buf, len, "tracefs is no longer mounted at %s: someone else unmounted "
			 "it while the requirement ran, and its instance %s is out of reach",
			 t->root, t->inst);
	else if (access(t->inst, F_OK) != 0 && errno == ENOENT)
		snprintf(buf, len, "its tracefs instance %s was removed by someone else while "
			 "the requirement ran", t->inst);
	else
		snprintf(buf, len, "the trace of its tracefs instance %s could not be read: %s",
			 t->inst, strerror(err));
}

/* Whether the instance is still ours to read: tracefs mounted at its root
 * and the instance there. */
static bool instance_reachable(const struct trace_job *t)
{
	struct statfs sf;
	return statfs(t->root, &sf) == 0 && sf.f_type == TRACEFS_MAGIC && access(t->inst, F_OK) == 0;
}

/* What tripped, as "per-op 6.2 us > 1 ns in run 3". */
static void tripped_text(const struct result_shm *res, const struct probe *p, char *buf,
			 size_t len)
{
	const struct metric_data *m = result_metric_c(res, res->trace.metric);
	char v[32], lim[32];
	units_fmt_ns((double)res->trace.value * m->ns_per_unit, v, sizeof v);
	units_fmt_ns(m->trip_ns, lim, sizeof lim);
	const struct probe_metric *pm = res->trace.metric < probe_decl_nmetrics(&p->decl)
						? probe_decl_metric(&p->decl, res->trace.metric) : NULL;
	snprintf(buf, len, "%s %s > %s in run %u", pm ? pm->name : "?", v, lim,
		 res->trace.run + 1);
}

/* Append to note the saved trace's breach in its largest parts
 * ("; explained: 27% local timer interrupt, ...", docs/explain.md), or why
 * it cannot be explained; cut at a character boundary to fit. The
 * explanation itself goes to *out (malloc'd; NULL when there is none or
 * no memory for it). */
static void append_explanation(const struct trace_job *t, const char *path, const char *name,
			       char *note, size_t nlen, struct explain **out)
{
	/* the file just saved, and only a regular file of that name */
	char err[PATH_MAX + 200];
	int fd = safeopen_regular(path, NULL, err, sizeof err);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct explain e;
	char why[600], parts[600];
	int rc = explain_read(f, name, &e, why, sizeof why);
	fclose(f);
	if (rc == 0) {
		explain_parts(&e, parts, sizeof parts);
		*out = malloc(sizeof **out);
		if (*out && explain_copy(*out, &e) != 0) {
			free(*out);
			*out = NULL;
		}
		struct steal_snap now = { 0 };
		if (*out && steal_read("/proc/stat", &now) == 0)
			(*out)->steal_known = steal_between(&t->steal0, &now, e.probe_cpu,
							    &(*out)->steal_ns,
							    &(*out)->steal_span_ns);
		steal_free(&now);
	}
	explain_free(&e);
	char *v = utf8_valid_dup(rc == 0 ? parts : why);
	size_t at = strlen(note);
	if (v && at < nlen)
		utf8_snprintf(note + at, nlen - at, "; %s%s", rc == 0 ? "explained: " : "not explained: ",
			      v);
	free(v);
}

void trace_finish(struct trace_job *t, const struct result_shm *res, const struct probe *p,
		  const char *id, const char *dir, struct trace_names *names, char *file,
		  size_t flen, char *note, size_t nlen, struct explain **ex)
{
	file[0] = 0;
	*ex = NULL;
	if (!t->inst[0]) {
		trace_abandon(t);
		return;
	}
	trace_close_fds(t);
	if (!res->trace.tripped) {
		snprintf(note, nlen, "trace: armed, not tripped: no sample above the trip, no "
			 "trace written");
		trace_abandon(t);
		return;
	}
	char what[200], name[TRACE_NAME_MAX], path[PATH_MAX + TRACE_NAME_MAX];
	tripped_text(res, p, what, sizeof what);
	trace_name_claim(names, id, name, sizeof name);
	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : ".", name);
	bool reading = false, taken;
	int rc = trace_keep_take(t, res, path, &taken);
	if (!taken)
		rc = save(t, path, &reading);
	if (rc && reading) {
		char why[700];
		lost_cause(t, -rc, why, sizeof why);
		snprintf(note, nlen, "trace: tripped by %s, but the trace could not be saved: %s",
			 what, why);
	} else if (rc) {
		snprintf(note, nlen, "trace: tripped by %s, but %s could not be written: %s", what,
			 path, strerror(-rc));
	} else {
		/* The name alone: where the run's reports are is the run's to
		 * say (a results.json read elsewhere names no path here). */
		char rank[400], lost[800] = "";
		trace_rank_text(res, t, rank, sizeof rank);
		if (taken && !instance_reachable(t)) {
			/* the breach kept was saved before the instance went */
			char why[700];
			lost_cause(t, ENOENT, why, sizeof why);
			snprintf(lost, sizeof lost, "; then the trace was lost: %s, so no breach "
				 "after it could be traced", why);
		}
		snprintf(file, flen, "%s", name);
		snprintf(note, nlen, "trace: tripped by %s%s%s%s%s", what, rank, lost,
			 res->trace.write_err ? "; the marker could not be written: " : "",
			 res->trace.write_err ? strerror(res->trace.write_err) : "");
		if (!res->trace.write_err)
			append_explanation(t, path, name, note, nlen, ex);
	}
	trace_abandon(t);
}
