/* SPDX-License-Identifier: Apache-2.0 */
/* options.c - every subcommand's option table, and what is made of it: the
 * getopt_long() arrays, the option lines of --help, the man page's OPTIONS
 * entries and the completion's listing (options.h; docs/cli-options.md). */
#include "cli/options.h"

#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/safeopen.h"
#include "base/termsafe.h"

/* A row of a command's own (file-scope compound literal: static storage). */
#define ROW(...) (&(const struct cli_opt){ __VA_ARGS__ })

/* ---- the output options every command with output options shares ---- */

const struct cli_opt cli_out_junit = {
	"junit", 0, "FILE", CLI_OUT_JUNIT,
	"write the JUnit report, junit.xml, to FILE (run: instead of into "
	"the -o directory)",
	NULL,
};

const struct cli_opt cli_out_junit_skipped = {
	"junit-skipped", 0, NULL, CLI_OUT_JUNIT_SKIPPED,
	"list the requirements run --only left out in junit.xml too, as skipped test "
	"cases (by default only the other reports list them)",
	"List the requirements\n"
	".B run \\-\\-only\n"
	"left out in\n"
	".I junit.xml\n"
	"too, as skipped test cases.\n"
	"By default\n"
	".I junit.xml\n"
	"leaves them out (a CI page would count each as a test that could not\n"
	"run), and the terminal table folds them into one line\n"
	".RI ( \"2 requirements not selected (\\-\\-only ID): A, B\" );\n"
	".I results.json\n"
	"and the other reports list each as skipped.",
};

const struct cli_opt cli_out_summary = {
	"summary", 0, "FILE", CLI_OUT_SUMMARY,
	"write the text summary, summary.txt, to FILE (run: instead of into "
	"the -o directory)",
	NULL,
};

const struct cli_opt cli_out_html = {
	"html", 0, "FILE", CLI_OUT_HTML,
	"write the HTML audit report, report.html, to FILE (run: instead of into "
	"the -o directory)",
	NULL,
};

const struct cli_opt cli_out_json = {
	"json", 0, "FILE", CLI_OUT_JSON,
	"write results.json to FILE (run: instead of into "
	"the -o directory)",
	NULL,
};

const struct cli_opt cli_out_csv = {
	"csv", 0, "DIR", CLI_OUT_CSV,
	"also write CSV files (histograms, per-run figures) into DIR",
	"Also write CSV files into\n"
	".IR DIR :\n"
	"one histogram file per duration metric of each requirement, the per-run\n"
	"figures\n"
	".RI ( runs.csv ),\n"
	"the statistics of every interval a requirement kept (a run by time, or\n"
	".BR \\-\\-interval ;\n"
	".IR intervals.csv ),\n"
	"the 95% confidence interval of every reported percentile\n"
	".RI ( confidence.csv )\n"
	"and an index.",
};

const struct cli_opt cli_out_lava = {
	"lava", 0, "FILE", CLI_OUT_LAVA,
	"also write the results for LAVA's lava-test-case into FILE",
	"Also write the results for LAVA into\n"
	".IR FILE :\n"
	"a line\n"
	".RI \\(dq ID - metric - statistic\n"
	".BR pass | fail | skip\n"
	".IR \"value unit\" \\(dq\n"
	"per limit and\n"
	".RI \\(dq ID\n"
	".BR pass | fail | skip \\(dq\n"
	"per requirement, as lava\\-test\\-case takes them, after a first line\n"
	".RI \\(dq#\\ rtconform\\  version \\ (commit\\  commit )\\(dq;\n"
	"a requirement in error is\n"
	".BR fail ,\n"
	"its reason a line beginning\n"
	".RB \\(dq #\\  \\(dq.\n"
	"A limit in cycles has\n"
	".B \\-cycles\n"
	"after its statistic, and a name that would repeat an earlier one gets\n"
	".BR \\-2 ,\n"
	".BR \\-3 ,\n"
	"and so on.",
};

const struct cli_opt cli_out_kcidb = {
	"kcidb", 0, "FILE", CLI_OUT_KCIDB,
	"also write the results as a KCIDB submission (KernelCI, schema v5.3) into FILE",
	"Also write the results as a KCIDB submission for KernelCI (I/O schema\n"
	"v5.3) into\n"
	".IR FILE ,\n"
	"for\n"
	".BR kcidb\\-submit :\n"
	"the running kernel as its checkout and build, and a test per requirement\n"
	"with path\n"
	".RI rtconform. file . ID ,\n"
	"status\n"
	".BR PASS ,\n"
	".BR FAIL ,\n"
	".BR ERROR ,\n"
	".B SKIP\n"
	"or\n"
	".B DONE\n"
	"(measured, nothing decided) and the deciding figure.\n"
	"Its path is checked before anything is measured, as\n"
	".BR \\-\\-lava 's.\n"
	"The mapping is in\n"
	".IR docs/reports.md .",
};

