package dev.switchboard.it;

import dev.switchboard.testkit.Await;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Fresh databases on PostgreSQL for the integration tests, shared by every instance a test starts
 * (required: when it cannot be reached the tests fail with the reason, they do not skip). The
 * embedded H2 needs none: an instance without database settings makes its own ({@link SharedInstance}).
 */
final class TestDatabase {

    private TestDatabase() {
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
        String base = baseUrl();
        int slash = base.lastIndexOf('/');
        int query = base.indexOf('?', slash);
        return base.substring(0, slash + 1) + database + (query < 0 ? "" : base.substring(query));
    }

    /** Drops and creates {@code database}; returns its name. */
    static String recreate(String database) {
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
