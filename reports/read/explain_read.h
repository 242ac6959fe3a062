/* SPDX-License-Identifier: Apache-2.0 */
/* explain_read.h - a requirement's `explain` of a results.json (the object
 * explain_json_tree writes, harness/explain.h) read back into an
 * explanation, with strict checks: a results.json from another machine is
 * untrusted input (docs/reports.md, "explain"). */
#ifndef RTC_EXPLAIN_READ_H
#define RTC_EXPLAIN_READ_H

#include <stddef.h>

#include <jansson.h>

#include "harness/explain.h"
#include "reports/read/json_field.h"

/* The most components and migrations an `explain` may list: far more than
 * a window of one sample ever holds. */
#define EXPLAIN_READ_MAX_ITEMS 4096
/* How far a component's share may be from its ns over the window: the
 * writer prints it from that quotient (results.json to the double,
 * `rtconform explain --json` to 6 significant digits). */
#define EXPLAIN_READ_SHARE_TOLERANCE 1e-5

/* Read j, the value of results.json's "explain" at path `at`, into e
 * (explain_free it either way). 0, or -1 with f's fault naming the field
 * and what is wrong with it, quoting the value (json_field.h). */
int explain_read_json(struct jfield *f, const json_t *j, const char *at, struct explain *e);

#endif
