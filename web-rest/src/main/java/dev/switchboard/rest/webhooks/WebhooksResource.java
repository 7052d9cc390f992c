package dev.switchboard.rest.webhooks;

import dev.switchboard.core.webhook.Webhooks;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code /v1/webhooks}: the caller's endpoints (create, list, read, change, delete, rotate the
 * secret), each one's messages and delivery log, and the replay of a message. The rules and the
 * answers' shapes are {@link Webhooks}'; refusals are {@code WebhookException}s, answered in the
 * error envelope with their status and code.
 */
@Path("v1/webhooks")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class WebhooksResource {

    @EJB
    Webhooks webhooks;

    @Inject
    Caller caller;

    @Inject
    @ConfigProperty(name = "switchboard.http.max-body-bytes", defaultValue = "1048576")
    long maxBodyBytes;

    @POST
    public Response create(@Context HttpHeaders headers, InputStream body) {
        JsonObject created = webhooks.create(caller.user(), object(headers, body), Set.of());
        return Response.status(201).entity(created.toString()).type(MediaType.APPLICATION_JSON).build();
    }

    @GET
    public String list() {
        return webhooks.list(caller.user()).toString();
    }

    @GET
    @Path("{id}")
    public String read(@PathParam("id") String id) {
        return webhooks.read(caller.user(), id).toString();
    }

    @PATCH
    @Path("{id}")
    public String update(@PathParam("id") String id, @Context HttpHeaders headers, InputStream body) {
        return webhooks.update(caller.user(), id, object(headers, body), Set.of()).toString();
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id) {
        webhooks.delete(caller.user(), id);
        return Response.noContent().build();
    }

    /** {@code {"grace_seconds": n}} (optional; an empty body takes the default of a day). */
    @POST
    @Path("{id}/rotate")
    public String rotate(@PathParam("id") String id, @Context HttpHeaders headers, InputStream body) {
        JsonBody.Parsed parsed = JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body,
                maxBodyBytes);
        JsonObject request = parsed.value() == null ? JsonValue.EMPTY_JSON_OBJECT : asObject(parsed.value());
        return webhooks.rotate(caller.user(), id, request, Set.of()).toString();
    }

    @GET
    @Path("{id}/messages")
    public String messages(@PathParam("id") String id, @QueryParam("cursor") String cursor,
            @QueryParam("limit") String limit) {
        return webhooks.messages(caller.user(), id, cursor, limit(limit)).toString();
    }

    @GET
    @Path("{id}/attempts")
    public String attempts(@PathParam("id") String id, @QueryParam("message_id") String messageId,
            @QueryParam("cursor") String cursor, @QueryParam("limit") String limit) {
        return webhooks.attempts(caller.user(), id, messageId, cursor, limit(limit)).toString();
    }

    @POST
    @Path("{id}/messages/{message_id}/replay")
    public Response replay(@PathParam("id") String id, @PathParam("message_id") String messageId) {
        return Response.accepted(webhooks.replay(caller.user(), id, messageId).toString())
                .type(MediaType.APPLICATION_JSON).build();
    }

    private static Integer limit(String limit) {
        return limit == null ? null : (int) QueryParams.bounded(limit, 50, 1, 200, "limit");
    }

    private JsonObject object(HttpHeaders headers, InputStream body) {
        JsonBody.Parsed parsed = JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body,
                maxBodyBytes);
        if (parsed.value() == null) {
            throw new ApiException(400, "invalid_body", "body must be a JSON object");
        }
        return asObject(parsed.value());
    }

    private static JsonObject asObject(JsonValue value) {
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new ApiException(400, "invalid_body", "body must be a JSON object");
        }
        return value.asJsonObject();
    }
}
