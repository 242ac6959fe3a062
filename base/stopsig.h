/* SPDX-License-Identifier: Apache-2.0 */
/* stopsig.h - the one set-up of the signals that stop a command.
 *
 * SIGINT, SIGTERM and SIGHUP only count (the count is returned; the latest
 * one's number from stop_signal(), 0 before any); SIGPIPE and SIGXFSZ make
 * the write that caused them fail (EPIPE, EFBIG), which every writer
 * handles and says. Handlers, not SIG_IGN: exec resets them, so workers,
 * loads and selftest's children keep the default. restart: SA_RESTART (a
 * blocked call goes on); without it a blocked write returns EINTR, so a
 * signal ends it. Used by run, probe (cli/common.c) and selftest. */
#ifndef RTC_BASE_STOPSIG_H
#define RTC_BASE_STOPSIG_H

#include <signal.h>
#include <stdbool.h>

volatile sig_atomic_t *stop_catch(bool restart);
int stop_signal(void);
/* SIGXFSZ caught (RLIMIT_FSIZE: a write past it fails with EFBIG). */
void stop_catch_file_size(void);

#endif
