package dev.switchboard.it;

import static dev.switchboard.it.ChatCalls.assertError;
import static dev.switchboard.it.ChatCalls.get;
import static dev.switchboard.it.ChatCalls.lastResponse;
import static dev.switchboard.it.ChatCalls.send;
import static dev.switchboard.it.ChatCalls.threadOf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;


/**
 * Tool approvals on chat threads, end to end: two instances on one database running the
 * {@code openresponses} engine against a scripted model server on loopback, with {@code echo_tool}
 * needing approval once per session. A call waits for a person, the thread shows the request
 * (redacted), input is answered with a reminder, answers are checked (channel, request id, once),
 * and approve, always and deny carry the tool loop on — across a crash of the instance that asked,
 * on the other instance, over HTTP, keywords and the WebSocket. {@code /interrupt} while a tool
 * works ends the turn at once.
 *
 * <p>The model: to {@code tool <x>}, a call of {@code echo_tool} with {@code x}; to
 * {@code secret <x>}, the same with a {@code token}; to {@code both <x>}, two such calls in one
 * message; to {@code fetch <x>}, a call of {@code http_get} on a page the test holds; after a
 * tool's output, {@code tool said: <output>}; otherwise {@code heard: <text>}.
 */
@Order(7) // among the longest classes: started early in the parallel run (ear/pom.xml)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the crash test last: A stays down after it
class ChatApprovalIT {

    private static final int PORT_A = 9213;
    private static final int PORT_B = 9214;
    private static final String ALICE = "alice-approval-token-0123456";
    private static final String BOB = "bob-approval-token-012345678";
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String CREDENTIALS_KEY = java.util.Base64.getEncoder().encodeToString(
            java.util.UUID.randomUUID().toString().replace("-", "").getBytes(StandardCharsets.US_ASCII));
    private static final List<JsonObject> REQUESTS = new CopyOnWriteArrayList<>();
    private static final CountDownLatch SLOW_HIT = new CountDownLatch(1);
    private static final CountDownLatch SLOW_RELEASE = new CountDownLatch(1);
    private static HttpServer model;
    private static Instance a;
    private static Instance b;
    /** Whether the crash test killed A: a killed instance is not stopped (nor its workarea kept as a template). */
    private static volatile boolean aKilled;

    /**
     * A and B, shared with ResponseStreamIT (one pair of Liberty starts instead of two): its user
     * is one of its own, its model requests say {@link ResponseStreamIT#ASKS} and go to its own
     * script, and this class's crash test, which kills A, waits for it to finish first.
     */
    private static final InstanceForClasses<Pair> SHARED = new InstanceForClasses<>(
            Set.of(ChatApprovalIT.class, ResponseStreamIT.class), ChatApprovalIT::startShared, ChatApprovalIT::stopShared);

    /** Two instances on one database, with the scripted model server of both classes. */
    record Pair(Instance a, Instance b) {
    }

    @BeforeAll
    static void start() {
        Pair pair = SHARED.get();
        a = pair.a();
        b = pair.b();
    }

    /** The pair for ResponseStreamIT: each instance serves the other's responses from the stored events. */
    static Pair pair() {
        return SHARED.get();
    }

    static void finished(Class<?> user) {
        SHARED.finished(user);
    }

