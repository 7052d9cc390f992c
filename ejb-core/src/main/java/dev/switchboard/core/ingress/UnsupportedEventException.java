package dev.switchboard.core.ingress;

/** A payload that does not normalise to an event (Holon drops these after answering 202). */
public class UnsupportedEventException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnsupportedEventException(String message) {
        super(message);
    }
}
