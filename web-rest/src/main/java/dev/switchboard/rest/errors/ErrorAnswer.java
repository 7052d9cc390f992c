package dev.switchboard.rest.errors;

import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.core.input.ServerBusy;
import dev.switchboard.core.json.ErrorEnvelope;
import dev.switchboard.core.run.QueueFullException;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What an exception a request raised is answered with, in the error envelope (jagc J11) — the one
 * place for it, whichever door the request came through (the JAX-RS mappers, the messages servlet):
 * a refusal the request earned keeps its status and code; a full queue or pool says when to retry
 * ({@code Retry-After}); a database failure is 503; anything else is a bug on our side, logged and
 * answered 500 without a trace.
 *
 * @param retryAfterSeconds when a retry may succeed; 0 when it is not a matter of time
 */
public record ErrorAnswer(int status, String code, String message, int retryAfterSeconds) {

    private static final Logger LOG = Logger.getLogger(ErrorAnswer.class.getName());

    public static ErrorAnswer of(Throwable e) {
        if (e instanceof ApiException api) {
            return new ErrorAnswer(api.status(), api.code(), api.getMessage(), api.retryAfterSeconds());
        }
        if (e instanceof ServerBusy busy) {
            return new ErrorAnswer(503, "server_busy", busy.getMessage(), busy.retryAfterSeconds());
        }
        if (e instanceof QueueFullException full) {
            // in a batch the message that met the cap is named (the batch stored nothing)
            return new ErrorAnswer(429, "queue_full", where(full.item()) + full.getMessage(), 1);
        }
        if (e instanceof IdempotencyConflictException conflict) {
            return new ErrorAnswer(409, "idempotency_payload_mismatch", where(conflict.item())
                    + "idempotency key was already used with a different payload (run " + conflict.runId() + ")", 0);
        }
        if (databaseUnreachable(e)) {
            LOG.log(Level.WARNING, "Database failure", e);
            return new ErrorAnswer(503, "database_unavailable", "the database did not answer or rolled the request back;"
                    + " retry (with the same Idempotency-Key for a message)", 1);
        }
        if (malformedUri(e)) {
            ContainerErrors.Answer answer = ContainerErrors.forStatus(400);
            return new ErrorAnswer(answer.status(), answer.code(), answer.message(), 0);
        }
        if (refusedValue(e)) {
            LOG.log(Level.WARNING, "The database refused a value that passed validation", e);
            return new ErrorAnswer(400, "invalid_value",
                    "a value in the request cannot be stored (too long or not valid text)", 0);
        }
        LOG.log(Level.SEVERE, "Unexpected error", e);
        return new ErrorAnswer(500, "internal_error", "request failed", 0);
    }

    private static String where(Integer item) {
        return item == null ? "" : "messages[" + item + "]: ";
    }

    /** As a JAX-RS response. */
    public Response response() {
        return retryAfterSeconds > 0 ? ErrorBody.busy(status, code, message, retryAfterSeconds)
                : ErrorBody.response(status, code, message);
    }

    /** The envelope. */
    public String body() {
        return (retryAfterSeconds > 0 ? ErrorEnvelope.busy(code, message, retryAfterSeconds)
                : ErrorEnvelope.of(code, message)).toString();
    }

    /** Written to a servlet's response (nothing of it sent yet). */
    public void write(HttpServletResponse response) throws IOException {
        response.setStatus(status);
        if (retryAfterSeconds > 0) {
            response.setHeader("Retry-After", Integer.toString(retryAfterSeconds));
        }
        byte[] bytes = body().getBytes(StandardCharsets.UTF_8);
        response.setContentType("application/json");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /**
     * The database is unreachable or refusing work, not our bug: SQLSTATE classes 08
     * (connection), 40 (the transaction was rolled back whole: a deadlock between transactions
     * that lock several lanes, such as two batches, or a serialization failure), 53
     * (insufficient resources, e.g. too many connections) and 57 (operator intervention:
     * shutting down, starting up), or the pool's and driver's connection exceptions.
     */
    static boolean databaseUnreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && List.of("08", "40", "53", "57").contains(sql.getSQLState().substring(0, 2))) {
                return true;
            }
        }
        return false;
    }

    /** The request's URI does not parse (a raw backslash in the path, say): the client's fault. */
    static boolean malformedUri(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof URISyntaxException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The database refused a value (SQLSTATE class 22, data exception: too long, not valid in the
     * encoding, out of range): the request's fault, refused like a validation error. The
     * validation at the doors should have caught it; the warning says which check is missing.
     */
    static boolean refusedValue(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("22")) {
                return true;
            }
        }
        return false;
    }
}
