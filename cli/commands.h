/* commands.h - the subcommands of rtconform. Each takes the arguments after
 * its name (argv[0] is the subcommand) and returns the exit status:
 * 0 pass, 1 a limit failed, 2 usage error or invalid input, 3 something could
 * not be measured. main.c only dispatches. */
#ifndef RTC_COMMANDS_H
#define RTC_COMMANDS_H

#include "harness/verdict.h" /* enum rtc_exit */

int cmd_run(int argc, char **argv, const char *self_dir, const char *cmdline);
int cmd_validate(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_probe(int argc, char **argv, const char *self_dir);
int cmd_env(int argc, char **argv);
int cmd_report(int argc, char **argv);


#endif
