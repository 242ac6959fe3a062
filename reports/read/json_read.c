/* SPDX-License-Identifier: Apache-2.0 */
/* json_read.c - a results.json read back into the report view, for
 * `rtconform report results.json`. results.json is the archive of a run: it
 * holds the whole view, so the view read back is the one it was written
 * from, and every report rendered from it is the same bytes as the one
 * `rtconform run` wrote.
 *
 * Strict: every field json.c writes must be there with its type (unknown
 * fields are ignored, so a newer file with additions still reads); counts
 * and bounds must be integers from 0 to 2^63-1, histogram buckets ascending
 * with lo <= hi, and the totals and exit status must agree with the
 * verdicts. The first thing that is not so is refused with the file and the
 * JSON path of the field: "results.json: files[0].requirements[2].seconds:
 * expected a number". A results.json is a CI artifact that gets passed
 * around: untrusted input, read size-capped, duplicate keys refused.
 */
#include "reports/read/read.h"

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "base/strhash.h"
#include "base/utc.h"
#include "base/utf8.h"
#include "base/probe_decl.h"
#include "host/identity.h"
#include "reports/json_schema.h"
#include "reports/read/explain_read.h"
#include "reports/read/figures.h"
#include "reports/read/json_field.h"
#include "reports/read/json_split.h"
#include "reports/traceability.h"
#include "requirements/model.h"

/* The same cap as junit.xml's: nothing rtconform writes comes near it. */
#define MAX_RESULTS_BYTES (256u * 1024u * 1024u)

/* JSON paths (json_field.h) */
#define AT_LEN JF_AT_LEN

struct jr {
	struct jfield f; /* the file, its first fault */
	int schema; /* 1 or 2 (RESULTS_SCHEMA_1, RESULTS_SCHEMA) */
	struct jsplit *split; /* the file, its requirements cut out */
	size_t file_no;       /* files[file_no] is being read */
	bool derive;          /* totals and exit status are made, not checked
			       * (a run read back from its journal) */
};

/* Record the first error: "FILE: AT: message". Returns false. */
#define fail(rd, ...) jf_fail(&(rd)->f, __VA_ARGS__)

/* ---- memory, within a budget ---------------------------------------------
 *
 * What reading a file takes, jansson's trees and the view built from them,
 * is counted (as the chunks malloc gives, which is what the process pays)
 * against a budget for the file being read (read.h: READ_MEM_RATIO x its
 * size + READ_MEM_FLOOR). The text reaches jansson one requirement at a
 * time (json_split.h), so a results.json as a run writes it stays far
 * below; a file of tiny elements ({} or [1,2,3] by the million, some 70 x
 * its size as a tree) passes the budget, the allocation fails, jansson
 * gives up, and the file is refused with the budget named. jansson's
 * allocator is one for the process: it is set once, and counts only while
 * a read is on. The reader is not run from two threads at once. */

/* What malloc keeps beside each chunk it hands out (glibc: its size word). */
#define CHUNK_OVERHEAD sizeof(size_t)

static struct {
	bool on, over; /* counting; an allocation was refused */
	size_t used, limit, file_bytes;
} budget;

static size_t chunk_cost(void *p)
{
	return malloc_usable_size(p) + CHUNK_OVERHEAD;
}

/* Count bytes against the budget: false (and over) past it. */
static bool budget_take(size_t c)
{
	if (!budget.on)
		return true;
	if (c > budget.limit - budget.used) {
		budget.over = true;
		return false;
	}
	budget.used += c;
	return true;
}

static void *budget_malloc(size_t n)
{
	void *p = malloc(n);
	if (p && !budget_take(chunk_cost(p))) {
		free(p);
		return NULL;
	}
	return p;
}

static void budget_free(void *p)
{
	if (p && budget.on) {
		size_t c = chunk_cost(p);
		budget.used -= c < budget.used ? c : budget.used;
	}
	free(p);
}

static void budget_start(size_t file_bytes)
{
	static bool set;
	if (!set) {
		json_set_alloc_funcs(budget_malloc, budget_free);
		set = true;
	}
	size_t room = (SIZE_MAX - READ_MEM_FLOOR) / READ_MEM_RATIO;
	budget.file_bytes = file_bytes;
	budget.limit = (file_bytes < room ? file_bytes : room) * READ_MEM_RATIO + READ_MEM_FLOOR;
	budget.used = 0;
	budget.over = false;
	budget.on = true;
}

void read_budget_start(size_t file_bytes)
{
	budget_start(file_bytes);
}

bool read_budget_stop(void)
{
	bool over = budget.over;
	budget.on = false;
	return over;
}

static void budget_message(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: reading it needs more than %zu MiB, the limit for a file "
		 "of this size (%u x its %zu KiB + %zu MiB; a results.json as rtconform "
		 "writes it takes less than its size)", path, budget.limit >> 20, READ_MEM_RATIO,
		 budget.file_bytes >> 10, READ_MEM_FLOOR >> 20);
}

/* A parse failed (os_err: the source's errno, or 0): why, in err. */
static int parse_failed(const char *path, int os_err, const json_error_t *jerr, char *err,
			size_t errlen)
{
	if (budget.over) {
		budget_message(path, err, errlen);
		return -EFBIG;
	}
	if (os_err) {
		snprintf(err, errlen, "%s: %s", path,
			 os_err == EFBIG    ? "too large for a results.json (limit 256 MiB)"
			 : os_err == ESTALE ? "changed while it was read"
					    : strerror(os_err));
		return -os_err;
	}
	if (json_error_code(jerr) == json_error_out_of_memory) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	snprintf(err, errlen, "%s:%d:%d: not JSON: %s", path, jerr->line, jerr->column,
		 jerr->text);
	return -EINVAL;
}

/* A piece of the view, counted as the trees are: the view of a file is
 * its own copy of the figures, and stays until the reports are written. */
static bool view_take(struct jr *rd, void *p)
{
	if (!p || budget_take(chunk_cost(p)))
		return true;
	if (!rd->f.rc) {
		budget_message(rd->f.file, rd->f.err, rd->f.errlen);
		rd->f.rc = -EFBIG;
	}
	return false;
}

#define at_key jf_at_key
#define at_index jf_at_index

/* ---- one value of a known type ------------------------------------------ */

static bool want_u64(struct jr *rd, const json_t *j, const char *at, uint64_t *out)
{
	long long v = 0;
	bool ok = jf_int(&rd->f, j, at, 0, (long long)RESULTS_MAX_INT, &v);
	if (ok)
		*out = (uint64_t)v;
	return ok;
}

static bool want_int(struct jr *rd, const json_t *j, const char *at, long long max, int *out)
{
	long long v = 0;
	bool ok = jf_int(&rd->f, j, at, 0, max, &v);
	if (ok)
		*out = (int)v;
	return ok;
}

/* The one rule for every real of a results.json (read.h): 0, or a
 * magnitude from READ_REAL_MIN to READ_REAL_MAX. */
static bool real_ok(struct jr *rd, const json_t *j, const char *at)
{
	double v = json_number_value(j), a = fabs(v);
	if (v == 0 || (a >= READ_REAL_MIN && a <= READ_REAL_MAX))
		return true;
	return fail(rd, -EINVAL, at, "%.17g is out of range (a number is 0 or of a magnitude "
		    "from %g to %g)", v, READ_REAL_MIN, READ_REAL_MAX);
}

static bool want_num(struct jr *rd, const json_t *j, const char *at, double *out)
{
	if (!json_is_number(j))
		return fail(rd, -EINVAL, at, "expected a number");
	if (!real_ok(rd, j, at))
		return false;
	*out = json_number_value(j);
	return true;
}

/* A scale (ns_per_unit, cycles_per_unit): READ_SCALE_MIN to READ_SCALE_MAX,
 * or with zero_ok also 0. */
static bool want_scale(struct jr *rd, const json_t *j, const char *at, bool zero_ok,
		       double *out)
{
	if (!json_is_number(j))
		return fail(rd, -EINVAL, at, "expected a number");
	double v = json_number_value(j);
	if ((v == 0 && zero_ok) || (v >= READ_SCALE_MIN && v <= READ_SCALE_MAX)) {
		*out = v;
		return true;
	}
	return fail(rd, -EINVAL, at, "%.17g is out of range (a scale is %sfrom %g to %g, what "
		    "the harness's timebases can give)", v, zero_ok ? "0 or " : "",
		    READ_SCALE_MIN, READ_SCALE_MAX);
}

/* A number, or null for a value that could not be computed. */
static bool want_value(struct jr *rd, const json_t *j, const char *at, struct rv_value *out)
{
	*out = (struct rv_value){ 0 };
	if (json_is_null(j))
		return true;
	if (!json_is_number(j))
		return fail(rd, -EINVAL, at, "expected a number or null");
	if (!real_ok(rd, j, at))
		return false;
	out->have = true;
	out->v = json_number_value(j);
	return true;
}

