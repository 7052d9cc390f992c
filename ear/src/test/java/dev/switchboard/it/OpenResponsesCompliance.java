package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the Open Responses compliance suite checks (openresponses/openresponses,
 * {@code bin/compliance-test.ts} and {@code src/lib/compliance-tests.ts}: 10 HTTP tests, 7 over the
 * WebSocket), written here in Java — the suite is not on a registry — against a base URL as a
 * client configures it ({@code http://host:port/v1} or {@code http://host:port}): requests to
 * {@code <base>/responses}, the WebSocket at the same URL with {@code ws:}. Every answer is held to
 * the suite's schemas (every required key present, the enums it checks, {@code error.code} a
 * string, only the 24 event types, a {@code sequence_number} on each), and every WebSocket turn to
 * one ending: one terminal event or one error, nothing after it.
 */
final class OpenResponsesCompliance {

    /** The streaming events the suite's union accepts. */
    static final Set<String> EVENT_TYPES = Set.of("response.created", "response.queued", "response.in_progress",
            "response.completed", "response.failed", "response.incomplete", "response.output_item.added",
            "response.output_item.done", "response.content_part.added", "response.content_part.done",
            "response.output_text.delta", "response.output_text.done", "response.refusal.delta", "response.refusal.done",
            "response.function_call_arguments.delta", "response.function_call_arguments.done",
            "response.reasoning_summary_part.added", "response.reasoning_summary_part.done", "response.reasoning.delta",
            "response.reasoning.done", "response.reasoning_summary_text.delta", "response.reasoning_summary_text.done",
            "response.output_text.annotation.added", "error");
    private static final Set<String> TERMINAL = Set.of("response.completed", "response.failed", "response.incomplete");
    private static final Set<String> ITEM_TYPES = Set.of("message", "function_call", "function_call_output", "reasoning",
            "compaction");
    private static final String PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8"
            + "z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

    private final String base;
    private final Api api;

    /** @param base what a client is configured with, without a trailing slash */
    OpenResponsesCompliance(String base) {
        this.base = base;
        this.api = new Api(base);
    }

    /** The 17 tests, in the suite's order. */
    void runAll() throws Exception {
        basicResponse();
        assistantPhase();
        responseOutputPhaseSchema();
        streamingResponse();
        systemPrompt();
        toolCalling();
        imageInput();
        multiTurn();
        compactResponse();
        compactMissingModel();
        webSocketResponse();
        webSocketSequentialResponses();
        webSocketContinuation();
        webSocketReconnectStoreFalseRecovery();
        webSocketPreviousResponseNotFound();
        webSocketFailedContinuationEvictsCache();
        webSocketCompactNewChain();
    }

    // ------------------------------------------------------------------ HTTP

    void basicResponse() {
        completed(post("/responses", body(message("user", "Say hello in exactly 3 words."))));
    }

    void assistantPhase() {
        completed(post("/responses", body(
                Json.createObjectBuilder().add("type", "message").add("role", "assistant").add("phase", "commentary")
                        .add("content", "I should answer with the saved number.").build(),
                Json.createObjectBuilder().add("type", "message").add("role", "assistant").add("phase", "final_answer")
                        .add("content", "The number is four.").build(),
                message("user", "Repeat only the number."))));
    }

    /** The suite validates a sample; here, a real answer's assistant message carries a phase of the schema's. */
    void responseOutputPhaseSchema() {
        JsonObject r = completed(post("/responses", body(message("user", "phase?"))));
        JsonObject item = r.getJsonArray("output").getJsonObject(0);
        assertEquals("assistant", item.getString("role"));
        assertTrue(Set.of("commentary", "final_answer").contains(item.getString("phase")), item.toString());
    }

    void streamingResponse() throws Exception {
        HttpResponse<byte[]> r = Api.CLIENT.send(api.request("/responses").header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60)).POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        Json.createObjectBuilder(body(message("user", "Count from 1 to 5."))).add("stream", true).build()
                                .toString())).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        String text = new String(r.body(), StandardCharsets.UTF_8);
        assertFalse(text.contains("\r"), "LF only");
        List<JsonObject> events = new ArrayList<>();
        for (String frame : text.split("\n\n")) {
            String data = frame.substring(frame.lastIndexOf("data: ") + 6);
            if (!"[DONE]".equals(data)) {
                events.add(parse(data));
            }
        }
        assertFalse(events.isEmpty(), "streaming events");
        events.forEach(OpenResponsesCompliance::event);
        JsonObject last = events.get(events.size() - 1);
        assertTrue(TERMINAL.contains(last.getString("type")), last.toString());
        assertEquals("completed", last.getJsonObject("response").getString("status"));
    }

    void systemPrompt() {
        completed(post("/responses", body(message("system", "You are a pirate. Always respond in pirate speak."),
                message("user", "Say hello."))));
    }

    void toolCalling() {
        JsonObject r = response(post("/responses", Json.createObjectBuilder(body(message("user",
                "What's the weather like in San Francisco?"))).add("tools", Json.createArrayBuilder().add(Json
                .createObjectBuilder().add("type", "function").add("name", "get_weather")
                .add("description", "Get the current weather for a location")
                .add("parameters", Json.createObjectBuilder().add("type", "object").add("properties", Json.createObjectBuilder()
                        .add("location", Json.createObjectBuilder().add("type", "string")
                                .add("description", "The city and state, e.g. San Francisco, CA")))
                        .add("required", Json.createArrayBuilder().add("location"))))).build()));
        assertTrue(r.getJsonArray("output").stream().anyMatch(i -> "function_call".equals(i.asJsonObject().getString("type"))),
                r.toString());
    }

    void imageInput() {
        completed(post("/responses", body(Json.createObjectBuilder().add("type", "message").add("role", "user")
                .add("content", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "input_text")
                                .add("text", "What do you see in this image? Answer in one sentence."))
                        .add(Json.createObjectBuilder().add("type", "input_image").add("image_url", PNG)))
                .build())));
    }

    void multiTurn() {
        completed(post("/responses", body(message("user", "My name is Alice."),
                message("assistant", "Hello Alice! Nice to meet you. How can I help you today?"),
                message("user", "What is my name?"))));
    }

    void compactResponse() {
        Api.Reply r = post("/responses/compact", Json.createObjectBuilder(body(
                message("user", "We agreed to launch on Tuesday and notify support first."),
                message("assistant", "Understood. The launch is Tuesday, with support notified beforehand.")))
                .add("prompt_cache_key", "openresponses-compact-test").build());
        assertEquals(200, r.status(), r.body());
        JsonObject c = r.json();
        assertInstanceOf(JsonString.class, c.get("id"));
        assertEquals("response.compaction", c.getString("object"));
        assertInstanceOf(JsonNumber.class, c.get("created_at"));
        usage(c.get("usage"), false);
        JsonArray output = c.getJsonArray("output");
        assertFalse(output.isEmpty());
        output.forEach(i -> item(i.asJsonObject()));
        assertTrue(output.stream().anyMatch(i -> "compaction".equals(i.asJsonObject().getString("type"))));
    }

    void compactMissingModel() {
        Api.Reply r = post("/responses/compact", Json.createObjectBuilder().add("input", Json.createArrayBuilder()
                .add(message("user", "Compact this conversation."))).build());
        assertTrue(r.status() == 400 || r.status() == 422, r.status() + " " + r.body());
    }

    // ------------------------------------------------------------------ WebSocket

    void webSocketResponse() {
        try (ResponsesSocketClient socket = socket()) {
            completedTurn(turn(socket, body(message("user", "Count from 1 to 3."))));
        }
    }

    void webSocketSequentialResponses() {
        try (ResponsesSocketClient socket = socket()) {
            completedTurn(turn(socket, storeFalse("Reply with exactly: first")));
            completedTurn(turn(socket, storeFalse("Reply with exactly: second")));
        }
    }

    void webSocketContinuation() {
        try (ResponsesSocketClient socket = socket()) {
            JsonObject first = terminal(turn(socket, storeFalse("Remember the code word: cobalt. Reply with OK.")));
            completedTurn(turn(socket, Json.createObjectBuilder(storeFalse("What is the code word? Reply with only the code word."))
                    .add("previous_response_id", first.getString("id")).build()));
        }
    }

    void webSocketReconnectStoreFalseRecovery() {
        String id;
        try (ResponsesSocketClient socket = socket()) {
            id = terminal(turn(socket, storeFalse("Remember the code word: copper. Reply with OK."))).getString("id");
        }
        try (ResponsesSocketClient socket = socket()) {
            socketError(turn(socket, Json.createObjectBuilder(storeFalse("Try to continue after reconnect. Reply with exactly:"
                    + " reconnected")).add("previous_response_id", id).build()), "previous_response_not_found");
            terminal(turn(socket, Json.createObjectBuilder().add("model", "m").add("store", false).add("input",
                    Json.createArrayBuilder().add(message("user", "The previous store:false chain could not continue after"
                            + " reconnect. Start a new response and reply with exactly: recovered"))).build()));
        }
    }

    void webSocketPreviousResponseNotFound() {
        try (ResponsesSocketClient socket = socket()) {
            socketError(turn(socket, Json.createObjectBuilder(storeFalse("This should fail because the previous response is"
                    + " missing.")).add("previous_response_id", "resp_openresponses_missing_" + System.currentTimeMillis())
                    .build()), "previous_response_not_found");
        }
    }

    void webSocketFailedContinuationEvictsCache() {
        try (ResponsesSocketClient socket = socket()) {
            String r1 = terminal(turn(socket, storeFalse("Remember the code word: ember. Reply with OK."))).getString("id");
            List<JsonObject> failed = turn(socket, Json.createObjectBuilder().add("model", "m").add("store", false)
                    .add("previous_response_id", r1).add("input", Json.createArrayBuilder().add(Json.createObjectBuilder()
                            .add("type", "function_call_output").add("call_id", "call_openresponses_missing")
                            .add("output", "No matching tool call exists in the previous response."))).build());
            JsonObject end = failed.get(failed.size() - 1);
            assertEquals("error", end.getString("type"), "the continuation answering no call fails: " + failed);
            socketError(turn(socket, Json.createObjectBuilder(storeFalse("Try to continue after the failed turn. Reply with"
                    + " exactly: stale")).add("previous_response_id", r1).build()), "previous_response_not_found");
        }
    }

    void webSocketCompactNewChain() {
        Api.Reply compacted = post("/responses/compact", Json.createObjectBuilder().add("model", "m").add("input",
                Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "message").add("role", "user").add("content", Json
                                .createArrayBuilder().add(Json.createObjectBuilder().add("type", "input_text")
                                        .add("text", "Remember the compaction code word: slate."))))
                        .add(Json.createObjectBuilder().add("type", "message").add("role", "assistant").add("content", Json
                                .createArrayBuilder().add(Json.createObjectBuilder().add("type", "output_text").add("text", "OK."))))
                        .add(Json.createObjectBuilder().add("type", "message").add("role", "user").add("content", Json
                                .createArrayBuilder().add(Json.createObjectBuilder().add("type", "input_text")
                                        .add("text", "Compress this conversation for later continuation.")))))
                .build());
        assertEquals(200, compacted.status(), compacted.body());
        JsonArrayBuilder input = Json.createArrayBuilder();
        compacted.json().getJsonArray("output").forEach(input::add);
        input.add(message("user", "Continue from here. Reply with exactly: compacted"));
        try (ResponsesSocketClient socket = socket()) {
            completedTurn(turn(socket, Json.createObjectBuilder().add("model", "m").add("store", false).add("input", input)
                    .add("tools", JsonValue.EMPTY_JSON_ARRAY).build()));
        }
    }

    // ------------------------------------------------------------------ the suite's checks

    private ResponsesSocketClient socket() {
        return ResponsesSocketClient.connect(URI.create(base.replaceFirst("^http", "ws") + "/responses"));
    }

    /**
     * One turn: its messages up to its ending. A turn starts with {@code response.created} or is one
     * error: anything sent after an earlier turn's ending would show here first.
     */
    private static List<JsonObject> turn(ResponsesSocketClient socket, JsonObject body) {
        socket.create(body);
        List<JsonObject> events = socket.untilEnd();
        assertTrue("response.created".equals(events.get(0).getString("type")) || events.size() == 1,
                "a turn starts with response.created or is one error: " + events);
        for (JsonObject e : events) {
            if (e.containsKey("status") && "error".equals(e.getString("type"))) {
                socketErrorShape(e);
            } else {
                event(e);
            }
        }
        return events;
    }

    private static JsonObject terminal(List<JsonObject> turn) {
        JsonObject end = turn.get(turn.size() - 1);
        assertTrue(TERMINAL.contains(end.getString("type")), "a terminal response event: " + turn);
        return end.getJsonObject("response");
    }

    private static void completedTurn(List<JsonObject> turn) {
        assertEquals("completed", terminal(turn).getString("status"), turn.toString());
    }

    private static void socketError(List<JsonObject> turn, String code) {
        assertEquals(1, turn.size(), "one error, nothing before it: " + turn);
        assertEquals(code, turn.get(0).getJsonObject("error").getString("code"));
    }

    private static void socketErrorShape(JsonObject e) {
        assertInstanceOf(JsonNumber.class, e.get("status"), e.toString());
        assertInstanceOf(JsonString.class, e.getJsonObject("error").get("code"), e.toString());
        assertInstanceOf(JsonString.class, e.getJsonObject("error").get("message"), e.toString());
    }

    private static JsonObject body(JsonObject... input) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        for (JsonObject i : input) {
            items.add(i);
        }
        return Json.createObjectBuilder().add("model", "m").add("input", items).build();
    }

    private static JsonObject storeFalse(String input) {
        return Json.createObjectBuilder().add("model", "m").add("store", false).add("input", input).build();
    }

    private static JsonObject message(String role, String text) {
        return Json.createObjectBuilder().add("type", "message").add("role", role).add("content", text).build();
    }

    private Api.Reply post(String path, JsonObject body) {
        return api.postJson(path, body.toString());
    }

    private static JsonObject response(Api.Reply r) {
        assertEquals(200, r.status(), r.body());
        JsonObject response = r.json();
        resource(response);
        assertFalse(response.getJsonArray("output").isEmpty(), "output");
        return response;
    }

    private static JsonObject completed(Api.Reply r) {
        JsonObject response = response(r);
        assertEquals("completed", response.getString("status"), r.body());
        return response;
    }

    /** The suite's ResponseResource: every key present, with the types and enums it checks. */
    static void resource(JsonObject r) {
        assertNotNull(r, "a response");
        assertTrue(r.keySet().containsAll(ResponsesIT.REQUIRED), "every required key: " + r.keySet());
        assertInstanceOf(JsonString.class, r.get("id"));
        assertEquals("response", r.getString("object"));
        assertTrue(r.getJsonNumber("created_at").isIntegral());
        assertTrue(r.get("completed_at") == JsonValue.NULL || r.getJsonNumber("completed_at").isIntegral());
        assertInstanceOf(JsonString.class, r.get("status"));
        assertInstanceOf(JsonString.class, r.get("model"));
        if (r.get("error") != JsonValue.NULL) {
            assertInstanceOf(JsonString.class, r.getJsonObject("error").get("code"), "error.code is a string: " + r);
            assertInstanceOf(JsonString.class, r.getJsonObject("error").get("message"));
        }
        for (JsonValue tool : r.getJsonArray("tools")) {
            assertTrue(tool.asJsonObject().keySet().containsAll(Set.of("name", "description", "parameters", "strict")),
                    tool.toString());
        }
        assertTrue(Set.of("auto", "disabled").contains(r.getString("truncation")));
        assertInstanceOf(JsonNumber.class, r.get("temperature"));
        assertInstanceOf(JsonNumber.class, r.get("top_p"));
        assertInstanceOf(JsonNumber.class, r.get("top_logprobs"));
        assertInstanceOf(JsonString.class, r.get("service_tier"));
        r.getJsonArray("output").forEach(i -> item(i.asJsonObject()));
        usage(r.get("usage"), true);
    }

    private static void usage(JsonValue usage, boolean nullable) {
        if (nullable && usage == JsonValue.NULL) {
            return;
        }
        JsonObject u = usage.asJsonObject();
        for (String key : List.of("input_tokens", "output_tokens", "total_tokens")) {
            assertTrue(u.getJsonNumber(key).isIntegral(), u.toString());
        }
        assertTrue(u.getJsonObject("input_tokens_details").getJsonNumber("cached_tokens").isIntegral());
        assertTrue(u.getJsonObject("output_tokens_details").getJsonNumber("reasoning_tokens").isIntegral());
    }

    private static void item(JsonObject item) {
        String type = item.getString("type");
        assertTrue(ITEM_TYPES.contains(type), "an item type of the schema: " + item);
        assertInstanceOf(JsonString.class, item.get("id"), item.toString());
        switch (type) {
            case "message" -> {
                assertTrue(Set.of("in_progress", "completed", "incomplete").contains(item.getString("status")), item.toString());
                assertTrue(Set.of("user", "assistant", "system", "developer").contains(item.getString("role")));
                for (JsonValue part : item.getJsonArray("content")) {
                    if ("output_text".equals(part.asJsonObject().getString("type"))) {
                        assertInstanceOf(JsonArray.class, part.asJsonObject().get("annotations"));
                    }
                }
            }
            case "function_call" -> {
                assertInstanceOf(JsonString.class, item.get("call_id"));
                assertInstanceOf(JsonString.class, item.get("name"));
                assertInstanceOf(JsonString.class, item.get("arguments"));
                assertTrue(Set.of("in_progress", "completed", "incomplete").contains(item.getString("status")));
            }
            case "compaction" -> assertInstanceOf(JsonString.class, item.get("encrypted_content"));
            default -> {
                // function_call_output and reasoning: the id is what the schema needs of them here
            }
        }
    }

    /** One streaming event of the suite's union. */
    static void event(JsonObject e) {
        assertTrue(EVENT_TYPES.contains(e.getString("type")), "an event type of the schema: " + e);
        assertTrue(e.getJsonNumber("sequence_number").isIntegral(), e.toString());
        if (e.containsKey("response")) {
            resource(e.getJsonObject("response"));
        }
        if ("error".equals(e.getString("type"))) {
            JsonObject error = e.getJsonObject("error");
            assertInstanceOf(JsonString.class, error.get("type"));
            assertInstanceOf(JsonString.class, error.get("message"));
            assertTrue(error.containsKey("code") && error.containsKey("param"), e.toString());
        }
        if (e.containsKey("item") && e.get("item") != JsonValue.NULL) {
            item(e.getJsonObject("item"));
        }
    }

    private static JsonObject parse(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
