/* SPDX-License-Identifier: Apache-2.0 */
/* quote.h - strings made safe for where they go: shell quoting for the
 * commands reports record (the exact command line of a run, a background
 * load's command), so a reader can paste them into a shell; and parts of
 * file names made from requirement ids and metric names. */
#ifndef RTC_QUOTE_H
#define RTC_QUOTE_H

#include <stddef.h>

/* Append a space (unless buf is empty) and word to buf (len bytes, always
 * NUL-terminated), single-quoted unless it is made only of characters a
 * shell takes literally. Truncates rather than overflows. */
void quote_shell_append(char *buf, size_t len, const char *word);

/* Bytes quote_shell_append may add for word, terminator included. */
size_t quote_shell_room(const char *word);

/* s as a part of a file name, into out (max + 1 bytes): ASCII letters,
 * digits, '.', '_' and '-' stay, every other byte becomes '_'; at most max
 * bytes; empty becomes "_", and a leading '.' becomes '_' (no hidden file,
 * no "." or ".."). Trace files and CSV files are named with it. */
void quote_fname_part(const char *s, size_t max, char *out);

#endif
