/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_results.c - libFuzzer target: arbitrary bytes as a results.json from
 * another machine, through what `rtconform report` and `compare` do with
 * one: the reader, then every report rendered from the view, then a
 * comparison against a real run's results.json (RTC_FUZZ_BASE, read once;
 * without it the input is compared with itself) and its three reports.
 * Any crash, hang, sanitizer report or leak fails the run.
 *
 * The reader takes a path, as the commands give it: the input is written to
 * a regular file in a private directory, as users name them (a
 * /proc/self/fd path would not do: it is a symbolic link, which every reader
 * refuses, base/safeopen.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

#include "across/compare.h"
#include "reports/read/read.h"
#include "reports/report.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct report_view base;
static bool have_base;
static char dir[] = "/tmp/fuzz_results.XXXXXX", input[64];

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
	snprintf(input, sizeof input, "%s/results.json", dir);
	atexit(drop_input);
	const char *path = getenv("RTC_FUZZ_BASE");
	char err[512];
	if (path && report_view_read(path, &base, err, sizeof err) == 0)
		have_base = true;
	else if (path)
		fprintf(stderr, "fuzz_results: RTC_FUZZ_BASE: %s\n", err);
	return 0;
}

/* Each renderer's buffer, rendered and dropped: what matters is that it
 * returns. */
static void render_all(const struct report_view *v)
{
	char why[256];
	size_t len;
	free(report_html_render(v, &len, why, sizeof why));
	free(report_json_render(v, &len, why, sizeof why));
	free(report_junit_render(v, &len, why, sizeof why));
	free(report_summary_render(v, &len, why, sizeof why));
}

static void compare_with(const struct report_view *b, const struct report_view *c)
{
	struct cmp_opts o = { .tolerance = 0.5, .significance = 0.05 };
	struct cmp_result r = { 0 };
	char err[512];
	size_t len;
	if (cmp_views(b, c, &o, &r, err, sizeof err) == 0) {
		free(cmp_render_text(&r, &len));
		free(cmp_render_junit(&r, &len));
		free(cmp_render_html(&r, &len));
	}
	cmp_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = open(input, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	char err[1024];
	struct report_view v;
	if (report_view_read(input, &v, err, sizeof err) == 0) {
		render_all(&v);
		compare_with(have_base ? &base : &v, &v);
		report_view_free(&v);
	}
	return 0;
}
