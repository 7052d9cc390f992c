package dev.switchboard.it;

import static dev.switchboard.it.ChatCalls.DEADLINE;
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
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two users, every door: Alice has a finished turn, a thread waiting for her approval and one
 * waiting for her credential; Bob — listening on the WebSocket, the NDJSON stream and the chat
 * event stream, and calling every REST route and JSON-RPC method that takes a thread, turn or run —
 * reads, answers, cancels and hears nothing of hers. Her approval and prompt are intact after the
 * sweep, and she resolves them.
 *
 * <p>Issue 35: a run from another door on a chat thread is a turn of its own in arrival order,
 * with the order provoked both ways by holding the running turn's model call; a chat thread id is
 * its user's own, so another user's id answers as an unknown one; and a tool call's secret
 * arguments reach the tool and no row, file, stream, API body or later model request.
 */
class ChatIsolationIT {

    /** The thread's cap on unfinished runs when a message arrives, and on chat messages waiting (small, to reach them). */
    static final int MAX_RUNS = 4;
    static final int MAX_CHAT = 3;
    private static final String ALICE = "alice-isolation-token-012345";
    private static final String BOB = "bob-isolation-token-0123456";
    /** This class's users on ChatAuthIT's instance, as its token setting lists them. */
    static final String USERS = ALICE + "=iso-alice," + BOB + "=iso-bob";
    private static final String SECRET = "eyes-only-for-alice";
    /** What {@code http_get} fetches for Alice: this class's page on the shared model server. */
    static final String API_PATH = "/api/" + SECRET;
    /** The value of the sensitive arguments the model puts in its tool calls ({@code clock}, {@code secretly}). */
    private static final String ARGUMENT = "sk-live-" + Long.toHexString(System.nanoTime()) + "-arg";
    /** The user texts the model was asked about, in the order its requests came (held ones when they came). */
    private static final List<String> ASKED = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static final List<String> MODEL_REQUESTS = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** {@code hold <tag>}: the model answers once the tag's latch is released. */
    private static final Map<String, java.util.concurrent.CountDownLatch> HOLDS = new java.util.concurrent.ConcurrentHashMap<>();
    private static Instance server;
    private static int port;

    /**
     * On ChatAuthIT's instance (one Liberty start instead of two), as users of its own: its queue
     * caps ({@value #MAX_RUNS} runs, {@value #MAX_CHAT} chat messages a thread), {@code echo_tool}
     * needing approval (always), {@code http_get} the credential {@code github}.
     */
    @BeforeAll
    static void start() {
        server = ChatAuthIT.withQueueCaps();
        port = server.port;
    }

    @AfterAll
    static void stop() {
        ChatAuthIT.finished(ChatIsolationIT.class);
    }

