/* verdict.c - see verdict.h. */
#include "harness/verdict.h"

#include <stdio.h>
#include <string.h>

#include "harness/runner.h"
#include "harness/stats.h"

static const struct {
	const char *name, *label;
} verdicts[] = {
	[VERDICT_PASS] = { "pass", "PASS" },
	[VERDICT_FAIL] = { "fail", "FAIL" },
	[VERDICT_ERROR] = { "error", "ERROR" },
	[VERDICT_SKIPPED] = { "skipped", "SKIP" },
};

#define NVERDICTS (sizeof verdicts / sizeof verdicts[0])

const char *verdict_name(enum verdict v)
{
	return (unsigned)v < NVERDICTS ? verdicts[v].name : "?";
}

const char *verdict_label(enum verdict v)
{
	return (unsigned)v < NVERDICTS ? verdicts[v].label : "?";
}

bool verdict_parse(const char *s, enum verdict *out)
{
	for (unsigned i = 0; s && i < NVERDICTS; i++)
		if (strcmp(s, verdicts[i].name) == 0) {
			*out = (enum verdict)i;
			return true;
		}
	return false;
}

int verdict_exit_status(size_t failures, size_t errors)
{
	if (errors)
		return EXIT_NOT_MEASURED;
	return failures ? EXIT_FAILED : EXIT_PASS;
}

const char *verdict_exit_meaning(int status)
{
	switch (status) {
	case EXIT_PASS:
		return "every requirement passed";
	case EXIT_FAILED:
		return "at least one requirement failed its limits";
	case EXIT_USAGE:
		return "usage error or invalid input";
	case EXIT_NOT_MEASURED:
		return "at least one requirement could not be measured";
	}
	return "?";
}

bool limit_in_cycles(const struct req_limit *l)
{
	return (l->has_max ? l->max.unit : l->min.unit) == QTY_CYCLES;
}

enum verdict limit_verdict(enum verdict req_verdict, bool evaluated, bool passed)
{
	if (req_verdict == VERDICT_ERROR || req_verdict == VERDICT_SKIPPED)
		return req_verdict;
	if (!evaluated)
		return VERDICT_ERROR;
	return passed ? VERDICT_PASS : VERDICT_FAIL;
}

void verdict_judge(struct req_result *out)
{
	if (out->verdict == VERDICT_ERROR || out->verdict == VERDICT_SKIPPED)
		return;
	const struct requirement *r = out->req;
	bool failed = false, errored = false;
	char *fails = out->reason;
	size_t flen = sizeof out->reason;
	fails[0] = 0;
	for (size_t i = 0; i < r->nlimits; i++) {
		const struct req_limit *l = &r->limits[i];
		struct limit_outcome *lo = &out->limits[i];
		int mi = out->probe ? decl_metric_index(&out->probe->decl, l->metric) : -1;
		char st[32];
		stat_name(&l->stat, st, sizeof st);
		bool cycles = limit_in_cycles(l);
		if (mi < 0 || !out->res || (unsigned)mi >= out->res->nmetrics) {
			snprintf(lo->text, sizeof lo->text, "no metric '%s'", l->metric ? l->metric : "?");
			errored = true;
			continue;
		}
		const struct metric_data *m = result_metric_c(out->res, (unsigned)mi);
		double v;
		if (!stat_value(m, &l->stat, cycles, &v)) {
			snprintf(lo->text, sizeof lo->text,
				 "%s %s cannot be computed from %llu samples%s", st,
				 out->probe->decl.metrics[mi].name, (unsigned long long)m->hist.count,
				 cycles && m->cycles_per_unit == 0 ? " (cycles need the TSC timebase)" : "");
			errored = true;
			continue;
		}
		lo->evaluated = true;
		lo->measured = v;
		char mv[40], bound[40];
		struct quantity q = { v, cycles ? QTY_CYCLES : QTY_NS };
		fmt_qty(&q, mv, sizeof mv);
		bool ok = true;
		if (l->has_max && v > l->max.value) {
			fmt_qty(&l->max, bound, sizeof bound);
			snprintf(lo->text, sizeof lo->text, "%s %s > %s (n=%llu)", st, mv, bound,
				 (unsigned long long)m->hist.count);
			ok = false;
		} else if (l->has_min && v < l->min.value) {
			fmt_qty(&l->min, bound, sizeof bound);
			snprintf(lo->text, sizeof lo->text, "%s %s < %s (n=%llu)", st, mv, bound,
				 (unsigned long long)m->hist.count);
			ok = false;
		} else {
			if (l->has_max)
				fmt_qty(&l->max, bound, sizeof bound);
			else
				fmt_qty(&l->min, bound, sizeof bound);
			snprintf(lo->text, sizeof lo->text, "%s %s %s %s (n=%llu)", st, mv,
				 l->has_max ? "<=" : ">=", bound, (unsigned long long)m->hist.count);
		}
		lo->passed = ok;
		if (!ok) {
			size_t used = strlen(fails);
			snprintf(fails + used, flen - used, "%s%s", used ? "; " : "", lo->text);
			failed = true;
		}
	}
	if (errored) {
		out->verdict = VERDICT_ERROR;
		size_t used = strlen(fails);
		for (size_t i = 0; i < r->nlimits; i++)
			if (!out->limits[i].evaluated) {
				snprintf(fails + used, flen - used, "%s%s", used ? "; " : "",
					 out->limits[i].text);
				used = strlen(fails);
			}
	} else {
		out->verdict = failed ? VERDICT_FAIL : VERDICT_PASS;
	}
}
