/* SPDX-License-Identifier: Apache-2.0 */
/* list.c - `rtconform list`: the probes with their parameters and metrics,
 * or the requirements of one file. */
#include "cli/cli.h"
#include "cli/options.h"
#include "base/termsafe.h"

#include <stdio.h>
#include <string.h>

#include "base/quote.h"
#include "base/units.h"
#include "harness/measure/probes/probes.h"

static void list_metric(const struct probe_metric *m, bool first)
{
	termsafe_println(stdout, "    metric %-11s (%s) %s%s", m->name, probe_decl_metric_kind_name(m->kind),
		     m->help, first ? " [default]" : "");
}

static void list_probes(void)
{
	for (size_t i = 0; i < probe_count; i++) {
		const struct probe *p = probe_table[i];
		printf("%s\n    %s\n", p->decl.name, p->decl.help);
		for (size_t j = 0; j < p->decl.nparams; j++) {
			const struct probe_param *pp = &p->decl.params[j];
			printf("    param %-12s ", pp->name);
			if (pp->kind == PARAM_ENUM) {
				for (size_t k = 0; pp->values[k]; k++)
					printf("%s%s", k ? "|" : "", pp->values[k]);
			} else {
				printf("%s", pp->kind == PARAM_COUNT ? "<count>"
					     : pp->kind == PARAM_DURATION ? "<duration>"
									  : "<cpu list>");
			}
			termsafe_println(stdout, " (default %s): %s", pp->def, pp->help);
		}
		for (size_t j = 0; j < p->decl.nmetrics; j++)
			list_metric(&p->decl.metrics[j], j == 0);
		printf("    runs     %s\n", p->decl.by_time ? "by count (runs=) or by time (duration=)"
							    : "by count only (runs=)");
		termsafe_println(stdout, "    verifies at the kernel before measuring: the worker's "
			     "policy, priority and CPUs; %s", p->decl.verifies ? p->decl.verifies
									: "nothing else");
		char why[300];
		if (p->supported && p->supported(why, sizeof why))
			termsafe_println(stdout, "    not available here: %s", why);
		putchar('\n');
	}
	/* Not a probe: the line starts with a capital, which no probe name does. */
	printf("Harness metrics: every probe has these after its own metrics\n");
	for (size_t j = 0; j < PROBE_HARNESS_METRICS; j++)
		list_metric(&probe_decl_harness_metrics[j], false);
}

/* One line per requirement (id, probe, policy:priority, counts, parameters),
 * then one per limit; the id and probe columns as wide as their longest
 * entry, so a long id never pushes its line out of step. */
static void list_file(const struct req_file *f)
{
	int wid = 0, wprobe = 0;
	for (size_t i = 0; i < f->nreqs; i++) {
		int n = (int)strlen(f->reqs[i].id), m = (int)strlen(f->reqs[i].probe);
		wid = n > wid ? n : wid;
		wprobe = m > wprobe ? m : wprobe;
	}
	termsafe_println(stdout, "%s: %s%s%s", f->path, f->name ? f->name : "", f->title ? " - " : "",
	       f->title ? f->title : "");
	for (size_t i = 0; i < f->nreqs; i++) {
		const struct requirement *r = &f->reqs[i];
		termsafe_print(stdout, "%-*s %-*s %s", wid, r->id, wprobe, r->probe,
			       policy_name(r->policy));
		if (r->policy != POLICY_OTHER) {
			if (r->priority_max)
				printf(":max");
			else
				printf(":%d", r->priority);
		}
		if (r->duration_ns) {
			char d[32];
			units_fmt_ns((double)r->duration_ns, d, sizeof d);
			printf("  %llux for %s", (unsigned long long)r->iterations, d);
		} else {
			printf("  %llux%llu", (unsigned long long)r->iterations,
			       (unsigned long long)r->runs);
		}
		for (size_t j = 0; j < r->nparams; j++)
			termsafe_print(stdout, " %s=%s", r->params[j].name, r->params[j].value);
		putchar('\n');
		for (size_t j = 0; j < r->nlimits; j++) {
			const struct req_limit *l = &r->limits[j];
			char at[24] = "";
			if (l->confidence > 0)
				snprintf(at, sizeof at, " at %g%%", l->confidence * 100);
			termsafe_println(stdout, "%*s limit %s %s%s%s%s%s%s", wid, "",
			       l->metric ? l->metric : "(default)",
			       l->stat_text, l->has_min ? " >= " : "", l->has_min ? l->min_text : "",
			       l->has_max ? " <= " : "", l->has_max ? l->max_text : "", at);
		}
	}
}

/* More than one argument: say what is wrong with them, exit status 2.
 * --profiles lists the profiles and takes no file; list shows one file. */
static int list_args_error(int argc, char **argv)
{
	int profiles = 0;
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--profiles"))
			profiles++;
		else if (!file)
			file = argv[i];
	}
	if (profiles > 1)
		termsafe_println(stderr, "rtconform list: --profiles given %d times: give it once",
				 profiles);
	else if (profiles) {
		char cmd[600] = "rtconform list";
		quote_shell_append(cmd, sizeof cmd, file);
		termsafe_println(stderr, "rtconform list: --profiles lists every shipped profile and "
				 "takes no file or profile; for the requirements of '%s': %s", file,
				 cmd);
	}
	else
		termsafe_println(stderr, "rtconform list: %d files given: list shows one at a time "
				 "(usage: rtconform list [FILE | PROFILE | --profiles])", argc - 1);
	return EXIT_USAGE;
}

static const char list_head[] =
	"usage: rtconform list [FILE | PROFILE | --profiles]\n\n"
	"Without FILE: every probe with its parameters (allowed values, defaults)\n"
	"and metrics (each a duration or a count), then the harness's count\n"
	"metrics every probe has (page faults, involuntary switches). With FILE\n"
	"or a shipped profile's name: its requirements (id, probe, policy,\n"
	"counts, limits). With --profiles: the time is an estimate from each\n"
	"requirement's runs, iterations (or duration), its probe's usual pace and\n"
	"the rests the RT throttling guard takes on this machine, not a measurement.\n";

int cmd_list(int argc, char **argv, const struct cli_ctx *ctx)
{
	if (cli_wants_help(argc, argv)) {
		cli_usage(stdout, &cli_opts_list, list_head, NULL);
		return 0;
	}
	if (argc > 2)
		return list_args_error(argc, argv);
	if (argc == 1) {
		list_probes();
		return 0;
	}
	if (!strcmp(argv[1], "--profiles"))
		return cli_list_profiles(ctx);
	if (argv[1][0] == '-' && argv[1][1]) {
		termsafe_println(stderr, "rtconform list: unknown option '%s' (see rtconform list --help)",
			     argv[1]);
		return EXIT_USAGE;
	}
	struct req_file **files;
	size_t n;
	int rc = cli_load_all(ctx, argv + 1, 1, &files, &n);
	if (rc)
		return rc;
	list_file(files[0]);
	cli_free_files(files, n);
	return 0;
}
