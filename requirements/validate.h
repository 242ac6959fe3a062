/* SPDX-License-Identifier: Apache-2.0 */
/* validate.h - check a loaded requirements file against the probes it may
 * name (a catalogue of probe declarations the caller passes in): known
 * probe, known parameters with allowed values, combinations the probe
 * accepts, limits on metrics the probe has, a runnable load. Appends
 * "file:line: message" diagnostics naming what was expected; returns the
 * number of problems. */
#ifndef RTC_VALIDATE_H
#define RTC_VALIDATE_H

#include "base/diag.h"
#include "base/probe_decl.h"
#include "requirements/model.h"

size_t validate_file(const struct req_file *f, const struct probe_catalog *cat,
		     struct diag_list *d);

/* Whether requirements of probe p may run by time (<run duration>,
 * --duration): NULL when they may, else why not, in buf. */
const char *validate_by_time(const struct probe_decl *p, char *buf, size_t len);

#endif
