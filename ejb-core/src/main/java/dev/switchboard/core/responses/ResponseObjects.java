package dev.switchboard.core.responses;

import dev.switchboard.core.history.ConversationItems;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Open Responses objects (spec §4) from a stored request and its run: every required key present,
 * nullable ones as {@code null}, in the specification's order; output items with {@code id},
 * {@code type} and {@code status}, text parts with {@code annotations} and {@code logprobs}.
 * Plain: unit tests drive it.
 */
public final class ResponseObjects {

    /** The run's errors that mean it was stopped, not that it failed. */
    private static final Set<String> STOPPED = Set.of("cancelled", "superseded", "interrupted");

    private ResponseObjects() {
    }

    /**
     * Where a response stands: {@code queued}, {@code in_progress}, {@code completed}, {@code failed}
     * or {@code cancelled}; output, usage and error once it ended.
     */
    public record State(String status, Long completedAtMs, List<JsonObject> output, JsonValue usage, JsonValue error) {

        public static State queued() {
            return new State("queued", null, List.of(), JsonValue.NULL, JsonValue.NULL);
        }

        public static State inProgress() {
            return new State("in_progress", null, List.of(), JsonValue.NULL, JsonValue.NULL);
        }

        public boolean isTerminal() {
            return completedAtMs != null;
        }
    }

    /**
     * The state of a response whose run is in {@code runState} (the lanes' wire state).
     *
     * @param outputJson the run's output when it succeeded
     */
    public static State state(String responseId, String runState, String outputJson, String errorCode,
            String errorMessage, Long finishedAt) {
        return switch (runState) {
            case "queued" -> State.queued();
            case "executing" -> State.inProgress();
            case "succeeded" -> {
                JsonObject output = parse(outputJson);
                yield new State("completed", finishedAt, outputItems(responseId, output), usage(output), JsonValue.NULL);
            }
            default -> STOPPED.contains(errorCode)
                    ? new State("cancelled", finishedAt, List.of(), JsonValue.NULL, JsonValue.NULL)
                    : new State("failed", finishedAt, List.of(), JsonValue.NULL, Jsons.createObjectBuilder()
                            .add("code", "model_error")
                            .add("message", errorMessage == null ? "the run failed" : errorMessage).build());
        };
    }

    /**
     * A run's output as response items: the assistant's text as a final-answer message (its id
     * derived from the response's, so every read shows the same), then the function calls the
     * client is to answer — calls the engine answered itself (its own tools) stay in the thread's
     * history, not in the response.
     */
    public static List<JsonObject> outputItems(String responseId, JsonObject output) {
        List<JsonObject> all = conversationItems(responseId, output);
        Set<String> answered = new HashSet<>();
        all.stream().filter(i -> "function_call_output".equals(i.getString("type", "")))
                .forEach(i -> answered.add(i.getString("call_id", "")));
        String reply = messageId(responseId);
        return all.stream().filter(i -> reply.equals(i.getString("id", ""))
                || "function_call".equals(i.getString("type", "")) && !answered.contains(i.getString("call_id", ""))).toList();
    }

    /**
     * What a response adds to its conversation for a continuation: its output items, and also the
     * calls the engine answered itself with their outputs, so the model that continues sees its own
     * tool results. The message comes first, as the model said it before its calls.
     */
    public static List<JsonObject> conversationItems(String responseId, String outputJson) {
        return conversationItems(responseId, parse(outputJson));
    }

    private static List<JsonObject> conversationItems(String responseId, JsonObject output) {
        List<JsonObject> items = new java.util.ArrayList<>();
        String text = output.getString("text", "");
        if (!text.isEmpty()) {
            items.add(message(messageId(responseId), text));
        }
        for (JsonObject step : ConversationItems.stepsOf(output)) {
            items.add(Jsons.createObjectBuilder(step).add("status", "completed").build());
        }
        return items;
    }

    public static JsonObject message(String id, String text) {
        return Jsons.createObjectBuilder().add("type", "message").add("id", id).add("status", "completed")
                .add("role", "assistant").add("phase", "final_answer")
                .add("content", Jsons.createArrayBuilder().add(textPart(text))).build();
    }

    /** An input message of one text part, as a client would send it. */
    public static JsonObject inputMessage(String role, String text) {
        return Jsons.createObjectBuilder().add("type", "message").add("role", role)
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder().add("type", "input_text")
                        .add("text", text))).build();
    }

    public static JsonObject textPart(String text) {
        return Jsons.createObjectBuilder().add("type", "output_text").add("text", text)
                .add("annotations", JsonValue.EMPTY_JSON_ARRAY).add("logprobs", JsonValue.EMPTY_JSON_ARRAY).build();
    }

    /** The response object: {@code echo} is the stored request's echoed fields (model filled in). */
    public static JsonObject response(String responseId, long createdAtMs, String previousResponseId, JsonObject echo,
            State state) {
        JsonArrayBuilder output = Jsons.createArrayBuilder();
        state.output().forEach(output::add);
        JsonObjectBuilder r = Jsons.createObjectBuilder()
                .add("id", responseId)
                .add("object", "response")
                .add("created_at", createdAtMs / 1000);
        if (state.completedAtMs() == null) {
            r.addNull("completed_at");
        } else {
            r.add("completed_at", state.completedAtMs() / 1000);
        }
        r.add("status", state.status())
                .addNull("incomplete_details")
                .add("model", echo.get("model"))
                .add("previous_response_id", previousResponseId == null ? JsonValue.NULL : Jsons.createValue(previousResponseId))
                .add("instructions", echo.get("instructions"))
                .add("output", output)
                .add("error", state.error());
        for (String key : List.of("tools", "tool_choice", "truncation", "parallel_tool_calls", "text", "top_p",
                "presence_penalty", "frequency_penalty", "top_logprobs", "temperature", "reasoning")) {
            r.add(key, echo.get(key));
        }
        r.add("usage", state.usage());
        for (String key : List.of("max_output_tokens", "max_tool_calls", "store", "background", "service_tier", "metadata",
                "safety_identifier", "prompt_cache_key")) {
            r.add(key, echo.get(key));
        }
        return r.build();
    }

    /** Open Responses usage from the engine's {@code usage} (zeros when it gave none). */
    static JsonObject usage(JsonObject output) {
        JsonObject usage = output.get("usage") instanceof JsonObject u ? u : JsonValue.EMPTY_JSON_OBJECT;
        long in = usage.get("input_tokens") instanceof JsonNumber n ? n.longValue() : 0;
        long out = usage.get("output_tokens") instanceof JsonNumber n ? n.longValue() : 0;
        return Jsons.createObjectBuilder().add("input_tokens", in).add("output_tokens", out).add("total_tokens", in + out)
                .add("input_tokens_details", Jsons.createObjectBuilder().add("cached_tokens", 0))
                .add("output_tokens_details", Jsons.createObjectBuilder().add("reasoning_tokens", 0)).build();
    }

    /** The id of a response's assistant message: the same on every read and in its stream. */
    public static String messageId(String responseId) {
        return "msg_" + (responseId.startsWith("resp_") ? responseId.substring(5) : responseId);
    }

    static JsonObject parse(String json) {
        if (json == null) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        return Jsons.readObject(json);
    }

    static String text(JsonValue value) {
        return value instanceof JsonString s ? s.getString() : "";
    }

    static JsonArray array(List<JsonObject> items) {
        JsonArrayBuilder b = Jsons.createArrayBuilder();
        items.forEach(b::add);
        return b.build();
    }
}
