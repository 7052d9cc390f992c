package dev.switchboard.rest.responses;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.responses.ContinuationCache;
import dev.switchboard.core.responses.ResponseError;
import dev.switchboard.core.responses.ResponseRequest;
import dev.switchboard.core.responses.ResponseService;
import dev.switchboard.core.responses.ResponseService.Continuation;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.io.StringReader;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The WebSocket transport of {@code /v1/responses} (spec §9). The client sends
 * {@code {"type":"response.create", …the create body}}; the server answers with the same events as
 * the SSE stream, one JSON object per message. Responses run one at a time per connection, in the
 * order sent (further requests wait, up to {@code switchboard.responses.websocket-queue}). The
 * connection remembers its last responses ({@link ContinuationCache}), so one made with
 * {@code store: false} can be continued on it; a continuation that fails evicts the response it
 * continued. Errors are {@code {"type":"error","status",error:{type,code,message,param}}}. After
 * {@code switchboard.responses.websocket-lifetime-ms} (60 minutes) the connection ends with
 * {@code websocket_connection_limit_reached} once its response in flight is done.
 */
@ServerEndpoint(value = "/v1/responses", configurator = ResponsesSocketConfigurator.class)
public class ResponsesSocket {

    private static final Logger LOG = Logger.getLogger(ResponsesSocket.class.getName());

    /** How many of its responses a connection can continue from memory. */
    static final int REMEMBERED = 16;

    private final ContinuationCache cache = new ContinuationCache(REMEMBERED);
    private final ConcurrentLinkedQueue<String> requests = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final Object sending = new Object();
    private Session session;
    private String user;
    private ResponseStreams support;
    private Future<?> lifetime;
    private volatile boolean expired;
    private volatile boolean closed;

    @OnOpen
    public void open(Session session) {
        this.session = session;
        this.user = (String) session.getUserProperties().get(ResponsesSocketConfigurator.USER);
        support = CDI.current().select(ResponseStreams.class).get();
        if (user == null) {
            close(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, "unauthorized"));
            return;
        }
        session.setMaxTextMessageBufferSize((int) support.settings().maxBodyBytes());
        session.setMaxIdleTimeout(0);
        lifetime = support.scheduler().schedule(() -> {
            expired = true;
            drainLater();
        }, support.settings().socketLifetimeMs(), TimeUnit.MILLISECONDS);
    }

    @OnMessage
    public void message(String text) {
        if (waiting.incrementAndGet() > support.settings().socketQueue() + 1) {
            waiting.decrementAndGet();
            sendError(new ResponseError(429, "too_many_requests", "rate_limit_exceeded", "",
                    "more than " + support.settings().socketQueue() + " requests are waiting on this connection"));
            return;
        }
        requests.add(text);
        drainLater();
    }

    @OnClose
    public void closed() {
        closed = true;
        if (lifetime != null) {
            lifetime.cancel(false);
        }
    }

    @OnError
    public void failed(Throwable error) {
        LOG.log(Level.FINE, () -> "WebSocket on /v1/responses failed: " + error);
    }

    private void drainLater() {
        if (draining.compareAndSet(false, true)) {
            support.executor().execute(this::drain);
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
            cache.ended(previous, support.events(created, -1).write(new ResponseEvents.Sink() {
                @Override
                public void event(JsonObject event) throws IOException {
                    send(event.toString());
                }

                @Override
                public void keepAlive() {
                    // a WebSocket needs none: the connection has no idle timeout
                }

                @Override
                public void done() {
                    // the terminal event ends a response; the connection stays for the next
                }
            }));
        } catch (ResponseError e) {
            cache.failed(previous);
            sendError(e);
        }
    }

    private static JsonValue parse(String text) {
        try (JsonReader reader = Jsons.createReader(new StringReader(text))) {
            return reader.readValue();
        } catch (JsonException | IllegalStateException e) {
            throw new ResponseError(400, "invalid_request", "invalid_json", "", "a message must be one JSON object");
        }
    }

    private void sendError(ResponseError e) {
        try {
            send(Jsons.createObjectBuilder().add("type", "error").add("status", e.status())
                    .add("error", Jsons.createObjectBuilder().add("type", e.type()).add("code", e.code())
                            .add("message", e.getMessage()).add("param", e.param()))
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
