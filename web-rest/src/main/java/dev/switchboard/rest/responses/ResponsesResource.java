package dev.switchboard.rest.responses;

import dev.switchboard.core.input.ServerBusy;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.responses.InputItems;
import dev.switchboard.core.responses.ResponseError;
import dev.switchboard.core.responses.ResponseRequest;
import dev.switchboard.core.responses.ResponseService;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.streams.OpenStreams;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Open Responses ({@code ../shared/specs/open-responses.md}): {@code POST /v1/responses} and its
 * alias {@code POST /responses} run the request as a durable run and answer the response object —
 * or, with {@code stream: true}, its events as server-sent events ({@link ResponseEvents});
 * {@code GET /v1/responses/{id}} reads a stored response (or follows its events),
 * {@code GET /v1/responses/{id}/input_items} lists what it was made from,
 * {@code POST /v1/responses/{id}/cancel} cancels one, {@code DELETE /v1/responses/{id}} deletes one
 * (OpenAI's, which the official SDKs call). Every route is also under {@code /responses}
 * ({@link ResponsesAliasResource}). A client that goes away does not cancel its response. Errors are the
 * specification's body, {@code {"error":{"message","type","param","code"}}}; a {@link ResponseError} thrown
 * here, before or after the request is suspended, is answered by {@link ResponseErrorMapper}.
 */
@Path("/v1/responses")
@ApplicationScoped
public class ResponsesResource {

    private static final Logger LOG = Logger.getLogger(ResponsesResource.class.getName());

    @Inject
    ResponseService responses;

    @Inject
    Caller caller;

    @Inject
    ResponseStreams streams;

    @Inject
    ResponsesSettings settings;

    @Inject
    OpenStreams openStreams;

    @POST
    public void create(@Context HttpHeaders headers, InputStream body, @Context HttpServletRequest request,
            @Context HttpServletResponse response, @Suspended AsyncResponse answer) {
        createResponse(headers, body, request, response, answer);
    }

    /**
     * The response as it stands; with {@code stream=true}, its events — a finished response's
     * replayed from its stored result, a running one's followed to its end — after
     * {@code starting_after} (a {@code sequence_number}) when given.
     */
    @GET
    @Path("{id}")
    public void read(@PathParam("id") String id, @QueryParam("stream") String stream,
            @QueryParam("starting_after") String startingAfter, @Context HttpServletRequest request,
            @Context HttpServletResponse response, @Suspended AsyncResponse answer) {
        boolean streaming = "true".equals(stream);
        if (stream != null && !streaming && !"false".equals(stream)) {
            answer.resume(error(new ResponseError(400, "invalid_request", "invalid_value", "stream",
                    "stream must be true or false")));
            return;
        }
        long after;
        try {
            after = startingAfter == null ? -1 : Long.parseLong(startingAfter.strip());
            if (after < -1) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            answer.resume(error(new ResponseError(400, "invalid_request", "invalid_value", "starting_after",
                    "starting_after must be a sequence number (a whole number from 0)")));
            return;
        }
        Optional<ResponseService.Response> found = responses.find(caller.user(), id);
        if (found.isEmpty()) {
            answer.resume(notFound(id));
            return;
        }
        if (!streaming) {
            answer.resume(json(200, found.get().object()));
            return;
        }
        openStream(found.get(), after, request, response, answer);
    }

    /** Answers with {@code started}'s events as server-sent events; a full instance refuses at once (503). */
    private void openStream(ResponseService.Response started, long after, HttpServletRequest request,
            HttpServletResponse response, AsyncResponse answer) {
        try {
            openStreams.open(request, response, "text/event-stream", streams.events(started, after).sse());
        } catch (ServerBusy e) {
            answer.resume(busy(e));
        }
    }

    /** OpenAI's {@code GET /v1/responses/{id}/input_items}: a page of the items the response was made from. */
    @GET
    @Path("{id}/input_items")
    public Response inputItems(@PathParam("id") String id, @QueryParam("after") String after,
            @QueryParam("before") String before, @QueryParam("limit") String limit, @QueryParam("order") String order) {
        return responses.inputItems(caller.user(), id, new InputItems.Query(after, before, limit, order))
                .map(page -> json(200, page)).orElseGet(() -> notFound(id));
    }

    @POST
    @Path("{id}/cancel")
    public Response cancel(@PathParam("id") String id) {
        return responses.cancel(caller.user(), id).map(r -> json(200, r.object())).orElseGet(() -> notFound(id));
    }

    /** OpenAI's answer, {@code {"id","object":"response","deleted":true}}; 404 for an id the caller has no response of. */
    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id) {
        if (!responses.delete(caller.user(), id)) {
            return notFound(id);
        }
        return json(200, Jsons.createObjectBuilder().add("id", id).add("object", "response").add("deleted", true).build());
    }

    /**
     * {@code POST /v1/responses/compact} (spec §10): the conversation of {@code previous_response_id}
     * and {@code input} summarised by the engine into one {@code compaction} item, to start a new
     * chain with.
     */
    @POST
    @Path("compact")
    public void compact(@Context HttpHeaders headers, InputStream body, @Context HttpServletRequest request,
            @Suspended AsyncResponse answer) {
        ResponseService.Response started = responses.compact(caller.user(),
                ResponseRequest.parseCompaction(body(headers, body)));
        whenEnded(started, request, answer, ended -> json(200, responses.compaction(ended)));
    }

    /**
     * Answers the suspended request with {@code reply} of the response once its run ended (or as it
     * stands when the run timeout passed first). The request holds no thread meanwhile: the run's
     * end wakes it ({@link ResponseService#awaitEnd}), on the threads that wake waiting clients, and
     * the answer is written by the streams' writers the moment it is ready ({@link OpenStreams#answer}),
     * not queued behind a burst on the container's pool.
     */
    private void whenEnded(ResponseService.Response started, HttpServletRequest request, AsyncResponse answer,
            Function<ResponseService.Response, Response> reply) {
        CompletionStage<ResponseService.Response> end;
        try {
            end = responses.awaitEnd(started, settings.runTimeoutMs());
        } catch (ServerBusy e) {
            answer.resume(busy(e));
            return;
        }
        AsyncContext context = openStreams.suspended(request);
        end.whenComplete((ended, failure) -> openStreams.answer(context, answerOf(started, ended, failure, reply)));
    }

    private static Response answerOf(ResponseService.Response started, ResponseService.Response ended, Throwable failure,
            Function<ResponseService.Response, Response> reply) {
        if (failure != null) {
            LOG.log(Level.WARNING, "Waiting for response " + started.record().responseId() + " failed", failure);
            return error(new ResponseError(500, "server_error", "internal_error", "", "waiting for the response failed"));
        }
        try {
            return reply.apply(ended);
        } catch (ResponseError e) {
            return error(e);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Answering response " + started.record().responseId() + " failed", e);
            return error(new ResponseError(500, "server_error", "internal_error", "", "answering the response failed"));
        }
    }

    private ResponseRequest request(HttpHeaders headers, InputStream body) {
        return ResponseRequest.parse(body(headers, body));
    }

    /** The request's JSON body, refused in the specification's terms when it is not one. */
    private JsonValue body(HttpHeaders headers, InputStream body) {
        try {
            return JsonBody.read(JsonBody.mediaType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)), body,
                    settings.maxBodyBytes()).value();
        } catch (ApiException e) {
            throw refused(e);
        }
    }

    /** A body (or WebSocket message) refused before it is read as a request, in the specification's terms. */
    static ResponseError refused(ApiException e) {
        String code = switch (e.code()) {
            case "empty_json_body", "invalid_json_body" -> "invalid_json";
            case "invalid_text" -> "invalid_value";
            default -> e.code(); // payload_too_large, unsupported_media_type
        };
        return new ResponseError(e.status(), "invalid_request", code, "", e.getMessage());
    }

    private void createResponse(HttpHeaders headers, InputStream body, HttpServletRequest httpRequest,
            HttpServletResponse httpResponse, AsyncResponse answer) {
        ResponseRequest request = request(headers, body);
        String user = caller.user();
        ResponseService.Response created = responses.create(user, request);
        if (request.stream()) {
            openStream(created, -1, httpRequest, httpResponse, answer);
        } else if (request.background()) {
            answer.resume(json(200, created.object()));
        } else {
            whenEnded(created, httpRequest, answer, ended -> {
                responses.answered(ended);
                JsonObject object = ended.object();
                if ("failed".equals(object.getString("status"))) {
                    return error(new ResponseError(500, "model_error", "model_error", "",
                            object.getJsonObject("error").getString("message")));
                }
                return json(200, object);
            });
        }
    }

    private static Response notFound(String id) {
        return error(new ResponseError(404, "not_found", "response_not_found", "", "No response found with id '" + id + "'."));
    }

    static Response json(int status, JsonObject body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body.toString()).build();
    }

    /** The specification's error body; every member a string (O3). */
    static JsonObject errorBody(ResponseError e) {
        return Jsons.createObjectBuilder().add("error", e.toJson()).build();
    }

    static Response error(ResponseError e) {
        return json(e.status(), errorBody(e));
    }

    /** A full pool or queue, in the specification's terms, with when to retry. */
    static Response busy(ServerBusy e) {
        return Response.fromResponse(error(new ResponseError(503, "server_error", "server_busy", "", e.getMessage())))
                .header("Retry-After", e.retryAfterSeconds()).build();
    }
}
