/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h - what the subcommands of rtconform share.
 *
 * main.c sets the program up and dispatches through its command table; each
 * subcommand lives in its own file (run.c, validate.c, list.c, probe.c,
 * env.c, report.c, merge.c, explain.c, verify.c) and uses the helpers of common.c
 * declared here; its options are a table of cli/options.c (options.h).
 * Output to the user happens in cli/ and reports/, never in
 * the measuring code.
 */
#ifndef RTC_CLI_H
#define RTC_CLI_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/diag.h"
#include "base/path.h"
#include "evidence/manifest.h"
#include "harness/runner.h"
#include "harness/verdict.h" /* enum rtc_exit */
#include "output/output.h"
#include "requirements/model.h"

/* What main() knows that a subcommand may need. */
struct cli_ctx {
	const char *self_dir; /* where rtconform-worker and rtconform-nop are run
				 from (cli_find_layout); NULL when they cannot be
				 located, helper_problem says why */
	const char *helper_problem;
	const char *profile_dir; /* the shipped profiles; NULL or "" when none */
	const char *cmdline;  /* the whole command line, shell-quoted; NULL when it
				 could not be built */
};

/* The subcommands. Each takes the arguments after "rtconform" (argv[0] is
 * the subcommand's name) and returns the exit status: 0 pass, 1 a limit
 * failed, 2 usage error or invalid input, 3 something could not be measured,
 * 4 the samples could not decide a limit at its stated confidence. */
