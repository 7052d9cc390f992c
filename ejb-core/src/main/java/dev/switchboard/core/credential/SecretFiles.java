package dev.switchboard.core.credential;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files that hold keys: owner-only from before the first byte is in them, put in place whole. A
 * file is written beside its place and then linked or moved there, so no reader ever sees half a
 * key, and two instances making the same file at once keep the first one's.
 */
public final class SecretFiles {

    private SecretFiles() {
    }

    /**
     * Makes {@code path} holding {@code content} unless it exists (its directories too); false when
     * it did exist — a twin made it first — and it is left as it is.
     */
    public static boolean createOnce(Path path, String content) throws IOException {
        Files.createDirectories(path.getParent());
        Path partial = written(path, content);
        try {
            Files.createLink(path, partial); // fails if the file exists, with no moment in which a twin's could be replaced
            return true;
        } catch (FileAlreadyExistsException raced) {
            return false;
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** Replaces {@code path} with {@code content} in one step. */
    public static void replace(Path path, String content) throws IOException {
        Path partial = written(path, content);
        try {
            Files.move(partial, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial); // gone once moved; left over, it would be a copy of the secret
        }
    }

    /** A temporary file beside {@code path}, owner-only before anything is in it, holding {@code content}. */
    private static Path written(Path path, String content) throws IOException {
        Path partial = Files.createTempFile(path.getParent(), "." + path.getFileName(), ".partial");
        try {
            try {
                Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // not a POSIX file system: the directory's own protection applies
            }
            Files.writeString(partial, content, StandardCharsets.US_ASCII);
            return partial;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
    }
}
