package dev.switchboard.core.idempotency;

import jakarta.ejb.ApplicationException;

/** An idempotency key reused with a different payload (jagc J1: 409 idempotency_payload_mismatch). */
@ApplicationException(rollback = true)
public class IdempotencyConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String runId;
    private final Integer item;

    public IdempotencyConflictException(String runId) {
        this(runId, null);
    }

    private IdempotencyConflictException(String runId, Integer item) {
        super("idempotency key was already used with a different payload");
        this.runId = runId;
        this.item = item;
    }

    public String runId() {
        return runId;
    }

    /** The index of the message in a batch whose key conflicted; null outside a batch. */
    public Integer item() {
        return item;
    }

    /** This conflict, found at index {@code index} of a batch. */
    public IdempotencyConflictException at(int index) {
        return new IdempotencyConflictException(runId, index);
    }
}
