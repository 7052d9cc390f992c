package dev.switchboard.rest.chat;

import dev.switchboard.core.chat.ChatService;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.notify.Subscription;
import dev.switchboard.rest.PushedStream;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code GET /v1/chat/threads/{thread_id}/events}: a chat thread's notifications as server-sent
 * events — the same JSON-RPC notifications {@code /ws} and {@code /rpc/stream} carry (turns
 * starting, text deltas, items, turns ending) — each with its durable log seq as the event id and
 * its method as the event name. {@code Last-Event-ID} (or {@code last_event_id}) resumes after that
 * seq, replaying what was missed (spec decision I12) — or a {@code stream/gap} event where retention
 * pruned part of it; without one, the stream starts now. A comment
 * line keeps the connection alive; a client too slow to keep up gets a {@code stream/overflow} event
 * and the stream ends (it resumes with its last id).
 */
@Path("/v1/chat/threads/{thread_id}/events")
@ApplicationScoped
public class ChatEventsResource {

    static final String EVENT_STREAM = "text/event-stream";

    @Inject
    Caller caller;

    @EJB
    ChatService chat;

    @EJB
    NotificationHub hub;

    @Inject
    NotifySettings settings;

    @GET
    public Response events(@PathParam("thread_id") String threadId, @HeaderParam("Last-Event-ID") String lastEventId,
            @QueryParam("last_event_id") String lastEventIdQuery) {
        String user = caller.user();
        UUID id = Submissions.uuid(threadId).filter(t -> chat.thread(user, t).isPresent())
                .orElseThrow(ChatResource::threadNotFound);
        String resume = lastEventId != null && !lastEventId.isBlank() ? lastEventId.strip() : lastEventIdQuery;
        Long after = resume == null ? null : QueryParams.bounded(resume, 0, 0, Long.MAX_VALUE, "last_event_id");
        StreamingOutput body = out -> pump(user, id.toString(), after, PushedStream.of(out));
        return Response.ok(body, EVENT_STREAM)
                .header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no")
                .build();
    }

    private void pump(String user, String threadKey, Long after, OutputStream out) throws IOException {
        Semaphore ready = new Semaphore(0);
        AtomicLong overflowAt = new AtomicLong(-1);
        Subscription sub = new Subscription(user, Set.of(threadKey), settings.buffer(), new Subscription.Sink() {
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
            hub.subscribe(sub, after);
            write(out, ": subscribed\n\n"); // the stream is live from here on
            out.flush();
            while (true) {
                boolean wrote = false;
                for (Notification n = sub.poll(); n != null; n = sub.poll()) {
                    if (n.seq() < 0) { // stream/gap: part of the replay was pruned; it has no id of its own
                        write(out, "event: " + n.method() + "\ndata: " + n.line() + "\n\n");
                        wrote = true;
                    } else if (threadKey.equals(n.threadKey())) { // not the user's thread-less notices
                        write(out, "id: " + n.seq() + "\nevent: " + n.method() + "\ndata: " + n.line() + "\n\n");
                        wrote = true;
                    }
                }
                if (overflowAt.get() >= 0) {
                    write(out, "event: stream/overflow\ndata: " + Notification.overflowNotice(overflowAt.get()) + "\n\n");
                    out.flush();
                    return;
                }
                if (wrote) {
                    out.flush();
                }
                if (!ready.tryAcquire(settings.keepAliveMs(), TimeUnit.MILLISECONDS) && !sub.isClosed()) {
                    write(out, ": keep-alive\n\n"); // also how a vanished client is noticed
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

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }
}
