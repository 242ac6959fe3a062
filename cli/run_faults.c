/* SPDX-License-Identifier: Apache-2.0 */
/* run_faults.c - selftest's faults in a run's environment (run_faults.h). */
#include "cli/run_faults.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "cli/cli.h"
#include "harness/measure/fault_spec.h"

/* The name of selftest's fault libraries (rtconform-fault-sched.so,
 * rtconform-fault-clock.so, cmake/modules.cmake). */
#define FAULT_LIB_PREFIX "rtconform-fault-"

int run_faults(const char *cmd, const char **worker, char *text, size_t len)
{
	const char *spec = getenv(FAULT_SPEC_ENV);
	const char *preload = getenv("LD_PRELOAD");
	bool lib = preload && strstr(preload, FAULT_LIB_PREFIX);
	*worker = NULL;
	text[0] = 0;
	if (fault_spec_is_delay(spec)) {
		struct fault_spec f;
		char err[300];
		if (fault_spec_parse(spec, &f, err, sizeof err) != 0) {
			termsafe_println(stderr, "rtconform %s: %s: %s", cmd, FAULT_SPEC_ENV, err);
			return EXIT_USAGE;
		}
		*worker = "rtconform-worker-faults";
	}
	/* With the variable set, whatever is preloaded is named: a fault
	 * library copied or linked under another name works as well. */
	if (spec)
		snprintf(text, len, "%s=%s (rtconform selftest)%s%s", FAULT_SPEC_ENV, spec,
			 preload && *preload ? "; LD_PRELOAD=" : "",
			 preload && *preload ? preload : "");
	else if (lib)
		snprintf(text, len, "LD_PRELOAD=%s (inert: %s is unset, so it fakes nothing)",
			 preload, FAULT_SPEC_ENV);
	return 0;
}
