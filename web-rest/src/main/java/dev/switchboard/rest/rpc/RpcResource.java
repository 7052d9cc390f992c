package dev.switchboard.rest.rpc;

import dev.switchboard.core.input.InvalidJsonException;
import dev.switchboard.core.input.StrictJson;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.rpc.RpcEnvelope;
import dev.switchboard.core.rpc.RpcError;
import dev.switchboard.core.rpc.RpcException;
import dev.switchboard.core.rpc.RpcMethods;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.Undocumented;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** {@code POST /rpc}: one JSON-RPC 2.0 request per POST, with Holon's status and error table. */
@Path("rpc")
@ApplicationScoped
public class RpcResource {

    private static final Logger LOG = Logger.getLogger(RpcResource.class.getName());

    @Inject
    Caller caller;

    @Inject
    RpcMethods methods;

    @Inject
    @ConfigProperty(name = "switchboard.rpc.max-body-bytes", defaultValue = "10485760")
    long maxBodyBytes;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response call(InputStream body) {
        String text;
        try {
            text = StrictJson.utf8(JsonBody.readLimited(body, maxBodyBytes));
        } catch (ApiException e) {
            return json(400, RpcEnvelope.error(null, new RpcError(RpcError.PARSE_ERROR, "failed to read request body", null)));
        } catch (InvalidJsonException e) {
            return json(400, RpcEnvelope.error(null, new RpcError(RpcError.PARSE_ERROR, "Parse error",
                    Jsons.createObjectBuilder().add("reason", e.getMessage()).build())));
        }
        RpcEnvelope.Parsed parsed = RpcEnvelope.parse(text);
        if (parsed.error() != null) {
            return json(400, RpcEnvelope.error(null, parsed.error()));
        }
        JsonObject answer = answer(caller.user(), methods, parsed.request());
        return parsed.request().isNotification() ? Response.noContent().build() : json(200, answer);
    }

    /** Executes a parsed request and builds its response (also for notifications, whose answer is dropped). */
    static JsonObject answer(String user, RpcMethods methods, RpcEnvelope.Request request) {
        try {
            return RpcEnvelope.result(request.id(), methods.call(user, request.method(), request.params()));
        } catch (RpcException e) {
            return RpcEnvelope.error(request.id(), e.error());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "JSON-RPC " + request.method() + " failed", e);
            return RpcEnvelope.error(request.id(), RpcError.internal("internal error: " + request.method()
                    + " could not be completed; retry later"));
        }
    }

    @Undocumented // only refuses: not an operation of the API
    @GET
    public Response get() {
        return notAllowed();
    }

    @Undocumented // only refuses: not an operation of the API
    @PUT
    public Response put() {
        return notAllowed();
    }

    @Undocumented // only refuses: not an operation of the API
    @DELETE
    public Response delete() {
        return notAllowed();
    }

    @Undocumented // only refuses: not an operation of the API
    @PATCH
    public Response patch() {
        return notAllowed();
    }

    /** Holon's 405 for a wrong method, in the error envelope (Holon writes the message as plain text). */
    static Response notAllowed() {
        return ErrorBody.response(405, "method_not_allowed", "method not allowed");
    }

    private static Response json(int status, JsonObject body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body.toString()).build();
    }
}
