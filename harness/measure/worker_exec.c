/* rtconform-worker: the slim measuring process (see worker.h). Started by
 * rtconform's runner as `rtconform-worker FD`, FD being the result memory
 * (a memfd) that also holds what to measure. Not meant to be run by hand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/measure/worker.h"

int main(int argc, char **argv)
{
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
