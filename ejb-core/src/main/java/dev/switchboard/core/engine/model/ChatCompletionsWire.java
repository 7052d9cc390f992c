package dev.switchboard.core.engine.model;

import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.engine.RunStream;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Chat completions ({@code POST /chat/completions}, the API of llama.cpp, Ollama and vLLM) with
 * {@code stream: true} and usage asked for. The conversation's Open Responses items become
 * messages: instructions a {@code system} message, function calls an assistant message's
 * {@code tool_calls}, their outputs {@code tool} messages. Streamed chunks carry text in
 * {@code choices[0].delta.content} and tool calls in pieces by {@code index}; a chunk with an
 * {@code error} fails the call.
 */
public final class ChatCompletionsWire implements ModelWire {

    @Override
    public String path() {
        return "/chat/completions";
    }

    private static final JsonObject NO_PARAMETERS = Jsons.createObjectBuilder().add("type", "object")
            .add("properties", JsonValue.EMPTY_JSON_OBJECT).build();

    @Override
    public JsonObject body(ModelCall call) {
        JsonObjectBuilder body = Jsons.createObjectBuilder()
                .add("model", call.model())
                .add("messages", messages(call))
                .add("stream", true)
                .add("stream_options", Jsons.createObjectBuilder().add("include_usage", true));
        call.maxOutputTokens().ifPresent(m -> body.add("max_tokens", m));
        call.reasoningEffort().ifPresent(e -> body.add("reasoning_effort", e));
        if (!call.tools().isEmpty()) {
            JsonArrayBuilder tools = Jsons.createArrayBuilder();
            for (JsonValue value : call.tools()) {
                JsonObject tool = value.asJsonObject();
                tools.add(Jsons.createObjectBuilder().add("type", "function").add("function", Jsons.createObjectBuilder()
                        .add("name", tool.getString("name")).add("description", tool.getString("description", ""))
                        .add("parameters", tool.get("parameters") instanceof JsonObject schema ? schema : NO_PARAMETERS)));
            }
            body.add("tools", tools).add("tool_choice", call.toolChoice() instanceof JsonObject named
                    ? Jsons.createObjectBuilder().add("type", "function").add("function", Jsons.createObjectBuilder()
                            .add("name", named.getString("name", ""))).build()
                    : call.toolChoice());
        }
        return body.build();
    }

    private static JsonArray messages(ModelCall call) {
        List<JsonObjectBuilder> messages = new ArrayList<>();
        call.instructions().ifPresent(i -> messages.add(Jsons.createObjectBuilder().add("role", "system").add("content", i)));
        JsonArrayBuilder pendingCalls = null;
        for (JsonObject item : call.input()) {
            String type = item.getString("type", "message");
            if ("function_call".equals(type)) {
                if (pendingCalls == null) {
                    pendingCalls = Jsons.createArrayBuilder();
                }
                pendingCalls.add(Jsons.createObjectBuilder().add("id", item.getString("call_id")).add("type", "function")
                        .add("function", Jsons.createObjectBuilder().add("name", item.getString("name"))
                                .add("arguments", item.getString("arguments", "{}"))));
                continue;
            }
            if (pendingCalls != null) { // the calls of one model message travel in one assistant message
                messages.add(Jsons.createObjectBuilder().add("role", "assistant").addNull("content")
                        .add("tool_calls", pendingCalls));
                pendingCalls = null;
            }
            if ("function_call_output".equals(type)) {
                messages.add(Jsons.createObjectBuilder().add("role", "tool").add("tool_call_id", item.getString("call_id"))
                        .add("content", item.getString("output", "")));
            } else if ("message".equals(type)) {
                String role = item.getString("role", "user");
                messages.add(Jsons.createObjectBuilder().add("role", "developer".equals(role) ? "system" : role)
                        .add("content", ClientCall.text(item)));
            }
        }
        if (pendingCalls != null) {
            messages.add(Jsons.createObjectBuilder().add("role", "assistant").addNull("content").add("tool_calls", pendingCalls));
        }
        JsonArrayBuilder array = Jsons.createArrayBuilder();
        messages.forEach(array::add);
        return array.build();
    }

