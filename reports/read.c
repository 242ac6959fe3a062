/* SPDX-License-Identifier: Apache-2.0 */
/* read.c - `rtconform report FILE`: the reader for FILE chosen by what it
 * holds, not by its name (a results.json renamed to out.xml still reads). */
#include "reports/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The first byte that is not white space (after a UTF-8 byte order mark),
 * or EOF. */
static int first_byte(FILE *f)
{
	int c = fgetc(f);
	if (c == 0xef && fgetc(f) == 0xbb && fgetc(f) == 0xbf)
		c = fgetc(f);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		c = fgetc(f);
	return c;
}

int report_input_kind(const char *path, enum report_input *kind, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rbe");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	int c = first_byte(f);
	int e = ferror(f) ? errno : 0;
	fclose(f);
	if (e) {
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	*kind = c == '{' ? REPORT_INPUT_JSON : c == '<' ? REPORT_INPUT_JUNIT : REPORT_INPUT_OTHER;
	if (*kind != REPORT_INPUT_OTHER)
		return 0;
	snprintf(err, errlen,
		 "%s: neither a results.json (a JSON object) nor a junit.xml (an XML document)",
		 path);
	return -EINVAL;
}

int report_view_read(const char *path, struct report_view *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof *v);
	enum report_input kind;
	int rc = report_input_kind(path, &kind, err, errlen);
	if (rc)
		return rc;
	if (kind == REPORT_INPUT_JSON)
		return report_view_from_json(path, v, err, errlen);
	return report_view_from_junit(path, v, err, errlen);
}
