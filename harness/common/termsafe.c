#include "common/termsafe.h"

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

bool hb_has_control(const char *s)
{
	for (; *s; s++)
		if (is_control((unsigned char)*s))
			return true;
	return false;
}

void hb_strip_controls(char *s, size_t len, bool keep_newlines)
{
	for (size_t i = 0; i < len; i++)
		if (is_control((unsigned char)s[i]) && !(keep_newlines && (s[i] == '\n' || s[i] == '\t')))
			s[i] = '?';
}
