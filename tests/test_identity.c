/* SPDX-License-Identifier: Apache-2.0 */
/* test_identity.c - which machine a report is of: the identity read from a
 * made-up file system (a PC with DMI, a board with a device tree, a system
 * with neither), the machine id kept only as rtconform's salted digest, the
 * --host-label rule, and the one rule that tells two hosts apart.
 */
#include <check.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/facts.h"
#include "host/fingerprint.h"
#include "host/identity.h"
#include "test_util.h"

/* Write len bytes to root/rel, making its directories. */
static void put_file(const char *root, const char *rel, const char *data, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put(const char *root, const char *rel, const char *text)
{
	put_file(root, rel, text, strlen(text));
}

static char *make_root(void)
{
	char *root = strdup("/tmp/rtc-identity-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	return root;
}

/* The fingerprint's host.* keys of an identity (the other facts empty). */
static void render(const struct host_identity *id, struct fingerprint *fp)
{
	static struct host_facts f; /* large: not on the stack */
	memset(&f, 0, sizeof f);
	f.identity = *id;
	f.uname = (struct host_uname){ .known = true, .nodename = "bench-1" };
	fingerprint_add_host(fp, &f);
}

static const char raw_id[] = "0123456789abcdef0123456789abcdef";
/* The first 16 hex digits of SHA-256("rtconform host id, version 1\n" +
 * raw_id), computed with Python's hashlib. */
static const char hashed_id[] = "88c7034df9ab0542";

START_TEST(pc_with_dmi)
{
	char *root = make_root();
	put(root, "sys/class/dmi/id/sys_vendor", "Acme Computers\n");
	put(root, "sys/class/dmi/id/product_name", "RT Box 9  \n");
	put(root, "sys/class/dmi/id/board_name", "RTB9-MB\n");
	put(root, "sys/class/dmi/id/product_serial", "SERIAL-DO-NOT-SHOW\n");
	put(root, "sys/class/dmi/id/board_serial", "SERIAL-DO-NOT-SHOW\n");
	put(root, "etc/os-release", "# comment\nNAME=\"Debian GNU/Linux\"\nVERSION_ID='12'\n"
	    "PRETTY_NAME=\"Debian \\\"GNU\\\"/Linux 12 (bookworm)\"\nID=debian\n");
	char idline[64];
	snprintf(idline, sizeof idline, "%s\n", raw_id);
	put(root, "etc/machine-id", idline);

	struct host_identity id;
	host_identity_collect(&id, root);
	ck_assert(id.dmi_present);
	ck_assert(!id.devicetree_present);
	ck_assert_str_eq(id.dmi_vendor.text, "Acme Computers");
	ck_assert_str_eq(id.dmi_product.text, "RT Box 9");
	ck_assert_str_eq(id.dmi_board.text, "RTB9-MB");
	ck_assert_str_eq(id.os_name.text, "Debian GNU/Linux");
	ck_assert_str_eq(id.os_version.text, "12");
	ck_assert_str_eq(id.os_pretty.text, "Debian \"GNU\"/Linux 12 (bookworm)");
	ck_assert(id.machine_id.known);
	ck_assert_str_eq(id.machine_id.text, hashed_id);

	struct fingerprint fp = { 0 };
	render(&id, &fp);
	ck_assert_str_eq(fingerprint_get(&fp, "host.id"), hashed_id);
	ck_assert_str_eq(fingerprint_get(&fp, "host.dmi.board"), "RTB9-MB");
	ck_assert_str_eq(fingerprint_get(&fp, "host.os.version"), "12");
	ck_assert_ptr_null(fingerprint_get(&fp, "host.devicetree.model"));
	/* Neither a serial nor the raw machine id is anywhere in it. */
	for (size_t i = 0; i < fp.n; i++) {
		ck_assert_ptr_null(strstr(fp.e[i].value, "SERIAL"));
		ck_assert_ptr_null(strstr(fp.e[i].value, "0123456789abcdef"));
	}
	char line[1024];
	fingerprint_host_summary(&fp, line, sizeof line);
	ck_assert_str_eq(line, "bench-1 (id 88c7034df9ab0542); Acme Computers RT Box 9, "
			       "board RTB9-MB; Debian \"GNU\"/Linux 12 (bookworm)");
	fingerprint_free(&fp);
	tu_rm_tree(root);
	free(root);
}
END_TEST

START_TEST(board_with_device_tree)
{
	char *root = make_root();
	/* A device-tree string property ends in NUL, not a newline. */
	static const char model[] = "Raspberry Pi 4 Model B Rev 1.4";
	put_file(root, "sys/firmware/devicetree/base/model", model, sizeof model);
	put(root, "usr/lib/os-release", "NAME=Yocto\nVERSION_ID=5.0\nPRETTY_NAME=\"Yocto 5.0\"\n");
	put(root, "var/lib/dbus/machine-id", raw_id);

	struct host_identity id;
	host_identity_collect(&id, root);
	ck_assert(!id.dmi_present);
	ck_assert(id.devicetree_present);
	ck_assert_str_eq(id.devicetree_model.text, model);
	ck_assert_str_eq(id.os_name.text, "Yocto");
	ck_assert_str_eq(id.machine_id.text, hashed_id);

	struct fingerprint fp = { 0 };
	render(&id, &fp);
	ck_assert_str_eq(fingerprint_get(&fp, "host.devicetree.model"), model);
	ck_assert_ptr_null(fingerprint_get(&fp, "host.dmi.vendor"));
	ck_assert_ptr_null(fingerprint_get(&fp, "host.dmi.board"));
	char line[1024];
	fingerprint_host_summary(&fp, line, sizeof line);
	ck_assert_str_eq(line, "bench-1 (id 88c7034df9ab0542); Raspberry Pi 4 Model B "
			       "Rev 1.4; Yocto 5.0");
	fingerprint_free(&fp);
	tu_rm_tree(root);
	free(root);
}
END_TEST

START_TEST(nothing_readable_says_why)
{
	char *root = make_root();
	put(root, "etc/os-release", "NAME=Plain\nVERSION_ID=\n");
	struct host_identity id;
	host_identity_collect(&id, root);
	struct fingerprint fp = { 0 };
	render(&id, &fp);
	/* Neither DMI nor a device tree: both are shown as looked for. */
	ck_assert_str_eq(fingerprint_get(&fp, "host.dmi.vendor"),
			 "unknown (/sys/class/dmi/id/sys_vendor: No such file or directory)");
	ck_assert_str_eq(fingerprint_get(&fp, "host.devicetree.model"),
			 "unknown (/proc/device-tree/model: No such file or directory)");
	ck_assert_str_eq(fingerprint_get(&fp, "host.id"),
			 "unknown (/etc/machine-id: No such file or directory)");
	ck_assert_str_eq(fingerprint_get(&fp, "host.os.name"), "Plain");
	ck_assert_str_eq(fingerprint_get(&fp, "host.os.version"),
			 "unknown (/etc/os-release: VERSION_ID= is empty)");
	ck_assert_str_eq(fingerprint_get(&fp, "host.os"),
			 "unknown (/etc/os-release: no PRETTY_NAME)");
	char line[1024];
	fingerprint_host_summary(&fp, line, sizeof line);
	ck_assert_str_eq(line, "bench-1");
	fingerprint_free(&fp);
	tu_rm_tree(root);

	/* No os-release at all. */
	struct host_identity none;
	host_identity_collect(&none, "/nonexistent-rtc-root");
	ck_assert(!none.os_pretty.known);
	ck_assert_str_eq(none.os_pretty.why, "/etc/os-release: No such file or directory");
	free(root);
}
END_TEST

/* A machine id that is none is left out, with the reason, never hashed:
 * empty, systemd's "uninitialized" of a first boot, or not 32 hex digits;
 * D-Bus's copy is used when it is a real one. */
START_TEST(machine_id_not_an_id)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "\n", "unknown (/etc/machine-id: empty)" },
		{ "uninitialized\n",
		  "unknown (/etc/machine-id: uninitialized (the first boot has not completed))" },
		{ "0123456789abcdef\n", "unknown (/etc/machine-id: not a machine id (32 hex digits))" },
		{ "0123456789abcdef0123456789abcdeg\n",
		  "unknown (/etc/machine-id: not a machine id (32 hex digits))" },
		{ "0123456789abcdef0123456789abcdef0\n",
		  "unknown (/etc/machine-id: not a machine id (32 hex digits))" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *root = make_root();
		put(root, "etc/machine-id", bad[i].text);
		struct host_identity id;
		host_identity_collect(&id, root);
		ck_assert(!id.machine_id.known);
		struct fingerprint fp = { 0 };
		render(&id, &fp);
		ck_assert_str_eq(fingerprint_get(&fp, "host.id"), bad[i].why);
		fingerprint_free(&fp);
		/* a real id in D-Bus's place is taken instead */
		put(root, "var/lib/dbus/machine-id", raw_id);
		host_identity_collect(&id, root);
		ck_assert(id.machine_id.known);
		ck_assert_str_eq(id.machine_id.text, hashed_id);
		tu_rm_tree(root);
		free(root);
	}
}
END_TEST

