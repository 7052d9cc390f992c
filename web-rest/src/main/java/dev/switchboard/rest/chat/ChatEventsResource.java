package dev.switchboard.rest.chat;

import dev.switchboard.core.chat.ChatService;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.rest.QueryParams;
import dev.switchboard.rest.auth.Caller;
import dev.switchboard.rest.streams.NotificationFeed;
import dev.switchboard.rest.streams.OpenStreams;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;

/**
 * {@code GET /v1/chat/threads/{thread_id}/events}: a chat thread's notifications as server-sent
 * events — the same JSON-RPC notifications {@code /ws} and {@code /rpc/stream} carry (turns
 * starting, text deltas, items, turns ending) — each with its durable log seq as the event id and
 * its method as the event name. {@code Last-Event-ID} (or {@code last_event_id}) resumes after that
 * seq, replaying what was missed (spec decision I12) — or a {@code stream/gap} event where retention
 * pruned part of it; without one, the stream starts now. A comment
 * line keeps the connection alive; a client too slow to keep up gets a {@code stream/overflow} event
 * and the stream ends (it resumes with its last id). An open stream holds no thread ({@link OpenStreams}).
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

    @Inject
    OpenStreams streams;

    @GET
    public void events(@PathParam("thread_id") String threadId, @HeaderParam("Last-Event-ID") String lastEventId,
            @QueryParam("last_event_id") String lastEventIdQuery, @Context HttpServletRequest request,
            @Context HttpServletResponse response, @Suspended AsyncResponse answer) {
        String user = caller.user();
        UUID id = Submissions.uuid(threadId).filter(t -> chat.thread(user, t).isPresent())
                .orElseThrow(ChatResource::threadNotFound);
        String resume = lastEventId != null && !lastEventId.isBlank() ? lastEventId.strip() : lastEventIdQuery;
        Long after = resume == null ? null : QueryParams.bounded(resume, 0, 0, Long.MAX_VALUE, "last_event_id");
        streams.open(request, response, EVENT_STREAM, new NotificationFeed(hub, user, Set.of(id.toString()),
                settings.buffer(), after, new Events(id.toString())));
    }

    /** Server-sent events: the seq as the id, the method as the event name, a comment as keep-alive. */
    private record Events(String threadKey) implements NotificationFeed.Frames {

        @Override
        public byte[] greeting() {
            return bytes(": subscribed\n\n"); // the stream is live from here on
        }

        @Override
        public byte[] notification(Notification n) {
            if (n.seq() < 0) { // stream/gap: part of the replay was pruned; it has no id of its own
                return bytes("event: " + n.method() + "\ndata: " + n.line() + "\n\n");
            }
            if (!threadKey.equals(n.threadKey())) { // not the user's thread-less notices
                return null;
            }
            return bytes("id: " + n.seq() + "\nevent: " + n.method() + "\ndata: " + n.line() + "\n\n");
        }

        @Override
        public byte[] overflow(long lastSentSeq) {
            return bytes("event: stream/overflow\ndata: " + Notification.overflowNotice(lastSentSeq) + "\n\n");
        }

        @Override
        public byte[] keepAlive() {
            return bytes(": keep-alive\n\n");
        }

        private static byte[] bytes(String frame) {
            return frame.getBytes(StandardCharsets.UTF_8);
        }
    }
}