    private static Pair startShared() {
        try {
            model = ScriptedResponses.start(ChatApprovalIT::answer);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        model.createContext("/slow/", exchange -> { // what http_get fetches: held until the test lets it go
            SLOW_HIT.countDown();
            await(SLOW_RELEASE);
            byte[] body = "slow page".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        String db = TestDatabase.recreate("switchboard_it_chat_approval");
        return new Pair(Instance.start("it-approval-a", PORT_A, env(db, PORT_A, "it-approval-a")),
                Instance.start("it-approval-b", PORT_B, env(db, PORT_B, "it-approval-b")));
    }

    private static Map<String, String> env(String db, int port, String name) {
        Map<String, String> env = Instance.defaults(db, port, name);
        env.put("SWITCHBOARD_AUTH_TOKENS", ALICE + "=alice," + BOB + "=bob," + ResponseStreamIT.TOKEN + "=streamer");
        ScriptedResponses.engine(env, model);
        env.put("SWITCHBOARD_TOOLS", "echo_tool,current_time,http_get");
        env.put("SWITCHBOARD_TOOLS_HTTP_GET_ALLOW", "http://127.0.0.1:" + model.getAddress().getPort() + "/slow/");
        env.put("SWITCHBOARD_CHAT_TOOL_APPROVALS", "echo_tool=once,current_time=never");
        // The instances of one deployment share the key that seals a waiting call's redacted
        // arguments (docs/operations.md): B opens what A sealed once A has crashed.
        env.put("SWITCHBOARD_CREDENTIALS_KEY", CREDENTIALS_KEY);
        env.put("SWITCHBOARD_NOTIFY_POLL_MS", "100"); // ResponseStreamIT's follower on the instance that does not run the response
        return env;
    }

    /** At once: ResponseStreamIT's followers may still hold streams open. */
    private static void stopShared(Pair pair) {
        SLOW_RELEASE.countDown();
        if (!aKilled) {
            pair.a().stopNow();
        }
        pair.b().stopNow();
        model.stop(0);
    }

    @AfterAll
    static void stop() {
        SLOW_RELEASE.countDown();
        SHARED.finished(ChatApprovalIT.class);
    }

    @Test
    void aCallWaitsForAPersonWhoseApprovalCarriesTheLoopOnOnce() throws Exception {
        String thread = threadOf(send(a, ALICE, "telegram", "room-1", "tool hello"));
        JsonObject pending = awaitPending(a, ALICE, thread);
        assertEquals("echo_tool", pending.getString("tool_name"));
        assertEquals("hello", pending.getJsonObject("parameters").getString("text"));
        assertTrue(pending.getBoolean("allow_always"));
        String requestId = pending.getString("request_id");

        Api.Reply meanwhile = send(a, ALICE, "telegram", "room-1", "what now?");
        assertEquals(200, meanwhile.status(), meanwhile.body());
        assertTrue(meanwhile.json().getString("message").startsWith("Waiting for approval: echo_tool — "),
                meanwhile.body());
        int calls = REQUESTS.size();

        assertError(approve(a, ALICE, thread, requestId, "approve", "slack"), 403, "approval_not_authorized");
        assertError(approve(a, ALICE, thread, "7d3f9b1e-0c55-4e1a-9f6b-2a4c8e0d1b39", "approve", "telegram"), 409,
                "request_id_mismatch");
        assertError(approve(a, BOB, thread, requestId, "approve", "web"), 404, "thread_not_found");
        assertError(approve(a, ALICE, thread, requestId, "maybe", "web"), 400, "invalid_chat_payload");
        assertEquals(calls, REQUESTS.size(), "nothing ran");

        Api.Reply approved = approve(b, ALICE, thread, requestId, "approve", "telegram");
        assertEquals(202, approved.status(), approved.body());
        assertEquals("tool said: hello", lastResponse(b, ALICE, thread, 2), "carried on by the other instance");
        assertError(approve(a, ALICE, thread, requestId, "approve", "web"), 409, "no_pending_approval");
        JsonObject shown = get(a, ALICE, "/v1/chat/threads/" + thread).json().getJsonObject("thread");
        assertEquals("Idle", shown.getString("state"));
        assertTrue(shown.isNull("pending_approval"));
        JsonArray sent = REQUESTS.get(REQUESTS.size() - 1).getJsonArray("input");
        assertEquals("hello", sent.getJsonObject(sent.size() - 1).getString("output"), "the model got the tool's output");

        String stream = get(a, ALICE, "/v1/chat/threads/" + thread + "/events?last_event_id=0", 2);
        assertTrue(stream.indexOf("event: approval/requested") < stream.indexOf("event: approval/resolved")
                && stream.contains("event: approval/resolved"), stream);
        assertTrue(stream.contains("\"action\":\"approve\""), stream);
    }

    @Test
    void denyEndsTheTurnWithoutTheModelAndAlwaysIsRemembered() throws Exception {
        String thread = threadOf(send(a, ALICE, "web", "room-2", "tool one"));
        awaitPending(a, ALICE, thread);
        int calls = REQUESTS.size();
        Api.Reply denied = send(a, ALICE, "web", "room-2", "no");
        assertEquals(202, denied.status(), denied.body());
        assertTrue(denied.json().getString("message").startsWith("Tool 'echo_tool' was rejected."), denied.body());
        assertTrue(lastResponse(a, ALICE, thread, 2).startsWith("Tool 'echo_tool' was rejected."));
        assertEquals(calls, REQUESTS.size(), "no model call for a rejection");

        send(a, ALICE, "web", "room-2", "tool two");
        awaitPending(a, ALICE, thread);
        assertEquals(202, send(a, ALICE, "web", "room-2", "always").status());
        assertEquals("tool said: two", lastResponse(a, ALICE, thread, 4));
        send(a, ALICE, "web", "room-2", "tool three");
        assertEquals("tool said: three", lastResponse(a, ALICE, thread, 5), "no approval asked after always");
    }

    /**
     * Last of the class: A is killed and stays down, and B — on the same database, holding nothing
     * of A's memory — finds the same request and carries the loop on, opening the arguments A
     * sealed. Restarting A instead would cost a Liberty start: a restarted instance reads the
     * request from the same rows, under a new lease owner (LaneSettings.newOwnerName), as B does;
     * that a restarted instance keeps its own sealing key file is ChatAuthIT's restart test's.
     */
    @Test
    @Order(Order.DEFAULT + 1)
    void theRequestShowsRedactedParametersAndSurvivesACrash() throws Exception {
        String thread = threadOf(send(a, BOB, "web", "room-3", "secret abc"));
        JsonObject pending = awaitPending(a, BOB, thread);
        assertEquals("[REDACTED]", pending.getJsonObject("parameters").getString("token"));
        String stream = get(a, BOB, "/v1/chat/threads/" + thread + "/events?last_event_id=0", 2);
        int at = stream.indexOf("event: approval/requested");
        assertTrue(at >= 0, stream);
        String requested = stream.substring(at, stream.indexOf("\n\n", at));
        assertTrue(requested.contains("[REDACTED]") && !requested.contains("s3cr3t"), requested);

        SHARED.awaitTheOthers(ChatApprovalIT.class, Duration.ofMinutes(10)); // ResponseStreamIT needs A
        a.kill(); // kill -9; B answers from here on
        aKilled = true;
        JsonObject after = awaitPending(b, BOB, thread);
        assertEquals(pending.getString("request_id"), after.getString("request_id"), "the same request after the crash");
        assertEquals(202, approve(b, BOB, thread, after.getString("request_id"), "approve", "web").status());
        assertEquals("tool said: abc", lastResponse(b, BOB, thread, 2));
    }

    @Test
    void eachOfAMessagesCallsIsAskedForInTurnAndInterruptDropsWhatWaits() throws Exception {
        String thread = threadOf(send(a, BOB, "web", "room-4", "both x"));
        JsonObject first = awaitPending(a, BOB, thread);
        assertEquals("x", first.getJsonObject("parameters").getString("text"));
        assertEquals(202, approve(a, BOB, thread, first.getString("request_id"), "approve", "web").status());
        Await.until(DEADLINE, () -> {
            JsonObject p = pendingOf(a, BOB, thread);
            return p != null && !p.getString("request_id").equals(first.getString("request_id"));
        }, "the message's second call waits in turn");
        assertEquals("x!", pendingOf(a, BOB, thread).getJsonObject("parameters").getString("text"));

        Api.Reply interrupted = send(a, BOB, "web", "room-4", "/interrupt");
        assertEquals("Interrupted.", interrupted.json().getString("message"));
        assertTrue(pendingOf(a, BOB, thread) == null, "the approval is dropped (I5)");
        send(a, BOB, "web", "room-4", "hello again");
        assertEquals("heard: hello again", lastResponse(a, BOB, thread, 3));
        JsonArray sent = REQUESTS.get(REQUESTS.size() - 1).getJsonArray("input");
        assertFalse(sent.toString().contains("\"call_id\":\"call_2_"), "the unanswered call is not sent: " + sent);
    }

    @Test
    void aToolThatNeedsAPersonIsRefusedWhereNobodyCanBeAsked() throws Exception {
        Api.Reply reply = a.api.send(a.api.request("/v1/messages").header("Authorization", "Bearer " + ALICE)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"thread_key\":\"plain\",\"text\":\"tool nope\"}")));
        assertEquals(202, reply.status(), reply.body());
        String runId = reply.json().getString("run_id");
        Await.until(DEADLINE, () -> !get(a, ALICE, "/v1/runs/" + runId).json().getString("status").equals("running"),
                "the run ends");
        assertEquals("tool said: error: not approved: the tool needs a person's approval, which only a chat thread can"
                + " ask for", get(a, ALICE, "/v1/runs/" + runId).json().getJsonObject("output").getString("text"));
    }

    @Test
    void anApprovalCanBeAnsweredOverTheWebSocket() throws Exception {
        String thread = threadOf(send(a, ALICE, "cli", "room-5", "tool over ws"));
        JsonObject pending = awaitPending(a, ALICE, thread);
        try (RpcSocket socket = RpcSocket.connect(PORT_B, "Authorization", "Bearer " + ALICE)) {
            JsonObject answered = socket.call("chat/approve", Json.createObjectBuilder().add("thread_id", thread)
                    .add("request_id", pending.getString("request_id")).add("action", "approve").add("channel", "cli")
                    .build());
            assertEquals("started", answered.getJsonObject("result").getString("status"), answered.toString());
            JsonObject again = socket.call("chat/approve", Json.createObjectBuilder().add("thread_id", thread)
                    .add("request_id", pending.getString("request_id")).add("action", "approve").build());
            assertEquals(-32602, again.getJsonObject("error").getInt("code"), "answered once: " + again);
        }
        assertEquals("tool said: over ws", lastResponse(a, ALICE, thread, 2));
    }

    @Test
    void theCliListsPendingApprovalsAndAnswersThem() throws Exception {
        String thread = threadOf(send(a, BOB, "cli", "room-cli", "tool from the terminal"));
        JsonObject pending = awaitPending(a, BOB, thread);
        Map<String, String> env = Map.of("SWITCHBOARD_TOKEN", BOB);
        String url = "http://127.0.0.1:" + PORT_B;
        Cli.Result listed = Cli.run(url, env, "chat", "pending");
        assertEquals(0, listed.exit(), listed.toString());
        assertTrue(listed.out().contains(thread + "  approval  " + pending.getString("request_id") + "  echo_tool "),
                listed.toString());
        Cli.Result refused = Cli.run(url, env, "chat", "approve", thread, "--channel", "slack");
        assertEquals(1, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("approval not authorized for this channel"), refused.toString());
        Cli.Result approved = Cli.run(url, env, "chat", "approve", thread, "--request-id", pending.getString("request_id"));
        assertEquals(0, approved.exit(), approved.toString());
        assertTrue(approved.out().startsWith("started " + thread + " turn_"), approved.toString());
        assertEquals("tool said: from the terminal", lastResponse(a, BOB, thread, 2));
        assertFalse(Cli.run(url, env, "chat", "pending").out().contains(thread));
    }

    @Test
    void interruptDuringAToolCallEndsTheTurnAtOnceAndItsLateOutputIsDropped() throws Exception {
        String thread = threadOf(send(a, BOB, "web", "room-6", "fetch page"));
        assertTrue(SLOW_HIT.await(30, java.util.concurrent.TimeUnit.SECONDS), "the tool is fetching");
        Api.Reply interrupted = send(a, BOB, "web", "room-6", "/interrupt");
        assertEquals("Interrupted.", interrupted.json().getString("message"), interrupted.body());
        Await.until(DEADLINE, () -> "Idle".equals(get(a, BOB, "/v1/chat/threads/" + thread).json()
                .getJsonObject("thread").getString("state")), "the thread is idle while the tool still runs");
        SLOW_RELEASE.countDown();
        send(a, BOB, "web", "room-6", "after the stop");
        assertEquals("heard: after the stop", lastResponse(a, BOB, thread, 2));
        JsonObject first = get(a, BOB, "/v1/chat/threads/" + thread).json().getJsonArray("turns").getJsonObject(0);
        assertEquals("Interrupted", first.getString("state"));
        assertFalse(get(a, BOB, "/v1/threads/" + thread + "/items").body().contains("slow page"),
                "the tool's late output joined nothing");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        JsonObject request = ScriptedResponses.read(exchange);
        if (ResponseStreamIT.asks(request)) {
            ResponseStreamIT.answerWordByWord(exchange);
            return;
        }
        REQUESTS.add(request);
        JsonObject last = ScriptedResponses.last(request);
        String id = "resp_" + REQUESTS.size();
        JsonArrayBuilder output = Json.createArrayBuilder();
        JsonObject toolSaid = ScriptedResponses.toolSaid(last);
        if (toolSaid != null) {
            output.add(toolSaid);
        } else {
            String text = last.getJsonArray("content").getJsonObject(0).getString("text");
            if (text.startsWith("tool ")) {
                output.add(call(id, 1, Json.createObjectBuilder().add("text", text.substring(5)).build()));
            } else if (text.startsWith("secret ")) {
                output.add(call(id, 1, Json.createObjectBuilder().add("text", text.substring(7)).add("token", "s3cr3t")
                        .build()));
            } else if (text.startsWith("fetch ")) {
                output.add(ScriptedResponses.fetch(model, "call_f_" + id, "/slow/" + text.substring(6)));
            } else if (text.startsWith("both ")) {
                output.add(call(id, 1, Json.createObjectBuilder().add("text", text.substring(5)).build()));
                output.add(call(id, 2, Json.createObjectBuilder().add("text", text.substring(5) + "!").build()));
            } else {
                output.add(ScriptedResponses.message("heard: " + text));
            }
        }
        ScriptedResponses.stream(exchange, id, output.build());
    }

    private static JsonObject call(String responseId, int n, JsonObject arguments) {
        return ScriptedResponses.functionCall("call_" + n + "_" + responseId, "echo_tool", arguments);
    }

    private static Api.Reply approve(Instance on, String token, String thread, String requestId, String action,
            String channel) {
        String body = Json.createObjectBuilder().add("request_id", requestId).add("action", action)
                .add("channel", channel).build().toString();
        return on.api.send(on.api.request("/v1/chat/threads/" + thread + "/approval")
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonObject pendingOf(Instance on, String token, String thread) {
        JsonObject t = get(on, token, "/v1/chat/threads/" + thread).json().getJsonObject("thread");
        return t.isNull("pending_approval") ? null : t.getJsonObject("pending_approval");
    }

    private static JsonObject awaitPending(Instance on, String token, String thread) throws InterruptedException {
        Await.until(DEADLINE, () -> {
            JsonObject t = get(on, token, "/v1/chat/threads/" + thread).json().getJsonObject("thread");
            return "AwaitingApproval".equals(t.getString("state"));
        }, "thread " + thread + " awaits approval");
        return pendingOf(on, token, thread);
    }

}
