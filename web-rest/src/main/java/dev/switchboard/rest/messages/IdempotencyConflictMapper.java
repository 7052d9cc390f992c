package dev.switchboard.rest.messages;

import dev.switchboard.core.idempotency.IdempotencyConflictException;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * An idempotency key reused with another payload (jagc J1): {@code 409 idempotency_payload_mismatch}
 * naming the run the key stored — and, in a batch, the message that reused it.
 */
@Provider
public class IdempotencyConflictMapper implements ExceptionMapper<IdempotencyConflictException> {

    @Override
    public Response toResponse(IdempotencyConflictException e) {
        return ErrorBody.response(error(e));
    }

    static ApiException error(IdempotencyConflictException e) {
        String where = e.item() == null ? "" : "messages[" + e.item() + "]: ";
        return new ApiException(409, "idempotency_payload_mismatch",
                where + "idempotency key was already used with a different payload (run " + e.runId() + ")");
    }
}
