/* Tests of libchunkhash through its C API: the known-answer vectors of
 * vectors/ (via the generated tests/vectors.h), streaming and batch calls,
 * and every status code. Built with -Wall -Wextra -Werror and run under
 * AddressSanitizer and UndefinedBehaviorSanitizer by `make -C bindings/c
 * test`, and once more against the shared library.
 *
 * Not reachable from C, and tested in Rust instead (cargo test -p
 * chunkhash-c): CHUNKHASH_PANIC (no input makes the library panic; the
 * guard that turns a panic into the code is unit-tested) and
 * CHUNKHASH_UNAVAILABLE_ALGORITHM (never returned by the default build;
 * `make test` runs those unit tests on a build without the families). */

#include "chunkhash.h"
#include "vectors.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks;
static int failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            failures++;                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_STATUS(call, expected)                                                            \
    do {                                                                                        \
        chunkhash_status got_ = (call);                                                         \
        checks++;                                                                               \
        if (got_ != (expected)) {                                                               \
            failures++;                                                                         \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %s\n", __FILE__, __LINE__,    \
                    #call, (int)got_, chunkhash_status_message(got_), #expected);               \
        }                                                                                       \
    } while (0)

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A byte no output contains by chance in these tests' checks of "nothing
 * written": buffers are filled with it first. */
#define POISON 0xa5

static size_t unhex(const char *hex, uint8_t *out, size_t cap) {
    size_t n = strlen(hex) / 2;
    if (n > cap) {
        fprintf(stderr, "hex string longer than %zu bytes\n", cap);
        exit(2);
    }
    for (size_t i = 0; i < n; i++) {
        unsigned byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) {
            fprintf(stderr, "bad hex: %s\n", hex);
            exit(2);
        }
        out[i] = (uint8_t)byte;
    }
    return n;
}

/* The input of the vectors: byte i is i % 251. */
static uint8_t *pattern(size_t len) {
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        perror("malloc");
        exit(2);
    }
    for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)(i % 251);
    return buf;
}

static int all_bytes(const uint8_t *buf, size_t len, uint8_t value) {
    for (size_t i = 0; i < len; i++)
        if (buf[i] != value) return 0;
    return 1;
}

static uint32_t id_of(const char *name) {
    uint32_t id = 0;
    CHECK_STATUS(chunkhash_algorithm_from_name(name, &id), CHUNKHASH_OK);
    return id;
}

static void test_version_and_backend(void) {
    const char *version = chunkhash_version();
    unsigned major, minor, patch;
    CHECK(version != NULL && sscanf(version, "%u.%u.%u", &major, &minor, &patch) == 3);
    const char *backend = chunkhash_backend_name();
    static const char *const known[] = {"portable", "sse41", "avx2", "avx2asm", "avx512", "avx512asm", "neon", "wasm32simd"};
    int found = 0;
    for (size_t i = 0; i < ARRAY_LEN(known); i++) found |= strcmp(backend, known[i]) == 0;
    CHECK(found);
    printf("libchunkhash %s, backend %s\n", version, backend);
}

static void test_status_messages(void) {
    const chunkhash_status all[] = {
        CHUNKHASH_OK,
        CHUNKHASH_NULL_POINTER,
        CHUNKHASH_INVALID_LENGTH,
        CHUNKHASH_UNKNOWN_ALGORITHM,
        CHUNKHASH_UNAVAILABLE_ALGORITHM,
        CHUNKHASH_INVALID_UTF8,
        CHUNKHASH_BUFFER_TOO_SMALL,
        CHUNKHASH_TRAILER_TRUNCATED,
        CHUNKHASH_TRAILER_TOO_LONG,
        CHUNKHASH_CHECKSUM_MISMATCH,
        CHUNKHASH_PANIC,
        CHUNKHASH_NOT_A_CRC,
        CHUNKHASH_INVALID_CRC,
        CHUNKHASH_UNALIGNED_OFFSET,
        CHUNKHASH_EMPTY_SUBTREE,
        CHUNKHASH_SUBTREE_TOO_LONG,
        CHUNKHASH_NOT_SIBLINGS,
        CHUNKHASH_ROOT_NOT_AT_START,
        CHUNKHASH_NO_CHILDREN,
        CHUNKHASH_INVALID_CHUNK_SIZES,
        CHUNKHASH_UNKNOWN_ADDRESS,
        CHUNKHASH_BAO_INVALID_GROUP_LOG,
        CHUNKHASH_BAO_UNKNOWN_ORDER,
        CHUNKHASH_BAO_OUTBOARD_LENGTH,
        CHUNKHASH_BAO_ENCODING_LENGTH,
        CHUNKHASH_BAO_MISMATCH,
        CHUNKHASH_BAO_TRUNCATED,
        CHUNKHASH_BAO_TRAILING_BYTES,
    };
    CHECK(CHUNKHASH_OK == 0);
    for (size_t i = 0; i < ARRAY_LEN(all); i++) {
        CHECK(all[i] == -(int)i); /* 0, -1, -2, ...: the codes are part of the ABI */
        const char *message = chunkhash_status_message(all[i]);
        CHECK(message != NULL && strcmp(message, "unknown status") != 0);
        for (size_t j = 0; j < i; j++) CHECK(strcmp(message, chunkhash_status_message(all[j])) != 0);
    }
    CHECK(strcmp(chunkhash_status_message(1), "unknown status") == 0);
    CHECK(strcmp(chunkhash_status_message(-28), "unknown status") == 0);
    CHECK(strcmp(chunkhash_status_message(INT32_MIN), "unknown status") == 0);
}

/* The official BLAKE3 vectors: one-shot, streaming with the input split in
 * several places, extended output from several positions, and batches. */
static void test_blake3_vectors(void) {
    const uint8_t *key = (const uint8_t *)BLAKE3_KEY;
    const size_t cases = ARRAY_LEN(BLAKE3_CASES);
    const uint8_t *inputs[ARRAY_LEN(BLAKE3_CASES)];
    size_t lens[ARRAY_LEN(BLAKE3_CASES)];
    uint8_t expected[3][ARRAY_LEN(BLAKE3_CASES)][131];
    for (size_t c = 0; c < cases; c++) {
        const struct blake3_case *tc = &BLAKE3_CASES[c];
        uint8_t *input = pattern(tc->input_len);
        inputs[c] = input;
        lens[c] = tc->input_len;
        CHECK(unhex(tc->hash, expected[0][c], 131) == 131);
        CHECK(unhex(tc->keyed_hash, expected[1][c], 131) == 131);
        CHECK(unhex(tc->derive_key, expected[2][c], 131) == 131);

        uint8_t out[131];
        CHECK_STATUS(chunkhash_blake3_hash(input, tc->input_len, out, 131), CHUNKHASH_OK);
        CHECK(memcmp(out, expected[0][c], 131) == 0);
        memset(out, POISON, sizeof out);
        CHECK_STATUS(chunkhash_blake3_hash(input, tc->input_len, out, 32), CHUNKHASH_OK);
        CHECK(memcmp(out, expected[0][c], 32) == 0 && all_bytes(out + 32, 99, POISON));
        CHECK_STATUS(chunkhash_blake3_hash(input, tc->input_len, out, CHUNKHASH_ADDRESS_LEN), CHUNKHASH_OK);
        CHECK(memcmp(out, expected[0][c], 20) == 0);
        CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 32, input, tc->input_len, out, 131), CHUNKHASH_OK);
        CHECK(memcmp(out, expected[1][c], 131) == 0);
        CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 32, input, tc->input_len, out, 32), CHUNKHASH_OK);
        CHECK(memcmp(out, expected[1][c], 32) == 0);
        CHECK_STATUS(chunkhash_blake3_derive_key(BLAKE3_CONTEXT, input, tc->input_len, out, 131), CHUNKHASH_OK);
        CHECK(memcmp(out, expected[2][c], 131) == 0);
        CHECK_STATUS(chunkhash_blake3_derive_key(BLAKE3_CONTEXT, input, tc->input_len, out, 32), CHUNKHASH_OK);
        CHECK(memcmp(out, expected[2][c], 32) == 0);

        /* Streaming, each mode, the input split at 0, 1, half and the end. */
        const size_t splits[] = {0, tc->input_len > 0 ? 1 : 0, tc->input_len / 2, tc->input_len};
        for (int mode = 0; mode < 3; mode++) {
            for (size_t s = 0; s < ARRAY_LEN(splits); s++) {
                chunkhash_blake3 *hasher = NULL;
                if (mode == 0) CHECK_STATUS(chunkhash_blake3_new(&hasher), CHUNKHASH_OK);
                if (mode == 1) CHECK_STATUS(chunkhash_blake3_new_keyed(key, 32, &hasher), CHUNKHASH_OK);
                if (mode == 2) CHECK_STATUS(chunkhash_blake3_new_derive_key(BLAKE3_CONTEXT, &hasher), CHUNKHASH_OK);
                CHECK(hasher != NULL);
                CHECK_STATUS(chunkhash_blake3_update(hasher, input, splits[s]), CHUNKHASH_OK);
                CHECK_STATUS(chunkhash_blake3_update(hasher, input + splits[s], tc->input_len - splits[s]),
                             CHUNKHASH_OK);
                uint8_t hash[32];
                CHECK_STATUS(chunkhash_blake3_finalize(hasher, hash, sizeof hash), CHUNKHASH_OK);
                CHECK(memcmp(hash, expected[mode][c], 32) == 0);
                CHECK_STATUS(chunkhash_blake3_finalize_xof(hasher, 0, out, 131), CHUNKHASH_OK);
                CHECK(memcmp(out, expected[mode][c], 131) == 0);
                /* From a position, across the 64-byte output blocks. */
                const uint64_t positions[] = {1, 31, 63, 64, 65, 100};
                for (size_t p = 0; p < ARRAY_LEN(positions); p++) {
                    size_t take = 131 - (size_t)positions[p];
                    memset(out, POISON, sizeof out);
                    CHECK_STATUS(chunkhash_blake3_finalize_xof(hasher, positions[p], out, take), CHUNKHASH_OK);
                    CHECK(memcmp(out, expected[mode][c] + positions[p], take) == 0);
                    CHECK(all_bytes(out + take, 131 - take, POISON));
                }
                /* Reset: as new, same mode. */
                CHECK_STATUS(chunkhash_blake3_reset(hasher), CHUNKHASH_OK);
                CHECK_STATUS(chunkhash_blake3_update(hasher, input, tc->input_len), CHUNKHASH_OK);
                CHECK_STATUS(chunkhash_blake3_finalize(hasher, hash, sizeof hash), CHUNKHASH_OK);
                CHECK(memcmp(hash, expected[mode][c], 32) == 0);
                chunkhash_blake3_free(hasher);
            }
        }
    }

    /* Every case in one batch call per mode. */
    uint8_t hashes[ARRAY_LEN(BLAKE3_CASES) * 32];
    uint8_t addresses[ARRAY_LEN(BLAKE3_CASES) * 20];
    CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, cases, hashes, sizeof hashes), CHUNKHASH_OK);
    for (size_t c = 0; c < cases; c++) CHECK(memcmp(hashes + 32 * c, expected[0][c], 32) == 0);
    CHECK_STATUS(chunkhash_blake3_keyed_hash_many(key, 32, inputs, lens, cases, hashes, sizeof hashes), CHUNKHASH_OK);
    for (size_t c = 0; c < cases; c++) CHECK(memcmp(hashes + 32 * c, expected[1][c], 32) == 0);
    CHECK_STATUS(chunkhash_blake3_derive_key_many(BLAKE3_CONTEXT, inputs, lens, cases, hashes, sizeof hashes),
                 CHUNKHASH_OK);
    for (size_t c = 0; c < cases; c++) CHECK(memcmp(hashes + 32 * c, expected[2][c], 32) == 0);
    CHECK_STATUS(chunkhash_blake3_address_many(inputs, lens, cases, addresses, sizeof addresses), CHUNKHASH_OK);
    for (size_t c = 0; c < cases; c++) CHECK(memcmp(addresses + 20 * c, expected[0][c], 20) == 0);

    for (size_t c = 0; c < cases; c++) free((void *)inputs[c]);
}

