package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** API tokens map callers to users; users never see each other's threads or runs. */
class AuthIT {

    private static final int PORT = 9184;
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-0123456789abc";
    private static final String CAROL = "carol-token-0123456789";
    private static Instance instance;
    private static Api api;

    @BeforeAll
    static void start() {
        String db = TestDatabase.recreate("switchboard_it_auth");
        Map<String, String> env = Instance.defaults(db, PORT, "it-auth");
        env.put("SWITCHBOARD_AUTH_TOKENS", ALICE + "=alice," + BOB + "=bob," + CAROL + "=carol");
        env.put("SWITCHBOARD_AUTH_OPERATORS", "carol");
        instance = Instance.start("it-auth", PORT, env);
        api = instance.api;
    }

    @AfterAll
    static void stop() {
        if (instance != null) {
            instance.stop();
        }
    }

    private static Api.Reply post(String token, String body) {
        HttpRequest.Builder b = api.request("/v1/messages").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return api.send(b);
    }

    private static Api.Reply get(String token, String path) {
        return api.send(api.request(path).header("Authorization", "Bearer " + token).GET());
    }

    @Test
    void callersNeedAKnownToken() {
        Api.Reply none = post(null, "{\"text\":\"hi\"}");
        assertEquals(401, none.status());
        assertEquals("unauthorized", none.errorCode());
        assertEquals(401, post("wrong-token-0123456789", "{\"text\":\"hi\"}").status());
        assertEquals(200, api.get("/healthz").status(), "the probe stays public");
    }

    @Test
    void usersAreIsolated() {
        JsonObject alices = post(ALICE, "{\"text\":\"alice's\",\"thread_key\":\"shared-name\"}").json();
        JsonObject bobs = post(BOB, "{\"text\":\"bob's\",\"thread_key\":\"shared-name\"}").json();
        assertEquals(1, alices.getInt("thread_seq"));
        assertEquals(1, bobs.getInt("thread_seq"), "same key, different users: different threads");

        String runId = alices.getString("run_id");
        assertEquals(200, get(ALICE, "/v1/runs/" + runId).status());
        assertEquals(404, get(BOB, "/v1/runs/" + runId).status());
        assertEquals(1, get(BOB, "/v1/threads/shared-name/runs").json().getJsonArray("runs").size());

        String key = "{\"text\":\"k\",\"idempotency_key\":\"same-key\"}";
        assertNotEquals(post(ALICE, key).json().getString("run_id"), post(BOB, key).json().getString("run_id"),
                "idempotency keys are scoped per user");
    }

    @Test
    void theWebSocketNeedsAKnownTokenInTheHeaderOrTheQuery() throws Exception {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> RpcSocket.connect(PORT));
        assertTrue(refused.getCause() instanceof WebSocketHandshakeException, refused.toString());
        assertEquals(401, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
        IllegalStateException wrong = assertThrows(IllegalStateException.class,
                () -> RpcSocket.connect(PORT, "Authorization", "Bearer wrong-token-0123456789"));
        assertEquals(401, ((WebSocketHandshakeException) wrong.getCause()).getResponse().statusCode());

        try (RpcSocket viaHeader = RpcSocket.connect(PORT, "Authorization", "Bearer " + ALICE);
                RpcSocket viaQuery = RpcSocket.connectAsync(
                        URI.create("ws://127.0.0.1:" + PORT + "/ws?access_token=" + BOB)).get(15, TimeUnit.SECONDS)) {
            String aliceThread = viaHeader.result("thread/start", Json.createObjectBuilder()
                    .add("thread_id", "ws-alice").build()).getString("thread_id");
            assertEquals("ws-alice", aliceThread);
            assertEquals("main", viaQuery.result("server/status", null).getString("session_id"),
                    "bob's runtime is his own: alice's thread/start did not change it");
        }
    }

