package dev.switchboard.rest.errors;

/**
 * An error to answer with: HTTP status, stable machine code and a human message — and, for a
 * refusal that is only about now (a full queue or pool, 429 or 503), when to try again.
 */
public class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final int retryAfterSeconds;

    public ApiException(int status, String code, String message) {
        this(status, code, message, 0);
    }

    /** @param retryAfterSeconds when a retry may succeed ({@code Retry-After}); 0: not a matter of time */
    public ApiException(int status, String code, String message, int retryAfterSeconds) {
        super(message);
        this.status = status;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