/* A string (malloc'd copy), or with nullable also null (NULL). */
static bool want_str(struct jr *rd, const json_t *j, const char *at, bool nullable, char **out)
{
	*out = NULL;
	if (nullable && json_is_null(j))
		return true;
	if (!json_is_string(j))
		return fail(rd, -EINVAL, at, nullable ? "expected a string or null"
						      : "expected a string");
	*out = strdup(json_string_value(j));
	if (!view_take(rd, *out))
		return false;
	return *out ? true : fail(rd, -ENOMEM, at, "%s", strerror(ENOMEM));
}

static bool want_verdict(struct jr *rd, const json_t *j, const char *at, enum verdict *out)
{
	if (!json_is_string(j) || !verdict_parse(json_string_value(j), out))
		return fail(rd, -EINVAL, at, "expected \"pass\", \"fail\", \"error\", \"skipped\" "
			    "or \"inconclusive\"");
	return true;
}

/* ---- a field of an object ---------------------------------------------- */

/* obj's member key, with its path in where; NULL (and the error) when
 * missing. */
static const json_t *member(struct jr *rd, const json_t *obj, const char *at, const char *key,
			    char *where)
{
	return jf_member(&rd->f, obj, at, key, where);
}

static bool u64_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
		      uint64_t *out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	return j && want_u64(rd, j, w, out);
}

static bool num_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
		      double *out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	return j && want_num(rd, j, w, out);
}

static bool scale_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
			bool zero_ok, double *out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	return j && want_scale(rd, j, w, zero_ok, out);
}

static bool value_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
			struct rv_value *out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	*out = (struct rv_value){ 0 };
	return j && want_value(rd, j, w, out);
}

static bool str_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
		      bool nullable, char **out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	*out = NULL;
	return j && want_str(rd, j, w, nullable, out);
}

/* A string member added to the schema later: absent reads as null, so
 * an older results.json still reads. */
static bool opt_str_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
			  char **out)
{
	char w[AT_LEN];
	const json_t *j = json_object_get(obj, key);
	*out = NULL;
	at_key(w, at, key);
	return !j || want_str(rd, j, w, true, out);
}

static bool verdict_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
			  enum verdict *out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	return j && want_verdict(rd, j, w, out);
}

/* A member that must be an array / an object (or with nullable, null: then
 * NULL without an error). */
static const json_t *container_field(struct jr *rd, const json_t *obj, const char *at,
				     const char *key, bool array, bool nullable, char *where)
{
	const json_t *j = member(rd, obj, at, key, where);
	if (!j || (nullable && json_is_null(j)))
		return NULL;
	if (array ? !json_is_array(j) : !json_is_object(j)) {
		fail(rd, -EINVAL, where, "expected %s%s", array ? "an array" : "an object",
		     nullable ? " or null" : "");
		return NULL;
	}
	return j;
}

/* calloc for n items, recording out of memory; NULL for n == 0 too. */
static void *items(struct jr *rd, size_t n, size_t size, const char *at)
{
	if (!n)
		return NULL;
	void *p = calloc(n, size);
	if (!p)
		fail(rd, -ENOMEM, at, "%s", strerror(ENOMEM));
	view_take(rd, p); /* freed with the view, which holds it */
	return p;
}

/* An array of at most max elements (what the harness can write, read.h):
 * the loops over it in the reports then stay within that. */
static bool at_most(struct jr *rd, const json_t *arr, const char *at, size_t max)
{
	if (json_array_size(arr) <= max)
		return true;
	return fail(rd, -EINVAL, at, "has %zu entries, more than the %zu rtconform writes",
		    json_array_size(arr), max);
}

/* ---- the view ----------------------------------------------------------- */

/* A histogram's buckets into *out (*nout of them). */
static void read_buckets(struct jr *rd, const json_t *arr, const char *at,
			 struct rv_bucket **out, size_t *nout)
{
	size_t n = json_array_size(arr);
	if (!at_most(rd, arr, at, READ_MAX_BUCKETS))
		return;
	*out = items(rd, n, sizeof **out, at);
	if (n && !*out)
		return;
	struct rv_bucket *bk = *out;
	for (size_t i = 0; i < n && !rd->f.rc; i++) {
		char w[AT_LEN];
		const json_t *b = json_array_get(arr, i);
		at_index(w, at, i);
		uint64_t v[3];
		if (!json_is_array(b) || json_array_size(b) != 3) {
			fail(rd, -EINVAL, w, "expected [lo, hi, count]");
			return;
		}
		for (size_t k = 0; k < 3; k++) {
			char wk[AT_LEN];
			at_index(wk, w, k);
			if (!want_u64(rd, json_array_get(b, k), wk, &v[k]))
				return;
		}
		if (v[0] > v[1]) {
			fail(rd, -EINVAL, w, "bucket lo %llu > hi %llu", (unsigned long long)v[0],
			     (unsigned long long)v[1]);
			return;
		}
		if (*nout && v[0] <= bk[*nout - 1].hi) {
			fail(rd, -EINVAL, w, "bucket lo %llu is not above the previous hi %llu",
			     (unsigned long long)v[0], (unsigned long long)bk[*nout - 1].hi);
			return;
		}
		bk[(*nout)++] = (struct rv_bucket){ v[0], v[1], v[2] };
	}
}

/* {"highest": N, "buckets": [...]}, and "negative": {"overflow": N,
 * "buckets": [...]} when there were samples below zero. Without it (every
 * unsigned metric, and every results.json written before the harness kept
 * them: it folded them into 0 then) there were none. */
static void read_histogram(struct jr *rd, const json_t *h, const char *at, uint64_t *highest,
			   struct rv_bucket **out, size_t *n, struct rv_neg *neg)
{
	char w[AT_LEN], wn[AT_LEN];
	const json_t *j;
	u64_field(rd, h, at, "highest", highest);
	if ((j = container_field(rd, h, at, "buckets", true, false, w)))
		read_buckets(rd, j, w, out, n);
	if (rd->f.rc || !json_object_get(h, "negative"))
		return;
	const json_t *o = container_field(rd, h, at, "negative", false, false, wn);
	if (!o)
		return;
	u64_field(rd, o, wn, "overflow", &neg->overflow);
	if ((j = container_field(rd, o, wn, "buckets", true, false, w)))
		read_buckets(rd, j, w, &neg->buckets, &neg->nbuckets);
}

/* statistics_ns / statistics_cycles: every statistic, a number or null. */
static void read_stats(struct jr *rd, const json_t *obj, const char *at, struct rv_value *out)
{
	for (int i = 0; i < RV_NSTATS && !rd->f.rc; i++)
		value_field(rd, obj, at, report_view_stats[i], &out[i]);
}

static void read_metric_runs(struct jr *rd, const json_t *arr, const char *at,
			     struct rv_metric *m)
{
	size_t n = json_array_size(arr);
	if (!at_most(rd, arr, at, RTC_MAX_RUNS))
		return;
	m->run_count = items(rd, n, sizeof *m->run_count, at);
	m->run_mean_ns = items(rd, n, sizeof *m->run_mean_ns, at);
	m->run_max_ns = items(rd, n, sizeof *m->run_max_ns, at);
	if (n && (!m->run_count || !m->run_mean_ns || !m->run_max_ns))
		return;
	m->nruns = n;
	for (size_t i = 0; i < n && !rd->f.rc; i++) {
		char w[AT_LEN];
		const json_t *obj = json_array_get(arr, i);
		at_index(w, at, i);
		if (!json_is_object(obj)) {
			fail(rd, -EINVAL, w, "expected an object");
			return;
		}
		u64_field(rd, obj, w, "samples", &m->run_count[i]);
		value_field(rd, obj, w, "mean_ns", &m->run_mean_ns[i]);
		/* Kept since rtconform compare; absent from older files. */
		if (json_object_get(obj, "max_ns"))
			value_field(rd, obj, w, "max_ns", &m->run_max_ns[i]);
	}
}

/* A count held as a double: from 0 to READ_MAX_COUNT (read.h), or absent. */
static bool count_ok(struct jr *rd, const struct rv_value *v, const char *at)
{
	if (!v->have || (v->v >= 0 && v->v <= READ_MAX_COUNT))
		return true;
	return fail(rd, -EINVAL, at, "%.17g is out of range (a count is from 0 to 2^53 = %.0f, "
		    "what a double holds exactly)", v->v, READ_MAX_COUNT);
}

/* A number that counts, or null: a count metric's mean. */
static void count_real_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
			     struct rv_value *out)
{
	char w[AT_LEN];
	at_key(w, at, key);
	if (value_field(rd, obj, at, key, out))
		count_ok(rd, out, w);
}

