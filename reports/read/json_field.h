/* SPDX-License-Identifier: Apache-2.0 */
/* json_field.h - the field readers of every strict JSON reader rtconform
 * has (a results.json: json_read.c; its explanations: explain_read.c; a
 * selftest record: selftest/selftest_read.c): where the reader is, its
 * first fault kept as one message, "FILE: PATH: what", and a member, an
 * integer in a range, a boolean, a bounded string and an object read with
 * the field's path in the message. Each returns false (NULL) once it
 * failed; a later fault does not overwrite the first. */
#ifndef RTC_READ_JSON_FIELD_H
#define RTC_READ_JSON_FIELD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* A field's path: "files[0].requirements[12].metrics[1].histogram.buckets[40]";
 * one too long for it ends in "...". */
#define JF_AT_LEN 256

struct jfield {
	const char *file; /* the file's name, first in the message */
	char *err;
	size_t errlen;
	int rc;           /* 0, or the first fault's -errno */
};

/* Record the first fault, "FILE: AT: message" ("FILE: message" for AT "").
 * Returns false. */
bool jf_fail(struct jfield *f, int rc, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* at and key joined, "at.key" ("key" when at is "", "at[3]" for a key "[3]"),
 * and at and index i, "at[i]", into buf (JF_AT_LEN bytes). */
void jf_at_key(char *buf, const char *at, const char *key);
void jf_at_index(char *buf, const char *at, size_t i);

/* Member key of obj (where: its path, JF_AT_LEN bytes, at.key); NULL and
 * "missing" when obj has none (or is not an object). */
const json_t *jf_member(struct jfield *f, const json_t *obj, const char *at, const char *key,
			char *where);

/* Value j at path at: an integer from lo to hi; true or false; a string
 * (with nullable, or null: then "") of fewer than len bytes and no NUL,
 * copied into buf; an object. */
bool jf_int(struct jfield *f, const json_t *j, const char *at, long long lo, long long hi,
	    long long *out);
bool jf_bool(struct jfield *f, const json_t *j, const char *at, bool *out);
bool jf_text(struct jfield *f, const json_t *j, const char *at, bool nullable, char *buf,
	     size_t len);

/* The same of obj's member key (at: obj's path). */
bool jf_int_field(struct jfield *f, const json_t *obj, const char *at, const char *key,
		  long long lo, long long hi, long long *out);
bool jf_bool_field(struct jfield *f, const json_t *obj, const char *at, const char *key,
		   bool *out);
bool jf_text_field(struct jfield *f, const json_t *obj, const char *at, const char *key,
		   bool nullable, char *buf, size_t len);
const json_t *jf_object_field(struct jfield *f, const json_t *obj, const char *at,
			      const char *key);

#endif
