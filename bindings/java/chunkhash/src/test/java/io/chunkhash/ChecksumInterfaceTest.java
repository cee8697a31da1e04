package io.chunkhash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.jupiter.api.Test;

/** The java.util.zip.Checksum contract, used the way JDK code uses CRC32C and CRC32. */
class ChecksumInterfaceTest {
    @Test
    void behavesAsTheJdkChecksums() {
        SplittableRandom random = TestSupport.random("ChecksumInterfaceTest", 0x636b73756dL);
        byte[] data = TestSupport.bytes(random, 5000);
        for (Checksum[] pair : new Checksum[][] {{Checksums.crc32c(), new CRC32C()}, {Checksums.crc32(), new CRC32()}}) {
            Checksum ours = pair[0];
            Checksum jdk = pair[1];
            for (int i = 0; i < 100; i++) { // byte by byte
                ours.update(data[i]);
                jdk.update(data[i]);
            }
            ours.update(data); // the interface's default update(byte[])
            jdk.update(data);
            ByteBuffer readOnly = ByteBuffer.wrap(data, 7, 300).asReadOnlyBuffer();
            ours.update(readOnly);
            assertEquals(0, readOnly.remaining(), "update(ByteBuffer) consumes the buffer");
            jdk.update(ByteBuffer.wrap(data, 7, 300));
            assertEquals(jdk.getValue(), ours.getValue());
            ours.reset();
            jdk.reset();
            assertEquals(jdk.getValue(), ours.getValue(), "after reset");
            ours.update(data, 10, 20);
            jdk.update(data, 10, 20);
            assertEquals(jdk.getValue(), ours.getValue());
            ((StreamingChecksum) ours).close();
        }
    }
}
