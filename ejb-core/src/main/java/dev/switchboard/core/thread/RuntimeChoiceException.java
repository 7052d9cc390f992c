package dev.switchboard.core.thread;

import jakarta.ejb.ApplicationException;

/** A runtime choice the instance cannot honour (no such model, no such thinking level); nothing is written. */
@ApplicationException(rollback = true)
public class RuntimeChoiceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What was being chosen: a client is told which of its changes was refused. */
    public enum Choice {
        MODEL,
        THINKING_LEVEL
    }

    private final Choice choice;

    public RuntimeChoiceException(Choice choice, String message) {
        super(message);
        this.choice = choice;
    }

    public Choice choice() {
        return choice;
    }
}
