/* SPDX-License-Identifier: Apache-2.0 */
/* trace.h - trace on breach, the supervisor's side.
 *
 * A requirement with <trace/> (or every requirement under `run --trace`)
 * is measured with a kernel trace armed: its own tracefs instance
 * (instances/rtconform-<pid>-<start>-<pidns>-<n>: trace_instance_parse),
 * scheduler wake-up and switch, IRQ and
 * timer events, a bounded ring buffer. The worker's first sample above a
 * metric's trip, and each later one larger than every sample before (at
 * most PROBE_TRACE_MAX_SAVES), writes a marker and stops the instance
 * (probe_trace_trip in harness/measure/probe_trace.c); the supervisor
 * keeps a copy of each such trace and starts the instance again
 * (trace_keep_poll, trace_keep.c), so what it saves at the end as
 * trace-<ID>.txt beside report.html is the trace of the worst breach the
 * budget reached, and
 * removes the instance, whatever became of the worker. Only the instance is
 * ever written to: the top-level tracing state is left as found. tracefs
 * is mounted only when it is not, and unmounted only when no rtconform
 * may still use it (trace_sweep), whichever run that is; every rtconform
 * decides under one lock (TRACE_LOCK_FILE). When
 * tracing cannot be had the requirement is measured all the same, and the
 * note says why there is no trace. docs/measurement.md has the details.
 */
#ifndef RTC_TRACE_H
#define RTC_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "harness/measure/probe.h"
#include "harness/trace_steal.h"
#include "requirements/model.h"

/* Ring buffer of an instance, KiB per CPU. */
#define TRACE_BUFFER_KB 1024

/* Held (flock) while a run mounts or unmounts tracefs and makes or
 * removes its instance: two runs that start or end together decide one
 * after the other. A holder that does not let go within TRACE_LOCK_WAIT_MS
 * costs the trace (or, at the end, the unmount), never the run. */
#define TRACE_LOCK_FILE "/run/rtconform-tracefs.lock"
#define TRACE_LOCK_WAIT_MS 10000
/* The source a tracefs rtconform mounted is mounted with: the mark, in
 * /proc/self/mountinfo, that the mount is rtconform's to take away again
 * (by whichever run is the last to use it), which survives a killed run. */
#define TRACE_MOUNT_SOURCE "rtconform"
#define TRACE_INSTANCE_PREFIX "rtconform-"

/* Who made an instance, from its name
 * rtconform-<pid>-<start>-<pidns>-<serial>: the process's pid, its start
 * time (field 22 of /proc/PID/stat), the inode of its PID namespace
 * (/proc/self/ns/pid) and its count of instances. */
struct trace_owner {
	pid_t pid;
	unsigned long long start, pidns;
	unsigned serial;
};

/* Parse an instance name of that form (decimal numbers, nothing else);
 * false for any other name. */
bool trace_instance_parse(const char *name, struct trace_owner *o);

/* In the instances directory `instances`, remove every instance an
 * rtconform left that provably nobody uses: named in trace_owner's form,
 * of our PID namespace, by a process that is gone (or a zombie) or whose
 * pid is now another process's (another start time). An instance of
 * another namespace (a container's), of a form this version does not
 * know, or whose owner cannot be checked, is never removed. Returns how
 * many instances whose name starts with "rtconform" remain: those that
 * may be in use. Others' instances are neither touched nor counted. */
unsigned trace_sweep(const char *instances);

struct trace_names;

struct trace_job {
	char root[64];        /* the tracefs mount used, "" when none */
	char inst[160];       /* the instance's directory, "" when none */
	int marker_fd, on_fd; /* the instance's trace_marker and tracing_on */
	struct steal_snap steal0; /* /proc/stat's steal when armed */
	/* The worst breach's trace so far (trace_keep_poll): a file of ours
	 * holding the instance's trace as stopped at breach `kept` (of
	 * res->trace.saves); NULL before one is kept. keep_err: why a save or
	 * a re-arm failed (no more are tried), or 0. */
	FILE *keep;
	uint32_t kept;
	int keep_err;
	int kick_fd; /* the eventfd the worker wakes the supervisor with, or -1 */
};

void trace_job_init(struct trace_job *t);

/* Arm a trace for requirement r (probe p) measured into res when it asks
 * for one or `all` (run --trace): create the instance, enable its events,
 * open the files the worker writes, and give each traced duration metric
 * its trip (metric_data.trip_ns). Returns true when armed. Otherwise note
 * says why not ("trace: not available: ...") or is "" when no trace was
 * asked for; the requirement is measured either way. */
