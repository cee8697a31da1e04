/* The C tarball's smoke test (scripts/test/dist.sh): a program built only
 * from the unpacked tarball (its header, its library through pkg-config),
 * checking two known answers. Prints "c: ok" and exits 0 when both match. */
#include <chunkhash.h>
#include <stdio.h>
#include <string.h>

static int check(const char *what, const uint8_t *digest, size_t len, const char *expected) {
  char hex[129] = {0};
  for (size_t i = 0; i < len; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  if (strcmp(hex, expected) != 0) {
    fprintf(stderr, "smoke: %s: %s, expected %s\n", what, hex, expected);
    return 1;
  }
  return 0;
}

int main(void) {
  uint8_t out[32];
  int failed = 0;
  /* BLAKE3 of "abc" (the BLAKE3 reference implementation's output). */
  chunkhash_status status = chunkhash_blake3_hash((const uint8_t *)"abc", 3, out, 32);
  failed |= status != CHUNKHASH_OK || check("BLAKE3(abc)", out, 32, "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
  /* CRC-32C of "123456789": the check value of the CRC catalogue. */
  status = chunkhash_digest(CHUNKHASH_ALGORITHM_CRC32C, (const uint8_t *)"123456789", 9, out, 4);
  failed |= status != CHUNKHASH_OK || check("CRC32C(123456789)", out, 4, "e3069283");
  printf("c: %s (libchunkhash %s, %s)\n", failed ? "FAILED" : "ok", chunkhash_version(), chunkhash_backend_name());
  return failed;
}
