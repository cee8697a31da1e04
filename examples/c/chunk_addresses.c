/* chunk_addresses: prints the 20-byte content address (the first 20 bytes
 * of BLAKE3) of each chunk, all hashed in one batch call.
 *
 *   chunk_addresses [FILE...]
 *
 * Each FILE is one chunk; with no FILE, a few built-in chunks. Output lines
 * are `ADDRESS  NAME`, as b3sum and sha256sum print them. A file that
 * cannot be read is reported on stderr and skipped; the exit status is
 * then 1.
 *
 * Build against an installed libchunkhash:
 *   cc chunk_addresses.c $(pkg-config --cflags --libs chunkhash) -o chunk_addresses
 */

#include <chunkhash.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file into a new buffer; NULL (errno set) on failure. */
static uint8_t *read_file(const char *path, size_t *len) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t cap = 64 * 1024, used = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        used += fread(buf + used, 1, cap - used, file);
        if (used < cap) break;
        uint8_t *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(file)) {
        int saved = errno;
        free(buf);
        buf = NULL;
        errno = saved ? saved : EIO;
    }
    fclose(file);
    *len = used;
    return buf;
}

int main(int argc, char **argv) {
    static const char *const builtin[] = {"", "hello world", "chunk 1 of a backup", "chunk 2 of a backup"};
    const int from_files = argc > 1;
    const size_t count = from_files ? (size_t)(argc - 1) : sizeof builtin / sizeof builtin[0];

    const uint8_t **chunks = calloc(count, sizeof *chunks);
    size_t *lens = calloc(count, sizeof *lens);
    const char **names = calloc(count, sizeof *names);
    uint8_t *addresses = calloc(count, CHUNKHASH_ADDRESS_LEN);
    if (!chunks || !lens || !names || !addresses) {
        fprintf(stderr, "chunk_addresses: out of memory\n");
        return 1;
    }

    int status = 0;
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (from_files) {
            size_t len = 0;
            uint8_t *data = read_file(argv[i + 1], &len);
            if (!data) {
                fprintf(stderr, "chunk_addresses: %s: %s\n", argv[i + 1], strerror(errno));
                status = 1;
                continue;
            }
            chunks[n] = data;
            lens[n] = len;
            names[n] = argv[i + 1];
        } else {
            chunks[n] = (const uint8_t *)builtin[i];
            lens[n] = strlen(builtin[i]);
            names[n] = builtin[i];
        }
        n++;
    }

    /* One call for every chunk: small chunks share the SIMD lanes. */
    chunkhash_status result = chunkhash_blake3_address_many(chunks, lens, n, addresses, n * CHUNKHASH_ADDRESS_LEN);
    if (result != CHUNKHASH_OK) {
        fprintf(stderr, "chunk_addresses: %s\n", chunkhash_status_message(result));
        return 1;
    }

    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < CHUNKHASH_ADDRESS_LEN; j++) printf("%02x", addresses[i * CHUNKHASH_ADDRESS_LEN + j]);
        if (from_files)
            printf("  %s\n", names[i]);
        else
            printf("  \"%s\"\n", names[i]);
    }

    if (from_files)
        for (size_t i = 0; i < n; i++) free((void *)chunks[i]);
    free(chunks);
    free(lens);
    free(names);
    free(addresses);
    return status;
}
