package dev.switchboard.rest.responses;

import dev.switchboard.core.responses.ResponseError;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A request the Open Responses endpoint refuses, in the specification's error body
 * ({@link ResponsesResource#error}) rather than the envelope of the other APIs — also when a
 * suspended request is resumed with it.
 */
@Provider
public class ResponseErrorMapper implements ExceptionMapper<ResponseError> {

    @Override
    public Response toResponse(ResponseError e) {
        return ResponsesResource.error(e);
    }
}
