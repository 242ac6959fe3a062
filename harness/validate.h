/* validate.h - check a loaded requirements file against the probe table:
 * known probe, known parameters with allowed values, combinations the probe
 * accepts, limits on metrics the probe has. Appends "file:line: message"
 * diagnostics naming what was expected; returns the number of problems. */
#ifndef RTC_VALIDATE_H
#define RTC_VALIDATE_H

#include "../requirements/model.h"
#include "diag.h"

size_t validate_file(const struct req_file *f, struct diag_list *d);

/* Check one parameter value of a probe (kind-aware). NULL when fine, else a
 * message in buf. Used by `rtconform probe --param` too. */
struct probe;
const char *validate_param_value(const struct probe *p, size_t idx, const char *value,
				 char *buf, size_t len);

#endif
