// The header compiles as C++17 (g++ -std=c++17 -Wall -Wextra -Werror
// -Wpedantic) and the library links and runs from C++: a few calls, with
// the status as a C++ enum (typed int32_t, as in C).

#include "chunkhash.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

static_assert(std::is_same<std::underlying_type<chunkhash_status>::type, std::int32_t>::value,
              "chunkhash_status is an int32_t, as in C");
static_assert(CHUNKHASH_OK == 0 && CHUNKHASH_PANIC == -10, "status codes are part of the ABI");

namespace {

int failures = 0;
int checks = 0;

void check(bool ok, const char *what) {
    ++checks;
    if (!ok) {
        ++failures;
        std::fprintf(stderr, "test_cpp: check failed: %s\n", what);
    }
}

std::string hex(const std::uint8_t *bytes, std::size_t len) {
    std::string out;
    char digits[3];
    for (std::size_t i = 0; i < len; ++i) {
        std::snprintf(digits, sizeof digits, "%02x", bytes[i]);
        out += digits;
    }
    return out;
}

// RAII ownership of a hasher, as a C++ engine would hold one.
struct Blake3Deleter {
    void operator()(chunkhash_blake3 *hasher) const { chunkhash_blake3_free(hasher); }
};
using Blake3 = std::unique_ptr<chunkhash_blake3, Blake3Deleter>;

}  // namespace

int main() {
    check(std::strlen(chunkhash_version()) >= 5, "version");

    const std::string text = "hello world";
    const auto *data = reinterpret_cast<const std::uint8_t *>(text.data());
    std::uint8_t out[CHUNKHASH_MAX_DIGEST_LEN];

    chunkhash_status status = chunkhash_blake3_hash(data, text.size(), out, CHUNKHASH_BLAKE3_OUT_LEN);
    check(status == CHUNKHASH_OK, "chunkhash_blake3_hash");
    check(hex(out, 32) == "d74981efa70a0c880b8d8c1985d075dbcbf679b99a5f9914e5aaf96b831a9e24", "BLAKE3 of hello world");

    chunkhash_blake3 *raw = nullptr;
    check(chunkhash_blake3_new(&raw) == CHUNKHASH_OK, "chunkhash_blake3_new");
    Blake3 hasher(raw);
    check(chunkhash_blake3_update(hasher.get(), data, 6) == CHUNKHASH_OK, "update");
    check(chunkhash_blake3_update(hasher.get(), data + 6, text.size() - 6) == CHUNKHASH_OK, "update");
    std::uint8_t streamed[32];
    check(chunkhash_blake3_finalize(hasher.get(), streamed, sizeof streamed) == CHUNKHASH_OK, "finalize");
    check(std::memcmp(streamed, out, 32) == 0, "streaming equals one-shot");

    std::uint32_t id = 0;
    check(chunkhash_algorithm_from_name("crc32c", &id) == CHUNKHASH_OK && id == CHUNKHASH_ALGORITHM_CRC32C, "lookup");
    const std::string check_input = "123456789";
    status = chunkhash_digest(id, reinterpret_cast<const std::uint8_t *>(check_input.data()), check_input.size(), out,
                              sizeof out);
    check(status == CHUNKHASH_OK && hex(out, 4) == "e3069283", "CRC-32C check value");

    switch (chunkhash_digest(0, nullptr, 0, out, sizeof out)) {
        case CHUNKHASH_UNKNOWN_ALGORITHM:
            break;
        default:
            check(false, "id 0 is unknown");
    }

    std::printf("test_cpp: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
