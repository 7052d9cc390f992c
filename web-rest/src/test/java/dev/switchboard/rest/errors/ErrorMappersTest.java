package dev.switchboard.rest.errors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class ErrorMappersTest {

    @Test
    void connectionFailuresAnywhereInTheChainAreDatabaseUnavailable() {
        assertTrue(ErrorMappers.Unexpected.databaseUnreachable(
                new RuntimeException("ejb", new IllegalStateException(new SQLException("refused", "08001")))));
        assertTrue(ErrorMappers.Unexpected.databaseUnreachable(new RuntimeException(new SQLTransientConnectionException("pool"))));
        assertTrue(ErrorMappers.Unexpected.databaseUnreachable(new SQLException("shutting down", "57P01")));
        assertTrue(ErrorMappers.Unexpected.databaseUnreachable(new SQLException("too many clients", "53300")));
        assertTrue(ErrorMappers.Unexpected.databaseUnreachable(new RuntimeException(new SQLException("deadlock detected", "40P01"))));
    }

    @Test
    void otherDatabaseErrorsAreBugsNotOutages() {
        assertFalse(ErrorMappers.Unexpected.databaseUnreachable(new RuntimeException(new SQLException("dup", "23505"))));
        assertFalse(ErrorMappers.Unexpected.databaseUnreachable(new IllegalStateException("no cause")));
    }
}
