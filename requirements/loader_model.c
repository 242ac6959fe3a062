/* SPDX-License-Identifier: Apache-2.0 */
/* loader_model.c - stage 5 of the loader (loader.c has stages 1 to 4): the
 * model built from a document that is well-formed, safe and valid against
 * the schema, and its values checked (units, counts, priorities, limits,
 * samples enough for each statistic), every problem reported with its
 * line. Also the <sched> rules the command line shares (req_policy_parse,
 * req_priority_parse). */
#include "requirements/loader.h"
#include "requirements/loader_model.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERRLEN 256

/* Like diag_add: a failed small allocation leaves nothing sane to report. */
static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		fputs("rtconform: out of memory loading requirements\n", stderr);
		abort();
	}
	return d;
}

/* Copy with leading and trailing XML whitespace removed; with `collapse`,
 * inner runs become one space (titles written over several lines). */
static char *tidy_copy(const char *s, bool collapse)
{
	size_t n = strlen(s);
	char *d = xstrdup(s), *o = d;
	const char *p = s, *end = s + n;

	while (p < end && loader_is_xml_space(*p))
		p++;
	while (end > p && loader_is_xml_space(end[-1]))
		end--;
	for (; p < end; p++) {
		if (collapse && loader_is_xml_space(*p)) {
			if (o > d && o[-1] == ' ')
				continue;
			*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return d;
}

struct builder {
	const char *file;
	struct diag_list *diags;
};

/* Effective run settings; `bad` records which came from an invalid attribute
 * so the percentile check does not pile a second error on the first. */
struct run_cfg {
	uint64_t iterations, runs, warmup, timeout_ns;
	uint64_t duration_ns; /* 0: by count */
	long duration_line;
	uint64_t interval_ns; /* 0: the default (intervals of a run by time) */
	double confidence;    /* <defaults confidence=>: of percentile limits; 0: none */
	bool bad;
};

static bool is_el(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
	       strcmp((const char *)n->ns->href, RTC_NS) == 0 &&
	       strcmp((const char *)n->name, name) == 0;
}

/* Attribute value, trimmed, malloc'd; NULL when absent. */
static char *attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
	if (!v)
		return NULL;
	char *d = tidy_copy((const char *)v, false);
	xmlFree(v);
	return d;
}

static char *text(xmlNodePtr n, bool collapse)
{
	xmlChar *v = xmlNodeGetContent(n);
	char *d = tidy_copy(v ? (const char *)v : "", collapse);
	xmlFree(v);
	return d;
}

/* A count attribute: absent leaves *out alone. warmup may be 0. */
static void count_attr(struct builder *b, xmlNodePtr n, const char *name, uint64_t max,
		       bool allow_zero, uint64_t *out, bool *bad)
{
	char err[ERRLEN];
	char *v = attr(n, name);
	uint64_t x;

	if (!v)
		return;
	if (units_count_parse_range(v, allow_zero ? 0 : 1, max, &x, err, sizeof err) == 0) {
		*out = x;
	} else {
		diag_add(b->diags, b->file, loader_line_of(n), "%s=\"%s\": %s", name, v, err);
		*bad = true;
	}
	free(v);
}

/* runs= and duration= are one setting, how long a requirement runs: the
 * element that gives either replaces what an outer one gave; one element
 * may not give both. */
static void run_length_attrs(struct builder *b, xmlNodePtr n, struct run_cfg *cfg)
{
	char err[ERRLEN];
	char *runs = attr(n, "runs"), *dur = attr(n, "duration");
	if (runs && dur) {
		diag_add(b->diags, b->file, loader_line_of(n),
			 "runs=\"%s\" and duration=\"%s\": give one, not both (a run by time "
			 "does runs of `iterations` samples until the duration is up)", runs, dur);
		cfg->bad = true;
	} else if (runs) {
		count_attr(b, n, "runs", RTC_MAX_RUNS, false, &cfg->runs, &cfg->bad);
		cfg->duration_ns = 0;
	} else if (dur) {
		uint64_t ns;
		if (units_run_duration_parse(dur, &ns, err, sizeof err) == 0) {
			cfg->duration_ns = ns;
			cfg->duration_line = loader_line_of(n);
		} else {
			diag_add(b->diags, b->file, loader_line_of(n), "duration=\"%s\": %s", dur, err);
			cfg->bad = true;
		}
	}
	free(runs);
	free(dur);
}

static void run_attrs(struct builder *b, xmlNodePtr n, struct run_cfg *cfg)
{
	char err[ERRLEN];
	char *v;

	count_attr(b, n, "iterations", REQ_MAX_ITERATIONS, false, &cfg->iterations, &cfg->bad);
	count_attr(b, n, "warmup", REQ_MAX_ITERATIONS, true, &cfg->warmup, &cfg->bad);
	run_length_attrs(b, n, cfg);
	v = attr(n, "interval");
	if (v) {
		uint64_t ns;
		if (units_run_duration_parse(v, &ns, err, sizeof err) == 0)
			cfg->interval_ns = ns;
		else
			diag_add(b->diags, b->file, loader_line_of(n), "interval=\"%s\": %s", v, err);
		free(v);
	}
	v = attr(n, "timeout");
	if (v) {
		uint64_t ns;
		if (units_duration_parse_ns(v, false, &ns, err, sizeof err) == 0)
			cfg->timeout_ns = ns;
		else
			diag_add(b->diags, b->file, loader_line_of(n), "timeout=\"%s\": %s", v, err);
		free(v);
	}
}

/* confidence="95%": digits, an optional decimal part, then %; strictly
 * between 50% and 100% (a two-sided interval at 50% or below is narrower
 * than the point estimate's own doubt, and 100% no finite sample gives).
 * The level (0.95) in *out; 0 and why in err when it is none. */
static int confidence_parse(const char *s, double *out, char *err, size_t len)
{
	size_t i = 0, digits = 0;
	while (s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (s[i] == '.' && digits) {
		size_t d = ++i;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
		digits = i > d ? digits : 0;
	}
	if (!digits || s[i] != '%' || s[i + 1] || i > 12) {
		snprintf(err, len, "not a percentage (write it as digits and %%, e.g. 95%% or 99.9%%)");
		return -1;
	}
	/* Every report gives the level with 6 significant digits (%g): a
	 * level of more would read as another ("99.99999999%" as 100%). */
	size_t sig = 0, end = i;
	if (memchr(s, '.', i))
		while (end > 0 && (s[end - 1] == '0' || s[end - 1] == '.'))
			end--; /* trailing zeros of the decimal part say nothing */
	for (size_t k = 0, lead = 1; k < end; k++) {
		if (s[k] == '.')
			continue;
		lead &= s[k] == '0';
		sig += !lead;
	}
	if (sig > 6) {
		snprintf(err, len, "too many digits: at most 6 significant digits (e.g. 99.9999%%), "
			 "as the reports give it");
		return -1;
	}
	double v = strtod(s, NULL);
	if (!(v > 50 && v < 100)) {
		snprintf(err, len, "must lie strictly between 50%% and 100%% (e.g. 90%%, 95%%, 99%%)");
		return -1;
	}
	*out = v / 100;
	return 0;
}

/* <defaults confidence="95%">: the confidence of every percentile limit
 * that gives none of its own. */
static void defaults_confidence(struct builder *b, xmlNodePtr n, struct run_cfg *cfg)
{
	char err[ERRLEN];
	char *v = attr(n, "confidence");
	if (v && confidence_parse(v, &cfg->confidence, err, sizeof err) != 0)
		diag_add(b->diags, b->file, loader_line_of(n), "<defaults> confidence=\"%s\": %s",
			 v, err);
	free(v);
}

/* A limit's confidence=, else the default for a percentile. */
static void limit_confidence(struct builder *b, xmlNodePtr n, struct req_limit *l,
			     bool stat_ok, const struct run_cfg *cfg)
{
	char err[ERRLEN];
	long line = loader_line_of(n);
	l->confidence_text = attr(n, "confidence");
	if (!l->confidence_text) {
		if (stat_ok && l->stat.kind == STAT_PCT)
			l->confidence = cfg->confidence;
		return;
	}
	if (confidence_parse(l->confidence_text, &l->confidence, err, sizeof err) != 0)
		diag_add(b->diags, b->file, line, "confidence=\"%s\": %s", l->confidence_text, err);
	else if (stat_ok && l->stat.kind != STAT_PCT)
		diag_add(b->diags, b->file, line,
			 "confidence=\"%s\" on statistic %s: the observed %s is not a quantile, so "
			 "no confidence bound applies (confidence= is for percentiles, pNN)",
			 l->confidence_text, l->stat_text, l->stat_text);
	if (!stat_ok || l->stat.kind != STAT_PCT)
		l->confidence = 0;
}

static struct req_load *load_el(xmlNodePtr n)
{
	struct req_load *l = calloc(1, sizeof *l);
	if (!l) {
		fputs("rtconform: out of memory loading requirements\n", stderr);
		abort();
	}
	l->tool = attr(n, "tool");
	if (!l->tool)
		l->tool = xstrdup("");
	l->args = attr(n, "args");
	l->line = loader_line_of(n);
	return l;
}

static void probe_el(struct builder *b, xmlNodePtr n, struct requirement *r)
{
	r->probe = attr(n, "name");
	if (!r->probe)
		r->probe = xstrdup("");
	r->probe_line = loader_line_of(n);
	for (xmlNodePtr c = n->children; c; c = c->next) {
		if (!is_el(c, "param"))
			continue;
		long line = loader_line_of(c);
		if (r->nparams == REQ_MAX_PARAMS) { /* the schema caps it; be sure */
			diag_add(b->diags, b->file, line, "more than %d parameters", REQ_MAX_PARAMS);
			break;
		}
		struct req_param *p = &r->params[r->nparams];
		p->name = attr(c, "name");
		if (!p->name)
			p->name = xstrdup("");
		p->value = text(c, false);
		p->line = line;
		for (size_t i = 0; i < r->nparams; i++)
			if (strcmp(r->params[i].name, p->name) == 0) {
				diag_add(b->diags, b->file, line,
					 "duplicate parameter '%s' (first at line %ld)",
					 p->name, r->params[i].line);
				break;
			}
		r->nparams++;
	}
}

/* <clause ref="..." title="..."/>: the schema bounds both and requires
 * ref; a ref the requirement already cites is refused, naming both lines. */
static void clause_el(struct builder *b, xmlNodePtr n, struct requirement *r)
{
	long line = loader_line_of(n);
	if (r->nclauses == REQ_MAX_CLAUSES) { /* the schema caps it; be sure */
		diag_add(b->diags, b->file, line, "more than %d clauses", REQ_MAX_CLAUSES);
		return;
	}
	struct req_clause *c = &r->clauses[r->nclauses];
	char *ref = attr(n, "ref");
	c->ref = ref ? tidy_copy(ref, true) : xstrdup("");
	free(ref);
	/* The title is an xs:token too: the schema judged it collapsed (its
	 * length, its blanks), so it is kept collapsed; a "&#10;" in it, or
	 * 300 blanks between two words, would otherwise make a results.json
	 * its reader refuses (json_read.c, clause_text). */
	xmlChar *t = xmlGetNoNsProp(n, (const xmlChar *)"title");
	c->title = t ? tidy_copy((const char *)t, true) : NULL;
	xmlFree(t);
	if (c->title && !*c->title) {
		free(c->title);
		c->title = NULL;
	}
	c->line = line;
	if (!*c->ref)
		diag_add(b->diags, b->file, line, "<clause> ref is empty");
	/* XML lets U+007F through; no report may carry a control character */
	if (strchr(c->ref, 0x7f) || (c->title && strchr(c->title, 0x7f)))
		diag_add(b->diags, b->file, line, "<clause> %s holds a control character (U+007F)",
			 strchr(c->ref, 0x7f) ? "ref" : "title");
	for (size_t i = 0; i < r->nclauses; i++)
		if (strcmp(r->clauses[i].ref, c->ref) == 0) {
			diag_add(b->diags, b->file, line,
				 "duplicate clause '%s' (first at line %ld)", c->ref,
				 r->clauses[i].line);
			break;
		}
	r->nclauses++;
}

/* Strict decimal integer, optional leading '-'; false when not one or when
 * it does not fit in an int (callers then say "out of range"). */
static bool parse_int(const char *s, int *out, bool *toolarge)
{
	bool neg = false;
	long long v = 0;

	*toolarge = false;
	if (*s == '-') {
		neg = true;
		s++;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v <= 1000000000LL)
			v = v * 10 + (*s - '0');
		else
			*toolarge = true;
	}
	if (v > 1000000000LL)
		*toolarge = true;
	*out = (int)(neg ? -v : v);
	return true;
}

int req_policy_parse(const char *name, enum sched_policy *out, char *err, size_t len)
{
	static const enum sched_policy all[] = { POLICY_OTHER, POLICY_FIFO, POLICY_RR };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (strcmp(name, policy_name(all[i])) == 0) {
			*out = all[i];
			return 0;
		}
	}
	snprintf(err, len, "unknown scheduling policy '%s' (expected other, fifo or rr)", name);
	return -1;
}