/* A whole number a count statistic holds, or null. */
static void count_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
			struct rv_value *out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	uint64_t v = 0;
	*out = (struct rv_value){ 0 };
	if (j && !json_is_null(j) && want_u64(rd, j, w, &v))
		*out = (struct rv_value){ true, (double)v };
	count_ok(rd, out, w);
}

/* A count metric: statistics (integers, the mean a number) and one count
 * per run. */
static void read_count_metric(struct jr *rd, const json_t *obj, const char *at,
			      struct rv_metric *m)
{
	char w[AT_LEN];
	const json_t *j = container_field(rd, obj, at, "statistics", false, false, w);
	for (int i = 0; j && i < RV_NCSTATS && !rd->f.rc; i++) {
		if (i == RVC_MEAN)
			count_real_field(rd, j, w, report_view_count_stats[i], &m->counts[i]);
		else
			count_field(rd, j, w, report_view_count_stats[i], &m->counts[i]);
	}
	const json_t *runs = container_field(rd, obj, at, "runs", true, false, w);
	if (runs && !at_most(rd, runs, w, RTC_MAX_RUNS))
		return;
	size_t n = runs ? json_array_size(runs) : 0;
	m->run_count = items(rd, n, sizeof *m->run_count, w);
	if (n && !m->run_count)
		return;
	m->nruns = n;
	m->count = n;
	for (size_t i = 0; i < n && !rd->f.rc; i++) {
		char wi[AT_LEN];
		at_index(wi, w, i);
		want_u64(rd, json_array_get(runs, i), wi, &m->run_count[i]);
	}
}

/* "kind": "duration" or "count"; absent in schema 1 (every metric a
 * duration). */
static void read_kind(struct jr *rd, const json_t *obj, const char *at, enum metric_kind *out)
{
	char w[AT_LEN];
	*out = METRIC_DURATION;
	if (rd->schema == 1)
		return;
	const json_t *j = member(rd, obj, at, "kind", w);
	if (j && (!json_is_string(j) || !probe_decl_metric_kind_parse(json_string_value(j), out)))
		fail(rd, -EINVAL, w, "expected \"duration\" or \"count\"");
}

/* An array member whose elements are objects, each read by `one` into
 * element i of *out (n of them, `size` bytes each), at most `max` of them.
 * With `split` (files[F].requirements), an element may be the splitter's
 * placeholder: the requirement is parsed from its own bytes then, read,
 * and its tree freed before the next (json_split.h), so the view of a
 * large file is not built beside the whole of its tree. */
typedef void (*read_one)(struct jr *rd, const json_t *obj, const char *at, void *item);

struct list {
	const char *key;
	size_t size, max;
	read_one one;
	bool split;
};

/* Element i's tree, its own parse when it was cut out (a new reference):
 * NULL, with the error recorded, when that parse fails. */
static json_t *element(struct jr *rd, const json_t *arr, size_t i, bool split)
{
	json_t *obj = json_array_get(arr, i);
	const struct jsplit_range *r =
		split && rd->split ? jsplit_range_of(rd->split, obj, rd->file_no, i) : NULL;
	if (!r)
		return json_incref(obj);
	json_error_t jerr;
	json_t *own = jsplit_load(rd->split, r, JSON_REJECT_DUPLICATES, &jerr);
	if (!own)
		rd->f.rc = parse_failed(rd->f.file, rd->split->err, &jerr, rd->f.err, rd->f.errlen);
	return own;
}

static void read_objects(struct jr *rd, const json_t *parent, const char *at,
			 const struct list *l, void **out, size_t *n)
{
	char w[AT_LEN];
	const json_t *arr = container_field(rd, parent, at, l->key, true, false, w);
	*out = NULL;
	*n = 0;
	if (!arr || !at_most(rd, arr, w, l->max))
		return;
	size_t len = json_array_size(arr);
	*out = items(rd, len, l->size, w);
	if (!*out)
		return;
	for (size_t i = 0; i < len && !rd->f.rc; i++) {
		char wi[AT_LEN];
		json_t *obj = element(rd, arr, i, l->split);
		at_index(wi, w, i);
		if (!obj)
			return;
		(*n)++; /* counted before reading, so a half-read item is freed too */
		if (!json_is_object(obj))
			fail(rd, -EINVAL, wi, "expected an object");
		else
			l->one(rd, obj, wi, (char *)*out + i * l->size);
		json_decref(obj);
		/* The skeleton is the reader's own (report_view_from_json), and
		 * nothing reads this element again. */
		if (l->split)
			json_array_set_new((json_t *)arr, i, json_null());
	}
}

/* An interval's start: "2026-12-02T01:02:03.456Z", strictly. */
static void read_start_ms(struct jr *rd, const json_t *obj, const char *at, int64_t *out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, "start", w);
	const char *s = j && json_is_string(j) ? json_string_value(j) : NULL;
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	time_t t = end ? timegm(&tm) : (time_t)-1;
	char back[48] = "", ms[8] = "";
	if (end && strlen(end) == 5 && end[0] == '.' && end[4] == 'Z')
		memcpy(ms, end + 1, 3);
	if (t != (time_t)-1 && ms[0])
		utc_fmt(t, false, back, sizeof back);
	size_t n = strlen(back);
	snprintf(back + n, sizeof back - n, ".%sZ", ms);
	if (!s || !ms[0] || strspn(ms, "0123456789") != 3 || strcmp(back, s) != 0) {
		if (j)
			fail(rd, -EINVAL, w, "expected a UTC time like \"2026-05-01T12:00:00.250Z\"");
		return;
	}
	*out = (int64_t)t * 1000 + atoi(ms);
}

/* The highest value of the metric or series whose interval is read: its
 * intervals' histograms share it. */
static uint64_t ival_highest;

static void read_one_ival(struct jr *rd, const json_t *obj, const char *at, void *item)
{
	struct rv_ival *iv = item;
	char w[AT_LEN];
	const json_t *j;
	uint64_t highest = 0;
	read_start_ms(rd, obj, at, &iv->start_ms);
	num_field(rd, obj, at, "seconds", &iv->seconds);
	u64_field(rd, obj, at, "count", &iv->count);
	u64_field(rd, obj, at, "overflow", &iv->overflow);
	if ((j = container_field(rd, obj, at, "statistics_ns", false, false, w)))
		read_stats(rd, j, w, iv->ns);
	if ((j = container_field(rd, obj, at, "histogram", false, false, w)))
		read_histogram(rd, j, w, &highest, &iv->buckets, &iv->nbuckets, &iv->neg);
	if (!rd->f.rc && (iv->seconds < 0 || highest != ival_highest))
		fail(rd, -EINVAL, at, iv->seconds < 0 ? "seconds below zero"
			  : "its histogram's highest differs from its metric's");
}

/* "intervals" of a metric or series (absent: it kept none). */
static void read_intervals(struct jr *rd, const json_t *obj, const char *at, uint64_t highest,
			   struct rv_ival **out, size_t *n)
{
	static const struct list ivals = { "intervals", sizeof(struct rv_ival), READ_MAX_INTERVALS,
					   read_one_ival, false };
	if (rd->f.rc || !json_object_get(obj, "intervals"))
		return;
	ival_highest = highest;
	read_objects(rd, obj, at, &ivals, (void **)out, n);
}

/* A boolean member. */
static void bool_field(struct jr *rd, const json_t *obj, const char *at, const char *key,
		       bool *out)
{
	jf_bool_field(&rd->f, obj, at, key, out);
}

/* A level of confidence: 0.5 < level < 1 (a two-sided interval below 50 %
 * says less than the point estimate; 1 is no interval). */
static void level_field(struct jr *rd, const json_t *obj, const char *at, double *out)
{
	char w[AT_LEN];
	at_key(w, at, "level");
	if (num_field(rd, obj, at, "level", out) && !(*out > 0.5 && *out < 1))
		fail(rd, -EINVAL, w, "%.17g is not a level of confidence (above 0.5, below 1)",
		     *out);
}

/* One percentile's interval (json.c ci_object), or null: none. Its
 * figures are held to the metric's by figures.c. */
static void read_ci(struct jr *rd, const json_t *conf, const char *at, const char *key,
		    double level, uint64_t n, struct rv_ci *c)
{
	char w[AT_LEN];
	const json_t *o = container_field(rd, conf, at, key, false, true, w);
	*c = (struct rv_ci){ 0 };
	if (!o || rd->f.rc)
		return;
	c->level = level;
	if (json_object_get(o, "level"))
		level_field(rd, o, w, &c->level);
	struct rv_value lo, hi;
	value_field(rd, o, w, "lo_ns", &lo);
	value_field(rd, o, w, "hi_ns", &hi);
	u64_field(rd, o, w, "lo_rank", &c->lo_rank);
	u64_field(rd, o, w, "hi_rank", &c->hi_rank);
	num_field(rd, o, w, "coverage", &c->coverage);
	bool_field(rd, o, w, "lo_bucket_limited", &c->lo_bucket);
	bool_field(rd, o, w, "hi_bucket_limited", &c->hi_bucket);
	c->have = !rd->f.rc;
	c->n = n;
	c->has_lo = lo.have;
	c->lo_ns = lo.v;
	c->has_hi = hi.have;
	c->hi_ns = hi.v;
}

