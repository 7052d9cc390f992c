package dev.switchboard.rest.errors;

import dev.switchboard.core.json.ErrorEnvelope;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Builds error responses in the envelope every client can rely on. */
public final class ErrorBody {

    private ErrorBody() {
    }

    public static Response response(int status, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(json(code, message)).build();
    }

    /** The answer to {@code e}: {@link #busy} when it says when to retry, the plain envelope otherwise. */
    public static Response response(ApiException e) {
        if (e.retryAfterSeconds() > 0) {
            return busy(e.status(), e.code(), e.getMessage(), e.retryAfterSeconds());
        }
        return response(e.status(), e.code(), e.getMessage());
    }

    /**
     * A refusal that is only about now (a full queue or pool): the envelope with
     * {@code retry_after} (seconds) and the same in a {@code Retry-After} header.
     */
    public static Response busy(int status, String code, String message, int retryAfterSeconds) {
        String body = ErrorEnvelope.busy(code, message, retryAfterSeconds).toString();
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).header("Retry-After", retryAfterSeconds)
                .entity(body).build();
    }

    /** {@code {"error":{"code":…,"message":…}}}. */
    public static String json(String code, String message) {
        return ErrorEnvelope.of(code, message).toString();
    }
}
