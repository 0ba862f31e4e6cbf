/* Word wrapping (wrap.h). Hand-written: a greedy fill of a few dozen lines, which no
 * packaged C library offers without a text-layout framework. */
#include "report/wrap.h"

#include <stdbool.h>
#include <string.h>

/* The words of text, one after the other: *len set, NULL at the end. In a command
 * (shell), a space inside single quotes is part of its word. */
static const char *next_word(const char **text, size_t *len, bool shell)
{
	const char *w = *text + strspn(*text, " ");
	bool quoted = false;
	size_t n = 0;

	for (; w[n] && (quoted || w[n] != ' '); n++)
		if (shell && w[n] == '\'')
			quoted = !quoted;
	/* "--param KEY=VALUE" stays on one line: an option with its value reads as one. */
	if (shell && n > 2 && !strncmp(w, "--", 2) && !memchr(w, '=', n) && w[n] == ' ' && w[n + 1] &&
	    w[n + 1] != '-' && w[n + 1] != ' ') {
		const char *rest = w + n;
		size_t more;
		next_word(&rest, &more, true);
		n = (size_t)(rest - w);
	}
	*len = n;
	*text = w + n;
	return n ? w : NULL;
}

/* suffix: what a broken line ends with (" \\" for commands, "" for prose). */
static void wrap(FILE *out, const char *text, const char *first, const char *rest, int width,
		 const char *suffix)
{
	size_t col = strlen(first), slen = strlen(suffix), len;
	bool at_start = true;
	const char *w;

	fputs(first, out);
	while ((w = next_word(&text, &len, *suffix != 0))) {
		/* Room for the word, and for a continuation marker should a word follow. */
		if (!at_start && col + 1 + len + slen > (size_t)width) {
			fprintf(out, "%s\n%s", suffix, rest);
			col = strlen(rest);
			at_start = true;
		}
		if (!at_start) {
			fputc(' ', out);
			col++;
		}
		fwrite(w, 1, len, out);
		col += len;
		at_start = false;
	}
	fputc('\n', out);
}

void wrap_paragraph(FILE *out, const char *text, const char *first, const char *rest, int width)
{
	wrap(out, text, first, rest, width, "");
}

void wrap_command(FILE *out, const char *cmd, const char *first, const char *rest, int width)
{
	wrap(out, cmd, first, rest, width, " \\");
}
