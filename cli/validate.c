/* SPDX-License-Identifier: Apache-2.0 */
/* validate.c - `rtconform validate`: check requirement files, measure
 * nothing. */
#include "cli/cli.h"
#include "base/termsafe.h"
#include "harness/measure/probes/probes.h"
#include "requirements/validate.h"

#include <stdio.h>

int cmd_validate(int argc, char **argv, const struct cli_ctx *ctx)
{
	if (cli_wants_help(argc, argv)) {
		puts("usage: rtconform validate FILE|PROFILE...\n\n"
		     "Check requirement files (or shipped profiles, by name) against the schema\n"
		     "and the probe table; measure nothing. Prints one 'file:line: message' per\n"
		     "problem, and 'file:line: warning: ...' for what is valid but may make a\n"
		     "verdict an error (a percentile a run by time, or on too few CPUs, may take\n"
		     "too few samples for).\n\n"
		     "exit status: 0 every file valid (warnings or not), 2 a problem was found");
		return 0;
	}
	if (argc < 2) {
		termsafe_println(stderr, "rtconform validate: no file given (usage: rtconform validate FILE...)");
		return EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1]) {
			termsafe_println(stderr, "rtconform validate: unknown option '%s'", argv[i]);
			return EXIT_USAGE;
		}
	struct req_file **files;
	size_t n;
	int rc = cli_load_all(ctx, argv + 1, argc - 1, &files, &n);
	if (rc)
		return rc;
	struct diag_list d = { 0 };
	for (size_t i = 0; i < n; i++)
		validate_warnings(files[i], &probe_catalog, &d);
	for (size_t i = 0; i < d.n; i++)
		termsafe_println(stderr, "%s", d.msgs[i]);
	diag_free(&d);
	for (size_t i = 0; i < n; i++)
		termsafe_println(stdout, "%s: valid (%zu requirement%s)", files[i]->path,
				 files[i]->nreqs, files[i]->nreqs == 1 ? "" : "s");
	cli_free_files(files, n);
	return 0;
}
