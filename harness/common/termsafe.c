#include "common/termsafe.h"

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* U+0080..U+009F as UTF-8 (0xC2 0x80..0x9F): the C1 controls a UTF-8 terminal acts on
 * (U+009B is CSI, an escape sequence without ESC). Two bytes, or 0. Bytes 0x80..0x9F on
 * their own are left alone: they are the continuation bytes of other characters. */
static size_t c1_at(const unsigned char *s, size_t left)
{
	return left >= 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f ? 2 : 0;
}

bool hb_has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (is_control(*p) || c1_at(p, p[1] ? 2 : 1))
			return true;
	return false;
}

void hb_strip_controls(char *s, size_t len, bool keep_newlines)
{
	unsigned char *u = (unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		size_t c1 = c1_at(u + i, len - i);
		if (c1) {
			u[i] = u[i + 1] = '?';
			i++;
		} else if (is_control(u[i]) && !(keep_newlines && (u[i] == '\n' || u[i] == '\t'))) {
			u[i] = '?';
		}
	}
}
