package dev.switchboard.bench;

import dev.switchboard.bench.SwitchboardClient.BenchException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.net.http.WebSocket;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One WebSocket subscriber: sends {@code subscribe} (all threads, or one, live) when the socket opens and
 * records every {@code turn/completed} of the benchmark's threads: which turns arrived (a bit per
 * turn), duplicates, seq regressions, and the delivery latency (receipt wall-clock time minus the
 * notification's {@code completed_at}, in microseconds). The JDK invokes a socket's listener
 * methods one at a time; the figures are read by the main thread, hence the locking.
 */
final class Subscriber implements WebSocket.Listener {

    private static final String SUBSCRIBE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":{}}";
    private static final String SUBSCRIBE_TO = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":"
            + "{\"threads\":[\"%s\"]}}";

    /** What a subscriber saw, copied out when the benchmark ends. */
    record Figures(String thread, int received, int duplicates, int interrupted, int seqRegressions, int foreign,
            int malformed, boolean overflowed, String closedBecause, long[] latenciesUs, int latencyCount) {
    }

    private final Turns turns;
    /** The one thread it follows; null for all. */
    private final String thread;
    private final CompletableFuture<Void> subscribed = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    private volatile WebSocket socket;
    private volatile boolean closing;

    // guarded by this
    private final BitSet received = new BitSet();
    private long[] latenciesUs = new long[64];
    private int latencyCount;
    private int duplicates;
    private int interrupted;
    private int seqRegressions;
    private int foreign;
    private int malformed;
    private long lastSeq = -1;
    private boolean overflowed;
    private String closedBecause;

    Subscriber(Turns turns) {
        this(turns, null);
    }

    /** A subscriber to {@code thread} only (a plain key: no quoting needed), or to all threads when null. */
    Subscriber(Turns turns, String thread) {
        this.turns = turns;
        this.thread = thread;
    }

    /** Completes when the server has answered {@code subscribe} with {@code subscribed:true}. */
    CompletableFuture<Void> subscribed() {
        return subscribed;
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        socket = webSocket;
        webSocket.request(Long.MAX_VALUE); // every message is handled before onText returns
        webSocket.sendText(thread == null ? SUBSCRIBE : String.format(SUBSCRIBE_TO, thread), true).whenComplete((ws, error) -> {
            if (error != null) {
                subscribed.completeExceptionally(error);
            }
        });
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        if (!last) {
            partial.append(data);
            return null;
        }
        long receivedUs = Notification.nowMicros();
        CharSequence message = data;
        boolean assembled = partial.length() > 0;
        if (assembled) {
            message = partial.append(data);
        }
        try {
            handle(message, receivedUs);
        } finally {
            if (assembled) {
                partial.setLength(0);
            }
        }
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        if (!closing) {
            synchronized (this) {
                closedBecause = "closed by the server: " + statusCode + (reason.isEmpty() ? "" : " " + reason);
            }
        }
        subscribed.completeExceptionally(new BenchException("socket closed: " + statusCode + " " + reason));
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        synchronized (this) {
            if (closedBecause == null) {
                closedBecause = "error: " + error;
            }
        }
        subscribed.completeExceptionally(error);
    }

    private void handle(CharSequence message, long receivedUs) {
        if (!subscribed.isDone() && !Notification.contains(message, "\"method\"")) {
            response(message.toString());
            return;
        }
        boolean completed = Notification.contains(message, Notification.TURN_COMPLETED);
        if (!completed && !Notification.contains(message, Notification.TURN_INTERRUPTED)
                && !Notification.contains(message, Notification.STREAM_OVERFLOW)) {
            return; // turn/started, item/created, turn/progress, …: not measured
        }
        Notification n = Notification.parse(message.toString());
        synchronized (this) {
            if (n == null || n.method() == null) {
                malformed++;
                return;
            }
            if (n.seq() >= 0) {
                if (n.seq() <= lastSeq) {
                    seqRegressions++;
                }
                lastSeq = n.seq();
            }
            switch (n.method()) {
                case Notification.TURN_COMPLETED -> completed(n, receivedUs);
                case Notification.TURN_INTERRUPTED -> {
                    if (turns.ours(n.threadId())) {
                        interrupted++;
                    }
                }
                case Notification.STREAM_OVERFLOW -> overflowed = true;
                default -> {
                    // a text mentioning one of the names above
                }
            }
        }
    }

    // guarded by this
    private void completed(Notification n, long receivedUs) {
        if (!turns.ours(n.threadId())) {
            foreign++;
            return;
        }
        if (n.turnId() == null || n.completedAt() == null) {
            malformed++;
            return;
        }
        long completedAtUs;
        try {
            completedAtUs = Notification.epochMicros(n.completedAt());
        } catch (RuntimeException e) {
            malformed++;
            return;
        }
        int index = turns.indexOf(n.turnId(), completedAtUs);
        if (received.get(index)) {
            duplicates++;
            return;
        }
        received.set(index);
        turns.deliveredOnce();
        if (latencyCount == latenciesUs.length) {
            latenciesUs = Arrays.copyOf(latenciesUs, latencyCount * 2);
        }
        latenciesUs[latencyCount++] = receivedUs - completedAtUs;
    }

    /** The answer to {@code subscribe} (id 1). */
    private void response(String text) {
        JsonObject json;
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            json = reader.readObject();
        } catch (JsonParsingException | ClassCastException | IllegalStateException e) {
            synchronized (this) {
                malformed++;
            }
            return;
        }
        JsonValue result = json.get("result");
        if (result instanceof JsonObject r && r.getBoolean("subscribed", false)) {
            subscribed.complete(null);
        } else {
            subscribed.completeExceptionally(new BenchException("subscribe answered " + text));
        }
    }

    /** Sends a normal close; the returned stage completes when it is sent. */
    CompletableFuture<WebSocket> close() {
        closing = true;
        WebSocket ws = socket;
        if (ws == null || ws.isOutputClosed()) {
            return CompletableFuture.completedFuture(ws);
        }
        return ws.sendClose(WebSocket.NORMAL_CLOSURE, "benchmark done");
    }

    /** No socket, or the server's close frame (or an error) has arrived. */
    boolean inputClosed() {
        WebSocket ws = socket;
        return ws == null || ws.isInputClosed();
    }

    void abort() {
        closing = true;
        WebSocket ws = socket;
        if (ws != null) {
            ws.abort();
        }
    }

    synchronized Figures figures() {
        return new Figures(thread, received.cardinality(), duplicates, interrupted, seqRegressions, foreign, malformed,
                overflowed, closedBecause, Arrays.copyOf(latenciesUs, latencyCount), latencyCount);
    }
}