const struct cli_opt cli_out_kcidb_origin = {
	"kcidb-origin", 0, "NAME", CLI_OUT_KCIDB_ORIGIN,
	"the KCIDB origin --kcidb's ids begin with: the one KernelCI gave the lab "
	"(a-z, 0-9, _; default rtconform)",
	NULL,
};

const struct cli_opt cli_out_metrics = {
	"metrics", 0, "FILE", CLI_OUT_METRICS,
	"keep FILE up to date with the run's live figures in Prometheus text, for "
	"node_exporter's textfile collector",
	"Keep\n"
	".I FILE\n"
	"up to date with the run's live figures in the Prometheus text format, for\n"
	"node_exporter's textfile collector (give it a name ending in\n"
	".IR .prom ):\n"
	"per requirement its state, verdict so far and runs, per metric a\n"
	".B rtconform_latency_seconds\n"
	"histogram with fixed buckets from 100\\ ns to 10\\ s,\n"
	".BR rtconform_latency_max_seconds ,\n"
	"and the run's progress, every series labelled with\n"
	".B host\n"
	"(the\n"
	".BR \\-\\-host\\-label ,\n"
	"else the host name),\n"
	".B suite\n"
	"and\n"
	".BR requirement .\n"
	".I FILE\n"
	"is replaced atomically at the start, when a run of a requirement ends (at\n"
	"most once a second), when a requirement ends and at the end, and stays\n"
	"after the run. Its path is checked before anything is measured, as\n"
	".BR \\-\\-lava 's;\n"
	"its directory is not locked. A failed write during the run is said once\n"
	"on stderr and changes nothing else. The families and rules are in\n"
	".IR docs/reports.md .",
};

/* ---- each command's own rows ---- */

