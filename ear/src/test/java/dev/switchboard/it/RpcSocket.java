package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A JSON-RPC client over Switchboard's WebSocket ({@code /ws}, java.net.http.WebSocket). Text
 * messages are assembled across partial deliveries; responses are matched to requests by id,
 * notifications (messages with a {@code method}) go to {@link #notifications}, responses nobody
 * waits for (e.g. errors with {@code id:null}) to {@link #unmatched}.
 *
 * <p>Flow control: while {@link #autoRequest} is on, the listener requests one more message after
 * each delivery; {@link #stopReading()} turns that off so the client stops consuming (a slow
 * consumer), {@link #drain()} requests everything again.
 */
final class RpcSocket implements AutoCloseable, RpcCalls {

    record Closed(int code, String reason) {
    }

    final Rpc.Inbox notifications = new Rpc.Inbox();
    final BlockingQueue<JsonObject> unmatched = new LinkedBlockingQueue<>();
    final CompletableFuture<Closed> closed = new CompletableFuture<>();
    final CompletableFuture<Throwable> failed = new CompletableFuture<>();
    private final Map<String, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean autoRequest = true;
    private volatile boolean aborted;
    private WebSocket ws;
    /** The result of the {@code subscribe} made by {@link #subscribed}. */
    JsonObject subscribeResult;

    private RpcSocket() {
    }

    static URI uri(int port) {
        return URI.create("ws://127.0.0.1:" + port + "/ws");
    }

    /** Opens a socket; {@code headers} are name/value pairs (e.g. Origin). Fails when the handshake does. */
    static RpcSocket connect(int port, String... headers) {
        try {
            return connectAsync(uri(port), headers).get(15, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("WebSocket handshake with " + uri(port) + " failed: " + why(e.getCause()), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("WebSocket handshake with " + uri(port) + " timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What a failed handshake was answered: the status and body of a refusal, else the I/O error. */
    static String why(Throwable failure) {
        if (failure instanceof WebSocketHandshakeException refused) {
            HttpResponse<?> response = refused.getResponse();
            return "HTTP " + response.statusCode() + " " + response.body();
        }
        return String.valueOf(failure) + (failure != null && failure.getCause() != null ? " (" + failure.getCause() + ")" : "");
    }

    static CompletableFuture<RpcSocket> connectAsync(URI uri, String... headers) {
        RpcSocket socket = new RpcSocket();
        WebSocket.Builder b = Rpc.CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b.buildAsync(uri, socket.new Listener()).thenApply(ws -> {
            socket.ws = ws;
            return socket;
        });
    }

    /**
     * Opens (with {@code headers}, name/value pairs), subscribes ({@code subscribe} with the given
     * params) and returns the socket and the result.
     */
    static RpcSocket subscribed(int port, JsonObject subscribeParams, String... headers) {
        RpcSocket s = connect(port, headers);
        JsonObject result = s.result("subscribe", subscribeParams);
        assertEquals(JsonValue.TRUE, result.get("subscribed"), result::toString);
        s.subscribeResult = result;
        return s;
    }

    // ------------------------------------------------------------------ requests

    /** Sends a request with a fresh integer id and waits for its response (the whole object). */
    @Override
    public JsonObject call(String method, JsonObject params) {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        pending.put(Long.toString(id), answer);
        send(Rpc.request(id, method, params));
        try {
            JsonObject response = answer.get(20, TimeUnit.SECONDS);
            assertEquals("2.0", response.getString("jsonrpc", null), response::toString);
            return response;
        } catch (TimeoutException e) {
            throw new AssertionError("no response to " + method + " (id " + id + ") within 20 s"
                    + (closed.isDone() ? "; socket closed " + closed.join() : ""));
        } catch (ExecutionException e) {
            throw new AssertionError("socket failed while waiting for " + method, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            pending.remove(Long.toString(id));
        }
    }

    /** Sends one text frame as is. */
    synchronized void send(String text) {
        ws.sendText(text, true).orTimeout(15, TimeUnit.SECONDS).join();
    }

    /** The next response nobody was waiting for (e.g. an error to a malformed frame). */
    JsonObject awaitUnmatched(Duration timeout) {
        try {
            JsonObject r = unmatched.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (r == null) {
                throw new AssertionError("no unsolicited response within " + timeout
                        + (closed.isDone() ? "; socket closed " + closed.join() : ""));
            }
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Notifications that carry a {@code params.seq}, in arrival order. */
    List<JsonObject> sequenced() {
        return notifications.matching(Rpc::hasSeq);
    }

    /** Stops requesting messages: what the server sends piles up in TCP and then in its buffer. */
    void stopReading() {
        autoRequest = false;
    }

    /** Requests everything again (delivers what is buffered, then the close frame if any). */
    void drain() {
        autoRequest = true;
        ws.request(Long.MAX_VALUE);
    }

    /** Drops the connection without a close handshake, like a network failure; nothing more is recorded. */
    void abort() {
        aborted = true;
        ws.abort();
    }

    Closed awaitClosed(Duration timeout) {
        try {
            return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("socket not closed within " + timeout
                    + (failed.isDone() ? "; it failed: " + failed.join() : ""));
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    boolean isOpen() {
        return !closed.isDone() && !failed.isDone() && !ws.isInputClosed();
    }

    @Override
    public void close() {
        if (ws == null || aborted) {
            return;
        }
        try {
            if (!ws.isOutputClosed()) {
                ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(3, TimeUnit.SECONDS).join();
            }
        } catch (CompletionException e) {
            // already closed or failed: abort below
        } finally {
            ws.abort();
        }
    }

    // ------------------------------------------------------------------ listener

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public void onOpen(WebSocket webSocket) {
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                if (!aborted) {
                    dispatch(message);
                }
            }
            if (autoRequest) {
                webSocket.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            notifications.add(Rpc.obj("unexpected_binary_frame", data.remaining()));
            if (autoRequest) {
                webSocket.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
            if (autoRequest) {
                webSocket.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
            if (autoRequest) {
                webSocket.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(new Closed(statusCode, reason));
            notifications.end("closed " + statusCode + " " + reason);
            pending.values().forEach(f -> f.completeExceptionally(
                    new IllegalStateException("closed " + statusCode + " " + reason)));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            failed.complete(error);
            notifications.end("error " + error);
            pending.values().forEach(f -> f.completeExceptionally(error));
        }

        private void dispatch(String message) {
            JsonObject o;
            try {
                o = Rpc.parse(message);
            } catch (RuntimeException e) {
                notifications.add(Rpc.obj("unparseable_frame", message));
                return;
            }
            if (o.containsKey("method")) {
                notifications.add(o);
                return;
            }
            JsonValue id = o.get("id");
            // keys are the JSON text of the integer ids we send: a string "1" does not answer request 1
            CompletableFuture<JsonObject> waiting = id == null ? null : pending.get(id.toString());
            if (waiting != null) {
                waiting.complete(o);
            } else {
                unmatched.add(o);
            }
        }
    }
}
