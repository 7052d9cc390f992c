package dev.switchboard.it;

import java.nio.charset.StandardCharsets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * What real clients found at the edges (issue 49), on the shared PostgreSQL instance (scripted
 * engine): a response cancelled as its run ends; jagc 0.7's {@code cancel}, {@code new} and
 * {@code share} as its CLI reads them; and one user's turns on different threads, which must not
 * wait for each other on the user's runtime row. Races are provoked by holding the exact step: a
 * row lock taken by the test's own connection, released once the contenders are seen waiting.
 */
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class ClientEdgesIT {

    private static Api api;

    @TempDir
    Path gates;

    @BeforeAll
    static void start() {
        api = SharedInstance.api();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Connection holder() throws SQLException {
        Connection c = TestDatabase.connect(SharedInstance.database());
        try (Statement s = c.createStatement()) {
            s.execute("SET idle_in_transaction_session_timeout = 0"); // the test holds its lock as long as it needs
        }
        c.setAutoCommit(false);
        return c;
    }

    private static int pid(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * How many sessions wait, directly or behind another waiter, for a lock {@code holder} holds,
     * running a statement that contains {@code text}, in any case (a second waiter for a row waits for the first).
     */
    private static int waitingBehind(int holder, String text) {
        try (Connection c = TestDatabase.connect(SharedInstance.database());
                PreparedStatement s = c.prepareStatement("WITH RECURSIVE chain(pid) AS ("
                        + " SELECT pid FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))"
                        + " UNION SELECT a.pid FROM pg_stat_activity a JOIN chain w ON w.pid = ANY(pg_blocking_pids(a.pid)))"
                        + " SELECT count(*) FROM chain JOIN pg_stat_activity s ON s.pid = chain.pid"
                        + " WHERE position(lower(?) in lower(s.query)) > 0")) {
            s.setInt(1, holder);
            s.setString(2, text);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long threadId(String threadKey) {
        return TestDatabase.count(SharedInstance.database(), "SELECT id FROM threads WHERE thread_key = ?", threadKey);
    }

    private static CompletableFuture<Api.Reply> async(HttpRequest.Builder request) {
        return CompletableFuture.supplyAsync(() -> api.send(request));
    }

    // ------------------------------------------------------------------ item 1: a cancel racing the run's end

    /**
     * A response cancelled just as its run ends (issue 49: 10 of 60 such cancels answered 500, the
     * interrupt finding no active turn): the run's finish is made to wait on its lane's lock, the
     * cancel queues behind it, and the lock is let go — the finish commits first, then the cancel
     * finds the response completed, and answers it so.
     */
    @Test
    void aCancelThatLosesTheRaceToTheRunsEndAnswersTheResponseAsItEnded() throws Exception {
        Path gate = gates.resolve("cancel-race");
        Api.Reply created = api.postJson("/v1/responses", Json.createObjectBuilder()
                .add("input", "await " + gate + "; the end").add("background", true).build().toString());
        assertEquals(200, created.status(), created.body());
        String id = created.json().getString("id");
        Await.until(Duration.ofSeconds(30), () -> "in_progress".equals(api.get("/v1/responses/" + id).json().getString("status")),
                "the response's run executes");
        long thread = threadId("responses/" + id);
        try (Connection lock = holder()) {
            int holder = pid(lock);
            try (PreparedStatement s = lock.prepareStatement("SELECT thread_id FROM lanes WHERE thread_id = ? FOR UPDATE")) {
                s.setLong(1, thread);
                s.executeQuery().close();
            }
            Files.createFile(gate); // the engine ends; the finish waits for the lane
            Await.until(Duration.ofSeconds(30), () -> waitingBehind(holder, "WHERE l.thread_id = $1 FOR UPDATE") >= 1,
                    "the run's finish waits for its lane");
            CompletableFuture<Api.Reply> cancel = async(api.request("/v1/responses/" + id + "/cancel")
                    .POST(HttpRequest.BodyPublishers.noBody()));
            Await.until(Duration.ofSeconds(30), () -> waitingBehind(holder, "WHERE l.thread_id = $1 FOR UPDATE") >= 2,
                    "the cancel waits behind the finish");
            lock.commit();
            Api.Reply answer = cancel.get(30, TimeUnit.SECONDS);
            assertEquals(200, answer.status(), answer.body());
            assertEquals("completed", answer.json().getString("status"), "the run won the race: " + answer.body());
        }
        assertEquals("completed", api.get("/v1/responses/" + id).json().getString("status"));
    }

    // ------------------------------------------------------------------ two first messages to one new thread

    /**
     * A thread created by someone else while a message's own creation of it waits (two first
     * messages to one new thread key): the test creates the row in its own open transaction, the
     * message's insert is seen waiting on it, the test commits — the message's creation loses the
     * race, finds the other's thread and is accepted onto it; the lost race is no failure of the
     * server, so nothing of it reaches its log (it was a CNTR0020E with an FFDC incident each time).
     */
    @Test
    void aThreadCreatedMeanwhileIsFoundAndTheLostRaceIsNotLoggedAsAFailure() throws Exception {
        String key = unique("first-race");
        Path log = Instance.outputDir("it-shared").resolve("switchboard/logs/messages.log");
        long logged = Files.size(log);
        long thread;
        try (Connection other = holder()) {
            int holder = pid(other);
            try (PreparedStatement s = other.prepareStatement("INSERT INTO threads (id, user_key, thread_key,"
                    + " created_at, is_internal) VALUES (nextval('thread_id_seq'), 'local', ?, 0, FALSE) RETURNING id")) {
                s.setString(1, key);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    thread = rs.getLong(1);
                }
            }
            try (PreparedStatement s = other.prepareStatement("INSERT INTO lanes (thread_id, next_seq) VALUES (?, 1)")) {
                s.setLong(1, thread); // a thread is made with its lane, as the server makes it
                s.executeUpdate();
            }
            String body = Json.createObjectBuilder().add("thread_key", key).add("text", "first").build().toString();
            CompletableFuture<Api.Reply> message = CompletableFuture.supplyAsync(() -> api.postJson("/v1/messages", body));
            Await.until(Duration.ofSeconds(30), () -> waitingBehind(holder, "INSERT INTO threads") >= 1,
                    "the message's creation of the thread waits for the other's");
            other.commit();
            Api.Reply accepted = message.get(30, TimeUnit.SECONDS);
            assertEquals(202, accepted.status(), accepted.body());
            assertEquals(1, accepted.json().getJsonNumber("thread_seq").longValue(), accepted.body());
        }
        assertEquals(thread, threadId(key), "the message joined the thread created meanwhile");
        String added;
        try (var in = Files.newInputStream(log)) {
            in.skipNBytes(logged);
            added = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertFalse(added.contains("ThreadLedger"), added);
        assertFalse(added.contains("duplicate key"), added);
    }

    // ------------------------------------------------------------------ item 10: turns off the runtime's row

    /**
     * One user's turn on a thread that is not the runtime's session starts while the user's
     * runtime row is locked by someone else (issue 49: every such start locked the row, so one
     * user's turns on different threads queued behind each other); the session moves on once the
     * row is free.
     */
    @Test
    @ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ_WRITE) // holds the user's runtime row
    void aTurnStartsWhileTheUsersRuntimeRowIsHeldAndTheSessionMovesOnAfterwards() throws Exception {
        Rpc rpc = new Rpc(api);
        rpc.ensureRunning();
        rpc.startTurn(unique("rt-first"), "sleep 1; first"); // the runtime row exists, running
        String other = unique("rt-other");
        try (Connection lock = holder()) {
            try (Statement s = lock.createStatement()) {
                s.executeQuery("SELECT user_key FROM serve_runtime WHERE user_key = 'local' FOR UPDATE").close();
            }
            CompletableFuture<JsonObject> started = CompletableFuture.supplyAsync(() -> rpc.startTurn(other, "sleep 1; other"));
            JsonObject turn = started.get(30, TimeUnit.SECONDS); // on main it waited until the lock was let go
            assertTrue(turn.getString("turn_id").startsWith("turn_"), turn.toString());
            lock.rollback();
        }
        String last = unique("rt-last");
        rpc.startTurn(last, "sleep 1; last");
        assertEquals(last, rpc.result("server/status", Rpc.obj()).getString("session_id"),
                "a turn start on another thread makes it the session");
    }

    // ------------------------------------------------------------------ jagc 0.7: cancel, new, share

    /** jagc's CLI reads {@code {thread_key, cancelled}}; Switchboard's own clients read the ids beside it. */
    @Test
    void cancelAnswersWhetherARunWasStoppedBesideTheIds() throws Exception {
        JsonObject none = api.postJson("/v1/threads/" + unique("never") + "/cancel", "").json();
        assertFalse(none.getBoolean("cancelled"), none.toString());
        assertEquals(0, none.getJsonArray("cancelled_run_ids").size());

        String thread = unique("cancel");
        Path gate = gates.resolve("cancel");
        String runId = api.message(thread, "await " + gate + "; never").getString("run_id");
        Await.until(Duration.ofSeconds(30), () -> api.isExecuting(runId, 1), "the run executes");
        JsonObject cancelled = api.postJson("/v1/threads/" + thread + "/cancel", "").json();
        assertEquals(thread, cancelled.getString("thread_key"));
        assertTrue(cancelled.getBoolean("cancelled"), cancelled.toString());
        assertEquals(List.of(runId), cancelled.getJsonArray("cancelled_run_ids").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList());
        Files.createFile(gate);
    }

    /**
     * jagc's {@code new}: the thread's next run starts a fresh conversation — its engine is given
     * nothing from before — while everything stored stays; a run executing at the reset belongs to
     * the conversation that ends and is cancelled, one queued behind it runs in the new one.
     */
    @Test
    void newStartsTheNextRunInAFreshConversationAndLosesNothingStored() throws Exception {
        String thread = unique("new");
        api.awaitRun(api.message(thread, "one").getString("run_id"), 30);
        JsonObject before = api.awaitRun(api.message(thread, "history").getString("run_id"), 30);
        assertTrue(before.getJsonObject("output").getString("text").startsWith("history(2): user: one | assistant: one"),
                before.toString());

        Path gate = gates.resolve("new");
        String executing = api.message(thread, "await " + gate + "; cut short").getString("run_id");
        Await.until(Duration.ofSeconds(30), () -> api.isExecuting(executing, 1), "a run executes");
        String queued = api.message(thread, "history").getString("run_id");
        HttpResponse<String> reset = Api.CLIENT.send(api.request("/v1/threads/" + thread + "/session").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, reset.statusCode(), reset.body());
        JsonObject answer = Rpc.parse(reset.body());
        assertEquals(thread, answer.getString("thread_key"));
        assertTrue(answer.getBoolean("reset"));
        assertEquals(executing, answer.getJsonArray("cancelled_run_ids").getString(0), answer.toString());
        assertEquals("cancelled", api.awaitRun(executing, 30).getJsonObject("error").getString("code"));
        JsonObject fresh = api.awaitRun(queued, 30);
        assertEquals("history(0): ", fresh.getJsonObject("output").getString("text"), "nothing from before: " + fresh);
        JsonObject after = api.awaitRun(api.message(thread, "history").getString("run_id"), 30);
        assertTrue(after.getJsonObject("output").getString("text").startsWith("history(2): user: history | assistant: history(0)"),
                "the new conversation goes on: " + after);
        assertTrue(api.get("/v1/threads/" + thread + "/items").json().getJsonArray("items").size() >= 8,
                "nothing stored is lost");

        HttpResponse<String> unknown = Api.CLIENT.send(api.request("/v1/threads/" + unique("none") + "/session").DELETE()
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, unknown.statusCode(), "a thread never made starts fresh anyway: " + unknown.body());
        Files.createFile(gate);
    }

    /**
     * jagc's {@code share}: an unguessable, read-only link to the thread's transcript as it was when
     * shared, served here with no token and no script; revoked, it opens nothing.
     */
    @Test
    void shareHandsOutALinkToTheTranscriptThatRevokingCloses() throws Exception {
        String thread = unique("share");
        api.awaitRun(api.message(thread, "<script>alert(1)</script> & \"quoted\"").getString("run_id"), 30);
        JsonObject shared = api.postJson("/v1/threads/" + thread + "/share", "").json();
        assertEquals(thread, shared.getString("thread_key"));
        String url = shared.getString("share_url");
        assertEquals(url, shared.getString("gist_url"), "no gist is made: the same link");
        assertTrue(url.matches(api.base.replace("127.0.0.1", "(127\\.0\\.0\\.1|localhost)") + "/shared/[A-Za-z0-9_-]{43}"), url);
        api.awaitRun(api.message(thread, "said after the share").getString("run_id"), 30);

        HttpResponse<String> page = Api.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").startsWith("default-src 'none'"));
        assertEquals("no-store", page.headers().firstValue("Cache-Control").orElse(""));
        assertEquals("no-referrer", page.headers().firstValue("Referrer-Policy").orElse(""));
        assertTrue(page.body().contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;"), page.body());
        assertFalse(page.body().contains("<script>"), "what was said is text, never markup");
        assertFalse(page.body().contains("said after the share"), "the transcript as it was when shared");

        JsonObject second = api.postJson("/v1/threads/" + thread + "/share", "").json();
        assertFalse(second.getString("share_url").equals(url), "every share is a link of its own");
        HttpResponse<String> revoked = Api.CLIENT.send(api.request("/v1/threads/" + thread + "/share").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, revoked.statusCode(), revoked.body());
        assertEquals(2, Rpc.parse(revoked.body()).getInt("revoked"));
        HttpResponse<String> closed = Api.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, closed.statusCode());
        assertEquals("share_not_found", Rpc.parse(closed.body()).getJsonObject("error").getString("code"));
        assertEquals(404, api.postJson("/v1/threads/" + unique("none") + "/share", "").status());
    }
}
