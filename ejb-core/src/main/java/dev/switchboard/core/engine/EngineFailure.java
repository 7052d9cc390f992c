package dev.switchboard.core.engine;

/** An engine's own, expected failure; its message is what the run records. */
public class EngineFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EngineFailure(String message) {
        super(message);
    }
}
