/* quote.h - shell quoting for the commands reports record (the exact
 * command line of a run, a background load's command), so a reader can
 * paste them into a shell. */
#ifndef RTC_QUOTE_H
#define RTC_QUOTE_H

#include <stddef.h>

/* Append a space (unless buf is empty) and word to buf (len bytes, always
 * NUL-terminated), single-quoted unless it is made only of characters a
 * shell takes literally. Truncates rather than overflows. */
void shell_quote_append(char *buf, size_t len, const char *word);

/* Bytes shell_quote_append may add for word, terminator included. */
size_t shell_quote_room(const char *word);

#endif
