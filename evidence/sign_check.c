/* SPDX-License-Identifier: Apache-2.0 */
/* sign_check.c - `rtconform verify`'s check of the manifest's signatures
 * (sign.h): only a signature by a key the user names counts, checked by
 * minisign or gpg on a private copy of the bytes verify read. */
#include "evidence/manifest.h"
#include "evidence/sign.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "base/termsafe.h"
#include "harness/verdict.h"

/* The most a public key file and a signature file are read: minisign's are
 * under 1 KiB, an armoured GnuPG signature a few. */
#define SIGN_KEY_MAX 4096
#define SIGN_SIG_MAX 65536

/* A private directory holding what the tool is given: the manifest's bytes
 * as verify read them and the signature's. */
struct scratch {
	char dir[64], man[96], sig[96];
};

static int put_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wbx");
	if (!f)
		return -1;
	int ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* s made (mkdtemp, so no one else's) with copies of man and sig. 0, or -1
 * after saying why. */
static int scratch_make(struct scratch *s, const char *man, size_t mlen, const char *sig,
			size_t slen, const char *sig_path)
{
	snprintf(s->dir, sizeof s->dir, "/tmp/rtconform-verify.XXXXXX");
	s->man[0] = s->sig[0] = '\0';
	if (!mkdtemp(s->dir)) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be checked: a scratch "
				 "directory in /tmp: %s", sig_path, strerror(errno));
		s->dir[0] = '\0';
		return -1;
	}
	snprintf(s->man, sizeof s->man, "%s/%s", s->dir, MANIFEST_NAME);
	snprintf(s->sig, sizeof s->sig, "%s/signature", s->dir);
	if (put_file(s->man, man, mlen) != 0 || put_file(s->sig, sig, slen) != 0) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be checked: writing its "
				 "copy in %s: %s", sig_path, s->dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void scratch_drop(struct scratch *s)
{
	if (s->man[0])
		unlink(s->man);
	if (s->sig[0])
		unlink(s->sig);
	if (s->dir[0])
		rmdir(s->dir);
}

/* The signature file sig_path read (a regular file, no link, bounded). 0,
 * or EXIT_USAGE after saying why. */
static int read_sig(const char *sig_path, const char *what, char **buf, size_t *len)
{
	char err[PATH_MAX + 300];
	if (safeopen_read(sig_path, SIGN_SIG_MAX, what, buf, len, err, sizeof err) == 0)
		return 0;
	termsafe_println(stderr, "rtconform verify: %s: cannot be checked: %s", sig_path,
			 safeopen_why(err, sig_path));
	return EXIT_USAGE;
}

/* ---- minisign ---- */

static bool is_b64(int c)
{
	return isalnum(c) || c == '+' || c == '/';
}

/* The key of minisign public key file path into key (56 base64 characters:
 * "Ed", the key id and the key, as `minisign -G` writes them after an
 * "untrusted comment:" line). 0, or EXIT_USAGE after saying why. */
static int read_pubkey(const char *path, char key[57])
{
	char *text, err[PATH_MAX + 300];
	size_t len;
	if (safeopen_read(path, SIGN_KEY_MAX, "minisign public key file", &text, &len, err,
			  sizeof err) != 0) {
		termsafe_println(stderr, "rtconform verify: --pubkey %s", err);
		return EXIT_USAGE;
	}
	static const char comment[] = "untrusted comment:";
	const char *nl = memchr(text, '\n', len), *k = nl ? nl + 1 : NULL;
	size_t n = 0;
	while (k && k + n < text + len && is_b64((unsigned char)k[n]))
		n++;
	const char *rest = k ? k + n : NULL;
	while (rest && rest < text + len && isspace((unsigned char)*rest))
		rest++;
	bool ok = len == strlen(text) && !strncmp(text, comment, sizeof comment - 1) && n == 56 &&
		  !strncmp(k, "RW", 2) && rest == text + len;
	if (ok)
		snprintf(key, 57, "%.56s", k);
	free(text);
	if (!ok) {
		termsafe_println(stderr, "rtconform verify: --pubkey %s: not a minisign public key "
				 "file (an \"untrusted comment:\" line, then the key: 56 base64 "
				 "characters starting RW, as minisign -G writes it)", path);
		return EXIT_USAGE;
	}
	return 0;
}

/* The minisign signature sig_path of the manifest's bytes checked with
 * public key file pubkey. */
