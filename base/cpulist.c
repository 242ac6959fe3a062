/* SPDX-License-Identifier: Apache-2.0 */
/* cpulist.c - see cpulist.h. */
#include "base/cpulist.h"

#include <errno.h>
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
