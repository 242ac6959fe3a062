/* SPDX-License-Identifier: Apache-2.0 */
/* cpulist.c - see cpulist.h. */
#include "base/cpulist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int cpulist_parse(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (;;) {
		/* digits only: strtoul alone would take signs, spaces and "0x" */
		if (*s < '0' || *s > '9')
			return -EINVAL;
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				return -EINVAL;
			b = strtoul(s, &end, 10);
		}
		if (b < a || b >= CPU_SETSIZE)
			return -EINVAL;
		for (unsigned long i = a; i <= b; i++)
			CPU_SET((int)i, set);
		if (*end == 0)
			return 0;
		if (*end != ',')
			return -EINVAL;
		s = end + 1;
	}
}

void cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t o = 0;
	if (len)
		buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && len; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		int n = e > c ? snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", c, e)
			      : snprintf(buf + o, len - o, "%s%d", o ? "," : "", c);
		if (n < 0 || (size_t)n >= len - o) {
			buf[o] = '\0';
			break;
		}
		o += (size_t)n;
		c = e;
	}
}
