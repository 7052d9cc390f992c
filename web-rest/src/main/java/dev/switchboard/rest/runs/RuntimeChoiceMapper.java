package dev.switchboard.rest.runs;

import dev.switchboard.core.thread.RuntimeChoiceException;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A thread runtime choice the instance cannot honour ({@link ThreadsResource}): jagc's
 * {@code 400 thread_model_error} or {@code thread_thinking_error}, by what was being chosen.
 */
@Provider
public class RuntimeChoiceMapper implements ExceptionMapper<RuntimeChoiceException> {

    @Override
    public Response toResponse(RuntimeChoiceException e) {
        return ErrorBody.response(error(e));
    }

    static ApiException error(RuntimeChoiceException e) {
        String code = switch (e.choice()) {
            case MODEL -> "thread_model_error";
            case THINKING_LEVEL -> "thread_thinking_error";
        };
        return new ApiException(400, code, e.getMessage());
    }
}
