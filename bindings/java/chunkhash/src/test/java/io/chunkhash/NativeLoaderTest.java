package io.chunkhash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NativeLoaderTest {
    @Test
    void platformsMapToResources() {
        assertEquals("native/linux-x86_64/libchunkhash_jni.so", NativeLoader.resource("Linux", "amd64"));
        assertEquals("native/linux-aarch64/libchunkhash_jni.so", NativeLoader.resource("Linux", "aarch64"));
        assertEquals("native/macos-aarch64/libchunkhash_jni.dylib", NativeLoader.resource("Mac OS X", "aarch64"));
        assertEquals("native/macos-x86_64/libchunkhash_jni.dylib", NativeLoader.resource("Mac OS X", "x86_64"));
        assertEquals("native/windows-x86_64/chunkhash_jni.dll", NativeLoader.resource("Windows 11", "amd64"));
    }

    @Test
    void thisPlatformsLibraryIsPacked() {
        String resource = NativeLoader.resource(System.getProperty("os.name"), System.getProperty("os.arch"));
        assertNotNull(NativeLoader.class.getClassLoader().getResource(resource), resource);
    }

    @Test
    void aMissingPlatformIsNamedInTheError() {
        String resource = NativeLoader.resource("Linux", "riscv64");
        assertNull(NativeLoader.class.getClassLoader().getResource(resource));
        UnsatisfiedLinkError e = NativeLoader.missing("Linux", "riscv64");
        assertTrue(e.getMessage().startsWith("chunkhash has no native library for this platform (linux-riscv64,"),
                e.getMessage());
        assertTrue(e.getMessage().contains("native/linux-riscv64/libchunkhash_jni.so"), e.getMessage());
        assertTrue(e.getMessage().contains("-Dchunkhash.native.path="), e.getMessage());
    }
}
