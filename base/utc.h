/* SPDX-License-Identifier: Apache-2.0 */
/* utc.h - a time as every document writes it: UTC, to the second,
 * "2023-11-14T22:13:20Z" (results.json, validation.json, the environment's
 * times) or without the zone letter (junit.xml's timestamp, which its
 * schemas want so, and the start of an interval, which adds milliseconds). */
#ifndef RTC_UTC_H
#define RTC_UTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* t, seconds since the epoch, into buf (len bytes) as UTC, with zone a "Z"
 * after it: true, or false with buf "" when it cannot be written so. */
bool utc_fmt(int64_t t, bool zone, char *buf, size_t len);

#endif