    @Test
    void aSecondUserReachesNothingOfTheFirstsThroughAnyDoor() throws Exception {
        String talked = threadOf(send(server, ALICE, "telegram", "iso-1", SECRET));
        assertEquals("heard: " + SECRET, lastResponse(server, ALICE, talked, 1));
        JsonObject turn = get(server, ALICE, "/v1/chat/threads/" + talked).json().getJsonArray("turns").getJsonObject(0);
        String runId = turn.getString("run_id");
        String turnId = turn.getString("turn_id");
        String approving = threadOf(send(server, ALICE, "web", "iso-2", "tool " + SECRET));
        Await.until(DEADLINE, () -> !thread(ALICE, approving).isNull("pending_approval"), "alice's approval waits");
        String requestId = thread(ALICE, approving).getJsonObject("pending_approval").getString("request_id");
        String authing = threadOf(send(server, ALICE, "web", "iso-3", "fetch " + SECRET));
        Await.until(DEADLINE, () -> !thread(ALICE, authing).isNull("pending_auth"), "alice's prompt waits");
        List<String> alices = List.of(talked, approving, authing);

        try (RpcSocket all = RpcSocket.connect(port, "Authorization", "Bearer " + BOB);
                RpcSocket named = RpcSocket.connect(port, "Authorization", "Bearer " + BOB)) {
            all.call("subscribe", Json.createObjectBuilder().add("after_seq", 0).build());
            JsonArrayBuilder threads = Json.createArrayBuilder();
            alices.forEach(threads::add);
            named.call("subscribe", Json.createObjectBuilder().add("threads", threads).add("after_seq", 0).build());

            Map<String, Api.Reply> rest = new LinkedHashMap<>();
            for (String t : alices) {
                rest.put("GET chat thread " + t, get(server, BOB, "/v1/chat/threads/" + t));
                rest.put("GET chat events " + t, get(server, BOB, "/v1/chat/threads/" + t + "/events?last_event_id=0"));
                rest.put("POST approval " + t, post("/v1/chat/threads/" + t + "/approval",
                        "{\"request_id\":\"" + requestId + "\",\"action\":\"approve\"}"));
                rest.put("POST auth " + t, post("/v1/chat/threads/" + t + "/auth", "{\"token\":\"bob-guess\"}"));
                rest.put("DELETE auth " + t, server.api.send(server.api.request("/v1/chat/threads/" + t + "/auth")
                        .header("Authorization", "Bearer " + BOB).DELETE()));
                rest.put("POST /thread " + t, post("/v1/chat/messages", "{\"content\":\"/thread " + t + "\"}"));
                rest.put("GET items " + t, get(server, BOB, "/v1/threads/" + t + "/items"));
                rest.put("GET items? " + t, get(server, BOB, "/v1/threads/items?thread_key=" + t));
                rest.put("GET runs " + t, get(server, BOB, "/v1/threads/" + t + "/runs"));
                rest.put("GET runs? " + t, get(server, BOB, "/v1/threads/runs?thread_key=" + t));
                rest.put("GET runtime " + t, get(server, BOB, "/v1/threads/" + t + "/runtime"));
                rest.put("POST cancel " + t, post("/v1/threads/" + t + "/cancel", "{}"));
            }
            rest.put("GET run", get(server, BOB, "/v1/runs/" + runId));
            rest.put("GET run wait", get(server, BOB, "/v1/runs/" + runId + "/wait?timeout=0"));
            for (Map.Entry<String, Api.Reply> e : rest.entrySet()) {
                Api.Reply r = e.getValue();
                // a refusal may repeat what the request named itself (an id); nothing else of alice's
                String unnamed = r.body().replace(runId, "<named>").replace(requestId, "<named>");
                assertNoLeak(e.getKey(), unnamed, runId, turnId, requestId);
                if (e.getKey().startsWith("GET chat") || e.getKey().startsWith("POST approval")
                        || e.getKey().contains("auth ") || e.getKey().equals("GET run") || e.getKey().equals("GET run wait")) {
                    assertEquals(404, r.status(), e.getKey() + ": " + r.body());
                }
                if (e.getKey().startsWith("POST /thread")) { // her id is one Bob does not have: unknown to him
                    assertEquals(404, r.status(), e.getKey() + ": " + r.body());
                    assertEquals("Thread not found.", r.json().getJsonObject("error").getString("message"));
                }
            }
            String lists = get(server, BOB, "/v1/chat/threads").body() + get(server, BOB, "/v1/threads/runs").body();
            assertNoLeak("lists", lists, runId, turnId, requestId);
            alices.forEach(t -> assertFalse(lists.contains(t), lists));

            List<String> rpcs = new ArrayList<>();
            for (String t : alices) {
                for (String[] call : new String[][] {
                        {"chat/read", "{\"thread_id\":\"" + t + "\"}"},
                        {"chat/approve", "{\"thread_id\":\"" + t + "\",\"action\":\"approve\"}"},
                        {"chat/authToken", "{\"thread_id\":\"" + t + "\",\"token\":\"bob-guess\"}"},
                        {"chat/authCancel", "{\"thread_id\":\"" + t + "\"}"},
                        {"thread/read", "{\"thread_id\":\"" + t + "\"}"}}) {
                    JsonObject answer = rpc(call[0], call[1]);
                    assertTrue(answer.containsKey("error"), call[0] + " " + t + ": " + answer);
                    rpcs.add(answer.toString());
                }
            }
            for (String method : new String[] {"turn/read", "turn/interrupt"}) {
                JsonObject answer = rpc(method, "{\"turn_id\":\"" + turnId + "\"}");
                assertTrue(answer.containsKey("error"), method + ": " + answer);
                assertFalse(answer.toString().contains(SECRET), answer.toString());
            }
            JsonObject overSocket = all.call("chat/approve", Json.createObjectBuilder().add("thread_id", approving)
                    .add("action", "approve").build());
            assertTrue(overSocket.containsKey("error"), overSocket.toString());
            rpcs.add(rpc("thread/list", "{}").toString());
            rpcs.add(rpc("chat/threads", "{}").toString());
            rpcs.forEach(body -> assertNoLeak("rpc", body, runId, turnId, requestId));

            // Bob's own turn is the marker: every notification committed before it has reached his streams
            String marker = "bob-marker-" + System.nanoTime();
            String bobs = threadOf(send(server, BOB, "web", "iso-bob", marker));
            String ndjson = ChatCalls.read(server, BOB, "/rpc/stream?after_seq=0", "application/x-ndjson",
                    text -> text.contains("\"turn/completed\"") && text.contains(bobs), DEADLINE);
            assertTrue(ndjson.contains(bobs), "bob's stream is live: " + ndjson);
            assertNoLeak("/rpc/stream", ndjson, runId, turnId, requestId);
            alices.forEach(t -> assertFalse(ndjson.contains(t), ndjson));
            all.notifications.awaitCount(n -> n.toString().contains(bobs) && n.toString().contains("turn/completed"), 1,
                    DEADLINE);
            String heard = all.notifications.snapshot().toString() + named.notifications.snapshot();
            assertNoLeak("/ws", heard, runId, turnId, requestId);
            alices.forEach(t -> assertFalse(heard.contains(t), heard));
        }

        JsonObject pending = thread(ALICE, approving).getJsonObject("pending_approval");
        assertEquals(requestId, pending.getString("request_id"), "bob answered nothing");
        assertFalse(thread(ALICE, authing).isNull("pending_auth"), "bob cancelled nothing");
        assertEquals(202, post(ALICE, "/v1/chat/threads/" + approving + "/approval",
                "{\"request_id\":\"" + requestId + "\",\"action\":\"approve\"}").status());
        assertEquals("tool said: " + SECRET, lastResponse(server, ALICE, approving, 2));
        assertEquals(202, post(ALICE, "/v1/chat/threads/" + authing + "/auth", "{\"token\":\"alice-token\"}").status());
        assertEquals("tool said: HTTP 200\n" + SECRET + " fetched", lastResponse(server, ALICE, authing, 2),
                "bob's guess was not stored as alice's credential");
    }

