/* SPDX-License-Identifier: Apache-2.0 */
/* identity.h - which machine a run measured on, beyond its host name.
 *
 * A lab qualifies one OS on many boards, often with the same host name on
 * each; what tells them apart is the hardware's own name (DMI vendor,
 * product and board on PCs and servers, the device-tree model on boards
 * without DMI), the OS release, and the machine id. These facts are read
 * once with the others (host_facts_collect) and rendered as the host.dmi.*,
 * host.devicetree.model, host.os.* and host.id keys of the fingerprint.
 *
 * Nothing secret leaves the machine: serial numbers are never read, and the
 * machine id (/etc/machine-id, which systemd says must not be exposed
 * as is) is kept only as a digest salted for rtconform, so a report names
 * the machine without revealing the id other programs key on.
 */
#ifndef RTC_IDENTITY_H
#define RTC_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#define HOST_ID_WHY_LEN 192

/* One identity string as read (trailing white space removed). */
struct host_id_text {
	bool known;
	char why[HOST_ID_WHY_LEN]; /* "/sys/class/dmi/id/board_name: No such file ..." */
	char text[256];
};

/* Hex digits of the hashed machine id that reports keep: 64 bits, enough
 * to tell a lab's boards apart, too few to be the id itself. */
#define HOST_ID_HEX 16

struct host_identity {
	bool dmi_present;                      /* /sys/class/dmi/id exists */
	struct host_id_text dmi_vendor;        /* sys_vendor */
	struct host_id_text dmi_product;       /* product_name */
	struct host_id_text dmi_board;         /* board_name */
	bool devicetree_present;               /* /proc/device-tree (or the sysfs one) exists */
	struct host_id_text devicetree_model;  /* its model property */
	struct host_id_text os_name;           /* os-release NAME */
	struct host_id_text os_version;        /* os-release VERSION_ID */
	struct host_id_text os_pretty;         /* os-release PRETTY_NAME */
	struct host_id_text machine_id;        /* HOST_ID_HEX digits of the salted digest */
};

/* Read the identity of the machine whose file system is at root ("" for
 * this one; a directory for tests that fake /sys, /proc and /etc). Never
 * fails: what cannot be read is marked so with the reason. */
void host_identity_collect(struct host_identity *id, const char *root);

/* The hashed form of a machine id as reports keep it: the first
 * HOST_ID_HEX hex digits of SHA-256 over rtconform's salt and the id. */
void host_identity_hash(const char *machine_id, char out[HOST_ID_HEX + 1]);

/* NULL when NAME may be a --host-label, else why not (a sentence). A label
 * is 1 to HOST_LABEL_MAX printable ASCII characters, not beginning or
 * ending with a space: it names the host in report titles, file listings
 * and CI dashboards, where control characters and lookalike letters do
 * harm. */
#define HOST_LABEL_MAX 64
const char *host_label_problem(const char *name);

#endif
