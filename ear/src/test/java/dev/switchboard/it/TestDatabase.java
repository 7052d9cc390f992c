package dev.switchboard.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Fresh PostgreSQL databases for the integration tests. PostgreSQL is required: when it cannot
 * be reached the tests fail with the reason, they do not skip.
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
}