/* run */
static const struct cli_opt *const run_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW,
	    "report directory (default ./rtconform-results): junit.xml, summary.txt, "
	    "report.html, results.json",
	    "Report directory, created when missing (default\n"
	    ".IR ./rtconform\\-results ):\n"
	    ".IR junit.xml ,\n"
	    ".IR summary.txt ,\n"
	    ".IR report.html ,\n"
	    ".IR results.json .\n"
	    "The run holds the lock of every directory it writes into from before it\n"
	    "measures until its last report is written (see\n"
	    ".B Output directories\n"
	    "under OPTIONS);\n"
	    "a run into a directory another rtconform writes into is refused."),
	&cli_out_junit,
	&cli_out_junit_skipped,
	&cli_out_summary,
	&cli_out_html,
	&cli_out_json,
	&cli_out_csv,
	&cli_out_lava,
	&cli_out_kcidb,
	&cli_out_kcidb_origin,
	&cli_out_metrics,
	ROW("only", 0, "ID[,ID...]", 'O',
	    "run only these requirements (given again: adds to them)",
	    "Run only these requirements; the others appear in the reports as\n"
	    ".IR skipped .\n"
	    "Given more than once, the lists add up:\n"
	    ".B \\-\\-only A \\-\\-only B\n"
	    "runs A and B.\n"
	    "Every id must exist, exactly as the file writes it (ids are\n"
	    "case-sensitive); for one that does not, the near id (the same but for\n"
	    "case, or up to two characters off) is suggested:\n"
	    ".IR \"did you mean SEM\\-RT?\" ,\n"
	    "exit status 2."),
	ROW("quick", 0, NULL, 'k',
	    "smoke run: iterations / 10 (raised again, up to the file's, for a "
	    "limit's percentile), at most 3 runs",
	    "Smoke run: iterations divided by 10, at most 3 runs, warm-up divided by\n"
	    "10.\n"
	    "Iterations are raised again, up to the file's own count, when a limit's\n"
	    "percentile would otherwise have too few samples, so a smoke run judges\n"
	    "every limit; a percentile the file itself plans too few samples for is an\n"
	    "error verdict, not a meaningless pass."),
	ROW("iterations", 0, "N", 'i',
	    "override every requirement's iterations",
	    NULL),
	ROW("runs", 0, "N", 'r',
	    "override every requirement's runs (at most 1000)",
	    NULL),
	ROW("duration", 0, "D", 'D',
	    "run every requirement by time instead (s, min or h: 30min, 24h; "
	    "1s..168h), refused for probes that cannot run by time (see rtconform "
	    "list)",
	    "Run every requirement by time instead of by runs\n"
	    ".RI ( D\n"
	    "in s, min or h:\n"
	    ".BR 30min ,\n"
	    ".BR 24h ;\n"
	    "1\\ s to 168\\ h), as a requirement's\n"
	    ".B <run duration=\"...\"/>\n"
	    "does.\n"
	    "Refused for probes that cannot run by time."),
	ROW("interval", 0, "D", 'I',
	    "keep the figures of every D of every requirement beside its totals (s, "
	    "min or h; 1s..168h): results.json's intervals, report.html's plot over "
	    "time; a run by time keeps 1min intervals without it",
	    "Keep the figures of every interval of\n"
	    ".I D\n"
	    "(s, min or h, 1\\ s to 168\\ h) of every requirement beside its totals, as\n"
	    "a requirement's\n"
	    ".B <run interval=\"...\"/>\n"
	    "does: each duration metric's (and CPU's)\n"
	    ".B intervals\n"
	    "in\n"
	    ".IR results.json ,\n"
	    "a plot over time in\n"
	    ".I report.html\n"
	    "(max and p99 per interval, the limits, the intervals beyond a limit and\n"
	    "the one a kernel trace was taken in marked), the rows of the\n"
	    ".B \\-\\-csv\n"
	    "directory's\n"
	    ".I intervals.csv\n"
	    "and a line of\n"
	    ".IR summary.txt .\n"
	    "A run by time keeps 1\\ min intervals without it.\n"
	    "An interval ends at the end of a run, so it lasts at least\n"
	    ".IR D ."),
	ROW("trace", 0, NULL, 't',
	    "arm a kernel trace for every requirement, as <trace/> does: the worst "
	    "sample above a limit's max (within 8 stops) saves trace-<ID>.txt beside "
	    "report.html",
	    "Arm a kernel trace (a tracefs instance of its own) for every requirement,\n"
	    "as a requirement's\n"
	    ".B <trace/>\n"
	    "does: a sample above a limit's maximum (or the trace's threshold) stops\n"
	    "it, and so does each later one larger than every sample before (at most 8\n"
	    "times; the trace is emptied and started again in between), and the trace\n"
	    "of the largest is saved as\n"
	    ".BI trace\\- ID .txt\n"
	    "beside\n"
	    ".I report.html\n"
	    ".RI ( trace\\- ID ~2.txt\n"
	    "for a second requirement of that id in the run);\n"
	    "every report links or names it.\n"
	    "A limit's maximum trips the trace whatever its statistic, so a requirement\n"
	    "that passes may still have a trace.\n"
	    "Tracing is left as it was found: tracefs is mounted at\n"
	    ".I /sys/kernel/tracing\n"
	    "only when it is not, and unmounted by the last traced rtconform to use it,\n"
	    "so runs that overlap share it (decided under a lock on\n"
	    ".IR /run/rtconform\\-tracefs.lock );\n"
	    "an instance a killed run left is removed by the next traced run."),
	ROW("quiet", 'q', NULL, 'q',
	    "no progress on stderr (on a terminal: live figures of the running "
	    "requirement; otherwise a line per requirement and one every 30 s while "
	    "it runs), nor the warnings before measuring (readiness, too few samples; "
	    "the reports have them)",
	    "No progress on standard error, nor the warnings printed before measuring\n"
	    "(each readiness check that warns or fails,\n"
	    ".RI \"rtconform run: readiness warn: \" name \": \" finding ,\n"
	    "and each limit the run's counts may give too few samples for); the\n"
	    "reports have them.\n"
	    "Without it, on a terminal, the running requirement's progress and its live\n"
	    "figures (samples, min, current, mean and max so far of each metric, per\n"
	    "CPU for timer-wakeup) are redrawn in place about three times a second, with the\n"
	    "time left paced on the time measured (not the warm-up); when\n"
	    "standard error is not a terminal, or\n"
	    ".B TERM\n"
	    "is unset or\n"
	    ".BR dumb ,\n"
	    "there is a line per requirement and one\n"
	    "every 30 seconds while it runs."),
	ROW("host-label", 0, "NAME", 'L',
	    "the lab's name for this machine, in every report (1-64 printable ASCII "
	    "characters)",
	    "The lab's name for this machine (1 to 64 printable ASCII characters, no\n"
	    "blank at either end), recorded in every report beside the host name, the\n"
	    "DMI or device-tree model, the OS release and a hashed machine id."),
	ROW("sign", 0, "KEY", 'G',
	    "sign the -o directory's MANIFEST.sha256: KEY a minisign secret key file "
	    "(MANIFEST.sha256.minisig) or a GnuPG key id (MANIFEST.sha256.sig); "
	    "rtconform verify checks it",
	    "Sign the\n"
	    ".BR \\-o \" directory's\"\n"
	    ".I MANIFEST.sha256\n"
	    "after writing it: with\n"
	    ".BR minisign (1)\n"
	    "when\n"
	    ".I KEY\n"
	    "names a file (a secret key that signs without a passphrase prompt:\n"
	    ".IR MANIFEST.sha256.minisig ),\n"
	    "else with\n"
	    ".BR gpg (1)\n"
	    "and\n"
	    ".I KEY\n"
	    "a key id of the keyring\n"
	    ".RI ( MANIFEST.sha256.sig ,\n"
	    "detached).\n"
	    "The tool must be installed and the key must sign a scratch file, checked\n"
	    "before anything is measured (else exit status 2).\n"
	    ".B rtconform verify\n"
	    "checks the signature."),
	NULL,
};

