/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_read.c - a selftest record's validation.json read back, as
 * untrusted input (it may come from another machine), into the structure
 * selftest renders the record from: `rtconform verify` renders the three
 * documents again from it and compares them with the files (selftest.h,
 * docs/qualification.md "Selftest: the validation record").
 *
 * Strict: every field's type is checked, names of verdicts and privileges
 * are those of this rtconform, strings are bounded by the fields that hold
 * them, and the cases are those of this rtconform's selftest, in its order
 * (a record of another version names its version in the message). A field
 * this reader does not know is not refused here: the document rendered
 * again lacks it, so validation.json disagrees with itself.
 *
 * st_verify_record is the check `rtconform verify` is given for a record
 * (evidence/verify.c). */
#include "selftest/selftest.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "evidence/manifest.h"
#include "evidence/verify.h"
#include "reports/read/json_field.h"

/* A fingerprint key, and the keys a host may have. */
#define ST_KEY_MAX 128
#define ST_HOST_KEYS_MAX 512
/* The most seconds a case may say it took: a day. */
#define ST_SECONDS_MAX 86400.0

/* Where a reader is: the file's name and its first fault (json_field.h). */
#define where jfield

/* A fault at field: -1. */
#define fail(w, ...) (jf_fail((w), -EINVAL, __VA_ARGS__), -1)

/* String field key of object o (path names it) copied into buf (size
 * len: longer is refused); null allowed when nullable (buf then ""). */
static int get_str(struct where *w, json_t *o, const char *key, const char *path, char *buf,
		   size_t len, bool nullable)
{
	return jf_text_field(w, o, path, key, nullable, buf, len) ? 0 : -1;
}

static int get_object(struct where *w, json_t *o, const char *key, json_t **out)
{
	*out = (json_t *)jf_object_field(w, o, "", key);
	return *out ? 0 : -1;
}

/* A count of the record's (a total, the exit status): 0 to INT_MAX. */
static int get_int(struct where *w, json_t *o, const char *key, const char *path,
		   long long *out)
{
	return jf_int_field(w, o, path, key, 0, INT_MAX, out) ? 0 : -1;
}

/* A name of names[0..n) (path names the field); its index in *out. */
static int get_name(struct where *w, json_t *o, const char *key, const char *path,
		    const char *(*name)(int), int n, int *out)
{
	char buf[32], field[JF_AT_LEN];
	if (get_str(w, o, key, path, buf, sizeof buf, false))
		return -1;
	for (int i = 0; i < n; i++) {
		if (!strcmp(buf, name(i))) {
			*out = i;
			return 0;
		}
	}
	jf_at_key(field, path, key);
	return fail(w, field, "\"%s\" is no %s this rtconform knows", buf, key);
}

static const char *rd_verdict(int v)
{
	return st_verdict_name((enum st_verdict)v);
}

static const char *rd_priv(int p)
{
	return st_priv_name((enum st_priv)p);
}

/* cases[i]: the case of this rtconform's table at i. */
static int read_case(struct where *w, json_t *j, size_t i, struct st_outcome *o)
{
	char path[32], id[64], text[600];
	snprintf(path, sizeof path, "cases[%zu]", i);
	if (!json_is_object(j))
		return fail(w, path, "not an object");
	if (get_str(w, j, "id", path, id, sizeof id, false))
		return -1;
	if (strcmp(id, st_cases[i].id) != 0) {
		char field[48];
		snprintf(field, sizeof field, "%s.id", path);
		return fail(w, field, "\"%s\" is not this rtconform's case %zu (\"%s\"): a record "
			    "is verified by the rtconform version that wrote it", id, i + 1,
			    st_cases[i].id);
	}
	int verdict = 0, priv = 0;
	/* function, injected: this rtconform's table renders them again; read
	 * here for their type and size */
	if (get_str(w, j, "function", path, text, sizeof text, false) ||
	    get_str(w, j, "injected", path, text, sizeof text, false) ||
	    get_name(w, j, "privilege", path, rd_priv, 3, &priv) ||
	    get_str(w, j, "expected", path, o->expected, sizeof o->expected, false) ||
	    get_str(w, j, "observed", path, o->observed, sizeof o->observed, false) ||
	    get_name(w, j, "verdict", path, rd_verdict, 4, &verdict) ||
	    get_str(w, j, "why", path, o->why, sizeof o->why, true) ||
	    get_str(w, j, "evidence", path, o->evidence, sizeof o->evidence, true))
		return -1;
	o->verdict = (enum st_verdict)verdict;
	json_t *s = json_object_get(j, "seconds");
	char field[48];
	snprintf(field, sizeof field, "%s.seconds", path);
	if (!s)
		return fail(w, field, "missing");
	if (!json_is_number(s))
		return fail(w, field, "not a number");
	o->seconds = json_number_value(s);
	if (!isfinite(o->seconds) || o->seconds < 0 || o->seconds > ST_SECONDS_MAX)
		return fail(w, field, "%g: not between 0 and %g", o->seconds, ST_SECONDS_MAX);
	return 0;
}

