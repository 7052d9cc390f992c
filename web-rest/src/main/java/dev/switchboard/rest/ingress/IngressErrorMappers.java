package dev.switchboard.rest.ingress;

import dev.switchboard.core.ingress.InvalidEventException;
import dev.switchboard.core.ingress.RequeueRefusedException;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** The ingress endpoints' refusals in the error envelope. */
public final class IngressErrorMappers {

    private IngressErrorMappers() {
    }

    /** An envelope or a GitHub delivery that fails validation: {@code 400 invalid_event}, naming the field at fault. */
    @Provider
    public static class InvalidEvent implements ExceptionMapper<InvalidEventException> {
        @Override
        public Response toResponse(InvalidEventException e) {
            return ErrorBody.response(error(e));
        }

        static ApiException error(InvalidEventException e) {
            return new ApiException(400, "invalid_event", e.getMessage());
        }
    }

    /** A requeue of no event of the caller's ({@code 404}) or of one whose run did not fail ({@code 409}). */
    @Provider
    public static class RequeueRefused implements ExceptionMapper<RequeueRefusedException> {
        @Override
        public Response toResponse(RequeueRefusedException e) {
            return ErrorBody.response(error(e));
        }

        static ApiException error(RequeueRefusedException e) {
            return e.notFound() ? new ApiException(404, "event_not_found", e.getMessage())
                    : new ApiException(409, "event_not_requeueable", e.getMessage());
        }
    }
}
