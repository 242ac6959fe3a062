/* SPDX-License-Identifier: Apache-2.0 */
/* read.h - a run read back: results.json into the report view
 * (reports/report.h), for `rtconform report`, `compare` and `merge`.
 *
 * A module of its own (reports/read/, module `read`) above the writers:
 * reports/ renders a view and never reads a file back, and the layers test
 * holds it to that. junit.xml is written for CI and never read back.
 */
#ifndef RTC_READ_H
#define RTC_READ_H

#include <stddef.h>

#include "reports/report.h"

/* The reader (json_read.c, read.c). Each returns 0, or -errno / -EINVAL
 * with a message in err naming the file and what in it could not be read
 * (v is then empty).
 *
 * results.json: strict, every field checked for presence and type; gives
 * back the exact view results.json was written from. */
int report_view_from_json(const char *path, struct report_view *v,
			  char *err, size_t errlen);
/* The same for an input the user names: an XML file (a junit.xml or an
 * HTML page, written and never read back) is refused with REPORT_XML_REFUSED,
 * anything else that is not a JSON object as not a results.json. */
int report_view_read(const char *path, struct report_view *v, char *err, size_t errlen);
#define REPORT_XML_REFUSED \
	"XML, not a results.json: junit.xml and report.html are written for people and CI, " \
	"never read back; render from the run's results.json"

#endif