int req_priority_parse(const char *text, struct requirement *r, char *err, size_t len)
{
	int v;
	bool big;

	if (r->policy == POLICY_OTHER) {
		r->priority = 0;
		if (!text || (parse_int(text, &v, &big) && !big && v == 0))
			return 0;
		snprintf(err, len, "priority %s is not allowed for other (SCHED_OTHER has no "
			 "priority levels: leave it out or write 0)", text);
		return -1;
	}
	int sp = req_sched_policy(r->policy);
	int lo = sched_get_priority_min(sp), hi = sched_get_priority_max(sp);
	const char *pn = policy_name(r->policy);
	if (lo < 0 || hi < 0) { /* Linux always answers; POSIX says >= 32 levels */
		lo = 1;
		hi = 99;
	}
	if (!text) {
		snprintf(err, len, "policy %s needs a priority (expected %d..%d or max)", pn, lo, hi);
	} else if (strcmp(text, "max") == 0) {
		r->priority_max = true;
		r->priority = hi;
		return 0;
	} else if (!parse_int(text, &v, &big)) {
		snprintf(err, len, "priority '%s' is not a number (expected %d..%d or max)", text,
			 lo, hi);
	} else if (big || v < lo || v > hi) {
		snprintf(err, len, "priority %s is out of range for %s (expected %d..%d or max)",
			 text, pn, lo, hi);
	} else {
		r->priority = v;
		return 0;
	}
	return -1;
}

