package dev.switchboard.core.input;

/** A body that is not one well-formed JSON value; the message is written for the client. */
public class InvalidJsonException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InvalidJsonException(String message) {
        super(message, null, false, false);
    }
}
