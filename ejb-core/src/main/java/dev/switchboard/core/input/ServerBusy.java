package dev.switchboard.core.input;

import jakarta.ejb.ApplicationException;

/**
 * A bounded pool or queue of this instance is full: the request is refused at once, not queued
 * behind the others. Only a matter of time — the client retries after {@link #retryAfterSeconds}.
 * Thrown before anything is written: nothing to roll back, and no container error logged for it.
 */
@ApplicationException(rollback = false)
public class ServerBusy extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int retryAfterSeconds;

    public ServerBusy(String message, int retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
