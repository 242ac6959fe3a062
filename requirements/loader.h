/* SPDX-License-Identifier: Apache-2.0 */
/* loader.h - read a requirements file into the model.
 *
 * Parsing is safe by construction: a parser context per file, XML_PARSE_NONET
 * (and XML_PARSE_NO_XXE where libxml2 has it), never NOENT, DTDLOAD, HUGE or
 * XINCLUDE; a document with a DOCTYPE is refused outright (no entities, no
 * external DTD). The document is validated against the XSD embedded in the
 * binary, then checked: unique ids, units, numbers in range, priorities in
 * range, limits well formed, percentile sample counts when known.
 */
#ifndef RTC_LOADER_H
#define RTC_LOADER_H

#include "base/diag.h"
#include "requirements/model.h"

/* Load and check `path`. `display` is the name used in diagnostics and
 * reports (NULL: path). Returns a new req_file when there is no problem, else
 * NULL with at least one "file:line: message" in diags. Caller frees with
 * req_file_free(). */
struct req_file *req_load_file(const char *path, const char *display,
			       struct diag_list *diags);

/* The same for a document in memory (the built-in default profile). */
struct req_file *req_load_memory(const char *buf, size_t len, const char *display,
				 struct diag_list *diags);

/* The <sched> rules for policy= and priority=, also used by the command line
 * (rtconform probe --policy, --priority) so both accept the same values.
 * Each returns 0, or -1 with a message naming the value in err (no file or
 * line: the caller says where the value came from). */

/* "other", "fifo" or "rr" into *out (left alone on error). */
int req_policy_parse(const char *name, enum sched_policy *out, char *err, size_t len);

/* The priority for r->policy, setting r->priority and r->priority_max.
 * fifo and rr: "max" or a whole number in the policy's range (NULL: missing,
 * an error). other: NULL or 0 only. */
int req_priority_parse(const char *text, struct requirement *r, char *err, size_t len);

/* The embedded XSD text and the built-in default profile. */
extern const char rtc_schema_xsd[];
extern const size_t rtc_schema_xsd_len;
extern const char rtc_default_profile[];
extern const size_t rtc_default_profile_len;

/* Call once at start and once at exit (libxml2 global set-up / clean-up). */
void req_loader_init(void);
void req_loader_cleanup(void);

#endif
