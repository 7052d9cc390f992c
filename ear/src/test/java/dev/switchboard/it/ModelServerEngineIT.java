package dev.switchboard.it;

import static dev.switchboard.it.Rpc.method;
import static dev.switchboard.it.Rpc.params;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An instance running the {@code openresponses} engine, with the {@code echo_tool} tool, against a
 * scripted model server on loopback that streams Open Responses events: a thread's second message
 * reaches the model with the first exchange before it; text deltas reach subscribers as
 * {@code item/delta} while the model is still streaming; a tool call runs in the loop, shows as
 * steps and joins the stored history; the key appears in no log.
 *
 * <p>The model answers by what it is sent: after a tool's output, {@code tool said: <output>};
 * to {@code tool <text>}, a call of {@code echo_tool}; to {@code slow: <text>}, one delta, then it
 * waits for the test to have seen that delta, then the rest; otherwise {@code heard <n>: <text>}.
 */
class ModelServerEngineIT {

    private static final int PORT = 9207;
    private static final String KEY = "sk-it-0123456789abcdef";
    private static final List<JsonObject> REQUESTS = new CopyOnWriteArrayList<>();
    private static final List<String> AUTHORIZATIONS = new CopyOnWriteArrayList<>();
    private static final CountDownLatch DELTA_SEEN = new CountDownLatch(1);
    private static HttpServer model;
    private static Instance instance;
    private static Api api;
    private static Rpc rpc;

