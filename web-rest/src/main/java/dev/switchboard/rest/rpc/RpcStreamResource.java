package dev.switchboard.rest.rpc;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.runtime.RuntimeService;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.Undocumented;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import dev.switchboard.rest.streams.NotificationFeed;
import dev.switchboard.rest.streams.OpenStreams;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * {@code GET /rpc/stream}: the notification stream as NDJSON (holon-serve spec §6), with
 * Switchboard's {@code after_seq} replay and {@code thread_id} filter. One line per notification,
 * a bare newline as keep-alive; a subscriber too slow to keep up gets a {@code stream/overflow}
 * line and the stream ends (it resumes with {@code after_seq}). An open stream holds no thread
 * ({@link OpenStreams}).
 */
@Path("rpc/stream")
@ApplicationScoped
public class RpcStreamResource {

    static final String NDJSON = "application/x-ndjson";

    @Inject
    Caller caller;

    @EJB
    NotificationHub hub;

    @EJB
    RuntimeService runtime;

    @Inject
    NotifySettings settings;

    @Inject
    OpenStreams streams;

    @GET
    public void stream(@HeaderParam("Accept") String accept, @QueryParam("after_seq") String afterSeq,
            @Context UriInfo uri, @Context HttpServletRequest request, @Context HttpServletResponse response,
            @Suspended AsyncResponse answer) {
        if (!acceptsNdjson(accept)) {
            answer.resume(ErrorBody.response(400, "invalid_accept", "accept header must be application/x-ndjson"));
            return;
        }
        List<String> threadIds = threadFilter(uri.getRequestUri().getRawQuery());
        Long after = afterSeq == null ? null : QueryParams.bounded(afterSeq, 0, 0, Long.MAX_VALUE, "after_seq");
        String user = caller.user();
        String session = runtime.status(user).sessionId();
        streams.open(request, response, NDJSON, new NotificationFeed(hub, user,
                threadIds == null ? null : new HashSet<>(threadIds), settings.buffer(), after, new Lines(session)));
    }

    /** NDJSON: one line per notification, a bare newline as keep-alive. */
    private record Lines(String session) implements NotificationFeed.Frames {

        @Override
        public byte[] greeting() {
            return session.isEmpty() ? null : line(Jsons.createObjectBuilder().add("jsonrpc", "2.0")
                    .add("method", "thread/started")
                    .add("params", Lifecycle.thread("started", "running", session, Instant.now())).build().toString());
        }

        @Override
        public byte[] notification(Notification n) {
            return line(n.line());
        }

        @Override
        public byte[] overflow(long lastSentSeq) {
            return line(Notification.overflowNotice(lastSentSeq));
        }

        @Override
        public byte[] keepAlive() {
            return new byte[] {'\n'};
        }

        private static byte[] line(String json) {
            return (json + "\n").getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * The {@code thread_id} filter, null for none. Each value is a thread key: one that is blank,
     * not UTF-8 or not storable is refused (400), never read as no filter at all.
     */
    static List<String> threadFilter(String rawQuery) {
        List<String> values = QueryParams.values(rawQuery, "thread_id");
        if (values.isEmpty()) {
            return null;
        }
        for (String value : values) {
            if (value.isBlank()) {
                throw new ApiException(400, "invalid_thread_id", "thread_id must not be empty");
            }
            JsonBody.storable(value, "thread_id");
        }
        return values;
    }

    /** Holon's Accept rule: a listed {@code application/x-ndjson} (parameters allowed) or {@code *}{@code /*}. */
    static boolean acceptsNdjson(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        for (String range : accept.split(",")) {
            String type = range.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
            if (type.equals(NDJSON) || type.equals("*/*")) {
                return true;
            }
        }
        return false;
    }

    @Undocumented // only refuses: not an operation of the API
    @POST
    public Response post() {
        return RpcResource.notAllowed();
    }

    @Undocumented // only refuses: not an operation of the API
    @PUT
    public Response put() {
        return RpcResource.notAllowed();
    }

    @Undocumented // only refuses: not an operation of the API
    @DELETE
    public Response delete() {
        return RpcResource.notAllowed();
    }
}
