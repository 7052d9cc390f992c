package dev.switchboard.rest.responses;

import dev.switchboard.core.input.ServerBusy;
import dev.switchboard.core.input.SocketClose;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.responses.ContinuationCache;
import dev.switchboard.core.responses.ResponseError;
import dev.switchboard.core.responses.ResponseRequest;
import dev.switchboard.core.responses.ResponseService;
import dev.switchboard.core.responses.ResponseService.Continuation;
import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.errors.ApiException;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The WebSocket transport of {@code /v1/responses} and {@code /responses} (spec §9; registered at
 * both by {@link ResponsesSocketPaths}). The client sends
 * {@code {"type":"response.create", …the create body}}; the server answers with the same events as
 * the SSE stream, one JSON object per message. Responses run one at a time per connection, in the
 * order sent (further requests wait, up to {@code switchboard.responses.websocket-queue}). The
 * connection remembers its last responses ({@link ContinuationCache}), so one made with
 * {@code store: false} can be continued on it; a continuation that fails evicts the response it
 * continued. Errors are {@code {"type":"error","status",error:{type,code,message,param}}}. After
 * {@code switchboard.responses.websocket-lifetime-ms} (60 minutes) the connection ends with
 * {@code websocket_connection_limit_reached} once its response in flight is done.
 */
public class ResponsesSocket extends Endpoint {

    private static final Logger LOG = Logger.getLogger(ResponsesSocket.class.getName());

    /** How many of its responses a connection can continue from memory. */
    static final int REMEMBERED = 16;

    /** The most the container buffers of a message before handing a part over. */
    private static final int PART_BYTES = 64 * 1024;

