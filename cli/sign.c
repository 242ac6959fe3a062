/* SPDX-License-Identifier: Apache-2.0 */
/* sign.c - MANIFEST.sha256 signed with minisign or GnuPG (cli/sign.h). */
#include "cli/manifest.h"
#include "cli/sign.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/termsafe.h"
#include "harness/verdict.h"
#include "reports/report.h"

static const char *tool_name(enum sign_tool t)
{
	return t == SIGN_MINISIGN ? "minisign" : "gpg";
}

/* Whether program name is an executable file in a directory of PATH. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/bin:/bin";
	char dir[PATH_MAX], file[PATH_MAX + 64];
	while (*path) {
		size_t len = strcspn(path, ":");
		if (len > 0 && len < sizeof dir) {
			memcpy(dir, path, len);
			dir[len] = '\0';
			snprintf(file, sizeof file, "%s/%s", dir, name);
			if (access(file, X_OK) == 0)
				return true;
		}
		path += len + (path[len] == ':');
	}
	return false;
}

/* Run argv (argv[0] found on PATH) with standard input from /dev/null and
 * standard output into fd out_fd (-1: /dev/null), stderr as ours. Its exit
 * status, or -1 when it could not be run or was killed. */
static int run_tool(char *const argv[], int out_fd)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 0);
			dup2(out_fd >= 0 ? out_fd : null, 1);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Sign a scratch file with k, so a key that cannot sign (unknown to gpg,
 * a minisign key that wants a passphrase) is found before measuring. */
static int trial_sign(const struct sign_key *k)
{
	char dir[] = "/tmp/rtconform-sign.XXXXXX";
	if (!mkdtemp(dir))
		return -1;
	char file[64], sig[80];
	snprintf(file, sizeof file, "%s/trial", dir);
	snprintf(sig, sizeof sig, "%s/trial.sig", dir);
	FILE *f = fopen(file, "w");
	int st = -1;
	if (f && fputs("rtconform --sign trial\n", f) >= 0 && fclose(f) == 0) {
		f = NULL;
		char *mini[] = { "minisign", "-S", "-s", (char *)k->key, "-m", file, "-x", sig, NULL };
		char *gpg[] = { "gpg", "--batch", "--yes", "--quiet", "--local-user", (char *)k->key,
				"--detach-sign", "--output", sig, file, NULL };
		st = run_tool(k->tool == SIGN_MINISIGN ? mini : gpg, -1);
	}
	if (f)
		fclose(f);
	unlink(sig);
	unlink(file);
	rmdir(dir);
	return st;
}

int sign_prepare(const char *cmd, const char *key, struct sign_key *out)
{
	struct stat st;
	out->key = key;
	out->tool = stat(key, &st) == 0 ? SIGN_MINISIGN : SIGN_GPG;
	if (!key[0]) {
		termsafe_println(stderr, "rtconform %s: --sign: empty value", cmd);
		return EXIT_USAGE;
	}
	if (!on_path(tool_name(out->tool))) {
		termsafe_println(stderr, "rtconform %s: --sign %s: %s is not installed (Debian "
				 "package %s): nothing measured", cmd, key, tool_name(out->tool),
				 out->tool == SIGN_MINISIGN ? "minisign" : "gnupg");
		return EXIT_USAGE;
	}
	if (out->tool == SIGN_MINISIGN && (!S_ISREG(st.st_mode) || access(key, R_OK) != 0)) {
		termsafe_println(stderr, "rtconform %s: --sign %s: not a readable minisign secret "
				 "key file", cmd, key);
		return EXIT_USAGE;
	}
	if (trial_sign(out) != 0) {
		termsafe_println(stderr, "rtconform %s: --sign %s: %s cannot sign with it (see "
				 "above; a key must sign without a passphrase prompt): nothing "
				 "measured", cmd, key, tool_name(out->tool));
		return EXIT_USAGE;
	}
	return 0;
}

