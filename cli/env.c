/* SPDX-License-Identifier: Apache-2.0 */
/* env.c - `rtconform env`: this machine's fingerprint and its real-time
 * readiness checks. */
#include "cli/cli.h"
#include "cli/options.h"
#include "base/termsafe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/measure/timebase.h"
#include "harness/runinfo.h"
#include "host/readiness.h"

int cmd_env(int argc, char **argv, const struct cli_ctx *ctx)
{
	(void)ctx;
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cli_usage(stdout, &cli_opts_env,
			  "usage: rtconform env\n\n"
			  "Print this machine's fingerprint (what every report records), then\n"
			  "real-time readiness checks, each with its level and a remedy:\n"
			  "  ok    nothing to do\n"
			  "  note  fine for measuring; a qualification should state it\n"
			  "  warn  requirements run, but latencies suffer or mislead\n"
			  "  fail  some requirements cannot be measured (they will be errors)\n"
			  "Among them the checks real-time engineers run before they trust a\n"
			  "figure: smi (SMIs counted), cpuidle (deep idle states), irq_affinity,\n"
			  "rcu_nocbs, boost (turbo) and measure_cpus (isolated CPUs): docs/reports.md,\n"
			  "\"rtconform env: readiness checks\", says what each judges and its remedy.\n",
			  "exit status: 0 (the checks inform; they never fail the command); 2 usage\n"
			  "error, or RTC_TIMEBASE set to anything but clock\n");
		return 0;
	}
	if (argc > 1) {
		termsafe_println(stderr, "rtconform env: unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	struct timebase tb;
	char err[300];
	int tbrc = timebase_init(&tb, err, sizeof err);
	if (tbrc == -EINVAL) { /* RTC_TIMEBASE is not a timebase */
		termsafe_println(stderr, "rtconform env: timebase: %s", err);
		return EXIT_USAGE;
	}
	const struct timebase *tbp = tbrc == 0 ? &tb : NULL;
	struct host_facts hf;
	host_facts_collect(&hf);
	struct fingerprint fp = { 0 };
	runinfo_collect_facts(&fp, &hf, tbp);
	for (size_t i = 0; i < fp.n; i++)
		termsafe_println(stdout, "%-36s %s", fp.e[i].key, fp.e[i].value);

	struct readiness rd;
	runinfo_readiness(&hf, tbp, true, &rd);
	size_t count[READY_NLEVELS] = { 0 };
	printf("\nreadiness:\n");
	for (size_t i = 0; i < rd.n; i++) {
		const struct ready_check *c = &rd.c[i];
		count[c->level]++;
		termsafe_println(stdout, "  %-5s %-15s %s", ready_level_name(c->level), c->name, c->finding);
		if (c->remedy[0] && c->level != READY_OK)
			termsafe_println(stdout, "  %-5s %-15s remedy: %s", "", "", c->remedy);
	}
	char tally[160];
	ready_count_text(count, tally, sizeof tally);
	termsafe_println(stdout, "readiness: %s", tally);
	fingerprint_free(&fp);
	return 0;
}
