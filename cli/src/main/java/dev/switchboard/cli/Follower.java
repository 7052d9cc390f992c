package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Follows the server's notifications over {@code /ws} and survives losing the connection: after a
 * drop (a restart, a network cut, a slow-consumer close) it connects again and subscribes with
 * {@code after_seq} = the last seq it handed out, so the caller sees every notification once, in
 * order. Before the first notification the resume point is the one the server named when the
 * subscription began, so a live-only follow has no gap either.
 *
 * <p>Frames arrive on the WebSocket's thread and are queued; the caller takes them with
 * {@link #next} on its own thread, which also reconnects.
 */
final class Follower implements AutoCloseable {

    private static final Object DROPPED = new Object();
    private static final Duration SUBSCRIBE_TIMEOUT = Duration.ofSeconds(15);

    private final URI uri;
    private final String token;
    private final List<String> threads;
    private final Consumer<String> notice;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();

    private WebSocket socket;
    private long resumeAfter = -1;
    private CompletableFuture<JsonObject> subscribed;

    /**
     * @param afterSeq replay everything after this seq first; {@code null} for only what commits from now on
     * @param notice   told about reconnects and stream gaps, for stderr
     */
    Follower(URI base, String token, List<String> threads, Long afterSeq, Consumer<String> notice) {
        this.uri = webSocketUri(base);
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.threads = List.copyOf(threads);
        this.notice = notice;
        this.resumeAfter = afterSeq == null ? -1 : afterSeq;
    }

    static URI webSocketUri(URI base) {
        String scheme = "https".equalsIgnoreCase(base.getScheme()) ? "wss" : "ws";
        String path = base.getPath() == null || base.getPath().isEmpty() || base.getPath().equals("/") ? "" : base.getPath();
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return URI.create(scheme + "://" + base.getRawAuthority() + path + "/ws");
    }

    /** Connects and subscribes; returns once the subscription is in place. */
    Follower start() {
        connect();
        return this;
    }

    /**
     * The next notification, or {@code null} when none arrived before {@code deadline}. A lost
     * connection is re-established (retrying until the deadline) without the caller noticing.
     */
    JsonObject next(Instant deadline) throws InterruptedException {
        Duration backoff = Duration.ofMillis(250);
        while (true) {
            long waitMs = Duration.between(Instant.now(), deadline).toMillis();
            if (waitMs <= 0) {
                return null;
            }
            Object item = inbox.poll(waitMs, TimeUnit.MILLISECONDS);
            if (item == null) {
                return null;
            }
            if (item != DROPPED) {
                JsonObject notification = (JsonObject) item;
                remember(notification);
                return notification;
            }
            notice.accept("connection lost; resuming after seq " + Math.max(resumeAfter, 0));
            while (true) {
                try {
                    connect();
                    break;
                } catch (CliException e) {
                    if (Instant.now().plus(backoff).isAfter(deadline)) {
                        throw e;
                    }
                    Thread.sleep(backoff.toMillis());
                    backoff = backoff.multipliedBy(2).compareTo(Duration.ofSeconds(4)) > 0 ? Duration.ofSeconds(4) : backoff.multipliedBy(2);
                }
            }
        }
    }

    private void remember(JsonObject notification) {
        if (notification.get("params") instanceof JsonObject params && params.get("seq") instanceof JsonNumber seq) {
            resumeAfter = Math.max(resumeAfter, seq.longValue());
        }
        if ("stream/gap".equals(notification.getString("method", ""))) {
            notice.accept("gap: " + ((JsonObject) notification.get("params")).getString("message", "notifications were pruned"));
        }
    }

    private void connect() {
        inbox.removeIf(item -> item == DROPPED);
        subscribed = new CompletableFuture<>();
        WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        try {
            socket = builder.buildAsync(uri, new Listener()).get(15, TimeUnit.SECONDS);
            JsonObjectBuilder params = Json.createObjectBuilder();
            if (!threads.isEmpty()) {
                JsonArrayBuilder list = Json.createArrayBuilder();
                threads.forEach(list::add);
                params.add("threads", list);
            }
            if (resumeAfter >= 0) {
                params.add("after_seq", resumeAfter);
            }
            JsonObject request = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", "subscribe")
                    .add("method", "subscribe").add("params", params).build();
            socket.sendText(request.toString(), true).get(15, TimeUnit.SECONDS);
            JsonObject result = Api.rpcResult(subscribed.get(SUBSCRIBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            if (resumeAfter < 0 && result.get("after_seq") instanceof JsonNumber start) {
                resumeAfter = start.longValue();
            }
        } catch (ExecutionException e) {
            throw new CliException("cannot follow " + uri + ": " + describe(e.getCause()));
        } catch (TimeoutException e) {
            abort();
            throw new CliException("cannot follow " + uri + ": no answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted");
        }
    }

    private static String describe(Throwable cause) {
        if (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof WebSocketHandshakeException handshake) {
            int status = handshake.getResponse().statusCode();
            return status == 401 ? "unauthorized (set SWITCHBOARD_TOKEN)" : "refused with status " + status;
        }
        if (cause instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (cause instanceof CliException e) {
            return e.getMessage();
        }
        return cause == null ? "failed" : String.valueOf(cause.getMessage());
    }

    private void abort() {
        if (socket != null) {
            socket.abort();
        }
    }

    @Override
    public void close() {
        if (socket != null && !socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(2, TimeUnit.SECONDS)
                    .whenComplete((ws, error) -> abort());
        }
    }

    private final class Listener implements WebSocket.Listener {

        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String frame = partial.toString();
                partial.setLength(0);
                if (Api.parse(frame) instanceof JsonObject message) {
                    if (message.containsKey("id") && !message.containsKey("method")) {
                        subscribed.complete(message);
                    } else if (message.containsKey("method")) {
                        inbox.add(message);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            dropped(new CliException("closed by the server (" + statusCode + (reason.isEmpty() ? "" : " " + reason) + ")"));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            dropped(error);
        }

        private void dropped(Throwable why) {
            subscribed.completeExceptionally(why);
            inbox.add(DROPPED);
        }
    }
}
