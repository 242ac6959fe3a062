/* SPDX-License-Identifier: Apache-2.0 */
/* compare.c - `rtconform compare`: a candidate run against a baseline run,
 * figure by figure (across/compare.h has the rule, docs/fleet.md why). */
#include "cli/cli.h"
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/termsafe.h"
#include "reports/read/read.h"
#include "across/compare.h"

static const char compare_head[] =
	"usage: rtconform compare BASELINE.json CANDIDATE.json [OPTIONS]\n"
	"\n"
	"Compare the figures of a candidate run with a baseline run's, from the\n"
	"results.json each wrote: requirements are matched by id, metrics by name. For\n"
	"each duration metric its mean and max are compared, and every statistic a\n"
	"limit is on. Each figure is decided from the interval of the ratio candidate /\n"
	"baseline of its per-run values (Welch's t on their logarithms, at 1 - A; the\n"
	"maxima trimmed as Yuen's t is, so one run's burst does not decide): the\n"
	"same when the interval lies inside the tolerance (from 1/(1+T) to 1+T), worse\n"
	"when it lies wholly above it, better when wholly below it, and inconclusive\n"
	"when it straddles an end of it (docs/fleet.md). A run compared with itself is\n"
	"the same at any number of runs. Mean and max are the typical run's (the median\n"
	"over runs); a figure marked (limited) is one a limit of the requirement is on.\n"
	"Each requirement's verdict is compared too, whatever its figures say: pass to\n"
	"fail, pass to error and fail to error are worse (a regression), the reverse\n"
	"better. A requirement whose limits, probe parameters, policy, priority, CPU,\n"
	"load or sample plan differ is changed: its row names each difference, its\n"
	"verdicts are not compared, and it fails the comparison unless --allow-changed.\n"
	"A requirement the baseline measured that the candidate skipped (--only) or\n"
	"does not have is missing: a regression too, unless --allow-missing; one only\n"
	"the candidate has is new, noted, not compared. The table goes to standard\n"
	"output.\n";

static const char compare_tail[] =
	"exit status: 0 no verdict or figure worse and none inconclusive, 1 a verdict\n"
	"worse, a figure worse or inconclusive (inconclusive ones not with\n"
	"--allow-inconclusive), a requirement the candidate could not measure, one\n"
	"it skipped or lacks (not with --allow-missing), or one that changed (not with\n"
	"--allow-changed), 2 usage error, an unreadable or invalid input (a junit.xml,\n"
	"which is never read back), runs that cannot be compared, or an output that\n"
	"cannot be written, 3 the table could not be written to standard output\n";

/* The files -o DIR gets. */
static const enum out_kind out_kinds[] = { OUT_CMP_TEXT, OUT_CMP_JUNIT, OUT_CMP_HTML };
#define NOUT (sizeof out_kinds / sizeof out_kinds[0])

struct compare_args {
	struct out_set out; /* -o DIR; --force */
	struct cmp_opts opts;
	const char *base, *cand;
};

/* "0.25" or "25%" into a fraction from 0 to 10. */
static int parse_tolerance(const char *v, double *out)
{
	char buf[64];
	size_t n = strlen(v);
	bool pct = n && v[n - 1] == '%';
	bool ok = n > (size_t)pct && n - pct < sizeof buf;
	if (ok) {
		snprintf(buf, sizeof buf, "%.*s", (int)(n - pct), v);
		*out = numfmt_parse(buf, &ok) / (pct ? 100.0 : 1.0);
	}
	if (!ok || !(*out >= 0 && *out <= 10)) {
		termsafe_println(stderr, "rtconform compare: --tolerance '%s': expected a fraction from 0 "
			     "to 10 (0.25) or a percentage from 0%% to 1000%% (25%%)", v);
		return -1;
	}
	return 0;
}

/* A level above 0 and at most 0.5 (a two-sided test at more than 0.5
 * would call noise a change more often than not). */
static int parse_significance(const char *v, double *out)
{
	bool ok;
	*out = numfmt_parse(v, &ok);
	if (!ok || !(*out > 0 && *out <= 0.5)) {
		termsafe_println(stderr, "rtconform compare: --significance '%s': expected a level above "
			     "0 and at most 0.5 (0.05)", v);
		return -1;
	}
	return 0;
}

