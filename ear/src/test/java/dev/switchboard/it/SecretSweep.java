package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Looks for a secret where an operator could read it: every column of every row of every table of
 * the test's database, and every file (logs, journals, keys, workspaces) under the given
 * directories and the engine journals.
 */
final class SecretSweep {

    private SecretSweep() {
    }

    /** Fails naming each table column and file that holds {@code secret}. */
    static void assertNowhere(String secret, String database, List<Path> dirs) throws SQLException, IOException {
        assertEquals(List.of(), rowsHolding(secret, database), "database rows holding the secret");
        List<Path> roots = new ArrayList<>(dirs);
        roots.add(Instance.journalDir());
        assertEquals(List.of(), filesHolding(secret, roots), "files (logs, journals) holding the secret");
    }

    /** The {@code "schema"."table".column}s with a row holding {@code secret}. */
    static List<String> rowsHolding(String secret, String database) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = TestDatabase.connect(database)) {
            List<String> tables = new ArrayList<>();
            DatabaseMetaData meta = c.getMetaData();
            try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    String schema = String.valueOf(rs.getString("TABLE_SCHEM")).toLowerCase(Locale.ROOT);
                    if (!schema.startsWith("pg_") && !schema.equals("information_schema")) {
                        tables.add("\"" + rs.getString("TABLE_SCHEM") + "\".\"" + rs.getString("TABLE_NAME") + "\"");
                    }
                }
            }
            if (tables.size() < 10) {
                throw new AssertionError("the sweep found too few tables to be looking at the right database: " + tables);
            }
            try (Statement s = c.createStatement()) {
                for (String table : tables) {
                    try (ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
                        ResultSetMetaData columns = rs.getMetaData();
                        while (rs.next()) {
                            for (int i = 1; i <= columns.getColumnCount(); i++) {
                                String value = rs.getString(i);
                                if (value != null && value.contains(secret)) {
                                    rows.add(table + "." + columns.getColumnName(i));
                                }
                            }
                        }
                    }
                }
            }
        }
        return rows;
    }

    /**
     * The files under {@code roots} holding {@code secret}. The running instance writes and removes its
     * temporary files as the sweep walks (the OSGi framework's, a log rolling over): one gone before it is
     * read holds nothing any more, and is passed over rather than failing the sweep.
     */
    private static List<Path> filesHolding(String secret, List<Path> roots) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : roots) {
            if (Files.isDirectory(dir)) {
                Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                        if (attributes.isRegularFile() && !file.toString().endsWith(".jar") && contains(file, secret)) {
                            files.add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return FileVisitResult.CONTINUE;
                        }
                        throw e;
                    }
                });
            }
        }
        return files;
    }

    private static boolean contains(Path file, String secret) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(secret);
        } catch (NoSuchFileException gone) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
