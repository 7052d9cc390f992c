package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A JSON-RPC client for Switchboard's control plane ({@code docs/rpc.md}): calls over
 * {@code POST /rpc} with integer ids, raw posts for the envelope rules, and the NDJSON
 * notification stream {@code GET /rpc/stream} read on a background thread.
 */
final class Rpc implements RpcCalls {

    /** HTTP/1.1 only, so streaming responses and keep-alive lines behave the same on every run. */
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    static final String NDJSON = "application/x-ndjson";

    final String base;
    /** The bearer token every request carries (null: none). */
    private final String token;
    private final AtomicLong ids = new AtomicLong();

    Rpc(String base) {
        this(base, null);
    }

    /** JSON-RPC to {@code api}'s server, as {@code api}'s user. */
    Rpc(Api api) {
        this(api.base, api.token);
    }

    private Rpc(String base, String token) {
        this.base = base;
        this.token = token;
    }

    int port() {
        return URI.create(base).getPort();
    }

    // ------------------------------------------------------------------ calls

    /** A raw HTTP answer: status, content type and body. */
    record Raw(int status, String contentType, String body) {
        JsonObject json() {
            return parse(body);
        }
    }

    /** Posts {@code body} as is to {@code /rpc}. */
    Raw post(String body) {
        return send(HttpRequest.newBuilder(URI.create(base + "/rpc")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Raw send(HttpRequest.Builder request) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> r = CLIENT.send(request.timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Raw(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String request(Object id, String method, JsonObject params) {
        JsonObjectBuilder b = Json.createObjectBuilder().add("jsonrpc", "2.0");
        if (id instanceof Number n) {
            b.add("id", n.longValue());
        } else if (id instanceof String s) {
            b.add("id", s);
        }
        b.add("method", method);
        if (params != null) {
            b.add("params", params);
        }
        return b.build().toString();
    }

    /**
     * Calls {@code method} with a fresh integer id; returns the whole response object after
     * checking the transport: 200, {@code application/json}, {@code jsonrpc} 2.0 and the id echoed.
     */
    @Override
    public JsonObject call(String method, JsonObject params) {
        long id = ids.incrementAndGet();
        Raw r = post(request(id, method, params));
        assertEquals(200, r.status(), () -> method + " answered " + r.status() + ": " + r.body());
        assertTrue(r.contentType().startsWith("application/json"), () -> method + " content type " + r.contentType());
        JsonObject response = r.json();
        assertEquals("2.0", response.getString("jsonrpc"), response::toString);
        assertEquals(Long.toString(id), response.get("id").toString(), () -> "id echo in " + response);
        return response;
    }

    // ------------------------------------------------------------------ convenience

    /** Starts a turn with one user message; returns the result ({@code turn_id, state, started_at}). */
    JsonObject startTurn(String thread, String text) {
        return result("turn/start", obj("thread_id", thread, "input", input(text)));
    }

    String startTurnId(String thread, String text) {
        return startTurn(thread, text).getString("turn_id");
    }

    JsonObject readTurn(String turnId) {
        return result("turn/read", obj("turn_id", turnId));
    }

    /** Polls {@code turn/read} until the turn is no longer active; returns the last answer. */
    JsonObject awaitTurnEnd(String turnId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonObject read;
        do {
            read = readTurn(turnId);
            if (!"active".equals(read.getJsonObject("turn").getString("state"))) {
                return read;
            }
            pause(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("turn " + turnId + " still active after " + timeout + ": " + read);
    }

    /** Makes sure the runtime is running again (tests share an instance). */
    void ensureRunning() {
        JsonObject status = result("server/status", null);
        if ("paused".equals(status.getString("state"))) {
            result("server/resume", null);
        }
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ JSON builders and readers

    static JsonObject parse(String text) {
        try (JsonReader r = Json.createReader(new StringReader(text))) {
            return r.readObject();
        }
    }

    /** An object from alternating names and values (String, Number, Boolean, JsonValue, builders, null). */
    static JsonObject obj(Object... kv) {
        JsonObjectBuilder b = Json.createObjectBuilder();
        for (int i = 0; i < kv.length; i += 2) {
            String name = (String) kv[i];
            Object v = kv[i + 1];
            if (v == null) {
                b.addNull(name);
            } else if (v instanceof String s) {
                b.add(name, s);
            } else if (v instanceof Integer n) {
                b.add(name, n);
            } else if (v instanceof Long n) {
                b.add(name, n);
            } else if (v instanceof Boolean t) {
                b.add(name, t);
            } else if (v instanceof JsonValue j) {
                b.add(name, j);
            } else if (v instanceof JsonArrayBuilder a) {
                b.add(name, a);
            } else if (v instanceof JsonObjectBuilder o) {
                b.add(name, o);
            } else {
                throw new IllegalArgumentException("unsupported value " + v);
            }
        }
        return b.build();
    }

    static JsonArray arr(Object... values) {
        JsonArrayBuilder b = Json.createArrayBuilder();
        for (Object v : values) {
            if (v instanceof String s) {
                b.add(s);
            } else if (v instanceof JsonValue j) {
                b.add(j);
            } else if (v instanceof Integer n) {
                b.add(n);
            } else {
                throw new IllegalArgumentException("unsupported value " + v);
            }
        }
        return b.build();
    }

    /** {@code {"type":"message","role":"user","content":[{"type":"input_text","text":text}]}} */
    static JsonObject message(String text) {
        return obj("type", "message", "role", "user",
                "content", arr(obj("type", "input_text", "text", text)));
    }

    /** One user message per text. */
    static JsonArray input(String... texts) {
        JsonArrayBuilder b = Json.createArrayBuilder();
        for (String t : texts) {
            b.add(message(t));
        }
        return b.build();
    }

    static JsonObject params(JsonObject notification) {
        return notification.getJsonObject("params");
    }

    static String method(JsonObject notification) {
        return notification.getString("method", null);
    }

    static boolean hasSeq(JsonObject notification) {
        JsonObject p = params(notification);
        return p != null && p.get("seq") instanceof JsonNumber;
    }

    static long seq(JsonObject notification) {
        JsonObject p = params(notification);
        assertNotNull(p, () -> "no params in " + notification);
        JsonValue seq = p.get("seq");
        assertTrue(seq instanceof JsonNumber, () -> "no numeric params.seq in " + notification);
        return ((JsonNumber) seq).longValueExact();
    }

    static String str(JsonObject o, String name) {
        JsonValue v = o == null ? null : o.get(name);
        return v instanceof JsonString s ? s.getString() : null;
    }

    static String turnId(JsonObject notification) {
        return str(params(notification), "turn_id");
    }

    static String threadId(JsonObject notification) {
        return str(params(notification), "thread_id");
    }

    static Predicate<JsonObject> isMethod(String method) {
        return n -> method.equals(method(n));
    }

    static Predicate<JsonObject> ofTurn(String turnId, String method) {
        return n -> method.equals(method(n)) && turnId.equals(turnId(n));
    }

    static Predicate<JsonObject> ofTurn(String turnId) {
        return n -> turnId.equals(turnId(n));
    }

    /** {@code turn/completed} or {@code turn/interrupted} of the turn. */
    static Predicate<JsonObject> endOf(String turnId) {
        return n -> turnId.equals(turnId(n))
                && ("turn/completed".equals(method(n)) || "turn/interrupted".equals(method(n)));
    }

    static Predicate<JsonObject> progressOf(String turnId, String state) {
        return n -> "turn/progress".equals(method(n)) && turnId.equals(turnId(n))
                && state.equals(str(params(n), "state"));
    }

    /** The role of a message item ({@code item/created} params or a {@code turn/read} item), or null. */
    static String role(JsonObject item) {
        JsonValue content = item.get("content");
        return content instanceof JsonObject c ? str(c, "role") : null;
    }

    static Predicate<JsonObject> itemOf(String turnId, String role) {
        return n -> "item/created".equals(method(n)) && turnId.equals(turnId(n)) && role.equals(role(params(n)));
    }

    /** The texts of a message item's content parts, joined with a newline. */
    static String text(JsonObject item) {
        JsonValue content = item.get("content");
        if (!(content instanceof JsonObject c) || !(c.get("content") instanceof JsonArray parts)) {
            return "";
        }
        return parts.stream().map(JsonValue::asJsonObject).map(p -> p.getString("text", ""))
                .collect(Collectors.joining("\n"));
    }

    /** An RFC3339 UTC time ending in {@code Z}. */
    static Instant assertUtc(JsonValue value, String what) {
        assertTrue(value instanceof JsonString, () -> what + " is not a string: " + value);
        String s = ((JsonString) value).getString();
        assertTrue(s.endsWith("Z"), () -> what + " is not UTC: " + s);
        return Instant.parse(s);
    }

    static void assertUtcOrNull(JsonObject o, String name) {
        JsonValue v = o.get(name);
        assertNotNull(v, () -> name + " missing in " + o);
        if (v.getValueType() != JsonValue.ValueType.NULL) {
            assertUtc(v, name);
        }
    }

    static String summary(List<JsonObject> notifications) {
        int from = Math.max(0, notifications.size() - 40);
        return notifications.size() + " received, last: " + notifications.subList(from, notifications.size()).stream()
                .map(n -> {
                    String s = n.toString();
                    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
                })
                .collect(Collectors.joining("\n  ", "\n  ", ""));
    }

    // ------------------------------------------------------------------ received messages

    /** Messages received on a background thread; awaitable by predicate with a timeout. */
    static final class Inbox {
        private final List<JsonObject> items = new ArrayList<>();
        private String endedBecause;

        synchronized void add(JsonObject message) {
            items.add(message);
            notifyAll();
        }

        synchronized void end(String reason) {
            if (endedBecause == null) {
                endedBecause = reason;
            }
            notifyAll();
        }

        synchronized String endedBecause() {
            return endedBecause;
        }

        synchronized List<JsonObject> snapshot() {
            return List.copyOf(items);
        }

        synchronized int size() {
            return items.size();
        }

        synchronized List<JsonObject> matching(Predicate<JsonObject> p) {
            return items.stream().filter(p).toList();
        }

        /** The first message (from the beginning) matching {@code p}; waits for it up to the timeout. */
        JsonObject await(Predicate<JsonObject> p, Duration timeout) {
            return awaitCount(p, 1, timeout).get(0);
        }

        /** Waits until {@code count} messages match; returns the matches in arrival order. */
        synchronized List<JsonObject> awaitCount(Predicate<JsonObject> p, int count, Duration asked) {
            Duration timeout = Await.bound(asked); // a hang's bound, never the machine's speed
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                List<JsonObject> found = items.stream().filter(p).toList();
                if (found.size() >= count) {
                    return found;
                }
                long left = deadline - System.nanoTime();
                if (endedBecause != null || left <= 0) {
                    throw new AssertionError("expected " + count + " matching message(s), got " + found.size()
                            + (endedBecause != null ? " before the connection ended (" + endedBecause + ")"
                                    : " within " + timeout) + "; " + summary(items));
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    // ------------------------------------------------------------------ GET /rpc/stream

    /** Opens {@code GET /rpc/stream} with {@code Accept} (null: none) and returns the live response. */
    HttpResponse<InputStream> openStream(String accept, String query) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/rpc/stream" + (query == null ? "" : query)))
                .timeout(Duration.ofSeconds(15)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (accept != null) {
            b.header("Accept", accept);
        }
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Subscribes to the NDJSON stream.
     *
     * @param afterSeq replay point, or null for live only
     * @param threads thread ids to limit the stream to (none: all the user's threads)
     */
    Stream stream(Long afterSeq, String... threads) {
        StringBuilder q = new StringBuilder();
        if (afterSeq != null) {
            q.append(q.length() == 0 ? '?' : '&').append("after_seq=").append(afterSeq);
        }
        for (String t : threads) {
            q.append(q.length() == 0 ? '?' : '&').append("thread_id=")
                    .append(java.net.URLEncoder.encode(t, StandardCharsets.UTF_8));
        }
        HttpResponse<InputStream> response = openStream(NDJSON, q.toString());
        if (response.statusCode() != 200) {
            String body;
            try (InputStream in = response.body()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                body = "(" + e + ")";
            }
            throw new AssertionError("GET /rpc/stream" + q + " answered " + response.statusCode() + ": " + body);
        }
        return new Stream(response);
    }

    /** One open NDJSON stream: every line goes to {@link #lines}; JSON lines to {@link #inbox}. */
    static final class Stream implements AutoCloseable {
        record Line(long atNanos, String text) {
        }

        final HttpResponse<InputStream> response;
        final long openedNanos = System.nanoTime();
        final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
        final Inbox inbox = new Inbox();
        private final List<Line> allLines = new ArrayList<>();
        private final Thread reader;

        Stream(HttpResponse<InputStream> response) {
            this.response = response;
            this.reader = new Thread(this::read, "ndjson-reader");
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    Line l = new Line(System.nanoTime(), line);
                    synchronized (allLines) {
                        allLines.add(l);
                    }
                    lines.add(l);
                    if (!line.isBlank()) {
                        try {
                            inbox.add(parse(line));
                        } catch (RuntimeException e) {
                            inbox.add(obj("unparseable_line", line));
                        }
                    }
                }
                inbox.end("end of stream");
            } catch (IOException e) {
                inbox.end(e.toString());
            }
        }

        Map<String, List<String>> headers() {
            return response.headers().map();
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        List<Line> linesSoFar() {
            synchronized (allLines) {
                return List.copyOf(allLines);
            }
        }

        /** Notifications only: parsed lines that carry a {@code method}. */
        List<JsonObject> notifications() {
            return inbox.matching(n -> n.containsKey("method"));
        }

        JsonObject await(Predicate<JsonObject> p, Duration timeout) {
            return inbox.await(p, timeout);
        }

        /** All notifications of a turn, once its terminal notification has arrived. */
        List<JsonObject> awaitTurn(String turnId, Duration timeout) {
            inbox.await(endOf(turnId), timeout);
            return inbox.matching(ofTurn(turnId));
        }

        @Override
        public void close() {
            try {
                response.body().close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