/* A batch too large for the binding's stack buffers (64 inputs), lengths
 * mixed (0 to 3 chunks), empty inputs given as NULL, in every mode: equal to
 * the one-shot calls. */
static void test_large_batch(void) {
    enum { N = 1000 };
    const uint8_t key[32] = {7};
    const char *context = "chunkhash 2026-11-22 C batch test";
    uint8_t *data = pattern(3 * 1024 + 1);
    const uint8_t **inputs = malloc(N * sizeof *inputs);
    size_t *lens = malloc(N * sizeof *lens);
    uint8_t *hashes = malloc(N * 32), *keyed = malloc(N * 32), *derived = malloc(N * 32);
    uint8_t *addresses = malloc(N * 20);
    if (!inputs || !lens || !hashes || !keyed || !derived || !addresses) exit(2);
    for (size_t i = 0; i < N; i++) {
        lens[i] = (i * 37) % (3 * 1024 + 1);
        inputs[i] = lens[i] == 0 ? NULL : data + (i % 2);
        if (lens[i] + (i % 2) > 3 * 1024 + 1) lens[i] -= 1;
    }
    CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, N, hashes, N * 32), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_keyed_hash_many(key, 32, inputs, lens, N, keyed, N * 32), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_derive_key_many(context, inputs, lens, N, derived, N * 32), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_address_many(inputs, lens, N, addresses, N * 20), CHUNKHASH_OK);
    for (size_t i = 0; i < N; i++) {
        uint8_t one[32];
        CHECK_STATUS(chunkhash_blake3_hash(inputs[i], lens[i], one, 32), CHUNKHASH_OK);
        CHECK(memcmp(hashes + 32 * i, one, 32) == 0);
        CHECK(memcmp(addresses + 20 * i, one, 20) == 0);
        CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 32, inputs[i], lens[i], one, 32), CHUNKHASH_OK);
        CHECK(memcmp(keyed + 32 * i, one, 32) == 0);
        CHECK_STATUS(chunkhash_blake3_derive_key(context, inputs[i], lens[i], one, 32), CHUNKHASH_OK);
        CHECK(memcmp(derived + 32 * i, one, 32) == 0);
    }
    free(data);
    free(inputs);
    free(lens);
    free(hashes);
    free(keyed);
    free(derived);
    free(addresses);
}

/* chunkhash_digest_many for every algorithm: a batch past the binding's
 * stack group (64), lengths mixed from 0 to 4160 (one long message among
 * short ones, empty ones as NULL), equal to chunkhash_digest of each; then
 * its errors, with nothing written. */
