package dev.switchboard.it;

import dev.switchboard.testkit.Await;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.h2.tools.Server;

/**
 * Fresh databases for the integration tests, shared by every instance a test starts. On
 * PostgreSQL (the default; required: when it cannot be reached the tests fail with the reason,
 * they do not skip). With {@code -Dit.database=h2}, on H2 — the embedded default's database —
 * served to the test's instances by an H2 TCP server in this JVM, so the same lane, late-owner and
 * ingress tests prove H2 behaves alike.
 */
final class TestDatabase {

    private static final int H2_PORT = 9095;
    private static Server h2;

    private TestDatabase() {
    }

    static boolean onH2() {
        return "h2".equals(System.getProperty("it.database"));
    }

    static String baseUrl() {
        return System.getProperty("test.db.url", "jdbc:postgresql://127.0.0.1:5432/switchboard_test");
    }

    static String user() {
        return System.getProperty("test.db.user", "postgres");
    }

    static String password() {
        return System.getProperty("test.db.password", "postgres");
    }

    static String jdbcUrl(String database) {
        if (onH2()) {
            return "jdbc:h2:tcp://127.0.0.1:" + H2_PORT + "/" + database + ";LOCK_TIMEOUT=10000";
        }
        String base = baseUrl();
        int slash = base.lastIndexOf('/');
        int query = base.indexOf('?', slash);
        return base.substring(0, slash + 1) + database + (query < 0 ? "" : base.substring(query));
    }

    /** Drops and creates {@code database} (on H2: empties it); returns its name. */
    static String recreate(String database) {
        if (onH2()) {
            startH2();
            try (Connection c = connect(database); Statement s = c.createStatement()) {
                s.execute("DROP ALL OBJECTS");
                return database;
            } catch (SQLException e) {
                throw new IllegalStateException("cannot empty H2 database " + database, e);
            }
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), user(), password());
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + database);
            return database;
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL is required for the integration tests and is not reachable at "
                    + jdbcUrl("postgres") + " (" + e.getMessage() + "). Start it, or run .ci/run which does.", e);
        }
    }

    private static synchronized void startH2() {
        if (h2 != null) {
            return;
        }
        Path dir = Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath().resolve("h2");
        try {
            h2 = Server.createTcpServer("-tcpPort", Integer.toString(H2_PORT), "-baseDir", dir.toString(), "-ifNotExists")
                    .start();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start the H2 server for the tests on port " + H2_PORT, e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(h2::stop));
    }

    static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), user(), password());
    }

    /** The single number {@code sql} answers for one string parameter, e.g. a {@code count(*)}. */
    static long count(String database, String sql, String value) {
        try (Connection c = connect(database); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, value);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until every notification of a thread written so far is in the log: a turn's rows sit
     * in the outbox until the pump stamps them, a little after the run that wrote them commits.
     */
    static void awaitStamped(String database, String threadKey) throws InterruptedException {
        Await.until(Duration.ofSeconds(30), () -> count(database,
                "SELECT count(*) FROM notification_outbox WHERE thread_key = ?", threadKey) == 0,
                "every notification of " + threadKey + " stamped");
    }
}
