/* SPDX-License-Identifier: Apache-2.0 */
/* runinfo.h - the environment a report records for a run: the host's
 * fingerprint (host/), then what rtconform itself adds: its build
 * (rtconform.version, .commit, .build, .compiler, .libxml2, .jansson), the timebase
 * (timebase.*), and once the run is over its command, directory, times and
 * requirements files. */
#ifndef RTC_RUNINFO_H
#define RTC_RUNINFO_H

#include <stddef.h>
#include <time.h>

#include "harness/measure/timebase.h"
#include "host/facts.h"
#include "host/fingerprint.h"
#include "host/readiness.h"
#include "requirements/model.h"

/* The version of rtconform, project(... VERSION) in CMakeLists.txt, and
 * the git commit it was built from: 12 hex digits, "-dirty" appended when
 * the tree had changes, or "unknown" when it was not built from a git work
 * tree. Both are generated on every build by cmake/build_id.cmake, into the
 * one unit a new version or commit recompiles. */
extern const char runinfo_version[];
extern const char runinfo_commit[];

/* The host's fingerprint, rtconform's build and the timebase (tb may be
 * NULL: no timebase entries). Reads the host's facts itself. */
void runinfo_collect(struct fingerprint *fp, const struct timebase *tb);

/* The same from host facts the caller collected (host_facts_collect), for
 * a caller that also judges them. */
void runinfo_collect_facts(struct fingerprint *fp, const struct host_facts *hf,
			   const struct timebase *tb);

/* readiness_check of hf, with the timebase tb (NULL: no timebase check). */
void runinfo_readiness(const struct host_facts *hf, const struct timebase *tb,
		       bool try_privileges, struct readiness *out);
/* The same, judging the CPUs a run measures on (readiness_check_on):
 * `measuring` from runinfo_measuring_cpus, NULL for this process's. */
void runinfo_readiness_on(const struct host_facts *hf, const struct timebase *tb,
			  bool try_privileges, const cpu_set_t *measuring, struct readiness *out);

/* Add the CPUs requirement r measures on to set: its probe's `cpus` list
 * where it names one, else the CPU its <sched cpu> pins it to, else
 * `allowed` (the CPUs rtconform may run on, where "all" and an unpinned
 * requirement measure). */
void runinfo_measuring_cpus(const struct requirement *r, const cpu_set_t *allowed,
			    cpu_set_t *set);

/* What a run adds once it is over: rtconform.command (the exact command,
 * shell-quoted), rtconform.cwd, rtconform.started and rtconform.ended (UTC,
 * "2024-05-01T12:00:00Z"), and for each requirements file N (from 1)
 * requirements.N.path and requirements.N.sha256. */
void runinfo_add_run(struct fingerprint *fp, const char *command, time_t started,
			 time_t ended, struct req_file *const *files, size_t nfiles);
#endif
