package dev.switchboard.core.idempotency;

import jakarta.ejb.ApplicationException;

/** An idempotency key reused with a different payload (jagc J1: 409 idempotency_payload_mismatch). */
@ApplicationException(rollback = true)
public class IdempotencyConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String runId;

    public IdempotencyConflictException(String runId) {
        super("idempotency key was already used with a different payload");
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
