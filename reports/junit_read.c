/* SPDX-License-Identifier: Apache-2.0 */
/* junit_read.c - a junit.xml that `rtconform run` wrote, read back into the
 * report view, for `rtconform report junit.xml --html out.html`.
 *
 * results.json is the archive of a run (json_read.c reads it back exactly);
 * junit.xml is an export for CI that also carries the view, with numbers
 * rounded as its properties print them, and older runs may have only it.
 * A property that is there but cannot be read (a malformed histogram
 * bucket, a count that is not one) is refused with its name, never skipped.
 *
 * Besides requirements/loader.c this is the one other libxml2 reader, kept
 * here because it reads what reports/ writes (docs/reports.md records the
 * decision). It parses as safely as the loader: a parser context
 * per file, XML_PARSE_NONET (and NO_XXE where libxml2 has it), never NOENT,
 * DTDLOAD, HUGE or XINCLUDE, and a document with a DOCTYPE is refused before
 * a single declaration of it is read. A junit.xml is the output of a CI job,
 * and CI artifacts get passed around: treat it as untrusted input.
 */
#include "reports/report.h"
#include "base/units.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include "base/xmlsafe.h"
#include "reports/junit_props.h"

/* Histograms make big properties, but nothing we write comes near this. */
#define MAX_JUNIT_BYTES (256u * 1024u * 1024u)

/* ---- parsing: the loader's rules (base/xmlsafe.h) --------------------- */

struct parse_state {
	char first[300]; /* first error, "line N: message" */
};

static void on_error(void *arg, rtc_xml_error e)
{
	struct parse_state *ps = arg;
	if (!e || e->level < XML_ERR_ERROR || ps->first[0])
		return;
	char msg[256];
	snprintf(msg, sizeof msg, "%s", e->message ? e->message : "error");
	msg[strcspn(msg, "\n")] = '\0';
	snprintf(ps->first, sizeof ps->first, "line %d: %s", e->line, msg);
}

static xmlDocPtr parse_junit(const char *path, char *err, size_t errlen, int *rc)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	*rc = xmlsafe_read_file(path, MAX_JUNIT_BYTES, &buf, &len);
	if (*rc) {
		snprintf(err, errlen, "%s: %s", path,
			 *rc == -EFBIG ? "too large for a junit.xml (limit 256 MiB)"
				       : strerror(-*rc));
		return NULL;
	}
	struct parse_state ps = { .first = "" };
	const struct xmlsafe_opts o = { .on_error = on_error, .arg = &ps };
	long doctype_line;
	xmlDocPtr doc = xmlsafe_parse(buf, len, path, &o, &doctype_line);
	if (doctype_line > 0) {
		snprintf(err, errlen, "%s:%ld: DOCTYPE declarations are not allowed in a junit.xml",
			 path, doctype_line);
	} else if (!doc || ps.first[0]) {
		snprintf(err, errlen, "%s: not well-formed XML: %s", path,
			 ps.first[0] ? ps.first : "parse failed");
		xmlFreeDoc(doc);
		doc = NULL;
	}
	if (!doc)
		*rc = -EINVAL;
	free(buf);
	return doc;
}

/* ---- properties of one suite ------------------------------------------- */

struct prop {
	char *name, *value;
};

struct props {
	struct prop *p;      /* document order */
	struct prop **sorted; /* by name, for lookup */
	size_t n;
};

static int cmp_prop(const void *a, const void *b)
{
	const struct prop *const *x = a, *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);
	/* Equal names keep document order, so the first one wins a lookup. */
	if (!c)
		c = (*x < *y) ? -1 : (*x > *y);
	return c;
}

static bool is_elem(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static char *attr(const xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, BAD_CAST name);
}

static void props_free(struct props *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		xmlFree(ps->p[i].name);
		xmlFree(ps->p[i].value);
	}
	free(ps->p);
	free(ps->sorted);
	memset(ps, 0, sizeof *ps);
}

static int props_load(const xmlNode *suite, struct props *ps)
{
	memset(ps, 0, sizeof *ps);
	const xmlNode *pl = NULL;
	for (const xmlNode *c = suite->children; c; c = c->next)
		if (is_elem(c, "properties")) {
			pl = c;
			break;
		}
	if (!pl)
		return 0;
	size_t cap = 0;
	for (const xmlNode *c = pl->children; c; c = c->next)
		cap += is_elem(c, "property");
	if (!cap)
		return 0;
	ps->p = calloc(cap, sizeof *ps->p);
	ps->sorted = calloc(cap, sizeof *ps->sorted);
	if (!ps->p || !ps->sorted)
		return -ENOMEM;
	for (const xmlNode *c = pl->children; c; c = c->next) {
		if (!is_elem(c, "property"))
			continue;
		char *name = attr(c, "name"), *value = attr(c, "value");
		if (!name) {
			xmlFree(value);
			continue;
		}
		if (!value)
			value = (char *)xmlStrdup(BAD_CAST "");
		ps->p[ps->n].name = name;
		ps->p[ps->n].value = value;
		ps->sorted[ps->n] = &ps->p[ps->n];
		ps->n++;
	}
	qsort(ps->sorted, ps->n, sizeof *ps->sorted, cmp_prop);
	return 0;
}