    // ------------------------------------------------------------------ issue 35, item 1: doors never merge

    /**
     * A chat turn is held in its model call; then, in this order, a {@code POST /v1/messages} run
     * and a {@code turn/start} run on the same thread are acknowledged, and a chat message queued:
     * each run is a turn of its own, runs in arrival order (as the model sees them) and ends with its
     * own result; the chat message does not swallow them.
     */
    @Test
    void runsFromOtherDoorsQueuedBeforeAChatMessageKeepTheirOwnTurns() throws Exception {
        String tag = "before-" + System.nanoTime();
        String thread = threadOf(send(server, ALICE, "web", "doors-" + tag, "hold " + tag));
        awaitAsked("hold " + tag);
        String apiRun = postMessage(ALICE, thread, "api " + tag);
        String rpcTurn = startTurn(ALICE, thread, "rpc " + tag);
        Api.Reply queued = send(server, ALICE, "web", "doors-" + tag, "chat " + tag);
        assertEquals("queued", queued.json().getString("status"), queued.body());
        HOLDS.get(tag).countDown();

        assertEquals("heard: api " + tag, awaitRun(ALICE, apiRun).getJsonObject("output").getString("text"),
                "the API client gets its run's own result");
        assertEquals("heard: rpc " + tag, awaitTurnReply(ALICE, thread, rpcTurn), "the RPC turn's own result");
        assertEquals("heard: chat " + tag, replyTo(ALICE, thread, "chat " + tag));
        assertEquals(List.of("hold " + tag, "api " + tag, "rpc " + tag, "chat " + tag), asked(tag),
                "the model was asked in arrival order, each on its own");
    }

