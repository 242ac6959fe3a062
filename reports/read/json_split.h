/* SPDX-License-Identifier: Apache-2.0 */
/* A results.json streamed to jansson with each requirement cut out.
 *
 * jansson builds a whole tree of what it parses, several times the size
 * of its text (some 4 x for a results.json as a run writes it, 12 x
 * written compact, 70 x for a file of tiny elements). The reader needs one requirement at a time, so the
 * text reaches jansson in two kinds of parse: the skeleton, in which every
 * object of files[F].requirements is replaced by a placeholder, [N],
 * N the index of its range below (brackets, so that no text around it
 * joins it into another token, as a bare number would: "-" before it,
 * ".5" after; some 80 bytes as a tree, a requirement thousands), and then, as the reader
 * comes to each placeholder, that requirement's own bytes, parsed alone
 * and freed once read. Only the skeleton and one requirement are a tree
 * at any time. A replaced object keeps its width and its newlines in the
 * skeleton (as spaces), so a line and column jansson names there is the
 * file's, and a fault in a requirement is placed where it is in the file. */
#ifndef RTC_READ_JSON_SPLIT_H
#define RTC_READ_JSON_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* One requirement's bytes: [start, end) of the file, where they begin
 * (line from 1, column from 1 in characters, as jansson counts), and
 * which element they were: files[file].requirements[req]. */
struct jsplit_range {
	long long start, end;
	int line, col;
	size_t file, req;
	/* where it nests deeper than jansson parses a whole file (its own
	 * parse starts 4 levels down, so its limit would come 4 levels late):
	 * line 0 when it does not */
	int deep_line, deep_col;
	char deep_c;
};

/* Counts memory the splitter takes (its ranges) against the reader's
 * budget; false refuses it. */
typedef bool (*jsplit_take_fn)(size_t bytes);

struct jsplit {
	FILE *f;
	size_t max_bytes;   /* the most the file may hold (it may grow while read) */
	size_t total;       /* bytes read so far */
	int err;            /* errno of a failed read, EFBIG past max_bytes, ENOMEM */
	jsplit_take_fn take;
	struct jsplit_range *r;
	size_t nr, cap;
	/* the scanner (json_split.c) */
	unsigned char in[65536];
	size_t in_pos, in_len;
	long long in_off;   /* file offset of in[0] */
	char out[32];       /* a placeholder waiting to go out */
	size_t out_pos, out_len;
	size_t absorb;      /* characters of a cut object its placeholder covers */
	int line, col;
	bool in_str, esc;
	int depth;          /* nesting outside a cut object */
	int cut_depth;      /* nesting inside the one being cut; 0 when none */
	char kind[8];       /* '{' or '[' at depths 1..7 */
	char key[8][16];    /* an object's current key (raw, first 15 bytes) */
	size_t count[8];    /* an array's commas so far: the element's index */
	char str[16];       /* the string being read (raw, first 15 bytes) */
	size_t str_len;
	struct jsplit_range cur;
};

/* Start splitting f (positioned at the text's first byte). */
/* The reader's memory budget (json_read.c), for another reader of the
 * module (the journal's): jansson's allocations count against READ_MEM_RATIO
 * times file_bytes plus READ_MEM_FLOOR from start to stop; stop says
 * whether an allocation was refused for it. */
void read_budget_start(size_t file_bytes);
bool read_budget_stop(void);

void jsplit_init(struct jsplit *s, FILE *f, size_t max_bytes, jsplit_take_fn take);
void jsplit_free(struct jsplit *s);

/* json_load_callback's source: the skeleton. */
size_t jsplit_read(void *buf, size_t len, void *arg);

/* The placeholder found at files[file].requirements[req]: the range it
 * stands for, or NULL when obj is not one of the splitter's own there (a
 * value the file itself wrote, read as it is: only an object is cut, and
 * each range is of one position, so a number the file wrote is never
 * taken for one). */
const struct jsplit_range *jsplit_range_of(const struct jsplit *s, const json_t *obj,
					   size_t file, size_t req);

/* Parse one range alone (flags as json_load_callback's). On failure,
 * err->line and err->column are the file's, not the range's. */
json_t *jsplit_load(struct jsplit *s, const struct jsplit_range *r, size_t flags,
		    json_error_t *err);

#endif