    @Test
    void theResponsesWebSocketNeedsAKnownToken() {
        for (String[] headers : new String[][] {{}, {"Authorization", "Bearer wrong-token-0123456789"}}) {
            CompletionException refused = assertThrows(CompletionException.class,
                    () -> ResponsesSocketClient.connect(PORT, headers));
            assertTrue(refused.getCause() instanceof WebSocketHandshakeException, refused.toString());
            assertEquals(401, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
        }
        try (ResponsesSocketClient alice = ResponsesSocketClient.connect(PORT, "Authorization", "Bearer " + ALICE)) {
            alice.create(Json.createObjectBuilder().add("previous_response_id", "resp_someone_elses").add("input", "x")
                    .build());
            JsonObject answer = alice.next(Duration.ofSeconds(30));
            assertEquals("error", answer.getString("type"), answer.toString());
            assertEquals(404, answer.getInt("status"), answer.toString());
        }
    }

    @Test
    void subscribersSeeOnlyTheirOwnUsersNotifications() throws Exception {
        try (RpcSocket alice = RpcSocket.connect(PORT, "Authorization", "Bearer " + ALICE);
                RpcSocket bob = RpcSocket.connect(PORT, "Authorization", "Bearer " + BOB)) {
            alice.result("subscribe", null);
            bob.result("subscribe", null);
            String alicesTurn = post(ALICE, "{\"text\":\"for alice\",\"thread_key\":\"iso\"}").json().getString("turn_id");
            String bobsTurn = post(BOB, "{\"text\":\"for bob\",\"thread_key\":\"iso\"}").json().getString("turn_id");
            alice.notifications.await(Rpc.endOf(alicesTurn), Duration.ofSeconds(20));
            bob.notifications.await(Rpc.endOf(bobsTurn), Duration.ofSeconds(20));
            assertTrue(alice.notifications.matching(Rpc.ofTurn(bobsTurn)).isEmpty(), "alice saw bob's turn");
            assertTrue(bob.notifications.matching(Rpc.ofTurn(alicesTurn)).isEmpty(), "bob saw alice's turn");
            try (RpcSocket replay = RpcSocket.connect(PORT, "Authorization", "Bearer " + ALICE)) {
                replay.result("subscribe", Json.createObjectBuilder().add("after_seq", 0).build());
                replay.notifications.await(Rpc.endOf(alicesTurn), Duration.ofSeconds(20));
                assertTrue(replay.notifications.matching(Rpc.ofTurn(bobsTurn)).isEmpty(), "a replay is per user too");
            }
        }
    }

    private static List<String> logLines(String token) {
        Api.Reply r = api.send(api.request("/rpc").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/logStream\","
                        + "\"params\":{\"max_lines\":10000}}")));
        assertEquals(200, r.status(), r.body());
        return r.json().getJsonObject("result").getJsonArray("logs").stream()
                .map(v -> v.asJsonObject().getString("level") + " " + v.asJsonObject().getString("message")).toList();
    }

    private static void rpc(String token, String method) {
        Api.Reply r = api.send(api.request("/rpc").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\"}")));
        assertEquals(200, r.status(), r.body());
    }

    @Test
    void theLogStreamShowsEachUserOnlyItsOwnEntriesAndOperatorsTheServer() {
        rpc(ALICE, "server/pause");
        rpc(ALICE, "server/resume");
        List<String> alices = logLines(ALICE);
        assertTrue(alices.contains("info Paused event processing"), alices::toString);
        assertTrue(alices.contains("info Resumed event processing"), alices::toString);
        assertTrue(alices.stream().noneMatch(l -> l.contains("Log journal attached")), "server lines are for operators");
        List<String> bobs = logLines(BOB);
        assertTrue(bobs.stream().noneMatch(l -> l.contains("event processing")), "bob saw alice's entries: " + bobs);
        List<String> carols = logLines(CAROL);
        assertTrue(carols.contains("info Log journal attached"), "an operator sees the server's lines");
        assertTrue(carols.contains("info Paused event processing"), "an operator sees every user's entries");
        for (String line : carols) {
            assertFalse(line.contains("\n") || line.contains("Exception") || line.matches(".*\\bat [a-z]+\\.[a-z].*\\(.*"),
                    "a log line written for clients has no stack trace or exception class: " + line);
        }
    }
}