    /**
     * The other order: a chat message waits behind the held turn, then an API run and an RPC turn
     * arrive, then two more chat messages — which merge with each other but not with the message
     * before the other doors' runs (that would jump the queue). Bob does the same on a thread of his
     * own with the same id, at the same time: his turns never touch hers.
     */
    @Test
    void aChatMessageAfterOtherDoorsRunsNeverJumpsOverThem() throws Exception {
        String tag = "after-" + System.nanoTime();
        String bobTag = "bob-" + tag;
        String thread = threadOf(send(server, ALICE, "web", "doors-" + tag, "hold " + tag));
        Api.Reply bobs = send(server, BOB, "web", thread, "hold " + bobTag);
        assertEquals(202, bobs.status(), bobs.body());
        assertEquals(thread, threadOf(bobs), "bob's own thread, with the id he chose");
        awaitAsked("hold " + tag);
        awaitAsked("hold " + bobTag);
        assertEquals("queued", send(server, ALICE, "web", thread, "first " + tag).json().getString("status"));
        assertEquals("queued", chatSend(BOB, thread, "first " + bobTag).getString("status"), "bob's over JSON-RPC");
        String apiRun = postMessage(ALICE, thread, "api " + tag);
        String rpcTurn = startTurn(ALICE, thread, "rpc " + tag);
        String bobsApiRun = postMessage(BOB, thread, "api " + bobTag);
        assertEquals("queued", send(server, ALICE, "web", thread, "second " + tag).json().getString("status"));
        assertEquals("queued", send(server, ALICE, "web", thread, "third " + tag).json().getString("status"));
        assertEquals("queued", chatSend(BOB, thread, "second " + bobTag).getString("status"));
        assertEquals("queued", chatSend(BOB, thread, "third " + bobTag).getString("status"));
        HOLDS.get(tag).countDown();
        HOLDS.get(bobTag).countDown();

        assertEquals("heard: api " + tag, awaitRun(ALICE, apiRun).getJsonObject("output").getString("text"));
        assertEquals("heard: rpc " + tag, awaitTurnReply(ALICE, thread, rpcTurn));
        assertEquals("heard: api " + bobTag, awaitRun(BOB, bobsApiRun).getJsonObject("output").getString("text"));
        assertEquals("heard: second " + tag + "\nthird " + tag, replyTo(ALICE, thread, "second " + tag + "\nthird " + tag));
        assertEquals("heard: second " + bobTag + "\nthird " + bobTag, replyTo(BOB, thread, "second " + bobTag + "\nthird " + bobTag));
        assertEquals(List.of("hold " + tag, "first " + tag, "api " + tag, "rpc " + tag, "second " + tag + "\nthird " + tag),
                asked(tag).stream().filter(t -> !t.contains(bobTag)).toList(), "alice's runs in arrival order");
        assertEquals(List.of("hold " + bobTag, "first " + bobTag, "api " + bobTag, "second " + bobTag + "\nthird " + bobTag),
                asked(bobTag), "bob's, on his thread of the same id");
        String alicesItems = get(server, ALICE, "/v1/threads/" + thread + "/items").body();
        assertFalse(alicesItems.contains(bobTag), alicesItems);
        assertFalse(get(server, BOB, "/v1/threads/" + thread + "/items").body().contains("api " + tag + "\""));
    }

