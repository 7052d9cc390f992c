package dev.switchboard.persistence.schema;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings the database to the newest schema. Flyway holds a database lock for the duration
 * (a PostgreSQL advisory lock), so several instances starting at once migrate exactly once.
 * Liberty's class loader needs the empty {@code flyway.location} marker files in
 * {@code db/migration}, {@code db/postgresql} and {@code db/callback} (no callbacks yet) to let
 * Flyway scan them. {@code db/migration} is portable SQL for both databases; {@code db/postgresql}
 * adds what only PostgreSQL has (partial indexes), in the same version sequence.
 */
public final class SchemaMigrator {

    private SchemaMigrator() {
    }

    /** Applies every pending migration and returns how many ran. */
    public static int migrate(DataSource dataSource) {
        return migrate(dataSource, "latest");
    }

    /** Applies the pending migrations up to version {@code target} ("latest": all); how many ran (a migration's test). */
    public static int migrate(DataSource dataSource, String target) {
        Flyway flyway = Flyway.configure(SchemaMigrator.class.getClassLoader())
                .target(target)
                .dataSource(dataSource)
                .locations(locations(dataSource))
                .callbackLocations("classpath:db/callback")
                .failOnMissingLocations(true)
                .table("schema_migrations")
                .baselineOnMigrate(false)
                .load();
        MigrateResult result = flyway.migrate();
        return result.migrationsExecuted;
    }

    private static String[] locations(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return "PostgreSQL".equals(c.getMetaData().getDatabaseProductName())
                    ? new String[] {"classpath:db/migration", "classpath:db/postgresql"}
                    : new String[] {"classpath:db/migration"};
        } catch (SQLException e) {
            throw new IllegalStateException("cannot tell which database the schema is for", e);
        }
    }
}
