package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.SecretKey;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where an instance's compaction keys come from, on the schema's own {@code server_keys} (V13) in
 * an in-memory H2: the key file or the configured list, and the key earlier versions kept in the
 * database moved out of it — after which a dump of the database holds no key.
 */
class CompactionKeysTest {

    private static final JsonArray ITEMS = Compactions.summaryItems("the sky is green");

    @TempDir
    Path dir;
    private JdbcDataSource database;

    @BeforeEach
    void schema() throws IOException, SQLException {
        database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        try (InputStream v13 = getClass().getResourceAsStream("/db/migration/V13__server_keys.sql");
             Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute(new String(v13.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private Path keyFile() {
        return dir.resolve("switchboard-compaction.keys");
    }

    /** One start of an instance. */
    private CompactionKeys instance(Optional<String> configured) {
        CompactionKeys keys = new CompactionKeys();
        keys.dataSource = database;
        keys.configured = configured;
        keys.keyFile = keyFile().toString();
        keys.start();
        return keys;
    }

    /** What an earlier version left: its key in the database. */
    private SecretKey keptInTheDatabase() throws SQLException {
        SecretKey key = CompactionKeyRing.newKey();
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO server_keys (name, secret, created_at) VALUES ('responses.compaction', '"
                    + CompactionKeyRing.base64(key) + "', 0)");
        }
        return key;
    }

    private String dump() throws SQLException {
        StringBuilder dump = new StringBuilder();
        try (Connection c = database.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SCRIPT")) {
            while (rs.next()) {
                dump.append(rs.getString(1)).append('\n');
            }
        }
        return dump.toString();
    }

    private long rowsInServerKeys() throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM server_keys")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static CompactionKeyRing ring(SecretKey key) {
        return new CompactionKeyRing(List.of(key));
    }

    @Test
    void byDefaultTheKeysAreInTheKeyFileAndNoneInADumpOfTheDatabase() throws SQLException, IOException {
        CompactionKeyRing ring = instance(Optional.empty()).ring();
        String sealed = ring.seal("alice", ITEMS);
        List<String> lines = Files.readAllLines(keyFile());
        assertEquals(1, lines.size());
        assertEquals(0, rowsInServerKeys());
        String dump = dump();
        assertTrue(dump.contains("SERVER_KEYS"), "the dump is the database's: " + dump);
        assertFalse(dump.contains(lines.get(0)), "the key is not in the database");

        assertEquals(Optional.of(ITEMS), instance(Optional.empty()).ring().open("alice", sealed), "the next start reads it again");
    }

    @Test
    void theDatabasesKeyMovesIntoTheKeyFileOpensWhatItSealedAndSealsNoMore() throws SQLException, IOException {
        SecretKey exposed = keptInTheDatabase();
        String sealedBefore = ring(exposed).seal("alice", ITEMS);

        CompactionKeyRing ring = instance(Optional.empty()).ring();
        assertEquals(Optional.of(ITEMS), ring.open("alice", sealedBefore));
        String sealedAfter = ring.seal("alice", ITEMS);
        assertEquals(Optional.empty(), ring(exposed).open("alice", sealedAfter), "a fresh key seals");
        assertEquals(0, rowsInServerKeys(), "the row is deleted");
        List<String> lines = Files.readAllLines(keyFile());
        assertEquals(List.of(CompactionKeyRing.base64(exposed)), lines.subList(0, 1), "first in the file: it only opens");
        String dump = dump();
        lines.forEach(line -> assertFalse(dump.contains(line), "no key in the database"));

        CompactionKeyRing next = instance(Optional.empty()).ring();
        assertEquals(Optional.of(ITEMS), next.open("alice", sealedBefore), "the next start, with no row, still opens it");
        assertEquals(Optional.of(ITEMS), next.open("alice", sealedAfter));
        assertEquals(lines, Files.readAllLines(keyFile()));
    }

    @Test
    void configuredKeysSealAndTheDatabasesKeyStillOpensAfterTheNextStart() throws SQLException {
        SecretKey exposed = keptInTheDatabase();
        String sealedBefore = ring(exposed).seal("alice", ITEMS);
        SecretKey newer = CompactionKeyRing.newKey();
        SecretKey older = CompactionKeyRing.newKey();
        Optional<String> configured = Optional.of(CompactionKeyRing.base64(newer) + "," + CompactionKeyRing.base64(older));

        CompactionKeyRing ring = instance(configured).ring();
        assertEquals(Optional.of(ITEMS), ring(newer).open("alice", ring.seal("alice", ITEMS)), "the first configured key seals");
        assertEquals(Optional.of(ITEMS), ring.open("alice", ring(older).seal("alice", ITEMS)));
        assertEquals(Optional.of(ITEMS), ring.open("alice", sealedBefore));
        assertEquals(0, rowsInServerKeys());
        assertTrue(Files.exists(keyFile()), "the database's key is kept in the key file");

        CompactionKeyRing next = instance(configured).ring();
        assertEquals(Optional.of(ITEMS), next.open("alice", sealedBefore), "the next start, with no row, still opens it");
        assertEquals(Optional.of(ITEMS), ring(newer).open("alice", next.seal("alice", ITEMS)));
    }

    @Test
    void configuredKeysNeedNoFile() {
        Optional<String> configured = Optional.of(CompactionKeyRing.base64(CompactionKeyRing.newKey()));
        instance(configured).ring();
        assertFalse(Files.exists(keyFile()));
    }

    @Test
    void aBadConfiguredListStopsTheStartWithoutShowingIt() {
        String value = "bm90IGEga2V5";
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> instance(Optional.of(value)));
        assertTrue(refused.getMessage().startsWith("switchboard.responses.compaction-key "), refused.getMessage());
        assertFalse(refused.getMessage().contains(value));
    }
}
