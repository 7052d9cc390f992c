package dev.switchboard.rest;

import dev.switchboard.core.engine.EngineSelector;
import dev.switchboard.core.engine.ModelProvider;
import dev.switchboard.core.json.Jsons;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import dev.switchboard.rest.errors.ApiException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.Set;

/**
 * jagc's {@code /v1/auth} routes. {@code GET /v1/auth/providers}: the model providers of this
 * instance's engine, with whether a credential is configured — never the credential. The echo and
 * scripted engines call none, so their list is empty (jagc's CLI and smoke flow expect an array,
 * not 501).
 * <p>
 * jagc's OAuth login broker ({@code POST /v1/auth/providers/{provider}/login}, then
 * {@code GET /v1/auth/logins/{id}}, {@code …/input}, {@code …/cancel}), answered with its contract.
 * Switchboard's engines take their credentials from configuration ({@code GET /v1/auth/providers}
 * lists none with {@code oauth_supported}), so no provider can be logged in to here: a start is
 * jagc's 400 {@code auth_login_provider_not_found}, and since no attempt ever exists, an attempt's
 * routes answer jagc's 404 {@code auth_login_not_found} — after the same checks jagc makes first
 * (the owner header, the input's body), so a malformed call gets the error jagc would give it.
 */
@Path("/v1/auth")
public class AuthResource {

    /** jagc's owner header: optional to start a login, required for an attempt's routes. */
    static final String OWNER = "x-jagc-auth-owner";
    private static final Set<String> INPUT_KINDS = Set.of("prompt", "manual_code");
    /** An input is a code or a redirect URL. */
    private static final long MAX_INPUT_BYTES = 64 * 1024;

    @Inject
    EngineSelector engines;

    @GET
    @Path("providers")
    @Produces(MediaType.APPLICATION_JSON)
    public String providers() {
        JsonArrayBuilder providers = Jsons.createArrayBuilder();
        for (ModelProvider p : engines.engine().providers()) {
            JsonObjectBuilder entry = Jsons.createObjectBuilder()
                    .add("provider", p.provider())
                    .add("has_auth", p.hasAuth());
            p.credentialType().ifPresentOrElse(type -> entry.add("credential_type", type),
                    () -> entry.addNull("credential_type"));
            providers.add(entry.add("oauth_supported", false)
                    .add("env_var_hint", p.envVarHint())
                    .add("total_models", p.totalModels())
                    .add("available_models", p.availableModels()));
        }
        return Jsons.createObjectBuilder().add("providers", providers).build().toString();
    }

    @POST
    @Path("providers/{provider}/login")
    public Response start(@PathParam("provider") String provider, @HeaderParam(OWNER) String owner) {
        if (provider.isBlank()) {
            throw new ApiException(400, "invalid_provider", "provider must not be blank");
        }
        if (owner != null) {
            owner(owner);
        }
        throw new ApiException(400, "auth_login_provider_not_found", "OAuth provider " + provider.strip()
                + " is not available");
    }

    @GET
    @Path("logins/{attempt}")
    public Response attempt(@PathParam("attempt") String attempt, @HeaderParam(OWNER) String owner) {
        attemptId(attempt);
        owner(owner);
        throw new ApiException(404, "auth_login_not_found", "OAuth login attempt not found");
    }

    @POST
    @Path("logins/{attempt}/input")
    public Response input(@PathParam("attempt") String attempt, @HeaderParam(OWNER) String owner,
            @Context HttpHeaders headers, InputStream body) {
        attemptId(attempt);
        JsonValue parsed;
        try {
            parsed = JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body,
                    MAX_INPUT_BYTES).value();
        } catch (ApiException e) {
            throw new ApiException(400, "invalid_login_input_payload", e.getMessage());
        }
        if (!(parsed instanceof JsonObject input)) {
            throw new ApiException(400, "invalid_login_input_payload", "the body must be a JSON object");
        }
        if (!(input.get("value") instanceof JsonString)) {
            throw new ApiException(400, "invalid_login_input_payload", "value must be a string");
        }
        if (input.containsKey("kind") && !(input.get("kind") instanceof JsonString kind
                && INPUT_KINDS.contains(kind.getString()))) {
            throw new ApiException(400, "invalid_login_input_payload", "kind must be one of \"prompt\"|\"manual_code\"");
        }
        owner(owner);
        throw notFound(attempt);
    }

    @POST
    @Path("logins/{attempt}/cancel")
    public Response cancel(@PathParam("attempt") String attempt, @HeaderParam(OWNER) String owner) {
        attemptId(attempt);
        owner(owner);
        throw notFound(attempt);
    }

    private static ApiException notFound(String attempt) {
        return new ApiException(404, "auth_login_not_found", "OAuth login attempt " + attempt.strip() + " was not found");
    }

    private static void attemptId(String attempt) {
        if (attempt.isBlank()) {
            throw new ApiException(400, "invalid_login_attempt_id", "attempt_id must not be blank");
        }
    }

    private static void owner(String owner) {
        if (owner == null) {
            throw new ApiException(400, "invalid_auth_owner_key", "missing " + OWNER + " header");
        }
        if (owner.isBlank()) {
            throw new ApiException(400, "invalid_auth_owner_key", OWNER + " must not be blank");
        }
    }
}
