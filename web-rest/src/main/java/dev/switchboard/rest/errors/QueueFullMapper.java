package dev.switchboard.rest.errors;

import dev.switchboard.core.run.QueueFullException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A thread's queue at its cap: 429 {@code queue_full} at once, with when to retry; in a batch the
 * message that met the cap is named (the batch stored nothing).
 */
@Provider
public class QueueFullMapper implements ExceptionMapper<QueueFullException> {

    @Override
    public Response toResponse(QueueFullException e) {
        String where = e.item() == null ? "" : "messages[" + e.item() + "]: ";
        return ErrorBody.busy(429, "queue_full", where + e.getMessage(), 1);
    }
}