/* validate */
static const struct cli_opt *const validate_rows[] = {
	ROW("plan", 0, NULL, 'p',
	    "instead, per requirement, the iterations (runs by count) or the duration "
	    "(runs by time, from the probe's pace) its percentile limits need by that "
	    "10% rule, and whether the file's setting reaches it or is short of the "
	    "plan",
	    "Per requirement, the iterations (a run by count, at its runs) or the\n"
	    "duration (a run by time, estimated from the probe's pace) its percentile\n"
	    "limits need for the 95% upper bound to come within 10% of the estimate's\n"
	    "rank counted from the top, and whether the file's setting\n"
	    ".RB \\(lq \"reaches the plan\" \\(rq\n"
	    "or\n"
	    ".RB \\(lq \"is short of the plan\" \\(rq\n"
	    "(the requirement's line says\n"
	    ".BR \"short of the plan\" ).\n"
	    "A setting short of the plan is valid: the exit status stays 0.\n"
	    "A run by time that reaches the plan says so once on its progress line\n"
	    ".RB ( \"HH:MM:SS: enough samples for p99.9 at 95% (388,000)\" ).\n"
	    "The rule is docs/measurement.md's\n"
	    ".RI \\(lq \"Confidence bounds, planning and what the maximum means\" \\(rq."),
	NULL,
};