/* The "confidence" object of obj with its level in *level; NULL (nothing
 * read) when obj has none: a results.json written before they were kept,
 * whose reports show none. */
static const json_t *confidence_of(struct jr *rd, const json_t *obj, const char *at,
				   double *level, char w[AT_LEN])
{
	if (rd->f.rc || !json_object_get(obj, "confidence"))
		return NULL;
	const json_t *c = container_field(rd, obj, at, "confidence", false, false, w);
	if (c)
		level_field(rd, c, w, level);
	return c;
}

/* "confidence" of a metric: its level and each percentile's interval. */
static void read_confidence(struct jr *rd, const json_t *obj, const char *at,
			    struct rv_metric *m)
{
	char w[AT_LEN];
	const json_t *c = confidence_of(rd, obj, at, &m->ci_level, w);
	for (int i = 0; c && i < RV_NSTATS && !rd->f.rc; i++) {
		struct statistic st;
		if (statistic_parse(report_view_stats[i], &st) == 0 && st.kind == STAT_PCT)
			read_ci(rd, c, w, report_view_stats[i], m->ci_level, m->count, &m->ci[i]);
	}
}

/* "confidence" of a per-CPU series: its p99's interval, as a metric's. */
static void read_series_confidence(struct jr *rd, const json_t *obj, const char *at,
				   struct rv_series *s)
{
	char w[AT_LEN];
	const json_t *c = confidence_of(rd, obj, at, &s->ci_level, w);
	if (c && !rd->f.rc)
		read_ci(rd, c, w, "p99", s->ci_level, s->count, &s->p99_ci);
}

static void read_metric(struct jr *rd, const json_t *obj, const char *at, struct rv_metric *m)
{
	char w[AT_LEN];
	const json_t *j;
	str_field(rd, obj, at, "name", false, &m->name);
	read_kind(rd, obj, at, &m->kind);
	if (m->kind == METRIC_COUNT) {
		/* A count has no percentiles, so no interval: one there was
		 * put there (json.c writes none). */
		if (json_object_get(obj, "confidence")) {
			at_key(w, at, "confidence");
			fail(rd, -EINVAL, w, "a count metric has no percentiles, so no "
			     "confidence interval");
			return;
		}
		read_count_metric(rd, obj, at, m);
		return;
	}
	u64_field(rd, obj, at, "count", &m->count);
	u64_field(rd, obj, at, "overflow", &m->overflow);
	scale_field(rd, obj, at, "ns_per_unit", false, &m->ns_per_unit);
	scale_field(rd, obj, at, "cycles_per_unit", true, &m->cycles_per_unit);
	if ((j = container_field(rd, obj, at, "statistics_ns", false, false, w)))
		read_stats(rd, j, w, m->ns);
	if ((j = container_field(rd, obj, at, "statistics_cycles", false, true, w)))
		read_stats(rd, j, w, m->cycles);
	value_field(rd, obj, at, "median_ns", &m->median_ns);
	read_confidence(rd, obj, at, m);
	const json_t *h = container_field(rd, obj, at, "histogram", false, false, w);
	if (h)
		read_histogram(rd, h, w, &m->highest, &m->buckets, &m->nbuckets, &m->neg);
	if ((j = container_field(rd, obj, at, "runs", true, false, w)))
		read_metric_runs(rd, j, w, m);
	read_intervals(rd, obj, at, m->highest, &m->intervals, &m->nintervals);
}

/* A limit on a count: its bounds and measure are counts too. */
static void check_count_limit(struct jr *rd, const char *at, const struct rv_value *max,
			      const struct rv_value *min, const struct rv_value *measured)
{
	const struct {
		const char *key;
		const struct rv_value *v;
	} vals[] = { { "max", max }, { "min", min }, { "measured", measured } };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0] && !rd->f.rc; i++) {
		char w[AT_LEN];
		at_key(w, at, vals[i].key);
		count_ok(rd, vals[i].v, w);
	}
}

/* "confidence" (0.5 < level < 1), "lower", "upper" and "need" of a limit
 * judged at a confidence; absent all four from one judged on its point
 * estimate (and from files written before confidence= was known). */
static void read_limit_confidence(struct jr *rd, const json_t *obj, const char *at,
				  struct rv_limit *l)
{
	char w[AT_LEN];
	if (!json_object_get(obj, "confidence"))
		return;
	if (num_field(rd, obj, at, "confidence", &l->confidence) &&
	    !(l->confidence > 0.5 && l->confidence < 1)) {
		at_key(w, at, "confidence");
		fail(rd, -EINVAL, w, "expected a level strictly between 0.5 and 1");
	}
	value_field(rd, obj, at, "lower", &l->lower);
	value_field(rd, obj, at, "upper", &l->upper);
	const json_t *j = member(rd, obj, at, "need", w);
	if (j && !json_is_null(j))
		want_u64(rd, j, w, &l->need);
}

static void read_limit(struct jr *rd, const json_t *obj, const char *at, struct rv_limit *l)
{
	char w[AT_LEN];
	str_field(rd, obj, at, "metric", false, &l->metric);
	str_field(rd, obj, at, "statistic", false, &l->statistic);
	const json_t *unit = member(rd, obj, at, "unit", w);
	/* null: a limit on a count (schema 2), which has no unit */
	bool count = unit && json_is_null(unit) && rd->schema != 1;
	if (unit && !count &&
	    (!json_is_string(unit) || (strcmp(json_string_value(unit), "ns") != 0 &&
				   strcmp(json_string_value(unit), "cycles") != 0)))
		fail(rd, -EINVAL, w, rd->schema == 1 ? "expected \"ns\" or \"cycles\""
						     : "expected \"ns\", \"cycles\" or null");
	l->count = count;
	l->cycles = unit && json_is_string(unit) && !strcmp(json_string_value(unit), "cycles");
	enum qty_unit qu = count ? QTY_COUNT : l->cycles ? QTY_CYCLES : QTY_NS;
	struct rv_value max, min;
	value_field(rd, obj, at, "max", &max);
	value_field(rd, obj, at, "min", &min);
	l->has_max = max.have;
	l->has_min = min.have;
	if (max.have)
		l->max = (struct quantity){ max.v, qu };
	if (min.have)
		l->min = (struct quantity){ min.v, qu };
	value_field(rd, obj, at, "measured", &l->measured);
	if (count)
		check_count_limit(rd, at, &max, &min, &l->measured);
	read_limit_confidence(rd, obj, at, l);
	verdict_field(rd, obj, at, "verdict", &l->verdict);
	str_field(rd, obj, at, "text", true, &l->text);
}

/* A CPU's "overflow" and "histogram": both there, or both null (a view read
 * from junit.xml had none), or both absent (a results.json written before
 * the series carried them): then has_hist stays false. */
static void read_series_histogram(struct jr *rd, const json_t *obj, const char *at,
				  struct rv_series *s)
{
	char w[AT_LEN];
	const json_t *ovf = json_object_get(obj, "overflow");
	const json_t *h = json_object_get(obj, "histogram");
	if (!ovf != !h) {
		at_key(w, at, ovf ? "histogram" : "overflow");
		fail(rd, -EINVAL, w, "missing while %s is there", ovf ? "overflow" : "histogram");
		return;
	}
	if (!ovf || (json_is_null(ovf) && json_is_null(h)))
		return;
	if (json_is_null(ovf) != json_is_null(h)) {
		at_key(w, at, json_is_null(ovf) ? "overflow" : "histogram");
		fail(rd, -EINVAL, w, "null while %s is not", json_is_null(ovf) ? "histogram"
										: "overflow");
		return;
	}
	s->has_hist = true;
	u64_field(rd, obj, at, "overflow", &s->overflow);
	if ((h = container_field(rd, obj, at, "histogram", false, false, w)))
		read_histogram(rd, h, w, &s->highest, &s->buckets, &s->nbuckets, &s->neg);
}

