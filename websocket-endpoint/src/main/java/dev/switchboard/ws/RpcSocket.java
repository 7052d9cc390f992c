package dev.switchboard.ws;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.Notification;
import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.notify.Subscription;
import dev.switchboard.core.rpc.Params;
import dev.switchboard.core.rpc.RpcEnvelope;
import dev.switchboard.core.rpc.RpcError;
import dev.switchboard.core.rpc.RpcException;
import dev.switchboard.core.rpc.RpcMethods;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.JsonObject;
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
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One WebSocket connection speaking JSON-RPC both ways. Requests are answered in order;
 * notifications of the connection's subscription are interleaved with the answers. Outgoing
 * frames are written by {@link SocketSenders}' threads, one writer per connection at a time; what
 * waits is the subscription's bounded queue, and a client that lets it overflow (or stops reading
 * altogether) is closed with 1013 and told the seq to resume after.
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
    private volatile Subscription subscription;
    private final ConcurrentLinkedQueue<String> answers = new ConcurrentLinkedQueue<>();
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
        JsonObject response;
        try {
            response = switch (request.method()) {
                case "subscribe" -> RpcEnvelope.result(request.id(), subscribe(Params.of(request.params())));
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

    private JsonObject subscribe(Params params) {
        List<String> threads = params.strings("threads");
        long after = params.integer("after_seq", -1);
        if (params.raw("after_seq") != null && after < 0) {
            throw new RpcException(RpcError.invalidField("after_seq", "after_seq must not be negative"));
        }
        Subscription previous = subscription;
        if (previous != null) {
            hub.unsubscribe(previous);
        }
        Subscription next = new Subscription(user, threads == null ? null : new HashSet<>(threads),
                notifySettings.buffer(), new Subscription.Sink() {
                    @Override
                    public void available() {
                        schedulePump(); // the hub's thread never writes to sockets
                    }

                    @Override
                    public void overflow(long lastSentSeq) {
                        closeAfterWrites(new CloseReason(CloseReason.CloseCodes.TRY_AGAIN_LATER,
                                "slow consumer: resume with after_seq=" + lastSentSeq),
                                Notification.overflowNotice(lastSentSeq));
                    }
                });
        subscription = next;
        lastSentSeq = Math.max(after, 0);
        long start = hub.subscribe(next, after < 0 ? null : after);
        if (lastSentSeq < start) {
            lastSentSeq = start; // live from now: nothing before start is owed (racing writes only move it up)
        }
        return Jsons.createObjectBuilder().add("subscribed", true).add("after_seq", start).build();
    }

    private JsonObject unsubscribe() {
        Subscription previous = subscription;
        subscription = null;
        if (previous != null) {
            hub.unsubscribe(previous);
        }
        return Jsons.createObjectBuilder().add("subscribed", false).build();
    }

    private void answer(JsonObject response) {
        answers.add(response.toString());
        schedulePump();
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
            if (pendingClose == null && answers.isEmpty() && !hasQueuedNotification()) {
                return; // else something arrived after the last poll (or a close is due): go again
            }
        }
    }

    /** A frame to write: a response (no seq) or a notification. */
    private record Frame(String text, long seq) {
    }

    private Frame nextFrame() {
        String answer = answers.poll();
        if (answer != null) {
            return new Frame(answer, 0);
        }
        Subscription sub = subscription;
        Notification n = sub == null ? null : sub.poll();
        return n == null ? null : new Frame(n.line(), n.seq());
    }

    /**
     * Closes once the frame being written (if any) is out: a close frame must never be written into
     * the middle of another frame. {@code notice} is sent first, when given.
     */
    private void closeAfterWrites(CloseReason reason, String notice) {
        Subscription sub = subscription;
        subscription = null;
        if (sub != null) {
            hub.unsubscribe(sub);
        }
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

    private boolean hasQueuedNotification() {
        Subscription sub = subscription;
        return sub != null && sub.hasQueued();
    }

    @OnClose
    public void closed(Session session, CloseReason reason) {
        if (senders != null) {
            senders.unregister(this);
        }
        Subscription sub = subscription;
        subscription = null;
        if (sub != null) {
            hub.unsubscribe(sub);
        }
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
        Subscription sub = subscription;
        subscription = null;
        if (sub != null) {
            hub.unsubscribe(sub);
        }
        try {
            if (session.isOpen()) {
                session.close(reason);
            }
        } catch (IOException | IllegalStateException e) {
            LOG.log(Level.FINE, "Closing a WebSocket failed", e);
        }
    }
}
