/* SPDX-License-Identifier: Apache-2.0 */
/* sign.h - MANIFEST.sha256 signed and its signature checked with a tool a
 * lab already trusts, never with code of ours: minisign (a secret key
 * file: MANIFEST.sha256.minisig) or GnuPG (a key of the keyring:
 * MANIFEST.sha256.sig, detached). docs/qualification.md has the rules. */
#ifndef RTC_EVIDENCE_SIGN_H
#define RTC_EVIDENCE_SIGN_H

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

/* ---- verify (sign_check.c): which signatures count ----
 *
 * Only a signature made by a key the user names counts
 * (docs/qualification.md, "Which signatures verify accepts"):
 * - pubkey (verify --pubkey FILE), a minisign public key file: a
 *   MANIFEST.sha256.minisig made by that key is required;
 * - gpg_key (verify --gpg-key KEY): a MANIFEST.sha256.sig made by that key
 *   is required; KEY a full fingerprint (40 or 64 hex digits, blanks
 *   between groups allowed) pins the key itself; any other KEY is a name
 *   gpg's keyring resolves (a user id, an e-mail address), and then the
 *   signing key must also be one gpg holds valid "full" or "ultimate".
 * A key the keyring merely holds never counts. */
struct sign_check {
	const char *pubkey;  /* NULL: none given */
	const char *gpg_key; /* NULL: none given */
};

/* Check the signatures of the manifest whose bytes verify read (man, len:
 * the tools are given a private copy of these same bytes, never the
 * directory's file, which may have changed since or be a FIFO). Says on
 * stdout which tool and key signed it, or on stderr why not. 0: every
 * signature c requires holds, or none is required and the directory is
 * unsigned; 1: one does not hold (BAD: another key's, a key of too little
 * validity, the bytes changed); 2: one cannot be checked: a required
 * signature missing, a key file missing or malformed, a key the keyring
 * lacks, the tool not installed, a signature present and no key named to
 * check it with, a signature file that is not a regular file. */
int sign_verify(const char *dir, const char *man, size_t len, const struct sign_check *c);

/* Shared by sign.c and sign_check.c: whether program name is on PATH; run
 * argv with stdin from /dev/null, stdout into out_fd (-1: /dev/null), its
 * exit status or -1. */
bool sign_on_path(const char *name);
int sign_run_tool(char *const argv[], int out_fd);

#endif