static void read_series(struct jr *rd, const json_t *obj, const char *at, struct rv_series *s)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, "cpu", w);
	if (j)
		want_int(rd, j, w, INT_MAX, &s->cpu);
	u64_field(rd, obj, at, "count", &s->count);
	for (int k = 0; k < RV_NSERIES_STATS && !rd->f.rc; k++) {
		char key[32];
		snprintf(key, sizeof key, "%s_ns", report_view_series_stats[k]);
		value_field(rd, obj, at, key, &s->ns[k]);
	}
	read_series_confidence(rd, obj, at, s);
	read_series_histogram(rd, obj, at, s);
	read_intervals(rd, obj, at, s->highest, &s->intervals, &s->nintervals);
}

static void one_metric(struct jr *rd, const json_t *o, const char *at, void *item)
{
	read_metric(rd, o, at, item);
}

static void one_limit(struct jr *rd, const json_t *o, const char *at, void *item)
{
	read_limit(rd, o, at, item);
}

static void one_series(struct jr *rd, const json_t *o, const char *at, void *item)
{
	read_series(rd, o, at, item);
}

/* params: an object of strings, in the probe's order. */
static void read_params(struct jr *rd, const json_t *obj, const char *at, struct rv_req *r)
{
	char w[AT_LEN];
	const json_t *params = container_field(rd, obj, at, "params", false, false, w);
	if (!params)
		return;
	if (json_object_size(params) > REQ_MAX_PARAMS) {
		fail(rd, -EINVAL, w, "has %zu entries, more than the %d rtconform writes",
		     json_object_size(params), REQ_MAX_PARAMS);
		return;
	}
	r->params = items(rd, json_object_size(params), sizeof *r->params, w);
	const char *key;
	const json_t *val;
	json_object_foreach((json_t *)params, key, val) {
		if (!r->params || rd->f.rc)
			return;
		char wk[AT_LEN];
		at_key(wk, w, key);
		struct rv_param *p = &r->params[r->nparams++];
		if (!(p->name = strdup(key)))
			fail(rd, -ENOMEM, wk, "%s", strerror(ENOMEM));
		view_take(rd, p->name);
		want_str(rd, val, wk, false, &p->value);
	}
}

static void read_batch(struct jr *rd, const json_t *obj, const char *at, struct rv_req *r)
{
	char w[AT_LEN], pw[AT_LEN];
	const json_t *batch = container_field(rd, obj, at, "batch", false, false, w);
	if (!batch)
		return;
	value_field(rd, batch, w, "mean_ns", &r->batch_mean_ns);
	value_field(rd, batch, w, "stddev_ns", &r->batch_stddev_ns);
	const json_t *per = container_field(rd, batch, w, "per_run_ns", true, false, pw);
	if (!per || rd->f.rc)
		return;
	if (json_array_size(per) != r->runs) {
		fail(rd, -EINVAL, pw, "has %zu entries, not one per run (runs %u)",
		     json_array_size(per), r->runs);
		return;
	}
	r->batch_run_ns = items(rd, r->runs, sizeof *r->batch_run_ns, pw);
	for (uint32_t i = 0; i < r->runs && r->batch_run_ns && !rd->f.rc; i++) {
		char wi[AT_LEN];
		at_index(wi, pw, i);
		want_value(rd, json_array_get(per, i), wi, &r->batch_run_ns[i]);
	}
}

