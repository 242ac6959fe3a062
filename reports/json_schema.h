/* SPDX-License-Identifier: Apache-2.0 */
/* json_schema.h - what the results.json writer (json.c) and reader
 * (reports/read/json_read.c) must agree on besides the field names, which
 * the round-trip tests hold together; the fleet results.json of merge
 * (across/merge.c) is written to the same rules. docs/reports.md describes
 * the schema.
 */
#ifndef RTC_JSON_SCHEMA_H
#define RTC_JSON_SCHEMA_H

#include <stdint.h>

/* The value of "schema": raised on any incompatible change. 2 added count
 * metrics (a metric's "kind"; a limit's "unit" null for a count); the
 * reader still reads 1, whose metrics are all durations. */
#define RESULTS_SCHEMA "urn:rtconform:results:2"
#define RESULTS_SCHEMA_1 "urn:rtconform:results:1"
/* The "schema" of a fleet report's results.json (rtconform merge,
 * across/merge.c), which the reader refuses by name. */
#define RESULTS_FLEET_SCHEMA "urn:rtconform:fleet:1"

/* jansson writes reals with 17 significant digits, which every double reads
 * back as; json.c then rewrites each with the fewest digits that still do. */
#define RESULTS_REAL_DIGITS 17

/* jansson's integers are signed 64-bit (json_int_t is long long): counts and
 * histogram bounds are written as integers up to this, and refused above. */
#define RESULTS_MAX_INT ((uint64_t)INT64_MAX)

/* Times (a suite's start), UTC. */
#define RESULTS_TIME_FORMAT "%Y-%m-%dT%H:%M:%SZ"

#endif
