/* SPDX-License-Identifier: Apache-2.0 */
/* rtconform-worker: the slim measuring process (see worker.h). Started by
 * rtconform's runner as `rtconform-worker FD`, FD being the result memory
 * (a memfd) that also holds what to measure. Not meant to be run by hand.
 *
 * `rtconform-worker --capabilities` prints the effective capability set it
 * was started with (hexadecimal, as /proc/self/status writes it), then
 * what mlockall(MCL_CURRENT | MCL_FUTURE) gave it (0 or the errno), and
 * exits: what the kernel gave the worker, file capabilities, no_new_privs,
 * the memlock limit against the worker's own size and every other rule
 * included, for the fingerprint and the readiness checks (host/facts.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/rtperm.h"
#include "harness/measure/worker.h"

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--capabilities") == 0) {
		unsigned long long eff;
		if (!rtperm_caps(&eff))
			return 1;
		int ml = mlockall(MCL_CURRENT | MCL_FUTURE) == 0 ? 0 : errno;
		printf("%016llx %d\n", eff, ml);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (argc != 2) {
		fprintf(stderr, "rtconform-worker: started by rtconform run, not by hand\n");
		return 2;
	}
	char *end;
	long fd = strtol(argv[1], &end, 10);
	struct stat st;
	if (*end || fd < 0 || fd > 1024 || fstat((int)fd, &st) != 0 ||
	    (size_t)st.st_size < sizeof(struct result_shm)) {
		fprintf(stderr, "rtconform-worker: '%s' is not rtconform's result memory\n", argv[1]);
		return 2;
	}
	struct result_shm *res = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
				      MAP_SHARED, (int)fd, 0);
	if (res == MAP_FAILED) {
		fprintf(stderr, "rtconform-worker: mmap: %s\n", strerror(errno));
		return 2;
	}
	close((int)fd);
	struct probe_ctx c;
	if (worker_ctx_load(&c, res) != 0) {
		res->state = WS_FAILED;
		return 1;
	}
	worker_main(&c);
}
