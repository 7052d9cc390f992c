package dev.switchboard.rest.errors;

import jakarta.json.Json;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Builds error responses in the envelope every client can rely on. */
public final class ErrorBody {

    private ErrorBody() {
    }

    public static Response response(int status, String code, String message) {
        String body = Json.createObjectBuilder()
                .add("error", Json.createObjectBuilder().add("code", code).add("message", message))
                .build().toString();
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }
}