/* probe */
static const struct cli_opt *const probe_rows[] = {
	ROW("param", 0, "K=V", 'p',
	    "set parameter K of the probe to V (repeatable); checked as a file's are",
	    "Set parameter\n"
	    ".I K\n"
	    "of the probe to\n"
	    ".IR V ;\n"
	    "repeatable.\n"
	    "Names and values are checked as a requirements file's are."),
	ROW("policy", 0, "fifo|rr|other", 'P',
	    "the scheduling policy (default other)",
	    NULL),
	ROW("priority", 0, "N|max", 'R',
	    "the real-time priority (default max); needs --policy fifo or rr",
	    "The real-time priority (default for\n"
	    ".B fifo\n"
	    "and\n"
	    ".BR rr :\n"
	    ".BR max ).\n"
	    "Needs\n"
	    ".B \\-\\-policy fifo\n"
	    "or\n"
	    ".BR rr ."),
	ROW("cpu", 0, "N", 'c',
	    "pin the worker to CPU N",
	    NULL),
	ROW("iterations", 0, "N", 'i',
	    "timed samples per run (default 1000)",
	    NULL),
	ROW("runs", 0, "N", 'r',
	    "runs (default 1)",
	    NULL),
	ROW("warmup", 0, "N", 'w',
	    "untimed iterations before the first run",
	    NULL),
	ROW("timeout", 0, "DURATION", 't',
	    "the watchdog's limit (500ms, 10s); by time, on top of the duration: "
	    "--duration 1s --timeout 2s stops it after 3 s",
	    "The watchdog's limit for the whole measurement (default 60s), a duration\n"
	    "such as\n"
	    ".B 10s\n"
	    "or\n"
	    ".BR 500ms .\n"
	    "With\n"
	    ".BR \\-\\-duration ,\n"
	    "it comes on top of the duration (warm-up, set-up and the last run take\n"
	    "time past it):\n"
	    ".B \\-\\-duration 1s \\-\\-timeout 2s\n"
	    "lets the worker run 3 s, and a worker stopped by it is reported\n"
	    "as timed out\n"
	    ".RB ( \"timeout 2 s after the duration 1 s\" )."),
	ROW("duration", 0, "D", 'D',
	    "run by time instead of --runs (s, min or h; 1s..168h), refused for "
	    "probes that cannot run by time",
	    "Run by time for\n"
	    ".I D\n"
	    "instead of a number of runs, with the grammar of\n"
	    ".BR run 's\n"
	    ".B \\-\\-duration\n"
	    "(1s to 168h); refused for probes that cannot run by time and together with\n"
	    ".BR \\-\\-runs ."),
	ROW(CLI_OUT_OUTPUT_ROW,
	    "also write the reports of rtconform run -o into DIR: junit.xml, "
	    "summary.txt, report.html, results.json",
	    "Also write the four reports of\n"
	    ".B run \\-o\n"
	    "into\n"
	    ".I DIR\n"
	    "(made if missing, one level; checked writable and locked before\n"
	    "anything is measured, as\n"
	    ".B run \\-o\n"
	    "is):\n"
	    ".IR junit.xml ,\n"
	    ".IR summary.txt ,\n"
	    ".I report.html\n"
	    "and\n"
	    ".IR results.json ,\n"
	    "rendered by the same writers, so\n"
	    ".B rtconform report\n"
	    "reads them back.\n"
	    "The requirement is called\n"
	    ".BR probe ;\n"
	    "its requirements file is the command line, recorded as\n"
	    ".BR rtconform.command ."),
	ROW("json", 0, NULL, 'J',
	    "print results.json on stdout instead of the statistics",
	    "Print\n"
	    ".I results.json\n"
	    "on standard output and nothing else (the statistics are left out so the\n"
	    "output is one JSON document); with\n"
	    ".B \\-o\n"
	    "the same bytes as the file written there."),
	NULL,
};

/* report */
static const struct cli_opt *const report_rows[] = {
	&cli_out_html,
	&cli_out_json,
	&cli_out_junit,
	&cli_out_junit_skipped,
	&cli_out_summary,
	&cli_out_csv,
	&cli_out_lava,
	&cli_out_kcidb,
	&cli_out_kcidb_origin,
	NULL,
};

/* merge */
static const struct cli_opt *const merge_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW,
	    "the fleet report's directory (default ./rtconform-fleet); refused when "
	    "another rtconform writes into it, or when it holds another kind of "
	    "report (a run's, a comparison's)",
	    "The fleet report's directory (default\n"
	    ".IR ./rtconform\\-fleet ),\n"
	    "created if missing (one level).\n"
	    "No output may overwrite an input.\n"
	    "A directory that holds another kind of report (a run's\n"
	    ".I results.json\n"
	    "or\n"
	    ".IR report.html ,\n"
	    "a comparison's\n"
	    ".IR compare.txt ,\n"
	    "a\n"
	    ".I results.json\n"
	    "or a lone\n"
	    ".I junit.xml\n"
	    "whose kind cannot be told) is refused with exit status 2, naming the file\n"
	    "found; a fleet report over an earlier one is not."),
	ROW("force", 0, NULL, 'f',
	    "write into DIR even when it holds another kind of report",
	    "Write into\n"
	    ".I DIR\n"
	    "even when it holds another kind of report.\n"
	    "Files of the other kind that the fleet report does not replace stay\n"
	    "beside it."),
	NULL,
};

