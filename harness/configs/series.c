/* Splitting what a user saved from a list into patches. The split is hand-written: it
 * keeps each mail's bytes as given, which the cache key hashes (git mailsplit/mailinfo and
 * GMime's mbox reader rewrite or re-serialise them). Mails encoded by their sender are
 * decoded by GMime (mail_decode.c). */
#include "configs/series.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "configs/mail_decode.h"

enum { NAME_MAX_LEN = 40 };

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl + 1 : p + strlen(p);
}

/* "From <40 hex> " : the first line of every git format-patch mail. */
static bool is_format_patch_from(const char *line)
{
	if (!starts(line, "From "))
		return false;
	for (int i = 5; i < 45; i++)
		if (!isxdigit((unsigned char)line[i]))
			return false;
	return line[45] == ' ';
}

/* A new mail starts at an mbox "From " line: the first line, one after an empty line, or
 * git's own form anywhere (cat 000*.patch leaves no empty line before it). */
static bool starts_mail(const char *text, const char *line)
{
	if (!starts(line, "From "))
		return false;
	return line == text || (line >= text + 2 && line[-2] == '\n') || is_format_patch_from(line) ||
	       starts(line, "From git@z "); /* b4 am's .mbx marks each mail so */
}

/* The value of header name in the mail's headers (folded lines joined), or NULL. */
static char *header(const char *mail, const char *end, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = mail; p < end && *p != '\n'; p = next_line(p)) {
		if (strncasecmp(p, name, n) || p[n] != ':')
			continue;
		char *v = xstrdup("");
		for (const char *q = p + n + 1;; ) {
			const char *e = next_line(q);
			char *part = xstrndup(q, (size_t)(e - q) - (e > q && e[-1] == '\n'));
			char *joined = xasprintf("%s%s", v, part);
			free(part);
			free(v);
			v = joined;
			if (e >= end || (*e != ' ' && *e != '\t'))
				break;
			q = e;
		}
		return v;
	}
	return NULL;
}

static bool has_diff(const char *mail, const char *end)
{
	bool plus = false, hunk = false;

	for (const char *p = mail; p < end; p = next_line(p)) {
		plus |= starts(p, "+++ ");
		hunk |= starts(p, "@@ -");
	}
	return plus && hunk;
}

/* "[PATCH v2 3/5] [net] x: y" -> number 3 (0 when none; -1 for "0/5", a cover letter),
 * and the subject without the bracketed tags. */
static char *strip_tags(const char *subject, int *number)
{
	const char *p = subject;

	*number = 0;
	while (isspace((unsigned char)*p))
		p++;
	while (*p == '[') {
		const char *close = strchr(p, ']');
		if (!close)
			break;
		for (const char *q = p; q < close; q++) {
			int num, of;
			if (isdigit((unsigned char)*q) && (q == p || !isdigit((unsigned char)q[-1])) &&
			    sscanf(q, "%d/%d", &num, &of) == 2 && of > 0)
				*number = num == 0 ? -1 : num;
		}
		p = close + 1;
		while (isspace((unsigned char)*p))
			p++;
	}
	return xstrdup(p);
}

static bool is_reply(const char *subject)
{
	return !strncasecmp(subject, "re:", 3);
}

/* An encoded mail, decoded (mail_decode.h): appended to s when it carries a diff, its
 * text the decoded mail (which names the SHA-256 of the bytes given). 0, or -1 with *why. */
static int add_decoded(const char *where, const char *mail, const char *end, struct series *s, char **why)
{
	struct decoded_mail d;
	int number;
	char *clean;

	if (mail_decode(where, mail, end, &d, why) < 0)
		return -1;
	clean = strip_tags(d.subject ? d.subject : "", &number);
	if (number >= 0) {
		s->patches = xrealloc(s->patches, (s->n + 1) * sizeof(*s->patches));
		s->patches[s->n++] = (struct series_patch){ .origin = xstrdup(where), .subject = clean,
							    .number = number, .text = d.text };
		d.text = NULL;
	} else {
		free(clean);
	}
	decoded_mail_free(&d);
	return 0;
}

/* One mail [mail, end): appended to s when it carries a diff. 0, or -1 with *why. */
static int add_mail(const char *origin, int index, bool several, const char *mail,
		    const char *end, struct series *s, char **why)
{
	char *subject = header(mail, end, "Subject");
	char *where = several ? xasprintf("%s (mail %d)", origin, index) : xstrdup(origin);
	int number = 0, rc = 0;

	const char *how;

	if (mail_is_encoded(mail, end, &how) && !(subject && is_reply(subject))) {
		rc = add_decoded(where, mail, end, s, why);
	} else if (has_diff(mail, end) && !(subject && is_reply(subject))) {
		char *clean = strip_tags(subject ? subject : "", &number);
		if (number >= 0) {
			s->patches = xrealloc(s->patches, (s->n + 1) * sizeof(*s->patches));
			s->patches[s->n++] = (struct series_patch){
				.origin = where, .subject = clean, .number = number,
				.text = xstrndup(mail, (size_t)(end - mail)) };
			where = NULL;
		} else {
			free(clean);
		}
	}
	free(where);
	free(subject);
	return rc;
}

