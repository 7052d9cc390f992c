package dev.switchboard.core.thread;

import jakarta.ejb.ApplicationException;

/** A runtime choice the instance cannot honour (no such model, no such thinking level); nothing is written. */
@ApplicationException(rollback = true)
public class RuntimeChoiceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RuntimeChoiceException(String message) {
        super(message);
    }
}
