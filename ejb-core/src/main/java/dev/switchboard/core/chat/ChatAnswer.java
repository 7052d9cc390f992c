package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.Submissions;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Optional;
import java.util.UUID;

/**
 * An answer to a thread's pending approval as a door receives it, checked: {@code action}
 * ({@code approve}, {@code always} or {@code deny}), {@code request_id} (the request's UUID; absent:
 * whatever is pending) and {@code channel} (as a message's).
 */
public record ChatAnswer(Optional<UUID> requestId, boolean approved, boolean always, String channel) {

    /** @throws ChatMessage.InvalidException naming the first member that is not valid */
    public static ChatAnswer of(JsonObject json) {
        JsonValue action = json.get("action");
        if (!(action instanceof JsonString a)) {
            throw new ChatMessage.InvalidException("action", "action is required: approve, always or deny");
        }
        boolean approved;
        boolean always;
        switch (a.getString()) {
            case "approve" -> {
                approved = true;
                always = false;
            }
            case "always" -> {
                approved = true;
                always = true;
            }
            case "deny" -> {
                approved = false;
                always = false;
            }
            default -> throw new ChatMessage.InvalidException("action", "Unknown action: " + a.getString());
        }
        JsonValue id = json.get("request_id");
        Optional<UUID> requestId = Optional.empty();
        if (id != null && id.getValueType() != JsonValue.ValueType.NULL) {
            requestId = id instanceof JsonString s ? Submissions.uuid(s.getString()) : Optional.empty();
            if (requestId.isEmpty()) {
                throw new ChatMessage.InvalidException("request_id", "Invalid request_id (expected UUID)");
            }
        }
        return new ChatAnswer(requestId, approved, always, ChatMessage.channel(json));
    }
}