/* A requirement's "seconds": how long it took, never below 0. */
static void seconds_field(struct jr *rd, const json_t *obj, const char *at, double *out)
{
	char w[AT_LEN];
	at_key(w, at, "seconds");
	if (num_field(rd, obj, at, "seconds", out) && *out < 0)
		fail(rd, -EINVAL, w, "%.17g is below 0 (a time taken)", *out);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* One per_cpu series per CPU, as a run writes them: a series repeated is
 * no run's, and names of files made from it would collide by the
 * thousand. Sorted, n log n. */
static void check_series_cpus(struct jr *rd, const char *at, const struct rv_req *r)
{
	int *cpu = items(rd, r->nseries, sizeof *cpu, at);
	if (!cpu)
		return;
	for (size_t i = 0; i < r->nseries; i++)
		cpu[i] = r->series[i].cpu;
	qsort(cpu, r->nseries, sizeof *cpu, cmp_int);
	for (size_t i = 1; i < r->nseries && !rd->f.rc; i++) {
		if (cpu[i] != cpu[i - 1])
			continue;
		size_t k = 0, seen = 0; /* the second series of that CPU, to name it */
		while (k < r->nseries && (r->series[k].cpu != cpu[i] || !seen++))
			k++;
		char w[AT_LEN];
		snprintf(w, sizeof w, "%s.per_cpu[%zu].cpu", at, k);
		fail(rd, -EINVAL, w, "%d again (a run writes one series per CPU)", cpu[i]);
	}
	free(cpu);
}

/* "selected": false for a requirement `run --only` left out, which a run
 * never measures, so it is skipped; absent (files written before it was
 * kept) reads as true. */
static void read_selected(struct jr *rd, const json_t *obj, const char *at, struct rv_req *r)
{
	char w[AT_LEN];
	const json_t *j = json_object_get(obj, "selected");
	at_key(w, at, "selected");
	if (!j)
		return;
	if (!json_is_boolean(j)) {
		fail(rd, -EINVAL, w, "expected true or false");
		return;
	}
	r->not_selected = json_is_false(j);
	if (r->not_selected && !rd->f.rc && r->verdict != VERDICT_SKIPPED)
		fail(rd, -EINVAL, w, "false, but the verdict is \"%s\": a requirement not "
		     "selected is never run, so it is \"skipped\"", verdict_name(r->verdict));
}

/* "explain": the saved trace's breach explained (explain_read.h); absent
 * without one (and in files written before it was kept). */
static void read_explain(struct jr *rd, const json_t *obj, const char *at, struct rv_req *r)
{
	const json_t *j = json_object_get(obj, "explain");
	char w[AT_LEN];
	if (!j)
		return;
	at_key(w, at, "explain");
	r->explain = calloc(1, sizeof *r->explain);
	if (!view_take(rd, r->explain) || !r->explain) {
		fail(rd, -ENOMEM, w, "%s", strerror(ENOMEM));
		return;
	}
	if (explain_read_json(&rd->f, j, w, r->explain) != 0)
		return;
	if (!view_take(rd, r->explain->comp) || !view_take(rd, r->explain->mig))
		return;
}

/* ---- clauses, outputs and the traceability matrix ----------------------- */

/* A clause's ref or title: a non-empty string of at most max characters
 * and no control character (title: or null), as the loader gives them. */
static bool clause_text(struct jr *rd, const json_t *obj, const char *at, const char *key,
			bool nullable, size_t max, char **out)
{
	char w[AT_LEN];
	const json_t *j = member(rd, obj, at, key, w);
	*out = NULL;
	if (!j || !want_str(rd, j, w, nullable, out) || !*out)
		return j != NULL && !rd->f.rc;
	size_t chars = 0;
	bool ctrl = false;
	for (const unsigned char *p = (const unsigned char *)*out; *p; p++) {
		chars += (*p & 0xc0) != 0x80; /* jansson took it as UTF-8 */
		ctrl |= *p < 0x20 || *p == 0x7f;
	}
	if (!chars)
		return fail(rd, -EINVAL, w, "expected a non-empty string%s",
			    nullable ? " or null" : "");
	if (chars > max)
		return fail(rd, -EINVAL, w, "has %zu characters, more than the %zu a clause's %s "
			    "may have", chars, max, key);
	if (ctrl)
		return fail(rd, -EINVAL, w, "holds a control character");
	return true;
}

static void one_clause(struct jr *rd, const json_t *o, const char *at, void *item)
{
	struct rv_clause *c = item;
	if (clause_text(rd, o, at, "ref", false, REQ_CLAUSE_REF_MAX, &c->ref))
		clause_text(rd, o, at, "title", true, REQ_CLAUSE_TITLE_MAX, &c->title);
}

/* "clauses": the clauses a requirement cites (absent in files written
 * before they were kept: none), each ref once, as the loader allows. */
static void read_clauses(struct jr *rd, const json_t *obj, const char *at, struct rv_req *r)
{
	if (!json_object_get(obj, "clauses"))
		return;
	static const struct list clauses = { "clauses", sizeof *r->clauses, REQ_MAX_CLAUSES,
					     one_clause, false };
	read_objects(rd, obj, at, &clauses, (void **)&r->clauses, &r->nclauses);
	for (size_t i = 0; i < r->nclauses && !rd->f.rc; i++)
		for (size_t k = 0; k < i && !rd->f.rc; k++)
			if (strcmp(r->clauses[i].ref, r->clauses[k].ref) == 0) {
				char w[AT_LEN], c[AT_LEN];
				at_key(c, at, "clauses");
				at_index(w, c, i);
				at_key(c, w, "ref");
				fail(rd, -EINVAL, c, "\"%s\" again (first at clauses[%zu]; a "
				     "requirement cites a clause once)", r->clauses[i].ref, k);
			}
}

/* "outputs": the files the run wrote (report.h, struct rv_outputs); absent
 * in files written before it was kept (then none is known). Each a path
 * report_evidence_path_ok takes, or null: report.html links them. */
static void read_outputs(struct jr *rd, const json_t *root, struct report_view *v)
{
	static const char *const keys[REPORT_NKINDS + 1] = {
		[REPORT_JUNIT] = "junit", [REPORT_SUMMARY] = "summary",
		[REPORT_HTML] = "html", [REPORT_JSON] = "json", [REPORT_NKINDS] = "csv",
	};
	char w[AT_LEN];
	if (!json_object_get(root, "outputs"))
		return;
	const json_t *o = container_field(rd, root, "", "outputs", false, false, w);
	for (int k = 0; o && k <= REPORT_NKINDS && !rd->f.rc; k++) {
		char wk[AT_LEN], *s = NULL;
		if (!str_field(rd, o, w, keys[k], true, &s) || !s)
			continue;
		at_key(wk, w, keys[k]);
		bool dir = k == REPORT_NKINDS;
		if (!report_evidence_path_ok(s, dir)) {
			int n = (int)utf8_fit(s, 80);
			fail(rd, -EINVAL, wk, "\"%.*s%s\": expected null or a %s relative to "
			     "report.html's directory (no \"..\", no scheme, no control character)",
			     n, s, s[n] ? "..." : "", dir ? "path" : "file name");
			free(s);
			continue;
		}
		if (dir)
			v->outputs.csv = s;
		else
			v->outputs.report[k] = s;
	}
}

/* Where actual first differs from expected, into w, and what was expected
 * there in *want (NULL: nothing, actual has an element too many); false
 * when it does not. Members expected has not are ignored, as the reader
 * ignores unknown fields everywhere. */
static bool differs_at(const json_t *exp, const json_t *act, const char *at, char *w,
		       const json_t **want)
{
	char k[AT_LEN];
	if (json_is_object(exp) && json_is_object(act)) {
		const char *key;
		json_t *ev;
		json_object_foreach((json_t *)exp, key, ev) {
			const json_t *av = json_object_get(act, key);
			at_key(k, at, key);
			if (!av) {
				memcpy(w, k, AT_LEN);
				*want = ev;
				return true;
			}
			if (differs_at(ev, av, k, w, want))
				return true;
		}
		return false;
	}
	if (json_is_array(exp) && json_is_array(act)) {
		size_t n = json_array_size(exp), m = json_array_size(act);
		for (size_t i = 0; i < n && i < m; i++) {
			at_index(k, at, i);
			if (differs_at(json_array_get(exp, i), json_array_get(act, i), k, w, want))
				return true;
		}
		if (n == m)
			return false;
		at_index(w, at, n < m ? n : m);
		*want = n > m ? json_array_get(exp, m) : NULL;
		return true;
	}
	if (json_equal(exp, act))
		return false;
	memcpy(w, at, AT_LEN);
	*want = exp;
	return true;
}

/* The matrix built from the requirements differs from the stored one at w:
 * it has want there (NULL: nothing, the stored one has an element too
 * many). */
static void matrix_differs(struct jr *rd, const char *w, const json_t *want)
{
	if (!want) {
		fail(rd, -EINVAL, w, "not in the matrix built from the requirements (an entry "
		     "too many)");
		return;
	}
	char *t = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
	int n = t ? (int)utf8_fit(t, 120) : 0;
	if (!t)
		fail(rd, -ENOMEM, w, "%s", strerror(ENOMEM));
	else
		fail(rd, -EINVAL, w, "disagrees with the matrix built from the requirements, "
		     "which has %.*s%s there", n, t, t[n] ? "..." : "");
	free(t);
}

/* One entry of a stored matrix (NULL: it has none there) against the one
 * report_traceability_cite_json gives (a tree of one entry at a time: the
 * stored matrix may be large). */
/* exp, the part of the matrix built from the requirements (NULL: out of
 * memory), against the stored act at `at`; exp is released. */
static void check_built(struct jr *rd, json_t *exp, const json_t *act, const char *at)
{
	char w[AT_LEN];
	const json_t *want = NULL;
	if (!exp) {
		fail(rd, -ENOMEM, at, "%s", strerror(ENOMEM));
		return;
	}
	if (differs_at(exp, act, at, w, &want))
		matrix_differs(rd, w, want);
	json_decref(exp);
}

static void check_cite(struct jr *rd, const struct report_view *v, struct rv_cite c,
		       const json_t *act, const char *at)
{
	check_built(rd, report_traceability_cite_json(v, c), act, at);
}

/* A stored list of entries (a row's "requirements", "untraced") against
 * the cites of the matrix. */
static void check_cites(struct jr *rd, const struct report_view *v, const struct rv_cite *c,
			size_t n, const json_t *obj, const char *at, const char *key)
{
	char w[AT_LEN], wi[AT_LEN];
	const json_t *arr = container_field(rd, obj, at, key, true, false, w);
	for (size_t i = 0; arr && i < n && !rd->f.rc; i++) {
		at_index(wi, w, i);
		check_cite(rd, v, c[i], json_array_get(arr, i), wi);
	}
	if (arr && !rd->f.rc && json_array_size(arr) > n) {
		at_index(wi, w, n);
		matrix_differs(rd, wi, NULL);
	}
}

/* A row of the matrix against the stored one (NULL: none there): its ref,
 * title and entries. */
static void check_row(struct jr *rd, const struct report_view *v, const struct rv_trace_row *row,
		      const json_t *act, const char *at)
{
	check_built(rd, json_pack("{s:s, s:s?}", "ref", row->ref, "title", row->title), act, at);
	if (!rd->f.rc)
		check_cites(rd, v, row->cites, row->ncites, act, at, "requirements");
}

/* "traceability" must be the matrix report_traceability builds from the
 * requirements read (a forged row, verdict or evidence is refused, named
 * by its path); absent only when no requirement cites a clause, as the
 * writer leaves it out then (and files written before it was kept). */
static void check_traceability(struct jr *rd, const json_t *root, const struct report_view *v)
{
	char w[AT_LEN], wi[AT_LEN];
	if (!json_object_get(root, "traceability")) {
		if (report_view_traced(v))
			fail(rd, -EINVAL, "traceability", "missing: a results.json whose "
			     "requirements cite clauses holds the matrix built from them");
		return;
	}
	const json_t *j = container_field(rd, root, "", "traceability", false, false, w);
	const json_t *rows = j ? container_field(rd, j, w, "clauses", true, false, wi) : NULL;
	struct rv_matrix m;
	if (!rows)
		return;
	if (report_traceability(v, &m) != 0) {
		fail(rd, -ENOMEM, w, "%s", strerror(ENOMEM));
		return;
	}
	for (size_t i = 0; i < m.nrows && !rd->f.rc; i++) {
		char wr[AT_LEN];
		at_index(wr, wi, i);
		check_row(rd, v, &m.rows[i], json_array_get(rows, i), wr);
	}
	if (!rd->f.rc && json_array_size(rows) > m.nrows) {
		at_index(w, wi, m.nrows);
		matrix_differs(rd, w, NULL);
	}
	if (!rd->f.rc)
		check_cites(rd, v, m.untraced, m.nuntraced, j, "traceability", "untraced");
	rv_matrix_free(&m);
}

/* "plan": the sample plan (added later: absent in older files, read as
 * not kept). */
static void read_plan(struct jr *rd, const json_t *obj, const char *at, struct rv_req *r)
{
	char w[AT_LEN];
	const json_t *p = json_object_get(obj, "plan");
	if (!p)
		return;
	at_key(w, at, "plan");
	if (!json_is_object(p)) {
		fail(rd, -EINVAL, w, "expected an object");
		return;
	}
	struct rv_plan *q = &r->plan;
	q->have = u64_field(rd, p, w, "iterations", &q->iterations) &&
		  u64_field(rd, p, w, "runs", &q->runs) && u64_field(rd, p, w, "warmup", &q->warmup) &&
		  u64_field(rd, p, w, "duration_ns", &q->duration_ns);
}

static void read_req(struct jr *rd, const json_t *obj, const char *at, void *item)
{
	struct rv_req *r = item;
	char w[AT_LEN];
	const json_t *j;
	uint64_t runs = 0;
	str_field(rd, obj, at, "id", false, &r->id);
	str_field(rd, obj, at, "title", true, &r->title);
	str_field(rd, obj, at, "source", true, &r->source);
	read_clauses(rd, obj, at, r);
	str_field(rd, obj, at, "probe", false, &r->probe);
	read_params(rd, obj, at, r);
	str_field(rd, obj, at, "policy", false, &r->policy);
	r->cpu = -1;
	if ((j = member(rd, obj, at, "cpu", w)) && !json_is_null(j))
		want_int(rd, j, w, INT_MAX, &r->cpu);
	str_field(rd, obj, at, "load", true, &r->load);
	read_plan(rd, obj, at, r);
	opt_str_field(rd, obj, at, "trace", &r->trace);
	opt_str_field(rd, obj, at, "trace_note", &r->trace_note);
	read_explain(rd, obj, at, r);
	verdict_field(rd, obj, at, "verdict", &r->verdict);
	read_selected(rd, obj, at, r);
	str_field(rd, obj, at, "reason", true, &r->reason);
	str_field(rd, obj, at, "note", true, &r->note);
	seconds_field(rd, obj, at, &r->seconds);
	if ((j = member(rd, obj, at, "measured", w)) && !json_is_boolean(j))
		fail(rd, -EINVAL, w, "expected true or false");
	r->measured = json_is_true(j);
	if (u64_field(rd, obj, at, "runs", &runs) && runs > RTC_MAX_RUNS) {
		at_key(w, at, "runs");
		fail(rd, -EINVAL, w, "expected an integer from 0 to %u (the most runs rtconform "
		     "makes)", RTC_MAX_RUNS);
	}
	r->runs = (uint32_t)runs;
	static const struct list limits = { "limits", sizeof *r->limits, REQ_MAX_LIMITS,
					    one_limit, false };
	static const struct list metrics = { "metrics", sizeof *r->metrics, RTC_MAX_METRICS,
					     one_metric, false };
	static const struct list series = { "per_cpu", sizeof *r->series, READ_MAX_SERIES,
					    one_series, false };
	read_objects(rd, obj, at, &limits, (void **)&r->limits, &r->nlimits);
	read_batch(rd, obj, at, r);
	read_objects(rd, obj, at, &metrics, (void **)&r->metrics, &r->nmetrics);
	read_objects(rd, obj, at, &series, (void **)&r->series, &r->nseries);
	if (!rd->f.rc && r->nseries && !r->nmetrics)
		fail(rd, -EINVAL, at, "per_cpu series without a metric");
	if (!rd->f.rc)
		check_series_cpus(rd, at, r);
}

/* "2023-11-14T22:13:20Z" or null (0). */
static void read_time(struct jr *rd, const json_t *obj, const char *at, const char *key,
		      int64_t *out)
{
	char w[AT_LEN], back[32];
	const json_t *j = member(rd, obj, at, key, w);
	*out = 0;
	if (!j || json_is_null(j))
		return;
	struct tm tm = { 0 };
	const char *s = json_is_string(j) ? json_string_value(j) : NULL;
	const char *end = s ? strptime(s, RESULTS_TIME_FORMAT, &tm) : NULL;
	time_t t = end && !*end ? timegm(&tm) : (time_t)-1;
	/* Strict: the text must be the one this time prints as. */
	if (t == (time_t)-1 || !utc_fmt(t, true, back, sizeof back) || strcmp(back, s) != 0) {
		fail(rd, -EINVAL, w, "expected a UTC time like \"2024-05-01T12:00:00Z\" or null");
		return;
	}
	*out = (int64_t)t;
}

/* Requirement ids are unique within a requirements file (the loader
 * refuses a file that repeats one), so within each of results.json's
 * files: the reports tell requirements apart by them. */
static void check_ids(struct jr *rd, const char *at, const struct rv_file *f)
{
	struct strhash seen = { 0 };
	for (size_t i = 0; i < f->nreqs && !rd->f.rc; i++) {
		const size_t *first = strhash_get(&seen, f->reqs[i].id);
		char w[AT_LEN];
		snprintf(w, sizeof w, "%s.requirements[%zu].id", at, i);
		if (first)
			fail(rd, -EINVAL, w, "\"%s\" again (first at requirements[%zu]; ids are "
			     "unique within a requirements file)", f->reqs[i].id, *first);
		else if (strhash_put(&seen, f->reqs[i].id, i))
			fail(rd, -ENOMEM, w, "%s", strerror(ENOMEM));
	}
	strhash_free(&seen);
}

static void read_file(struct jr *rd, const json_t *obj, const char *at, void *item)
{
	struct rv_file *f = item;
	str_field(rd, obj, at, "name", false, &f->name);
	str_field(rd, obj, at, "path", false, &f->path);
	str_field(rd, obj, at, "version", true, &f->version);
	str_field(rd, obj, at, "sha256", false, &f->sha256);
	read_time(rd, obj, at, "started", &f->started);
	static const struct list reqs = { "requirements", sizeof *f->reqs, SIZE_MAX, read_req,
					  true };
	read_objects(rd, obj, at, &reqs, (void **)&f->reqs, &f->nreqs);
	if (!rd->f.rc)
		check_ids(rd, at, f);
	rd->file_no++; /* files are read in order (read_root), each once */
}

/* host.label as `run --host-label` takes it (host_label_problem): it
 * names the host in titles, file listings and merge's fleet, and a label
 * of any other form is no run's. */
static void check_label(struct jr *rd, const char *at, const struct fingerprint *env)
{
	const char *label = fingerprint_get(env, "host.label");
	const char *why = label ? host_label_problem(label) : NULL;
	char w[AT_LEN];
	at_key(w, at, "host.label");
	if (!why || rd->f.rc)
		return;
	int n = (int)utf8_fit(label, 80);
	fail(rd, -EINVAL, w, "\"%.*s%s\": %s (a label as rtconform run --host-label takes it)",
	     n, label, label[n] ? "..." : "", why);
}

static void read_env(struct jr *rd, const json_t *root, struct report_view *v)
{
	char w[AT_LEN];
	const json_t *env = container_field(rd, root, "", "environment", false, false, w);
	const char *key;
	const json_t *val;
	if (!env)
		return;
	if (json_object_size(env) > READ_MAX_ENTRIES) {
		fail(rd, -EINVAL, w, "has %zu entries, more than the %u rtconform writes",
		     json_object_size(env), READ_MAX_ENTRIES);
		return;
	}
	json_object_foreach((json_t *)env, key, val) {
		char wk[AT_LEN];
		at_key(wk, w, key);
		if (!json_is_string(val)) {
			fail(rd, -EINVAL, wk, "expected a string");
			return;
		}
		fingerprint_add(&v->env, key, "%s", json_string_value(val));
	}
	check_label(rd, w, &v->env);
}

static void one_check(struct jr *rd, const json_t *o, const char *at, void *item)
{
	struct rv_check *c = item;
	char w[AT_LEN];
	str_field(rd, o, at, "name", false, &c->name);
	const json_t *l = member(rd, o, at, "level", w);
	if (l && (!json_is_string(l) || !ready_level_parse(json_string_value(l), &c->level)))
		fail(rd, -EINVAL, w, "expected \"ok\", \"note\", \"warn\" or \"fail\"");
	str_field(rd, o, at, "finding", false, &c->finding);
	str_field(rd, o, at, "remedy", true, &c->remedy);
}

/* The readiness checks; absent (or null) in a results.json written before
 * runs recorded them, which the reports then say. */
static void read_readiness(struct jr *rd, const json_t *root, struct report_view *v)
{
	const json_t *j = json_object_get(root, "readiness");
	if (!j || json_is_null(j))
		return;
	static const struct list checks = { "readiness", sizeof *v->ready, READ_MAX_ENTRIES,
					    one_check, false };
	read_objects(rd, root, "", &checks, (void **)&v->ready, &v->nready);
	v->ready_recorded = true;
}

/* What results.json derives from the rest (summary fields for programs):
 * its types, and that it agrees with what it is derived from. */
static void check_derived(struct jr *rd, const json_t *root, const struct report_view *v)
{
	static const char *const strings[] = { "rtconform_version", "command", "started",
					       "ended" };
	char w[AT_LEN], *s;
	for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
		str_field(rd, root, "", strings[i], true, &s);
		free(s);
	}
	const json_t *j = member(rd, root, "", "exit_status", w);
	int status = report_view_exit_status(v);
	if (j && (!json_is_integer(j) || json_integer_value(j) != status))
		fail(rd, -EINVAL, w, "expected %d, the exit status of the verdicts", status);

	struct report_totals t;
	report_view_totals(v, &t);
	const json_t *tot = container_field(rd, root, "", "totals", false, false, w);
	const struct {
		const char *key;
		size_t n;
	} counts[] = { { "tests", t.tests }, { "passed", t.passed }, { "failures", t.failures },
		       { "errors", t.errors }, { "skipped", t.skipped },
		       { "inconclusive", t.inconclusive } };
	for (size_t i = 0; tot && i < sizeof counts / sizeof counts[0]; i++) {
		uint64_t n = 0;
		char wk[AT_LEN];
		at_key(wk, w, counts[i].key);
		/* Files written before the verdict inconclusive lack its count. */
		if (!strcmp(counts[i].key, "inconclusive") && !json_object_get(tot, "inconclusive") &&
		    !counts[i].n)
			continue;
		if (u64_field(rd, tot, w, counts[i].key, &n) && n != counts[i].n)
			fail(rd, -EINVAL, wk, "expected %zu, the count of the requirements",
			     counts[i].n);
	}
	double seconds;
	if (tot && num_field(rd, tot, w, "seconds", &seconds) && seconds != t.seconds)
		fail(rd, -EINVAL, "totals.seconds", "expected %.17g, the sum of the requirements'",
		     t.seconds);
}

