/* SPDX-License-Identifier: Apache-2.0 */
/* timebase_tsc_rates.c - the TSC's rate as the kernel, the CPU and the
 * hypervisor publish it, for the timebase's check (x86-64; the aarch64
 * counterpart is in timebase_clock.c). Each is a row of tb->check; one
 * that is not there says why.
 *
 * - the kernel: the perf_event mmap page's time_mult/time_shift
 *   (timebase_perf_rate), what it converts TSC cycles to its sched_clock's
 *   nanoseconds with, when it sets cap_user_time;
 * - CPUID leaf 0x15 (Intel): the core crystal's frequency times the TSC's
 *   ratio to it, when the leaf gives the crystal (ECX not 0);
 * - CPUID leaf 0x16 (Intel): the base frequency in MHz, a nominal figure
 *   (so TB_CHECK_TOLERANCE_NOMINAL), like the crystal a firmware table the
 *   kernel itself refines;
 * - the hypervisor's leaf 0x40000010 (VMware's convention, also given by
 *   QEMU/KVM): the TSC's frequency in kHz, read only under the two
 *   hypervisors known to give it there.
 */
#include "harness/measure/timebase.h"
#include "harness/measure/timebase_impl.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>

static struct tb_check_row *row(struct tb_check_row *rows, unsigned *n, unsigned max,
				const char *key, const char *source, double tolerance)
{
	if (*n >= max)
		return NULL;
	struct tb_check_row *r = &rows[(*n)++];
	memset(r, 0, sizeof *r);
	snprintf(r->key, sizeof r->key, "%s", key);
	snprintf(r->subject, sizeof r->subject, "the TSC");
	snprintf(r->source, sizeof r->source, "%s", source);
	r->tolerance = tolerance;
	r->state = TB_ROW_UNAVAILABLE;
	return r;
}

static void vendor(char out[13])
{
	unsigned a, b, c, d;
	__cpuid(0, a, b, c, d);
	memcpy(out, &b, 4);
	memcpy(out + 4, &d, 4);
	memcpy(out + 8, &c, 4);
	out[12] = 0;
}

/* Leaves 0x15 and 0x16 (Intel's). */
static void intel_leaves(struct tb_check_row *r15, struct tb_check_row *r16)
{
	char v[13];
	vendor(v);
	unsigned max = __get_cpuid_max(0, NULL), a = 0, b = 0, c = 0, d = 0;
	if (strcmp(v, "GenuineIntel") != 0 || max < 0x15) {
		const char *why = strcmp(v, "GenuineIntel") != 0 ? "leaves 0x15 and 0x16 are Intel's; "
								  "this CPU is"
								: "the highest CPUID leaf is below 0x15 on";
		snprintf(r15->note, sizeof r15->note, "%s %s (highest leaf %#x)", why, v, max);
		snprintf(r16->note, sizeof r16->note, "%s %s (highest leaf %#x)", why, v, max);
		return;
	}
	__cpuid_count(0x15, 0, a, b, c, d);
	if (a && b && c) {
		r15->expected = (double)c * (double)b / (double)a;
		r15->state = TB_ROW_AGREES;
		snprintf(r15->note, sizeof r15->note, "crystal %u Hz x %u / %u", c, b, a);
	} else {
		snprintf(r15->note, sizeof r15->note,
			 "leaf 0x15 gives no crystal frequency (EAX %u, EBX %u, ECX %u)", a, b, c);
	}
	if (max < 0x16) {
		snprintf(r16->note, sizeof r16->note, "the highest CPUID leaf is %#x", max);
		return;
	}
	__cpuid_count(0x16, 0, a, b, c, d);
	if (a & 0xffff) {
		r16->expected = (double)(a & 0xffff) * 1e6;
		r16->state = TB_ROW_AGREES;
		snprintf(r16->note, sizeof r16->note, "base frequency %u MHz (nominal)", a & 0xffff);
	} else {
		snprintf(r16->note, sizeof r16->note, "leaf 0x16 gives no base frequency (EAX 0)");
	}
}

static void hypervisor_leaf(struct tb_check_row *r)
{
	unsigned a, b, c, d;
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31))) {
		snprintf(r->note, sizeof r->note, "not a virtual machine (the CPUID hypervisor bit "
			 "is clear)");
		return;
	}
	char sig[13];
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	unsigned max = a;
	bool known = !strcmp(sig, "VMwareVMware") || !strcmp(sig, "KVMKVMKVM");
	if (!known || max < 0x40000010) {
		snprintf(r->note, sizeof r->note, "the hypervisor (%s) gives no leaf 0x40000010 "
			 "(its highest is %#x%s)", sig, max,
			 known ? "" : "; read only under VMware and KVM");
		return;
	}
	__cpuid(0x40000010, a, b, c, d);
	if (!a) {
		snprintf(r->note, sizeof r->note, "the hypervisor (%s) gives 0 kHz in leaf 0x40000010",
			 sig);
		return;
	}
	r->expected = (double)a * 1e3;
	r->state = TB_ROW_AGREES;
	snprintf(r->note, sizeof r->note, "%u kHz (%s)", a, sig);
}

unsigned timebase_published_rates(struct tb_check_row *rows, unsigned max)
{
	unsigned n = 0;
	if (max == 0)
		return 0;
	timebase_perf_rate(&rows[n++], "the TSC");
	struct tb_check_row *r15 = row(rows, &n, max, "cpuid_15",
				       "the rate CPUID leaf 0x15 gives (crystal x ratio)",
				       TB_CHECK_TOLERANCE_NOMINAL);
	struct tb_check_row *r16 = row(rows, &n, max, "cpuid_16",
				       "the base frequency CPUID leaf 0x16 gives (nominal)",
				       TB_CHECK_TOLERANCE_NOMINAL);
	if (r15 && r16)
		intel_leaves(r15, r16);
	struct tb_check_row *hv = row(rows, &n, max, "hypervisor",
				      "the rate the hypervisor gives (CPUID leaf 0x40000010)",
				      TB_CHECK_TOLERANCE);
	if (hv)
		hypervisor_leaf(hv);
	return n;
}
