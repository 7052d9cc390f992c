package dev.switchboard.core.ingress;

/** An envelope that fails validation: {@code field} names the member at fault. */
public class InvalidEventException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public InvalidEventException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
