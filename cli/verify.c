/* SPDX-License-Identifier: Apache-2.0 */
/* verify.c - `rtconform verify DIR`: its options; the checks are
 * evidence/verify.c's, a selftest record's selftest/selftest_read.c's.
 * docs/reports.md ("MANIFEST.sha256") and docs/qualification.md
 * ("Integrity of the evidence") have the rules. */
#include "cli/cli.h"
#include "cli/options.h"
#include "evidence/sign.h"
#include "evidence/verify.h"
#include "selftest/selftest.h"

#include <getopt.h>
#include <stdio.h>

#include "base/termsafe.h"

static const char verify_head[] =
	"usage: rtconform verify [--pubkey FILE] [--gpg-key KEY] DIR\n"
	"\n"
	"Check the reports of a run's directory (or of merge -o, compare -o) against the\n"
	"MANIFEST.sha256 written there: every file it lists is present with the same\n"
	"SHA-256 (each one missing or changed is named), files it does not list are\n"
	"named (a warning), and junit.xml, summary.txt, report.html, results.json and\n"
	"the CSV files present agree with the reports rendered again from a run's\n"
	"DIR/results.json. A selftest record (the manifest lists validation.json) has\n"
	"validation.json read back and junit.xml, validation.html and validation.json\n"
	"rendered again from it and compared, its totals checked against its cases.\n"
	"Every directory below DIR with its own MANIFEST.sha256 (a record's\n"
	"cases/ID/run/) is verified as a run's directory too.\n"
	"A signature beside the manifest (rtconform run --sign) counts only when made by\n"
	"a key named here: minisign's (MANIFEST.sha256.minisig) by the public key of\n"
	"--pubkey, GnuPG's (MANIFEST.sha256.sig) by the key of --gpg-key; a key gpg's\n"
	"keyring merely holds never counts.\n";

static const char verify_tail[] =
	"exit status: 0 every check holds, 1 a file is missing, changed, or disagrees\n"
	"with results.json or validation.json, or a signature does not hold (another\n"
	"key's, a key of too little validity), 2 usage error, no manifest, a malformed\n"
	"manifest (the line is named), or a signature that cannot be checked: one that\n"
	"--pubkey or --gpg-key requires missing, a key file missing or malformed, a key\n"
	"the keyring lacks, the tool missing, a signature present and no key given\n";

/* The directory argument, --pubkey and --gpg-key; VERIFY_GO_ON, or an exit
 * status. */
#define VERIFY_GO_ON (-1)
static int parse_options(int argc, char **argv, struct sign_check *sc)
{
	int c;
	cli_getopt_begin();
	while ((c = cli_getopt(&cli_opts_verify, argc, argv)) != -1) {
		if (c == 'h') {
			cli_usage(stdout, &cli_opts_verify, verify_head, verify_tail);
			return 0;
		}
		if (c != 'p' && c != 'g')
			return cli_getopt_error("verify", c, argv);
		if (!optarg[0]) {
			termsafe_println(stderr, "rtconform verify: %s: empty value",
					 c == 'p' ? "--pubkey" : "--gpg-key");
			return EXIT_USAGE;
		}
		*(c == 'p' ? &sc->pubkey : &sc->gpg_key) = optarg;
	}
	if (optind != argc - 1) {
		termsafe_println(stderr, "rtconform verify: give one directory, a run's -o "
				 "directory (see rtconform verify --help)");
		return EXIT_USAGE;
	}
	return VERIFY_GO_ON;
}

int cmd_verify(int argc, char **argv, const struct cli_ctx *ctx)
{
	(void)ctx;
	struct sign_check sc = { NULL, NULL };
	int rc = parse_options(argc, argv, &sc);
	if (rc != VERIFY_GO_ON)
		return rc;
	return verify_dir(argv[optind], &sc, st_verify_record);
}
