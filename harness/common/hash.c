#include "common/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

struct hb_sha256 {
	EVP_MD_CTX *ctx;
};

/* libcrypto's SHA-256 fails only when it cannot allocate its context: out of memory,
 * which ends the program like any other (common/xalloc.c). */
struct hb_sha256 *hb_sha256_new(void)
{
	struct hb_sha256 *h = OPENSSL_zalloc(sizeof(*h));

	if (!h || !(h->ctx = EVP_MD_CTX_new()) || !EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL))
		hb_fatal("libcrypto cannot start a SHA-256 digest");
	return h;
}

void hb_sha256_add(struct hb_sha256 *h, const void *data, size_t len)
{
	if (!EVP_DigestUpdate(h->ctx, data, len))
		hb_fatal("libcrypto SHA-256 update failed");
}

void hb_sha256_add_str(struct hb_sha256 *h, const char *s)
{
	hb_sha256_add(h, s, strlen(s));
}

void hb_sha256_finish(struct hb_sha256 *h, char hex[HB_SHA256_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	if (!EVP_DigestFinal_ex(h->ctx, md, &len))
		hb_fatal("libcrypto SHA-256 final failed");
	for (unsigned int i = 0; i < len && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	hex[64] = '\0';
	EVP_MD_CTX_free(h->ctx);
	OPENSSL_free(h);
}

void hb_sha256_str(const char *s, char hex[HB_SHA256_HEX])
{
	struct hb_sha256 *h = hb_sha256_new();
	hb_sha256_add_str(h, s);
	hb_sha256_finish(h, hex);
}

int hb_sha256_file(const char *path, char hex[HB_SHA256_HEX])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct hb_sha256 *h;
	char buf[1 << 16];
	ssize_t n;

	if (fd < 0)
		return -1;
	h = hb_sha256_new();
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			hb_sha256_finish(h, hex);
			close(fd);
			errno = e;
			return -1;
		}
		hb_sha256_add(h, buf, (size_t)n);
	}
	close(fd);
	hb_sha256_finish(h, hex);
	return 0;
}
