/* SPDX-License-Identifier: Apache-2.0 */
/* units.h - parsing and printing of durations, cycle counts and counts.
 *
 * A quantity in a requirements file is a decimal number followed by a unit:
 * ns, us, µs, ms, s (durations) or cycles (timebase ticks on a TSC timebase).
 * Whitespace between number and unit is allowed. Parsing is strict: no sign,
 * no exponent, no trailing garbage, and the value must fit (<= ~584 years).
 */
#ifndef RTC_UNITS_H
#define RTC_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* QTY_COUNT: a bare number, no unit (a bound on a count metric). */
enum qty_unit { QTY_NS, QTY_CYCLES, QTY_COUNT };

struct quantity {
	double value;        /* in ns (QTY_NS), cycles (QTY_CYCLES) or events (QTY_COUNT) */
	enum qty_unit unit;
};

/* Parse "50us", "1.5 ms", "300µs", "1200cycles". Returns 0, or -EINVAL with a
 * human message in err ("unknown unit 'parsecs' (expected ns, us, µs, ms, s or
 * cycles)"), or -ERANGE when the value is zero-or-less where allow_zero is
 * false, or does not fit. */
int units_qty_parse(const char *text, bool allow_zero, struct quantity *out,
	      char *err, size_t errlen);

/* A limit's bound: what units_qty_parse takes (zero allowed), or a bare number
 * ("0", "2.5"), which is a count (QTY_COUNT). Whether the unit, or its
 * absence, fits the metric is the validator's question. Same errors. */
int units_bound_parse(const char *text, struct quantity *out, char *err, size_t errlen);

/* Parse a duration (cycles not allowed) into whole nanoseconds. Same errors. */
int units_duration_parse_ns(const char *text, bool allow_zero, uint64_t *ns,
		      char *err, size_t errlen);

/* How long a requirement may run by time (<run duration>, --duration). */
#define RUN_DURATION_MIN_NS 1000000000ull              /* 1 s */
#define RUN_DURATION_MAX_NS (7ull * 24 * 3600 * 1000000000ull) /* 7 days */

/* Parse a run's duration: a decimal number, optional blanks, then s, min or
 * h ("3s", "90 min", "5.5h", "24h"), in RUN_DURATION_MIN_NS ..
 * RUN_DURATION_MAX_NS, into whole nanoseconds. 0, or -EINVAL / -ERANGE
 * with a message in err, as units_duration_parse_ns. */
int units_run_duration_parse(const char *text, uint64_t *ns, char *err, size_t errlen);

/* Parse a decimal integer in min..max ("2000"); -EINVAL (not a number,
 * sign, junk) or -ERANGE, with a message naming the range in err. */
int units_count_parse_range(const char *text, uint64_t min, uint64_t max, uint64_t *out,
		      char *err, size_t errlen);

/* units_count_parse_range with min 1: a positive count. */
int units_count_parse(const char *text, uint64_t max, uint64_t *out,
		char *err, size_t errlen);

/* Format nanoseconds with a unit chosen for readability: "412.3 us",
 * "950 ns", "1.204 ms", "2.5 s". Always C-locale decimal point. */
void units_fmt_ns(double ns, char *buf, size_t len);

/* The unit of a table of durations (a metric's statistics and its
 * histogram's bounds, a runs table): the smallest of ns, us, ms, s in which
 * its largest figure is below 10000, so every figure of the table is read
 * in one unit and its small figures keep their digits. name: "ns".."s";
 * div: ns per unit. */
struct units_scale {
	const char *name;
	double div;
};
struct units_scale units_scale_of(double largest_ns);

/* ns in the unit s, 4 significant digits, at most 3 decimals, no trailing
 * zeros: "2909 us", "9.164 us", "0.001 us". C locale. */
void units_fmt_ns_in(double ns, struct units_scale s, char *buf, size_t len);

/* A share (0.25) as a percentage: 4 significant digits, at most 2
 * decimals, no trailing zeros: "25%", "99.99%", "0.01%", "100%". */
void units_fmt_pct(double share, char *buf, size_t len);

/* Text to HTML spelling of the rule (docs/reports.md "Units and numbers"):
 * " us" after a digit becomes " \xc2\xb5s" (µs), " <= " and " >= " become
 * " \xe2\x89\xa4 " and " \xe2\x89\xa5 " (≤, ≥), as far as len allows. Text,
 * terminal and junit.xml keep the ASCII spelling. */
void units_html(char *buf, size_t len);

/* Format a quantity as written in a limit: ns via units_fmt_ns, cycles as
 * "1200 cycles", a count as the bare number, whole when it is whole ("0",
 * never "0.000"; a mean "2.5"). Measured cycles are whole ticks ("%.0f"). */
void units_fmt_qty(const struct quantity *q, char *buf, size_t len);

#endif