int cmd_run(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_validate(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_list(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_probe(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_env(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_report(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_compare(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_merge(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_explain(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_verify(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_selftest(int argc, char **argv, const struct cli_ctx *ctx);

/* ---- where the helpers and profiles are (layout.c) ---- */

/* The build tree's or the installed prefix's directories (docs/install.md). */
struct cli_layout {
	char helper_dir[PATH_MAX];  /* rtconform-worker, rtconform-nop; "" when not found */
	char profile_dir[PATH_MAX]; /* the shipped profiles; "" when not found */
	char problem[2 * PATH_MAX + 400]; /* why helper_dir is "" */
};
void cli_find_layout(struct cli_layout *l);

/* ---- loading requirements files ---- */

/* Load and fully check files, each a path or a shipped profile's name (or
 * the built-in default profile when n == 0). Returns 0, or EXIT_USAGE after
 * printing every problem. Free with cli_free_files(). */
int cli_load_all(const struct cli_ctx *ctx, char **args, int n, struct req_file ***out,
		 size_t *nout);
void cli_free_files(struct req_file **files, size_t n);

/* ---- shipped profiles by name (profiles.c) ---- */

/* True when a command-line argument names a shipped profile rather than a
 * file: no file of that name exists, it has no '/' and no ".xml" ending. */
bool cli_is_profile_name(const char *arg);

/* Load shipped profile `name` ("default": the built-in one). NULL with a
 * diagnostic naming the shipped profiles when there is none of that name. */
struct req_file *cli_load_profile(const struct cli_ctx *ctx, const char *name,
				  struct diag_list *d);

/* `rtconform list --profiles`: name, requirement count and title of each. */
int cli_list_profiles(const struct cli_ctx *ctx);

/* ---- options ---- */

/* True when the first argument after the subcommand is --help or -h (for
 * the subcommands that take no other options). */
bool cli_wants_help(int argc, char **argv);

/* Start a getopt_long() scan of a subcommand's arguments: from argv[1], with
 * getopt's own messages off (the subcommand words them). Use ":" first in
 * the short options so a missing value is told apart. */
void cli_getopt_begin(void);

/* The message and exit status for getopt_long()'s ':' (an option without its
 * value) and '?' (an unknown option) of subcommand `cmd`. */
int cli_getopt_error(const char *cmd, int c, char **argv);

/* A count option's value in min..max into *out; 0, or -1 after printing
 * "rtconform CMD: OPT: why". */
int cli_parse_count(const char *cmd, const char *opt, const char *v, uint64_t min,
		    uint64_t max, uint64_t *out);

/* ---- running workers ---- */

/* What `run` and `probe` do before the first worker: orphaned peers of a
 * worker come back to us to be reaped (runner_become_supervisor), and
 * SIGINT/SIGTERM/SIGHUP only set the
 * flag returned (for run_options.interrupted): the runner stops the worker,
 * the caller still writes its reports. */
volatile sig_atomic_t *cli_become_supervisor(void);


/* Before anything else: a standard descriptor that is closed is held by
 * /dev/null, so no file rtconform opens becomes fd 1 (and a closed stdout is
 * reported by cli_write_stdout). */
void cli_guard_std_fds(void);
/* A write past the file size limit fails with EFBIG (no SIGXFSZ): every
 * command, before it writes anything. */
void cli_catch_file_size_limit(void);

/* The one check of standard output, for every command (main.c, after the
 * command returns): stdout is flushed and closed, and a write that failed
 * (full, closed, an I/O error) is said on stderr. Returns rc, or
 * EXIT_NOT_MEASURED when standard output could not be written (3 wins
 * over 1 and 4; a command refused for bad input keeps EXIT_USAGE). A
 * command that printed nothing there passes with stdout closed. cmd: the
 * command's name for the message, NULL for rtconform's own (--help). */
int cli_close_stdout(const char *cmd, int rc);

/* Write buf to standard output, whole, with write(2). Returns 0, or -errno:
 * EPIPE (the reader is gone), EBADF (stdout was closed), ENOSPC, EIO, ...,
 * or -EINTR when *stop (a count of interrupting signals) is no longer `seen`,
 * its value when the measurement ended: a signal that stopped the
 * measurement leaves the table to be printed, one that came after ends it. */
int cli_write_stdout(const char *buf, size_t len, volatile sig_atomic_t *stop,
		     sig_atomic_t seen);

/* Progress on stderr while requirements run (cli/progress.c). On a
 * terminal: a live line, and each requirement's verdict (in colour unless
 * NO_COLOR is set to anything non-empty). Otherwise (a CI log, or a
 * terminal whose TERM is unset or "dumb"): one line
 * per finished requirement, and a line every `interval` seconds while one
 * runs. quiet: nothing at all. */
struct cli_progress {
	size_t index, total; /* the requirement being run, 1-based; how many */
	bool tty, colour, quiet;
	double interval;     /* seconds between two lines on a non-terminal */
	double last_line;    /* elapsed seconds of the requirement at the last */
	/* On a terminal: the lines of the live view drawn last (the cursor is
	 * at the start of the line below them), and when (elapsed seconds). */
	size_t drawn;
	double last_draw;
	/* The worker measures (not set up, not warming up) since measure_at
	 * seconds into the requirement: the time left is paced on the time
	 * measured only. */
	bool measuring;
	double measure_at;
	/* The estimate of the time left (cli_progress_left): made when the
	 * part done was est_done, est_at seconds into the requirement. */
	double est_done, est_at, est_left;
	/* A run by time: the samples each percentile limit's plan needs
	 * (harness/plan.h; 0: not a percentile), worked out once it measures
	 * (plan_set), and the limits already said to have enough (bit k). */
	bool plan_set;
	uint64_t plan_need[REQ_MAX_LIMITS];
	uint32_t plan_said;
};

/* Default seconds between two progress lines when stderr is no terminal. */
#define CLI_PROGRESS_INTERVAL_S 30.0

/* Set p up for stderr as it is: terminal or not, NO_COLOR, quiet, and the
 * interval from RTC_PROGRESS_INTERVAL (a duration such as 500ms or 10s,
 * for tests). Returns 0, or EXIT_USAGE after saying why the variable is
 * wrong. */
int cli_progress_init(struct cli_progress *p, bool quiet);
/* Whether to colour what goes to fd: a terminal whose TERM is set and not
 * "dumb", and NO_COLOR unset or empty (https://no-color.org). */
bool cli_colour(int fd);

/* Seconds between two draws of the live view on a terminal: a few times a
 * second reads as live, and costs the machine under test little (each draw
 * is a few syscalls of the supervisor, none of the worker). */
#define CLI_LIVE_REFRESH_S 0.25

/* Seconds left of a requirement run by count, `done` of it measured (0
 * to 1: runs done plus the part of the current run, over the runs) at
 * elapsed seconds, or -1 while nothing is measured. Paced on the time
 * measured only (since p->measure_at: warm-up and load start-up do not
 * count), estimated anew whenever `done` moves and counted down in
 * between (never below 0): it never grows while the next samples are
 * awaited. Keeps its state in p (cli_progress_done resets it). */
double cli_progress_left(struct cli_progress *p, double done, double elapsed);

/* The live view's status line of requirement `id` (escaped), its worker
 * in state `state` (enum worker_state): "starting" while set up, "warming
 * up" only while it warms up (never once it measures), then how far it is
 * and the time left, paced on its own progress (samples of the current
 * run against a run's, cli_progress_left; or the time measured against
 * the duration, "finishing the last run" once a run by time passed it). */
void cli_progress_status(struct cli_progress *ps, const struct req_result *r, const char *id,
			 uint32_t state, uint32_t runs_done, uint64_t runs_total, double elapsed,
			 char *buf, size_t len);

/* A run_options.progress callback; arg is a struct cli_progress. On a
 * terminal it redraws, every CLI_LIVE_REFRESH_S, the requirement's line
 * and below it the live figures (harness/live.h); otherwise it prints the
 * CI log's line every `interval`. */
void cli_progress_show(const struct req_result *r, uint32_t runs_done, uint64_t runs_total,
		       double elapsed, void *arg);

/* The live view alone, for `rtconform probe`: on a terminal that moves its
 * cursor (as run's), quiet otherwise (probe's stderr stays empty in a log:
 * its figures come on stdout at the end). One requirement. */
void cli_progress_init_live(struct cli_progress *p);
/* Erase the live view drawn last (nothing when none) and ready p for the
 * next requirement, without a verdict line. */
void cli_progress_clear(struct cli_progress *p);

/* The line that ends requirement `id`'s progress: its verdict, key figure
 * and duration. */
void cli_progress_done(struct cli_progress *p, const char *id, const struct req_result *res);

/* 0 when the worker can be run (ctx->self_dir), else EXIT_NOT_MEASURED
 * after saying why on stderr, for subcommand cmd. */
int cli_need_helpers(const char *cmd, const struct cli_ctx *ctx);


struct report_view;
/* Record in v->outputs (report.h, struct rv_outputs) what `run` writes:
 * each report of path[k] (REPORT_NKINDS of them) and the CSV export's
 * directory csv_dir (NULL: none) by its path relative to the directory of
 * path[REPORT_HTML], when it lies there (a report: in it; the export: in
 * it or below); one elsewhere, or not written (NULL), stays NULL, and
 * all do without report.html. The evidence of the traceability matrix
 * (reports/traceability.h). 0 or -ENOMEM. */
int cli_view_outputs(struct report_view *v, char *const *path, const char *csv_dir);

/* --kcidb-origin's value v for command cmd into *origin: 0, or EXIT_USAGE
 * after saying it is not an origin KCIDB takes (report_kcidb_origin_ok). */
int cli_kcidb_origin(const char *cmd, const char *v, const char **origin);


#endif
