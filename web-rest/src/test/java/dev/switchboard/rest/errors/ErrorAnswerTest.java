package dev.switchboard.rest.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.input.ServerBusy;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorAnswerTest {

    @Test
    void connectionFailuresAnywhereInTheChainAreDatabaseUnavailable() {
        assertTrue(ErrorAnswer.databaseUnreachable(
                new RuntimeException("ejb", new IllegalStateException(new SQLException("refused", "08001")))));
        assertTrue(ErrorAnswer.databaseUnreachable(new RuntimeException(new SQLTransientConnectionException("pool"))));
        assertTrue(ErrorAnswer.databaseUnreachable(new SQLException("shutting down", "57P01")));
        assertTrue(ErrorAnswer.databaseUnreachable(new SQLException("too many clients", "53300")));
        assertTrue(ErrorAnswer.databaseUnreachable(new RuntimeException(new SQLException("deadlock detected", "40P01"))));
    }

    @Test
    void otherDatabaseErrorsAreBugsNotOutages() {
        assertFalse(ErrorAnswer.databaseUnreachable(new RuntimeException(new SQLException("dup", "23505"))));
        assertFalse(ErrorAnswer.databaseUnreachable(new IllegalStateException("no cause")));
    }

    @Test
    void aKeyReusedWithAnotherPayloadNamesTheRunItStoredAndInABatchTheMessage() {
        ErrorAnswer single = ErrorAnswer.of(new IdempotencyConflictException("r1"));
        assertEquals(409, single.status());
        assertEquals("idempotency_payload_mismatch", single.code());
        assertEquals("idempotency key was already used with a different payload (run r1)", single.message());

        ErrorAnswer batch = ErrorAnswer.of(new IdempotencyConflictException("r1").at(2));
        assertEquals("messages[2]: idempotency key was already used with a different payload (run r1)",
                batch.message());
    }

    @Test
    void aRefusalKeepsItsStatusAndCodeAndAFullQueueSaysWhenToRetry() {
        ErrorAnswer refused = ErrorAnswer.of(new ApiException(413, "body_too_large", "too large"));
        assertEquals(List.of(413, "body_too_large", "too large", 0),
                List.of(refused.status(), refused.code(), refused.message(), refused.retryAfterSeconds()));
        assertEquals("{\"error\":{\"code\":\"body_too_large\",\"message\":\"too large\"}}", refused.body());
        ErrorAnswer busy = ErrorAnswer.of(new ServerBusy("no room", 2));
        assertEquals(List.of(503, "server_busy", 2), List.of(busy.status(), busy.code(), busy.retryAfterSeconds()));
        assertTrue(busy.body().contains("\"retry_after\":2"), busy.body());
        assertEquals(500, ErrorAnswer.of(new IllegalStateException("a bug")).status());
        assertEquals(503, ErrorAnswer.of(new RuntimeException(new SQLException("refused", "08001"))).status());
        assertEquals(400, ErrorAnswer.of(new RuntimeException(new SQLException("too long", "22001"))).status());
    }
}