static int verify_minisign(const char *man, size_t mlen, const char *sig_path,
			   const char *pubkey)
{
	char key[57];
	int rc = read_pubkey(pubkey, key);
	if (rc)
		return rc;
	struct stat st;
	if (lstat(sig_path, &st) != 0) {
		termsafe_println(stderr, "rtconform verify: %s: no minisign signature: --pubkey "
				 "requires one made by the key of %s", sig_path, pubkey);
		return EXIT_USAGE;
	}
	if (!sign_on_path("minisign")) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be checked: minisign is not "
				 "installed (Debian package minisign)", sig_path);
		return EXIT_USAGE;
	}
	char *sig;
	size_t slen;
	if ((rc = read_sig(sig_path, "minisign signature", &sig, &slen)) != 0)
		return rc;
	struct scratch s;
	rc = scratch_make(&s, man, mlen, sig, slen, sig_path) != 0 ? EXIT_USAGE : 0;
	free(sig);
	if (!rc) {
		char *argv[] = { "minisign", "-V", "-q", "-P", key, "-m", s.man, "-x", s.sig, NULL };
		rc = sign_run_tool(argv, -1) == 0 ? 0 : EXIT_FAILED;
		if (rc)
			termsafe_println(stderr, "rtconform verify: %s: BAD signature: minisign says the "
					 "manifest was not signed by the key of %s", sig_path, pubkey);
		else
			termsafe_println(stdout, "rtconform verify: %s: good signature (minisign, "
					 "public key %s)", sig_path, pubkey);
	}
	scratch_drop(&s);
	return rc;
}

/* ---- GnuPG ---- */

/* KEY as a full fingerprint (40 or 64 hex digits, blanks between groups
 * dropped), upper-case, in fpr; false when KEY is not one. */
static bool as_fingerprint(const char *key, char fpr[65])
{
	size_t n = 0;
	const char *p = key;
	if (!strncmp(p, "0x", 2) || !strncmp(p, "0X", 2))
		p += 2;
	for (; *p; p++) {
		if (*p == ' ')
			continue;
		if (!isxdigit((unsigned char)*p) || n == 64)
			return false;
		fpr[n++] = (char)toupper((unsigned char)*p);
	}
	fpr[n] = '\0';
	return n == 40 || n == 64;
}

/* What gpg's status lines (--status-fd) said of the signature file. */
struct gpg_said {
	int sigs;          /* NEWSIG: signatures in the file */
	bool good, bad;    /* GOODSIG; BADSIG, EXPSIG, EXPKEYSIG, REVKEYSIG, ERRSIG */
	bool no_pubkey;    /* NO_PUBKEY: the keyring lacks the key that made it */
	char fpr[80];      /* VALIDSIG: the signing (sub)key */
	char primary[80];  /* VALIDSIG: its primary key */
	char uid[512];     /* GOODSIG's user id */
	char keyid[40];    /* NO_PUBKEY's key id */
	const char *trust; /* TRUST_*: "ultimate", "full", "marginal", "never", "undefined" */
	bool trusted;      /* TRUST_FULLY or TRUST_ULTIMATE */
};

/* Field i (0-based) of the blank-separated words at p into out. */
static void field(const char *p, int i, char *out, size_t len)
{
	for (; i > 0 && p; i--)
		p = (p = strchr(p, ' ')) ? p + 1 : NULL;
	snprintf(out, len, "%.*s", p ? (int)strcspn(p, " ") : 0, p ? p : "");
}

