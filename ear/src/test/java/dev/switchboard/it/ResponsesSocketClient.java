package dev.switchboard.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A client of the WebSocket transport of {@code /v1/responses} (java.net.http.WebSocket): sends
 * {@code response.create} messages and reads the server's messages, one JSON object each.
 */
final class ResponsesSocketClient implements AutoCloseable {

    /** The events that end a response (or, for {@code error}, a request that got none). */
    static final Set<String> ENDS = Set.of("response.completed", "response.failed", "response.incomplete", "error");

    record Closed(int code, String reason) {
    }

    final BlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();
    final CompletableFuture<Closed> closed = new CompletableFuture<>();
    private final WebSocket ws;

    private ResponsesSocketClient(URI uri, String... headers) {
        WebSocket.Builder builder = Rpc.CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        for (int i = 0; i < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        ws = builder.buildAsync(uri, new Listener()).orTimeout(15, TimeUnit.SECONDS).join();
    }

    /**
     * Opens a connection; {@code headers} are name/value pairs.
     *
     * @throws java.util.concurrent.CompletionException when the handshake fails (cause:
     *         {@link java.net.http.WebSocketHandshakeException} for a refusal)
     */
    static ResponsesSocketClient connect(int port, String... headers) {
        return connect(URI.create("ws://127.0.0.1:" + port + "/v1/responses"), headers);
    }

    /** Opens a connection to {@code uri} (a client's base URL with {@code ws:} and {@code /responses}). */
    static ResponsesSocketClient connect(URI uri, String... headers) {
        return new ResponsesSocketClient(uri, headers);
    }

    /** Sends {@code response.create} with the fields of {@code body}. */
    void create(JsonObject body) {
        send(Json.createObjectBuilder(body).add("type", "response.create").build().toString());
    }

    synchronized void send(String text) {
        ws.sendText(text, true).orTimeout(15, TimeUnit.SECONDS).join();
    }

    /**
     * Sends {@code text}, which the server may refuse by closing the socket while it is still being
     * written (a message over its limit): a send cut that way ends here, and {@link #closed} says why.
     */
    synchronized void sendRefusable(String text) {
        try {
            send(text);
        } catch (java.util.concurrent.CompletionException e) {
            if (!(e.getCause() instanceof java.io.IOException)) {
                throw e;
            }
        }
    }

    synchronized void sendBinary(byte[] data) {
        ws.sendBinary(java.nio.ByteBuffer.wrap(data), true).orTimeout(15, TimeUnit.SECONDS).join();
    }

    JsonObject next(Duration timeout) {
        try {
            JsonObject m = messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (m == null) {
                throw new AssertionError("no message within " + timeout + (closed.isDone() ? "; closed " + closed.join() : ""));
            }
            return m;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The messages up to and including the next one that ends a response. */
    List<JsonObject> untilEnd() {
        List<JsonObject> events = new ArrayList<>();
        JsonObject m;
        do {
            m = next(Duration.ofSeconds(30));
            events.add(m);
        } while (!ENDS.contains(m.getString("type", "")));
        return events;
    }

    @Override
    public void close() {
        if (!closed.isDone()) {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                try (JsonReader reader = Json.createReader(new StringReader(text.toString()))) {
                    messages.add(reader.readObject());
                }
                text.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(new Closed(statusCode, reason));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.completeExceptionally(error);
        }
    }
}
