package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;

/**
 * A request the endpoint refuses, with the Open Responses error body's members (spec §7, O3):
 * {@code type} by HTTP status, a {@code code}, and {@code param} naming the field at fault
 * ({@code ""} when none is).
 */
public class ResponseError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String code;
    private final String param;

    public ResponseError(int status, String type, String code, String param, String message) {
        super(message);
        this.status = status;
        this.type = type;
        this.code = code;
        this.param = param;
    }

    /**
     * A refusal made elsewhere (the API's own envelope: authentication, a full pool, the database,
     * the router), in these terms: the specification's type for its status, no field at fault.
     */
    public static ResponseError of(int status, String code, String message) {
        return new ResponseError(status, typeFor(status), code, "", message);
    }

    /** The specification's type for an HTTP status (§7): its table's four, any other 4xx an invalid request. */
    public static String typeFor(int status) {
        if (status >= 500) {
            return "server_error";
        }
        return switch (status) {
            case 404 -> "not_found";
            case 429 -> "too_many_requests";
            default -> "invalid_request";
        };
    }

    /** A field with the wrong type or value. */
    static ResponseError invalid(String param, String message) {
        return new ResponseError(400, "invalid_request", "invalid_value", param, message);
    }

    static ResponseError notFound(String responseId, String param) {
        return new ResponseError(404, "not_found", param.isEmpty() ? "response_not_found" : "previous_response_not_found",
                param, "No response found with id '" + responseId + "'.");
    }

    /** The error object of the specification's bodies and events; every member a string (O3). */
    public JsonObject toJson() {
        return Jsons.createObjectBuilder().add("message", getMessage()).add("type", type).add("param", param)
                .add("code", code).build();
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String code() {
        return code;
    }

    public String param() {
        return param;
    }
}