static void test_digest_many(void) {
    enum { N = 300, MAX_LEN = 4160 };
    uint8_t *data = pattern(MAX_LEN + 1);
    const uint8_t *inputs[N];
    size_t lens[N];
    for (size_t i = 0; i < N; i++) {
        lens[i] = i == 150 ? MAX_LEN : (i * 53) % 300;
        inputs[i] = lens[i] == 0 ? NULL : data + (i % 2);
    }
    uint8_t *out = malloc(N * CHUNKHASH_MAX_DIGEST_LEN);
    if (!out) exit(2);
    for (size_t a = 0; a < ARRAY_LEN(GOLDEN_ALGORITHMS); a++) {
        uint32_t id = GOLDEN_ALGORITHMS[a].id;
        size_t len = GOLDEN_ALGORITHMS[a].digest_len;
        memset(out, POISON, N * CHUNKHASH_MAX_DIGEST_LEN);
        CHECK_STATUS(chunkhash_digest_many(id, inputs, lens, N, out, N * len), CHUNKHASH_OK);
        CHECK(all_bytes(out + N * len, N * (CHUNKHASH_MAX_DIGEST_LEN - len), POISON));
        int all_equal = 1;
        for (size_t i = 0; i < N; i++) {
            uint8_t one[CHUNKHASH_MAX_DIGEST_LEN];
            CHECK_STATUS(chunkhash_digest(id, inputs[i], lens[i], one, sizeof one), CHUNKHASH_OK);
            if (memcmp(out + len * i, one, len) != 0) all_equal = 0;
        }
        if (!all_equal) fprintf(stderr, "digest_many differs from digest for %s\n", GOLDEN_ALGORITHMS[a].name);
        CHECK(all_equal);
    }

    uint32_t sha256 = CHUNKHASH_ALGORITHM_SHA256;
    memset(out, POISON, N * CHUNKHASH_MAX_DIGEST_LEN);
    CHECK_STATUS(chunkhash_digest_many(sha256, NULL, NULL, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_digest_many(sha256, NULL, lens, N, out, N * 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_digest_many(sha256, inputs, NULL, N, out, N * 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_digest_many(sha256, inputs, lens, N, NULL, N * 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_digest_many(sha256, inputs, lens, N, out, N * 32 - 1), CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK_STATUS(chunkhash_digest_many(0, inputs, lens, N, out, N * 32), CHUNKHASH_UNKNOWN_ALGORITHM);
    CHECK_STATUS(chunkhash_digest_many(257, inputs, lens, N, out, N * 32), CHUNKHASH_UNKNOWN_ALGORITHM);
    size_t bad_lens[2] = {3, 1};
    const uint8_t *bad_inputs[2] = {data, NULL};
    CHECK_STATUS(chunkhash_digest_many(sha256, bad_inputs, bad_lens, 2, out, 64), CHUNKHASH_NULL_POINTER);
    bad_lens[1] = (size_t)-1;
    bad_inputs[1] = data;
    CHECK_STATUS(chunkhash_digest_many(sha256, bad_inputs, bad_lens, 2, out, 64), CHUNKHASH_INVALID_LENGTH);
    CHECK(all_bytes(out, N * CHUNKHASH_MAX_DIGEST_LEN, POISON));
    free(out);
    free(data);
}

/* golden.json: the registry table, every algorithm's digests one-shot and
 * streaming, BLAKE3's keyed and derive-key rows, and every trailer. */
static void test_golden(void) {
    for (size_t i = 0; i < ARRAY_LEN(GOLDEN_ALGORITHMS); i++) {
        const struct golden_algorithm *a = &GOLDEN_ALGORITHMS[i];
        CHECK(id_of(a->name) == a->id);
        const char *name = NULL;
        CHECK_STATUS(chunkhash_algorithm_name(a->id, &name), CHUNKHASH_OK);
        CHECK(name != NULL && strcmp(name, a->name) == 0);
        const char *tag = NULL;
        CHECK_STATUS(chunkhash_algorithm_bsd_tag(a->id, &tag), CHUNKHASH_OK);
        CHECK(tag != NULL && id_of(tag) == a->id);
        size_t len = 0;
        CHECK_STATUS(chunkhash_algorithm_digest_len(a->id, &len), CHUNKHASH_OK);
        CHECK(len == a->digest_len && len <= CHUNKHASH_MAX_DIGEST_LEN);
        CHECK_STATUS(chunkhash_trailer_len(a->id, &len), CHUNKHASH_OK);
        CHECK(len == a->digest_len + 1 && len <= CHUNKHASH_MAX_TRAILER_LEN);
        bool available = false, cryptographic = true;
        CHECK_STATUS(chunkhash_algorithm_is_available(a->id, &available), CHUNKHASH_OK);
        CHECK(available);
        CHECK_STATUS(chunkhash_algorithm_is_cryptographic(a->id, &cryptographic), CHUNKHASH_OK);
        int checksum = strncmp(a->name, "XXH", 3) == 0 || strncmp(a->name, "CRC", 3) == 0;
        CHECK(cryptographic == !checksum);
    }
    /* The header's constants are the table's ids. */
    CHECK(id_of("BLAKE3") == CHUNKHASH_ALGORITHM_BLAKE3);
    CHECK(id_of("BLAKE3-160") == CHUNKHASH_ALGORITHM_BLAKE3_160);
    CHECK(id_of("XXH3-64") == CHUNKHASH_ALGORITHM_XXH3_64);
    CHECK(id_of("XXH3-128") == CHUNKHASH_ALGORITHM_XXH3_128);
    CHECK(id_of("XXH64") == CHUNKHASH_ALGORITHM_XXH64);
    CHECK(id_of("XXH32") == CHUNKHASH_ALGORITHM_XXH32);
    CHECK(id_of("CRC32C") == CHUNKHASH_ALGORITHM_CRC32C);
    CHECK(id_of("BLAKE2b-512") == CHUNKHASH_ALGORITHM_BLAKE2B_512);
    CHECK(id_of("BLAKE2b-256") == CHUNKHASH_ALGORITHM_BLAKE2B_256);
    CHECK(id_of("SHA-256") == CHUNKHASH_ALGORITHM_SHA256);
    CHECK(id_of("SHA-512") == CHUNKHASH_ALGORITHM_SHA512);
    CHECK(id_of("SHA-512/160") == CHUNKHASH_ALGORITHM_SHA512_160);
    CHECK(id_of("CRC-32") == CHUNKHASH_ALGORITHM_CRC32);
    CHECK(id_of("CRC-64/NVME") == CHUNKHASH_ALGORITHM_CRC64_NVME);
    CHECK(id_of("MD5") == CHUNKHASH_ALGORITHM_MD5);
    CHECK(id_of("SHA-1") == CHUNKHASH_ALGORITHM_SHA1);
    CHECK(ARRAY_LEN(GOLDEN_ALGORITHMS) == 16);
    /* Aliases, case and '_' for '-'. */
    CHECK(id_of("b3") == CHUNKHASH_ALGORITHM_BLAKE3);
    CHECK(id_of("xxh3") == CHUNKHASH_ALGORITHM_XXH3_64);
    CHECK(id_of("XXH3_128") == CHUNKHASH_ALGORITHM_XXH3_128);
    CHECK(id_of("crc32c") == CHUNKHASH_ALGORITHM_CRC32C);
    CHECK(id_of("crc32") == CHUNKHASH_ALGORITHM_CRC32);
    CHECK(id_of("crc64nvme") == CHUNKHASH_ALGORITHM_CRC64_NVME);
    CHECK(id_of("sha256") == CHUNKHASH_ALGORITHM_SHA256);
    CHECK(id_of("Sha512-160") == CHUNKHASH_ALGORITHM_SHA512_160);

    const uint8_t *key = (const uint8_t *)GOLDEN_KEY;
    for (size_t i = 0; i < ARRAY_LEN(GOLDEN_DIGESTS); i++) {
        const struct golden_digest *d = &GOLDEN_DIGESTS[i];
        uint8_t expected[CHUNKHASH_MAX_DIGEST_LEN];
        size_t len = unhex(d->hex, expected, sizeof expected);
        uint8_t *input = pattern(d->input_len);
        uint8_t out[CHUNKHASH_MAX_DIGEST_LEN + 1];
        memset(out, POISON, sizeof out);
        uint32_t id = id_of(d->algorithm);
        if (d->mode == MODE_HASH) {
            CHECK_STATUS(chunkhash_digest(id, input, d->input_len, out, sizeof out), CHUNKHASH_OK);
            CHECK(memcmp(out, expected, len) == 0 && all_bytes(out + len, sizeof out - len, POISON));
            /* Exactly the digest's length is enough. */
            CHECK_STATUS(chunkhash_digest(id, input, d->input_len, out, len), CHUNKHASH_OK);
            /* Streaming, split in three, finalized twice. */
            chunkhash_hasher *hasher = NULL;
            CHECK_STATUS(chunkhash_hasher_new(id, &hasher), CHUNKHASH_OK);
            size_t third = d->input_len / 3;
            CHECK_STATUS(chunkhash_hasher_update(hasher, input, third), CHUNKHASH_OK);
            CHECK_STATUS(chunkhash_hasher_update(hasher, input + third, third), CHUNKHASH_OK);
            CHECK_STATUS(chunkhash_hasher_update(hasher, input + 2 * third, d->input_len - 2 * third),
                         CHUNKHASH_OK);
            memset(out, POISON, sizeof out);
            CHECK_STATUS(chunkhash_hasher_finalize(hasher, out, sizeof out), CHUNKHASH_OK);
            CHECK(memcmp(out, expected, len) == 0 && all_bytes(out + len, sizeof out - len, POISON));
            CHECK_STATUS(chunkhash_hasher_finalize(hasher, out, len), CHUNKHASH_OK);
            CHECK(memcmp(out, expected, len) == 0);
            CHECK_STATUS(chunkhash_hasher_reset(hasher), CHUNKHASH_OK);
            CHECK_STATUS(chunkhash_hasher_update(hasher, input, d->input_len), CHUNKHASH_OK);
            CHECK_STATUS(chunkhash_hasher_finalize(hasher, out, len), CHUNKHASH_OK);
            CHECK(memcmp(out, expected, len) == 0);
            chunkhash_hasher_free(hasher);
            /* The plain BLAKE3 rows again through the BLAKE3 calls. */
            if (id == CHUNKHASH_ALGORITHM_BLAKE3 || id == CHUNKHASH_ALGORITHM_BLAKE3_160) {
                CHECK_STATUS(chunkhash_blake3_hash(input, d->input_len, out, len), CHUNKHASH_OK);
                CHECK(memcmp(out, expected, len) == 0);
            }
        } else if (d->mode == MODE_KEYED_HASH) {
            CHECK(id == CHUNKHASH_ALGORITHM_BLAKE3);
            CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 32, input, d->input_len, out, len), CHUNKHASH_OK);
            CHECK(memcmp(out, expected, len) == 0);
        } else {
            CHECK(id == CHUNKHASH_ALGORITHM_BLAKE3);
            CHECK_STATUS(chunkhash_blake3_derive_key(GOLDEN_CONTEXT, input, d->input_len, out, len), CHUNKHASH_OK);
            CHECK(memcmp(out, expected, len) == 0);
        }
        free(input);
    }

    for (size_t i = 0; i < ARRAY_LEN(GOLDEN_TRAILERS); i++) {
        const struct golden_trailer *t = &GOLDEN_TRAILERS[i];
        uint8_t expected[CHUNKHASH_MAX_TRAILER_LEN];
        size_t len = unhex(t->hex, expected, sizeof expected);
        uint8_t *block = pattern(t->input_len);
        uint32_t id = id_of(t->algorithm);
        uint8_t sealed[CHUNKHASH_MAX_TRAILER_LEN + 1];
        memset(sealed, POISON, sizeof sealed);
        CHECK_STATUS(chunkhash_trailer_seal(block, t->input_len, id, t->context, sealed, sizeof sealed), CHUNKHASH_OK);
        CHECK(memcmp(sealed, expected, len) == 0 && all_bytes(sealed + len, sizeof sealed - len, POISON));

        uint32_t found = 0;
        CHECK_STATUS(chunkhash_trailer_verify(block, t->input_len, expected, len, t->context, &found), CHUNKHASH_OK);
        CHECK(found == id);
        /* Another context, a flipped bit in the checksum or in the block. */
        found = 0;
        CHECK_STATUS(chunkhash_trailer_verify(block, t->input_len, expected, len, t->context + 1, &found),
                     CHUNKHASH_CHECKSUM_MISMATCH);
        CHECK(found == 0);
        expected[len - 1] ^= 1;
        CHECK_STATUS(chunkhash_trailer_verify(block, t->input_len, expected, len, t->context, &found),
                     CHUNKHASH_CHECKSUM_MISMATCH);
        expected[len - 1] ^= 1;
        if (t->input_len > 0) {
            block[t->input_len / 2] ^= 0x80;
            CHECK_STATUS(chunkhash_trailer_verify(block, t->input_len, expected, len, t->context, &found),
                         CHUNKHASH_CHECKSUM_MISMATCH);
            block[t->input_len / 2] ^= 0x80;
        }
        /* Cut short, and one byte too many. */
        CHECK_STATUS(chunkhash_trailer_verify(block, t->input_len, expected, len - 1, t->context, &found),
                     CHUNKHASH_TRAILER_TRUNCATED);
        CHECK_STATUS(chunkhash_trailer_verify(block, t->input_len, expected, 1, t->context, &found),
                     CHUNKHASH_TRAILER_TRUNCATED);
        CHECK_STATUS(chunkhash_trailer_verify(block, t->input_len, sealed, len + 1, t->context, &found),
                     CHUNKHASH_TRAILER_TOO_LONG);
        CHECK(found == 0);
        free(block);
    }
}

/* NULL pointers, with and without a zero length. */
static void test_null_pointers(void) {
    uint8_t out[CHUNKHASH_MAX_TRAILER_LEN];
    uint8_t empty_hash[32], empty_crc[4];
    CHECK(unhex("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262", empty_hash, 32) == 32);
    CHECK(unhex("00000000", empty_crc, 4) == 4);
    const uint8_t *key = (const uint8_t *)GOLDEN_KEY;
    const uint8_t data[3] = {1, 2, 3};

    /* NULL with length 0 is an empty buffer. */
    CHECK_STATUS(chunkhash_digest(CHUNKHASH_ALGORITHM_BLAKE3, NULL, 0, out, 32), CHUNKHASH_OK);
    CHECK(memcmp(out, empty_hash, 32) == 0);
    CHECK_STATUS(chunkhash_digest(CHUNKHASH_ALGORITHM_CRC32C, NULL, 0, out, 4), CHUNKHASH_OK);
    CHECK(memcmp(out, empty_crc, 4) == 0);
    CHECK_STATUS(chunkhash_blake3_hash(NULL, 0, out, 32), CHUNKHASH_OK);
    CHECK(memcmp(out, empty_hash, 32) == 0);
    CHECK_STATUS(chunkhash_blake3_hash(data, 3, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 32, NULL, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_derive_key("ctx", NULL, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_hash_many(NULL, NULL, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_address_many(NULL, NULL, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_keyed_hash_many(key, 32, NULL, NULL, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_derive_key_many("ctx", NULL, NULL, 0, NULL, 0), CHUNKHASH_OK);
    {
        const uint8_t *inputs[2] = {NULL, data};
        const size_t lens[2] = {0, 3};
        uint8_t two[64];
        CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, 2, two, sizeof two), CHUNKHASH_OK);
        CHECK(memcmp(two, empty_hash, 32) == 0);
    }
    chunkhash_blake3 *b3 = NULL;
    CHECK_STATUS(chunkhash_blake3_new(&b3), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_update(b3, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_finalize_xof(b3, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_finalize(b3, out, 32), CHUNKHASH_OK);
    CHECK(memcmp(out, empty_hash, 32) == 0);
    chunkhash_hasher *hasher = NULL;
    CHECK_STATUS(chunkhash_hasher_new(CHUNKHASH_ALGORITHM_BLAKE3, &hasher), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_hasher_update(hasher, NULL, 0), CHUNKHASH_OK);
    size_t trailer_len = 0;
    CHECK_STATUS(chunkhash_trailer_len(CHUNKHASH_ALGORITHM_CRC32C, &trailer_len), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_trailer_seal(NULL, 0, CHUNKHASH_ALGORITHM_CRC32C, 7, out, trailer_len), CHUNKHASH_OK);
    uint32_t id = 0;
    CHECK_STATUS(chunkhash_trailer_verify(NULL, 0, out, trailer_len, 7, &id), CHUNKHASH_OK);
    CHECK(id == CHUNKHASH_ALGORITHM_CRC32C);
    CHECK_STATUS(chunkhash_trailer_verify(NULL, 0, NULL, 0, 7, &id), CHUNKHASH_TRAILER_TRUNCATED);

    /* NULL with a non-zero length, or where an object is needed; nothing is
     * written. */
    memset(out, POISON, sizeof out);
    CHECK_STATUS(chunkhash_digest(CHUNKHASH_ALGORITHM_BLAKE3, NULL, 1, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_digest(CHUNKHASH_ALGORITHM_BLAKE3, data, 3, NULL, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_hash(NULL, 1, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_hash(data, 3, NULL, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(NULL, 32, data, 3, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(NULL, 0, data, 3, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 32, NULL, 3, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_derive_key(NULL, data, 3, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_derive_key("ctx", NULL, 3, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_derive_key("ctx", data, 3, NULL, 32), CHUNKHASH_NULL_POINTER);
    CHECK(all_bytes(out, sizeof out, POISON));

    CHECK_STATUS(chunkhash_blake3_new(NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_new_keyed(NULL, 32, &b3), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_new_keyed(key, 32, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_new_derive_key(NULL, &b3), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_new_derive_key("ctx", NULL), CHUNKHASH_NULL_POINTER);
    CHECK(b3 != NULL); /* the failed calls above left it alone */
    CHECK_STATUS(chunkhash_blake3_update(NULL, data, 3), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_update(b3, NULL, 3), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_finalize(NULL, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_finalize(b3, NULL, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_finalize_xof(NULL, 0, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_finalize_xof(b3, 0, NULL, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_reset(NULL), CHUNKHASH_NULL_POINTER);
    CHECK(all_bytes(out, sizeof out, POISON));
    /* The failed update changed nothing: still the empty input's hash. */
    CHECK_STATUS(chunkhash_blake3_finalize(b3, out, 32), CHUNKHASH_OK);
    CHECK(memcmp(out, empty_hash, 32) == 0);
    chunkhash_blake3_free(b3);

    chunkhash_hasher *untouched = (chunkhash_hasher *)&id; /* a sentinel, never used as a hasher */
    chunkhash_hasher *before = untouched;
    CHECK_STATUS(chunkhash_hasher_new(CHUNKHASH_ALGORITHM_BLAKE3, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_hasher_new(0, &untouched), CHUNKHASH_UNKNOWN_ALGORITHM);
    CHECK(untouched == before);
    CHECK_STATUS(chunkhash_hasher_update(NULL, data, 3), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_hasher_update(hasher, NULL, 3), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_hasher_finalize(NULL, out, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_hasher_finalize(hasher, NULL, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_hasher_reset(NULL), CHUNKHASH_NULL_POINTER);
    chunkhash_hasher_free(hasher);

    const char *name = NULL;
    size_t len = 0;
    bool flag = false;
    id = 0;
    CHECK_STATUS(chunkhash_algorithm_from_name(NULL, &id), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_algorithm_from_name("blake3", NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_algorithm_name(1, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_algorithm_bsd_tag(1, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_algorithm_digest_len(1, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_algorithm_is_cryptographic(1, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_algorithm_is_available(1, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_trailer_len(1, NULL), CHUNKHASH_NULL_POINTER);
    CHECK(id == 0 && name == NULL && len == 0 && !flag);

    memset(out, POISON, sizeof out);
    CHECK_STATUS(chunkhash_trailer_seal(NULL, 1, CHUNKHASH_ALGORITHM_CRC32C, 0, out, sizeof out),
                 CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_trailer_seal(data, 3, CHUNKHASH_ALGORITHM_CRC32C, 0, NULL, 5), CHUNKHASH_NULL_POINTER);
    CHECK(all_bytes(out, sizeof out, POISON));
    CHECK_STATUS(chunkhash_trailer_verify(NULL, 1, out, 5, 0, &id), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_trailer_verify(data, 3, NULL, 5, 0, &id), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_trailer_verify(data, 3, out, 5, 0, NULL), CHUNKHASH_NULL_POINTER);

    /* Batches: NULL arrays with n > 0, a NULL input with a length. */
    {
        const uint8_t *inputs[2] = {data, NULL};
        size_t lens[2] = {3, 1};
        uint8_t two[64];
        memset(two, POISON, sizeof two);
        CHECK_STATUS(chunkhash_blake3_hash_many(NULL, lens, 2, two, sizeof two), CHUNKHASH_NULL_POINTER);
        CHECK_STATUS(chunkhash_blake3_hash_many(inputs, NULL, 2, two, sizeof two), CHUNKHASH_NULL_POINTER);
        CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, 2, two, sizeof two), CHUNKHASH_NULL_POINTER);
        CHECK_STATUS(chunkhash_blake3_address_many(inputs, lens, 2, two, sizeof two), CHUNKHASH_NULL_POINTER);
        CHECK_STATUS(chunkhash_blake3_keyed_hash_many(key, 32, inputs, lens, 2, two, sizeof two),
                     CHUNKHASH_NULL_POINTER);
        CHECK_STATUS(chunkhash_blake3_derive_key_many("ctx", inputs, lens, 2, two, sizeof two),
                     CHUNKHASH_NULL_POINTER);
        CHECK(all_bytes(two, sizeof two, POISON)); /* not even the first hash */
        lens[1] = 0;
        CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, 2, NULL, sizeof two), CHUNKHASH_NULL_POINTER);
        CHECK_STATUS(chunkhash_blake3_keyed_hash_many(NULL, 32, inputs, lens, 2, two, sizeof two),
                     CHUNKHASH_NULL_POINTER);
        CHECK_STATUS(chunkhash_blake3_derive_key_many(NULL, inputs, lens, 2, two, sizeof two),
                     CHUNKHASH_NULL_POINTER);
        CHECK(all_bytes(two, sizeof two, POISON));
    }

    /* _free(NULL) does nothing. */
    chunkhash_blake3_free(NULL);
    chunkhash_hasher_free(NULL);
}

static void test_invalid_lengths(void) {
    uint8_t out[64];
    memset(out, POISON, sizeof out);
    const uint8_t data[3] = {1, 2, 3};
    const uint8_t key[32] = {0};
    const size_t huge = SIZE_MAX; /* as (size_t)-1 from a length computed wrongly */
    CHECK_STATUS(chunkhash_digest(CHUNKHASH_ALGORITHM_CRC32C, data, huge, out, sizeof out), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_digest(CHUNKHASH_ALGORITHM_CRC32C, data, 3, out, huge), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_hash(data, (size_t)PTRDIFF_MAX + 1, out, 32), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 16, data, 3, out, 32), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 33, data, 3, out, 32), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 0, data, 3, out, 32), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_derive_key("ctx", data, huge, out, 32), CHUNKHASH_INVALID_LENGTH);
    chunkhash_blake3 *b3 = NULL;
    CHECK_STATUS(chunkhash_blake3_new_keyed(key, 31, &b3), CHUNKHASH_INVALID_LENGTH);
    CHECK(b3 == NULL);
    CHECK_STATUS(chunkhash_blake3_new(&b3), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_update(b3, data, huge), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_finalize_xof(b3, 0, out, huge), CHUNKHASH_INVALID_LENGTH);
    chunkhash_blake3_free(b3);
    chunkhash_hasher *hasher = NULL;
    CHECK_STATUS(chunkhash_hasher_new(CHUNKHASH_ALGORITHM_XXH64, &hasher), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_hasher_update(hasher, data, huge), CHUNKHASH_INVALID_LENGTH);
    chunkhash_hasher_free(hasher);
    uint32_t id = 0;
    CHECK_STATUS(chunkhash_trailer_seal(data, huge, CHUNKHASH_ALGORITHM_CRC32C, 0, out, 5), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_trailer_verify(data, 3, out, huge, 0, &id), CHUNKHASH_INVALID_LENGTH);
    {
        const uint8_t *inputs[2] = {data, data};
        const size_t lens[2] = {3, huge};
        CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, 2, out, sizeof out), CHUNKHASH_INVALID_LENGTH);
        /* An n no array can have: refused before the arrays are read. */
        CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, huge, out, sizeof out), CHUNKHASH_INVALID_LENGTH);
        CHECK_STATUS(chunkhash_blake3_keyed_hash_many(key, 8, inputs, lens, 1, out, sizeof out),
                     CHUNKHASH_INVALID_LENGTH);
    }
    CHECK(all_bytes(out, sizeof out, POISON));
}

static void test_unknown_algorithms(void) {
    const uint32_t unknown[] = {0, 17, 200, 255, 256, 257, UINT32_MAX};
    uint8_t out[CHUNKHASH_MAX_TRAILER_LEN];
    memset(out, POISON, sizeof out);
    for (size_t i = 0; i < ARRAY_LEN(unknown); i++) {
        uint32_t id = unknown[i];
        const char *name = NULL;
        size_t len = 0;
        bool flag = false;
        chunkhash_hasher *hasher = NULL;
        CHECK_STATUS(chunkhash_digest(id, (const uint8_t *)"abc", 3, out, sizeof out), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_algorithm_name(id, &name), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_algorithm_bsd_tag(id, &name), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_algorithm_digest_len(id, &len), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_algorithm_is_cryptographic(id, &flag), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_algorithm_is_available(id, &flag), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_hasher_new(id, &hasher), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_trailer_len(id, &len), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK_STATUS(chunkhash_trailer_seal((const uint8_t *)"abc", 3, id, 0, out, sizeof out),
                     CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK(name == NULL && len == 0 && !flag && hasher == NULL);
    }
    CHECK(all_bytes(out, sizeof out, POISON));
    /* A trailer whose byte 0 names no algorithm: a zeroed sector, erased
     * flash (0xff), an id not assigned. */
    const uint8_t ids[] = {0x00, 0xff, 17};
    for (size_t i = 0; i < ARRAY_LEN(ids); i++) {
        uint8_t trailer[5] = {ids[i], 0, 0, 0, 0};
        uint32_t found = 0;
        CHECK_STATUS(chunkhash_trailer_verify((const uint8_t *)"abc", 3, trailer, sizeof trailer, 0, &found),
                     CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK(found == 0);
    }
    /* Names that are no algorithm's. */
    const char *names[] = {"", "nope", " blake3", "blake3 ", "BLAKE", "sha-3", "md4", "blake3\n"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        uint32_t id = 0;
        CHECK_STATUS(chunkhash_algorithm_from_name(names[i], &id), CHUNKHASH_UNKNOWN_ALGORITHM);
        CHECK(id == 0);
    }
}

static void test_invalid_utf8(void) {
    const char *bad[] = {"\xff", "blake\xc3", "\xc3\x28", "\xed\xa0\x80" /* a UTF-16 surrogate */};
    uint8_t out[64];
    memset(out, POISON, sizeof out);
    const uint8_t *inputs[1] = {(const uint8_t *)"abc"};
    const size_t lens[1] = {3};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        uint32_t id = 0;
        chunkhash_blake3 *b3 = NULL;
        CHECK_STATUS(chunkhash_algorithm_from_name(bad[i], &id), CHUNKHASH_INVALID_UTF8);
        CHECK_STATUS(chunkhash_blake3_derive_key(bad[i], (const uint8_t *)"abc", 3, out, 32), CHUNKHASH_INVALID_UTF8);
        CHECK_STATUS(chunkhash_blake3_new_derive_key(bad[i], &b3), CHUNKHASH_INVALID_UTF8);
        CHECK_STATUS(chunkhash_blake3_derive_key_many(bad[i], inputs, lens, 1, out, sizeof out),
                     CHUNKHASH_INVALID_UTF8);
        CHECK(id == 0 && b3 == NULL);
    }
    CHECK(all_bytes(out, sizeof out, POISON));
    /* Valid UTF-8 beyond ASCII is a fine context. */
    CHECK_STATUS(chunkhash_blake3_derive_key("caf\xc3\xa9 2026 \xe2\x9c\x93", NULL, 0, out, 32), CHUNKHASH_OK);
}

static void test_buffer_too_small(void) {
    const uint8_t data[3] = {1, 2, 3};
    uint8_t out[CHUNKHASH_MAX_TRAILER_LEN];
    for (size_t i = 0; i < ARRAY_LEN(GOLDEN_ALGORITHMS); i++) {
        uint32_t id = GOLDEN_ALGORITHMS[i].id;
        size_t len = GOLDEN_ALGORITHMS[i].digest_len;
        memset(out, POISON, sizeof out);
        CHECK_STATUS(chunkhash_digest(id, data, 3, out, len - 1), CHUNKHASH_BUFFER_TOO_SMALL);
        CHECK_STATUS(chunkhash_digest(id, data, 3, NULL, 0), CHUNKHASH_BUFFER_TOO_SMALL);
        chunkhash_hasher *hasher = NULL;
        CHECK_STATUS(chunkhash_hasher_new(id, &hasher), CHUNKHASH_OK);
        CHECK_STATUS(chunkhash_hasher_finalize(hasher, out, len - 1), CHUNKHASH_BUFFER_TOO_SMALL);
        chunkhash_hasher_free(hasher);
        CHECK_STATUS(chunkhash_trailer_seal(data, 3, id, 0, out, len), CHUNKHASH_BUFFER_TOO_SMALL);
        CHECK(all_bytes(out, sizeof out, POISON));
    }
    chunkhash_blake3 *b3 = NULL;
    CHECK_STATUS(chunkhash_blake3_new(&b3), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_finalize(b3, out, 31), CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK_STATUS(chunkhash_blake3_finalize(b3, NULL, 0), CHUNKHASH_BUFFER_TOO_SMALL);
    chunkhash_blake3_free(b3);
    const uint8_t *inputs[2] = {data, data};
    const size_t lens[2] = {3, 2};
    const uint8_t key[32] = {0};
    CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, 2, out, 63), CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK_STATUS(chunkhash_blake3_hash_many(inputs, lens, 2, NULL, 0), CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK_STATUS(chunkhash_blake3_keyed_hash_many(key, 32, inputs, lens, 2, out, 63), CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK_STATUS(chunkhash_blake3_derive_key_many("ctx", inputs, lens, 2, out, 32), CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK_STATUS(chunkhash_blake3_address_many(inputs, lens, 2, out, 39), CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK(all_bytes(out, sizeof out, POISON));
    CHECK_STATUS(chunkhash_blake3_address_many(inputs, lens, 2, out, 40), CHUNKHASH_OK);
    CHECK(all_bytes(out + 40, sizeof out - 40, POISON));
}

/* One-shot outputs may overlap their input: the digest is computed before
 * anything is written. */
static void test_in_place(void) {
    uint8_t buf[200], expected[131];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i % 251);
    CHECK(unhex(BLAKE3_CASES[13].hash, expected, sizeof expected) == 131); /* input_len 128 */
    CHECK(BLAKE3_CASES[13].input_len == 128);
    CHECK_STATUS(chunkhash_blake3_hash(buf, 128, buf, 131), CHUNKHASH_OK);
    CHECK(memcmp(buf, expected, 131) == 0);
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i % 251);
    CHECK_STATUS(chunkhash_digest(CHUNKHASH_ALGORITHM_BLAKE3, buf, 128, buf, 32), CHUNKHASH_OK);
    CHECK(memcmp(buf, expected, 32) == 0);
}

/* The CRC of a buffer as an integer, through chunkhash_digest (big-endian). */
static uint64_t crc_of(uint32_t id, const uint8_t *data, size_t len) {
    uint8_t out[8];
    size_t digest_len = 0;
    CHECK_STATUS(chunkhash_algorithm_digest_len(id, &digest_len), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_digest(id, data, len, out, sizeof out), CHUNKHASH_OK);
    uint64_t value = 0;
    for (size_t i = 0; i < digest_len; i++) {
        value = value << 8 | out[i];
    }
    return value;
}

/* crc(A||B) from crc(A), crc(B) and |B|, over splits of a 20000-byte
 * buffer from a fixed xorshift sequence, and the errors. */
static void test_crc_combine(void) {
    const uint32_t crcs[] = {CHUNKHASH_ALGORITHM_CRC32C, CHUNKHASH_ALGORITHM_CRC32, CHUNKHASH_ALGORITHM_CRC64_NVME};
    const size_t len = 20000;
    uint8_t *data = pattern(len);
    uint64_t state = 0x9E3779B97F4A7C15u;
    for (int round = 0; round < 30; round++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        size_t whole = round < 5 ? (size_t)round : (size_t)(state % (len + 1));
        size_t split = whole == 0 ? 0 : (size_t)((state >> 32) % (whole + 1));
        for (size_t i = 0; i < ARRAY_LEN(crcs); i++) {
            uint64_t combined = 0;
            CHECK_STATUS(chunkhash_crc_combine(crcs[i], crc_of(crcs[i], data, split),
                                               crc_of(crcs[i], data + split, whole - split), whole - split, &combined),
                         CHUNKHASH_OK);
            CHECK(combined == crc_of(crcs[i], data, whole));
        }
    }
    free(data);
    /* The published check value from two parts: "1234" and "56789". */
    uint64_t out = 0;
    CHECK_STATUS(chunkhash_crc_combine(CHUNKHASH_ALGORITHM_CRC32C, 0xF63AF4EE, 0x83B565D8, 5, &out), CHUNKHASH_OK);
    CHECK(out == 0xE3069283);
    /* A wrong length still gives a value: no function can tell. */
    CHECK_STATUS(chunkhash_crc_combine(CHUNKHASH_ALGORITHM_CRC32C, 0xF63AF4EE, 0x83B565D8, 4, &out), CHUNKHASH_OK);
    CHECK(out != 0xE3069283);
    /* Errors write nothing. */
    out = 42;
    CHECK_STATUS(chunkhash_crc_combine(CHUNKHASH_ALGORITHM_SHA256, 0, 0, 0, &out), CHUNKHASH_NOT_A_CRC);
    CHECK_STATUS(chunkhash_crc_combine(CHUNKHASH_ALGORITHM_CRC32, 1ull << 32, 0, 0, &out), CHUNKHASH_INVALID_CRC);
    CHECK_STATUS(chunkhash_crc_combine(0, 0, 0, 0, &out), CHUNKHASH_UNKNOWN_ALGORITHM);
    CHECK_STATUS(chunkhash_crc_combine(17, 0, 0, 0, &out), CHUNKHASH_UNKNOWN_ALGORITHM);
    CHECK(out == 42);
    CHECK_STATUS(chunkhash_crc_combine(CHUNKHASH_ALGORITHM_CRC32C, 0, 0, 0, NULL), CHUNKHASH_NULL_POINTER);
}

/* The subtree of `data` (bytes `offset..offset+len` of a message): hashed
 * whole when at most `leaf` bytes, else split where the tree splits and
 * merged; each merged parent is checked against the range hashed whole. */
static chunkhash_blake3_subtree subtree_of(const chunkhash_blake3_subtree_mode *mode, const uint8_t *data,
                                           uint64_t offset, uint64_t len, uint64_t leaf) {
    chunkhash_blake3_subtree out, whole;
    memset(&out, 0, sizeof out);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data, (size_t)len, offset, &whole), CHUNKHASH_OK);
    if (len <= leaf || len <= 1024) return whole;
    uint64_t left_len = 0;
    CHECK_STATUS(chunkhash_blake3_subtree_left_len(len, &left_len), CHUNKHASH_OK);
    chunkhash_blake3_subtree left = subtree_of(mode, data, offset, left_len, leaf);
    chunkhash_blake3_subtree right = subtree_of(mode, data + left_len, offset + left_len, len - left_len, leaf);
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &left, &right, &out), CHUNKHASH_OK);
    CHECK(memcmp(out.cv, whole.cv, 32) == 0 && out.offset == offset && out.len == len);
    return out;
}

/* Messages hashed as trees of subtrees, in every mode, against the one-shot
 * calls (hash and extended output); then every misuse and its code. */
static void test_subtrees(void) {
    const uint8_t key[32] = "chunkhash C subtree test key 32";
    const char *context = "chunkhash 2026-11-22 C subtree tests";
    chunkhash_blake3_subtree_mode *modes[3] = {NULL, NULL, NULL};
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new(&modes[0]), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new_keyed(key, sizeof key, &modes[1]), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new_derive_key(context, &modes[2]), CHUNKHASH_OK);
    const size_t lens[] = {1025, 2048, 2049, 3000, 5 * 1024, 16 * 1024 + 1, 100000, (1u << 20) + 7};
    const uint64_t leaves[] = {1024, 4096, 65536};
    uint8_t *data = pattern((1u << 20) + 7);
    for (size_t m = 0; m < 3; m++) {
        for (size_t i = 0; i < ARRAY_LEN(lens); i++) {
            const size_t len = lens[i];
            uint8_t expected[131], got[131];
            if (m == 0) CHECK_STATUS(chunkhash_blake3_hash(data, len, expected, sizeof expected), CHUNKHASH_OK);
            if (m == 1)
                CHECK_STATUS(chunkhash_blake3_keyed_hash(key, sizeof key, data, len, expected, sizeof expected),
                             CHUNKHASH_OK);
            if (m == 2)
                CHECK_STATUS(chunkhash_blake3_derive_key(context, data, len, expected, sizeof expected), CHUNKHASH_OK);
            for (size_t l = 0; l < ARRAY_LEN(leaves); l++) {
                uint64_t left_len = 0;
                CHECK_STATUS(chunkhash_blake3_subtree_left_len(len, &left_len), CHUNKHASH_OK);
                chunkhash_blake3_subtree left = subtree_of(modes[m], data, 0, left_len, leaves[l]);
                chunkhash_blake3_subtree right = subtree_of(modes[m], data + left_len, left_len, len - left_len, leaves[l]);
                memset(got, POISON, sizeof got);
                CHECK_STATUS(chunkhash_blake3_subtree_merge_root(modes[m], &left, &right, 0, got, sizeof got),
                             CHUNKHASH_OK);
                CHECK(memcmp(got, expected, sizeof got) == 0);
                CHECK_STATUS(chunkhash_blake3_subtree_merge_root(modes[m], &left, &right, 100, got, 31), CHUNKHASH_OK);
                CHECK(memcmp(got, expected + 100, 31) == 0);
            }
        }
    }

    /* The helpers. */
    uint64_t value = 42;
    CHECK_STATUS(chunkhash_blake3_subtree_left_len(1025, &value), CHUNKHASH_OK);
    CHECK(value == 1024);
    CHECK_STATUS(chunkhash_blake3_subtree_left_len(4096, &value), CHUNKHASH_OK);
    CHECK(value == 2048);
    CHECK_STATUS(chunkhash_blake3_subtree_max_len(0, &value), CHUNKHASH_OK);
    CHECK(value == UINT64_MAX);
    CHECK_STATUS(chunkhash_blake3_subtree_max_len(6 * 1024, &value), CHUNKHASH_OK);
    CHECK(value == 2048);
    CHECK_STATUS(chunkhash_blake3_subtree_max_len(3 * 1024, &value), CHUNKHASH_OK);
    CHECK(value == 1024);

    /* Misuse: an error code, nothing written. */
    const chunkhash_blake3_subtree_mode *mode = modes[0];
    value = 42;
    CHECK_STATUS(chunkhash_blake3_subtree_left_len(1024, &value), CHUNKHASH_NO_CHILDREN);
    CHECK_STATUS(chunkhash_blake3_subtree_left_len(0, &value), CHUNKHASH_NO_CHILDREN);
    CHECK_STATUS(chunkhash_blake3_subtree_max_len(1000, &value), CHUNKHASH_UNALIGNED_OFFSET);
    CHECK(value == 42);
    chunkhash_blake3_subtree out;
    memset(&out, POISON, sizeof out);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data, 10, 512, &out), CHUNKHASH_UNALIGNED_OFFSET);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data, 0, 1024, &out), CHUNKHASH_EMPTY_SUBTREE);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data, 1025, 3 * 1024, &out), CHUNKHASH_SUBTREE_TOO_LONG);
    CHECK(all_bytes((const uint8_t *)&out, sizeof out, POISON));

    chunkhash_blake3_subtree c0, c1, c2, c3;
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data, 1024, 0, &c0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data + 1024, 1024, 1024, &c1), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data + 2048, 1024, 2048, &c2), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data + 3072, 1024, 3072, &c3), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c0, &c2, &out), CHUNKHASH_NOT_SIBLINGS);  /* a gap */
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c1, &c0, &out), CHUNKHASH_NOT_SIBLINGS);  /* the wrong order */
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c1, &c2, &out), CHUNKHASH_SUBTREE_TOO_LONG); /* two subtrees */
    CHECK(all_bytes((const uint8_t *)&out, sizeof out, POISON));
    uint8_t hash[32];
    memset(hash, POISON, sizeof hash);
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(mode, &c2, &c3, 0, hash, sizeof hash), CHUNKHASH_ROOT_NOT_AT_START);
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(mode, &c0, &c2, 0, hash, sizeof hash), CHUNKHASH_NOT_SIBLINGS);
    /* A span no subtree has, written by hand. */
    chunkhash_blake3_subtree bad = c1;
    bad.offset = 1000;
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(mode, &c0, &bad, 0, hash, sizeof hash), CHUNKHASH_UNALIGNED_OFFSET);
    bad = c1;
    bad.len = 0;
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c0, &bad, &out), CHUNKHASH_EMPTY_SUBTREE);
    bad.len = 2048;
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c0, &bad, &out), CHUNKHASH_SUBTREE_TOO_LONG);
    CHECK(all_bytes(hash, sizeof hash, POISON));
    CHECK(all_bytes((const uint8_t *)&out, sizeof out, POISON));
    /* The output may be an input. */
    chunkhash_blake3_subtree parent;
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c0, &c1, &parent), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c0, &c1, &c0), CHUNKHASH_OK);
    CHECK(memcmp(&c0, &parent, sizeof parent) == 0);

    /* NULL pointers and bad keys or contexts. */
    chunkhash_blake3_subtree_mode *fresh = NULL;
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new(NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new_keyed(NULL, 32, &fresh), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new_keyed(key, 31, &fresh), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new_keyed(key, 32, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new_derive_key(NULL, &fresh), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_mode_new_derive_key("\xff", &fresh), CHUNKHASH_INVALID_UTF8);
    CHECK(fresh == NULL);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(NULL, data, 10, 0, &out), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, NULL, 10, 0, &out), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data, 10, 0, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_hash(mode, data, (size_t)PTRDIFF_MAX + 1, 0, &out), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_blake3_subtree_merge(NULL, &c0, &c1, &out), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, NULL, &c1, &out), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c2, NULL, &out), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge(mode, &c2, &c3, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(NULL, &c0, &c1, 0, hash, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(mode, NULL, &c1, 0, hash, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(mode, &parent, NULL, 0, hash, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(mode, &parent, &c2, 0, NULL, 32), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_merge_root(mode, &parent, &c2, 0, NULL, 0), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_subtree_left_len(2048, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_blake3_subtree_max_len(0, NULL), CHUNKHASH_NULL_POINTER);
    CHECK(all_bytes(hash, sizeof hash, POISON));
    CHECK(all_bytes((const uint8_t *)&out, sizeof out, POISON));

    free(data);
    for (size_t m = 0; m < 3; m++) chunkhash_blake3_subtree_mode_free(modes[m]);
    chunkhash_blake3_subtree_mode_free(NULL);
}

/* S3's checksums: known answers for "abc" (hashlib, zlib: base64 of the
 * big-endian digest), in one part and in parts of 2 bytes (the composite
 * SHA-256 and multipart ETag computed with hashlib from the parts). */
static void test_s3_checksums(void) {
    chunkhash_s3_sums sums;
    CHECK_STATUS(chunkhash_s3_checksums((const uint8_t *)"abc", 3, 0, &sums), CHUNKHASH_OK);
    CHECK(strcmp(sums.crc32, "NSRBwg==") == 0);
    CHECK(strcmp(sums.sha1, "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=") == 0);
    CHECK(strcmp(sums.sha256, "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=") == 0);
    CHECK(strcmp(sums.md5, "kAFQmDzST7DWlj99KOF/cg==") == 0);
    CHECK(strcmp(sums.etag, "\"900150983cd24fb0d6963f7d28e17f72\"") == 0);
    CHECK(sums.parts == 0);
    CHECK_STATUS(chunkhash_s3_checksums((const uint8_t *)"abc", 3, 2, &sums), CHUNKHASH_OK);
    CHECK(strcmp(sums.crc32, "NSRBwg==") == 0); /* full-object */
    CHECK(strcmp(sums.sha256, "EVMj5WLEpP33zqztymYNxLvhOJ2rkyOq0IRAkHx0JtA=-2") == 0);
    CHECK(strcmp(sums.etag, "\"d833159094d1d7ad96ffcc78414e3682-2\"") == 0);
    CHECK(sums.parts == 2);
    CHECK_STATUS(chunkhash_s3_checksums(NULL, 0, 0, &sums), CHUNKHASH_OK);
    CHECK(strcmp(sums.crc64nvme, "AAAAAAAAAAA=") == 0);
    CHECK_STATUS(chunkhash_s3_checksums(NULL, 1, 0, &sums), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_s3_checksums((const uint8_t *)"abc", 3, 0, NULL), CHUNKHASH_NULL_POINTER);
}

/* The streaming chunker. Xet's chunker over 1 MiB + 12345 bytes of
 * xorshift32 output (seed 2026; the generator below), fed in pieces of
 * several sizes: the same chunks every time, 8 to 128 KiB but the last,
 * each address the keyed BLAKE3 of its bytes under Xet's data key, and the
 * Xet file hash rebuilt from them (the Merkle tree of the specification's
 * "Hashing" page, written here) equal to what hf_xet.hash_files 1.8.0
 * printed for the same bytes. Then FastCDC with BLAKE3-160 addresses, and
 * every error code. */
#define CDC_LEN ((1u << 20) + 12345u)
#define CDC_MAX_CHUNKS 256

static const uint8_t XET_DATA_KEY[32] = {102, 151, 245, 119, 91,  149, 80,  222, 49,  53, 203,
                                         172, 165, 151, 24,  28,  157, 228, 33,  16,  155, 235,
                                         43,  88,  180, 208, 176, 75,  147, 173, 242, 41};
static const uint8_t XET_INTERNAL_NODE_KEY[32] = {1,   126, 197, 199, 165, 71,  41, 150, 253, 148, 102,
                                                  102, 180, 138, 2,   230, 93,  221, 83, 111, 55,  199,
                                                  109, 210, 248, 99,  82,  230, 74,  83, 113, 63};

/* Takes every queued chunk into chunks[*n...]. */
static void cdc_take(chunkhash_cdc *cdc, chunkhash_cdc_chunk *chunks, size_t *n) {
    for (;;) {
        chunkhash_cdc_chunk chunk;
        bool found = false;
        CHECK_STATUS(chunkhash_cdc_next(cdc, &chunk, &found), CHUNKHASH_OK);
        if (!found) return;
        if (*n < CDC_MAX_CHUNKS) chunks[*n] = chunk;
        (*n)++;
    }
}

static size_t cdc_stream(chunkhash_cdc *cdc, const uint8_t *data, size_t len, size_t piece,
                         chunkhash_cdc_chunk *chunks) {
    size_t n = 0;
    for (size_t at = 0; at < len; at += piece) {
        size_t take = len - at < piece ? len - at : piece;
        CHECK_STATUS(chunkhash_cdc_update(cdc, data + at, take), CHUNKHASH_OK);
        cdc_take(cdc, chunks, &n);
    }
    CHECK_STATUS(chunkhash_cdc_finish(cdc), CHUNKHASH_OK);
    cdc_take(cdc, chunks, &n);
    return n;
}

/* Xet's string form: each 8-byte group of the hash printed reversed. */
static void xet_string(const uint8_t hash[32], char out[65]) {
    for (size_t i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", hash[(i / 8) * 8 + 7 - i % 8]);
}

/* The Xet file hash of (hash, size) leaves, level by level. */
static void xet_file_hash(uint8_t hashes[][32], uint64_t *sizes, size_t n, char out[65]) {
    while (n > 1) {
        size_t parents = 0;
        for (size_t start = 0; start < n;) {
            size_t end = n - start < 9 ? n - start : 9;
            for (size_t i = 2; i < end; i++) {
                if (hashes[start + i][24] % 4 == 0) { /* the last 8 bytes, little-endian, mod 4 */
                    end = i + 1;
                    break;
                }
            }
            char text[9 * 90];
            size_t len = 0;
            uint64_t size = 0;
            for (size_t i = 0; i < end; i++) {
                char hex[65];
                xet_string(hashes[start + i], hex);
                len += (size_t)sprintf(text + len, "%s : %llu\n", hex, (unsigned long long)sizes[start + i]);
                size += sizes[start + i];
            }
            CHECK_STATUS(chunkhash_blake3_keyed_hash(XET_INTERNAL_NODE_KEY, 32, (const uint8_t *)text, len,
                                                     hashes[parents], 32),
                         CHUNKHASH_OK);
            sizes[parents++] = size;
            start += end;
        }
        n = parents;
    }
    uint8_t zero_key[32] = {0}, file[32];
    CHECK_STATUS(chunkhash_blake3_keyed_hash(zero_key, 32, hashes[0], 32, file, 32), CHUNKHASH_OK);
    xet_string(file, out);
}

static void test_cdc(void) {
    uint8_t *data = malloc(CDC_LEN);
    CHECK(data != NULL);
    if (data == NULL) return;
    uint32_t x = 2026;
    for (size_t i = 0; i < CDC_LEN; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        data[i] = (uint8_t)x;
    }
    static chunkhash_cdc_chunk first[CDC_MAX_CHUNKS], again[CDC_MAX_CHUNKS];
    chunkhash_cdc *cdc = NULL;
    CHECK_STATUS(chunkhash_cdc_new_xet(CHUNKHASH_CDC_ADDRESS_XET, &cdc), CHUNKHASH_OK);
    size_t n = cdc_stream(cdc, data, CDC_LEN, CDC_LEN, first);
    CHECK(n > 4 && n <= CDC_MAX_CHUNKS);
    const size_t pieces[] = {1, 1000, 8192, 65537};
    for (size_t p = 0; p < ARRAY_LEN(pieces); p++) {
        CHECK(cdc_stream(cdc, data, CDC_LEN, pieces[p], again) == n);
        CHECK(memcmp(first, again, n * sizeof first[0]) == 0);
    }
    static uint8_t hashes[CDC_MAX_CHUNKS][32];
    static uint64_t sizes[CDC_MAX_CHUNKS];
    uint64_t next = 0;
    for (size_t i = 0; i < n && i < CDC_MAX_CHUNKS; i++) {
        CHECK(first[i].offset == next);
        CHECK((first[i].length >= 8192 && first[i].length <= 131072) || (i == n - 1 && first[i].length >= 1));
        next += first[i].length;
        uint8_t expected[32];
        CHECK_STATUS(chunkhash_blake3_keyed_hash(XET_DATA_KEY, 32, data + first[i].offset, first[i].length, expected, 32),
                     CHUNKHASH_OK);
        CHECK(memcmp(first[i].address, expected, 32) == 0);
        memcpy(hashes[i], first[i].address, 32);
        sizes[i] = first[i].length;
    }
    CHECK(next == CDC_LEN);
    char file_hash[65];
    xet_file_hash(hashes, sizes, n, file_hash);
    CHECK(strcmp(file_hash, "5db897ffba583962bc6603720243ea623a5d7a39fde972a59342a1ec98962126") == 0);
    /* An empty input has no chunks. */
    CHECK(cdc_stream(cdc, data, 0, 1, again) == 0);
    chunkhash_cdc_free(cdc);

    /* FastCDC 64/256/1024 with BLAKE3-160 addresses, in pieces of 77 bytes. */
    cdc = NULL;
    CHECK_STATUS(chunkhash_cdc_new_fastcdc(64, 256, 1024, CHUNKHASH_CDC_ADDRESS_BLAKE3_160, &cdc), CHUNKHASH_OK);
    size_t small = 60000;
    static chunkhash_cdc_chunk fast[1024];
    n = 0;
    for (size_t at = 0; at < small; at += 77) {
        CHECK_STATUS(chunkhash_cdc_update(cdc, data + at, small - at < 77 ? small - at : 77), CHUNKHASH_OK);
        for (bool found = true; found;) {
            CHECK_STATUS(chunkhash_cdc_next(cdc, &fast[n < 1023 ? n : 1023], &found), CHUNKHASH_OK);
            n += found;
        }
    }
    CHECK_STATUS(chunkhash_cdc_finish(cdc), CHUNKHASH_OK);
    bool found = false;
    CHECK_STATUS(chunkhash_cdc_next(cdc, &fast[n < 1023 ? n : 1023], &found), CHUNKHASH_OK);
    n += found;
    CHECK(found && n > 60 && n < 1023);
    next = 0;
    for (size_t i = 0; i < n && i < 1023; i++) {
        CHECK(fast[i].offset == next);
        CHECK((fast[i].length >= 64 && fast[i].length <= 1024) || i == n - 1);
        next += fast[i].length;
        uint8_t expected[32];
        CHECK_STATUS(chunkhash_blake3_hash(data + fast[i].offset, fast[i].length, expected, 32), CHUNKHASH_OK);
        CHECK(memcmp(fast[i].address, expected, 20) == 0 && all_bytes(fast[i].address + 20, 12, 0));
    }
    CHECK(next == small);
    chunkhash_cdc_free(cdc);
    chunkhash_cdc_free(NULL);

    /* Errors: nothing is made, nothing is written. */
    cdc = NULL;
    CHECK_STATUS(chunkhash_cdc_new_fastcdc(64, 256, 1023, CHUNKHASH_CDC_ADDRESS_BLAKE3, &cdc),
                 CHUNKHASH_INVALID_CHUNK_SIZES);
    CHECK_STATUS(chunkhash_cdc_new_fastcdc(32, 256, 1024, CHUNKHASH_CDC_ADDRESS_BLAKE3, &cdc),
                 CHUNKHASH_INVALID_CHUNK_SIZES);
    CHECK_STATUS(chunkhash_cdc_new_fastcdc(2048, 8192, 1024, CHUNKHASH_CDC_ADDRESS_BLAKE3, &cdc),
                 CHUNKHASH_INVALID_CHUNK_SIZES);
    CHECK_STATUS(chunkhash_cdc_new_fastcdc(SIZE_MAX, 256, 1024, CHUNKHASH_CDC_ADDRESS_BLAKE3, &cdc),
                 CHUNKHASH_INVALID_CHUNK_SIZES);
    CHECK_STATUS(chunkhash_cdc_new_fastcdc(64, 256, 1024, 0, &cdc), CHUNKHASH_UNKNOWN_ADDRESS);
    CHECK_STATUS(chunkhash_cdc_new_xet(4, &cdc), CHUNKHASH_UNKNOWN_ADDRESS);
    CHECK(cdc == NULL);
    CHECK_STATUS(chunkhash_cdc_new_xet(CHUNKHASH_CDC_ADDRESS_XET, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_cdc_update(NULL, data, 1), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_cdc_finish(NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_cdc_new_xet(CHUNKHASH_CDC_ADDRESS_BLAKE3, &cdc), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_cdc_update(cdc, NULL, 1), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_cdc_update(cdc, data, (size_t)PTRDIFF_MAX + 1), CHUNKHASH_INVALID_LENGTH);
    CHECK_STATUS(chunkhash_cdc_update(cdc, NULL, 0), CHUNKHASH_OK);
    chunkhash_cdc_chunk chunk;
    memset(&chunk, POISON, sizeof chunk);
    CHECK_STATUS(chunkhash_cdc_next(cdc, NULL, &found), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_cdc_next(cdc, &chunk, NULL), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_cdc_next(NULL, &chunk, &found), CHUNKHASH_NULL_POINTER);
    CHECK_STATUS(chunkhash_cdc_next(cdc, &chunk, &found), CHUNKHASH_OK);
    CHECK(!found && all_bytes((const uint8_t *)&chunk, sizeof chunk, POISON));
    chunkhash_cdc_free(cdc);
    free(data);
}

/* The input of the bao vectors: a 4-byte little-endian counter from 1. */
static uint8_t *bao_input(size_t len) {
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        perror("malloc");
        exit(2);
    }
    for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)((i / 4 + 1) >> (8 * (i % 4)));
    return buf;
}

static void *checked_malloc(uint64_t len) {
    void *buf = malloc(len ? (size_t)len : 1);
    if (!buf) {
        perror("malloc");
        exit(2);
    }
    return buf;
}

/* Whether `bytes` hash to the lowercase hex `expected`. */
static int blake3_is(const uint8_t *bytes, size_t len, const char *expected) {
    uint8_t hash[32], want[32];
    CHECK_STATUS(chunkhash_blake3_hash(bytes, len, hash, 32), CHUNKHASH_OK);
    return unhex(expected, want, 32) == 32 && memcmp(hash, want, 32) == 0;
}

/* Bao through the C API: the bao crate's vectors (encodings, outboards,
 * slices byte for byte, each slice decoded back to its range), a whole
 * encoding decoded, every single-bit flip of a slice rejected, and the
 * error statuses with nothing written. */
static void test_bao(void) {
    chunkhash_bao_tree *tree = NULL;
    CHECK_STATUS(chunkhash_bao_tree_new(CHUNKHASH_BAO_MAX_GROUP_LOG + 1, &tree), CHUNKHASH_BAO_INVALID_GROUP_LOG);
    CHECK_STATUS(chunkhash_bao_tree_new(0, &tree), CHUNKHASH_OK);
    uint8_t root[32], want[32];
    uint64_t size = 0;
    size_t written = 0;
    for (size_t c = 0; c < ARRAY_LEN(BAO_ENCODED); c++) {
        const struct bao_output *tc = &BAO_ENCODED[c];
        uint8_t *input = bao_input(tc->input_len);
        CHECK_STATUS(chunkhash_bao_encoded_size(tree, tc->input_len, &size), CHUNKHASH_OK);
        CHECK(size == tc->output_len);
        uint8_t *encoded = checked_malloc(size), *decoded = checked_malloc(tc->input_len);
        CHECK_STATUS(chunkhash_bao_encode(tree, input, tc->input_len, root, 32, encoded, size), CHUNKHASH_OK);
        CHECK(unhex(tc->root, want, 32) == 32 && memcmp(root, want, 32) == 0);
        CHECK(blake3_is(encoded, size, tc->output_blake3));
        CHECK_STATUS(chunkhash_bao_decode(tree, root, 32, encoded, size, 0, UINT64_MAX, decoded, tc->input_len, &written),
                     CHUNKHASH_OK);
        CHECK(written == tc->input_len && memcmp(decoded, input, written) == 0);
        free(input);
        free(encoded);
        free(decoded);
    }
    for (size_t c = 0; c < ARRAY_LEN(BAO_OUTBOARDS); c++) {
        const struct bao_output *tc = &BAO_OUTBOARDS[c];
        uint8_t *input = bao_input(tc->input_len);
        CHECK_STATUS(chunkhash_bao_outboard_size(tree, tc->input_len, &size), CHUNKHASH_OK);
        CHECK(size == tc->output_len);
        uint8_t *outboard = checked_malloc(size);
        CHECK_STATUS(chunkhash_bao_outboard(tree, input, tc->input_len, CHUNKHASH_BAO_ORDER_PRE, root, 32, outboard, size),
                     CHUNKHASH_OK);
        CHECK(unhex(tc->root, want, 32) == 32 && memcmp(root, want, 32) == 0);
        CHECK(blake3_is(outboard, size, tc->output_blake3));
        free(input);
        free(outboard);
    }
    for (size_t c = 0; c < ARRAY_LEN(BAO_SLICES); c++) {
        const struct bao_slice *tc = &BAO_SLICES[c];
        uint8_t *input = bao_input(tc->input_len);
        uint64_t outboard_len = 0;
        CHECK_STATUS(chunkhash_bao_outboard_size(tree, tc->input_len, &outboard_len), CHUNKHASH_OK);
        uint8_t *outboard = checked_malloc(outboard_len);
        CHECK_STATUS(chunkhash_bao_outboard(tree, input, tc->input_len, CHUNKHASH_BAO_ORDER_PRE, root, 32, outboard,
                                            outboard_len),
                     CHUNKHASH_OK);
        CHECK_STATUS(chunkhash_bao_slice_size(tree, tc->input_len, tc->start, tc->len, &size), CHUNKHASH_OK);
        CHECK(size == tc->output_len);
        uint8_t *slice = checked_malloc(size), *decoded = checked_malloc(tc->len);
        CHECK_STATUS(chunkhash_bao_slice(tree, input, tc->input_len, outboard, outboard_len, CHUNKHASH_BAO_ORDER_PRE,
                                         tc->start, tc->len, slice, size, &written),
                     CHUNKHASH_OK);
        CHECK(written == size && blake3_is(slice, size, tc->output_blake3));
        CHECK_STATUS(chunkhash_bao_decode(tree, root, 32, slice, size, tc->start, tc->len, decoded, tc->len, &written),
                     CHUNKHASH_OK);
        size_t begin = tc->start < tc->input_len ? tc->start : tc->input_len;
        size_t end = tc->start + tc->len < tc->input_len ? tc->start + tc->len : tc->input_len;
        CHECK(written == end - begin && memcmp(decoded, input + begin, written) == 0);
        free(input);
        free(outboard);
        free(slice);
        free(decoded);
    }

    /* Every single-bit flip of the slice of the last group of three (which
     * proves the message's length) is an error, and writes nothing. */
    uint8_t *input = pattern(2500);
    uint8_t outboard[8 + 2 * 64], slice[8 + 64 + 452], out[100]; /* root parent, last group */
    CHECK_STATUS(chunkhash_bao_outboard(tree, input, 2500, CHUNKHASH_BAO_ORDER_PRE, root, 32, outboard, sizeof outboard),
                 CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_bao_slice(tree, input, 2500, outboard, sizeof outboard, CHUNKHASH_BAO_ORDER_PRE, 2100, 100,
                                     slice, sizeof slice, &written),
                 CHUNKHASH_OK);
    CHECK(written == sizeof slice);
    int accepted = 0;
    for (size_t i = 0; i < sizeof slice; i++) {
        for (int bit = 0; bit < 8; bit++) {
            slice[i] ^= (uint8_t)(1u << bit);
            memset(out, POISON, sizeof out);
            chunkhash_status status = chunkhash_bao_decode(tree, root, 32, slice, sizeof slice, 2100, 100, out,
                                                           sizeof out, &written);
            if (status == CHUNKHASH_OK || !all_bytes(out, sizeof out, POISON)) accepted++;
            slice[i] ^= (uint8_t)(1u << bit);
        }
    }
    CHECK(accepted == 0);
    CHECK_STATUS(chunkhash_bao_decode(tree, root, 32, slice, sizeof slice, 2100, 100, out, sizeof out, &written),
                 CHUNKHASH_OK);
    CHECK(written == 100 && memcmp(out, input + 2100, 100) == 0);
    /* Errors: a short stream, a longer one, another root, a short output. */
    memset(out, POISON, sizeof out);
    CHECK_STATUS(chunkhash_bao_decode(tree, root, 32, slice, sizeof slice - 1, 2100, 100, out, 100, &written),
                 CHUNKHASH_BAO_TRUNCATED);
    CHECK_STATUS(chunkhash_bao_decode(tree, root, 32, slice, sizeof slice, 2100, 100, out, 99, &written),
                 CHUNKHASH_BUFFER_TOO_SMALL);
    CHECK_STATUS(chunkhash_bao_decode(tree, want, 32, slice, sizeof slice, 2100, 100, out, 100, &written),
                 CHUNKHASH_BAO_MISMATCH);
    CHECK_STATUS(chunkhash_bao_decode(tree, NULL, 32, slice, sizeof slice, 2100, 100, out, 100, &written),
                 CHUNKHASH_NULL_POINTER);
    CHECK(all_bytes(out, sizeof out, POISON));
    CHECK_STATUS(chunkhash_bao_outboard(tree, input, 2500, 7, root, 32, outboard, sizeof outboard),
                 CHUNKHASH_BAO_UNKNOWN_ORDER);
    CHECK_STATUS(chunkhash_bao_slice(tree, input, 2499, outboard, sizeof outboard, CHUNKHASH_BAO_ORDER_PRE, 0, 1, slice,
                                     sizeof slice, &written),
                 CHUNKHASH_BAO_OUTBOARD_LENGTH);
    chunkhash_bao_tree_free(tree);
    chunkhash_bao_tree_free(NULL);

    /* A keyed tree's root is the keyed hash. */
    uint8_t key[32];
    memcpy(key, BLAKE3_KEY, 32);
    CHECK_STATUS(chunkhash_bao_tree_new_keyed(key, 32, 4, &tree), CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_bao_outboard(tree, input, 2500, CHUNKHASH_BAO_ORDER_POST, root, 32, outboard, 8),
                 CHUNKHASH_OK);
    CHECK_STATUS(chunkhash_blake3_keyed_hash(key, 32, input, 2500, want, 32), CHUNKHASH_OK);
    CHECK(memcmp(root, want, 32) == 0);
    chunkhash_bao_tree_free(tree);
    free(input);
}

int main(void) {
    test_version_and_backend();
    test_status_messages();
    test_blake3_vectors();
    test_large_batch();
    test_golden();
    test_digest_many();
    test_null_pointers();
    test_invalid_lengths();
    test_unknown_algorithms();
    test_invalid_utf8();
    test_buffer_too_small();
    test_in_place();
    test_crc_combine();
    test_subtrees();
    test_s3_checksums();
    test_cdc();
    test_bao();
    printf("test_chunkhash: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