#define COMPARE_GO_ON (-1)
static int parse_options(int argc, char **argv, struct compare_args *a)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_compare, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			if (out_option(&a->out, OUT_DIR, optarg))
				return EXIT_USAGE;
			break;
		case 't':
			if (parse_tolerance(optarg, &a->opts.tolerance))
				return EXIT_USAGE;
			break;
		case 's':
			if (parse_significance(optarg, &a->opts.significance))
				return EXIT_USAGE;
			break;
		case 'i': a->opts.allow_inconclusive = true; break;
		case 'f': a->out.force = true; break;
		case 'm': a->opts.allow_missing = true; break;
		case 'c': a->opts.allow_changed = true; break;
		case 'h': cli_usage(stdout, &cli_opts_compare, compare_head, compare_tail); return 0;
		default: return cli_getopt_error("compare", c, argv);
		}
	}
	if (argc - optind != 2) {
		termsafe_println(stderr, "rtconform compare: give two results.json files, the baseline "
			     "then the candidate (see rtconform compare --help)");
		return EXIT_USAGE;
	}
	a->base = argv[optind];
	a->cand = argv[optind + 1];
	return COMPARE_GO_ON;
}

/* Write the reports into -o DIR (when given) and the table to stdout. 0,
 * or EXIT_USAGE after saying what could not be written. */
static int write_outputs(const struct cmp_result *r, const struct out_set *out)
{
	char *(*const render[NOUT])(const struct cmp_result *, size_t *) = {
		cmp_render_text, cmp_render_junit, cmp_render_html,
	};
	int rc = 0;
	for (size_t k = 0; k < NOUT && out->path[out_kinds[0]]; k++) {
		size_t len = 0;
		char *data = render[k](r, &len);
		if (out_write(out, out_kinds[k], data, len) != 0)
			rc = EXIT_USAGE;
		free(data);
	}
	size_t len = 0;
	char *table = cmp_render_text(r, &len);
	int e = table ? cli_write_stdout(table, len, NULL, 0) : -ENOMEM;
	if (e) { /* as every command's standard output (cli_close_stdout): 3 */
		termsafe_println(stderr, "rtconform compare: cannot write the table to standard "
				 "output: %s", strerror(-e));
		rc = rc == EXIT_USAGE ? rc : EXIT_NOT_MEASURED;
	}
	free(table);
	return rc;
}

int cmd_compare(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct compare_args a = { .opts = { .tolerance = CMP_DEFAULT_TOLERANCE,
					    .significance = CMP_DEFAULT_SIGNIFICANCE },
				  .out = { .cmd = "compare", .cmdline = ctx->cmdline,
					   .ev = &out_evidence_std } };
	int rc = parse_options(argc, argv, &a);
	if (rc != COMPARE_GO_ON)
		return rc;
	/* The inputs first: a comparison refused creates no -o directory. */
	char err[900];
	struct report_view base = { 0 }, cand = { 0 };
	struct cmp_result r = { 0 };
	const struct out_file in[2] = { { a.base, "the input" }, { a.cand, "the input" } };
	if (report_view_read(a.base, &base, err, sizeof err) != 0 ||
	    report_view_read(a.cand, &cand, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform compare: %s", err);
		rc = EXIT_USAGE;
	} else if (cmp_views(&base, &cand, &a.opts, &r, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform compare: %s and %s cannot be compared: %s", a.base,
			     a.cand, err);
		rc = EXIT_USAGE;
	} else if (!a.out.given[OUT_DIR] ||
		   (rc = out_prepare(&a.out, out_kinds, NOUT, in, 2, OUT_SET_COMPARISON)) == 0) {
		/* -o's files: none of them an input, their directory locked and
		 * holding no other kind of report unless --force */
		r.base_path = a.base;
		r.cand_path = a.cand;
		rc = write_outputs(&r, &a.out);
		/* the reports written whole are vouched for, standard output
		 * failing (3) or not, as run's are */
		if (rc != EXIT_USAGE && out_seal(&a.out, NULL, 0, true) != 0)
			rc = EXIT_USAGE;
		if (!rc)
			rc = cmp_exit_status(&r);
	}
	out_end(&a.out, rc);
	cmp_result_free(&r);
	report_view_free(&base);
	report_view_free(&cand);
	return rc;
}
