package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Idle chat sessions are pruned on a timer (here: idle past 2 s, looked for every 300 ms, on
 * WebhooksIT's instance, as users of its own): once
 * each, with the session hooks observed (the built-in observer writes each start and end to the
 * user's log journal), skipping a session whose thread has a running turn; the threads and their
 * history stay, reachable by id, while the channels' keys go with the session.
 */
class ChatPruningIT {

    private static final String DAVE = "dave-prune-token-0123456789";
    private static final String ERIN = "erin-prune-token-0123456789";
    private static final String FRANK = "frank-prune-token-012345678";
    /** The users' tokens, as the instance's setting lists them. */
    static final String USERS = DAVE + "=dave," + ERIN + "=erin," + FRANK + "=frank";
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static Api api;
    private static Path gates;

    @BeforeAll
    static void start() throws IOException {
        api = WebhooksIT.withFastChatPruning().api;
        gates = Files.createDirectories(Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath()
                .resolve("chat-gates"));
    }

    @AfterAll
    static void stop() {
        WebhooksIT.finished(ChatPruningIT.class);
    }

    @Test
    void anIdleSessionIsPrunedOnceAndItsThreadsStayReachableById() throws InterruptedException {
        String first = threadOf(send(DAVE, "telegram", "k1", "hello"));
        awaitEnded(DAVE, first, 1);
        Await.until(DEADLINE, () -> count(DAVE, "ended after being idle (1 thread(s))") == 1, "dave's session ended");
        assertEquals(1, count(DAVE, "started"), "one session, started once");

        JsonObject list = get(DAVE, "/v1/chat/threads").json();
        assertTrue(list.isNull("active_thread"), "the session is gone: " + list);
        assertEquals(first, list.getJsonArray("threads").getJsonObject(0).getString("id"), "its thread is not");
        String second = threadOf(send(DAVE, "telegram", "k1", "again"));
        assertNotEquals(first, second, "the channel's key went with the session");
        assertEquals(first, threadOf(send(DAVE, "web", first, "by id")), "the thread is reachable by its id");
        Await.until(DEADLINE, () -> count(DAVE, "started") == 2, "a new session started");
    }

    @Test
    void aSessionWithARunningTurnIsKeptUntilItEnds() throws Exception {
        Path gate = gates.resolve("prune-" + System.nanoTime());
        String busy = threadOf(send(ERIN, "web", "long", "await " + gate + "; done"));
        String idle = threadOf(send(FRANK, "web", "short", "hi"));
        awaitEnded(FRANK, idle, 1);
        Await.until(DEADLINE, () -> count(FRANK, "ended after being idle") == 1,
                "frank's session, idle after erin's became idle, is pruned");
        assertEquals(0, count(ERIN, "ended"), "erin's, with a running turn, was skipped");

        Files.createFile(gate);
        awaitEnded(ERIN, busy, 1);
        Await.until(DEADLINE, () -> count(ERIN, "ended after being idle") == 1, "pruned once its turn ended");
    }

    private static long count(String token, String text) {
        Api.Reply reply = api.send(api.request("/rpc").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/logStream\",\"params\":{\"max_lines\":1000}}")));
        assertEquals(200, reply.status(), reply.body());
        List<JsonObject> logs = reply.json().getJsonObject("result").getJsonArray("logs").getValuesAs(JsonObject.class);
        return logs.stream().map(l -> l.getString("message")).filter(m -> m.startsWith("chat session ") && m.contains(text))
                .count();
    }

    private static Api.Reply send(String token, String channel, String threadId, String content) {
        String body = Json.createObjectBuilder().add("channel", channel).add("thread_id", threadId)
                .add("content", content).build().toString();
        return api.send(api.request("/v1/chat/messages").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static Api.Reply get(String token, String path) {
        return api.send(api.request(path).header("Authorization", "Bearer " + token).GET());
    }

    private static String threadOf(Api.Reply reply) {
        assertEquals(202, reply.status(), reply.body());
        return reply.json().getString("thread_id");
    }

    private static void awaitEnded(String token, String thread, int turns) throws InterruptedException {
        Await.until(DEADLINE, () -> get(token, "/v1/chat/threads/" + thread).json().getJsonArray("turns")
                .getValuesAs(JsonObject.class).stream()
                .filter(t -> t.get("completed_at").getValueType() != JsonValue.ValueType.NULL).count() >= turns,
                turns + " ended turns on " + thread);
        assertFalse(get(token, "/v1/chat/threads/" + thread).body().contains("\"Failed\""));
    }
}