static void sched_el(struct builder *b, xmlNodePtr n, struct requirement *r)
{
	long line = loader_line_of(n);
	char *policy = attr(n, "policy");
	char *prio = attr(n, "priority");
	char *cpu = attr(n, "cpu");
	char err[ERRLEN];

	r->sched_line = line;
	/* The schema requires policy=; a missing one would mean other. */
	if (req_policy_parse(policy ? policy : "other", &r->policy, err, sizeof err) != 0 ||
	    req_priority_parse(prio, r, err, sizeof err) != 0)
		diag_add(b->diags, b->file, line, "%s", err);

	if (cpu) {
		int v;
		bool big;
		if (!parse_int(cpu, &v, &big) || big || v < 0 || v >= CPU_SETSIZE)
			diag_add(b->diags, b->file, line,
				 "cpu '%s' is not a CPU number (expected 0..%d)", cpu, CPU_SETSIZE - 1);
		else
			r->cpu = v;
	}
	free(policy);
	free(prio);
	free(cpu);
}

static void limit_el(struct builder *b, xmlNodePtr n, struct requirement *r,
		     const struct run_cfg *cfg)
{
	long line = loader_line_of(n);
	char err[ERRLEN];
	bool stat_ok = false;

	if (r->nlimits == REQ_MAX_LIMITS) { /* the schema caps it; be sure */
		diag_add(b->diags, b->file, line, "more than %d limits", REQ_MAX_LIMITS);
		return;
	}
	struct req_limit *l = &r->limits[r->nlimits++];
	l->line = line;
	l->metric = attr(n, "metric");
	l->stat_text = attr(n, "statistic");
	if (!l->stat_text)
		l->stat_text = xstrdup("");
	l->max_text = attr(n, "max");
	l->min_text = attr(n, "min");

	if (statistic_parse(l->stat_text, &l->stat) == 0)
		stat_ok = true;
	else
		diag_add(b->diags, b->file, line, "unknown statistic '%s' (expected %s)",
			 l->stat_text, STAT_LIST_ALL);

	limit_confidence(b, n, l, stat_ok, cfg);
	if (!l->max_text && !l->min_text)
		diag_add(b->diags, b->file, line,
			 "limit on %s needs max= or min= (or both)", l->stat_text);
	if (l->max_text) {
		if (units_bound_parse(l->max_text, &l->max, err, sizeof err) == 0)
			l->has_max = true;
		else
			diag_add(b->diags, b->file, line, "max=\"%s\": %s", l->max_text, err);
	}
	if (l->min_text) {
		if (units_bound_parse(l->min_text, &l->min, err, sizeof err) == 0)
			l->has_min = true;
		else
			diag_add(b->diags, b->file, line, "min=\"%s\": %s", l->min_text, err);
	}
	/* One limit is judged in one unit: a time against a cycle count would
	 * compare numbers of different kinds. A bare number is a count, which
	 * the metric's kind must agree with (the validator knows it). */
	if (l->has_max && l->has_min && l->max.unit != l->min.unit)
		diag_add(b->diags, b->file, line,
			 "min=\"%s\" and max=\"%s\" mix %s (give both in time units, both in "
			 "cycles or both without a unit, or write two limits)", l->min_text,
			 l->max_text, l->max.unit != QTY_COUNT && l->min.unit != QTY_COUNT
					      ? "a duration and a cycle count"
					      : "a number with a unit and one without");
	else if (l->has_max && l->has_min && l->min.value > l->max.value)
		diag_add(b->diags, b->file, line,
			 "min=\"%s\" is greater than max=\"%s\" (no value can pass)",
			 l->min_text, l->max_text);

	/* Whether the samples are enough for a percentile depends on the
	 * probe's metric (samples an iteration): validate_file's to say
	 * (validate_samples_short). The runs are known here. */
	if (!stat_ok || cfg->bad || cfg->duration_ns)
		return;
	if (l->stat.kind == STAT_RUNS_MEAN_STDDEV && cfg->runs < 2)
		diag_add(b->diags, b->file, line,
			 "%s needs at least 2 runs, this requirement has %llu",
			 l->stat_text, (unsigned long long)cfg->runs);
}

