package dev.switchboard.core.schema;

import dev.switchboard.persistence.schema.SchemaMigrator;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** Migrates the schema at start-up, before the lane controller or any request uses it. */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SchemaBootstrap {

    private static final Logger LOG = Logger.getLogger(SchemaBootstrap.class.getName());

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @PostConstruct
    void migrate() {
        int applied = SchemaMigrator.migrate(dataSource);
        LOG.info(() -> "Schema up to date (" + applied + " migration(s) applied)");
    }
}
