package dev.switchboard.core.schema;

import dev.switchboard.core.clock.Backoff;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * Migrates the schema at start-up, before the lane controller or any request uses it; while the
 * database does not answer it waits (up to {@value #DATABASE_WAIT_SECONDS} s) rather than leave
 * the application failed for good.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SchemaBootstrap {

    private static final Logger LOG = Logger.getLogger(SchemaBootstrap.class.getName());
    static final long DATABASE_WAIT_SECONDS = 120;

    @EJB
    SchemaMigration migration;

    @PostConstruct
    void migrate() {
        int applied = Backoff.retry(LOG, "Migrating the schema", Duration.ofSeconds(DATABASE_WAIT_SECONDS),
                migration::migrate);
        LOG.info(() -> "Schema up to date (" + applied + " migration(s) applied)");
    }
}
