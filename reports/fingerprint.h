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

struct timebase;
struct req_file;

/* Collect the fingerprint of this machine. tb may be NULL. Never fails:
 * a value that cannot be read is "unknown (reason)". */
void fingerprint_collect(struct fingerprint *fp, const struct timebase *tb);
void fingerprint_add(struct fingerprint *fp, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* What a run adds once it is over: rtconform.command (the exact command,
 * shell-quoted), rtconform.cwd, rtconform.started and rtconform.ended (UTC,
 * "2024-05-01T12:00:00Z"), and for each requirements file N (from 1)
 * requirements.N.path and requirements.N.sha256. */
void fingerprint_add_run(struct fingerprint *fp, const char *command, time_t started,
			 time_t ended, struct req_file *const *files, size_t nfiles);
const char *fingerprint_get(const struct fingerprint *fp, const char *key);
void fingerprint_free(struct fingerprint *fp);

#endif