START_TEST(this_machine)
{
	/* What this machine has is read, and the id never appears raw. */
	struct host_identity id;
	host_identity_collect(&id, "");
	char raw[128] = "";
	FILE *f = fopen("/etc/machine-id", "r");
	if (f) {
		ck_assert_ptr_nonnull(fgets(raw, sizeof raw, f));
		fclose(f);
		raw[strcspn(raw, "\n")] = '\0';
		if (strlen(raw) != 32 || raw[strspn(raw, "0123456789abcdefABCDEF")]) {
			ck_assert(!id.machine_id.known); /* a first boot's, or an image's */
			return;
		}
		char want[HOST_ID_HEX + 1];
		host_identity_hash(raw, want);
		ck_assert_str_eq(id.machine_id.text, want);
		ck_assert_uint_eq(strlen(id.machine_id.text), HOST_ID_HEX);
		ck_assert_ptr_null(strstr(raw, id.machine_id.text));
	} else {
		ck_assert(!id.machine_id.known);
	}
	ck_assert_int_eq(id.os_name.known, access("/etc/os-release", R_OK) == 0 ||
						   access("/usr/lib/os-release", R_OK) == 0);
}
END_TEST

START_TEST(host_label_rule)
{
	ck_assert_ptr_null(host_label_problem("board-7"));
	ck_assert_ptr_null(host_label_problem("rack 3 / slot 12 (rpi4)"));
	char longest[HOST_LABEL_MAX + 2];
	memset(longest, 'x', HOST_LABEL_MAX);
	longest[HOST_LABEL_MAX] = '\0';
	ck_assert_ptr_null(host_label_problem(longest));
	longest[HOST_LABEL_MAX] = 'x';
	longest[HOST_LABEL_MAX + 1] = '\0';
	ck_assert_str_eq(host_label_problem(longest), "it is longer than 64 characters");
	ck_assert_str_eq(host_label_problem(""), "it is empty");
	ck_assert_ptr_nonnull(host_label_problem("a\tb"));
	ck_assert_ptr_nonnull(host_label_problem("a\nb"));
	ck_assert_ptr_nonnull(host_label_problem("caf\xc3\xa9"));
	ck_assert_ptr_nonnull(host_label_problem("\x1b[31mred"));
	ck_assert_str_eq(host_label_problem(" lead"), "it begins or ends with a space");
	ck_assert_str_eq(host_label_problem("trail "), "it begins or ends with a space");
}
END_TEST

