package dev.switchboard.core.sql;

import dev.switchboard.persistence.schema.SchemaMigrator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A database of a test class's own, brought to the newest schema, for the core built outside the
 * container: a fresh PostgreSQL database (dropped and made again) beside the suite's, or the
 * embedded H2 in memory as a newcomer's server runs on.
 */
public final class FreshDatabase {

    /** The databases the core runs on. */
    public enum Kind {
        POSTGRESQL, H2
    }

    private FreshDatabase() {
    }

    /** A new, migrated database named {@code name} (on H2, made unique per call). */
    public static DataSource create(Kind kind, String name) {
        return create(kind, name, "latest");
    }

    /** As {@link #create(Kind, String)}, migrated up to schema version {@code target} only. */
    public static DataSource create(Kind kind, String name, String target) {
        DataSource dataSource;
        if (kind == Kind.POSTGRESQL) {
            String base = System.getProperty("test.db.url", "jdbc:postgresql://127.0.0.1:5432/switchboard_test");
            String server = base.substring(0, base.lastIndexOf('/') + 1);
            recreate(server + "postgres", name);
            PGSimpleDataSource pg = new PGSimpleDataSource();
            pg.setUrl(server + name);
            pg.setUser(user());
            pg.setPassword(password());
            dataSource = pg;
        } else {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
            dataSource = h2;
        }
        SchemaMigrator.migrate(dataSource, target);
        return dataSource;
    }

    private static void recreate(String adminUrl, String database) {
        try (Connection c = DriverManager.getConnection(adminUrl, user(), password()); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL is required for the core's tests and is not reachable at "
                    + adminUrl + " (" + e.getMessage() + "). Start it, or run .ci/run which does.", e);
        }
    }

    private static String user() {
        return System.getProperty("test.db.user", "postgres");
    }

    private static String password() {
        return System.getProperty("test.db.password", "postgres");
    }
}
