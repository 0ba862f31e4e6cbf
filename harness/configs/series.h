/* A patch series as a user hands it over: git format-patch files, a folder of them, an
 * mbox saved from a list archive (several mails in one file) or b4 am's .mbx. Mails
 * encoded by their sender (quoted-printable, base64, a patch in a MIME part) are decoded
 * (mail_decode.h). Each mail that carries a
 * diff becomes one patch; a cover letter ("[PATCH 0/N]", or any mail without a diff) is
 * skipped. Numbered mails ("[PATCH v2 3/5]") are put in their number's order, because an
 * archive's mbox is in arrival order. */
#ifndef HB_CONFIGS_SERIES_H
#define HB_CONFIGS_SERIES_H

#include <stddef.h>

struct series_patch {
	char *origin;   /* the user's file, with " (mail N)" when it held several mails */
	char *subject;  /* the Subject: without its "[PATCH ...]" tags */
	char *text;     /* the whole mail as given, as GNU patch reads it; an encoded one
			 * decoded, naming the SHA-256 of the bytes given (mail_decode.h) */
	int number;     /* N of "N/M", 0 when unnumbered */
};

struct series {
	struct series_patch *patches;
	size_t n;
};

/* Reads each path (a file, or a folder whose *.patch files are read in name order) into
 * one series. 0; or -1 with *why (one line naming the file and what is accepted): a
 * missing file, a file with no diff in it (once decoded), a numbered series with a
 * patch missing or twice. */
int series_load(char *const *paths, struct series *out, char **why);
/* Splits one file's text into s (appending); the same checks as series_load but for the
 * numbering, which series_load does over all files. */
int series_split_mbox(const char *origin, const char *text, struct series *s, char **why);
/* A build and variant name from a subject: lower case, runs of anything but a-z and 0-9
 * as one '-', at most 40 characters ("net: unix: Clear skbs!" -> "net-unix-clear-skbs");
 * "patch" when nothing is left. */
char *series_name_from_subject(const char *subject);
/* The file name a patch gets in a kernel-configs/patches/ folder: "0001-<name>.patch". */
char *series_file_name(const struct series *s, size_t i);
void series_free(struct series *s);

#endif
