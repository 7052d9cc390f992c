package dev.switchboard.rest.rpc;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.notify.Subscription;
import dev.switchboard.core.runtime.RuntimeService;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.PushedStream;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.errors.ApiException;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * {@code GET /rpc/stream}: the notification stream as NDJSON (holon-serve spec §6), with
 * Switchboard's {@code after_seq} replay and {@code thread_id} filter. One line per notification,
 * a bare newline as keep-alive; a subscriber too slow to keep up gets a {@code stream/overflow}
 * line and the stream ends (it resumes with {@code after_seq}).
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

    @GET
    public Response stream(@HeaderParam("Accept") String accept, @QueryParam("after_seq") String afterSeq,
            @Context UriInfo uri) {
        if (!acceptsNdjson(accept)) {
            return ErrorBody.response(400, "invalid_accept", "accept header must be application/x-ndjson");
        }
        List<String> threadIds = threadFilter(uri.getRequestUri().getRawQuery());
        Long after = afterSeq == null ? null : QueryParams.bounded(afterSeq, 0, 0, Long.MAX_VALUE, "after_seq");
        String user = caller.user();
        String session = runtime.status(user).sessionId();
        StreamingOutput body = out -> pump(user, session, after, threadIds, PushedStream.of(out));
        return Response.ok(body, NDJSON)
                .header("Cache-Control", "no-cache")
                .header("Connection", "keep-alive")
                .build();
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

    private void pump(String user, String session, Long after, List<String> threadIds, OutputStream out)
            throws IOException {
        Semaphore ready = new Semaphore(0);
        AtomicLong overflowAt = new AtomicLong(-1);
        Subscription sub = new Subscription(user, threadIds == null ? null : new HashSet<>(threadIds),
                settings.buffer(), new Subscription.Sink() {
                    @Override
                    public void available() {
                        ready.release();
                    }

                    @Override
                    public void overflow(long lastSentSeq) {
                        overflowAt.set(lastSentSeq);
                        ready.release();
                    }
                });
        try {
            // Subscribed before the greeting goes out: a client that has read the greeting misses nothing after it.
            hub.subscribe(sub, after);
            if (!session.isEmpty()) {
                write(out, Jsons.createObjectBuilder().add("jsonrpc", "2.0").add("method", "thread/started")
                        .add("params", Lifecycle.thread("started", "running", session, Instant.now())).build().toString());
            }
            out.flush();
            while (true) {
                boolean wrote = false;
                for (Notification n = sub.poll(); n != null; n = sub.poll()) {
                    write(out, n.line());
                    wrote = true;
                }
                if (overflowAt.get() >= 0) {
                    write(out, Notification.overflowNotice(overflowAt.get()));
                    out.flush();
                    return;
                }
                if (wrote) {
                    out.flush();
                }
                if (!ready.tryAcquire(settings.keepAliveMs(), TimeUnit.MILLISECONDS) && !sub.isClosed()) {
                    out.write('\n'); // keep-alive; also how a vanished client is noticed
                    out.flush();
                }
                if (sub.isClosed() && overflowAt.get() < 0) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            hub.unsubscribe(sub);
        }
    }

    private static void write(OutputStream out, String line) throws IOException {
        out.write(line.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
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

    @Operation(hidden = true) // only refuses: not an operation of the API
    @POST
    public Response post() {
        return RpcResource.notAllowed();
    }

    @Operation(hidden = true) // only refuses: not an operation of the API
    @PUT
    public Response put() {
        return RpcResource.notAllowed();
    }

    @Operation(hidden = true) // only refuses: not an operation of the API
    @DELETE
    public Response delete() {
        return RpcResource.notAllowed();
    }
}
