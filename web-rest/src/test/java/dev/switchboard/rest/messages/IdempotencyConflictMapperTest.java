package dev.switchboard.rest.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.rest.errors.ApiException;
import org.junit.jupiter.api.Test;

class IdempotencyConflictMapperTest {

    @Test
    void aConflictNamesTheRunItsKeyStoredAndInABatchTheMessage() {
        ApiException single = IdempotencyConflictMapper.error(new IdempotencyConflictException("r1"));
        assertEquals(409, single.status());
        assertEquals("idempotency_payload_mismatch", single.code());
        assertEquals("idempotency key was already used with a different payload (run r1)", single.getMessage());

        ApiException batch = IdempotencyConflictMapper.error(new IdempotencyConflictException("r1").at(2));
        assertEquals("messages[2]: idempotency key was already used with a different payload (run r1)",
                batch.getMessage());
    }
}
