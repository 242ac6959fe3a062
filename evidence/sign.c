/* SPDX-License-Identifier: Apache-2.0 */
/* sign.c - MANIFEST.sha256 signed with minisign or GnuPG (sign.h); the
 * signatures are checked in sign_check.c. */
#include "evidence/manifest.h"
#include "evidence/sign.h"

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
		st = sign_run_tool(k->tool == SIGN_MINISIGN ? mini : gpg, -1);
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