static void gpg_status_line(const char *l, struct gpg_said *g)
{
	static const struct { const char *name, *word; bool trusted; } trust[] = {
		{ "TRUST_ULTIMATE", "ultimate", true }, { "TRUST_FULLY", "full", true },
		{ "TRUST_MARGINAL", "marginal", false }, { "TRUST_NEVER", "never", false },
		{ "TRUST_UNDEFINED", "undefined", false },
	};
	static const char *const bad[] = { "BADSIG ", "EXPSIG ", "EXPKEYSIG ", "REVKEYSIG ",
					   "ERRSIG " };
	if (!strncmp(l, "NEWSIG", 6)) {
		g->sigs++;
	} else if (!strncmp(l, "GOODSIG ", 8)) {
		const char *u = strchr(l + 8, ' ');
		snprintf(g->uid, sizeof g->uid, "%s", u ? u + 1 : "");
		g->good = true;
	} else if (!strncmp(l, "VALIDSIG ", 9)) {
		field(l + 9, 0, g->fpr, sizeof g->fpr);
		field(l + 9, 9, g->primary, sizeof g->primary);
	} else if (!strncmp(l, "NO_PUBKEY ", 10)) {
		g->no_pubkey = true;
		field(l + 10, 0, g->keyid, sizeof g->keyid);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		g->bad |= !strncmp(l, bad[i], strlen(bad[i]));
	for (size_t i = 0; i < sizeof trust / sizeof trust[0]; i++)
		if (!strncmp(l, trust[i].name, strlen(trust[i].name))) {
			g->trust = trust[i].word;
			g->trusted = trust[i].trusted;
		}
}

/* Run gpg with args (NULL-ended, after the fixed options) and feed each of
 * its status lines (prefix removed) or, with colons, each line of its
 * standard output to line(). gpg's exit status, or -1. */
static int gpg_lines(char *const args[], bool colons, void (*line)(const char *, void *),
		     void *arg)
{
	char *argv[16] = { "gpg", "--batch", "--no-tty", "--no-auto-key-retrieve" };
	int n = 4;
	if (colons) {
		argv[n++] = "--with-colons";
	} else {
		argv[n++] = "--status-fd";
		argv[n++] = "1";
	}
	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	FILE *out = tmpfile();
	if (!out)
		return -1;
	int st = sign_run_tool(argv, fileno(out));
	rewind(out);
	/* whole lines however long: a fixed buffer cut a user id of 2,020
	 * characters in two, and its tail read as a status line of its own */
	char *l = NULL;
	size_t cap = 0;
	while (getline(&l, &cap, out) >= 0) {
		l[strcspn(l, "\n")] = '\0';
		if (colons)
			line(l, arg);
		else if (!strncmp(l, "[GNUPG:] ", 9))
			line(l + 9, arg);
	}
	free(l);
	fclose(out);
	return st;
}

static void on_status(const char *l, void *arg)
{
	gpg_status_line(l, arg);
}

/* Whether a key gpg's keyring lists for a name (--list-keys NAME) has the
 * primary fingerprint want: "pub:" then its "fpr:::::::::FPR:" line. */
struct named_key {
	const char *want;
	bool after_pub, found;
};

static void on_colons(const char *l, void *arg)
{
	struct named_key *k = arg;
	if (k->after_pub && !strncmp(l, "fpr:", 4)) {
		const char *p = l;
		for (int i = 0; i < 9 && p; i++)
			p = (p = strchr(p, ':')) ? p + 1 : NULL;
		if (p && strlen(k->want) == strcspn(p, ":") && !strncmp(p, k->want, strlen(k->want)))
			k->found = true;
	}
	k->after_pub = !strncmp(l, "pub:", 4);
}

/* Whether the signature g describes is by the key --gpg-key names: that
 * fingerprint (the signing subkey's or its primary's), or else a key the
 * keyring lists for the name and that gpg holds valid full or ultimate.
 * EXIT_FAILED after saying why not. */
static int gpg_key_named(const struct gpg_said *g, const char *key, const char *sig_path)
{
	char fpr[65];
	if (as_fingerprint(key, fpr)) {
		if (!strcmp(g->fpr, fpr) || !strcmp(g->primary, fpr))
			return 0;
		termsafe_println(stderr, "rtconform verify: %s: BAD signature: made by key %s "
				 "(%s), not by the key --gpg-key names (%s)", sig_path, g->primary,
				 g->uid, fpr);
		return EXIT_FAILED;
	}
	struct named_key k = { .want = g->primary };
	char *args[] = { "--list-keys", "--", (char *)key, NULL };
	gpg_lines(args, true, on_colons, &k);
	if (!k.found) {
		termsafe_println(stderr, "rtconform verify: %s: BAD signature: made by key %s "
				 "(%s), which is not a key of %s in the keyring", sig_path,
				 g->primary, g->uid, key);
		return EXIT_FAILED;
	}
	if (!g->trusted) {
		termsafe_println(stderr, "rtconform verify: %s: BAD signature: made by key %s "
				 "(%s), whose validity gpg gives as %s: a key named by --gpg-key %s "
				 "must be valid full or ultimate (certify it, or name its "
				 "fingerprint)", sig_path, g->primary, g->uid,
				 g->trust ? g->trust : "unknown", key);
		return EXIT_FAILED;
	}
	return 0;
}

/* gpg's account of the signature file at s checked. 0 or EXIT_USAGE or
 * EXIT_FAILED after saying why. */
static int gpg_judge(const struct gpg_said *g, int st, const char *sig_path)
{
	if (g->no_pubkey) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be checked: gpg's keyring "
				 "lacks the key that made it (key id %s): import the lab's public key",
				 sig_path, g->keyid);
		return EXIT_USAGE;
	}
	if (g->sigs > 1) {
		termsafe_println(stderr, "rtconform verify: %s: BAD signature: %d signatures in "
				 "one file, where run --sign makes one", sig_path, g->sigs);
		return EXIT_FAILED;
	}
	if (st != 0 || !g->good || g->bad || !g->fpr[0] || !g->primary[0]) {
		termsafe_println(stderr, "rtconform verify: %s: BAD signature: gpg does not find "
				 "it a good signature of the manifest (see above)", sig_path);
		return EXIT_FAILED;
	}
	return 0;
}

