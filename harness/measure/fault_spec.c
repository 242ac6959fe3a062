/* SPDX-License-Identifier: Apache-2.0 */
/* fault_spec.c - RTC_SELFTEST_FAULTS's delay, parsed (fault_spec.h). */
#include "harness/measure/fault_spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"

bool fault_spec_is_delay(const char *s)
{
	return s && !strncmp(s, "delay=", 6);
}

int fault_spec_parse(const char *s, struct fault_spec *f, char *err, size_t errlen)
{
	char delay[64], why[200];
	const char *comma = s ? strchr(s, ',') : NULL;
	if (!fault_spec_is_delay(s) || !comma || (size_t)(comma - s - 6) >= sizeof delay ||
	    strncmp(comma + 1, "every=", 6) != 0) {
		snprintf(err, errlen, "'%s' is not delay=DURATION,every=K", s ? s : "");
		return -EINVAL;
	}
	memcpy(delay, s + 6, (size_t)(comma - s - 6));
	delay[comma - s - 6] = 0;
	int rc = units_duration_parse_ns(delay, false, &f->delay_ns, why, sizeof why);
	if (rc == 0 && f->delay_ns > FAULT_DELAY_MAX_NS)
		rc = -ERANGE, snprintf(why, sizeof why, "more than 1 s");
	if (rc) {
		snprintf(err, errlen, "delay=%s: %s", delay, why);
		return rc;
	}
	rc = units_count_parse(comma + 7, FAULT_EVERY_MAX, &f->every, why, sizeof why);
	if (rc)
		snprintf(err, errlen, "every=%s: %s", comma + 7, why);
	return rc;
}
