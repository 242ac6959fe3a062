/* SPDX-License-Identifier: Apache-2.0 */
/* crc32.c - see crc32.h. A table of the 256 bytes' remainders, made once. */
#include "base/crc32.h"

#include <pthread.h>

static uint32_t table[256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_init(void)
{
	for (uint32_t b = 0; b < 256; b++) {
		uint32_t r = b;
		for (int k = 0; k < 8; k++)
			r = r & 1 ? (r >> 1) ^ 0xEDB88320u : r >> 1;
		table[b] = r;
	}
}

uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;
	pthread_once(&table_once, table_init);
	crc = ~crc;
	while (len--)
		crc = (crc >> 8) ^ table[(crc ^ *p++) & 0xff];
	return ~crc;
}
