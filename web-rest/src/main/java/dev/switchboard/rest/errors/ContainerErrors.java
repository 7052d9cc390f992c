package dev.switchboard.rest.errors;

import dev.switchboard.core.json.StatusAnswers;

/**
 * The envelope's code and message for a status the web container or the JAX-RS runtime produced
 * on its own ({@link StatusAnswers}, which every web module answers with), as this module uses it.
 */
public final class ContainerErrors {

    /** What to answer: status, code and message. */
    public record Answer(int status, String code, String message) {

        /** The answer as a refusal to throw, for a door that refuses the way the container would. */
        public ApiException refusal() {
            return new ApiException(status, code, message);
        }

        /** The answer as a JAX-RS response. */
        public jakarta.ws.rs.core.Response response() {
            return ErrorBody.response(status, code, message);
        }
    }

    private ContainerErrors() {
    }

    public static Answer forStatus(int status) {
        StatusAnswers.Answer answer = StatusAnswers.forStatus(status);
        return new Answer(answer.status(), answer.code(), answer.message());
    }
}
