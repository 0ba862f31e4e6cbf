/* What the libFuzzer targets share (tests/fuzz/README.md): a scratch folder made once per
 * process, and the input written to a file in it for the readers that take a path. */
#ifndef HB_TESTS_FUZZ_FUZZ_H
#define HB_TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The process's scratch folder (made on first use, removed at exit). */
const char *fuzz_scratch(void);
/* <scratch>/<rel>, newly allocated; fuzz_dir also makes the folder. */
char *fuzz_path(const char *rel);
char *fuzz_dir(const char *rel);
/* Writes the input to <scratch>/<rel> (its folder made by fuzz_dir); returns the path,
 * newly allocated. */
char *fuzz_write(const char *rel, const uint8_t *data, size_t size);
/* The input as a NUL-terminated string (the caller frees), cut at its first NUL: what a
 * C reader of text would see. */
char *fuzz_text(const uint8_t *data, size_t size);

#endif
