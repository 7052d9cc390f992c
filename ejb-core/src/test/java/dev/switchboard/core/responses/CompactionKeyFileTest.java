package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key file: made once, owner-only; the last line seals, every line opens; the database's old key goes in to open only. */
class CompactionKeyFileTest {

    private static final JsonArray ITEMS = Compactions.summaryItems("the meeting moved to Tuesday");
    private static final Set<PosixFilePermission> OWNER_ONLY = Set.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE);

    @TempDir
    Path dir;

    private Path path() {
        return dir.resolve("resources/security/switchboard-compaction.keys");
    }

    private static CompactionKeyRing ring(SecretKey key) {
        return new CompactionKeyRing(List.of(key));
    }

    @Test
    void theFileIsMadeOnceOwnerOnlyWithOneKeyAndReadAgainAlike() throws IOException {
        assertEquals(Optional.empty(), new CompactionKeyFile(path()).ring(), "no file, no keys");
        CompactionKeyRing first = new CompactionKeyFile(path()).ringMadeIfAbsent();
        assertEquals(OWNER_ONLY, Files.getPosixFilePermissions(path()));
        List<String> lines = Files.readAllLines(path());
        assertEquals(1, lines.size());
        assertEquals(44, lines.get(0).length(), "32 bytes in base64");

        CompactionKeyRing again = new CompactionKeyFile(path()).ringMadeIfAbsent();
        assertEquals(lines, Files.readAllLines(path()), "made once");
        assertEquals(Optional.of(ITEMS), again.open("alice", first.seal("alice", ITEMS)));
        assertEquals(Optional.of(ITEMS), first.open("alice", again.seal("alice", ITEMS)));
        try (var left = Files.list(path().getParent())) {
            assertEquals(List.of(path()), left.toList(), "no temporary file is left beside it");
        }
    }

    @Test
    void appendingALineRotates() throws IOException {
        CompactionKeyFile file = new CompactionKeyFile(path());
        String before = file.ringMadeIfAbsent().seal("alice", ITEMS);
        SecretKey added = CompactionKeyRing.newKey();
        Files.writeString(path(), CompactionKeyRing.base64(added) + "\n", StandardOpenOption.APPEND);

        CompactionKeyRing rotated = file.ringMadeIfAbsent();
        assertEquals(Optional.of(ITEMS), rotated.open("alice", before), "the old key still opens");
        assertEquals(Optional.of(ITEMS), ring(added).open("alice", rotated.seal("alice", ITEMS)), "the last line seals");
    }

    @Test
    void aBadLineIsNamedByItsNumberNeverShown() throws IOException {
        Files.createDirectories(path().getParent());
        String bad = "c2VjcmV0IGJ1dCB0b28gc2hvcnQ=";
        Files.writeString(path(), CompactionKeyRing.base64(CompactionKeyRing.newKey()) + "\n\n" + bad + "\n");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new CompactionKeyFile(path()).ringMadeIfAbsent());
        assertEquals("line 3 of the compaction key file " + path() + " is not 32 bytes in base64", refused.getMessage());
        assertFalse(refused.getMessage().contains(bad));

        Files.writeString(path(), "\n");
        assertEquals("the compaction key file " + path() + " has no key", assertThrows(IllegalArgumentException.class,
                () -> new CompactionKeyFile(path()).ringMadeIfAbsent()).getMessage(), "an empty file is not replaced");
    }

    @Test
    void theDatabasesKeyOnlyOpensAndAFreshKeySeals() throws IOException {
        SecretKey exposed = CompactionKeyRing.newKey();
        String sealedBefore = ring(exposed).seal("alice", ITEMS);
        CompactionKeyFile file = new CompactionKeyFile(path());
        file.keepOpening(exposed);
        assertEquals(OWNER_ONLY, Files.getPosixFilePermissions(path()));
        List<SecretKey> keys = file.keys();
        assertEquals(2, keys.size());
        assertEquals(exposed, keys.get(0), "first: it only opens");
        assertNotEquals(exposed, keys.get(1));

        CompactionKeyRing ring = file.ringMadeIfAbsent();
        assertEquals(Optional.of(ITEMS), ring.open("alice", sealedBefore));
        String sealedAfter = ring.seal("alice", ITEMS);
        assertEquals(Optional.empty(), ring(exposed).open("alice", sealedAfter), "not sealed with the exposed key");
        assertEquals(Optional.of(ITEMS), ring(keys.get(1)).open("alice", sealedAfter));

        String content = Files.readString(path());
        file.keepOpening(exposed);
        assertEquals(content, Files.readString(path()), "moved once: a twin, or the next start, changes nothing");
    }

    @Test
    void theDatabasesKeyGoesBeforeTheKeysOfAFileThatExists() throws IOException {
        CompactionKeyFile file = new CompactionKeyFile(path());
        file.ringMadeIfAbsent();
        SecretKey added = CompactionKeyRing.newKey();
        Files.writeString(path(), CompactionKeyRing.base64(added) + "\n", StandardOpenOption.APPEND);
        List<SecretKey> before = file.keys();
        SecretKey exposed = CompactionKeyRing.newKey();

        file.keepOpening(exposed);
        assertEquals(List.of(exposed, before.get(0), added), file.keys());
        assertEquals(OWNER_ONLY, Files.getPosixFilePermissions(path()));
        CompactionKeyRing ring = file.ringMadeIfAbsent();
        assertEquals(Optional.of(ITEMS), ring(added).open("alice", ring.seal("alice", ITEMS)), "the last line still seals");
        assertTrue(ring.open("alice", ring(exposed).seal("alice", ITEMS)).isPresent());
        try (var left = Files.list(path().getParent())) {
            assertEquals(List.of(path()), left.toList(), "no temporary file is left beside it");
        }
    }
}
