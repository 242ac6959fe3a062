/* SPDX-License-Identifier: Apache-2.0 */
/* json_field.c - the field readers every strict JSON reader uses
 * (json_field.h). */
#include "reports/read/json_field.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool jf_fail(struct jfield *f, int rc, const char *at, const char *fmt, ...)
{
	if (f->rc)
		return false;
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(f->err, f->errlen, "%s: %s%s%s", f->file, at, *at ? ": " : "", msg);
	f->rc = rc;
	return false;
}

static void at_fit(char *buf, int n)
{
	if (n < 0 || n >= JF_AT_LEN)
		memcpy(buf + JF_AT_LEN - 4, "...", 4);
}

void jf_at_key(char *buf, const char *at, const char *key)
{
	at_fit(buf, snprintf(buf, JF_AT_LEN, "%s%s%s", at, *at && *key && *key != '[' ? "." : "", key));
}

void jf_at_index(char *buf, const char *at, size_t i)
{
	at_fit(buf, snprintf(buf, JF_AT_LEN, "%s[%zu]", at, i));
}

const json_t *jf_member(struct jfield *f, const json_t *obj, const char *at, const char *key,
			char *where)
{
	jf_at_key(where, at, key);
	const json_t *j = json_object_get(obj, key);
	if (!j)
		jf_fail(f, -EINVAL, where, "missing");
	return j;
}

bool jf_int(struct jfield *f, const json_t *j, const char *at, long long lo, long long hi,
	    long long *out)
{
	if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
		return jf_fail(f, -EINVAL, at, "expected an integer from %lld to %lld", lo, hi);
	*out = json_integer_value(j);
	return true;
}

bool jf_bool(struct jfield *f, const json_t *j, const char *at, bool *out)
{
	*out = json_is_true(j);
	if (!json_is_boolean(j))
		return jf_fail(f, -EINVAL, at, "expected true or false");
	return true;
}

bool jf_text(struct jfield *f, const json_t *j, const char *at, bool nullable, char *buf,
	     size_t len)
{
	buf[0] = '\0';
	if (nullable && json_is_null(j))
		return true;
	if (!json_is_string(j))
		return jf_fail(f, -EINVAL, at, "expected a string%s", nullable ? " or null" : "");
	size_t n = json_string_length(j);
	if (n >= len)
		return jf_fail(f, -EINVAL, at, "%zu bytes, more than the %zu it may hold", n,
			       len - 1);
	if (strlen(json_string_value(j)) != n)
		return jf_fail(f, -EINVAL, at, "holds a NUL character");
	memcpy(buf, json_string_value(j), n + 1);
	return true;
}

bool jf_int_field(struct jfield *f, const json_t *obj, const char *at, const char *key,
		  long long lo, long long hi, long long *out)
{
	char w[JF_AT_LEN];
	const json_t *j = jf_member(f, obj, at, key, w);
	return j && jf_int(f, j, w, lo, hi, out);
}

bool jf_bool_field(struct jfield *f, const json_t *obj, const char *at, const char *key,
		   bool *out)
{
	char w[JF_AT_LEN];
	const json_t *j = jf_member(f, obj, at, key, w);
	*out = false;
	return j && jf_bool(f, j, w, out);
}

bool jf_text_field(struct jfield *f, const json_t *obj, const char *at, const char *key,
		   bool nullable, char *buf, size_t len)
{
	char w[JF_AT_LEN];
	const json_t *j = jf_member(f, obj, at, key, w);
	buf[0] = '\0';
	return j && jf_text(f, j, w, nullable, buf, len);
}

const json_t *jf_object_field(struct jfield *f, const json_t *obj, const char *at,
			      const char *key)
{
	char w[JF_AT_LEN];
	const json_t *j = jf_member(f, obj, at, key, w);
	if (j && !json_is_object(j)) {
		jf_fail(f, -EINVAL, w, "expected an object");
		return NULL;
	}
	return j;
}
