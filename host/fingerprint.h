/* SPDX-License-Identifier: Apache-2.0 */
/* fingerprint.h - the environment a run measured on, taken once per run and
 * carried by every report. */
#ifndef RTC_FINGERPRINT_H
#define RTC_FINGERPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "base/strhash.h"
#include "host/facts.h"

/* A fingerprint is an ordered list of key/value pairs ("host.name",
 * "host.kernel.release", "rtconform.version", ...). Owns its strings. */
struct fp_entry {
	char *key;
	char *value;
};

struct fingerprint {
	struct fp_entry *e;
	size_t n, cap;
	struct strhash index; /* key -> its position in e: a read file may hold thousands */
};

/* Add the host.* keys, rendered from facts (host_facts_collect), in their
 * fixed order. A fact that could not be read shows as "unknown (reason)". */
void fingerprint_add_host(struct fingerprint *fp, const struct host_facts *f);

/* A buffer this long holds any host.* value. */
#define FP_HOST_VALUE_MAX 8192

/* The value of one host.* key exactly as fingerprint_add_host renders it,
 * for sentences that quote it. False when f gives the key no value
 * (host.container without systemd-detect-virt) or the key is not one of
 * the host.* keys. */
bool fingerprint_host_value(const struct host_facts *f, const char *key, char *buf, size_t len);

/* The evidence host.virtual_machine cites: "cpuinfo hypervisor flag: yes;
 * dmi sys_vendor: QEMU; systemd-detect-virt --vm: kvm". */
void fingerprint_virt_evidence(const struct host_virt *v, char *buf, size_t len);
/* Whether two fingerprints are of one host: host.label, host.name and
 * host.id are each the same in both (or absent from both). The one rule
 * every reader and `compare` use to tell hosts apart. */
bool fingerprint_same_host(const struct fingerprint *a, const struct fingerprint *b);

/* The host as messages name it: "board-7 (host rpi4, id 0123456789abcdef)",
 * "rpi4 (id 0123456789abcdef)", or the host name alone. */
void fingerprint_host_title(const struct fingerprint *fp, char *buf, size_t len);

/* The title, then the hardware and OS where known, for report headers:
 * "rpi4 (id 0123...); Raspberry Pi 4 Model B Rev 1.4; Debian GNU/Linux 12 (bookworm)". */
void fingerprint_host_summary(const struct fingerprint *fp, char *buf, size_t len);

void fingerprint_add(struct fingerprint *fp, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *fingerprint_get(const struct fingerprint *fp, const char *key);
void fingerprint_free(struct fingerprint *fp);

#endif
