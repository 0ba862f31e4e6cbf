/* Decoding an encoded patch mail with GMime (mail_decode.h). */
#include "configs/mail_decode.h"

#include <gmime/gmime.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/hash.h"
#include "common/xalloc.h"

static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl + 1 : end;
}

static bool starts(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(end - p) >= n && !strncasecmp(p, prefix, n);
}

/* The first header line named name in the header block [mail, end), or NULL. */
static const char *header_line(const char *mail, const char *end, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = mail; p < end && *p != '\n'; p = next_line(p, end))
		if ((size_t)(end - p) > n && !strncasecmp(p, name, n) && p[n] == ':')
			return p + n + 1;
	return NULL;
}

static bool text_has_diff(const char *text, const char *end)
{
	bool plus = false, hunk = false;

	for (const char *p = text; p < end; p = next_line(p, end)) {
		plus |= starts(p, end, "+++ ");
		hunk |= starts(p, end, "@@ -");
	}
	return plus && hunk;
}

/* The header's value up to the end of its line, lower case compared: does it hold word? */
static bool value_has(const char *v, const char *end, const char *word)
{
	const char *eol = v ? next_line(v, end) : NULL;
	size_t n = strlen(word);

	for (const char *p = v; p && p + n <= eol; p++)
		if (!strncasecmp(p, word, n))
			return true;
	return false;
}

bool mail_is_encoded(const char *mail, const char *end, const char **encoding)
{
	const char *cte = header_line(mail, end, "Content-Transfer-Encoding");
	const char *type = header_line(mail, end, "Content-Type");

	if (value_has(cte, end, "quoted-printable"))
		*encoding = "quoted-printable";
	else if (value_has(cte, end, "base64"))
		*encoding = "base64";
	else if (value_has(type, end, "multipart/") && !text_has_diff(mail, end))
		*encoding = "multipart";
	else
		return false;
	return true;
}

/* The part's content decoded: text parts converted to UTF-8 from their charset, any
 * other part (a patch attached as application/octet-stream) as its bytes. Caller frees. */
static char *part_text(GMimePart *part)
{
	GMimeDataWrapper *content;
	GMimeStream *mem;
	GByteArray *bytes;
	char *text;

	if (GMIME_IS_TEXT_PART(part)) {
		char *t = g_mime_text_part_get_text(GMIME_TEXT_PART(part));
		text = xstrdup(t ? t : "");
		g_free(t);
		return text;
	}
	content = g_mime_part_get_content(part);
	if (!content)
		return xstrdup("");
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(content, mem);
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	text = xstrndup((const char *)bytes->data, bytes->len);
	g_object_unref(mem);
	return text;
}

struct find_diff {
	char *body; /* the first part's text that holds a diff */
};

static void find_diff_part(GMimeObject *parent, GMimeObject *part, gpointer data)
{
	struct find_diff *f = data;
	char *text;

	(void)parent;
	if (f->body || !GMIME_IS_PART(part))
		return;
	text = part_text(GMIME_PART(part));
	if (text_has_diff(text, text + strlen(text)))
		f->body = text;
	else
		free(text);
}

/* The header block [mail, end of headers) without the MIME headers the decoded text no
 * longer matches (folded continuation lines go with their header). Caller frees. */
static char *plain_headers(const char *mail, const char *end)
{
	static const char *const drop[] = { "MIME-Version:", "Content-Type:", "Content-Transfer-Encoding:", NULL };
	size_t cap = (size_t)(end - mail) + 1, n = 0;
	char *out = xcalloc(cap, 1);
	bool dropping = false;

	for (const char *p = mail; p < end && *p != '\n'; ) {
		const char *e = next_line(p, end);
		if (*p != ' ' && *p != '\t') {
			dropping = false;
			for (size_t i = 0; drop[i]; i++)
				dropping |= starts(p, e, drop[i]);
		}
		if (!dropping) {
			memcpy(out + n, p, (size_t)(e - p));
			n += (size_t)(e - p);
		}
		p = e;
	}
	out[n] = '\0';
	return out;
}

int mail_decode(const char *where, const char *mail, const char *end, struct decoded_mail *out,
		char **why)
{
	const char *encoding = "MIME";
	struct find_diff f = { 0 };
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	struct hb_sha256 *h;
	char hex[HB_SHA256_HEX], *headers;

	*out = (struct decoded_mail){ 0 };
	mail_is_encoded(mail, end, &encoding);
	g_mime_init(); /* reference counted by GMime: once per process in effect */
	stream = g_mime_stream_mem_new_with_buffer(mail, (size_t)(end - mail));
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!msg) {
		*why = xasprintf("%s: GMime cannot parse the %s mail (accepted: a patch mail, plain or "
				 "quoted-printable or base64 encoded)", where, encoding);
		return -1;
	}
	g_mime_message_foreach(msg, find_diff_part, &f);
	if (!f.body) {
		*why = xasprintf("%s: the %s mail holds no unified diff once decoded (accepted: a patch "
				 "mail, plain or quoted-printable or base64 encoded)", where, encoding);
		g_object_unref(msg);
		return -1;
	}
	h = hb_sha256_new();
	hb_sha256_add(h, mail, (size_t)(end - mail));
	hb_sha256_finish(h, hex);
	headers = plain_headers(mail, end);
	out->text = xasprintf("X-Hardbench-Decoded: %s; sha256 %s of the mail as given\n%s\n%s", encoding,
			      hex, headers, f.body);
	if (g_mime_message_get_subject(msg))
		out->subject = xstrdup(g_mime_message_get_subject(msg));
	free(headers);
	free(f.body);
	g_object_unref(msg);
	return 0;
}

void decoded_mail_free(struct decoded_mail *d)
{
	free(d->text);
	free(d->subject);
	*d = (struct decoded_mail){ 0 };
}
