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
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * API tokens map callers to users; users never see each other's threads or runs. On the shared
 * authenticated instance, as alice, bob and carol (its only operator): in write mode, because its
 * tests read what every user's traffic leaves — the server's log file, where nothing may be added
 * while they run, and an operator's view of every user's log lines — so no other class runs on it
 * meanwhile.
 */
@ResourceLock(value = SharedInstance.AUTH_LOCK, mode = ResourceAccessMode.READ_WRITE)
class AuthIT {

    private static final int PORT = SharedInstance.AUTH_PORT;
    private static final String ALICE = SharedInstance.AUTH_ALICE;
    private static final String BOB = SharedInstance.AUTH_BOB;
    private static final String CAROL = SharedInstance.AUTH_CAROL;
    /** Prometheus' token: it reads /metrics and nothing else. */
    private static final String SCRAPER = SharedInstance.AUTH_SCRAPER;
    private static Api api;

    @BeforeAll
    static void start() {
        api = SharedInstance.authenticated().api;
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

    private static Api.Reply send(String token, String method, String path, String body) {
        HttpRequest.Builder b = api.request(path).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return api.send(b);
    }

    private static String log() throws java.io.IOException {
        return java.nio.file.Files.readString(Instance.outputDir(SharedInstance.AUTH_NAME).resolve("switchboard/logs/messages.log"));
    }

    /**
     * {@code /metrics} shows every user's traffic (issue 49: it needed no token, and a Basic header
     * made Liberty log an error and an incident): an operator or the metrics token reads it, another
     * user is forbidden, no token or a Basic one is refused as unauthorized — in the envelope, with
     * {@code WWW-Authenticate}, and nothing in the server's log.
     */
    @Test
    void metricsAreForOperatorsAndTheScrapeTokenOnly() throws Exception {
        String logBefore = log();
        assertEquals(200, send(CAROL, "GET", "/metrics?scope=application", null).status());
        Api.Reply scraped = send(SCRAPER, "GET", "/metrics", null);
        assertEquals(200, scraped.status(), scraped.body());
        assertTrue(scraped.body().contains("switchboard_runs_executing"), "the exposition");
        Api.Reply bob = send(BOB, "GET", "/metrics", null);
        assertEquals(403, bob.status(), bob.body());
        assertEquals("forbidden", bob.errorCode());
        for (String token : new String[] {null, "Basic Zm9vOmJhcg==", "wrong-token-0123456789"}) {
            HttpResponse<String> refused = Api.CLIENT.send(token == null ? api.request("/metrics").GET().build()
                    : api.request("/metrics").header("Authorization", token.startsWith("Basic ") ? token : "Bearer " + token)
                            .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, refused.statusCode(), refused.body());
            assertTrue(refused.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), refused.headers().toString());
        }
        assertEquals(401, send(SCRAPER, "GET", "/v1/threads/x/runs", null).status(), "the metrics token opens nothing else");
        String added = log().substring(logBefore.length());
        assertFalse(added.contains("CWWKS") || added.contains("FFDC"), "no security error or incident: " + added);
    }

