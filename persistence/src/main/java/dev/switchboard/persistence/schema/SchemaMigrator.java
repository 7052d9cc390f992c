package dev.switchboard.persistence.schema;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings the database to the newest schema. Flyway holds a database lock for the duration
 * (a PostgreSQL advisory lock), so several instances starting at once migrate exactly once.
 * Liberty's class loader needs the empty {@code flyway.location} marker files in
 * {@code db/migration} and {@code db/callback} (no callbacks yet) to let Flyway scan them.
 */
public final class SchemaMigrator {

    private SchemaMigrator() {
    }

    /** Applies every pending migration and returns how many ran. */
    public static int migrate(DataSource dataSource) {
        Flyway flyway = Flyway.configure(SchemaMigrator.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .callbackLocations("classpath:db/callback")
                .failOnMissingLocations(true)
                .table("schema_migrations")
                .baselineOnMigrate(false)
                .load();
        MigrateResult result = flyway.migrate();
        return result.migrationsExecuted;
    }
}
