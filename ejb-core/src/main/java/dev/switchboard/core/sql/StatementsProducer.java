package dev.switchboard.core.sql;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import javax.sql.DataSource;

/**
 * {@link Statements} on Switchboard's data source, for the plain-JDBC stores to inject: the one
 * place the data source is looked up for them. Each injection gets its own (it holds nothing but
 * the data source).
 */
@ApplicationScoped
public class StatementsProducer {

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Produces
    Statements statements() {
        return new Statements(dataSource);
    }
}