/* Each file's "host" (written since host identity was added; older files
 * lack it) names the environment's host: files joined from several runs'
 * results.json would otherwise be shown under the first one's fingerprint. */
static void check_hosts(struct jr *rd, const json_t *root, const struct report_view *v)
{
	char env_host[400];
	fingerprint_host_title(&v->env, env_host, sizeof env_host);
	const json_t *files = json_object_get(root, "files");
	size_t i;
	const json_t *f;
	json_array_foreach(files, i, f) {
		const json_t *h = json_object_get(f, "host");
		char w[AT_LEN];
		snprintf(w, sizeof w, "files[%zu].host", i);
		if (!h)
			continue;
		if (!json_is_string(h))
			fail(rd, -EINVAL, w, "expected a string");
		else if (strcmp(json_string_value(h), env_host) != 0)
			fail(rd, -EINVAL, w, "%s, but the environment is of %s: the file holds the "
			     "results of more than one host; %s", json_string_value(h), env_host,
			     REPORT_ONE_HOST_HINT);
		if (rd->f.rc)
			return;
	}
}

/* Where the file says the timebase's check against the kernel failed
 * (harness/runinfo.c, host/readiness.c): the field in at and what it says
 * in *said; false when it passed or the file predates the check. */
static bool timebase_refuted(const struct report_view *v, char *at, size_t len,
			     const char **said)
{
	const char *s = fingerprint_get(&v->env, "timebase.check");
	if (s && (!strncmp(s, "FAILED", 6) || !strcmp(s, "not checked"))) {
		snprintf(at, len, "environment.timebase.check");
		*said = s;
		return true;
	}
	for (size_t i = 0; i < v->env.n; i++)
		if (!strncmp(v->env.e[i].key, "timebase.check.", 15) &&
		    !strncmp(v->env.e[i].value, "DISAGREES", 9)) {
			snprintf(at, len, "environment.%s", v->env.e[i].key);
			*said = v->env.e[i].value;
			return true;
		}
	for (size_t i = 0; i < v->nready; i++)
		if (v->ready[i].name && !strcmp(v->ready[i].name, "timebase") &&
		    v->ready[i].level == READY_FAIL) {
			snprintf(at, len, "readiness[%zu].level", i);
			*said = "fail";
			return true;
		}
	return false;
}

