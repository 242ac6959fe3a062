/* SPDX-License-Identifier: Apache-2.0 */
/* utf8.c - see utf8.h. */
#include "base/utf8.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		len = 1, v = c, min = 0;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if (i >= n || (s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	if (cp)
		*cp = v;
	return len;
}

size_t utf8_invalid_at(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		size_t n = utf8_decode(s + i, len - i, NULL);
		if (!n)
			return i;
		i += n;
	}
	return len;
}
