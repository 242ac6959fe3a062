/* SPDX-License-Identifier: Apache-2.0 */
/* identity.c - see identity.h. The paths read are named here and nowhere
 * else. */
#include "host/identity.h"
#include "base/sha256.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Prepended to the machine id before hashing, so the digest is rtconform's
 * own: the same machine gives another program's salted digest (or the bare
 * SHA-256 of its id) a different value. Changing it changes every host.id. */
static const char id_salt[] = "rtconform host id, version 1\n";

static void set_unknown(struct host_id_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_unknown(struct host_id_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof t->why, fmt, ap);
	va_end(ap);
	t->known = false;
	t->text[0] = '\0';
}

/* Trailing white space and newlines off; an empty result is "". */
static void trim_end(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* The start of a file as one string (a device-tree property ends in NUL,
 * a sysfs attribute in a newline). Returns 0 or -errno; empty is -ENODATA. */
static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	size_t n = fread(buf, 1, len - 1, f);
	int err = ferror(f) ? -EIO : 0;
	fclose(f);
	buf[n] = '\0';
	if (err)
		return err;
	buf[strcspn(buf, "\n")] = '\0';
	trim_end(buf);
	return buf[0] ? 0 : -ENODATA;
}

static void read_text(struct host_id_text *t, const char *root, const char *path)
{
	char full[512];
	snprintf(full, sizeof full, "%s%s", root, path);
	int rc = read_small(full, t->text, sizeof t->text);
	t->known = rc == 0;
	if (rc)
		set_unknown(t, "%s: %s", path, rc == -ENODATA ? "empty" : strerror(-rc));
}

static bool exists(const char *root, const char *path)
{
	char full[512];
	struct stat st;
	snprintf(full, sizeof full, "%s%s", root, path);
	return stat(full, &st) == 0;
}

/* The value of an os-release line's assignment, quotes and backslash
 * escapes removed (the format is a shell-compatible subset). */
static void os_release_value(const char *v, char *out, size_t len)
{
	char quote = (*v == '"' || *v == '\'') ? *v++ : 0;
	size_t o = 0;
	for (; *v && *v != '\n' && o + 1 < len; v++) {
		if (quote && *v == quote)
			break;
		if (quote == '"' && *v == '\\' && v[1])
			v++;
		out[o++] = *v;
	}
	out[o] = '\0';
	trim_end(out);
}

/* NAME, VERSION_ID and PRETTY_NAME of /etc/os-release, or of
 * /usr/lib/os-release where /etc has none (os-release(5)). */
static void collect_os(struct host_identity *id, const char *root)
{
	static const char *const paths[] = { "/etc/os-release", "/usr/lib/os-release" };
	const char *used = paths[0];
	FILE *f = NULL;
	int err = 0;
	for (size_t i = 0; i < 2 && !f; i++) {
		char full[512];
		snprintf(full, sizeof full, "%s%s", root, paths[i]);
		used = paths[i];
		if (!(f = fopen(full, "re")) && i == 0)
			err = errno;
	}
	struct {
		const char *key;
		struct host_id_text *t;
	} keys[] = { { "NAME=", &id->os_name }, { "VERSION_ID=", &id->os_version },
		     { "PRETTY_NAME=", &id->os_pretty } };
	for (size_t k = 0; k < 3; k++) {
		int keylen = (int)strlen(keys[k].key) - 1; /* without its '=' */
		if (f)
			set_unknown(keys[k].t, "%s: no %.*s", used, keylen, keys[k].key);
		else
			set_unknown(keys[k].t, "%s: %s", paths[0], strerror(err));
	}
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f))
		for (size_t k = 0; k < 3; k++)
			if (!strncmp(line, keys[k].key, strlen(keys[k].key))) {
				struct host_id_text *t = keys[k].t;
				os_release_value(line + strlen(keys[k].key), t->text, sizeof t->text);
				t->known = t->text[0] != '\0';
				if (!t->known)
					set_unknown(t, "%s: %s is empty", used, keys[k].key);
			}
	fclose(f);
}

void host_identity_hash(const char *machine_id, char out[HOST_ID_HEX + 1])
{
	struct sha256_ctx c;
	unsigned char d[32];
	char hex[65];
	sha256_init(&c);
	sha256_update(&c, id_salt, sizeof id_salt - 1);
	sha256_update(&c, machine_id, strlen(machine_id));
	sha256_final(&c, d);
	sha256_hex(d, hex);
	memcpy(out, hex, HOST_ID_HEX);
	out[HOST_ID_HEX] = '\0';
}

/* read_text of a machine id, unknown unless it is one (machine-id(5): 32
 * hex digits): systemd writes "uninitialized" there until the first boot
 * completes, and a placeholder shared by every image is no identity. */
static void read_machine_id(struct host_id_text *t, const char *root, const char *path)
{
	read_text(t, root, path);
	if (!t->known)
		return;
	if (strcmp(t->text, "uninitialized") == 0) {
		set_unknown(t, "%s: uninitialized (the first boot has not completed)", path);
		return;
	}
	size_t n = strspn(t->text, "0123456789abcdefABCDEF");
	if (n != 32 || t->text[n] != '\0')
		set_unknown(t, "%s: not a machine id (32 hex digits)", path);
}

/* The machine id, hashed at once: the raw id is never kept. /etc/machine-id
 * (systemd), else D-Bus's copy where a system has only that. */
static void collect_machine_id(struct host_identity *id, const char *root)
{
	struct host_id_text *t = &id->machine_id;
	char raw[sizeof t->text];
	read_machine_id(t, root, "/etc/machine-id");
	if (!t->known) {
		struct host_id_text dbus;
		read_machine_id(&dbus, root, "/var/lib/dbus/machine-id");
		if (dbus.known)
			*t = dbus;
	}
	if (!t->known)
		return;
	snprintf(raw, sizeof raw, "%s", t->text);
	host_identity_hash(raw, t->text);
	memset(raw, 0, sizeof raw);
}

void host_identity_collect(struct host_identity *id, const char *root)
{
	memset(id, 0, sizeof *id);
	id->dmi_present = exists(root, "/sys/class/dmi/id");
	read_text(&id->dmi_vendor, root, "/sys/class/dmi/id/sys_vendor");
	read_text(&id->dmi_product, root, "/sys/class/dmi/id/product_name");
	read_text(&id->dmi_board, root, "/sys/class/dmi/id/board_name");

	static const char *const dt[] = { "/proc/device-tree", "/sys/firmware/devicetree/base" };
	id->devicetree_present = exists(root, dt[0]) || exists(root, dt[1]);
	read_text(&id->devicetree_model, root, "/proc/device-tree/model");
	if (!id->devicetree_model.known) {
		struct host_id_text sys;
		read_text(&sys, root, "/sys/firmware/devicetree/base/model");
		if (sys.known)
			id->devicetree_model = sys;
	}
	collect_os(id, root);
	collect_machine_id(id, root);
}

_Static_assert(HOST_LABEL_MAX == 64, "host_label_problem's sentence names the limit");

const char *host_label_problem(const char *name)
{
	size_t n = strlen(name);
	if (n == 0)
		return "it is empty";
	if (n > HOST_LABEL_MAX)
		return "it is longer than 64 characters"; /* HOST_LABEL_MAX */
	for (size_t i = 0; i < n; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			return "it may hold only printable ASCII characters (letters, digits, "
			       "punctuation, spaces)";
	if (name[0] == ' ' || name[n - 1] == ' ')
		return "it begins or ends with a space";
	return NULL;
}
