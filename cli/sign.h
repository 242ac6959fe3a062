/* SPDX-License-Identifier: Apache-2.0 */
/* sign.h - MANIFEST.sha256 signed and its signature checked with a tool a
 * lab already trusts, never with code of ours: minisign (a secret key
 * file: MANIFEST.sha256.minisig) or GnuPG (a key of the keyring:
 * MANIFEST.sha256.sig, detached). docs/qualification.md has the rules. */
#ifndef RTC_CLI_SIGN_H
#define RTC_CLI_SIGN_H

#include <stdbool.h>
#include <stddef.h>

#define SIGN_MINISIG MANIFEST_NAME ".minisig"
#define SIGN_GPG_SIG MANIFEST_NAME ".sig"

enum sign_tool { SIGN_MINISIGN, SIGN_GPG };

struct sign_key {
	enum sign_tool tool;
	const char *key; /* minisign: the secret key file; gpg: the key's id */
};

/* `run --sign KEY` before anything is measured: KEY naming a file is a
 * minisign secret key (it must be readable), anything else a GnuPG key id;
 * the tool must be on PATH. 0, or 2 (exit status) after saying why. */
int sign_prepare(const char *cmd, const char *key, struct sign_key *out);

/* Sign the text of dir/MANIFEST.sha256 as written (len bytes) with k into
 * its signature file beside it: the tool signs a copy in a directory of
 * its own, and the signature is written as every output is
 * (report_atomic_write). 0, or -1 after saying why on stderr (the tool's
 * own words above). */
int sign_manifest(const char *cmd, const struct sign_key *k, const char *dir, const char *text,
		  size_t len);

/* Remove both signature files of dir (a new manifest is being written). */
void sign_remove(const char *dir);

/* Check the signature of dir/MANIFEST.sha256, when it has one: minisign's
 * with public key file pubkey (NULL: a minisign signature cannot be
 * checked, an error), GnuPG's with the keyring. Says on stdout which tool
 * and key signed it and that the signature holds, or on stderr why not.
 * 0 holds (or unsigned and no pubkey given), 1 does not, 2 a usage error
 * (a minisign signature without pubkey, a tool missing). */
int sign_verify(const char *dir, const char *pubkey);

#endif