void sign_remove(const char *dir)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/%s", dir, SIGN_MINISIG);
	unlink(p);
	snprintf(p, sizeof p, "%s/%s", dir, SIGN_GPG_SIG);
	unlink(p);
}

/* path made (O_EXCL, never through a link) holding len bytes of data. 0 or
 * -errno. */
static int put_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int e = 0;
	for (size_t at = 0; at < len && !e;) {
		ssize_t w = write(fd, data + at, len - at);
		if (w < 0 && errno != EINTR)
			e = -errno;
		at += w > 0 ? (size_t)w : 0;
	}
	if (close(fd) != 0 && !e)
		e = -errno;
	return e;
}

/* The whole of regular file path (a signature: small) into *data, *len. 0
 * or -errno. */
static int take_file(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -errno;
	int e = fstat(fd, &st) != 0 ? -errno : !S_ISREG(st.st_mode) || st.st_size > (1 << 20)
			? -EINVAL : 0;
	*data = e ? NULL : malloc((size_t)st.st_size + 1);
	*len = 0;
	if (!e && !*data)
		e = -ENOMEM;
	while (!e && *len < (size_t)st.st_size) {
		ssize_t r = read(fd, *data + *len, (size_t)st.st_size - *len);
		if (r <= 0 && !(r < 0 && errno == EINTR))
			e = r < 0 ? -errno : -EIO;
		*len += r > 0 ? (size_t)r : 0;
	}
	close(fd);
	return e;
}

/* The tool signs a copy of the manifest's text in a directory of its own
 * (mkdtemp: ours alone), never dir itself: in a -o others may write, a
 * link planted at the tool's output name had it write through the link
 * (as root, truncating whatever it named), and a manifest replaced between
 * its writing and its signing would have been signed (issue 38). */
int sign_manifest(const char *cmd, const struct sign_key *k, const char *dir, const char *text,
		  size_t len)
{
	char tdir[] = "/tmp/rtconform-sign.XXXXXX", man[64], tmp[64], sig[PATH_MAX + 64];
	snprintf(sig, sizeof sig, "%s/%s", dir,
		 k->tool == SIGN_MINISIGN ? SIGN_MINISIG : SIGN_GPG_SIG);
	bool made = mkdtemp(tdir) != NULL;
	int e = made ? 0 : -errno, st = -1;
	snprintf(man, sizeof man, "%s/%s", tdir, MANIFEST_NAME);
	snprintf(tmp, sizeof tmp, "%s/signature", tdir);
	if (!e)
		e = put_file(man, text, len);
	char *mini[] = { "minisign", "-S", "-s", (char *)k->key, "-m", man, "-x", tmp, NULL };
	char *gpg[] = { "gpg", "--batch", "--yes", "--quiet", "--local-user", (char *)k->key,
			"--detach-sign", "--output", tmp, man, NULL };
	if (!e)
		st = run_tool(k->tool == SIGN_MINISIGN ? mini : gpg, -1);
	char *data = NULL;
	size_t n = 0;
	if (!e && st == 0 && (e = take_file(tmp, &data, &n)) == 0)
		e = report_atomic_write(sig, data, n);
	free(data);
	if (made) {
		unlink(tmp);
		unlink(man);
		rmdir(tdir);
	}
	if (!e && st == 0)
		return 0;
	termsafe_println(stderr, "rtconform %s: cannot sign %s/%s with %s (key %s): %s", cmd, dir,
			 MANIFEST_NAME, tool_name(k->tool), k->key,
			 e ? strerror(-e) : "the tool failed (see above)");
	return -1;
}

