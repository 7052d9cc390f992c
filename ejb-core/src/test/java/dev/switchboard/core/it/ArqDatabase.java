package dev.switchboard.core.it;

import dev.switchboard.testkit.Trees;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Client side (test JVM, not the server): gives the Arquillian server a fresh PostgreSQL database.
 * The first deployment of a test run drops and re-creates it, so every run starts from an empty
 * database that the application's own Flyway migration (SchemaBootstrap) builds. Any failure here — PostgreSQL down,
 * wrong credentials — fails the deployment and with it every test of the class; nothing is skipped.
 */
final class ArqDatabase {

    /** The tables that hold test rows and exist in this database (an older schema lacks the newer ones). */
    private static List<String> existingTables(Connection db) throws SQLException {
        List<String> existing = new ArrayList<>();
        for (String table : new String[] {"message_ingest", "runs", "turns", "threads", "notification_outbox",
                "serve_runtime"}) {
            try (PreparedStatement check = db.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
                check.setString(1, table);
                try (ResultSet rs = check.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        existing.add(table);
                    }
                }
            }
        }
        return existing;
    }

    private static final Pattern SAFE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private static boolean recreated;

    private ArqDatabase() {
    }

    /**
     * Recreates the test database once per test JVM; later calls (the next test class, whose
     * application is not deployed yet) only empty its tables.
     */
    static synchronized void prepare() {
        if ("h2".equals(System.getProperty("arq.database"))) {
            prepareH2();
            return;
        }
        String name = required("arq.db.name");
        if (!SAFE_NAME.matcher(name).matches() || !(name.contains("arq") || name.contains("test"))) {
            // It is dropped below: refuse anything that does not look like a throw-away test database.
            throw new IllegalStateException("arq.db.name must be a plain lower-case identifier containing "
                    + "'arq' or 'test', was " + name);
        }
        String user = required("arq.db.user");
        String password = System.getProperty("arq.db.password", "");
        try {
            if (!recreated) {
                try (Connection admin = DriverManager.getConnection(required("arq.db.admin.url"), user, password);
                        Statement sql = admin.createStatement()) {
                    // WITH (FORCE) (PostgreSQL 13+) also ends sessions a killed earlier run left behind.
                    sql.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                    sql.execute("CREATE DATABASE " + name);
                }
                recreated = true;
            }
            try (Connection db = DriverManager.getConnection(required("arq.db.url"), user, password)) {
                try (PreparedStatement ping = db.prepareStatement(
                        "SELECT current_database(), to_regclass('threads') IS NOT NULL");
                        ResultSet rs = ping.executeQuery()) {
                    if (!rs.next() || !name.equals(rs.getString(1))) {
                        throw new IllegalStateException("arq.db.url does not point at database " + name);
                    }
                    if (rs.getBoolean(2)) {
                        // A previous test class left rows behind: empty the tables before the next
                        // deployment, so that its lane controller's start-up poll finds no work.
                        try (Statement sql = db.createStatement()) {
                            sql.execute("TRUNCATE " + String.join(", ", existingTables(db)));
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("The Arquillian tests need PostgreSQL at " + required("arq.db.admin.url")
                    + " (user " + user + "): " + e.getMessage(), e);
        }
    }

    /**
     * The H2 run: the first deployment of the JVM deletes the database files (the server has not
     * opened them yet: nothing is deployed); later ones empty the tables through AUTO_SERVER while
     * the server holds the database open.
     */
    private static void prepareH2() {
        if (!recreated) {
            Trees.delete(Path.of(required("arq.h2.dir")));
            recreated = true;
            return;
        }
        try (Connection db = DriverManager.getConnection(required("arq.db.url"), required("arq.db.user"),
                System.getProperty("arq.db.password", ""));
                Statement sql = db.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = sql.executeQuery("SELECT table_name FROM information_schema.tables "
                    + "WHERE table_schema = 'PUBLIC' AND table_type = 'BASE TABLE'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            sql.execute("SET REFERENTIAL_INTEGRITY FALSE");
            for (String table : tables) {
                if (List.of("message_ingest", "runs", "turns", "threads", "notification_outbox", "serve_runtime")
                        .contains(table.toLowerCase(java.util.Locale.ROOT))) {
                    sql.execute("TRUNCATE TABLE \"" + table + "\"");
                }
            }
            sql.execute("SET REFERENTIAL_INTEGRITY TRUE");
        } catch (SQLException e) {
            throw new IllegalStateException("The Arquillian H2 database at " + required("arq.db.url")
                    + " could not be emptied: " + e.getMessage(), e);
        }
    }

    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("System property " + property
                    + " is not set; run the *IT tests through failsafe (mvn verify -pl ejb-core)");
        }
        return value;
    }
}
