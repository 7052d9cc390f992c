package dev.switchboard.core.engine;

import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A model server on loopback that answers each request with the next scripted answer: a whole
 * body with a status, or a server-sent event stream written frame by frame (each flushed), which
 * may stop after a frame until a latch opens. It records what it was sent.
 */
final class ScriptedModelServer implements AutoCloseable {

    record Seen(String path, String authorization, JsonObject body) {
    }

    /** {@code frames} non-null: a 200 event stream; {@code holdAfter} frames are written before {@code hold} is awaited. */
    record Answer(int status, String body, List<String> frames, int holdAfter, CountDownLatch hold) {
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Deque<Answer> script = new ArrayDeque<>();
    final List<Seen> seen = new CopyOnWriteArrayList<>();
    /** Set when a streamed answer could not be written to the end (the client went away). */
    volatile boolean streamBroken;

    ScriptedModelServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                seen.add(new Seen(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Authorization"),
                        Json.createReader(new StringReader(body)).readObject()));
            }
            Answer answer;
            synchronized (script) {
                answer = script.isEmpty() ? new Answer(500, "{}", null, 0, null) : script.poll();
            }
            if (answer.frames() == null) {
                byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(answer.status(), bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < answer.frames().size(); i++) {
                    if (i == answer.holdAfter() && answer.hold() != null) {
                        answer.hold().await(10, TimeUnit.SECONDS);
                    }
                    out.write(answer.frames().get(i).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                streamBroken = true;
            }
        });
        server.start();
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/");
    }

    void whole(int status, String body) {
        add(new Answer(status, body, null, 0, null));
    }

    void stream(List<String> frames) {
        add(new Answer(200, null, frames, 0, null));
    }

    void streamHeld(List<String> frames, int holdAfter, CountDownLatch hold) {
        add(new Answer(200, null, frames, holdAfter, hold));
    }

    private void add(Answer answer) {
        synchronized (script) {
            script.add(answer);
        }
    }

    void stop() {
        server.stop(0);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    /** An SSE frame: {@code event:} the JSON's type, then its data line. */
    static String frame(JsonObject event) {
        return "event: " + event.getString("type") + "\ndata: " + event + "\n\n";
    }

    /** A chat completions chunk frame (no event name), or {@code [DONE]}. */
    static String data(String json) {
        return "data: " + json + "\n\n";
    }
}
