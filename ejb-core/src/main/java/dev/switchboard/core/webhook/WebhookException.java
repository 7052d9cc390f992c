package dev.switchboard.core.webhook;

import jakarta.ejb.ApplicationException;

/**
 * A webhook request refused, with the HTTP status and error code the doors answer (REST as the
 * error envelope, JSON-RPC as invalid params carrying the code); nothing is written.
 */
@ApplicationException(rollback = true)
public class WebhookException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    public WebhookException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    static WebhookException invalid(String code, String message) {
        return new WebhookException(400, code, message);
    }

    static WebhookException notFound(String what, String id) {
        return new WebhookException(404, what + "_not_found", "no " + what + " " + id);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
