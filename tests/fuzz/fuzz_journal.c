/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_journal.c - libFuzzer target: arbitrary bytes as a killed run's
 * journal (reports/journal.h), through what `rtconform report DIR` does
 * with one: the reader (reports/read/journal_read.c), then every report
 * rendered from the view. Any crash, hang, sanitizer report or leak fails
 * the run.
 *
 * The input is the journal's files one after the other, split at each
 * FUZZ_SPLIT: the log, then now.0, now.1 and lost, each of them absent when
 * the input has fewer parts. ci/fuzz seeds it with the real journal of
 * tests/fixtures/journal/, its log alone and its four files together.
 * Each input is read twice: as it is, and with the CRC of every header
 * line that parses made right (repair_crcs), so that a mutation inside a
 * payload reaches the JSON and the view instead of stopping at the CRC. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/journal.h"
#include "reports/read/read.h"
#include "reports/report.h"

#define FUZZ_SPLIT "\n--rtcj-file--\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render_all(const struct report_view *v)
{
	char why[256];
	size_t len;
	free(report_html_render(v, &len, why, sizeof why));
	free(report_json_render(v, &len, why, sizeof why));
	free(report_junit_render(v, &len, why, sizeof why));
	free(report_summary_render(v, &len, why, sizeof why));
}

/* Every record header in buf (a line that begins "rtcj ", its payload
 * inside buf) given the CRC its bytes have. */
static void repair_crcs(char *buf, size_t n)
{
	for (size_t at = 0; at < n;) {
		const char *nl = memchr(buf + at, '\n', n - at);
		size_t end = nl ? (size_t)(nl - buf) : n;
		size_t hlen = end - at + 1, len = 0;
		char line[JOURNAL_HEADER_MAX + 1];
		if (nl && hlen <= JOURNAL_HEADER_MAX && hlen > 9 && memcmp(buf + at, "rtcj ", 5) == 0) {
			memcpy(line, buf + at, hlen);
			line[hlen] = 0;
			char *crc = line + hlen - 9; /* the 8 hex digits before the newline */
			const char *sp = crc - 1, *num = sp;
			while (num > line && num[-1] != ' ')
				num--; /* TIME */
			while (num > line && num[-1] == ' ')
				num--;
			while (num > line && num[-1] != ' ')
				num--; /* LENGTH */
			if (*sp == ' ' && sscanf(num, "%zu", &len) == 1 && len <= n - end - 1) {
				uint32_t c = journal_crc(line, (size_t)(crc - line), buf + end + 1, len);
				char hex[9];
				snprintf(hex, sizeof hex, "%08x", (unsigned)c);
				memcpy(buf + at + (crc - line), hex, 8);
			}
		}
		at = end + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Each part in an allocation of its own size, so that a byte read
	 * past one is seen by ASan. */
	char *part[4] = { NULL };
	size_t len[4] = { 0 }, at = 0, split = strlen(FUZZ_SPLIT);
	for (int k = 0; k < 4 && at <= size; k++) {
		const uint8_t *m = k < 3 ? memmem(data + at, size - at, FUZZ_SPLIT, split) : NULL;
		size_t n = m ? (size_t)(m - (data + at)) : size - at;
		part[k] = malloc(n ? n : 1);
		if (!part[k])
			abort();
		memcpy(part[k], data + at, n);
		len[k] = n;
		at += n + (m ? split : 1);
		if (!m)
			break;
	}
	struct journal_files jf = { .log_name = "fuzz/journal/log",
				    .log = part[0], .log_len = len[0],
				    .now = { part[1], part[2] }, .now_len = { len[1], len[2] },
				    .note = part[3], .note_len = len[3] };
	for (int pass = 0; pass < 2; pass++) {
		struct report_view v;
		struct journal_recovery out;
		char err[2048];
		if (report_view_from_journal_bytes(&jf, "fuzz/journal", &v, &out, err, sizeof err) ==
		    0) {
			render_all(&v);
			report_view_free(&v);
		}
		for (int k = 0; pass == 0 && k < 4; k++)
			repair_crcs(part[k], len[k]);
	}
	for (int k = 0; k < 4; k++)
		free(part[k]);
	return 0;
}
