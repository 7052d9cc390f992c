package dev.switchboard.core.ingress;

import jakarta.ejb.ApplicationException;

/** A requeue that cannot happen: the event does not exist for the caller, or did not fail. */
@ApplicationException(rollback = false) // refused before anything is written
public class RequeueRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean notFound;

    public RequeueRefusedException(boolean notFound, String message) {
        super(message);
        this.notFound = notFound;
    }

    public boolean notFound() {
        return notFound;
    }
}