/* compare */
static const struct cli_opt *const compare_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW,
	    "also write compare.txt (the table), junit.xml (one testcase per figure "
	    "and per changed verdict) and compare.html (the table and both histograms "
	    "of each changed metric) into DIR",
	    "Also write\n"
	    ".I compare.txt\n"
	    "(the table),\n"
	    ".I junit.xml\n"
	    "(one testcase per compared figure and per changed verdict or requirement,\n"
	    "a failure for a worse, changed, or inconclusive one that may be worse) and\n"
	    ".I compare.html\n"
	    "(the table, and both histograms of each changed metric drawn over each\n"
	    "other, with the candidate's limits on the metric as lines, as in\n"
	    ".IR report.html )\n"
	    "into\n"
	    ".IR DIR ."),
	ROW("tolerance", 0, "T", 't',
	    "relative tolerance, 0.25 or 25% (default 50%, 0 to 1000%)",
	    "The relative tolerance, as a fraction\n"
	    ".RB ( 0.25 )\n"
	    "or a percentage\n"
	    ".RB ( 25% );\n"
	    "0 to 1000\\ %, default 50\\ %."),
	ROW("significance", 0, "A", 's',
	    "the interval covers 1 - A (default 0.05: 95%; above 0 and at most 0.5)",
	    "The interval of each figure's ratio covers 1 \\-\n"
	    ".IR A ;\n"
	    "above 0 and at most 0.5 (default 0.05: a 95\\ % interval)."),
	ROW("allow-inconclusive", 0, NULL, 'i',
	    "exit 0 when figures are inconclusive but none worse",
	    "Exit 0 when figures are inconclusive (and may be worse) but none is worse\n"
	    "(junit.xml marks them skipped)."),
	ROW("force", 0, NULL, 'f',
	    "write into DIR even when it holds another kind of report (a run's, a "
	    "fleet's), which is otherwise refused, as is a DIR another rtconform "
	    "writes into",
	    "Write into the\n"
	    ".B \\-o\n"
	    "directory even when it holds another kind of report (a run's, a fleet's,\n"
	    "or a\n"
	    ".I results.json\n"
	    "or lone\n"
	    ".I junit.xml\n"
	    "whose kind cannot be told), which is otherwise refused with exit status 2\n"
	    "naming the file found; a comparison over an earlier one is never refused."),
	ROW("allow-missing", 0, NULL, 'm',
	    "a requirement the baseline measured that the candidate skipped or lacks "
	    "is not compared, not a regression",
	    "A requirement the baseline measured that the candidate skipped or does not\n"
	    "have is not compared (junit.xml marks it skipped) instead of a regression:\n"
	    "for a candidate run on purpose on a subset."),
	ROW("allow-changed", 0, NULL, 'c',
	    "a changed requirement is still shown as changed, with each difference, "
	    "but does not fail the comparison",
	    "A requirement whose limits or measurement changed between the runs is still\n"
	    "shown as\n"
	    ".B CHANGED\n"
	    "with each difference, and its verdicts still not compared, but it does not\n"
	    "fail the comparison (junit.xml marks it skipped)."),
	NULL,
};

/* explain */
static const struct cli_opt *const explain_rows[] = {
	ROW("json", 0, NULL, 'j',
	    "the components as JSON on stdout instead (for DIR: an array)",
	    "Print the explanation as JSON (headline, marker, probe, window, components\n"
	    "with kind, label, time in ns, share and count, the sum check, wake\\-up,\n"
	    "migrations, lost events) instead of text; of a directory, an array of them."),
	NULL,
};

/* verify */
static const struct cli_opt *const verify_rows[] = {
	ROW("pubkey", 0, "FILE", 'p',
	    "minisign's public key: the manifest must be signed by it",
	    "The minisign public key the manifest must be signed by: a\n"
	    ".I MANIFEST.sha256.minisig\n"
	    "made by that key is required (a directory without one is exit status 2,\n"
	    "whatever else signs it)."),
	ROW("gpg-key", 0, "KEY", 'g',
	    "GnuPG: the manifest must be signed by this key, named by its full "
	    "fingerprint (then that key is enough), or by a name of the keyring's "
	    "(then gpg must hold the signing key valid full or ultimate)",
	    "The GnuPG key the manifest must be signed by: a\n"
	    ".I MANIFEST.sha256.sig\n"
	    "made by that key is required.\n"
	    ".I KEY\n"
	    "as a full fingerprint (40 or 64 hex digits, blanks between groups allowed)\n"
	    "pins the key: its signature counts.\n"
	    "Any other\n"
	    ".I KEY\n"
	    "is a name gpg's keyring resolves (a user id, an e\\-mail address): the\n"
	    "signing key must be one the keyring lists for it, and one gpg holds valid\n"
	    "full or ultimate (certified by the verifier's own key, or the verifier's\n"
	    "own)."),
	NULL,
};

/* selftest */
static const struct cli_opt *const selftest_rows[] = {
	ROW(CLI_OUT_OUTPUT_ROW,
	    "the record's directory, new or empty (default selftest-YYYYmmdd-HHMMSS "
	    "here)",
	    "The validation record's directory, made if missing (one level); an\n"
	    "existing one must be empty (else exit status 2): a record is never\n"
	    "written over another."),
	NULL,
};
/* list */
static const struct cli_opt *const list_rows[] = {
	ROW("profiles", 0, NULL, 'P',
	    "the shipped profiles (name, requirement count, expected run time, title) and "
	    "where they are, instead of the probes",
	    NULL),
	NULL,
};