/* The value of the property named exactly `name`, or NULL. */
static const char *lookup(const struct props *ps, const char *name)
{
	size_t lo = 0, hi = ps->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ps->sorted[mid]->name, name);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ps->n && strcmp(ps->sorted[lo]->name, name) == 0)
		return ps->sorted[lo]->value;
	return NULL;
}

/* ---- values ------------------------------------------------------------ */

/* What is being read: the file, the suite's properties, and the first
 * error. A property that is absent gets its default (older files lack some);
 * one that is there but cannot be read is refused, naming it. */
struct reader {
	const char *path;
	const struct props *ps;
	char *err;
	size_t errlen;
	int rc; /* 0, or the first error's -errno */
};

static bool bad(struct reader *rd, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool bad(struct reader *rd, int rc, const char *fmt, ...)
{
	if (rd->rc)
		return false;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s: %s", rd->path, msg);
	rd->rc = rc;
	return false;
}

static bool bad_prop(struct reader *rd, const char *name, const char *value, const char *what)
{
	return bad(rd, -EINVAL, "property %s: '%.80s' is not %s", name, value, what);
}

static char *dup_or_null(struct reader *rd, const char *s)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	return d;
}

/* The value of a property whose name is built from a format of
 * junit_props.h, and that name (in name, NAME_LEN bytes). */
#define NAME_LEN 512
static const char *vget(struct reader *rd, char *name, const char *fmt, va_list ap)
{
	vsnprintf(name, NAME_LEN, fmt, ap);
	return lookup(rd->ps, name);
}

