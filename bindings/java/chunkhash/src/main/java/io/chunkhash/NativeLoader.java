package io.chunkhash;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the native library at first use, as snappy-java and lz4-java do: from
 * the path in the system property {@code chunkhash.native.path} if set, else
 * from the jar's resource {@code native/PLATFORM/LIBRARY} (PLATFORM such as
 * {@code linux-x86_64}), copied to a temporary file that is deleted on exit.
 */
final class NativeLoader {
    /** Overrides the packed library with a file, for development builds. */
    static final String PATH_PROPERTY = "chunkhash.native.path";

    private NativeLoader() {}

    /** {@code linux}, {@code macos} or {@code windows}, or the name as given. */
    static String os(String osName) {
        String name = osName.toLowerCase(Locale.ROOT);
        if (name.startsWith("linux")) return "linux";
        if (name.startsWith("mac") || name.startsWith("darwin")) return "macos";
        if (name.startsWith("windows")) return "windows";
        return name.replaceAll("[^a-z0-9]+", "");
    }

    /** {@code x86_64} or {@code aarch64}, or the name as given. */
    static String arch(String osArch) {
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x86-64")) return "x86_64";
        if (arch.equals("aarch64") || arch.equals("arm64")) return "aarch64";
        return arch.replaceAll("[^a-z0-9_]+", "");
    }

    /** The platform folder: {@code linux-x86_64}, {@code macos-aarch64}, ... */
    static String platform(String osName, String osArch) {
        return os(osName) + "-" + arch(osArch);
    }

    /** The resource the library of this platform is packed as. */
    static String resource(String osName, String osArch) {
        String os = os(osName);
        String file;
        if (os.equals("windows")) {
            file = "chunkhash_jni.dll";
        } else if (os.equals("macos")) {
            file = "libchunkhash_jni.dylib";
        } else {
            file = "libchunkhash_jni.so";
        }
        return "native/" + platform(osName, osArch) + "/" + file;
    }

    /** The error for a platform the jar has no native library for. */
    static UnsatisfiedLinkError missing(String osName, String osArch) {
        return new UnsatisfiedLinkError("chunkhash has no native library for this platform ("
                + platform(osName, osArch) + ", os.name=" + osName + ", os.arch=" + osArch + "): the jar holds no "
                + resource(osName, osArch) + ". Build it with cargo (bindings/java/native) and set -D"
                + PATH_PROPERTY + "=/path/to/the/library, or use a jar built on this platform.");
    }

    static void load() {
        String path = System.getProperty(PATH_PROPERTY);
        if (path != null) {
            System.load(Path.of(path).toAbsolutePath().toString());
            return;
        }
        String osName = System.getProperty("os.name");
        String osArch = System.getProperty("os.arch");
        String resource = resource(osName, osArch);
        try (InputStream in = NativeLoader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw missing(osName, osArch);
            }
            String name = resource.substring(resource.lastIndexOf('/') + 1);
            Path file = Files.createTempFile("chunkhash-", "-" + name);
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            System.load(file.toAbsolutePath().toString());
        } catch (IOException e) {
            UnsatisfiedLinkError error =
                    new UnsatisfiedLinkError("chunkhash: could not extract " + resource + " to a temporary file: " + e);
            error.initCause(e);
            throw error;
        }
    }
}
