/* SPDX-License-Identifier: Apache-2.0 */
/* utc.c - a time as every document writes it (utc.h). */
#include "base/utc.h"

#include <time.h>

bool utc_fmt(int64_t t, bool zone, char *buf, size_t len)
{
	struct tm tm;
	time_t tt = (time_t)t;
	if (!len)
		return false;
	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, len, zone ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%dT%H:%M:%S", &tm)) {
		buf[0] = '\0';
		return false;
	}
	return true;
}