    /**
     * A response is its owner's to delete, under both bases (OpenAI's {@code DELETE}); afterwards it
     * is not found and a continuation naming it is refused as an unknown one. A refusal made before
     * the resource (no token) carries the specification's {@code type} and {@code param} too.
     */
    @Test
    void aResponseIsItsOwnersToDeleteAndEveryErrorHasTheSpecificationsMembers() {
        for (String base : List.of("/v1/responses", "/responses")) {
            String id = send(ALICE, "POST", base, "{\"input\":\"keep me\"}").json().getString("id");
            Api.Reply bobs = send(BOB, "DELETE", base + "/" + id, null);
            assertEquals(404, bobs.status(), bobs.body());
            assertEquals("not_found", bobs.json().getJsonObject("error").getString("type"));
            assertEquals(200, send(ALICE, "GET", base + "/" + id, null).status(), "still alice's");
            Api.Reply deleted = send(ALICE, "DELETE", base + "/" + id, null);
            assertEquals(200, deleted.status(), deleted.body());
            assertEquals(Json.createObjectBuilder().add("id", id).add("object", "response").add("deleted", true).build(),
                    deleted.json());
            assertEquals(404, send(ALICE, "GET", base + "/" + id, null).status());
            Api.Reply continued = send(ALICE, "POST", base, "{\"input\":\"more\",\"previous_response_id\":\"" + id + "\"}");
            assertEquals(404, continued.status());
            assertEquals("previous_response_not_found", continued.json().getJsonObject("error").getString("code"));
            assertEquals(404, send(ALICE, "DELETE", base + "/" + id, null).status(), "deleted once");
        }
        for (String[] refused : new String[][] {{null, "POST", "/v1/responses"}, {BOB, "PUT", "/v1/responses/x"},
                {ALICE, "GET", "/responses/x/nope"}}) {
            Api.Reply r = send(refused[0], refused[1], refused[2], "{}");
            JsonObject error = r.json().getJsonObject("error");
            assertTrue(error.containsKey("type") && error.containsKey("param") && error.containsKey("code")
                    && error.containsKey("message"), String.join(" ", java.util.Arrays.asList(refused)) + ": " + r.body());
        }
    }

    /**
     * An ingress event's id is its sender's own (issue 49: another user's id gave a fresh one — an
     * existence oracle — and logged a duplicate key): both users keep the id they sent, and a user
     * who reuses one of its own gets a fresh id, with nothing logged.
     */
    @Test
    void ingressEventIdsAreEachUsersOwn() throws Exception {
        String logBefore = log();
        String id = "evt-shared-" + UUID.randomUUID().toString().substring(0, 8);
        String body = "{\"source\":\"ci\",\"type\":\"ci.done\",\"id\":\"" + id + "\"}";
        Api.Reply alices = send(ALICE, "POST", "/ingress/events", body);
        assertEquals(202, alices.status(), alices.body());
        assertEquals(id, alices.json().getString("event_id"));
        Api.Reply bobs = send(BOB, "POST", "/ingress/events", body);
        assertEquals(202, bobs.status(), bobs.body());
        assertEquals(id, bobs.json().getString("event_id"), "bob's event keeps bob's id: nothing tells him of alice's");
        Api.Reply again = send(ALICE, "POST", "/ingress/events", body);
        assertEquals(202, again.status(), again.body());
        assertNotEquals(id, again.json().getString("event_id"), "alice reused her own id: a fresh one records it");
        assertEquals(1, send(BOB, "GET", "/v1/events?event_id=" + id, null).json().getJsonArray("data").size());
        String added = log().substring(logBefore.length());
        assertFalse(added.contains("duplicate key") || added.contains("CNTR0020E"), "a collision logs nothing: " + added);
    }

    /** A transcript link is its thread owner's to make and revoke; whoever has the link reads it, with no token. */
    @Test
    void aTranscriptLinkIsTheOwnersToMakeAndRevoke() throws Exception {
        String thread = "share-" + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(202, send(ALICE, "POST", "/v1/messages", "{\"text\":\"alice's words\",\"thread_key\":\"" + thread + "\"}")
                .status());
        assertEquals(404, send(BOB, "POST", "/v1/threads/" + thread + "/share", null).status(), "bob has no such thread");
        String url = send(ALICE, "POST", "/v1/threads/" + thread + "/share", null).json().getString("share_url");
        HttpResponse<String> opened = Api.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, opened.statusCode(), "the link needs no token");
        assertEquals(404, send(BOB, "DELETE", "/v1/threads/" + thread + "/share", null).status(), "bob cannot revoke it");
        assertEquals(200, Api.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(1, send(ALICE, "DELETE", "/v1/threads/" + thread + "/share", null).json().getInt("revoked"));
        assertEquals(404, Api.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
    }
}
