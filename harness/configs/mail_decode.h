/* A patch mail as its sender encoded it: a quoted-printable or base64 body (seed 000's own
 * mail is quoted-printable: "=3D", "=20"), or a MIME multipart with the patch in a part,
 * decoded to the text GNU patch reads, as `git am` would. The parsing and decoding are
 * GMime's (Debian's libgmime-3.0): MIME is easy to get almost right by hand. */
#ifndef HB_CONFIGS_MAIL_DECODE_H
#define HB_CONFIGS_MAIL_DECODE_H

#include <stdbool.h>
#include <stddef.h>

struct decoded_mail {
	/* The mail's headers as given (less MIME-Version, Content-Type and
	 * Content-Transfer-Encoding, which no longer hold), first a line
	 * "X-Hardbench-Decoded: <encoding>; sha256 <hex> of the mail as given" so that what is
	 * hashed from this text (the kernel's cache key) still covers the bytes given; then
	 * an empty line and the decoded body of the first part holding a unified diff, in
	 * UTF-8. */
	char *text;
	char *subject; /* the Subject: decoded (RFC 2047 words too), or NULL */
};

/* Does the mail [mail, end) need decoding: a quoted-printable or base64 body, or a
 * multipart whose raw text shows no diff (a base64 attachment)? encoding gets a name for
 * messages ("quoted-printable", "base64", "multipart"). */
bool mail_is_encoded(const char *mail, const char *end, const char **encoding);
/* Decodes [mail, end). 0; or -1 with *why (GMime could not parse it, or no part holds a
 * diff), naming where (the file, and the mail in it). */
int mail_decode(const char *where, const char *mail, const char *end, struct decoded_mail *out,
		char **why);
void decoded_mail_free(struct decoded_mail *d);

#endif
