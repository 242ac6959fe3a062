/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_loader.c - libFuzzer target: arbitrary bytes through the requirements
 * loader and the semantic validator, as `rtconform validate` would take
 * them. Any crash, sanitizer report or leak fails the run. */
#include <stddef.h>
#include <stdint.h>

#include "requirements/validate.h"
#include "requirements/loader.h"
#include "harness/measure/probes/probes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_list d = { 0 };
	struct req_file *f = req_load_memory((const char *)data, size, "fuzz.xml", &d);
	if (f) {
		validate_file(f, &probe_catalog, &d);
		req_file_free(f);
	}
	diag_free(&d);
	return 0;
}
