/* SPDX-License-Identifier: Apache-2.0 */
/* The skeleton of a results.json (json_split.h): a byte scanner that
 * follows strings and nesting only as far as it must to find the objects
 * of files[F].requirements. It judges nothing: every byte it passes on
 * and every range it cuts is parsed by jansson, and a file that is not
 * JSON fails there, in the skeleton or in the range. */
#include "reports/read/json_split.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAXD 7 /* depths the scanner keeps: the requirements sit at 5 */

void jsplit_init(struct jsplit *s, FILE *f, size_t max_bytes, jsplit_take_fn take)
{
	memset(s, 0, sizeof *s);
	s->f = f;
	s->max_bytes = max_bytes;
	s->take = take;
	s->line = 1;
	s->in_off = ftello(f);
	if (s->in_off < 0)
		s->in_off = 0;
}

void jsplit_free(struct jsplit *s)
{
	free(s->r);
	s->r = NULL;
	s->nr = s->cap = 0;
}

/* Inside root.files[F].requirements, an element about to open: the
 * root object's key is "files", the file object's "requirements". */
static bool at_requirement(const struct jsplit *s)
{
	return s->depth == 4 && s->kind[1] == '{' && strcmp(s->key[1], "\"files") == 0 &&
	       s->kind[2] == '[' && s->kind[3] == '{' &&
	       strcmp(s->key[3], "\"requirements") == 0 && s->kind[4] == '[';
}

static bool push_range(struct jsplit *s)
{
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		if (s->take && !s->take((cap - s->cap) * sizeof *s->r)) {
			s->err = ENOMEM;
			return false;
		}
		struct jsplit_range *r = realloc(s->r, cap * sizeof *r);
		if (!r) {
			s->err = ENOMEM;
			return false;
		}
		s->r = r;
		s->cap = cap;
	}
	s->r[s->nr++] = s->cur;
	return true;
}

/* A byte of a string: the first bytes are kept, with the opening quote,
 * so that a key is compared as written ("\"files"); a key spelled with
 * escapes is some other text, and its array is simply not cut. */
static void string_byte(struct jsplit *s, unsigned char c)
{
	if (s->esc)
		s->esc = false;
	else if (c == '\\')
		s->esc = true;
	else if (c == '"')
		s->in_str = false;
	if (s->in_str && s->str_len < sizeof s->str - 1)
		s->str[s->str_len++] = (char)c;
	s->str[s->str_len] = '\0';
}

/* A byte outside strings and outside a cut object. Returns true when it
 * opens a requirement, which is then cut instead of passed on. */
static bool skeleton_byte(struct jsplit *s, unsigned char c, long long off)
{
	switch (c) {
	case '"':
		s->in_str = true;
		s->str[0] = '"';
		s->str[1] = '\0';
		s->str_len = 1;
		break;
	case ':':
		if (s->depth >= 1 && s->depth <= MAXD && s->kind[s->depth] == '{')
			memcpy(s->key[s->depth], s->str, sizeof s->str);
		break;
	case ',':
		if (s->depth >= 1 && s->depth <= MAXD)
			s->count[s->depth]++;
		break;
	case '{':
	case '[':
		if (c == '{' && at_requirement(s)) {
			s->cur = (struct jsplit_range){ .start = off, .line = s->line,
							.col = s->col, .file = s->count[2],
							.req = s->count[4] };
			s->cut_depth = 1;
			return true;
		}
		if (++s->depth <= MAXD) {
			s->kind[s->depth] = (char)c;
			s->key[s->depth][0] = '\0';
			s->count[s->depth] = 0;
		}
		break;
	case '}':
	case ']':
		if (s->depth > 0)
			s->depth--;
		break;
	default:
		break;
	}
	return false;
}

/* A byte of the object being cut: what stands in for it in the skeleton
 * (-1: nothing). Its newlines stay, each other character becomes a space
 * (a character spelled in several bytes, one space), less the width of
 * the placeholder: so a line and column jansson names in the skeleton
 * after the object are the file's (unless the object is narrower than its
 * placeholder, "[N]", which no requirement a run writes is). */
static int cut_byte(struct jsplit *s, unsigned char c, long long off)
{
	if (s->in_str) {
		string_byte(s, c);
	} else if (c == '"') {
		s->in_str = true;
		s->str_len = 0;
	} else if (c == '{' || c == '[') {
		/* jansson refuses a whole file nested deeper than
		 * JSON_PARSER_MAX_DEPTH; a requirement's object is at depth 5 */
		if (++s->cut_depth + 4 > JSON_PARSER_MAX_DEPTH && !s->cur.deep_line) {
			s->cur.deep_line = s->line;
			s->cur.deep_col = s->col;
			s->cur.deep_c = (char)c;
		}
	} else if ((c == '}' || c == ']') && --s->cut_depth == 0) {
		s->cur.end = off + 1;
		push_range(s);
	}
	if (c == '\n') {
		s->absorb = 0;
		return '\n';
	}
	if ((c & 0xc0) == 0x80)
		return -1;
	if (s->absorb) {
		s->absorb--;
		return -1;
	}
	return ' ';
}