int series_split_mbox(const char *origin, const char *text, struct series *s, char **why)
{
	size_t before = s->n;
	int mails = 0, index = 0;

	for (const char *p = text; *p; p = next_line(p))
		mails += starts_mail(text, p);
	for (const char *mail = text; *mail; ) {
		const char *end = next_line(mail);
		while (*end && !starts_mail(text, end))
			end = next_line(end);
		if (add_mail(origin, ++index, mails > 1, mail, end, s, why) < 0)
			return -1;
		mail = end;
	}
	if (s->n > before)
		return 0;
	*why = xasprintf("%s: no patch in it (accepted: git format-patch output, a folder of it, "
			 "or an mbox of patch mails; a mail counts when it holds a unified diff)", origin);
	return -1;
}

/* All numbered: sorted by number, each of 1..M once. Otherwise the given order. */
static int order_by_number(struct series *s, char **why)
{
	size_t n = s->n;

	for (size_t i = 0; i < n; i++)
		if (s->patches[i].number <= 0)
			return 0;
	for (size_t i = 1; i < n; i++) /* insertion sort: series are short */
		for (size_t j = i; j > 0 && s->patches[j - 1].number > s->patches[j].number; j--) {
			struct series_patch t = s->patches[j];
			s->patches[j] = s->patches[j - 1];
			s->patches[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (s->patches[i].number == (int)i + 1)
			continue;
		if (i > 0 && s->patches[i].number == s->patches[i - 1].number)
			*why = xasprintf("patch %d of the series appears twice (%s and %s; accepted: one "
					 "version of each patch)", s->patches[i].number,
					 s->patches[i - 1].origin, s->patches[i].origin);
		else
			*why = xasprintf("patch %zu of the series is missing (found %d next, in %s; "
					 "accepted: patches 1 to N, all of them)", i + 1,
					 s->patches[i].number, s->patches[i].origin);
		return -1;
	}
	return 0;
}

static bool is_patch_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && n > 6 && !strcmp(name + n - 6, ".patch");
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder's *.patch files in name order (format-patch numbers them). */
static char **folder_patches(const char *dir)
{
	struct hb_strv v = { 0 };
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (is_patch_name(e->d_name))
			hb_strv_push(&v, hb_path_join(dir, e->d_name));
	if (d)
		closedir(d);
	hb_strv_push(&v, NULL);
	qsort(v.v, v.n - 1, sizeof(char *), compare_strings);
	return v.v;
}

static int load_file(const char *path, struct series *s, char **why)
{
	size_t len;
	char *text = hb_read_file(path, &len);
	int rc;

	if (!text) {
		*why = xasprintf("%s: cannot read: %s (accepted: a patch file, an mbox, or a folder "
				 "of *.patch files)", path, strerror(errno));
		return -1;
	}
	if (strlen(text) != len) {
		*why = xasprintf("%s: holds NUL bytes, not a text patch (accepted: a patch file, an "
				 "mbox, or a folder of *.patch files)", path);
		free(text);
		return -1;
	}
	rc = series_split_mbox(path, text, s, why);
	free(text);
	return rc;
}

int series_load(char *const *paths, struct series *out, char **why)
{
	int rc = 0;

	*out = (struct series){ 0 };
	for (size_t i = 0; rc == 0 && paths[i]; i++) {
		char **files = hb_is_dir(paths[i]) ? folder_patches(paths[i]) : NULL;
		if (files && !files[0]) {
			*why = xasprintf("%s: a folder without *.patch files (accepted: a patch file, an "
					 "mbox, or a folder of git format-patch output)", paths[i]);
			rc = -1;
		}
		for (size_t j = 0; rc == 0 && files && files[j]; j++)
			rc = load_file(files[j], out, why);
		if (!files)
			rc = load_file(paths[i], out, why);
		hb_free_strv(files);
	}
	if (rc == 0)
		rc = order_by_number(out, why);
	if (rc < 0)
		series_free(out);
	return rc;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

char *series_name_from_subject(const char *subject)
{
	char *name = xcalloc(NAME_MAX_LEN + 1, 1);
	const char *p = subject;
	size_t n = 0;

	for (; *p && n < NAME_MAX_LEN; p++) {
		char c = (char)tolower((unsigned char)*p);
		if (is_name_char(c))
			name[n++] = c;
		else if (n && name[n - 1] != '-')
			name[n++] = '-';
	}
	/* Cut at a word's end, not inside one ("...-once-more-a" is "...-once-more"). */
	if (n == NAME_MAX_LEN && is_name_char((char)tolower((unsigned char)*p)) && strchr(name, '-'))
		while (name[n - 1] != '-')
			name[--n] = '\0';
	while (n && name[n - 1] == '-')
		name[--n] = '\0';
	if (!n) {
		free(name);
		return xstrdup("patch");
	}
	return name;
}

char *series_file_name(const struct series *s, size_t i)
{
	char *name = series_name_from_subject(s->patches[i].subject);
	char *file = xasprintf("%04zu-%s.patch", i + 1, name);
	free(name);
	return file;
}

void series_free(struct series *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->patches[i].origin);
		free(s->patches[i].subject);
		free(s->patches[i].text);
	}
	free(s->patches);
	*s = (struct series){ 0 };
}