/* A run whose timebase the kernel contradicted (or that was never checked)
 * measures nothing: every requirement it ran is an error
 * (harness/runner_prepare.c). A file that says so and still holds a
 * judged verdict was not written by a run: its figures were timed with a
 * clock known to be wrong, or its verdicts are another run's. */
static void check_timebase(struct jr *rd, const struct report_view *v)
{
	char key[AT_LEN];
	const char *said = NULL;
	if (!timebase_refuted(v, key, sizeof key, &said))
		return;
	for (size_t f = 0; f < v->nfiles; f++)
		for (size_t i = 0; i < v->files[f].nreqs; i++) {
			const struct rv_req *r = &v->files[f].reqs[i];
			if (r->verdict == VERDICT_ERROR || r->verdict == VERDICT_SKIPPED)
				continue;
			char w[AT_LEN];
			snprintf(w, sizeof w, "files[%zu].requirements[%zu].verdict", f, i);
			int n = (int)utf8_fit(said, 60);
			fail(rd, -EINVAL, w, "\"%s\", but %s is \"%.*s%s\": a run whose timebase the "
			     "kernel contradicts measures nothing (every requirement an error), so "
			     "these verdicts are not that run's", verdict_name(r->verdict), key, n, said,
			     said[n] ? "..." : "");
			return;
		}
}

/* The verdicts must be the ones the harness's rules give for the stored
 * figures, and the statistics ordered as a sample set's (figures.c):
 * before the totals, which count the verdicts. */
static void check_figures(struct jr *rd, const struct report_view *v)
{
	char at[AT_LEN], why[600];
	if (read_check_figures(v, at, sizeof at, why, sizeof why) != 0)
		fail(rd, -EINVAL, at, "%s", why);
}

static void read_root(struct jr *rd, const json_t *root, struct report_view *v)
{
	char w[AT_LEN];
	if (!json_is_object(root)) {
		fail(rd, -EINVAL, "", "not a results.json (the top level is not an object)");
		return;
	}
	const json_t *schema = member(rd, root, "", "schema", w);
	const char *sv = schema && json_is_string(schema) ? json_string_value(schema) : "";
	rd->schema = strcmp(sv, RESULTS_SCHEMA) == 0 ? 2 : strcmp(sv, RESULTS_SCHEMA_1) == 0 ? 1 : 0;
	if (schema && strcmp(sv, RESULTS_FLEET_SCHEMA) == 0) {
		fail(rd, -EINVAL, w, "a fleet report of rtconform merge, which holds many hosts: "
		     "read its fleet.html or junit.xml, or give each host's own results.json");
		return;
	}
	if (schema && !rd->schema) {
		fail(rd, -EINVAL, w, "expected \"%s\" or \"%s\" (this rtconform reads those "
		     "schemas)", RESULTS_SCHEMA, RESULTS_SCHEMA_1);
		return;
	}
	if (rd->f.rc)
		return;
	read_env(rd, root, v);
	read_readiness(rd, root, v);
	read_outputs(rd, root, v);
	static const struct list files = { "files", sizeof *v->files, SIZE_MAX, read_file,
					   false };
	read_objects(rd, root, "", &files, (void **)&v->files, &v->nfiles);
	/* Hosts first: files joined from several runs also break the totals,
	 * and the mix is what the reader must be told. */
	if (!rd->f.rc)
		check_hosts(rd, root, v);
	if (!rd->f.rc)
		check_timebase(rd, v);
	if (!rd->f.rc)
		check_figures(rd, v);
	if (!rd->f.rc && !rd->derive)
		check_derived(rd, root, v);
	if (!rd->f.rc && !rd->derive)
		check_traceability(rd, root, v);
}

/* A UTF-8 byte order mark at the start is skipped: RFC 8259 (8.1) lets a
 * parser ignore one, and an editor on another system may have added it;
 * the text after it is read as if it were not there. */
static void skip_bom(FILE *f)
{
	unsigned char b[3];
	if (fread(b, 1, 3, f) != 3 || memcmp(b, "\xef\xbb\xbf", 3) != 0)
		rewind(f);
}

/* path when it is a regular file (read.c) of at most MAX_RESULTS_BYTES. */
static FILE *open_results(const char *path, size_t *size, char *err, size_t errlen, int *rc)
{
	FILE *f = read_open(path, size, err, errlen, rc);
	if (f && *size > MAX_RESULTS_BYTES) {
		fclose(f);
		snprintf(err, errlen, "%s: too large for a results.json (limit 256 MiB)", path);
		*rc = -EFBIG;
		return NULL;
	}
	return f;
}

int report_view_from_json(const char *path, struct report_view *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof *v);
	size_t size = 0;
	int rc;
	FILE *f = open_results(path, &size, err, errlen, &rc);
	if (!f)
		return rc;
	rc = report_view_from_json_file(f, size, path, false, v, err, errlen);
	fclose(f);
	return rc;
}

int report_view_from_json_file(FILE *f, size_t size, const char *path, bool derive,
			       struct report_view *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof *v);
	skip_bom(f);
	budget_start(size);
	struct jsplit split;
	jsplit_init(&split, f, MAX_RESULTS_BYTES, budget_take);
	json_error_t jerr;
	json_t *root = json_load_callback(jsplit_read, &split, JSON_REJECT_DUPLICATES, &jerr);
	struct jr rd = { .f = { .file = path, .err = err, .errlen = errlen }, .split = &split,
			 .derive = derive };
	if (!root)
		rd.f.rc = parse_failed(path, split.err, &jerr, err, errlen);
	else
		read_root(&rd, root, v);
	json_decref(root);
	jsplit_free(&split);
	budget.on = false;
	/* The trees were many small chunks, freed now: give their pages back,
	 * so the reports rendered next do not stack on top of them. */
	malloc_trim(0);
	if (rd.f.rc)
		report_view_free(v);
	return rd.f.rc;
}