/* <trace metric="..." threshold="100us"/>: the threshold is a duration
 * (a cycle count would need the timebase, which only the run knows). */
static void trace_el(struct builder *b, xmlNodePtr n, struct requirement *r)
{
	char err[ERRLEN];
	struct req_trace *t = &r->trace;
	t->wanted = true;
	t->line = loader_line_of(n);
	t->metric = attr(n, "metric");
	t->threshold_text = attr(n, "threshold");
	if (!t->threshold_text)
		return;
	uint64_t ns;
	if (units_duration_parse_ns(t->threshold_text, false, &ns, err, sizeof err) == 0) {
		t->has_threshold = true;
		t->threshold_ns = (double)ns;
	} else {
		diag_add(b->diags, b->file, t->line, "<trace> threshold=\"%s\": %s",
			 t->threshold_text, err);
	}
}

static void requirement_el(struct builder *b, xmlNodePtr n, struct requirement *r,
			   const struct run_cfg *defaults, struct req_load *file_load)
{
	struct run_cfg cfg = *defaults;
	xmlNodePtr c;

	r->line = loader_line_of(n);
	r->id = attr(n, "id");
	if (!r->id)
		r->id = xstrdup("");
	r->policy = POLICY_OTHER;
	r->cpu = -1;
	r->load = file_load;
	r->load_owned = false;

	/* Document order, so diagnostics come out in line order; the schema
	 * puts <run> before the <limit>s that need its counts. */
	for (c = n->children; c; c = c->next) {
		if (is_el(c, "title")) {
			free(r->title);
			r->title = text(c, true);
		} else if (is_el(c, "source")) {
			free(r->source);
			r->source = text(c, true);
		} else if (is_el(c, "clause")) {
			clause_el(b, c, r);
		} else if (is_el(c, "probe")) {
			probe_el(b, c, r);
		} else if (is_el(c, "sched")) {
			sched_el(b, c, r);
		} else if (is_el(c, "run")) {
			run_attrs(b, c, &cfg);
		} else if (is_el(c, "load")) {
			if (r->load_owned) /* schema allows one; be sure */
				continue;
			r->load = load_el(c);
			r->load_owned = true;
		} else if (is_el(c, "limit")) {
			limit_el(b, c, r, &cfg);
		} else if (is_el(c, "trace")) {
			trace_el(b, c, r);
		}
	}
	if (!r->probe) {
		r->probe = xstrdup("");
		r->probe_line = r->line;
	}
	r->iterations = cfg.iterations;
	r->runs = cfg.runs;
	r->warmup = cfg.warmup;
	r->timeout_ns = cfg.timeout_ns;
	r->duration_ns = cfg.duration_ns;
	r->duration_line = cfg.duration_line;
	r->interval_ns = cfg.interval_ns;
}

