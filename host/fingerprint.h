/* fingerprint.h - the environment a run measured on, taken once per run and
 * carried by every report. */
#ifndef RTC_FINGERPRINT_H
#define RTC_FINGERPRINT_H

#include <stddef.h>
#include <time.h>

/* A fingerprint is an ordered list of key/value pairs ("host.name",
 * "host.kernel.release", "rtconform.version", ...). Owns its strings. */
struct fp_entry {
	char *key;
	char *value;
};

struct fingerprint {
	struct fp_entry *e;
	size_t n, cap;
};

/* Collect the fingerprint of this machine (host.*). Never fails:
 * a value that cannot be read is "unknown (reason)". */
void fingerprint_collect(struct fingerprint *fp);
void fingerprint_add(struct fingerprint *fp, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *fingerprint_get(const struct fingerprint *fp, const char *key);
void fingerprint_free(struct fingerprint *fp);

#endif
