package dev.switchboard.it;

import static dev.switchboard.it.Rpc.arr;
import static dev.switchboard.it.Rpc.endOf;
import static dev.switchboard.it.Rpc.input;
import static dev.switchboard.it.Rpc.isMethod;
import static dev.switchboard.it.Rpc.itemOf;
import static dev.switchboard.it.Rpc.method;
import static dev.switchboard.it.Rpc.obj;
import static dev.switchboard.it.Rpc.ofTurn;
import static dev.switchboard.it.Rpc.params;
import static dev.switchboard.it.Rpc.seq;
import static dev.switchboard.it.Rpc.str;
import static dev.switchboard.it.Rpc.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Notifications over the WebSocket ({@code /ws}, docs/rpc.md): live subscriptions, resuming with
 * {@code after_seq} under load without gap or duplicate, malformed frames, the Origin check, and a
 * slow consumer closed with 1013. Delivery across instances sharing a database is the hub's rule,
 * held in-process by {@code NotificationHubTest} (two hubs on one database).
 */
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class NotificationResumeIT {

    private static final Duration TURN_TIMEOUT = Duration.ofSeconds(30);

    private static Api api;
    private static Rpc rpc;
    private static int port;

    @BeforeAll
    static void start() {
        api = SharedInstance.api();
        rpc = new Rpc(api);
        port = rpc.port();
    }

    @AfterAll
    static void finished() {
        SlowConsumersIT.finished(NotificationResumeIT.class);
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
    }

    private static long startPoint(RpcSocket socket) {
        JsonValue v = socket.subscribeResult.get("after_seq");
        assertTrue(v instanceof JsonNumber, () -> "subscribe returns its start point: " + socket.subscribeResult);
        return ((JsonNumber) v).longValueExact();
    }

    private static void assertStrictlyIncreasing(List<JsonObject> notifications, String what) {
        long previous = Long.MIN_VALUE;
        for (JsonObject n : notifications) {
            long s = seq(n);
            if (s <= previous) {
                throw new AssertionError(what + ": seq " + s + " after " + previous + " (duplicate or out of order); "
                        + Rpc.summary(notifications));
            }
            previous = s;
        }
    }

    private static List<Long> seqs(List<JsonObject> notifications) {
        return notifications.stream().map(Rpc::seq).toList();
    }

    /** turn/started, the user item, progress, the assistant item, turn/completed; increasing seq. */
    private static void assertLifecycle(List<JsonObject> events, String turn, String reply) {
        List<String> m = events.stream().map(Rpc::method).toList();
        assertEquals("turn/started", m.get(0), m::toString);
        assertTrue(itemOf(turn, "user").test(events.get(1)), m::toString);
        assertEquals("turn/completed", m.get(m.size() - 1), m::toString);
        assertTrue(itemOf(turn, "assistant").test(events.get(m.size() - 2)), m::toString);
        assertTrue(m.subList(2, m.size() - 2).contains("turn/progress"), m::toString);
        assertTrue(m.subList(2, m.size() - 2).stream().allMatch("turn/progress"::equals), m::toString);
        assertEquals(reply, text(params(events.get(m.size() - 2))));
        assertEquals(reply, str(params(events.get(m.size() - 1)), "message"));
        assertStrictlyIncreasing(events, "turn " + turn);
    }

    // ------------------------------------------------------------------ (a) live subscription

    @Test
    void aSubscriptionWithoutAfterSeqDeliversATurnsLifecycleLive() {
        String thread = unique("ws-live");
        try (RpcSocket ws = RpcSocket.subscribed(port, obj())) {
            long from = startPoint(ws);
            JsonObject started = ws.result("turn/start", obj("thread_id", thread, "input", input("sleep 200; ws-hello")));
            String turn = started.getString("turn_id");
            assertEquals("active", started.getString("state"));
            ws.notifications.await(endOf(turn), TURN_TIMEOUT);
            List<JsonObject> events = ws.notifications.matching(ofTurn(turn));
            assertLifecycle(events, turn, "ws-hello");
            assertTrue(seq(events.get(0)) > from, "live only: after the start point " + from);
            assertStrictlyIncreasing(ws.sequenced(), "the socket");
            assertEquals("running", ws.result("server/status", null).getString("state"), "every method works on the socket");

            assertEquals(JsonValue.FALSE, ws.result("unsubscribe", null).get("subscribed"));
            String quiet = rpc.startTurnId(thread, "while unsubscribed");
            rpc.awaitTurnEnd(quiet, TURN_TIMEOUT);
            assertEquals(JsonValue.TRUE, ws.result("subscribe", obj("threads", arr(thread))).get("subscribed"));
            String marker = rpc.startTurnId(thread, "marker");
            ws.notifications.await(endOf(marker), TURN_TIMEOUT);
            assertTrue(ws.notifications.matching(ofTurn(quiet)).isEmpty(), "nothing is delivered while unsubscribed");
        }
    }

    /**
     * Issue 37: a subscribe from now is answered once its stream is live, without holding the thread
     * that read it — and answers still come in request order: a request sent right behind it waits
     * for it, a subscribe replaced or unsubscribed before it went live is answered that it did not
     * start, and the first notification comes after the answer of the subscription it belongs to.
     */
    @Test
    void aSubscribeFromNowIsAnsweredInRequestOrderOnceLive() {
        String thread = unique("ws-order");
        try (RpcSocket ws = RpcSocket.connect(port)) {
            ws.send(Rpc.request(1, "subscribe", obj()));
            ws.send(Rpc.request(2, "server/status", null));
            ws.send(Rpc.request(3, "subscribe", obj("threads", arr(thread))));
            ws.send(Rpc.request(4, "unsubscribe", null));
            ws.send(Rpc.request(5, "subscribe", obj("threads", arr(thread))));
            List<JsonObject> answers = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                answers.add(ws.awaitUnmatched(Duration.ofSeconds(10)));
            }
            assertEquals(List.of(1, 2, 3, 4, 5), answers.stream().map(a -> a.getInt("id")).toList(),
                    () -> "answers out of request order: " + answers);
            for (int i : new int[] {0, 2}) { // live before it was replaced, or answered that it did not start
                assertTrue(answers.get(i).getJsonObject("result").containsKey("subscribed"), answers.get(i)::toString);
            }
            assertEquals("running", answers.get(1).getJsonObject("result").getString("state"));
            assertEquals(JsonValue.FALSE, answers.get(3).getJsonObject("result").get("subscribed"));
            JsonObject live = answers.get(4).getJsonObject("result");
            assertEquals(JsonValue.TRUE, live.get("subscribed"), live::toString);

            String turn = rpc.startTurnId(thread, "after the answer");
            ws.notifications.await(endOf(turn), TURN_TIMEOUT);
            assertLifecycle(ws.notifications.matching(ofTurn(turn)), turn, "after the answer");
            assertTrue(seq(ws.notifications.matching(ofTurn(turn)).get(0)) > live.getJsonNumber("after_seq").longValue(),
                    "the stream starts after the seq its answer named");
        }
    }

    @Test
    void aSubscriptionToThreadsDeliversOnlyThemAndANewSubscribeReplacesTheOld() {
        String mine = unique("ws-mine");
        String other = unique("ws-other");
        try (RpcSocket ws = RpcSocket.subscribed(port, obj())) {
            assertEquals(JsonValue.TRUE, ws.result("subscribe", obj("threads", arr(mine))).get("subscribed"));
            String otherTurn = rpc.startTurnId(other, "not for this socket");
            rpc.awaitTurnEnd(otherTurn, TURN_TIMEOUT);
            String myTurn = rpc.startTurnId(mine, "for this socket");
            ws.notifications.await(endOf(myTurn), TURN_TIMEOUT);
            assertLifecycle(ws.notifications.matching(ofTurn(myTurn)), myTurn, "for this socket");
            assertTrue(ws.notifications.matching(n -> other.equals(Rpc.threadId(n)) || otherTurn.equals(Rpc.turnId(n)))
                    .isEmpty(), () -> "another thread leaked in: " + Rpc.summary(ws.notifications.snapshot()));
            List<JsonObject> all = ws.sequenced();
            assertEquals(all.size(), new HashSet<>(seqs(all)).size(), "the replaced subscription delivers nothing twice");
        }
    }

    // ------------------------------------------------------------------ (b) resume under load

    @Test
    void aClientThatReconnectsWithAfterSeqUnderLoadMissesNothingAndSeesNothingTwice() throws Exception {
        String prefix = unique("load");
        int threads = 20;
        int perThread = 5;
        List<String> rpcTurns = Collections.synchronizedList(new ArrayList<>());
        List<String> runIds = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger posted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        RpcSocket first = RpcSocket.subscribed(port, obj());
        RpcSocket second = null;
        RpcSocket fresh = null;
        try {
            long from = startPoint(first);
            List<Future<?>> load = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int worker = w;
                load.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        for (int t = worker; t < threads; t += 4) {
                            String thread = prefix + "-" + t;
                            String text = "sleep 20; " + thread + "#" + i;
                            if (t % 2 == 0) {
                                rpcTurns.add(rpc.startTurnId(thread, text)); // JSON-RPC turns
                            } else {
                                runIds.add(api.message(thread, text).getString("run_id")); // REST runs are turns too
                            }
                            posted.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            first.notifications.awaitCount(Rpc::hasSeq, 60, Duration.ofSeconds(60));
            first.abort(); // mid-stream, like a dropped connection
            List<JsonObject> got1 = first.sequenced();
            long lastSeq = seq(got1.get(got1.size() - 1));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (posted.get() < 70 && load.stream().anyMatch(f -> !f.isDone()) && System.nanoTime() < deadline) {
                Thread.sleep(20); // let notifications pass while disconnected
            }

            second = RpcSocket.subscribed(port, obj("after_seq", lastSeq));
            assertEquals(lastSeq, startPoint(second), "the start point is the after_seq asked for");
            for (Future<?> f : load) {
                f.get(120, TimeUnit.SECONDS);
            }
            for (String turn : rpcTurns) {
                rpc.awaitTurnEnd(turn, Duration.ofSeconds(60));
            }
            for (String runId : runIds) {
                api.awaitRun(runId, 60);
            }
            String marker = unique("marker");
            rpc.result("thread/start", obj("thread_id", marker)); // committed after all of the load
            Predicate<JsonObject> isMarker = n -> "thread/started".equals(method(n)) && marker.equals(Rpc.threadId(n));
            long markerSeq = seq(second.notifications.await(isMarker, Duration.ofSeconds(60)));

            fresh = RpcSocket.subscribed(port, obj("after_seq", 0));
            fresh.notifications.await(isMarker, Duration.ofSeconds(60));
            List<JsonObject> expected = fresh.sequenced().stream().filter(n -> seq(n) > from && seq(n) <= markerSeq).toList();

            List<JsonObject> union = new ArrayList<>(got1);
            union.addAll(second.sequenced().stream().filter(n -> seq(n) <= markerSeq).toList());
            assertTrue(seq(got1.get(0)) > from);
            assertStrictlyIncreasing(union, "first connection then the resumed one");
            assertEquals(seqs(expected), seqs(union), "exactly the notifications the server holds, in order");
            assertEquals(expected, union, "the same notifications, live or replayed");

            Predicate<JsonObject> ofLoad = n -> {
                String t = Rpc.threadId(n);
                return t != null && t.startsWith(prefix + "-");
            };
            int turns = threads * perThread;
            assertEquals(turns, expected.stream().filter(ofLoad.and(isMethod("turn/started"))).count(),
                    "every turn of the load notified, REST runs included");
            assertEquals(turns, expected.stream().filter(ofLoad.and(isMethod("turn/completed"))).count());
            assertTrue(union.stream().anyMatch(n -> seq(n) > lastSeq && ofLoad.test(n)),
                    "the load went on while the client was away");
        } finally {
            pool.shutdownNow();
            first.close();
            if (second != null) {
                second.close();
            }
            if (fresh != null) {
                fresh.close();
            }
        }
    }

    // ------------------------------------------------------------------ (c) malformed frames

    @Test
    void malformedFramesGetErrorsAndTheSocketStaysOpen() {
        try (RpcSocket ws = RpcSocket.connect(port)) {
            ws.send("{not json");
            JsonObject parse = ws.awaitUnmatched(Duration.ofSeconds(10));
            assertEquals("2.0", parse.getString("jsonrpc"), parse::toString);
            assertEquals(JsonValue.NULL, parse.get("id"), () -> "id present and null: " + parse);
            assertEquals(-32700, parse.getJsonObject("error").getInt("code"), parse::toString);
            assertEquals("running", ws.result("server/status", null).getString("state"), "a later request is answered");

            ws.send("{\"jsonrpc\":\"1.0\",\"id\":\"v\",\"method\":\"server/status\"}");
            JsonObject version = ws.awaitUnmatched(Duration.ofSeconds(10));
            assertEquals(-32600, version.getJsonObject("error").getInt("code"), version::toString);
            ws.send("{\"jsonrpc\":\"2.0\",\"id\":\"m\"}");
            JsonObject noMethod = ws.awaitUnmatched(Duration.ofSeconds(10));
            assertEquals(-32600, noMethod.getJsonObject("error").getInt("code"), noMethod::toString);
            ws.send("[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"server/status\"}]");
            JsonObject batch = ws.awaitUnmatched(Duration.ofSeconds(10));
            int code = batch.getJsonObject("error").getInt("code");
            assertTrue(code == -32700 || code == -32600, () -> "a batch is not one request: " + batch);

            JsonObject unknown = ws.error("no/such", null, -32601);
            assertEquals("Method not found", unknown.getString("message"));
            assertEquals(-32602, ws.error("turn/start", obj(), -32602).getInt("code"));
            assertEquals("running", ws.result("server/status", null).getString("state"));
            assertTrue(ws.isOpen());
            assertFalse(ws.closed.isDone());
        }
    }

    @Test
    void aFrameOverTheSizeLimitClosesWith1009() {
        try (RpcSocket ws = RpcSocket.connect(port)) {
            ws.send(Rpc.request(1, "server/status", obj("pad", "x".repeat(70 * 1024))));
            RpcSocket.Closed closed = ws.awaitClosed(Duration.ofSeconds(10));
            assertEquals(1009, closed.code(), closed::toString);
            assertFalse(closed.reason().isBlank(), "closed with a reason");
        }
    }

    // ------------------------------------------------------------------ (d) Origin

    @Test
    void aDisallowedOriginIsRefusedWith403AndLocalOriginsAreAccepted() throws Exception {
        CompletableFuture<RpcSocket> evil = RpcSocket.connectAsync(RpcSocket.uri(port), "Origin", "http://evil.example");
        ExecutionException refused = assertThrows(ExecutionException.class, () -> evil.get(15, TimeUnit.SECONDS).close());
        WebSocketHandshakeException handshake = assertInstanceOf(WebSocketHandshakeException.class, refused.getCause(),
                () -> "not refused by the handshake: " + refused.getCause());
        assertEquals(403, handshake.getResponse().statusCode());

        for (String origin : new String[] {"http://localhost:" + port, "http://127.0.0.1:" + port, "http://localhost:3000"}) {
            try (RpcSocket ws = RpcSocket.connectAsync(RpcSocket.uri(port), "Origin", origin).get(15, TimeUnit.SECONDS)) {
                assertEquals("running", ws.result("server/status", null).getString("state"), origin);
            }
        }
    }

    // ------------------------------------------------------------------ (e) slow consumer

    /**
     * On SlowConsumersIT's instance, which keeps {@value SlowConsumersIT#NOTIFY_BUFFER}
     * notifications per subscriber and cuts a socket whose send has stalled for 10 s: the slow
     * client is cut either way, by its buffer's overflow or by the stalled send, with 1013.
     */
    @Test
    @ResourceLock(value = SlowConsumersIT.LOCK, mode = ResourceAccessMode.READ_WRITE)
    void aSlowConsumerIsClosedWith1013WhileOthersKeepReceiving() throws Exception {
        Instance buffered = SlowConsumersIT.instance();
        int bufferedPort = buffered.port;
        String prefix = unique("slow");
        String padding = "x".repeat(60_000); // big notifications, so TCP buffers fill and the server buffer overflows
        int threads = 20;
        int perThread = 4;
        List<String> turns = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        RpcSocket normal = RpcSocket.subscribed(bufferedPort, obj());
        RpcSocket slow = RpcSocket.subscribed(bufferedPort, obj());
        RpcSocket resumed = null;
        try {
            long slowFrom = startPoint(slow);
            slow.stopReading();
            Rpc target = new Rpc(buffered.api);
            List<Future<?>> load = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int worker = w;
                load.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        for (int t = worker; t < threads; t += 2) {
                            turns.add(target.startTurnId(prefix + "-" + t, prefix + "#" + t + "#" + i + " " + padding));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : load) {
                f.get(120, TimeUnit.SECONDS);
            }
            for (String turn : turns) {
                normal.notifications.await(endOf(turn), Duration.ofSeconds(90));
            }
            assertTrue(normal.isOpen(), "the normal client was not closed");
            List<JsonObject> normalGot = normal.sequenced();
            assertTrue(normalGot.size() >= 200, "200+ notifications: " + normalGot.size());
            assertStrictlyIncreasing(normalGot, "the normal client");
            long normalMax = seq(normalGot.get(normalGot.size() - 1));

            slow.drain(); // what TCP held arrives, then what the server did about the overflow
            Predicate<JsonObject> overflow = isMethod("stream/overflow");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!slow.closed.isDone() && !slow.failed.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (!slow.closed.isDone() && !slow.notifications.matching(overflow).isEmpty()) {
                slow.closed.completeOnTimeout(null, 5, TimeUnit.SECONDS).join();
            }
            RpcSocket.Closed closed = slow.closed.getNow(null);
            List<JsonObject> overflows = slow.notifications.matching(overflow);
            assertTrue((closed != null && closed.code() == 1013) || !overflows.isEmpty(),
                    () -> "the slow consumer was neither closed with 1013 nor told of an overflow; closed: " + closed
                            + ", failed: " + slow.failed.getNow(null) + ", " + Rpc.summary(slow.notifications.snapshot()));
            if (closed != null) {
                assertEquals(1013, closed.code(), closed::toString);
            }
            for (JsonObject o : overflows) {
                assertTrue(params(o).get("last_seq") instanceof JsonNumber, o::toString);
                assertTrue(params(o).get("message") instanceof JsonString, o::toString);
            }
            List<JsonObject> all = slow.notifications.snapshot();
            if (!overflows.isEmpty()) {
                assertEquals(overflows.get(0), all.get(all.size() - 1), "nothing follows the overflow notice");
            }
            List<JsonObject> slowGot = slow.sequenced();
            assertStrictlyIncreasing(slowGot, "the slow client");
            List<JsonObject> expected = normalGot.stream().filter(n -> seq(n) > slowFrom).toList();
            assertTrue(slowGot.size() < expected.size(), "the slow client was cut off: got " + slowGot.size()
                    + " of " + expected.size());

            // it resumes with after_seq and then has everything, once
            long resumeFrom = slowGot.isEmpty() ? slowFrom : seq(slowGot.get(slowGot.size() - 1));
            resumed = RpcSocket.subscribed(bufferedPort, obj("after_seq", resumeFrom));
            resumed.notifications.await(n -> Rpc.hasSeq(n) && seq(n) >= normalMax, Duration.ofSeconds(60));
            List<JsonObject> union = new ArrayList<>(slowGot);
            union.addAll(resumed.sequenced().stream().filter(n -> seq(n) <= normalMax).toList());
            assertStrictlyIncreasing(union, "slow then resumed");
            assertEquals(seqs(expected), seqs(union));
            Set<String> ended = new HashSet<>();
            union.stream().filter(n -> "turn/completed".equals(method(n))).forEach(n -> ended.add(Rpc.turnId(n)));
            assertTrue(ended.containsAll(turns), "every turn's completion reached the resumed client");
        } finally {
            pool.shutdownNow();
            normal.close();
            slow.abort();
            if (resumed != null) {
                resumed.close();
            }
        }
    }
}
