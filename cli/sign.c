/* SPDX-License-Identifier: Apache-2.0 */
/* sign.c - MANIFEST.sha256 signed with minisign or GnuPG (cli/sign.h); the
 * signatures are checked in sign_check.c. */
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

static const char *tool_name(enum sign_tool t)
{
	return t == SIGN_MINISIGN ? "minisign" : "gpg";
}

/* Whether program name is an executable file in a directory of PATH. */
bool sign_on_path(const char *name)
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
int sign_run_tool(char *const argv[], int out_fd)
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
		st = sign_run_tool(k->tool == SIGN_MINISIGN ? mini : gpg, -1);
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
	if (!sign_on_path(tool_name(out->tool))) {
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

int sign_manifest(const char *cmd, const struct sign_key *k, const char *dir)
{
	char man[PATH_MAX + 64], sig[PATH_MAX + 64], tmp[PATH_MAX + 96];
	snprintf(man, sizeof man, "%s/%s", dir, MANIFEST_NAME);
	snprintf(sig, sizeof sig, "%s/%s", dir,
		 k->tool == SIGN_MINISIGN ? SIGN_MINISIG : SIGN_GPG_SIG);
	snprintf(tmp, sizeof tmp, "%s/.%s.rtc%ld", dir,
		 k->tool == SIGN_MINISIGN ? SIGN_MINISIG : SIGN_GPG_SIG, (long)getpid());
	unlink(tmp);
	char *mini[] = { "minisign", "-S", "-s", (char *)k->key, "-m", man, "-x", tmp, NULL };
	char *gpg[] = { "gpg", "--batch", "--yes", "--quiet", "--local-user", (char *)k->key,
			"--detach-sign", "--output", tmp, man, NULL };
	int st = sign_run_tool(k->tool == SIGN_MINISIGN ? mini : gpg, -1);
	if (st != 0 || rename(tmp, sig) != 0) {
		termsafe_println(stderr, "rtconform %s: cannot sign %s with %s (key %s): %s", cmd,
				 man, tool_name(k->tool), k->key,
				 st == 0 ? strerror(errno) : "the tool failed (see above)");
		unlink(tmp);
		return -1;
	}
	return 0;
}
