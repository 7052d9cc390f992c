package dev.switchboard.bench.chaos;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A WebSocket subscriber that keeps following the notification stream through instance crashes:
 * it subscribes live once, and whenever its connection ends it reconnects to some live instance
 * with {@code after_seq} = the last seq it received. It records every seq it receives, so the
 * union can be compared with the log: no gap, no duplicate.
 */
final class ResumingSubscriber {

    private final String name;
    private final Supplier<URI> instance;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final ScheduledExecutorService retry = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-subscriber-retry");
        t.setDaemon(true);
        return t;
    });
    private final List<Long> received = new ArrayList<>(); // guarded by this
    private long startSeq = -1; // guarded by this
    private long lastSeq = -1; // guarded by this
    private int connections; // guarded by this
    private int gapNotices; // guarded by this
    private volatile boolean stopping;
    private volatile WebSocket socket;

    /** {@code instance}: the base URL ({@code http://host:port}) of a live instance, chosen anew for each connection. */
    ResumingSubscriber(String name, Supplier<URI> instance) {
        this.name = name;
        this.instance = instance;
    }

    void start() {
        connect();
    }

    private void connect() {
        if (stopping) {
            return;
        }
        URI base = instance.get();
        URI ws = URI.create("ws://" + base.getHost() + ":" + base.getPort() + "/ws");
        long after;
        synchronized (this) {
            after = lastSeq >= 0 ? lastSeq : startSeq;
            connections++;
        }
        http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(3)).buildAsync(ws, new Listener(after))
                .whenComplete((socket, error) -> {
                    if (error != null) {
                        again();
                    } else {
                        this.socket = socket;
                    }
                });
    }

    private void again() {
        if (!stopping) {
            retry.schedule(this::connect, 200, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void onSubscribed(long at) {
        if (startSeq < 0) {
            startSeq = at;
        }
    }

    private synchronized void onNotification(long seq) {
        received.add(seq);
        lastSeq = Math.max(lastSeq, seq);
    }

    synchronized long lastSeq() {
        return lastSeq;
    }

    void stop() {
        stopping = true;
        retry.shutdownNow();
        WebSocket s = socket;
        if (s != null) {
            s.abort();
        }
    }

    /** What it received, against the log's seqs of its user after its start (up to {@code logEnd}). */
    synchronized Figures figures(List<Long> log, long logEnd) {
        Set<Long> seen = new HashSet<>();
        int duplicates = 0;
        for (long seq : received) {
            if (!seen.add(seq)) {
                duplicates++;
            }
        }
        int gaps = 0;
        for (long seq : log) {
            if (seq > startSeq && seq <= logEnd && !seen.contains(seq)) {
                gaps++;
            }
        }
        return new Figures(name, received.size(), duplicates, gaps, connections - 1, gapNotices, startSeq);
    }

    record Figures(String name, int received, int duplicates, int gaps, int reconnects, int gapNotices, long startSeq) {
    }

    private final class Listener implements WebSocket.Listener {
        private final long after;
        private final StringBuilder text = new StringBuilder();
        private final AtomicBoolean ended = new AtomicBoolean();

        Listener(long after) {
            this.after = after;
        }

        @Override
        public void onOpen(WebSocket webSocket) {
            String params = after < 0 ? "{}" : "{\"after_seq\":" + after + "}";
            webSocket.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":" + params + "}", true);
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                handle(text.toString());
                text.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        private void handle(String message) {
            JsonObject json;
            try (JsonReader reader = Json.createReader(new StringReader(message))) {
                json = reader.readObject();
            } catch (RuntimeException e) {
                return;
            }
            if (json.containsKey("result") && json.get("result") instanceof JsonObject result
                    && result.containsKey("after_seq")) {
                onSubscribed(result.getJsonNumber("after_seq").longValue());
                return;
            }
            if ("stream/gap".equals(json.getString("method", ""))) {
                synchronized (ResumingSubscriber.this) {
                    gapNotices++;
                }
                return;
            }
            JsonObject params = json.containsKey("params") && json.get("params") instanceof JsonObject p ? p : null;
            if (params != null && params.containsKey("seq")) {
                onNotification(params.getJsonNumber("seq").longValue());
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            end();
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            end();
        }

        /** One reconnection per connection, however it ended. */
        private void end() {
            if (ended.compareAndSet(false, true)) {
                again();
            }
        }
    }
}
