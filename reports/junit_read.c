/* junit_read.c - a junit.xml that `rtconform run` wrote, read back into the
 * report view, for `rtconform report junit.xml --html out.html`.
 *
 * design.md makes requirements/loader.c the only libxml2 reader; this is the
 * second, kept here because it reads what reports/ writes (docs/reports.md
 * records the decision). It parses as safely as the loader: a parser context
 * per file, XML_PARSE_NONET (and NO_XXE where libxml2 has it), never NOENT,
 * DTDLOAD, HUGE or XINCLUDE, and a document with a DOCTYPE is refused before
 * a single declaration of it is read. A junit.xml is the output of a CI job,
 * and CI artifacts get passed around: treat it as untrusted input.
 */
#include "reports/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include "base/xmlsafe.h"

/* Histograms make big properties, but nothing we write comes near this. */
#define MAX_JUNIT_BYTES (256u * 1024u * 1024u)

/* ---- parsing: the loader's rules (requirements/xmlsafe.h) -------------- */

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

static const char *get(const struct props *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *get(const struct props *ps, const char *fmt, ...)
{
	char name[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
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

struct reader {
	bool failed; /* out of memory */
};

static char *dup_or_null(struct reader *rd, const char *s)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		rd->failed = true;
	return d;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	if (!s || *s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static struct rv_value value_of(const char *s)
{
	struct rv_value v = { 0 };
	if (s && strcmp(s, "-") != 0)
		v.v = num_parse(s, &v.have);
	return v;
}

static enum verdict verdict_of(const char *s, enum verdict def)
{
	static const enum verdict all[] = { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR,
					    VERDICT_SKIPPED };
	for (size_t i = 0; s && i < sizeof all / sizeof all[0]; i++)
		if (strcmp(s, verdict_name(all[i])) == 0)
			return all[i];
	return def;
}

/* Items of a ';'-separated list, in a malloc'd copy split in place. */
static size_t split(char *s, char sep, char **items, size_t max)
{
	size_t n = 0;
	if (!s || !*s)
		return 0;
	for (char *p = s; n < max;) {
		items[n++] = p;
		char *e = strchr(p, sep);
		if (!e)
			break;
		*e = '\0';
		p = e + 1;
	}
	return n;
}

static size_t count_items(const char *s, char sep)
{
	if (!s || !*s)
		return 0;
	size_t n = 1;
	for (; *s; s++)
		n += *s == sep;
	return n;
}

/* ---- building the view -------------------------------------------------- */

static void read_values(struct reader *rd, const char *list, struct rv_value **out, size_t want)
{
	*out = NULL;
	if (!want)
		return;
	*out = calloc(want, sizeof **out);
	char *copy = list ? strdup(list) : NULL;
	char **items = calloc(want, sizeof *items);
	if (!*out || (list && !copy) || !items) {
		rd->failed = true;
	} else {
		size_t n = split(copy, ';', items, want);
		for (size_t i = 0; i < n; i++)
			(*out)[i] = value_of(items[i]);
	}
	free(items);
	free(copy);
}

static void read_metric(struct reader *rd, const struct props *ps, const char *id,
			struct rv_metric *m)
{
	const char *name = m->name;
	parse_u64(get(ps, "%s.%s.count", id, name), &m->count);
	parse_u64(get(ps, "%s.%s.overflow", id, name), &m->overflow);
	parse_u64(get(ps, "%s.%s.hist_highest", id, name), &m->highest);
	m->ns_per_unit = num_parse(get(ps, "%s.%s.ns_per_unit", id, name) ?: "", NULL);
	m->cycles_per_unit =
		num_parse(get(ps, "%s.%s.cycles_per_unit", id, name) ?: "", NULL);
	for (int i = 0; i < RV_NSTATS; i++) {
		m->ns[i] = value_of(get(ps, "%s.%s.%s_ns", id, name, report_view_stats[i]));
		m->cycles[i] = value_of(get(ps, "%s.%s.%s_cycles", id, name, report_view_stats[i]));
	}

	const char *hist = get(ps, "%s.%s.hist", id, name);
	size_t nb = count_items(hist, ';');
	if (nb) {
		char *copy = strdup(hist);
		char **items = calloc(nb, sizeof *items);
		m->buckets = calloc(nb, sizeof *m->buckets);
		if (!copy || !items || !m->buckets) {
			rd->failed = true;
		} else {
			size_t n = split(copy, ';', items, nb);
			for (size_t i = 0; i < n; i++) {
				char *f[3];
				struct rv_bucket b;
				if (split(items[i], ':', f, 3) == 3 && parse_u64(f[0], &b.lo) &&
				    parse_u64(f[1], &b.hi) && parse_u64(f[2], &b.count))
					m->buckets[m->nbuckets++] = b;
			}
		}
		free(items);
		free(copy);
	}

	const char *counts = get(ps, "%s.%s.run_counts", id, name);
	m->nruns = count_items(counts, ';');
	if (m->nruns) {
		char *copy = strdup(counts);
		char **items = calloc(m->nruns, sizeof *items);
		m->run_count = calloc(m->nruns, sizeof *m->run_count);
		if (!copy || !items || !m->run_count) {
			rd->failed = true;
			m->nruns = 0;
		} else {
			size_t n = split(copy, ';', items, m->nruns);
			for (size_t i = 0; i < n; i++)
				parse_u64(items[i], &m->run_count[i]);
		}
		free(items);
		free(copy);
		read_values(rd, get(ps, "%s.%s.run_means_ns", id, name), &m->run_mean_ns, m->nruns);
	}
}

static void read_limits(struct reader *rd, const struct props *ps, const char *id,
			struct rv_req *r)
{
	size_t n = 0;
	while (n < REQ_MAX_LIMITS && get(ps, "%s.limit.%zu.statistic", id, n + 1))
		n++;
	if (!n)
		return;
	r->limits = calloc(n, sizeof *r->limits);
	if (!r->limits) {
		rd->failed = true;
		return;
	}
	r->nlimits = n;
	for (size_t i = 0; i < n; i++) {
		struct rv_limit *l = &r->limits[i];
		size_t k = i + 1;
		l->metric = dup_or_null(rd, get(ps, "%s.limit.%zu.metric", id, k) ?: "");
		l->statistic = dup_or_null(rd, get(ps, "%s.limit.%zu.statistic", id, k));
		const char *unit = "ns";
		if (get(ps, "%s.limit.%zu.max_cycles", id, k) ||
		    get(ps, "%s.limit.%zu.min_cycles", id, k))
			unit = "cycles";
		l->cycles = unit[0] == 'c';
		enum qty_unit qu = l->cycles ? QTY_CYCLES : QTY_NS;
		const char *s = get(ps, "%s.limit.%zu.max_%s", id, k, unit);
		if (s) {
			l->has_max = true;
			l->max = (struct quantity){ num_parse(s, NULL), qu };
		}
		s = get(ps, "%s.limit.%zu.min_%s", id, k, unit);
		if (s) {
			l->has_min = true;
			l->min = (struct quantity){ num_parse(s, NULL), qu };
		}
		l->measured = value_of(get(ps, "%s.limit.%zu.measured_%s", id, k, unit));
		l->verdict = verdict_of(get(ps, "%s.limit.%zu.verdict", id, k), VERDICT_ERROR);
		l->text = dup_or_null(rd, get(ps, "%s.limit.%zu.text", id, k));
	}
}

static void read_params(struct reader *rd, const struct props *ps, const char *id,
			struct rv_req *r)
{
	char prefix[300];
	snprintf(prefix, sizeof prefix, "%s.param.", id);
	size_t plen = strlen(prefix), n = 0;
	for (size_t i = 0; i < ps->n; i++)
		n += strncmp(ps->p[i].name, prefix, plen) == 0;
	if (!n)
		return;
	r->params = calloc(n, sizeof *r->params);
	if (!r->params) {
		rd->failed = true;
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
static void read_series(struct reader *rd, const struct props *ps, const char *id,
			struct rv_req *r)
{
	if (!r->nmetrics || !r->metrics[0].name)
		return;
	char prefix[300];
	snprintf(prefix, sizeof prefix, "%s.%s.cpu", id, r->metrics[0].name);
	size_t plen = strlen(prefix), n = 0;
	for (size_t i = 0; i < ps->n; i++) {
		const char *nm = ps->p[i].name;
		n += strncmp(nm, prefix, plen) == 0 && strlen(nm) > plen + 6 &&
		     strcmp(nm + strlen(nm) - 6, ".count") == 0;
	}
	if (!n)
		return;
	r->series = calloc(n, sizeof *r->series);
	if (!r->series) {
		rd->failed = true;
		return;
	}
	for (size_t i = 0; i < ps->n && r->nseries < n; i++) {
		const char *nm = ps->p[i].name;
		char *end;
		if (strncmp(nm, prefix, plen) != 0 || nm[plen] < '0' || nm[plen] > '9')
			continue;
		long cpu = strtol(nm + plen, &end, 10);
		if (strcmp(end, ".count") != 0 || cpu < 0 || cpu > 1 << 20)
			continue;
		struct rv_series *s = &r->series[r->nseries++];
		s->cpu = (int)cpu;
		parse_u64(ps->p[i].value, &s->count);
		for (int k = 0; k < RV_NSERIES_STATS; k++)
			s->ns[k] = value_of(get(ps, "%s%d.%s_ns", prefix, s->cpu,
						report_view_series_stats[k]));
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

static void read_req(struct reader *rd, const struct props *ps, const xmlNode *tc,
		     struct rv_req *r)
{
	char *name = attr(tc, "name"), *time = attr(tc, "time");
	const char *full = name ? name : "?";
	/* "ID: title" (ids hold no ':' or blank), or the bare id. */
	const char *colon = strstr(full, ": ");
	r->id = colon ? strndup(full, (size_t)(colon - full)) : strdup(full);
	if (!r->id)
		rd->failed = true;
	r->title = colon && colon[2] ? dup_or_null(rd, colon + 2) : NULL;
	r->seconds = time ? num_parse(time, NULL) : 0.0;
	xmlFree(name);
	xmlFree(time);
	if (!r->id)
		return;
	const char *id = r->id;

	r->verdict = verdict_of(get(ps, "%s.verdict", id), case_verdict(tc));
	r->probe = dup_or_null(rd, get(ps, "%s.probe", id) ?: "?");
	r->policy = dup_or_null(rd, get(ps, "%s.policy", id) ?: "?");
	uint64_t cpu;
	r->cpu = parse_u64(get(ps, "%s.cpu", id), &cpu) && cpu < 1u << 20 ? (int)cpu : -1;
	r->source = dup_or_null(rd, get(ps, "%s.source", id));
	r->reason = dup_or_null(rd, get(ps, "%s.reason", id));
	r->note = dup_or_null(rd, get(ps, "%s.note", id));
	r->load = dup_or_null(rd, get(ps, "%s.load.command", id));
	read_params(rd, ps, id, r);
	read_limits(rd, ps, id, r);

	const char *metrics = get(ps, "%s.metrics", id);
	if (!metrics)
		return;
	r->measured = true;
	uint64_t runs = 0;
	parse_u64(get(ps, "%s.runs", id), &runs);
	r->runs = runs > RTC_MAX_RUNS ? RTC_MAX_RUNS : (uint32_t)runs;
	r->batch_mean_ns = value_of(get(ps, "%s.batch.runs_mean_ns", id));
	r->batch_stddev_ns = value_of(get(ps, "%s.batch.runs_stddev_ns", id));
	read_values(rd, get(ps, "%s.batch.per_run_ns", id), &r->batch_run_ns, r->runs);

	size_t nm = count_items(metrics, ',');
	if (nm > PROBE_MAX_METRICS)
		nm = PROBE_MAX_METRICS;
	if (!nm)
		return;
	char *copy = strdup(metrics);
	char *items[PROBE_MAX_METRICS];
	r->metrics = calloc(nm, sizeof *r->metrics);
	if (!copy || !r->metrics) {
		free(copy);
		rd->failed = true;
		return;
	}
	size_t n = split(copy, ',', items, nm);
	for (size_t i = 0; i < n; i++) {
		r->metrics[i].name = dup_or_null(rd, items[i]);
		r->nmetrics++;
		if (r->metrics[i].name)
			read_metric(rd, ps, id, &r->metrics[i]);
	}
	free(copy);
	read_series(rd, ps, id, r);
}

static int read_suite(struct reader *rd, const xmlNode *suite, struct report_view *v,
		      bool first)
{
	struct props ps;
	if (props_load(suite, &ps) != 0) {
		props_free(&ps);
		return -ENOMEM;
	}
	/* The environment is what comes before requirements.path; every
	 * suite repeats it, so the first one's is taken. */
	if (first)
		for (size_t i = 0; i < ps.n && strcmp(ps.p[i].name, "requirements.path"); i++)
			fingerprint_add(&v->env, ps.p[i].name, "%s", ps.p[i].value);

	struct rv_file *f = &v->files[v->nfiles++];
	char *name = attr(suite, "name");
	f->name = dup_or_null(rd, name ? name : "rtconform");
	xmlFree(name);
	f->path = dup_or_null(rd, get(&ps, "requirements.path") ?: "");
	f->version = dup_or_null(rd, get(&ps, "requirements.version"));
	f->sha256 = dup_or_null(rd, get(&ps, "requirements.sha256") ?: "");

	size_t n = 0;
	for (const xmlNode *c = suite->children; c; c = c->next)
		n += is_elem(c, "testcase");
	if (n) {
		f->reqs = calloc(n, sizeof *f->reqs);
		if (!f->reqs) {
			props_free(&ps);
			return -ENOMEM;
		}
	}
	for (const xmlNode *c = suite->children; c; c = c->next)
		if (is_elem(c, "testcase"))
			read_req(rd, &ps, c, &f->reqs[f->nreqs++]);
	props_free(&ps);
	return rd->failed ? -ENOMEM : 0;
}

int report_view_from_junit(const char *path, struct report_view *v, char *err, size_t errlen)
{
	int rc;
	memset(v, 0, sizeof *v);
	xmlDocPtr doc = parse_junit(path, err, errlen, &rc);
	if (!doc)
		return rc;
	struct reader rd = { 0 };
	const xmlNode *root = xmlDocGetRootElement(doc);
	size_t nsuites = 0;
	if (!root || !is_elem(root, "testsuites") || root->ns) {
		snprintf(err, errlen, "%s: not a junit.xml (the root element is not <testsuites>)",
			 path);
		rc = -EINVAL;
		goto out;
	}
	for (const xmlNode *c = root->children; c; c = c->next)
		nsuites += is_elem(c, "testsuite");
	if (nsuites) {
		v->files = calloc(nsuites, sizeof *v->files);
		if (!v->files) {
			rc = -ENOMEM;
			snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
			goto out;
		}
	}
	for (const xmlNode *c = root->children; c; c = c->next) {
		if (!is_elem(c, "testsuite"))
			continue;
		rc = read_suite(&rd, c, v, v->nfiles == 0);
		if (rc) {
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			goto out;
		}
	}
	/* Without our properties there is nothing to draw a histogram from;
	 * say so rather than render an empty report. */
	if (!fingerprint_get(&v->env, "rtconform.version")) {
		snprintf(err, errlen,
			 "%s: not written by rtconform run (no rtconform.version property)", path);
		rc = -EINVAL;
		goto out;
	}
	rc = 0;
out:
	if (rc)
		report_view_free(v);
	xmlFreeDoc(doc);
	return rc;
}
