/* SPDX-License-Identifier: Apache-2.0 */
/* quote.c - see quote.h. */
#include "base/quote.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void quote_shell_append(char *cmd, size_t len, const char *word)
{
	size_t used = strlen(cmd);
	bool plain = *word != 0;
	for (const char *c = word; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "-_./=:,+@%", *c))
			plain = false;
	if (used && used + 1 < len)
		cmd[used++] = ' ';
	if (plain) {
		snprintf(cmd + used, len - used, "%s", word);
		return;
	}
	if (used + 1 < len)
		cmd[used++] = '\'';
	for (const char *c = word; *c && used + 5 < len; c++) {
		if (*c == '\'') {
			memcpy(cmd + used, "'\\''", 4);
			used += 4;
		} else {
			cmd[used++] = *c;
		}
	}
	if (used + 1 < len)
		cmd[used++] = '\'';
	cmd[used < len ? used : len - 1] = 0;
}

size_t quote_shell_room(const char *word)
{
	return strlen(word) * 4 + 4; /* space, quotes, '\'' per quote, NUL */
}

void quote_fname_part(const char *s, size_t max, char *out)
{
	size_t n = 0;
	for (; s[n] && n < max; n++) {
		char ch = s[n];
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
		out[n] = keep ? ch : '_';
	}
	if (!n && max)
		out[n++] = '_';
	out[n] = '\0';
	if (out[0] == '.')
		out[0] = '_';
}
