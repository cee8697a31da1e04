package io.chunkhash;

/**
 * The algorithms of chunkhash's registry, with their stable ids (the ids of
 * the Rust enum {@code chunkhash::Algorithm}, the C constants and the block
 * trailers). The constants are written from the registry table by
 * {@code cargo run -p chunkhash-binding-lists}, and a test checks them
 * against the native library. MD5 and SHA-1 are for compatibility only
 * (S3 ETags and checksums, md5sum and sha1sum files): broken against
 * collisions.
 */
public enum Algorithm {
    // BEGIN generated from the registry (crates/chunkhash/src/registry.rs): cargo run -p chunkhash-binding-lists
    /** BLAKE3: 32-byte digests, cryptographic. */
    BLAKE3(1, "BLAKE3", 32),
    /** BLAKE3-160: 20-byte digests, cryptographic. */
    BLAKE3_160(2, "BLAKE3-160", 20),
    /** XXH3-64: 8-byte digests, a checksum, not cryptographic. */
    XXH3_64(3, "XXH3-64", 8),
    /** XXH3-128: 16-byte digests, a checksum, not cryptographic. */
    XXH3_128(4, "XXH3-128", 16),
    /** XXH64: 8-byte digests, a checksum, not cryptographic. */
    XXH64(5, "XXH64", 8),
    /** XXH32: 4-byte digests, a checksum, not cryptographic. */
    XXH32(6, "XXH32", 4),
    /** CRC32C: 4-byte digests, a checksum, not cryptographic. */
    CRC32C(7, "CRC32C", 4),
    /** BLAKE2b-512: 64-byte digests, cryptographic. */
    BLAKE2B_512(8, "BLAKE2b-512", 64),
    /** BLAKE2b-256: 32-byte digests, cryptographic. */
    BLAKE2B_256(9, "BLAKE2b-256", 32),
    /** SHA-256: 32-byte digests, cryptographic. */
    SHA_256(10, "SHA-256", 32),
    /** SHA-512: 64-byte digests, cryptographic. */
    SHA_512(11, "SHA-512", 64),
    /** SHA-512/160: 20-byte digests, cryptographic. */
    SHA_512_160(12, "SHA-512/160", 20),
    /** CRC-32: 4-byte digests, a checksum, not cryptographic. */
    CRC_32(13, "CRC-32", 4),
    /** CRC-64/NVME: 8-byte digests, a checksum, not cryptographic. */
    CRC_64_NVME(14, "CRC-64/NVME", 8),
    /** MD5: 16-byte digests, cryptographic. */
    MD5(15, "MD5", 16),
    /** SHA-1: 20-byte digests, cryptographic. */
    SHA_1(16, "SHA-1", 20);
    // END generated

    private static final Algorithm[] BY_ID = values();

    private final int id;
    private final String canonicalName;
    private final int digestLength;

    Algorithm(int id, String canonicalName, int digestLength) {
        this.id = id;
        this.canonicalName = canonicalName;
        this.digestLength = digestLength;
    }

    /** The stable numeric id, 1 to the number of constants. */
    public int id() {
        return id;
    }

    /** The registry's name: {@code BLAKE3}, {@code XXH3-64}, {@code CRC-64/NVME}, ... */
    public String canonicalName() {
        return canonicalName;
    }

    /** Bytes in a digest. */
    public int digestLength() {
        return digestLength;
    }

    /** Whether the digest fits in a long ({@link Checksums#value}, {@link StreamingChecksum#getValue}): 8 bytes or fewer. */
    public boolean hasValue() {
        return digestLength <= 8;
    }

    /** The algorithm with this id; {@link IllegalArgumentException} for any other. */
    public static Algorithm fromId(int id) {
        if (id < 1 || id > BY_ID.length) {
            throw new IllegalArgumentException("unknown algorithm id " + id + " (ids are 1 to " + BY_ID.length + ")");
        }
        return BY_ID[id - 1];
    }

    /**
     * The algorithm a name or alias names, parsed as the chunkhash CLI does
     * (case ignored, {@code _} read as {@code -}: {@code blake3}, {@code xxh3},
     * {@code crc32c}, {@code sha256}, {@code crc64nvme}, ...);
     * {@link IllegalArgumentException} for an unknown name.
     */
    public static Algorithm fromName(String name) {
        if (name == null) {
            throw new NullPointerException("name is null");
        }
        return fromId(Native.algorithmId(name));
    }

    @Override
    public String toString() {
        return canonicalName;
    }
}
