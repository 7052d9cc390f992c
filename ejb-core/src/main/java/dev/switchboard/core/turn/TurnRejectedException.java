package dev.switchboard.core.turn;

import jakarta.ejb.ApplicationException;

/**
 * A turn call the current state does not allow. Thrown before anything is written, so the
 * transaction need not roll back (and the container logs no rollback error for a client mistake).
 */
@ApplicationException(rollback = false)
public class TurnRejectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** The turn does not exist for this user, or has ended. */
        NOT_ACTIVE,
        /** The thread already holds the maximum of active turns. */
        QUEUE_FULL,
        /** The runtime is already paused (untargeted interrupt). */
        ALREADY_PAUSED
    }

    private final Reason reason;

    public TurnRejectedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
