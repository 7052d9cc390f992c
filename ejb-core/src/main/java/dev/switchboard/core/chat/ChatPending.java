package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.Approvals;
import dev.switchboard.core.conversation.PendingApproval;
import dev.switchboard.core.conversation.Redaction;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The tool approval a chat thread waits for, as stored ({@code chat_threads.pending}): the request
 * id an answer must echo, the waiting call (raw parameters, run when approved; redacted ones, shown),
 * every call of the model's message that was left (the waiting one first) and whether "always" may
 * be chosen. Plain: made from a paused run's output.
 */
public record ChatPending(UUID requestId, String toolName, String description, JsonObject parameters,
        JsonObject displayParameters, String toolCallId, List<JsonObject> calls, boolean allowAlways, String turnId,
        long createdAt) {

    public ChatPending {
        calls = List.copyOf(calls);
    }

    /**
     * The approval for a run that paused with {@code calls} left (its output's
     * {@code awaiting_approval.calls}, the waiting call first).
     */
    public static ChatPending of(List<JsonObject> calls, Function<String, Approvals.Need> needOf, Redaction redaction,
            String turnId, long now) {
        JsonObject call = calls.get(0);
        String name = call.getString("name", "");
        JsonObject parameters = arguments(call.getString("arguments", "{}"));
        JsonObject display = redaction.parameters(parameters, Set.of());
        return new ChatPending(UUID.randomUUID(), name, name + " " + display, parameters, display,
                call.getString("call_id", ""), calls, needOf.apply(name) != Approvals.Need.ALWAYS, turnId, now);
    }

    /** The spec's view of it, for the approval rules. */
    public PendingApproval approval() {
        return new PendingApproval(requestId, toolName, description, parameters, displayParameters, toolCallId,
                calls.subList(1, calls.size()), allowAlways);
    }

    /** What clients are shown (notifications, the thread's JSON): the redacted parameters only. */
    public JsonObject shown(String threadId) {
        return Jsons.createObjectBuilder().add("thread_id", threadId).add("request_id", requestId.toString())
                .add("tool_name", toolName).add("description", description).add("parameters", displayParameters)
                .add("allow_always", allowAlways).add("turn_id", turnId).build();
    }

    public String toJson() {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        calls.forEach(list::add);
        return Jsons.createObjectBuilder().add("request_id", requestId.toString()).add("tool_name", toolName)
                .add("description", description).add("parameters", parameters).add("display_parameters", displayParameters)
                .add("tool_call_id", toolCallId).add("calls", list).add("allow_always", allowAlways)
                .add("turn_id", turnId).add("created_at", createdAt).build().toString();
    }

    public static ChatPending fromJson(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            JsonObject o = reader.readObject();
            return new ChatPending(UUID.fromString(o.getString("request_id")), o.getString("tool_name"),
                    o.getString("description"), o.getJsonObject("parameters"), o.getJsonObject("display_parameters"),
                    o.getString("tool_call_id"), o.getJsonArray("calls").getValuesAs(JsonObject.class),
                    o.getBoolean("allow_always"), o.getString("turn_id"), o.getJsonNumber("created_at").longValue());
        }
    }

    /** A call's arguments as an object; what does not parse as one is kept under {@code arguments}. */
    static JsonObject arguments(String text) {
        try (JsonReader reader = Jsons.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() == JsonValue.ValueType.OBJECT) {
                return value.asJsonObject();
            }
        } catch (RuntimeException e) {
            // falls through: shown as the text it is
        }
        return Jsons.createObjectBuilder().add("arguments", text).build();
    }
}