    /**
     * Issue 37: each door meets its thread's queue cap, set in one place. Behind a held chat turn,
     * {@code POST /v1/messages} is refused once the thread holds {@link #MAX_RUNS} unfinished runs
     * (alone or in a batch, which then stores nothing), a chat message once {@link #MAX_CHAT} wait;
     * another thread is not affected, and every run acknowledged before the refusals still runs.
     */
    @Test
    void eachDoorMeetsItsThreadsQueueCapAndWhatWasAcknowledgedStillRuns() throws Exception {
        String tag = "caps-" + System.nanoTime();
        String thread = threadOf(send(server, ALICE, "web", "caps-" + tag, "hold " + tag));
        awaitAsked("hold " + tag);
        List<String> acknowledged = new ArrayList<>();
        for (int i = 1; i < MAX_RUNS; i++) {
            acknowledged.add(postMessage(ALICE, thread, "api " + i + " " + tag));
        }
        Api.Reply full = post(ALICE, "/v1/messages", Json.createObjectBuilder().add("thread_key", thread)
                .add("text", "one too many " + tag).build().toString());
        assertEquals(429, full.status(), full.body());
        assertEquals("queue_full", full.errorCode(), full.body());
        assertEquals("the thread already holds " + MAX_RUNS + " unfinished runs; retry once some have finished",
                full.json().getJsonObject("error").getString("message"));
        Api.Reply batch = post(ALICE, "/v1/messages/batch", "{\"messages\":[{\"thread_key\":\"other-" + tag
                + "\",\"text\":\"elsewhere " + tag + "\"},{\"thread_key\":\"" + thread + "\",\"text\":\"batched " + tag + "\"}]}");
        assertEquals(429, batch.status(), batch.body());
        assertTrue(batch.json().getJsonObject("error").getString("message").startsWith("messages[1]: "), batch.body());
        String elsewhere = postMessage(ALICE, "other-" + tag, "elsewhere " + tag); // another thread's queue is its own

        for (int i = 1; i <= MAX_CHAT; i++) {
            Api.Reply waits = send(server, ALICE, "web", thread, "chat " + i + " " + tag);
            assertEquals("queued", waits.json().getString("status"), waits.body());
        }
        Api.Reply chatFull = send(server, ALICE, "web", thread, "chat too many " + tag);
        assertEquals(429, chatFull.status(), chatFull.body());
        assertEquals("Message queue full (" + MAX_CHAT + "). Wait for the current turn to complete.",
                chatFull.json().getJsonObject("error").getString("message"));
        HOLDS.get(tag).countDown();

        for (int i = 1; i < MAX_RUNS; i++) {
            assertEquals("heard: api " + i + " " + tag, awaitRun(ALICE, acknowledged.get(i - 1)).getJsonObject("output")
                    .getString("text"), "an acknowledged run is never dropped");
        }
        assertEquals("heard: elsewhere " + tag, awaitRun(ALICE, elsewhere).getJsonObject("output").getString("text"));
        String chats = "chat 1 " + tag + "\nchat 2 " + tag + "\nchat 3 " + tag;
        assertEquals("heard: " + chats, replyTo(ALICE, thread, chats));
        List<String> asked = asked(tag);
        assertFalse(asked.stream().anyMatch(t -> t.contains("too many") || t.contains("batched")), asked::toString);
    }

    // ------------------------------------------------------------------ issue 35, item 2: ids per user

    /**
     * Alice uses an id as a thread key ({@code POST /v1/messages}) and has a chat thread; Bob gets
     * the same answers for those ids as for an id nobody uses — over REST, JSON-RPC and the chat
     * gateway — and his messages to them make threads of his own. Alice's chat door to both stays
     * hers, with her history.
     */
    @Test
    void aForeignThreadIdAnswersAsAnUnknownOneAndStaysItsOwners() throws Exception {
        String keyed = java.util.UUID.randomUUID().toString();
        awaitRun(ALICE, postMessage(ALICE, keyed, "alice keyed " + keyed));
        String chat = threadOf(send(server, ALICE, "web", "ids-" + keyed, "alice chat " + keyed));
        assertEquals("heard: alice chat " + keyed, replyTo(ALICE, chat, "alice chat " + keyed));
        String unknown = java.util.UUID.randomUUID().toString();

        Map<String, String> answers = new LinkedHashMap<>();
        for (String id : List.of(keyed, chat, unknown)) {
            Api.Reply read = get(server, BOB, "/v1/chat/threads/" + id);
            Api.Reply switched = post(BOB, "/v1/chat/messages", "{\"content\":\"/thread " + id + "\"}");
            JsonObject rpcRead = rpc("chat/read", "{\"thread_id\":\"" + id + "\"}");
            answers.put(id, (read.status() + " " + read.body() + " | " + switched.status() + " " + switched.body()
                    + " | " + rpcRead).replace(id, "<id>"));
        }
        assertEquals(1, new java.util.HashSet<>(answers.values()).size(), "the same answers for all three: " + answers);
        assertTrue(answers.get(unknown).startsWith("404"), answers.get(unknown));

        for (String id : List.of(keyed, chat, unknown)) {
            Api.Reply sent = send(server, BOB, "web", id, "bob on " + id);
            assertEquals(202, sent.status(), sent.body());
            assertEquals(id, threadOf(sent), "a thread of bob's own with the id he chose");
            JsonObject overRpc = rpc("chat/send", "{\"channel\":\"telegram\",\"thread_id\":\"" + id
                    + "\",\"content\":\"bob again on " + id + "\"}").getJsonObject("result");
            assertEquals(id, overRpc.getString("thread_id"), overRpc.toString());
            assertEquals("heard: bob again on " + id, replyTo(BOB, id, "bob again on " + id));
        }

        Api.Reply alicesKeyed = send(server, ALICE, "web", keyed, "alice chats on " + keyed);
        assertEquals(202, alicesKeyed.status(), "alice's chat door to her own thread key: " + alicesKeyed.body());
        assertEquals(keyed, threadOf(alicesKeyed));
        assertEquals("heard: alice chats on " + keyed, replyTo(ALICE, keyed, "alice chats on " + keyed),
                "the chat turn is on her thread, after her API run");
        Api.Reply alicesChat = send(server, ALICE, "telegram", chat, "alice again " + keyed);
        assertEquals(chat, threadOf(alicesChat));
        assertEquals("heard: alice again " + keyed, replyTo(ALICE, chat, "alice again " + keyed));
        JsonObject read = rpcAs(ALICE, "chat/read", "{\"thread_id\":\"" + chat + "\"}");
        assertTrue(read.containsKey("result"), read.toString());
        for (String id : List.of(keyed, chat)) {
            String hers = get(server, ALICE, "/v1/threads/" + id + "/items").body();
            String his = get(server, BOB, "/v1/threads/" + id + "/items").body();
            assertFalse(hers.contains("bob "), hers);
            assertFalse(his.contains("alice "), his);
        }
    }