static const char *get(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *get(struct reader *rd, const char *fmt, ...)
{
	char name[NAME_LEN];
	va_list ap;
	va_start(ap, fmt);
	const char *v = vget(rd, name, fmt, ap);
	va_end(ap);
	return v;
}

/* The same, with the property's name left in name (NAME_LEN bytes). */
static const char *vget_name(struct reader *rd, char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static const char *vget_name(struct reader *rd, char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *v = vget(rd, name, fmt, ap);
	va_end(ap);
	return v;
}

/* A count as a property writes it: the one grammar of counts (base/units.h). */
static bool parse_u64(const char *s, uint64_t *out)
{
	char err[160];
	return s && count_parse_range(s, 0, UINT64_MAX, out, err, sizeof err) == 0;
}

/* A count; returns whether the property is there (and was read). */
static bool get_u64(struct reader *rd, uint64_t *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool get_u64(struct reader *rd, uint64_t *out, const char *fmt, ...)
{
	char name[NAME_LEN];
	va_list ap;
	va_start(ap, fmt);
	const char *s = vget(rd, name, fmt, ap);
	va_end(ap);
	if (!s)
		return false;
	return parse_u64(s, out) || bad_prop(rd, name, s, "a count");
}

/* A number; returns whether the property is there (and was read). */
static bool get_num(struct reader *rd, double *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool get_num(struct reader *rd, double *out, const char *fmt, ...)
{
	char name[NAME_LEN];
	va_list ap;
	va_start(ap, fmt);
	const char *s = vget(rd, name, fmt, ap);
	va_end(ap);
	if (!s)
		return false;
	bool ok;
	double v = num_parse(s, &ok);
	if (!ok)
		return bad_prop(rd, name, s, "a number");
	*out = v;
	return true;
}

static void get_value(struct reader *rd, struct rv_value *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void get_value(struct reader *rd, struct rv_value *out, const char *fmt, ...)
{
	char name[NAME_LEN];
	va_list ap;
	va_start(ap, fmt);
	const char *s = vget(rd, name, fmt, ap);
	va_end(ap);
	*out = (struct rv_value){ 0 };
	if (s && !(out->v = num_parse(s, &out->have), out->have))
		bad_prop(rd, name, s, "a number");
}

static enum verdict get_verdict(struct reader *rd, enum verdict def, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static enum verdict get_verdict(struct reader *rd, enum verdict def, const char *fmt, ...)
{
	char name[NAME_LEN];
	va_list ap;
	va_start(ap, fmt);
	const char *s = vget(rd, name, fmt, ap);
	va_end(ap);
	enum verdict v = def;
	if (s && !verdict_parse(s, &v))
		bad_prop(rd, name, s, "pass, fail, error or skipped");
	return v;
}

/* A list property split in place in a malloc'd copy: *n items (0 for an
 * absent or empty one). The name is kept in name for messages. */
struct items {
	char name[NAME_LEN];
	char *copy;
	char **item;
	size_t n;
};

static bool get_items(struct reader *rd, struct items *it, char sep, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool get_items(struct reader *rd, struct items *it, char sep, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *s = vget(rd, it->name, fmt, ap);
	va_end(ap);
	it->copy = NULL;
	it->item = NULL;
	it->n = 0;
	if (!s || !*s)
		return true;
	size_t n = 1;
	for (const char *p = s; *p; p++)
		n += *p == sep;
	it->copy = strdup(s);
	it->item = calloc(n, sizeof *it->item);
	if (!it->copy || !it->item)
		return bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	for (char *p = it->copy; p; it->n++) {
		it->item[it->n] = p;
		if ((p = strchr(p, sep)))
			*p++ = '\0';
	}
	return true;
}

static void items_free(struct items *it)
{
	free(it->copy);
	free(it->item);
}

/* ---- building the view -------------------------------------------------- */

/* ';'-separated values ("-": absent), exactly `want` of them. */
static void read_values(struct reader *rd, struct rv_value **out, size_t want, const char *fmt,
			const char *id, const char *metric)
{
	struct items it;
	*out = NULL;
	if (!get(rd, fmt, id, metric))
		return; /* a lean file: the per-run figures are in results.json */
	if (!get_items(rd, &it, JP_LIST_SEP, fmt, id, metric) || !want) {
		items_free(&it);
		return;
	}
	*out = calloc(want, sizeof **out);
	if (!*out)
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	else if (it.n != want)
		bad(rd, -EINVAL, "property %s: %zu values, expected %zu", it.name, it.n, want);
	for (size_t i = 0; *out && i < it.n && i < want && !rd->rc; i++) {
		if (strcmp(it.item[i], JP_ABSENT) == 0)
			continue;
		(*out)[i].v = num_parse(it.item[i], &(*out)[i].have);
		if (!(*out)[i].have)
			bad_prop(rd, it.name, it.item[i], "a number or -");
	}
	items_free(&it);
}

/* ID.M.hist: "lo:hi:count;...", ascending, lo <= hi. */
static void read_hist(struct reader *rd, const char *id, struct rv_metric *m)
{
	struct items it;
	if (get_items(rd, &it, JP_LIST_SEP, JP_M_HIST, id, m->name) && it.n) {
		m->buckets = calloc(it.n, sizeof *m->buckets);
		if (!m->buckets)
			bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (size_t i = 0; m->buckets && i < it.n && !rd->rc; i++) {
		struct rv_bucket b;
		char *lo = it.item[i], *hi = strchr(lo, JP_BUCKET_SEP);
		char *count = hi ? strchr(hi + 1, JP_BUCKET_SEP) : NULL;
		if (hi)
			*hi++ = '\0';
		if (count)
			*count++ = '\0';
		if (!count || !parse_u64(lo, &b.lo) || !parse_u64(hi, &b.hi) ||
		    !parse_u64(count, &b.count) || b.lo > b.hi ||
		    (m->nbuckets && b.lo <= m->buckets[m->nbuckets - 1].hi)) {
			bad(rd, -EINVAL, "property %s: bucket %zu is not lo:hi:count ascending "
					 "with lo <= hi", it.name, i + 1);
			break;
		}
		m->buckets[m->nbuckets++] = b;
	}
	items_free(&it);
}

/* ID.M.run_counts: the samples of each run (a count metric: its counts). */
static void read_run_counts(struct reader *rd, const char *id, struct rv_metric *m)
{
	struct items it;
	if (get_items(rd, &it, JP_LIST_SEP, JP_M_RUN_COUNTS, id, m->name) && it.n) {
		m->run_count = calloc(it.n, sizeof *m->run_count);
		if (!m->run_count)
			bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
		else
			m->nruns = it.n;
	}
	for (size_t i = 0; i < m->nruns && !rd->rc; i++)
		if (!parse_u64(it.item[i], &m->run_count[i]))
			bad_prop(rd, it.name, it.item[i], "a count");
	items_free(&it);
}

/* ID.M.kind; absent (an older file): a duration. */
static void read_kind(struct reader *rd, const char *id, struct rv_metric *m)
{
	char name[NAME_LEN];
	snprintf(name, sizeof name, JP_M_KIND, id, m->name);
	const char *s = lookup(rd->ps, name);
	m->kind = METRIC_DURATION;
	if (s && !metric_kind_parse(s, &m->kind))
		bad_prop(rd, name, s, "duration or count");
}

/* ---- lean files: "key=value" fields (junit_props.h) ----------------- */

/* The next field of *p ("key=value", fields separated by blanks): key and
 * value split in place. A "text" value runs to the end. false at the end;
 * a field without '=' gives an empty key. */
static bool next_field(char **p, char **key, char **value)
{
	char *s = *p;
	while (*s == JP_FIELD_SEP)
		s++;
	if (!*s)
		return false;
	*key = s;
	char *eq = strchr(s, '=');
	char *end = strchr(s, JP_FIELD_SEP);
	if (!eq || (end && end < eq)) {
		*key = "";
		*value = s;
		*p = s + strlen(s);
		return true;
	}
	*eq = '\0';
	*value = eq + 1;
	if (strcmp(*key, JP_K_TEXT) == 0 || !(end = strchr(eq + 1, JP_FIELD_SEP))) {
		*p = *value + strlen(*value);
	} else {
		*end = '\0';
		*p = end + 1;
	}
	return true;
}

static bool field_value(struct reader *rd, const char *name, const char *key, const char *s,
			struct rv_value *out)
{
	out->v = num_parse(s, &out->have);
	if (!out->have)
		bad(rd, -EINVAL, "property %s: %s '%.40s' is not a number", name, key, s);
	return out->have;
}

/* "min_ns" -> index of "min" in report_view_stats and its unit; -1: none. */
static int stat_key(const char *key, bool *cycles)
{
	const char *us = strrchr(key, '_');
	if (!us)
		return -1;
	*cycles = strcmp(us, "_cycles") == 0;
	if (!*cycles && strcmp(us, "_ns") != 0)
		return -1;
	for (int i = 0; i < RV_NSTATS; i++)
		if (strlen(report_view_stats[i]) == (size_t)(us - key) &&
		    strncmp(key, report_view_stats[i], (size_t)(us - key)) == 0)
			return i;
	return -1;
}

/* One field of a metric's value into m; false when the key is unknown. */
static bool metric_field(struct reader *rd, const char *name, struct rv_metric *m,
			 const char *key, const char *val)
{
	bool cycles;
	int i;
	if (strcmp(key, JP_K_COUNT) == 0 || strcmp(key, JP_K_OVERFLOW) == 0) {
		uint64_t *to = key[0] == 'c' ? &m->count : &m->overflow;
		if (!parse_u64(val, to))
			bad(rd, -EINVAL, "property %s: %s '%.40s' is not a count", name, key, val);
		return m->kind == METRIC_DURATION || to == &m->count;
	}
	if (m->kind == METRIC_DURATION && (i = stat_key(key, &cycles)) >= 0) {
		field_value(rd, name, key, val, cycles ? &m->cycles[i] : &m->ns[i]);
		return true;
	}
	for (i = 0; m->kind == METRIC_COUNT && i < RV_NCSTATS; i++)
		if (strcmp(key, report_view_count_stats[i]) == 0) {
			field_value(rd, name, key, val, &m->counts[i]);
			return true;
		}
	return false;
}

/* ID.M of a lean file: its kind first, then its key statistics. There are
 * no histogram, scales or per-run figures: those are in results.json. */
static void read_lean_metric(struct reader *rd, const char *name, const char *value,
			     struct rv_metric *m)
{
	char *copy = strdup(value), *p = copy, *key, *val;
	if (!copy) {
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
		return;
	}
	if (!next_field(&p, &key, &val) || strcmp(key, JP_K_KIND) != 0 ||
	    !metric_kind_parse(val, &m->kind))
		bad(rd, -EINVAL, "property %s: does not begin with kind=duration or kind=count",
		    name);
	while (!rd->rc && next_field(&p, &key, &val))
		if (!metric_field(rd, name, m, key, val) && !rd->rc)
			bad(rd, -EINVAL, "property %s: unknown field '%.40s' of a %s", name, key,
			    metric_kind_name(m->kind));
	m->median_ns = m->ns[RV_P50];
	free(copy);
}

static void read_metric(struct reader *rd, const char *id, struct rv_metric *m)
{
	const char *name = m->name;
	char lean[NAME_LEN];
	const char *value = vget_name(rd, lean, JP_METRIC, id, name);
	if (value) {
		read_lean_metric(rd, lean, value, m);
		return;
	}
	read_kind(rd, id, m);
	if (m->kind == METRIC_COUNT) {
		for (int i = 0; i < RV_NCSTATS; i++)
			get_value(rd, &m->counts[i], JP_M_COUNT_STAT, id, name,
				  report_view_count_stats[i]);
		read_run_counts(rd, id, m);
		m->count = m->nruns;
		return;
	}
	get_u64(rd, &m->count, JP_M_COUNT, id, name);
	get_u64(rd, &m->overflow, JP_M_OVERFLOW, id, name);
	get_u64(rd, &m->highest, JP_M_HIST_HIGHEST, id, name);
	get_num(rd, &m->ns_per_unit, JP_M_NS_PER_UNIT, id, name);
	get_num(rd, &m->cycles_per_unit, JP_M_CYCLES_PER_UNIT, id, name);
	for (int i = 0; i < RV_NSTATS; i++) {
		get_value(rd, &m->ns[i], JP_M_STAT, id, name, report_view_stats[i], "ns");
		get_value(rd, &m->cycles[i], JP_M_STAT, id, name, report_view_stats[i], "cycles");
	}
	/* junit.xml has the median only from 20 samples on. */
	m->median_ns = m->ns[RV_P50];
	read_hist(rd, id, m);
	read_run_counts(rd, id, m);
	read_values(rd, &m->run_mean_ns, m->nruns, JP_M_RUN_MEANS, id, name);
}

/* A limit on a count: bounds without a unit suffix. */
static void read_count_limit(struct reader *rd, const char *id, size_t k, struct rv_limit *l)
{
	double v;
	l->count = true;
	if ((l->has_max = get_num(rd, &v, JP_LIMIT_MAX_COUNT, id, k)))
		l->max = (struct quantity){ v, QTY_COUNT };
	if ((l->has_min = get_num(rd, &v, JP_LIMIT_MIN_COUNT, id, k)))
		l->min = (struct quantity){ v, QTY_COUNT };
	get_value(rd, &l->measured, JP_LIMIT_MEASURED_COUNT, id, k);
}

static void read_limit(struct reader *rd, const char *id, size_t k, struct rv_limit *l)
{
	l->metric = dup_or_null(rd, get(rd, JP_LIMIT_METRIC, id, k) ?: "");
	l->statistic = dup_or_null(rd, get(rd, JP_LIMIT_STATISTIC, id, k));
	l->verdict = get_verdict(rd, VERDICT_ERROR, JP_LIMIT_VERDICT, id, k);
	l->text = dup_or_null(rd, get(rd, JP_LIMIT_TEXT, id, k));
	if (get(rd, JP_LIMIT_MAX_COUNT, id, k) || get(rd, JP_LIMIT_MIN_COUNT, id, k)) {
		read_count_limit(rd, id, k, l);
		return;
	}
	const char *unit = "ns";
	if (get(rd, JP_LIMIT_MAX, id, k, "cycles") || get(rd, JP_LIMIT_MIN, id, k, "cycles"))
		unit = "cycles";
	l->cycles = unit[0] == 'c';
	enum qty_unit qu = l->cycles ? QTY_CYCLES : QTY_NS;
	double v;
	if ((l->has_max = get_num(rd, &v, JP_LIMIT_MAX, id, k, unit)))
		l->max = (struct quantity){ v, qu };
	if ((l->has_min = get_num(rd, &v, JP_LIMIT_MIN, id, k, unit)))
		l->min = (struct quantity){ v, qu };
	get_value(rd, &l->measured, JP_LIMIT_MEASURED, id, k, unit);
}

/* One bound or the measured value of a lean limit entry: key "max",
 * "max_ns", "max_cycles" (likewise min, measured). Returns the unit it
 * names (QTY_COUNT without a suffix), or -1 when key is none of them. */
static int limit_key(const char *key, const char *base)
{
	size_t n = strlen(base);
	if (strncmp(key, base, n) != 0)
		return -1;
	if (!key[n])
		return QTY_COUNT;
	if (strcmp(key + n, "_ns") == 0)
		return QTY_NS;
	if (strcmp(key + n, "_cycles") == 0)
		return QTY_CYCLES;
	return -1;
}

static bool limit_field(struct reader *rd, const char *name, struct rv_limit *l,
			const char *key, const char *val, int *unit)
{
	static const char *const bounds[] = { JP_K_MAX, JP_K_MIN, JP_K_MEASURED };
	if (strcmp(key, JP_K_METRIC) == 0 || strcmp(key, JP_K_STATISTIC) == 0) {
		char **to = key[0] == 'm' ? &l->metric : &l->statistic;
		free(*to);
		*to = dup_or_null(rd, val);
		return true;
	}
	if (strcmp(key, JP_K_VERDICT) == 0) {
		if (!verdict_parse(val, &l->verdict))
			bad_prop(rd, name, val, "pass, fail, error or skipped");
		return true;
	}
	if (strcmp(key, JP_K_TEXT) == 0) {
		l->text = dup_or_null(rd, val);
		return true;
	}
	for (int b = 0; b < 3; b++) {
		int u = limit_key(key, bounds[b]);
		if (u < 0)
			continue;
		if (*unit >= 0 && u != *unit)
			return bad(rd, -EINVAL, "property %s: %s is in another unit than the limit's "
						"other values", name, key);
		*unit = u;
		struct rv_value v;
		if (!field_value(rd, name, key, val, &v))
			return true;
		if (b == 2)
			l->measured = v;
		else if (b == 0)
			l->has_max = true, l->max = (struct quantity){ v.v, (enum qty_unit)u };
		else
			l->has_min = true, l->min = (struct quantity){ v.v, (enum qty_unit)u };
		return true;
	}
	return false;
}

/* ID.limits of a lean file: one entry per limit, in file order. */
static void read_lean_limits(struct reader *rd, const char *name,
			     struct rv_req *r)
{
	struct items it;
	if (!get_items(rd, &it, JP_ENTRY_SEP, "%s", name) || !it.n) {
		items_free(&it);
		return;
	}
	if (it.n > REQ_MAX_LIMITS)
		bad(rd, -EINVAL, "property %s: %zu limits, a requirement has at most %u", name,
		    it.n, (unsigned)REQ_MAX_LIMITS);
	else if (!(r->limits = calloc(it.n, sizeof *r->limits)))
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	for (size_t i = 0; r->limits && i < it.n && !rd->rc; i++) {
		struct rv_limit *l = &r->limits[r->nlimits++];
		char *p = it.item[i], *key, *val;
		int unit = -1;
		l->verdict = VERDICT_ERROR;
		while (!rd->rc && next_field(&p, &key, &val))
			if (!limit_field(rd, name, l, key, val, &unit) && !rd->rc)
				bad(rd, -EINVAL, "property %s: limit %zu: unknown field '%.40s'", name,
				    i + 1, key);
		l->count = unit == QTY_COUNT;
		l->cycles = unit == QTY_CYCLES;
		if (!rd->rc && (!l->metric || !l->statistic))
			bad(rd, -EINVAL, "property %s: limit %zu lacks its metric or statistic", name,
			    i + 1);
	}
	items_free(&it);
}

static void read_limits(struct reader *rd, const char *id, struct rv_req *r)
{
	char lean[NAME_LEN];
	if (vget_name(rd, lean, JP_LIMITS, id)) {
		read_lean_limits(rd, lean, r);
		return;
	}
	size_t n = 0;
	while (n < REQ_MAX_LIMITS && get(rd, JP_LIMIT_STATISTIC, id, n + 1))
		n++;
	if (!n)
		return;
	r->limits = calloc(n, sizeof *r->limits);
	if (!r->limits) {
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
		return;
	}
	r->nlimits = n;
	for (size_t i = 0; i < n; i++)
		read_limit(rd, id, i + 1, &r->limits[i]);
}

static void read_params(struct reader *rd, const char *id, struct rv_req *r)
{
	const struct props *ps = rd->ps;
	char prefix[NAME_LEN];
	snprintf(prefix, sizeof prefix, JP_PARAM_PREFIX, id);
	size_t plen = strlen(prefix), n = 0;
	for (size_t i = 0; i < ps->n; i++)
		n += strncmp(ps->p[i].name, prefix, plen) == 0;
	if (!n)
		return;
	r->params = calloc(n, sizeof *r->params);
	if (!r->params) {
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
		return;
	}
	/* Document order: the probe's order of parameters. */
	for (size_t i = 0; i < ps->n; i++) {
		if (strncmp(ps->p[i].name, prefix, plen) != 0)
			continue;
		r->params[r->nparams].name = dup_or_null(rd, ps->p[i].name + plen);
		r->params[r->nparams].value = dup_or_null(rd, ps->p[i].value);
		r->nparams++;
	}
}

/* Per-CPU series of the first metric: ID.<metric>.cpuN.count, in document
 * order, and their statistics. */
static void read_series(struct reader *rd, const char *id, struct rv_req *r)
{
	const struct props *ps = rd->ps;
	if (!r->nmetrics || !r->metrics[0].name)
		return;
	char prefix[NAME_LEN];
	const size_t slen = strlen(JP_S_COUNT_SUFFIX);
	snprintf(prefix, sizeof prefix, JP_S_PREFIX, id, r->metrics[0].name);
	size_t plen = strlen(prefix), n = 0;
	for (size_t i = 0; i < ps->n; i++) {
		const char *nm = ps->p[i].name;
		n += strncmp(nm, prefix, plen) == 0 && strlen(nm) > plen + slen &&
		     strcmp(nm + strlen(nm) - slen, JP_S_COUNT_SUFFIX) == 0;
	}
	if (!n)
		return;
	r->series = calloc(n, sizeof *r->series);
	if (!r->series) {
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
		return;
	}
	for (size_t i = 0; i < ps->n && r->nseries < n && !rd->rc; i++) {
		const char *nm = ps->p[i].name;
		char *end;
		if (strncmp(nm, prefix, plen) != 0 || nm[plen] < '0' || nm[plen] > '9')
			continue;
		long cpu = strtol(nm + plen, &end, 10);
		if (strcmp(end, JP_S_COUNT_SUFFIX) != 0)
			continue;
		if (cpu < 0 || cpu > 1 << 20) {
			bad(rd, -EINVAL, "property %s: CPU %ld is out of range", nm, cpu);
			return;
		}
		struct rv_series *s = &r->series[r->nseries++];
		s->cpu = (int)cpu;
		if (!parse_u64(ps->p[i].value, &s->count))
			bad_prop(rd, nm, ps->p[i].value, "a count");
		for (int k = 0; k < RV_NSERIES_STATS; k++)
			get_value(rd, &s->ns[k], JP_S_STAT, id, r->metrics[0].name, s->cpu,
				  report_view_series_stats[k]);
	}
}

/* The verdict from the test case's children, for a file that lacks the
 * ID.verdict property. */
static enum verdict case_verdict(const xmlNode *tc)
{
	for (const xmlNode *c = tc->children; c; c = c->next) {
		if (is_elem(c, "failure"))
			return VERDICT_FAIL;
		if (is_elem(c, "error"))
			return VERDICT_ERROR;
		if (is_elem(c, "skipped"))
			return VERDICT_SKIPPED;
	}
	return VERDICT_PASS;
}

/* What the worker reported: runs, batch figure, metrics, series. */
static void read_measured(struct reader *rd, const char *id, struct rv_req *r)
{
	struct items it;
	if (!get_items(rd, &it, JP_METRIC_SEP, JP_METRICS, id) || !get(rd, JP_METRICS, id)) {
		items_free(&it);
		return;
	}
	r->measured = true;
	uint64_t runs = 0;
	if (get_u64(rd, &runs, JP_RUNS, id) && runs > RTC_MAX_RUNS)
		bad(rd, -EINVAL, "property " JP_RUNS ": %llu runs, at most %u", id,
		    (unsigned long long)runs, (unsigned)RTC_MAX_RUNS);
	r->runs = (uint32_t)(runs > RTC_MAX_RUNS ? 0 : runs);
	get_value(rd, &r->batch_mean_ns, JP_BATCH_MEAN, id);
	get_value(rd, &r->batch_stddev_ns, JP_BATCH_STDDEV, id);
	read_values(rd, &r->batch_run_ns, r->runs, JP_BATCH_PER_RUN, id, "");

	if (it.n > RTC_MAX_METRICS)
		bad(rd, -EINVAL, "property " JP_METRICS ": %zu metrics, a result has at most %u",
		    id, it.n, (unsigned)RTC_MAX_METRICS);
	else if (it.n && !(r->metrics = calloc(it.n, sizeof *r->metrics)))
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	for (size_t i = 0; r->metrics && i < it.n && !rd->rc; i++) {
		r->metrics[i].name = dup_or_null(rd, it.item[i]);
		r->nmetrics++;
		if (r->metrics[i].name)
			read_metric(rd, id, &r->metrics[i]);
	}
	items_free(&it);
	read_series(rd, id, r);
}

static void read_req(struct reader *rd, const xmlNode *tc, struct rv_req *r)
{
	char *name = attr(tc, "name"), *time = attr(tc, "time");
	const char *full = name ? name : "?";
	/* "ID: title" (ids hold no ':' or blank), or the bare id. */
	const char *colon = strstr(full, ": ");
	r->id = colon ? strndup(full, (size_t)(colon - full)) : strdup(full);
	if (!r->id)
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	r->title = colon && colon[2] ? dup_or_null(rd, colon + 2) : NULL;
	bool ok = true;
	r->seconds = time ? num_parse(time, &ok) : 0.0;
	if (!ok)
		bad(rd, -EINVAL, "testcase %s: time '%.40s' is not a number", full, time);
	xmlFree(name);
	xmlFree(time);
	if (!r->id || rd->rc)
		return;
	const char *id = r->id;

	r->verdict = get_verdict(rd, case_verdict(tc), JP_VERDICT, id);
	r->probe = dup_or_null(rd, get(rd, JP_PROBE, id) ?: "?");
	r->policy = dup_or_null(rd, get(rd, JP_POLICY, id) ?: "?");
	uint64_t cpu;
	r->cpu = -1;
	if (get_u64(rd, &cpu, JP_CPU, id)) {
		if (cpu >= 1u << 20)
			bad(rd, -EINVAL, "property " JP_CPU ": CPU %llu is out of range", id,
			    (unsigned long long)cpu);
		r->cpu = (int)(cpu & ((1u << 20) - 1));
	}
	r->source = dup_or_null(rd, get(rd, JP_SOURCE, id));
	r->reason = dup_or_null(rd, get(rd, JP_REASON, id));
	r->note = dup_or_null(rd, get(rd, JP_NOTE, id));
	r->load = dup_or_null(rd, get(rd, JP_LOAD, id));
	read_params(rd, id, r);
	read_limits(rd, id, r);
	read_measured(rd, id, r);
}

/* The suite's timestamp attribute, "2023-11-14T22:13:20" UTC; 0 without. */
static int64_t suite_started(struct reader *rd, const xmlNode *suite)
{
	char *ts = attr(suite, "timestamp");
	if (!ts)
		return 0;
	struct tm tm = { 0 };
	const char *end = strptime(ts, "%Y-%m-%dT%H:%M:%S", &tm);
	time_t t = end && !*end ? timegm(&tm) : (time_t)-1;
	if (t == (time_t)-1)
		bad(rd, -EINVAL, "testsuite timestamp '%.40s' is not a UTC time", ts);
	xmlFree(ts);
	return t == (time_t)-1 ? 0 : (int64_t)t;
}

/* A readiness property of the environment's part: a check, "LEVEL:
 * finding", or the remedy of the check just before it. */
static void read_ready_prop(struct reader *rd, struct report_view *v, const struct prop *p)
{
	const char *name = p->name + strlen(JP_READY_PREFIX);
	size_t nlen = strlen(name), slen = strlen(JP_READY_REMEDY_SUFFIX);
	if (nlen > slen && strcmp(name + nlen - slen, JP_READY_REMEDY_SUFFIX) == 0) {
		struct rv_check *c = v->nready ? &v->ready[v->nready - 1] : NULL;
		if (!c || c->remedy || strncmp(c->name, name, nlen - slen) != 0 ||
		    c->name[nlen - slen] != '\0') {
			bad(rd, -EINVAL, "property %s: a remedy that does not follow its check",
			    p->name);
			return;
		}
		c->remedy = dup_or_null(rd, p->value);
		return;
	}
	const char *colon = strstr(p->value, ": ");
	char level[8] = "";
	enum ready_level l;
	if (colon && (size_t)(colon - p->value) < sizeof level)
		memcpy(level, p->value, (size_t)(colon - p->value));
	if (!*name || !colon || !ready_level_parse(level, &l)) {
		bad_prop(rd, p->name, p->value, "'LEVEL: finding' with LEVEL ok, note, warn or fail");
		return;
	}
	if (report_view_add_check(v, name, l, colon + 2, NULL) != 0)
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
}

/* A later suite's environment names the first one's host: a junit merge
 * tool joins several runs' suites under one <testsuites>, and their
 * figures must not be shown under the first run's fingerprint. */
static void check_same_host(struct reader *rd, const struct props *ps,
			    const struct report_view *v)
{
	struct fingerprint env = { 0 };
	for (size_t i = 0; i < ps->n && strcmp(ps->p[i].name, JP_REQ_PATH); i++)
		fingerprint_add(&env, ps->p[i].name, "%s", ps->p[i].value);
	if (!fingerprint_same_host(&env, &v->env)) {
		char a[300], b[300];
		fingerprint_host_title(&v->env, a, sizeof a);
		fingerprint_host_title(&env, b, sizeof b);
		bad(rd, -EINVAL, "holds the results of more than one host, %s and %s; %s", a, b,
		    REPORT_ONE_HOST_HINT);
	}
	fingerprint_free(&env);
}

static void read_suite(struct reader *rd, const xmlNode *suite, struct report_view *v,
		       bool first)
{
	struct props ps;
	if (props_load(suite, &ps) != 0) {
		props_free(&ps);
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
		return;
	}
	rd->ps = &ps;
	/* The environment is what comes before requirements.path, the
	 * readiness checks among it; every suite repeats them, so the first
	 * one's are taken. */
	if (first)
		for (size_t i = 0; i < ps.n && strcmp(ps.p[i].name, JP_REQ_PATH) && !rd->rc; i++) {
			if (strncmp(ps.p[i].name, JP_READY_PREFIX, strlen(JP_READY_PREFIX)) == 0)
				read_ready_prop(rd, v, &ps.p[i]);
			else
				fingerprint_add(&v->env, ps.p[i].name, "%s", ps.p[i].value);
		}
	else
		check_same_host(rd, &ps, v);

	struct rv_file *f = &v->files[v->nfiles++];
	char *name = attr(suite, "name");
	f->name = dup_or_null(rd, name ? name : "rtconform");
	xmlFree(name);
	f->path = dup_or_null(rd, get(rd, JP_REQ_PATH) ?: "");
	f->version = dup_or_null(rd, get(rd, JP_REQ_VERSION));
	f->sha256 = dup_or_null(rd, get(rd, JP_REQ_SHA256) ?: "");
	f->started = suite_started(rd, suite);

	size_t n = 0;
	for (const xmlNode *c = suite->children; c; c = c->next)
		n += is_elem(c, "testcase");
	if (n && !(f->reqs = calloc(n, sizeof *f->reqs)))
		bad(rd, -ENOMEM, "%s", strerror(ENOMEM));
	for (const xmlNode *c = suite->children; f->reqs && c && !rd->rc; c = c->next)
		if (is_elem(c, "testcase"))
			read_req(rd, c, &f->reqs[f->nreqs++]);
	rd->ps = NULL;
	props_free(&ps);
}

int report_view_from_junit(const char *path, struct report_view *v, char *err, size_t errlen)
{
	int rc;
	memset(v, 0, sizeof *v);
	xmlDocPtr doc = parse_junit(path, err, errlen, &rc);
	if (!doc)
		return rc;
	struct reader rd = { .path = path, .err = err, .errlen = errlen };
	const xmlNode *root = xmlDocGetRootElement(doc);
	size_t nsuites = 0;
	if (!root || !is_elem(root, "testsuites") || root->ns) {
		bad(&rd, -EINVAL, "not a junit.xml (the root element is not <testsuites>)");
		goto out;
	}
	for (const xmlNode *c = root->children; c; c = c->next)
		nsuites += is_elem(c, "testsuite");
	if (nsuites && !(v->files = calloc(nsuites, sizeof *v->files))) {
		bad(&rd, -ENOMEM, "%s", strerror(ENOMEM));
		goto out;
	}
	for (const xmlNode *c = root->children; c && !rd.rc; c = c->next)
		if (is_elem(c, "testsuite"))
			read_suite(&rd, c, v, v->nfiles == 0);
	/* Without our properties there is nothing to draw a histogram from;
	 * say so rather than render an empty report. */
	if (!rd.rc && !fingerprint_get(&v->env, "rtconform.version"))
		bad(&rd, -EINVAL, "not written by rtconform run (no rtconform.version property)");
out:
	if (rd.rc)
		report_view_free(v);
	xmlFreeDoc(doc);
	return rd.rc;
}