    @BeforeAll
    static void start() throws IOException {
        model = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        model.setExecutor(Executors.newCachedThreadPool());
        model.createContext("/v1/responses", ModelServerEngineIT::answer);
        model.start();
        String db = TestDatabase.recreate("switchboard_it_openresponses");
        Map<String, String> env = Instance.defaults(db, PORT, "it-openresponses");
        env.put("SWITCHBOARD_ENGINE", "openresponses");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL", "http://127.0.0.1:" + model.getAddress().getPort() + "/v1");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_API_KEY", KEY);
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_MODEL", "scripted-model");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_INSTRUCTIONS", "Answer briefly.");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_MODELS", "scripted-model-large");
        env.put("SWITCHBOARD_TOOLS", "echo_tool,current_time");
        env.put("SWITCHBOARD_AGENTS", "[{\"name\":\"mathbot\",\"instructions\":\"You do sums.\"}]");
        instance = Instance.start("it-openresponses", PORT, env);
        api = new Api("http://127.0.0.1:" + PORT);
        rpc = new Rpc(api);
    }

    @AfterAll
    static void stop() {
        DELTA_SEEN.countDown();
        if (instance != null) {
            instance.stop();
        }
        if (model != null) {
            model.stop(0);
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        JsonObject request;
        try (InputStream in = exchange.getRequestBody()) {
            request = Json.createReader(new StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8))).readObject();
        }
        REQUESTS.add(request);
        AUTHORIZATIONS.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        JsonArray input = request.getJsonArray("input");
        JsonObject last = input.getJsonObject(input.size() - 1);
        String id = "resp_" + REQUESTS.size();
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            int seq = 0;
            send(out, event("response.created", seq++).add("response", Json.createObjectBuilder().add("id", id)
                    .add("status", "in_progress")));
            JsonObject item;
            JsonObject also = null;
            int inputTokens = 10 * input.size();
            if ("function_call_output".equals(last.getString("type"))) {
                item = ScriptedResponses.message(streamText(out, seq, "tool said: " + last.getString("output")));
            } else {
                String text = last.getJsonArray("content").getJsonObject(0).getString("text");
                if (text.startsWith("delegate ")) {
                    item = ScriptedResponses.functionCall("call_d_" + id, "delegate", Json.createObjectBuilder()
                            .add("agent", "mathbot").add("input", text.substring(9)).build());
                } else if (text.startsWith("tool ")) {
                    item = Json.createObjectBuilder().add("type", "function_call").add("id", "fc_1").add("call_id", "call_" + id)
                            .add("name", "echo_tool").add("arguments", Json.createObjectBuilder()
                                    .add("text", text.substring(5)).build().toString())
                            .add("status", "completed").build();
                } else if (text.startsWith("weather ")) { // one of ours and one of the client's tools at once
                    item = Json.createObjectBuilder().add("type", "function_call").add("id", "fc_e").add("call_id", "call_e_" + id)
                            .add("name", "echo_tool").add("arguments", "{\"text\":\"noted\"}").add("status", "completed").build();
                    also = Json.createObjectBuilder().add("type", "function_call").add("id", "fc_w").add("call_id", "call_w_" + id)
                            .add("name", "get_weather").add("arguments", Json.createObjectBuilder()
                                    .add("city", text.substring(8)).build().toString())
                            .add("status", "completed").build();
                } else if (text.startsWith("slow: ")) {
                    send(out, delta(seq++, "part one "));
                    await(DELTA_SEEN);
                    item = ScriptedResponses.message("part one " + streamText(out, seq, "part two"));
                } else {
                    item = ScriptedResponses.message(streamText(out, seq, "heard " + input.size() + ": " + text));
                }
            }
            send(out, event("response.completed", 99).add("response", Json.createObjectBuilder()
                    .add("id", id).add("object", "response").add("status", "completed").add("model", request.getString("model"))
                    .add("output", also == null ? Json.createArrayBuilder().add(item) : Json.createArrayBuilder().add(item).add(also))
                    .add("usage", Json.createObjectBuilder().add("input_tokens", inputTokens).add("output_tokens", 4)
                            .add("total_tokens", inputTokens + 4))));
        }
    }

    /** Streams {@code text} in two deltas; returns it. */
    private static String streamText(OutputStream out, int seq, String text) throws IOException {
        int half = text.length() / 2;
        send(out, delta(seq, text.substring(0, half)));
        send(out, delta(seq + 1, text.substring(half)));
        return text;
    }

    private static JsonObjectBuilder event(String type, int seq) {
        return Json.createObjectBuilder().add("type", type).add("sequence_number", seq);
    }

    private static JsonObjectBuilder delta(int seq, String text) {
        return event("response.output_text.delta", seq).add("item_id", "msg_m").add("output_index", 0)
                .add("content_index", 0).add("delta", text);
    }

    private static void send(OutputStream out, JsonObjectBuilder event) throws IOException {
        JsonObject e = event.build();
        out.write(("event: " + e.getString("type") + "\ndata: " + e + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> history(String thread) {
        return api.get("/v1/threads/" + thread + "/items").json().getJsonArray("items")
                .getValuesAs(JsonObject.class).stream().map(e -> e.getJsonObject("item")).map(item -> switch (item.getString("type")) {
                    case "function_call" -> "call " + item.getString("name") + " " + item.getString("arguments");
                    case "function_call_output" -> "output " + item.getString("output");
                    default -> item.getString("role") + ": " + item.getJsonArray("content").getJsonObject(0).getString("text");
                }).toList();
    }

    @Test
    void aModelDelegatesToAnAgentThroughTheDelegateToolAndAnswersWithItsReply() {
        String thread = "delegating-" + UUID.randomUUID();
        int before = REQUESTS.size();
        JsonObject done = api.awaitRun(api.message(thread, "delegate what is 2+2").getString("run_id"), 30);
        assertEquals("tool said: heard 1: what is 2+2", done.getJsonObject("output").getString("text"), done.toString());
        List<JsonObject> sent = REQUESTS.subList(before, REQUESTS.size());
        assertEquals(3, sent.size(), "the caller twice (no replay of its first answer), mathbot once");
        JsonObject callee = sent.get(1);
        assertEquals("You do sums.", callee.getString("instructions"), "the agent's own instructions");
        assertEquals(1, callee.getJsonArray("input").size(), "a callee's path starts with only its input");
        JsonObject resumed = sent.get(2);
        assertEquals(List.of("message", "function_call", "function_call_output"), resumed.getJsonArray("input")
                .getValuesAs(JsonObject.class).stream().map(i -> i.getString("type")).toList());
        assertEquals(List.of("user: delegate what is 2+2", "call delegate {\"agent\":\"mathbot\",\"input\":\"what is 2+2\"}",
                "output heard 1: what is 2+2", "assistant: tool said: heard 1: what is 2+2"), history(thread));
        JsonObject tree = api.get("/v1/runs/" + done.getString("run_id") + "/tree").json();
        assertEquals(List.of("mathbot"), tree.getJsonArray("nodes").getValuesAs(JsonObject.class).stream()
                .filter(n -> n.getInt("depth") == 2).map(n -> n.getString("agent")).toList());
    }

    @Test
    void aThreadsRunsReachTheModelWithTheirHistoryAndTheRepliesJoinIt() throws IOException {
        String thread = "model-thread";
        JsonObject first = api.awaitRun(api.message(thread, "capital of Italy?").getString("run_id"), 30);
        assertEquals("succeeded", first.getString("status"), first.toString());
        assertEquals("heard 1: capital of Italy?", first.getJsonObject("output").getString("text"));
        JsonObject second = api.awaitRun(api.message(thread, "and of France?").getString("run_id"), 30);
        assertEquals("heard 3: and of France?", second.getJsonObject("output").getString("text"),
                "the model got the first question and its answer before the second");
        assertEquals(30, second.getJsonObject("output").getJsonObject("usage").getInt("input_tokens"));

        JsonObject sent = REQUESTS.get(REQUESTS.size() - 1);
        assertEquals("scripted-model", sent.getString("model"));
        assertEquals("Answer briefly.", sent.getString("instructions"));
        assertTrue(sent.getBoolean("stream"));
        assertEquals(List.of("echo_tool", "current_time", "delegate"), sent.getJsonArray("tools")
                .getValuesAs(JsonObject.class).stream().map(t -> t.getString("name")).toList(),
                "with agents configured, the server's tools include delegate");
        JsonArray input = sent.getJsonArray("input");
        assertEquals("assistant", input.getJsonObject(1).getString("role"));
        assertEquals("heard 1: capital of Italy?",
                input.getJsonObject(1).getJsonArray("content").getJsonObject(0).getString("text"));
        assertTrue(AUTHORIZATIONS.stream().allMatch(("Bearer " + KEY)::equals), AUTHORIZATIONS.toString());

        assertEquals(List.of("user: capital of Italy?", "assistant: heard 1: capital of Italy?", "user: and of France?",
                "assistant: heard 3: and of France?"), history(thread));

        try (var logs = Files.walk(Instance.outputDir("it-openresponses"))) {
            for (var file : logs.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(".log")).toList()) {
                assertFalse(Files.readString(file).contains(KEY), "the key appears in " + file);
            }
        }
    }

    @Test
    void authProvidersListTheConfiguredModelServerWithoutItsKey() {
        Api.Reply r = api.get("/v1/auth/providers");
        assertEquals(200, r.status());
        assertFalse(r.body().contains(KEY), r.body());
        JsonObject provider = r.json().getJsonArray("providers").getJsonObject(0);
        assertEquals("openresponses", provider.getString("provider"));
        assertTrue(provider.getBoolean("has_auth"));
        assertEquals("api_key", provider.getString("credential_type"));
        assertEquals("SWITCHBOARD_ENGINE_OPENRESPONSES_API_KEY", provider.getString("env_var_hint"));
        assertEquals(2, provider.getInt("available_models"), "scripted-model and scripted-model-large");
        assertEquals(2, provider.getInt("total_models"));
    }

    @Test
    void textDeltasReachSubscribersWhileTheModelIsStillStreaming() {
        try (Rpc.Stream stream = rpc.stream(null)) {
            String turn = rpc.startTurnId("delta-thread", "slow: hi");
            JsonObject delta = stream.await(n -> "item/delta".equals(method(n)) && turn.equals(Rpc.turnId(n)),
                    Duration.ofSeconds(30));
            DELTA_SEEN.countDown(); // only now may the model finish
            assertEquals("part one ", params(delta).getString("delta"));
            assertEquals("delta-thread", params(delta).getString("thread_id"));
            assertEquals(1, params(delta).getInt("attempt"));
            assertTrue(params(delta).getString("run_id").length() > 0);

            List<String> methods = stream.awaitTurn(turn, Duration.ofSeconds(30)).stream().map(Rpc::method).toList();
            assertTrue(methods.indexOf("item/delta") < methods.lastIndexOf("item/created"),
                    "the delta came before the reply's item: " + methods);
            assertEquals("turn/completed", methods.get(methods.size() - 1), methods::toString);
        }
        assertEquals("assistant: part one part two", history("delta-thread").get(1));
    }

    @Test
    void aToolCallRunsInTheLoopShowsAsStepsAndJoinsTheHistory() {
        try (Rpc.Stream stream = rpc.stream(null)) {
            String turn = rpc.startTurnId("tool-thread", "tool ping");
            List<JsonObject> notes = stream.awaitTurn(turn, Duration.ofSeconds(30));
            List<String> steps = notes.stream().filter(n -> "item/created".equals(method(n)))
                    .map(n -> params(n).getJsonObject("content"))
                    .map(c -> c.getString("type") + (c.containsKey("role") ? ":" + c.getString("role") : ""))
                    .toList();
            assertEquals(List.of("message:user", "function_call", "function_call_output", "message:assistant"), steps,
                    Rpc.summary(notes));
            JsonObject read = rpc.readTurn(turn);
            assertEquals("completed", read.getJsonObject("turn").getString("state"), read.toString());
        }
        assertEquals(List.of("user: tool ping", "call echo_tool {\"text\":\"ping\"}", "output ping",
                "assistant: tool said: ping"), history("tool-thread"));
        JsonObject second = REQUESTS.stream().filter(r -> {
            JsonArray in = r.getJsonArray("input");
            return "function_call_output".equals(in.getJsonObject(in.size() - 1).getString("type"));
        }).findFirst().orElseThrow();
        assertEquals("ping", second.getJsonArray("input").getJsonObject(second.getJsonArray("input").size() - 1)
                .getString("output"));
    }

    @Test
    void aResponsesClientsOwnToolIsOfferedToTheModelAndItsCallComesBackForTheClient() {
        JsonObject weather = Json.createObjectBuilder().add("type", "function").add("name", "get_weather")
                .add("description", "The weather in a city.").add("parameters", Json.createObjectBuilder()
                        .add("type", "object").add("properties", Json.createObjectBuilder()
                                .add("city", Json.createObjectBuilder().add("type", "string")))
                        .add("required", Json.createArrayBuilder().add("city")))
                .build();
        Api.Reply asked = api.postJson("/v1/responses", Json.createObjectBuilder().add("input", "weather Oslo")
                .add("tools", Json.createArrayBuilder().add(weather)).build().toString());
        assertEquals(200, asked.status(), asked.body());
        JsonArray output = asked.json().getJsonArray("output");
        assertEquals(1, output.size(), "our own echo_tool call was answered inside the run: " + output);
        JsonObject call = output.getJsonObject(0);
        assertEquals("function_call", call.getString("type"));
        assertEquals("get_weather", call.getString("name"));
        assertEquals("{\"city\":\"Oslo\"}", call.getString("arguments"));
        JsonObject sent = REQUESTS.stream().filter(r -> lastText(r).equals("weather Oslo")).findFirst().orElseThrow();
        assertEquals(List.of("get_weather", "echo_tool", "current_time", "delegate"), sent.getJsonArray("tools")
                .getValuesAs(JsonObject.class).stream().map(t -> t.getString("name")).toList());

        Api.Reply answered = api.postJson("/v1/responses", Json.createObjectBuilder()
                .add("previous_response_id", asked.json().getString("id"))
                .add("input", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "function_call_output")
                        .add("call_id", call.getString("call_id")).add("output", "-3C")))
                .add("tools", Json.createArrayBuilder().add(weather)).build().toString());
        assertEquals(200, answered.status(), answered.body());
        assertEquals("tool said: -3C", answered.json().getJsonArray("output").getJsonObject(0).getJsonArray("content")
                .getJsonObject(0).getString("text"));
        JsonObject continued = REQUESTS.get(REQUESTS.size() - 1);
        assertEquals(List.of("message", "function_call", "function_call_output", "function_call", "function_call_output"),
                continued.getJsonArray("input").getValuesAs(JsonObject.class).stream().map(i -> i.getString("type")).toList(),
                "the question, our call and its output, the client's call and the client's output");
    }

    private static String lastText(JsonObject request) {
        JsonArray input = request.getJsonArray("input");
        JsonObject last = input.getJsonObject(input.size() - 1);
        return last.containsKey("content") ? last.getJsonArray("content").getJsonObject(0).getString("text", "") : "";
    }

    private static JsonObject put(String path, String body) {
        Api.Reply r = api.send(api.request(path).header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static void assertPutError(String path, String body, String code) {
        Api.Reply r = api.send(api.request(path).header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(400, r.status(), r.body());
        assertEquals(code, r.errorCode(), r.body());
    }

    @Test
    void eachThreadChoosesItsEngineModelAndThinkingLevel() throws IOException {
        JsonObject catalogue = api.get("/v1/models").json();
        List<String> offered = catalogue.getJsonArray("providers").getValuesAs(JsonObject.class).stream()
                .flatMap(p -> p.getJsonArray("models").getValuesAs(JsonObject.class).stream())
                .map(m -> m.getString("provider") + "/" + m.getString("model_id")).toList();
        assertEquals(List.of("echo/echo", "openresponses/scripted-model", "openresponses/scripted-model-large"), offered);
        assertFalse(catalogue.toString().contains(KEY));

        JsonObject fresh = api.get("/v1/threads/never-chosen/runtime").json();
        assertEquals("openresponses", fresh.getJsonObject("model").getString("provider"), "the instance's engine");
        assertEquals("scripted-model", fresh.getJsonObject("model").getString("model_id"));
        assertEquals("off", fresh.getString("thinking_level"));
        assertTrue(fresh.getBoolean("supports_thinking"));

        JsonObject echo = put("/v1/threads/echo-thread/model", "{\"provider\":\"echo\",\"model_id\":\"echo\"}");
        assertEquals("echo", echo.getJsonObject("model").getString("provider"));
        assertFalse(echo.getBoolean("supports_thinking"));
        assertEquals(List.of("off"), echo.getJsonArray("available_thinking_levels").getValuesAs(jakarta.json.JsonString.class)
                .stream().map(jakarta.json.JsonString::getString).toList());
        int before = REQUESTS.size();
        JsonObject echoed = api.awaitRun(api.message("echo-thread", "no model here").getString("run_id"), 30);
        assertEquals("no model here", echoed.getJsonObject("output").getString("text"), "the echo engine answered");
        assertEquals(before, REQUESTS.size(), "the model server was not called");

        put("/v1/threads/large-thread/model", "{\"provider\":\"openresponses\",\"model_id\":\"scripted-model-large\"}");
        JsonObject thinking = put("/v1/threads/large-thread/thinking", "{\"thinking_level\":\"high\"}");
        assertEquals("high", thinking.getString("thinking_level"));
        assertEquals("scripted-model-large", thinking.getJsonObject("model").getString("model_id"), "the model choice is kept");
        JsonObject large = api.awaitRun(api.message("large-thread", "think hard").getString("run_id"), 30);
        assertEquals("heard 1: think hard", large.getJsonObject("output").getString("text"));
        JsonObject sent = REQUESTS.get(REQUESTS.size() - 1);
        assertEquals("scripted-model-large", sent.getString("model"));
        assertEquals("high", sent.getJsonObject("reasoning").getString("effort"));

        assertPutError("/v1/threads/large-thread/model", "{\"provider\":\"openresponses\"}", "invalid_model_payload");
        assertPutError("/v1/threads/large-thread/model", "{\"provider\":\"openresponses\",\"model_id\":\"gpt-9\"}",
                "thread_model_error");
        assertPutError("/v1/threads/large-thread/thinking", "{\"thinking_level\":\"maximal\"}", "invalid_thinking_payload");
        assertEquals("scripted-model-large", api.get("/v1/threads/large-thread/runtime").json().getJsonObject("model")
                .getString("model_id"), "a refused choice changes nothing");
    }
}
