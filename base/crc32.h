/* SPDX-License-Identifier: Apache-2.0 */
/* crc32.h - the CRC-32 of ISO-HDLC (the one of zlib, gzip and PNG:
 * reflected polynomial 0xEDB88320, all ones in and out), for the records of
 * a run's journal. Check value: "123456789" gives 0xCBF43926.
 */
#ifndef RTC_CRC32_H
#define RTC_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of what crc was the CRC-32 of followed by len bytes at data;
 * crc 0 begins (crc32_update(0, "", 0) is 0), so two calls over two pieces
 * give the CRC-32 of the two together, as zlib's crc32() does. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

#endif