    @Override
    public EventReader reader(RunStream stream) {
        return new EventReader() {
            private final StringBuilder text = new StringBuilder();
            private final TreeMap<Integer, String[]> calls = new TreeMap<>(); // index -> id, name, arguments
            private String id;
            private String model;
            private long inputTokens;
            private long outputTokens;
            private boolean anyChunk;
            private boolean streamed;

            @Override
            public void event(String event, String data) {
                if ("[DONE]".equals(data.strip())) {
                    return;
                }
                JsonObject chunk = ResponsesWire.parse(data);
                if (chunk.containsKey("error")) {
                    throw new ModelStreamException("the model server reported an error: " + ResponsesWire.errorMessage(chunk));
                }
                anyChunk = true;
                id = id == null ? ResponsesWire.string(chunk, "id") : id;
                model = model == null ? ResponsesWire.string(chunk, "model") : model;
                if (chunk.get("usage") instanceof JsonObject usage) {
                    inputTokens = ResponsesWire.count(usage, "prompt_tokens");
                    outputTokens = ResponsesWire.count(usage, "completion_tokens");
                }
                if (!(chunk.get("choices") instanceof JsonArray choices) || choices.isEmpty()) {
                    return;
                }
                JsonObject delta = choices.getJsonObject(0).get("delta") instanceof JsonObject d ? d : JsonValue.EMPTY_JSON_OBJECT;
                if (delta.get("content") instanceof JsonString content && !content.getString().isEmpty()) {
                    streamed = true;
                    text.append(content.getString());
                    stream.textDelta(content.getString());
                }
                if (delta.get("tool_calls") instanceof JsonArray pieces) {
                    for (JsonValue value : pieces) {
                        JsonObject piece = value.asJsonObject();
                        String[] call = calls.computeIfAbsent(piece.getInt("index", calls.size()), i -> new String[] {"", "", ""});
                        if (piece.get("id") instanceof JsonString callId) {
                            call[0] = callId.getString();
                        }
                        if (piece.get("function") instanceof JsonObject function) {
                            if (function.get("name") instanceof JsonString name) {
                                call[1] += name.getString();
                            }
                            if (function.get("arguments") instanceof JsonString arguments) {
                                call[2] += arguments.getString();
                            }
                        }
                    }
                }
            }

            @Override
            public ModelReply end() {
                if (!anyChunk) {
                    throw new ModelStreamException("the model's stream ended before any chunk");
                }
                List<JsonObject> functionCalls = calls.values().stream()
                        .map(c -> FunctionCalls.item(c[0], c[1], c[2].isEmpty() ? "{}" : c[2])).toList();
                return new ModelReply(text.toString(), functionCalls, id, model, inputTokens, outputTokens);
            }

            @Override
            public boolean streamedAny() {
                return streamed;
            }
        };
    }

    @Override
    public ModelReply whole(JsonObject answer) {
        if (!(answer.get("choices") instanceof JsonArray choices) || choices.isEmpty()
                || !(choices.getJsonObject(0).get("message") instanceof JsonObject message)) {
            throw new ModelStreamException("the model's answer is not a chat completion (no choices)");
        }
        List<JsonObject> functionCalls = new ArrayList<>();
        if (message.get("tool_calls") instanceof JsonArray toolCalls) {
            for (JsonValue value : toolCalls) {
                JsonObject call = value.asJsonObject();
                JsonObject function = call.getJsonObject("function");
                functionCalls.add(FunctionCalls.item(call.getString("id", ""), function.getString("name", ""),
                        function.getString("arguments", "{}")));
            }
        }
        JsonObject usage = answer.get("usage") instanceof JsonObject u ? u : JsonValue.EMPTY_JSON_OBJECT;
        return new ModelReply(message.get("content") instanceof JsonString c ? c.getString() : "", List.copyOf(functionCalls),
                ResponsesWire.string(answer, "id"), ResponsesWire.string(answer, "model"),
                ResponsesWire.count(usage, "prompt_tokens"), ResponsesWire.count(usage, "completion_tokens"));
    }
}
