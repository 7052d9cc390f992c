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
 */
class ChatIsolationIT {

    private static final int PORT = 9216;
    private static final String ALICE = "alice-isolation-token-012345";
    private static final String BOB = "bob-isolation-token-0123456";
    private static final String SECRET = "eyes-only-for-alice";
    private static HttpServer model;
    private static Instance server;

    @BeforeAll
    static void start() throws IOException {
        model = ScriptedResponses.start(ChatIsolationIT::answer);
        model.createContext("/api/", ChatIsolationIT::api);
        String db = TestDatabase.recreate("switchboard_it_chat_isolation");
        Map<String, String> env = Instance.defaults(db, PORT, "it-chat-isolation");
        env.put("SWITCHBOARD_AUTH_TOKENS", ALICE + "=alice," + BOB + "=bob");
        ScriptedResponses.engine(env, model);
        env.put("SWITCHBOARD_TOOLS", "echo_tool,http_get");
        env.put("SWITCHBOARD_TOOLS_HTTP_GET_ALLOW", "http://127.0.0.1:" + model.getAddress().getPort() + "/api/");
        env.put("SWITCHBOARD_CHAT_TOOL_APPROVALS", "echo_tool=always");
        env.put("SWITCHBOARD_CHAT_TOOL_CREDENTIALS", "http_get=github");
        server = Instance.start("it-chat-isolation", PORT, env);
    }

    @AfterAll
    static void stop() {
        ScriptedResponses.stop(server, model);
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

        try (RpcSocket all = RpcSocket.connect(PORT, "Authorization", "Bearer " + BOB);
                RpcSocket named = RpcSocket.connect(PORT, "Authorization", "Bearer " + BOB)) {
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
                rest.put("POST message " + t, post("/v1/chat/messages",
                        "{\"channel\":\"web\",\"thread_id\":\"" + t + "\",\"content\":\"yes\"}"));
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
                if (e.getKey().startsWith("POST message")) {
                    assertEquals(404, r.status(), e.getKey() + ": " + r.body());
                    assertEquals("Invalid or unauthorized thread ID.", r.json().getJsonObject("error").getString("message"));
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
        Api.Reply reply = post("/rpc", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
        assertEquals(200, reply.status(), reply.body());
        return reply.json();
    }

    /** What the credential-needing tool fetches: only for the token alice gave. */
    private static void api(HttpExchange exchange) throws IOException {
        boolean alice = "Bearer alice-token".equals(exchange.getRequestHeaders().getFirst("Authorization"));
        byte[] body = (alice ? exchange.getRequestURI().getPath().substring(5) + " fetched" : "denied")
                .getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(alice ? 200 : 401, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The model: {@code tool <x>} calls echo_tool, {@code fetch <x>} http_get; a tool's output is quoted. */
    private static void answer(HttpExchange exchange) throws IOException {
        JsonObject request = ScriptedResponses.read(exchange);
        JsonObject last = ScriptedResponses.last(request);
        String id = "resp_" + System.nanoTime();
        JsonArrayBuilder output = Json.createArrayBuilder();
        JsonObject toolSaid = ScriptedResponses.toolSaid(last);
        if (toolSaid != null) {
            output.add(toolSaid);
        } else {
            String text = last.getJsonArray("content").getJsonObject(0).getString("text");
            if (text.startsWith("tool ")) {
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
