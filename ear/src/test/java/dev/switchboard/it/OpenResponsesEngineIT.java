package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An instance running the {@code openresponses} engine against a scripted model server on loopback
 * that speaks Open Responses JSON and answers with what it was sent (how many input items, the
 * last text): a thread's second message reaches the model with the first exchange before it, the
 * reply is the run's output, and both exchanges are the thread's stored history.
 */
class OpenResponsesEngineIT {

    private static final int PORT = 9207;
    private static final String KEY = "sk-it-0123456789abcdef";
    private static final List<JsonObject> REQUESTS = new CopyOnWriteArrayList<>();
    private static final List<String> AUTHORIZATIONS = new CopyOnWriteArrayList<>();
    private static HttpServer model;
    private static Instance instance;
    private static Api api;

    @BeforeAll
    static void start() throws IOException {
        model = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        model.setExecutor(Executors.newCachedThreadPool());
        model.createContext("/v1/responses", exchange -> {
            JsonObject request;
            try (InputStream in = exchange.getRequestBody()) {
                request = Json.createReader(new StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8)))
                        .readObject();
            }
            REQUESTS.add(request);
            AUTHORIZATIONS.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            JsonArray input = request.getJsonArray("input");
            String last = input.getJsonObject(input.size() - 1).getJsonArray("content").getJsonObject(0).getString("text");
            String reply = "heard " + input.size() + ": " + last;
            byte[] body = Json.createObjectBuilder()
                    .add("id", "resp_" + REQUESTS.size()).add("object", "response").add("status", "completed")
                    .add("model", request.getString("model"))
                    .add("output", Json.createArrayBuilder().add(Json.createObjectBuilder()
                            .add("type", "message").add("id", "msg_m").add("role", "assistant").add("status", "completed")
                            .add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                                    .add("type", "output_text").add("text", reply).add("annotations", Json.createArrayBuilder())))))
                    .add("usage", Json.createObjectBuilder().add("input_tokens", 10 * input.size()).add("output_tokens", 4)
                            .add("total_tokens", 10 * input.size() + 4))
                    .build().toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        model.start();
        String db = TestDatabase.recreate("switchboard_it_openresponses");
        Map<String, String> env = Instance.defaults(db, PORT, "it-openresponses");
        env.put("SWITCHBOARD_ENGINE", "openresponses");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL", "http://127.0.0.1:" + model.getAddress().getPort() + "/v1");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_API_KEY", KEY);
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_MODEL", "scripted-model");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_INSTRUCTIONS", "Answer briefly.");
        instance = Instance.start("it-openresponses", PORT, env);
        api = new Api("http://127.0.0.1:" + PORT);
    }

    @AfterAll
    static void stop() {
        if (instance != null) {
            instance.stop();
        }
        if (model != null) {
            model.stop(0);
        }
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
        JsonArray input = sent.getJsonArray("input");
        assertEquals("assistant", input.getJsonObject(1).getString("role"));
        assertEquals("heard 1: capital of Italy?",
                input.getJsonObject(1).getJsonArray("content").getJsonObject(0).getString("text"));
        assertTrue(AUTHORIZATIONS.stream().allMatch(("Bearer " + KEY)::equals), AUTHORIZATIONS.toString());

        List<String> history = api.get("/v1/threads/" + thread + "/items").json().getJsonArray("items")
                .getValuesAs(JsonObject.class).stream()
                .map(e -> e.getJsonObject("item").getString("role") + ": "
                        + e.getJsonObject("item").getJsonArray("content").getJsonObject(0).getString("text"))
                .toList();
        assertEquals(List.of("user: capital of Italy?", "assistant: heard 1: capital of Italy?", "user: and of France?",
                "assistant: heard 3: and of France?"), history);

        try (var logs = Files.walk(Instance.outputDir("it-openresponses"))) {
            for (var file : logs.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(".log")).toList()) {
                assertFalse(Files.readString(file).contains(KEY), "the key appears in " + file);
            }
        }
    }
}