static int read_host(struct where *w, json_t *root, struct fingerprint *fp)
{
	static char value[FP_HOST_VALUE_MAX];
	json_t *host, *v;
	if (get_object(w, root, "host", &host))
		return -1;
	if (json_object_size(host) > ST_HOST_KEYS_MAX)
		return fail(w, "host", "%zu keys, more than %d", json_object_size(host),
			    ST_HOST_KEYS_MAX);
	const char *key;
	json_object_foreach(host, key, v) {
		char field[ST_KEY_MAX + 8];
		if (strlen(key) >= ST_KEY_MAX)
			return fail(w, "host", "a key of %zu bytes, more than %d", strlen(key),
				    ST_KEY_MAX - 1);
		snprintf(field, sizeof field, "host.%s", key);
		if (!jf_text(w, v, field, false, value, sizeof value))
			return -1;
		fingerprint_add(fp, key, "%s", value);
	}
	return 0;
}

static int read_top(struct where *w, json_t *root, struct st_read *r)
{
	char schema[64];
	json_t *tool, *totals;
	if (!json_is_object(root))
		return fail(w, "", "not a JSON object");
	if (get_str(w, root, "schema", "", schema, sizeof schema, false))
		return -1;
	if (strcmp(schema, ST_SCHEMA) != 0)
		return fail(w, "schema", "\"%s\", not %s", schema, ST_SCHEMA);
	if (get_object(w, root, "tool", &tool) ||
	    get_str(w, tool, "version", "tool", r->version, sizeof r->version, false) ||
	    get_str(w, tool, "commit", "tool", r->commit, sizeof r->commit, false) ||
	    get_str(w, root, "started", "", r->d.started, sizeof r->d.started, false) ||
	    get_str(w, root, "ended", "", r->d.ended, sizeof r->d.ended, false) ||
	    read_host(w, root, &r->d.fp) || get_object(w, root, "totals", &totals) ||
	    get_int(w, totals, "cases", "totals", &r->totals[0]) ||
	    get_int(w, totals, "pass", "totals", &r->totals[1]) ||
	    get_int(w, totals, "fail", "totals", &r->totals[2]) ||
	    get_int(w, totals, "not-run", "totals", &r->totals[3]) ||
	    get_int(w, totals, "error", "totals", &r->totals[4]) ||
	    get_int(w, root, "exit_status", "", &r->exit_status))
		return -1;
	return 0;
}

int st_read_record(const char *name, const char *text, size_t len, struct st_read *r,
		   char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->d.rec = &r->rec;
	r->d.version = r->version;
	r->d.commit = r->commit;
	struct where w = { .file = name, .err = err, .errlen = errlen };
	if (len > ST_RECORD_MAX)
		return fail(&w, "", "%zu bytes, more than a record's %u", len, ST_RECORD_MAX);
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return fail(&w, "", "not JSON: line %d: %s", je.line, je.text);
	int rc = read_top(&w, root, r);
	json_t *cases = json_object_get(root, "cases");
	if (rc == 0 && !json_is_array(cases))
		rc = fail(&w, "cases", cases ? "not an array" : "missing");
	if (rc == 0 && json_array_size(cases) != st_ncases)
		rc = fail(&w, "cases", "%zu cases, this rtconform's selftest has %zu (the record "
			  "says it is of rtconform %s)", json_array_size(cases), st_ncases,
			  r->version);
	r->out = rc == 0 ? calloc(st_ncases, sizeof *r->out) : NULL;
	if (rc == 0 && !r->out)
		rc = fail(&w, "", "%s", strerror(ENOMEM));
	for (size_t i = 0; rc == 0 && i < st_ncases; i++)
		rc = read_case(&w, json_array_get(cases, i), i, r->out + i);
	json_decref(root);
	if (rc == 0) {
		r->rec.out = r->out;
		st_tally(&r->rec);
	}
	return rc;
}