bool trace_arm(struct trace_job *t, const struct requirement *r, const struct probe *p,
	       struct result_shm *res, bool all, char *note, size_t len);

/* In the supervisor, once the worker has the files: close its copies (an
 * instance with open files cannot be removed). */
void trace_close_fds(struct trace_job *t);

/* After the worker and all its processes are gone (or it never ran): when
 * the trace tripped, save the instance's trace to <dir>/trace-<ID>.txt
 * named by trace_name_claim in names (file gets that name, relative to
 * dir, "" when nothing was saved: the reports keep the name, and a report
 * beside the trace links it by that); remove the instance,
 * and unmount tracefs when an rtconform mounted it and no other uses it.
 * note says what became of the trace, and when it could not be saved, the
 * true cause (tracefs unmounted or the instance removed by someone else);
 * a saved trace's note ends in its breach's largest parts ("; explained:
 * ...", harness/explain.h) or why it could not be explained, and *ex
 * gets the explanation (malloc'd, free with explain_free and free; NULL
 * when none). Safe on a job that never armed. */
struct explain;
void trace_finish(struct trace_job *t, const struct result_shm *res, const struct probe *p,
		  const char *id, const char *dir, struct trace_names *names, char *file,
		  size_t flen, char *note, size_t nlen, struct explain **ex);

/* While the worker runs (each supervisor tick): when the worker has stopped
 * the instance at a new worst breach (res->trace.saving 2), copy its trace
 * into t->keep, empty the buffer and start it again (unless the budget,
 * PROBE_TRACE_MAX_SAVES, is spent), and let the worker stop it at a larger
 * breach (saving 0). A failure stops the saving (keep_err); the instance
 * then keeps what it holds for trace_finish. trace_keep.c. */
void trace_keep_poll(struct trace_job *t, struct result_shm *res);
/* trace_finish's source: when the trace kept is that of the last breach
 * stopped at, copy it to path (*taken; 0 or -errno); else *taken false and
 * the instance holds the last breach. */
int trace_keep_take(struct trace_job *t, const struct result_shm *res, const char *path,
		    bool *taken);
void trace_keep_free(struct trace_job *t);
/* Which sample the saved trace explains and how it ranks against the max,
 * for the note: " (sample 1234 of the run): the max itself", or " (sample
 * 88 of the run on CPU 3): the 3rd largest breach; the max 8.19 ms and 1 other samples above
 * it came after the trace budget (8 stops) was spent, not traced", and how
 * many breaches it superseded. */
void trace_rank_text(const struct result_shm *res, const struct trace_job *t, char *buf,
		     size_t len);

/* Remove the instance (and unmount tracefs as trace_finish does) without
 * saving anything: for a requirement given up before its worker ran. */
void trace_abandon(struct trace_job *t);

/* The file name a requirement's trace gets: trace-<ID>.txt, with every
 * byte of the id that is not a letter, digit, '.', '_' or '-' (and a
 * leading '.') replaced by '_'; with k > 1, trace-<ID>~<k>.txt. */
void trace_file_name(const char *id, unsigned k, char *buf, size_t len);

/* The room a run names its traces in (trace_finish): a name is at most
 * TRACE_NAME_MAX - 1 bytes, a long id cut to fit. */
#define TRACE_NAME_MAX 200

/* Whether name is one a run can give a trace (trace_name_claim into
 * TRACE_NAME_MAX bytes): trace_file_name of some id and k, made again
 * from name's own id part and k and compared. Such a name is a plain file
 * name of the directory the run saved it in: no '/', no ':' (no scheme),
 * no control character, no '%', never "." or ".." or hidden. The reports
 * link and attach a trace a results.json names only when this holds
 * (report_trace_ok in reports/link.c): a results.json may come from
 * anywhere. */
bool trace_name_is_ours(const char *name);

/* The trace names a run has given out, so that two requirements whose ids
 * are the same (in two files) or become the same name never share a file. */
struct trace_names {
	char **names;
	size_t n, cap;
};

/* A name for id's trace no earlier one of this run has (compared ignoring
 * case, so the files stay apart on a case-insensitive file system too):
 * trace-<ID>.txt, else trace-<ID>~2.txt, ~3, ...; '~' is in no safe id, so
 * these never meet another requirement's name. Remembered in tn; with tn
 * NULL, always trace-<ID>.txt. */
void trace_name_claim(struct trace_names *tn, const char *id, char *buf, size_t len);
void trace_names_free(struct trace_names *tn);

#endif
