package dev.switchboard.core.schema;

import dev.switchboard.persistence.schema.SchemaMigrator;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import javax.sql.DataSource;

/**
 * One attempt to migrate the schema, as a business method of its own: the connections a failed
 * attempt broke are cleaned up when the method ends, so the attempt after it starts clean (inside
 * the start-up bean's own initialisation they would fail that initialisation for good).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SchemaMigration {

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    /** Returns how many migrations were applied. */
    public int migrate() {
        return SchemaMigrator.migrate(dataSource);
    }
}
