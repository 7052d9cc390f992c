package dev.switchboard.core.history;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What a run adds to its thread's conversation, as Open Responses items, each with an {@code id}
 * and {@code status: completed}: the run's input messages as the caller sent them, then the steps
 * of its tool loop (function calls and their outputs, as the engine listed them in its output's
 * {@code items}), then the assistant's reply as an {@code output_text} message. A run whose engine
 * failed adds its input only. Plain: unit tests drive it.
 */
public final class ConversationItems {

    private ConversationItems() {
    }

    /**
     * @param inputMessages the run's input messages ({@code type: message} with a role and content parts);
     *        items of another type (what a resumed tool loop is told) are not conversation and are left out
     * @param replyText the assistant's reply, or null / empty when there is none
     */
    public static List<JsonObject> ofRun(List<JsonObject> inputMessages, String replyText) {
        return ofRun(inputMessages, List.of(), replyText);
    }

    /** @param steps the tool loop's items, in order (their own ids kept) */
    public static List<JsonObject> ofRun(List<JsonObject> inputMessages, List<JsonObject> steps, String replyText) {
        List<JsonObject> items = new ArrayList<>(inputMessages.size() + steps.size() + 1);
        for (JsonObject message : inputMessages) {
            if ("message".equals(message.getString("type", "message"))) { // other input instructs the engine
                items.add(stored(message));
            }
        }
        for (JsonObject step : steps) {
            items.add(step.containsKey("id") && step.containsKey("status") ? step : stored(step));
        }
        if (replyText != null && !replyText.isEmpty()) {
            items.add(Jsons.createObjectBuilder()
                    .add("type", "message")
                    .add("id", newId())
                    .add("status", "completed")
                    .add("role", "assistant")
                    .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder()
                            .add("type", "output_text")
                            .add("text", replyText)
                            .add("annotations", JsonValue.EMPTY_JSON_ARRAY)))
                    .build());
        }
        return items;
    }

    /** The steps an engine listed in its output ({@code items}); none when it listed none or the output is not JSON. */
    public static List<JsonObject> steps(String outputJson) {
        if (outputJson == null || !outputJson.contains("\"items\"")) {
            return List.of();
        }
        try (JsonReader reader = Jsons.createReader(new StringReader(outputJson))) {
            return stepsOf(reader.readObject());
        } catch (RuntimeException notJson) {
            return List.of();
        }
    }

    /** The steps an engine listed in its output, already parsed. */
    public static List<JsonObject> stepsOf(JsonObject output) {
        JsonValue items = output.get("items");
        if (items == null || items.getValueType() != JsonValue.ValueType.ARRAY) {
            return List.of();
        }
        return items.asJsonArray().stream().filter(v -> v.getValueType() == JsonValue.ValueType.OBJECT)
                .map(JsonValue::asJsonObject).toList();
    }

    private static JsonObject stored(JsonObject message) {
        JsonObjectBuilder item = Jsons.createObjectBuilder().add("type", message.getString("type", "message"))
                .add("id", newId())
                .add("status", "completed");
        message.forEach((key, value) -> {
            if (!"type".equals(key) && !"id".equals(key) && !"status".equals(key)) {
                item.add(key, value);
            }
        });
        return item.build();
    }

    private static String newId() {
        return "msg_" + UUID.randomUUID().toString().replace("-", "");
    }
}
