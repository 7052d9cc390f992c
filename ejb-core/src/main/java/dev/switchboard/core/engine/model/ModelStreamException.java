package dev.switchboard.core.engine.model;

/** A model's answer that reports a failure, or that is not what its API promises. */
public class ModelStreamException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ModelStreamException(String message) {
        super(message);
    }
}
