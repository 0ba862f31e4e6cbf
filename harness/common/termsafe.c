#include "common/termsafe.h"

#include <string.h>
#include <unistd.h>

#include "common/fileutil.h"

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

int hb_write_for_terminal(int fd, const char *buf, size_t len)
{
	char chunk[4096];

	if (!isatty(fd))
		return hb_write_all(fd, buf, len);
	while (len) {
		size_t n = len < sizeof(chunk) ? len : sizeof(chunk);
		memcpy(chunk, buf, n);
		hb_strip_controls(chunk, n, true);
		if (hb_write_all(fd, chunk, n) < 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}