    // ------------------------------------------------------------------ issue 35, item 3: secrets redacted

    /**
     * The model calls tools with a sensitive argument through every door — a chat turn, a paused
     * call a person approves, a {@code POST /v1/messages} run and a {@code turn/start} — and the
     * value is then found in no database row, no file under the instance, no stream or API body
     * any user or operator can read, and no later model request; the calls still ran.
     */
    @Test
    void aToolCallsSecretArgumentsAreRedactedEverywhere() throws Exception {
        String tag = Long.toString(System.nanoTime());
        String thread = threadOf(send(server, ALICE, "web", "secrets-" + tag, "clock " + tag));
        assertTrue(replyTo(ALICE, thread, "clock " + tag).startsWith("tool said: 20"), "current_time ran");
        send(server, ALICE, "web", "secrets-" + tag, "secretly approved " + tag);
        Await.until(DEADLINE, () -> !thread(ALICE, thread).isNull("pending_approval"), "the approval waits");
        JsonObject pending = thread(ALICE, thread).getJsonObject("pending_approval");
        assertEquals("[REDACTED]", pending.getJsonObject("parameters").getString("password"), pending.toString());
        assertEquals(202, post(ALICE, "/v1/chat/threads/" + thread + "/approval",
                "{\"request_id\":\"" + pending.getString("request_id") + "\",\"action\":\"approve\"}").status());
        assertEquals("tool said: approved " + tag, replyTo(ALICE, thread, null), "the approved call ran");
        String apiThread = "secrets-api-" + tag;
        JsonObject apiRun = awaitRun(ALICE, postMessage(ALICE, apiThread, "clock api " + tag));
        assertTrue(apiRun.getJsonObject("output").getString("text").startsWith("tool said: 20"), apiRun.toString());
        String rpcTurn = startTurn(ALICE, apiThread, "clock rpc " + tag);
        assertTrue(awaitTurnReply(ALICE, apiThread, rpcTurn).startsWith("tool said: 20"));
        Api.Reply response = post(ALICE, "/v1/responses", Json.createObjectBuilder().add("model", "scripted-model")
                .add("input", "clock responses " + tag).build().toString());
        assertEquals(200, response.status(), response.body());
        assertTrue(response.body().contains("tool said: 20"), response.body());

        Map<String, String> bodies = new LinkedHashMap<>();
        for (String t : List.of(thread, apiThread)) {
            bodies.put("items " + t, get(server, ALICE, "/v1/threads/" + t + "/items").body());
            bodies.put("runs " + t, get(server, ALICE, "/v1/threads/" + t + "/runs").body());
        }
        bodies.put("chat thread", get(server, ALICE, "/v1/chat/threads/" + thread).body());
        bodies.put("chat events", ChatCalls.read(server, ALICE, "/v1/chat/threads/" + thread + "/events?last_event_id=0",
                "text/event-stream", text -> text.contains("approval/resolved") && text.contains("tool said: approved"),
                DEADLINE));
        bodies.put("rpc stream", ChatCalls.read(server, ALICE, "/rpc/stream?after_seq=0", "application/x-ndjson",
                text -> text.contains("clock rpc " + tag) && text.contains("turn/completed"), DEADLINE));
        bodies.put("responses", response.body());
        String responseId = response.json().getString("id");
        bodies.put("response", get(server, ALICE, "/v1/responses/" + responseId).body());
        bodies.put("response input items", get(server, ALICE, "/v1/responses/" + responseId + "/input_items").body());
        for (String operator : List.of("/v1/events?limit=200", "/v1/decisions?limit=200", "/v1/actions?limit=200")) {
            Api.Reply r = get(server, ALICE, operator);
            assertEquals(200, r.status(), operator + ": " + r.body());
            bodies.put(operator, r.body());
        }
        bodies.put("rpc thread/read", rpcAs(ALICE, "thread/read", "{\"thread_id\":\"" + apiThread + "\"}").toString());
        bodies.put("metrics", server.api.send(server.api.request("/metrics").GET()).body());
        bodies.forEach((where, body) -> assertFalse(body.contains(ARGUMENT), where + " shows the argument: " + body));
        assertTrue(bodies.get("items " + thread).contains("[REDACTED]"), "the calls are shown, redacted");
        assertFalse(MODEL_REQUESTS.stream().anyMatch(r -> r.contains(ARGUMENT)), "a model request repeats the argument");
        SecretSweep.assertNowhere(ARGUMENT, ChatAuthIT.database(), List.of(Instance.outputDir(server.name)));
    }

