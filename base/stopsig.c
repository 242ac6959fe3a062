/* SPDX-License-Identifier: Apache-2.0 */
/* stopsig.c - the signals that stop a command (stopsig.h). */
#include "base/stopsig.h"

#include <stddef.h>

static volatile sig_atomic_t stops, last_signal;

static void on_stop(int sig)
{
	/* A count, not a flag: the runner acts on any, and a write of the
	 * table stops only for one that comes while it writes. */
	stops = stops + 1;
	last_signal = sig;
}

static void on_failed_write(int sig)
{
	(void)sig;
}

static void catch_signal(int sig, void (*handler)(int), bool restart)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = restart ? SA_RESTART : 0 };
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

volatile sig_atomic_t *stop_catch(bool restart)
{
	catch_signal(SIGINT, on_stop, restart);
	catch_signal(SIGTERM, on_stop, restart);
	catch_signal(SIGHUP, on_stop, restart);
	catch_signal(SIGPIPE, on_failed_write, restart);
	return &stops;
}

int stop_signal(void)
{
	return (int)last_signal;
}

void stop_catch_file_size(void)
{
	catch_signal(SIGXFSZ, on_failed_write, true);
}
