package dev.switchboard.rest.responses;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.responses.ResponseError;
import dev.switchboard.rest.errors.ErrorBodies;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.io.StringReader;

/**
 * Every error answered under the Open Responses paths ({@code /v1/responses…}, {@code /responses…})
 * in the specification's body, {@code {"error":{"message","type","param","code"}}}, whatever made
 * it: what the resources refuse is already in it ({@link ResponseErrorMapper}); what is refused
 * before or around them — authentication, an unknown route or method, an {@code Accept} it cannot
 * answer, a full pool, the database — comes in the API's own envelope and is put into the
 * specification's here, with the type of its status ({@link ResponseError#typeFor}), its code and
 * message, and no field at fault. An SDK that reads {@code type} and {@code param} finds them on
 * every error. What the container answers on its own for these paths (its error page) is put in
 * the same body ({@link ErrorBodies}).
 */
@Provider
@ApplicationScoped
public class ResponsesErrorBodies implements ContainerResponseFilter, ErrorBodies {

    @Override
    public boolean covers(String path) {
        return isResponsesPath(path);
    }

    @Override
    public String body(int status, String code, String message) {
        return ResponsesResource.errorBody(ResponseError.of(status, code, message)).toString();
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getStatus() < 400 || !isResponsesPath(request.getUriInfo().getPath())
                || !(response.getEntity() instanceof String body)) {
            return;
        }
        JsonObject error = envelopeError(body);
        if (error == null || error.containsKey("type")) {
            return; // not an envelope, or already the specification's body
        }
        response.setEntity(body(response.getStatus(), error.getString("code", "internal_error"), error.getString("message", "")),
                null, MediaType.APPLICATION_JSON_TYPE);
    }

    static boolean isResponsesPath(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.equals("responses") || p.startsWith("responses/") || p.equals("v1/responses")
                || p.startsWith("v1/responses/");
    }

    /** The {@code error} object of an envelope; null when the body is not one. */
    private static JsonObject envelopeError(String body) {
        try (JsonReader reader = Jsons.createReader(new StringReader(body))) {
            JsonValue value = reader.readValue();
            return value instanceof JsonObject object && object.get("error") instanceof JsonObject error ? error : null;
        } catch (RuntimeException notJson) {
            return null;
        }
    }
}
