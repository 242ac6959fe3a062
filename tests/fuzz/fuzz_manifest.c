/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_manifest.c - libFuzzer target: arbitrary bytes as a MANIFEST.sha256
 * from another machine, through what `rtconform verify` does with one
 * before it opens a listed file: the bounded read of a regular file
 * (base/safeopen.c, the manifest's 16 MiB limit), the parser, and the index
 * verify looks every path up in. Any crash, hang, sanitizer report or leak
 * fails the run, and so does a parse that breaks its own rules: an entry
 * the index does not find, a path manifest_path_ok refuses, a digest that
 * is not 64 lower-case hex digits. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "evidence/manifest.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz_manifest.XXXXXX", input[64];

static void drop_input(void)
{
	unlink(input);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	snprintf(input, sizeof input, "%s/%s", dir, MANIFEST_NAME);
	atexit(drop_input);
	return 0;
}

/* The rules every parsed manifest keeps; abort() when one is broken. */
static void check(const struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct manifest_entry *e = &m->e[i];
		if (manifest_find(m, e->path) != e || !manifest_path_ok(e->path) ||
		    e->line != i + 1 || strlen(e->hex) != 64 ||
		    strspn(e->hex, "0123456789abcdef") != 64)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = open(input, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	char *text, err[512], why[400];
	size_t len, line;
	if (safeopen_read(input, 16u << 20, "manifest", &text, &len, err, sizeof err) != 0)
		abort(); /* a regular file under the limit: always read */
	if (len != size || memcmp(text, data, size) != 0)
		abort();
	struct manifest m;
	int rc = manifest_parse(text, len, &m, &line, why, sizeof why);
	if (rc == 0)
		check(&m);
	else if (rc == -EINVAL && line == 0)
		abort(); /* a malformed manifest is refused naming its line */
	manifest_free(&m);
	free(text);
	return 0;
}
