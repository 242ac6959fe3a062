/* SPDX-License-Identifier: Apache-2.0 */
/* run_faults.h - what `rtconform selftest` injected into a run, told from
 * the environment (docs/qualification.md, "Selftest: the validation
 * record"). A run whose environment has RTC_SELFTEST_FAULTS (which only
 * selftest sets) or one of selftest's fault libraries in LD_PRELOAD records
 * it as rtconform.injected_faults in every report and says so on stderr,
 * so its evidence can never pass for a normal run's. */
#ifndef RTC_CLI_RUN_FAULTS_H
#define RTC_CLI_RUN_FAULTS_H

#include <stddef.h>

/* The key every report records them under (absent in a normal run). */
#define RUN_FAULTS_KEY "rtconform.injected_faults"

/* *worker: "rtconform-worker-faults" when RTC_SELFTEST_FAULTS asks for a
 * delay, else NULL (the normal worker; `probe` always takes it). text:
 * what the run records, "" when nothing. 0, or EXIT_USAGE after naming
 * the command (cmd: "run", "probe"), the variable and what is wrong with
 * its delay. */
int run_faults(const char *cmd, const char **worker, char *text, size_t len);

#endif