    private final ContinuationCache cache = new ContinuationCache(REMEMBERED);
    private final ConcurrentLinkedQueue<String> requests = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final Object sending = new Object();
    /** The text message being read, part by part; only the container's thread for this session touches it. */
    private final StringBuilder parts = new StringBuilder();
    private long partBytes;
    private boolean tooBig;
    private Session session;
    private String user;
    private ResponseStreams support;
    private Future<?> lifetime;
    private volatile boolean expired;
    private volatile boolean closed;

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        this.session = session;
        this.user = (String) session.getUserProperties().get(ResponsesSocketConfigurator.USER);
        support = CDI.current().select(ResponseStreams.class).get();
        if (user == null) {
            close(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, "unauthorized"));
            return;
        }
        // Messages arrive in parts (message(String, boolean)): the container never has to hold or
        // refuse a large one itself, and one above the limit is closed with our own reason.
        session.setMaxTextMessageBufferSize(PART_BYTES);
        session.setMaxBinaryMessageBufferSize(PART_BYTES);
        session.addMessageHandler(String.class, (MessageHandler.Partial<String>) this::message);
        session.addMessageHandler(ByteBuffer.class, (MessageHandler.Partial<ByteBuffer>) this::binary);
        session.setMaxIdleTimeout(0);
        lifetime = support.scheduler().schedule(() -> {
            expired = true;
            drainLater();
        }, support.settings().socketLifetimeMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * A part of a text message; the whole message once its last part is in. One above the body
     * limit closes the connection with 1009 and our reason; the parts already read are dropped.
     */
    private void message(String part, boolean last) {
        if (tooBig) {
            return;
        }
        partBytes += part.getBytes(StandardCharsets.UTF_8).length; // a part is at most PART_BYTES
        if (partBytes > support.settings().maxBodyBytes()) {
            tooBig = true;
            parts.setLength(0);
            close(reason(SocketClose.tooBig(support.settings().maxBodyBytes())));
            return;
        }
        parts.append(part);
        if (last) {
            String text = parts.toString();
            parts.setLength(0);
            partBytes = 0;
            request(text);
        }
    }

    /** Binary messages are not part of the protocol: answered with an error once whole, never buffered. */
    private void binary(ByteBuffer part, boolean last) {
        if (last) {
            sendError(new ResponseError(400, "invalid_request", "invalid_json", "",
                    "binary messages are not supported: send each request as a JSON text message"));
        }
    }

    private void request(String text) {
        if (waiting.incrementAndGet() > support.settings().socketQueue() + 1) {
            waiting.decrementAndGet();
            sendError(new ResponseError(429, "too_many_requests", "rate_limit_exceeded", "",
                    "more than " + support.settings().socketQueue() + " requests are waiting on this connection"));
            return;
        }
        requests.add(text);
        drainLater();
    }

    @Override
    public void onClose(Session closing, CloseReason reason) {
        closed = true;
        if (lifetime != null) {
            lifetime.cancel(false);
        }
    }

    /** What the container could not read (bad UTF-8, a broken frame): closed with our code and reason, never its own. */
    @Override
    public void onError(Session failing, Throwable error) {
        LOG.log(Level.FINE, () -> "A responses WebSocket failed: " + error);
        if (session != null && session.isOpen()) {
            close(reason(SocketClose.forError(error)));
        }
    }

    private static CloseReason reason(SocketClose close) {
        return new CloseReason(CloseReason.CloseCodes.getCloseCode(close.code()), close.reason());
    }

    private void drainLater() {
        if (draining.compareAndSet(false, true)) {
            try {
                support.executor().execute(this::drain);
            } catch (RejectedExecutionException full) {
                draining.set(false);
                refuseWaiting();
            }
        }
    }

    /** Every response thread is busy: what waits on this connection is refused at once, not held. */
    private void refuseWaiting() {
        for (String text = requests.poll(); text != null; text = requests.poll()) {
            waiting.decrementAndGet();
            sendError(new ResponseError(503, "server_error", "server_busy", "",
                    "every response thread of this server is busy; retry in a moment"));
        }
    }

    /** Runs the waiting requests one after another on one managed thread. */
    private void drain() {
        try {
            while (!closed) {
                if (expired) {
                    sendError(new ResponseError(400, "invalid_request", "websocket_connection_limit_reached", "",
                            "this connection reached its time limit of " + support.settings().socketLifetimeMs()
                                    + " ms; open a new one"));
                    close(new CloseReason(CloseReason.CloseCodes.NORMAL_CLOSURE, "connection limit reached"));
                    return;
                }
                String text = requests.poll();
                if (text == null) {
                    break;
                }
                waiting.decrementAndGet();
                respond(text);
            }
        } finally {
            draining.set(false);
        }
        if (!closed && (expired || !requests.isEmpty())) {
            drainLater(); // arrived between the last poll and letting go
        }
    }

    /** One request, answered whatever happens: a failure is the documented error event, and the next request follows. */
    private void respond(String text) {
        Optional<String> previous = Optional.empty();
        try {
            JsonValue message = parse(text);
            if (message instanceof JsonObject body && body.get("previous_response_id") instanceof JsonString id) {
                previous = Optional.of(id.getString()); // evicted even when the rest of the request is invalid
            }
            ResponseRequest request = ResponseRequest.fromSocketMessage(message);
            Optional<Continuation> remembered = request.previousResponseId().flatMap(cache::find);
            ResponseService.Response created = remembered.isPresent()
                    ? support.responses().create(user, request, remembered)
                    : support.responses().create(user, request);
            // No keep-alives (the connection has no idle timeout) and no [DONE]: the connection stays for the next.
            cache.ended(previous, support.socketEvents(created).write(event -> send(event.toString())));
        } catch (ResponseError e) {
            cache.failed(previous);
            sendError(e);
        } catch (ServerBusy e) {
            cache.failed(previous);
            sendError(new ResponseError(503, "server_error", "server_busy", "", e.getMessage()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A /v1/responses WebSocket request failed", e);
            cache.failed(previous);
            sendError(new ResponseError(500, "server_error", "internal_error", "",
                    "the request could not be completed; retry later"));
        }
    }

    /** The same validation as the HTTP body's: strict JSON, storable strings, nothing after the value. */
    private static JsonValue parse(String text) {
        try {
            return JsonBody.json(text);
        } catch (ApiException e) {
            throw ResponsesResource.refused(e);
        }
    }

    private void sendError(ResponseError e) {
        try {
            send(Jsons.createObjectBuilder().add("type", "error").add("status", e.status())
                    .add("error", e.toJson())
                    .build().toString());
        } catch (IOException gone) {
            LOG.log(Level.FINE, () -> "A /v1/responses WebSocket went away before its error: " + e.getMessage());
        }
    }

    private void send(String text) throws IOException {
        synchronized (sending) {
            session.getBasicRemote().sendText(text);
        }
    }

    private void close(CloseReason reason) {
        try {
            session.close(reason);
        } catch (IOException e) {
            LOG.log(Level.FINE, () -> "Closing a /v1/responses WebSocket failed: " + e);
        }
    }
}