/* GnuPG's detached signature sig_path of the manifest's bytes, by the key
 * --gpg-key names. */
static int verify_gpg(const char *man, size_t mlen, const char *sig_path, const char *key)
{
	struct stat st;
	if (lstat(sig_path, &st) != 0) {
		termsafe_println(stderr, "rtconform verify: %s: no GnuPG signature: --gpg-key "
				 "requires one made by %s", sig_path, key);
		return EXIT_USAGE;
	}
	if (!sign_on_path("gpg")) {
		termsafe_println(stderr, "rtconform verify: %s: cannot be checked: gpg is not "
				 "installed (Debian package gnupg)", sig_path);
		return EXIT_USAGE;
	}
	char *sig;
	size_t slen;
	int rc = read_sig(sig_path, "GnuPG signature", &sig, &slen);
	if (rc)
		return rc;
	struct scratch s;
	rc = scratch_make(&s, man, mlen, sig, slen, sig_path) != 0 ? EXIT_USAGE : 0;
	free(sig);
	struct gpg_said g = { 0 };
	if (!rc) {
		char *args[] = { "--verify", "--", s.sig, s.man, NULL };
		int gst = gpg_lines(args, false, on_status, &g);
		rc = gpg_judge(&g, gst, sig_path);
	}
	scratch_drop(&s);
	if (!rc)
		rc = gpg_key_named(&g, key, sig_path);
	if (!rc)
		termsafe_println(stdout, "rtconform verify: %s: good signature (gpg, key %s, %s; "
				 "%s)", sig_path, g.primary, g.uid, as_fingerprint(key, (char[65]){ 0 })
				 ? "the fingerprint --gpg-key names" : "valid full or ultimate");
	return rc;
}

/* A signature beside the manifest that no option asks to be checked: an
 * error when none was asked for at all (it cannot be checked), else a
 * note. */
static int unchecked(const char *sig_path, const char *tool, const char *option,
		     const struct sign_check *c)
{
	bool none = !c->pubkey && !c->gpg_key;
	termsafe_println(stderr, "rtconform verify: %s%s: signed with %s: %s %s to check it",
			 none ? "" : "note: ", sig_path, tool,
			 none ? "give" : "not checked; give", option);
	return none ? EXIT_USAGE : 0;
}

int sign_verify(const char *dir, const char *man, size_t len, const struct sign_check *c)
{
	char mini[PATH_MAX + 64], gsig[PATH_MAX + 64];
	snprintf(mini, sizeof mini, "%s/%s", dir, SIGN_MINISIG);
	snprintf(gsig, sizeof gsig, "%s/%s", dir, SIGN_GPG_SIG);
	struct stat st;
	bool has_mini = lstat(mini, &st) == 0, has_gpg = lstat(gsig, &st) == 0;
	int rc = 0, r;
	if (c->pubkey)
		rc = verify_minisign(man, len, mini, c->pubkey);
	else if (has_mini)
		rc = unchecked(mini, "minisign", "its public key file with --pubkey FILE", c);
	if (c->gpg_key)
		r = verify_gpg(man, len, gsig, c->gpg_key);
	else if (has_gpg)
		r = unchecked(gsig, "GnuPG", "the signer's key with --gpg-key FINGERPRINT", c);
	else
		r = 0;
	return r > rc ? r : rc;
}
