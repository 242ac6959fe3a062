/* SPDX-License-Identifier: Apache-2.0 */
/* validate.c - `rtconform validate`: check requirement files, measure
 * nothing; say what the samples each percentile limit will take can
 * establish, and (--plan) how many it needs (harness/plan.h). */
#include "cli/cli.h"
#include "cli/options.h"
#include "base/termsafe.h"
#include "base/units.h"
#include "harness/measure/probes/probes.h"
#include "harness/plan.h"
#include "requirements/validate.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* "p99.9 of wakeup" for limit l of r. */
static void limit_name(const struct requirement *r, const struct req_limit *l, char *buf,
		       size_t len)
{
	const char *metric = l->metric;
	const struct probe *pr = probe_find(r->probe);
	if (!metric && pr) {
		const struct probe_metric *m = probe_decl_metric(&pr->decl, 0);
		metric = m ? m->name : "?";
	}
	snprintf(buf, len, "%s of %s", l->stat_text ? l->stat_text : "?", metric ? metric : "?");
}

/* Each percentile limit of r: the samples it will take and what they can
 * establish (validate without --plan). */
static void print_samples(const struct requirement *r)
{
	char name[200], setting[400], what[600];
	for (size_t k = 0; k < r->nlimits; k++) {
		const struct req_limit *l = &r->limits[k];
		struct plan_limit p;
		if (!plan_limit(r, l, NULL, &p))
			continue;
		limit_name(r, l, name, sizeof name);
		plan_setting_text(&p, setting, sizeof setting);
		termsafe_println(stdout, "  requirement %s, %s: %s", r->id, name, setting);
		if (p.known) {
			plan_describe(p.by_time ? plan_round3(p.samples) : p.samples, p.q, p.level,
				      what, sizeof what);
			termsafe_println(stdout, "    %s", what);
		}
	}
}

/* r's setting against the plan of each of its percentile limits
 * (validate --plan): a line for the requirement, saying whether it reaches
 * the plan, then one a limit. */
static void print_plan(const struct requirement *r)
{
	char name[200], need[400], d[32];
	struct plan_limit p[REQ_MAX_LIMITS];
	bool planned[REQ_MAX_LIMITS];
	size_t n = 0, shortof = 0, unknown = 0, first = 0;
	for (size_t k = 0; k < r->nlimits && k < REQ_MAX_LIMITS; k++) {
		planned[k] = plan_limit(r, &r->limits[k], NULL, &p[k]);
		if (planned[k] && !n++)
			first = k;
		shortof += planned[k] && p[k].known && !p[k].reaches;
		unknown += planned[k] && !p[k].known;
	}
	if (!n) {
		termsafe_println(stdout, "  requirement %s: no percentile limit to plan", r->id);
		return;
	}
	char how[120];
	if (r->duration_ns) {
		units_fmt_ns((double)r->duration_ns, d, sizeof d);
		snprintf(how, sizeof how, "by time, %s", d);
	} else {
		snprintf(how, sizeof how, "by count, %llu runs x %llu iterations",
			 (unsigned long long)p[first].runs, (unsigned long long)p[first].iterations);
	}
	termsafe_println(stdout, "  requirement %s (%s): %s", r->id, how,
			 shortof ? "short of the plan" :
			 unknown ? "cannot be told (no pace)" : "reaches the plan");
	for (size_t k = 0; k < r->nlimits && k < REQ_MAX_LIMITS; k++) {
		if (!planned[k])
			continue;
		limit_name(r, &r->limits[k], name, sizeof name);
		plan_need_text(&p[k], need, sizeof need);
		termsafe_println(stdout, "    %s at %g%% %s", name, p[k].level * 100, need);
	}
}

static const char validate_head[] =
	"usage: rtconform validate [--plan] FILE|PROFILE...\n\n"
	"Check requirement files (or shipped profiles, by name) against the schema\n"
	"and the probe table; measure nothing. Prints one 'file:line: message' per\n"
	"problem, and 'file:line: warning: ...' for what is valid but may make a\n"
	"verdict an error (a percentile a run by time, or on too few CPUs, may take\n"
	"too few samples for).\n\n"
	"Of a valid file it then says, for each percentile limit, how many samples\n"
	"the requirement will take (iterations x runs x samples an iteration; a run\n"
	"by time: an estimate from the probe's pace) and what they can establish:\n"
	"which largest sample the estimate is, which its 95% upper bound is (or\n"
	"that there are too few samples for one), and at about how many samples\n"
	"the bound comes within 10% of the estimate's rank.\n";

static const char validate_tail[] =
	"docs/measurement.md, 'Confidence bounds, planning and what the maximum\n"
	"means', has the rule.\n\n"
	"exit status: 0 every file valid (warnings, or a setting short of the plan,\n"
	"or not), 2 a problem was found\n";

int cmd_validate(int argc, char **argv, const struct cli_ctx *ctx)
{
	bool plan = false;
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_validate, argc, argv)) != -1) {
		if (c == 'p') {
			plan = true;
		} else if (c == CLI_OPT_HELP) {
			cli_usage(stdout, &cli_opts_validate, validate_head, validate_tail);
			return 0;
		} else {
			return cli_getopt_error("validate", c, argv);
		}
	}
	int nfiles = argc - optind;
	if (nfiles < 1) {
		termsafe_println(stderr, "rtconform validate: no file given (usage: rtconform validate "
				 "[--plan] FILE...)");
		return EXIT_USAGE;
	}
	struct req_file **files;
	size_t n;
	int rc = cli_load_all(ctx, argv + optind, nfiles, &files, &n);
	if (rc)
		return rc;
	struct diag_list d = { 0 };
	for (size_t i = 0; i < n; i++)
		validate_warnings(files[i], &probe_catalog, &d);
	for (size_t i = 0; i < d.n; i++)
		termsafe_println(stderr, "%s", d.msgs[i]);
	diag_free(&d);
	for (size_t i = 0; i < n; i++) {
		termsafe_println(stdout, "%s: valid (%zu requirement%s)", files[i]->path,
				 files[i]->nreqs, files[i]->nreqs == 1 ? "" : "s");
		for (size_t k = 0; k < files[i]->nreqs; k++)
			(plan ? print_plan : print_samples)(&files[i]->reqs[k]);
	}
	cli_free_files(files, n);
	return 0;
}
