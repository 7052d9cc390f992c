package dev.switchboard.it;

import com.sun.net.httpserver.HttpExchange;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

/**
 * The Open Responses wire of the tests' scripted model servers: reading a request, and answering
 * it with one streamed {@code response.completed} holding the scripted output items.
 */
final class ScriptedResponses {

    private ScriptedResponses() {
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
}
