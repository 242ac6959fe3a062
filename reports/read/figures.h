/* SPDX-License-Identifier: Apache-2.0 */
/* figures.h - a view read from a results.json held to its own figures
 * (figures.c): the verdicts must be the ones the harness's rules give for
 * the stored numbers, and the statistics ordered as any sample set's are.
 * Private to the reader (json_read.c calls it once the file is read). */
#ifndef RTC_READ_FIGURES_H
#define RTC_READ_FIGURES_H

#include <stddef.h>

#include "reports/report.h"

/* 0 when every verdict of v agrees with its figures; else -EINVAL with the
 * JSON path of the first field that does not in at ("files[0].
 * requirements[3].limits[0].verdict") and why in why (its value first). */
int read_check_figures(const struct report_view *v, char *at, size_t atlen, char *why,
		       size_t whylen);

#endif
