package dev.switchboard.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
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
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The Open Responses wire of the tests' scripted model servers: reading a request, and answering
 * it with one streamed {@code response.completed} holding the scripted output items.
 */
final class ScriptedResponses {

    private ScriptedResponses() {
    }

    /** A scripted model server on loopback answering {@code /v1/responses} with {@code responses}, started. */
    static HttpServer start(HttpHandler responses) throws IOException {
        HttpServer model = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        model.setExecutor(Executors.newCachedThreadPool());
        model.createContext("/v1/responses", responses);
        model.start();
        return model;
    }

    /** {@code http://127.0.0.1:<port>} of a scripted server. */
    static String base(HttpServer model) {
        return "http://127.0.0.1:" + model.getAddress().getPort();
    }

    /** {@code env} with the {@code openresponses} engine calling {@code model}. */
    static Map<String, String> engine(Map<String, String> env, HttpServer model) {
        env.put("SWITCHBOARD_ENGINE", "openresponses");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL", base(model) + "/v1");
        env.put("SWITCHBOARD_ENGINE_OPENRESPONSES_MODEL", "scripted-model");
        return env;
    }

    /** Stops the instance, then the model server (either may be null: a start that failed). */
    static void stop(Instance server, HttpServer model) {
        if (server != null) {
            server.stop();
        }
        if (model != null) {
            model.stop(0);
        }
    }

    static JsonObject read(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            return Json.createReader(new StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8))).readObject();
        }
    }

    /** The request's newest input item. */
    static JsonObject last(JsonObject request) {
        JsonArray input = request.getJsonArray("input");
        return input.getJsonObject(input.size() - 1);
    }

    /** Answers with {@code output} as a completed response {@code id}, streamed. */
    static void stream(HttpExchange exchange, String id, JsonArray output) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            JsonObject completed = Json.createObjectBuilder().add("type", "response.completed").add("sequence_number", 1)
                    .add("response", Json.createObjectBuilder().add("id", id).add("object", "response")
                            .add("status", "completed").add("model", "scripted-model").add("output", output)
                            .add("usage", Json.createObjectBuilder().add("input_tokens", 5).add("output_tokens", 2)
                                    .add("total_tokens", 7)))
                    .build();
            out.write(("event: response.completed\ndata: " + completed + "\n\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    static JsonObject message(String text) {
        return Json.createObjectBuilder().add("type", "message").add("id", "msg_m").add("role", "assistant")
                .add("status", "completed").add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("type", "output_text").add("text", text).add("annotations", Json.createArrayBuilder())))
                .build();
    }

    static JsonObject functionCall(String callId, String name, JsonObject arguments) {
        return Json.createObjectBuilder().add("type", "function_call").add("id", "fc_" + callId).add("call_id", callId)
                .add("name", name).add("arguments", arguments.toString()).add("status", "completed").build();
    }

    /** What the scripted models answer to a tool's output: {@code tool said: <output>}; null when the newest item is none. */
    static JsonObject toolSaid(JsonObject last) {
        return "function_call_output".equals(last.getString("type")) ? message("tool said: " + last.getString("output")) : null;
    }

    /** A call of {@code http_get} on {@code <model's base><path>}. */
    static JsonObject fetch(HttpServer model, String callId, String path) {
        return functionCall(callId, "http_get", Json.createObjectBuilder().add("url", base(model) + path).build());
    }
}
