package dev.switchboard.core.history;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What a run adds to its thread's conversation, as Open Responses items, each with a fresh
 * {@code id} and {@code status: completed}: the run's input messages as the caller sent them, then
 * the assistant's reply as an {@code output_text} message. A run whose engine failed adds its
 * input only. Plain: unit tests drive it.
 */
public final class ConversationItems {

    private ConversationItems() {
    }

    /**
     * @param inputMessages the run's input messages ({@code type: message} with a role and content parts)
     * @param replyText the assistant's reply, or null / empty when there is none
     */
    public static List<JsonObject> ofRun(List<JsonObject> inputMessages, String replyText) {
        List<JsonObject> items = new ArrayList<>(inputMessages.size() + 1);
        for (JsonObject message : inputMessages) {
            items.add(stored(message));
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

    private static JsonObject stored(JsonObject message) {
        JsonObjectBuilder item = Jsons.createObjectBuilder().add("type", "message").add("id", newId())
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
