/*
 * xxHash's own XXH3 with one instruction set forced, for the benchmarks
 * that compare chunkhash's kernels forced to AVX2 and AVX-512 with the
 * reference's: the Debian library dispatches at run time and cannot be
 * forced. Nothing of xxHash is copied here: the code is the header that
 * Debian's libxxhash-dev installs (/usr/include/xxhash.h, BSD-2-Clause),
 * compiled by build.rs once per instruction set with XXH_VECTOR and
 * PEER_PREFIX set on the command line.
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#define PEER_JOIN(a, b) a##b
#define PEER_NAME(a, b) PEER_JOIN(a, b)

uint64_t PEER_NAME(PEER_PREFIX, _xxh3_64)(const void *input, size_t len) {
    return XXH3_64bits(input, len);
}

XXH128_hash_t PEER_NAME(PEER_PREFIX, _xxh3_128)(const void *input, size_t len) {
    return XXH3_128bits(input, len);
}

/* Which code path the header chose, to check the forcing worked. */
int PEER_NAME(PEER_PREFIX, _vector)(void) {
    return XXH_VECTOR;
}
