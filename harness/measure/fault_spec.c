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

/* One DURATION of the spec (what, for the error) into *ns: 1 ns .. 1 s. */
static int parse_delay(const char *text, size_t n, const char *what, uint64_t *ns, char *err,
		       size_t errlen)
{
	char d[64], why[200];
	if (n >= sizeof d) {
		snprintf(err, errlen, "%s=%.*s: too long", what, (int)n, text);
		return -EINVAL;
	}
	memcpy(d, text, n);
	d[n] = 0;
	int rc = units_duration_parse_ns(d, false, ns, why, sizeof why);
	if (rc == 0 && *ns > FAULT_DELAY_MAX_NS)
		rc = -ERANGE, snprintf(why, sizeof why, "more than 1 s");
	if (rc)
		snprintf(err, errlen, "%s=%s: %s", what, d, why);
	return rc;
}

int fault_spec_parse(const char *s, struct fault_spec *f, char *err, size_t errlen)
{
	char why[200];
	const char *comma = s ? strchr(s, ',') : NULL;
	f->grow_ns = 0;
	if (!fault_spec_is_delay(s) || !comma || strncmp(comma + 1, "every=", 6) != 0) {
		snprintf(err, errlen, "'%s' is not delay=DURATION,every=K[,grow=DURATION]",
			 s ? s : "");
		return -EINVAL;
	}
	int rc = parse_delay(s + 6, (size_t)(comma - s - 6), "delay", &f->delay_ns, err, errlen);
	if (rc)
		return rc;
	const char *every = comma + 7, *grow = strchr(every, ',');
	char k[32];
	size_t kn = grow ? (size_t)(grow - every) : strlen(every);
	snprintf(k, sizeof k, "%.*s", (int)(kn < sizeof k ? kn : sizeof k - 1), every);
	rc = kn < sizeof k ? units_count_parse(k, FAULT_EVERY_MAX, &f->every, why, sizeof why)
			   : -EINVAL;
	if (rc) {
		snprintf(err, errlen, "every=%.*s: %s", (int)kn, every, kn < sizeof k ? why
			 : "too long");
		return rc;
	}
	if (!grow)
		return 0;
	if (strncmp(grow + 1, "grow=", 5) != 0) {
		snprintf(err, errlen, "'%s': after every=K only grow=DURATION may follow", s);
		return -EINVAL;
	}
	return parse_delay(grow + 6, strlen(grow + 6), "grow", &f->grow_ns, err, errlen);
}
