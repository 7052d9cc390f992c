package dev.switchboard.core.turn;

/** Turn input that fails validation; {@code field} is its JSON path, e.g. {@code input[0].content[1].text}. */
public class InvalidInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public InvalidInputException(String field, String reason) {
        super(reason);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