START_TEST(telling_hosts_apart)
{
	struct fingerprint a = { 0 }, b = { 0 };
	fingerprint_add(&a, "host.name", "rpi");
	fingerprint_add(&a, "host.id", "1111111111111111");
	fingerprint_add(&a, "host.kernel.release", "6.1");
	fingerprint_add(&b, "host.name", "rpi");
	fingerprint_add(&b, "host.id", "1111111111111111");
	fingerprint_add(&b, "host.kernel.release", "6.6"); /* not identity: same host */
	ck_assert(fingerprint_same_host(&a, &b));

	fingerprint_add(&b, "host.id", "2222222222222222"); /* same name, other board */
	ck_assert(!fingerprint_same_host(&a, &b));
	fingerprint_add(&b, "host.id", "1111111111111111");
	fingerprint_add(&b, "host.label", "rack-1"); /* a label on one side only */
	ck_assert(!fingerprint_same_host(&a, &b));
	fingerprint_add(&a, "host.label", "rack-1");
	ck_assert(fingerprint_same_host(&a, &b));
	fingerprint_add(&a, "host.name", "other");
	ck_assert(!fingerprint_same_host(&a, &b));

	char t[256];
	fingerprint_host_title(&b, t, sizeof t);
	ck_assert_str_eq(t, "rack-1 (host rpi, id 1111111111111111)");
	struct fingerprint c = { 0 };
	fingerprint_add(&c, "host.name", "old");
	fingerprint_add(&c, "host.label", "lab");
	fingerprint_host_title(&c, t, sizeof t);
	ck_assert_str_eq(t, "lab (host old)");
	fingerprint_add(&c, "host.id", "unknown (/etc/machine-id: No such file or directory)");
	fingerprint_host_title(&c, t, sizeof t);
	ck_assert_str_eq(t, "lab (host old)");
	fingerprint_free(&a);
	fingerprint_free(&b);
	fingerprint_free(&c);
}
END_TEST

static Suite *identity_suite(void)
{
	Suite *s = suite_create("identity");
	TCase *tc = tu_tcase(s, "core", 10);
	tcase_add_test(tc, pc_with_dmi);
	tcase_add_test(tc, board_with_device_tree);
	tcase_add_test(tc, nothing_readable_says_why);
	tcase_add_test(tc, machine_id_not_an_id);
	tcase_add_test(tc, this_machine);
	tcase_add_test(tc, host_label_rule);
	tcase_add_test(tc, telling_hosts_apart);
	return s;
}

int main(void)
{
	return tu_run(identity_suite());
}
