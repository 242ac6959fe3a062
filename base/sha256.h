/* SPDX-License-Identifier: Apache-2.0 */
/* sha256.h - SHA-256 (FIPS 180-4) of a requirements file.
 *
 * Reports name the exact bytes they were measured against; a digest is what
 * an auditor compares. Small and local so the project does not take a crypto
 * library dependency for one checksum.
 */
#ifndef RTC_SHA256_H
#define RTC_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256_ctx {
	uint32_t h[8];
	uint64_t nbytes;        /* message length so far */
	unsigned char buf[64];  /* partial block */
	size_t nbuf;
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, unsigned char out[32]);

/* One-shot digest of a buffer. */
void sha256(const void *data, size_t len, unsigned char out[32]);

/* The digest as 64 lower-case hex digits and a NUL, as reports print it. */
void sha256_hex(const unsigned char digest[32], char out[65]);

#endif
