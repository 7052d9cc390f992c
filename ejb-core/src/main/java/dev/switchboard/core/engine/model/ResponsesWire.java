package dev.switchboard.core.engine.model;

import dev.switchboard.core.engine.RunStream;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Open Responses: {@code POST /responses} with {@code stream: true} and {@code store: false}.
 * Text comes as {@code response.output_text.delta}; {@code response.completed} carries the whole
 * response, whose output (messages and function calls) and usage are the reply; {@code error},
 * {@code response.failed} and {@code response.incomplete} end the call with the server's message.
 */
public final class ResponsesWire implements ModelWire {

    @Override
    public String path() {
        return "/responses";
    }

    @Override
    public JsonObject body(ModelCall call) {
        JsonArrayBuilder input = Jsons.createArrayBuilder();
        for (JsonObject item : call.input()) {
            input.add(withoutIdentity(item)); // ids of stored items mean nothing to a server that stores none
        }
        JsonObjectBuilder body = Jsons.createObjectBuilder()
                .add("model", call.model())
                .add("input", input)
                .add("stream", true)
                .add("store", false);
        call.instructions().ifPresent(i -> body.add("instructions", i));
        call.maxOutputTokens().ifPresent(m -> body.add("max_output_tokens", m));
        call.reasoningEffort().ifPresent(e -> body.add("reasoning", Jsons.createObjectBuilder().add("effort", e)));
        if (!call.tools().isEmpty()) {
            body.add("tools", call.tools()).add("tool_choice", call.toolChoice());
        }
        return body.build();
    }

    @Override
    public EventReader reader(RunStream stream) {
        return new EventReader() {
            private ModelReply reply;
            private boolean streamed;

            @Override
            public void event(String event, String data) {
                if ("[DONE]".equals(data.strip())) {
                    return;
                }
                JsonObject payload = parse(data);
                String type = payload.getString("type", event == null ? "" : event);
                switch (type) {
                    case "response.output_text.delta" -> {
                        String delta = payload.getString("delta", "");
                        if (!delta.isEmpty()) {
                            streamed = true;
                            stream.textDelta(delta);
                        }
                    }
                    case "response.completed" -> reply = whole(payload.getJsonObject("response"));
                    case "response.failed", "response.incomplete" -> throw new ModelStreamException(
                            "the model's response ended " + type.substring("response.".length()) + ": "
                                    + failure(payload.getJsonObject("response")));
                    case "error" -> throw new ModelStreamException("the model server reported an error: "
                            + errorMessage(payload));
                    default -> {
                        // lifecycle and part events: the completed response carries what they built
                    }
                }
            }

            @Override
            public ModelReply end() {
                if (reply == null) {
                    throw new ModelStreamException("the model's stream ended before response.completed");
                }
                return reply;
            }

            @Override
            public boolean streamedAny() {
                return streamed;
            }
        };
    }

    @Override
    public ModelReply whole(JsonObject response) {
        if (response == null || !(response.get("output") instanceof jakarta.json.JsonArray output)) {
            throw new ModelStreamException("the model's answer is not a response (no output)");
        }
        StringBuilder text = new StringBuilder();
        List<JsonObject> calls = new ArrayList<>();
        for (JsonValue value : output) {
            JsonObject item = value.asJsonObject();
            String type = item.getString("type", "");
            if ("message".equals(type) && "assistant".equals(item.getString("role", "assistant"))
                    && item.get("content") instanceof jakarta.json.JsonArray parts) {
                for (JsonValue part : parts) {
                    JsonObject p = part.asJsonObject();
                    if ("output_text".equals(p.getString("type", ""))) {
                        text.append(p.getString("text", ""));
                    }
                }
            } else if ("function_call".equals(type)) {
                calls.add(FunctionCalls.item(item.getString("call_id", item.getString("id", "")),
                        item.getString("name", ""), item.getString("arguments", "{}")));
            }
        }
        JsonObject usage = response.get("usage") instanceof JsonObject u ? u : JsonValue.EMPTY_JSON_OBJECT;
        return new ModelReply(text.toString(), List.copyOf(calls), string(response, "id"), string(response, "model"),
                count(usage, "input_tokens"), count(usage, "output_tokens"));
    }

    private static JsonObject withoutIdentity(JsonObject item) {
        JsonObjectBuilder copy = Jsons.createObjectBuilder();
        item.forEach((key, value) -> {
            if (!"id".equals(key) && !"status".equals(key)) {
                copy.add(key, value);
            }
        });
        return copy.build();
    }

    private static String failure(JsonObject response) {
        if (response != null && response.get("error") instanceof JsonObject error) {
            return errorMessage(Jsons.createObjectBuilder().add("error", error).build());
        }
        if (response != null && response.get("incomplete_details") instanceof JsonObject details) {
            return details.getString("reason", "incomplete");
        }
        return "no reason given";
    }

    /** {@code error.message} of an error body or event (nested, or flat as some servers send it). */
    static String errorMessage(JsonObject payload) {
        if (payload.get("error") instanceof JsonObject error && error.get("message") instanceof JsonString m) {
            return m.getString();
        }
        return payload.get("message") instanceof JsonString m ? m.getString() : payload.toString();
    }

    static JsonObject parse(String json) {
        try {
            return Jsons.readObject(json);
        } catch (RuntimeException e) {
            throw new ModelStreamException("the model server sent something that is not a JSON object");
        }
    }

    static String string(JsonObject object, String key) {
        return object.get(key) instanceof JsonString s ? s.getString() : null;
    }

    static long count(JsonObject object, String key) {
        return object.get(key) instanceof JsonNumber n ? n.longValue() : 0;
    }
}
