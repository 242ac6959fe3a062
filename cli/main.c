/* main.c - rtconform's command line: dispatch only. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "base/quote.h"
#include "requirements/loader.h"

static const char usage[] =
	"usage: rtconform COMMAND [OPTIONS]\n"
	"\n"
	"Measure real-time latency requirements declared in XML and report verdicts.\n"
	"\n"
	"commands:\n"
	"  run [OPTIONS] [FILE.xml ...]  measure requirements (no FILE: built-in default profile)\n"
	"  validate FILE...              check requirement files, measure nothing\n"
	"  list [FILE]                   probes and their parameters, or a file's requirements\n"
	"  probe NAME [OPTIONS]          one ad-hoc measurement, statistics to stdout\n"
	"  env                           this machine's fingerprint and real-time readiness\n"
	"  report JUNIT.xml --html FILE  render report.html (or --json) again from a junit.xml\n"
	"\n"
	"  rtconform COMMAND --help      options of a command\n"
	"  rtconform --version\n"
	"\n"
	"exit status: 0 all passed, 1 a limit failed, 2 usage error or invalid input,\n"
	"3 a requirement could not be measured (3 wins over 1)\n";

/* Shell-quote argv into one string, so reports can show the exact command. */
static char *quote_cmdline(int argc, char **argv)
{
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += shell_quote_room(argv[i]);
	char *s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++)
		shell_quote_append(s, len, argv[i]);
	return s;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX] = ".";
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = 0;
	}
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	req_loader_init();
	atexit(req_loader_cleanup);
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
#ifdef RTC_SANITIZED
		printf("rtconform %s (sanitizer build: memory is not locked; not for qualification)\n",
		       RTC_VERSION);
#else
		printf("rtconform %s\n", RTC_VERSION);
#endif
		return 0;
	}
	if (!strcmp(cmd, "run")) {
		char *cl = quote_cmdline(argc, argv);
		int rc = cmd_run(argc - 1, argv + 1, self, cl ? cl : "rtconform run");
		free(cl);
		return rc;
	}
	if (!strcmp(cmd, "validate"))
		return cmd_validate(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc - 1, argv + 1);
	if (!strcmp(cmd, "probe"))
		return cmd_probe(argc - 1, argv + 1, self);
	if (!strcmp(cmd, "env"))
		return cmd_env(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);
	fprintf(stderr, "rtconform: unknown command '%s' (expected run, validate, list, probe, "
		"env or report; see rtconform --help)\n", cmd);
	return EXIT_USAGE;
}
