/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_explain.c - libFuzzer target: arbitrary bytes as a saved trace on
 * breach, through what `rtconform explain` does with one: the reader and
 * decomposition (harness/explain.c), then the text and the JSON. Any crash,
 * hang, sanitizer report or leak fails the run. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/explain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	struct explain e;
	char err[1024];
	if (explain_read(f, "fuzz", &e, err, sizeof err) == 0) {
		FILE *out = fopen("/dev/null", "w");
		if (out) {
			explain_print(out, &e);
			fclose(out);
		}
		free(explain_json(&e));
	}
	explain_free(&e);
	fclose(f);
	return 0;
}
