package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code POST /responses} against an instance on the echo engine, over real HTTP (spec
 * ../shared/specs/open-responses.md): every required key, text and instructions, continuation by
 * {@code previous_response_id}, a function-calling round trip, {@code store: false}, image input,
 * errors in the specification's body, and the SSE stream checked byte by byte.
 *
 * <p>Its instance is also {@link InstanceDrivesInstanceIT}'s, where a thread on the model server engine
 * has this instance for its model server. Both classes hold {@link #LOCK} to write, so they never run at once: this class's twenty
 * parallel streams share a pool of 15 connections, and it checks every response stored against the
 * runs; the other class's requests must not run beside them. Not the shared instance: that one runs
 * the scripted engine, which gives a client's model request ({@code POST /v1/responses}) no function
 * call, deltas or delay.
 */
@Order(10) // among the longest classes: started early in the parallel run (ear/pom.xml)
@ResourceLock(value = ResponsesIT.LOCK, mode = ResourceAccessMode.READ_WRITE)
class ResponsesIT {

    /** The JUnit resource of this class's instance: every class on it takes it to write. */
    static final String LOCK = "it-responses-instance";

    /** The keys every response carries, in the specification's order (§4.1). */
    static final List<String> REQUIRED = List.of("id", "object", "created_at", "completed_at", "status",
            "incomplete_details", "model", "previous_response_id", "instructions", "output", "error", "tools",
            "tool_choice", "truncation", "parallel_tool_calls", "text", "top_p", "presence_penalty", "frequency_penalty",
            "top_logprobs", "temperature", "reasoning", "usage", "max_output_tokens", "max_tool_calls", "store",
            "background", "service_tier", "metadata", "safety_identifier", "prompt_cache_key");

    static final int PORT = 9208;
    /** Long enough for every WebSocket test's exchanges, short enough to wait for. */
    private static final long SOCKET_LIFETIME_MS = 12_000;
    private static final InstanceForClasses<Instance> SHARED = new InstanceForClasses<>(
            Set.of(ResponsesIT.class, InstanceDrivesInstanceIT.class), ResponsesIT::startEcho, Instance::stop);
    private static Api api;

    /** The echo instance of this class and InstanceDrivesInstanceIT, started at first use on a fresh database. */
    static Instance instance() {
        return SHARED.get();
    }

    /** A class on the instance is done with it: stopped once every one is. */
    static void finished(Class<?> user) {
        SHARED.finished(user);
    }

    @BeforeAll
    static void start() {
        api = instance().api;
    }

    private static Instance startEcho() {
        String db = TestDatabase.recreate("switchboard_it_responses");
        Map<String, String> env = Instance.defaults(db, PORT, "it-responses");
        env.put("SWITCHBOARD_ENGINE", "echo");
        env.put("SWITCHBOARD_ENGINE_ECHO_DELAY_MS", "300"); // longer than the delta interval: deltas stream
        // Fewer connections than parallel streams: a stream must not hold one while it waits. Not
        // far fewer: with 10, twenty runs' own transactions on a loaded machine (three test classes
        // on two cores) waited past the pool's 10 s timeout.
        env.put("DB_POOL_MAX", "15");
        env.put("SWITCHBOARD_RESPONSES_WEBSOCKET_LIFETIME_MS", Long.toString(SOCKET_LIFETIME_MS));
        // InstanceDrivesInstanceIT's thread chooses the model server engine, and the model server is this instance.
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL", "http://127.0.0.1:" + PORT + "/v1");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_MODEL", InstanceDrivesInstanceIT.MODEL);
        env.put("SWITCHBOARD_TOOLS", "echo_tool");
        return Instance.start("it-responses", PORT, env);
    }

    @AfterAll
    static void stop() {
        finished(ResponsesIT.class);
    }

    private static Api.Reply post(String path, JsonObject body) {
        return api.postJson(path, body.toString());
    }

    private static JsonObject create(JsonObject body) {
        Api.Reply r = post("/v1/responses", body);
        assertEquals(200, r.status(), r.body());
        JsonObject response = r.json();
        assertEquals(REQUIRED, List.copyOf(response.keySet()), "every required key, in order");
        return response;
    }

    private static String text(JsonObject response) {
        JsonObject message = response.getJsonArray("output").getJsonObject(0);
        assertEquals("message", message.getString("type"), response.toString());
        return message.getJsonArray("content").getJsonObject(0).getString("text");
    }

    private static void assertError(Api.Reply r, int status, String type, String code, String param) {
        assertEquals(status, r.status(), r.body());
        JsonObject error = r.json().getJsonObject("error");
        assertEquals(type, error.getString("type"), r.body());
        assertEquals(code, error.getString("code"), r.body());
        assertEquals(param, error.getString("param"), r.body());
        assertFalse(error.getString("message").isEmpty());
    }

    @Test
    void aTextResponseCarriesEveryKeyAndEchoesTheRequest() {
        JsonObject r = create(Json.createObjectBuilder().add("model", "any-model-name").add("input", "hello there")
                .add("instructions", "Be brief.").add("metadata", Json.createObjectBuilder().add("case", "text"))
                .add("temperature", 0.5).build());
        assertTrue(r.getString("id").startsWith("resp_"));
        assertEquals("response", r.getString("object"));
        assertEquals("completed", r.getString("status"));
        assertTrue(r.getJsonNumber("completed_at").longValue() >= r.getJsonNumber("created_at").longValue());
        assertEquals("any-model-name", r.getString("model"));
        assertEquals("Be brief.", r.getString("instructions"));
        assertEquals(JsonValue.NULL, r.get("previous_response_id"));
        assertEquals(JsonValue.NULL, r.get("error"));
        assertEquals(JsonValue.NULL, r.get("incomplete_details"));
        assertEquals("auto", r.getString("tool_choice"));
        assertEquals(0, r.getJsonArray("tools").size());
        assertEquals(0.5, r.getJsonNumber("temperature").doubleValue());
        assertEquals("text", r.getJsonObject("text").getJsonObject("format").getString("type"));
        assertEquals("text", r.getJsonObject("metadata").getString("case"));
        assertTrue(r.getBoolean("store"));
        JsonObject message = r.getJsonArray("output").getJsonObject(0);
        assertEquals(List.of("type", "id", "status", "role", "phase", "content"), List.copyOf(message.keySet()));
        assertEquals("completed", message.getString("status"));
        assertEquals("assistant", message.getString("role"));
        JsonObject part = message.getJsonArray("content").getJsonObject(0);
        assertEquals("output_text", part.getString("type"));
        assertEquals("hello there", part.getString("text"));
        assertEquals(0, part.getJsonArray("annotations").size());
        assertEquals(0, part.getJsonArray("logprobs").size());
        JsonObject usage = r.getJsonObject("usage");
        assertEquals(2, usage.getInt("input_tokens"));
        assertEquals(2, usage.getInt("output_tokens"));
        assertEquals(4, usage.getInt("total_tokens"));
        assertEquals(0, usage.getJsonObject("input_tokens_details").getInt("cached_tokens"));
        assertEquals(0, usage.getJsonObject("output_tokens_details").getInt("reasoning_tokens"));

        Api.Reply read = api.get("/v1/responses/" + r.getString("id"));
        assertEquals(200, read.status());
        assertEquals(r, read.json(), "a stored response reads back the same");
    }

    @Test
    void theAliasWithoutV1AndItemInputWithImagesAreServed() {
        Api.Reply r = post("/responses", Json.createObjectBuilder().add("input", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("role", "user").add("content", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "input_text").add("text", "what is in it?"))
                        .add(Json.createObjectBuilder().add("type", "input_image")
                                .add("image_url", "data:image/png;base64,iVBORw0KGgo=").add("detail", "low")))))
                .build());
        assertEquals(200, r.status(), r.body());
        assertEquals("what is in it?", text(r.json()));
        assertEquals("echo", r.json().getString("model"), "no model named: the engine's");
    }

    @Test
    void aContinuationGetsThePreviousInputAndOutputBeforeItsOwn() {
        JsonObject first = create(Json.createObjectBuilder().add("input", "one two").build());
        JsonObject second = create(Json.createObjectBuilder().add("input", "three")
                .add("previous_response_id", first.getString("id")).build());
        assertEquals(first.getString("id"), second.getString("previous_response_id"));
        assertEquals("three", text(second));
        assertEquals(5, second.getJsonObject("usage").getInt("input_tokens"),
                "the engine was given 'one two', its answer 'one two', then 'three'");
        JsonObject fork = create(Json.createObjectBuilder().add("input", "four")
                .add("previous_response_id", first.getString("id")).build());
        assertEquals(5, fork.getJsonObject("usage").getInt("input_tokens"), "a second continuation forks the chain");
    }

    @Test
    void aFunctionCallingRoundTrip() {
        JsonObject tools = Json.createObjectBuilder().add("tools", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "function").add("name", "get_weather")
                        .add("parameters", Json.createObjectBuilder().add("type", "object")
                                .add("properties", Json.createObjectBuilder()
                                        .add("location", Json.createObjectBuilder().add("type", "string"))
                                        .add("days", Json.createObjectBuilder().add("type", "integer")))
                                .add("required", Json.createArrayBuilder().add("location").add("days"))))
                .add(Json.createObjectBuilder().add("type", "function").add("name", "get_time")
                        .add("description", "The time."))).build();
        JsonObject asked = create(Json.createObjectBuilder(tools).add("input", "weather in Paris?").build());
        JsonObject tool = asked.getJsonArray("tools").getJsonObject(0);
        assertEquals(List.of("type", "name", "description", "parameters", "strict"), List.copyOf(tool.keySet()));
        assertEquals(JsonValue.NULL, tool.get("description"));
        assertEquals(JsonValue.NULL, tool.get("strict"));
        JsonObject call = asked.getJsonArray("output").getJsonObject(0);
        assertEquals("function_call", call.getString("type"));
        assertEquals("completed", call.getString("status"));
        assertTrue(call.getString("id").startsWith("fc_"));
        assertEquals("get_weather", call.getString("name"));
        JsonObject arguments = Json.createReader(new StringReader(call.getString("arguments"))).readObject();
        assertEquals("weather in Paris?", arguments.getString("location"));
        assertEquals(0, arguments.getInt("days"));

        JsonObject answered = create(Json.createObjectBuilder(tools).add("previous_response_id", asked.getString("id"))
                .add("input", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "function_call_output")
                        .add("call_id", call.getString("call_id")).add("output", "18°C and sunny"))).build());
        assertTrue(text(answered).contains("18°C and sunny"), text(answered));

        JsonObject allowed = create(Json.createObjectBuilder(tools).add("input", "what time?")
                .add("tool_choice", Json.createObjectBuilder().add("type", "allowed_tools").add("tools",
                        Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "function").add("name", "get_time"))))
                .build());
        assertEquals("get_time", allowed.getJsonArray("output").getJsonObject(0).getString("name"),
                "allowed_tools is enforced: get_weather, first declared, is not called");
        JsonObject none = create(Json.createObjectBuilder(tools).add("input", "just talk").add("tool_choice", "none").build());
        assertEquals("just talk", text(none));
    }

    @Test
    void aResponseNotStoredIsForgottenOnceAnswered() {
        JsonObject r = create(Json.createObjectBuilder().add("input", "ephemeral").add("store", false).build());
        assertEquals("ephemeral", text(r));
        assertEquals(false, r.getBoolean("store"));
        assertError(api.get("/v1/responses/" + r.getString("id")), 404, "not_found", "response_not_found", "");
        assertError(post("/v1/responses", Json.createObjectBuilder().add("input", "more")
                .add("previous_response_id", r.getString("id")).build()), 404, "not_found", "previous_response_not_found",
                "previous_response_id");
    }

    /** The Open Responses compliance suite's 17 checks (OpenResponsesCompliance), at both base URLs a client may be given. */
    @ParameterizedTest(name = "base URL ending in \"{0}\"")
    @ValueSource(strings = {"/v1", ""})
    void theComplianceSuitesChecksPassAtEitherBaseUrl(String ending) throws Exception {
        new OpenResponsesCompliance("http://127.0.0.1:" + PORT + ending).runAll();
    }

    /**
     * Every route of the resource answers under {@code /responses} as under {@code /v1/responses}:
     * create, read, follow, input items, cancel (the WebSocket: the compliance checks above).
     * Input items are paged in either order, with their errors.
     */
    @Test
    void everyRouteAnswersUnderEitherBaseAndInputItemsArePaged() throws Exception {
        Api.Reply made = post("/responses", Json.createObjectBuilder().add("input", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("role", "user").add("content", "one"))
                .add(Json.createObjectBuilder().add("role", "user").add("content", "two"))
                .add(Json.createObjectBuilder().add("role", "user").add("content", "three"))).build());
        assertEquals(200, made.status(), made.body());
        String id = made.json().getString("id");
        for (String base : List.of("/v1/responses/", "/responses/")) {
            assertEquals(made.json(), api.get(base + id).json(), base);
            Api.Reply cancelled = api.postJson(base + id + "/cancel", "");
            assertEquals(200, cancelled.status(), cancelled.body());
            assertEquals("completed", cancelled.json().getString("status"), "an ended response stays as it ended");
            List<JsonObject> replayed = events(Api.CLIENT.send(api.request(base + id + "?stream=true")
                    .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofByteArray()));
            assertEquals(made.json(), replayed.get(replayed.size() - 1).getJsonObject("response"), base);

            JsonObject all = api.get(base + id + "/input_items").json();
            assertEquals("list", all.getString("object"));
            List<String> texts = all.getJsonArray("data").stream().map(i -> i.asJsonObject().getJsonArray("content")
                    .getJsonObject(0).getString("text")).toList();
            assertEquals(List.of("three", "two", "one"), texts, "newest first");
            assertEquals(false, all.getBoolean("has_more"));
            JsonObject page = api.get(base + id + "/input_items?order=asc&limit=2").json();
            assertEquals(2, page.getJsonArray("data").size());
            assertEquals(true, page.getBoolean("has_more"));
            assertEquals(all.getString("last_id"), page.getString("first_id"));
            JsonObject rest = api.get(base + id + "/input_items?order=asc&after=" + page.getString("last_id")).json();
            assertEquals(List.of(all.getString("first_id")), rest.getJsonArray("data").stream()
                    .map(i -> i.asJsonObject().getString("id")).toList());
            assertEquals(false, rest.getBoolean("has_more"));
            assertEquals(all, api.get(base + id + "/input_items").json(), "the same ids on every read");
            assertError(api.get(base + id + "/input_items?limit=0"), 400, "invalid_request", "invalid_value", "limit");
            assertError(api.get(base + id + "/input_items?order=up"), 400, "invalid_request", "invalid_value", "order");
            assertError(api.get(base + id + "/input_items?after=item_none"), 400, "invalid_request", "invalid_value",
                    "after");
            assertError(api.get(base + "resp_none/input_items"), 404, "not_found", "response_not_found", "");
        }
    }

    @Test
    void badRequestsGetTheSpecificationsErrorBody() {
        assertError(api.postJson("/v1/responses", "{\"input\":"), 400, "invalid_request", "invalid_json", "");
        assertError(post("/v1/responses", Json.createObjectBuilder().add("input", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "function_call_output").add("call_id", "call_none")
                        .add("output", "an answer to no call"))).build()),
                400, "invalid_request", "invalid_value", "input[0].call_id");
        assertError(api.postJson("/v1/responses", "[1]"), 400, "invalid_request", "invalid_json", "");
        assertError(post("/v1/responses", Json.createObjectBuilder().add("input", 5).build()), 400, "invalid_request",
                "invalid_value", "input");
        assertError(post("/v1/responses", Json.createObjectBuilder().add("input", "x").add("temperature", "hot").build()),
                400, "invalid_request", "invalid_value", "temperature");
        assertError(post("/v1/responses", Json.createObjectBuilder().add("input", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("role", "robot").add("content", "x"))).build()),
                400, "invalid_request", "invalid_value", "input[0].role");
        assertError(post("/v1/responses", Json.createObjectBuilder().add("input", "x")
                .add("tool_choice", Json.createObjectBuilder().add("type", "web_search")).build()),
                400, "invalid_request", "invalid_value", "tool_choice.type");
        assertError(post("/v1/responses", Json.createObjectBuilder().add("input", "x")
                .add("previous_response_id", "resp_nope").build()), 404, "not_found", "previous_response_not_found",
                "previous_response_id");
        Api.Reply streamed = post("/v1/responses", Json.createObjectBuilder().add("input", 5).add("stream", true).build());
        assertError(streamed, 400, "invalid_request", "invalid_value", "input");
        assertError(api.get("/v1/responses/resp_unknown"), 404, "not_found", "response_not_found", "");
    }

    /** The raw bytes of a streamed response. */
    private static HttpResponse<byte[]> stream(JsonObject body) throws IOException, InterruptedException {
        return Api.CLIENT.send(api.request("/v1/responses").header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder(body).add("stream", true).build().toString()))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** The frames of an SSE body, checked against the framing rules; the last is [DONE]. */
    private static List<JsonObject> events(HttpResponse<byte[]> response) {
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        String body = new String(response.body(), StandardCharsets.UTF_8);
        assertFalse(body.contains("\r"), "LF line endings only");
        assertTrue(body.endsWith("data: [DONE]\n\n"), body);
        List<JsonObject> events = new ArrayList<>();
        for (String frame : body.substring(0, body.length() - "data: [DONE]\n\n".length()).split("\n\n")) {
            if (frame.startsWith(":")) {
                continue; // keep-alive comment
            }
            String[] lines = frame.split("\n");
            assertEquals(2, lines.length, "one event line and one data line: " + frame);
            assertTrue(lines[0].startsWith("event: ") && lines[1].startsWith("data: "), frame);
            try (JsonReader reader = Json.createReader(new StringReader(lines[1].substring(6)))) {
                JsonObject event = reader.readObject();
                assertEquals(lines[0].substring(7), event.getString("type"), "event: equals the JSON type");
                assertEquals(events.size(), event.getInt("sequence_number"), "0-based, one by one");
                events.add(event);
            }
        }
        return events;
    }

    @Test
    void aStreamedTextResponseIsFramedAndOrderedAsSpecified() throws Exception {
        List<JsonObject> events = events(stream(Json.createObjectBuilder().add("input", "stream these words please").build()));
        List<String> types = events.stream().map(e -> e.getString("type")).toList();
        assertEquals("response.created", types.get(0));
        assertEquals("response.in_progress", types.get(1));
        assertEquals("response.output_item.added", types.get(2));
        assertEquals("response.content_part.added", types.get(3));
        int done = types.indexOf("response.output_text.done");
        assertTrue(done > 4, types.toString());
        assertTrue(types.subList(4, done).stream().allMatch("response.output_text.delta"::equals), types.toString());
        assertEquals(List.of("response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed"), types.subList(done, types.size()));
        String deltas = events.stream().filter(e -> "response.output_text.delta".equals(e.getString("type")))
                .map(e -> e.getString("delta")).reduce("", String::concat);
        assertEquals("stream these words please", deltas);
        JsonObject completed = events.get(events.size() - 1).getJsonObject("response");
        assertEquals(REQUIRED, List.copyOf(completed.keySet()));
        assertEquals("completed", completed.getString("status"));
        assertEquals(REQUIRED, List.copyOf(events.get(0).getJsonObject("response").keySet()));
        String itemId = events.get(2).getJsonObject("item").getString("id");
        assertEquals(itemId, completed.getJsonArray("output").getJsonObject(0).getString("id"));
        assertTrue(events.stream().filter(e -> e.containsKey("item_id")).allMatch(e -> itemId.equals(e.getString("item_id"))));
    }

    @Test
    void aStoredResponsesEventsReplayWholeOrAfterASequenceNumber() throws Exception {
        JsonObject done = create(Json.createObjectBuilder().add("input", "replay me later").build());
        String path = "/v1/responses/" + done.getString("id") + "?stream=true";
        List<JsonObject> all = events(Api.CLIENT.send(api.request(path).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray()));
        assertEquals("response.created", all.get(0).getString("type"));
        assertEquals("in_progress", all.get(0).getJsonObject("response").getString("status"));
        JsonObject last = all.get(all.size() - 1);
        assertEquals("response.completed", last.getString("type"));
        assertEquals(done, last.getJsonObject("response"), "the replay ends with the stored response");
        assertEquals("replay me later", all.stream().filter(e -> "response.output_text.delta".equals(e.getString("type")))
                .map(e -> e.getString("delta")).reduce("", String::concat));

        HttpResponse<byte[]> after = Api.CLIENT.send(api.request(path + "&starting_after=3").timeout(Duration.ofSeconds(60))
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        String body = new String(after.body(), StandardCharsets.UTF_8);
        assertTrue(body.startsWith("event: " + all.get(4).getString("type") + "\ndata: {\"type\":\""
                + all.get(4).getString("type") + "\",\"sequence_number\":4,"), body);
        assertTrue(body.endsWith("data: [DONE]\n\n"));
        assertError(api.get(path + "&starting_after=x"), 400, "invalid_request", "invalid_value", "starting_after");
        assertError(api.get("/v1/responses/resp_none?stream=true"), 404, "not_found", "response_not_found", "");
    }

    @Test
    void aStreamedFunctionCallAndTwentyParallelStreams() throws Exception {
        JsonObject tools = Json.createObjectBuilder().add("tools", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "function").add("name", "lookup")
                        .add("parameters", Json.createObjectBuilder().add("type", "object")
                                .add("properties", Json.createObjectBuilder().add("q", Json.createObjectBuilder().add("type", "string")))
                                .add("required", Json.createArrayBuilder().add("q"))))).build();
        List<JsonObject> events = events(stream(Json.createObjectBuilder(tools).add("input", "find it").build()));
        List<String> types = events.stream().map(e -> e.getString("type")).toList();
        assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                "response.function_call_arguments.delta", "response.function_call_arguments.done",
                "response.output_item.done", "response.completed"), types);
        assertEquals("{\"q\":\"find it\"}", events.get(4).getString("arguments"));

        List<CompletableFuture<HttpResponse<byte[]>>> parallel = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            parallel.add(Api.CLIENT.sendAsync(api.request("/v1/responses").header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder()
                            .add("input", "parallel " + i).add("stream", true).build().toString())).build(),
                    HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (int i = 0; i < 20; i++) {
            List<JsonObject> streamed = events(parallel.get(i).get());
            JsonObject last = streamed.get(streamed.size() - 1);
            assertEquals("response.completed", last.getString("type"));
            assertEquals("parallel " + i, last.getJsonObject("response").getJsonArray("output").getJsonObject(0)
                    .getJsonArray("content").getJsonObject(0).getString("text"));
        }
    }


    /**
     * The official {@code openai} npm package (pinned in ear/src/test/node/openai-client) run with
     * the machine's Node.js against this instance at both base URLs a client may be given: create,
     * continue, {@code inputItems.list} paged, stream, a function-calling round trip, an error, a
     * compaction, and the WebSocket transport ({@code ResponsesWS}).
     */
    @Test
    void theOfficialOpenAiClientDrivesItAtEitherBaseUrl() throws Exception {
        NodeClient client = NodeClient.install("openai-client", "responses-it");
        for (String base : List.of("http://127.0.0.1:" + PORT + "/v1", "http://127.0.0.1:" + PORT)) {
            JsonObject seen = client.run("client.mjs", base);
            String output = seen.toString();
            assertEquals("and again", seen.getString("continued"), base);
            assertEquals(3, seen.getInt("input_items"), base);
            assertEquals("get_weather", seen.getString("tool_call"));
            assertTrue(seen.getString("tool_answer").contains("18C and sunny"));
            assertEquals("previous_response_not_found", seen.getString("not_found"));
            assertTrue(seen.getJsonArray("stream_types").toString().contains("response.output_text.delta"), output);
            assertEquals("after compaction", seen.getString("compacted"));
            assertEquals("response.compaction", seen.getString("compacted_chain"), "compact() without input");
            assertEquals(404, seen.getInt("deleted"), "delete(), then retrieve() finds nothing");
            assertEquals("over the socket", seen.getString("socket"), base);
            assertEquals("previous_response_not_found", seen.getString("socket_error"));
        }
    }

    /**
     * The Vercel AI SDK ({@code ai@6}) with {@code @ai-sdk/open-responses} (pinned in
     * ear/src/test/node/vercel-client): generateText, streamText, a tool call handed back, and a
     * round trip whose tool the SDK executes — the provider is stateless and replays the
     * conversation every time — at both base URLs.
     */
    @Test
    void theVercelAiSdkDrivesItAtEitherBaseUrl() throws Exception {
        NodeClient client = NodeClient.install("vercel-client", "responses-it");
        for (String base : List.of("http://127.0.0.1:" + PORT, "http://127.0.0.1:" + PORT + "/v1")) {
            JsonObject seen = client.run("client.mjs", base);
            String output = seen.toString();
            assertEquals("hello from vercel", seen.getString("generated"), base);
            assertEquals("streamed from vercel", seen.getString("streamed"));
            assertTrue(seen.getInt("pieces") > 1, "the text came in several deltas: " + output);
            assertEquals("get_weather", seen.getString("tool_call"));
            assertTrue(seen.getString("tool_answer").contains("18C in Oslo"), output);
        }
    }

    // ------------------------------------------------------------------ compaction (spec §10)

    private static long words(String text) {
        String t = text.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    @Test
    void aCompactionSummarisesAChainIntoAnItemThatStartsANewOne() {
        JsonObject first = create(Json.createObjectBuilder().add("input", "the sky is green").build());
        Api.Reply compacted = post("/v1/responses/compact", Json.createObjectBuilder().add("model", "echo")
                .add("previous_response_id", first.getString("id")).add("input", "remember it").build());
        assertEquals(200, compacted.status(), compacted.body());
        JsonObject compaction = compacted.json();
        assertEquals(List.of("id", "object", "created_at", "output", "usage"), List.copyOf(compaction.keySet()));
        assertEquals("response.compaction", compaction.getString("object"));
        JsonObject item = compaction.getJsonArray("output").getJsonObject(0);
        assertEquals(1, compaction.getJsonArray("output").size());
        assertEquals("compaction", item.getString("type"));
        assertTrue(item.getString("id").startsWith("cmp_"));
        String sealed = item.getString("encrypted_content");
        assertFalse(sealed.contains("green"), "the summary is sealed, not readable");
        // The echo engine's summary is the transcript it was given.
        String transcript = "user: the sky is green\nassistant: the sky is green\nuser: remember it";
        assertEquals(words(transcript), compaction.getJsonObject("usage").getInt("input_tokens"));

        JsonObject next = create(Json.createObjectBuilder().add("input", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "compaction").add("encrypted_content", sealed))
                .add(Json.createObjectBuilder().add("role", "user").add("content", "what colour?"))).build());
        assertEquals("what colour?", text(next));
        assertEquals(words("Summary of the conversation so far:\n" + transcript) + 2,
                next.getJsonObject("usage").getInt("input_tokens"), "the engine saw the summary, then the new input");
        JsonObject after = create(Json.createObjectBuilder().add("previous_response_id", next.getString("id"))
                .add("input", "and now?").build());
        assertEquals(words("Summary of the conversation so far:\n" + transcript) + 2 + 2 + 2,
                after.getJsonObject("usage").getInt("input_tokens"), "the new chain carries the summary on");

        Api.Reply alias = post("/responses/compact", Json.createObjectBuilder().add("model", "echo")
                .add("input", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "compaction")
                        .add("encrypted_content", sealed))).build());
        assertEquals(200, alias.status(), alias.body());
        assertEquals("response.compaction", alias.json().getString("object"));
    }

    /**
     * The specification requires only {@code model} (issue 49: {@code compact({model,
     * previous_response_id})} without input was refused, as the official SDKs call it): input
     * absent, null or empty compacts the chain alone; with neither input nor a previous response
     * there is nothing to compact.
     */
    @Test
    void aCompactionOfAChainNeedsNoInput() {
        JsonObject first = create(Json.createObjectBuilder().add("input", "the sea is red").build());
        for (JsonObject body : List.of(
                Json.createObjectBuilder().add("model", "echo").add("previous_response_id", first.getString("id")).build(),
                Json.createObjectBuilder().add("model", "echo").add("previous_response_id", first.getString("id"))
                        .addNull("input").build(),
                Json.createObjectBuilder().add("model", "echo").add("previous_response_id", first.getString("id"))
                        .add("input", Json.createArrayBuilder()).build())) {
            Api.Reply compacted = post("/v1/responses/compact", body);
            assertEquals(200, compacted.status(), body + ": " + compacted.body());
            assertEquals(words("user: the sea is red\nassistant: the sea is red"),
                    compacted.json().getJsonObject("usage").getInt("input_tokens"), "the chain alone was summarised");
        }
        assertError(post("/v1/responses/compact", Json.createObjectBuilder().add("model", "echo").build()), 400,
                "invalid_request", "invalid_value", "input");
    }

    /**
     * Every error under either base carries the specification's members, whatever refused the
     * request (issue 49: the router's, the Accept filter's and the container's came in the API's
     * envelope, without {@code type} and {@code param}).
     */
    @Test
    void everyErrorUnderEitherBaseCarriesTheSpecificationsMembers() {
        for (String base : List.of("/v1/responses", "/responses")) {
            assertError(api.send(api.request(base + "/x").PUT(HttpRequest.BodyPublishers.noBody())), 404, "not_found",
                    "route_not_found", "");
            assertError(api.get(base + "/x/nope"), 404, "not_found", "route_not_found", "");
            assertError(api.send(api.request(base + "/x").header("Accept", "///").GET()), 400, "invalid_request",
                    "bad_request", "");
            assertError(api.send(api.request(base).header("Content-Type", "application/xml")
                    .POST(HttpRequest.BodyPublishers.ofString("<x/>"))), 415, "invalid_request", "unsupported_media_type", "");
            assertError(api.send(api.request(base + "/resp_none").DELETE()), 404, "not_found", "response_not_found", "");
        }
    }

    @Test
    void aCompactionNeedsAModelAndOnlyOpensUnaltered() {
        assertError(post("/v1/responses/compact", Json.createObjectBuilder().add("input", "hi").build()), 400,
                "invalid_request", "invalid_value", "model");
        assertError(post("/v1/responses/compact", Json.createObjectBuilder().add("model", "echo")
                .add("previous_response_id", "resp_unknown").add("input", "hi").build()), 404, "not_found",
                "previous_response_not_found", "previous_response_id");
        String sealed = post("/v1/responses/compact", Json.createObjectBuilder().add("model", "echo").add("input", "a secret")
                .build()).json().getJsonArray("output").getJsonObject(0).getString("encrypted_content");
        String altered = sealed.substring(0, sealed.length() - 2) + (sealed.endsWith("AA") ? "BB" : "AA");
        for (String content : List.of(altered, "not-a-compaction")) {
            assertError(post("/v1/responses", Json.createObjectBuilder().add("input", Json.createArrayBuilder()
                    .add(Json.createObjectBuilder().add("role", "user").add("content", "hi"))
                    .add(Json.createObjectBuilder().add("type", "compaction").add("encrypted_content", content))).build()),
                    400, "invalid_request", "invalid_value", "input[1].encrypted_content");
        }
    }

    // ------------------------------------------------------------------ WebSocket mode (spec §9)

    private static void assertSocketError(JsonObject message, int status, String code, String param) {
        assertEquals("error", message.getString("type"), message.toString());
        assertEquals(status, message.getInt("status"), message.toString());
        assertEquals(code, message.getJsonObject("error").getString("code"), message.toString());
        assertEquals(param, message.getJsonObject("error").getString("param"), message.toString());
    }

    /** A response's events over the socket, checked like the SSE stream's; returns the completed response. */
    private static JsonObject completed(List<JsonObject> events) {
        JsonObject end = events.get(events.size() - 1);
        assertEquals("response.completed", end.getString("type"), events.toString());
        assertEquals("response.created", events.get(0).getString("type"));
        assertEquals("response.in_progress", events.get(1).getString("type"));
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).getInt("sequence_number"), "sequence numbers count from 0 per response");
        }
        JsonObject response = end.getJsonObject("response");
        assertEquals(REQUIRED, List.copyOf(response.keySet()));
        assertEquals(events.stream().filter(e -> "response.output_text.delta".equals(e.getString("type")))
                .map(e -> e.getString("delta")).reduce("", String::concat), text(response));
        return response;
    }

    @Test
    void overAWebSocketResponsesRunInOrderAndContinueFromTheConnectionsMemory() {
        try (ResponsesSocketClient socket = ResponsesSocketClient.connect(PORT)) {
            socket.create(Json.createObjectBuilder().add("input", "first words").add("store", false).build());
            JsonObject first = completed(socket.untilEnd());
            assertEquals("first words", text(first));
            assertFalse(first.getBoolean("store"));

            // Not stored, so only this connection can continue it.
            assertError(post("/v1/responses", Json.createObjectBuilder().add("previous_response_id", first.getString("id"))
                    .add("input", "x").build()), 404, "not_found", "previous_response_not_found", "previous_response_id");
            socket.create(Json.createObjectBuilder().add("previous_response_id", first.getString("id"))
                    .add("input", "second").add("store", false).build());
            JsonObject second = completed(socket.untilEnd());
            assertEquals(first.getString("id"), second.getString("previous_response_id"));
            assertEquals(2 + 2 + 1, second.getJsonObject("usage").getInt("input_tokens"), "previous input and output came first");

            // Sent back to back: answered one after the other, in order.
            socket.create(Json.createObjectBuilder().add("previous_response_id", second.getString("id"))
                    .add("input", "third").build());
            socket.create(Json.createObjectBuilder().add("input", "fourth").build());
            JsonObject third = completed(socket.untilEnd());
            JsonObject fourth = completed(socket.untilEnd());
            assertEquals("third", text(third));
            assertEquals(2 + 2 + 1 + 1 + 1, third.getJsonObject("usage").getInt("input_tokens"));
            assertEquals("fourth", text(fourth));
            assertEquals(JsonValue.NULL, fourth.get("previous_response_id"));

            socket.create(Json.createObjectBuilder().add("previous_response_id", "resp_nothing").add("input", "x").build());
            assertSocketError(socket.next(Duration.ofSeconds(30)), 404, "previous_response_not_found", "previous_response_id");
            socket.send("{not json");
            assertSocketError(socket.next(Duration.ofSeconds(30)), 400, "invalid_json", "");
            socket.send(Json.createObjectBuilder().add("type", "response.cancel").build().toString());
            assertSocketError(socket.next(Duration.ofSeconds(30)), 400, "invalid_value", "type");

            // A continuation that fails evicts the response it continued.
            socket.create(Json.createObjectBuilder().add("previous_response_id", second.getString("id"))
                    .add("input", "x").add("temperature", "hot").build());
            assertSocketError(socket.next(Duration.ofSeconds(30)), 400, "invalid_value", "temperature");
            socket.create(Json.createObjectBuilder().add("previous_response_id", second.getString("id"))
                    .add("input", "again").build());
            assertSocketError(socket.next(Duration.ofSeconds(30)), 404, "previous_response_not_found", "previous_response_id");

            try (ResponsesSocketClient other = ResponsesSocketClient.connect(PORT)) {
                other.create(Json.createObjectBuilder().add("previous_response_id", first.getString("id"))
                        .add("input", "x").build());
                assertSocketError(other.next(Duration.ofSeconds(30)), 404, "previous_response_not_found",
                        "previous_response_id");
                other.create(Json.createObjectBuilder().add("previous_response_id", third.getString("id"))
                        .add("input", "stored ones continue anywhere").build());
                assertEquals(third.getString("id"), completed(other.untilEnd()).getString("previous_response_id"));
            }
        }
    }

    /**
     * What HTTP refuses, a WebSocket refuses alike (one validation for both wires), and a refused
     * or failing request never stalls the connection: the next request on it is answered. Nothing
     * of a refused request is stored.
     */
    @Test
    void aWebSocketRefusesWhatHttpRefusesAndGoesOnWithTheNextRequest() throws Exception {
        String deep = "{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000);
        List<String> bodies = List.of(
                "{\"model\":\"echo\",\"input\":\"a\\u0000b\"}",
                "{\"model\":\"echo\",\"input\":\"x\",\"instructions\":\"be\\u0000brief\"}",
                "{\"model\":\"ec\\u0000ho\",\"input\":\"x\"}",
                "{\"model\":\"echo\",\"input\":\"half \\ud800 a pair\"}",
                "{\"model\":\"echo\",\"input\":\"x\"} and more",
                "{\"model\":\"echo\",\"input\":\"x\",\"metadata\":" + deep + "}");
        try (ResponsesSocketClient socket = ResponsesSocketClient.connect(PORT)) {
            for (String body : bodies) {
                Api.Reply http = api.postJson("/v1/responses", body);
                JsonObject httpError = http.json().getJsonObject("error");
                socket.send("{\"type\":\"response.create\"," + body.substring(1));
                JsonObject refused = socket.next(Duration.ofSeconds(30));
                assertSocketError(refused, http.status(), httpError.getString("code"), httpError.getString("param"));
                assertEquals(400, http.status(), http.body());
                String where = "\\(line \\d+, column \\d+\\)"; // the socket's message starts with its type
                assertEquals(httpError.getString("message").replaceAll(where, ""),
                        refused.getJsonObject("error").getString("message").replaceAll(where, ""));
                socket.create(Json.createObjectBuilder().add("input", "still here").build());
                assertEquals("still here", text(completed(socket.untilEnd())), "the next request after " + body.substring(0, Math.min(40, body.length())));
            }
            socket.sendBinary(new byte[] {1, 2, 3});
            assertSocketError(socket.next(Duration.ofSeconds(30)), 400, "invalid_json", "");
            socket.create(Json.createObjectBuilder().add("input", "after binary").build());
            assertEquals("after binary", text(completed(socket.untilEnd())));
        }
        try (ResponsesSocketClient socket = ResponsesSocketClient.connect(PORT)) {
            // The server may close before the client has written it all: the close says why.
            socket.sendRefusable("{\"type\":\"response.create\",\"input\":\"" + "x".repeat(9 * 1024 * 1024) + "\"}");
            ResponsesSocketClient.Closed closed = socket.closed.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(new ResponsesSocketClient.Closed(1009, "message larger than 8388608 bytes"), closed);
        }
        assertEquals(0, TestDatabase.count("switchboard_it_responses", "SELECT count(*) FROM responses r WHERE r.response_id <> ? "
                + "AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.run_id = r.run_id)", ""), "no response stored without its run");
    }

    @Test
    void aWebSocketEndsAtItsLifetimeLimit() throws Exception {
        try (ResponsesSocketClient socket = ResponsesSocketClient.connect(PORT)) {
            socket.create(Json.createObjectBuilder().add("input", "before the limit").build());
            completed(socket.untilEnd());
            JsonObject limit = socket.next(Duration.ofMillis(SOCKET_LIFETIME_MS + 20_000));
            assertSocketError(limit, 400, "websocket_connection_limit_reached", "");
            assertEquals(1000, socket.closed.get(20, java.util.concurrent.TimeUnit.SECONDS).code());
        }
    }
}
