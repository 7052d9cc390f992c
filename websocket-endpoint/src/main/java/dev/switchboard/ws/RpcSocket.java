package dev.switchboard.ws;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.notify.NotificationStream;
import dev.switchboard.core.rpc.Params;
import dev.switchboard.core.rpc.RpcEnvelope;
import dev.switchboard.core.rpc.RpcError;
import dev.switchboard.core.rpc.RpcException;
import dev.switchboard.core.rpc.RpcMethods;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One WebSocket connection speaking JSON-RPC both ways. Requests are answered in order;
 * notifications of the connection's subscription ({@link NotificationStream}, whose rules every
 * wire shares) are interleaved with the answers. Outgoing frames are written by {@link SocketSenders}'
 * threads, one writer per connection at a time; what waits is the subscription's bounded queue, and
 * a client that lets it overflow (or stops reading altogether) is closed with 1013 and told the seq
 * to resume after. A {@code subscribe} from now is answered once the stream is live, without
 * holding the thread that read it; the answers behind it wait their turn.
 */
@ServerEndpoint(value = "/", configurator = SocketConfigurator.class)
public class RpcSocket {

    private static final Logger LOG = Logger.getLogger(RpcSocket.class.getName());

    // Looked up rather than injected: Liberty does not inject into endpoints that have their own configurator.
    private RpcMethods methods;
    private NotificationHub hub;
    private NotifySettings notifySettings;
    private SocketSenders senders;
    private volatile long writeStartedAt;
    /** The seq of the last notification whose write completed: where a dropped client resumes. */
    private volatile long lastSentSeq;
    private final AtomicBoolean stalledClose = new AtomicBoolean();
    private int maxMessageBytes;
    private volatile CloseReason pendingClose;
    private volatile String closingNotice;

    private Session session;
    private String user;
    private volatile NotificationStream stream;
    /** The answer of the subscribe whose stream is not live yet; null when none waits. */
    private volatile Answer pendingSubscribe;
    private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sending = new AtomicBoolean();

