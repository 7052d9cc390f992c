package dev.switchboard.core.json;

/**
 * The envelope's code and message for a status the web container or the JAX-RS runtime produced
 * on its own — for every web module, so each refuses alike (the API's and the dashboard's).
 * Messages are fixed texts: a container's message (with its message id, class names or the
 * offending input) never reaches a client.
 */
public final class StatusAnswers {

    /** What to answer: status, code and message. */
    public record Answer(int status, String code, String message) {

        /** {@code {"error":{"code","message"}}}. */
        public String body() {
            return ErrorEnvelope.of(code, message).toString();
        }
    }

    private StatusAnswers() {
    }

    public static Answer forStatus(int status) {
        return switch (status) {
            case 400 -> new Answer(400, "bad_request",
                    "the request could not be read (malformed path, query, header or body)");
            case 401 -> new Answer(401, "unauthorized", "authentication required");
            case 403, 404 -> new Answer(404, "route_not_found", "route not found");
            case 405 -> new Answer(405, "method_not_allowed", "method not allowed");
            case 406 -> new Answer(406, "not_acceptable", "only application/json responses are available");
            case 408 -> new Answer(408, "request_timeout", "the request was not received in time");
            case 411 -> new Answer(411, "length_required", "a body needs Content-Length or chunked encoding");
            case 413 -> new Answer(413, "payload_too_large", "the request is too large");
            case 414 -> new Answer(414, "uri_too_long", "the request URI is too long");
            case 415 -> new Answer(415, "unsupported_media_type", "unsupported content type");
            case 431 -> new Answer(431, "headers_too_large", "the request headers are too large");
            case 503 -> new Answer(503, "unavailable", "the server is not ready; retry");
            default -> status >= 500 ? new Answer(500, "internal_error", "request failed")
                    : new Answer(400, "bad_request", "the request could not be read");
        };
    }
}
