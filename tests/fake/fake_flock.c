/* SPDX-License-Identifier: Apache-2.0 */
/* fake_flock.c - an LD_PRELOAD library for tests/cli/outdir.sh: the first
 * flock() of a file named .rtconform.lock finds it removed just before,
 * as when the lock's last holder removed it (at its end, while it held it)
 * between this command's open() and its flock(). That moment cannot be hit
 * on purpose otherwise; output/lock.c must then lock the file at the path
 * again, not keep a lock on one no longer there. Every other flock(), and
 * every later one, is passed on unchanged. With FAKE_FLOCK_IGNORE set,
 * flock() instead accepts every call and does nothing, as a library that
 * silently drops the request would: the lock must not pass for taken.
 * Built as a MODULE library, with the tests only (tests/CMakeLists.txt).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

typedef int (*flock_fn)(int, int);

static int removed_once;

int flock(int fd, int op)
{
	flock_fn real = (flock_fn)dlsym(RTLD_NEXT, "flock");
	if (getenv("FAKE_FLOCK_IGNORE")) {
		(void)fd;
		(void)op;
		return 0;
	}
	char link[64], path[4096];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof path - 1);
	if (!removed_once && n > 0) {
		path[n] = 0;
		const char *base = strrchr(path, '/');
		if (base && strcmp(base + 1, ".rtconform.lock") == 0) {
			removed_once = 1;
			unlink(path);
		}
	}
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, op);
}
