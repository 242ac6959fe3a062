/* SPDX-License-Identifier: Apache-2.0 */
/* verify.h - `rtconform verify DIR`'s checks (verify.c): a directory's
 * files against its MANIFEST.sha256, its reports rendered again from its
 * results.json, its nested manifested directories, its signature. A
 * selftest record is checked by the function the caller gives
 * (st_verify_record, selftest/selftest.h), which uses the helpers below:
 * the selftest module lies above this one. */
#ifndef RTC_EVIDENCE_VERIFY_H
#define RTC_EVIDENCE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

struct manifest;
struct sign_check;

/* A record's check: when manifest m of dir says dir is a record of its
 * kind (*record true), its documents checked; the number of problems,
 * each said on stderr. */
typedef size_t (*verify_record_fn)(const char *dir, const struct manifest *m, bool *record);

/* Verify directory arg (as the user named it) and every manifested
 * directory below it, the signature by sc's keys; record (NULL: none)
 * checks a record. Prints each problem and the verdict line. The exit
 * status: 0 every check holds, 1 a file missing, changed or disagreeing, a
 * signature that does not hold, 2 no manifest, a malformed one, a
 * signature that cannot be checked. */
int verify_dir(const char *arg, const struct sign_check *sc, verify_record_fn record);

/* Whether manifest m lists rel. */
bool verify_listed(const struct manifest *m, const char *rel);

/* The bytes of file path (safeopen_read: a regular file, not through a
 * link), at most max, malloc'd (NUL-terminated), length in *len; NULL with
 * -errno in *e and err saying "PATH: why". */
char *verify_slurp(const char *path, size_t max, size_t *len, int *e, char *err, size_t errlen);

/* Whether file path, when it exists, holds exactly data (len bytes), the
 * same report rendered again from file `source`; also with `alt` (NULL:
 * none), the one other form it may take. Says so when it does not. True
 * when it agrees or is absent. */
bool verify_agrees(const char *path, const char *data, size_t len, const char *alt,
		   size_t alt_len, const char *source);

#endif