    /**
     * The response of the thread's turn whose user input is {@code input} once it ended (null: of
     * its newest turn, once that ended and a newer one is not coming).
     */
    private static String replyTo(String token, String thread, String input) throws InterruptedException {
        String[] reply = new String[1];
        Await.until(DEADLINE, () -> {
            List<JsonObject> turns = get(server, token, "/v1/chat/threads/" + thread).json().getJsonArray("turns")
                    .getValuesAs(JsonObject.class);
            for (int i = turns.size() - 1; i >= 0; i--) {
                JsonObject t = turns.get(i);
                if ((input == null ? i == turns.size() - 1 : input.equals(t.getString("user_input", null)))
                        && !t.isNull("completed_at") && !t.isNull("response")) {
                    reply[0] = t.getString("response");
                    return true;
                }
            }
            return false;
        }, "the turn " + input + " of " + thread + " ends");
        return reply[0];
    }

    private static List<String> asked(String tag) {
        return ASKED.stream().filter(t -> t.contains(tag)).toList();
    }

    private static void awaitAsked(String text) throws InterruptedException {
        Await.until(DEADLINE, () -> ASKED.contains(text), "the model is asked " + text);
    }

    /** {@code POST /v1/messages} on {@code thread}: the run's id, acknowledged. */
    private static String postMessage(String token, String thread, String text) {
        Api.Reply r = post(token, "/v1/messages", Json.createObjectBuilder().add("thread_key", thread).add("text", text)
                .build().toString());
        assertEquals(202, r.status(), r.body());
        return r.json().getString("run_id");
    }

    /** {@code chat/send} on the web channel's {@code thread}: the reply. */
    private static JsonObject chatSend(String token, String thread, String content) {
        JsonObject r = rpcAs(token, "chat/send", Json.createObjectBuilder().add("channel", "web").add("thread_id", thread)
                .add("content", content).build().toString());
        assertTrue(r.containsKey("result"), r.toString());
        return r.getJsonObject("result");
    }

    /** {@code turn/start} on {@code thread}: the turn's id. */
    private static String startTurn(String token, String thread, String text) {
        JsonObject r = rpcAs(token, "turn/start", Rpc.obj("thread_id", thread, "input", Rpc.input(text)).toString());
        assertTrue(r.containsKey("result"), r.toString());
        return r.getJsonObject("result").getString("turn_id");
    }

    private static JsonObject awaitRun(String token, String runId) throws InterruptedException {
        Await.until(DEADLINE, () -> get(server, token, "/v1/runs/" + runId).json().getString("state").equals("succeeded"),
                "run " + runId + " succeeds");
        return get(server, token, "/v1/runs/" + runId).json();
    }