    @OnOpen
    public void open(Session session) {
        this.session = session;
        this.user = (String) session.getUserProperties().get(SocketConfigurator.USER);
        methods = CDI.current().select(RpcMethods.class).get();
        hub = CDI.current().select(NotificationHub.class).get();
        notifySettings = CDI.current().select(NotifySettings.class).get();
        senders = CDI.current().select(SocketSenders.class).get();
        senders.register(this);
        maxMessageBytes = CDI.current().select(SocketSettings.class).get().maxMessageBytes();
        // The container never buffers a message above these sizes (it closes with 1009 as soon as a
        // frame announces more); room above the limit lets a message up to 4x reach message() or
        // binary() and be refused with our own reason.
        session.setMaxTextMessageBufferSize(maxMessageBytes * 4);
        session.setMaxBinaryMessageBufferSize(maxMessageBytes * 4);
        session.setMaxIdleTimeout(0);
        if (user == null) {
            close(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, "unauthorized"));
        }
    }

    @OnMessage
    public void message(String text) {
        if (tooBig(text)) {
            closeAfterWrites(SocketCloses.tooBig(maxMessageBytes), null);
            return;
        }
        RpcEnvelope.Parsed parsed = RpcEnvelope.parse(text);
        if (parsed.error() != null) {
            answer(RpcEnvelope.error(null, parsed.error()));
            return;
        }
        RpcEnvelope.Request request = parsed.request();
        if ("subscribe".equals(request.method())) {
            try {
                subscribe(request, Params.of(request.params()));
            } catch (RpcException e) {
                if (!request.isNotification()) {
                    answer(RpcEnvelope.error(request.id(), e.error()));
                }
            }
            return;
        }
        JsonObject response;
        try {
            response = switch (request.method()) {
                case "unsubscribe" -> RpcEnvelope.result(request.id(), unsubscribe());
                default -> RpcEnvelope.result(request.id(), methods.call(user, request.method(), request.params()));
            };
        } catch (RpcException e) {
            response = RpcEnvelope.error(request.id(), e.error());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "JSON-RPC " + request.method() + " over WebSocket failed", e);
            response = RpcEnvelope.error(request.id(), RpcError.internal("internal error: " + request.method()
                    + " could not be completed; retry later"));
        }
        if (!request.isNotification()) {
            answer(response);
        }
    }

    /** The container may accept frames above the configured size; the limit is enforced here too. */
    private boolean tooBig(String text) {
        return (long) text.length() * 3 > maxMessageBytes
                && text.getBytes(StandardCharsets.UTF_8).length > maxMessageBytes;
    }

    /**
     * Binary messages are not part of the protocol: answered, not dropped; one larger than the
     * text limit closes the connection like an oversized text message.
     */
    @OnMessage
    public void binary(byte[] data) {
        if (data.length > maxMessageBytes) {
            closeAfterWrites(SocketCloses.tooBig(maxMessageBytes), null);
            return;
        }
        answer(RpcEnvelope.error(null, new RpcError(RpcError.PARSE_ERROR, "Parse error: binary frames are not supported", null)));
    }

    /**
     * Follows the user's notifications (of {@code threads}, or all) after {@code after_seq}, or from
     * now: answered {@code {"subscribed":true,"after_seq":<start>}} once the stream is live — at once
     * for a resume point, after the hub's next pass for "from now" (a subscribe replaced or
     * unsubscribed before that is answered {@code {"subscribed":false}}).
     */
    private void subscribe(RpcEnvelope.Request request, Params params) {
        List<String> threads = params.strings("threads");
        long after = params.integer("after_seq", -1);
        if (params.raw("after_seq") != null && after < 0) {
            throw new RpcException(RpcError.invalidField("after_seq", "after_seq must not be negative"));
        }
        closeStream();
        NotificationStream next = new NotificationStream(hub, user, threads == null ? null : new HashSet<>(threads),
                notifySettings.buffer(), this::schedulePump, // the hub's thread never writes to sockets
                last -> closeAfterWrites(new CloseReason(CloseReason.CloseCodes.TRY_AGAIN_LATER,
                        "slow consumer: resume with after_seq=" + last), Notification.overflowNotice(last)));
        Answer answer = request.isNotification() ? null : new Answer(request.id());
        if (answer != null) {
            answers.add(answer);
            pendingSubscribe = answer;
        }
        stream = next;
        lastSentSeq = Math.max(after, 0);
        next.open(after < 0 ? null : after, start -> {
            if (lastSentSeq < start) {
                lastSentSeq = start; // live from now: nothing before start is owed (racing writes only move it up)
            }
            if (answer != null && answer.complete(RpcEnvelope.result(request.id(),
                    Jsons.createObjectBuilder().add("subscribed", true).add("after_seq", start).build()))) {
                schedulePump();
            }
        });
    }

    /** Closes the connection's stream, if any; a subscribe still waiting for it is answered that it did not start. */
    private void closeStream() {
        NotificationStream previous = stream;
        stream = null;
        if (previous != null) {
            previous.close();
        }
        Answer waiting = pendingSubscribe;
        pendingSubscribe = null;
        if (waiting != null && waiting.complete(RpcEnvelope.result(waiting.id(),
                Jsons.createObjectBuilder().add("subscribed", false).build()))) {
            schedulePump();
        }
    }

    private JsonObject unsubscribe() {
        closeStream();
        return Jsons.createObjectBuilder().add("subscribed", false).build();
    }

    private void answer(JsonObject response) {
        Answer ready = new Answer(null);
        ready.complete(response);
        answers.add(ready);
        schedulePump();
    }

    /**
     * A response in its place among the connection's answers: written in order, so one not ready
     * yet (a subscribe going live) holds those behind it. Completed once; a late second try is ignored.
     */
    private static final class Answer {
        private final JsonValue id;
        private final AtomicReference<JsonObject> response = new AtomicReference<>();

        Answer(JsonValue id) {
            this.id = id;
        }

        boolean complete(JsonObject value) {
            return response.compareAndSet(null, value);
        }

        /** The response's text; null while it is not ready. */
        String text() {
            JsonObject value = response.get();
            return value == null ? null : value.toString();
        }

        /** The id of the request it answers (kept only for one that is not ready when queued). */
        JsonValue id() {
            return id;
        }
    }

    /** Makes sure a writer drains this connection's queues (answers first, then notifications). */
    private void schedulePump() {
        if (!sending.get()) {
            senders.execute(this::pump);
        }
    }

    /** Drains the queues with blocking writes; only one thread at a time per connection. */
    private void pump() {
        while (session != null && session.isOpen()) {
            if (!sending.compareAndSet(false, true)) {
                return;
            }
            try {
                CloseReason closing = pendingClose;
                if (closing != null) {
                    finishClosing(closing);
                    return;
                }
                Frame next;
                while (pendingClose == null && (next = nextFrame()) != null) {
                    writeStartedAt = System.currentTimeMillis();
                    session.getBasicRemote().sendText(next.text());
                    writeStartedAt = 0;
                    if (next.seq() > 0) {
                        lastSentSeq = next.seq();
                    }
                }
            } catch (IOException | RuntimeException e) {
                writeStartedAt = 0;
                LOG.log(Level.FINE, "WebSocket write failed; closing", e);
                close(new CloseReason(CloseReason.CloseCodes.CLOSED_ABNORMALLY, "write failed"));
                return;
            } finally {
                sending.set(false);
            }
            if (pendingClose == null && !hasFrame()) {
                return; // else something arrived after the last poll (or a close is due): go again
            }
        }
    }

    /** A frame to write: a response (no seq) or a notification. */
    private record Frame(String text, long seq) {
    }

    private Frame nextFrame() {
        Answer head = answers.peek();
        if (head != null) {
            String text = head.text();
            if (text == null) {
                return null; // a subscribe not live yet: nothing passes it (its stream has nothing either)
            }
            answers.poll();
            return new Frame(text, 0);
        }
        NotificationStream s = stream;
        Notification n = s == null ? null : s.next();
        return n == null ? null : new Frame(n.line(), n.seq());
    }

    /** Whether {@link #nextFrame} has something to write now. */
    private boolean hasFrame() {
        Answer head = answers.peek();
        if (head != null) {
            return head.text() != null;
        }
        NotificationStream s = stream;
        return s != null && s.hasNext();
    }

    /**
     * Closes once the frame being written (if any) is out: a close frame must never be written into
     * the middle of another frame. {@code notice} is sent first, when given.
     */
    private void closeAfterWrites(CloseReason reason, String notice) {
        closeStream();
        closingNotice = notice;
        pendingClose = reason;
        senders.execute(this::pump);
    }

    private void finishClosing(CloseReason reason) throws IOException {
        String notice = closingNotice;
        closingNotice = null;
        if (notice != null) {
            writeStartedAt = System.currentTimeMillis();
            session.getBasicRemote().sendText(notice);
            writeStartedAt = 0;
        }
        close(reason);
    }

    /** True when a write has been blocked longer than {@code timeoutMs} (the client stopped reading). */
    boolean writeStalledSince(long now, long timeoutMs) {
        long started = writeStartedAt;
        return started > 0 && now - started > timeoutMs;
    }

    /** True the first time the watchdog decides to close this stalled connection. */
    boolean markStalledClose() {
        return stalledClose.compareAndSet(false, true);
    }

    /**
     * The watchdog's last resort for a client that stopped reading: the connection is dropped. The
     * resume point is the last notification whose write completed — not the one stuck in the write,
     * which the client never received.
     */
    void closeStalled() {
        close(new CloseReason(CloseReason.CloseCodes.TRY_AGAIN_LATER, "slow consumer: resume with after_seq="
                + lastSentSeq));
    }

    @OnClose
    public void closed(Session session, CloseReason reason) {
        if (senders != null) {
            senders.unregister(this);
        }
        closeStream();
    }

    /**
     * A frame the container refused (too big, not UTF-8, not the protocol) reaches here before the
     * container closes the connection with its own reason, which names its message id and our
     * classes: the connection is closed first, with a short generic reason and the RFC 6455 code.
     */
    @OnError
    public void error(Session session, Throwable error) {
        LOG.log(Level.FINE, "WebSocket error", error);
        if (session != null && session.isOpen()) {
            close(SocketCloses.forError(error));
        }
    }

    private void close(CloseReason reason) {
        senders.unregister(this);
        closeStream();
        try {
            if (session.isOpen()) {
                session.close(reason);
            }
        } catch (IOException | IllegalStateException e) {
            LOG.log(Level.FINE, "Closing a WebSocket failed", e);
        }
    }
}
