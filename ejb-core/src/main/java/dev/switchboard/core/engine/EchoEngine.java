package dev.switchboard.core.engine;

import dev.switchboard.core.engine.model.FunctionCalls;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * jagc's echo executor: after a fixed delay, answers
 * {@code {"type":"message","text":<input>,"delivery_mode":<mode>}}. The delay is a timer, not a
 * sleeping thread, so thousands of concurrent echo runs cost no threads.
 *
 * <p>A client's model request ({@link ClientCall}, {@code POST /responses}) gets every output
 * shape, deterministically, so clients can be tested without a model: when its last input is a
 * {@code function_call_output}, text that includes that output; else, when its tool choice allows
 * a function tool, a call of the first one (arguments with every required property); else the
 * last message's text. Text is shown as several deltas spread over the delay; token counts are
 * words.
 */
public class EchoEngine implements AgentEngine {

    private static final int PIECES = 4;

    private final long delayMs;
    private final ScheduledExecutorService timer;

    public EchoEngine(long delayMs, ScheduledExecutorService timer) {
        if (delayMs < 0) {
            throw new IllegalArgumentException("echo delay must not be negative, was " + delayMs);
        }
        this.delayMs = delayMs;
        this.timer = timer;
    }

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        if (request.clientCall() != null) {
            return answer(request);
        }
        JsonObject output = reply(request.inputText(), request.deliveryMode());
        if (delayMs == 0) {
            return CompletableFuture.completedFuture(output);
        }
        CompletableFuture<JsonObject> result = new CompletableFuture<>();
        timer.schedule(() -> result.complete(output), delayMs, TimeUnit.MILLISECONDS);
        return result;
    }

    static JsonObject reply(String text, String deliveryMode) {
        return Jsons.createObjectBuilder()
                .add("type", "message")
                .add("text", text)
                .add("delivery_mode", deliveryMode)
                .build();
    }

    private CompletionStage<JsonObject> answer(EngineRequest request) {
        ClientCall call = request.call().orElseThrow();
        long inputTokens = words(request.history().get()) + words(call.input());
        JsonObject last = call.lastInput();
        List<JsonObject> tools = call.allowedTools();
        String text;
        List<JsonObject> items = new ArrayList<>();
        if (last != null && "function_call_output".equals(last.getString("type", ""))) {
            text = "function " + last.getString("call_id", "") + " returned: " + outputText(last.get("output"));
        } else if (!tools.isEmpty()) {
            JsonObject tool = tools.get(0);
            text = "";
            items.add(FunctionCalls.item("call_" + UUID.randomUUID().toString().replace("-", ""), tool.getString("name"),
                    arguments(tool.get("parameters"), last == null ? "" : ClientCall.text(last)).toString()));
        } else {
            text = last == null ? "" : ClientCall.text(last);
        }
        JsonObjectBuilder output = Jsons.createObjectBuilder().add("type", "message").add("text", text)
                .add("usage", Jsons.createObjectBuilder().add("input_tokens", inputTokens)
                        .add("output_tokens", words(text) + items.size()));
        if (!items.isEmpty()) {
            JsonArrayBuilder list = Jsons.createArrayBuilder();
            items.forEach(list::add);
            output.add("items", list);
        }
        CompletableFuture<JsonObject> result = new CompletableFuture<>();
        List<String> pieces = pieces(text);
        for (int i = 0; i < pieces.size(); i++) {
            String piece = pieces.get(i);
            long at = delayMs * i / Math.max(1, pieces.size());
            if (at == 0) {
                request.stream().textDelta(piece);
            } else {
                timer.schedule(() -> request.stream().textDelta(piece), at, TimeUnit.MILLISECONDS);
            }
        }
        JsonObject done = output.build();
        if (delayMs == 0) {
            result.complete(done);
        } else {
            timer.schedule(() -> result.complete(done), delayMs, TimeUnit.MILLISECONDS);
        }
        return result;
    }

    /** Arguments with every required property of the schema, of its type; strings carry {@code text}. */
    static JsonObject arguments(JsonValue parameters, String text) {
        JsonObjectBuilder arguments = Jsons.createObjectBuilder();
        if (!(parameters instanceof JsonObject schema) || !(schema.get("required") instanceof jakarta.json.JsonArray required)) {
            return arguments.build();
        }
        JsonObject properties = schema.get("properties") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
        for (JsonString name : required.getValuesAs(JsonString.class)) {
            JsonObject property = properties.get(name.getString()) instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
            String type = property.get("type") instanceof JsonString t ? t.getString() : "string";
            if (property.get("enum") instanceof jakarta.json.JsonArray values && !values.isEmpty()) {
                arguments.add(name.getString(), values.get(0));
                continue;
            }
            switch (type) {
                case "integer", "number" -> arguments.add(name.getString(), 0);
                case "boolean" -> arguments.add(name.getString(), false);
                case "array" -> arguments.add(name.getString(), JsonValue.EMPTY_JSON_ARRAY);
                case "object" -> arguments.add(name.getString(), arguments(property, text));
                case "null" -> arguments.addNull(name.getString());
                default -> arguments.add(name.getString(), text);
            }
        }
        return arguments.build();
    }

    private static String outputText(JsonValue output) {
        if (output instanceof JsonString s) {
            return s.getString();
        }
        return output == null ? "" : ClientCall.text(Jsons.createObjectBuilder().add("content", output).build());
    }

    /** The text in up to {@link #PIECES} pieces, split after spaces; together exactly the text. */
    static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        int size = Math.max(1, (text.length() + PIECES - 1) / PIECES);
        int from = 0;
        while (from < text.length()) {
            int to = Math.min(text.length(), from + size);
            int space = text.indexOf(' ', to);
            to = space < 0 || space - to > size ? to : space + 1;
            pieces.add(text.substring(from, to));
            from = to;
        }
        return pieces;
    }

    private static long words(String text) {
        String t = text.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    private static long words(List<JsonObject> items) {
        long n = 0;
        for (JsonObject item : items) {
            n += words(ClientCall.text(item));
        }
        return n;
    }
}
