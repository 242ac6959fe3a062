/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_verify.c - `rtconform verify` of a selftest record
 * (docs/qualification.md "Selftest: the validation record"): the check
 * evidence/verify.c is given for it (selftest.h). */
#include "selftest/selftest.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/termsafe.h"
#include "evidence/manifest.h"
#include "evidence/verify.h"

/* Each document of the record rendered again from what st_read_record
 * read, and compared with the file. The number that disagree. */
static size_t record_docs_agree(const char *dir, const struct st_read *r)
{
	size_t bad = 0;
	char path[PATH_MAX + 64], why[400];
	for (int f = 0; f < ST_NFILES; f++) {
		size_t len = 0;
		char *data = st_render(&r->d, (enum st_file)f, &len, why, sizeof why);
		snprintf(path, sizeof path, "%s/%s", dir, st_file_names[f]);
		if (!data) {
			termsafe_println(stderr, "rtconform verify: %s: cannot be rendered again from "
					 "validation.json: %s", path, why);
			bad++;
			continue;
		}
		/* validation.json written again from itself differs where it
		 * says what this rtconform would not write: totals that are
		 * not its cases', a field it does not know, another layout */
		bad += !verify_agrees(path, data, len, NULL, 0,
			       f == ST_FILE_JSON ? "validation.json read back and written again"
						 : "validation.json");
		free(data);
	}
	return bad;
}

size_t st_verify_record(const char *dir, const struct manifest *m, bool *record)
{
	*record = verify_listed(m, st_file_names[ST_FILE_JSON]);
	if (!*record)
		return 0;
	size_t bad = 0;
	for (int f = 0; f < ST_NFILES; f++) {
		if (!verify_listed(m, st_file_names[f])) {
			termsafe_println(stderr, "rtconform verify: %s: a selftest record's manifest "
					 "that does not list %s (selftest writes it)", dir,
					 st_file_names[f]);
			bad++;
		}
	}
	char path[PATH_MAX + 64], err[PATH_MAX + 1000];
	snprintf(path, sizeof path, "%s/%s", dir, st_file_names[ST_FILE_JSON]);
	size_t len = 0;
	int e;
	char *text = verify_slurp(path, ST_RECORD_MAX, &len, &e, err, sizeof err);
	if (!text && e == -EFBIG) {
		/* never read whole: refused by its size alone */
		termsafe_println(stderr, "rtconform verify: %s: %zu bytes, more than a selftest "
				 "record's %u", path, len, ST_RECORD_MAX);
		return bad + 1;
	}
	if (!text) /* missing, not a regular file, unreadable: said by check_hashes */
		return bad + (e != -ENOENT);
	struct st_read r;
	if (st_read_record(path, text, len, &r, err, sizeof err) != 0) {
		termsafe_println(stderr, "rtconform verify: %s (so the record's reports cannot be "
				 "checked against it)", err);
		bad++;
	} else {
		size_t n = st_read_totals_differ(&r, err, sizeof err);
		if (n)
			termsafe_println(stderr, "rtconform verify: %s: %s%s", path, err,
					 n > 1 ? " (and more totals)" : "");
		bad += (n > 0) + record_docs_agree(dir, &r);
	}
	st_read_free(&r);
	free(text);
	return bad;
}