/* minisign's signature sig of man checked with public key file pubkey. */
static int verify_minisign(const char *man, const char *sig, const char *pubkey)
{
	if (!pubkey) {
		termsafe_println(stderr, "rtconform verify: %s: signed with minisign: give its "
				 "public key file with --pubkey FILE to check it", sig);
		return EXIT_USAGE;
	}
	if (!on_path("minisign")) {
		termsafe_println(stderr, "rtconform verify: %s: minisign is not installed (Debian "
				 "package minisign)", sig);
		return EXIT_USAGE;
	}
	char *argv[] = { "minisign", "-V", "-q", "-p", (char *)pubkey, "-m", (char *)man, "-x",
			 (char *)sig, NULL };
	if (run_tool(argv, -1) != 0) {
		termsafe_println(stderr, "rtconform verify: %s: BAD signature: minisign says the "
				 "manifest was not signed by the key of %s", sig, pubkey);
		return EXIT_FAILED;
	}
	termsafe_println(stdout, "rtconform verify: %s: good signature (minisign, public key "
			 "%s)", sig, pubkey);
	return 0;
}

/* The signer gpg's status lines (--status-fd) name: "[GNUPG:] VALIDSIG
 * <fingerprint> ..." and "[GNUPG:] GOODSIG <keyid> <user id>". */
static bool gpg_signer(FILE *f, char *fpr, size_t fprlen, char *uid, size_t uidlen)
{
	char line[2048];
	bool good = false, valid = false;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "[GNUPG:] GOODSIG ", 17)) {
			const char *u = strchr(line + 17, ' ');
			snprintf(uid, uidlen, "%s", u ? u + 1 : "");
			good = true;
		} else if (!strncmp(line, "[GNUPG:] VALIDSIG ", 18)) {
			snprintf(fpr, fprlen, "%.*s", (int)strcspn(line + 18, " "), line + 18);
			valid = true;
		}
	}
	return good && valid;
}

/* GnuPG's detached signature sig of man, with the keyring. */
static int verify_gpg(const char *man, const char *sig)
{
	if (!on_path("gpg")) {
		termsafe_println(stderr, "rtconform verify: %s: gpg is not installed (Debian "
				 "package gnupg)", sig);
		return EXIT_USAGE;
	}
	FILE *status = tmpfile();
	if (!status) {
		termsafe_println(stderr, "rtconform verify: %s: %s", sig, strerror(errno));
		return EXIT_FAILED;
	}
	char *argv[] = { "gpg", "--batch", "--quiet", "--status-fd", "1", "--verify", (char *)sig,
			 (char *)man, NULL };
	int st = run_tool(argv, fileno(status));
	rewind(status);
	char fpr[256] = "", uid[1024] = "";
	bool good = st == 0 && gpg_signer(status, fpr, sizeof fpr, uid, sizeof uid);
	fclose(status);
	if (!good) {
		termsafe_println(stderr, "rtconform verify: %s: BAD signature: gpg does not find "
				 "it a good signature of the manifest by a key of the keyring (see "
				 "above)", sig);
		return EXIT_FAILED;
	}
	termsafe_println(stdout, "rtconform verify: %s: good signature (gpg, key %s, %s)", sig,
			 fpr, uid);
	return 0;
}

int sign_verify(const char *dir, const char *pubkey)
{
	char man[PATH_MAX + 64], mini[PATH_MAX + 64], gsig[PATH_MAX + 64];
	snprintf(man, sizeof man, "%s/%s", dir, MANIFEST_NAME);
	snprintf(mini, sizeof mini, "%s/%s", dir, SIGN_MINISIG);
	snprintf(gsig, sizeof gsig, "%s/%s", dir, SIGN_GPG_SIG);
	bool has_mini = access(mini, F_OK) == 0, has_gpg = access(gsig, F_OK) == 0;
	int rc = 0;
	if (has_mini)
		rc = verify_minisign(man, mini, pubkey);
	if (has_gpg) {
		int g = verify_gpg(man, gsig);
		rc = g > rc ? g : rc;
	}
	if (!has_mini && !has_gpg && pubkey) {
		termsafe_println(stderr, "rtconform verify: %s: no signature (%s): --pubkey was "
				 "given, so one was expected", man, SIGN_MINISIG);
		rc = EXIT_FAILED;
	}
	return rc;
}
