package dev.switchboard.it;

import static dev.switchboard.it.Rpc.arr;
import static dev.switchboard.it.Rpc.assertUtc;
import static dev.switchboard.it.Rpc.assertUtcOrNull;
import static dev.switchboard.it.Rpc.endOf;
import static dev.switchboard.it.Rpc.input;
import static dev.switchboard.it.Rpc.isMethod;
import static dev.switchboard.it.Rpc.itemOf;
import static dev.switchboard.it.Rpc.method;
import static dev.switchboard.it.Rpc.obj;
import static dev.switchboard.it.Rpc.ofTurn;
import static dev.switchboard.it.Rpc.params;
import static dev.switchboard.it.Rpc.progressOf;
import static dev.switchboard.it.Rpc.role;
import static dev.switchboard.it.Rpc.seq;
import static dev.switchboard.it.Rpc.str;
import static dev.switchboard.it.Rpc.text;
import static dev.switchboard.it.Rpc.turnId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JSON-RPC control plane against {@code docs/rpc.md} and the black-box conformance
 * checklist of the Holon serve design, §17.1 (items 2–8, 12, 13), on the shared instance. Tests are
 * independent: each uses its own thread ids and leaves the runtime running.
 */
@ParameterizedClass(name = "on {0}") // on PostgreSQL and on the embedded H2 (SharedInstance)
@EnumSource(SharedInstance.Database.class)
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ_WRITE)
class RpcConformanceIT {

    @Parameter
    SharedInstance.Database database;

    private static final Duration TURN_TIMEOUT = Duration.ofSeconds(30);
    private static Rpc rpc;
    private static Api api;

    @BeforeParameterizedClassInvocation
    static void start(SharedInstance.Database database) {
        api = SharedInstance.api(database);
        rpc = new Rpc(api);
    }

    @AfterEach
    void leaveTheRuntimeRunning() {
        rpc.ensureRunning();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
    }

    /** A live stream whose subscription is in place: its first line (the greeting) has arrived. */
    private static Rpc.Stream live(String... threads) {
        Rpc.Stream s = rpc.stream(null, threads);
        s.await(n -> true, Duration.ofSeconds(10));
        return s;
    }

    private static void assertEnvelopeError(Rpc.Raw r, int status, int code, String message) {
        assertEquals(status, r.status(), r::body);
        assertTrue(r.contentType().startsWith("application/json"), () -> "content type " + r.contentType());
        JsonObject body = r.json();
        assertEquals("2.0", body.getString("jsonrpc"), body::toString);
        assertEquals(JsonValue.NULL, body.get("id"), () -> "id must be present and null: " + body);
        assertFalse(body.containsKey("result"), body::toString);
        assertEquals(code, body.getJsonObject("error").getInt("code"), body::toString);
        assertEquals(message, body.getJsonObject("error").getString("message"), body::toString);
    }

    private static void assertFieldError(JsonObject error, String field, String reason) {
        assertEquals(reason, error.getString("message"), error::toString);
        JsonObject data = error.getJsonObject("data");
        assertNotNull(data, () -> "field errors carry data: " + error);
        assertEquals(field, data.getString("field"), error::toString);
        assertEquals(reason, data.getString("reason"), error::toString);
    }

    private static void assertInvalidParams(JsonObject error) {
        assertTrue(error.getString("message").startsWith("invalid params: "), error::toString);
        assertFalse(error.containsKey("data"), () -> "undecodable params carry no data: " + error);
    }

    /** On a thread-filtered stream: the notification names the thread, or (without thread_id) one of its turns. */
    private static boolean belongsTo(JsonObject n, String thread, String... turns) {
        String t = Rpc.threadId(n);
        return t != null ? t.equals(thread) : List.of(turns).contains(turnId(n));
    }

    private static JsonObject status() {
        return rpc.result("server/status", null);
    }

    private static List<String> methods(List<JsonObject> notifications) {
        return notifications.stream().map(Rpc::method).toList();
    }

    /** Every notification that has a seq, strictly increasing. */
    private static void assertIncreasingSeq(List<JsonObject> notifications) {
        long previous = Long.MIN_VALUE;
        for (JsonObject n : notifications) {
            long seq = seq(n);
            assertTrue(seq > previous, () -> "seq not increasing at " + n + " in " + Rpc.summary(notifications));
            previous = seq;
        }
    }

    // ------------------------------------------------------------------ envelope (§3, docs/rpc.md table)

    @Test
    void envelopeErrorsFollowTheTableInOrder() {
        assertEnvelopeError(rpc.post(""), 400, -32600, "empty request body");
        for (String notAnObject : new String[] {"{not json", "{\"jsonrpc\":\"2.0\",", "[]", "42", "\"server/status\"",
                "null", "true", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/status\"}]"}) {
            assertEnvelopeError(rpc.post(notAnObject), 400, -32700, "Parse error");
        }
        for (String badVersion : new String[] {"{\"id\":1,\"method\":\"server/status\"}",
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"server/status\"}",
                "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"server/status\"}",
                "{\"jsonrpc\":\"2.0 \",\"id\":1,\"method\":\"server/status\"}",
                "{\"jsonrpc\":\"1.0\",\"method\":\"server/status\"}", // checked before the notification rule
                "{\"id\":1}"}) { // version before method
            assertEnvelopeError(rpc.post(badVersion), 400, -32600, "jsonrpc version must be '2.0'");
        }
        for (String noMethod : new String[] {"{\"jsonrpc\":\"2.0\",\"id\":1}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}", "{\"jsonrpc\":\"2.0\",\"method\":\"\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":null}"}) {
            assertEnvelopeError(rpc.post(noMethod), 400, -32600, "method is required");
        }
    }

    @Test
    void anUnreadableOrOversizedBodyIsAParseErrorButTenMebibytesAreAccepted() {
        int limit = 10 * 1024 * 1024;
        String prefix = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/status\",\"pad\":\"";
        String big = prefix + "x".repeat(2 * 1024 * 1024) + "\"}";
        Rpc.Raw accepted = rpc.post(big);
        assertEquals(200, accepted.status(), "a 2 MiB request is below the 10 MiB limit of /rpc");
        assertTrue(accepted.json().containsKey("result"), accepted::body);

        // exactly one byte over the limit: the server has to read it all to notice
        String over = prefix + "x".repeat(limit + 1 - prefix.length() - 2) + "\"}";
        assertEquals(limit + 1, over.getBytes(StandardCharsets.UTF_8).length);
        assertEnvelopeError(rpc.post(over), 400, -32700, "failed to read request body");
    }

