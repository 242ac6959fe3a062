/* report.c - `rtconform report`: render report.html and/or results.json
 * again from a junit.xml that `rtconform run` wrote. */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>

#include "reports/report.h"

static const char report_usage[] =
	"usage: rtconform report JUNIT.xml [--html FILE] [--json FILE]\n"
	"\n"
	"Render the audit report (HTML) and/or results.json again from a junit.xml that\n"
	"rtconform run wrote, alone: its properties carry every statistic, histogram\n"
	"bucket, limit and the environment. The HTML is the same, byte for byte, as the\n"
	"report.html the run wrote. At least one of --html and --json.\n"
	"\n"
	"exit status: 0 written, 2 usage error, unreadable or foreign junit.xml, or an\n"
	"output that cannot be written\n";

int cmd_report(int argc, char **argv, const struct cli_ctx *ctx)
{
	(void)ctx;
	static const struct option opts[] = {
		{ "html", required_argument, NULL, 'H' },
		{ "json", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *html = NULL, *json = NULL;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'H': html = optarg; break;
		case 'J': json = optarg; break;
		case 'h': fputs(report_usage, stdout); return 0;
		case ':':
			fprintf(stderr, "rtconform report: option %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "rtconform report: unknown option '%s' (see rtconform report --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "rtconform report: give exactly one junit.xml (see rtconform report --help)\n");
		return EXIT_USAGE;
	}
	if (!html && !json) {
		fprintf(stderr, "rtconform report: nothing to write: give --html FILE and/or --json FILE\n");
		return EXIT_USAGE;
	}
	char err[700];
	if ((html && report_check_writable(html, err, sizeof err) != 0) ||
	    (json && report_check_writable(json, err, sizeof err) != 0)) {
		fprintf(stderr, "rtconform report: %s\n", err);
		return EXIT_USAGE;
	}
	struct report_view v;
	if (report_view_from_junit(argv[optind], &v, err, sizeof err) != 0) {
		fprintf(stderr, "rtconform report: %s\n", err);
		return EXIT_USAGE;
	}
	int rc = 0;
	if (html && report_write_html_view(&v, html, err, sizeof err) != 0) {
		fprintf(stderr, "rtconform report: %s\n", err);
		rc = EXIT_USAGE;
	}
	if (json && report_write_json_view(&v, json, err, sizeof err) != 0) {
		fprintf(stderr, "rtconform report: %s\n", err);
		rc = EXIT_USAGE;
	}
	if (!rc)
		printf("reports: %s%s%s\n", html ? html : "", html && json ? ", " : "",
		       json ? json : "");
	report_view_free(&v);
	return rc;
}
