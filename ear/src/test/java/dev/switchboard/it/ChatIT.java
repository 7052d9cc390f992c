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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The chat gateway over HTTP on the scripted engine: messages from channels reach threads by the
 * channels' own thread ids, become turns whose replies are in the thread's history, wait merged
 * while a turn runs (at most ten), and are stopped by {@code /interrupt}; users never reach each
 * other's threads. A running turn is held at its engine step by the scripted engine's
 * {@code await <file>} until the test creates the file.
 *
 * <p>On the shared authenticated instance, as users of its own (it counts a user's threads and
 * reads a user's active thread), beside other classes: to read. The instance keeps the default
 * session idle timeout (days), so no session — and no channel's thread key — is pruned between
 * this class's messages (ChatPruningIT, which needs a 2 s timeout, has an instance of its own).
 */
@ResourceLock(value = SharedInstance.AUTH_LOCK, mode = ResourceAccessMode.READ)
class ChatIT {

    private static final String ALICE = SharedInstance.CHAT_ALICE;
    private static final String BOB = SharedInstance.CHAT_BOB;
    private static final String CAROL = SharedInstance.CHAT_CAROL;
    private static final String DAVE = SharedInstance.CHAT_DAVE;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static Api api;
    private static Path gates;

    @BeforeAll
    static void start() throws IOException {
        api = SharedInstance.authenticated().api;
        gates = Files.createDirectories(Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath()
                .resolve("chat-gates"));
    }

    @Test
    void aMessageBecomesATurnWhoseReplyIsInTheThreadsHistory() throws InterruptedException {
        Api.Reply sent = send(ALICE, "{\"channel\":\"telegram\",\"thread_id\":\"chat-42\",\"content\":\"hello there\"}");
        assertEquals(202, sent.status(), sent.body());
        JsonObject reply = sent.json();
        assertEquals("started", reply.getString("status"));
        String thread = reply.getString("thread_id");
        assertFalse(reply.isNull("run_id"));
        JsonObject turn = awaitTurns(ALICE, thread, 1).get(0);
        assertEquals("hello there", turn.getString("user_input"));
        assertEquals("Completed", turn.getString("state"));
        assertEquals("hello there", turn.getString("response"));
        assertEquals(reply.getString("run_id"), turn.getString("run_id"));

        JsonObject read = get(ALICE, "/v1/chat/threads/" + thread).json().getJsonObject("thread");
        assertEquals("telegram", read.getString("channel"));
        assertEquals("hello there", read.getString("title"));
        assertEquals("Idle", read.getString("state"));
        Api.Reply items = get(ALICE, "/v1/threads/" + thread + "/items");
        assertEquals(200, items.status(), "a chat thread is an ordinary thread: " + items.body());
        assertEquals(2, items.json().getJsonArray("items").size(), "the user's message and the reply");
    }

    @Test
    void threadIdsAreTheChannelsOwnAndAThreadCanBeReachedFromSeveralChannels() {
        String first = threadOf(send(ALICE, "{\"channel\":\"telegram\",\"thread_id\":\"room-7\",\"content\":\"alpha\"}"));
        assertEquals(first, threadOf(send(ALICE, "{\"channel\":\"telegram\",\"thread_id\":\"room-7\",\"content\":\"bravo\"}")),
                "the same channel and id: the same thread");
        String otherChannel = threadOf(send(ALICE, "{\"channel\":\"slack\",\"thread_id\":\"room-7\",\"content\":\"charlie\"}"));
        assertNotEquals(first, otherChannel, "another channel's room-7 is another thread");
        String absent = threadOf(send(ALICE, "{\"channel\":\"cli\",\"content\":\"delta\"}"));
        String empty = threadOf(send(ALICE, "{\"channel\":\"cli\",\"thread_id\":\"\",\"content\":\"echo\"}"));
        assertNotEquals(absent, empty, "no thread id and an empty one are different keys");
        assertEquals(absent, threadOf(send(ALICE, "{\"channel\":\"cli\",\"content\":\"foxtrot\"}")));

        String fromCli = threadOf(send(ALICE, "{\"channel\":\"cli\",\"thread_id\":\"" + first + "\",\"content\":\"golf\"}"));
        assertEquals(first, fromCli, "the thread's own id reaches it from another channel");
        String unknown = "7d3f9b1e-0c55-4e1a-9f6b-2a4c8e0d1b37";
        assertEquals(unknown, threadOf(send(ALICE, "{\"channel\":\"web\",\"thread_id\":\"" + unknown
                + "\",\"content\":\"hotel\"}")), "an unknown UUID becomes the new thread's id");

        JsonObject list = get(ALICE, "/v1/chat/threads").json();
        Set<String> ids = list.getJsonArray("threads").getValuesAs(JsonObject.class).stream()
                .map(t -> t.getString("id")).collect(Collectors.toSet());
        assertTrue(ids.containsAll(List.of(first, otherChannel, absent, empty, unknown)), list.toString());
        assertEquals(unknown, list.getString("active_thread"), "the thread used last is the active one");
    }

    @Test
    void messagesSentWhileATurnRunsWaitMergedInOneTurnAndTheEleventhIsRefused() throws Exception {
        Path gate = gates.resolve("queue-" + System.nanoTime());
        JsonObject first = send(ALICE, content("await " + gate + "; first", "queue")).json();
        assertEquals("started", first.getString("status"));
        String thread = first.getString("thread_id");
        for (int i = 1; i <= 10; i++) {
            Api.Reply queued = send(ALICE, content("m" + i, "queue"));
            assertEquals(202, queued.status(), queued.body());
            assertEquals("queued", queued.json().getString("status"));
            assertEquals("Message queued — will be processed after the current turn.", queued.json().getString("message"));
        }
        Api.Reply full = send(ALICE, content("m11", "queue"));
        assertEquals(429, full.status(), full.body());
        assertEquals("queue_full", full.errorCode());
        assertEquals("Message queue full (10). Wait for the current turn to complete.",
                full.json().getJsonObject("error").getString("message"));
        assertEquals("Processing", get(ALICE, "/v1/chat/threads/" + thread).json().getJsonObject("thread")
                .getString("state"));

        Files.createFile(gate);
        List<JsonObject> turns = awaitTurns(ALICE, thread, 2);
        assertEquals(2, turns.size(), "the first turn and one turn of the ten merged: " + turns);
        assertEquals("first", turns.get(0).getString("response"));
        String merged = IntStream.rangeClosed(1, 10).mapToObj(i -> "m" + i).collect(Collectors.joining("\n"));
        assertEquals(merged, turns.get(1).getString("user_input"));
        assertEquals("Completed", turns.get(1).getString("state"));
        assertEquals(merged, turns.get(1).getString("response"), "the engine was given all ten, in order, in one run");
    }

    @Test
    void interruptStopsTheRunningTurnAndDropsWhatWaits() throws InterruptedException {
        Path never = gates.resolve("never-" + System.nanoTime());
        String thread = threadOf(send(ALICE, content("await " + never + "; stuck", "interrupt")));
        assertEquals("queued", send(ALICE, content("waiting", "interrupt")).json().getString("status"));
        Api.Reply interrupted = send(ALICE, content("/interrupt", "interrupt"));
        assertEquals(200, interrupted.status(), interrupted.body());
        assertEquals("ok", interrupted.json().getString("status"));
        assertEquals("Interrupted.", interrupted.json().getString("message"));
        Await.until(DEADLINE, () -> "Idle".equals(get(ALICE, "/v1/chat/threads/" + thread).json()
                .getJsonObject("thread").getString("state")), "the thread is idle after /interrupt");
        assertEquals("Nothing to interrupt.", send(ALICE, content("/interrupt", "interrupt")).json().getString("message"));

        assertEquals("started", send(ALICE, content("after", "interrupt")).json().getString("status"));
        List<JsonObject> turns = awaitTurns(ALICE, thread, 2);
        assertEquals("Interrupted", turns.get(0).getString("state"), turns.toString());
        assertEquals("after", turns.get(1).getString("user_input"), "the dropped message never ran: " + turns);
        assertEquals("after", turns.get(1).getString("response"));
    }

    @Test
    void usersNeverReachEachOthersThreads() throws Exception {
        String alices = threadOf(send(ALICE, "{\"channel\":\"web\",\"thread_id\":\"private\",\"content\":\"secret plan\"}"));
        assertEquals(404, get(BOB, "/v1/chat/threads/" + alices).status());
        assertEquals(404, get(BOB, "/v1/threads/" + alices + "/items").status());
        assertFalse(get(BOB, "/v1/chat/threads").body().contains(alices));
        Api.Reply switched = send(BOB, "{\"content\":\"/thread " + alices + "\"}");
        assertEquals(404, switched.status(), "as for an id nobody uses: " + switched.body());
        Api.Reply onWeb = send(BOB, "{\"channel\":\"web\",\"thread_id\":\"" + alices + "\",\"content\":\"let me in\"}");
        assertEquals(202, onWeb.status(), onWeb.body());
        assertEquals(alices, threadOf(onWeb), "ids are per user: bob's own thread with the id he chose (issue 35)");
        awaitTurns(BOB, alices, 1);
        assertFalse(get(BOB, "/v1/threads/" + alices + "/items").body().contains("secret plan"), "none of alice's history");
        assertFalse(get(ALICE, "/v1/threads/" + alices + "/items").body().contains("let me in"), "nothing of bob's");
        Api.Reply hers = send(ALICE, "{\"channel\":\"web\",\"thread_id\":\"" + alices + "\",\"content\":\"still mine\"}");
        assertEquals(202, hers.status(), hers.body());
        assertEquals(2, awaitTurns(ALICE, alices, 2).size(), "her thread goes on");
    }

    @Test
    void aUsersFirstMessagesOnManyThreadsAtOnceMakeOneSession() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Api.Reply>> calls = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String body = "{\"channel\":\"web\",\"thread_id\":\"parallel-" + (i % 4) + "\",\"content\":\"p" + i + "\"}";
                calls.add(() -> send(CAROL, body));
            }
            Set<String> threads = new HashSet<>();
            for (Future<Api.Reply> f : pool.invokeAll(calls)) {
                Api.Reply r = f.get();
                assertEquals(202, r.status(), r.body());
                threads.add(r.json().getString("thread_id"));
            }
            assertEquals(4, threads.size(), "one thread per key, however the first messages raced: " + threads);
            assertEquals(4, get(CAROL, "/v1/chat/threads").json().getJsonArray("threads").size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void newThreadsAreMadeActive() {
        Api.Reply made = api.send(api.request("/v1/chat/threads").header("Authorization", "Bearer " + BOB)
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(201, made.status(), made.body());
        JsonObject thread = made.json();
        assertEquals("Idle", thread.getString("state"));
        assertEquals("web", thread.getString("channel"));
        assertTrue(thread.getBoolean("active"));
        assertEquals(thread.getString("id"), get(BOB, "/v1/chat/threads").json().getString("active_thread"));
        Api.Reply command = send(BOB, "{\"channel\":\"web\",\"content\":\"/thread new\"}");
        assertEquals(200, command.status(), command.body());
        String fresh = command.json().getString("thread_id");
        assertEquals(fresh, threadOf(send(BOB, "{\"channel\":\"web\",\"content\":\"into the new one\"}")),
                "a caller without a thread id of its own continues in the thread it made");
        String fixed = "{\"channel\":\"telegram\",\"thread_id\":\"chat-9\",\"content\":\"%s\"}";
        String before = threadOf(send(BOB, String.format(fixed, "before")));
        String after = threadOf(send(BOB, String.format(fixed, "/new")));
        assertNotEquals(before, after);
        assertEquals(after, threadOf(send(BOB, String.format(fixed, "in the new one"))),
                "a channel that always sends the same thread id continues in the new thread (I2)");
    }

    @Test
    void badInputGetsAClearError() throws InterruptedException {
        assertError(send(ALICE, "{}"), 400, "invalid_chat_payload", "content");
        assertError(send(ALICE, "{\"content\":\"   \"}"), 400, "invalid_chat_payload", "content");
        assertError(send(ALICE, "{\"content\":\"x\",\"channel\":\"Web!\"}"), 400, "invalid_chat_payload", "channel");
        assertError(send(ALICE, "{\"content\":\"x\",\"thread_id\":7}"), 400, "invalid_chat_payload", "thread_id");
        assertError(send(ALICE, "{\"content\":\"x\",\"thread_id\":\"" + "t".repeat(257) + "\"}"), 400, "invalid_chat_payload",
                "thread_id");
        assertError(send(ALICE, "[1]"), 400, "invalid_chat_payload", "object");
        assertError(send(ALICE, "{\"content\":"), 400, "invalid_json_body", "JSON");
        assertError(send(ALICE, "{\"content\":\"/summarize\"}"), 400, "unsupported_command", "/summarize");
        String approval = Json.createObjectBuilder().add("ExecApproval", Json.createObjectBuilder()
                .add("request_id", "7d3f9b1e-0c55-4e1a-9f6b-2a4c8e0d1b38").add("approved", true)).build().toString();
        assertError(send(ALICE, content(approval, "keywords")), 409, "no_pending_approval", "no pending approval");
        Api.Reply keyword = send(ALICE, content("yes", "keywords"));
        assertEquals("started", keyword.json().getString("status"), "an approval keyword with nothing pending is input");
        assertEquals("yes", awaitTurns(ALICE, threadOf(keyword), 1).get(0).getString("response"));
        assertError(get(ALICE, "/v1/chat/threads/not-a-uuid"), 404, "thread_not_found", "not found");
        assertError(get(ALICE, "/v1/chat/threads?limit=0"), 400, null, "limit");
        assertEquals(401, api.send(api.request("/v1/chat/threads").GET()).status());
    }

    @Test
    void aThreadsEventsStreamLiveAndResumeAfterTheLastEventId() throws Exception {
        String thread = threadOf(send(ALICE, content("first of the stream", "sse")));
        awaitTurns(ALICE, thread, 1);
        List<String[]> all = events(ALICE, thread, "last_event_id=0", null, "turn/completed");
        List<String> names = all.stream().map(e -> e[1]).toList();
        assertEquals("turn/started", names.get(0), names.toString());
        assertEquals("turn/completed", names.get(names.size() - 1), names.toString());
        assertTrue(all.stream().allMatch(e -> e[2].contains(thread)), "only this thread's notifications");
        long firstId = Long.parseLong(all.get(0)[0]);
        List<String[]> resumed = events(ALICE, thread, null, Long.toString(firstId), "turn/completed");
        assertEquals(all.subList(1, all.size()).stream().map(e -> e[0]).toList(), resumed.stream().map(e -> e[0]).toList(),
                "Last-Event-ID replays exactly what came after it");

        java.util.concurrent.CountDownLatch subscribed = new java.util.concurrent.CountDownLatch(1);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            Future<List<String[]>> live = reader.submit(() -> events(ALICE, thread, null, null, "turn/completed",
                    subscribed::countDown));
            assertTrue(subscribed.await(30, java.util.concurrent.TimeUnit.SECONDS), "the stream opened");
            send(ALICE, content("live one", "sse"));
            List<String[]> seen = live.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(seen.stream().anyMatch(e -> e[2].contains("live one")), "the new turn's own events");
            assertTrue(Long.parseLong(seen.get(0)[0]) > Long.parseLong(all.get(all.size() - 1)[0]),
                    "a stream without an id starts now");
        } finally {
            reader.shutdownNow();
        }
        assertEquals(404, get(BOB, "/v1/chat/threads/" + thread + "/events").status(), "not another user's");
        assertError(get(ALICE, "/v1/chat/threads/" + thread + "/events?last_event_id=x"), 400, null, "last_event_id");
    }

    /**
     * Reads the thread's event stream until an event named {@code until}; each event as
     * {@code [id, name, data]}. {@code query} and {@code lastEventId} (the header) may be null.
     */
    private static List<String[]> events(String token, String thread, String query, String lastEventId, String until)
            throws Exception {
        return events(token, thread, query, lastEventId, until, () -> { });
    }

    /** As above, running {@code onOpen} once the server has said the stream is live. */
    private static List<String[]> events(String token, String thread, String query, String lastEventId, String until,
            Runnable onOpen) throws Exception {
        HttpRequest.Builder request = api.request("/v1/chat/threads/" + thread + "/events"
                + (query == null ? "" : "?" + query)).header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(30)).GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        java.net.http.HttpResponse<java.util.stream.Stream<String>> response = Api.CLIENT.send(request.build(),
                java.net.http.HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream", response.headers().firstValue("Content-Type").orElse("").split(";")[0]);
        List<String[]> events = new ArrayList<>();
        String[] current = new String[3];
        try (java.util.stream.Stream<String> lines = response.body()) {
            java.util.Iterator<String> it = lines.iterator();
            while (it.hasNext()) {
                String line = it.next();
                if (line.equals(": subscribed")) {
                    onOpen.run();
                } else if (line.startsWith("id: ")) {
                    current[0] = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    current[1] = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    current[2] = line.substring(6);
                } else if (line.isEmpty() && current[1] != null) {
                    events.add(current);
                    if (until.equals(current[1])) {
                        return events;
                    }
                    current = new String[3];
                }
            }
        }
        throw new AssertionError("the stream ended before " + until + ": " + events.size() + " events");
    }

    @Test
    void undoRedoAndClearChangeWhatTheEngineIsGivenNotTheStoredHistory() throws Exception {
        String thread = threadOf(send(ALICE, content("one", "undo")));
        awaitTurns(ALICE, thread, 1);
        send(ALICE, content("two", "undo"));
        awaitTurns(ALICE, thread, 2);
        assertEquals("history(4): user: one | assistant: one | user: two | assistant: two", ask(thread, 3));

        assertEquals("Undone to turn 3. 2 undo(s) remaining.", command("/undo", "undo"));
        assertEquals("Undone to turn 2. 1 undo(s) remaining.", command("/undo", "undo"));
        assertEquals("history(2): user: one | assistant: one", ask(thread, 4), "the context before turn 2, exactly");
        assertEquals("Nothing to redo.", command("/redo", "undo"), "a new turn ends what could be redone");
        assertEquals("Undone to turn 2. 1 undo(s) remaining.", command("/undo", "undo"));
        assertEquals("Redone to turn 3.", command("/redo", "undo"));
        assertTrue(ask(thread, 5).startsWith("history(4): user: one | assistant: one | user: history | assistant: history(2)"));

        assertEquals("Thread cleared.", command("/clear", "undo"));
        assertEquals("Nothing to undo.", command("/undo", "undo"));
        assertEquals("history(0): ", ask(thread, 6));
        assertEquals(6, get(ALICE, "/v1/chat/threads/" + thread).json().getJsonArray("turns").size(),
                "the stored history keeps every turn");

        Path gate = gates.resolve("busy-" + System.nanoTime());
        send(ALICE, content("await " + gate + "; busy", "undo"));
        Api.Reply busy = send(ALICE, content("/undo", "undo"));
        assertEquals(409, busy.status(), busy.body());
        assertEquals("thread_busy", busy.errorCode());
        Files.createFile(gate);
        awaitTurns(ALICE, thread, 7);
    }

    @Test
    void resumeGoesBackToANamedCheckpointAndBareResumeListsTheThreads() throws Exception {
        String thread = threadOf(send(DAVE, content("alpha", "resume")));
        awaitTurns(DAVE, thread, 1);
        send(DAVE, content("beta", "resume"));
        awaitTurns(DAVE, thread, 2);
        List<JsonObject> checkpoints = get(DAVE, "/v1/chat/threads/" + thread).json().getJsonArray("checkpoints")
                .getValuesAs(JsonObject.class);
        assertEquals(List.of("Before turn 1", "Before turn 2"), checkpoints.stream().map(c -> c.getString("description"))
                .toList());
        String second = checkpoints.get(1).getString("id");
        Api.Reply resumed = send(DAVE, content("/resume " + second, "resume"));
        assertEquals(200, resumed.status(), resumed.body());
        assertEquals("Resumed from checkpoint: Before turn 2", resumed.json().getString("message"));
        send(DAVE, content("history", "resume"));
        assertEquals("history(2): user: alpha | assistant: alpha", awaitTurns(DAVE, thread, 3).get(2).getString("response"),
                "the context at that checkpoint, exactly");
        assertError(send(DAVE, content("/resume " + second, "resume")), 404, "checkpoint_not_found", "Checkpoint not found.");
        Api.Reply listed = send(DAVE, content("/resume", "resume"));
        assertEquals(200, listed.status(), listed.body());
        assertTrue(listed.json().getString("message").startsWith("Threads:\n- "), listed.body());
        assertTrue(listed.json().getString("message").contains(thread + " (Idle) alpha"), listed.body());
    }

    /** Sends {@code history} to the thread and returns what the engine was given, once it is turn {@code n}. */
    private static String ask(String thread, int n) throws InterruptedException {
        send(ALICE, content("history", "undo"));
        return awaitTurns(ALICE, thread, n).get(n - 1).getString("response");
    }

    private static String command(String text, String threadId) {
        Api.Reply reply = send(ALICE, content(text, threadId));
        assertEquals(200, reply.status(), reply.body());
        return reply.json().getString("message");
    }

    @Test
    void compactSummarisesTheOlderTurnsAndKeepsTheNewestFiveAfterTheSummary() throws Exception {
        String thread = null;
        for (int i = 1; i <= 7; i++) {
            thread = threadOf(send(ALICE, content("t" + i, "compact")));
            awaitTurns(ALICE, thread, i);
        }
        Api.Reply compacting = send(ALICE, content("/compact", "compact"));
        assertEquals(202, compacting.status(), compacting.body());
        assertEquals("Compacting: summarizing 2 turn(s).", compacting.json().getString("message"));
        List<JsonObject> turns = awaitTurns(ALICE, thread, 8);
        String summary = turns.get(7).getString("response");
        assertTrue(summary.contains("User: t1\n\nAssistant: t1\n\nUser: t2\n\nAssistant: t2") && !summary.contains("t3"),
                "the engine summarised the two older turns only: " + summary);

        send(ALICE, content("history", "compact"));
        String seen = awaitTurns(ALICE, thread, 9).get(8).getString("response");
        assertTrue(seen.startsWith("history(11): user: [Summary of the earlier conversation]\n" + summary + " | user: t3 | "),
                "the summary first, then the newest five turns: " + seen);
        assertTrue(seen.endsWith("| user: t7 | assistant: t7"), seen);
        assertEquals(9, get(ALICE, "/v1/chat/threads/" + thread).json().getJsonArray("turns").size(),
                "the stored history keeps every turn");

        assertEquals("Undone to turn 6. 8 undo(s) remaining.", command("/undo", "compact"), "the history question");
        assertEquals("Undone to turn 8. 7 undo(s) remaining.", command("/undo", "compact"), "the compaction");
        send(ALICE, content("history", "compact"));
        assertTrue(awaitTurns(ALICE, thread, 10).get(9).getString("response").startsWith(
                "history(14): user: t1 | assistant: t1 | user: t2 | "), "undo brought the turns back");
    }

    @Test
    void theSameConversationOverJsonRpc() throws InterruptedException {
        JsonObject sent = rpc(ALICE, "chat/send", "{\"channel\":\"cli\",\"thread_id\":\"rpc-room\",\"content\":\"over rpc\"}")
                .getJsonObject("result");
        assertEquals("started", sent.getString("status"));
        String thread = sent.getString("thread_id");
        awaitTurns(ALICE, thread, 1);
        JsonObject read = rpc(ALICE, "chat/read", "{\"thread_id\":\"" + thread + "\"}").getJsonObject("result");
        assertEquals("over rpc", read.getJsonArray("turns").getJsonObject(0).getString("response"));
        assertEquals(get(ALICE, "/v1/chat/threads/" + thread).json(), read, "the same JSON as over HTTP");
        assertTrue(rpc(ALICE, "chat/threads", "{}").getJsonObject("result").getJsonArray("threads").toString()
                .contains(thread));
        JsonObject made = rpc(ALICE, "chat/newThread", "{\"channel\":\"cli\"}").getJsonObject("result");
        assertTrue(made.getBoolean("active"));

        JsonObject foreign = rpc(BOB, "chat/read", "{\"thread_id\":\"" + thread + "\"}").getJsonObject("error");
        assertEquals(-32602, foreign.getInt("code"));
        assertEquals("thread_id", foreign.getJsonObject("data").getString("field"));
        JsonObject bad = rpc(ALICE, "chat/send", "{\"channel\":\"No Such\",\"content\":\"x\"}").getJsonObject("error");
        assertEquals(-32602, bad.getInt("code"));
        assertEquals("channel", bad.getJsonObject("data").getString("field"));
    }

    private static JsonObject rpc(String token, String method, String params) {
        Api.Reply reply = api.send(api.request("/rpc").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}")));
        assertEquals(200, reply.status(), reply.body());
        return reply.json();
    }

    private static void assertError(Api.Reply reply, int status, String code, String inMessage) {
        assertEquals(status, reply.status(), reply.body());
        if (code != null) {
            assertEquals(code, reply.errorCode(), reply.body());
        }
        assertTrue(reply.json().getJsonObject("error").getString("message").contains(inMessage), reply.body());
    }

    private static String content(String text, String threadId) {
        return Json.createObjectBuilder().add("channel", "web").add("thread_id", threadId).add("content", text).build()
                .toString();
    }

    private static Api.Reply send(String token, String body) {
        return api.send(api.request("/v1/chat/messages").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static Api.Reply get(String token, String path) {
        return api.send(api.request(path).header("Authorization", "Bearer " + token).GET());
    }

    private static String threadOf(Api.Reply reply) {
        assertTrue(reply.status() == 202 || reply.status() == 200, reply.body());
        return reply.json().getString("thread_id");
    }

    /** The thread's turns once {@code count} of them have ended. */
    private static List<JsonObject> awaitTurns(String token, String thread, int count) throws InterruptedException {
        List<List<JsonObject>> seen = new ArrayList<>(List.of(List.of()));
        Await.until(DEADLINE, () -> {
            List<JsonObject> turns = get(token, "/v1/chat/threads/" + thread).json().getJsonArray("turns")
                    .getValuesAs(JsonObject.class);
            seen.set(0, turns);
            return turns.stream().filter(t -> t.get("completed_at").getValueType() != JsonValue.ValueType.NULL)
                    .count() >= count;
        }, count + " ended turns on thread " + thread);
        return seen.get(0);
    }
}
