package dev.switchboard.core.credential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key files: owner-only, made once (a twin's stays), replaced whole, nothing left beside them. */
class SecretFilesTest {

    @TempDir
    Path dir;

    @Test
    void aKeyFileIsMadeOnceOwnerOnlyAndATwinsAttemptLeavesIt() throws Exception {
        Path file = dir.resolve("keys/a.key");
        assertTrue(SecretFiles.createOnce(file, "first\n"));
        assertFalse(SecretFiles.createOnce(file, "second\n"), "the file existed");
        assertEquals("first\n", Files.readString(file));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        SecretFiles.replace(file, "third\n");
        assertEquals("third\n", Files.readString(file));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        try (Stream<Path> left = Files.list(file.getParent())) {
            assertEquals(List.of(file), left.toList(), "no partial file left beside it");
        }
    }
}
