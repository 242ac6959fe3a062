/* SPDX-License-Identifier: Apache-2.0 */
/* test_safeopen.c - the one open of every file rtconform reads
 * (base/safeopen.c): a regular file opens (blocking again) and reads back
 * whole; a FIFO without a writer, a symbolic link (to a regular file), a
 * directory, a socket and a device are refused at once, each named; a link
 * in a parent directory is followed; a file over the limit is refused by
 * its size, naming it. */
#include <check.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/safeopen.h"
#include "test_util.h"

static char dir[] = "/tmp/test_safeopen.XXXXXX";

static const char *at(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	FILE *f = fopen(at("file"), "w");
	ck_assert_ptr_nonnull(f);
	fputs("abc\n", f);
	fclose(f);
}

static void teardown(void)
{
	tu_rm_tree(dir);
	strcpy(dir, "/tmp/test_safeopen.XXXXXX");
}

/* path must be refused with rc, err naming path and holding kind. */
static void refused(const char *path, int rc, const char *kind)
{
	char err[400];
	int fd = safeopen_regular(path, NULL, err, sizeof err);
	if (fd >= 0)
		close(fd);
	ck_assert_msg(fd == rc, "%s: %d, not %d", path, fd, rc);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, kind),
		      "%s: '%s' lacks the path or '%s'", path, err, kind);
	/* the reason alone, without the path */
	ck_assert_msg(!strncmp(safeopen_why(err, path), "not a regular file (", 20),
		      "'%s' of '%s'", safeopen_why(err, path), err);
	char *buf = (char *)"untouched";
	size_t len = 7;
	ck_assert_int_eq(safeopen_read(path, 100, "a test file", &buf, &len, err, sizeof err), rc);
	ck_assert_ptr_null(buf);
	ck_assert_ptr_nonnull(strstr(err, kind));
}

START_TEST(a_regular_file_opens_blocking_and_reads_whole)
{
	char err[400];
	off_t size = -1;
	int fd = safeopen_regular(at("file"), &size, err, sizeof err);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(size, 4);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	close(fd);
	char *buf;
	size_t len;
	ck_assert_int_eq(safeopen_read(at("file"), 4, "a test file", &buf, &len, err, sizeof err), 0);
	ck_assert_uint_eq(len, 4);
	ck_assert_str_eq(buf, "abc\n");
	free(buf);
	/* one byte over the limit: refused by its size, naming it */
	ck_assert_int_eq(safeopen_read(at("file"), 3, "a test file", &buf, &len, err, sizeof err),
			 -EFBIG);
	ck_assert_uint_eq(len, 4);
	ck_assert_ptr_nonnull(strstr(err, "4 bytes, more than the 3 a test file may be"));
	/* empty */
	close(open(at("empty"), O_CREAT | O_WRONLY, 0644));
	ck_assert_int_eq(safeopen_read(at("empty"), 3, "a test file", &buf, &len, err, sizeof err), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(buf, "");
	free(buf);
}
END_TEST

START_TEST(a_fifo_is_refused_at_once)
{
	ck_assert_int_eq(mkfifo(at("fifo"), 0600), 0);
	/* with no writer an open without O_NONBLOCK would block: Check's
	 * timeout would fail the test */
	refused(at("fifo"), -ENODEV, "not a regular file (a FIFO)");
}
END_TEST

START_TEST(a_symbolic_link_is_refused_not_followed)
{
	ck_assert_int_eq(symlink(at("file"), at("link")), 0);
	refused(at("link"), -ELOOP, "not a regular file (a symbolic link)");
	ck_assert_int_eq(symlink("nowhere", at("dangling")), 0);
	refused(at("dangling"), -ELOOP, "(a symbolic link)");
	/* a link above the last component is the path the user named */
	ck_assert_int_eq(symlink(dir, at("up")), 0);
	char p[300], err[400];
	snprintf(p, sizeof p, "%s/file", at("up"));
	int fd = safeopen_regular(p, NULL, err, sizeof err);
	ck_assert_msg(fd >= 0, "%s", err);
	close(fd);
}
END_TEST

START_TEST(a_directory_socket_or_device_is_refused)
{
	refused(dir, -EISDIR, "not a regular file (a directory)");
	refused("/dev/null", -ENODEV, "not a regular file (a character device)");
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", at("sock"));
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
	refused(at("sock"), -ENODEV, "not a regular file (a socket)");
	close(s);
	char err[400];
	ck_assert_int_eq(safeopen_regular(at("none"), NULL, err, sizeof err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "none: No such file"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("safeopen");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_regular_file_opens_blocking_and_reads_whole);
	tcase_add_test(tc, a_fifo_is_refused_at_once);
	tcase_add_test(tc, a_symbolic_link_is_refused_not_followed);
	tcase_add_test(tc, a_directory_socket_or_device_is_refused);
	return tu_run(s);
}