    /** The reply of the RPC turn {@code turnId}'s run, once it succeeded. */
    private static String awaitTurnReply(String token, String thread, String turnId) throws InterruptedException {
        java.util.function.Supplier<JsonObject> run = () -> get(server, token, "/v1/threads/" + thread + "/runs?limit=100")
                .json().getJsonArray("runs").getValuesAs(JsonObject.class).stream()
                .filter(r -> turnId.equals(r.getString("turn_id", ""))).findFirst().orElse(null);
        Await.until(DEADLINE, () -> run.get() != null && "succeeded".equals(run.get().getString("state")),
                "turn " + turnId + "'s run succeeds");
        return run.get().getJsonObject("output").getString("text");
    }

    private static void assertNoLeak(String where, String body, String runId, String turnId, String requestId) {
        for (String secret : new String[] {SECRET, runId, turnId, requestId}) {
            assertFalse(body.contains(secret), where + " shows " + secret + ": " + body);
        }
    }

    private static JsonObject thread(String token, String thread) {
        return get(server, token, "/v1/chat/threads/" + thread).json().getJsonObject("thread");
    }

    private static Api.Reply post(String path, String body) {
        return post(BOB, path, body);
    }

    private static Api.Reply post(String token, String path, String body) {
        return server.api.send(server.api.request(path).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonObject rpc(String method, String params) {
        return rpcAs(BOB, method, params);
    }

    private static JsonObject rpcAs(String token, String method, String params) {
        Api.Reply reply = post(token, "/rpc", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
        assertEquals(200, reply.status(), reply.body());
        return reply.json();
    }

    /** What the credential-needing tool fetches: only for the token alice gave. */
    /** Alice's page: for her credential only. */
    static void api(HttpExchange exchange) throws IOException {
        boolean alice = "Bearer alice-token".equals(exchange.getRequestHeaders().getFirst("Authorization"));
        byte[] body = (alice ? exchange.getRequestURI().getPath().substring(5) + " fetched" : "denied")
                .getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(alice ? 200 : 401, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /**
     * The model of this class and ChatAuthIT: {@code hold <tag>} waits for the test, {@code clock}
     * and {@code secretly} call tools with a sensitive argument, {@code tool <x>} calls echo_tool,
     * {@code fetch <x>} http_get on {@code model}'s {@code /api/<x>}; a tool's output is quoted.
     */
    static void answer(HttpExchange exchange, JsonObject request, HttpServer model) throws IOException {
        MODEL_REQUESTS.add(request.toString());
        JsonObject last = ScriptedResponses.last(request);
        String id = "resp_" + System.nanoTime();
        JsonArrayBuilder output = Json.createArrayBuilder();
        JsonObject toolSaid = ScriptedResponses.toolSaid(last);
        if (toolSaid != null) {
            output.add(toolSaid);
        } else {
            String text = last.get("content") instanceof jakarta.json.JsonString plain ? plain.getString()
                    : last.getJsonArray("content").getJsonObject(0).getString("text");
            ASKED.add(text);
            if (text.startsWith("hold ")) {
                try {
                    HOLDS.computeIfAbsent(text.substring(5), t -> new java.util.concurrent.CountDownLatch(1))
                            .await(120, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (text.startsWith("clock ")) {
                output.add(ScriptedResponses.functionCall("call_" + id, "current_time",
                        Json.createObjectBuilder().add("zone", "UTC").add("api_key", ARGUMENT).build()));
            } else if (text.startsWith("secretly ")) {
                output.add(ScriptedResponses.functionCall("call_" + id, "echo_tool", Json.createObjectBuilder()
                        .add("text", text.substring(9)).add("password", ARGUMENT)
                        .add("headers", Json.createObjectBuilder().add("Authorization", "Bearer " + ARGUMENT)).build()));
            } else if (text.startsWith("tool ")) {
                output.add(ScriptedResponses.functionCall("call_" + id, "echo_tool",
                        Json.createObjectBuilder().add("text", text.substring(5)).build()));
            } else if (text.startsWith("fetch ")) {
                output.add(ScriptedResponses.fetch(model, "call_" + id, "/api/" + text.substring(6)));
            } else {
                output.add(ScriptedResponses.message("heard: " + text));
            }
        }
        ScriptedResponses.stream(exchange, id, output.build());
    }
}