/* env */
static const struct cli_opt *const env_rows[] = { NULL };

/* ---- the commands' tables ---- */

const struct cli_cmd_opts cli_opts_run = { "run", run_rows };
const struct cli_cmd_opts cli_opts_validate = { "validate", validate_rows };
const struct cli_cmd_opts cli_opts_list = { "list", list_rows };
const struct cli_cmd_opts cli_opts_probe = { "probe", probe_rows };
const struct cli_cmd_opts cli_opts_env = { "env", env_rows };
const struct cli_cmd_opts cli_opts_report = { "report", report_rows };
const struct cli_cmd_opts cli_opts_compare = { "compare", compare_rows };
const struct cli_cmd_opts cli_opts_explain = { "explain", explain_rows };
const struct cli_cmd_opts cli_opts_merge = { "merge", merge_rows };
const struct cli_cmd_opts cli_opts_verify = { "verify", verify_rows };
const struct cli_cmd_opts cli_opts_selftest = { "selftest", selftest_rows };
const struct cli_cmd_opts *const cli_opts_all[] = {
	&cli_opts_run, &cli_opts_validate, &cli_opts_list, &cli_opts_probe, &cli_opts_env,
	&cli_opts_report, &cli_opts_compare, &cli_opts_explain, &cli_opts_merge,
	&cli_opts_verify, &cli_opts_selftest, NULL,
};

/* Every command's --help, the row cli_getopt and cli_usage add. */
static const struct cli_opt help_row = { "help", 'h', NULL, CLI_OPT_HELP, "this text", NULL };

/* ---- getopt_long() ---- */

#define MAX_ROWS 40

int cli_getopt(const struct cli_cmd_opts *t, int argc, char **argv)
{
	static const struct cli_cmd_opts *built;
	static struct option opts[MAX_ROWS + 2];
	static char shorts[2 * MAX_ROWS + 4];
	if (built != t) {
		size_t n = 0, s = 0;
		shorts[s++] = ':'; /* a missing value is ':', not '?' */
		for (const struct cli_opt *const *r = t->rows; *r && n < MAX_ROWS; r++, n++) {
			opts[n] = (struct option){ (*r)->name,
						   (*r)->arg ? required_argument : no_argument,
						   NULL, (*r)->val };
			if ((*r)->letter) {
				shorts[s++] = (*r)->letter;
				if ((*r)->arg)
					shorts[s++] = ':';
			}
		}
		opts[n++] = (struct option){ help_row.name, no_argument, NULL, help_row.val };
		opts[n] = (struct option){ 0 };
		shorts[s++] = help_row.letter;
		shorts[s] = '\0';
		built = t;
	}
	return getopt_long(argc, argv, shorts, opts, NULL);
}

/* ---- --help ---- */

/* Where an option's words start in --help, and the line's width. */
#define HELP_COL 24
#define HELP_WIDTH 80

/* "-o, --output DIR" or "    --quick" of row r into buf. */
static int opt_synopsis(const struct cli_opt *r, char *buf, size_t len)
{
	char lead[8] = "    ";
	if (r->letter)
		snprintf(lead, sizeof lead, "-%c, ", r->letter);
	return snprintf(buf, len, "%s--%s%s%s", lead, r->name, r->arg ? " " : "",
			r->arg ? r->arg : "");
}

/* words wrapped from column col to HELP_WIDTH, each line indented to col
 * after the first (which starts at col already). */
static void print_wrapped(FILE *out, const char *words, int col)
{
	int at = col;
	for (const char *p = words; *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (!n)
			break;
		if (at > col && at + 1 + (int)n > HELP_WIDTH) {
			fprintf(out, "\n%*s", col, "");
			at = col;
		}
		at += fprintf(out, "%s%.*s", at > col ? " " : "", (int)n, p);
		p += n;
	}
	fputc('\n', out);
}

static void usage_row(FILE *out, const struct cli_opt *r)
{
	char syn[128];
	int n = opt_synopsis(r, syn, sizeof syn);
	if (n + 2 >= HELP_COL) /* too long: the words on a line of their own */
		fprintf(out, "  %s\n%*s", syn, HELP_COL, "");
	else
		fprintf(out, "  %-*s", HELP_COL - 2, syn);
	print_wrapped(out, r->help, HELP_COL);
}

