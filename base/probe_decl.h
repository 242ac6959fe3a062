/* probe_decl.h - what a probe declares about itself: its name, parameters
 * (with their kinds, allowed values and defaults) and metrics.
 *
 * Plain constant data with no behaviour beyond an optional check of a
 * combination of values, so that the validator (requirements/) can check a
 * file against the probes without linking them, and the probes
 * (harness/measure/probes/) declare themselves without seeing the
 * requirements model. Also the bounds both sides must agree on.
 */
#ifndef RTC_PROBE_DECL_H
#define RTC_PROBE_DECL_H

#include <stddef.h>

/* Most runs a requirement may ask for and a worker records. */
#define RTC_MAX_RUNS 1000u
/* Most parameters and metrics a probe may declare. */
#define PROBE_MAX_PARAMS 8
#define PROBE_MAX_METRICS 8

enum param_kind {
	PARAM_ENUM,     /* one of values[] */
	PARAM_COUNT,    /* positive integer */
	PARAM_DURATION, /* duration with unit */
	PARAM_CPULIST,  /* "all" or "0,2-3" */
};

struct probe_param {
	const char *name;
	const char *help;
	enum param_kind kind;
	const char *const *values; /* PARAM_ENUM: NULL-terminated allowed values */
	const char *def;           /* default value as text */
};

struct probe_metric {
	const char *name;  /* "per-op", "wakeup" */
	const char *help;
};

struct probe_decl {
	const char *name;
	const char *help;
	const struct probe_param *params;
	size_t nparams;
	const struct probe_metric *metrics;
	size_t nmetrics;
	/* Optional: reject a combination of parameter values that cannot work
	 * (values[i] is params[i]'s value, defaults applied). Return NULL if fine,
	 * else a sentence saying why, written into buf. */
	const char *(*check)(const char *const *values, char *buf, size_t len);
};

/* The probes a requirements file may name, in the order `rtconform list`
 * shows them. */
struct probe_catalog {
	const struct probe_decl *const *probes;
	size_t n;
};

/* The probe of a catalogue called `name`, or NULL. */
const struct probe_decl *catalog_find(const struct probe_catalog *c, const char *name);

/* Index of a parameter / metric of a declaration by name, or -1. */
int decl_param_index(const struct probe_decl *p, const char *name);
int decl_metric_index(const struct probe_decl *p, const char *name);

#endif