struct req_file *loader_build(xmlDocPtr doc, const char *file, struct diag_list *diags)
{
	struct builder b = { .file = file, .diags = diags };
	struct run_cfg defaults = {
		.iterations = REQ_DEFAULT_ITERATIONS,
		.runs = REQ_DEFAULT_RUNS,
		.warmup = REQ_DEFAULT_WARMUP,
		.timeout_ns = REQ_DEFAULT_TIMEOUT_NS,
	};
	xmlNodePtr root = xmlDocGetRootElement(doc), c;
	struct req_file *f = calloc(1, sizeof *f);
	size_t count = 0;

	if (!f) {
		diag_add(diags, file, 0, "out of memory");
		return NULL;
	}
	f->path = xstrdup(file);
	f->name = attr(root, "name");
	f->version = attr(root, "version");

	for (c = root->children; c; c = c->next) {
		if (is_el(c, "title")) {
			free(f->title);
			f->title = text(c, true);
		} else if (is_el(c, "defaults")) {
			/* A bad default is reported once, here; requirements then
			 * use the built-in value, and their sample checks are
			 * skipped rather than judged on a number nobody wrote. */
			run_attrs(&b, c, &defaults);
			defaults_confidence(&b, c, &defaults);
		} else if (is_el(c, "load")) {
			if (!f->load)
				f->load = load_el(c);
		} else if (is_el(c, "requirement")) {
			count++;
		}
	}

	f->reqs = calloc(count ? count : 1, sizeof *f->reqs);
	if (!f->reqs) {
		diag_add(diags, file, 0, "out of memory");
		req_file_free(f);
		return NULL;
	}
	for (c = root->children; c; c = c->next) {
		if (!is_el(c, "requirement"))
			continue;
		struct requirement *r = &f->reqs[f->nreqs++];
		requirement_el(&b, c, r, &defaults, f->load);
		for (size_t i = 0; i + 1 < f->nreqs; i++)
			if (strcmp(f->reqs[i].id, r->id) == 0) {
				diag_add(diags, file, r->line,
					 "duplicate requirement id '%s' (first at line %ld)",
					 r->id, f->reqs[i].line);
				break;
			}
	}
	return f;
}