void cli_usage(FILE *out, const struct cli_cmd_opts *t, const char *head, const char *tail)
{
	fputs(head, out);
	fputc('\n', out);
	for (const struct cli_opt *const *r = t->rows; *r; r++)
		usage_row(out, *r);
	usage_row(out, &help_row);
	if (tail) {
		fputc('\n', out);
		fputs(tail, out);
	}
}

/* ---- the completion's listing ---- */

static const struct cli_cmd_opts *find_cmd(const char *cmd)
{
	for (size_t i = 0; cli_opts_all[i]; i++)
		if (!strcmp(cli_opts_all[i]->cmd, cmd))
			return cli_opts_all[i];
	return NULL;
}

static void list_row(const struct cli_opt *r)
{
	printf("--%s\t", r->name);
	if (r->letter)
		printf("-%c", r->letter);
	printf("\t%s\n", r->arg ? r->arg : "");
}

int cli_list_options(const char *cmd)
{
	const struct cli_cmd_opts *t = cmd ? find_cmd(cmd) : NULL;
	if (!t) {
		termsafe_println(stderr, "rtconform --list-options: no command '%s'", cmd ? cmd : "");
		return 2;
	}
	for (const struct cli_opt *const *r = t->rows; *r; r++)
		list_row(*r);
	list_row(&help_row);
	return 0;
}

/* ---- the man page's OPTIONS entries ---- */

/* s with every '-' as troff's minus, "\-". */
static void man_minus(const char *s, FILE *out)
{
	for (; *s; s++)
		fputs(*s == '-' ? "\\-" : (char[]){ *s, 0 }, out);
}

/* An option's value in troff: a lower-case word (a choice: fifo, max) in
 * bold, any other word (DIR, K, ID) in italic, the rest roman. */
static void man_arg(const char *arg, FILE *out)
{
	for (const char *p = arg; *p;) {
		size_t n = 0;
		bool lower = true;
		while (isalnum((unsigned char)p[n])) {
			lower = lower && !isupper((unsigned char)p[n]);
			n++;
		}
		if (n) {
			fprintf(out, "\\f%c%.*s\\fR", lower ? 'B' : 'I', (int)n, p);
			p += n;
		} else {
			man_minus((char[]){ *p++, 0 }, out);
		}
	}
}

static void man_entry(const struct cli_opt *r, FILE *out)
{
	fputs(".TP\n", out);
	fputs(r->letter || r->arg ? ".BR " : ".B ", out);
	if (r->letter)
		fprintf(out, "\\-%c \", \" ", r->letter);
	fputs("\\-\\-", out);
	man_minus(r->name, out);
	if (r->arg) {
		fputs(" \" ", out);
		man_arg(r->arg, out);
		fputc('"', out);
	}
	fputc('\n', out);
	if (r->man) {
		fprintf(out, "%s\n", r->man);
		return;
	}
	/* help's words as a sentence */
	fputc(toupper((unsigned char)r->help[0]), out);
	man_minus(r->help + 1, out);
	fputs(".\n", out);
}

#define MAN_MARK ".\\\" rtconform-options "

int cli_man_page(const char *page)
{
	char *text, err[600];
	size_t len;
	if (!page || safeopen_read(page, 1 << 20, "a man page", &text, &len, err, sizeof err)) {
		termsafe_println(stderr, "rtconform --man-page: %s", page ? err : "no page given");
		return 2;
	}
	int rc = 0;
	for (char *line = text; !rc && *line;) {
		size_t n = strcspn(line, "\n");
		char *next = line + n + (line[n] == '\n');
		line[n] = '\0';
		if (strncmp(line, MAN_MARK, strlen(MAN_MARK)) != 0) {
			puts(line);
		} else {
			const char *cmd = line + strlen(MAN_MARK);
			const struct cli_cmd_opts *t = find_cmd(cmd);
			if (!t) {
				termsafe_println(stderr, "rtconform --man-page: %s: no command '%s'", page,
						 cmd);
				rc = 2;
			}
			for (const struct cli_opt *const *r = t ? t->rows : NULL; r && *r; r++)
				man_entry(*r, stdout);
		}
		line = next;
	}
	free(text);
	return rc;
}

#ifdef RTC_MAN_TOOL
/* The page's maker alone, for a build whose rtconform cannot run where it
 * is built (a cross build: cmake/docs-install.cmake). */
int main(int argc, char **argv)
{
	return argc == 3 && !strcmp(argv[1], "--man-page") ? cli_man_page(argv[2]) : 2;
}
#endif