    @Test
    void notificationsAnswer204WithAnEmptyBodyAndTheMethodRuns() {
        String absent = unique("notif-absent");
        Rpc.Raw r = rpc.post("{\"jsonrpc\":\"2.0\",\"method\":\"thread/start\",\"params\":{\"thread_id\":\"" + absent + "\"}}");
        assertEquals(204, r.status(), r::body);
        assertEquals("", r.body());
        assertEquals(absent, status().getString("session_id"), "the notification ran thread/start");

        String nullId = unique("notif-null");
        r = rpc.post("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"thread/start\",\"params\":{\"thread_id\":\"" + nullId + "\"}}");
        assertEquals(204, r.status(), r::body);
        assertEquals("", r.body());
        assertEquals(nullId, status().getString("session_id"), "\"id\":null is a notification and ran too");

        // errors of notifications are discarded
        r = rpc.post("{\"jsonrpc\":\"2.0\",\"method\":\"no/such/method\"}");
        assertEquals(204, r.status(), r::body);
        assertEquals("", r.body());
        r = rpc.post("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"turn/start\",\"params\":{}}");
        assertEquals(204, r.status(), r::body);
        assertEquals("", r.body());
    }

    @Test
    void theIdIsEchoedWithItsJsonType() {
        for (String id : new String[] {"\"abc\"", "\"7\"", "7", "0", "-3", "\"\""}) {
            Rpc.Raw r = rpc.post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"server/status\"}");
            assertEquals(200, r.status(), r::body);
            assertTrue(r.contentType().startsWith("application/json"), r::contentType);
            JsonObject body = r.json();
            assertEquals("2.0", body.getString("jsonrpc"));
            assertEquals(id, body.get("id").toString(), () -> "id " + id + " echoed as " + body.get("id"));
            assertTrue(body.containsKey("result"), body::toString);
            assertFalse(body.containsKey("error"), "a success has no error member");
        }
        Rpc.Raw r = rpc.post("{\"jsonrpc\":\"2.0\",\"id\":\"x-1\",\"method\":\"no/such\"}");
        assertEquals(200, r.status());
        assertEquals("\"x-1\"", r.json().get("id").toString(), "errors echo the id too");
        assertFalse(r.json().containsKey("result"));
    }

    @Test
    void unknownMethodsAreMethodNotFound() {
        for (String m : new String[] {"no/such", "config/read", "holon/unknown", "thread/closed", "subscribe/", "SERVER/STATUS"}) {
            JsonObject error = rpc.error(m, null, -32601);
            assertEquals("Method not found", error.getString("message"));
        }
    }

    @Test
    void otherHttpMethodsAre405() {
        URI rpcUri = URI.create(rpc.base + "/rpc");
        for (HttpRequest.Builder b : List.of(HttpRequest.newBuilder(rpcUri).GET(),
                HttpRequest.newBuilder(rpcUri).PUT(HttpRequest.BodyPublishers.ofString("{}")),
                HttpRequest.newBuilder(rpcUri).DELETE())) {
            Rpc.Raw r = rpc.send(b);
            assertEquals(405, r.status(), r::body);
            assertEquals("{\"error\":{\"code\":\"method_not_allowed\",\"message\":\"method not allowed\"}}",
                    r.body().strip());
        }
        Rpc.Raw r = rpc.send(HttpRequest.newBuilder(URI.create(rpc.base + "/rpc/stream"))
                .header("Accept", Rpc.NDJSON).POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertEquals(405, r.status(), r::body);
    }

    @Test
    void nullParamsEqualAbsentParams() {
        Rpc.Raw r = rpc.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/status\",\"params\":null}");
        assertEquals(200, r.status(), r::body);
        assertEquals("running", r.json().getJsonObject("result").getString("state"));
        String session = status().getString("session_id");
        r = rpc.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"thread/start\",\"params\":null}");
        assertEquals(200, r.status(), r::body);
        assertEquals(session, r.json().getJsonObject("result").getString("thread_id"));
    }

    // ------------------------------------------------------------------ status, pause, resume (§4.1–4.3)

    @Test
    void statusHasTheDocumentedShapeUnderBothNames() {
        for (String name : new String[] {"server/status", "holon/status"}) {
            JsonObject s = rpc.result(name, null);
            assertEquals(Set.of("state", "events_processed", "last_event_at", "session_id", "paused_at", "resumed_at"),
                    s.keySet(), s::toString);
            assertEquals("running", s.getString("state"));
            assertTrue(s.get("events_processed") instanceof JsonNumber n && n.longValue() >= 0, s::toString);
            assertFalse(s.getString("session_id").isEmpty(), s::toString);
            assertUtcOrNull(s, "last_event_at");
            assertUtcOrNull(s, "paused_at");
            assertUtcOrNull(s, "resumed_at");
        }
    }

    @Test
    void pauseAndResumeAreIdempotentlyReportedAndNotified() {
        String session = unique("pause");
        rpc.result("thread/start", obj("thread_id", session));
        try (Rpc.Stream s = live()) {
            JsonObject paused = rpc.result("server/pause", null);
            assertEquals(JsonValue.TRUE, paused.get("success"));
            assertEquals("Paused event processing", paused.getString("message"));
            JsonObject st = status();
            assertEquals("paused", st.getString("state"));
            Instant pausedAt = assertUtc(st.get("paused_at"), "paused_at");

            assertEquals("failed to pause: already paused", rpc.error("server/pause", null, -32603).getString("message"));
            assertEquals("failed to pause: already paused", rpc.error("holon/pause", null, -32603).getString("message"));
            assertEquals("paused", rpc.result("holon/status", null).getString("state"));

            JsonObject pausedNote = s.await(isMethod("thread/paused"), Duration.ofSeconds(10));
            assertEquals(session, str(params(pausedNote), "thread_id"));
            assertEquals("paused", str(params(pausedNote), "type"));
            assertEquals("paused", str(params(pausedNote), "state"));
            seq(pausedNote);

            JsonObject resumed = rpc.result("server/resume", null);
            assertEquals(JsonValue.TRUE, resumed.get("success"));
            assertEquals("Resumed event processing", resumed.getString("message"));
            st = status();
            assertEquals("running", st.getString("state"));
            Instant resumedAt = assertUtc(st.get("resumed_at"), "resumed_at");
            assertFalse(resumedAt.isBefore(pausedAt), st::toString);
            JsonObject resumedNote = s.await(isMethod("thread/resumed"), Duration.ofSeconds(10));
            assertEquals(session, str(params(resumedNote), "thread_id"));
            assertEquals("resumed", str(params(resumedNote), "type"));
            assertEquals("running", str(params(resumedNote), "state"));
            assertTrue(seq(resumedNote) > seq(pausedNote));

            JsonObject again = rpc.result("holon/resume", null);
            assertEquals(JsonValue.TRUE, again.get("success"));
            assertEquals("Runtime already running", again.getString("message"));
            assertEquals("Runtime already running", rpc.result("server/resume", null).getString("message"));

            // a marker after the idle resumes: by then any notification they made has arrived
            String marker = unique("marker");
            rpc.result("thread/start", obj("thread_id", marker));
            s.await(n -> "thread/started".equals(method(n)) && marker.equals(Rpc.threadId(n)), Duration.ofSeconds(10));
            assertEquals(1, s.inbox.matching(isMethod("thread/resumed")).size(), "an idle resume notifies nothing");
            assertEquals(1, s.inbox.matching(isMethod("thread/paused")).size(), "a refused pause notifies nothing");
        }
    }

    @Test
    void threadStartResumesAPausedRuntime() {
        try (Rpc.Stream s = live()) {
            rpc.result("holon/pause", null);
            String thread = unique("thread_custom");
            JsonObject started = rpc.result("thread/start", obj("thread_id", thread));
            assertEquals(thread, started.getString("thread_id"));
            JsonObject st = status();
            assertEquals("running", st.getString("state"), "thread/start resumed the runtime");
            assertEquals(thread, st.getString("session_id"));
            s.await(isMethod("thread/resumed"), Duration.ofSeconds(10));
            s.await(n -> "thread/started".equals(method(n)) && thread.equals(Rpc.threadId(n)), Duration.ofSeconds(10));
        }
    }

    @Test
    void turnStartResumesAPausedRuntimeWithThreadResumed() {
        String thread = unique("paused-turn");
        try (Rpc.Stream s = live()) {
            rpc.result("server/pause", null);
            String turn = rpc.startTurnId(thread, "while paused");
            assertEquals("running", status().getString("state"), "turn/start resumed the runtime (H10)");
            s.await(isMethod("thread/resumed"), Duration.ofSeconds(10));
            JsonObject end = s.await(endOf(turn), TURN_TIMEOUT);
            assertEquals("turn/completed", method(end), end::toString);
        }
    }

    // ------------------------------------------------------------------ thread/start (§4.5)

    @Test
    void threadStartDefaultsToTheCurrentSessionAndPersistsACustomOne() {
        String before = status().getString("session_id");
        JsonObject r = rpc.result("thread/start", null);
        assertEquals(before, r.getString("thread_id"), "no params: the current session");
        assertEquals(before, r.getString("session_id"));
        assertUtc(r.get("started_at"), "started_at");

        String custom = unique("thread_custom");
        try (Rpc.Stream s = live()) {
            r = rpc.result("thread/start", obj("thread_id", "  " + custom + " "));
            assertEquals(custom, r.getString("thread_id"), "trimmed");
            assertEquals(custom, r.getString("session_id"));
            assertEquals(custom, status().getString("session_id"), "persisted as the session");
            JsonObject note = s.await(n -> "thread/started".equals(method(n)) && custom.equals(Rpc.threadId(n)),
                    Duration.ofSeconds(10));
            assertEquals("started", str(params(note), "type"));
            assertEquals("running", str(params(note), "state"));
            assertUtc(params(note).get("started_at"), "started_at");
            seq(note);
        }
        assertEquals(custom, rpc.result("thread/start", obj()).getString("thread_id"), "now the default");
        assertEquals(custom, rpc.result("holon/status", null).getString("session_id"));
    }

    // ------------------------------------------------------------------ turn/start (§4.6)

    private static JsonObject msg(Object... kv) {
        return obj(kv);
    }

    private static JsonObject part(String type, String text) {
        return text == null ? obj("type", type) : obj("type", type, "text", text);
    }

    @Test
    void turnStartValidationMatrix() {
        String thread = unique("invalid");
        JsonObject ok = Rpc.message("ok");
        record Row(JsonObject params, String field, String reason) {
        }
        List<Row> rows = List.of(
                new Row(null, "input", "input is required"),
                new Row(obj("thread_id", thread), "input", "input is required"),
                new Row(obj("thread_id", thread, "input", arr()), "input", "input is required"),
                new Row(obj("thread_id", thread, "input", arr(msg("type", "text", "content", arr(part("input_text", "x"))))),
                        "input[0].type", "input[0].type must be 'message'"),
                new Row(obj("thread_id", thread, "input", arr(msg("type", "text", "content", arr()))),
                        "input[0].type", "input[0].type must be 'message'"), // first failure wins
                new Row(obj("thread_id", thread, "input", arr(msg("type", "message", "content", arr()))),
                        "input[0].content", "input[0].content is required"),
                new Row(obj("thread_id", thread, "input", arr(msg("type", "message"))),
                        "input[0].content", "input[0].content is required"),
                new Row(obj("thread_id", thread, "input", arr(msg("type", "message",
                        "content", arr(part("input_text", "ok"), part("image", "x"))))),
                        "input[0].content[1].type", "input[0].content[1].type must be 'input_text' or 'text'"),
                new Row(obj("thread_id", thread, "input", arr(msg("type", "message", "content", arr(part("input_text", "   "))))),
                        "input[0].content[0].text", "input[0].content[0].text is required"),
                new Row(obj("thread_id", thread, "input", arr(msg("type", "message", "content", arr(part("input_text", null))))),
                        "input[0].content[0].text", "input[0].content[0].text is required"),
                new Row(obj("thread_id", thread, "input", arr(ok, msg("type", "message", "role", "user",
                        "content", arr(part("input_text", "fine"), part("text", ""))))),
                        "input[1].content[1].text", "input[1].content[1].text is required"),
                new Row(obj("thread_id", thread, "input", arr(ok, msg("type", "tool_call", "content", arr(part("text", "y"))))),
                        "input[1].type", "input[1].type must be 'message'"));
        for (Row row : rows) {
            assertFieldError(rpc.error("turn/start", row.params(), -32602), row.field(), row.reason());
        }
        for (JsonObject malformed : new JsonObject[] {obj("input", "hello"), obj("input", arr(5)),
                obj("thread_id", 7, "input", input("x")), obj("input", obj("type", "message"))}) {
            assertInvalidParams(rpc.error("turn/start", malformed, -32602));
        }
        for (String notAnObject : new String[] {"[]", "\"x\"", "5"}) {
            for (String m : new String[] {"turn/start", "thread/start", "turn/steer", "turn/interrupt"}) {
                Rpc.Raw r = rpc.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + m + "\",\"params\":" + notAnObject + "}");
                assertEquals(200, r.status(), r::body);
                JsonObject error = r.json().getJsonObject("error");
                assertNotNull(error, () -> m + " with params " + notAnObject + ": " + r.body());
                assertEquals(-32602, error.getInt("code"), r::body);
                assertInvalidParams(error);
            }
        }
        assertInvalidParams(rpc.error("thread/start", obj("thread_id", 5), -32602));
        assertInvalidParams(rpc.error("turn/interrupt", obj("turn_id", arr()), -32602));
        assertEquals(0, rpc.result("thread/list", obj("after", thread.substring(0, thread.length() - 1), "limit", 200))
                .getJsonArray("threads").stream().filter(t -> thread.equals(t.asJsonObject().getString("thread_id"))).count(),
                "rejected turns create nothing");
    }

    @Test
    void aTurnNotifiesItsLifecycleInOrderWithIncreasingSeqAndNormalisedInput() {
        String thread = unique("order");
        try (Rpc.Stream s = live(thread)) {
            JsonObject loose = obj("type", "", "content", arr(part("text", "  order-hello  "))); // no role, empty type
            JsonObject started = rpc.result("turn/start", obj("thread_id", thread, "input", arr(loose)));
            String turn = started.getString("turn_id");
            assertTrue(turn.startsWith("turn_"), turn);
            assertEquals("active", started.getString("state"));
            assertUtc(started.get("started_at"), "started_at");

            List<JsonObject> events = s.awaitTurn(turn, TURN_TIMEOUT);
            List<String> m = methods(events);
            assertEquals("turn/started", m.get(0), m::toString);
            assertEquals("item/created", m.get(1), m::toString);
            assertEquals("turn/completed", m.get(m.size() - 1), m::toString);
            assertEquals("item/created", m.get(m.size() - 2), m::toString);
            List<String> middle = m.subList(2, m.size() - 2);
            assertFalse(middle.isEmpty(), () -> "no turn/progress: " + m);
            assertTrue(middle.stream().allMatch("turn/progress"::equals), m::toString);
            List<String> states = events.subList(2, m.size() - 2).stream().map(n -> str(params(n), "state")).toList();
            assertTrue(states.contains("running"), states::toString);
            assertTrue(states.stream().allMatch(st -> st.equals("queued") || st.equals("running")), states::toString);
            int firstRunning = states.indexOf("running");
            assertTrue(states.lastIndexOf("queued") < firstRunning, () -> "queued after running: " + states);

            JsonObject p = params(events.get(0));
            assertEquals("started", p.getString("type"));
            assertEquals("active", p.getString("state"));
            assertEquals(thread, p.getString("thread_id"));
            assertUtc(p.get("started_at"), "turn/started.started_at");

            JsonObject user = params(events.get(1));
            assertEquals("created", user.getString("type"));
            assertEquals("active", user.getString("status"));
            assertFalse(user.getString("item_id").isEmpty());
            assertEquals(turn, user.getString("turn_id"));
            assertEquals(thread, user.getString("thread_id"));
            assertUtc(user.get("timestamp"), "timestamp");
            assertEquals(obj("type", "message", "role", "user", "content", arr(part("input_text", "order-hello"))),
                    user.getJsonObject("content"), "role defaults to user, the part type becomes input_text, text trimmed");

            for (JsonObject progress : events.subList(2, m.size() - 2)) {
                assertEquals(thread, str(params(progress), "thread_id"), progress::toString);
            }

            JsonObject assistant = params(events.get(m.size() - 2));
            assertEquals("completed", assistant.getString("status"));
            assertEquals(turn, assistant.getString("turn_id"));
            assertNotEquals(user.getString("item_id"), assistant.getString("item_id"));
            assertEquals(obj("type", "message", "role", "assistant", "content", arr(part("text", "order-hello"))),
                    assistant.getJsonObject("content"));

            JsonObject done = params(events.get(m.size() - 1));
            assertEquals("completed", done.getString("type"));
            assertEquals("completed", done.getString("state"));
            assertEquals(thread, done.getString("thread_id"));
            assertEquals("order-hello", done.getString("message"));
            Instant startedAt = assertUtc(done.get("started_at"), "started_at");
            assertFalse(assertUtc(done.get("completed_at"), "completed_at").isBefore(startedAt));

            List<JsonObject> all = s.notifications();
            assertEquals("thread/started", method(all.get(0)), "the greeting comes first");
            assertFalse(params(all.get(0)).containsKey("seq"), "the greeting has no seq");
            assertIncreasingSeq(all.subList(1, all.size()));
            assertTrue(all.subList(1, all.size()).stream().allMatch(n -> belongsTo(n, thread, turn)),
                    () -> "a thread_id stream carries only its thread: " + Rpc.summary(all));
        }
    }

    @Test
    void aCompletedTurnEmitsItsReplyAsAnAssistantItemThenCompletedWithTheMessage() {
        String thread = unique("hello");
        try (Rpc.Stream s = live(thread)) {
            String turn = rpc.startTurnId(thread, "sleep 500; hello");
            List<JsonObject> events = s.awaitTurn(turn, TURN_TIMEOUT);
            int n = events.size();
            assertEquals("turn/completed", method(events.get(n - 1)));
            assertEquals("hello", str(params(events.get(n - 1)), "message"));
            assertTrue(itemOf(turn, "assistant").test(events.get(n - 2)), () -> "assistant item right before: " + events);
            assertEquals("hello", text(params(events.get(n - 2))));
            assertEquals(1, events.stream().filter(itemOf(turn, "assistant")).count());
            assertEquals(1, events.stream().filter(endOf(turn)).count(), "exactly one terminal notification");

            JsonObject read = rpc.readTurn(turn);
            JsonObject t = read.getJsonObject("turn");
            assertEquals(Set.of("turn_id", "thread_id", "state", "status", "message", "started_at", "ended_at", "merged_into"),
                    t.keySet(), t::toString);
            assertEquals(turn, t.getString("turn_id"));
            assertEquals(thread, t.getString("thread_id"));
            assertEquals("completed", t.getString("state"));
            assertEquals("hello", t.getString("message"));
            assertEquals(JsonValue.NULL, t.get("merged_into"));
            Instant started = assertUtc(t.get("started_at"), "started_at");
            Instant ended = assertUtc(t.get("ended_at"), "ended_at");
            assertTrue(Duration.between(started, ended).toMillis() >= 400, () -> "the run slept 500 ms: " + t);
            JsonArray runs = read.getJsonArray("runs");
            assertEquals(1, runs.size(), read::toString);
            assertEquals("succeeded", runs.getJsonObject(0).getString("status"), read::toString);
            assertEquals(thread, runs.getJsonObject(0).getString("thread_key"), read::toString);
            List<JsonObject> items = read.getJsonArray("items").getValuesAs(JsonObject.class);
            assertEquals(List.of("user", "assistant"), items.stream().map(Rpc::role).toList(), read::toString);
            assertEquals(List.of("sleep 500; hello", "hello"), items.stream().map(Rpc::text).toList());
        }
    }

    @Test
    void aFailedTurnEndsInterruptedWithStatusFailedAndTheError() {
        String thread = unique("fail");
        try (Rpc.Stream s = live(thread)) {
            String turn = rpc.startTurnId(thread, "fail boom");
            List<JsonObject> events = s.awaitTurn(turn, TURN_TIMEOUT);
            JsonObject end = events.get(events.size() - 1);
            assertEquals("turn/interrupted", method(end), end::toString);
            JsonObject p = params(end);
            assertEquals("interrupted", p.getString("type"));
            assertEquals("interrupted", p.getString("state"));
            assertEquals("failed", p.getString("status"));
            assertEquals("boom", p.getJsonObject("error").getString("message"));
            assertEquals(thread, p.getString("thread_id"));
            assertUtc(p.get("started_at"), "started_at");
            seq(end);
            assertEquals(0, events.stream().filter(itemOf(turn, "assistant")).count(), "no reply");
            assertEquals(0, events.stream().filter(isMethod("turn/completed")).count());
            assertEquals(1, events.stream().filter(endOf(turn)).count());

            JsonObject t = rpc.readTurn(turn).getJsonObject("turn");
            assertEquals("interrupted", t.getString("state"), t::toString);
            assertEquals("failed", t.getString("status"), t::toString);
            assertUtc(t.get("ended_at"), "ended_at");
        }
    }

    @Test
    void theNinthActiveTurnOfAThreadIsRejectedAndEmitsNothing() {
        String thread = unique("full");
        List<String> turns = new ArrayList<>();
        try (Rpc.Stream s = live(thread)) {
            try {
                for (int i = 0; i < 8; i++) {
                    turns.add(rpc.startTurnId(thread, "sleep 3000; full-" + i));
                }
                JsonObject error = rpc.error("turn/start", obj("thread_id", thread, "input", input("sleep 3000; ninth")), -32603);
                assertEquals("session " + thread + " queue is full (8 queued turns)", error.getString("message"));
            } finally {
                for (String turn : turns) {
                    rpc.call("turn/interrupt", obj("turn_id", turn, "reason", "cleanup"));
                }
            }
            for (String turn : turns) {
                JsonObject end = s.await(endOf(turn), TURN_TIMEOUT);
                assertEquals("turn/interrupted", method(end), end::toString);
                assertEquals("interrupted", str(params(end), "status"), end::toString);
            }
            List<String> startedTurns = s.inbox.matching(isMethod("turn/started")).stream().map(Rpc::turnId).toList();
            assertEquals(turns, startedTurns, "the rejected turn emitted no turn/started");
            assertTrue(s.inbox.matching(n -> text(params(n) == null ? obj() : params(n)).contains("ninth")).isEmpty(),
                    "the rejected turn emitted no item");
            assertEquals("turn/completed", method(s.await(endOf(rpc.startTurnId(thread, "after the full queue")), TURN_TIMEOUT)),
                    "the lane is usable again");
        }
    }

    // ------------------------------------------------------------------ turn/steer (§4.7, H5)

    @Test
    void steeringUnknownOrMissingTurnsIsInvalid() {
        assertFieldError(rpc.error("turn/steer", obj("turn_id", "turn_0", "input", input("x")), -32602),
                "turn_id", "turn_id is not active");
        assertFieldError(rpc.error("turn/steer", obj("input", input("x")), -32602), "turn_id", "turn_id is required");
        String thread = unique("steer-done");
        String done = rpc.startTurnId(thread, "finished");
        rpc.awaitTurnEnd(done, TURN_TIMEOUT);
        assertFieldError(rpc.error("turn/steer", obj("turn_id", done, "input", input("late")), -32602),
                "turn_id", "turn_id is not active");
    }

    @Test
    void aSteerRunsUnderTheSameTurnWhichEndsAfterItsLastRun() {
        String thread = unique("steer");
        String first = unique("first");
        try (Rpc.Stream s = live(thread)) {
            String turn = rpc.startTurnId(thread, "sleep 1500; " + first);
            assertFieldError(rpc.error("turn/steer", obj("turn_id", turn, "input", arr()), -32602), "input", "input is required");
            JsonObject steer = rpc.result("turn/steer", obj("turn_id", turn, "input", input("second-a", "second-b")));
            assertEquals(turn, steer.getString("turn_id"));
            assertEquals("active", steer.getString("state"));
            assertEquals(2, steer.getInt("accepted_items"));
            assertUtc(steer.get("accepted_at"), "accepted_at");

            List<JsonObject> events = s.awaitTurn(turn, TURN_TIMEOUT);
            JsonObject end = events.get(events.size() - 1);
            assertEquals("turn/completed", method(end), () -> Rpc.summary(events));
            assertEquals(1, events.stream().filter(endOf(turn)).count(), "one terminal notification");
            assertEquals(1, events.stream().filter(isMethod("turn/started")).count());
            List<JsonObject> users = events.stream().filter(itemOf(turn, "user")).toList();
            assertEquals(List.of("sleep 1500; " + first, "second-a", "second-b"), users.stream().map(n -> text(params(n))).toList());
            List<JsonObject> replies = events.stream().filter(itemOf(turn, "assistant")).toList();
            assertEquals(2, replies.size(), () -> "every reply is emitted: " + Rpc.summary(events));
            assertEquals(first, text(params(replies.get(0))));
            String second = text(params(replies.get(1)));
            // how a two-message input is echoed is the engine's business; it is the steer's input, not the first run's
            assertTrue((second.contains("second-a") || second.contains("second-b")) && !second.contains(first),
                    () -> "the steer's reply echoes its input: " + second);
            assertTrue(seq(replies.get(1)) < seq(end), "the turn ends only after the steer's run");

            JsonObject read = rpc.readTurn(turn);
            assertEquals(2, read.getJsonArray("runs").size(), read::toString);
            assertEquals("completed", read.getJsonObject("turn").getString("state"));
        }
    }

    // ------------------------------------------------------------------ turn/interrupt (§4.8)

    @Test
    void interruptingAnActiveTurnCancelsItPromptlyAndFreesTheLane() {
        String thread = unique("interrupt");
        String reason = unique("stop");
        try (Rpc.Stream s = live(thread)) {
            String turn = rpc.startTurnId(thread, "sleep 600000; never"); // ten minutes: only a cooperative cancel ends it in time
            s.await(progressOf(turn, "running"), Duration.ofSeconds(15));
            JsonObject r = rpc.result("turn/interrupt", obj("turn_id", turn, "reason", reason));
            assertEquals(turn, r.getString("turn_id"));
            assertEquals("cancel_requested", r.getString("state"));
            assertUtc(r.get("interrupted_at"), "interrupted_at");
            assertEquals("Turn interrupted: " + reason, r.getString("message"));

            JsonObject end = s.await(endOf(turn), Duration.ofSeconds(120)); // cancelled cooperatively, not after the sleep
            assertEquals("turn/interrupted", method(end), end::toString);
            assertEquals("interrupted", str(params(end), "status"));
            assertEquals("interrupted", str(params(end), "state"));
            assertTrue(str(params(end), "message").contains(reason), end::toString);
            JsonObject cancel = s.await(progressOf(turn, "cancel_requested"), Duration.ofSeconds(1));
            assertTrue(seq(cancel) < seq(end), "turn/progress cancel_requested comes first");
            List<JsonObject> events = s.inbox.matching(ofTurn(turn));
            assertEquals(0, events.stream().filter(itemOf(turn, "assistant")).count(), "no late reply");
            assertEquals(1, events.stream().filter(endOf(turn)).count());

            assertFieldError(rpc.error("turn/interrupt", obj("turn_id", turn), -32602), "turn_id", "turn_id is not active");
            String next = rpc.startTurnId(thread, "next");
            assertEquals("turn/completed", method(s.await(endOf(next), Duration.ofSeconds(10))), "the lane is free");
            JsonObject t = rpc.readTurn(turn).getJsonObject("turn");
            assertEquals("interrupted", t.getString("state"), t::toString);
            assertEquals("interrupted", t.getString("status"), t::toString);
        }
        assertFieldError(rpc.error("turn/interrupt", obj("turn_id", "turn_0"), -32602), "turn_id", "turn_id is not active");
        // Blank is a mistake, not "no turn" (which would pause the runtime): invalid params, never a state conflict.
        assertFieldError(rpc.error("turn/interrupt", obj("turn_id", " "), -32602), "turn_id", "turn_id must not be empty");
        assertEquals("running", status().getString("state"));
    }

    @Test
    void interruptingATurnAlsoEndsItsQueuedSteer() {
        String thread = unique("interrupt-steer");
        String steered = unique("steered");
        try (Rpc.Stream s = live(thread)) {
            String turn = rpc.startTurnId(thread, "sleep 600000; never"); // ten minutes: only a cooperative cancel ends it in time
            rpc.result("turn/steer", obj("turn_id", turn, "input", input(steered)));
            s.await(progressOf(turn, "running"), Duration.ofSeconds(15));
            rpc.result("turn/interrupt", obj("turn_id", turn, "reason", "enough"));
            JsonObject end = s.await(endOf(turn), Duration.ofSeconds(10));
            assertEquals("turn/interrupted", method(end));
            String next = rpc.startTurnId(thread, "after");
            s.await(endOf(next), Duration.ofSeconds(10));
            assertEquals(0, s.inbox.matching(itemOf(turn, "assistant")).size(), "the steer never ran");
            assertEquals(1, s.inbox.matching(endOf(turn)).size());
            JsonObject read = rpc.readTurn(turn);
            assertEquals(2, read.getJsonArray("runs").size(), read::toString);
            for (JsonValue run : read.getJsonArray("runs")) {
                assertNotEquals("succeeded", run.asJsonObject().getString("status"), read::toString);
                assertNotEquals("running", run.asJsonObject().getString("status"), read::toString);
            }
        }
    }

    @Test
    void interruptWithoutATurnPausesTheRuntime() {
        String reason = unique("all-stop");
        try (Rpc.Stream s = live()) {
            JsonObject r = rpc.result("turn/interrupt", obj("reason", reason));
            String fresh = r.getString("turn_id");
            assertTrue(fresh.startsWith("turn_"), fresh);
            assertEquals("interrupted", r.getString("state"));
            assertUtc(r.get("interrupted_at"), "interrupted_at");
            assertEquals("Turn interrupted: " + reason, r.getString("message"));
            assertEquals("paused", status().getString("state"));
            JsonObject note = s.await(Rpc.ofTurn(fresh, "turn/interrupted"), Duration.ofSeconds(10));
            assertTrue(str(params(note), "message").contains(reason), note::toString);
            seq(note);

            assertEquals("failed to interrupt: already paused",
                    rpc.error("turn/interrupt", null, -32603).getString("message"));
            assertEquals("failed to interrupt: already paused",
                    rpc.error("turn/interrupt", obj("reason", "again"), -32603).getString("message"));
        } finally {
            rpc.ensureRunning();
        }
        assertEquals("running", status().getString("state"));
    }

    // ------------------------------------------------------------------ GET /rpc/stream (§6)

    @Test
    void theStreamNegotiatesAccept() throws IOException {
        String[] refused = {null, "", "application/json", "text/html"};
        for (String accept : refused) {
            HttpResponse<InputStream> r = rpc.openStream(accept, null);
            try (InputStream in = r.body()) {
                assertEquals(400, r.statusCode(), "Accept " + accept);
                assertEquals("{\"error\":{\"code\":\"invalid_accept\","
                        + "\"message\":\"accept header must be application/x-ndjson\"}}",
                        new String(in.readAllBytes(), StandardCharsets.UTF_8).strip(), "Accept " + accept);
            }
        }
        String[] accepted = {"application/x-ndjson", "application/x-ndjson; charset=utf-8", "text/plain, application/x-ndjson",
                "*/*"};
        for (String accept : accepted) {
            HttpResponse<InputStream> r = rpc.openStream(accept, null);
            try (InputStream in = r.body()) {
                assertEquals(200, r.statusCode(), "Accept " + accept);
                assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith(Rpc.NDJSON), r.headers()::toString);
            }
        }
    }

    /** A thread filter that is empty, not storable or not UTF-8 is refused like every other door's, never read as none. */
    @Test
    void aBadThreadFilterIsRefusedNotIgnored() throws IOException {
        String[][] cases = {{"?thread_id=", "invalid_thread_id"}, {"?thread_id=%00", "invalid_text"},
            {"?thread_id=%ff", "invalid_query"}, {"?thread_id=a&thread_id=%20", "invalid_thread_id"}};
        for (String[] c : cases) {
            HttpResponse<InputStream> r = rpc.openStream(Rpc.NDJSON, c[0]);
            try (InputStream in = r.body()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(400, r.statusCode(), c[0] + ": " + body);
                assertTrue(body.contains("\"code\":\"" + c[1] + "\""), c[0] + ": " + body);
            }
        }
    }

    @Test
    void theStreamGreetsWithTheSessionAndKeepsAlive() throws InterruptedException {
        String session = unique("greet");
        rpc.result("thread/start", obj("thread_id", session));
        long asked = System.nanoTime();
        try (Rpc.Stream s = rpc.stream(null)) {
            assertTrue(s.header("Content-Type").startsWith(Rpc.NDJSON), s.headers()::toString);
            assertEquals("no-cache", s.header("Cache-Control"), s.headers()::toString);
            Rpc.Stream.Line first = s.lines.poll(10, TimeUnit.SECONDS);
            assertNotNull(first, "no first line");
            long greetedAfterMs = TimeUnit.NANOSECONDS.toMillis(first.atNanos() - asked);
            assertTrue(greetedAfterMs < 2900, "the greeting goes out at once, not with the first keep-alive (3 s): "
                    + greetedAfterMs + " ms");
            JsonObject greeting = Rpc.parse(first.text());
            assertEquals("2.0", greeting.getString("jsonrpc"));
            assertEquals("thread/started", method(greeting));
            assertFalse(greeting.containsKey("id"));
            assertEquals(session, str(params(greeting), "thread_id"));
            assertEquals("started", str(params(greeting), "type"));
            assertEquals("running", str(params(greeting), "state"));
            assertFalse(params(greeting).containsKey("seq"), "the greeting is not a stored notification");

            long deadline = s.openedNanos + TimeUnit.SECONDS.toNanos(60); // a hang's bound: the period is the server's (3 s)
            boolean keepAlive = false;
            while (!keepAlive) {
                long left = deadline - System.nanoTime();
                Rpc.Stream.Line line = left > 0 ? s.lines.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    break;
                }
                keepAlive = line.text().isEmpty();
            }
            assertTrue(keepAlive, () -> "no bare keep-alive line: " + s.linesSoFar());
        }
    }

    @Test
    void withoutAfterSeqTheStreamIsLiveOnlyAndWithItReplays() {
        String thread = unique("replay");
        List<JsonObject> firstEvents;
        try (Rpc.Stream s = live(thread)) {
            String first = rpc.startTurnId(thread, "replay-one");
            firstEvents = s.awaitTurn(first, TURN_TIMEOUT);
        }
        String first = turnId(firstEvents.get(0));
        String second;
        try (Rpc.Stream s = live(thread)) {
            second = rpc.startTurnId(thread, "replay-two");
            s.awaitTurn(second, TURN_TIMEOUT);
            assertTrue(s.inbox.matching(ofTurn(first)).isEmpty(), () -> "replayed without after_seq: " + Rpc.summary(s.notifications()));
        }
        long s1 = seq(firstEvents.get(0));
        try (Rpc.Stream s = rpc.stream(s1 - 1, thread)) {
            List<JsonObject> secondEvents = s.awaitTurn(second, TURN_TIMEOUT);
            List<JsonObject> stored = s.notifications().stream().filter(Rpc::hasSeq).toList();
            assertIncreasingSeq(stored);
            assertTrue(stored.stream().allMatch(n -> seq(n) > s1 - 1));
            assertEquals(firstEvents, stored.subList(0, firstEvents.size()), "the replay equals what was live");
            assertEquals(secondEvents, stored.stream().filter(ofTurn(second)).toList());
            assertTrue(stored.stream().allMatch(n -> belongsTo(n, thread, first, second)), () -> Rpc.summary(stored));
        }
        try (Rpc.Stream s = rpc.stream(s1, thread)) {
            s.awaitTurn(second, TURN_TIMEOUT);
            List<JsonObject> stored = s.notifications().stream().filter(Rpc::hasSeq).toList();
            assertTrue(seq(stored.get(0)) > s1, "replay starts after after_seq");
            assertEquals(firstEvents.subList(1, firstEvents.size()), stored.subList(0, firstEvents.size() - 1));
        }
    }

    // ------------------------------------------------------------------ reads and lists

    @Test
    void threadListIsOrderedByThreadKeyAndPaged() {
        String prefix = "rpclist" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String a = prefix + "a";
        String b = prefix + "b";
        String c = prefix + "c";
        rpc.awaitTurnEnd(rpc.startTurnId(a, "a"), TURN_TIMEOUT);
        rpc.awaitTurnEnd(rpc.startTurnId(b, "b"), TURN_TIMEOUT);
        String running = rpc.startTurnId(c, "sleep 8000; c");
        try {
            JsonObject page = rpc.result("thread/list", obj("after", prefix, "limit", 2));
            List<JsonObject> threads = page.getJsonArray("threads").getValuesAs(JsonObject.class);
            assertEquals(List.of(a, b), threads.stream().map(t -> t.getString("thread_id")).toList(), page::toString);
            for (JsonObject t : threads) {
                assertEquals(Set.of("thread_id", "created_at", "active_turns", "kind"), t.keySet(), t::toString);
                assertEquals("person", t.getString("kind"), t::toString);
                assertUtc(t.get("created_at"), "created_at");
                assertEquals(0, t.getInt("active_turns"), t::toString);
            }
            assertEquals(b, page.getString("next_after"), page::toString);

            page = rpc.result("thread/list", obj("after", b, "limit", 2));
            JsonObject third = page.getJsonArray("threads").getJsonObject(0);
            assertEquals(c, third.getString("thread_id"), page::toString);
            assertEquals(1, third.getInt("active_turns"), "the running turn is active: " + page);

            JsonObject last = rpc.result("thread/list", obj("after", "zzzzzzzzzzzzzzzzzzzz", "limit", 5));
            assertEquals(0, last.getJsonArray("threads").size(), last::toString);
            assertEquals(JsonValue.NULL, last.get("next_after"), last::toString);
            assertTrue(rpc.result("thread/list", null).getJsonArray("threads").size() <= 50, "default limit 50");
            rpc.error("thread/list", obj("limit", 0), -32602);
            rpc.error("thread/list", obj("limit", 201), -32602);
        } finally {
            rpc.call("turn/interrupt", obj("turn_id", running));
        }
    }

    /**
     * {@code thread/list} leaves internal threads out (an Open Responses chain's) unless
     * {@code include_internal}, tells each thread's kind, and with {@code query} keeps the keys
     * containing it in any case, paged by key. A search's page may end short with a
     * {@code next_after} (its scan is bounded), so the searches here follow {@code next_after} to its end.
     */
    @Test
    void threadListLeavesInternalThreadsOutUnlessAskedAndSearchesKeys() {
        String tag = "rpcfind" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String one = tag + "-One";
        String two = tag + "-Two";
        rpc.awaitTurnEnd(rpc.startTurnId(one, "one"), TURN_TIMEOUT);
        rpc.awaitTurnEnd(rpc.startTurnId(two, "two"), TURN_TIMEOUT);
        Api.Reply event = api.postJson("/ingress/events",
                obj("source", "ci", "type", "ci.build.failed", "scope", obj("repo", "acme/" + tag)).toString());
        assertEquals(202, event.status(), event.body());
        String lane = "event:acme/" + tag;
        assertEquals(lane, event.json().getString("session_key"), event.body());
        Api.Reply response = api.postJson("/v1/responses", obj("model", "echo", "input", "an internal thread").toString());
        assertEquals(200, response.status(), response.body());
        String responseId = response.json().getString("id");
        String chain = "responses/" + responseId;

        List<JsonObject> found = searchAll(obj("query", tag.toUpperCase(java.util.Locale.ROOT), "limit", 200));
        assertEquals(List.of(lane, one, two), found.stream().map(t -> t.getString("thread_id")).toList(), found::toString);
        assertEquals(List.of("integration", "person", "person"), found.stream().map(t -> t.getString("kind")).toList());
        for (JsonObject t : found) {
            assertEquals(Set.of("thread_id", "created_at", "active_turns", "kind"), t.keySet(), t::toString);
        }
        List<JsonObject> onePerPage = searchAll(obj("query", tag + "-", "limit", 1));
        assertEquals(List.of(one, two), onePerPage.stream().map(t -> t.getString("thread_id")).toList(), onePerPage::toString);

        assertEquals(List.of(), searchAll(obj("query", responseId)), "an internal thread is left out by default");
        assertEquals(List.of(), searchAll(obj("query", responseId, "include_internal", false)));
        List<JsonObject> internal = searchAll(obj("query", responseId.toUpperCase(java.util.Locale.ROOT), "include_internal", true));
        assertEquals(1, internal.size(), internal::toString);
        assertEquals(chain, internal.get(0).getString("thread_id"));
        assertEquals("internal", internal.get(0).getString("kind"));
        // Without a search, paging by key from just before the chain: left out, then there.
        String before = chain.substring(0, chain.length() - 1);
        JsonObject hidden = rpc.result("thread/list", obj("after", before, "limit", 200));
        assertTrue(hidden.getJsonArray("threads").getValuesAs(JsonObject.class).stream()
                .noneMatch(t -> chain.equals(t.getString("thread_id")) || "internal".equals(t.getString("kind"))), hidden::toString);
        JsonObject shown = rpc.result("thread/list", obj("after", before, "limit", 1, "include_internal", true));
        assertEquals(chain, shown.getJsonArray("threads").getJsonObject(0).getString("thread_id"), shown::toString);

        assertEquals(List.of(), searchAll(obj("query", tag + "-nothing")));
        assertEquals(searchAll(obj("query", tag, "limit", 200)), searchAll(obj("query", "  " + tag + " ", "limit", 200)),
                "spaces around the text are not searched for");
        JsonObject tooLong = rpc.error("thread/list", obj("query", "q".repeat(513)), -32602);
        assertEquals("query must be at most 512 characters", tooLong.getString("message"), tooLong::toString);
        assertEquals("query", tooLong.getJsonObject("data").getString("field"), tooLong::toString);
        assertEquals("invalid params: include_internal must be a boolean",
                rpc.error("thread/list", obj("include_internal", "yes"), -32602).getString("message"));
        assertEquals("invalid params: query must be a string",
                rpc.error("thread/list", obj("query", 42), -32602).getString("message"));
    }

    /** Every thread a {@code thread/list} search finds, following {@code next_after} to its end. */
    private static List<JsonObject> searchAll(JsonObject params) {
        List<JsonObject> found = new ArrayList<>();
        JsonObject page = rpc.result("thread/list", params);
        for (int calls = 1; ; calls++) {
            found.addAll(page.getJsonArray("threads").getValuesAs(JsonObject.class));
            if (page.get("next_after") instanceof JsonString next) {
                assertTrue(calls < 1_000, "a search that does not end: " + page);
                page = rpc.result("thread/list", Json.createObjectBuilder(params).add("after", next.getString()).build());
            } else {
                return found;
            }
        }
    }

    @Test
    void threadReadReturnsRunsInLaneOrderWithTheirItemsAndPages() {
        String thread = unique("read");
        String one = unique("one");
        String two = unique("two");
        String t1 = rpc.startTurnId(thread, one);
        String t2 = rpc.startTurnId(thread, two);
        rpc.awaitTurnEnd(t1, TURN_TIMEOUT);
        rpc.awaitTurnEnd(t2, TURN_TIMEOUT);

        JsonObject read = rpc.result("thread/read", obj("thread_id", thread));
        assertEquals(thread, read.getJsonObject("thread").getString("thread_id"));
        assertUtc(read.getJsonObject("thread").get("created_at"), "created_at");
        List<JsonObject> runs = read.getJsonArray("runs").getValuesAs(JsonObject.class);
        assertEquals(2, runs.size(), read::toString);
        assertTrue(runs.stream().allMatch(r -> "succeeded".equals(r.getString("status"))), read::toString);
        assertEquals(List.of(one, two), runs.stream().map(r -> r.getJsonObject("output").getString("text")).toList(),
                "lane order");
        List<JsonObject> items = read.getJsonArray("items").getValuesAs(JsonObject.class);
        assertEquals(List.of(one, one, two, two), items.stream().map(Rpc::text).toList(), read::toString);
        assertEquals(List.of("user", "assistant", "user", "assistant"), items.stream().map(Rpc::role).toList());
        assertEquals(List.of(t1, t1, t2, t2), items.stream().map(i -> str(i, "turn_id")).toList(), read::toString);
        assertEquals(JsonValue.NULL, read.get("next_after_seq"), read::toString);

        JsonObject page1 = rpc.result("thread/read", obj("thread_id", thread, "limit", 1));
        assertEquals(1, page1.getJsonArray("runs").size());
        assertEquals(runs.get(0).getString("run_id"), page1.getJsonArray("runs").getJsonObject(0).getString("run_id"));
        assertEquals(List.of(one, one), page1.getJsonArray("items").getValuesAs(JsonObject.class).stream().map(Rpc::text).toList());
        JsonValue next = page1.get("next_after_seq");
        assertTrue(next instanceof JsonNumber, page1::toString);
        JsonObject page2 = rpc.result("thread/read", obj("thread_id", thread, "limit", 1, "after_seq", next));
        assertEquals(1, page2.getJsonArray("runs").size(), page2::toString);
        assertEquals(runs.get(1).getString("run_id"), page2.getJsonArray("runs").getJsonObject(0).getString("run_id"));
        assertEquals(List.of(two, two), page2.getJsonArray("items").getValuesAs(JsonObject.class).stream().map(Rpc::text).toList());
        if (page2.get("next_after_seq") instanceof JsonNumber more) {
            assertEquals(0, rpc.result("thread/read", obj("thread_id", thread, "after_seq", more)).getJsonArray("runs").size());
        }
        assertEquals("thread_id", rpc.error("thread/read", obj(), -32602).getJsonObject("data").getString("field"));
        rpc.error("thread/read", obj("thread_id", thread, "limit", 0), -32602);
        rpc.error("thread/read", obj("thread_id", thread, "limit", 201), -32602);
    }

    @Test
    void turnReadRequiresATurnId() {
        assertEquals("turn_id", rpc.error("turn/read", obj(), -32602).getJsonObject("data").getString("field"));
    }

    // ------------------------------------------------------------------ idempotency (H11)

    @Test
    void anIdempotencyKeyMakesTurnStartIdempotent() {
        String thread = unique("idem");
        String key = unique("key");
        JsonObject params = obj("thread_id", thread, "input", input("sleep 800; idem"), "idempotency_key", key);
        try (Rpc.Stream s = live(thread)) {
            JsonObject first = rpc.result("turn/start", params);
            JsonObject again = rpc.result("turn/start", params);
            assertEquals(first.getString("turn_id"), again.getString("turn_id"));
            assertEquals(first.getString("started_at"), again.getString("started_at"));
            rpc.awaitTurnEnd(first.getString("turn_id"), TURN_TIMEOUT);
            assertEquals(first.getString("turn_id"), rpc.result("turn/start", params).getString("turn_id"),
                    "still the same turn after it ended");

            String other = rpc.startTurnId(thread, "other");
            assertNotEquals(first.getString("turn_id"), other);
            s.await(endOf(other), TURN_TIMEOUT);
            assertEquals(List.of(first.getString("turn_id"), other),
                    s.inbox.matching(isMethod("turn/started")).stream().map(Rpc::turnId).toList(), "one turn per key");
            assertEquals(2, rpc.result("thread/read", obj("thread_id", thread)).getJsonArray("runs").size());
        }
    }

    // ------------------------------------------------------------------ logStream (§4.4, H12)

    @Test
    void logStreamReturnsThisInstancesLogUnderBothNames() {
        for (String name : new String[] {"server/logStream", "holon/logStream"}) {
            long now = Instant.now().getEpochSecond();
            JsonObject r = rpc.result(name, obj("max_lines", 5));
            String streamId = r.getString("stream_id");
            assertTrue(streamId.matches("stream_\\d+"), streamId);
            assertTrue(Math.abs(Long.parseLong(streamId.substring(7)) - now) < 600, streamId);
            JsonArray logs = r.getJsonArray("logs");
            assertTrue(logs.size() >= 1 && logs.size() <= 5, r::toString);
            for (JsonValue v : logs) {
                JsonObject entry = v.asJsonObject();
                assertTrue(entry.get("level") instanceof JsonString, entry::toString);
                assertTrue(entry.get("message") instanceof JsonString, entry::toString);
                assertUtcOrNull(entry, "time");
            }
            assertTrue(rpc.result(name, obj("max_lines", 2, "from_position", 1)).getJsonArray("logs").size() <= 2);
            assertEquals("max_lines must be between 1 and 10000", rpc.error(name, obj("max_lines", 0), -32602).getString("message"));
            assertEquals("max_lines must be between 1 and 10000",
                    rpc.error(name, obj("max_lines", 10001), -32602).getString("message"));
            rpc.error(name, obj("from_position", -1), -32602);
        }
    }
}
