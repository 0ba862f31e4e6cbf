/* SHA-256 (libcrypto EVP) of strings and files, as lowercase hex. */
#ifndef HB_COMMON_HASH_H
#define HB_COMMON_HASH_H

#include <stddef.h>

#define HB_SHA256_HEX 65 /* 64 hex digits and the NUL */

struct hb_sha256;

struct hb_sha256 *hb_sha256_new(void);
void hb_sha256_add(struct hb_sha256 *h, const void *data, size_t len);
void hb_sha256_add_str(struct hb_sha256 *h, const char *s);
/* Writes the digest into hex and frees h. */
void hb_sha256_finish(struct hb_sha256 *h, char hex[HB_SHA256_HEX]);

void hb_sha256_str(const char *s, char hex[HB_SHA256_HEX]);
/* 0, or -1 with errno set when the file cannot be read. */
int hb_sha256_file(const char *path, char hex[HB_SHA256_HEX]);

#endif