static void count_position(struct jsplit *s, unsigned char c)
{
	if (c == '\n') {
		s->line++;
		s->col = 0;
	} else if ((c & 0xc0) != 0x80) {
		s->col++;
	}
}

/* More of the file into in[]; false at its end or on an error. */
static bool refill(struct jsplit *s)
{
	s->in_off += (long long)s->in_len;
	s->in_pos = 0;
	s->in_len = fread(s->in, 1, sizeof s->in, s->f);
	if (s->in_len == 0) {
		if (ferror(s->f))
			s->err = errno ? errno : EIO;
		return false;
	}
	s->total += s->in_len;
	if (s->total > s->max_bytes) { /* grew while being read */
		s->err = EFBIG;
		return false;
	}
	return true;
}

/* A placeholder still to go out first. */
static size_t emit_owed(struct jsplit *s, char *out, size_t len)
{
	size_t n = 0;
	while (n < len && s->out_pos < s->out_len)
		out[n++] = s->out[s->out_pos++];
	return n;
}

/* A requirement opens: its placeholder, the index its range will have
 * (ranges are cut one after another, never one inside another). */
static void open_cut(struct jsplit *s)
{
	s->out_len = (size_t)snprintf(s->out, sizeof s->out, "[%zu]", s->nr);
	s->out_pos = 0;
	s->absorb = s->out_len - 1; /* the brace itself is one */
}

size_t jsplit_read(void *buf, size_t len, void *arg)
{
	struct jsplit *s = arg;
	char *out = buf;
	size_t n = 0;
	while (n < len && !s->err) {
		n += emit_owed(s, out + n, len - n);
		if (n == len)
			break;
		/* At the end of the text, inside a requirement or not, jansson
		 * says what is missing and where the text stopped. */
		if (s->in_pos == s->in_len && !refill(s))
			break;
		unsigned char c = s->in[s->in_pos++];
		long long off = s->in_off + (long long)s->in_pos - 1;
		count_position(s, c);
		int e = c;
		if (s->cut_depth)
			e = cut_byte(s, c, off);
		else if (s->in_str)
			string_byte(s, c);
		else if (skeleton_byte(s, c, off)) {
			open_cut(s);
			e = -1;
		}
		if (e >= 0)
			out[n++] = (char)e;
	}
	return s->err ? (size_t)-1 : n;
}

const struct jsplit_range *jsplit_range_of(const struct jsplit *s, const json_t *obj,
					   size_t file, size_t req)
{
	const json_t *n = json_array_get(obj, 0);
	if (json_array_size(obj) != 1 || !json_is_integer(n) || json_integer_value(n) < 0)
		return NULL;
	size_t i = (size_t)json_integer_value(n);
	if (i >= s->nr || s->r[i].file != file || s->r[i].req != req)
		return NULL;
	return &s->r[i];
}

/* The source of one range's parse. */
struct range_src {
	FILE *f;
	long long left;
	int err;
};

static size_t range_read(void *buf, size_t len, void *arg)
{
	struct range_src *rs = arg;
	if (rs->left <= 0)
		return 0;
	size_t want = (long long)len < rs->left ? len : (size_t)rs->left;
	size_t n = fread(buf, 1, want, rs->f);
	if (n == 0) {
		/* Shorter than when it was split: changed under the reader. */
		rs->err = ferror(rs->f) ? (errno ? errno : EIO) : ESTALE;
		return (size_t)-1;
	}
	rs->left -= (long long)n;
	return n;
}

json_t *jsplit_load(struct jsplit *s, const struct jsplit_range *r, size_t flags,
		    json_error_t *err)
{
	if (r->deep_line) { /* as a parse of the whole file says it */
		memset(err, 0, sizeof *err);
		err->line = r->deep_line;
		err->column = r->deep_col;
		snprintf(err->text, sizeof err->text, "maximum parsing depth reached near '%c'",
			 r->deep_c);
		return NULL;
	}
	struct range_src rs = { s->f, r->end - r->start, 0 };
	if (fseeko(s->f, r->start, SEEK_SET) != 0) {
		s->err = errno ? errno : EIO;
		return NULL;
	}
	json_t *j = json_load_callback(range_read, &rs, flags, err);
	if (!j) {
		if (rs.err)
			s->err = rs.err;
		if (err->line == 1)
			err->column += r->col - 1;
		err->line += r->line - 1;
	}
	return j;
}
