package dev.switchboard.it;

import static dev.switchboard.it.ChatCalls.DEADLINE;
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
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Auth mode (spec §9) end to end: the {@code openresponses} engine against a scripted model server
 * whose {@code http_get} target wants a bearer token, with {@code http_get} configured to need the
 * user's credential {@code github}. A call without it pauses the turn; the next message is the
 * token — sealed into the credential store, the waiting call then runs with it — and the secret
 * is in no log line, notification, database row or model request. Invalid tokens are asked again,
 * commands cancel, and the prompt expires as specified.
 *
 * <p>The model (ChatIsolationIT's script): to {@code fetch <x>}, a call of {@code http_get} on the
 * test's {@code /api/<x>}; after a tool's output, {@code tool said: <output>}; otherwise
 * {@code heard: <text>}.
 */
@Order(3) // among the longest classes (three classes, a 45 s TTL waited out): started early in the parallel run (ear/pom.xml)
class ChatAuthIT {

    private static final int PORT = 9215;
    private static final String NAME = "it-chat-auth";
    private static final String ALICE = "alice-auth-token-0123456789";
    private static final String BOB = "bob-auth-token-01234567890";
    private static final String CAROL = "carol-auth-token-012345678";
    private static final String DAVE = "dave-auth-token-0123456789";
    private static final String ERIN = "erin-auth-token-0123456789";
    private static final String FRANK = "frank-auth-token-012345678";
    private static final String GRACE = "grace-auth-token-012345678";
    /**
     * Long enough for ChatIsolationIT's prompt, which waits through another user's sweep of every
     * door, and short enough for this class to wait for one to expire.
     */
    private static final long TTL_S = 45;
    private static final List<JsonObject> REQUESTS = new CopyOnWriteArrayList<>();
    private static final List<String> AUTHORIZATIONS = new CopyOnWriteArrayList<>();
    private static HttpServer model;
    private static String database;
    private static Instance server;

    /**
     * Shared with ChatCompactionIT, whose context limit (950 tokens) this class's short threads never
     * come near, and with ChatIsolationIT, whose queue caps and tools ({@code echo_tool} approved
     * always, {@code current_time}) this class's model never reaches: one scripted model server
     * answers them, ChatCompactionIT's requests by its own rules, the others' by ChatIsolationIT's
     * script (a superset of what this class's model said); each class works as users of its own.
     */
    private static final InstanceForClasses<Instance> SHARED = new InstanceForClasses<>(
            Set.of(ChatAuthIT.class, ChatCompactionIT.class, ChatIsolationIT.class), ChatAuthIT::startShared,
            i -> ScriptedResponses.stop(i, model));

    private static Instance startShared() {
        try {
            model = ScriptedResponses.start(ChatAuthIT::answer);
            model.createContext("/api/", ChatAuthIT::api);
            model.createContext(ChatIsolationIT.API_PATH, ChatIsolationIT::api);
            database = TestDatabase.recreate("switchboard_it_chat_auth");
            // A fresh database, and no key file left by an earlier run of this class in the same tree: the
            // first start makes the one key the tests expect.
            Files.deleteIfExists(Instance.outputDir(NAME).resolve("switchboard/resources/security/switchboard-compaction.keys"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Map<String, String> env = Instance.defaults(database, PORT, NAME);
        env.put("SWITCHBOARD_AUTH_TOKENS", ALICE + "=alice," + BOB + "=bob," + CAROL + "=carol,"
                + DAVE + "=dave," + ERIN + "=erin," + FRANK + "=frank," + GRACE + "=grace," // one user per test: a credential, once given, is the user's
                + ChatCompactionIT.USER + "," + ChatIsolationIT.USERS);
        ScriptedResponses.engine(env, model);
        env.put("SWITCHBOARD_TOOLS", "echo_tool,http_get,current_time");
        env.put("SWITCHBOARD_TOOLS_HTTP_GET_ALLOW", "http://127.0.0.1:" + model.getAddress().getPort() + "/api/");
        env.put("SWITCHBOARD_CHAT_TOOL_CREDENTIALS", "http_get=github");
        env.put("SWITCHBOARD_CHAT_AUTH_TTL_S", Long.toString(TTL_S));
        env.put("SWITCHBOARD_CHAT_INBOUND_BLOCK", "forbidden");
        env.put("SWITCHBOARD_CHAT_CONTEXT_LIMIT_TOKENS", "950"); // ChatCompactionIT's
        env.put("SWITCHBOARD_CHAT_TOOL_APPROVALS", "echo_tool=always"); // ChatIsolationIT's
        env.put("SWITCHBOARD_LANES_MAX_QUEUED_RUNS", String.valueOf(ChatIsolationIT.MAX_RUNS));
        env.put("SWITCHBOARD_CHAT_MAX_QUEUED_MESSAGES", String.valueOf(ChatIsolationIT.MAX_CHAT));
        return Instance.start(NAME, PORT, env);
    }

    /** The instance for ChatIsolationIT. */
    static Instance withQueueCaps() {
        return SHARED.get();
    }

    /** The instances' database (ChatIsolationIT sweeps it for a secret). */
    static String database() {
        SHARED.get();
        return database;
    }

    /** The instance for ChatCompactionIT: a context limit of 950 tokens, the model server of both classes. */
    static Instance withContextLimit() {
        return SHARED.get();
    }

    static void finished(Class<?> user) {
        SHARED.finished(user);
    }

    @BeforeAll
    static void start() {
        server = SHARED.get();
    }

    @AfterAll
    static void stop() {
        SHARED.finished(ChatAuthIT.class);
    }

    @Test
    void theNextMessageIsTheTokenTheWaitingCallRunsWithItAndTheSecretIsNowhereElse() throws Exception {
        String secret = "ghp_S3cretAliceToken_" + System.nanoTime();
        String thread = threadOf(send(server, ALICE, "telegram", "auth-1", "fetch repo"));
        JsonObject prompt = awaitPrompt(ALICE, thread);
        assertEquals("github", prompt.getString("credential"));
        assertEquals("http_get", prompt.getString("tool_name"));
        assertEquals(List.of(), fetched("repo"), "nothing was fetched without the credential");

        Api.Reply given = send(server, ALICE, "telegram", "auth-1", "  " + secret + "  ");
        assertEquals(202, given.status(), given.body());
        assertEquals("Authentication for github completed.", given.json().getString("message"));
        assertEquals("tool said: HTTP 200\nrepo for a token holder", lastResponse(server, ALICE, thread, 2));
        assertEquals(List.of("repo Bearer " + secret), fetched("repo"), "the tool sent the token, trimmed");
        assertTrue(prompt(ALICE, thread) == null, "auth mode ended");

        send(server, ALICE, "web", "auth-1b", "fetch again");
        String other = threadOf(send(server, ALICE, "web", "auth-1c", "fetch more"));
        assertEquals("tool said: HTTP 200\nmore for a token holder", lastResponse(server, ALICE, other, 1),
                "the credential is the user's, on every thread");
        assertEquals(List.of("more Bearer " + secret), fetched("more"));
        JsonObject turns = get(server, ALICE, "/v1/chat/threads/" + thread).json();
        assertEquals(2, turns.getJsonArray("turns").size(), "the token was no turn");

        String stream = get(server, ALICE, "/v1/chat/threads/" + thread + "/events?last_event_id=0", 2);
        assertTrue(stream.contains("event: auth/required") && stream.contains("event: auth/completed")
                && stream.contains("\"state\":\"ready\""), stream);

        assertSecretNowhere(secret, stream);
        Path key = Instance.outputDir(NAME).resolve("switchboard/resources/security/switchboard-credentials.key");
        assertTrue(Files.exists(key), "the sealing key is the server's own, outside the database");
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                Files.getPosixFilePermissions(key));
    }

    @Test
    void anInvalidTokenIsAskedForAgainAndACommandCancels() throws Exception {
        String thread = threadOf(send(server, BOB, "web", "auth-2", "fetch one"));
        String first = awaitPrompt(BOB, thread).getString("expires_at");

        Api.Reply invalid = send(server, BOB, "web", "auth-2", "two words");
        assertEquals(200, invalid.status(), invalid.body());
        assertEquals("Invalid token. Please try again.", invalid.json().getString("message"));
        JsonObject again = prompt(BOB, thread);
        assertTrue(again != null && Instant.parse(again.getString("expires_at")).compareTo(Instant.parse(first)) >= 0,
                "asked again, with a fresh TTL: " + again);

        Api.Reply undo = send(server, BOB, "web", "auth-2", "/undo");
        assertEquals(200, undo.status(), undo.body());
        assertTrue(prompt(BOB, thread) == null, "a command cancels auth mode");
        send(server, BOB, "web", "auth-2", "hello");
        assertEquals("heard: hello", lastResponse(server, BOB, thread, 2), "the next message is a turn again");
        assertFalse(REQUESTS.stream().anyMatch(r -> r.toString().contains("two words")), "the token never reached the model");
    }

    @Test
    void theGatewaysShortcutsTakeATokenOrCancelAndCheckTheThread() throws Exception {
        String thread = threadOf(send(server, CAROL, "cli", "auth-3", "fetch two"));
        awaitPrompt(CAROL, thread);
        assertError(auth(BOB, thread, "{\"token\":\"x\"}"), 404, "thread_not_found");
        assertError(auth(CAROL, thread, "{\"token\":\"\"}"), 400, "invalid_chat_payload");
        assertError(auth(CAROL, thread, "{\"token\":\"has space\"}"), 400, "invalid_token");
        Api.Reply cancelled = server.api.send(server.api.request("/v1/chat/threads/" + thread + "/auth")
                .header("Authorization", "Bearer " + CAROL).DELETE());
        assertEquals(200, cancelled.status(), cancelled.body());
        assertError(auth(CAROL, thread, "{\"token\":\"late\"}"), 409, "no_pending_auth");

        String next = threadOf(send(server, CAROL, "cli", "auth-4", "fetch three"));
        awaitPrompt(CAROL, next);
        try (RpcSocket socket = RpcSocket.connect(PORT, "Authorization", "Bearer " + CAROL)) {
            JsonObject given = socket.call("chat/authToken", Json.createObjectBuilder().add("thread_id", next)
                    .add("token", "bob_token_over_ws").build());
            assertEquals("started", given.getJsonObject("result").getString("status"), given.toString());
            JsonObject twice = socket.call("chat/authToken", Json.createObjectBuilder().add("thread_id", next)
                    .add("token", "bob_token_over_ws").build());
            assertEquals(-32602, twice.getJsonObject("error").getInt("code"), twice.toString());
        }
        assertEquals("tool said: HTTP 200\nthree for a token holder", lastResponse(server, CAROL, next, 2));
    }

    @Test
    void theCliListsWhatAThreadWaitsForAndGivesTheTokenFromStandardInput() throws Exception {
        String thread = threadOf(send(server, ERIN, "cli", "auth-cli", "fetch cli"));
        awaitPrompt(ERIN, thread);
        Map<String, String> env = Map.of("SWITCHBOARD_TOKEN", ERIN);
        String url = "http://127.0.0.1:" + PORT;
        Cli.Result pending = Cli.run(url, env, "chat", "pending");
        assertEquals(0, pending.exit(), pending.toString());
        assertTrue(pending.out().lines().anyMatch(l -> l.startsWith(thread + "  credential  github  for http_get  until ")),
                pending.toString());
        Cli.Result none = Cli.withInput(url, env, "", "chat", "auth", thread);
        assertEquals(1, none.exit(), none.toString());
        assertEquals("no token on standard input", none.err().strip());
        Cli.Result given = Cli.withInput(url, env, "bob_cli_token\n", "chat", "auth", thread);
        assertEquals(0, given.exit(), given.toString());
        assertTrue(given.out().startsWith("started " + thread + " turn_"), given.toString());
        assertTrue(given.out().contains("Authentication for github completed."), given.toString());
        assertEquals("tool said: HTTP 200\ncli for a token holder", lastResponse(server, ERIN, thread, 2));
        Cli.Result again = Cli.withInput(url, env, "bob_cli_token\n", "chat", "auth", thread);
        assertEquals(1, again.exit(), again.toString());
        assertEquals("No authentication is pending on this thread.", again.err().strip());
        assertFalse(Cli.run(url, env, "chat", "pending").out().contains(thread));
    }

    @Test
    void aBeforeInboundHookRejectsInputButNeverSeesAToken() throws Exception {
        Api.Reply rejected = send(server, FRANK, "web", "hook-1", "tell me FORBIDDEN things");
        assertEquals(200, rejected.status(), rejected.body());
        assertEquals("[Message rejected: it matches the server's inbound policy]", rejected.json().getString("message"));
        String thread = rejected.json().getString("thread_id");
        assertEquals(0, get(server, FRANK, "/v1/chat/threads/" + thread).json().getJsonArray("turns").size(), "no turn");

        send(server, FRANK, "web", "hook-1", "fetch hooked");
        awaitPrompt(FRANK, thread);
        Api.Reply token = send(server, FRANK, "web", "hook-1", "forbidden_token_" + System.nanoTime());
        assertEquals(202, token.status(), "the token went to the credential store, not through the hook (I7): " + token.body());
        assertEquals("tool said: HTTP 200\nhooked for a token holder", lastResponse(server, FRANK, thread, 2));
    }

    /**
     * A prompt's TTL runs from its making: a token after it is refused as expired and is no turn.
     * Issue 35, item 4: the key that seals {@code /v1/responses/compact} is in an owner-only key file
     * and in no row of a dump of the database; what it sealed opens, altered it does not. A credential
     * given on one thread opens on the user's next without asking again. What a restart keeps is held
     * where it lives, without a Liberty start: the prompt's stored form keeps its id and TTL
     * ({@code ChatApprovalRulesTest}); the key files are read again alike and a key appended rotates
     * while what the old one sealed still opens ({@code CompactionKeyFileTest}, {@code CompactionKeysTest},
     * {@code CompactionKeyRingTest}, {@code SecretFilesTest}); and another process finds a waiting call in
     * the rows, not in memory (ChatApprovalIT's crash test).
     */
    @Test
    void aPromptExpiresByItsTtlAndTheKeysThatSealAreInOwnerOnlyFilesOnly() throws Exception {
        String waiting = threadOf(sendAs("fetch later")); // first: the prompt's TTL runs from its making
        JsonObject pending = awaitPrompt(DAVE, waiting);

        String sealed = compact("the sky is green");
        Path keys = Instance.outputDir(NAME).resolve("switchboard/resources/security/switchboard-compaction.keys");
        List<String> lines = Files.readAllLines(keys).stream().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), lines.size() + " keys");
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                Files.getPosixFilePermissions(keys), "owner-only");
        assertEquals(200, respondAfter(sealed).status(), "a compaction opens");
        assertFalse(respondAfter(sealed.substring(0, sealed.length() - 4) + "AAAA").status() == 200, "an altered one does not open");
        assertEquals(List.of(), SecretSweep.rowsHolding(lines.get(0), database), "the key in a dump of the database");

        String given = "grace_token_" + System.nanoTime();
        String first = threadOf(send(server, GRACE, "web", "auth-grace", "fetch grace-before"));
        awaitPrompt(GRACE, first);
        assertEquals(202, send(server, GRACE, "web", "auth-grace", given).status());
        assertEquals("tool said: HTTP 200\ngrace-before for a token holder", lastResponse(server, GRACE, first, 2));
        String second = threadOf(send(server, GRACE, "web", "auth-grace-2", "fetch grace-after"));
        assertEquals("tool said: HTTP 200\ngrace-after for a token holder", lastResponse(server, GRACE, second, 1),
                "the credential given on one thread opens on the next, without asking again");
        assertEquals(List.of("grace-after Bearer " + given), fetched("grace-after"));

        Instant expiry = Instant.parse(pending.getString("expires_at"));
        Await.until(DEADLINE, () -> Instant.now().isAfter(expiry.plusSeconds(1)), "the prompt's TTL passes");
        Api.Reply late = sendAs("dave_late_token");
        assertEquals(200, late.status(), late.body());
        assertEquals("Authentication for **github** expired. Please try again.", late.json().getString("message"));
        assertTrue(prompt(DAVE, waiting) == null, "auth mode ended");
        assertEquals(202, sendAs("fetch again").status());
        awaitPrompt(DAVE, waiting); // the late token was not stored: asked again
        assertEquals(2, get(server, DAVE, "/v1/chat/threads/" + waiting).json().getJsonArray("turns").size(),
                "the late token was no turn");
        assertSecretNowhere("dave_late_token", "");
    }

    /** A compaction of {@code text}: its sealed {@code encrypted_content}. */
    private static String compact(String text) {
        Api.Reply compacted = responses("/v1/responses/compact", Json.createObjectBuilder().add("model", "scripted-model")
                .add("input", text).build().toString());
        assertEquals(200, compacted.status(), compacted.body());
        return compacted.json().getJsonArray("output").getJsonObject(0).getString("encrypted_content");
    }

    private static Api.Reply respondAfter(String sealed) {
        return responses("/v1/responses", Json.createObjectBuilder().add("model", "scripted-model")
                .add("input", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "compaction").add("encrypted_content", sealed))
                        .add(Json.createObjectBuilder().add("role", "user").add("content", "what colour?")))
                .build().toString());
    }

    private static Api.Reply responses(String path, String body) {
        return server.api.send(server.api.request(path).header("Authorization", "Bearer " + GRACE)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static Api.Reply sendAs(String content) {
        return send(server, DAVE, "web", "auth-dave", content);
    }

    /** What the API saw for {@code name}: "name authorization" per request. */
    private static List<String> fetched(String name) {
        return AUTHORIZATIONS.stream().filter(a -> a.startsWith(name + " ")).toList();
    }

    private static Api.Reply auth(String token, String thread, String body) {
        return server.api.send(server.api.request("/v1/chat/threads/" + thread + "/auth")
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonObject prompt(String token, String thread) {
        JsonObject t = get(server, token, "/v1/chat/threads/" + thread).json().getJsonObject("thread");
        return t.isNull("pending_auth") ? null : t.getJsonObject("pending_auth");
    }

    private static JsonObject awaitPrompt(String token, String thread) throws InterruptedException {
        Await.until(DEADLINE, () -> prompt(token, thread) != null, "thread " + thread + " waits for a credential");
        return prompt(token, thread);
    }

    /** The secret in no database row, log file, engine journal, model request or notification stream. */
    private static void assertSecretNowhere(String secret, String stream) throws Exception {
        assertFalse(stream.contains(secret), "notifications");
        assertFalse(REQUESTS.stream().anyMatch(r -> r.toString().contains(secret)), "model requests");
        SecretSweep.assertNowhere(secret, database, List.of(Instance.outputDir(NAME)));
    }

    /** The API the tool fetches: it answers a bearer token holder only, and never repeats the token. */
    private static void api(HttpExchange exchange) throws IOException {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String name = exchange.getRequestURI().getPath().substring("/api/".length());
        boolean holder = authorization != null && authorization.startsWith("Bearer ");
        AUTHORIZATIONS.add(name + " " + authorization);
        byte[] body = (holder ? name + " for a token holder" : "no token").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(holder ? 200 : 401, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        JsonObject request = ScriptedResponses.read(exchange);
        if (ChatCompactionIT.asks(request)) {
            ChatCompactionIT.answer(exchange, request);
            return;
        }
        REQUESTS.add(request);
        ChatIsolationIT.answer(exchange, request, model);
    }
}
