package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Outgoing webhooks against a receiver on loopback that verifies every delivery with the Standard
 * Webhooks specification's own library ({@code standardwebhooks} from the npm registry, not our
 * code), fails the first attempts, answers slowly and drops connections: every event arrives,
 * signed, in order per thread, duplicated only under its own {@code webhook-id}. Two users hear
 * only their own events; forbidden addresses are refused at registration and — a name resolving
 * elsewhere later — at delivery. An endpoint that never answers is disabled after its schedule's
 * attempts. That two instances deliver each message once, and that a crash mid-attempt or during a
 * back-off loses nothing (what an instance holds is a lease in the database, taken again when it
 * runs out; a back-off is a due time there), are the ledger's rules, held in-process by
 * {@code WebhookLedgerTest}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhooksIT {

    private static final int PORT = 9212;
    private static final String ALICE = "alice-webhooks-token-0123456";
    private static final String BOB = "bob-webhooks-token-01234567";
    private static final String HOOK_HOST = "hooks.switchboard.test";
    private static final String CREDENTIALS_KEY = java.util.Base64.getEncoder().encodeToString(
            UUID.randomUUID().toString().replace("-", "").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    /**
     * Shared with ChatPruningIT, which needs idle chat sessions pruned within seconds, and with
     * RpcPolicyIT, which needs turns on busy threads to follow the {@code interrupt} policy: each
     * works as users of its own, with no webhook endpoint; this class uses no chat session, and a
     * policy acts only on turns {@code turn/start} opens on busy threads, which neither other class does.
     */
    private static final InstanceForClasses<Instance> SHARED = new InstanceForClasses<>(
            Set.of(WebhooksIT.class, ChatPruningIT.class, RpcPolicyIT.class), WebhooksIT::startShared, Instance::stopNow);
    /** RpcPolicyIT's user. */
    static final String POLICY_USER_TOKEN = "policy-webhooks-token-0123456";
    private static Instance instance;
    private static String db;
    private static NodeClient node;
    private static Process receiver;
    private static int receiverPort;
    private static Path hostsFile;

    @BeforeAll
    static void start() throws Exception {
        node = NodeClient.install("webhook-receiver", "webhooks");
        receiver = node.spawn("receiver.mjs");
        Await.until(Duration.ofSeconds(30), () -> output().contains("\"port\""), "the receiver listening");
        receiverPort = readJson(output().lines().filter(l -> l.contains("\"port\"")).findFirst().orElseThrow()).getInt("port");
        instance = SHARED.get();
    }

    private static Instance startShared() {
        try {
            hostsFile = Files.createTempDirectory("webhooks-hosts").resolve("hosts");
            resolveHookHostTo("127.0.0.1");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        db = TestDatabase.recreate("switchboard_it_webhooks");
        return Instance.start("it-webhooks", PORT, settings(PORT, "it-webhooks"));
    }

    /** The instance for ChatPruningIT: chat sessions idle past 2 s pruned, looked for every 300 ms. */
    static Instance withFastChatPruning() {
        return SHARED.get();
    }

    /** The instance for RpcPolicyIT: its follow-up policy is {@code interrupt}. */
    static Instance withInterruptPolicy() {
        return SHARED.get();
    }

    static void finished(Class<?> user) {
        SHARED.finished(user);
    }

    private static Map<String, String> settings(int port, String name) {
        Map<String, String> env = Instance.defaults(db, port, name);
        env.put("SWITCHBOARD_AUTH_TOKENS", ALICE + "=alice," + BOB + "=bob," + ChatPruningIT.USERS + ","
                + POLICY_USER_TOKEN + "=policy");
        env.put("SWITCHBOARD_LANES_FOLLOWUP_POLICY", "interrupt"); // RpcPolicyIT's
        env.put("SWITCHBOARD_CHAT_SESSION_IDLE_TIMEOUT_S", "2"); // ChatPruningIT's
        env.put("SWITCHBOARD_CHAT_PRUNE_EVERY_MS", "300");
        // The scripted engine (Instance's default) answers these texts as the echo engine would, and
        // ChatPruningIT's turns need its directives (await a gate).
        env.put("SWITCHBOARD_WEBHOOKS_ALLOWED_NETWORKS", "127.0.0.1/32");
        env.put("SWITCHBOARD_WEBHOOKS_RETRY_SCHEDULE", "200ms,300ms,300ms,300ms,300ms,300ms,300ms");
        env.put("SWITCHBOARD_WEBHOOKS_POLL_MS", "50");
        env.put("SWITCHBOARD_WEBHOOKS_CONNECT_TIMEOUT_MS", "1000");
        env.put("SWITCHBOARD_WEBHOOKS_TIMEOUT_MS", "3000");
        env.put("SWITCHBOARD_WEBHOOKS_LEASE_MARGIN_MS", "500");
        // The instances of one deployment share the key that seals the endpoints' secrets.
        env.put("SWITCHBOARD_CREDENTIALS_KEY", CREDENTIALS_KEY);
        // A hosts file of the test's, read again a second after it changes: DNS that changes after registration.
        env.put("JVM_ARGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djdk.net.hosts.file=" + hostsFile
                + " -Dsun.net.inetaddr.ttl=1");
        return env;
    }

    @AfterAll
    static void stop() {
        SHARED.finished(WebhooksIT.class);
        if (receiver != null) {
            receiver.destroyForcibly();
        }
    }

    @Test
    @Order(1)
    void endpointsAreTheirUsersOwnAndForbiddenAddressesAreRefusedAtRegistration() throws Exception {
        for (String url : List.of("http://10.0.0.1/hook", "https://169.254.169.254/latest", "http://127.0.0.2:" + receiverPort + "/x",
                "http://[::1]:" + receiverPort + "/x", "http://192.168.1.10/x")) {
            Api.Reply refused = create(ALICE, "{\"url\":\"" + url + "\"}");
            assertEquals(400, refused.status(), url + ": " + refused.body());
            assertEquals("url_not_allowed", refused.errorCode(), refused.body());
        }
        for (String url : List.of("ftp://example.com/", "https://user:pw@example.com/", "not a url")) {
            Api.Reply invalid = create(ALICE, "{\"url\":\"" + url + "\"}");
            assertEquals(400, invalid.status(), invalid.body());
            assertEquals("invalid_url", invalid.errorCode(), invalid.body());
        }
        assertEquals("invalid_event_types", create(ALICE, "{\"url\":\"" + hook("/x") + "\",\"event_types\":[\"turn.done\"]}")
                .errorCode());

        Api.Reply created = create(ALICE, "{\"url\":\"" + hook("/managed") + "\",\"event_types\":[\"turn.failed\"],"
                + "\"description\":\"ticketing\"}");
        assertEquals(201, created.status(), created.body());
        JsonObject endpoint = created.json();
        String id = endpoint.getString("id");
        String secret = endpoint.getString("secret");
        assertTrue(secret.startsWith("whsec_"), secret);
        assertEquals(200, call(ALICE, "GET", "/v1/webhooks/" + id, null).status());
        assertFalse(call(ALICE, "GET", "/v1/webhooks", null).body().contains("whsec_"), "the secret is shown once");
        assertEquals(404, call(BOB, "GET", "/v1/webhooks/" + id, null).status(), "another user's endpoint is not found");
        assertEquals("webhook_not_found", call(BOB, "DELETE", "/v1/webhooks/" + id, null).errorCode());
        assertEquals(0, call(BOB, "GET", "/v1/webhooks", null).json().getJsonArray("data").size());
        try (Connection c = TestDatabase.connect(db); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT secret FROM webhook_endpoints")) {
            assertTrue(rs.next());
            assertFalse(rs.getString(1).contains(secret.substring(6)), "stored sealed, never in clear");
        }

        JsonObject patched = call(ALICE, "PATCH", "/v1/webhooks/" + id, "{\"enabled\":false,\"thread_id\":\"t-1\"}").json();
        assertFalse(patched.getBoolean("enabled"));
        assertEquals("t-1", patched.getString("thread_id"));
        assertEquals("url_not_allowed", call(ALICE, "PATCH", "/v1/webhooks/" + id, "{\"url\":\"http://10.1.1.1/\"}").errorCode());
        JsonObject rotated = call(ALICE, "POST", "/v1/webhooks/" + id + "/rotate", "{\"grace_seconds\":60}").json();
        assertTrue(rotated.getString("secret").startsWith("whsec_"));
        assertFalse(rotated.getString("secret").equals(secret));
        assertTrue(rotated.containsKey("previous_secret_expires_at"), rotated.toString());

        // The same calls over JSON-RPC answer the same objects and refuse alike.
        JsonObject listed = rpc(ALICE, "webhook/list", "{}");
        assertEquals(id, listed.getJsonObject("result").getJsonArray("data").getJsonObject(0).getString("id"));
        JsonObject refused = rpc(ALICE, "webhook/create", "{\"url\":\"http://10.0.0.1/\"}");
        assertEquals("url_not_allowed", refused.getJsonObject("error").getJsonObject("data").getString("code"), refused.toString());
        assertEquals(true, rpc(ALICE, "webhook/delete", "{\"id\":\"" + id + "\"}").getJsonObject("result").getBoolean("deleted"));
        assertEquals(404, call(ALICE, "GET", "/v1/webhooks/" + id, null).status());
    }

    @Test
    @Order(2)
    void everyEventArrivesVerifiedInOrderPerThreadThroughFailuresSlownessAndDroppedConnections() throws Exception {
        JsonObject alice = endpoint(ALICE, "/alice", "[\"turn.completed\",\"run.succeeded\"]", 2, 7, 5, 1500, 0);
        JsonObject bob = endpoint(BOB, "/bob", null, 0, 0, 0, 0, 0);
        String prefix = "hooks-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        Set<String> runIds = new HashSet<>();
        for (int i = 0; i < 24; i++) {
            runIds.add(message(ALICE, prefix + (i % 3), "event " + i));
        }
        String bobRun = message(BOB, "bob-thread", "bob's own");

        Await.until(Duration.ofSeconds(150), () -> delivered("/alice").size() == 48, "48 events delivered to alice's endpoint");
        Await.until(Duration.ofSeconds(30), () -> delivered("/bob").size() == 2, "bob's turn and run delivered to bob");

        List<JsonObject> seen = log("/alice");
        assertTrue(seen.stream().allMatch(e -> e.getBoolean("verified")), "every attempt verified by standardwebhooks");
        assertEquals(96, seen.stream().filter(e -> e.getString("outcome").equals("500")).count(),
                "each of the 48 messages failed its first two attempts");
        assertTrue(seen.stream().anyMatch(e -> e.getString("outcome").equals("closed")), "connections were dropped");
        assertTrue(seen.stream().anyMatch(e -> e.getString("outcome").equals("slow")), "answers came slowly");

        // Duplicates only under the same webhook-id: one id per event, one event per id.
        Map<String, Set<String>> eventsById = seen.stream().collect(Collectors.groupingBy(e -> e.getString("id"),
                Collectors.mapping(e -> e.getString("type") + " " + e.getString("key"), Collectors.toSet())));
        assertTrue(eventsById.values().stream().allMatch(s -> s.size() == 1), "one id is one event: " + eventsById);
        Map<String, Set<String>> idsByEvent = seen.stream().collect(Collectors.groupingBy(
                e -> e.getString("type") + " " + e.getString("key"), Collectors.mapping(e -> e.getString("id"), Collectors.toSet())));
        assertEquals(48, idsByEvent.size());
        assertTrue(idsByEvent.values().stream().allMatch(s -> s.size() == 1), "one event is one id: " + idsByEvent);
        assertEquals(runIds, seen.stream().filter(e -> e.getString("type").equals("run.succeeded"))
                .map(e -> e.getString("key")).collect(Collectors.toSet()), "every run's event");

        // In order per thread: no attempt of a later event before every earlier one was delivered.
        Map<String, List<JsonObject>> byThread = seen.stream().collect(Collectors.groupingBy(e -> e.getString("thread")));
        assertEquals(3, byThread.size());
        for (List<JsonObject> thread : byThread.values()) {
            long last = 0;
            for (JsonObject e : thread) {
                long seq = e.getJsonNumber("seq").longValue();
                assertTrue(seq >= last, "thread order broken at seq " + seq + " after " + last + ": " + thread);
                last = seq;
            }
        }

        // Two users: neither hears the other.
        assertTrue(seen.stream().noneMatch(e -> "bob-thread".equals(e.getString("thread"))));
        assertEquals(Set.of(bobRun), log("/bob").stream().filter(e -> e.getString("type").equals("run.succeeded"))
                .map(e -> e.getString("key")).collect(Collectors.toSet()));
        assertTrue(log("/bob").stream().allMatch(e -> "bob-thread".equals(e.getString("thread"))));

        // The delivery log tells the same story; a replay sends a message again under its id.
        String aliceId = alice.getString("id");
        JsonArray attempts = call(ALICE, "GET", "/v1/webhooks/" + aliceId + "/attempts?limit=200", null).json().getJsonArray("data");
        assertTrue(attempts.stream().map(JsonValue::asJsonObject).anyMatch(a -> a.getInt("status", 0) == 500
                && a.getString("outcome").equals("retry") && a.getString("response").contains("failing on purpose")), attempts.toString());
        // The receiver has answered; the server records the last attempts a moment later.
        Await.until(Duration.ofSeconds(20), () -> call(ALICE, "GET", "/v1/webhooks/" + aliceId + "/messages?limit=100", null)
                .json().getJsonArray("data").stream().filter(m -> m.asJsonObject().getString("state").equals("delivered"))
                .count() == 48, "all 48 messages recorded delivered");
        JsonArray messages = call(ALICE, "GET", "/v1/webhooks/" + aliceId + "/messages?limit=100", null).json().getJsonArray("data");
        assertEquals(48, messages.size());
        String replayed = messages.getJsonObject(0).getString("id");
        Api.Reply replay = call(ALICE, "POST", "/v1/webhooks/" + aliceId + "/messages/" + replayed + "/replay", null);
        assertEquals(202, replay.status(), replay.body());
        Await.until(Duration.ofSeconds(20), () -> log("/alice").stream().filter(e -> e.getString("id").equals(replayed))
                .filter(e -> Set.of("ok", "slow").contains(e.getString("outcome"))).count() == 2,
                "the replay delivered under the same webhook-id");
        assertEquals("webhook_not_found", call(BOB, "POST", "/v1/webhooks/" + aliceId + "/messages/" + replayed + "/replay", null)
                .errorCode());
        call(ALICE, "DELETE", "/v1/webhooks/" + aliceId, null);
        call(BOB, "DELETE", "/v1/webhooks/" + bob.getString("id"), null);
    }

    @Test
    @Order(3)
    void aNameResolvingToAForbiddenAddressAfterRegistrationIsRefusedAtDelivery() throws Exception {
        JsonObject dns = endpointAt(ALICE, "http://" + HOOK_HOST + ":" + receiverPort + "/dns", "/dns",
                "[\"turn.completed\"]", 0, 0);
        resolveHookHostTo("127.0.0.2"); // loopback, but not the allowed 127.0.0.1
        Thread.sleep(1_500); // NOPMD: the instance's resolver caches a name for a second (sun.net.inetaddr.ttl=1)
        message(ALICE, "dns-thread", "resolved elsewhere");
        String id = dns.getString("id");
        Await.until(Duration.ofSeconds(30), () -> call(ALICE, "GET", "/v1/webhooks/" + id + "/attempts", null).json()
                .getJsonArray("data").stream().anyMatch(a -> a.asJsonObject().getString("outcome").equals("refused")
                        && a.asJsonObject().getString("response").contains("127.0.0.2")), "the attempt refused");
        assertEquals(List.of(), log("/dns"), "nothing reached the receiver");
        resolveHookHostTo("127.0.0.1");
        call(ALICE, "DELETE", "/v1/webhooks/" + id, null);
    }

    @Test
    @Order(4)
    void anEndpointThatNeverAnswersIsDisabledAfterItsSchedulesAttempts() throws Exception {
        JsonObject down = endpoint(ALICE, "/down", "[\"turn.completed\"]", 1_000, 0, 0, 0, 0);
        message(ALICE, "down-thread", "nobody answers");
        String downId = down.getString("id");
        Await.until(Duration.ofSeconds(60), () -> !call(ALICE, "GET", "/v1/webhooks/" + downId, null).json().getBoolean("enabled"),
                "the endpoint disabled after the last attempt failed");
        JsonObject disabled = call(ALICE, "GET", "/v1/webhooks/" + downId, null).json();
        assertTrue(disabled.getString("disabled_reason").contains("HTTP 500"), disabled.toString());
        assertEquals(8, call(ALICE, "GET", "/v1/webhooks/" + downId + "/attempts", null).json().getJsonArray("data").size(),
                "the schedule's attempts, then no more");
        assertEquals(8, log("/down").size(), "each of them reached the receiver (a stale kept-alive connection is sent again)");
        assertEquals(1, TestDatabase.count(db, "SELECT count(*) FROM notifications WHERE user_key = 'alice'"
                + " AND method = 'webhook/disabled' AND params LIKE ?", "%" + downId + "%"), "the user told");
        JsonArray messages = call(ALICE, "GET", "/v1/webhooks/" + downId + "/messages", null).json().getJsonArray("data");
        assertEquals("failed", messages.getJsonObject(0).getString("state"));
    }

    // --- helpers ---

    private static String output() {
        try {
            return node.output("receiver.mjs");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void resolveHookHostTo(String address) throws IOException {
        Files.writeString(hostsFile, "127.0.0.1 localhost\n" + address + " " + HOOK_HOST + "\n");
    }

    private static String hook(String path) {
        return "http://127.0.0.1:" + receiverPort + path;
    }

    /** Registers an endpoint for {@code path} and tells the receiver its secret and how to misbehave. */
    private static JsonObject endpoint(String token, String path, String types, int failFirst, int closeEvery, int slowEvery,
            int slowMs, int holdMs) throws Exception {
        JsonObject e = endpointAt(token, hook(path), path, types, failFirst, holdMs);
        configure(path, e.getString("secret"), failFirst, closeEvery, slowEvery, slowMs, holdMs);
        return e;
    }

    private static JsonObject endpointAt(String token, String url, String path, String types, int failFirst, int holdMs)
            throws Exception {
        Api.Reply r = create(token, "{\"url\":\"" + url + "\"" + (types == null ? "" : ",\"event_types\":" + types) + "}");
        assertEquals(201, r.status(), r.body());
        configure(path, r.json().getString("secret"), failFirst, 0, 0, 0, holdMs);
        return r.json();
    }

    private static void configure(String path, String secret, int failFirst, int closeEvery, int slowEvery, int slowMs,
            int holdMs) throws Exception {
        String body = Json.createObjectBuilder().add("path", path).add("secrets", Json.createArrayBuilder().add(secret))
                .add("failFirst", failFirst).add("closeEvery", closeEvery).add("slowEvery", slowEvery).add("slowMs", slowMs)
                .add("holdMs", holdMs).build().toString();
        HttpResponse<String> r = Api.CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiverPort
                + "/control/path")).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(204, r.statusCode());
    }

    /** Every request the receiver had at {@code path}, in arrival order. */
    private static List<JsonObject> log(String path) {
        try {
            HttpResponse<String> r = Api.CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiverPort
                    + "/control/log?path=" + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
            List<JsonObject> entries = new ArrayList<>();
            try (JsonReader reader = Json.createReader(new StringReader(r.body()))) {
                reader.readArray().forEach(v -> entries.add(v.asJsonObject()));
            }
            return entries;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The distinct webhook-ids answered 2xx at {@code path}. */
    private static Set<String> delivered(String path) {
        return log(path).stream().filter(e -> e.getString("outcome").equals("ok") || e.getString("outcome").equals("slow"))
                .map(e -> e.getString("id")).collect(Collectors.toSet());
    }

    private static Api.Reply create(String token, String json) {
        return call(token, "POST", "/v1/webhooks", json);
    }

    private static Api.Reply call(String token, String method, String path, String json) {
        HttpRequest.Builder b = instance.api.request(path).header("Authorization", "Bearer " + token);
        if (json != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return instance.api.send(b);
    }

    private static JsonObject rpc(String token, String method, String params) {
        return call(token, "POST", "/rpc", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}")
                .json();
    }

    private static String message(String token, String thread, String text) {
        Api.Reply r = instance.api.send(instance.api.request("/v1/messages").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder()
                        .add("thread_key", thread).add("text", text).build().toString())));
        assertEquals(202, r.status(), r.body());
        return r.json().getString("run_id");
    }

    private static JsonObject readJson(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