void st_read_free(struct st_read *r)
{
	fingerprint_free(&r->d.fp);
	free(r->out);
	r->out = NULL;
}

size_t st_read_totals_differ(const struct st_read *r, char *err, size_t errlen)
{
	static const char *const names[] = { "totals.cases", "totals.pass", "totals.fail",
					     "totals.not-run", "totals.error" };
	const struct st_record *rec = &r->rec;
	long long want[5] = { (long long)st_ncases, (long long)rec->counts[ST_PASS],
			      (long long)rec->counts[ST_FAIL], (long long)rec->counts[ST_NOT_RUN],
			      (long long)rec->counts[ST_ERROR] };
	size_t n = 0;
	err[0] = '\0';
	for (int i = 0; i < 5; i++) {
		if (r->totals[i] != want[i] && !n++)
			snprintf(err, errlen, "%s says %lld, its cases give %lld", names[i],
				 r->totals[i], want[i]);
	}
	if (r->exit_status != rec->status && !n++)
		snprintf(err, errlen, "exit_status says %lld, its cases give %d (a case that did "
			 "not match: 1, else an error: 3, else 0)", r->exit_status, rec->status);
	return n;
}

/* ---- the record verified (`rtconform verify`) ---- */

/* Each document of the record rendered again from what st_read_record
 * read, and compared with the file. The number that disagree. */
static size_t record_docs_agree(const char *dir, const struct st_read *r)
{
	size_t bad = 0;
	char path[PATH_MAX + 64], why[400];
	for (int f = 0; f < ST_NFILES; f++) {
		size_t len = 0;
		char *data = st_render(&r->d, (enum st_file)f, &len, why, sizeof why);
		snprintf(path, sizeof path, "%s/%s", dir, st_file_names[f]);
		if (!data) {
			termsafe_println(stderr, "rtconform verify: %s: cannot be rendered again from "
					 "validation.json: %s", path, why);
			bad++;
			continue;
		}
		/* validation.json written again from itself differs where it
		 * says what this rtconform would not write: totals that are
		 * not its cases', a field it does not know, another layout */
		bad += !verify_agrees(path, data, len, NULL, 0,
			       f == ST_FILE_JSON ? "validation.json read back and written again"
						 : "validation.json");
		free(data);
	}
	return bad;
}

size_t st_verify_record(const char *dir, const struct manifest *m, bool *record)
{
	*record = verify_listed(m, st_file_names[ST_FILE_JSON]);
	if (!*record)
		return 0;
	size_t bad = 0;
	for (int f = 0; f < ST_NFILES; f++) {
		if (!verify_listed(m, st_file_names[f])) {
			termsafe_println(stderr, "rtconform verify: %s: a selftest record's manifest "
					 "that does not list %s (selftest writes it)", dir,
					 st_file_names[f]);
			bad++;
		}
	}
	char path[PATH_MAX + 64], err[PATH_MAX + 1000];
	snprintf(path, sizeof path, "%s/%s", dir, st_file_names[ST_FILE_JSON]);
	size_t len = 0;
	int e;
	char *text = verify_slurp(path, ST_RECORD_MAX, &len, &e, err, sizeof err);
	if (!text && e == -EFBIG) {
		/* never read whole: refused by its size alone */
		termsafe_println(stderr, "rtconform verify: %s: %zu bytes, more than a selftest "
				 "record's %u", path, len, ST_RECORD_MAX);
		return bad + 1;
	}
	if (!text) /* missing, not a regular file, unreadable: said by check_hashes */
		return bad + (e != -ENOENT);
	struct st_read r;
	if (st_read_record(path, text, len, &r, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform verify: %s (so the record's reports cannot be "
				 "checked against it)", err);
		bad++;
	} else {
		size_t n = st_read_totals_differ(&r, err, sizeof err);
		if (n)
			termsafe_println(stderr, "rtconform verify: %s: %s%s", path, err,
					 n > 1 ? " (and more totals)" : "");
		bad += (n > 0) + record_docs_agree(dir, &r);
	}
	st_read_free(&r);
	free(text);
	return bad;
}
